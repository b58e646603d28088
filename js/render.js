// The table as HTML, from the `view` dict Python syncs (mindwidget/view.py).
// Pure: (view, context) -> string. The widget puts the string into the page
// and wires the buttons by their data-action attributes.
import { LANGS, tr } from "./i18n.js";
import { traceSvg } from "./trace.js";

export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Display names of the seats: "You" for the person, "Bot p" for the bot in seat p
 * (seats count from 0, as in `game.play(p)`, `plot_trace` and the scenarios). */
export function seatNames(view, lang) {
  const names = [];
  for (let p = 0; p < (view.players || 0); p++) {
    names.push(p === view.seat ? tr(lang, "you") : tr(lang, "bot", { n: p }));
  }
  return names;
}

const card = (value, cls = "", extra = "") =>
  `<span class="mw-card ${cls}" ${extra}>${value === null || value === undefined ? "" : esc(value)}</span>`;
const back = (cls = "", label = "") =>
  `<span class="mw-card mw-back ${cls}" aria-label="${esc(label)}" role="img"></span>`;

function button(action, key, lang, { enabled = true, testid, extra = "", cls = "" } = {}) {
  return `<button type="button" class="mw-btn ${cls}" data-action="${action}" data-testid="${testid || `btn-${action.replace(/_/g, "-")}`}"${enabled ? "" : " disabled"} ${extra}>${esc(tr(lang, key))}</button>`;
}

function countText(n, lang) {
  if (n === 0) return tr(lang, "no_cards");
  return tr(lang, "cards_left", { n });
}

function discardList(discards, names, lang) {
  return discards
    .map((d) =>
      tr(lang, "discard_by", {
        card: d.card === null || d.card === undefined ? tr(lang, "face_down") : d.card,
        who: names[d.p ?? d.player],
      }),
    )
    .join(", ");
}

/** What the phase line says. */
export function phaseText(view, ctx) {
  const { lang } = ctx;
  const names = seatNames(view, lang);
  const watching = view.seat === null || view.seat === undefined;
  switch (view.phase) {
    case "ready":
      if (ctx.joining) return tr(lang, "phase_joining");
      return tr(lang, watching ? "phase_ready_watch" : "phase_ready");
    case "stopped": {
      const stop = [...(ctx.points || [])].reverse().find((p) => p.k === "stop");
      // after a mistake or a throwing star the table stops by itself (Rules.concentrate_after)
      if (stop && (stop.why === "mistake" || stop.why === "star")) return tr(lang, `phase_stopped_${stop.why}`);
      return about(lang, "phase_stopped", stop ? stop.p : -1, view, names);
    }
    case "vote": {
      const by = names[view.vote?.by ?? 0];
      const mine = !watching && view.vote && !(String(view.seat) in view.vote.votes);
      return mine ? tr(lang, "phase_vote", { who: by }) : tr(lang, "phase_vote_wait");
    }
    case "play":
      if (ctx.mode === "step") return tr(lang, "phase_step");
      return tr(lang, watching ? "phase_play_watch" : "phase_play");
    case "cleared":
      return tr(lang, "cleared_title", { n: view.level });
    case "won":
      return tr(lang, view.blind ? "won_blind_title" : "won_title", { n: view.levels });
    case "lost":
      return tr(lang, "lost_title");
    default:
      return "";
  }
}

