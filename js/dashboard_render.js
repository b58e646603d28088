// @ts-check
// The teacher's dashboard as HTML, from what Python syncs (mindwidget/classroom/dashboard.py):
//   room     the class's snapshot, each table with `stuck` (Python decides), and
//            `free`: the places a pupil may be moved to
//   table    the table shown large: {id, view, points} (a watcher's view)
//   settings {lang, focus, reveal}
//   notice   {key, params, id}: why a control was refused
//   clock    the clock the teacher opened, a pupil's or the class's ({} if none):
//            what a pupil's page gets (js/ownclock.js draws both)
// Pure: (state, ui) -> string. `ui` holds what only this browser knows (which
// "end" is half pressed, which place each move menu shows). Seats are counted
// from 0 in the data and shown from 1.
import teacherDe from "../mindwidget/locales/teacher/de.json";
import teacherEn from "../mindwidget/locales/teacher/en.json";
import teacherNl from "../mindwidget/locales/teacher/nl.json";
import { LANGS, seatNumber, strings, tr } from "./i18n.js";
import { esc, seatMark } from "./parts.js";
import { clockLines, clockSvg } from "./ownclock.js";
import { renderTable } from "./render.js";

const TEACHER = Object.freeze({ en: teacherEn, nl: teacherNl, de: teacherDe });
const LANG_NAMES = Object.freeze({ en: "English", nl: "Nederlands", de: "Deutsch" });

/** A teacher string (locales/teacher), else the widget's (lives, stars, level). */
export const say = /* @__PURE__ */ strings(TEACHER, tr);

