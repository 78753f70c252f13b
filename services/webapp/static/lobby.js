// Before the deal and after the end: the lobby (who has joined, the variant and its house
// rules in the chat lobby's own words, Join / Leave, Add AI by level and Start for whoever
// may start, Invite), and the end's buttons under the game's result (Rematch, Leave, the
// replay). Every word is the server's: the table's `words.lobby` and the page's own.
import { element, avatar } from "./table.js";

const $ = (selector) => document.querySelector(selector);

function button(key, label, onclick, extra = {}) {
  return element("button", { type: "button", class: "decision", "data-word": key, onclick, ...extra }, label);
}

/** The lobby as `table` (a `table` event of a game in its lobby) shows it. */
export function renderLobby(table, page, { onWord, onInvite, myPhoto }) {
  const words = table.words.lobby || {};
  const section = $("#lobby");
  section.hidden = false;
  $("#lobby-title").textContent = words.title || "";
  $("#lobby-host").textContent = words.host || "";
  $("#lobby-settings").replaceChildren(...(words.settings || []).map((line) => element("li", {}, line)));
  const seats = table.game.seats.filter((s) => !s.left);
  $("#lobby-seats").replaceChildren(...seats.map((seat) => {
    const mine = seat.user_id === table.me;
    const level = (words.levels || {})[String(seat.seat)];
    return element("li", { class: "lobby-seat" + (mine ? " me" : ""), "data-seat": seat.seat, "data-ai": seat.ai || null },
      avatar(seat.name, mine ? myPhoto : null, seat.ai),
      element("span", { class: "name" }, seat.name),
      level ? element("span", { class: "level" }, level) : null);
  }));
  $("#lobby-foot").textContent = words.foot || "";
  const seated = seats.some((s) => s.user_id === table.me);
  const actions = [seated ? button("leave", page.leave, (e) => onWord({ action: "leave" }, e))
    : button("join", page.join, (e) => onWord({ action: "join" }, e))];
  if (table.may_start) {
    for (const level of ["strong", "random", "hard"]) {
      actions.push(button(`ai.${level}`, page[`ai.${level}`], (e) => onWord({ action: "ai", level }, e)));
    }
    actions.push(button("start", page.start, (e) => onWord({ action: "start" }, e), { class: "decision start" }));
  }
  if (table.invite) actions.push(button("invite", page.invite, (e) => onInvite(table, e)));
  $("#lobby-actions").replaceChildren(...actions);
}

export function hideLobby() {
  $("#lobby").hidden = true;
}

/** The end's buttons: Rematch (with the votes so far), Leave, and the replay. */
export function renderEnd(table, page, { onVote, replayHref }) {
  const end = $("#end");
  end.hidden = false;
  const rematch = table.game.rematch || null;
  const mine = rematch && [...(rematch.yes || []), ...(rematch.no || [])].includes(table.me);
  // who has voted which way, in the chat's words
  $("#end-votes").textContent = table.words.rematch || "";
  const actions = [];
  if (table.seat !== null && !table.removed && table.vote_open) {
    actions.push(button("rematch", page.rematch, (e) => onVote(true, e), { disabled: mine || null }));
    actions.push(button("leave", page.leave, (e) => onVote(false, e)));
  }
  actions.push(element("a", { class: "decision replay", href: replayHref, "data-word": "replay" }, page.replay));
  $("#end-actions").replaceChildren(...actions);
}

export function hideEnd() {
  $("#end").hidden = true;
}

/** Each seat's rating change in the game, in the server's words. */
export function renderRatings(lines) {
  $("#end-ratings").replaceChildren(...lines.map((line) =>
    element("li", { "data-seat": line.seat, class: line.change >= 0 ? "up" : "down" }, line.text)));
}
