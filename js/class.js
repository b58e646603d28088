// The class server's pupil page (mindwidget/classroom): join, then the table.
//
// The table is drawn by the notebook widget's own code (widget.js: the same
// initialize/render anywidget calls) through a small model shim: get / set /
// save_changes / on / off / send, as anywidget's model has them, carried by
// one WebSocket. The server keeps the time and decides everything; this page
// shows what it is sent (only this pupil's own hand) and sends what is pressed.
//
// The seat token the server gives on joining stays in localStorage, so a
// reload, a phone that slept, or a dropped Wi-Fi connection rejoins the seat.
import "./class.css";
import { liveness, makeModel, route, say, socketUrl, tableLines, tokenKey } from "./classmodel.js";
import { seatNumber } from "./i18n.js";
import { clockPanel } from "./ownclock.js";
import { questionPart } from "./question.js";
import { keepOpen, parse } from "./socket.js";
import widget, { KEYS } from "./widget.js";

const PING_COUNT = 5;
const SLOW_MS = 300;
/** How often the page asks itself whether it still hears the server. */
const LISTEN_MS = 250;

/** The play view: a bar with who and where, the lobby text, the table. */
const PLAY_VIEW = `<div class="mwc-bar" data-testid="class-bar">
  <div class="mwc-me" data-testid="class-me"></div>
  <div class="mwc-net" data-testid="class-net" role="status"></div>
  <button type="button" class="mwc-secondary mwc-clock-open" data-testid="own-clock-open" hidden></button></div>
  <div class="mwc-unsent" data-testid="class-unsent" role="alert" hidden></div>
  <div class="mwc-who" data-testid="class-who"></div>
  <div class="mwc-waiting" data-testid="class-waiting" role="status" aria-live="polite"></div>
  <div class="mwc-lobby" data-testid="class-lobby" role="status" hidden></div>
  <div class="mwc-clock-slot" data-testid="own-clock-slot" hidden></div>
  <section data-part="question" aria-live="polite"></section>
  <div class="mwc-table" data-testid="class-table"></div>`;

/**
 * What each frame of the server does to the page (wire.py `ClassFrame`): one handler per
 * frame type. A frame of another type (the server's `pong`) changes nothing.
 * @type {Record<string, (page: any, msg: any) => void>}
 */
const FRAMES = {
  ping(page, msg) {
    page.socket.send({ type: "pong", id: msg.id });
  },
  welcome(page, msg) {
    page.joined = true;
    page.kept.forget(); // back in a lesson: what the last one left goes
    page.socket.answered();
    localStorage.setItem(tokenKey(), msg.token);
    page.joinView.hidden = true;
    page.play.hidden = false;
    page.showNet("");
    page.backOnline();
    page.body.dataset.joined = "true";
  },
  refused(page, msg) {
    const { code, name } = page.fields;
    if (msg.key === "seat_gone") {
      // the seat token is of a class that is no more (a new class, not resumed): say so,
      // and let the pupil join this one with its code
      localStorage.removeItem(tokenKey());
      page.joined = false;
      page.body.dataset.joined = "false";
      page.joinView.hidden = false;
      page.play.hidden = true;
      page.showError(msg.text, code);
      code.select();
      return;
    }
    const field = ["bad_code", "slow_down"].includes(msg.key)
      ? code
      : ["bad_name", "name_taken"].includes(msg.key)
        ? name
        : null;
    page.showError(msg.text, field);
  },
  nickname(page, msg) {
    page.fields.name.value = msg.name;
    page.fields.name.focus();
  },
  update(page, msg) {
    if (msg.state) {
      page.model.apply(msg.state, true);
      page.drawTable();
    }
    if (msg.changes) page.model.apply(msg.changes);
    if (msg.class) showInfo(page, msg.class);
  },
  own_clock(page, msg) {
    page.clock.show(msg);
  },
  notice(page, msg) {
    page.q("class-waiting").textContent = msg.text;
  },
  bye(page, msg) {
    page.socket.stop();
    const over = msg.key === "seat_gone" || msg.key === "class_ended";
    if (over) localStorage.removeItem(tokenKey());
    const net = page.q("class-net");
    net.textContent = msg.text;
    net.dataset.state = "bye";
    page.body.dataset.net = "bye";
    if (!page.joined) page.showError(msg.text, null);
    else if (over) {
      // removed, or the lesson ended: a page that says so, not the old table under a notice
      for (const id of ["class-who", "class-waiting", "class-lobby", "class-table", "own-clock-open"])
        page.q(id).hidden = true;
      page.clock.close();
      net.textContent = "";
      const kept = msg.key === "class_ended" && page.clock.last ? { clock: page.clock.last } : {};
      const parts = afterLesson(msg.text, msg.key, page.pupilLang, kept);
      page.question.ended(parts[0]); // the pupil's own answers ("Jouw antwoorden")
      page.play.append(...parts);
      page.body.dataset.bye = msg.key;
      // kept for this tab until it is closed, also when a phone reloads it
      if (msg.key === "class_ended") page.kept.keep({ text: msg.text, lang: page.pupilLang, ...kept });
    }
  },
};

