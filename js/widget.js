// The anywidget front end of MindWidget. Python decides; the browser keeps time.
//
// The default export is a function: anywidget calls it once per widget model,
// so the trace points and the level clock below are per model (shared by every
// view of that model) and there is no module-level state.
//  - initialize (once per model): message handler, level clock, heartbeat timer.
//  - render (once per view, maybe several times): draws the table, wires
//    buttons and keys, and returns a cleanup that removes all of it.
import "./widget.css";
import * as clock from "./clock.js";
import { keepKeys, mountFrame, passes, showLevelTime } from "./dom.js";
import { LANGS, decimal, tr } from "./i18n.js";
import * as motion from "./motion.js";
import { actionMessage, tickMessage } from "./messages.js";
import { announce, noticeText, renderTable, traceLayout } from "./render.js";

const POLL_MS = 20; // how often the heartbeat timer looks at the clock
const LIVE_MS = 100;
/** Keys while the widget has focus, and the button each one presses (by test id). */
export const KEYS = Object.freeze({
  " ": "btn-play",
  p: "btn-play",
  s: "btn-stop",
  t: "btn-star",
  r: "btn-ready",
  w: "btn-wait",
  y: "btn-agree",
  j: "btn-agree", // ja (nl, de)
  n: "btn-decline",
});

const now = () => performance.now();

