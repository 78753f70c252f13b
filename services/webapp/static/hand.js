// Your hand as a fan across the bottom of the screen: every card on it, however many.
// A card is at least 44 px wide where a thumb lands (the part not under its neighbour);
// up to as many as fit so, in one gently curved row, past that in overlapping rows (the
// fan tightens rather than running off the screen). Playable cards are lifted; a tap
// plays one, and so does dragging it onto the pile.
import { cardWithCaption, element, cardName, setAttr, setStyle } from "./table.js";

const TARGET = 44; // px: the least a finger gets of each card
const EDGE = 12; // px: kept clear at each end of a row
const $ = (selector) => document.querySelector(selector);

function cardWidth(width) {
  return Math.round(Math.min(88, Math.max(56, width / 5.2)));
}

/** Rows of the hand: as few as hold every card with at least TARGET px of each. */
function rows(count, width) {
  const card = cardWidth(width);
  const fit = Math.max(1, Math.floor((width - card) / TARGET) + 1);
  const lines = Math.max(1, Math.ceil(count / fit));
  const perRow = Math.ceil(count / lines);
  return { card, perRow, lines };
}

// The window's size, read at start and when it changes (setRoom), never while a table is
// being written: reading it then makes the browser lay out the table it was just given,
// there and then, in the middle of a move's motion.
const room = { width: window.innerWidth, height: window.innerHeight };
export function setRoom(width, height) {
  room.width = width;
  room.height = height;
}

export function renderHand(table, { onPlay, onDrop }) {
  const view = table.view;
  const legal = new Set(view.legal || []);
  const hand = $("#hand");
  const codes = view.hand || [];
  // room at each end for the outer cards' tilt
  // the window's width, not the hand's: reading a laid-out width here would make the
  // browser lay out the whole table it has just been given, once more per move
  const full = Math.min(room.width, 760) - 16;
  const width = full - 2 * EDGE;
  const { card, perRow, lines } = rows(codes.length, width);
  const height = Math.round(card * 1.5);
  // two rows apart on a tall screen; else overlapping, so a long hand stays on the screen
  const roomy = lines <= 2 && room.height >= 700;
  const rowStep = Math.round(roomy ? height + 6 : height * 0.6);
  setStyle(hand, "--card", `${card}px`);
  setStyle(hand, "height", `${height + (lines - 1) * rowStep + 34}px`);
  const rtl = document.documentElement.dir === "rtl";
  // the same cards, the same choices, the same room: nothing to lay out again
  const shape = JSON.stringify([codes, view.legal || [], full, rtl, table.words.lang]);
  if (hand.dataset.shape === shape) return;
  hand.dataset.shape = shape;
  // each card keyed by its code and which of that code it is (a hand may hold two R5s):
  // a card that stays is the same button, moved and restyled; only the cards that came
  // are made, only the cards that went are taken away
  const kept = new Map();
  for (const button of hand.children) kept.set(button.key, button);
  const seen = new Map();
  let at = hand.firstElementChild;
  codes.forEach((code, i) => {
    const nth = seen.get(code) || 0;
    seen.set(code, nth + 1);
    const key = `${code}#${nth}`;
    let button = kept.get(key);
    kept.delete(key);
    if (!button) button = handCard(code, key, { onPlay, onDrop });
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, codes.length - row * perRow);
    const k = i - row * perRow;
    const step = inRow > 1 ? Math.min(card + 6, (width - card) / (inRow - 1)) : 0;
    const span = card + step * (inRow - 1);
    const middle = (inRow - 1) / 2;
    const offset = (k - middle) / Math.max(1, middle); // -1 … 1 across the row
    const x = EDGE + (width - span) / 2 + k * step;
    const playable = legal.has(`p.${code}`);
    button.playable = playable;
    setAttr(button, "class", "hand-card" + (playable ? " playable" : ""));
    setAttr(button, "aria-disabled", playable ? null : "true");
    // its accessible name is its picture's (the card's name in the viewer's language)
    const name = cardName(table, code);
    if (button.named !== name) {
      button.named = name;
      button.title = name;
      button.replaceChildren(...cardWithCaption(table, code, null));
    }
    setStyle(button, "--x", `${rtl ? full - x - card : x}px`);
    setStyle(button, "--y", `${row * rowStep + Math.abs(offset) * (inRow > 4 ? 8 : 0)}px`);
    setStyle(button, "--r", `${(rtl ? -1 : 1) * offset * Math.min(6, inRow * 0.9)}deg`);
    setStyle(button, "--step", `${Math.max(TARGET, Math.min(card, step || card))}px`);
    setStyle(button, "z-index", String(i + 1));
    if (button === at) at = at.nextElementSibling;
    else hand.insertBefore(button, at);
  });
  for (const gone of kept.values()) gone.remove();
  setAttr(hand, "aria-label", table.page.hand);
}

/** A card of the hand, made once: a tap plays it while it is playable, and otherwise asks
 * the server (whose words say why not); a drag onto the pile plays it too. */
function handCard(code, key, { onPlay, onDrop }) {
  const button = element("button", { class: "hand-card", "data-code": code });
  button.key = key;
  button.addEventListener("click", () => (button.playable ? onPlay(code, button) : onDrop(code, button, false)));
  draggable(button, code, onPlay);
  return button;
}

/** Dragging a playable card onto the pile plays it; let go elsewhere, it goes back. */
function draggable(button, code, onPlay) {
  let start = null;
  button.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !button.playable) return;
    start = { x: event.clientX, y: event.clientY, id: event.pointerId, moved: false };
    // every move of this pointer comes here, however fast it leaves the card
    button.setPointerCapture(event.pointerId);
  });
  button.addEventListener("pointermove", (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 10) return;
    if (!start.moved) {
      start.moved = true;
      button.classList.add("dragging");
    }
    button.style.translate = `${dx}px ${dy}px`;
    $("#pile-zone").classList.toggle("drop", over($("#pile-zone"), event));
  });
  const finish = (event) => {
    if (!start || event.pointerId !== start.id) return;
    const moved = start.moved;
    start = null;
    if (!moved) return;
    button.classList.remove("dragging");
    $("#pile-zone").classList.remove("drop");
    const dropped = event.type === "pointerup" && over($("#pile-zone"), event);
    const from = button.getBoundingClientRect();
    button.style.translate = "";
    // a drag is not also a tap
    button.addEventListener("click", (e) => e.stopImmediatePropagation(), { capture: true, once: true });
    if (dropped) onPlay(code, button, from);
  };
  button.addEventListener("pointerup", finish);
  button.addEventListener("pointercancel", finish);
}

function over(zone, event) {
  const r = zone.getBoundingClientRect();
  const pad = 16;
  return event.clientX > r.left - pad && event.clientX < r.right + pad && event.clientY > r.top - pad && event.clientY < r.bottom + pad;
}

/** The hand's keyboard: arrows move between cards, Enter or Space plays (a button's own). */
export function handKeys(event) {
  const cards = [...document.querySelectorAll(".hand-card")];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  const rtl = document.documentElement.dir === "rtl";
  const forward = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 1, ArrowUp: -1 }[event.key];
  if (forward === undefined) return;
  event.preventDefault();
  cards[(at + forward + cards.length) % cards.length].focus();
}
