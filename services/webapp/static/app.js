// The table's page: follows the game's stream (server-sent events, resumed by version),
// lays out the table (table.js), the hand (hand.js) and the decisions the engine's view
// lists as legal, sends a press as a move, and shows what happened with motion
// (motion.js), haptics and optional sounds. Everything it shows comes from the viewer's
// own view, and every word from the server: the table's `words`, and the page's own
// (GET /v1/me/words) in the language the bot speaks to the person.
import { tg, start, holdSeat, backButton, haptic, loadSetting, saveSetting, followTheme } from "./platform.js";
import { showGames } from "./games.js";
import { renderSeats, renderCentre, renderClock, element, cardName } from "./table.js";
import { renderHand, handKeys, setRoom } from "./hand.js";
import { renderLobby, hideLobby, renderEnd, hideEnd, renderRatings } from "./lobby.js";
import * as motion from "./motion.js";
import { sound, setSounds, soundsOn } from "./sound.js";
import { backSvg, cardSvg, COLOURS } from "./cards.js";

const $ = (selector) => document.querySelector(selector);

// The page's own words: none until the server's arrive ("…" meanwhile).
let page = { num: (n) => String(n) };

function learn(words) {
  const digits = words.digits || "0123456789";
  page = { ...words, num: (n) => String(n).replace(/[0-9]/g, (d) => digits[d]) };
  speak(words.lang, words.dir);
  $("#table").setAttribute("aria-label", page.table);
  $("#log").setAttribute("aria-label", page.moves);
  $("#draw-stack").setAttribute("aria-label", page.draw_pile);
  showSounds();
}

function speak(lang, dir) {
  if (!lang) return;
  document.documentElement.lang = lang;
  document.documentElement.dir = dir || "ltr";
}

async function loadWords() {
  try {
    const response = await fetch("/v1/me/words", { headers: { Authorization: `tma ${tg.initData}` } });
    if (response.ok) learn(await response.json());
  } catch { /* the server out of reach: the ticket's retry says so */ }
}

// the game shown: the launch's, until a rematch moves the page on to the next game
let gameId = tg.initDataUnsafe.start_param || new URLSearchParams(window.location.search).get("game") || "";
const myPhoto = (tg.initDataUnsafe.user || {}).photo_url || null;
let table = null;
// The server's clock less this device's (ms), from the last table: every clock counts to
// the server's deadline, whatever time the device thinks it is.
let clockOffset = 0;
const serverNow = () => Date.now() + clockOffset;
// The version a move is on its way for: a second tap on the same table is not sent, but
// a tap on a newer one is, even when the table came back before the first move's answer.
let sendingAt = null;
// Where the viewer's own last card left from (the hand or a drag), so it flies from there.
let launched = null;

function status(text) { $("#status").textContent = text || ""; }

/** A word of the page's, or "…" while its words are on their way. */
const say = (key) => page[key] || "…";

let noticeTimer = 0;
/** A short message; beside `anchor` (the card or button pressed) when there is one. */
function notice(text, anchor) {
  const node = $("#notice");
  node.textContent = text;
  node.hidden = !text;
  node.style.left = node.style.top = node.style.bottom = "";
  node.classList.toggle("beside", Boolean(anchor));
  if (text && anchor && anchor.isConnected) {
    const r = anchor.getBoundingClientRect();
    const width = Math.min(260, window.innerWidth - 16);
    node.style.width = `${width}px`;
    node.style.left = `${Math.max(8, Math.min(window.innerWidth - width - 8, r.left + r.width / 2 - width / 2))}px`;
    node.style.bottom = `${Math.max(8, window.innerHeight - r.top + 8)}px`;
  } else {
    node.style.width = "";
  }
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => { if (node.textContent === text) node.hidden = true; }, 2500);
}

/** Screen readers hear each move as it is made. */
function announce(lines) {
  if (lines.length) $("#announce").textContent = lines.join(". ");
}

function renderLog(lines) {
  const log = $("#log");
  for (const line of lines) log.append(element("li", { class: "fresh" }, line));
  while (log.children.length > 6) log.firstElementChild.remove();
}

