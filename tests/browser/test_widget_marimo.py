"""MindWidget in marimo: no kernel-side timers there, so the browser's clock must do it all.

Starts ``marimo run`` on 127.0.0.1 with a one-cell app, plays level 1 of seed 1
in Chromium, and waits for the bots to clear it in real time.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab import free_port
from playwright.sync_api import Page, expect

APP = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    from mindwidget import MindWidget

    w = mo.ui.anywidget(MindWidget(players=3, seat=0, bots="adaptive", seed=1))
    w
    return (w,)
"""


@pytest.fixture
def marimo_url(tmp_path: Path) -> Iterator[str]:
    app = tmp_path / "play.py"
    app.write_text(APP)
    port = free_port()
    log = tmp_path / "marimo.log"
    cmd = [
        sys.executable, "-m", "marimo", "run", str(app), "--headless",
        "--host", "127.0.0.1", "--port", str(port), "--no-token",
    ]  # fmt: skip
    env = dict(os.environ, MARIMO_SKIP_UPDATE_CHECK="1")
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"marimo did not start:\n{log.read_text(errors='replace')}")
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=0.25)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def test_marimo_plays_a_level_in_real_time(page: Page, marimo_url: str) -> None:
    page.goto(marimo_url)
    w = page.locator('[data-testid="mindwidget"]')
    phase = w.locator('[data-testid="phase"]')
    expect(phase).to_have_attribute("data-phase", "ready")
    w.locator('[data-testid="btn-ready"]').click()
    expect(phase).to_have_attribute("data-phase", "play")
    w.locator('[data-testid="lowest-card"]').click()
    expect(w.locator('[data-testid="pile-top"]')).to_have_attribute("data-card", "18")
    w.locator('[data-testid="btn-stop"]').click()
    expect(phase).to_have_attribute("data-phase", "stopped")
    expect(w.locator('rect[data-kind="stop"]')).to_have_count(1)
    w.locator('[data-testid="btn-ready"]').click()
    # The bots (73 and 98) play at their own pace: the level clears with no cell running.
    expect(phase).to_have_attribute("data-phase", "cleared", timeout=90_000)
    expect(w.locator('[data-kind="play"]')).to_have_count(3)
