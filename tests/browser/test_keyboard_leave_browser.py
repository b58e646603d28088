"""No keyboard trap (WCAG 2.1.2): a click into a story or a game keeps the plain keys,
but Shift+Enter, Ctrl+Enter and Escape still reach JupyterLab.

After a click in a scenario story, Shift+Enter runs the story's cell and moves on
(a second one runs the next cell), Escape gives the focus back to the notebook in
command mode (where the arrow keys move between cells again). The same for the
game widget. Everything waits on what the page shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from lab import open_notebook, run_cell, tid
from playwright.sync_api import Locator, Page, expect

ACTIVE = ".jp-mod-active"
ACTIVE_INDEX = f"[...document.querySelectorAll('.jp-Cell')].findIndex(c => c.matches('{ACTIVE}'))"
STORY = (
    "from mindwidget import ScenarioPlayer, Scenario\n"
    'ScenarioPlayer(Scenario.load("mistake"), lang="nl")'
)


def active_index(panel: Locator) -> int:
    return int(panel.evaluate(f"() => {ACTIVE_INDEX}"))


def wait_active(page: Page, index: int) -> None:
    """Wait until JupyterLab's active cell is cell ``index``."""
    page.wait_for_function(f"() => {ACTIVE_INDEX} === {index}")


def wait_focus_left(page: Page, testid: str) -> None:
    """Wait until the focus is outside the board ``testid``."""
    page.wait_for_function(
        "id => !document.querySelector(`[data-testid=${id}]`).contains(document.activeElement)",
        arg=testid,
    )


def test_story_lets_shift_enter_and_escape_through(
    page: Page, lab_url: str, make_notebook: Callable[..., Path]
) -> None:
    make_notebook(
        "leave_story.ipynb",
        STORY,
        'print("volgende cel")',
        'print("nog een cel")',
    )
    panel = open_notebook(page, lab_url, "leave_story.ipynb")
    run_cell(page, panel, 0)
    board = tid(panel, "scenario")
    # the story says how to leave it
    expect(tid(board, "leave-hint")).to_contain_text("Esc")
    cells = panel.locator(".jp-CodeCell")
    story_prompt = cells.nth(0).locator(".jp-InputArea-prompt")
    expect(story_prompt).to_have_text("[1]:")

    # A click into the story, then Shift+Enter: JupyterLab runs the story's cell and
    # moves to the next; a second Shift+Enter runs that one.
    tid(board, "btn-next").click()
    expect(tid(board, "step-counter")).to_have_text(re.compile("1"))
    page.keyboard.press("Shift+Enter")
    expect(story_prompt).to_have_text("[2]:")
    expect(panel.locator(".jp-Cell" + ACTIVE)).to_have_count(1)
    wait_active(page, 1)
    page.keyboard.press("Shift+Enter")
    expect(cells.nth(1).locator(".jp-OutputArea-output")).to_contain_text("volgende cel")

    # Escape: back to the notebook in command mode; an arrow key moves between cells again.
    board = tid(panel, "scenario")
    tid(board, "btn-next").click()
    expect(panel.locator(".jp-Notebook")).to_have_class(re.compile("jp-mod-commandMode"))
    page.keyboard.press("ArrowRight")  # the story keeps a plain key: its next step
    expect(tid(board, "step-counter")).to_have_text(re.compile("2"))
    assert active_index(panel) == 0
    page.keyboard.press("Escape")
    wait_focus_left(page, "scenario")
    expect(panel.locator(".jp-Notebook")).to_have_class(re.compile("jp-mod-commandMode"))
    page.keyboard.press("ArrowDown")
    wait_active(page, 1)

    # Ctrl+Enter in the story: JupyterLab runs the active cell (the story's), it stays.
    board = tid(panel, "scenario")
    cells.nth(0).scroll_into_view_if_needed()
    tid(board, "btn-next").click()
    before = story_prompt.inner_text()
    page.keyboard.press("Control+Enter")
    expect(story_prompt).not_to_have_text(before)
    assert active_index(panel) == 0


def test_game_lets_shift_enter_and_escape_through(
    page: Page, lab_url: str, make_notebook: Callable[..., Path]
) -> None:
    make_notebook(
        "leave_game.ipynb",
        'from mindwidget import MindWidget\nMindWidget(players=2, seed=1, lang="nl")',
        'print("volgende cel")',
    )
    panel = open_notebook(page, lab_url, "leave_game.ipynb")
    run_cell(page, panel, 0)
    game = tid(panel, "mindwidget")
    expect(tid(game, "leave-hint")).to_contain_text("Esc")
    cells = panel.locator(".jp-CodeCell")
    prompt = cells.nth(0).locator(".jp-InputArea-prompt")
    expect(prompt).to_have_text("[1]:")

    tid(game, "btn-ready").click()
    expect(tid(game, "phase")).to_have_attribute("data-phase", "play")
    page.keyboard.press("Escape")
    wait_focus_left(page, "mindwidget")
    expect(panel.locator(".jp-Notebook")).to_have_class(re.compile("jp-mod-commandMode"))

    game.click(position={"x": 5, "y": 5})
    page.keyboard.press("Shift+Enter")
    expect(prompt).to_have_text("[2]:")
    wait_active(page, 1)
    page.keyboard.press("Shift+Enter")
    expect(cells.nth(1).locator(".jp-OutputArea-output")).to_contain_text("volgende cel")