function header(view, ctx) {
  const { lang } = ctx;
  const level = tr(lang, view.blind ? "blind_level" : "level", { n: view.level, of: view.levels });
  const lives = Array.from({ length: view.lives }, () =>
    `<span class="mw-token mw-life" aria-hidden="true">♥</span>`,
  ).join("");
  const stars = Array.from({ length: view.stars }, () =>
    `<span class="mw-token mw-star" aria-hidden="true">★</span>`,
  ).join("");
  const langs = LANGS
    .map((l) => `<option value="${l}"${l === lang ? " selected" : ""}>${esc(tr(l, "language"))}</option>`)
    .join("");
  return `<header class="mw-header">
  <h3 class="mw-title">${esc(tr(lang, "title"))}</h3>
  <span class="mw-level" data-testid="level">${esc(level)}</span>
  ${view.blind ? `<span class="mw-badge" data-testid="blind">${esc(tr(lang, "blind_badge"))}</span>` : ""}
  <span class="mw-tokens" data-testid="lives" data-count="${view.lives}" title="${esc(tr(lang, "lives"))}">
    <span class="mw-token-label">${esc(tr(lang, "lives"))}: ${view.lives}</span>${lives}</span>
  <span class="mw-tokens" data-testid="stars" data-count="${view.stars}" title="${esc(tr(lang, "stars"))}">
    <span class="mw-token-label">${esc(tr(lang, "stars"))}: ${view.stars}</span>${stars}</span>
  <span class="mw-clock"><span class="mw-token-label">${esc(tr(lang, "clock"))}</span>
    <span data-live="clock" data-testid="clock">${(ctx.now ?? 0).toFixed(1)}</span> s</span>
  <label class="mw-lang">${esc(tr(lang, "language_label"))}
    <select data-role="lang" data-testid="lang">${langs}</select></label>
</header>`;
}

function seats(view, ctx, names) {
  const { lang } = ctx;
  const out = [];
  for (let p = 0; p < view.players; p++) {
    if (p === view.seat) continue;
    const n = view.counts[p];
    const hand = view.hands?.[p];
    const cards = hand
      ? hand.map((c, i) => card(c, i === 0 ? "mw-small mw-lowest" : "mw-small")).join("")
      : Array.from({ length: n }, () => back("mw-small", tr(lang, "face_down"))).join("");
    const plan = view.plans?.[String(p)];
    const countdown =
      plan === undefined
        ? ""
        : `<span class="mw-plan" data-live="plan" data-at="${plan}" data-testid="plan-${p}">${esc(
            tr(lang, "next_play_in", { s: Math.max(0, plan - (ctx.now ?? 0)).toFixed(1) }),
          )}</span>`;
    out.push(`<div class="mw-seat mw-p${p}" data-testid="seat-${p}" aria-label="${esc(tr(lang, "hand_of", { who: names[p] }))}">
  <div class="mw-seat-name"><span class="mw-dot mw-dot-${p}" aria-hidden="true"></span>${esc(names[p])}
    <span class="mw-count" data-testid="count-${p}">${esc(countText(n, lang))}</span>${countdown}</div>
  <div class="mw-cards">${cards}</div></div>`);
  }
  return `<div class="mw-seats">${out.join("")}</div>`;
}

function pile(view, ctx, names) {
  const { lang } = ctx;
  const n = view.pile.length;
  if (n === 0) {
    return `<div class="mw-pile" data-testid="pile"><div class="mw-pile-label">${esc(tr(lang, "pile"))}</div>
  <div class="mw-pile-empty" data-testid="pile-top" data-card="">${esc(tr(lang, "pile_empty"))}</div></div>`;
  }
  const topCard = view.pile[n - 1];
  const topBy = view.pile_by[n - 1];
  const behind = view.pile
    .slice(Math.max(0, n - 13), n - 1)
    .map((c, i, arr) => {
      const who = view.pile_by[n - 1 - arr.length + i];
      return c === null
        ? back("mw-small", tr(lang, "face_down"))
        : card(c, `mw-small mw-by-${who}`, `title="${esc(names[who])}"`);
    })
    .join("");
  const top =
    topCard === null
      ? `<span class="mw-card mw-back mw-big" data-testid="pile-top" data-card="" role="img" aria-label="${esc(tr(lang, "face_down"))}"></span>`
      : `<span class="mw-card mw-big mw-by-${topBy}" data-testid="pile-top" data-card="${topCard}">${topCard}</span>`;
  return `<div class="mw-pile" data-testid="pile"><div class="mw-pile-label">${esc(tr(lang, "pile"))} (${n})</div>
  <div class="mw-pile-row">${behind ? `<div class="mw-behind" aria-label="${esc(tr(lang, "played_behind"))}">${behind}</div>` : ""}
  <div class="mw-top">${top}<div class="mw-top-by">${esc(names[topBy])}</div></div></div></div>`;
}

