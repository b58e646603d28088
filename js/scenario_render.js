// @ts-check
// The scenario board as HTML, from the `scene` dict Python syncs
// (mindwidget/scenario_widget.py). Pure: (scene, context) -> string.
// Reuses the widget's strings (i18n.js), escaping (render.js) and timing
// trace (trace.js); the card and table styles come from widget.css.
import { tr } from "./i18n.js";
import {
  button as gameButton,
  card,
  discards,
  esc,
  langMenu,
  leaveHint,
  pile as pileHtml,
  seatMark,
  seatStyle,
  tokens,
} from "./parts.js";
import { traceSvg } from "./trace.js";

/** Keys that work while the board has focus, and the message each sends. */
export const KEYS = Object.freeze({ ArrowLeft: "back", ArrowRight: "next", Home: "reset" });

/** The board's names of the seats: "Player 1", "Player 2", ... as the narrations say (seat index 0 is
 * "Player 1": i18n.js counts seats from 1 for a pupil). */
export function playerNames(players, lang) {
  return Array.from({ length: players || 0 }, (_, p) => tr(lang, "scenario_player", { player: p }));
}

/** "Step 2 of 7", or "Start (7 steps)" before the first step. */
export function counterText(scene, lang) {
  return scene.position === 0
    ? tr(lang, "scenario_start", { n: scene.steps })
    : tr(lang, "scenario_step", { k: scene.position, n: scene.steps });
}

/** Which buttons are enabled: the player offers only what is possible. */
export function enabledActions(scene) {
  if (scene.live) return { leave: true };
  return {
    back: scene.position > 0,
    next: scene.position < scene.steps,
    reset: scene.position > 0,
    take_over: true,
  };
}

/** The message a key sends, or null (Left: back, Right: next, Home: reset; only if enabled). */
export function keyAction(key, scene) {
  const action = KEYS[key];
  if (!action || !scene) return null;
  return enabledActions(scene)[action] ? action : null;
}

/**
 * What the table is doing, in one line. `phase`: the scene's own word for it
 * (Python's, mindwidget/scenario_widget.py), when the step says more than the
 * table's phase: "concentrated" when the step was the team's concentration.
 */
export function phaseLine(table, lang, phase = table.phase) {
  switch (phase) {
    case "ready":
    case "stopped":
    case "concentrated":
    case "vote":
    case "play":
      return tr(lang, `scenario_phase_${phase}`);
    case "cleared":
      return tr(lang, "cleared_title", { n: table.level });
    case "won":
      return tr(lang, table.blind ? "won_blind_title" : "won_title", { n: table.levels });
    case "lost":
      return tr(lang, "lost_title");
    default:
      return "";
  }
}

function liveText(scene, lang) {
  const where =
    scene.live.from === 0
      ? tr(lang, "scenario_where_start")
      : tr(lang, "scenario_where_step", { k: scene.live.from, n: scene.steps });
  const seat = scene.live.seat;
  if (seat === null || seat === undefined) return tr(lang, "scenario_live_watch", { where });
  return tr(lang, "scenario_live", { where, who: tr(lang, "scenario_player", { player: seat }) });
}

/** What the live region reads when the board shows something new. */
export function announceScene(scene, lang) {
  if (!scene || typeof scene !== "object" || scene.steps === undefined) return "";
  if (scene.live) return liveText(scene, lang);
  const parts = [`${counterText(scene, lang)}.`, scene.text];
  if (scene.rule) parts.push(`${tr(lang, "scenario_rule")}: ${scene.rule}`);
  if (scene.tip) parts.push(`${tr(lang, "scenario_tip")}: ${scene.tip}`);
  if (scene.refusal) parts.push(`${tr(lang, "scenario_refused")} ${scene.refusal}`);
  return parts.filter(Boolean).join(" ");
}

/** A key that changes when the live region has something new to say (not on a language change). */
export function sceneKey(scene) {
  if (!scene || scene.steps === undefined) return "";
  return scene.live ? `live:${scene.live.from}` : `step:${scene.position}`;
}

function button(action, key, lang, enabled, cls = "") {
  return gameButton(action, tr(lang, key), { enabled, cls });
}

function header(scene, lang) {
  const t = scene.table;
  const level = t
    ? `<span class="mw-level" data-testid="level">${esc(tr(lang, t.blind ? "blind_level" : "level", { n: t.level, of: t.levels }))}</span>
  ${tokens("lives", t.lives, t.max_lives ?? 0, lang)}
  ${tokens("stars", t.stars, t.max_stars ?? 0, lang)}`
    : "";
  return `<header class="mw-header">
  <h3 class="mw-title" data-testid="scenario-title">${esc(scene.title)}</h3>
  <span class="mw-counter" data-testid="step-counter" data-position="${scene.position}">${esc(counterText(scene, lang))}</span>
  ${scene.live ? "" : level}
  ${scene.live ? "" : langMenu(lang, "scenario-lang")}
</header>`;
}

