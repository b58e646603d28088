"""Every slider of the lesson has a track a hand can drag (issue 21, item 2).

The Dutch 03-probability controls (the wobble slider, the sandbox's sliders and
a bet's "our guess" slider) at 1920x1080 and at 1280x720, with JupyterLab's
file browser open (as it opens) and closed, in the dark theme: every slider
track measures at least 150 px, and no label lies over a track (the words
stand above or beside it). Screenshots go to ``$MINDWIDGET_SCREENSHOTS``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab import open_notebook, put_setting, run_cell, wait_kernel_idle, write_notebook
from playwright.sync_api import Browser, Page, expect

THEMES = "@jupyterlab/apputils-extension:themes"
CELL = """\
from IPython.display import display
from mindwidget import lesson
display(lesson.noise_slider("nl", levels=200, games=300))
display(lesson.sandbox("nl"))
answer = lesson.Answer("Zo vaak.", lang="nl")
display(lesson.Bet("Wedden? Hoe vaak?", answer, out_of=100, lang="nl"))
"""
#: Tracks, labels and their boxes, read in the page.
MEASURE = """root => {
  const box = el => { const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const sliders = [...root.querySelectorAll('.widget-hslider')];
  return {
    tracks: sliders.map(s => box(s.querySelector('.slider-container'))),
    labels: [...root.querySelectorAll('.widget-label, .mw-lesson-slider-label')]
      .filter(l => l.textContent.trim() && l.getBoundingClientRect().width > 0).map(box),
  };
}"""


@pytest.fixture
def dark(lab_url: str) -> Iterator[None]:
    put_setting(lab_url, THEMES, {"theme": "JupyterLab Dark"})
    try:
        yield
    finally:
        put_setting(lab_url, THEMES, {"theme": "JupyterLab Light"})


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - 1
        and b["x"] < a["x"] + a["w"] - 1
        and a["y"] < b["y"] + b["h"] - 1
        and b["y"] < a["y"] + a["h"] - 1
    )


@pytest.mark.parametrize(
    ("width", "height", "sidebar"),
    [(1920, 1080, True), (1280, 720, True), (1280, 720, False)],
)
def test_every_lesson_slider_has_a_track_of_150_px(
    chromium: Browser,
    lab_url: str,
    lab_root: Path,
    tmp_path: Path,
    dark: None,
    width: int,
    height: int,
    sidebar: bool,
) -> None:
    write_notebook(lab_root / "sliders.ipynb", CELL)
    context = chromium.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(120_000)
    try:
        page: Page = context.new_page()
        panel = open_notebook(page, lab_url, "sliders.ipynb")
        if not sidebar:
            panel.locator(".jp-Notebook").click(position={"x": 5, "y": 5})
            page.keyboard.press("Escape")
            page.keyboard.press("Control+b")
            expect(page.locator(".jp-FileBrowser")).to_be_hidden()
        else:
            expect(page.locator(".jp-FileBrowser")).to_be_visible()
        run_cell(page, panel, 0)
        expect(panel.locator(".widget-hslider")).to_have_count(6)  # wobble, 4 in the sandbox, bet
        expect(panel.locator(".mw-lesson-slider-label")).to_have_text(
            "Hoeveel de klok van elke speler schommelt:"
        )
        wait_kernel_idle(panel)
        found = panel.locator(".jp-CodeCell").first.evaluate(MEASURE)
        widths = [round(t["w"]) for t in found["tracks"]]
        assert len(widths) == 6 and min(widths) >= 150, widths
        for track in found["tracks"]:
            assert not any(_overlap(track, label) for label in found["labels"])
        shots = Path(os.environ.get("MINDWIDGET_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        panel.locator(".widget-hslider").first.scroll_into_view_if_needed()
        side = "sidebar" if sidebar else "nosidebar"
        page.screenshot(path=str(shots / f"lesson-nl-03-sliders-{width}x{height}-{side}.png"))
    finally:
        context.close()