function myHand(view, ctx) {
  const { lang } = ctx;
  if (view.seat === null || view.seat === undefined) return "";
  const canPlay = view.phase === "play";
  const cards = view.hand
    .map((c, i) =>
      i === 0
        ? `<button type="button" class="mw-card mw-mine mw-lowest" data-action="play" data-testid="lowest-card" data-card="${c}"${canPlay ? "" : " disabled"} aria-label="${esc(`${tr(lang, "btn_play")} ${c} (${tr(lang, "lowest")})`)}">${c}<span class="mw-lowest-tag">${esc(tr(lang, "lowest"))}</span></button>`
        : card(c, "mw-mine"),
    )
    .join("");
  return `<div class="mw-hand mw-p${view.seat}" data-testid="hand" aria-label="${esc(tr(lang, "your_hand"))}">
  <div class="mw-seat-name"><span class="mw-dot mw-dot-${view.seat}" aria-hidden="true"></span>${esc(tr(lang, "your_hand"))}
    <span class="mw-count">${esc(countText(view.hand.length, lang))}</span></div>
  <div class="mw-cards">${cards || `<span class="mw-none">${esc(tr(lang, "no_cards"))}</span>`}</div></div>`;
}

function controls(view, ctx) {
  const { lang } = ctx;
  const person = view.seat !== null && view.seat !== undefined;
  const p = view.phase;
  const b = [];
  if (p === "ready" || p === "stopped") {
    b.push(button("ready", "btn_ready", lang, { enabled: !ctx.joining, cls: "mw-primary" }));
  }
  if (person && (p === "play" || p === "ready" || p === "stopped" || p === "vote")) {
    b.push(button("play", "btn_play", lang, { enabled: p === "play" && view.hand.length > 0 }));
    b.push(button("stop", "btn_stop", lang, { enabled: p === "play" }));
    b.push(button("propose_star", "btn_star", lang, { enabled: p === "play" && view.stars > 0, testid: "btn-star" }));
  }
  if (p === "vote" && person && view.vote && !(String(view.seat) in view.vote.votes)) {
    b.push(button("vote", "btn_agree", lang, { extra: 'data-agree="true"', testid: "btn-agree", cls: "mw-primary" }));
    b.push(button("vote", "btn_decline", lang, { extra: 'data-agree="false"', testid: "btn-decline" }));
  }
  if (ctx.mode === "step" && (p === "play" || p === "stopped")) {
    const botsHoldCards = (view.counts || []).some((n, q) => q !== view.seat && n > 0);
    b.push(button("wait", "btn_wait", lang, { enabled: p === "play" && botsHoldCards }));
  }
  if (p === "cleared") b.push(button("next_level", "btn_next_level", lang, { cls: "mw-primary" }));
  if (p === "won" && !view.blind) b.push(button("start_blind", "btn_play_blind", lang, { cls: "mw-primary", testid: "btn-play-blind" }));
  if (p === "won" || p === "lost") b.push(button("new_game", "btn_new_game", lang));
  return `<div class="mw-controls" role="group">${b.join("")}</div>`;
}

