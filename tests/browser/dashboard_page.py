"""The teacher's dashboard on a plain page, without JupyterLab: for screenshots.

`write_page` puts the built bundle (mindwidget/static/dashboard.{js,css}) and
a `Board`'s state into a folder with a small model shim (get, on, off, send):
what a browser shows of one state. Messages the page sends are kept in
``window.sent``. Serve the folder over HTTP (ES modules do not load from file://).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "mindwidget" / "static"

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>dashboard</title>
<link rel="stylesheet" href="dashboard.css">
<style>body {{ margin: 0; }}</style></head>
<body><div id="host"></div>
<script type="module">
import widget from "./dashboard.js";
const state = await (await fetch("state.json")).json();
const handlers = {{}};
window.sent = [];
const model = {{
  get: (k) => state[k],
  on: (ev, fn) => ((handlers[ev] ||= []).push(fn)),
  off: () => {{}},
  send: (m) => window.sent.push(m),
}};
window.setState = (next) => {{
  for (const [k, v] of Object.entries(next)) {{
    state[k] = v;
    (handlers["change:" + k] || []).forEach((f) => f());
  }}
}};
widget.render({{ model, el: document.getElementById("host") }});
document.body.dataset.ready = "1";
</script></body></html>
"""


def write_page(folder: Path, state: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("dashboard.js", "dashboard.css"):
        shutil.copy(STATIC / name, folder / name)
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    lang = state.get("settings", {}).get("lang", "en")
    (folder / "index.html").write_text(PAGE.format(lang=lang), encoding="utf-8")
    return folder / "index.html"
