"""ScenarioPlayer in JupyterLab, driven through headless Chromium like a person would.

Step through the "mistake" scenario with the buttons and the arrow keys, take
over from a step and play one card in the live game. Everything waits on what
the page shows (Playwright's auto-wait), never on sleeps.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lab import open_notebook, run_cell, tid
from playwright.sync_api import Page, expect


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
    expect(counter).to_have_text("Start (6 steps)")
    expect(story).to_contain_text("Three players, level 2.")
    expect(tid(board, "hand-2")).to_have_attribute("data-cards", "34 58")  # every hand shows
    expect(tid(board, "btn-back")).to_be_disabled()

    # Next (a click): the first step, its narration and the rule behind it, read aloud.
    tid(board, "btn-next").click()
    expect(counter).to_have_text("Step 1 of 6")
    expect(story).to_contain_text("Hands on the table, then off together: level 2 begins.")
    expect(tid(board, "rule")).to_contain_text("Every level starts with a moment of concentration")
    expect(tid(board, "scenario-live")).to_contain_text("Step 1 of 6.")
    expect(tid(board, "btn-next")).to_be_focused()  # the focus stays on the button

    # Right arrow: Next. Player 1 plays 11; the pile and the trace show it.
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("Step 2 of 6")
    expect(story).to_contain_text("Player 1 plays 11.")
    expect(tid(board, "pile-top")).to_have_attribute("data-card", "11")
    expect(board.locator('[data-kind="play"][data-card="11"]')).to_have_count(1)
    expect(tid(board, "scenario-live")).to_contain_text("Player 1 plays 11.")
    gallery = Path(__file__).resolve().parents[2] / "docs" / "gallery"
    gallery.mkdir(parents=True, exist_ok=True)
    board.screenshot(path=str(gallery / "scenario-step.png"))

    # Back (the left arrow): the 11 is in player 1's hand again.
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text("Step 1 of 6")
    expect(tid(board, "pile-top")).to_have_attribute("data-card", "")
    expect(tid(board, "hand-0")).to_have_attribute("data-cards", "11 26")
    expect(board.locator('[data-kind="play"]')).to_have_count(0)

    # Take over from here: a live game at this step, the person in seat 0.
    tid(board, "btn-take-over").click()
    expect(tid(board, "live-info")).to_contain_text("You took over at step 1 of 6")
    live = tid(panel, "mindwidget")
    # The live game waits for Ready (hands on the table); one language menu shows.
    expect(tid(live, "phase")).to_have_attribute("data-phase", "stopped")
    expect(panel.locator('select[data-role="lang"]')).to_have_count(1)
    tid(live, "btn-ready").click()
    expect(tid(live, "phase")).to_have_attribute("data-phase", "play")
    expect(tid(live, "lowest-card")).to_have_attribute("data-card", "11")
    tid(live, "lowest-card").click()
    expect(tid(live, "pile-top")).to_have_attribute("data-card", "11")
    expect(live.locator('[data-kind="play"][data-card="11"]')).to_have_count(1)

    # p.lang from a cell re-labels the board and the live game at once.
    run_cell(page, panel, 1)
    expect(tid(board, "btn-leave")).to_have_text("Zurück zum Szenario")
    expect(tid(live, "btn-star").locator(".mw-btn-label")).to_have_text("Wurfstern")

    # Back to the scenario, at the step it was taken over from.
    tid(board, "btn-leave").click()
    expect(tid(panel, "mindwidget")).to_have_count(0)
    expect(counter).to_have_text("Schritt 1 von 6")
    expect(tid(board, "pile-top")).to_have_attribute("data-card", "")
