"""ScenarioPlayer in JupyterLab, driven through headless Chromium like a person would.

Step through the "mistake" scenario with the buttons and the arrow keys, take
over from a step and play one card in the live game. Everything waits on what
the page shows (Playwright's auto-wait), never on sleeps.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect


@pytest.fixture(scope="module", autouse=True)
def start_kernels_without_asking(lab_url: str) -> None:
    """JupyterLab may ask which kernel to start; this setting makes it start the preferred one."""
    body = json.dumps({"raw": json.dumps({"autoStartDefaultKernel": True})}).encode()
    req = urllib.request.Request(
        f"{lab_url}lab/api/settings/@jupyterlab/notebook-extension:tracker",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        assert resp.status in (200, 204)


def open_notebook(page: Page, lab_url: str, name: str) -> Locator:
    """Open a notebook and wait until its kernel is connected and idle.

    The execution indicator says "idle" for a moment while the notebook still
    has no kernel; a cell run then is skipped silently. So first wait for the
    kernel's name, then for idle (after initializing, connecting, busy).
    """
    page.goto(f"{lab_url}lab/tree/{name}?reset")
    panel = page.locator(".jp-NotebookPanel").filter(has=page.locator(".jp-Notebook"))
    expect(panel.locator(".jp-KernelName")).to_have_text(re.compile(r"Python"))
    expect(panel.locator(".jp-Notebook-ExecutionIndicator")).to_have_attribute(
        "data-status", "idle"
    )
    return panel


def run_cell(page: Page, panel: Locator, index: int) -> None:
    panel.locator(".jp-CodeCell").nth(index).locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")


def tid(scope: Locator, testid: str) -> Locator:
    return scope.locator(f'[data-testid="{testid}"]')


def test_step_back_take_over_and_play(
    page: Page, lab_url: str, make_notebook: Callable[..., Path]
) -> None:
    make_notebook(
        "scenario.ipynb",
        "from mindwidget import ScenarioPlayer, Scenario\n"
        'p = ScenarioPlayer(Scenario.load("mistake"))\n'
        "p",
        'p.lang = "de"',
    )
    panel = open_notebook(page, lab_url, "scenario.ipynb")
    run_cell(page, panel, 0)
    board = tid(panel, "scenario")
    counter = tid(board, "step-counter")
    story = tid(board, "narration")
    expect(counter).to_have_text("Start (7 steps)")
    expect(story).to_contain_text("Three players, level 2.")
    expect(tid(board, "hand-2")).to_have_attribute("data-cards", "34 58")  # every hand shows
    expect(tid(board, "btn-back")).to_be_disabled()

    # Next (a click): the first step, its narration and the rule behind it, read aloud.
    tid(board, "btn-next").click()
    expect(counter).to_have_text("Step 1 of 7")
    expect(story).to_contain_text("Hands on the table, then off together: level 2 begins.")
    expect(tid(board, "rule")).to_contain_text("every level starts with a moment of concentration")
    expect(tid(board, "scenario-live")).to_contain_text("Step 1 of 7.")
    expect(tid(board, "btn-next")).to_be_focused()  # the focus stays on the button

    # Right arrow: Next. Player 0 plays 11; the pile and the trace show it.
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("Step 2 of 7")
    expect(story).to_contain_text("Player 0 plays 11.")
    expect(tid(board, "pile-top")).to_have_attribute("data-card", "11")
    expect(board.locator('[data-kind="play"][data-card="11"]')).to_have_count(1)
    expect(tid(board, "scenario-live")).to_contain_text("Player 0 plays 11.")

    # Back (the left arrow): the 11 is in player 0's hand again.
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text("Step 1 of 7")
    expect(tid(board, "pile-top")).to_have_attribute("data-card", "")
    expect(tid(board, "hand-0")).to_have_attribute("data-cards", "11 26")
    expect(board.locator('[data-kind="play"]')).to_have_count(0)

    # Take over from here: a live game at this step, the person in seat 0.
    tid(board, "btn-take-over").click()
    expect(tid(board, "live-info")).to_contain_text("You took over at step 1 of 7")
    live = tid(panel, "mindwidget")
    expect(tid(live, "phase")).to_have_attribute("data-phase", "play")
    expect(tid(live, "lowest-card")).to_have_attribute("data-card", "11")
    tid(live, "lowest-card").click()
    expect(tid(live, "pile-top")).to_have_attribute("data-card", "11")
    expect(live.locator('[data-kind="play"][data-card="11"]')).to_have_count(1)

    # p.lang from a cell re-labels the board and the live game at once.
    run_cell(page, panel, 1)
    expect(tid(board, "btn-leave")).to_have_text("Zurück zum Szenario")
    expect(tid(live, "btn-star")).to_have_text("Wurfstern")

    # Back to the scenario, at the step it was taken over from.
    tid(board, "btn-leave").click()
    expect(tid(panel, "mindwidget")).to_have_count(0)
    expect(counter).to_have_text("Schritt 1 von 7")
    expect(tid(board, "pile-top")).to_have_attribute("data-card", "")
