"""The Dutch rules notebook on a 1280x720 projector, as a teacher runs it.

Open ``notebooks/nl/02-rules.ipynb`` in JupyterLab, Run All, and step the first
scenario with the arrow keys. No code may be visible above the first scenario
(the helper cells are collapsed, ``source_hidden``), the board speaks Dutch,
and a bet's answer in 03 stays hidden until "Toon het antwoord" is pressed.
Screenshots go to ``$MINDWIDGET_SCREENSHOTS`` (default: the test's tmp dir).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab import notebook_panel, open_notebook, put_setting, tid, wait_kernel_idle
from playwright.sync_api import Browser, Locator, Page, expect

ROOT = Path(__file__).resolve().parents[2]
VIEWPORT = {"width": 1280, "height": 720}


@pytest.fixture
def projector(chromium: Browser, lab_url: str) -> Iterator[Page]:
    """A 1280x720 page; every cell rendered (no windowing), so positions can be compared."""
    tracker = "@jupyterlab/notebook-extension:tracker"
    put_setting(lab_url, tracker, {"autoStartDefaultKernel": True, "windowingMode": "none"})
    context = chromium.new_context(viewport=VIEWPORT)
    context.set_default_timeout(60_000)
    try:
        yield context.new_page()
    finally:
        context.close()
        put_setting(lab_url, tracker, {"autoStartDefaultKernel": True})


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("MINDWIDGET_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _open(page: Page, lab_url: str, name: str) -> Locator:
    """Open a notebook with the file browser closed, as on a projector."""
    panel = open_notebook(page, lab_url, name)
    panel.locator(".jp-Notebook").click(position={"x": 5, "y": 5})  # command mode
    page.keyboard.press("Escape")
    page.keyboard.press("Control+b")  # JupyterLab: hide the left sidebar
    expect(page.locator(".jp-FileBrowser")).to_be_hidden()
    return panel


def _top(panel: Locator) -> None:
    panel.locator(".jp-WindowedPanel-outer").evaluate("el => { el.scrollTop = 0; }")


def _run_all(page: Page, panel: Locator) -> None:
    """Run → Run All Cells, then wait until every code cell has run."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    prompts = panel.locator(".jp-CodeCell .jp-InputArea-prompt")
    n = prompts.count()
    for i in range(n):
        expect(prompts.nth(i)).to_have_text(re.compile(r"\[\d+\]:"), timeout=180_000)
    wait_kernel_idle(panel)


