// The anywidget front end of the teacher's dashboard (mindwidget/classroom/dashboard.py).
// Python decides: it sends the class (`room`), the table shown large
// (`table`), the `settings` and the `notice`; every button sends a message
// that Python checks before the class acts on it. Python already sends at most
// a few updates a second; this draws each one once, on the next frame.
import "./dashboard.css";
import * as clock from "./clock.js";
import { dashboardParts } from "./dashboard_render.js";
import { keepKeys, passesButRun, showLevelTime } from "./dom.js";

const PARTS = ["room", "table", "settings", "notice", "clock"];
/** How often the large table's clock and its timeline's now-line move (ms). */
const LIVE_MS = 100;
const now = () => performance.now();

/**
 * Put `parts` ([key, html] in order) into `box`, each in its own wrapper
 * (display: contents): a wrapper whose HTML did not change is left alone.
 * Returns the wrappers by key.
 */
const drawn = new WeakMap(); // wrapper -> the HTML it holds

/**
 * Put `html` into the wrapper `el`. When both the old and the new part are one
 * element of the same kind (a table's card), that element stays and takes the
 * new attributes and content, so what points at it (a test, a screen reader's
 * place) is not lost.
 */
function fill(/** @type {HTMLElement} */ el, /** @type {string} */ html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html.trim();
  const next = tpl.content.firstElementChild;
  const cur = el.firstElementChild;
  const single = tpl.content.childElementCount === 1 && el.childElementCount === 1;
  if (!single || !next || !cur || cur.tagName !== next.tagName) {
    el.innerHTML = html;
    return;
  }
  for (const a of [...cur.attributes]) if (!next.hasAttribute(a.name)) cur.removeAttribute(a.name);
  for (const a of [...next.attributes])
    if (cur.getAttribute(a.name) !== a.value) cur.setAttribute(a.name, a.value);
  cur.innerHTML = next.innerHTML;
}

function patch(/** @type {HTMLElement} */ box, /** @type {[string, string][]} */ parts) {
  const old = new Map([...box.children].map((el) => [/** @type {HTMLElement} */ (el).dataset.part, el]));
  const out = new Map();
  let before = box.firstElementChild;
  for (const [key, html] of parts) {
    let el = /** @type {HTMLElement|undefined} */ (old.get(key));
    if (!el) {
      el = document.createElement("div");
      el.className = "mwd-part";
      el.dataset.part = key;
    }
    if (drawn.get(el) !== html) {
      fill(el, html);
      drawn.set(el, html);
    }
    if (el !== before) box.insertBefore(el, before);
    else before = before.nextElementSibling;
    old.delete(key);
    out.set(key, el);
  }
  for (const el of old.values()) el.remove();
  return out;
}

