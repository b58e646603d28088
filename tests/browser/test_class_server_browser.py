"""The class server in Chromium: pupils join through the page and play at one table.

The server (`Classroom`) runs in this process on its own loop
(`tests/classroom_harness.py`); each pupil is a separate browser context (its
own storage, as its own laptop or phone). The test knows the deal from the
server, so it knows who holds the lowest card. The pictures go to
docs/gallery/ (class-*.png), in Dutch.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from class_pages import clear_level_one_and_start_two, new_page, phase_is, phone_page, press
from lab import open_notebook, run_cell, tid, write_notebook
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import Server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"


def shot(page: Page, name: str) -> None:
    GALLERY.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(GALLERY / f"{name}.png"), animations="disabled")


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=12, lang="nl", grace=30.0)
    yield s
    s.stop()


def join(page: Page, server: Server, name: str, tap: bool = False) -> None:
    """Open the address, type the code and the name, press Meedoen."""
    page.goto(f"http://127.0.0.1:{server.port}/")
    page.get_by_label("Code").fill(server.room.code)  # type: ignore[union-attr]
    page.get_by_label("Naam").fill(name)
    button = page.get_by_role("button", name="Meedoen")
    if tap:
        button.tap()
    else:
        button.click()
    expect(page.locator("body")).to_have_attribute("data-joined", "true")


def hands(server: Server) -> list[list[int]]:
    return server.call(lambda: [list(h) for h in server.room.tables[0].table.game.hands])  # type: ignore[union-attr]


def test_three_pupils_join_play_a_mistake_all_see_the_stop_and_one_reloads(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    pages = [new_page(chromium, contexts) for _ in range(3)]
    # a wrong code first: refused clearly, in Dutch
    first = pages[0]
    first.goto(f"http://127.0.0.1:{server.port}/")
    first.get_by_label("Code").fill("99999")
    first.get_by_label("Naam").fill("Anna")
    first.get_by_role("button", name="Meedoen").click()
    expect(tid(first, "error")).to_contain_text("Die code klopt niet")
    shot(first, "class-join-wrong-code-nl")
    for page, name in zip(pages, ["Anna", "Bram", "Chaima"], strict=True):
        join(page, server, name)
    for page in pages:
        phase_is(page, "ready")
    expect(tid(pages[1], "class-me")).to_contain_text("Bram · Tafel 1 · Speler 2")
    # level 1: the level starts only when all three pressed Klaar
    press(pages[0], "btn-ready")
    press(pages[1], "btn-ready")
    expect(tid(pages[0], "class-waiting")).to_contain_text("Wachten op Klaar van: Chaima")
    phase_is(pages[0], "ready")
    press(pages[2], "btn-ready")
    for page in pages:
        phase_is(page, "play")
    # each plays their card in order; level 2 starts
    clear_level_one_and_start_two(pages)
    # level 2: a pupil whose lowest card is not the lowest plays it: a mistake
    held = hands(server)
    low = min(range(3), key=lambda s: held[s][0])
    mover = (low + 1) % 3
    press(pages[mover], "btn-play")
    for page in pages:
        phase_is(page, "stopped")
        expect(tid(page, "mistake")).to_be_visible()
    shot(pages[low], "class-table-mistake-nl")
    # one reloads mid-level: the same seat and hand come back
    again = pages[2]
    cards = "el => [...el.querySelectorAll('[data-card]')].map(c => c.dataset.card)"
    hand_before = tid(again, "hand").evaluate(cards)
    assert hand_before, "the pupil holds cards"
    again.reload()
    phase_is(again, "stopped")
    assert tid(again, "hand").evaluate(cards) == hand_before
    expect(tid(again, "class-me")).to_contain_text("Chaima · Tafel 1 · Speler 3")
    # Bram's connection drops (the server closes it): his page reconnects by itself
    room = server.room
    assert room is not None
    server.call(
        lambda: [s.close() for s in list(room.sockets.all) if s.pupil and s.pupil.seat == 1]
    )
    expect(tid(pages[1], "class-net")).to_have_attribute("data-state", "reconnecting")
    expect(tid(pages[1], "class-net")).to_have_attribute("data-state", "")
    for page in pages:
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")


def test_a_vote_after_a_mistake_shows_its_buttons_on_a_1280x720_laptop(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    """The mistake's panel stays after Klaar; a star proposed then puts the vote beside
    it. On a laptop (1280x720) the news beside the pile is short: the vote's Akkoord and
    Niet akkoord must still be in sight, not clipped below the news' edge (a pupil who
    cannot see them cannot vote, and the table waits)."""
    pages = [new_page(chromium, contexts) for _ in range(3)]
    for page, name in zip(pages, ["Anna", "Bram", "Chaima"], strict=True):
        join(page, server, name)
    for page in pages:
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
    clear_level_one_and_start_two(pages)
    held = hands(server)
    low = min(range(3), key=lambda s: held[s][0])
    press(pages[(low + 1) % 3], "btn-play")  # not the lowest card: a mistake
    for page in pages:
        phase_is(page, "stopped")
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
        expect(tid(page, "mistake")).to_be_visible()  # the panel stays
    proposer = next(p for p in pages if tid(p, "btn-star").is_enabled())
    press(proposer, "btn-star")
    voter = next(p for p in pages if p is not proposer)
    agree = tid(voter, "btn-agree")
    expect(agree).to_be_enabled()
    in_sight = """b => {
      const r = b.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      let clipped = false;
      for (let e = b.parentElement; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.overflowY === "visible" && s.overflowX === "visible") continue;
        const c = e.getBoundingClientRect();
        if (r.top < c.top - 1 || r.bottom > c.bottom + 1) clipped = true;
      }
      return {hit: !!at && b.contains(at), clipped, bottom: r.bottom, height: innerHeight};
    }"""
    for testid in ("btn-agree", "btn-decline"):
        got = tid(voter, testid).evaluate(in_sight)  # as rendered: nobody scrolled anything
        assert got["hit"] and not got["clipped"], (testid, got)
    shot(voter, "class-vote-after-mistake-nl")


def test_choosing_a_language_on_the_join_page_keeps_the_code_and_the_name(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    """The language menu loads the page again in that language; what the pupil typed
    stays (the name was lost, and "Meedoen" then said the name was missing)."""
    page = new_page(chromium, contexts)
    page.goto(f"http://127.0.0.1:{server.port}/")
    page.get_by_label("Code").fill(server.room.code)  # type: ignore[union-attr]
    page.get_by_label("Naam").fill("Bram")
    with page.expect_navigation():
        page.locator("#lang").select_option("en")
    expect(page.locator("#name")).to_have_value("Bram")
    expect(page.locator("#code")).to_have_value(server.room.code)  # type: ignore[union-attr]
    page.get_by_role("button", name="Join").click()
    expect(page.locator("body")).to_have_attribute("data-joined", "true")
    expect(tid(page, "class-me")).to_contain_text("Bram")


def test_a_phone_plays_a_whole_level(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    phone = phone_page(chromium, contexts)
    phone.goto(f"http://127.0.0.1:{server.port}/")
    shot(phone, "class-join-phone-nl")
    join(phone, server, "Noor", tap=True)
    expect(tid(phone, "class-lobby")).to_contain_text("Tafel 1")
    server.call(server.room.start_table, 1)  # type: ignore[union-attr]
    phase_is(phone, "ready")
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone: {width} px"
    tid(phone, "btn-ready").tap()
    phase_is(phone, "play")
    play = tid(phone, "btn-play")
    box = play.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    shot(phone, "class-table-phone-nl")
    play.tap()  # the phone's one card; the bots play theirs on the server's clock
    expect(tid(phone, "phase")).to_have_attribute("data-phase", re.compile("cleared|stopped|lost"))


def test_the_connection_check_says_it_works(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    page = new_page(chromium, contexts)
    page.goto(f"http://127.0.0.1:{server.port}/check?lang=nl")
    expect(tid(page, "check")).to_have_attribute("data-state", "ok")
    expect(tid(page, "check")).to_contain_text("De verbinding werkt")


def test_classroom_displayed_in_jupyterlab_shows_the_code_and_the_tables(
    page: Page, lab_url: str, lab_root: Path, chromium: Browser, contexts: list[BrowserContext]
) -> None:
    write_notebook(
        lab_root / "classroom.ipynb",
        'from mindwidget import Classroom\nc = Classroom(lang="nl", size=2)\nc',
        "c",
    )
    panel = open_notebook(page, lab_url, "classroom.ipynb")
    run_cell(page, panel, 0)
    # displaying the class shows its dashboard (mindwidget/classroom/dashboard.py)
    code = tid(panel, "code").first
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    url = tid(panel, "url").first.inner_text()
    # a pupil joins the server the kernel serves, while the notebook goes on
    pupil = new_page(chromium, contexts)
    pupil.goto(url + "/")
    pupil.get_by_label("Code").fill(code.inner_text())
    pupil.get_by_label("Naam").fill("Sam")
    pupil.get_by_role("button", name="Meedoen").click()
    expect(pupil.locator("body")).to_have_attribute("data-joined", "true")
    table = tid(panel.locator(".jp-CodeCell").nth(0), "table-1")  # the dashboard follows
    expect(table).to_contain_text("Sam")
    expect(table).to_contain_text("Tafel 1")
    page.set_viewport_size({"width": 1920, "height": 1080})
    table.scroll_into_view_if_needed()
    shot(page, "class-teacher-notebook-nl")
