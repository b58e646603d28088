import { describe, expect, it } from "vitest";
import { COLOURS, SHAPES, SIZES, axisMax, niceStep, nowX, traceSvg } from "./trace.js";

const names = ["You", "Bot 1", "Bot 2"];
const svg = (points, now = 3, deck = 100) => traceSvg(points, { players: 3, deck, names, lang: "en", now });

describe("live trace", () => {
  it("draws one marker per card, in the player's colour and shape", () => {
    const s = svg([
      { k: "play", t: 1, card: 10, player: 0 },
      { k: "play", t: 2, card: 20, player: 1 },
    ]);
    expect((s.match(/data-kind="play"/g) || []).length).toBe(2);
    expect(s).toContain(COLOURS[1]);
    expect(s).toContain("<circle"); // player 0: circle
    expect(s).toContain("<rect x="); // player 1: square
    expect(SHAPES.length).toBe(COLOURS.length);
  });

  it("marks mistakes, discards and stars, and shades stops", () => {
    const s = svg([
      { k: "stop", t: 0.5, until: 1.5, player: 0 },
      { k: "mistake", t: 2, card: 30, player: 2 },
      { k: "lost", t: 2, card: 12, player: 0 },
      { k: "star", t: 2.5, card: 44, player: 1 },
      { k: "stop", t: 2.8, until: null, player: 1 },
    ]);
    expect(s).toContain('class="mw-ring"');
    expect(s).toContain('class="mw-cross"');
    expect(s).toContain("★");
    expect((s.match(/data-kind="stop"/g) || []).length).toBe(2);
    expect(s).toContain("Bot 2: 30 (mistake, 2.00 s)");
  });

  it("skips face-down cards and labels the axes in the language", () => {
    const s = traceSvg([{ k: "play", t: 1, card: null, player: 1 }], {
      players: 2,
      deck: 100,
      names,
      lang: "de",
      now: 1,
    });
    expect(s).not.toContain('data-kind="play"');
    expect(s).toContain("Zeit (s)");
    expect(s).toContain('role="img"');
  });

  it("the card axis runs to the deck it is given: a card of the deck's top at the top", () => {
    const ticks = (/** @type {string} */ s) =>
      [...s.matchAll(/<text x="34" y="[\d.]+" text-anchor="end">(\d+)<\/text>/g)].map((m) => Number(m[1]));
    const top = (/** @type {string} */ s) =>
      Number(s.match(/data-card="(\d+)"><title>[^<]*<\/title><circle cx="[\d.]+" cy="([\d.]+)"/)?.[2]);
    const small = svg([{ k: "play", t: 1, card: 50, player: 0 }], 3, 50);
    const full = svg([{ k: "play", t: 1, card: 50, player: 0 }], 3, 100);
    expect(ticks(small)).toEqual([0, 25, 50]);
    expect(ticks(full)).toEqual([0, 25, 50, 75, 100]);
    expect(top(small)).toBeCloseTo(10); // the drawing's top margin
    expect(top(full)).toBeGreaterThan(top(small));
  });

  it("stretches the time axis with the level, in doublings, so it changes rarely", () => {
    const short = svg([], 1);
    const long = svg([{ k: "play", t: 95, card: 90, player: 0 }], 96);
    expect(short).toContain('data-tmax="10"');
    expect(long).toContain('data-tmax="160"');
    // a level of 40 s: the axis changes at 10 s and 20 s, no more
    const ends = new Set();
    for (let t = 0; t <= 40; t += 0.1) ends.add(axisMax(t));
    expect([...ends]).toEqual([10, 20, 40]);
    // at most five ticks, on round seconds
    for (const end of [10, 20, 40, 80, 160, 320, 640]) {
      const step = niceStep(end);
      expect(end / step).toBeLessThanOrEqual(5);
      expect(end / step).toBeGreaterThanOrEqual(2);
    }
  });

  it("text reads at least as large as the table's small text (0.85em) where the trace is shown", () => {
    // Projector: the widget's font is 1.5% of its width (js/widget.css) and the
    // trace's column a third of the table's row (at least 23 em of the font).
    // Text is 11 units in CSS: its size in em is 11 * (column width / W).
    const [W] = SIZES.projector;
    expect((11 * 23) / W).toBeGreaterThanOrEqual(0.85);
    expect(svg([], 1)).toContain(`viewBox="0 0 ${SIZES.notebook.join(" ")}"`);
    const p = traceSvg([], { players: 3, deck: 100, names, lang: "en", now: 1, size: "projector" });
    expect(p).toContain(`viewBox="0 0 ${SIZES.projector.join(" ")}"`);
    expect(p).toContain(`data-w="${W}"`);
    // below the table: at most 40em of 15px wide
    expect((11 * 600) / SIZES.notebook[0] / 15).toBeGreaterThanOrEqual(0.85);
    // the "now" line follows the drawing's width
    expect(nowX(5, 10, W)).toBeCloseTo(40 + (W - 52) / 2);
  });
});
