"""How fast the widget answers a click, and how much it syncs per play.

    .venv/bin/python benchmarks/widget.py [--clicks 200] [--json out.json]

Starts JupyterLab on 127.0.0.1 (empty token, its own config and runtime
dirs), opens a notebook with ``MindWidget(..., mode="step")`` in Debian's
Chromium through Playwright, and clicks through games: Ready, the lowest card,
Wait (the next bot action), Next level, New game. For each click it measures,
inside the page, the time from the click to the updated view (the widget's
root gets the new ``seq`` after it drew the new state), and it counts the
bytes of every websocket frame the page receives until the next click (all
kernel messages the click caused, Jupyter's envelopes included).

It also plays whole games without a browser (a recording comm, as in the
tests) and reports the widget's own payload per play: the JSON of the state
updates and trace messages.

Target: 95th percentile of click-to-view under 100 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("MINDWIDGET_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

CLICK_JS = """
async ([testid, timeoutMs]) => {
  const root = document.querySelector('[data-testid="mindwidget"]');
  const btn = root.querySelector(`[data-testid="${testid}"]`);
  const seq0 = root.dataset.seq;
  const t0 = performance.now();
  const done = new Promise((resolve, reject) => {
    const obs = new MutationObserver(() => {
      if (root.dataset.seq !== seq0) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(root, { attributes: true, attributeFilter: ["data-seq"] });
    const fail = () => { obs.disconnect(); reject(new Error("no update for " + testid)); };
    setTimeout(fail, timeoutMs);
  });
  btn.click();
  return await done;
}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(url: str, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "api/status", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.25)
    raise RuntimeError("JupyterLab did not start")


def put_setting(base: str, plugin: str, values: dict[str, Any]) -> None:
    body = json.dumps({"raw": json.dumps(values)}).encode()
    req = urllib.request.Request(
        f"{base}lab/api/settings/{plugin}",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    urllib.request.urlopen(req, timeout=30).close()


def write_notebook(path: Path, source: str) -> None:
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "cells": [
            {
                "cell_type": "code",
                "id": "w",
                "metadata": {},
                "execution_count": None,
                "outputs": [],
                "source": source,
            }
        ],
    }
    path.write_text(json.dumps(nb))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def browser_run(clicks: int) -> dict[str, Any]:
    from playwright.sync_api import expect, sync_playwright

    work = Path(tempfile.mkdtemp(prefix="mw-bench-"))
    root = work / "root"
    root.mkdir()
    write_notebook(
        root / "bench.ipynb",
        "from mindwidget import MindWidget\n"
        'w = MindWidget(players=3, seat=0, bots="scalar", seed=1, mode="step")\nw',
    )
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(work / "config"),
        JUPYTER_RUNTIME_DIR=str(work / "runtime"),
        IPYTHONDIR=str(work / "ipython"),
        JUPYTER_PLATFORM_DIRS="1",
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    cmd = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        "--IdentityProvider.token=", "--PasswordIdentityProvider.hashed_password=",
        f"--ServerApp.root_dir={root}", "--ServerApp.disable_check_xsrf=True",
        "--ServerApp.allow_root=True", f"--LabApp.workspaces_dir={work / 'ws'}",
        f"--LabApp.user_settings_dir={work / 'settings'}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=None",
    ]  # fmt: skip
    log = open(work / "lab.log", "wb")  # noqa: SIM115 - closed in finally
    proc = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    latencies: dict[str, list[float]] = {}
    wire: dict[str, list[int]] = {}
    received = [0]
    try:
        wait_up(base, proc)
        put_setting(
            base, "@jupyterlab/notebook-extension:tracker", {"autoStartDefaultKernel": True}
        )
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            page.on(
                "websocket",
                lambda ws: ws.on(
                    "framereceived",
                    lambda payload: received.__setitem__(0, received[0] + len(payload)),
                ),
            )
            page.goto(f"{base}lab/tree/bench.ipynb?reset")
            panel = page.locator(".jp-NotebookPanel")
            expect(panel.locator(".jp-KernelName")).to_contain_text("Python")
            expect(panel.locator(".jp-Notebook-ExecutionIndicator")).to_have_attribute(
                "data-status", "idle"
            )
            panel.locator(".jp-CodeCell .cm-content").first.click()
            page.keyboard.press("Shift+Enter")
            widget = page.locator('[data-testid="mindwidget"]')
            expect(widget.locator('[data-testid="phase"]')).to_be_visible()
            for _ in range(clicks):
                phase = widget.locator('[data-testid="phase"]').get_attribute("data-phase")
                if phase == "ready":
                    testid = "btn-ready"
                elif phase == "play":
                    mine = widget.locator('[data-testid="lowest-card"]').count() > 0
                    bots = any(
                        widget.locator(f'[data-testid="count-{p}"]').inner_text()
                        not in ("no cards",)
                        for p in (1, 2)
                    )
                    # every third time the person plays; else the next bot action
                    testid = "lowest-card" if mine and (_coin() or not bots) else "btn-wait"
                elif phase == "cleared":
                    testid = "btn-next-level"
                elif phase in ("won", "lost"):
                    testid = "btn-new-game"
                else:
                    raise RuntimeError(f"unexpected phase {phase}")
                before = received[0]
                ms = float(page.evaluate(CLICK_JS, [testid, 10_000]))
                # let the rest of what this click caused arrive (kernel idle)
                expect(panel.locator(".jp-Notebook-ExecutionIndicator")).to_have_attribute(
                    "data-status", "idle"
                )
                latencies.setdefault(testid, []).append(ms)
                wire.setdefault(testid, []).append(received[0] - before)
            browser.close()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    every = [v for vs in latencies.values() for v in vs]
    plays = latencies.get("lowest-card", []) + latencies.get("btn-wait", [])
    play_bytes = wire.get("lowest-card", []) + wire.get("btn-wait", [])
    return {
        "clicks": len(every),
        "click_to_view_ms": {
            "median": round(statistics.median(every), 1),
            "p95": round(pct(every, 0.95), 1),
            "max": round(max(every), 1),
        },
        "play_click_to_view_ms": {
            "median": round(statistics.median(plays), 1),
            "p95": round(pct(plays, 0.95), 1),
        },
        "by_control": {
            k: {
                "n": len(v),
                "median": round(statistics.median(v), 1),
                "p95": round(pct(v, 0.95), 1),
            }
            for k, v in sorted(latencies.items())
        },
        "wire_bytes_per_play": {
            "median": int(statistics.median(play_bytes)),
            "p95": int(pct([float(b) for b in play_bytes], 0.95)),
        },
    }


_coin_state = [0]


def _coin() -> bool:
    """Alternate: every third play-phase click is the person's card."""
    _coin_state[0] += 1
    return _coin_state[0] % 3 == 0


def payload_run(games: int = 20) -> dict[str, Any]:
    """The widget's own payload per play (state updates + trace messages), no browser."""
    import comm

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from widget_harness import Browser, RecordingComm

    from mindwidget import MindWidget

    comm.create_comm = RecordingComm
    sizes: list[int] = []
    for seed in range(games):
        w = MindWidget(players=3, seat=None, bots="scalar", seed=seed)
        b = Browser(w)
        while w.game.status in ("playing", "level_cleared"):
            if w.game.status == "level_cleared":
                b.send({"type": "next_level"})
            b.act("ready")
            while True:
                n = len(b.comm.sent)
                if not b.run_clock():
                    break
                sizes.append(sum(len(json.dumps(e["data"])) for e in b.comm.sent[n:]))
    return {
        "plays": len(sizes),
        "payload_bytes_per_play": {
            "median": int(statistics.median(sizes)),
            "p95": int(pct([float(s) for s in sizes], 0.95)),
            "max": max(sizes),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args()
    bundle = Path(__file__).resolve().parents[1] / "mindwidget" / "static" / "widget.js"
    result: dict[str, Any] = {"bundle_bytes": bundle.stat().st_size if bundle.exists() else None}
    result.update(payload_run())
    result.update(browser_run(args.clicks))
    result["target_met"] = result["click_to_view_ms"]["p95"] < 100
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