const list = (/** @type {string[]} */ items, /** @type {string} */ lang) => {
  try {
    return new Intl.ListFormat(lang, { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
};

/** The name shown for a seat: the pupil's nickname, the bot's name, or "Seat n". */
export function seatName(/** @type {any} */ seat, /** @type {string} */ lang) {
  if (seat && typeof seat.name === "string" && seat.name) return seat.name;
  return say(lang, "seat_n", { n: seatNumber(seat?.seat ?? 0) });
}

function seatsById(/** @type {any} */ t) {
  const out = new Map();
  for (const s of Array.isArray(t.seats) ? t.seats : []) out.set(s.seat, s);
  return out;
}

const names = (/** @type {any} */ t, /** @type {number[]} */ seats, /** @type {string} */ lang) => {
  const by = seatsById(t);
  return seats.map((s) => seatName(by.get(s) ?? { seat: s }, lang));
};

/** Why a table is stuck, in words ("" if it is not); `short`: without "STUCK:". */
export function stuckText(/** @type {any} */ t, /** @type {string} */ lang, short = false) {
  const s = t.stuck;
  if (!s) return "";
  const who = list(names(t, s.seats || [], lang), lang);
  if (s.reason === "offline") return say(lang, short ? "why_offline" : "stuck_offline", { list: who });
  if (s.reason === "empty") {
    const seats = list(
      (s.seats || []).map((n) => String(seatNumber(n))),
      lang,
    );
    return say(lang, short ? "why_empty" : "stuck_empty", { list: seats });
  }
  return say(lang, short ? "why_idle" : "stuck_idle", { n: s.seconds ?? 0 });
}

const PHASES = ["waiting", "ready", "stopped", "vote", "play", "cleared", "won", "lost"];

function phaseText(/** @type {any} */ t, /** @type {string} */ lang, ended = false) {
  if (ended) return say(lang, "table_ended");
  return PHASES.includes(t.phase) ? say(lang, `phase_${t.phase}`) : String(t.status ?? t.phase ?? "");
}

function mistakeText(/** @type {any} */ t, /** @type {string} */ lang) {
  const m = t.last_mistake;
  if (!m) return say(lang, "no_mistake");
  const by = seatsById(t);
  // the lower cards, seat by seat: "Eva 13, 24; Finn 19"
  const bySeat = new Map();
  for (const [seat, card] of Array.isArray(m.held) ? m.held : []) {
    if (!bySeat.has(seat)) bySeat.set(seat, []);
    bySeat.get(seat).push(card);
  }
  // who held each seat at the time (Python: a seat may have changed hands since)
  const heldNames = Array.isArray(m.held_names) ? m.held_names : [];
  const then = new Map((Array.isArray(m.held) ? m.held : []).map(([seat], i) => [seat, heldNames[i]]));
  const nameOf = (seat, earlier) =>
    typeof earlier === "string" ? earlier : seatName(by.get(seat) ?? { seat }, lang);
  const held = [...bySeat]
    .map(([seat, cards]) => `${nameOf(seat, then.get(seat))} ${cards.join(", ")}`)
    .join("; ");
  // the latest mistake of the game, with its level once the table is past it
  const past = typeof m.level === "number" && m.level !== t.level;
  return say(lang, past ? "last_mistake_level" : "last_mistake", {
    who: nameOf(m.seat, m.name),
    card: m.card,
    held,
    level: m.level,
  });
}

function connection(/** @type {any} */ s, /** @type {string} */ lang) {
  const on = s.connected !== false;
  const rtt = typeof s.rtt_ms === "number" && Number.isFinite(s.rtt_ms);
  const ms = rtt ? say(lang, "rtt", { ms: Math.round(s.rtt_ms) }) : say(lang, "rtt_unknown");
  // offline: no round trip (the last one measured is stale, and reads as if the pupil were there)
  if (!on) return `<span class="mwd-conn mwd-off" data-testid="conn">${esc(say(lang, "offline"))}</span>`;
  return `<span class="mwd-conn mwd-on" data-testid="conn">${esc(say(lang, "online"))}</span> <span class="mwd-rtt" data-testid="rtt">${esc(ms)}</span>`;
}

/** The move menu of one pupil: every free place but the pupil's own. */
function moveMenu(
  /** @type {any} */ pupil,
  /** @type {any} */ room,
  /** @type {any} */ ui,
  /** @type {string} */ lang,
) {
  const here = `${pupil.table ?? ""}:${pupil.seat ?? ""}`;
  const places = (Array.isArray(room.free) ? room.free : []).filter(([t, s]) => `${t}:${s}` !== here);
  if (!places.length) return "";
  const chosen = ui.moves?.[pupil.pupil];
  const options = places
    .map(([t, s]) => {
      const v = `${t}:${s}`;
      return `<option value="${esc(v)}"${v === chosen ? " selected" : ""}>${esc(
        say(lang, "move_place", { table: t, seat: seatNumber(s) }),
      )}</option>`;
    })
    .join("");
  const label = say(lang, "move_to", { name: pupil.name ?? "" });
  const armed = ui.armed === `move:${pupil.pupil}`;
  return `<span class="mwd-move"><select data-move="${esc(pupil.pupil)}" aria-label="${esc(label)}" data-testid="move-${esc(
    pupil.pupil,
  )}">${options}</select><button type="button" data-act="move" data-pupil="${esc(pupil.pupil)}"${
    pupil.playing ? ' data-confirm="true"' : ""
  }${armed ? ' class="mwd-danger"' : ""} data-testid="move-button-${esc(pupil.pupil)}">${esc(
    say(lang, armed ? "move_confirm" : "control_move"),
  )}</button></span>`;
}

/** The remove button of a pupil: a first press arms it, a second removes. */
function removeButton(/** @type {any} */ pupil, /** @type {any} */ ui, /** @type {string} */ lang) {
  const armed = ui.armed === `remove:${pupil.pupil}`;
  const text = armed ? say(lang, "remove_confirm", { name: pupil.name ?? "" }) : say(lang, "control_remove");
  return `<button type="button" data-act="remove" data-pupil="${esc(pupil.pupil)}" data-testid="remove-${esc(
    pupil.pupil,
  )}"${armed ? ' class="mwd-danger"' : ""}>${esc(text)}</button>`;
}

/** A give-to-bot button for one seat. */
const toBot = (/** @type {any} */ t, /** @type {number} */ seat, /** @type {string} */ lang) =>
  `<button type="button" data-act="give_to_bot" data-table="${esc(t.id)}" data-seat="${esc(seat)}" data-testid="to-bot-${esc(
    t.id,
  )}-${esc(seatNumber(seat))}">${esc(say(lang, "control_give_to_bot"))}</button>`;

/** Whether a table is in the middle of a game (a move or removal there asks once more). */
const inGame = (/** @type {any} */ t) => ["ready", "stopped", "vote", "play", "cleared"].includes(t.phase);

function seatRow(
  /** @type {any} */ t,
  /** @type {any} */ s,
  /** @type {any} */ room,
  /** @type {any} */ ui,
  /** @type {string} */ lang,
) {
  const num = `<span class="mwd-seatno">${esc(seatNumber(s.seat))}</span>`;
  let body = "";
  const ended = room.ended === true;
  const conn = ended ? "" : ` ${connection(s, lang)}`;
  if (s.kind === "person" && (!ui.manage || ended)) {
    body = `<span class="mwd-name">${esc(s.name ?? "")}</span>${conn}`;
  } else if (s.kind === "person") {
    const pupil = { ...s, table: t.id, playing: inGame(t) };
    body = `<span class="mwd-name">${esc(s.name ?? "")}</span>${conn}
      <span class="mwd-seat-controls">${removeButton(pupil, ui, lang)}${moveMenu(pupil, room, ui, lang)}${
        s.connected === false ? toBot(t, s.seat, lang) : ""
      }</span>`;
  } else if (s.kind === "bot") {
    body = `<span class="mwd-name">${esc(seatName(s, lang))}</span> <span class="mwd-kind">${esc(say(lang, "bot"))}</span>`;
  } else {
    body = `<span class="mwd-kind">${esc(say(lang, "empty_seat"))}</span>`;
  }
  const gone = s.kind === "person" && s.connected === false && !ended;
  return `<li class="mwd-seat${gone ? " mwd-gone" : ""}" data-testid="seat-${esc(
    t.id,
  )}-${esc(seatNumber(s.seat))}" data-kind="${esc(s.kind)}">${seatMark(s.seat)}${num} ${body}</li>`;
}

/** A seat whose pupil is not there (Python's `offer_bot`): a button gives it to a bot, so the table goes on. */
function offerBot(/** @type {any} */ t, /** @type {string} */ lang) {
  const seats = Array.isArray(t.offer_bot) ? t.offer_bot : [];
  if (!seats.length) return "";
  const by = seatsById(t);
  return `<p class="mwd-offer">${seats
    .map(
      (s) =>
        `<button type="button" data-act="give_to_bot" data-table="${esc(t.id)}" data-seat="${esc(s)}" data-testid="offer-bot-${esc(
          t.id,
        )}-${esc(seatNumber(s))}">${esc(say(lang, "offer_bot", { name: seatName(by.get(s) ?? { seat: s }, lang), seat: seatNumber(s) }))}</button>`,
    )
    .join(" ")}</p>`;
}

/** One table's card on the dashboard. */
export function tableCard(
  /** @type {any} */ t,
  /** @type {any} */ room,
  /** @type {any} */ ui,
  /** @type {string} */ lang,
) {
  const ended = room.ended === true;
  const stuck = ended ? "" : stuckText(t, lang);
  // what leads on from a stuck table: a bot for each seat it waits for in vain
  // (an offline pupil's seat: the class offers it itself, `offer_bot`; an empty seat here)
  const leadOn =
    stuck && t.stuck.reason === "empty"
      ? `<p class="mwd-lead-on">${(t.stuck.seats || []).map((seat) => toBot(t, seat, lang)).join("")}</p>`
      : "";
  const waiting =
    !ended && Array.isArray(t.waiting_for) && t.waiting_for.length
      ? say(lang, "waiting_for", { list: list(names(t, t.waiting_for, lang), lang) })
      : "";
  const seats = (Array.isArray(t.seats) ? t.seats : []).map((s) => seatRow(t, s, room, ui, lang)).join("");
  // as the snapshot says: the game is over (won or lost), or a level is cleared
  const state = `${t.over === true ? " mwd-over" : ""}${t.cleared === true ? " mwd-cleared" : ""}`;
  const isStuck = Boolean(t.stuck) && !ended;
  // "Start with bots" only where it does something: a table that has not started, with someone there
  const someone = (Array.isArray(t.seats) ? t.seats : []).some((s) => s.kind !== "empty");
  const startable = ui.manage && !ended && t.phase === "waiting" && someone;
  return `<article class="mwd-table${isStuck ? " mwd-stuck" : ""}${state}${ended ? " mwd-ended" : ""}" data-testid="table-${esc(t.id)}" data-table="${esc(t.id)}"${
    isStuck ? ` data-stuck="${esc(t.stuck.reason)}"` : ""
  }>
  <header><h3>${esc(say(lang, "table_n", { n: t.id }))}</h3><span class="mwd-phase" data-testid="phase">${esc(phaseText(t, lang, ended))}</span></header>
  ${stuck ? `<p class="mwd-stuck-badge" data-testid="stuck">${esc(stuck)}</p>${leadOn}` : ""}${ended ? "" : offerBot(t, lang)}
  ${
    t.levels
      ? `<p class="mwd-stats"><span data-testid="level">${esc(tr(lang, "level", { n: t.level, of: t.levels }))}</span>
    <span data-testid="lives">${esc(tr(lang, "lives"))} <b>${esc(t.lives)}</b></span>
    <span data-testid="stars">${esc(tr(lang, "stars"))} <b>${esc(t.stars)}</b></span></p>`
      : ""
  }
  <p class="mwd-waiting" data-testid="waiting">${esc(waiting)}</p>
  <p class="mwd-mistake" data-testid="mistake">${esc(mistakeText(t, lang))}</p>
  <ol class="mwd-seats">${seats}</ol>
  <footer><button type="button" data-act="focus" data-table="${esc(t.id)}" data-testid="show-${esc(t.id)}">${esc(
    say(lang, "show_large"),
  )}</button>${
    startable
      ? `<button type="button" data-act="start_table" data-table="${esc(t.id)}" data-testid="start-${esc(t.id)}" title="${esc(
          say(lang, "start_table_hint"),
        )}">${esc(say(lang, "control_start_table"))}</button>`
      : ""
  }</footer>
