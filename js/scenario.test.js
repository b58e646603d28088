import { describe, expect, it } from "vitest";
import {
  announceScene,
  counterText,
  enabledActions,
  keyAction,
  phaseLine,
  playerNames,
  renderBoard,
  sceneKey,
} from "./scenario_render.js";

// The "mistake" scenario after step 3 (player 2 plays 34 too early), as
// mindwidget/scenario_widget.py syncs it.
const table = {
  players: 3,
  seat: null,
  level: 2,
  levels: 12,
  lives: 2,
  stars: 1,
  blind: false,
  phase: "play",
  t: 2.4,
  hand: [],
  counts: [0, 1, 1],
  pile: [11, 34],
  pile_by: [0, 2],
  discards: [
    { player: 0, card: 26, k: "mistake" },
    { player: 1, card: 30, k: "mistake" },
  ],
  n: 4,
  news: [],
  vote: null,
  mistake: null,
  cleared: null,
  check: null,
  hands: [[], [71], [58]],
  plans: {},
  lowest: 58,
  deck: 100,
};
const trace = [
  { k: "play", t: 1.1, card: 11, player: 0 },
  { k: "mistake", t: 2.4, card: 34, player: 2 },
  { k: "lost", t: 2.4, card: 26, player: 0 },
  { k: "lost", t: 2.4, card: 30, player: 1 },
];
const base = {
  name: "mistake",
  title: "The mistake",
  position: 3,
  steps: 7,
  text: "Player 2 plays 34, but player 0 still holds 26.",
  rule: "a card played while someone holds a lower card costs one life.",
  refusal: null,
  seat: 0,
  table,
  trace,
  live: null,
};
const scene = (over = {}) => ({ ...base, ...over });
const html = (over = {}, ctx = {}) => renderBoard(scene(over), { lang: "en", notice: {}, ...ctx });
const button = (s, testid) =>
  s.match(new RegExp(`<button[^>]*data-testid="${testid}"[^>]*><span class="mw-btn-label">([^<]*)<`));
const enabled = (s, testid) => {
  const m = button(s, testid);
  return m !== null && !m[0].includes(" disabled");
};

