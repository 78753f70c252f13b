// The table: the seats round an oval (you at the bottom, the others in the order of play
// clockwise from you), each with an avatar, a name, card backs fanned by count, its marks
// and, on the seat that owes the game's next decision, a ring running down to its deadline;
// in the middle the pile in the colour in play, the draw pile beside it, the draw owed and
// the direction of play. Every word is the server's (the table's `words`, the page's).
import { backSvg, cardSvg, named, COLOURS } from "./cards.js";

const $ = (selector) => document.querySelector(selector);

export function element(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function cardName(table, code) {
  const card = table.words.cards && table.words.cards[code];
  return card ? card.name : code;
}

/** A card's picture and, for an action or a wild, its whole name beneath it (wrapped,
 * never cut: the picture has no room for "Yellow Skip Everyone"). */
export function cardWithCaption(table, code, chosen) {
  const name = cardName(table, code);
  const parts = [cardSvg(code, chosen, name)];
  if (named(code)) parts.push(element("span", { class: "caption", "aria-hidden": "true" }, name));
  return parts;
}

// An avatar's colour from the name (the same person, the same colour on every device).
const AVATAR_COLOURS = ["#e17076", "#faa774", "#a695e7", "#7bc862", "#6ec9cb", "#65aadd", "#ee7aae"];
function avatarColour(name) {
  let sum = 0;
  for (const ch of name) sum = (sum * 31 + ch.codePointAt(0)) >>> 0;
  return AVATAR_COLOURS[sum % AVATAR_COLOURS.length];
}

function initials(name) {
  const words = name.replace(/[\u2066-\u2069]/g, "").trim().split(/\s+/).filter(Boolean);
  return words.slice(0, 2).map((w) => [...w][0]).join("").toUpperCase() || "?";
}

const RING = 2 * Math.PI * 27; // the ring timer's circumference (r = 27 in a 60×60 box)

function avatar(name, photo, ai) {
  const face = photo
    ? element("img", { src: photo, alt: "", class: "photo", referrerpolicy: "no-referrer" })
    : element("span", { class: "initials", "aria-hidden": "true" }, ai ? "🤖" : initials(name));
  const node = element("span", { class: "avatar" }, face);
  node.style.setProperty("--avatar", avatarColour(name));
  node.insertAdjacentHTML(
    "beforeend",
    `<svg class="ring" viewBox="0 0 60 60" aria-hidden="true"><circle cx="30" cy="30" r="27"/></svg>`,
  );
  return node;
}

/** Where each seat sits on the oval (percent of the table's box): you at the bottom, then
 * clockwise in the order of play; a spectator sees seat 0 at the bottom. */
function placeOf(index, count, mine) {
  const step = (2 * Math.PI) / count;
  const angle = Math.PI / 2 + ((index - (mine ?? 0) + count) % count) * step;
  return { x: 50 + 40 * Math.cos(angle), y: 50 + 41 * Math.sin(angle) };
}

export function renderSeats(table, page, { myPhoto, onSeat }) {
  const view = table.view;
  const infos = table.game.seats;
  const words = table.words;
  const list = $("#seats");
  const owing = view.pending ? view.pending.player : view.current;
  const over = table.over;
  const swapping = (view.legal || []).some((code) => code.startsWith("s."));
  // the seats as they were (a move that changed no seat): left as they are
  const shape = JSON.stringify([view.seats, infos, owing, over, table.seat, words.counts, view.legal, words.lang]);
  if (list.dataset.shape === shape) return;
  list.dataset.shape = shape;
  list.replaceChildren();
  for (const seat of view.seats) {
    const info = infos[seat.seat] || {};
    const mine = seat.seat === table.seat;
    const marks = [];
    if (info.ai) marks.push(["ai", page.ai]);
    if (info.away || info.left) marks.push(["away", page.away]);
    if (seat.frozen) marks.push(["frozen", page.frozen]);
    if (seat.knocked_out) marks.push(["out", page.knocked_out]);
    if (seat.declared_uno) marks.push(["uno", "UNO"]);
    const count = (words.counts || {})[seat.seat] || String(seat.cards);
    // UNO Flip: the sides of this player's cards that the table sees (RULES.md §3);
    // elsewhere plain backs, fanned, as many as they hold (a long hand shows its first few)
    const backs = element("span", { class: "backs", "aria-hidden": "true" });
    if (seat.back_faces) {
      for (const code of seat.back_faces) backs.append(cardSvg(code, null, cardName(table, code)));
    } else {
      for (let i = 0; i < Math.min(seat.cards, 7); i += 1) backs.append(backSvg());
    }
    backs.style.setProperty("--n", String(backs.children.length));
    [...backs.children].forEach((card, i) => card.style.setProperty("--i", String(i)));
    const where = placeOf(seat.seat, view.seats.length, table.seat);
    const current = seat.seat === owing && !over;
    const label = [info.name || seat.name, count, ...marks.map(([, word]) => word)].join(", ");
    // a 7's swap: the seats one may swap with are picked by tapping them (app.js puts
    // the decision's own button on each)
    const target = swapping && (view.legal || []).includes(`s.${seat.seat}`);
    const node = element(
      "li",
      {
        class: "seat" + (current ? " current" : "") + (mine ? " me" : "") + (target ? " target" : ""),
        "data-seat": seat.seat,
        "data-knocked-out": seat.knocked_out ? "1" : null,
        "data-frozen": seat.frozen ? "1" : null,
        "aria-label": label,
        "aria-current": current ? "true" : null,
        onclick: target ? () => onSeat(`s.${seat.seat}`) : undefined,
      },
      avatar(info.name || seat.name, mine ? myPhoto : null, info.ai),
      element("span", { class: "plate", "aria-hidden": "true" },
        element("span", { class: "name" }, seat.name),
        element("span", { class: "count", "data-cards": seat.cards }, count)),
      mine && !seat.back_faces ? null : backs,
      element("span", { class: "marks", "aria-hidden": "true" },
        ...marks.map(([kind, word]) => element("span", { class: `mark mark-${kind}`, title: word }, word))),
      element("span", { class: "score", "aria-hidden": "true" }, seat.score ? page.num(seat.score) : ""),
    );
    // never past the screen's edge, however narrow (a seat is 96 px wide)
    node.style.left = `clamp(48px, ${where.x}%, calc(100% - 48px))`;
    node.style.top = `${where.y}%`;
    list.append(node);
  }
}

/** The ring timer on the current seat, and the turn's words with its seconds. */
export function renderClock(table, page, serverNow) {
  const turn = $("#turn");
  const view = table && table.view;
  const ring = document.querySelector(".seat.current .ring circle");
  if (!view || table.over || !view.pending) {
    turn.textContent = table && table.over ? page.over : "";
    delete turn.dataset.left;
    return;
  }
  const owing = view.pending.player;
  const name = (table.game.seats[owing] || {}).name || `#${owing}`;
  const who = owing === table.seat ? page.your_turn : page.turn.replace("{name}", name);
  if (typeof table.deadline !== "number") {
    turn.textContent = who;
    delete turn.dataset.left;
    if (ring) ring.style.strokeDashoffset = "0";
    return;
  }
  const leftMs = Math.max(0, table.deadline - serverNow());
  const left = Math.ceil(leftMs / 1000);
  turn.dataset.left = String(left);
  turn.textContent = `${who} · ⏱ ${page.num(left)}`;
  if (ring) {
    const whole = Math.max(1, (table.game.turn_seconds || 60) * 1000);
    const share = Math.min(1, leftMs / whole);
    ring.style.strokeDasharray = `${RING}`;
    ring.style.strokeDashoffset = `${RING * (1 - share)}`;
    ring.parentNode.classList.toggle("late", share < 0.25);
  }
}

export function renderCentre(table, page) {
  const view = table.view;
  const words = table.words;
  const pile = $("#pile");
  pile.replaceChildren(...cardWithCaption(table, view.top, view.color));
  pile.dataset.top = view.top;
  pile.setAttribute("aria-label", `${page.discard_pile}: ${cardName(table, view.top)}${words.colour ? `, ${words.colour}` : ""}`);
  const colour = view.color && COLOURS[view.color];
  $("#centre").style.setProperty("--in-play", colour ? colour.fill : "transparent");
  $("#colour").textContent = colour ? words.colour : "";
  $("#colour").dataset.colour = view.color || "";
  $("#head").textContent = words.head || "";
  $("#fingerprint").textContent = words.fingerprint || "";
  const direction = $("#direction");
  direction.textContent = view.direction === 1 ? "↻" : "↺";
  direction.dataset.direction = String(view.direction);
  direction.setAttribute("aria-label", view.direction === 1 ? page.clockwise : page.anticlockwise);
  $("#ring-arrows").dataset.direction = String(view.direction);
  const owed = view.pending && view.pending.kind === "respond_to_draw" ? view.pending.amount : 0;
  $("#owed").dataset.owed = String(owed);
  $("#owed").textContent = owed ? `+${page.num(owed)}` : "";
  $("#draw-pile").textContent = words.pile || "";
  $("#catch").textContent = words.catch || "";
  // UNO Flip: the side in play, and the draw pile's top card as the table sees it
  document.body.dataset.side = view.side || "light";
  const back = view.draw_pile_back;
  $("#draw-back").replaceChildren(...(back ? [cardSvg(back, null, cardName(table, back))] : [backSvg()]));
  $("#draw-back").dataset.code = back || "";
  $("#draw-stack").setAttribute("aria-label", `${page.draw_pile}: ${words.pile || ""}`);
  $("#draw-count").textContent = page.num(view.draw_pile);
}
