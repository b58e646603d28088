// @ts-check
// The level clock in the browser: pure functions over small frozen states.
//
// Python syncs `clock = {running, t, seq, epoch, speed}` (see mindwidget/table.py).
// The browser keeps the level time between syncs:
//   - a new `epoch` (new level, new game) sets the time to `clock.t`;
//   - while running, the time never goes below `clock.t` (Python may have moved
//     time on, e.g. with `w.advance`), and never jumps back (a reply arrives a
//     little after the event it answers: the browser's time is already later);
//   - when not running (before Ready, during a star vote, level over, step
//     mode) the time stands still at exactly `clock.t`;
//   - it runs `clock.speed` level seconds per real second (the watch speed of a
//     table of bots only), from the moment the browser heard it: a speed among the
//     view's `speeds` (Python's menu; empty at a table with people, which plays at
//     1x), else 1.
// While Python says so (`clock.beat`: the clock runs and a bot may act), `heartbeat` says to send
// {type: "tick", t, seq} every HEARTBEAT_MS: Python applies every bot action
// planned at or before `t`, and answers only if one happened. The
// browser is never told when a bot will act (that time gives the bot's card
// away); it only learns that a bot acted, when it has.
//
// Time is always passed in as `nowMs` (e.g. performance.now()), so every
// function here is deterministic and testable without a browser.

/** Milliseconds between two heartbeats while the clock runs. */
export const HEARTBEAT_MS = 100;

function checkNow(nowMs) {
  if (typeof nowMs !== "number" || !Number.isFinite(nowMs)) {
    throw new TypeError(`nowMs must be a finite number, got ${String(nowMs)}`);
  }
}

/** A clock that has not heard from Python yet: stopped at 0. */
export function initial(nowMs) {
  checkNow(nowMs);
  return Object.freeze({
    epoch: null,
    seq: null,
    running: false,
    base: 0,
    anchorMs: nowMs,
    beatMs: null,
    speed: 1,
  });
}

/** Level time (seconds) at `nowMs`. */
export function levelTime(state, nowMs) {
  checkNow(nowMs);
  if (!state.running) return state.base;
  return state.base + ((state.speed ?? 1) * Math.max(0, nowMs - state.anchorMs)) / 1000;
}

function validClock(clock) {
  return clock && typeof clock === "object" && typeof clock.t === "number" && Number.isFinite(clock.t);
}

/** The watch speed from a synced clock: one of the `speeds` Python allows (view.speeds), else 1. */
const validSpeed = (s, speeds) => (Array.isArray(speeds) && speeds.includes(s) && s > 0 ? s : 1);

/**
 * Follow a clock dict synced from Python (returns the state unchanged if it is not one).
 * `speeds`: the watch speeds Python allows now (`view.speeds`); the clock's speed is one of
 * them, or 1.
 */
export function follow(state, clock, nowMs, speeds = []) {
  checkNow(nowMs);
  if (!validClock(clock)) return state;
  const running = Boolean(clock.running);
  let t;
  if (clock.epoch !== state.epoch || !running) {
    t = clock.t;
  } else {
    t = Math.max(levelTime(state, nowMs), clock.t);
  }
  return Object.freeze({
    epoch: clock.epoch ?? null,
    seq: clock.seq ?? null,
    running,
    base: t,
    anchorMs: nowMs,
    beatMs: state.beatMs,
    speed: validSpeed(clock.speed, speeds),
  });
}

/** Whether a heartbeat is due at `nowMs`: none was sent yet, or `intervalMs` passed since `lastMs`. */
export function beatDue(nowMs, lastMs, intervalMs = HEARTBEAT_MS) {
  checkNow(nowMs);
  return lastMs === null || nowMs - lastMs >= intervalMs;
}

/** The heartbeat to send now ({t, seq}: the level time and the last seq seen) or null. */
export function heartbeat(state, nowMs, intervalMs = HEARTBEAT_MS) {
  if (!state.running || state.seq === null) return null;
  if (!beatDue(nowMs, state.beatMs, intervalMs)) return null;
  return { t: levelTime(state, nowMs), seq: state.seq };
}

/**
 * The state after a heartbeat was sent at `nowMs`. The beats keep a steady
 * rate (each one `intervalMs` after the one before, however late the timer
 * fired) unless the clock was quiet for a while: then they start afresh.
 */
export function markBeat(state, nowMs, intervalMs = HEARTBEAT_MS) {
  checkNow(nowMs);
  const last = state.beatMs;
  const steady = last !== null && nowMs - last < 2 * intervalMs;
  return Object.freeze({ ...state, beatMs: steady ? last + intervalMs : nowMs });
}