function panels(view, ctx, names) {
  const { lang } = ctx;
  const out = [];
  if (view.vote) {
    const v = view.vote;
    const rows = [];
    for (let p = 0; p < view.players; p++) {
      const vote = v.votes[String(p)];
      const key = vote === true ? "vote_yes" : vote === false ? "vote_no" : "vote_open";
      const mark = vote === true ? "✓" : vote === false ? "✕" : "…";
      rows.push(`<li data-testid="vote-${p}" data-vote="${vote === undefined ? "" : vote}"><span aria-hidden="true" class="mw-mark">${mark}</span> ${esc(tr(lang, key, { who: names[p] }))}</li>`);
    }
    const result = v.result === "used" ? tr(lang, "vote_used") : v.result === "declined" ? tr(lang, "vote_declined") : "";
    out.push(`<section class="mw-panel mw-vote" data-testid="vote" data-result="${v.result}">
  <h4>${esc(tr(lang, "vote_title", { who: names[v.by] }))}</h4><ul>${rows.join("")}</ul>
  ${result ? `<p data-testid="vote-result">${esc(result)}</p>` : ""}</section>`);
  }
  if (view.mistake) {
    const m = view.mistake;
    out.push(`<section class="mw-panel mw-mistake" data-testid="mistake">
  <h4><span aria-hidden="true">⚠ </span>${esc(tr(lang, "mistake_title"))}</h4>
  <p>${esc(about(lang, "mistake_text", m.player, view, names, { card: m.card }))}</p>
  <p>${esc(tr(lang, "mistake_discards", { list: discardList(m.discards, names, lang) }))}</p>
  <p>${esc(tr(lang, "mistake_life", { n: m.lives }))}</p></section>`);
  }
  if (view.check) {
    const c = view.check;
    const faults = new Set(c.faults);
    const cards = c.pile
      .map((v, i) => {
        const bad = faults.has(v);
        return `<span class="mw-check-card${bad ? " mw-fault" : ""}" style="animation-delay:${(i * 0.35).toFixed(2)}s" data-testid="check-card">${card(v, "mw-small")}<span class="mw-mark" aria-label="${bad ? esc(tr(lang, "check_fault_mark")) : "✓"}">${bad ? "✕" : "✓"}</span></span>`;
      })
      .join("");
    const summary = c.faults.length
      ? `${tr(lang, "check_faults", { n: c.faults.length })} ${tr(lang, "check_lost", { n: c.lives_lost })}`
      : tr(lang, "check_ok");
    out.push(`<section class="mw-panel mw-check" data-testid="check">
  <h4>${esc(tr(lang, "check_title"))}</h4><div class="mw-check-row">${cards}</div>
  <p class="mw-check-summary" style="animation-delay:${(c.pile.length * 0.35).toFixed(2)}s">${esc(summary)}</p></section>`);
  }
  if (view.cleared && (view.phase === "cleared" || view.phase === "won")) {
    const c = view.cleared;
    let reward = tr(lang, "reward_none");
    if (c.reward && c.granted) reward = tr(lang, c.reward === "life" ? "reward_life" : "reward_star");
    else if (c.reward) reward = tr(lang, "reward_full", { reward: tr(lang, c.reward === "life" ? "life_card" : "star_card") });
    const title = view.phase === "won" ? phaseText(view, ctx) : tr(lang, "cleared_title", { n: c.level });
    out.push(`<section class="mw-panel mw-cleared" data-testid="cleared">
  <h4>${esc(title)}</h4><p data-testid="reward">${esc(reward)}</p>
  ${view.phase === "won" && !view.blind ? `<p>${esc(tr(lang, "won_hint"))}</p>` : ""}</section>`);
  }
  if (view.phase === "lost") {
    out.push(`<section class="mw-panel mw-lost" data-testid="lost"><h4>${esc(tr(lang, "lost_title"))}</h4>
  <p>${esc(tr(lang, "lost_text", { n: view.level }))}</p></section>`);
  }
  if (ctx.notice && ctx.notice.key) {
    // Shown here; spoken once by the widget's own alert region (js/widget.js), since
    // this panel is drawn again on every change.
    out.push(`<div class="mw-notice" data-testid="notice" data-key="${esc(ctx.notice.key)}">${esc(
      tr(lang, `notice_${ctx.notice.key}`, ctx.notice.params || {}),
    )}</div>`);
  }
  return out.join("");
}