/** A frame from the server: a sign of life, then its handler (`FRAMES`). */
function onFrame(page, msg) {
  if (!msg || typeof msg !== "object") return;
  page.live.heard(msg.type === "welcome" ? msg.ping_s : undefined); // any message is a sign of life
  if (page.joined && page.model.offline && msg.type !== "bye") page.backOnline();
  if (Object.hasOwn(FRAMES, msg.type)) FRAMES[msg.type](page, msg);
}

/** Where the pupil sits and who else, the lobby, the question: the class part of an update. */
function showInfo(page, info) {
  const { q, clock } = page;
  const l = info.lang || page.pupilLang;
  page.pupilLang = l;
  document.documentElement.lang = l;
  clock.button.textContent = say(l, "clock_open");
  clock.button.hidden = !info.own_clock;
  if (!info.own_clock && !clock.slot.hidden) clock.close(); // a level runs: the cards come first
  page.question.show(info.question, l);
  const me = q("class-me");
  const lobby = q("class-lobby");
  const table = q("class-table");
  if (info.table === null) {
    me.textContent = info.name;
    lobby.textContent = say(l, "waiting_room", { name: info.name });
    lobby.hidden = false;
    table.hidden = true;
    q("class-who").textContent = "";
    q("class-waiting").textContent = "";
    return;
  }
  me.textContent = say(l, "you_are", { name: info.name, table: info.table, seat: seatNumber(info.seat) });
  const { who, waiting } = tableLines(info, l);
  q("class-who").textContent = `${say(l, "at_table")} ${who}`;
  q("class-waiting").textContent = info.started ? waiting : "";
  const have = info.seats.filter((s) => s.kind === "person").length;
  lobby.textContent = say(l, "waiting_players", { table: info.table, have, size: info.size });
  lobby.hidden = info.started;
  table.hidden = !info.started;
}

/** "Jouw klok": opened between levels (the server says when: info.own_clock), drawn from the
 * server's own_clock frame; the latest (`last`) is kept for the page after the lesson. */
function ownClock(page) {
  const button = /** @type {HTMLButtonElement} */ (page.q("own-clock-open"));
  const slot = /** @type {HTMLElement} */ (page.q("own-clock-slot"));
  const clock = {
    button,
    slot,
    last: null,
    close() {
      slot.replaceChildren();
      slot.hidden = true;
      button.setAttribute("aria-expanded", "false");
    },
    show(data) {
      clock.last = data;
      if (data.ended) return; // the goodbye follows: the page after the lesson shows it
      slot.replaceChildren(clockPanel(document, data, page.pupilLang, say, { onClose: clock.close }));
      slot.hidden = false;
      button.setAttribute("aria-expanded", "true");
      slot.scrollIntoView?.({ block: "nearest" });
    },
  };
  button.addEventListener("click", () => {
    if (slot.hidden) page.send({ type: "own_clock" });
    else clock.close();
  });
  return clock;
}

/** What the page keeps after the lesson (its own clock): shown under the join form after a
 * reload of this tab, until the pupil joins again or closes the tab. */
function keptAfterLesson(page) {
  const key = `mindwidget-kept:${location.host}`;
  try {
    const kept = JSON.parse(sessionStorage.getItem(key) ?? "null");
    if (kept && typeof kept.text === "string") {
      const parts = afterLesson(kept.text, "class_ended", kept.lang || page.lang, kept);
      for (const el of parts) el.dataset.kept = "true";
      page.joinView.after(...parts);
    }
  } catch {
    // nothing kept, or storage refused
  }
  return {
    keep(/** @type {any} */ what) {
      try {
        sessionStorage.setItem(key, JSON.stringify(what));
      } catch {
        // no storage: it stays on the page until a reload
      }
    },
    forget() {
      try {
        sessionStorage.removeItem(key);
      } catch {
        // no storage
      }
      for (const el of document.querySelectorAll("[data-kept]")) el.remove();
    },
  };
}

/** The join form: the name's length (and a word when a pasted name was cut to the field's
 * maxlength), the name typed kept across a change of language, a made-up name, Join. */
