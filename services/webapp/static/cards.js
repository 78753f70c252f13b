// UNO cards drawn as SVG from the engine's face codes (RULES.md §1 notation: R5, GS, BR,
// Y+2, W, W+4, …). Each colour is also told apart by a shape in the corners and the centre
// (red circle, yellow square, green triangle, blue diamond; Flip's dark side: pink heart,
// teal star, orange hexagon, violet cross), so a player who cannot tell the colours can play.
const NS = "http://www.w3.org/2000/svg";
const COLOURS = {
  R: { fill: "#d72600", shape: "circle" },
  Y: { fill: "#ecd407", shape: "square", ink: "#222" },
  G: { fill: "#379711", shape: "triangle" },
  B: { fill: "#0956bf", shape: "diamond" },
  P: { fill: "#e03f96", shape: "heart" },
  T: { fill: "#0fa3a3", shape: "star" },
  O: { fill: "#f07a10", shape: "hexagon" },
  V: { fill: "#6f2da8", shape: "cross" },
};
const SYMBOLS = { S: "⊘", R: "⇄", F: "⤵", SE: "⊘⊘", DA: "🔥" };
const SHAPES = {
  circle: (s) => `<circle cx="0" cy="0" r="${s}"/>`,
  square: (s) => `<rect x="${-s}" y="${-s}" width="${2 * s}" height="${2 * s}"/>`,
  triangle: (s) => `<polygon points="0,${-s} ${s},${s} ${-s},${s}"/>`,
  diamond: (s) => `<polygon points="0,${-s} ${s},0 0,${s} ${-s},0"/>`,
  heart: (s) => `<path d="M0 ${s} L${-s} 0 A${s / 2} ${s / 2} 0 0 1 0 ${-s / 2} A${s / 2} ${s / 2} 0 0 1 ${s} 0 Z"/>`,
  star: (s) => `<polygon points="${[...Array(10)].map((_, i) => { const r = i % 2 ? s / 2.2 : s; const a = (Math.PI / 5) * i - Math.PI / 2; return `${(r * Math.cos(a)).toFixed(1)},${(r * Math.sin(a)).toFixed(1)}`; }).join(" ")}"/>`,
  hexagon: (s) => `<polygon points="${[...Array(6)].map((_, i) => { const a = (Math.PI / 3) * i; return `${(s * Math.cos(a)).toFixed(1)},${(s * Math.sin(a)).toFixed(1)}`; }).join(" ")}"/>`,
  cross: (s) => `<polygon points="${-s / 3},${-s} ${s / 3},${-s} ${s / 3},${-s / 3} ${s},${-s / 3} ${s},${s / 3} ${s / 3},${s / 3} ${s / 3},${s} ${-s / 3},${s} ${-s / 3},${s / 3} ${-s},${s / 3} ${-s},${-s / 3} ${-s / 3},${-s / 3}"/>`,
};

// The wilds' faces: draw totals as numbers; draw colour, colour roulette and Dumb Fu by
// a sign (their names are written under it).
const WILDS = { W: "", WDC: "+?", WCR: "🎯", WDF: "🥋", "WR+4": "⇄+4" };
const DARK = new Set(["P", "T", "O", "V"]);

function face(code) {
  if (code.startsWith("W")) return { colour: null, label: code in WILDS ? WILDS[code] : code.slice(1) };
  const symbol = code.slice(1);
  return { colour: COLOURS[code[0]] ? code[0] : null, label: SYMBOLS[symbol] || symbol };
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** Whether the card is named under its picture: an action or a wild, whose symbol alone
 * a new player cannot read (a number says itself). */
function named(code) {
  return !/^[0-9]$/.test(code.slice(1));
}

/** An <svg> of the card `code`; `chosen` colours a played wild; `name` (the card's
 * name as the chat says it, the variant's own for a themed card) is the picture's
 * accessible name (the page writes it under the card, where it has room: `named`). */
const drawn = new Map();

function cardSvg(code, chosen, name) {
  // each face is drawn once and copied after: a table redrawn on every move stays cheap
  const key = `${code}|${chosen || ""}|${name || ""}`;
  if (!drawn.has(key)) drawn.set(key, drawCard(code, chosen, name));
  return drawn.get(key).cloneNode(true);
}

function drawCard(code, chosen, name) {
  const { colour, label } = face(code);
  const c = COLOURS[colour || chosen] || null;
  const fill = colour ? c.fill : "#1b1b1b";
  const ink = colour && c.ink ? c.ink : "#fff";
  const mark = (x, y, size) => (c ? `<g transform="translate(${x} ${y})" fill="${ink}" stroke="${fill}" stroke-width="1">${SHAPES[c.shape](size)}</g>` : "");
  const wheel = colour ? "" : ["R", "Y", "G", "B"].map((k, i) => `<path d="M0 0 L${[0, 22, 0, -22][i]} ${[-30, 0, 30, 0][i]} A30 30 0 0 1 ${[22, 0, -22, 0][i]} ${[0, 30, 0, -30][i]} Z" fill="${COLOURS[k].fill}" opacity="0.9"/>`).join("");
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 90");
  svg.setAttribute("class", "card");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", name || code);
  // Flip's dark side in its own palette: a black frame round its cards
  const frame = colour && DARK.has(colour) ? "#111" : "#fff";
  svg.dataset.code = code;
  svg.innerHTML =
    `<rect x="1" y="1" width="58" height="88" rx="7" fill="${frame}" stroke="#0003"/>` +
    `<rect x="4" y="4" width="52" height="82" rx="5" fill="${fill}"/>` +
    `<g transform="translate(30 45)">${wheel}<ellipse rx="19" ry="28" fill="#fff" opacity="${colour ? 0.92 : 0.15}" transform="rotate(25)"/></g>` +
    (c ? `<g transform="translate(30 45)" fill="${fill}" opacity="0.18">${SHAPES[c.shape](16)}</g>` : "") +
    `<text x="30" y="52" text-anchor="middle" font-size="${label.length > 2 ? 15 : 21}" font-weight="700" fill="${colour ? fill : "#fff"}" stroke="${colour ? "#0006" : "none"}" stroke-width="0.6">${escape(label)}</text>` +
    mark(11, 12, 5) + mark(49, 78, 5) +
    `<text x="49" y="16" text-anchor="middle" font-size="9" font-weight="700" fill="${ink}">${escape(label)}</text>`;
  svg.dataset.side = colour && DARK.has(colour) ? "dark" : "light";
  return svg;
}

/** The back of a card as the other players see it: black, a red oval, a mark (no word:
 * the back is the same in every language). */
let back = null;

function backSvg() {
  if (!back) back = drawBack();
  return back.cloneNode(true);
}

function drawBack() {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 90");
  svg.setAttribute("class", "card back");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML =
    '<rect x="1" y="1" width="58" height="88" rx="7" fill="#fff" stroke="#0003"/>' +
    '<rect x="4" y="4" width="52" height="82" rx="5" fill="#1b1b1b"/>' +
    '<ellipse cx="30" cy="45" rx="19" ry="30" fill="#d72600" transform="rotate(25 30 45)"/>' +
    '<path d="M22 36 l16 0 l-8 18 z" fill="#ecd407" transform="rotate(25 30 45)"/>';
  return svg;
}

export { cardSvg, backSvg, named, COLOURS };
// the page's tests read the colours the decisions wear
window.UnoCards = { cardSvg, backSvg, named, COLOURS };