describe("the scenario board", () => {
  it("shows the step, the narration and the rule behind it", () => {
    const s = html();
    expect(s).toContain('data-testid="step-counter" data-position="3">Step 3 of 7<');
    expect(s).toContain("Player 2 plays 34, but player 0 still holds 26.");
    expect(s).toMatch(/data-testid="rule"><strong>Rule:<\/strong> a card played while/);
    expect(s).not.toContain('data-testid="refusal"');
  });

  it("shows every hand face up, named as the narrations name them, with the lowest in play marked", () => {
    const s = html();
    expect(s).toContain('data-testid="hand-1" data-cards="71"');
    expect(s).toContain('data-testid="hand-2" data-cards="58"');
    expect(s).toContain("Player 1");
    expect(s).not.toContain("Player 0");
    expect(s).toContain("no cards");
    expect(s).not.toContain("mw-back"); // nothing face down
    expect(s).toMatch(/data-testid="lowest-in-play"[^>]*><span class="mw-num">58</);
  });

  it("marks the lowest card Python names (table.lowest), and none when it names none", () => {
    // Python decides which card is the lowest in play, not a Math.min of the hands
    const s = html({ table: { ...table, lowest: 71 } });
    expect(s).toMatch(/data-testid="lowest-in-play"[^>]*><span class="mw-num">71</);
    expect(s).not.toMatch(/data-testid="lowest-in-play"[^>]*><span class="mw-num">58</);
    expect(html({ table: { ...table, lowest: null } })).not.toContain('data-testid="lowest-in-play"');
  });

  it("draws the trace's card axis to the table's deck", () => {
    const labels = (/** @type {string} */ s) =>
      [...s.matchAll(/text-anchor="end">(\d+)<\/text>/g)].map((m) => Number(m[1]));
    expect(labels(html({ table: { ...table, deck: 50 } }))).toEqual([0, 25, 50]);
    expect(labels(html())).toEqual([0, 25, 50, 75, 100]);
  });

  it("shows the pile, the discards and the timing trace so far", () => {
    const s = html();
    expect(s).toMatch(/data-testid="pile-top" data-card="34"[^>]*>.*<span class="mw-num">34</);
    expect(s).toContain('data-testid="discard" data-card="26" data-player="0"');
    expect(s).toContain('data-kind="mistake" data-card="34"');
    expect(s).toContain('data-kind="lost" data-card="30"');
    expect(s).toContain('data-testid="lives" data-count="2"');
  });

  it("offers Back, Next, Reset and Take over; Back and Reset not at the start, Next not at the end", () => {
    const mid = html();
    for (const b of ["btn-back", "btn-next", "btn-reset", "btn-take-over"])
      expect(enabled(mid, b), b).toBe(true);
    const start = html({ position: 0, rule: null, text: "Three players, level 2." });
    expect(enabled(start, "btn-back")).toBe(false);
    expect(enabled(start, "btn-reset")).toBe(false);
    expect(enabled(start, "btn-next")).toBe(true);
    expect(start).toContain("Start (7 steps)");
    expect(start).not.toContain('data-testid="rule"');
    const end = html({ position: 7 });
    expect(enabled(end, "btn-next")).toBe(false);
    expect(enabled(end, "btn-take-over")).toBe(true);
  });

  it("says whom the person plays after taking over, or that the bots play on", () => {
    expect(html()).toContain("You then play Player 1; bots play the others.");
    expect(html({ seat: null })).toContain("The bots then play on from here.");
  });

  it("while taken over: only the bar with Return to the scenario", () => {
    const s = html({ live: { from: 3, seat: 1 } });
    expect(s).toContain("You took over at step 3 of 7: you play Player 2");
    expect(enabled(s, "btn-leave")).toBe(true);
    expect(s).not.toContain('data-testid="btn-next"');
    expect(s).not.toContain('data-testid="pile"');
    expect(html({ live: { from: 0, seat: null } })).toContain("Taken over at the start: the bots play on.");
  });

  it("shows a refused step with the game's reason in the board's language", () => {
    const s = html({ refusal: "Spieler 1 hat keine Karte 5." }, { lang: "de" });
    expect(s).toContain("Das Spiel lehnt ab: Spieler 1 hat keine Karte 5.");
  });

  it("labels a tip apart from a rule, and quotes a rule's source text", () => {
    const tip = html({ rule: null, tip: "Low cards go quickly.", source: null }, { lang: "nl" });
    expect(tip).toContain(
      '<p class="mw-tip" data-testid="tip"><strong>Tip:</strong> Low cards go quickly.</p>',
    );
    expect(tip).not.toContain('data-testid="rule"');
    const rule = html(
      { source: { doc: "nl_rules_page", title: "Spelregels", quote: "Je speelt altijd je laagste." } },
      { lang: "de" },
    );
    expect(rule).toContain(
      'data-testid="source">Quelle: <q lang="nl">Je speelt altijd je laagste.</q> — Spelregels',
    );
  });

  it("shows a notice from Python in the board's language", () => {
    const s = html({}, { lang: "nl", notice: { key: "at_end", id: 1 } });
    expect(s).toContain('role="alert" data-testid="scenario-notice" data-key="at_end"');
    expect(s).toContain("Er is geen volgende stap");
  });

  it("re-labels everything in Dutch and German", () => {
    const nl = html({}, { lang: "nl" });
    expect(button(nl, "btn-next")[1]).toBe("Volgende");
    expect(button(nl, "btn-take-over")[1]).toBe("Hier overnemen");
    expect(nl).toContain("Stap 3 van 7");
    expect(nl).toContain("Speler 2");
    const de = html({}, { lang: "de" });
    expect(button(de, "btn-back")[1]).toBe("Zurück");
    expect(de).toContain("<strong>Regel:</strong>");
    expect(de).toContain("Schritt 3 von 7");
  });

  it("escapes text from the scenario", () => {
    const s = html({ text: "<b>bold</b> & more", title: 'a "title"' });
    expect(s).toContain("&#60;b&#62;bold&#60;/b&#62; &#38; more");
    expect(s).not.toContain("<b>bold</b>");
  });

  it("draws a placeholder before the first sync", () => {
    expect(renderBoard({}, { lang: "en" })).toContain("Scenario player");
  });
});

