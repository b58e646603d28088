// One place for the seats' colours and shapes: mindwidget/seats.json. The
// widget sets each seat's colour inline from it (js/parts.js) and draws each
// shape with a CSS class of the shape's name: widget.css must have them all
// and repeat no seat colour.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import SEATS from "../mindwidget/seats.json";
import { seatMark } from "./parts.js";

const css = readFileSync(new URL("./widget.css", import.meta.url), "utf8");

describe("seat colours and shapes", () => {
  it("widget.css has a class for every shape of seats.json", () => {
    for (const shape of SEATS.svg_shapes.filter((s) => s !== "square")) {
      expect(css).toMatch(new RegExp(`\\.mw-shape-${shape} \\{`));
    }
  });

  it("widget.css repeats no seat colour", () => {
    for (const colour of SEATS.colours) expect(css.toUpperCase()).not.toContain(colour.toUpperCase());
  });

  it("a seat's mark carries its colour and shape", () => {
    expect(seatMark(2)).toContain(`--mw-pc:${SEATS.colours[2]}`);
    expect(seatMark(2)).toContain(`mw-shape-${SEATS.svg_shapes[2]}`);
  });

  it("has a shape for every colour, in the widget and in plot_trace", () => {
    expect(SEATS.svg_shapes).toHaveLength(SEATS.colours.length);
    expect(SEATS.matplotlib_markers).toHaveLength(SEATS.colours.length);
    expect(SEATS.names).toHaveLength(SEATS.colours.length);
  });
});
