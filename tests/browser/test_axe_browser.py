"""axe-core audits (WCAG 2.2 A and AA) of what pupils and the teacher see (issue 24).

The class server's pupil page and the teacher's dashboard in a real class (one
server in this process, each page its own browser context with
``bypass_csp=True`` so that axe can be injected): the join page, then ready,
playing, a star vote, a mistake and the end of the lesson, on the pupil's
page and on the dashboard (with a table shown large). The table in
JupyterLab: ready, playing, a star vote, a mistake and the end of the game
(lost; the last two driven from Python through the kernel); the scenario
board at its start and at its end (a mistake). Zero violations everywhere.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe import assert_accessible
from class_pages import new_page, phase_is, press
from lab import open_notebook, run_cell, tid, write_notebook
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import Server  # noqa: E402


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=12, lang="nl", grace=30.0)
    yield s
    s.stop()


def hands(server: Server) -> list[list[int]]:
    return server.call(lambda: [list(h) for h in server.room.tables[0].table.game.hands])  # type: ignore[union-attr]


def test_the_class_page_and_the_dashboard_have_no_wcag_violations(
    server: Server, chromium: Browser, contexts: list[BrowserContext]
) -> None:
    room = server.room
    assert room is not None
    teacher = new_page(
        chromium, contexts, bypass_csp=True, viewport={"width": 1920, "height": 1080}
    )
    teacher.goto(f"http://127.0.0.1:{server.port}/teacher?token={room.teacher_token}")
    expect(tid(teacher, "code")).to_have_text(room.code)
    assert_accessible(teacher, "the dashboard before anyone joined")

    pupils = [new_page(chromium, contexts, bypass_csp=True) for _ in range(3)]
    pupils[0].goto(f"http://127.0.0.1:{server.port}/")
    assert_accessible(pupils[0], "the join page")
    for page, name in zip(pupils, ["Anna", "Bram", "Cas"], strict=True):
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.get_by_label("Code").fill(room.code)
        page.get_by_label("Naam").fill(name)
        page.get_by_role("button", name="Meedoen").click()
        expect(page.locator("body")).to_have_attribute("data-joined", "true")
    for page in pupils:
        phase_is(page, "ready")
    assert_accessible(pupils[0], "a pupil's table, ready")
    expect(tid(teacher, "table-1")).to_be_visible()
    assert_accessible(teacher, "the dashboard, a table waiting for Ready")

    for page in pupils:
        press(page, "btn-ready")
    for page in pupils:
        phase_is(page, "play")
    assert_accessible(pupils[1], "a pupil's table, playing")
    tid(teacher, "show-1").click()
    expect(tid(teacher, "large")).to_be_visible()
    tid(teacher, "ctl-manage").click()
    assert_accessible(teacher, "the dashboard, playing, a table large, managing pupils")

    # a star vote, declined: everybody back to playing
    press(pupils[0], "btn-star")
    for page in pupils:
        expect(tid(page, "vote")).to_be_visible()
    assert_accessible(pupils[1], "a pupil's table, a star vote")
    assert_accessible(teacher, "the dashboard during a star vote")
    press(pupils[1], "btn-decline")
    for page in pupils:
        phase_is(page, "play")

    # a mistake: the pupil whose lowest card is not the lowest of all plays it
    held = hands(server)
    low = min(range(3), key=lambda s: held[s][0] if held[s] else 999)
    seat_of = {
        int(server.call(lambda p=p: p.seat)): page  # type: ignore[misc]
        for p, page in zip(list(room.pupils.values()), pupils, strict=True)
    }
    wrong = next(s for s in range(3) if s != low and held[s])
    press(seat_of[wrong], "btn-play")
    for page in pupils:  # the level stops (or ends, when the mistake put the last cards aside)
        expect(tid(page, "mistake")).to_be_visible()
    expect(tid(tid(teacher, "table-1"), "mistake")).to_contain_text("speelde")
    assert_accessible(seat_of[wrong], "a pupil's table after a mistake")
    assert_accessible(teacher, "the dashboard after a mistake")

    # the end of the lesson: the dashboard says so, every pupil's page too
    tid(teacher, "ctl-end").click()
    tid(teacher, "ctl-end").click()
    expect(tid(teacher, "ended")).to_be_visible()
    for page in pupils:
        expect(tid(page, "class-bye")).to_be_visible()
    assert_accessible(teacher, "the dashboard after the end")
    assert_accessible(pupils[2], "a pupil's page after the end")


#: Driven from Python through the kernel (the person's methods on the widget): a
#: mistake at once, then mistakes until the lives run out (the game is lost).
MISTAKE = """from mindwidget.table import phase