// Over (somebody won) or ended early: nothing is owed any more.
function finished(next) {
  const view = next.view;
  return next.game.status === "over" || next.game.status === "ended" || (view && view.winner !== null && view.winner !== undefined);
}

// The game's end stays shown; a round's scores until the next round's first move.
function renderResult(words) {
  const result = $("#result");
  if (words.game_over) {
    result.textContent = words.game_over;
    result.dataset.over = "1";
    result.hidden = false;
    return;
  }
  const last = (words.results || []).at(-1);
  if (last) {
    result.textContent = last.text;
    result.dataset.round = String(last.round);
    result.hidden = false;
  } else if ((words.lines || []).length) {
    result.hidden = true;
  }
}

// Nothing is left to press once the game is over: no hand, no decision.
function clearHand() {
  $("#hand").replaceChildren();
  delete $("#hand").dataset.shape;
  $("#decisions").replaceChildren();
  $("#decisions").owed = null;
  $("#wheel").replaceChildren();
  $("#wheel").hidden = true;
  $("#uno").replaceChildren();
  for (const node of document.querySelectorAll(".catch-button, .swap-button")) node.remove();
  $("#why").textContent = "";
}

function decisionButton(code, label, extra = {}) {
  return element("button", { class: "decision", "data-action": code, onclick: (e) => send(code, e.currentTarget), ...extra }, label);
}

/** The decisions owed, each where it belongs: a colour as a wheel over the pile, UNO! as
 * a big button by the hand, Catch! on the seat that can be caught, a 7's swap on the seats
 * themselves (table.js), the rest (draw, keep, take, challenge) in a row above the hand. */
function renderDecisions(view) {
  const labels = table.words.actions || {};
  const row = $("#decisions");
  const wheel = $("#wheel");
  const colours = [];
  // the same decisions in the same words: the buttons there are the right ones
  const owed = JSON.stringify([view.legal || [], labels, table.words.why || ""]);
  if (row.owed === owed) return;
  row.owed = owed;
  row.replaceChildren();
  $("#uno").replaceChildren();
  for (const node of document.querySelectorAll(".catch-button, .swap-button")) node.remove();
  for (const code of view.legal || []) {
    const label = labels[code] || code;
    if (code.startsWith("p.")) continue;
    if (code.startsWith("c.")) { colours.push(code); continue; }
    if (code === "u") {
      $("#uno").append(decisionButton(code, label, { class: "decision uno" }));
    } else if (code.startsWith("x.") || code.startsWith("s.")) {
      // Catch! and a 7's swap on the seat they name
      const seat = seatNode(code.slice(2));
      const kind = code.startsWith("x.") ? "catch-button" : "swap-button";
      const button = decisionButton(code, label, { class: `decision ${kind}` });
      button.addEventListener("click", (event) => event.stopPropagation());
      (seat || row).append(button);
    } else {
      row.append(decisionButton(code, label));
    }
  }
  wheel.replaceChildren();
  wheel.hidden = colours.length === 0;
  colours.forEach((code, i) => {
    const colour = COLOURS[code.slice(2)];
    const button = decisionButton(code, labels[code] || code, { "data-colour": code.slice(2) });
    const angle = (360 / colours.length) * i - 90 + 180 / colours.length;
    button.style.setProperty("--a", `${angle}deg`);
    if (colour) { // a colour's button in that colour
      button.style.background = colour.fill;
      button.style.color = colour.ink || "#fff";
    }
    wheel.append(button);
  });
  $("#why").textContent = table.words.why || "";
}

function seatNode(seat) {
  return document.querySelector(`.seat[data-seat='${seat}']`);
}

/** Where things are on the screen before the table changes, read at once: the moves'
 * motion starts from these, and reading them after the new table is written would make
 * the browser lay it out there and then, in the middle of the move (a seat and the piles
 * stay where they are from move to move). */
