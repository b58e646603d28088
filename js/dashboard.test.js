import { describe, expect, it } from "vitest";
import teacherDe from "../mindwidget/locales/teacher/de.json";
import teacherEn from "../mindwidget/locales/teacher/en.json";
import teacherNl from "../mindwidget/locales/teacher/nl.json";
import { renderDashboard, say, stuckText, tableCard } from "./dashboard_render.js";

const table = (over = {}) => ({
  id: 1,
  phase: "play",
  level: 2,
  levels: 10,
  lives: 3,
  stars: 1,
  status: "playing",
  over: false,
  cleared: false,
  waiting_for: [1],
  last_mistake: { card: 30, seat: 0, held: [[1, 12]] },
  seats: [
    { seat: 0, kind: "person", pupil: "p7", name: "Anna", connected: true, rtt_ms: 12 },
    { seat: 1, kind: "bot", name: "Bot 2" },
    { seat: 2, kind: "empty" },
  ],
  stuck: null,
  ...over,
});
const room = (over = {}) => ({
  code: "4821",
  url: "http://192.168.1.20:8765/?code=4821",
  qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  locked: false,
  lang: "nl",
  tables: [table()],
  free: [
    [1, 1],
    [1, 2],
  ],
  waiting_room: [{ pupil: "p9", name: "Sam", connected: true }],
  ...over,
});

describe("teacher strings", () => {
  it("every language has the same keys", () => {
    expect(Object.keys(teacherNl).sort()).toEqual(Object.keys(teacherEn).sort());
    expect(Object.keys(teacherDe).sort()).toEqual(Object.keys(teacherEn).sort());
  });
  it("falls back to the widget's words for lives and stars, and counts", () => {
    expect(say("nl", "lives")).toBe("Levens");
    expect(say("de", "pupils_n", { n: 1 })).toBe("1 Schüler*in");
    expect(say("nl", "pupils_n", { n: 3 })).toBe("3 leerlingen");
  });
});

describe("a table's card", () => {
  it("marks a table over or cleared as the snapshot says, not from its phase", () => {
    const cls = (/** @type {string} */ html) => html.match(/<article class="([^"]*)"/)?.[1] ?? "";
    const over = tableCard(table({ phase: "lost", status: "over", over: true }), room(), {}, "en");
    expect(cls(over)).toContain("mwd-over");
    expect(cls(over)).not.toContain("mwd-cleared");
    const cleared = tableCard(
      table({ phase: "cleared", status: "stopped", cleared: true }),
      room(),
      {},
      "en",
    );
    expect(cls(cleared)).toContain("mwd-cleared");
    expect(cls(cleared)).not.toContain("mwd-over"); // a cleared level is not a game over
    // the phase alone decides nothing: the snapshot's fields do
    expect(cls(tableCard(table({ phase: "won" }), room(), {}, "en"))).not.toMatch(/mwd-over|mwd-cleared/);
    expect(cls(tableCard(table({ over: true }), room(), {}, "en"))).toContain("mwd-over");
  });

  it("shows seats from 1, level, lives, stars, who it waits for and the last mistake", () => {
    const html = tableCard(table(), room(), {}, "en");
    expect(html).toContain('data-testid="seat-1-1"');
    expect(html).toContain("Level 2 of 10");
    expect(html).toContain("Waiting for Bot 2");
    expect(html).toContain("Last mistake: Anna played 30; lower: Bot 2 12");
    expect(html).toContain("12 ms");
    expect(html).not.toContain("mwd-stuck");
  });
  it("marks a stuck table and says why, in the teacher's language", () => {
    const t = table({ stuck: { reason: "offline", seats: [0] } });
    expect(stuckText(t, "nl")).toBe("VAST: Anna offline");
    expect(tableCard(t, room(), {}, "nl")).toContain('data-stuck="offline"');
    expect(stuckText(table({ stuck: { reason: "idle", seats: [1], seconds: 40 } }), "de")).toBe(
      "HÄNGT: 40 s nichts",
    );
  });
  it("escapes nicknames", () => {
    const t = table({
      seats: [
        { seat: 0, kind: "person", pupil: "p7", name: "<img src=x onerror=alert(1)>", connected: true },
      ],
    });
    const html = tableCard(t, room(), {}, "en");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&#60;img");
  });
});

describe("the dashboard", () => {
  it("shows the code, the address, the QR code as an image, and a summary of stuck tables", () => {
    const html = renderDashboard({
      room: room({ tables: [table(), table({ id: 2, stuck: { reason: "idle", seats: [1], seconds: 30 } })] }),
      settings: { lang: "en" },
      table: {},
      notice: {},
    });
    expect(html).toContain(">4821<");
    expect(html).toContain('<img class="mwd-qr"');
    expect(html).not.toContain("<svg");
    expect(html).toMatch(/Stuck: <button[^>]*data-table="2"[^>]*>Table 2 · nothing for 30 s<\/button>/);
  });
  it("a QR code that is not an SVG is left out", () => {
    const html = renderDashboard({ room: room({ qr_svg: "<script>alert(1)</script>" }), settings: {} });
    expect(html).not.toContain("script");
  });
  it("draws the large table with nothing to press", () => {
    const view = {
      players: 3,
      seat: null,
      level: 1,
      levels: 10,
      lives: 3,
      stars: 1,
      blind: false,
      phase: "play",
      t: 1500,
      hand: [],
      counts: [1, 1, 1],
      pile: [],
      pile_by: [],
      discards: [],
      n: 1,
      news: [],
      allowed: ["ready"],
    };
    const html = renderDashboard({
      room: room(),
      settings: { lang: "en", focus: 1 },
      table: { id: 1, view, points: [] },
    });
    expect(html).toContain('data-testid="large"');
    expect(html).not.toContain("reveal-badge");
  });
  it("a refusal is said in words", () => {
    const html = renderDashboard({
      room: room(),
      settings: { lang: "de" },
      notice: { key: "notice_no_table", params: { table: 9 } },
    });
    expect(html).toContain("Es gibt keinen Tisch 9.");
  });
});
