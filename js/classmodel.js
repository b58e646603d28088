// The pure parts of the class page (js/class.js): its words, the model shim over the
// socket, and the lines around the table. No DOM here, so vitest can test them.
import de from "../mindwidget/locales/class/de.json";
import en from "../mindwidget/locales/class/en.json";
import nl from "../mindwidget/locales/class/nl.json";
import * as clock from "./clock.js";
import { seatNumber, strings, tr } from "./i18n.js";
import { TABLE_SENDS as TABLE_TYPES } from "./wire.gen.js";

/** A class string (locales/class) in `lang` with {placeholders} filled in (English as fallback). */
export const say = /* @__PURE__ */ strings({ en, nl, de });

/** The WebSocket address of this page's server. */
export const socketUrl = (lang) => {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws?lang=${encodeURIComponent(lang)}`;
};

export const tokenKey = () => `mindwidget-class:${location.host}`;

/**
 * Whether the page still hears the server. The server pings every `pingS` seconds
 * (and sends updates between): any message is a sign of life, and a page that heard
 * nothing for `quietMs(pingS)` has lost its connection, also when nothing closed it
 * (a Wi-Fi out of range). `now` is a clock in ms (performance.now in the page).
 */
export function liveness(now) {
  let last = now();
  let open = false;
  let quiet = quietMs();
  return {
    /** a message came (`pingS`: the server's ping interval, when it says) */
    heard(pingS) {
      last = now();
      open = true;
      if (pingS !== undefined) quiet = quietMs(pingS);
    },
    /** the socket closed, or was given up */
    closed() {
      open = false;
    },
    /** no connection: closed, or silent for too long */
    lost() {
      return !open || now() - last > quiet;
    },
    /** silent for too long while the socket still counts as open */
    silent() {
      return open && now() - last > quiet;
    },
  };
}

/** What the table sends (wire.gen.js, from wire.py): never kept for later (a press made while
 * offline is not sent). */
export const TABLE_SENDS = new Set(TABLE_TYPES);

/**
 * Where a message of the page goes: "sent" now; a table's message is never queued, so
 * while the connection is lost (or before joining) it is "not_sent" (or "dropped");
 * joining, pressed before the socket opened, is "queued" (at most 20) for the open.
 * @param {any} msg
 * @param {{joined: boolean, lost: boolean, trySend: (m: any) => boolean, queue: any[]}} page
 */
export function route(msg, { joined, lost, trySend, queue }) {
  if (TABLE_SENDS.has(msg?.type)) {
    if (!joined) return "dropped";
    return !lost && trySend(msg) ? "sent" : "not_sent";
  }
  if (trySend(msg)) return "sent";
  if (queue.length >= 20) return "dropped";
  queue.push(msg);
  return "queued";
}

/** How long a page may hear nothing: a ping interval and 3 s more (at least 4 s, at most 20 s). */
export function quietMs(pingS = 5) {
  const s = typeof pingS === "number" && Number.isFinite(pingS) && pingS > 0 ? pingS : 5;
  return Math.min(20000, Math.max(4000, (s + 3) * 1000));
}

/**
 * A model as anywidget's, over the socket: `apply` takes what the server sends
 * (a whole state, or only the changed keys) and tells the widget's listeners.
 * `setOffline(true)`: the connection is lost; the widget then sees the table paused
 * (its clock stands still, `view.offline`, no action allowed) until `setOffline(false)`.
 */
export function makeModel(send, now = () => performance.now()) {
  const values = {};
  let offline = false;
  // the server's clock and when it came: the page's level time goes on from there (js/clock.js)
  let clockAt = now();
  const levelTime = (c) =>
    clock.levelTime({ running: c.running, base: c.t ?? 0, speed: c.speed, anchorMs: clockAt }, now());
  let frozen = null; // the clock shown while offline: standing still where it was
  let resumed = null; // once, after the connection is back: the clock at the time it is now
  const handlers = new Map();
  let pending = {};
  const emit = (event, ...args) => {
    for (const fn of [...(handlers.get(event) || [])]) fn(...args);
  };
  return {
    get(key) {
      if (key === "view" && offline && values.view) return { ...values.view, allowed: [], offline: true };
      if (key === "clock" && frozen) return frozen;
      if (key === "clock" && resumed) {
        const c = resumed;
        resumed = null;
        return c;
      }
      return values[key];
    },
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
    /** The connection is lost (true) or back (false): the table shows it paused, or plays on.
     * (The one thing the page adds: the server cannot tell a page it does not reach.) */
    setOffline(next) {
      if (Boolean(next) === offline) return;
      offline = Boolean(next);
      const c = values.clock;
      if (offline) frozen = c ? { ...c, running: false, t: levelTime(c), beat: false } : null;
      else {
        frozen = null;
        resumed = c ? { ...c, t: levelTime(c) } : null;
      }
      emit("change:view");
      emit("change:clock");
    },
    get offline() {
      return offline;
    },
    /** Take the server's values as they are (the view names the seats already);
     * `whole`: they replace everything held. */
    apply(state, whole = false) {
      const keys = Object.keys(state);
      if (whole) for (const k of Object.keys(values)) if (!(k in state)) delete values[k];
      if ("clock" in state) {
        clockAt = now();
        resumed = null;
      }
      // the level's trace comes as `live_trace`, the name the widget reads (MindWidget's synced trait)
      for (const k of keys) values[k] = state[k];
      for (const k of keys) emit(`change:${k}`);
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
