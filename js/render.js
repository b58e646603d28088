// @ts-check
// The table as HTML, from the `view` dict Python syncs (mindwidget/view.py).
// Pure: (view, context) -> string. The widget puts the string into the page,
// wires the buttons by their data-action attributes, and adds the motion
// (js/motion.js) on top.
//
// The layout has fixed places and sizes, so nothing moves when a card is
// played, a level starts, or lives and stars change:
//   header  (title, level, lives, stars, level time, language; never wraps)
//   seats   (the other players across the top)
//   middle  (the pile, the cards put aside, what just happened)
//   hand    (the person's cards, large)
//   bar     (what the table waits for, the buttons)
//   banner  (level cleared, won, lost: over the table)
// and the trace beside the table (projector size, or a wide cell) or below it.
//
// Which buttons are enabled comes from `view.allowed` alone (Python decides).
import { decimal, tr } from "./i18n.js";
import {
  back,
  button,
  card,
  discards,
  esc,
  langMenu,
  leaveHint,
  pile,
  seatMark,
  seatStyle,
  tokens,
} from "./parts.js";
import { traceSvg } from "./trace.js";

export { esc };

/** @typedef {import("./wire.gen.js").View} View */
/** @typedef {import("./wire.gen.js").TracePoint} TracePoint */
/**
 * @typedef {object} Ctx
 * @property {string} lang
 * @property {string} [mode]      "realtime" | "step"
 * @property {boolean} [joining]  Ready pressed, the bots join a moment later
 * @property {number} [now]       level time (s)
 * @property {TracePoint[]} [points]
 * @property {{key?: string, params?: object, id?: number, you?: boolean}} [notice]
 * @property {number} [speed]     the watch speed in use (clock.speed)
 * @property {string} [size]      "projector" or "normal" (w.size)
 * @property {number} [width]     the widget's width in px (0: not known yet), see traceLayout
 */

/** From this width (px) the trace stands beside the table in either size, so that a
 * table fits a 720-line screen; below it (a phone, a narrow cell) it goes under the table. */
export const BESIDE_PX = 760;
/** Below this width (px) the trace's column is narrow: its own drawing (trace.js SIZES.narrow),
 * and widget.css gives the table more of the width (its container rule at 1000px). */
export const NARROW_PX = 1000;
/** Below this width (px) the widget is a phone's: the trace under the table, drawn narrow. */
export const PHONE_PX = 560;

/**
 * Where the trace stands and which drawing it gets, from the widget's width and size.
 * @param {number|undefined} width  px; 0 or undefined: not known yet (the size decides)
 * @param {string|undefined} size
 * @returns {{beside: boolean, drawing: "projector" | "notebook" | "narrow"}}
 */
export function traceLayout(width, size) {
  const projector = size === "projector";
  if (!width) return { beside: projector, drawing: projector ? "projector" : "notebook" };
  if (projector || width >= BESIDE_PX)
    return { beside: true, drawing: width < NARROW_PX ? "narrow" : "projector" };
  return { beside: false, drawing: width < PHONE_PX ? "narrow" : "notebook" };
}

/** Display names: "You" for the person, "Bot 2" for the bot in seat index 1 (a pupil reads
 * seats counted from 1; i18n.js adds the 1), or the name in `view.names[p]` (a class table:
 * the other pupils' nicknames). `labels`: the person's seat as a label, "You (player 1)",
 * for the trace legend. */
export function seatNames(/** @type {View} */ view, /** @type {string} */ lang, labels = false) {
  const names = [];
  for (let p = 0; p < (view.players || 0); p++) {
    const named = typeof view.names?.[p] === "string" ? view.names[p] : null;
    const key = p === view.seat ? (labels ? "you_seat" : "you") : "bot";
    names.push(p !== view.seat && named !== null ? named : tr(lang, key, { player: p }));
  }
  return names;
}

const isPerson = (/** @type {View} */ view) => view.seat !== null && view.seat !== undefined;

