import { describe, expect, it } from "vitest";
import { COLOURS, SHAPES, traceSvg } from "./trace.js";

const names = ["You", "Bot 1", "Bot 2"];
const svg = (points, now = 3) => traceSvg(points, { players: 3, names, lang: "en", now });

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
      names,
      lang: "de",
      now: 1,
    });
    expect(s).not.toContain('data-kind="play"');
    expect(s).toContain("Zeit (s)");
    expect(s).toContain('role="img"');
  });

  it("stretches the time axis with the level", () => {
    const short = svg([], 1);
    const long = svg([{ k: "play", t: 95, card: 90, player: 0 }], 96);
    expect(short).toContain('data-tmax="6"');
    expect(long).toContain('data-tmax="101"');
  });
});
