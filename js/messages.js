// @ts-check
// The messages the front end sends (mindwidget/wire.py `Message` and `PupilMessage`;
// Python checks each one once). Pure, so js/wire.test.js validates them.
import { TIMED } from "./wire.gen.js";

export { TIMED };

/**
 * The message for a button or key: `action` from view.allowed, at level time `t`
 * (`agree` for a vote). `t` null: the host keeps the time (a class page,
 * `clock.stamp` false) and the message carries none.
 * @param {string} action
 * @param {number | null} t
 * @param {{agree?: boolean}} [extra]
 */
export function actionMessage(action, t, extra = {}) {
  const msg = /** @type {{type: string, t?: number, agree?: boolean}} */ ({ type: action });
  if (t !== null && TIMED.includes(action)) msg.t = t;
  if (action === "vote") msg.agree = Boolean(extra.agree);
  return msg;
}

/** A heartbeat: the level time and the last seq seen (js/clock.js heartbeat()). */
export const tickMessage = (/** @type {{t: number, seq: number}} */ beat) => ({
  type: "tick",
  t: beat.t,
  seq: beat.seq,
});
