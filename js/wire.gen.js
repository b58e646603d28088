// @ts-check
// Generated from mindwidget/wire.py by tools/build_wire_schema.py: do not edit.

/** The notebook widget's actions that carry the level time t (wire.Message); a class page sends none (its clock.stamp is false). */
export const TIMED = Object.freeze(["ready", "play", "stop", "propose_star", "vote"]);

/** What a page sends its table (wire.Message, a pupil's SetMessage and AnswerMessage): a class page never keeps one for later. */
export const TABLE_SENDS = Object.freeze([
  "hello",
  "tick",
  "ready",
  "play",
  "stop",
  "propose_star",
  "vote",
  "wait",
  "next_level",
  "start_blind",
  "new_game",
  "set",
  "answer",
]);

/**
 * The table as one seat sees it (`view.table_view` and the `Session`'s additions).
 * @typedef {object} View
 * @property {number} players
 * @property {number|null} seat
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
 * @property {("ready"|"play"|"stop"|"propose_star"|"vote"|"wait"|"next_level"|"start_blind"|"new_game")[]} allowed
 * @property {number} deck  the highest card of the deck (cards run 1 .. deck): the trace's card axis
 * @property {number[]} [mistake_discards]  with `mistake`: the places in `discards` of the cards that mistake put aside
 * @property {true} [early]  (only true) the pile's top card is the one the shown `mistake` played too early
 * @property {true} [blind_hint]  (only true) after a win: blind mode may follow (the rules allow it once); the banner says so
 * @property {VotePanel} [vote]
 * @property {PublicEvent} [mistake]
 * @property {PublicEvent} [cleared]
 * @property {PublicEvent} [check]
 * @property {Summary} [summary]
 * @property {number[][]} [hands]  reveal only
 * @property {Record<string, number>} [plans]  reveal only
 * @property {number|null} [lowest]  reveal only: the lowest card in any hand (the one the rules want next); null: none
 * @property {(string|null)[]} [names]  a class table (the class page adds it): the pupils' nicknames by seat, None for a bot
 * @property {(string|null)[]} [pile_names]  a class table whose seats changed hands: who played each pile card, held each card put aside, and each of the mistake's, where not the seat's holder now (else null)
 * @property {(string|null)[]} [discard_names]
 * @property {(string|null)[]} [mistake_names]
 * @property {boolean} [offline]  the class page lost its connection (the page adds it): every action disabled
 * @property {boolean} [waiting_for_team]  this seat pressed Ready; the table waits for the other people's (a class table)
 * @property {"class"|"bots"} [watch]  the teacher's dashboard: who plays the table shown large (pupils, or bots only)
 * @property {"slow"|"people"|"quick"|number|null} tempo  the bots' tempo (a name, or a number set from a cell); null: these bots have none
 * @property {(1|2|4)[]} speeds  the watch speeds to choose from (a table of bots only), else empty
 * @property {("slow"|"people"|"quick")[]} [tempos]
 * @property {string[]} [tempo_labels]
 * @property {string[]} [speed_labels]
 * @property {number} [join]  seconds the bots take to join after the person's Ready (real time, a person seated)
 * @property {"mistake"|"star"|"stop"|"offline"|"teacher"|"seat"|"resumed"} [why]  phase "stopped": why the hands are on the table, and in whose name (not for a mistake or a star): "stop", the seat called it; "offline", its connection was lost; "teacher", the teacher paused; "seat", the seating changed
 * @property {number|null} [stopped_by]
 * @property {boolean} [back]  "offline" at a class table: the seat it stopped for is connected again (its pupil is back; the table waits for their Ready like the others')
 */

/**
 * The level clock (`Table.clock`) and whether the browser sends heartbeats now.
 * @typedef {object} Clock
 * @property {boolean} running
 * @property {number} t
 * @property {number} seq
 * @property {number} epoch
 * @property {1|2|4} speed
 * @property {boolean} beat
 * @property {false} [stamp]  false: the host keeps the time (the class server), the front end sends no `t`; absent: the front end stamps its actions (the notebook widget)
 */

/**
 * @typedef {object} TraceUpdate
 * @property {number} epoch
 * @property {number} from
 * @property {TracePoint[]} points
 */

/**
 * A card put aside (a discard): `k` lost (by a mistake, as its trace point) or star; `card` null while
 * face down.
 * @typedef {object} Discard
 * @property {number} player
 * @property {number|null} card
 * @property {"lost"|"star"} k
 */

/**
 * An event as anyone at the table may know it (`Event.public_dict`).
 * @typedef {object} PublicEvent
 * @property {"dealt"|"ready"|"stopped"|"hands_on_table"|"unready"|"played"|"mistake"|"star_proposed"|"star_voted"|"star_declined"|"star_used"|"blind_checked"|"cleared"|"won"|"lost"|"blind_started"} type
 * @property {number} level
 * @property {number} t
 * @property {number} [player]
 * @property {number|null} [card]
 * @property {boolean} [face_up]
 * @property {number[]} [counts]
 * @property {boolean} [blind]
 * @property {"mistake"|"star"|"player"|"offline"|"teacher"|"seat"|"resumed"} [why]
 * @property {EventDiscard[]} [discards]
 * @property {number} [lives]
 * @property {number} [stars]
 * @property {boolean} [agree]
 * @property {number[]} [pile]
 * @property {number[]} [faults]
 * @property {number} [lives_lost]
 * @property {"life"|"star"|null} [reward]
 * @property {boolean} [granted]
 */

/**
 * @typedef {object} VotePanel
 * @property {number} by
 * @property {Record<string, boolean>} votes
 * @property {"open"|"declined"|"used"} result
 */

/**
 * @typedef {object} Summary
 * @property {number} level
 * @property {LivesLost[]} lives_lost
 */

/**
 * One point of the live timing trace (`view.TraceFeed`).
 * @typedef {object} TracePoint
 * @property {"play"|"mistake"|"lost"|"star"|"stop"} k
 * @property {number} t
 * @property {number} player
 * @property {number|null} [card]
 * @property {number|null} [until]
 * @property {"mistake"|"star"|"offline"|"teacher"|"seat"|"resumed"} [why]
 * @property {string} [by]  a class table: the earlier holder of the point's seat who played or held it
 */

/**
 * @typedef {object} EventDiscard
 * @property {number} player
 * @property {number|null} card
 * @property {boolean} [face_up]
 */

/**
 * @typedef {object} LivesLost
 * @property {number} level
 * @property {number} lives
 */
