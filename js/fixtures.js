// @ts-check
// Payloads as Python sends them (mindwidget/wire.py), for the front end's tests.
// js/wire.test.js validates each against js/wire.schema.json, so a test never
// renders a view that Python could not send.

/** @type {import("./wire.gen.js").View} */
export const baseView = Object.freeze({
  players: 3,
  seat: 0,
  level: 2,
  levels: 10,
  lives: 3,
  stars: 1,
  max_lives: 5,
  max_stars: 3,
  blind: false,
  phase: "play",
  t: 1.5,
  hand: [12, 40],
  counts: [2, 2, 1],
  pile: [7],
  pile_by: [1],
  discards: [],
  n: 4,
  news: [],
  allowed: /** @type {import("./wire.gen.js").View["allowed"]} */ (["play", "stop", "propose_star"]),
  deck: 100,
  tempo: null,
  speeds: [],
});

/** A few more views the tests draw: stopped (why, a mistake), voting, a bots-only table with menus,
 * every hand revealed, a won game. */
export const views = Object.freeze({
  base: baseView,
  ready: { ...baseView, phase: "ready", pile: [], pile_by: [], allowed: ["ready"], join: 0.6 },
  stoppedByYou: { ...baseView, phase: "stopped", allowed: ["ready"], why: "stop", stopped_by: 0 },
  stoppedByMistake: {
    ...baseView,
    phase: "stopped",
    allowed: ["ready"],
    why: "mistake",
    hand: [40],
    counts: [1, 2, 1],
    pile: [7, 30],
    pile_by: [2, 1],
    discards: [{ player: 0, card: 12, k: "lost" }],
    mistake_discards: [0],
    early: true,
    mistake: {
      type: "mistake",
      level: 2,
      t: 1,
      player: 1,
      card: 30,
      lives_lost: 1,
      lives: 2,
      discards: [{ player: 0, card: 12 }],
    },
  },
  revealed: {
    ...baseView,
    hands: [[12, 40], [19, 66], [55]],
    plans: { 1: 4.2, 2: 9.1 },
    lowest: 12,
  },
  won: {
    ...baseView,
    phase: "won",
    level: 10,
    hand: [],
    counts: [0, 0, 0],
    allowed: ["start_blind", "new_game"],
    blind_hint: true,
    cleared: { type: "cleared", level: 10, t: 9, reward: null, granted: false, lives: 3, stars: 1 },
  },
  vote: {
    ...baseView,
    phase: "vote",
    allowed: ["vote"],
    vote: { by: 1, votes: { 1: true }, result: "open" },
  },
  watch: {
    ...baseView,
    seat: null,
    hand: [],
    allowed: ["ready"],
    phase: "ready",
    tempo: "people",
    tempos: ["slow", "people", "quick"],
    tempo_labels: ["slow", "like people", "quick"],
    speeds: [1, 2, 4],
    speed_labels: ["1×", "2×", "4×"],
  },
});

export const clock = Object.freeze({ running: true, t: 2, seq: 7, epoch: 1001, speed: 1, beat: true });
export const trace = Object.freeze({
  epoch: 1001,
  from: 0,
  points: [
    { k: "play", t: 0.9, card: 7, player: 1 },
    { k: "stop", t: 1.2, until: 1.4, player: 0 },
    { k: "mistake", t: 2, card: 30, player: 1 },
    { k: "lost", t: 2, card: 12, player: 0 },
    { k: "stop", t: 2, until: null, player: 1, why: "mistake" },
  ],
});
export const notice = Object.freeze({ key: "no_cards", params: { player: 0 }, id: 3, you: true });
