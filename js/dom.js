// @ts-check
// The frame both widgets draw into: a focusable root with the table (`main`)
// and a polite live region for screen readers; what moves with time between
// syncs. Pure DOM, no state.
import { decimal } from "./i18n.js";
import { nowX } from "./trace.js";

/** Build the frame inside `el`; returns {root, main, live}. */
export function mountFrame(el, { className, testid, liveTestid }) {
  const root = document.createElement("div");
  root.className = className;
  root.tabIndex = 0;
  root.dataset.testid = testid;
  root.setAttribute("role", "region");
  const main = document.createElement("div");
  const live = document.createElement("div");
  live.className = "mw-sr";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.dataset.testid = liveTestid;
  root.append(main, live);
  el.append(root);
  return { root, main, live };
}

/**
 * The keys a board lets through to the page around it, so that it is no keyboard
 * trap (WCAG 2.1.2): every Ctrl, Alt or Meta combination (Ctrl/Cmd+Enter runs the
 * cell), Shift+Enter (JupyterLab runs the cell and moves on) and Escape (leave).
 * @param {KeyboardEvent} ev
 */
export const passes = (ev) =>
  ev.ctrlKey || ev.metaKey || ev.altKey || ev.key === "Escape" || (ev.shiftKey && ev.key === "Enter");

/**
 * The keys the teacher's dashboard lets through: those of `passes` but the ones that
 * run a cell (Shift/Ctrl/Alt+Enter): the dashboard's cell starts the class, and
 * running it again from a press meant for the next cell would start a second one.
 * @param {KeyboardEvent} ev
 */
export const passesButRun = (ev) => passes(ev) && ev.key !== "Enter";

/**
 * Keep the plain keys pressed inside `root` away from JupyterLab (Lumino skips
 * its shortcuts for keys pressed in an element with `data-lm-suppress-shortcuts`:
 * no arrow key folds a heading, no A, B, M, R, Y changes a cell). The keys that
 * `passes` stay JupyterLab's: for those the attribute is lifted until the key has
 * passed (the window sees a key before the document does). Escape then leaves the
 * board: the focus goes to the nearest focusable element around it (in JupyterLab
 * the cell, in command mode), or nowhere.
 * Returns the cleanup.
 * @param {HTMLElement} root
 * @param {(ev: KeyboardEvent) => boolean} [lets] the keys let through (`passes`)
 */
export function keepKeys(root, lets = passes) {
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  const onPass = (/** @type {KeyboardEvent} */ ev) => {
    if (!lets(ev) || !root.contains(/** @type {Node} */ (ev.target))) return;
    root.removeAttribute("data-lm-suppress-shortcuts");
    setTimeout(() => root.setAttribute("data-lm-suppress-shortcuts", "true"), 0);
  };
  const onEscape = (/** @type {KeyboardEvent} */ ev) => {
    if (ev.key !== "Escape" || ev.defaultPrevented) return;
    let host = root.parentElement;
    while (host && !host.hasAttribute("tabindex")) host = host.parentElement;
    if (host) host.focus({ preventScroll: true });
    else /** @type {HTMLElement} */ (document.activeElement)?.blur();
  };
  window.addEventListener("keydown", onPass, true);
  root.addEventListener("keydown", onEscape);
  return () => {
    window.removeEventListener("keydown", onPass, true);
    root.removeEventListener("keydown", onEscape);
  };
}

/** Show level time `t` (s) in a drawn table inside `el` without drawing it again: its
 * clock (`data-live="clock"`, in `lang`) and its timeline's now-line (`data-live="now"`). */
export function showLevelTime(
  /** @type {Element} */ el,
  /** @type {number} */ t,
  /** @type {string} */ lang,
) {
  const c = el.querySelector('[data-live="clock"]');
  if (c) c.textContent = decimal(lang, t);
  const line = /** @type {HTMLElement|null} */ (el.querySelector('[data-live="now"]'));
  if (line) {
    const x = nowX(t, Number(line.dataset.tmax), Number(line.dataset.w)).toFixed(1);
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
  }
}
