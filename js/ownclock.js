// "Jouw klok" on a pupil's page of the class server: their own waits against the gap
// to the pile, their own line and spread, and the class's median line, as the server
// sent them (mindwidget/classroom/ownclock.py, wire.py `OwnClock`). Python decides
// every number and word choice (the spread, the pace, which bands of the class's line
// may be shown); this module draws only what it gets, as SVG, in the pupil's language.
// `clockLines` and `clockSvg` are pure (vitest); `clockPanel` builds the section.
// `words(lang, key, params)` says each string: the class page's (js/classmodel.js `say`)
// or the teacher's dashboard's (js/dashboard_render.js `say`), same keys `clock_*`.
import { decimal } from "./i18n.js";
import { esc } from "./parts.js";

/** The drawing's size in SVG units: on a 390 px phone one unit is about one pixel. */
const W = 360;
const H = 250;
const PAD = { left: 46, right: 20, top: 12, bottom: 44 };
/** Colours (Okabe and Ito, as mindwidget/seats.json): the pupil's blue, a mistake's vermillion. */
const YOU = "#0072B2";
const MISTAKE = "#D55E00";
const CLASS = "#333333";

/** An axis from 0 past `x` in 3 to 5 round steps (1, 2 or 5 times a power of ten). */
export function axis(x) {
  const top = x > 0 ? x : 1;
  const power = 10 ** Math.floor(Math.log10(top / 4));
  let step = power;
  for (const m of [1, 2, 5, 10]) {
    step = m * power;
    if (top / step <= 5) break;
  }
  return { top: Math.ceil(top / step - 1e-9) * step, step };
}

/**
 * The sentences under the title, in `lang`: how many plays, and with enough of them the
 * spread and the pace beside the class (Python chose `pace`; the words only say it).
 * @param {any} data the `OwnClock` frame
 * @param {string} lang
 * @param {(lang: string, key: string, params?: any) => string} words
 * @returns {string[]}
 */
export function clockLines(data, lang, words) {
  const say = words;
  const n = data.plays.length;
  const name = data.name;
  const lines = [say(lang, name ? "clock_plays" : "clock_plays_class", { n, name })];
  if (n < data.need || data.half_within === null) {
    lines.push(say(lang, "clock_too_few", { need: data.need, name }));
    return lines;
  }
  const pct = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(
    data.half_within,
  );
  lines.push(say(lang, "clock_spread", { pct, name }));
  // (the class's own clock has no pace beside itself)
  if (name && data.pace && data.vs_class !== null) {
    lines.push(say(lang, `clock_pace_${data.pace}`, { x: decimal(lang, data.vs_class, 1), name }));
  }
  return lines;
}

/**
 * The figure as SVG text: the pupil's plays (dots; a mistake a cross), their own line
 * (dashed) and the class's median line (dark, squares), on plain axes in seconds and steps.
 * @param {any} data the `OwnClock` frame
 * @param {string} lang
 * @param {(lang: string, key: string, params?: any) => string} words
 */
export function clockSvg(data, lang, words) {
  const say = words;
  const gaps = [...data.plays.map((p) => p.gap), ...data.curve.map((b) => b.gap), 10];
  const waits = [...data.plays.map((p) => p.wait), ...data.curve.map((b) => b.wait), 1];
  const xs = axis(Math.max(...gaps));
  const ys = axis(Math.max(...waits) * 1.05);
  const xTop = xs.top;
  const yTop = ys.top;
  const x = (g) => PAD.left + (g / xTop) * (W - PAD.left - PAD.right);
  const y = (s) => H - PAD.bottom - (s / yTop) * (H - PAD.top - PAD.bottom);
  const out = [];
  out.push(
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(say(lang, "clock_figure"))}" ` +
      `class="mwc-clock-svg" data-testid="own-clock-svg" font-size="14" font-family="system-ui, sans-serif">`,
  );
  // axes, ticks and grid
  const digits = ys.step < 1 ? 1 : 0;
  for (let k = 0; k * xs.step <= xTop + 1e-9; k++) {
    const gx = k * xs.step;
    out.push(`<line x1="${x(gx)}" y1="${y(0)}" x2="${x(gx)}" y2="${y(yTop)}" stroke="#ddd"/>`);
    const label = esc(decimal(lang, gx, 0));
    out.push(`<text x="${x(gx)}" y="${y(0) + 17}" text-anchor="middle" fill="#444">${label}</text>`);
  }
  for (let k = 0; k * ys.step <= yTop + 1e-9; k++) {
    const gy = k * ys.step;
    out.push(`<line x1="${x(0)}" y1="${y(gy)}" x2="${x(xTop)}" y2="${y(gy)}" stroke="#ddd"/>`);
    const label = esc(decimal(lang, gy, digits));
    out.push(`<text x="${x(0) - 6}" y="${y(gy) + 5}" text-anchor="end" fill="#444">${label}</text>`);
  }
  out.push(`<line x1="${x(0)}" y1="${y(0)}" x2="${x(xTop)}" y2="${y(0)}" stroke="#444"/>`);
  out.push(`<line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(yTop)}" stroke="#444"/>`);
  out.push(
    `<text x="${(x(0) + x(xTop)) / 2}" y="${H - 6}" text-anchor="middle" fill="#222">${esc(say(lang, "clock_x"))}</text>`,
  );
  out.push(
    `<text transform="translate(13 ${(y(0) + y(yTop)) / 2}) rotate(-90)" text-anchor="middle" fill="#222">` +
      `${esc(say(lang, "clock_y"))}</text>`,
  );
  // the class's median line
  if (data.curve.length) {
    const pts = data.curve.map((b) => `${x(b.gap).toFixed(1)},${y(b.wait).toFixed(1)}`).join(" ");
    out.push(
      `<polyline points="${pts}" fill="none" stroke="${CLASS}" stroke-width="3" data-testid="own-clock-class"/>`,
    );
    for (const b of data.curve) {
      out.push(`<rect x="${x(b.gap) - 4}" y="${y(b.wait) - 4}" width="8" height="8" fill="${CLASS}"/>`);
    }
  }
  // the pupil's own line, within the axes
  if (data.floor !== null && data.step !== null && data.step >= 0) {
    const g1 = Math.min(xTop, data.step > 0 ? (yTop - data.floor) / data.step : xTop);
    out.push(
      `<line x1="${x(0)}" y1="${y(data.floor)}" x2="${x(g1)}" y2="${y(data.floor + data.step * g1)}" ` +
        `stroke="${YOU}" stroke-width="2" stroke-dasharray="6 4" data-testid="own-clock-line"/>`,
    );
  }
  // the pupil's plays
  for (const p of data.plays) {
    const cx = x(p.gap);
    const cy = y(p.wait);
    if (p.mistake) {
      out.push(
        `<path d="M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx - 6},${cy + 6}L${cx + 6},${cy - 6}" ` +
          `stroke="${MISTAKE}" stroke-width="3" data-testid="own-clock-play" data-mistake="true"/>`,
      );
    } else {
      out.push(
        `<circle cx="${cx}" cy="${cy}" r="5.5" fill="${YOU}" stroke="#fff" stroke-width="1.5" ` +
          `data-testid="own-clock-play"/>`,
      );
    }
  }
  out.push("</svg>");
  return out.join("");
}

