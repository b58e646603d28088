// @ts-check
// The shapes of what Python sends (mindwidget/view.py, mindwidget/widget.py),
// as JSDoc types for `// @ts-check`. One name per thing: a seat is `player`
// wherever a payload names who did something. No code here.

/**
 * A card put aside, by a mistake (`k: "mistake"`) or a throwing star (`k: "star"`);
 * `card` is null while face down for this seat.
 * @typedef {{player: number, card: number|null, k: "mistake"|"star"}} Discard
 */

/**
 * One point of the live timing trace (view.trace_points).
 * @typedef {{k: "play"|"mistake"|"lost"|"star"|"stop", t: number, card?: number|null,
 *   player: number, until?: number|null, why?: "mistake"|"star"}} TracePoint
 */

/**
 * A public event (events.py public_dict), as in `view.news` and the panels.
 * @typedef {{type: string, player?: number, card?: number|null, level?: number,
 *   lives?: number, agree?: boolean, discards?: {player: number, card: number|null}[],
 *   faults?: number[], reward?: string|null, granted?: boolean, t?: number}} PublicEvent
 */

/**
 * The table as one seat sees it (view.table_view).
 * @typedef {object} TableView
 * @property {number} players
 * @property {number|null} seat        the person's seat; null: a class watching bots
 * @property {(string|null)[]} [names] a class table (mindwidget/classroom): the pupils' nicknames by seat (null: a bot)
 * @property {number} level
 * @property {number} levels
 * @property {number} lives
 * @property {number} stars
 * @property {number} [max_lives]
 * @property {number} [max_stars]
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
 * @property {string[]} [allowed]      what the person's seat may do now (Python decides)
 * @property {{by: number, votes: Record<string, boolean>, result: string}} [vote]
 * @property {PublicEvent} [mistake]
 * @property {PublicEvent} [cleared]
 * @property {{pile: number[], faults: number[], lives_lost: number}} [check]
 * @property {{level: number, lives_lost: {level: number, lives: number}[]}} [summary]
 * @property {number[][]} [hands]      reveal only
 * @property {Record<string, number>} [plans]  reveal only
 * @property {string|number|null} [tempo]  the bots' tempo ("slow", "people", "quick" or a number); null: none to set
 * @property {number[]} [speeds]      the watch speeds to choose from (a table of bots only), else empty
 */

export {};