/**
 * The actions the person's seat (or, with no seat, the teacher) may take now:
 * `view.allowed`, decided by Python (mindwidget/view.py ALLOWED). Nothing else
 * enables a button or a key.
 * @param {View} view
 * @returns {Set<string>}
 */
export function allowedActions(view) {
  return new Set(Array.isArray(view.allowed) ? view.allowed : []);
}

function countText(/** @type {number} */ n, /** @type {string} */ lang) {
  if (n === 0) return tr(lang, "no_cards");
  return tr(lang, "cards_left", { n });
}

/** "16 (Bot 1), 12 (You)" */
function discardList(
  /** @type {{player: number, card: number|null}[]} */ discards,
  /** @type {string[]} */ names,
  /** @type {string} */ lang,
  /** @type {(string|null|undefined)[]} */ earlier = [],
) {
  return discards
    .map((d, i) =>
      tr(lang, "discard_by", {
        card: d.card === null || d.card === undefined ? tr(lang, "face_down") : d.card,
        who: earlier[i] ?? names[d.player], // an earlier holder of the seat (a class table)
      }),
    )
    .join(", ");
}

/**
 * A sentence about a seat: the "_you" form of `key` when that seat is the
 * person's, since "You" takes another verb form ("You agree", "Du stimmst zu").
 */
function about(
  /** @type {string} */ lang,
  /** @type {string} */ key,
  /** @type {number} */ seat,
  /** @type {View} */ view,
  /** @type {string[]} */ names,
  params = {},
) {
  const mine = seat === view.seat && isPerson(view);
  return tr(lang, mine ? `${key}_you` : key, { who: names[seat] ?? "", ...params });
}

/** What the phase line says. */
export function phaseText(/** @type {View} */ view, /** @type {Ctx} */ ctx) {
  const { lang } = ctx;
  const names = seatNames(view, lang);
  const watching = !isPerson(view);
  // the teacher watching a class table with pupils at it (Python says so): not "the bots"
  const theClass = watching && view.watch === "class";
  // a class page that lost its connection: the table stands still for this pupil
  if (view.offline) return tr(lang, "phase_offline");
  // a class table: this seat pressed Ready and the table waits for the others (Python says so)
  if (view.waiting_for_team && (view.phase === "ready" || view.phase === "stopped"))
    return tr(lang, "phase_joining");
  switch (view.phase) {
    case "ready":
      if (ctx.joining) return tr(lang, "phase_joining");
      if (theClass) return tr(lang, "phase_ready_class");
      return tr(lang, watching ? "phase_ready_watch" : "phase_ready");
    case "stopped": {
      // Python says why: after a mistake or a throwing star the table stops by itself
      // (Rules.concentrate_after), a seat called stop (view.stopped_by), or the class
      // server stopped it in a seat's name: a lost connection, the teacher, a seat change
      const why = view.why;
      if (why === "mistake" || why === "star") return tr(lang, `phase_stopped_${why}`);
      const by = view.stopped_by ?? -1;
      if (why === "teacher" || why === "resumed") return tr(lang, `phase_stopped_${why}`);
      // a lost connection whose pupil is back (Python says so): the others hear it
      if (why === "offline" && view.back === true && by !== view.seat)
        return about(lang, "phase_stopped_back", by, view, names, { player: by });
      if (why === "offline" || why === "seat")
        return about(lang, `phase_stopped_${why}`, by, view, names, { player: by });
      return about(lang, "phase_stopped", by, view, names);
    }
    case "vote": {
      const by = names[view.vote?.by ?? 0];
      return allowedActions(view).has("vote")
        ? tr(lang, "phase_vote", { who: by })
        : tr(lang, "phase_vote_wait");
    }
    case "play":
      if (ctx.mode === "step") return tr(lang, watching ? "phase_step_watch" : "phase_step");
      if (theClass) return tr(lang, "phase_play_class");
      if (!watching && Array.isArray(view.hand) && !view.hand.length) return tr(lang, "phase_play_no_cards");
      return tr(lang, watching ? "phase_play_watch" : "phase_play");
    case "cleared":
      return tr(lang, "phase_cleared");
    default:
      return ""; // won, lost: the banner says it
  }
}