</article>`;
}

/** The address, the code and the QR code: read from the back row. */
function joinBand(/** @type {any} */ room, /** @type {string} */ lang, small = false) {
  const qr =
    typeof room.qr_svg === "string" && room.qr_svg.startsWith("<svg")
      ? `<img class="mwd-qr" data-testid="qr" alt="${esc(say(lang, "qr_alt"))}" src="data:image/svg+xml;charset=utf-8,${encodeURIComponent(room.qr_svg)}">`
      : "";
  const tables = Array.isArray(room.tables) ? room.tables : [];
  const pupils =
    tables.reduce(
      (n, t) => n + (Array.isArray(t.seats) ? t.seats.filter((s) => s.kind === "person").length : 0),
      0,
    ) + (Array.isArray(room.waiting_room) ? room.waiting_room.length : 0);
  // Once joining is locked nobody needs to read the code from afar: the band shrinks.
  return `<header class="mwd-join${room.locked || small ? " mwd-join-small" : ""}" data-testid="join">${qr}
  <div class="mwd-codebox"><p class="mwd-label">${esc(say(lang, "code"))}</p>
    <p class="mwd-code" data-testid="code">${esc(room.code ?? "")}</p></div>
  <div class="mwd-address"><p class="mwd-label">${esc(say(lang, "join_at"))}</p>
    <p class="mwd-url" data-testid="url">${esc(room.address ?? room.url ?? "")}</p>
  <p class="mwd-counts"><span>${esc(say(lang, "tables_n", { n: tables.length }))}</span>
    <span data-testid="pupils">${esc(say(lang, "pupils_n", { n: pupils }))}</span>
    ${room.same_deal ? `<span>${esc(say(lang, "same_deal"))}</span>` : ""}
    ${room.locked ? `<span class="mwd-locked" data-testid="locked">${esc(say(lang, "locked_badge"))}</span>` : ""}</p></div>