function joinForm(page) {
  const { lang, fields, send } = page;
  const { code, name, langMenu, error, joinBtn } = fields;
  const nameMax = name.maxLength > 0 ? name.maxLength : 20;
  const nameCount = document.getElementById("name-count");
  let nameCut = false;
  const countName = () => {
    if (!nameCount) return;
    nameCount.textContent = say(lang, "name_count", { n: name.value.length, max: nameMax });
    nameCount.dataset.full = String(name.value.length >= nameMax);
  };
  name.addEventListener("paste", (ev) => {
    const pasted = ev.clipboardData?.getData("text") ?? "";
    const kept = name.value.length - ((name.selectionEnd ?? 0) - (name.selectionStart ?? 0));
    nameCut = kept + pasted.length > nameMax;
  });
  name.addEventListener("input", () => {
    countName();
    if (nameCut) {
      nameCut = false;
      error.textContent = say(lang, "name_cut", { max: nameMax });
    } else if (error.textContent === say(lang, "name_cut", { max: nameMax })) {
      error.textContent = "";
    }
  });
  // A change of language loads this page again in that language: the name typed comes back.
  const typedKey = "mindwidget-join-name";
  try {
    const typed = sessionStorage.getItem(typedKey);
    sessionStorage.removeItem(typedKey);
    if (typed && !name.value) name.value = typed.slice(0, nameMax);
  } catch {
    // no storage (a private window may refuse it): the name is typed again
  }
  countName();

  fields.form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    error.textContent = "";
    if (!code.value.trim()) return page.showError(say(lang, "err_bad_code"), code);
    if (!name.value.trim()) return page.showError(say(lang, "err_bad_name"), name);
    joinBtn.disabled = true;
    joinBtn.textContent = say(lang, "joining");
    send({ type: "join", code: code.value.trim(), name: name.value, lang: langMenu.value });
  });
  document
    .getElementById("make-name")
    .addEventListener("click", () => send({ type: "nickname", lang: langMenu.value }));
  langMenu.addEventListener("change", () => {
    try {
      if (name.value) sessionStorage.setItem(typedKey, name.value);
    } catch {
      // no storage: the name is typed again
    }
    const params = new URLSearchParams({ lang: langMenu.value });
    if (code.value.trim()) params.set("code", code.value.trim());
    location.search = params.toString();
  });
}

/** The connection as the page shows it: what it sends (`page.send`: a table's message only while
 * it hears the server, joining queued until the socket opens), the model over it, and the
 * net line (lost, back). */
function connection(page) {
  const { q, body } = page;
  const unsent = /** @type {HTMLElement} */ (q("class-unsent"));
  // a press while the connection is lost is not sent, and the pupil reads so
  page.notSent = () => {
    unsent.textContent = say(page.pupilLang, "not_sent");
    unsent.hidden = false;
  };
  // joining may be pressed before the socket is open: that waits (the table's messages never do)
  page.queue = [];
  page.send = (msg) => {
    const trySend = (m) => Boolean(page.socket?.send(m));
    const how = route(msg, { joined: page.joined, lost: page.live.lost(), trySend, queue: page.queue });
    if (how === "not_sent" && msg.type !== "tick" && msg.type !== "hello") page.notSent();
  };
  page.model = makeModel(page.send);
  page.showNet = (state) => {
    const net = q("class-net");
    net.textContent = state === "lost" ? say(page.pupilLang, "reconnecting") : "";
    net.dataset.state = state === "lost" ? "reconnecting" : state;
    body.dataset.net = state || "ok";
  };
  page.goneQuiet = () => {
    page.live.closed();
    page.model.setOffline(true);
    page.showNet("lost");
  };
  page.backOnline = () => {
    page.model.setOffline(false);
    unsent.hidden = true;
    unsent.textContent = "";
    if (q("class-net").dataset.state === "reconnecting") page.showNet("");
  };
}

/** The socket to the server, kept open: it rejoins the seat (the token in localStorage) and
 * sends what waited; a silent drop (it closes nothing) counts as lost after a quiet while. */
function listen(page) {
  page.socket = keepOpen(() => socketUrl(page.pupilLang), {
    open: () => {
      const token = localStorage.getItem(tokenKey());
      if (token) page.socket.send({ type: "rejoin", token });
      while (page.queue.length) page.socket.send(page.queue.shift());
    },
    message: (msg) => onFrame(page, msg),
    closed: () => {
      page.live.closed();
      if (page.joined) page.goneQuiet();
    },
    firstMs: 500,
    maxMs: 5000,
  });
  // A silent drop closes nothing: the page counts the time since it last heard the server
  // (its pings come every few seconds), shows the table paused, and connects afresh.
  setInterval(() => {
    if (page.joined && page.q("class-net").dataset.state !== "bye" && page.live.silent()) {
      page.goneQuiet();
      page.socket.drop();
    }
  }, LISTEN_MS);
}

/** The table, drawn by the widget's own code over the model once the first state comes; while
 * offline its buttons are disabled, and a tap or a key on it still says it was not sent. */