function measure(events) {
  const rects = new Map();
  const rect = (key, node) => {
    if (node && !rects.has(key)) rects.set(key, node.getBoundingClientRect());
  };
  for (const item of events) {
    const e = item.event || {};
    const who = e.player ?? e.target;
    const seat = seatNode(who);
    if (e.type === "played") {
      rect("pile", $("#pile .card"));
      rect(`seat:${who}`, seat);
    } else if (e.type === "drew") {
      rect("draw", $("#draw-stack"));
      rect(`to:${who}`, seat && (seat.querySelector(".backs:not([hidden])") || seat));
    } else if (e.type === "roulette") {
      rect("pile-zone", $("#pile"));
    } else if (["skipped", "knocked_out", "caught", "round_ended"].includes(e.type)) {
      const whom = e.type === "caught" ? e.target : e.type === "round_ended" ? e.winner ?? who : who;
      rect(`seat:${whom}`, seatNode(whom));
    }
  }
  return rects;
}

/** What happened since the table before, shown: a card flies to the pile, draws fly to
 * the seat, a Skip is marked, a Reverse turns the arrows, a wild's colour spreads, Flip
 * turns the table, the roulette turns its cards, a knock-out and a win are marked; from
 * and to where `rects` (measure, before the table changed) says. */
function animate(events, rects) {
  const seatRect = (who) => rects.get(`seat:${who}`);
  for (const item of events) {
    const e = item.event || {};
    const who = e.player ?? e.target;
    switch (e.type) {
      case "played": {
        const mine = who === table.seat && launched && launched.code === e.card;
        const from = mine ? launched.rect : seatRect(who);
        const pile = $("#pile .card");
        const flight = pile && motion.fly(pile, from, pile, { hide: true, toRect: rects.get("pile") });
        if (mine && flight) holdTablesFor(motion.QUICK);
        if (!mine) sound("play");
        launched = null;
        break;
      }
      case "drew": {
        const to = rects.get(`to:${who}`);
        for (let i = 0; i < Math.min(e.count || 1, 3); i += 1) {
          if (to) motion.fly(backSvg(), rects.get("draw"), null, { delay: i * 60, duration: 220, toRect: to });
        }
        sound("draw");
        break;
      }
      case "skipped": motion.mark(seatRect(who), "⊘"); break;
      case "reversed": motion.turnRing($("#ring-arrows"), table.view.direction); break;
      case "color_chosen": {
        const colour = COLOURS[e.color];
        if (colour) motion.spread($("#felt"), colour.fill);
        break;
      }
      case "flipped": motion.turnOver($("#felt")); break;
      case "roulette":
        motion.roulette(rects.get("pile-zone"), (e.cards || []).map((code) => cardSvg(code, null, cardName(table, code))));
        break;
      case "knocked_out": motion.mark(seatRect(who), "☠"); break;
      case "caught":
        motion.mark(seatRect(e.target), "🫵");
        if (e.player === table.seat || e.target === table.seat) haptic("catch");
        sound("catch");
        break;
      case "round_ended": motion.mark(seatRect(e.winner ?? who), "★"); break;
      default: break;
    }
  }
}

// Your own card's flight is the motion you watch: a table that comes while it is in the air
// (the next player's answer, often an AI's a moment later) waits for it to land, since
// writing a table takes a slow phone longer than a frame and would stutter it. They wait
// in order, none dropped, for at most the flight's length.
const held = [];
let holding = 0;
function holdTablesFor(ms) {
  clearTimeout(holding);
  holding = setTimeout(letTablesThrough, ms);
}
function letTablesThrough() {
  clearTimeout(holding);
  holding = 0;
  while (held.length && !holding) render(held.shift());
}
function receive(next) {
  if (holding) held.push(next);
  else render(next);
}
function dropHeldTables() {
  clearTimeout(holding);
  holding = 0;
  held.length = 0;
}

/** A table written, and what that cost the page measured (bench/mini_app_page.py). */
function render(next) {
  performance.mark("uno:table");
  draw(next);
  performance.measure("uno:render", "uno:table");
}