/** The keys that apply here, in the chosen language. */
export function keysHint(/** @type {View} */ view, /** @type {Ctx} */ ctx) {
  const step = ctx.mode === "step";
  if (!isPerson(view)) return tr(ctx.lang, step ? "keys_hint_watch_step" : "keys_hint_watch");
  return tr(ctx.lang, step ? "keys_hint_step" : "keys_hint");
}

function header(/** @type {View} */ view, /** @type {Ctx} */ ctx) {
  const { lang } = ctx;
  const level = tr(lang, view.blind ? "blind_level" : "level", { n: view.level, of: view.levels });
  return `<header class="mw-header">
  <h3 class="mw-title">${esc(tr(lang, "title"))}</h3>
  <span class="mw-level" data-testid="level">${esc(level)}</span>
  ${view.blind ? `<span class="mw-badge" data-testid="blind" title="${esc(tr(lang, "blind_badge"))}">${esc(tr(lang, "blind_badge"))}</span>` : ""}
  ${tokens("lives", view.lives, view.max_lives ?? 0, lang, view.mistake?.lives_lost ?? 0)}
  ${tokens("stars", view.stars, view.max_stars ?? 0, lang)}
  <span class="mw-clock"><span class="mw-clock-label">${esc(tr(lang, "clock"))}</span>
    <span data-live="clock" data-testid="clock">${decimal(lang, ctx.now ?? 0)}</span> s</span>
  ${langMenu(lang, "lang")}
</header>`;
}

/** Where a card played by seat p comes from, for the motion layer. */
const fromSeat = (/** @type {View} */ view) => (/** @type {number} */ p) =>
  p === view.seat ? "hand" : `seat-${p}`;

function seats(/** @type {View} */ view, /** @type {Ctx} */ ctx, /** @type {string[]} */ names) {
  const { lang } = ctx;
  const out = [];
  for (let p = 0; p < view.players; p++) {
    if (p === view.seat) continue;
    const n = view.counts[p];
    const hand = view.hands?.[p];
    const cards = hand
      ? hand.map((c, i) => card(c, { cls: i === 0 ? "mw-small mw-lowest" : "mw-small" })).join("")
      : Array.from({ length: n }, () => back({ cls: "mw-small" })).join("");
    const plan = view.plans?.[String(p)];
    const countdown =
      plan === undefined
        ? ""
        : `<span class="mw-plan" data-live="plan" data-at="${plan}" data-testid="plan-${p}">${esc(
            tr(lang, "next_play_in", { s: decimal(lang, Math.max(0, plan - (ctx.now ?? 0))) }),
          )}</span>`;
    out.push(`<div class="mw-seat" style="${seatStyle(p).style}" data-testid="seat-${p}" data-anchor="seat-${p}" role="group" aria-label="${esc(tr(lang, "hand_of", { who: names[p] }))}">
  <div class="mw-seat-name">${seatMark(p)}<span class="mw-name">${esc(names[p])}</span>
    <span class="mw-count" data-testid="count-${p}">${esc(countText(n, lang))}</span></div>
  <div class="mw-cards mw-fan">${cards}${countdown}</div></div>`);
  }
  return `<div class="mw-seats">${out.join("")}</div>`;
}

