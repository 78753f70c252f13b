// Motion that tells what happened, by the Web Animations API (nothing to download): each
// under 300 ms, on a copy laid over the page so no tap waits for it, and none at all when
// the system asks for reduced motion.
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
export const still = () => reduced.matches;

export const QUICK = 260;

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** A copy of `node` flying from `fromRect` to where `to` is on the screen (`toRect`,
 * when the caller read it before changing the page: no layout forced here). */
export function fly(node, fromRect, to, { duration = QUICK, delay = 0, hide = false, toRect = null } = {}) {
  if (still() || !fromRect || !(to || toRect)) return null;
  if (!toRect) toRect = to.getBoundingClientRect();
  const ghost = node.cloneNode(true);
  ghost.classList.add("ghost");
  ghost.removeAttribute("id");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, {
    left: `${toRect.left}px`, top: `${toRect.top}px`, width: `${toRect.width}px`, height: `${toRect.height}px`,
  });
  document.body.append(ghost);
  const a = centre(fromRect);
  const b = centre(toRect);
  const scale = fromRect.width / Math.max(1, toRect.width);
  const animation = ghost.animate(
    [
      { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale}) rotate(-12deg)`, opacity: 0.9 },
      { transform: "none", opacity: 1 },
    ],
    { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  if (hide && to) to.style.visibility = "hidden"; // the card arrives, it does not appear twice
  animation.onfinish = animation.oncancel = () => {
    ghost.remove();
    if (hide && to) to.style.visibility = "";
  };
  return animation;
}

/** A mark over `rect` (a seat's: a Skip's ⊘, a knock-out's ☠, a win's ★) that swells
 * and fades. */
export function mark(rect, symbol) {
  if (still() || !rect) return;
  const badge = document.createElement("span");
  badge.className = "ghost flash";
  badge.setAttribute("aria-hidden", "true");
  badge.textContent = symbol;
  Object.assign(badge.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  document.body.append(badge);
  badge.animate(
    [{ transform: "scale(.4)", opacity: 0 }, { transform: "scale(1.15)", opacity: 1, offset: 0.4 }, { transform: "scale(1)", opacity: 0 }],
    { duration: 300, easing: "ease-out" },
  ).onfinish = () => badge.remove();
}

/** The direction ring turning round to its new way. */
export function turnRing(ring, direction) {
  if (still() || !ring) return;
  ring.animate(
    [{ transform: `scaleX(${-direction}) rotate(0deg)` }, { transform: `scaleX(${direction}) rotate(${direction * 180}deg)` }],
    { duration: 280, easing: "ease-in-out" },
  );
}

/** A wild's colour spreading over the table from the pile. */
export function spread(table, fill) {
  if (still() || !table) return;
  const wave = document.createElement("span");
  wave.className = "wave";
  wave.setAttribute("aria-hidden", "true");
  wave.style.background = fill;
  table.append(wave);
  wave.animate(
    [{ transform: "translate(-50%, -50%) scale(.1)", opacity: 0.55 }, { transform: "translate(-50%, -50%) scale(1)", opacity: 0 }],
    { duration: 300, easing: "ease-out" },
  ).onfinish = () => wave.remove();
}

/** Flip: the whole table turns over. */
export function turnOver(table) {
  if (still() || !table) return;
  table.animate([
    { transform: "perspective(900px) rotateY(0)" },
    { transform: "perspective(900px) rotateY(90deg)", offset: 0.5 },
    { transform: "perspective(900px) rotateY(0)" },
  ], {
    duration: 300, easing: "ease-in-out",
  });
}

/** No Mercy's roulette: the cards turned up shown one by one over the pile (`rect`). */
export function roulette(rect, faces) {
  if (still() || !rect || !faces.length) return;
  const step = Math.min(90, 280 / faces.length);
  faces.forEach((face, i) => {
    fly(face, rect, null, { duration: step, delay: i * step, toRect: rect });
  });
}

/** A lift of `node` that says "this one" (a card refused, a seat to pick). */
export function nudge(node) {
  if (still() || !node) return;
  node.animate(
    [{ transform: "translateX(0)" }, { transform: "translateX(-5px)" }, { transform: "translateX(5px)" }, { transform: "translateX(0)" }],
    { duration: 220 },
  );
}
