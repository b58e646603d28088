// @ts-check
// The live timing trace as an inline SVG string: time since the level started
// (x) against card value (y), one colour *and* marker shape per player.
// Pure: a function of the points Python sent and the current level time.
import { decimal, seatNumber, tr } from "./i18n.js";
import { esc } from "./parts.js";

// Okabe-Ito: distinct for the common colour-vision deficiencies. One place for
// the seats' colours and shapes, shared with plot_trace: mindwidget/seats.json.
import SEATS from "../mindwidget/seats.json";

export const COLOURS = SEATS.colours;
export const SHAPES = SEATS.svg_shapes;

// The drawing's size in SVG units, by where it is shown: text is 11 units, so
// it reads at least as large as the table's small text. Beside the table
// (projector) the column is narrow: fewer units for its width. Below the table
// the drawing is at most 40em wide.
// A narrow column (beside the table in a small window, or under it on a phone)
// gets fewer units still, so that its text reads as large as the table's.
export const SIZES = { projector: [260, 210], notebook: [480, 200], narrow: [180, 170] };
const M = { left: 40, right: 12, top: 10, bottom: 34 };

/** SVG markup of one marker centred at (x, y). */
export function marker(shape, x, y, r, fill, stroke) {
  const a = `fill="${fill}" stroke="${stroke}" stroke-width="1.5"`;
  const pts = (list) =>
    list.map(([dx, dy]) => `${(x + dx * r).toFixed(1)},${(y + dy * r).toFixed(1)}`).join(" ");
  switch (shape) {
    case "square":
      return `<rect x="${(x - r * 0.85).toFixed(1)}" y="${(y - r * 0.85).toFixed(1)}" width="${(r * 1.7).toFixed(1)}" height="${(r * 1.7).toFixed(1)}" ${a}/>`;
    case "triangle":
      return `<polygon points="${pts([
        [0, -1.1],
        [1, 0.8],
        [-1, 0.8],
      ])}" ${a}/>`;
    case "diamond":
      return `<polygon points="${pts([
        [0, -1.15],
        [1.05, 0],
        [0, 1.15],
        [-1.05, 0],
      ])}" ${a}/>`;
    case "down":
      return `<polygon points="${pts([
        [0, 1.1],
        [1, -0.8],
        [-1, -0.8],
      ])}" ${a}/>`;
    case "hexagon":
      return `<polygon points="${pts([
        [1, 0],
        [0.5, 0.87],
        [-0.5, 0.87],
        [-1, 0],
        [-0.5, -0.87],
        [0.5, -0.87],
      ])}" ${a}/>`;
    default:
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}" ${a}/>`;
  }
}

/** The time axis' end: 10 s, doubled while too short, so it changes rarely. */
export function axisMax(/** @type {number} */ span) {
  let t = 10;
  while (t < span && t < 1e5) t *= 2;
  return t;
}

/** Seconds between the time axis' ticks: at most five steps. */
export function niceStep(/** @type {number} */ span) {
  for (const step of [2, 5, 10, 20, 40, 60, 120, 300]) if (span / step <= 5) return step;
  return 600;
}

/**
 * @param {import("./wire.gen.js").TracePoint[]} points  see mindwidget/view.py trace_points
 * @param {{players: number, deck: number, names?: string[], lang: string, now?: number, size?: string}} o
 *   `deck`: the deck's highest card (`view.deck`, Python's): the card axis runs from 0 to it
 */