function discards(view, ctx, names) {
  const { lang } = ctx;
  if (!view.discards.length) return "";
  const items = view.discards
    .map((d) => {
      const how = tr(lang, d.k === "star" ? "discard_star" : "discard_mistake");
      const face = d.card === null ? back("mw-small", tr(lang, "face_down")) : card(d.card, `mw-small mw-by-${d.p}`);
      return `<li data-testid="discard" data-card="${d.card ?? ""}" data-player="${d.p}">${face}<span>${esc(names[d.p])}, ${esc(how)}</span></li>`;
    })
    .join("");
  return `<section class="mw-discards"><h4>${esc(tr(lang, "discards"))}</h4><ul data-testid="discards">${items}</ul></section>`;
}

/** The whole table. ctx: {lang, mode, size, joining, now, points, notice}. */
export function renderTable(view, ctx) {
  if (!view || typeof view !== "object" || !Array.isArray(view.counts)) {
    return `<div class="mw-loading">${esc(tr(ctx.lang, "title"))}</div>`;
  }
  const names = seatNames(view, ctx.lang);
  return `${header(view, ctx)}
<div class="mw-board">
  ${seats(view, ctx, names)}
  <div class="mw-middle">${pile(view, ctx, names)}${discards(view, ctx, names)}</div>
  ${myHand(view, ctx)}
  <p class="mw-phase" data-testid="phase" data-phase="${esc(view.phase)}">${esc(phaseText(view, ctx))}</p>
  ${controls(view, ctx)}
  ${panels(view, ctx, names)}
</div>
<section class="mw-trace"><h4>${esc(tr(ctx.lang, "trace_title"))}</h4>
${traceSvg(ctx.points || [], { players: view.players, names, lang: ctx.lang, now: ctx.now })}</section>
<p class="mw-keys">${esc(tr(ctx.lang, "keys_hint"))}</p>`;
}

/**
 * A sentence about a seat: the "_you" form of `key` when that seat is the
 * person's, since "You" takes another verb form ("You agree", "Du stimmst zu").
 */
function about(lang, key, seat, view, names, params = {}) {
  const mine = seat === view.seat && view.seat !== null && view.seat !== undefined;
  return tr(lang, mine ? `${key}_you` : key, { who: names[seat] ?? "", ...params });
}

/** What the live region says about the events in `view.news`. */
export function announce(view, lang) {
  if (!view || !Array.isArray(view.news)) return "";
  const names = seatNames(view, lang);
  const out = [];
  for (const e of view.news) {
    const who = names[e.player];
    switch (e.type) {
      case "played":
        out.push(
          e.card === null
            ? about(lang, "say_played_down", e.player, view, names)
            : about(lang, "say_played", e.player, view, names, { card: e.card }),
        );
        break;
      case "mistake":
        out.push(tr(lang, "say_mistake", { who, card: e.card, list: discardList(e.discards, names, lang), n: e.lives }));
        break;
      case "star_proposed":
        out.push(about(lang, "say_star_proposed", e.player, view, names));
        break;
      case "star_voted":
        out.push(about(lang, e.agree ? "say_star_voted_yes" : "say_star_voted_no", e.player, view, names));
        break;
      case "star_used":
        out.push(tr(lang, "say_star_used", { list: discardList(e.discards, names, lang) }));
        break;
      case "star_declined":
        out.push(tr(lang, "say_star_declined"));
        break;
      case "stopped":
        out.push(about(lang, "say_stopped", e.player, view, names));
        break;
      case "concentrated":
        out.push(tr(lang, "say_concentrated"));
        break;
      case "hands_on_table":
        out.push(tr(lang, "say_hands_on_table"));
        break;
      case "dealt":
        out.push(tr(lang, "say_dealt", { n: e.level }));
        break;
      case "level_cleared":
        out.push(tr(lang, "say_level_cleared", { n: e.level }));
        break;
      case "blind_checked":
        out.push(tr(lang, "say_blind_checked", { n: e.faults.length }));
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