function draw(next) {
  const before = table;
  const moved = Boolean(before && before.view && next.view && next.version > before.version);
  // read before anything is written (see measure)
  const rects = moved ? measure(next.events || []) : null;
  next.words = next.words || {}; // a replica older than the table's words sends none
  next.page = page;
  next.over = finished(next);
  table = next;
  if (typeof next.now === "number") clockOffset = next.now - Date.now();
  speak(next.words.lang, next.words.dir);
  document.body.dataset.version = String(next.version);
  document.body.dataset.role = next.seat === null ? "spectator" : "player";
  document.body.dataset.variant = next.game.variant;
  renderLog(next.words.lines || []);
  if (before) announce(next.words.lines || []);
  renderResult(next.words);
  document.body.dataset.game = next.game.game_id;
  document.body.dataset.status = next.game.status;
  if (!next.view) {
    const open = next.game.status === "lobby";
    // the lobby: who is in, the house rules, its words; a lobby closed before it started: over
    document.body.classList.toggle("in-lobby", open);
    if (open) {
      status("");
      renderLobby(next, page, { myPhoto, onWord: lobbyWord, onInvite: invite });
    } else {
      hideLobby();
      status(say("over"));
      document.body.dataset.over = "1";
    }
    $("#table").hidden = true;
    holdSeat(false);
    return;
  }
  if (document.body.classList.contains("in-lobby")) { // started: the lobby becomes the table
    document.body.classList.remove("in-lobby");
    hideLobby();
  }
  const over = next.over;
  const owing = over ? "" : String(next.view.pending ? next.view.pending.player : next.view.current);
  // who owes the game's next decision (a test, like a person, reads it off the page)
  const wasOwing = document.body.dataset.owing;
  document.body.dataset.owing = owing;
  if (over) document.body.dataset.over = "1";
  // out of the game (kicked): the table as a spectator sees it, and why (the server's words)
  status(over ? say("over") : next.removed ? next.removed.words : next.seat === null ? say("spectator") : "");
  $("#table").hidden = false;
  renderSeats(next, page, { myPhoto, onSeat: (code) => send(code, seatNode(code.slice(2))) });
  renderCentre(next, page);
  renderClock(next, page, serverNow);
  const playing = next.seat !== null && !over && !next.removed;
  holdSeat(playing);
  if (!playing) clearHand();
  else {
    renderHand(next, {
      onPlay: (code, button, rect) => play(code, button, rect),
      onDrop: (code, button) => send(`p.${code}`, button),
    });
    renderDecisions(next.view);
  }
  $("#draw-stack").classList.toggle("can-draw", playing && (next.view.legal || []).includes("d"));
  if (moved) animate(next.events || [], rects);
  if (over) {
    renderEnd(next, page, { onVote: vote, replayHref: `/replay?game=${encodeURIComponent(next.game.game_id)}${window.location.hash}` });
    const rematch = next.game.rematch;
    if (rematch && rematch.next_game_id) moveTo(rematch.next_game_id);
    // only a game played to its end is rated (one ended early is not)
    else if (next.game.status === "over" && ratingsFor !== next.game.game_id) loadRatings(next.game.game_id, 0);
  } else hideEnd();
  if (playing && owing === String(next.seat) && wasOwing !== owing) {
    haptic("turn");
    sound("turn");
  }
}

/** A refusal told beside what was pressed, in the server's words. */
async function refusedWith(response, anchor) {
  const body = await response.json().catch(() => ({}));
  document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
  notice(body.words || body.say || say(body.error === "slow_down" ? "slow" : "refused"), anchor);
  motion.nudge(anchor);
  haptic("refused");
}

let wordSent = false;
/** A lobby word (join, leave, an AI, start), through the same engine routes as the chat's
 * buttons: the lobby redraws itself from the stream. */
async function lobbyWord(body, event) {
  const anchor = event && event.currentTarget;
  if (wordSent) return;
  wordSent = true;
  try {
    const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/lobby`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `tma ${tg.initData}` },
      body: JSON.stringify(body),
    });
    if (!response.ok) await refusedWith(response, anchor);
    else haptic("play");
  } catch { notice(say("reconnecting"), anchor); } finally { wordSent = false; }
}

/** Rematch (yes) or Leave (no, and the app closes). */
async function vote(yes, event) {
  const anchor = event && event.currentTarget;
  const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/rematch`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `tma ${tg.initData}` },
    body: JSON.stringify({ vote: yes }),
  }).catch(() => null);
  if (response && !response.ok) await refusedWith(response, anchor);
  else if (!yes) tg.close();
}

