// @ts-check
// The messages the front end sends (mindwidget/wire.py `Message`; Python checks
// each one: mindwidget/session.py). Pure, so js/wire.test.js validates them.

/** The actions sent with the level time of the moment (the browser keeps time). */
export const TIMED = Object.freeze(["ready", "play", "stop", "propose_star", "vote"]);

/**
 * The message for a button or key: `action` from view.allowed, at level time `t`
 * (`agree` for a vote), made on the view `seen` (clock.epoch and view.n: Python
 * refuses the action if the table has left that view, session.py `_check_seen`).
 * @param {string} action
 * @param {number} t
 * @param {{agree?: boolean}} [extra]
 * @param {{epoch?: number, n?: number}} [seen]
 */
export function actionMessage(action, t, extra = {}, seen = {}) {
  const on = Number.isInteger(seen.epoch) && Number.isInteger(seen.n) ? { epoch: seen.epoch, n: seen.n } : {};
  if (action === "vote") return { type: action, t, agree: Boolean(extra.agree), ...on };
  if (TIMED.includes(action)) return { type: action, t, ...on };
  if (action === "wait") return { type: action };
  return { type: action, ...on };
}

/** A heartbeat: the level time and the last seq seen (js/clock.js heartbeat()). */
export const tickMessage = (/** @type {{t: number, seq: number}} */ beat) => ({
  type: "tick",
  t: beat.t,
  seq: beat.seq,
});
