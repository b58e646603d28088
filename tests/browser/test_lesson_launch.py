"""``mindwidget lesson --lang nl`` as a teacher starts it (issue 21, items 4 and 6).

The command copies the Dutch lesson and starts JupyterLab; Chromium at 1280x720
opens what it serves. JupyterLab speaks Dutch (its language pack, set for this
folder only), the first notebook is open with the file browser closed, and
the teacher's own settings (here: the dark theme) still hold and are not
changed on disk. The notebook opened untouched is not marked modified.
Screenshots go to ``$MINDWIDGET_SCREENSHOTS``.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab import notebook_panel, wait_kernel_idle
from playwright.sync_api import Browser, expect

ROOT = Path(__file__).resolve().parents[2]
THEME = '{"theme": "JupyterLab Dark"}\n'


@pytest.fixture
def lesson_lab(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """``mindwidget lesson --lang nl FOLDER --no-browser --port N``; yields (URL with
    token, the folder, the teacher's theme settings file)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ)
    for name in ("CONFIG", "DATA", "RUNTIME"):
        env[f"JUPYTER_{name}_DIR"] = str(tmp_path / "jupyter" / name.lower())
    config = tmp_path / "jupyter" / "config"
    config.mkdir(parents=True)
    (config / "jupyter_server_config.json").write_text('{"ServerApp": {"allow_root": true}}')
    # the teacher's own JupyterLab settings: the dark theme
    user = tmp_path / "teacher-settings"
    theme = user / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    theme.parent.mkdir(parents=True)
    theme.write_text(THEME)
    env["JUPYTERLAB_SETTINGS_DIR"] = str(user)
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp_path / "teacher-workspaces")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    folder = tmp_path / "klas"
    cmd = [sys.executable, "-m", "mindwidget.cli", "lesson", "--lang", "nl", str(folder)]
    cmd += ["--no-browser", "--port", str(port)]
    log = tmp_path / "lab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 180
        while True:
            found = re.search(rf"http://127\.0\.0\.1:{port}/lab\?token=\w+", log.read_text())
            if found:
                errors = (urllib.error.URLError, ConnectionError, TimeoutError)
                with (
                    contextlib.suppress(*errors),
                    urllib.request.urlopen(found.group(0), timeout=2),
                ):
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not start:\n{log.read_text(errors='replace')}")
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.25)
        yield found.group(0), folder, theme
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def test_the_dutch_lesson_opens_in_dutch_with_the_file_browser_closed(
    chromium: Browser, lesson_lab: tuple[str, Path, Path], tmp_path: Path
) -> None:
    url, folder, theme = lesson_lab
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    context.set_default_timeout(120_000)
    try:
        page = context.new_page()
        page.goto(url)
        panel = notebook_panel(page)
        wait_kernel_idle(panel)
        expect(page.locator(".lm-MenuBar-itemLabel").first).to_have_text("Bestand")
        expect(page.locator(".jp-FileBrowser")).to_be_hidden()
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current")
        expect(tab).to_contain_text("01-play.ipynb")
        expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "false")
        shots = Path(os.environ.get("MINDWIDGET_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "lesson-nl-launch-1280x720.png"))
        # nobody touched it: not marked modified
        expect(tab).not_to_have_class(re.compile(r"\bjp-mod-dirty\b"))
    finally:
        context.close()
    assert theme.read_text() == THEME  # the teacher's own settings: not changed
    assert sorted(p.name for p in theme.parent.parent.parent.rglob("*") if p.is_file()) == [
        "themes.jupyterlab-settings"
    ]
    assert (folder / ".mindwidget-lab" / "settings" / "overrides.json").exists()
