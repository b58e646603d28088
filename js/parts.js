// @ts-check
// The pieces both boards are built from, written once: cards, buttons, the
// language menu, life and star tokens, the pile and the put-aside list. Pure:
// each returns an HTML string. The seats' colours and shapes come from
// mindwidget/seats.json (the one place for them), set inline as --mw-pc.
import SEATS from "../mindwidget/seats.json";
import { LANGS, tr } from "./i18n.js";

/** @typedef {import("./wire.gen.js").Discard} Discard */

/** The one HTML escape. */
export const esc = (/** @type {unknown} */ s) =>
  String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Inline style and class that give an element seat `p`'s colour and shape. */
export function seatStyle(/** @type {number} */ p) {
  const colour = SEATS.colours[p % SEATS.colours.length];
  const shape = SEATS.svg_shapes[p % SEATS.svg_shapes.length];
  return { style: `--mw-pc:${colour}`, shape };
}

/** A seat's marker: its colour in its shape (the same as in the trace). */
export function seatMark(/** @type {number} */ p) {
  const { style, shape } = seatStyle(p);
  return `<span class="mw-dot mw-shape-${shape}" style="${style}" aria-hidden="true"></span>`;
}

/**
 * A face-up card. `by`: the seat that played it (its colour band and shape),
 * `attrs`: extra attributes (already escaped), `inner`: more HTML inside it.
 * @param {number|null|undefined} value
 * @param {{cls?: string, by?: number|null, who?: string, attrs?: string, inner?: string}} [o]
 */
export function card(value, { cls = "", by = null, who = "", attrs = "", inner = "" } = {}) {
  if (value === null || value === undefined) return back({ cls, attrs });
  const band =
    by === null || by === undefined
      ? ""
      : `<span class="mw-band" style="${seatStyle(by).style}">${seatMark(by)}<span class="mw-band-name">${esc(who)}</span></span>`;
  return `<span class="mw-card ${cls}" ${attrs}>${band}<span class="mw-num">${esc(value)}</span>${inner}</span>`;
}

/** A card face down. */
export function back({ cls = "", attrs = "", label = "" } = {}) {
  const aria = label ? ` role="img" aria-label="${esc(label)}"` : ' aria-hidden="true"';
  return `<span class="mw-card mw-back ${cls}"${aria} ${attrs}></span>`;
}

/**
 * A game button: `action` is the message it sends, `key` its label's string.
 * @param {string} action
 * @param {string} label  the text shown (already translated)
 * @param {{enabled?: boolean, testid?: string, cls?: string, attrs?: string, kbd?: string}} [o]
 */
export function button(action, label, { enabled = true, testid, cls = "", attrs = "", kbd = "" } = {}) {
  const id = testid || `btn-${action.replace(/_/g, "-")}`;
  const k = kbd ? `<kbd class="mw-kbd" aria-hidden="true">${esc(kbd)}</kbd>` : "";
  return `<button type="button" class="mw-btn ${cls}" data-action="${esc(action)}" data-testid="${esc(id)}"${enabled ? "" : " disabled"} ${attrs}><span class="mw-btn-label">${esc(label)}</span>${k}</button>`;
}

/** How to leave a board that has the keys (shown in a notebook only, widget.css). */
export const leaveHint = (/** @type {string} */ lang) =>
  `<span class="mw-leave" data-testid="leave-hint">${esc(tr(lang, "keys_leave"))}</span>`;

/** The language menu (each language named in itself). */
export function langMenu(/** @type {string} */ lang, /** @type {string} */ testid) {
  const opts = LANGS.map(
    (l) => `<option value="${l}"${l === lang ? " selected" : ""}>${esc(tr(l, "language"))}</option>`,
  ).join("");
  return `<label class="mw-lang"><span class="mw-sr">${esc(tr(lang, "language_label"))}</span>
    <select data-role="lang" data-testid="${testid}">${opts}</select></label>`;
}

/**
 * Lives or stars as tokens, in a box as wide as `max` tokens, so the header
 * does not move when the count changes. `broken`: lives just lost, shown as
 * broken hearts while the mistake is explained. None: one empty slot.
 * @param {"lives"|"stars"} kind
 * @param {number} n
 * @param {number} max
 * @param {string} lang
 * @param {number} [broken]
 */