</header>`;
}

function controls(
  /** @type {any} */ room,
  /** @type {any} */ settings,
  /** @type {any} */ ui,
  /** @type {string} */ lang,
) {
  const b = (act, key, extra = "") =>
    `<button type="button" data-act="${act}" data-testid="ctl-${act}"${extra}>${esc(say(lang, key))}</button>`;
  const langs = LANGS.map(
    (l) => `<option value="${l}"${l === lang ? " selected" : ""}>${esc(LANG_NAMES[l] ?? l)}</option>`,
  ).join("");
  // the class's data as one file (the teacher's page of `mindwidget class`; a notebook has room.save)
  const download = ui.download
    ? `<button type="button" class="mwd-download" data-act="download" data-testid="download" title="${esc(
        say(lang, "download_hint"),
      )}">${esc(say(lang, "download"))}</button><button type="button" class="mwd-download" data-act="download_csv" data-testid="download-csv" title="${esc(
        say(lang, "download_csv_hint"),
      )}">${esc(say(lang, "download_csv"))}</button>`
    : "";
  if (room.ended === true)
    return `<nav class="mwd-controls">${download}${clockMenu(room, ui, lang)}
  <label class="mwd-lang">${esc(say(lang, "language_label"))} <select data-testid="lang">${langs}</select></label>
</nav>`;
  return `<nav class="mwd-controls">
  ${b("start_all", "control_start_all")}${b("pause_all", "control_pause_all")}
  ${b("lock", room.locked ? "control_unlock" : "control_lock", ` data-locked="${room.locked ? "false" : "true"}"`)}
  ${b("end", ui.endArmed ? "end_confirm" : "control_end", ui.endArmed ? ' class="mwd-danger"' : "")}
  ${b("manage", ui.manage ? "control_manage_done" : "control_manage")}
  ${reveal(settings, ui, b)}
  ${download}${clockMenu(room, ui, lang)}
  <label class="mwd-lang">${esc(say(lang, "language_label"))} <select data-testid="lang">${langs}</select></label>
</nav>`;
}

