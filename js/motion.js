// @ts-check
// Motion as a layer on top of pure rendering (FLIP: First, Last, Invert, Play).
// Before the table is drawn again, `measure` records where things are; after,
// `play` slides each new card from where it came from to where it is now, with
// the Web Animations API. Nothing here decides anything: it only moves what the
// new HTML already shows. With prefers-reduced-motion, nothing moves.

/** How long a card takes from a seat to the pile (ms). */
export const SLIDE_MS = 220;
const EASING = "cubic-bezier(.2,.7,.3,1)";

/**
 * @typedef {{anchors: Map<string, DOMRect>, keys: Set<string>,
 *   running: Map<string, {frames: Keyframe[], time: number}>}} Snapshot
 */

/** Whether the person asked for less motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Where everything a card may come from is, and which cards are on the table.
 * @param {HTMLElement} main
 * @returns {Snapshot}
 */
export function measure(main) {
  const anchors = new Map();
  for (const el of main.querySelectorAll("[data-anchor]")) {
    anchors.set(/** @type {HTMLElement} */ (el).dataset.anchor, el.getBoundingClientRect());
  }
  // The person's lowest card: where their own play starts from.
  const low = main.querySelector('[data-testid="lowest-card"]');
  if (low) anchors.set("hand", low.getBoundingClientRect());
  const keys = new Set();
  const running = new Map();
  for (const node of main.querySelectorAll("[data-flip]")) {
    const el = /** @type {HTMLElement} */ (node);
    const key = el.dataset.flip || "";
    keys.add(key);
    // A slide still under way when the table is drawn again goes on on the new element.
    for (const a of typeof el.getAnimations === "function" ? el.getAnimations() : []) {
      const effect = /** @type {KeyframeEffect} */ (a.effect);
      if (a.playState === "running" && effect && typeof effect.getKeyframes === "function") {
        running.set(key, { frames: effect.getKeyframes(), time: Number(a.currentTime) || 0 });
      }
    }
  }
  return { anchors, keys, running };
}

/**
 * Slide every card that is new since `before` from its origin (`data-from`).
 * (A lost life's broken heart is drawn by the table itself, with a CSS
 * animation, since it stays while the mistake is explained.) Returns the
 * number of animations started.
 * @param {HTMLElement} main
 * @param {Snapshot|null} before
 */
export function play(main, before) {
  if (!before || reducedMotion()) return 0;
  let n = 0;
  for (const node of main.querySelectorAll("[data-flip][data-from]")) {
    const el = /** @type {HTMLElement} */ (node);
    const going = before.running.get(el.dataset.flip || "");
    if (going && typeof el.animate === "function") {
      const a = el.animate(/** @type {Keyframe[]} */ (going.frames), { duration: SLIDE_MS, easing: EASING });
      a.currentTime = going.time;
      n += 1;
      continue;
    }
    if (before.keys.has(el.dataset.flip || "")) continue;
    const from = before.anchors.get(el.dataset.from || "");
    if (!from || typeof el.animate !== "function") continue;
    const to = el.getBoundingClientRect();
    if (!to.width || !to.height) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    const s = Math.min(1, Math.max(0.3, from.width / to.width));
    el.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0.6 },
        { transform: "none", opacity: 1 },
      ],
      { duration: SLIDE_MS, easing: EASING },
    );
    n += 1;
  }
  return n;
}