export default () => {
  const store = {
    points: [],
    epoch: null,
    clock: clock.initial(now()),
    listeners: new Set(),
    views: 0, // views on screen: no heartbeat (so no bot acts) while none shows the table
  };
  const notify = () => {
    for (const fn of store.listeners) fn();
  };

  return {
    initialize({ model }) {
      // The level's trace is synced state: whole when the model is created, then
      // only the new or changed points (from `from` on).
      const onTrace = () => {
        const msg = model.get("live_trace");
        if (!msg || typeof msg !== "object" || !Array.isArray(msg.points)) return;
        if (msg.epoch !== store.epoch) {
          store.points = [];
          store.epoch = msg.epoch;
        }
        const from = Number.isInteger(msg.from) ? msg.from : 0;
        store.points = [...store.points.slice(0, from), ...msg.points];
        notify();
      };
      const onClock = () => {
        store.clock = clock.follow(store.clock, model.get("clock"), now(), model.get("view")?.speeds);
        notify();
      };
      model.on("change:live_trace", onTrace);
      model.on("change:clock", onClock);
      onTrace();
      onClock();
      // While Python says so (clock.beat: the level clock runs and a bot may act):
      // a heartbeat with the level time, ten times a second. Python answers only
      // when a bot acted by then.
      const timer = setInterval(() => {
        if (store.views === 0 || !model.get("clock")?.beat) return;
        const at = now();
        const beat = clock.heartbeat(store.clock, at);
        if (beat) {
          store.clock = clock.markBeat(store.clock, at);
          model.send(tickMessage(beat));
        }
      }, POLL_MS);
      return () => {
        clearInterval(timer);
        model.off("change:live_trace", onTrace);
        model.off("change:clock", onClock);
      };
    },

    render({ model, el }) {
      const { root, main, live } = mountFrame(el, {
        className: "mindwidget",
        testid: "mindwidget",
        liveTestid: "live",
      });
      // Refusals are spoken once, when a new notice arrives (the visible notice
      // is part of the table, which is drawn again on every change).
      const alert = document.createElement("div");
      alert.className = "mw-sr";
      alert.setAttribute("role", "alert");
      alert.dataset.testid = "alert";
      let spokenNotice = null;
      root.append(main, live, alert);
      // JupyterLab (Lumino) skips its own shortcuts for keys pressed in here.
      const releaseKeys = keepKeys(root);
      main.className = "mw-main";
      el.append(root);

      let joining = false;
      let drawnEpoch = null;
      let joinTimer = null;
      let announced = null; // `${epoch}:${view.n}` last spoken
      let spokenView = null; // the view whose news the live region says
      let spokenLang = null;
      const levelTime = () => clock.levelTime(store.clock, now());
      // where the trace stands and how it is drawn depend on the widget's width
      const layout = () => JSON.stringify(traceLayout(root.clientWidth, model.get("size")));
      let drawnLayout = null;
      let stale = false; // a change came while the notebook had the cell out of the page
      // The size tells when the trace moves beside the table or under it, and when a
      // cell comes back into the page (JupyterLab's windowing "full" or "defer"): draw then.
      const resized =
        typeof ResizeObserver === "undefined"
          ? null
          : new ResizeObserver(() => {
              if (root.isConnected && (stale || layout() !== drawnLayout)) schedule();
            });
      resized?.observe(root);

      // the level time of the moment, unless the host keeps the time (clock.stamp false);
      // each action names the view it was made on (Python refuses it once the table has left it)
      const stamp = () => (model.get("clock")?.stamp === false ? null : levelTime());
      const seen = () => ({ epoch: model.get("clock")?.epoch, n: model.get("view")?.n });
      const send = (action, extra = {}) => model.send(actionMessage(action, stamp(), extra, seen()));

      const draw = () => {
        const view = model.get("view");
        const lang = model.get("lang");
        if (view?.phase !== "ready") joining = false;
        const focused = root.contains(document.activeElement) ? document.activeElement : null;
        const focusId = focused?.dataset?.testid;
        const epoch = model.get("clock")?.epoch;
        let before = null;
        try {
          if (epoch === drawnEpoch) before = motion.measure(main);
        } catch {
          before = null;
        }
        drawnEpoch = epoch;
        drawnLayout = layout();
        main.innerHTML = renderTable(view, {
          lang,
          mode: model.get("mode"),
          joining,
          now: levelTime(),
          points: store.points,
          notice: model.get("notice"),
          speed: model.get("clock")?.speed,
          size: model.get("size"),
          width: root.clientWidth,
        });
        root.classList.toggle("mw-projector", model.get("size") === "projector");
        root.lang = lang;
        root.setAttribute("aria-label", tr(lang, "title"));
        if (focused && focusId && focused !== root) {
          const again = main.querySelector(`[data-testid="${focusId}"]`);
          (again && !again.disabled ? again : root).focus({ preventScroll: true });
        }
        try {
          root.dataset.moved = String(motion.play(main, before)); // cards set moving (for tests)
        } catch {
          // Motion is decoration: a failure in it must never stop the table.
        }
        const key = `${model.get("clock")?.epoch}:${view?.n}`;
        if (announced !== null && key !== announced) {
          const text = announce(view, lang);
          if (text) {
            live.textContent = text;
            spokenView = view;
            spokenLang = lang;
          }
        } else if (spokenView && lang !== spokenLang) {
          // The language changed: the last announcement is said again in it.
          live.textContent = announce(spokenView, lang);
          spokenLang = lang;
        }
        announced = key;
        const notice = model.get("notice");
        if (!notice || !notice.key) {
          spokenNotice = null;
          alert.textContent = "";
        } else if (notice.id !== spokenNotice) {
          spokenNotice = notice.id;
          alert.textContent = noticeText(notice, lang);
        }
        root.dataset.seq = String(model.get("clock")?.seq ?? "");
      };

      const act = (action, target) => {
        const view = model.get("view");
        if (action === "ready") {
          const join = typeof view?.join === "number" && view.join > 0 ? view.join : 0;
          if (!join) {
            send("ready");
            return;
          }
          if (joining) return;
          joining = true; // the bots join a moment later (Python says when); then the clock starts
          schedule();
          joinTimer = setTimeout(() => {
            joinTimer = null;
            send("ready");
          }, join * 1000);
        } else {
          send(action, { agree: target?.dataset?.agree === "true" });
        }
      };

      const onClick = (ev) => {
        const target = ev.target.closest("[data-action]");
        // A click with the mouse (detail > 0) gives the focus back to the table,
        // so that Space plays next, whatever button was clicked (a menu keeps it).
        if (ev.detail > 0 && !ev.target.closest("label, select")) root.focus({ preventScroll: true });
        if (!target || !root.contains(target) || target.disabled) return;
        act(target.dataset.action, target);
      };
      const onChange = (ev) => {
        // the language, the bots' tempo, the watch speed (Python checks them: a refusal is a notice)
        const role = ev.target.dataset?.role;
        const v = ev.target.value;
        if (role === "lang" ? LANGS.includes(v) : role === "tempo" || role === "speed") {
          model.set(role, role === "speed" ? Number(v) : v);
          model.save_changes();
        }
      };
      const onKey = (ev) => {
        if (passes(ev)) return; // JupyterLab's: Shift+Enter, Ctrl+Enter, Escape (see keepKeys)
        // No plain key goes on to the notebook (A, B, M, R, Y change cells there).
        if (ev.key !== "Tab") ev.stopPropagation();
        const tag = ev.target.tagName;
        if (tag === "SELECT" || tag === "INPUT") return;
        if (tag === "BUTTON" && (ev.key === " " || ev.key === "Enter")) return; // the button handles it
        const testid = KEYS[ev.key.toLowerCase()];
        if (!testid) return;
        ev.preventDefault();
        const btn = main.querySelector(`[data-testid="${testid}"]`);
        if (btn && !btn.disabled) act(btn.dataset.action, btn);
      };
      root.addEventListener("click", onClick);
      root.addEventListener("change", onChange);
      root.addEventListener("keydown", onKey);

      // Only what moves with time is updated between syncs: clock, countdowns, "now".
      const liveTimer = setInterval(() => {
        const t = levelTime();
        const lang = model.get("lang");
        showLevelTime(main, t, lang);
        for (const el2 of main.querySelectorAll('[data-live="plan"]')) {
          const left = Math.max(0, Number(el2.dataset.at) - t);
          el2.textContent = el2.textContent.replace(/\d+([.,]\d+)?/, decimal(lang, left));
        }
      }, LIVE_MS);

      // Several changes arrive together (view and clock in one sync): draw once.
      let pending = false;
      const schedule = () => {
        if (pending) return;
        pending = true;
        queueMicrotask(() => {
          pending = false;
          stale = !root.isConnected;
          if (!stale) draw();
        });
      };
      const events = ["change:view", "change:lang", "change:size", "change:notice", "change:mode"];
      for (const e of events) model.on(e, schedule);
      store.listeners.add(schedule);
      store.views += 1;
      draw();

      return () => {
        clearInterval(liveTimer);
        resized?.disconnect();
        if (joinTimer !== null) clearTimeout(joinTimer);
        for (const e of events) model.off(e, schedule);
        store.listeners.delete(schedule);
        store.views -= 1;
        root.removeEventListener("click", onClick);
        root.removeEventListener("change", onChange);
        root.removeEventListener("keydown", onKey);
        releaseKeys();
        root.remove();
      };
    },
  };
};
