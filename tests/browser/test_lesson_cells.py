"""A lesson notebook in JupyterLab 4 (issue 21, item 6): untouched, it stays unmodified;
its cells survive a stray key.

The Dutch 01-play notebook is copied as ``mindwidget lesson`` copies it (with
this installation's kernel metadata) and opened at 1280x720. Nothing is
marked modified once its kernel runs. Then a teacher's stray keys in command
mode on the game's (hidden) cell: R (make it a Raw cell), D D (delete it),
and typing into it: the cell stays a code cell with its code, since its
metadata says ``editable: false, deletable: false``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from lab import notebook_panel, wait_kernel_idle
from playwright.sync_api import Browser, expect

from mindwidget.lessons_folder import copy_lessons, kernel_metadata

ROOT = Path(__file__).resolve().parents[2]


def test_an_untouched_lesson_is_not_modified_and_its_cells_survive_stray_keys(
    chromium: Browser, lab_url: str, lab_root: Path, tmp_path: Path
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(ROOT / "notebooks" / "nl" / "01-play.ipynb", src / "01-play.ipynb")
    dest = lab_root / "cells"
    copy_lessons(src, dest, kernel=kernel_metadata())
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    context.set_default_timeout(120_000)
    try:
        page = context.new_page()
        page.goto(f"{lab_url}lab/tree/cells/01-play.ipynb?reset")
        panel = notebook_panel(page)
        wait_kernel_idle(panel)
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current")
        expect(tab).to_contain_text("01-play.ipynb")
        expect(panel.locator(".jp-Cell")).to_have_count(14)
        expect(tab).not_to_have_class(re.compile(r"\bjp-mod-dirty\b"))

        game = panel.locator(".jp-CodeCell").first
        before = panel.locator(".jp-Cell").count()
        game.locator(".jp-InputPrompt").click()  # select it, command mode
        page.keyboard.press("Escape")
        expect(game).to_have_class(re.compile(r"\bjp-mod-selected\b"))
        page.keyboard.press("r")
        page.keyboard.press("d")
        page.keyboard.press("d")
        page.keyboard.press("Enter")  # edit mode, if it could be edited
        page.keyboard.type("R")
        page.keyboard.press("Escape")
        expect(panel.locator(".jp-Cell")).to_have_count(before)
        expect(panel.locator(".jp-RawCell")).to_have_count(0)
        first = panel.locator(".jp-CodeCell").first
        source = json.loads((dest / "01-play.ipynb").read_text())["cells"][1]["source"]
        editor = first.locator(".jp-InputArea .cm-content")
        if editor.count():  # Enter showed the collapsed code: the same code, nothing typed
            expect(editor).to_have_text(source.replace("\n", ""))
        else:
            expect(first.locator(".jp-InputPlaceholder")).to_contain_text("# Code voor de docent")
        shots = Path(os.environ.get("MINDWIDGET_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "lesson-nl-01-stray-keys-1280x720.png"))
    finally:
        context.close()
