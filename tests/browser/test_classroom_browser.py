"""The classroom table in JupyterLab and Chromium: layout, the mistake, keys, endings.

Each test sets up its deal with `Game.from_hands`, so what happens is known in
advance; step mode (bots act on Wait) where the order matters, real time where
the time matters. The tests also save the gallery of key moments to
docs/gallery/ (the README and the documentation site show them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PW_TIMEOUT_MS
from lab import notebook_panel, open_notebook, put_setting, run_cell, tid, write_notebook
from playwright.sync_api import Browser, Locator, Page, expect

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"

HEAD = "from mindwidget import Game, MindWidget\n"
BOXES = ["hand", "pile", "pile-top", "btn-ready", "btn-play", "btn-stop", "btn-star", "btn-wait"]


@pytest.fixture
def hd_page(chromium: Browser) -> Iterator[Page]:
    """A page at projector resolution, 1920x1080."""
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(PW_TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def shot(target: Page | Locator, name: str, in_flight: bool = False) -> None:
    """Save a gallery picture (docs/gallery/<name>.png): the moment after every
    animation has ended, or (``in_flight``) the moment as it is."""
    GALLERY.mkdir(parents=True, exist_ok=True)
    animations = "allow" if in_flight else "disabled"
    target.screenshot(path=str(GALLERY / f"{name}.png"), animations=animations)


def widget_in(page: Page, lab_url: str, lab_root: Path, name: str, *cells: str) -> Locator:
    """Open a notebook with these cells, run the first; its widget, scrolled to the top."""
    if page.viewport_size and page.viewport_size["width"] < 1920:
        page.set_viewport_size({"width": 1400, "height": 1150})  # room for a whole widget
    write_notebook(lab_root / name, *cells)
    panel = open_notebook(page, lab_url, name)
    run_cell(page, panel, 0)
    w = tid(panel, "mindwidget").first
    expect(tid(w, "phase")).to_be_visible()
    return w


def to_top(w: Locator) -> None:
    w.evaluate("el => el.scrollIntoView({block: 'start'})")


def boxes(w: Locator) -> dict[str, Any]:
    return {k: tid(w, k).bounding_box() for k in BOXES}


def inside(page: Page, w: Locator) -> None:
    """The whole widget, trace included, lies inside the viewport."""
    to_top(w)
    box = w.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"], (box, size)
    assert box["y"] + box["height"] <= size["height"], (box, size)
    trace = tid(w, "trace").bounding_box()
    assert trace is not None and trace["y"] + trace["height"] <= size["height"], (trace, size)


def trace_text_px(w: Locator) -> tuple[float, float]:
    """The trace's tick labels as drawn (px), and the table's small text (px)."""
    sizes: list[float] = w.evaluate(
        "el => { const svg = el.querySelector('[data-testid=\"trace\"]');"
        " const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
        " const t = parseFloat(getComputedStyle(svg.querySelector('text')).fontSize) * k;"
        " const s = parseFloat(getComputedStyle(el.querySelector('.mw-label')).fontSize);"
        " return [t, s]; }"
    )
    return sizes[0], sizes[1]


def overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_projector_fits_and_nothing_moves(hd_page: Page, lab_url: str, lab_root: Path) -> None:
    page = hd_page
    w = widget_in(
        page,
        lab_url,
        lab_root,
        "projector.ipynb",
        HEAD + "g = Game.from_hands([[10, 20, 30], [15, 25, 35], [40, 50, 60]], seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="perfect", mode="step", size="projector")\n'
        "w",
    )
    phase = tid(w, "phase")
    expect(phase).to_have_attribute("data-phase", "ready")
    inside(page, w)
    shot(page, "start-projector-1080")
    tid(w, "btn-ready").click()
    expect(phase).to_have_attribute("data-phase", "play")
    before = boxes(w)
    # Five cards: 10 (Space), 15 (Wait), 20 (Space), 25 (W), 30 (Space).
    page.keyboard.press("Space")
    expect(tid(w, "pile-top")).to_have_attribute("data-card", "10")
    tid(w, "btn-wait").click()
    expect(tid(w, "pile-top")).to_have_attribute("data-card", "15")
    page.keyboard.press("Space")
    expect(tid(w, "pile-top")).to_have_attribute("data-card", "20")
    page.keyboard.press("w")
    expect(tid(w, "pile-top")).to_have_attribute("data-card", "25")
    # A play in flight: the card slides from the hand to the pile (slowed down
    # twentyfold through the DevTools protocol, then paused halfway).
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})
    page.keyboard.press("Space")
    expect(tid(w, "pile-top")).to_have_attribute("data-card", "30")
    moving = w.evaluate(
        "el => { const a = el.ownerDocument.getAnimations()"
        ".filter(a => a.effect && el.contains(a.effect.target)"
        " && a.effect.target.dataset.testid === 'pile-top');"
        " a.forEach(x => { x.pause(); x.currentTime = 60; }); return a.length; }"
    )
    shot(w, "play-in-flight", in_flight=True)
    w.evaluate("el => el.ownerDocument.getAnimations().forEach(a => a.finish())")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
    assert moving == 1, "the played card should slide to the pile"
    assert int(w.get_attribute("data-moved") or 0) >= 1
    after = boxes(w)
    for key in BOXES:
        b0, b1 = before[key], after[key]
        assert b0 is not None and b1 is not None, key
        moved = max(abs(b0[k] - b1[k]) for k in ("x", "y", "width", "height"))
        assert moved < 1, f"{key} moved by {moved:.1f} px: {b0} -> {b1}"
    inside(page, w)
    shot(page, "projector-1080")
    text, small = trace_text_px(w)
    assert text >= small - 0.5, f"trace text {text:.1f} px, the table's small text {small:.1f} px"
    page.set_viewport_size({"width": 1280, "height": 720})
    inside(page, w)
    shot(page, "projector-720")
    text, small = trace_text_px(w)
    assert text >= small - 0.5, f"trace text {text:.1f} px, the table's small text {small:.1f} px"


def test_mistake_stays_until_ready(page: Page, lab_url: str, lab_root: Path) -> None:
    """The person plays 30 while Bot 2 holds 10: the table stops and explains."""
    w = widget_in(
        page,
        lab_url,
        lab_root,
        "mistake.ipynb",
        HEAD + "g = Game.from_hands([[30, 90], [10, 95], [32, 99]], seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="perfect")\n'
        "w",
    )
    phase = tid(w, "phase")
    tid(w, "btn-ready").click()
    expect(phase).to_have_attribute("data-phase", "play")
    page.keyboard.press("Space")
    mistake = tid(w, "mistake")
    expect(mistake).to_contain_text("You played 30, but lower cards were still held.")
    expect(tid(w, "lives")).to_have_attribute("data-count", "2")
    to_top(w)
    # Once shown, the panel stays put: it neither shifts nor grows while the
    # table is drawn again (the stop, the trace) in the second after the mistake.
    first = mistake.bounding_box()
    page.wait_for_timeout(1000)
    then = mistake.bounding_box()
    assert first is not None and then is not None
    moved = max(abs(first[k] - then[k]) for k in ("x", "y", "width", "height"))
    assert moved < 0.5, f"the mistake panel moved by {moved:.1f} px: {first} -> {then}"
    shot(w, "mistake")
    # Normal size in a notebook cell of 900 px or less: nothing sticks out.
    page.set_viewport_size({"width": 1180, "height": 1150})
    box = w.bounding_box()
    assert box is not None and box["width"] <= 900, box
    assert sticks_out(w) == []
    to_top(w)
    shot(w, "notebook-cell")
    page.wait_for_timeout(3000)  # the claim is about time: still there 3 s later
    expect(mistake).to_be_visible()
    expect(mistake).to_contain_text("Put aside: 10 (Bot 2).")
    expect(tid(w, "early-mark")).to_be_visible()
    expect(tid(w, "broken-heart")).to_be_visible()
    expect(w.locator('[data-testid="discard"][data-card="10"][data-marked="true"]')).to_be_visible()
    expect(w.locator('[data-kind="mistake"][data-card="30"]')).to_have_count(1)
    expect(w.locator('[data-testid="trace"] [data-kind="lost"][data-card="10"]')).to_have_count(1)
    # No bot played on (Bot 3 holds 32, just above the pile): the table waits.
    expect(tid(w, "pile")).to_contain_text("(1)")
    expect(phase).to_have_attribute("data-phase", "stopped")
    tid(w, "btn-ready").click()
    expect(tid(w, "pile-top")).to_have_attribute("data-card", "32")
    expect(mistake).to_have_count(0)


def cells_state(panel: Locator) -> list[str]:
    return panel.locator(".jp-Cell").evaluate_all(
        "cells => cells.map(c => ['jp-CodeCell', 'jp-MarkdownCell', 'jp-RawCell']"
        ".find(k => c.classList.contains(k)) || 'other')"
    )


def test_keys_stay_in_the_widget(page: Page, lab_url: str, lab_root: Path) -> None:
    name = "keys.ipynb"
    w = widget_in(
        page,
        lab_url,
        lab_root,
        name,
        HEAD + "g = Game.from_hands([[3, 6, 9, 12, 15, 18], [70, 72, 74, 76, 78, 80],"
        " [81, 83, 85, 87, 89, 91]], seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="adaptive", mode="step")\n'
        "w",
        "1 + 1",
        "g2 = Game.from_hands([[10, 20], [11, 30], [40, 50]], lives=1, seed=1)\n"
        "g2.ready(0.0)\n"
        "g2.propose_star(1, 0.5)\n"
        'w2 = MindWidget(game=g2, seat=0, bots="adaptive", mode="step")\n'
        "w2",
        "g3 = Game.from_hands([[10, 20], [11, 30], [40, 50]], lives=1, seed=1)\n"
        "g3.ready(0.0)\n"
        "g3.propose_star(1, 0.5)\n"
        'w3 = MindWidget(game=g3, seat=0, bots="adaptive", mode="step", lang="nl")\n'
        "w3",
    )
    panel = notebook_panel(page)
    file = lab_root / name
    saved = os.stat(file).st_mtime_ns
    cells = cells_state(panel)
    top = tid(w, "pile-top")
    # The cue shows while the keys do not reach the table.
    panel.locator(".jp-CodeCell").nth(1).locator(".cm-content").click()
    expect(tid(w, "focus-cue")).to_be_visible()
    tid(w, "btn-ready").click()
    expect(tid(w, "focus-cue")).to_be_hidden()
    expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
    page.keyboard.press("Space")
    expect(top).to_have_attribute("data-card", "3")
    tid(w, "btn-play").click()
    expect(top).to_have_attribute("data-card", "6")
    page.keyboard.press("Space")
    expect(top).to_have_attribute("data-card", "9")
    tid(w, "btn-stop").click()
    expect(tid(w, "phase")).to_have_attribute("data-phase", "stopped")
    tid(w, "btn-ready").click()
    expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
    page.keyboard.press("Space")
    expect(top).to_have_attribute("data-card", "12")
    tid(w, "btn-star").click()  # the bots' cards are far away: they decline
    expect(tid(w, "vote")).to_have_attribute("data-result", "declined")
    expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
    page.keyboard.press("Space")  # plays; does not propose another star
    expect(top).to_have_attribute("data-card", "15")
    expect(tid(w, "stars")).to_have_attribute("data-count", "1")
    # Keys JupyterLab would take in command mode: none reaches it.
    for key in ["r", "s", "a", "b", "m", "y"]:
        page.keyboard.press(key)
    expect(tid(w, "phase")).to_have_attribute("data-phase", "stopped")  # S stopped the table
    assert cells_state(panel) == cells
    assert os.stat(file).st_mtime_ns == saved, "the notebook was saved"
    # A vote with Y, and (in Dutch) with N.
    run_cell(page, panel, 2)
    w2 = tid(panel, "mindwidget").nth(1)
    expect(tid(w2, "btn-agree")).to_be_enabled()
    to_top(w2)
    shot(w2, "star-vote")
    tid(w2, "level").click()  # focus the table (not a button)
    page.keyboard.press("y")
    expect(tid(w2, "vote-0")).to_have_attribute("data-vote", "true")
    expect(tid(w2, "vote")).to_have_attribute("data-result", "used")
    # Each lowest card leaves its hand for the cards put aside (10, 11, 40).
    expect(w2.locator('[data-testid="discard"][data-kind="star"]')).to_have_count(3)
    run_cell(page, panel, 3)
    w3 = tid(panel, "mindwidget").nth(2)
    expect(tid(w3, "btn-decline").locator(".mw-btn-label")).to_have_text("Niet akkoord")
    tid(w3, "level").click()
    to_top(w3)
    shot(w3, "dutch")
    page.keyboard.press("n")
    expect(tid(w3, "vote-0")).to_have_attribute("data-vote", "false")
    expect(tid(w3, "vote")).to_have_attribute("data-result", "declined")
    # The screen reader hears it in the table's language, and again after a switch.
    expect(tid(w3, "live")).to_contain_text("Jij bent niet akkoord.")
    tid(w3, "lang").select_option("de")
    expect(tid(w3, "live")).to_contain_text("Du lehnst ab.")


def play_through(page: Page, w: Locator, steps: list[tuple[str, int]]) -> None:
    """Ready, then each key in turn, waiting for the card it brings to the pile."""
    tid(w, "btn-ready").click()
    expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
    for key, card in steps:
        page.keyboard.press(key)
        expect(tid(w, "pile").locator(f'[data-card="{card}"]')).to_have_count(1)


def test_endings(page: Page, lab_url: str, lab_root: Path) -> None:
    w = widget_in(
        page,
        lab_url,
        lab_root,
        "endings.ipynb",
        HEAD + "g = Game.from_hands([[5, 50], [7, 60], [9, 70]], seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="perfect", mode="step")\n'
        "w",
        "g = Game.from_hands([[5], [7], [9]], level=10, seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="perfect", mode="step")\n'
        "w",
        "g = Game.from_hands([[50], [10], [20]], lives=1, seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="perfect", mode="step")\n'
        "w",
    )
    panel = notebook_panel(page)
    # Level 2 cleared: its reward, a throwing star.
    play_through(page, w, [("Space", 5), ("w", 7), ("w", 9), ("Space", 50), ("w", 60), ("w", 70)])
    cleared = tid(w, "cleared")
    expect(cleared).to_contain_text("Level 2 cleared!")
    expect(tid(w, "reward")).to_have_text("Reward: one extra throwing star.")
    expect(w.locator("h3, h4, p").filter(has_text="Level 2 cleared")).to_have_count(1)
    to_top(w)
    shot(w, "level-cleared")
    # Won: a banner, once, and no "No reward".
    run_cell(page, panel, 1)
    won = tid(panel, "mindwidget").nth(1)
    play_through(page, won, [("Space", 5), ("w", 7), ("w", 9)])
    expect(tid(won, "cleared")).to_contain_text("You won: all 10 levels cleared!")
    expect(won.locator("h3, h4, p").filter(has_text="You won")).to_have_count(1)
    expect(won).not_to_contain_text("No reward")
    to_top(won)
    shot(won, "won")
    # Lost: a summary, no "the level goes on", no second "Game over".
    run_cell(page, panel, 2)
    lost = tid(panel, "mindwidget").nth(2)
    tid(lost, "btn-ready").click()
    expect(tid(lost, "phase")).to_have_attribute("data-phase", "play")
    page.keyboard.press("Space")
    banner = tid(lost, "lost")
    expect(banner).to_contain_text("Game over")
    expect(banner).to_contain_text("Level 1 of 10 reached.")
    expect(banner).to_contain_text("Lives lost: 1 in level 1.")
    expect(lost.locator("h3, h4, p").filter(has_text="Game over")).to_have_count(1)
    expect(lost).not_to_contain_text("goes on")
    expect(lost).not_to_contain_text("left.")
    to_top(lost)
    shot(lost, "lost")


def test_mistake_marked(page: Page, lab_url: str, lab_root: Path) -> None:
    """The early card, the card put aside, the broken heart: on the table and in the trace."""
    w = widget_in(
        page,
        lab_url,
        lab_root,
        "marks.ipynb",
        HEAD + "g = Game.from_hands([[30, 90], [10, 95], [32, 99]], seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="perfect", mode="step")\n'
        "w",
    )
    page.emulate_media(reduced_motion="reduce")  # this person asked for less motion
    tid(w, "btn-ready").click()
    expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
    page.keyboard.press("Space")
    expect(tid(w, "mistake")).to_contain_text("You played 30, but lower cards were still held.")
    expect(w).to_have_attribute("data-moved", "0")  # the card did not slide
    expect(tid(w, "early-mark")).to_have_text("too early")
    expect(tid(w, "broken-heart")).to_have_count(1)
    expect(w.locator('[data-testid="discard"][data-card="10"][data-marked="true"]')).to_be_visible()
    expect(w.locator('[data-kind="mistake"][data-card="30"]')).to_have_count(1)
    expect(w.locator('[data-testid="trace"] [data-kind="lost"][data-card="10"]')).to_have_count(1)
    # Normal size in a notebook cell of 900 px or less: nothing sticks out.
    page.set_viewport_size({"width": 1180, "height": 1150})
    box = w.bounding_box()
    assert box is not None and box["width"] <= 900, box
    assert sticks_out(w) == []  # (the gallery's pictures: test_mistake_stays_until_ready)


def test_dark_theme(page: Page, lab_url: str, lab_root: Path) -> None:
    put_setting(lab_url, "@jupyterlab/apputils-extension:themes", {"theme": "JupyterLab Dark"})
    try:
        w = widget_in(
            page,
            lab_url,
            lab_root,
            "dark.ipynb",
            HEAD + "g = Game.from_hands([[30, 90], [10, 95], [32, 99]], seed=1)\n"
            'w = MindWidget(game=g, seat=0, bots="perfect", mode="step")\n'
            "w",
        )
        expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "false")
        tid(w, "btn-ready").click()
        expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
        page.keyboard.press("Space")
        expect(tid(w, "early-mark")).to_be_visible()
        expect(w).not_to_have_css("color", "rgb(26, 26, 26)")
        to_top(w)
        shot(w, "dark-theme")
    finally:
        put_setting(lab_url, "@jupyterlab/apputils-extension:themes", {"theme": "JupyterLab Light"})


def look(target: Page | Locator, name: str) -> None:
    """A picture to look at (not for the gallery): /tmp/mindwidget-shots/<name>.png."""
    out = Path(os.environ.get("MW_SHOTS", "/tmp/mindwidget-shots"))
    out.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(out / f"{name}.png"), animations="allow")


def sticks_out(w: Locator, within: str = "*") -> list[str]:
    """The elements of the widget (matching ``within``) that reach past its right edge."""
    out: list[str] = w.evaluate(
        "(el, sel) => { const r = el.getBoundingClientRect().right + 1;"
        " return [...el.querySelectorAll(sel)].filter(e => e.getBoundingClientRect().right > r)"
        ".map(e => `${e.tagName}: ${e.textContent.slice(0, 40)}`); }",
        within,
    )
    return out


# Where the header, the buttons and the menus lie within the widget.
WHERE = (
    "el => { const o = el.getBoundingClientRect();"
    " return ['level', 'clock', 'btn-ready', 'btn-star', 'tempo'].map(k => {"
    ' const r = el.querySelector(`[data-testid="${k}"]`).getBoundingClientRect();'
    " return [k, r.x - o.x, r.y - o.y, r.width, r.height]; }); }"
)


def test_tempo_menu_sets_the_bots_tempo_in_python(
    hd_page: Page, lab_url: str, lab_root: Path
) -> None:
    """Issue 11: "quick" in the menu makes Python's bots quick; the menu fits everywhere."""
    page = hd_page
    w = widget_in(
        page,
        lab_url,
        lab_root,
        "tempo.ipynb",
        HEAD + "g = Game.from_hands([[30, 90], [10, 95], [32, 99]], seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="human", size="projector")\n'
        "w",
        "print('tempo', w.tempo, w.table.tempo)",
        "w.size = 'normal'",
        "w.mode = 'step'\nw.lang = 'de'",
    )
    panel = notebook_panel(page)
    menu = tid(w, "tempo")
    expect(menu).to_have_value("people")
    expect(tid(w, "speed")).to_have_count(0)  # a person is seated: no watch speed
    height = w.evaluate("el => el.querySelector('[data-testid=tempo]').offsetHeight")
    assert height >= 44, f"the menu is {height} px high"  # a finger's target
    where = w.evaluate(WHERE)
    menu.select_option("quick")
    run_cell(page, panel, 1)
    out = panel.locator(".jp-CodeCell").nth(1).locator(".jp-OutputArea-output")
    expect(out).to_have_text("tempo quick 0.6")
    expect(menu).to_have_value("quick")
    assert w.evaluate(WHERE) == where  # nothing moved
    inside(page, w)
    to_top(w)
    shot(w, "tempo-control")
    look(page, "tempo-en-1080")
    tid(w, "lang").select_option("nl")
    expect(menu.locator("option:checked")).to_have_text("snel")
    look(page, "tempo-nl-1080")
    # Normal size in a notebook cell of 900 px or less: the menu fits, nothing sticks out.
    run_cell(page, panel, 2)
    expect(w).not_to_have_class("mw-projector")
    page.set_viewport_size({"width": 1180, "height": 1150})
    box = w.bounding_box()
    assert box is not None and box["width"] <= 900, box
    to_top(w)
    look(w, "tempo-nl-900")
    assert sticks_out(w, ".mw-header *, .mw-controls *") == []
    tid(w, "lang").select_option("en")
    expect(menu.locator("option:checked")).to_have_text("quick")
    look(w, "tempo-en-900")
    assert sticks_out(w, ".mw-header *, .mw-controls *") == []
    # The longest row: step mode (Wait too) in German.
    run_cell(page, panel, 3)
    expect(tid(w, "btn-wait")).to_be_visible()
    expect(menu.locator("option:checked")).to_have_text("schnell")
    to_top(w)
    look(w, "tempo-de-step-900")
    assert sticks_out(w, ".mw-header *, .mw-controls *") == []
    # clicked, the menu keeps the focus and takes the arrow keys (not the table's keys)
    menu.click()
    expect(menu).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(menu).to_have_value("people")
    run_cell(page, panel, 1)
    expect(out).to_have_text("tempo people 1.0")