/** Invite: Telegram's inline mode in a chat the person picks, the bot answering with the
 * lobby and a button opening the app on it; where the client refuses inline mode for the
 * app (or has no such call), Telegram's share page with the lobby's link and text, both
 * the server's. */
function invite(lobby, event) {
  try {
    tg.switchInlineQuery(lobby.invite, ["users", "groups"]);
  } catch {
    try {
      tg.openTelegramLink(lobby.share);
    } catch { // no link to share either (Telegram could not be asked): nothing to share with
      notice(say("refused"), event && event.currentTarget);
    }
  }
}

// The game whose rating changes are asked for: the records write them once the game's end
// reaches them, a moment after the page shows it, so the page asks again a few times.
let ratingsFor = null;
const RATINGS_TRIES = 20;
async function loadRatings(id, tries) {
  ratingsFor = id;
  const response = await fetch(`/v1/games/${encodeURIComponent(id)}/ratings`, {
    headers: { Authorization: `tma ${tg.initData}` },
  }).catch(() => null);
  if (ratingsFor !== id) return;
  const body = response && response.ok ? await response.json().catch(() => null) : null;
  if (body && body.lines.length) renderRatings(body.lines);
  else if ((!response || response.ok || response.status >= 500) && tries < RATINGS_TRIES) {
    setTimeout(() => { if (ratingsFor === id) loadRatings(id, tries + 1); }, 1500);
  }
}

/** The rematch is dealt: the page follows the new game, no reload. */
function moveTo(next) {
  if (next === gameId) return;
  if (source) source.close();
  gameId = next;
  dropHeldTables();
  table = null;
  $("#log").replaceChildren();
  $("#result").hidden = true;
  delete $("#result").dataset.over;
  delete document.body.dataset.over;
  hideEnd();
  renderRatings([]);
  ratingsFor = null;
  connect();
}

function play(code, button, rect) {
  launched = { code, rect: rect || button.getBoundingClientRect() };
  send(`p.${code}`, button);
}

