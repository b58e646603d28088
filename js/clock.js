// The level clock in the browser: pure functions over small frozen states.
//
// Python syncs `clock = {running, t, due, seq, epoch}` (see mindwidget/widget.py).
// The browser keeps the level time between syncs:
//   - a new `epoch` (new level, new game) sets the time to `clock.t`;
//   - while running, the time never goes below `clock.t` (Python may have moved
//     time on, e.g. with `w.advance`), and never jumps back (a reply arrives a
//     little after the event it answers: the browser's time is already later);
//   - when not running (before Ready, during a star vote, level over, step
//     mode) the time stands still at exactly `clock.t`.
// When the running time reaches `due`, `dueTick` says to send
// {type: "tick", t: due, seq} once for that `seq`.
//
// Time is always passed in as `nowMs` (e.g. performance.now()), so every
// function here is deterministic and testable without a browser.

function checkNow(nowMs) {
  if (typeof nowMs !== "number" || !Number.isFinite(nowMs)) {
    throw new TypeError(`nowMs must be a finite number, got ${String(nowMs)}`);
  }
}

/** A clock that has not heard from Python yet: stopped at 0. */
export function initial(nowMs) {
  checkNow(nowMs);
  return Object.freeze({
    epoch: null, seq: null, running: false, base: 0, anchorMs: nowMs, due: null, sentSeq: null,
  });
}

/** Level time (seconds) at `nowMs`. */
export function levelTime(state, nowMs) {
  checkNow(nowMs);
  if (!state.running) return state.base;
  return state.base + Math.max(0, nowMs - state.anchorMs) / 1000;
}

function validClock(clock) {
  return (
    clock && typeof clock === "object" && typeof clock.t === "number" && Number.isFinite(clock.t)
  );
}

/** Follow a clock dict synced from Python (returns the state unchanged if it is not one). */
export function follow(state, clock, nowMs) {
  checkNow(nowMs);
  if (!validClock(clock)) return state;
  const running = Boolean(clock.running);
  let t;
  if (clock.epoch !== state.epoch || !running) {
    t = clock.t;
  } else {
    t = Math.max(levelTime(state, nowMs), clock.t);
  }
  const due = typeof clock.due === "number" && Number.isFinite(clock.due) ? clock.due : null;
  return Object.freeze({
    epoch: clock.epoch ?? null,
    seq: clock.seq ?? null,
    running,
    base: t,
    anchorMs: nowMs,
    due,
    sentSeq: clock.seq === state.seq ? state.sentSeq : null,
  });
}

/** The tick to send now ({t, seq}) or null: once per seq, when the time reaches `due`. */
export function dueTick(state, nowMs) {
  if (!state.running || state.due === null || state.seq === null) return null;
  if (state.sentSeq === state.seq) return null;
  if (levelTime(state, nowMs) < state.due) return null;
  return { t: state.due, seq: state.seq };
}

/** The state after the tick for its seq was sent. */
export function markSent(state) {
  return Object.freeze({ ...state, sentSeq: state.seq });
}

/** Seconds until `due` (null if no bot action is planned or the clock stands still). */
export function secondsToDue(state, nowMs) {
  if (!state.running || state.due === null) return null;
  return Math.max(0, state.due - levelTime(state, nowMs));
}