function myHand(/** @type {View} */ view, /** @type {Ctx} */ ctx, /** @type {Set<string>} */ allowed) {
  const { lang } = ctx;
  if (!isPerson(view)) return "";
  const seat = /** @type {number} */ (view.seat);
  const canPlay = allowed.has("play");
  const cards = view.hand
    .map((c, i) =>
      i === 0
        ? `<button type="button" class="mw-card mw-mid mw-mine mw-lowest" data-action="play" data-testid="lowest-card" data-card="${c}" data-flip="card-${c}"${canPlay ? "" : " disabled"} ><span class="mw-sr">${esc(tr(lang, "btn_play"))} </span><span class="mw-num">${c}</span> <span class="mw-lowest-tag">${esc(tr(lang, "lowest"))}</span></button>`
        : card(c, { cls: "mw-mid mw-mine", attrs: `data-flip="card-${c}"` }),
    )
    .join("");
  return `<div class="mw-hand" style="${seatStyle(seat).style}" data-testid="hand" data-anchor="hand" role="group" aria-label="${esc(tr(lang, "your_hand", { player: seat }))}">
  <div class="mw-seat-name">${seatMark(seat)}<span class="mw-name">${esc(tr(lang, "your_hand", { player: seat }))}</span>
    <span class="mw-count">${view.hand.length ? esc(countText(view.hand.length, lang)) : ""}</span></div>
  <div class="mw-cards">${cards || `<span class="mw-none">${esc(tr(lang, "no_cards"))}</span>`}</div></div>`;
}

function controls(/** @type {View} */ view, /** @type {Ctx} */ ctx, /** @type {Set<string>} */ allowed) {
  const { lang } = ctx;
  const b = [];
  b.push(
    button("ready", tr(lang, "btn_ready"), {
      enabled: allowed.has("ready") && !ctx.joining,
      cls: "mw-primary",
      kbd: "R",
    }),
  );
  if (isPerson(view)) {
    b.push(
      button("play", tr(lang, "btn_play"), { enabled: allowed.has("play"), kbd: tr(lang, "key_space") }),
    );
    b.push(
      button("stop", tr(lang, "btn_stop"), { enabled: allowed.has("stop"), cls: "mw-stop-btn", kbd: "S" }),
    );
    b.push(
      button("propose_star", tr(lang, "btn_star"), {
        enabled: allowed.has("propose_star"),
        testid: "btn-star",
        kbd: "T",
      }),
    );
  }
  if (ctx.mode === "step")
    b.push(button("wait", tr(lang, "btn_wait"), { enabled: allowed.has("wait"), kbd: "W" }));
  return `<div class="mw-controls" role="group">${b.join("")}${settings(view, ctx)}</div>`;
}

/** The bots' tempo (if these bots have one) and the watch speed (a table of bots only), as menus
 * whose `data-role` is the synced trait each sets (js/widget.js; Python checks the value).
 * The entries and their labels are Python's (view.tempos, tempo_labels, speeds, speed_labels). */
function settings(/** @type {View} */ view, /** @type {Ctx} */ ctx) {
  const menu = (
    /** @type {string} */ role,
    /** @type {any[]} */ values,
    /** @type {any} */ value,
    /** @type {string[]|undefined} */ labels,
  ) => {
    const opts = values.map(
      (v, i) =>
        `<option value="${v}"${v === value ? " selected" : ""}>${esc(labels?.[i] ?? String(v))}</option>`,
    );
    if (!values.includes(value)) opts.unshift(`<option selected disabled>${esc(value)}</option>`);
    return `<label class="mw-setting"><span>${esc(tr(ctx.lang, `${role}_label`))}</span><select data-role="${role}" data-testid="${role}">${opts.join("")}</select></label>`;
  };
  const out = [];
  if (view.tempo !== null && view.tempo !== undefined && view.tempos?.length)
    out.push(menu("tempo", view.tempos, view.tempo, view.tempo_labels));
  if (view.speeds?.length) out.push(menu("speed", view.speeds, ctx.speed ?? 1, view.speed_labels));
  return out.length ? `<div class="mw-settings">${out.join("")}</div>` : "";
}

