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

export function avatar(name, photo, ai) {
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

/** The change a table makes, written only where it differs: what the page shows and what
 * a style recalculation would have to look at stay the same for everything else. */
export function setAttr(node, name, value) {
  if (value === null || value === undefined || value === false) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else {
    const text = value === true ? "" : String(value);
    if (node.getAttribute(name) !== text) node.setAttribute(name, text);
  }
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function setStyle(node, property, value) {
  if (node.style.getPropertyValue(property) !== value) node.style.setProperty(property, value);
}

/** A seat's node, made once and kept while the seat is at the table: a move changes its
 * words, marks and backs in place (its ring, counting down, is the same node). */
function seatShell(number, onSeat) {
  const node = element("li", { class: "seat", "data-seat": number });
  node.plate = element("span", { class: "plate", "aria-hidden": "true" },
    element("span", { class: "name" }), element("span", { class: "count" }));
  node.backs = element("span", { class: "backs", "aria-hidden": "true" });
  node.marks = element("span", { class: "marks", "aria-hidden": "true" });
  node.score = element("span", { class: "score", "aria-hidden": "true" });
  node.append(node.plate, node.backs, node.marks, node.score);
  // a 7's swap: the seats one may swap with are picked by tapping them (app.js puts
  // the decision's own button on each)
  node.addEventListener("click", () => { if (node.pick) onSeat(node.pick); });
  return node;
}

function fillSeat(node, table, page, seat, { myPhoto, owing, swapping }) {
  const view = table.view;
  const info = table.game.seats[seat.seat] || {};
  const words = table.words;
  const mine = seat.seat === table.seat;
  const name = info.name || seat.name;
  const marks = [];
  if (info.ai) marks.push(["ai", page.ai]);
  if (info.away || info.left) marks.push(["away", page.away]);
  if (seat.frozen) marks.push(["frozen", page.frozen]);
  if (seat.knocked_out) marks.push(["out", page.knocked_out]);
  if (seat.declared_uno) marks.push(["uno", "UNO"]);
  const count = (words.counts || {})[seat.seat] || String(seat.cards);
  const current = seat.seat === owing && !table.over;
  const target = swapping && (view.legal || []).includes(`s.${seat.seat}`);
  node.pick = target ? `s.${seat.seat}` : null;
  setAttr(node, "class", "seat" + (current ? " current" : "") + (mine ? " me" : "") + (target ? " target" : ""));
  setAttr(node, "data-knocked-out", seat.knocked_out ? "1" : null);
  setAttr(node, "data-frozen", seat.frozen ? "1" : null);
  setAttr(node, "aria-label", [name, count, ...marks.map(([, word]) => word)].join(", "));
  setAttr(node, "aria-current", current ? "true" : null);
  // the face: made again only for another person, photo or AI
  const photo = mine ? myPhoto : null;
  const face = JSON.stringify([name, photo, Boolean(info.ai)]);
  if (node.face !== face) {
    node.face = face;
    const fresh = avatar(name, photo, info.ai);
    if (node.avatar) node.avatar.replaceWith(fresh);
    else node.prepend(fresh);
    node.avatar = fresh;
  }
  const [nameNode, countNode] = node.plate.children;
  setText(nameNode, seat.name);
  setText(countNode, count);
  setAttr(countNode, "data-cards", seat.cards);
  // your own seat shows no backs: your cards are in your hand (UNO Flip's backs aside)
  const none = mine && !seat.back_faces;
  fillBacks(node.backs, table, none ? { cards: 0 } : seat);
  if (node.backs.hidden !== none) node.backs.hidden = none;
  const marked = JSON.stringify(marks);
  if (node.marked !== marked) {
    node.marked = marked;
    node.marks.replaceChildren(
      ...marks.map(([kind, word]) => element("span", { class: `mark mark-${kind}`, title: word }, word)));
  }
  setText(node.score, seat.score ? page.num(seat.score) : "");
  // where the seat sits: never past the screen's edge, however narrow (a seat is 96 px wide)
  const where = placeOf(seat.seat, view.seats.length, table.seat);
  setStyle(node, "left", `clamp(48px, ${where.x}%, calc(100% - 48px))`);
  setStyle(node, "top", `${where.y}%`);
}

/** The backs a seat shows: UNO Flip's sides of this player's cards that the table sees
 * (RULES.md §3); elsewhere plain backs, fanned, as many as they hold (a long hand shows
 * its first few). A card more or less adds or takes one back, the rest stay. */
function fillBacks(backs, table, seat) {
  const kind = seat.back_faces ? `faces|${table.words.lang}` : "plain";
  if (backs.kind !== kind) {
    backs.kind = kind;
    backs.replaceChildren();
  }
  if (seat.back_faces) {
    const faces = seat.back_faces.join(" ");
    if (backs.faces !== faces) {
      backs.faces = faces;
      backs.replaceChildren(...seat.back_faces.map((code) => cardSvg(code, null, cardName(table, code))));
    }
  } else {
    const want = Math.min(seat.cards, 7);
    while (backs.children.length > want) backs.lastElementChild.remove();
    while (backs.children.length < want) {
      const card = backSvg();
      card.style.setProperty("--i", String(backs.children.length));
      backs.append(card);
    }
  }
  [...backs.children].forEach((card, i) => setStyle(card, "--i", String(i)));
  setStyle(backs, "--n", String(backs.children.length));
}

export function renderSeats(table, page, { myPhoto, onSeat }) {
  const view = table.view;
  const list = $("#seats");
  const owing = view.pending ? view.pending.player : view.current;
  const swapping = (view.legal || []).some((code) => code.startsWith("s."));
  const kept = new Map([...list.children].map((node) => [node.dataset.seat, node]));
  let at = list.firstElementChild;
  for (const seat of view.seats) {
    const key = String(seat.seat);
    let node = kept.get(key);
    kept.delete(key);
    if (!node) node = seatShell(seat.seat, onSeat);
    fillSeat(node, table, page, seat, { myPhoto, owing, swapping });
    if (node === at) at = at.nextElementSibling;
    else list.insertBefore(node, at);
  }
  for (const gone of kept.values()) gone.remove();
}

/** The ring timer on the current seat, and the turn's words with its seconds: written
 * four times a second, so only what changed is (an unchanged line lays nothing out). */
export function renderClock(table, page, serverNow) {
  const turn = $("#turn");
  const view = table && table.view;
  const ring = document.querySelector(".seat.current .ring circle");
  if (!view || table.over || !view.pending) {
    setText(turn, table && table.over ? page.over : "");
    delete turn.dataset.left;
    return;
  }
  const owing = view.pending.player;
  const name = (table.game.seats[owing] || {}).name || `#${owing}`;
  const who = owing === table.seat ? page.your_turn : page.turn.replace("{name}", name);
  if (typeof table.deadline !== "number") {
    setText(turn, who);
    delete turn.dataset.left;
    if (ring) setStyle(ring, "stroke-dashoffset", "0");
    return;
  }
  const leftMs = Math.max(0, table.deadline - serverNow());
  const left = Math.ceil(leftMs / 1000);
  setAttr(turn, "data-left", left);
  setText(turn, `${who} · ⏱ ${page.num(left)}`);
  if (ring) {
    const whole = Math.max(1, (table.game.turn_seconds || 60) * 1000);
    const share = Math.min(1, leftMs / whole);
    setStyle(ring, "stroke-dasharray", `${RING}`);
    setStyle(ring, "stroke-dashoffset", `${RING * (1 - share)}`);
    ring.parentNode.classList.toggle("late", share < 0.25);
  }
}

export function renderCentre(table, page) {
  const view = table.view;
  const words = table.words;
  const pile = $("#pile");
  // the pile's card drawn again only when another card (or colour, or language) is on it
  const top = JSON.stringify([view.top, view.color, cardName(table, view.top)]);
  if (pile.shown !== top) {
    pile.shown = top;
    pile.replaceChildren(...cardWithCaption(table, view.top, view.color));
  }
  setAttr(pile, "data-top", view.top);
  setAttr(pile, "aria-label", `${page.discard_pile}: ${cardName(table, view.top)}${words.colour ? `, ${words.colour}` : ""}`);
  const colour = view.color && COLOURS[view.color];
  setStyle($("#centre"), "--in-play", colour ? colour.fill : "transparent");
  setText($("#colour"), colour ? words.colour : "");
  setAttr($("#colour"), "data-colour", view.color || "");
  setText($("#head"), words.head || "");
  setText($("#fingerprint"), words.fingerprint || "");
  const direction = $("#direction");
  setText(direction, view.direction === 1 ? "↻" : "↺");
  setAttr(direction, "data-direction", view.direction);
  setAttr(direction, "aria-label", view.direction === 1 ? page.clockwise : page.anticlockwise);
  setAttr($("#ring-arrows"), "data-direction", view.direction);
  const owed = view.pending && view.pending.kind === "respond_to_draw" ? view.pending.amount : 0;
  setAttr($("#owed"), "data-owed", owed);
  setText($("#owed"), owed ? `+${page.num(owed)}` : "");
  setText($("#draw-pile"), words.pile || "");
  setText($("#catch"), words.catch || "");
  // UNO Flip: the side in play, and the draw pile's top card as the table sees it
  setAttr(document.body, "data-side", view.side || "light");
  const back = view.draw_pile_back;
  const drawBack = $("#draw-back");
  const shownBack = back ? `${back}|${cardName(table, back)}` : "";
  if (drawBack.shown !== shownBack || !drawBack.firstChild) {
    drawBack.shown = shownBack;
    drawBack.replaceChildren(back ? cardSvg(back, null, cardName(table, back)) : backSvg());
  }
  setAttr(drawBack, "data-code", back || "");
  setAttr($("#draw-stack"), "aria-label", `${page.draw_pile}: ${words.pile || ""}`);
  setText($("#draw-count"), page.num(view.draw_pile));
}