def mistake(w):
    \"\"\"The person plays above a card still held, or waits while a bot does.\"\"\"
    mine = w.game.hands[0]
    others = [c for h in w.game.hands[1:] for c in h]
    if mine and (not others or mine[0] > min(others)):
        w.play()
    else:
        w.wait()


def to_the_end(w):
    for _ in range(500):
        p = phase(w.game)
        if p in ("won", "lost"):
            return p
        if p in ("ready", "stopped"):
            w.ready()
        elif p == "cleared":
            w.next_level()
        else:
            mistake(w)
    raise RuntimeError("no end in 500 steps")


mistake(w)"""


def test_the_table_and_the_scenario_board_in_jupyterlab_have_no_wcag_violations(
    page: Page, lab_url: str, lab_root: Path
) -> None:
    """The widget and the scenario board as JupyterLab shows them (only our part of
    the page is audited: JupyterLab's own chrome is not ours to fix)."""
    write_notebook(
        lab_root / "axe.ipynb",
        "from mindwidget import MindWidget, Scenario, ScenarioPlayer\n"
        'w = MindWidget(players=3, seat=0, bots="scalar", seed=1, mode="step", lang="nl")\n'
        "w",
        MISTAKE,
        "to_the_end(w)",
        'p = ScenarioPlayer(Scenario.load("mistake"), lang="nl")\np',
    )
    panel = open_notebook(page, lab_url, "axe.ipynb")
    run_cell(page, panel, 0)
    table = '[data-testid="mindwidget"]'
    w = tid(panel, "mindwidget")
    phase_is(w, "ready")  # type: ignore[arg-type]
    assert_accessible(page, "the table in JupyterLab, ready", table)
    press(w, "btn-ready")  # type: ignore[arg-type]
    phase_is(w, "play")  # type: ignore[arg-type]
    assert_accessible(page, "the table in JupyterLab, playing", table)
    press(w, "btn-star")  # type: ignore[arg-type]
    expect(tid(w, "vote")).to_be_visible()
    assert_accessible(page, "the table in JupyterLab, a star vote", table)

    run_cell(page, panel, 1)  # a mistake: the table stops, and says who held what
    expect(tid(w, "mistake")).to_be_visible()
    phase_is(w, "stopped")  # type: ignore[arg-type]
    assert_accessible(page, "the table in JupyterLab after a mistake", table)
    run_cell(page, panel, 2)  # mistakes until no life is left: the game is lost
    phase_is(w, "lost")  # type: ignore[arg-type]
    expect(tid(w, "lives")).to_have_attribute("data-count", "0")
    assert_accessible(page, "the table in JupyterLab at the end (lost)", table)

    run_cell(page, panel, 3)
    board = tid(panel, "scenario")
    expect(tid(board, "step-counter")).to_contain_text("6")
    scenario = '[data-testid="scenario"]'
    assert_accessible(page, "the scenario board at its start", scenario)
    for _ in range(6):  # to its last step: the mistake and the lives it cost
        tid(board, "btn-next").click()
    expect(tid(board, "btn-next")).to_be_disabled()
    assert_accessible(page, "the scenario board at its end (the mistake)", scenario)
