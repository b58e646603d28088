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
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab import notebook_panel, wait_kernel_idle
from playwright.sync_api import Browser, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from serving import HTTP_ERRORS, free_port, jupyter_env, server_process, with_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
THEME = '{"theme": "JupyterLab Dark"}\n'


@pytest.fixture
def lesson_lab(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """``mindwidget lesson --lang nl FOLDER --no-browser --port N``; yields (URL with
    token, the folder, the teacher's theme settings file)."""
    port = free_port()
    # the teacher's own JupyterLab settings: the dark theme
    user = tmp_path / "teacher-settings"
    theme = user / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    theme.parent.mkdir(parents=True)
    theme.write_text(THEME)
    env = jupyter_env(
        tmp_path / "jupyter",
        allow_root=True,
        JUPYTERLAB_SETTINGS_DIR=str(user),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "teacher-workspaces"),
    )
    folder = tmp_path / "klas"
    cmd = [sys.executable, "-m", "mindwidget.cli", "lesson", "--lang", "nl", str(folder)]
    cmd += ["--no-browser", "--port", str(port)]
    log = tmp_path / "lab.log"

    def url() -> str | None:
        found = re.search(rf"http://127\.0\.0\.1:{port}/lab\?token=\w+", log.read_text())
        return found.group(0) if found else None

    def up() -> bool:
        # the URL with its token is in the log and opens (an error status is not up)
        found = url()
        if found is None:
            return False
        with contextlib.suppress(*HTTP_ERRORS), urllib.request.urlopen(found, timeout=2):
            return True
        return False

    with server_process(cmd, log, up=up, what="JupyterLab", timeout=180, env=with_path(env, ROOT)):
        yield str(url()), folder, theme


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
