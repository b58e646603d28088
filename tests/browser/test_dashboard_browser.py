"""The teacher's dashboard in Chromium: in JupyterLab with pupils' browsers, and its pictures.

* In JupyterLab: a cell starts a `Classroom` and displays it (the dashboard);
  three pupils join from their own browser contexts (one in German), a fourth
  pupil's table is handed to bots (a table of bots only). Every table appears
  with its seats, level, lives, stars and who it waits for; a mistake at the
  pupils' table shows within a second; lock, remove and move work, and the
  removed pupil's page says so in its language; the table shown large carries
  no hidden card until the teacher turns on reveal.
* The gallery: the dashboard with ten tables (`tests/classroom_harness.py`, real
  Tables in the class server's snapshot format) at 1920x1080 and 1280x720, in
  Dutch and German (docs/gallery/dashboard-*.png).
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from class_pages import (
    clear_level_one_and_start_two,
    lowest,
    new_page,
    phase_is,
    press,
)
from conftest import PW_TIMEOUT_MS
from dashboard_page import write_page
from lab import open_notebook, run_cell, tid, write_notebook
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import gallery_class  # noqa: E402

from mindwidget.dashboard import Board  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"
#: "A mistake shows on the dashboard within a second" (issue 20).
WITHIN_MS = 1000


def join(page: Page, address: str, code: str, name: str, lang: str = "nl") -> None:
    """Open the address in the pupil's language, type the code and the name, join."""
    labels = {"nl": ("Naam", "Meedoen"), "de": ("Name", "Mitspielen"), "en": ("Name", "Join")}
    name_label, button = labels[lang]
    page.goto(f"{address}/?lang={lang}")
    page.get_by_label("Code").fill(code)
    page.get_by_label(name_label).fill(name)
    page.get_by_role("button", name=button).click()


def cards_in(scope: Locator) -> set[int]:
    """Every card value drawn face up in a part of the page."""
    values = scope.evaluate(
        "el => [...el.querySelectorAll('.mw-num')]"
        ".map(c => c.textContent.trim()).filter(t => /^\\d+$/.test(t))"
    )
    return {int(v) for v in values}


