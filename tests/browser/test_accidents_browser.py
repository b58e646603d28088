"""A lesson's ordinary accidents in Chromium (issue 24, parts 1-3), in Dutch.

* A phone whose connection drops, through a loopback proxy of the test's own
  (`tests/netproxy.py`): silently (a Wi-Fi out of range: nothing closes) and
  hard (a reset). Its page says the connection is lost within 8 s, shows the
  table paused with every action disabled, says a press was not sent, and no
  card is ever played from it; the others read why the table stopped.
* A pupil moved out of a running table: the others read that the seats
  changed and play on with a bot; a pupil moved into that seat reads the
  earlier holder's card under their name, never "Jij"; the teacher's pause
  reads as the teacher's.

Pictures: docs/gallery/class-connection-lost-phone-nl.png and
class-after-move-nl.png (retaken here); the other sizes go to
/tmp/mindwidget-shots/ (or $MINDWIDGET_SHOTS) to look at.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from class_pages import new_page, phase_is, phone_page, press
from lab import tid
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import Server  # noqa: E402
from netproxy import Proxy  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"
SHOTS = Path(os.environ.get("MINDWIDGET_SHOTS", "/tmp/mindwidget-shots"))
SIZES = {"phone": (390, 844), "1280": (1280, 720), "1920": (1920, 1080)}


def shot(page: Page, name: str, gallery: bool = False) -> None:
    where = GALLERY if gallery else SHOTS
    where.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(where / f"{name}.png"), animations="disabled")


def every_size(page: Page, name: str) -> None:
    """The page at each size (looked at by hand: SHOTS)."""
    before = page.viewport_size
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        shot(page, f"{name}-{size}")
    if before is not None:
        page.set_viewport_size(before)


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=12, lang="nl", grace=2.0, tempo="slow")
    yield s
    s.stop()


def join(page: Page, base: str, server: Server, name: str) -> None:
    page.goto(f"{base}/")
    page.get_by_label("Code").fill(server.room.code)  # type: ignore[union-attr]
    page.get_by_label("Naam").fill(name)
    page.get_by_role("button", name="Meedoen").click()
    expect(page.locator("body")).to_have_attribute("data-joined", "true")


def game_of(server: Server, n: int = 1) -> Any:
    return server.call(lambda: server.room.table(n).table.game.copy())  # type: ignore[union-attr]


def all_ready(pages: list[Page]) -> None:
    for p in pages:
        phase_is(p, "ready")
        press(p, "btn-ready")
    for p in pages:
        phase_is(p, "play")


def assert_paused(phone: Page) -> None:
    """Lost: the page says so, the table stands still, every action is disabled."""
    expect(tid(phone, "class-net")).to_have_text("Verbinding verbroken. Opnieuw verbinden…")
    lost = "Verbinding verbroken: de tafel staat voor jou stil"
    expect(tid(phone, "phase")).to_contain_text(lost)
    buttons = phone.locator('[data-testid="class-table"] button[data-action]')
    assert buttons.count() >= 3
    for i in range(buttons.count()):
        expect(buttons.nth(i)).to_be_disabled()


def test_a_phone_that_loses_its_connection_says_so_and_no_press_of_it_is_played(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    proxy = Proxy(server.port)
    try:
        direct = f"http://127.0.0.1:{server.port}"
        anna, bram = new_page(chromium, contexts), new_page(chromium, contexts)
        phone = phone_page(chromium, contexts)
        join(anna, direct, server, "Anna")
        join(bram, direct, server, "Bram")
        join(phone, proxy.url, server, "Cas")  # the phone goes through the proxy
        all_ready([anna, bram, phone])
        pile = list(game_of(server).pile)

        # a silent drop: nothing closes; within 8 s the page knows, and shows the table paused
        proxy.blackhole()
        expect(phone.locator("body")).to_have_attribute("data-net", "lost", timeout=8000)
        assert_paused(phone)
        phone.locator('[data-testid="class-table"] .mindwidget').first.focus()
        phone.keyboard.press("Space")  # a press while offline: not sent, and it says so
        expect(tid(phone, "class-unsent")).to_have_text(
            "Niet verstuurd: er is geen verbinding. Druk opnieuw zodra de tafel verder speelt."
        )
        shot(phone, "class-connection-lost-phone-nl", gallery=True)
        every_size(phone, "accidents-silent-drop-nl")
        # the others read why the table stopped: Cas's connection, not "Cas riep stop"
        expect(tid(anna, "phase")).to_contain_text("Cas heeft geen verbinding meer", timeout=25000)
        shot(anna, "accidents-others-after-drop-1280-nl")
        proxy.heal()
        expect(phone.locator("body")).to_have_attribute("data-net", "ok")
        expect(tid(phone, "class-unsent")).to_be_hidden()
        expect(tid(phone, "phase")).to_contain_text("Je verbinding was weg")
        assert list(game_of(server).pile) == pile

        # a hard drop: the socket is reset; the page says so at once, and sends nothing
        for p in (anna, bram, phone):
            press(p, "btn-ready")
        for p in (anna, bram, phone):
            phase_is(p, "play")
        proxy.reset()
        expect(phone.locator("body")).to_have_attribute("data-net", "lost", timeout=8000)
        assert_paused(phone)
        tid(phone, "btn-play").dispatch_event("pointerdown")  # a tap on the disabled button
        expect(tid(phone, "class-unsent")).to_be_visible()
        every_size(phone, "accidents-hard-drop-nl")
        proxy.heal()
        expect(phone.locator("body")).to_have_attribute("data-net", "ok", timeout=15000)
        expect(tid(phone, "class-me")).to_contain_text("Cas · Tafel 1")
        assert list(game_of(server).pile) == pile  # no card from a press made while offline
    finally:
        proxy.close()


def test_a_pupil_moved_out_keeps_her_card_and_the_table_plays_on_with_a_bot(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    base = f"http://127.0.0.1:{server.port}"
    pages = {n: new_page(chromium, contexts) for n in ("Anna", "Bram", "Eva")}
    for n, p in pages.items():
        join(p, base, server, n)
    all_ready(list(pages.values()))
    hands = game_of(server).hands
    low = min(range(3), key=lambda s: hands[s][0])  # the seat that may play now
    mover = list(pages)[low]
    press(pages[mover], "btn-play")
    card = hands[low][0]
    for p in pages.values():
        expect(tid(p, "pile-top")).to_have_attribute("data-card", str(card))
    finn = new_page(chromium, contexts)
    join(finn, base, server, "Finn")  # table 2, waiting
    snap = server.snapshot()["tables"][0]["seats"]
    pupil = next(s["pupil"] for s in snap if s.get("name") == mover)
    server.call(server.room.move, pupil, 2, 1)  # type: ignore[union-attr]
    others = [p for n, p in pages.items() if n != mover]
    bot = f"Bot {low + 1}"
    for p in others:
        expect(tid(p, "class-who")).to_contain_text(f"{low + 1}. {bot}")
        changed = f"De plaatsen zijn gewisseld: {bot} speelt nu plaats {low + 1}."
        expect(tid(p, "phase")).to_contain_text(changed)
        expect(tid(p, "pile-top")).to_have_attribute("aria-label", f"{card}, gespeeld door {mover}")
    shot(others[0], "accidents-after-move-others-1280-nl")
    for p in others:
        press(p, "btn-ready")
    for p in others:
        phase_is(p, "play")  # nobody waits for a Ready that will never come

    # Finn takes the bot's seat: the card on the pile is still the mover's, not "Jij"
    table2 = server.snapshot()["tables"][1]["seats"]
    finn_id = next(s["pupil"] for s in table2 if s.get("name") == "Finn")
    server.call(server.room.move, finn_id, 1, low)  # type: ignore[union-attr]
    expect(tid(finn, "class-me")).to_contain_text(f"Finn · Tafel 1 · Speler {low + 1}")
    expect(tid(finn, "pile-top")).to_have_attribute("aria-label", f"{card}, gespeeld door {mover}")
    expect(tid(finn, "phase")).to_contain_text(f"Jij speelt nu plaats {low + 1}.")
    shot(finn, "class-after-move-nl", gallery=True)
    every_size(finn, "accidents-after-move-finn-nl")

    # the teacher's pause reads as the teacher's, on every page
    for p in [*others, finn]:
        press(p, "btn-ready")
    for p in [*others, finn]:
        phase_is(p, "play")
    server.call(server.room.pause_all)  # type: ignore[union-attr]
    for p in [*others, finn]:
        expect(tid(p, "phase")).to_have_text(
            "De docent heeft het spel gepauzeerd. Handen op tafel; druk op Klaar om verder te gaan."
        )
    shot(finn, "accidents-teacher-pause-1280-nl")


def test_the_dashboard_after_a_drop_marks_the_pupil_offline_and_offers_a_bot(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    """A pupil's connection black-holed during a level (the proxy): the teacher's
    dashboard marks her offline in Dutch words within 10 s, shows the table stopped
    because of it, and offers the control that leads on ("give this seat to a
    bot"); pressed, the seat is a bot's and the table plays on.
    Pictures: docs/gallery/dashboard-after-drop-nl-{1920x1080,1280x720}.png."""
    room = server.room
    assert room is not None
    proxy = Proxy(server.port)
    try:
        direct = f"http://127.0.0.1:{server.port}"
        teacher = new_page(chromium, contexts, viewport={"width": 1920, "height": 1080})
        teacher.goto(f"{direct}/teacher?token={room.teacher_token}")
        board = tid(teacher, "dashboard")
        expect(tid(board, "code")).to_have_text(room.code)
        anna, bram = new_page(chromium, contexts), new_page(chromium, contexts)
        phone = phone_page(chromium, contexts)
        join(anna, direct, server, "Anna")
        join(bram, direct, server, "Bram")
        join(phone, proxy.url, server, "Cas")
        all_ready([anna, bram, phone])
        seats = server.snapshot()["tables"][0]["seats"]
        n = next(s["seat"] for s in seats if s.get("name") == "Cas") + 1
        table = tid(board, "table-1")
        cas = tid(table, f"seat-1-{n}")
        expect(tid(cas, "conn")).to_have_text("online")
        expect(table).not_to_have_attribute("data-stuck", "offline")

        proxy.blackhole()  # Cas's Wi-Fi out of range: nothing closes
        expect(tid(cas, "conn")).to_have_text("offline", timeout=10_000)
        expect(cas).to_have_class(re.compile(r"\bmwd-gone\b"))
        # the table stops (issue 24: within 25 s of the drop) and says why, at the top too
        expect(table).to_have_attribute("data-stuck", "offline", timeout=25_000)
        expect(tid(table, "stuck")).to_have_text("VAST: Cas offline")
        expect(tid(board, "stuck-summary")).to_contain_text("Tafel 1 · Cas offline")
        expect(tid(table, "phase")).to_have_text("Gestopt")
        lead_on = tid(table, f"offer-bot-1-{n}")
        expect(lead_on).to_have_text(f"Plaats {n} (Cas) aan een bot geven")
        expect(lead_on).to_be_enabled()
        assert not ENGLISH.findall(board.inner_text()), ENGLISH.findall(board.inner_text())
        for width, height in ((1920, 1080), (1280, 720)):
            teacher.set_viewport_size({"width": width, "height": height})
            expect(lead_on).to_be_in_viewport()  # the way on is on the screen, not below it
            wide = teacher.evaluate("document.scrollingElement.scrollWidth")
            assert wide <= width, f"the dashboard scrolls sideways at {width} px"
            shot(teacher, f"dashboard-after-drop-nl-{width}x{height}", gallery=True)

        # the way on: Cas's seat is a bot's, the table no longer waits for her
        lead_on.click()
        expect(cas).to_have_attribute("data-kind", "bot")
        expect(table).not_to_have_attribute("data-stuck", "offline")
        for p in (anna, bram):
            press(p, "btn-ready")
        for p in (anna, bram):
            phase_is(p, "play")
    finally:
        proxy.close()


ENGLISH = re.compile(r"\b(Table|table|seat|Seat|pupil|Stuck|STUCK|Stopped|Give|bot to)\b")