async function send(action, anchor) {
  if (!table || sendingAt === table.version) return;
  const version = table.version;
  sendingAt = version;
  try {
    const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/moves`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `tma ${tg.initData}` },
      body: JSON.stringify({ action, version }),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      const key = { stale_version: "stale", illegal: "illegal", slow_down: "slow" }[body.error] || "refused";
      document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
      // the server's own words: why the rules refuse it, a catch someone else made first,
      // out of the game (kicked or gone from the group), in our language
      notice(body.say || body.words || say(key), anchor);
      motion.nudge(anchor);
      haptic("refused");
      sound("refused");
      launched = null;
    } else {
      haptic(action.startsWith("x.") ? "catch" : "play");
      if (action.startsWith("p.")) sound("play");
    }
  } finally {
    if (sendingAt === version) sendingAt = null;
  }
}

// The stream opens with a ticket, never with initData in its URL (proxies log URLs): each
// connect and each reconnect first trades initData, in a header, for a ticket good for
// this game, once, for a couple of minutes. The page reconnects by itself (an
// EventSource would retry with its spent ticket), from the version it last showed.
const RETRY_MS = 1000;
const BUSY_RETRY_MS = 5000;
const wordsReady = loadWords();
let source = null;

async function connect() {
  if (!gameId) { // the menu button's launch: the list of one's games, no table
    document.body.classList.add("no-game");
    $("#table").hidden = true;
    await wordsReady;
    showGames(tg, status);
    return;
  }
  let response;
  try {
    response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/tickets`, {
      method: "POST",
      headers: { Authorization: `tma ${tg.initData}` },
    });
  } catch {
    status(say(table ? "reconnecting" : "connecting"));
    setTimeout(connect, RETRY_MS); // the server is out of reach: try again
    return;
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    await wordsReady;
    const busy = body.error === "too_many_streams";
    const key = busy ? (body.limit === "game" ? "busy_game" : "busy_person")
      : { slow_down: "slow", no_game: "no_game" }[body.error] || "refused";
    if (response.status === 429 || response.status >= 500) {
      status(response.status === 429 ? say(key) : say(table ? "reconnecting" : "connecting"));
      setTimeout(connect, busy ? BUSY_RETRY_MS : Math.max(RETRY_MS, body.retry_after_ms || 0));
    } else {
      status(page[key] || body.message); // not this person's table: nothing to wait for
    }
    return;
  }
  const since = table ? `&since=${table.version}` : "";
  const mine = gameId;
  if (source) source.close();
  source = new EventSource(
    `/v1/games/${encodeURIComponent(gameId)}/stream?ticket=${encodeURIComponent(body.ticket)}${since}`);
  // the stream opens without waiting for the page's words; a table waits for them
  const stream = source;
  stream.addEventListener("table", async (event) => {
    await wordsReady;
    if (mine !== gameId) return; // a table of the game before a rematch
    receive(JSON.parse(event.data));
  });
  stream.addEventListener("gone", () => {
    stream.close();
    letTablesThrough();
    status(say("over"));
    document.body.dataset.over = "1";
    clearHand();
    holdSeat(false);
    $("#turn").textContent = say("over");
  });
  // out of the game for leaving its group: no more tables, and no reconnecting
  stream.addEventListener("removed", (event) => {
    stream.close();
    letTablesThrough();
    clearHand();
    holdSeat(false);
    status(JSON.parse(event.data).words);
  });
  stream.onerror = () => { // the stream dropped, or was refused: a new ticket, again
    stream.close();
    if (stream !== source) return; // left for a rematch's game
    status(say("reconnecting"));
    setTimeout(connect, RETRY_MS);
  };
  stream.onopen = () => {
    if (table) status(table.removed ? table.removed.words : table.seat === null ? say("spectator") : "");
  };
}

// Sounds: off unless the person turned them on, remembered in their Telegram storage.
function showSounds() {
  const button = $("#sounds");
  button.setAttribute("aria-pressed", String(soundsOn()));
  button.setAttribute("aria-label", soundsOn() ? say("sounds_on") : say("sounds_off"));
  button.title = button.getAttribute("aria-label");
  button.textContent = soundsOn() ? "🔊" : "🔇";
}

$("#sounds").addEventListener("click", () => {
  setSounds(!soundsOn());
  saveSetting("sounds", soundsOn() ? "1" : "");
  showSounds();
});
loadSetting("sounds").then((value) => { setSounds(value === "1"); showSounds(); });

// Tapping the draw pile draws, when drawing is what the rules allow.
$("#draw-stack").addEventListener("click", (event) => {
  if (table && (table.view.legal || []).includes("d")) send("d", event.currentTarget);
});

// Keyboard play: arrows move along the hand, Enter or Space plays the card in focus (a
// button's own), D draws, U calls UNO.
document.addEventListener("keydown", (event) => {
  if (event.target.closest && event.target.closest("input, textarea")) return;
  handKeys(event);
  const key = event.key.toLowerCase();
  if (key === "d" && table && (table.view?.legal || []).includes("d")) send("d", $("#draw-stack"));
  if (key === "u") $("#uno .decision")?.click();
});

// The hand is laid out for the width it has: again when that changes.
let resizing = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizing);
  resizing = requestAnimationFrame(() => {
    setRoom(window.innerWidth, window.innerHeight);
    if (table && table.view && table.seat !== null && !table.over && !table.removed) {
      renderHand(table, { onPlay: play, onDrop: (code, button) => send(`p.${code}`, button) });
    }
  });
});

// Opened from the list of one's games: Telegram's Back button goes back to it.
if (gameId && sessionStorage.getItem("uno:from-list")) {
  backButton(() => { window.location.href = `/${window.location.hash}`; });
}

start();
followTheme();
setInterval(() => table && renderClock(table, page, serverNow), 250); // a second's change shows within a quarter of it
wordsReady.then(() => { if (gameId && !table) status(say("connecting")); });
connect();