/** Show every hand, or hide them: showing asks once more (the first press arms it and
 * warns that a projector would show them to the class, js/dashboard.js). */
function reveal(/** @type {any} */ settings, /** @type {any} */ ui, /** @type {Function} */ b) {
  if (settings.reveal) return b("reveal", "control_hide", ' data-on="false"');
  const armed = ui.armed === "reveal:";
  return b(
    "reveal",
    armed ? "reveal_confirm" : "control_reveal",
    ` data-on="true"${armed ? ' class="mwd-danger"' : ""}`,
  );
}

/** "Klok van": the class's clock or any pupil's (`ui.clockFor`: "-" none, "" the class, an id). */
function clockMenu(/** @type {any} */ room, /** @type {any} */ ui, /** @type {string} */ lang) {
  const pupils = [];
  for (const t of Array.isArray(room.tables) ? room.tables : [])
    for (const s of Array.isArray(t.seats) ? t.seats : [])
      if (s.kind === "person" && typeof s.pupil === "string") pupils.push([s.pupil, s.name ?? s.pupil]);
  for (const p of Array.isArray(room.waiting_room) ? room.waiting_room : [])
    if (typeof p.pupil === "string") pupils.push([p.pupil, p.name ?? p.pupil]);
  const chosen = typeof ui.clockFor === "string" ? ui.clockFor : "-";
  const option = (/** @type {string} */ value, /** @type {string} */ text) =>
    `<option value="${esc(value)}"${value === chosen ? " selected" : ""}>${esc(text)}</option>`;
  const options = [
    option("-", say(lang, "clock_none")),
    option("", say(lang, "clock_of_class")),
    ...pupils.map(([id, name]) => option(id, name)),
  ].join("");
  return `<label class="mwd-clock-menu">${esc(say(lang, "clock_menu"))} <select data-testid="clock-menu">${options}</select></label>`;
}

/** The clock the teacher opened: the same figure as a pupil's page (js/ownclock.js). */
function clockPart(/** @type {any} */ clock, /** @type {string} */ lang) {
  if (!clock || !Array.isArray(clock.plays) || !Array.isArray(clock.curve)) return "";
  const title = clock.name ? say(lang, "clock_title", { name: clock.name }) : say(lang, "clock_title_class");
  const lines = clockLines(clock, lang, say)
    .map((t, i) => `<p${i === 0 ? ' data-testid="teacher-clock-count"' : ""}>${esc(t)}</p>`)
    .join("");
  const from = clock.curve.length
    ? say(lang, "clock_class_from", { n: clock.class_plays, k: clock.band_pupils })
    : say(lang, "clock_no_curve", { k: clock.band_pupils });
  return `<section class="mwd-clock" data-testid="teacher-clock" data-plays="${esc(clock.plays.length)}">
  <header><h3>${esc(title)}</h3>
  <button type="button" data-act="clock" data-testid="close-clock">${esc(say(lang, "clock_close"))}</button></header>
  ${lines}<div class="mwd-clock-figure">${clockSvg(clock, lang, say)}</div>
  <p class="mwd-clock-from">${esc(from)}</p>
</section>`;
}

