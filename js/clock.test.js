import { describe, expect, it } from "vitest";
import { HEARTBEAT_MS, beatDue, follow, heartbeat, initial, levelTime, markBeat } from "./clock.js";
import { views } from "./fixtures.js";

const clock = (over = {}) => ({ running: true, t: 0, seq: 1, epoch: 1, ...over });
// the watch speeds Python offers at a table of bots only (view.speeds, js/fixtures.js)
const SPEEDS = views.watch.speeds;

describe("level clock", () => {
  it("stands still at 0 before Python speaks", () => {
    const s = initial(1000);
    expect(levelTime(s, 99_000)).toBe(0);
    expect(heartbeat(s, 99_000)).toBeNull();
  });

  it("runs from clock.t once running", () => {
    const s = follow(initial(0), clock({ t: 2 }), 1000);
    expect(levelTime(s, 1000)).toBe(2);
    expect(levelTime(s, 3500)).toBe(4.5);
  });

  it("stands still at exactly clock.t when not running (star vote, step mode)", () => {
    let s = follow(initial(0), clock({ t: 0 }), 0);
    s = follow(s, clock({ running: false, t: 3.25, seq: 2 }), 5000);
    expect(levelTime(s, 5000)).toBe(3.25);
    expect(levelTime(s, 60_000)).toBe(3.25);
    // the vote ends: the clock goes on from where it stood
    s = follow(s, clock({ running: true, t: 3.25, seq: 3 }), 70_000);
    expect(levelTime(s, 71_000)).toBe(4.25);
  });

  it("runs clock.speed level seconds per real second, from the moment the speed changed", () => {
    let s = follow(initial(0), clock({ t: 0 }), 0);
    expect(levelTime(s, 3000)).toBe(3);
    // at 3 s real time Python says speed 2 (it heard t=2.9 from the last tick; seq bumped)
    s = follow(s, clock({ t: 2.9, seq: 2, speed: 2 }), 3000, SPEEDS);
    expect(levelTime(s, 3000)).toBe(3); // no jump back to 2.9
    expect(levelTime(s, 4000)).toBe(5); // one real second: two level seconds
    expect(levelTime(s, 5500)).toBe(8);
    // back to 1x at 5.5 s: goes on from 8, one level second per real second
    s = follow(s, clock({ t: 7.8, seq: 3, speed: 1 }), 5500, SPEEDS);
    expect(levelTime(s, 5500)).toBe(8);
    expect(levelTime(s, 6500)).toBe(9);
    // 4x, heard late (Python's t already ahead): jumps forward, then runs 4x
    s = follow(s, clock({ t: 10, seq: 4, speed: 4 }), 6500, SPEEDS);
    expect(levelTime(s, 7000)).toBe(12);
  });

  it("heartbeats carry the sped-up level time", () => {
    const s = follow(initial(0), clock({ t: 1, seq: 5, speed: 4 }), 1000, SPEEDS);
    expect(heartbeat(s, 1500)).toEqual({ t: 3, seq: 5 });
  });

  it("runs at the speeds Python allows (view.speeds), whatever they are, and at 1 at any other", () => {
    // Python decides: a speed it lists runs, though it is beyond 1 to 4 ...
    const fast = follow(initial(0), clock({ t: 0, speed: 8 }), 0, [1, 8]);
    expect(levelTime(fast, 1000)).toBe(8);
    // ... and one it does not list runs at 1: a table with people offers none (view.speeds empty)
    for (const speeds of [[], undefined, [1, 4]]) {
      const s = follow(initial(0), clock({ t: 0, speed: 2 }), 0, speeds);
      expect(levelTime(s, 1000)).toBe(1);
    }
  });

  it("treats a missing or bad speed as 1", () => {
    for (const speed of [undefined, null, "2", NaN, Infinity, 0, -2, 99]) {
      const s = follow(initial(0), clock({ t: 0, speed }), 0, SPEEDS);
      expect(levelTime(s, 2000)).toBe(2);
    }
  });

  it("never jumps back when a reply arrives late, but jumps forward to clock.t", () => {
    let s = follow(initial(0), clock({ t: 0 }), 0);
    // a reply for an event at t=1.0 arrives at 1.2 s: keep 1.2
    s = follow(s, clock({ t: 1.0, seq: 2 }), 1200);
    expect(levelTime(s, 1200)).toBeCloseTo(1.2);
    // Python advanced the level to 10 s (w.advance): jump forward
    s = follow(s, clock({ t: 10, seq: 3 }), 1300);
    expect(levelTime(s, 1300)).toBe(10);
  });

  it("restarts with a new epoch (new level or game)", () => {
    let s = follow(initial(0), clock({ t: 0 }), 0);
    s = follow(s, clock({ t: 0, running: false, epoch: 2, seq: 9 }), 30_000);
    expect(levelTime(s, 40_000)).toBe(0);
  });

  it("beats when none was sent yet or the interval has passed", () => {
    expect(HEARTBEAT_MS).toBe(100);
    expect(beatDue(5000, null, 100)).toBe(true);
    expect(beatDue(5000, 4950, 100)).toBe(false);
    expect(beatDue(5000, 4900.5, 100)).toBe(false);
    expect(beatDue(5000, 4900, 100)).toBe(true);
    expect(beatDue(5000, 1000, 100)).toBe(true);
    expect(beatDue(5000, 4950, 40)).toBe(true);
    expect(() => beatDue(Number.NaN, null)).toThrow(TypeError);
  });

  it("sends a heartbeat with the level time and the last seq seen, ten a second", () => {
    let s = follow(initial(0), clock({ t: 0, seq: 4 }), 1000);
    expect(heartbeat(s, 1000)).toEqual({ t: 0, seq: 4 });
    s = markBeat(s, 1000);
    expect(heartbeat(s, 1099)).toBeNull();
    expect(heartbeat(s, 1100)).toEqual({ t: 0.1, seq: 4 });
    // Polled every 15 ms (so mostly a little late): still 100 beats in 10 s, not 87.
    const sent = [0];
    for (let ms = 1015; ms < 11_000; ms += 15) {
      const beat = heartbeat(s, ms);
      if (beat) {
        sent.push(beat.t);
        s = markBeat(s, ms);
      }
    }
    expect(sent).toHaveLength(100);
    expect(sent[1]).toBeCloseTo(0.105, 5);
    expect(sent[99]).toBeGreaterThanOrEqual(9.9);
    // A new sync (a bot acted): the next heartbeat carries the new seq, on the same beat.
    s = follow(s, clock({ t: 9.95, seq: 5 }), 10_950);
    expect(heartbeat(s, 10_990)).toBeNull();
    expect(heartbeat(s, 11_000)).toEqual({ t: expect.closeTo(10, 5), seq: 5 });
  });

  it("starts the beat afresh after a quiet spell, e.g. a star vote", () => {
    let s = follow(initial(0), clock({ t: 0 }), 0);
    s = markBeat(s, 0);
    s = follow(s, clock({ running: false, t: 0.05, seq: 2 }), 50);
    expect(heartbeat(s, 5000)).toBeNull(); // the clock stands still: no heartbeats
    s = follow(s, clock({ running: true, t: 0.05, seq: 3 }), 9000);
    expect(heartbeat(s, 9000)).toEqual({ t: 0.05, seq: 3 });
    s = markBeat(s, 9000);
    expect(s.beatMs).toBe(9000);
    expect(heartbeat(s, 9050)).toBeNull();
  });

  it("sends no heartbeat while the clock stands still or before Python spoke", () => {
    const still = follow(initial(0), clock({ running: false, t: 1 }), 0);
    expect(heartbeat(still, 10_000)).toBeNull();
    const noSeq = follow(initial(0), clock({ seq: undefined }), 0);
    expect(heartbeat(noSeq, 10_000)).toBeNull();
  });

  it("never carries a bot's planned time, even if a clock dict had one", () => {
    const s = follow(initial(0), clock({ t: 2, due: 4.5, seq: 7 }), 0);
    expect(Object.keys(s)).not.toContain("due");
    expect(heartbeat(s, 1000)).toEqual({ t: 3, seq: 7 }); // the clock's own time only
  });

  it("ignores a malformed clock and rejects non-finite times", () => {
    const s = initial(0);
    expect(follow(s, null, 5)).toBe(s);
    expect(follow(s, { t: "soon" }, 5)).toBe(s);
    expect(() => levelTime(s, Number.NaN)).toThrow(TypeError);
    expect(() => initial(undefined)).toThrow(TypeError);
  });

  it("is pure: states are frozen and never mutated", () => {
    const s = initial(0);
    const f = follow(s, clock({ t: 1 }), 10);
    expect(Object.isFrozen(s) && Object.isFrozen(f) && Object.isFrozen(markBeat(f, 20))).toBe(true);
    expect(s.base).toBe(0);
  });
});