def test_dutch_rules_on_a_projector(
    projector: Page, lab_url: str, lab_root: Path, tmp_path: Path
) -> None:
    page = projector
    shots = _shots(tmp_path)
    (lab_root / "nl").mkdir(exist_ok=True)
    shutil.copy(ROOT / "notebooks" / "nl" / "02-rules.ipynb", lab_root / "nl" / "02-rules.ipynb")
    panel = _open(page, lab_url, "nl/02-rules.ipynb")
    _run_all(page, panel)
    _top(panel)
    page.screenshot(path=str(shots / "lesson-nl-02-top.png"))

    boards = tid(panel, "scenario")
    first = boards.first
    expect(first).to_be_visible()
    expect(tid(first, "step-counter")).to_have_text(re.compile(r"^Begin \(\d+ stappen\)$"))
    # Dutch all over: the setting-up table above it and the board's buttons.
    expect(
        panel.get_by_text("Beloningen voor het halen van een level (volgens de levelkaarten):")
    ).to_be_visible()
    expect(tid(first, "btn-next")).to_have_text("Volgende")
    expect(first).to_have_class(re.compile(r"\bmw-projector\b"))  # big text on the projector

    # No code above the first scenario: every code cell before it is collapsed.
    board_top = first.bounding_box()
    assert board_top is not None
    cells = panel.locator(".jp-CodeCell")
    above = 0
    for i in range(cells.count()):
        cell = cells.nth(i)
        box = cell.bounding_box()
        if box is None or box["y"] >= board_top["y"]:
            break
        above += 1
        expect(cell.locator(".jp-InputArea .cm-editor")).to_have_count(0)
        placeholder = cell.locator(".jp-InputPlaceholder")
        expect(placeholder).to_contain_text("# Code voor de docent")
    assert above >= 1  # the set-up table's cell, at least, comes first
    first.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(shots / "lesson-nl-02-first-scenario.png"))

    # Step with the keys: click into the board, then the right arrow.
    tid(first, "step-counter").click()
    page.keyboard.press("ArrowRight")
    expect(tid(first, "step-counter")).to_have_text(re.compile(r"^Stap 1 van \d+$"))
    page.keyboard.press("ArrowRight")
    expect(tid(first, "step-counter")).to_have_text(re.compile(r"^Stap 2 van \d+$"))
    expect(tid(first, "narration")).to_contain_text("Regel:")
    page.keyboard.press("ArrowLeft")
    expect(tid(first, "step-counter")).to_have_text(re.compile(r"^Stap 1 van \d+$"))
    page.screenshot(path=str(shots / "lesson-nl-02-step.png"))

    # The mistake (section 4), stepped to the mistake itself.
    mistake = boards.nth(3)
    mistake.evaluate("el => el.scrollIntoView({block: 'start'})")
    tid(mistake, "step-counter").click()
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(tid(mistake, "step-counter")).to_have_text(re.compile(rf"^Stap {k} van \d+$"))
    expect(tid(mistake, "narration")).to_contain_text("34")
    # The important moment on one screen, even a 1280x720 one: with the section
    # scrolled to, its story, every hand, the 34 on the pile and the cards put
    # aside are in view (the story beside the table; stacked above it, the
    # story pushed the pile below the fold).
    page.set_viewport_size({"width": 1280, "height": 720})
    heading = panel.get_by_role("heading", name="4. De fout")
    heading.evaluate("el => el.scrollIntoView({block: 'start'})")
    shown = panel.locator(".jp-Notebook").bounding_box()
    assert shown is not None
    bottom = shown["y"] + shown["height"]
    parts = ("narration", "hand-0", "hand-2", "pile-top", "discards")
    for part in (tid(mistake, name) for name in parts):
        box = part.bounding_box()
        assert box is not None and box["y"] >= shown["y"] and box["y"] + box["height"] <= bottom, (
            box,
            bottom,
        )
    page.screenshot(path=str(shots / "lesson-nl-02-mistake.png"))


def test_a_bet_shows_its_answer_only_when_asked(
    projector: Page, lab_url: str, lab_root: Path, tmp_path: Path
) -> None:
    page = projector
    shots = _shots(tmp_path)
    (lab_root / "nl").mkdir(exist_ok=True)
    src = ROOT / "notebooks" / "nl" / "03-probability.ipynb"
    shutil.copy(src, lab_root / "nl" / "03-probability.ipynb")
    panel = _open(page, lab_url, "nl/03-probability.ipynb")
    _run_all(page, panel)
    _top(panel)
    bet = panel.locator(".mw-lesson-bet").first
    answer = bet.locator(".mw-lesson-answer")
    expect(bet).to_be_visible()
    expect(answer).to_be_hidden()  # Run All prepared it, nobody asked yet
    # Projector-sized controls: the Yes/No buttons as large as the question.
    expect(bet.locator(".widget-toggle-button").first).to_have_css("font-size", "22px")
    bet.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(shots / "lesson-nl-03-bet.png"))
    bet.get_by_role("button", name="Toon het antwoord").click()
    expect(answer).to_be_visible()
    expect(answer).to_contain_text("level 10")
    expect(bet.get_by_role("button", name="Verberg het antwoord")).to_be_visible()
    page.screenshot(path=str(shots / "lesson-nl-03-answer.png"))
    assert notebook_panel(page).count() == 1


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_the_rules_card_prints_on_one_a4_page(chromium: Browser, lang: str, tmp_path: Path) -> None:
    """docs/rules-card/<lang>.html printed by Chromium: exactly one A4 page; a PNG to look at."""
    context = chromium.new_context(viewport={"width": 794, "height": 1123})  # A4 at 96 dpi
    try:
        page = context.new_page()
        page.goto((ROOT / "docs" / "rules-card" / f"{lang}.html").as_uri())
        page.emulate_media(media="print")
        page.screenshot(path=str(_shots(tmp_path) / f"rules-card-{lang}.png"), full_page=True)
        pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
    finally:
        context.close()