export function traceSvg(points, o) {
  const { deck } = o;
  const now = Number.isFinite(o.now) ? o.now : 0;
  const [W, H] = SIZES[o.size === "projector" || o.size === "narrow" ? o.size : "notebook"];
  let span = now;
  for (const p of points) span = Math.max(span, p.t, p.until ?? 0);
  const tMax = axisMax(span);
  const x = (t) => M.left + (t / tMax) * (W - M.left - M.right);
  const y = (c) => H - M.bottom - (c / deck) * (H - M.top - M.bottom);
  const out = [];
  const lang = o.lang;
  out.push(
    `<svg class="mw-trace-svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(tr(lang, "trace_title"))}" data-testid="trace">`,
    `<title>${esc(tr(lang, "trace_title"))}</title>`,
    `<desc>${esc(tr(lang, "trace_desc"))}</desc>`,
  );
  // stops: shaded spans
  for (const p of points) {
    if (p.k !== "stop") continue;
    const x0 = x(p.t);
    const x1 = x(p.until ?? now);
    out.push(
      `<rect class="mw-stop" data-kind="stop" x="${x0.toFixed(1)}" y="${M.top}" width="${Math.max(2, x1 - x0).toFixed(1)}" height="${H - M.top - M.bottom}"><title>${esc(tr(lang, "trace_stop"))}</title></rect>`,
    );
  }
  // axes and grid
  const step = niceStep(tMax);
  out.push(`<g class="mw-axis">`);
  for (let t = 0; t <= tMax; t += step) {
    out.push(
      `<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${M.top}" y2="${H - M.bottom}" class="mw-grid"/>`,
      `<text x="${x(t).toFixed(1)}" y="${H - M.bottom + 14}" text-anchor="middle">${t}</text>`,
    );
  }
  for (let c = 0; c <= deck; c += 25) {
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(c).toFixed(1)}" y2="${y(c).toFixed(1)}" class="mw-grid"/>`,
      `<text x="${M.left - 6}" y="${(y(c) + 4).toFixed(1)}" text-anchor="end">${c}</text>`,
    );
  }
  out.push(
    `<text x="${(W + M.left) / 2}" y="${H - 4}" text-anchor="middle" class="mw-axis-label">${esc(tr(lang, "trace_time"))}</text>`,
    `<text x="12" y="${(H - M.bottom + M.top) / 2}" text-anchor="middle" transform="rotate(-90 12 ${(H - M.bottom + M.top) / 2})" class="mw-axis-label">${esc(tr(lang, "trace_card"))}</text>`,
    `</g>`,
  );
  // the pile in play order: a thin line, so a mistake shows as a step down
  const played = points.filter((p) => (p.k === "play" || p.k === "mistake") && p.card !== null);
  if (played.length > 1) {
    const d = played.map((p) => `${x(p.t).toFixed(1)},${y(p.card).toFixed(1)}`).join(" ");
    out.push(`<polyline class="mw-pile-line" points="${d}" fill="none"/>`);
  }
  // the points
  for (const p of points) {
    if (p.k === "stop" || p.card === null || p.card === undefined) continue;
    const colour = COLOURS[p.player % COLOURS.length];
    const shape = SHAPES[p.player % SHAPES.length];
    const cx = x(p.t);
    const cy = y(p.card);
    // an earlier holder of the seat (a class table) is named, never "you"
    const name = p.by ?? o.names?.[p.player] ?? String(p.player);
    const label = `${name}: ${p.card} (${tr(lang, `trace_${p.k === "play" ? "play" : p.k}`)}, ${decimal(lang, p.t, 2)} s)`;
    const hollow = p.k === "lost" || p.k === "star";
    out.push(
      `<g class="mw-pt mw-pt-${p.k}" data-kind="${p.k}" data-card="${p.card}"><title>${esc(label)}</title>`,
    );
    out.push(marker(shape, cx, cy, 5, hollow ? "none" : colour, hollow ? colour : "var(--mw-fg)"));
    if (p.k === "mistake") {
      out.push(`<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="9" fill="none" class="mw-ring"/>`);
    } else if (p.k === "lost") {
      out.push(
        `<path d="M${(cx - 4).toFixed(1)},${(cy - 4).toFixed(1)} l8,8 m0,-8 l-8,8" class="mw-cross"/>`,
      );
    } else if (p.k === "star") {
      out.push(`<text x="${(cx + 7).toFixed(1)}" y="${(cy - 5).toFixed(1)}" class="mw-star-mark">★</text>`);
    }
    out.push(`</g>`);
  }
  // now
  out.push(
    `<line data-live="now" x1="${x(now).toFixed(1)}" x2="${x(now).toFixed(1)}" y1="${M.top}" y2="${H - M.bottom}" class="mw-now" data-tmax="${tMax}" data-w="${W}"/>`,
  );
  out.push(`</svg>`);
  // legend (HTML, so it wraps and reads well)
  const legend = [];
  for (let p = 0; p < (o.players || 0); p++) {
    const sw = `<svg width="14" height="14" aria-hidden="true">${marker(SHAPES[p % SHAPES.length], 7, 7, 5, COLOURS[p % COLOURS.length], "var(--mw-fg)")}</svg>`;
    legend.push(`<span class="mw-legend-item">${sw} ${esc(o.names?.[p] ?? seatNumber(p))}</span>`);
  }
  legend.push(
    `<span class="mw-legend-item"><span class="mw-key-ring" aria-hidden="true">◯</span> ${esc(tr(lang, "trace_mistake"))}</span>`,
    `<span class="mw-legend-item"><span aria-hidden="true">✕</span> ${esc(tr(lang, "trace_lost"))}</span>`,
    `<span class="mw-legend-item"><span aria-hidden="true">★</span> ${esc(tr(lang, "trace_star"))}</span>`,
    `<span class="mw-legend-item"><span class="mw-key-stop" aria-hidden="true"></span> ${esc(tr(lang, "trace_stop"))}</span>`,
  );
  return `${out.join("")}<div class="mw-legend">${legend.join("")}</div>`;
}

/** x position of level time `t` on an SVG drawn up to `tMax` (for the live "now" line). */
export function nowX(t, tMax, w = SIZES.notebook[0]) {
  return M.left + (Math.min(t, tMax) / tMax) * (w - M.left - M.right);
}