export function tokens(kind, n, max, lang, broken = 0) {
  const icon = kind === "lives" ? "♥" : "★";
  const cls = kind === "lives" ? "mw-life" : "mw-star";
  // None left: one empty slot, so that "no stars" shows as a place where a star would be.
  const items =
    n + broken === 0
      ? `<span class="mw-token ${cls} mw-empty" data-slot="0" data-testid="empty-slot" aria-hidden="true">${icon}</span>`
      : Array.from(
          { length: n + broken },
          (_, i) =>
            `<span class="mw-token ${cls}${i < n ? "" : " mw-lost"}" data-slot="${i}"${i < n ? "" : ' data-testid="broken-heart"'} aria-hidden="true">${icon}</span>`,
        ).join("");
  const label = `${tr(lang, kind)}: ${n}`;
  return `<span class="mw-tokens mw-${kind}" style="--mw-slots:${Math.max(max || 0, n + broken)}" data-testid="${kind}" data-count="${n}" title="${esc(label)}" role="img" aria-label="${esc(label)}">${items}</span>`;
}

/**
 * The pile: the top card large, in its player's colour and shape, the cards
 * before it fanned behind. `flip`: keys for the motion layer (js/motion.js).
 * @param {{pile: (number|null)[], pile_by: number[], seat?: number|null, pile_names?: (string|null)[]}} t
 * @param {string[]} names
 * @param {string} lang
 * @param {{early?: boolean, from?: (p: number) => string}} [o]
 */
export function pile(t, names, lang, { early = false, from } = {}) {
  const n = t.pile.length;
  const label = `<div class="mw-label">${esc(tr(lang, "pile"))}${n ? ` (${n})` : ""}</div>`;
  if (n === 0) {
    return `<div class="mw-pile" data-testid="pile">${label}<div class="mw-slot">
  <span class="mw-card mw-big mw-outline" data-testid="pile-top" data-card="">${esc(tr(lang, "pile_empty"))}</span></div></div>`;
  }
  const top = t.pile[n - 1];
  const by = t.pile_by[n - 1];
  const under = t.pile
    .slice(Math.max(0, n - 4), n - 1)
    .map((c, i, arr) => {
      const k = n - 1 - arr.length + i;
      return card(c, { cls: "mw-big mw-under", by: t.pile_by[k], attrs: `style="--i:${arr.length - i}"` });
    })
    .join("");
  const fromAttr = from ? ` data-from="${esc(from(by))}"` : "";
  const mark = early
    ? `<span class="mw-early-tag" data-testid="early-mark">${esc(tr(lang, "mark_early"))}</span>`
    : "";
  // a card played by an earlier holder of its seat (a class table): their name, never "you"
  const earlier = Array.isArray(t.pile_names) ? t.pile_names[n - 1] : null;
  const who = earlier ?? names[by];
  const topHtml = card(top, {
    cls: `mw-big mw-top${early ? " mw-early" : ""}`,
    by,
    who,
    inner: mark, // inside the card, so it flies in with it
    attrs: `data-testid="pile-top" data-card="${top ?? ""}" data-flip="pile-${n}"${fromAttr} aria-label="${esc(
      top === null
        ? tr(lang, "face_down")
        : tr(lang, by === t.seat && !earlier ? "pile_top_by_you" : "pile_top_by", { card: top, who }),
    )}"`,
  });
  return `<div class="mw-pile" data-testid="pile">${label}<div class="mw-slot">${under}${topHtml}</div></div>`;
}

/**
 * The discards: cards put aside (by a mistake, kind "lost", or a throwing star),
 * small, in their holder's colour; the ones `marked` (the latest mistake's) stand out.
 * @param {Discard[]} list
 * @param {string[]} names
 * @param {string} lang
 * @param {{marked?: Set<number>, from?: (p: number) => string, earlier?: (string|null)[]}} [o]
 *   `earlier`: beside `list`, the name of an earlier holder of the card's seat (a class table)
 */
export function discards(list, names, lang, { marked = new Set(), from, earlier = [] } = {}) {
  const items = list
    .map((d, i) => {
      const how = tr(lang, d.k === "star" ? "discard_star" : "discard_lost");
      const fromAttr = from ? ` data-from="${esc(from(d.player))}"` : "";
      const mark = marked.has(i);
      const face = card(d.card, {
        cls: `mw-small${mark ? " mw-marked" : ""}`,
        by: d.player,
        attrs: `data-flip="aside-${i}"${fromAttr}`,
      });
      return `<li data-testid="discard" data-card="${d.card ?? ""}" data-player="${d.player}" data-kind="${d.k}"${mark ? ' data-marked="true"' : ""} title="${esc(`${earlier[i] ?? names[d.player]}, ${how}`)}">${face}</li>`;
    })
    .join("");
  return `<section class="mw-aside" aria-label="${esc(tr(lang, "discards"))}"><div class="mw-label">${esc(tr(lang, "discards"))}</div><ul data-testid="discards">${items}</ul></section>`;
}
