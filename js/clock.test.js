import { describe, expect, it } from "vitest";
import { dueTick, follow, initial, levelTime, markSent, secondsToDue } from "./clock.js";

const clock = (over = {}) => ({ running: true, t: 0, due: null, seq: 1, epoch: 1, ...over });

describe("level clock", () => {
  it("stands still at 0 before Python speaks", () => {
    const s = initial(1000);
    expect(levelTime(s, 99_000)).toBe(0);
    expect(dueTick(s, 99_000)).toBeNull();
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

  it("asks for one tick per seq when the time reaches due", () => {
    let s = follow(initial(0), clock({ t: 0, due: 2.5, seq: 4 }), 0);
    expect(dueTick(s, 2400)).toBeNull();
    expect(secondsToDue(s, 2000)).toBeCloseTo(0.5);
    expect(dueTick(s, 2500)).toEqual({ t: 2.5, seq: 4 });
    s = markSent(s);
    expect(dueTick(s, 9000)).toBeNull();
    // the same seq synced again (e.g. another trait changed): still sent
    s = follow(s, clock({ t: 0, due: 2.5, seq: 4 }), 9100);
    expect(dueTick(s, 9200)).toBeNull();
    // a new plan: a new tick
    s = follow(s, clock({ t: 2.5, due: 4, seq: 5 }), 9300);
    expect(dueTick(s, 9300)).toEqual({ t: 4, seq: 5 });
  });

  it("sends no tick while stopped or with no plan", () => {
    const s = follow(initial(0), clock({ running: false, t: 1, due: 0.5 }), 0);
    expect(dueTick(s, 10_000)).toBeNull();
    const t = follow(initial(0), clock({ due: null }), 0);
    expect(dueTick(t, 10_000)).toBeNull();
    expect(secondsToDue(t, 0)).toBeNull();
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
    expect(Object.isFrozen(s) && Object.isFrozen(f) && Object.isFrozen(markSent(f))).toBe(true);
    expect(s.base).toBe(0);
  });
});