function tablePart(page) {
  const tableEl = page.q("class-table");
  const front = widget();
  let drawn = false;
  page.drawTable = () => {
    if (drawn) return;
    drawn = true;
    front.initialize?.({ model: page.model });
    front.render({ model: page.model, el: tableEl });
  };
  tableEl.addEventListener(
    "pointerdown",
    (ev) => {
      if (page.model.offline && /** @type {Element} */ (ev.target).closest?.("[data-action]")) page.notSent();
    },
    true,
  );
  tableEl.addEventListener(
    "keydown",
    (ev) => {
      if (page.model.offline && KEYS[ev.key?.toLowerCase?.()]) page.notSent();
    },
    true,
  );
}

/** The page to join the class and play: its elements and state (`page`), which the parts
 * below fill in and the frames' handlers (`FRAMES`) act on. */
function joinPage(body) {
  const lang = body.dataset.lang || "en";
  const play = document.getElementById("play");
  play.innerHTML = PLAY_VIEW;
  const byId = (id) => document.getElementById(id);
  const error = byId("error");
  const joinBtn = /** @type {HTMLButtonElement} */ (byId("join-btn"));
  /** @type {any} */
  const page = {
    body,
    lang,
    play,
    q: (id) => play.querySelector(`[data-testid="${id}"]`),
    joinView: byId("join"),
    fields: {
      form: /** @type {HTMLFormElement} */ (byId("join-form")),
      code: /** @type {HTMLInputElement} */ (byId("code")),
      name: /** @type {HTMLInputElement} */ (byId("name")),
      langMenu: /** @type {HTMLSelectElement} */ (byId("lang")),
      error,
      joinBtn,
    },
    socket: null,
    joined: false,
    pupilLang: lang,
    live: liveness(() => performance.now()),
    showError(text, field) {
      error.textContent = text;
      joinBtn.disabled = false;
      joinBtn.textContent = say(lang, "join");
      if (field) field.focus();
    },
  };
  connection(page);
  // the questions this tab was shown, kept for "Your answers" across a reload (this pupil's)
  page.question = questionPart(
    /** @type {HTMLElement} */ (play.querySelector('[data-part="question"]')),
    page.send,
    () => {
      const token = localStorage.getItem(tokenKey());
      return token ? `mindwidget-answers:${token}` : null;
    },
  );
  page.kept = keptAfterLesson(page);
  tablePart(page);
  joinForm(page);
  page.clock = ownClock(page);
  listen(page);
}

/** The page after the lesson: its goodbye, and what the pupil keeps (`kept.clock`). */
function afterLesson(
  /** @type {string} */ text,
  /** @type {string} */ key,
  /** @type {string} */ lang,
  /** @type {any} */ kept,
) {
  const page = document.createElement("section");
  page.className = "mwc-bye";
  page.dataset.testid = "class-bye";
  page.setAttribute("role", "status");
  const title = document.createElement("h1");
  title.textContent = text;
  const hint = document.createElement("p");
  hint.textContent = say(lang, `bye_hint_${key}`);
  page.append(title, hint);
  const out = [page];
  // what the page keeps until it is closed: the pupil's own clock (more may follow)
  if (kept?.clock && Array.isArray(kept.clock.plays)) out.push(clockPanel(document, kept.clock, lang, say));
  return out;
}

function checkPage(body) {
  const lang = body.dataset.lang || "en";
  const out = document.getElementById("check");
  const times = [];
  let sentAt = 0;
  let done = false;
  const finish = (key, ms) => {
    if (done) return;
    done = true;
    out.textContent = say(lang, key, { ms });
    out.dataset.state = key === "check_fail" ? "fail" : "ok";
    if (ms !== undefined) out.dataset.ms = String(ms);
  };
  let ws;
  try {
    ws = new WebSocket(socketUrl(lang));
  } catch {
    finish("check_fail");
    return;
  }
  const timer = setTimeout(() => finish("check_fail"), 8000);
  const ping = () => {
    sentAt = performance.now();
    ws.send(JSON.stringify({ type: "ping", id: times.length + 1 }));
  };
  ws.addEventListener("open", ping);
  ws.addEventListener("message", (ev) => {
    const msg = parse(ev.data);
    if (msg?.type !== "pong") return;
    times.push(performance.now() - sentAt);
    if (times.length < PING_COUNT) return ping();
    clearTimeout(timer);
    const sorted = [...times].sort((a, b) => a - b);
    const ms = Math.round(sorted[Math.floor(sorted.length / 2)]);
    finish(ms > SLOW_MS ? "check_slow" : "check_ok", ms);
    ws.close();
  });
  ws.addEventListener("close", () => finish("check_fail"));
}

const start = () => {
  const body = document.body;
  if (body.dataset.page === "join") joinPage(body);
  else if (body.dataset.page === "check") checkPage(body);
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