describe("keys, announcements and small helpers", () => {
  it("Left goes back, Right goes on, Home resets, only when possible", () => {
    expect(keyAction("ArrowLeft", scene())).toBe("back");
    expect(keyAction("ArrowRight", scene())).toBe("next");
    expect(keyAction("Home", scene())).toBe("reset");
    expect(keyAction("ArrowRight", scene({ position: 7 }))).toBe(null);
    expect(keyAction("ArrowLeft", scene({ position: 0 }))).toBe(null);
    expect(keyAction("ArrowRight", scene({ live: { from: 3, seat: 0 } }))).toBe(null);
    expect(keyAction("x", scene())).toBe(null);
  });

  it("enabled actions follow the position", () => {
    expect(enabledActions(scene({ position: 0 }))).toEqual({
      back: false,
      next: true,
      reset: false,
      take_over: true,
    });
    expect(enabledActions(scene({ live: { from: 2, seat: 0 } }))).toEqual({ leave: true });
  });

  it("the live region reads the step, its narration and its rule", () => {
    expect(announceScene(scene(), "en")).toBe(
      "Step 3 of 7. Player 2 plays 34, but player 0 still holds 26. Rule: a card played while someone holds a lower card costs one life.",
    );
    expect(announceScene(scene({ live: { from: 3, seat: 0 } }), "en")).toContain(
      "You took over at step 3 of 7",
    );
    expect(announceScene(undefined, "en")).toBe("");
  });

  it("speaks on a new step or a take-over, not on a language change", () => {
    expect(sceneKey(scene())).toBe(sceneKey(scene({ text: "Speler 2 legt 34" })));
    expect(sceneKey(scene())).not.toBe(sceneKey(scene({ position: 4 })));
    expect(sceneKey(scene())).not.toBe(sceneKey(scene({ live: { from: 3, seat: 0 } })));
  });

  it("the phase line follows the scene's phase from Python (the team concentrated)", () => {
    const s = html({ position: 1, phase: "concentrated", table: { ...table, pile: [], pile_by: [] } });
    expect(s).toContain('data-phase="concentrated"');
    expect(s).toContain("The team concentrated; the hands came off the table together");
    expect(html({ phase: undefined })).toContain('data-phase="play"'); // no scene phase: the table's
    expect(phaseLine(table, "nl", "concentrated")).toContain("geconcentreerd");
  });

  it("projector size: the story beside the table, the timeline drawn for its column", () => {
    const s = html({}, { size: "projector" });
    expect(s).toMatch(/mw-scenario-play[^]*btn-next[^]*mw-scenario-side[^]*narration[^]*data-testid="trace"/);
    expect(s).toContain('viewBox="0 0 260 210"');
    expect(html()).toContain('viewBox="0 0 480 200"');
  });

  it("names seats from 1 (index 0 is Spieler 1), counts steps, and names the table's phase", () => {
    expect(playerNames(3, "de")).toEqual(["Spieler 1", "Spieler 2", "Spieler 3"]);
    expect(counterText(scene({ position: 0 }), "nl")).toBe("Begin (7 stappen)");
    expect(phaseLine({ phase: "ready" }, "en")).toBe("Hands on the table: the team concentrates.");
    expect(phaseLine({ phase: "cleared", level: 2 }, "en")).toBe("Level 2 cleared!");
    expect(phaseLine({ phase: "won", levels: 12, blind: false }, "en")).toContain("12 levels");
  });
});