def test_watch_speed_runs_the_level_clock_faster(page: Page, lab_url: str, lab_root: Path) -> None:
    """Issue 11: at a table of bots only, 2x runs the shown level time twice as fast."""
    w = widget_in(
        page,
        lab_url,
        lab_root,
        "speed.ipynb",
        HEAD + "g = Game.from_hands([[60, 95], [70, 97], [80, 99]], seed=1)\n"
        'w = MindWidget(game=g, seat=None, bots="human")\n'
        "w",
    )
    speed = tid(w, "speed")
    expect(speed).to_have_value("1")
    tid(w, "btn-ready").click()
    expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
    speed.select_option("2")
    expect(w).not_to_have_attribute("data-seq", "")
    # Python's answer: the clock it syncs says speed 2 (the menu shows Python's value)
    expect(speed.locator("option:checked")).to_have_text("2×")
    # The shown level time over about 2 s of real time (page clock), read as it updates.
    rate = w.evaluate(
        """el => new Promise(done => {
          const shown = () => Number(el.querySelector('[data-testid="clock"]').textContent);
          const t0 = performance.now(), c0 = shown();
          const poll = setInterval(() => {
            const dt = (performance.now() - t0) / 1000;
            if (dt < 2) return;
            clearInterval(poll);
            done((shown() - c0) / dt);
          }, 10);
        })"""
    )
    print(f"watch speed 2x: {rate:.3f} level seconds per real second")
    assert 1.8 <= rate <= 2.2, f"level seconds per real second at 2x: {rate:.2f}"
    to_top(w)
    look(w, "speed-en")
    tid(w, "lang").select_option("de")
    expect(speed.locator("option:checked")).to_have_text("2×")
    look(w, "speed-de")
    assert sticks_out(w, ".mw-header *, .mw-controls *") == []