/** The legend's entries: [key, colour, shape], only what the figure shows. */
function legend(data) {
  const out = [["clock_you", YOU, "dot"]];
  if (data.plays.some((p) => p.mistake)) out.push(["clock_mistake", MISTAKE, "cross"]);
  if (data.floor !== null) out.push(["clock_line", YOU, "dash"]);
  if (data.curve.length) out.push(["clock_class", CLASS, "line"]);
  return out;
}

/**
 * "Jouw klok" as a section of the page: title, sentences, figure, legend, where the
 * class's line comes from. `onClose`: a close button (none after the lesson: it stays).
 * @param {Document} doc
 * @param {any} data the `OwnClock` frame
 * @param {string} lang
 * @param {(lang: string, key: string, params?: any) => string} words
 * @param {{onClose?: () => void}} [options]
 */
export function clockPanel(doc, data, lang, words, options = {}) {
  const say = words;
  const panel = doc.createElement("section");
  panel.className = "mwc-clock";
  panel.dataset.testid = "own-clock";
  panel.dataset.plays = String(data.plays.length);
  panel.setAttribute("aria-labelledby", "mwc-clock-title");
  const head = doc.createElement("div");
  head.className = "mwc-clock-head";
  const title = doc.createElement("h2");
  title.id = "mwc-clock-title";
  title.textContent = say(lang, "clock_title");
  head.append(title);
  if (options.onClose) {
    const close = doc.createElement("button");
    close.type = "button";
    close.className = "mwc-secondary mwc-clock-close";
    close.dataset.testid = "own-clock-close";
    close.textContent = say(lang, "clock_close");
    close.addEventListener("click", options.onClose);
    head.append(close);
  }
  const sub = doc.createElement("p");
  sub.className = "mwc-hint";
  sub.textContent = say(lang, "clock_sub");
  panel.append(head, sub);
  const lines = clockLines(data, lang, say);
  lines.forEach((text, i) => {
    const p = doc.createElement("p");
    p.textContent = text;
    if (i === 0) p.dataset.testid = "own-clock-count";
    panel.append(p);
  });
  const figure = doc.createElement("div");
  figure.className = "mwc-clock-figure";
  figure.innerHTML = clockSvg(data, lang, say);
  panel.append(figure);
  const keys = doc.createElement("ul");
  keys.className = "mwc-clock-legend";
  for (const [key, colour, shape] of legend(data)) {
    const li = doc.createElement("li");
    const mark = doc.createElement("span");
    mark.className = `mwc-clock-mark mwc-clock-${shape}`;
    mark.style.setProperty("--mark", colour);
    mark.setAttribute("aria-hidden", "true");
    li.append(mark, doc.createTextNode(say(lang, key)));
    keys.append(li);
  }
  panel.append(keys);
  const from = doc.createElement("p");
  from.className = "mwc-hint";
  from.textContent = data.curve.length
    ? say(lang, "clock_class_from", { n: data.class_plays, k: data.band_pupils })
    : say(lang, "clock_no_curve", { k: data.band_pupils });
  panel.append(from);
  if (data.ended) {
    const kept = doc.createElement("p");
    kept.className = "mwc-hint";
    kept.textContent = say(lang, "clock_kept");
    panel.append(kept);
  }
  return panel;
}
