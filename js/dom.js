// @ts-check
// The frame both widgets draw into: a focusable root with the table (`main`)
// and a polite live region for screen readers. Pure DOM, no state.

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
 * Keep the plain keys pressed inside `root` away from JupyterLab (Lumino skips
 * its shortcuts for keys pressed in an element with `data-lm-suppress-shortcuts`:
 * no arrow key folds a heading, no A, B, M, R, Y changes a cell). Combinations
 * such as Ctrl+S stay JupyterLab's: for those the attribute is lifted until the
 * key has passed (the window sees a key before the document does).
 * Returns the cleanup.
 * @param {HTMLElement} root
 */
export function keepKeys(root) {
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  const onCombo = (/** @type {KeyboardEvent} */ ev) => {
    if (!(ev.ctrlKey || ev.metaKey || ev.altKey) || !root.contains(/** @type {Node} */ (ev.target))) return;
    root.removeAttribute("data-lm-suppress-shortcuts");
    setTimeout(() => root.setAttribute("data-lm-suppress-shortcuts", "true"), 0);
  };
  window.addEventListener("keydown", onCombo, true);
  return () => window.removeEventListener("keydown", onCombo, true);
}
