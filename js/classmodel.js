// The pure parts of the class page (js/class.js): its words, the model shim over the
// socket, and the lines around the table. No DOM here, so vitest can test them.
import de from "../mindwidget/locales/class/de.json";
import en from "../mindwidget/locales/class/en.json";
import nl from "../mindwidget/locales/class/nl.json";
import { seatNumber, tr } from "./i18n.js";

const WORDS = { en, nl, de };

/** A class string in `lang` with {placeholders} filled in (English as fallback). */
export function say(lang, key, params = {}) {
  const text = (WORDS[lang] || en)[key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (Object.hasOwn(params, k) ? String(params[k]) : m));
}

/** The WebSocket address of this page's server. */
export const socketUrl = (lang) => {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws?lang=${encodeURIComponent(lang)}`;
};

export const tokenKey = () => `mindwidget-class:${location.host}`;

/**
 * A model as anywidget's, over the socket: `apply` takes what the server sends
 * (a whole state, or only the changed keys) and tells the widget's listeners.
 */
export function makeModel(send) {
  const values = {};
  const handlers = new Map();
  let pending = {};
  const emit = (event, ...args) => {
    for (const fn of [...(handlers.get(event) || [])]) fn(...args);
  };
  return {
    get: (key) => values[key],
    set(key, value) {
      values[key] = value;
      pending[key] = value;
    },
    save_changes() {
      for (const [name, value] of Object.entries(pending)) send({ type: "set", name, value });
      pending = {};
    },
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      handlers.get(event)?.delete(fn);
    },
    send: (msg) => send(msg),
    /** Take the server's values as they are (the view names the seats already);
     * `whole`: they replace everything held. */
    apply(state, whole = false) {
      const keys = Object.keys(state);
      if (whole) for (const k of Object.keys(values)) if (!(k in state)) delete values[k];
      for (const k of keys) values[k] = state[k];
      // the widget reads the level's trace as `live_trace` (MindWidget's synced name); the server sends `trace`
      if ("trace" in state) values.live_trace = state.trace;
      for (const k of keys) emit(`change:${k}`);
      if ("trace" in state) emit("change:live_trace");
    },
  };
}

/** The line of who sits at the table, and whose Ready the table waits for. */
export function tableLines(info, lang) {
  const names = (s) => {
    const seat = info.seats.find((x) => x.seat === s);
    if (!seat) return "";
    if (seat.kind === "person") return seat.name;
    return seat.kind === "bot" ? tr(lang, "bot", { player: s }) : `${seatNumber(s)}`;
  };
  const who = info.seats
    .map((s) => {
      const label =
        s.kind === "person"
          ? s.name
          : s.kind === "bot"
            ? tr(lang, "bot", { player: s.seat })
            : say(lang, "free_seat");
      const gone = s.kind === "person" && !s.connected ? ` (${say(lang, "gone")})` : "";
      return `${seatNumber(s.seat)}. ${label}${gone}${s.seat === info.seat ? ` (${say(lang, "you")})` : ""}`;
    })
    .join(" · ");
  // whose Ready the table waits for, once this pupil has pressed it (the table itself says "press Ready")
  const others = (info.waiting_for || []).filter((s) => s !== info.seat);
  const waiting =
    info.ready && others.length ? say(lang, "waiting_for", { names: others.map(names).join(", ") }) : "";
  return { who, waiting };
}