function votePanel(
  /** @type {View} */ view,
  /** @type {Ctx} */ ctx,
  /** @type {string[]} */ names,
  /** @type {Set<string>} */ allowed,
) {
  const { lang } = ctx;
  const v = view.vote;
  if (!v) return "";
  const rows = [];
  for (let p = 0; p < view.players; p++) {
    const vote = v.votes[String(p)];
    if (vote === undefined && v.result !== "open") continue; // decided: nobody waits for it
    const key = vote === true ? "say_star_voted_yes" : vote === false ? "say_star_voted_no" : "vote_open";
    const mark = vote === true ? "✓" : vote === false ? "✕" : "…";
    rows.push(
      `<li data-testid="vote-${p}" data-vote="${vote === undefined ? "" : vote}" style="${seatStyle(p).style}"><span aria-hidden="true" class="mw-mark">${mark}</span> ${esc(about(lang, key, p, view, names))}</li>`,
    );
  }
  const result =
    v.result === "used" ? tr(lang, "vote_used") : v.result === "declined" ? tr(lang, "vote_declined") : "";
  const buttons = allowed.has("vote")
    ? `<div class="mw-vote-buttons">${button("vote", tr(lang, "btn_agree"), { attrs: 'data-agree="true"', testid: "btn-agree", cls: "mw-primary", kbd: tr(lang, "key_yes") })}${button("vote", tr(lang, "btn_decline"), { attrs: 'data-agree="false"', testid: "btn-decline", kbd: "N" })}</div>`
    : "";
  return `<section class="mw-panel mw-vote" data-testid="vote" data-result="${esc(v.result)}">
  <h4><span aria-hidden="true">★ </span>${esc(about(lang, "vote_title", v.by, view, names))}</h4><ul>${rows.join("")}</ul>
  ${result ? `<p data-testid="vote-result">${esc(result)}</p>` : ""}${buttons}</section>`;
}

/** What a mistake cost, as the event says (`lives_lost`, `lives` left): "One life lost; 2 lives
 * left.", "2 lives lost. 1 life left." or "That was the last life." */
function livesText(
  /** @type {import("./wire.gen.js").PublicEvent} */ m,
  /** @type {number} */ now,
  /** @type {string} */ lang,
) {
  const lives = m.lives ?? now;
  if (lives <= 0) return tr(lang, "mistake_last_life");
  const lost = m.lives_lost ?? 0;
  if (lost === 1) return tr(lang, "mistake_life", { n: lives });
  return `${tr(lang, "check_lost", { n: lost })} ${tr(lang, "lives_left", { n: lives })}`;
}

function mistakePanel(/** @type {View} */ view, /** @type {Ctx} */ ctx, /** @type {string[]} */ names) {
  const { lang } = ctx;
  const m = view.mistake;
  if (!m) return ""; // stays with the lost banner: it says why
  return `<section class="mw-panel mw-mistake" data-testid="mistake" role="group">
  <h4><span class="mw-broken" aria-hidden="true">♥</span>${esc(tr(lang, "mistake_title"))}</h4>
  <p>${esc(about(lang, "mistake_text", m.player ?? -1, view, names, { card: m.card }))}</p>
  <p>${esc(tr(lang, "mistake_discards", { list: discardList(m.discards || [], names, lang, view.mistake_names) }))}</p>
  <p data-testid="mistake-lives">${esc(livesText(m, view.lives, lang))}</p></section>`;
}

function checkPanel(/** @type {View} */ view, /** @type {Ctx} */ ctx) {
  const { lang } = ctx;
  const c = view.check;
  if (!c) return "";
  const faults = new Set(c.faults);
  const cards = c.pile
    .map((v, i) => {
      const bad = faults.has(v);
      return `<span class="mw-check-card${bad ? " mw-fault" : ""}" style="animation-delay:${(i * 0.35).toFixed(2)}s" data-testid="check-card">${card(v, { cls: "mw-small" })}<span class="mw-mark" aria-label="${bad ? esc(tr(lang, "check_fault_mark")) : "✓"}">${bad ? "✕" : "✓"}</span></span>`;
    })
    .join("");
  const summary = c.faults.length
    ? `${tr(lang, "check_faults", { n: c.faults.length })} ${tr(lang, "check_lost", { n: c.lives_lost })}`
    : tr(lang, "check_ok");
  return `<section class="mw-panel mw-check" data-testid="check">
  <h4>${esc(tr(lang, "check_title"))}</h4><div class="mw-check-row">${cards}</div>
  <p class="mw-check-summary" style="animation-delay:${(c.pile.length * 0.35).toFixed(2)}s">${esc(summary)}</p></section>`;
}

