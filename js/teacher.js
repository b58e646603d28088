// The teacher's page of `mindwidget class` (/teacher?token=…): the notebook's
// dashboard (dashboard.js) through the pupil page's model shim (classmodel.js), over
// one WebSocket to /teacher/ws. The server sends the whole state first, then
// only what changed (at most a few times a second); every button's message is
// checked by Python (mindwidget/classroom/dashboard.py Board) before the class acts.
//
// The token leaves the address bar at once (the page may be on the projector)
// and is kept for this tab only, so a reload still works.
import dashboard from "./dashboard.js";
import { say } from "./dashboard_render.js";
import { makeModel } from "./classmodel.js";
import { keepOpen } from "./socket.js";

const KEY = "mindwidget-teacher";

/**
 * Download the class's data (what `room.save` writes) as a file. The token goes in a
 * header, not in a link: a link's address shows on the projector when pointed at.
 */
async function download(/** @type {string} */ token, kind = "data", lang = "") {
  // "csv": the plays for a spreadsheet, in the dashboard's language (mindwidget/classdata.py to_csv)
  const where = kind === "csv" ? `/teacher/plays.csv?lang=${encodeURIComponent(lang)}` : "/teacher/data";
  const answer = await fetch(where, { headers: { "X-Teacher-Token": token } });
  if (!answer.ok) return;
  const name = /filename="([^"]+)"/.exec(answer.headers.get("Content-Disposition") ?? "")?.[1];
  const url = URL.createObjectURL(await answer.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name ?? "mindwidget-class.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const start = () => {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || sessionStorage.getItem(KEY) || "";
  sessionStorage.setItem(KEY, token);
  history.replaceState(null, "", location.pathname);
  const el = document.getElementById("dashboard");
  if (!token) {
    el.textContent = say(document.documentElement.lang, "needs_token");
    el.dataset.testid = "needs-token";
    return;
  }
  // the server gone (a kernel restarted, the laptop asleep): said at the top, the rest greyed
  const lost = document.createElement("p");
  lost.className = "mwd-server-lost";
  lost.dataset.testid = "server-lost";
  lost.setAttribute("role", "alert");
  lost.textContent = say(document.documentElement.lang, "server_lost");
  lost.hidden = true;
  el.before(lost);
  let drawn = false;
  let socket = null;
  const model = makeModel((msg) => socket?.send(msg));
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = keepOpen(() => `${proto}//${location.host}/teacher/ws?token=${encodeURIComponent(token)}`, {
    message: (msg) => {
      if (!msg || msg.type !== "update") return;
      socket.answered();
      if (msg.state) model.apply(msg.state, true);
      if (msg.changes) model.apply(msg.changes);
      document.body.dataset.connected = "true";
      lost.hidden = true;
      if (!drawn) {
        drawn = true;
        dashboard.render({
          model,
          el,
          download: (kind = "data") => download(token, kind, model.get("settings")?.lang ?? ""),
        });
      }
    },
    closed: () => {
      document.body.dataset.connected = "false";
      lost.hidden = false;
    },
    firstMs: 1000,
    maxMs: 10000,
  });
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