def test_the_dashboard_in_jupyterlab_with_three_pupils_and_a_table_of_bots(
    page: Page,
    lab_url: str,
    lab_root: Path,
    chromium: Browser,
    contexts: list[BrowserContext],
) -> None:
    write_notebook(
        lab_root / "dashboard.ipynb",
        'from mindwidget import Classroom\nc = Classroom(lang="nl", size=3, seed=4)\nc',
        "c.start_table(2)\nc.give_to_bot(2, 0)",
        "c.stop()",
    )
    panel = open_notebook(page, lab_url, "dashboard.ipynb")
    page.set_viewport_size({"width": 1600, "height": 1000})
    run_cell(page, panel, 0)
    board = tid(panel, "dashboard").first
    code = tid(board, "code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    address = tid(board, "url").inner_text()
    pupils = [new_page(chromium, contexts) for _ in range(3)]
    for p, name, lang in zip(pupils, ["Anna", "Bram", "Chaima"], ["nl", "nl", "de"], strict=True):
        join(p, address, code.inner_text(), name, lang)
        expect(p.locator("body")).to_have_attribute("data-joined", "true")
    dee = new_page(chromium, contexts)
    join(dee, address, code.inner_text(), "Dee")
    expect(tid(board, "table-2")).to_contain_text("Dee")
    run_cell(page, panel, 1)  # table 2: started, then its only pupil gives way to a bot

    # every table: seats, level, lives, stars, who it waits for
    one, two = tid(board, "table-1"), tid(board, "table-2")
    for n, name in enumerate(["Anna", "Bram", "Chaima"], 1):
        expect(tid(one, f"seat-1-{n}")).to_contain_text(name)
    expect(tid(one, "level")).to_have_text("Level 1 van 10")
    expect(tid(one, "lives")).to_contain_text("3")
    expect(tid(one, "stars")).to_contain_text("1")
    expect(tid(one, "waiting")).to_have_text("Wacht op Anna, Bram en Chaima")
    for n in (1, 2, 3):
        expect(tid(two, f"seat-2-{n}")).to_have_attribute("data-kind", "bot")
    expect(tid(two, "level")).to_contain_text("van 10")
    expect(tid(board, "waiting-room")).to_contain_text("Dee")

    # level 1 at the pupils' table, then a mistake in level 2
    for p in pupils:
        press(p, "btn-ready")
    for p in pupils:
        phase_is(p, "play")
    expect(tid(one, "waiting")).to_have_text("")
    clear_level_one_and_start_two(pupils)
    held = {p: lowest(p) or 999 for p in pupils}
    low = min(pupils, key=lambda p: held[p])
    mover = next(p for p in pupils if p is not low)
    tid(mover, "btn-play").click()
    expect(tid(one, "mistake")).to_contain_text("Laatste fout", timeout=WITHIN_MS)
    expect(tid(one, "lives")).to_contain_text("2", timeout=WITHIN_MS)

    # the table shown large: no hidden card, until the teacher turns on reveal
    tid(board, "show-1").click()
    large = tid(board, "large")
    expect(large).to_contain_text("Tafel 1")
    in_hands = {c for p in pupils for c in _hand(p)}
    assert in_hands
    assert not cards_in(large) & in_hands
    GALLERY.mkdir(parents=True, exist_ok=True)
    large.scroll_into_view_if_needed()
    page.screenshot(path=str(GALLERY / "dashboard-jupyterlab-nl.png"), animations="disabled")
    tid(board, "ctl-reveal").click()
    expect(tid(board, "reveal-badge")).to_be_visible()
    expect(large.locator(".mw-card").first).to_be_visible()
    assert in_hands <= cards_in(large)
    tid(board, "ctl-reveal").click()
    expect(tid(board, "reveal-badge")).to_have_count(0)
    assert not cards_in(tid(board, "large")) & in_hands
    for p in pupils:  # nothing of the reveal reached a pupil's page
        assert not cards_in(tid(p, "class-table")) & (in_hands - set(_hand(p)))

    # lock: a new pupil is refused
    tid(board, "ctl-lock").click()
    expect(tid(board, "locked")).to_be_visible()
    late = new_page(chromium, contexts)
    join(late, address, code.inner_text(), "Eva")
    expect(tid(late, "error")).to_contain_text("De klas is gesloten")

    # remove Chaima: her page says so in German
    tid(board, "ctl-manage").click()
    chaima = tid(one, "seat-1-3")
    chaima.get_by_role("button", name="Verwijderen").click()
    expect(tid(pupils[2], "class-net")).to_have_text(
        "Du bist nicht mehr in dieser Klasse. Mach mit dem Code noch einmal mit."
    )
    # her seat at the running table is a bot's at once (issue 24: no table waits for her)
    expect(tid(one, "seat-1-3")).to_have_attribute("data-kind", "bot")

    # move Bram to table 2, seat 2
    bram = tid(one, "seat-1-2")
    bram.locator("select").select_option(label="tafel 2, plaats 2")
    bram.get_by_role("button", name="Verplaatsen").click()
    expect(tid(two, "seat-2-2")).to_contain_text("Bram")
    expect(tid(pupils[1], "class-me")).to_contain_text("Tafel 2")
    run_cell(page, panel, 2)


def _hand(page: Page) -> list[int]:
    hand = tid(page, "hand")
    values = hand.evaluate("el => [...el.querySelectorAll('[data-card]')].map(c => c.dataset.card)")
    return [int(v) for v in values]


# ------------------------------------------------------------------ gallery
@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    folder = tmp_path / "page"
    folder.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield folder, f"http://127.0.0.1:{srv.server_address[1]}/index.html"
    srv.shutdown()


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_the_dashboard_with_ten_tables_for_the_gallery(
    chromium: Browser, served: tuple[Path, str], lang: str
) -> None:
    folder, url = served
    room = gallery_class(lang)
    write_page(folder, Board(room).state())
    GALLERY.mkdir(parents=True, exist_ok=True)
    for width, height in ((1920, 1080), (1280, 720)):
        context = chromium.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(PW_TIMEOUT_MS)
        page = context.new_page()
        page.goto(url)
        board = tid(page, "dashboard")
        expect(tid(board, "table-10")).to_be_visible()
        # the back row reads the code: at least 64 px high on a 1280 px screen
        box = tid(board, "code").bounding_box()
        assert box is not None and box["height"] >= 64, box
        # the stuck table is told at the top and marked
        expect(tid(board, "stuck-summary")).to_contain_text("5")
        expect(tid(board, "table-5")).to_have_attribute("data-stuck", "offline")
        wide = page.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= width, f"the dashboard scrolls sideways at {width} px"
        page.screenshot(
            path=str(GALLERY / f"dashboard-{lang}-{width}x{height}.png"), animations="disabled"
        )
        context.close()


def test_the_teacher_page_of_the_command_is_the_same_dashboard(
    chromium: Browser, contexts: list[BrowserContext]
) -> None:
    from classroom_harness import Server

    server = Server(size=3, seed=3, lang="de", grace=30.0)
    try:
        room = server.room
        assert room is not None
        teacher = new_page(chromium, contexts)
        errors: list[str] = []
        teacher.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        teacher.goto(f"http://127.0.0.1:{server.port}/teacher?token={room.teacher_token}")
        board = tid(teacher, "dashboard")
        expect(tid(board, "code")).to_have_text(room.code)
        assert room.teacher_token not in teacher.url  # off the address bar (the projector)
        pupil = new_page(chromium, contexts)
        join(pupil, f"http://127.0.0.1:{server.port}", room.code, "Anna", "de")
        expect(tid(board, "table-1")).to_contain_text("Anna")
        expect(tid(board, "table-1")).to_contain_text("Wartet auf Mitspielende")
        tid(board, "ctl-lock").click()
        expect(tid(board, "locked")).to_have_text("Beitreten ist gesperrt")
        assert server.call(lambda: room.locked)
        teacher.reload()  # the token is kept for this tab
        expect(tid(teacher, "locked")).to_be_visible()
        assert not errors, errors  # the content security policy let everything load
        bad = new_page(chromium, contexts)
        response = bad.goto(f"http://127.0.0.1:{server.port}/teacher?token=nope")
        assert response is not None and response.status == 403
        bad.goto(f"http://127.0.0.1:{server.port}/teacher")  # another tab, no token
        expect(tid(bad, "needs-token")).to_contain_text("Link der Lehrkraft")
        expect(tid(bad, "dashboard")).to_have_count(0)
    finally:
        server.stop()