function story(scene, lang) {
  const rule = scene.rule
    ? `<p class="mw-rule" data-testid="rule"><strong>${esc(tr(lang, "scenario_rule"))}:</strong> ${esc(scene.rule)}</p>`
    : "";
  // A tip is not a rule: its own label and class. A rule quotes its source text.
  const tip = scene.tip
    ? `<p class="mw-tip" data-testid="tip"><strong>${esc(tr(lang, "scenario_tip"))}:</strong> ${esc(scene.tip)}</p>`
    : "";
  const src = scene.source
    ? `<p class="mw-source" data-testid="source">${esc(tr(lang, "scenario_source"))}: <q lang="${esc(scene.source.doc.slice(0, 2))}">${esc(scene.source.quote)}</q> — ${esc(scene.source.title)}</p>`
    : "";
  // The game's reason, in the board's language (Python translates it).
  const refusal = scene.refusal
    ? `<p class="mw-refusal" data-testid="refusal">${esc(tr(lang, "scenario_refused"))} ${esc(scene.refusal)}</p>`
    : "";
  return `<section class="mw-story" data-testid="narration" data-position="${scene.position}" aria-label="${esc(tr(lang, "scenario_narration"))}">
  <p class="mw-says" data-testid="narration-text">${esc(scene.text)}</p>${rule}${tip}${src}${refusal}</section>`;
}

function controls(scene, lang) {
  const on = enabledActions(scene);
  const seat = scene.seat;
  const hint =
    seat === null || seat === undefined
      ? tr(lang, "scenario_take_over_hint_watch")
      : tr(lang, "scenario_take_over_hint", { who: tr(lang, "scenario_player", { player: seat }) });
  return `<div class="mw-controls" role="group" aria-label="${esc(tr(lang, "scenario_steps"))}">
  ${button("back", "scenario_btn_back", lang, on.back)}
  ${button("next", "scenario_btn_next", lang, on.next, "mw-primary")}
  ${button("reset", "scenario_btn_reset", lang, on.reset)}
  ${button("take_over", "scenario_btn_take_over", lang, on.take_over)}
</div>
<p class="mw-hint" data-testid="take-over-hint">${esc(hint)}</p>`;
}

function hands(table, names, lang) {
  const all = table.hands || [];
  // the lowest card in any hand, as Python says (table.lowest; null: none held)
  const lowest = table.lowest ?? null;
  const seats = all.map((hand, p) => {
    const cards = hand.length
      ? hand
          .map((c) =>
            lowest !== null && c === lowest
              ? card(c, {
                  cls: "mw-small mw-lowest",
                  attrs: `data-testid="lowest-in-play" title="${esc(tr(lang, "lowest"))}"`,
                })
              : card(c, { cls: "mw-small" }),
          )
          .join("")
      : `<span class="mw-none">${esc(tr(lang, "no_cards"))}</span>`;
    const count = hand.length === 0 ? "" : tr(lang, "cards_left", { n: hand.length });
    return `<div class="mw-seat" style="${seatStyle(p).style}" data-testid="hand-${p}" data-cards="${hand.join(" ")}" aria-label="${esc(tr(lang, "hand_of", { who: names[p] }))}">
  <div class="mw-seat-name">${seatMark(p)}${esc(names[p])}
    <span class="mw-count">${esc(count)}</span></div>
  <div class="mw-cards">${cards}</div></div>`;
  });
  return `<section class="mw-seats" aria-label="${esc(tr(lang, "scenario_hands"))}">${seats.join("")}</section>`;
}

function notice(ctx) {
  if (!ctx.notice || !ctx.notice.key) return "";
  return `<div class="mw-notice" role="alert" data-testid="scenario-notice" data-key="${esc(ctx.notice.key)}">${esc(
    tr(ctx.lang, `refused_${ctx.notice.key}`, ctx.notice.params || {}),
  )}</div>`;
}

/** The whole board. ctx: {lang, notice, size}; size "projector": the timeline for its column. */
export function renderBoard(scene, ctx) {
  const { lang } = ctx;
  if (!scene || typeof scene !== "object" || scene.steps === undefined) {
    return `<div class="mw-loading">${esc(tr(lang, "scenario_label"))}</div>`;
  }
  if (scene.live) {
    return `${header(scene, lang)}
<p class="mw-live-info" data-testid="live-info">${esc(liveText(scene, lang))}</p>
<div class="mw-controls">${button("leave", "scenario_btn_leave", lang, true)}</div>${notice(ctx)}`;
  }
  const table = scene.table;
  const names = playerNames(table.players, lang);
  // Two groups: the table with its buttons, and the story with the timeline.
  // In projector size they stand side by side (scenario.css), so that a story
  // fits one screen as the live table does; otherwise the story comes first.
  return `${header(scene, lang)}
<div class="mw-scenario-layout">
<div class="mw-scenario-play">
${controls(scene, lang)}
${notice(ctx)}
<div class="mw-board">
  ${hands(table, names, lang)}
  <div class="mw-middle mw-scenario-middle">${pileHtml(table, names, lang)}${discards(table.discards, names, lang)}</div>
  <p class="mw-phase" data-testid="phase" data-phase="${esc(scene.phase ?? table.phase)}">${esc(phaseLine(table, lang, scene.phase))}</p>
</div>
</div>
<div class="mw-scenario-side">
${story(scene, lang)}
<section class="mw-trace"><h4>${esc(tr(lang, "trace_title"))}</h4>
${traceSvg(scene.trace || [], { players: table.players, deck: table.deck, names, lang, now: table.t, size: ctx.size })}</section>
</div>
</div>
<p class="mw-keys">${esc(tr(lang, "scenario_keys"))} ${leaveHint(lang)}</p>`;
}