function stuckSummary(/** @type {any} */ room, /** @type {any[]} */ tables, /** @type {string} */ lang) {
  if (room.ended === true)
    return `<section class="mwd-ended" data-testid="ended" role="status"><h2>${esc(say(lang, "ended_title"))}</h2><p>${esc(
      say(lang, "ended_text"),
    )}</p></section>`;
  const stuck = tables.filter((t) => t.stuck);
  if (!stuck.length)
    return `<p class="mwd-summary" data-testid="stuck-summary">${esc(say(lang, "all_moving"))}</p>`;
  // each stuck table is a button that shows it large
  const items = stuck.map(
    (t) =>
      `<button type="button" data-act="focus" data-table="${esc(t.id)}">${esc(say(lang, "table_n", { n: t.id }))} · ${esc(
        stuckText(t, lang, true),
      )}</button>`,
  );
  const text = esc(say(lang, "stuck_summary", { list: "\u0000" })).replace("\u0000", items.join(" "));
  return `<p class="mwd-summary mwd-summary-stuck" data-testid="stuck-summary">${text}</p>`;
}

function waitingRoom(/** @type {any} */ room, /** @type {any} */ ui, /** @type {string} */ lang) {
  const pupils = Array.isArray(room.waiting_room) ? room.waiting_room : [];
  const rows = pupils
    .map(
      (
        p,
      ) => `<li data-testid="waiting-${esc(p.pupil)}"><span class="mwd-name">${esc(p.name ?? "")}</span> ${connection(p, lang)}
    ${removeButton(p, ui, lang)}${moveMenu(p, room, ui, lang)}</li>`,
    )
    .join("");
  return `<section class="mwd-waiting-room" data-testid="waiting-room"><h3>${esc(say(lang, "waiting_room"))}</h3>${
    rows ? `<ul>${rows}</ul>` : `<p>${esc(say(lang, "nobody_waiting"))}</p>`
  }</section>`;
}

/** The table shown large, as a watcher sees it (the widget's own drawing). */
function large(
  /** @type {any} */ table,
  /** @type {any} */ settings,
  /** @type {string} */ lang,
  /** @type {number|undefined} */ now,
) {
  if (!table || !table.view) return "";
  const view = { ...table.view, allowed: [] };
  const ctx = {
    lang,
    size: "projector",
    points: Array.isArray(table.points) ? table.points : [],
    // the level time now (the page runs the table's clock on); else the clock as synced
    now: typeof now === "number" && Number.isFinite(now) ? now : (table.clock?.t ?? 0),
  };
  return `<section class="mwd-large" data-testid="large" data-table="${esc(table.id)}">
  <header><h3>${esc(say(lang, "large_title", { n: table.id }))}</h3>
  ${settings.reveal ? `<span class="mwd-reveal-badge" data-testid="reveal-badge">${esc(say(lang, "reveal_badge"))}</span>` : ""}
  <button type="button" data-act="focus" data-table="" data-testid="close-large">${esc(say(lang, "close_large"))}</button></header>
  <div class="mindwidget mw-projector mwd-watch"><div class="mw-main">${renderTable(view, ctx)}</div></div>
</section>`;
}

/**
 * The dashboard in parts, each with a key, so that a change redraws only its
 * own part (a click on another part is never lost to a redraw):
 * `top` in order (the tables' grid is the part "tables"), and `tables`, one per table.
 */
export function dashboardParts(/** @type {any} */ state, /** @type {any} */ ui = {}) {
  const room = state.room && typeof state.room === "object" ? state.room : {};
  const settings = state.settings && typeof state.settings === "object" ? state.settings : {};
  const lang = LANGS.includes(settings.lang) ? settings.lang : "en";
  const tables = Array.isArray(room.tables) ? room.tables : [];
  const notice =
    state.notice && state.notice.key ? say(lang, state.notice.key, state.notice.params || {}) : "";
  return {
    top: [
      ["join", joinBand(room, lang, Boolean(state.table?.view) || room.ended === true)],
      ["controls", controls(room, settings, ui, lang)],
      ["notice", `<p class="mwd-notice" data-testid="notice" role="alert">${esc(notice)}</p>`],
      ["summary", stuckSummary(room, tables, lang)],
      ["large", large(state.table, settings, lang, ui.now)],
      ["clock", clockPart(state.clock, lang)],
      ["tables", GRID],
      ["waiting", room.ended === true ? "" : waitingRoom(room, ui, lang)],
    ],
    tables: tables.map((t) => [String(t.id), tableCard(t, room, ui, lang)]),
  };
}

const GRID = '<div class="mwd-grid" data-testid="tables"></div>';
