// widget.css repeats the seat colours (CSS cannot import JSON): keep them equal
// to mindwidget/seats.json, the one place for them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import SEATS from "../mindwidget/seats.json";

const css = readFileSync(new URL("./widget.css", import.meta.url), "utf8");

describe("seat colours", () => {
  it("every seat class in widget.css uses the colour of seats.json", () => {
    SEATS.colours.forEach((colour, p) => {
      const seat = new RegExp(`\\.mw-p${p} \\{ --mw-pc: (#[0-9A-Fa-f]{6}); \\}`).exec(css);
      const dot = new RegExp(`\\.mw-dot-${p} \\{ background: (#[0-9A-Fa-f]{6});`).exec(css);
      expect(seat && seat[1].toUpperCase()).toBe(colour.toUpperCase());
      expect(dot && dot[1].toUpperCase()).toBe(colour.toUpperCase());
    });
  });

  it("has a shape for every colour, in the widget and in plot_trace", () => {
    expect(SEATS.svg_shapes).toHaveLength(SEATS.colours.length);
    expect(SEATS.matplotlib_markers).toHaveLength(SEATS.colours.length);
    expect(SEATS.names).toHaveLength(SEATS.colours.length);
  });
});
