// "Jouw klok" draws what the server sent (mindwidget/classroom/ownclock.py) and no more.
import { describe, expect, it } from "vitest";
import { say } from "./classmodel.js";
import { axis, clockLines, clockSvg } from "./ownclock.js";

const frame = (over = {}) => ({
  type: "own_clock",
  name: "Anna",
  plays: [
    { gap: 5, wait: 1.2, mistake: false },
    { gap: 12, wait: 2.5, mistake: true },
    { gap: 30, wait: 6.25, mistake: false },
  ],
  need: 3,
  curve: [
    { low: 5, high: 7, gap: 6, wait: 1.5, plays: 9, pupils: 4 },
    { low: 8, high: 12, gap: 10, wait: 2.2, plays: 7, pupils: 3 },
  ],
  band_pupils: 3,
  class_plays: 40,
  floor: 0.4,
  step: 0.19,
  cv: 0.534,
  half_within: 0.234,
  vs_class: 1.27,
  pace: "slower",
  ended: false,
  ...over,
});

describe("own clock", () => {
  it("says the plays, the spread and the pace in the pupil's language", () => {
    const nl = clockLines(frame(), "nl", say);
    expect(nl[0]).toBe("Kaarten die jij speelde: 3.");
    expect(nl[1]).toContain("23%");
    expect(nl[2]).toContain("langer dan de klas");
    expect(nl[2]).toContain("1,3");
    const de = clockLines(frame({ pace: "quicker", vs_class: 0.8 }), "de", say);
    expect(de[2]).toContain("kürzer");
    expect(de[2]).toContain("0,8");
    expect(clockLines(frame(), "en", say)[2]).toContain("1.3 times");
  });

  it("with fewer plays than a clock needs it says so and gives no spread", () => {
    const few = frame({
      plays: frame().plays.slice(0, 2),
      cv: null,
      vs_class: null,
      pace: "",
      floor: null,
      step: null,
    });
    const lines = clockLines(few, "nl", say);
    expect(lines).toEqual(["Kaarten die jij speelde: 2.", expect.stringContaining("minstens 3")]);
    expect(clockSvg(few, "nl", say)).not.toContain("own-clock-line");
  });

  it("draws one mark per own play, the mistakes as crosses, the class's line from its bands only", () => {
    const svg = clockSvg(frame(), "nl", say);
    expect(svg.match(/data-testid="own-clock-play"/g)).toHaveLength(3);
    expect(svg.match(/data-mistake="true"/g)).toHaveLength(1);
    expect(svg).toContain('data-testid="own-clock-class"');
    expect(svg).toContain("afstand tot de stapel");
    expect(clockSvg(frame({ curve: [] }), "nl", say)).not.toContain("own-clock-class");
  });

  it("rounds the axes up to a readable number", () => {
    expect([7, 10, 31, 2.3, 68, 0].map(axis)).toEqual([
      { top: 8, step: 2 },
      { top: 10, step: 2 },
      { top: 40, step: 10 },
      { top: 2.5, step: 0.5 },
      { top: 80, step: 20 },
      { top: 1, step: 0.2 },
    ]);
  });
});