/** Why something was refused, in words: the `refused_<key>` text (its "You ..." form when
 * Python says the notice is about the person, `notice.you`). */
export function noticeText(
  /** @type {{key?: string, params?: object, you?: boolean}|undefined} */ n,
  /** @type {string} */ lang,
) {
  if (!n || !n.key) return "";
  return tr(lang, `refused_${n.key}${n.you ? "_you" : ""}`, n.params || {});
}

function noticePanel(/** @type {Ctx} */ ctx) {
  const n = ctx.notice;
  if (!n || !n.key) return "";
  // Shown here; spoken once by the widget's own alert region (js/widget.js).
  return `<div class="mw-notice" data-testid="notice" data-key="${esc(n.key)}">${esc(noticeText(n, ctx.lang))}</div>`;
}

/** Level cleared, won, lost: a banner over the table, with what comes next. */
function banner(/** @type {View} */ view, /** @type {Ctx} */ ctx, /** @type {Set<string>} */ allowed) {
  const { lang } = ctx;
  const p = view.phase;
  if (p !== "cleared" && p !== "won" && p !== "lost") return "";
  const lines = [];
  let title = "";
  let testid = "cleared";
  if (p === "lost") {
    testid = "lost";
    title = tr(lang, "lost_title");
    const s = view.summary;
    lines.push(tr(lang, "lost_reached", { n: s?.level ?? view.level, of: view.levels }));
    const where = (s?.lives_lost || []).map((x) =>
      tr(lang, "lost_where_item", { lives: x.lives, level: x.level }),
    );
    if (where.length) lines.push(tr(lang, "lost_where", { list: where.join(", ") }));
  } else {
    const c = view.cleared;
    title =
      p === "won"
        ? tr(lang, view.blind ? "won_blind_title" : "won_title", { n: view.levels })
        : tr(lang, "cleared_title", { n: c?.level ?? view.level });
    if (c?.reward && c.granted) lines.push(tr(lang, c.reward === "life" ? "reward_life" : "reward_star"));
    else if (c?.reward)
      lines.push(
        tr(lang, "reward_full", { reward: tr(lang, c.reward === "life" ? "life_card" : "star_card") }),
      );
    else if (p === "cleared") lines.push(tr(lang, "cleared_no_reward"));
    if (p === "won" && view.blind_hint) lines.push(tr(lang, "won_hint"));
  }
  const b = [];
  if (allowed.has("next_level"))
    b.push(button("next_level", tr(lang, "btn_next_level"), { cls: "mw-primary" }));
  if (allowed.has("start_blind"))
    b.push(
      button("start_blind", tr(lang, "btn_play_blind"), { cls: "mw-primary", testid: "btn-play-blind" }),
    );
  if (allowed.has("new_game")) b.push(button("new_game", tr(lang, "btn_new_game")));
  const icon = p === "lost" ? "♥" : p === "won" ? "★" : "✓";
  const reward = lines.length && p !== "lost" ? ` data-testid="reward"` : "";
  return `<section class="mw-banner mw-banner-${p}" data-testid="${testid}" role="group" aria-label="${esc(title)}">
  <div class="mw-banner-icon" aria-hidden="true">${icon}</div>
  <h4 class="mw-banner-title" data-testid="banner-title">${esc(title)}</h4>
  ${lines.map((l, i) => `<p${i === 0 ? reward : ""}>${esc(l)}</p>`).join("")}
  <div class="mw-controls">${b.join("")}</div></section>`;
}

