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