export default {
  /** `download(kind)`: downloads the class's data ("data": its saved file; "csv": its plays for a
   * spreadsheet), on the teacher's page of `mindwidget class`. */
  render({ model, el, download = undefined }) {
    const root = document.createElement("div");
    root.className = "mwd";
    root.dataset.testid = "dashboard";
    root.setAttribute("role", "region");
    // JupyterLab's shortcuts skip the dashboard's keys, but for Escape (back to the
    // notebook) and Ctrl/Alt/Meta combinations other than those that run a cell
    const releaseKeys = keepKeys(root, passesButRun);
    el.append(root);
    // What only this browser knows: the place each move menu shows, a half-pressed "end",
    // whether the pupils' controls are shown.
    // `armed`: the one control pressed once that asks to be pressed again ("remove:<pupil>",
    // "move:<pupil>", "reveal:"); `now`: the large table's level time when drawn.
    const ui = {
      moves: /** @type {Record<string, string>} */ ({}),
      endArmed: false,
      manage: false,
      armed: "",
      download: typeof download === "function",
      clockFor: "-", // whose clock the menu shows: "-" none, "" the class, a pupil's id
      now: /** @type {number|undefined} */ (undefined),
    };
    let frame = 0;
    // The large table's clock, run on between syncs as a pupil's page does (js/clock.js).
    let largeClock = clock.initial(now());
    const followClock = () => {
      const t = model.get("table");
      largeClock = clock.follow(largeClock, t?.clock, now());
    };
    followClock();

    const state = () => Object.fromEntries(PARTS.map((p) => [p, model.get(p) ?? {}]));
    const draw = () => {
      frame = 0;
      const focusId = root.contains(document.activeElement) ? document.activeElement?.dataset?.testid : null;
      ui.now = clock.levelTime(largeClock, now());
      const { top, tables } = dashboardParts(state(), ui);
      const parts = patch(root, top);
      const grid = parts.get("tables")?.querySelector(".mwd-grid");
      if (grid) patch(/** @type {HTMLElement} */ (grid), tables);
      if (focusId) root.querySelector(`[data-testid="${CSS.escape(focusId)}"]`)?.focus();
    };
    // Drawing again would close a menu the teacher has open: wait until it closes.
    const menuOpen = () =>
      document.activeElement instanceof HTMLSelectElement && root.contains(document.activeElement);
    const later = () => {
      if (!frame && !menuOpen()) frame = requestAnimationFrame(draw);
    };

    const onClick = (/** @type {MouseEvent} */ ev) => {
      const button = /** @type {HTMLElement|null} */ (
        ev.target instanceof Element ? ev.target.closest("button[data-act]") : null
      );
      if (!button || !root.contains(button)) return;
      const act = button.dataset.act;
      const num = (/** @type {string|undefined} */ s) => (s === undefined || s === "" ? null : Number(s));
      if (act !== "end") ui.endArmed = false;
      // a removal, a move during a level, and showing every hand (the class may be
      // watching this screen on the projector) ask once more: the first press arms it
      const armKey = `${act}:${button.dataset.pupil ?? ""}`;
      const askFirst =
        act === "remove" ||
        (act === "move" && button.dataset.confirm === "true") ||
        (act === "reveal" && button.dataset.on === "true");
      if (askFirst && ui.armed !== armKey) {
        ui.armed = armKey;
        draw();
        return;
      }
      ui.armed = "";
      switch (act) {
        case "start_all":
        case "pause_all":
          model.send({ type: act });
          break;
        case "end":
          if (ui.endArmed) {
            ui.endArmed = false;
            model.send({ type: "end" });
          } else {
            ui.endArmed = true;
          }
          break;
        case "manage":
          ui.manage = !ui.manage;
          break;
        case "download":
          if (typeof download === "function") download();
          break;
        case "download_csv":
          if (typeof download === "function") download("csv");
          break;
        case "clock": // close it
          ui.clockFor = "-";
          model.send({ type: "clock", pupil: null });
          break;
        case "lock":
          model.send({ type: "lock", locked: button.dataset.locked === "true" });
          break;
        case "reveal":
          model.send({ type: "reveal", on: button.dataset.on === "true" });
          break;
        case "focus":
          model.send({ type: "focus", table: num(button.dataset.table) });
          break;
        case "start_table":
          model.send({ type: "start_table", table: num(button.dataset.table) });
          break;
        case "give_to_bot":
          model.send({
            type: "give_to_bot",
            table: num(button.dataset.table),
            seat: num(button.dataset.seat),
          });
          break;
        case "remove":
          model.send({ type: "remove", pupil: button.dataset.pupil });
          break;
        case "move": {
          const pupil = button.dataset.pupil ?? "";
          const menu = /** @type {HTMLSelectElement|null} */ (
            root.querySelector(`select[data-move="${CSS.escape(pupil)}"]`)
          );
          const [table, seat] = (menu?.value ?? "").split(":").map(Number);
          delete ui.moves[pupil];
          model.send({ type: "move", pupil, table, seat });
          break;
        }
        default:
          return;
      }
      draw();
    };
    const onChange = (/** @type {Event} */ ev) => {
      const t = ev.target;
      if (!(t instanceof HTMLSelectElement)) return;
      if (t.dataset.testid === "lang") model.send({ type: "lang", lang: t.value });
      else if (t.dataset.move) ui.moves[t.dataset.move] = t.value;
      else if (t.dataset.testid === "clock-menu") {
        ui.clockFor = t.value;
        model.send({ type: "clock", pupil: t.value === "-" ? null : t.value });
      }
    };
    // Shift/Ctrl/Alt+Enter, meant to run a cell, press no button here either (a plain
    // Enter does): it would start or end tables by accident
    const onKey = (/** @type {KeyboardEvent} */ ev) => {
      if (ev.key === "Enter" && (ev.shiftKey || ev.ctrlKey || ev.metaKey || ev.altKey)) ev.preventDefault();
    };
    root.addEventListener("click", onClick);
    root.addEventListener("change", onChange);
    root.addEventListener("keydown", onKey);
    const afterFocus = () => setTimeout(later, 0);
    root.addEventListener("focusout", afterFocus);
    for (const p of PARTS) model.on(`change:${p}`, later);
    const onTable = () => followClock();
    model.on("change:table", onTable);
    // Only what moves with time changes between syncs: the large table's clock and now-line.
    const live = setInterval(() => {
      if (!largeClock.running) return;
      const large = root.querySelector('[data-testid="large"]');
      if (!large) return;
      showLevelTime(large, clock.levelTime(largeClock, now()), model.get("settings")?.lang ?? "en");
    }, LIVE_MS);
    draw();
    return () => {
      clearInterval(live);
      model.off("change:table", onTable);
      if (frame) cancelAnimationFrame(frame);
      root.removeEventListener("click", onClick);
      root.removeEventListener("change", onChange);
      root.removeEventListener("keydown", onKey);
      root.removeEventListener("focusout", afterFocus);
      for (const p of PARTS) model.off(`change:${p}`, later);
      releaseKeys();
      root.remove();
    };
  },
};