def test_endings_keep_the_mistake_in_view(hd_page: Page, lab_url: str, lab_root: Path) -> None:
    """A mistake that ends the level or the game: the banner covers neither the
    mistake panel, nor the early card, nor the cards put aside."""
    page = hd_page
    w = widget_in(
        page,
        lab_url,
        lab_root,
        "mistake-endings.ipynb",
        HEAD + "g = Game.from_hands([[50], [10], [20]], seed=1)\n"
        'w = MindWidget(game=g, seat=0, bots="perfect", mode="step", size="projector")\n'
        "w",
        "g2 = Game.from_hands([[50], [10], [20]], lives=1, seed=1)\n"
        'w2 = MindWidget(game=g2, seat=0, bots="perfect", mode="step", size="projector")\n'
        "w2",
        'w.size = w2.size = "normal"',
    )
    panel = notebook_panel(page)

    def ends_in_view(v: Locator, banner_id: str, name: str) -> None:
        tid(v, "btn-ready").click()
        expect(tid(v, "phase")).to_have_attribute("data-phase", "play")
        tid(v, "lowest-card").click()  # 50, while 10 and 20 are still held
        banner = tid(v, banner_id)
        expect(banner).to_be_visible()
        expect(tid(v, "mistake")).to_contain_text("You played 50, but lower cards were still held.")
        v.evaluate("el => el.ownerDocument.getAnimations().forEach(a => a.finish())")
        to_top(v)
        b = banner.bounding_box()
        for key in ("mistake", "pile-top", "early-mark", "discards"):
            expect(tid(v, key)).to_be_visible()
            assert not overlap(b, tid(v, key).bounding_box()), f"the banner covers {key}"
        # opaque: what lies under the banner does not show through it
        expect(banner).to_have_css("opacity", "1")
        shot(v, name)

    ends_in_view(w, "cleared", "level-cleared-by-mistake-projector")
    expect(tid(w, "cleared")).to_contain_text("Level 1 cleared!")
    run_cell(page, panel, 1)
    w2 = tid(panel, "mindwidget").nth(1)
    ends_in_view(w2, "lost", "lost-projector")
    expect(tid(w2, "mistake")).to_contain_text("That was the last life.")
    # The same in a notebook cell of 900 px.
    page.set_viewport_size({"width": 1180, "height": 1150})
    run_cell(page, panel, 2)
    for v, banner_id, name in (
        (w, "cleared", "level-cleared-by-mistake"),
        (w2, "lost", "lost-by-mistake"),
    ):
        expect(v).not_to_have_class(re.compile(r"\bmw-projector\b"))
        box = v.bounding_box()
        assert box is not None and box["width"] <= 900, box
        to_top(v)
        b = tid(v, banner_id).bounding_box()
        for key in ("mistake", "pile-top", "early-mark", "discards"):
            assert not overlap(b, tid(v, key).bounding_box()), f"the banner covers {key}"
        shot(v, name)
