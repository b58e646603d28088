// @ts-check
// The messages the front end sends (mindwidget/wire.py `Message` and `PupilMessage`;
// Python checks each one once). Pure, so js/wire.test.js validates them.
import { TIMED } from "./wire.gen.js";

export { TIMED };

/**
 * The message for a button or key: `action` from view.allowed, at level time `t`
 * (`agree` for a vote), made on the view `seen` (clock.epoch and view.n: Python
 * refuses the action if the table has left that view, session.py `_check_seen`).
 * `t` null: the host keeps the time (a class page, `clock.stamp` false) and the
 * message carries none.
 * @param {string} action
 * @param {number | null} t
 * @param {{agree?: boolean}} [extra]
 * @param {{epoch?: number, n?: number}} [seen]
 */
export function actionMessage(action, t, extra = {}, seen = {}) {
  const msg = /** @type {{type: string, t?: number, agree?: boolean, epoch?: number, n?: number}} */ ({
    type: action,
  });
  if (t !== null && TIMED.includes(action)) msg.t = t;
  if (action === "vote") msg.agree = Boolean(extra.agree);
  if (action !== "wait" && Number.isInteger(seen.epoch) && Number.isInteger(seen.n)) {
    msg.epoch = seen.epoch;
    msg.n = seen.n;
  }
  return msg;
}

/** A heartbeat: the level time and the last seq seen (js/clock.js heartbeat()). */
export const tickMessage = (/** @type {{t: number, seq: number}} */ beat) => ({
  type: "tick",
  t: beat.t,
  seq: beat.seq,
});
