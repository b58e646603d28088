import { describe, expect, it } from "vitest";
import teacherDe from "../mindwidget/locales/teacher/de.json";
import teacherEn from "../mindwidget/locales/teacher/en.json";
import teacherNl from "../mindwidget/locales/teacher/nl.json";
import { dashboardParts, say, stuckText, tableCard } from "./dashboard_render.js";

/** The dashboard's HTML as its page draws it (js/dashboard.js): every part of
 * `dashboardParts`, the tables' cards among them. */
const drawn = (state, ui = {}) => {
  const { top, tables } = dashboardParts(state, ui);
  return [...top, ...tables].map(([, html]) => html).join("\n");
};

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

/** A table shown large, as a watcher sees it (a `View`). */
const large = (over = {}) => ({
  players: 3,
  seat: null,
  level: 5,
  levels: 10,
  lives: 3,
  stars: 1,
  blind: false,
  phase: "play",
  t: 110.5,
  hand: [],
  counts: [1, 1, 1],
  pile: [],
  pile_by: [],
  discards: [],
  n: 1,
  news: [],
  allowed: [],
  ...over,
});

describe("the dashboard", () => {
  it("shows the code, the address, the QR code as an image, and a summary of stuck tables", () => {
    const html = drawn({
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
    const html = drawn({ room: room({ qr_svg: "<script>alert(1)</script>" }), settings: {} });
    expect(html).not.toContain("script");
  });
  it("draws the large table with nothing to press", () => {
    const view = large({ level: 1, t: 1500, allowed: ["ready"] });
    const html = drawn({
      room: room(),
      settings: { lang: "en", focus: 1 },
      table: { id: 1, view, points: [] },
    });
    expect(html).toContain('data-testid="large"');
    expect(html).not.toContain("reveal-badge");
  });
  it("a refusal is said in words", () => {
    const html = drawn({
      room: room(),
      settings: { lang: "de" },
      notice: { key: "refused_no_table", params: { table: 9 } },
    });
    expect(html).toContain("Es gibt keinen Tisch 9.");
  });
});

describe("what the teacher can act on (issue 24)", () => {
  it("the large table's clock is the level time, not the last event's seconds / 1000", () => {
    const state = {
      room: room(),
      settings: { lang: "nl", focus: 1 },
      table: { id: 1, view: large({ watch: "class" }), points: [], clock: { t: 112.3, running: true } },
    };
    expect(drawn(state, { now: 118.04 })).toMatch(/data-testid="clock">118,0</);
    // before the page has run the clock: the clock as synced
    expect(drawn(state)).toMatch(/data-testid="clock">112,3</);
    // a table of pupils is not "the bots playing"
    expect(drawn(state)).toContain("De tafel speelt.");
    expect(drawn(state)).not.toContain("De bots spelen.");
  });
  it("offers Start with bots only at a table that has not started", () => {
    const playing = tableCard(table(), room(), { manage: true }, "nl");
    expect(playing).not.toContain('data-act="start_table"');
    const waiting = tableCard(table({ phase: "waiting", levels: 0 }), room(), { manage: true }, "nl");
    expect(waiting).toContain("Starten met bots");
    const nobody = table({ phase: "waiting", levels: 0, seats: [{ seat: 0, kind: "empty" }] });
    expect(tableCard(nobody, room(), { manage: true }, "nl")).not.toContain('data-act="start_table"');
  });
  it("a removal, and a move during a level, ask once more", () => {
    const t = table();
    const html = tableCard(t, room(), { manage: true }, "nl");
    expect(html).toMatch(/data-act="move"[^>]*data-confirm="true"/);
    const armed = tableCard(t, room(), { manage: true, armed: "remove:p7" }, "nl");
    expect(armed).toContain("Anna echt verwijderen? Druk nog eens");
    const moving = tableCard(t, room(), { manage: true, armed: "move:p7" }, "nl");
    expect(moving).toContain("Verplaatsen tijdens het level? Druk nog eens");
    // before a table starts a move needs no second press
    expect(tableCard(table({ phase: "waiting" }), room(), { manage: true }, "nl")).not.toContain(
      "data-confirm",
    );
  });
  it("showing every hand asks once more: a projector would show them to the class", () => {
    const state = (reveal) => ({ room: room(), settings: { lang: "nl", reveal } });
    const control = (html) => html.match(/<button[^>]*data-act="reveal"[^>]*>[^<]*<\/button>/)[0];
    const first = control(drawn(state(false), {}));
    expect(first).toContain('data-on="true"');
    expect(first).toContain("Alle kaarten tonen (alleen op dit scherm)");
    const armed = control(drawn(state(false), { armed: "reveal:" }));
    expect(armed).toContain("Op de beamer ziet de hele klas dan elke hand. Toch tonen? Druk nog eens");
    expect(armed).toContain('data-on="true"');
    expect(armed).toContain("mwd-danger");
    for (const [lang, words] of [
      ["en", "On a projector the whole class sees every hand"],
      ["de", "Auf dem Beamer sieht die ganze Klasse dann jede Hand"],
    ])
      expect(drawn({ ...state(false), settings: { lang } }, { armed: "reveal:" })).toContain(words);
    // hiding them again acts at once
    const shown = control(drawn(state(true), { armed: "" }));
    expect(shown).toContain('data-on="false"');
    expect(shown).toContain("Kaarten verbergen");
  });
  it("a table waiting for an empty seat says so and offers a bot for it", () => {
    const t = table({ phase: "ready", stuck: { reason: "empty", seats: [2] } });
    const html = tableCard(t, room(), {}, "nl");
    expect(html).toContain("VAST: plaats 3 is leeg");
    expect(html).toMatch(/data-act="give_to_bot" data-table="1" data-seat="2"/);
  });
  it("a pupil who dropped: offline without a stale round trip, and her seat offered to a bot", () => {
    const seats = [
      { seat: 0, kind: "person", pupil: "p7", name: "Anna", connected: true, rtt_ms: 12 },
      { seat: 1, kind: "person", pupil: "p8", name: "Cas", connected: false, rtt_ms: 3 },
    ];
    const t = table({ phase: "stopped", seats, stuck: { reason: "offline", seats: [1] }, offer_bot: [1] });
    const html = tableCard(t, room(), {}, "nl");
    const cas = html.slice(html.indexOf('data-testid="seat-1-2"'));
    expect(cas).toContain(">offline</span>");
    expect(cas).not.toContain("3 ms"); // the last round trip measured is not hers now
    expect(html).toContain("12 ms"); // Anna, online, keeps hers
    expect(html).toContain("VAST: Cas offline");
    expect(html).toContain('data-testid="offer-bot-1-2">Plaats 2 (Cas) aan een bot geven</button>');
  });
  it("the last mistake of an earlier level says its level", () => {
    const t = table({ level: 4, last_mistake: { card: 30, seat: 0, held: [[1, 12]], level: 2 } });
    expect(tableCard(t, room(), {}, "nl")).toContain(
      "Laatste fout (level 2): Anna speelde 30; lager: Bot 2 12",
    );
  });
  it("offers the class's data as a download only where the page can give it", () => {
    const state = { room: room(), settings: { lang: "nl" } };
    expect(drawn(state, { download: true })).toContain("Gegevens van de klas downloaden");
    expect(drawn(state, {})).not.toContain('data-act="download"');
    // after the end too: the controls shrink to the download and the language
    const ended = drawn({ ...state, room: room({ ended: true }) }, { download: true });
    expect(ended).toContain('data-act="download"');
    expect(ended).not.toContain('data-act="start_all"');
  });
  it("after the end: the lesson ended, no stuck banner, nobody struck through", () => {
    const gone = table({
      stuck: { reason: "offline", seats: [0] },
      seats: [{ seat: 0, kind: "person", pupil: "p7", name: "Anna", connected: false, rtt_ms: 12 }],
    });
    const html = drawn(
      { room: room({ ended: true, tables: [gone] }), settings: { lang: "nl" } },
      { manage: true },
    );
    expect(html).toContain("De les is afgelopen.");
    expect(html).not.toContain("VAST");
    expect(html).not.toContain("mwd-gone");
    expect(html).not.toContain("offline");
    expect(html).not.toContain('data-act="remove"');
    expect(html).toContain("Afgelopen");
  });
});