/** The whole table. */
export function renderTable(/** @type {View|undefined} */ view, /** @type {Ctx} */ ctx) {
  if (!view || typeof view !== "object" || !Array.isArray(view.counts)) {
    return `<div class="mw-loading">${esc(tr(ctx.lang, "title"))}</div>`;
  }
  const names = seatNames(view, ctx.lang);
  const allowed = allowedActions(view);
  const from = fromSeat(view);
  const layout = traceLayout(ctx.width, ctx.size);
  return `${header(view, ctx)}
<div class="mw-layout${layout.beside ? " mw-beside" : ""}">
<div class="mw-table">
  ${seats(view, ctx, names)}
  <div class="mw-middle${allowed.has("vote") ? " mw-voting" : ""}">
    ${pile(view, names, ctx.lang, { early: view.early === true, from })}
    ${discards(view.discards, names, ctx.lang, { marked: new Set(view.mistake_discards ?? []), from, earlier: view.discard_names })}
    <div class="mw-news">${mistakePanel(view, ctx, names)}${votePanel(view, ctx, names, allowed)}${checkPanel(view, ctx)}${noticePanel(ctx)}</div>
  </div>
  ${myHand(view, ctx, allowed)}
  <div class="mw-bar">
    <p class="mw-phase" data-testid="phase" data-phase="${esc(view.phase)}">${esc(phaseText(view, ctx))}</p>
    ${controls(view, ctx, allowed)}
  </div>
  ${banner(view, ctx, allowed)}
</div>
<section class="mw-trace"><h4>${esc(tr(ctx.lang, "trace_title"))}</h4>
${traceSvg(ctx.points || [], { players: view.players, deck: view.deck, names: seatNames(view, ctx.lang, true), lang: ctx.lang, now: ctx.now, size: layout.drawing })}</section>
</div>
<p class="mw-keys"><span class="mw-focus-cue" data-testid="focus-cue">${esc(tr(ctx.lang, "focus_cue"))}</span> <span data-testid="keys-hint">${esc(keysHint(view, ctx))}</span> ${leaveHint(ctx.lang)}</p>`;
}

/** What the live region says about the events in `view.news`. */
export function announce(/** @type {View|undefined} */ view, /** @type {string} */ lang) {
  if (!view || !Array.isArray(view.news)) return "";
  const names = seatNames(view, lang);
  const out = [];
  for (const e of view.news) {
    const p = e.player ?? -1;
    switch (e.type) {
      case "played":
        out.push(
          e.card === null
            ? about(lang, "say_played_down", p, view, names)
            : about(lang, "say_played", p, view, names, { card: e.card }),
        );
        break;
      case "mistake":
        out.push(
          about(lang, "say_mistake", e.player ?? -1, view, names, {
            card: e.card,
            list: discardList(e.discards || [], names, lang),
          }),
          livesText(e, 0, lang),
        );
        break;
      case "star_proposed":
        out.push(about(lang, "say_star_proposed", p, view, names));
        break;
      case "star_voted":
        out.push(about(lang, e.agree ? "say_star_voted_yes" : "say_star_voted_no", p, view, names));
        break;
      case "star_used":
        out.push(tr(lang, "say_star_used", { list: discardList(e.discards || [], names, lang) }));
        break;
      case "star_declined":
        out.push(tr(lang, "say_star_declined"));
        break;
      case "stopped":
        // why (events.STOP_REASONS): "player" called it, or the class server stopped it
        if (e.why === "teacher" || e.why === "resumed") out.push(tr(lang, `say_stopped_${e.why}`));
        else if (e.why === "offline" || e.why === "seat")
          out.push(about(lang, `say_stopped_${e.why}`, p, view, names, { player: p }));
        else out.push(about(lang, "say_stopped", p, view, names));
        break;
      case "ready":
        out.push(tr(lang, "say_ready"));
        break;
      case "hands_on_table":
        out.push(tr(lang, "say_hands_on_table"));
        break;
      case "dealt":
        out.push(tr(lang, "say_dealt", { n: e.level }));
        break;
      case "cleared":
        out.push(tr(lang, "say_cleared", { n: e.level }));
        break;
      case "blind_checked":
        out.push(tr(lang, "say_blind_checked", { n: (e.faults || []).length }));
        break;
      case "won":
        out.push(tr(lang, "say_won"));
        break;
      case "lost":
        out.push(tr(lang, "say_lost"));
        break;
      case "blind_started":
        out.push(tr(lang, "say_blind_started"));
        break;
      default:
        break;
    }
  }
  return out.join(" ");
}
