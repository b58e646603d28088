// @ts-check
// The shapes of what Python sends (declared once in mindwidget/wire.py, as JSON
// Schema in js/wire.schema.json), as JSDoc types for `// @ts-check`. js/wire.test.js
// checks that TableView names the schema's View fields, and which are required.
// No code here.

/**
 * A card put aside (a discard), by a mistake (`k: "lost"`, as its point in the trace)
 * or a throwing star (`k: "star"`); `card` is null while face down for this seat.
 * @typedef {{player: number, card: number|null, k: "lost"|"star"}} Discard
 */

/**
 * One point of the live timing trace (view.trace_points).
 * @typedef {{k: "play"|"mistake"|"lost"|"star"|"stop", t: number, card?: number|null,
 *   player: number, until?: number|null, why?: "mistake"|"star"|"offline"|"teacher"|"seat"|"resumed",
 *   by?: string}} TracePoint
 */

/**
 * A public event (events.py public_dict), as in `view.news` and the panels.
 * @typedef {{type: string, player?: number, card?: number|null, level?: number,
 *   lives?: number, lives_lost?: number, agree?: boolean,
 *   discards?: {player: number, card: number|null}[],
 *   faults?: number[], reward?: string|null, granted?: boolean, t?: number,
 *   why?: string}} PublicEvent
 */

/**
 * The table as one seat sees it (view.table_view).
 * @typedef {object} TableView
 * @property {number} players
 * @property {number|null} seat        the person's seat; null: a class watching bots
 * @property {number} level
 * @property {number} levels
 * @property {number} lives
 * @property {number} stars
 * @property {number} max_lives
 * @property {number} max_stars
 * @property {boolean} blind
 * @property {"ready"|"stopped"|"vote"|"play"|"cleared"|"won"|"lost"} phase
 * @property {number} t
 * @property {number[]} hand
 * @property {number[]} counts
 * @property {(number|null)[]} pile
 * @property {number[]} pile_by
 * @property {Discard[]} discards
 * @property {number} n
 * @property {PublicEvent[]} news
 * @property {string[]} allowed      what the person's seat may do now (Python decides)
 * @property {number} deck           the deck's highest card (cards 1 .. deck): the trace's card axis
 * @property {number[]} [mistake_discards]  with `mistake`: the places in `discards` it put aside
 * @property {true} [early]          the pile's top card is the one the shown mistake played too early
 * @property {true} [blind_hint]     after a win: the banner says blind mode may follow
 * @property {{by: number, votes: Record<string, boolean>, result: string}} [vote]
 * @property {PublicEvent} [mistake]
 * @property {PublicEvent} [cleared]
 * @property {{pile: number[], faults: number[], lives_lost: number}} [check]
 * @property {{level: number, lives_lost: {level: number, lives: number}[]}} [summary]
 * @property {number[][]} [hands]      reveal only
 * @property {Record<string, number>} [plans]  reveal only
 * @property {number|null} [lowest]  reveal only: the lowest card in any hand (a scenario marks it)
 * @property {boolean} [waiting_for_team]  this seat pressed Ready; the table waits for the other people's
 * @property {"class"|"bots"} [watch]  the teacher's dashboard: who plays the table shown large (pupils or bots only)
 * @property {(string|null)[]} [names]  a class table (the class page adds it): the pupils' nicknames by seat, null for a bot
 * @property {(string|null)[]} [pile_names]  a class table: an earlier holder's name beside each pile card
 * @property {(string|null)[]} [discard_names]  the same beside each card put aside
 * @property {(string|null)[]} [mistake_names]  the same beside each of the mistake's cards put aside
 * @property {boolean} [offline]  the class page lost its connection (the page adds it): no action
 * @property {string|number|null} tempo  the bots' tempo ("slow", "people", "quick" or a number); null: none to set
 * @property {number[]} speeds      the watch speeds to choose from (a table of bots only), else empty
 * @property {string[]} [tempos]      the tempo menu's entries (when the bots have a tempo)
 * @property {string[]} [tempo_labels]  their labels, in the session's language
 * @property {string[]} [speed_labels]  the speed menu's labels ("2×")
 * @property {number} [join]          seconds the bots take to join after the person's Ready
 * @property {"mistake"|"star"|"stop"|"offline"|"teacher"|"seat"|"resumed"} [why]  phase "stopped": why
 *   the hands are on the table ("stop": a seat called it; "offline": its connection was lost;
 *   "teacher": the teacher paused; "seat": the seating changed)
 * @property {number|null} [stopped_by]  not after a mistake or a star: the seat in whose name
 * @property {boolean} [back]  "offline" at a class table: that seat's pupil is connected again
 */

/**
 * The level clock (Table.clock, with the session's `beat`).
 * @typedef {{running: boolean, t: number, seq: number, epoch: number, speed: number,
 *   beat: boolean}} Clock
 */

/**
 * The live trace as synced (`live_trace`): the points from `from` on.
 * @typedef {{epoch: number, from: number, points: TracePoint[]}} TraceUpdate
 */

export {};
