""" "Jouw klok" in Chromium: four pupils at two tables of two (one on a phone) play three
levels in order; between levels each opens their own clock, which shows their own
number of plays; no page receives another pupil's waits (every WebSocket frame each
page got is read); after the lesson each page keeps its clock. The pictures go to
docs/gallery/ (class-own-clock-*.png), in Dutch.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import assert_accessible
from class_pages import lowest, new_page, phase_is, press
from lab import tid
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import Server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"
NAMES = ["Anna", "Bram", "Chaima", "Daan"]


def shot(page: Page, name: str, full: bool = False) -> None:
    GALLERY.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(GALLERY / f"{name}.png"), animations="disabled", full_page=full)


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=2, seed=21, lang="nl", grace=60.0, bots="none")
    yield s
    s.stop()


def listen(page: Page) -> list[dict[str, Any]]:
    """Every frame the page's sockets receive, parsed."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: WebSocket) -> None:
        def got(payload: str | bytes) -> None:
            if isinstance(payload, str):
                frames.append(json.loads(payload))

        ws.on("framereceived", got)

    page.on("websocket", on_socket)
    return frames


def join(page: Page, server: Server, name: str) -> None:
    page.goto(f"http://127.0.0.1:{server.port}/")
    page.get_by_label("Code").fill(server.room.code)  # type: ignore[union-attr]
    page.get_by_label("Naam").fill(name)
    page.get_by_role("button", name="Meedoen").click()
    expect(page.locator("body")).to_have_attribute("data-joined", "true")


#: Each pupil's pace, seconds per step of the gap (after 0.3 s to react): the waits of
#: people, so the clocks read as a class's would (a deliberate input, not a wait for a
#: condition: each press still waits for its card on the pile).
PACE = {"Anna": 0.06, "Bram": 0.035, "Chaima": 0.045, "Daan": 0.05}


def play_level(pages: list[Page], names: dict[Page, str]) -> None:
    """Everyone presses Klaar; then the cards go down in order, lowest first, each after
    its pupil's own time for its gap."""
    for page in pages:
        phase_is(page, "ready")
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
    top = 0
    while True:
        held = [(card, page) for page in pages if (card := lowest(page)) is not None]
        if not held:
            break
        card, page = min(held, key=lambda cp: cp[0])
        time.sleep(0.3 + PACE[names[page]] * (card - top))
        press(page, "btn-play")
        top = card
        expect(tid(page, "pile-top")).to_contain_text(str(card))
    for page in pages:
        phase_is(page, "cleared")


def test_each_pupil_sees_their_own_clock_and_never_another_pupils_waits(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    # (bypass_csp: the accessibility audit adds axe-core to the page as a script)
    phone = new_page(
        chromium,
        contexts,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        bypass_csp=True,
    )
    pages = [phone] + [new_page(chromium, contexts) for _ in range(3)]
    heard = [listen(page) for page in pages]
    names = dict(zip(pages, NAMES, strict=True))
    for page, name in names.items():
        join(page, server, name)
    tables = [pages[:2], pages[2:]]  # seated in order of joining, two at a table
    for level in (1, 2, 3):
        for group in tables:
            play_level(group, names)
        if level == 1:  # the button is there between levels, not while a level runs
            expect(tid(pages[0], "own-clock-open")).to_be_visible()
            expect(tid(pages[0], "own-clock-open")).to_have_text("Jouw klok")
        if level < 3:
            for group in tables:
                press(group[0], "btn-next-level")
            if level == 1:
                phase_is(pages[0], "ready")
                expect(tid(pages[0], "own-clock-open")).to_be_visible()  # not dealt yet: open
    # every pupil played 1 + 2 + 3 cards: each clock says 6, and draws six marks
    for page in pages:
        press(page, "own-clock-open")
        panel = tid(page, "own-clock")
        expect(panel).to_have_attribute("data-plays", "6")
        expect(tid(page, "own-clock-count")).to_have_text("Kaarten die jij speelde: 6.")
        expect(panel.locator('[data-testid="own-clock-play"]')).to_have_count(6)
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the clock scrolls sideways on a phone: {width} px"
    close = tid(phone, "own-clock-close").bounding_box()
    assert close is not None and close["height"] >= 44
    tid(phone, "own-clock").scroll_into_view_if_needed()
    shot(phone, "class-own-clock-nl-390x844")
    assert_accessible(phone, "Jouw klok on a phone", '[data-testid="own-clock"]')
    tid(pages[2], "own-clock").scroll_into_view_if_needed()
    shot(pages[2], "class-own-clock-nl-1280x720")

    # what each page received: its own plays, the class's aggregate, nobody else's waits
    room = server.room
    assert room is not None
    plays = server.call(room.plays)
    people = plays[plays["kind"] == "person"]
    for name, frames in zip(NAMES, heard, strict=True):
        kinds = {f.get("type") for f in frames}
        assert kinds <= {"welcome", "update", "ping", "notice", "own_clock"}, kinds
        clocks = [f for f in frames if f.get("type") == "own_clock"]
        assert clocks, f"{name}'s page got no clock"
        mine = people[people["name"] == name]
        for clock in clocks:
            # the only waits a page receives: its own plays', and the class's medians
            assert set(clock) == {
                "type", "name", "plays", "need", "curve", "band_pupils", "class_plays",
                "floor", "step", "cv", "half_within", "vs_class", "pace", "ended",
            }  # fmt: skip
            assert clock["name"] == name
            assert all(
                set(b) == {"low", "high", "gap", "wait", "plays", "pupils"} for b in clock["curve"]
            )
            assert all(b["pupils"] >= 3 for b in clock["curve"])
        assert sorted(p["wait"] for p in clocks[-1]["plays"]) == pytest.approx(
            sorted(mine["wait"]), abs=1e-3
        )
        # the other table's pupils are never named on this page (their table's data
        # never reaches it); the partner at the same table saw each card land
        partner = NAMES[NAMES.index(name) ^ 1]
        text = json.dumps([f for f in frames if f.get("type") != "own_clock"])
        for other in set(NAMES) - {name, partner}:
            assert other not in text, f"{name}'s page heard of {other}"

    # the teacher's page shows any pupil's clock, and the class's
    teacher = new_page(chromium, contexts, bypass_csp=True)
    teacher.goto(f"http://127.0.0.1:{server.port}/teacher?token={room.teacher_token}")
    tid(teacher, "clock-menu").select_option(label="Anna")
    shown = tid(teacher, "teacher-clock")
    expect(shown).to_have_attribute("data-plays", "6")
    expect(tid(teacher, "teacher-clock-count")).to_have_text("Kaarten die Anna speelde: 6.")
    shown.scroll_into_view_if_needed()
    shot(teacher, "dashboard-clock-nl-1280x720")
    assert_accessible(teacher, "a pupil's clock on the dashboard", '[data-testid="teacher-clock"]')
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    shown.scroll_into_view_if_needed()
    shot(teacher, "dashboard-clock-nl-1920x1080")
    tid(teacher, "clock-menu").select_option(value="")
    expect(tid(teacher, "teacher-clock-count")).to_have_text("Kaarten die leerlingen speelden: 24.")
    tid(teacher, "close-clock").click()
    expect(tid(teacher, "teacher-clock")).to_have_count(0)

    # the lesson ends: each page keeps its clock until it is closed
    server.call(room.end)
    for page in pages:
        expect(tid(page, "class-bye")).to_contain_text("De les is afgelopen")
        kept = page.locator('.mwc-clock[data-testid="own-clock"]')
        expect(kept).to_have_attribute("data-plays", "6")
        expect(kept).to_contain_text("Je klok blijft hier staan tot je deze pagina sluit.")
        expect(tid(page, "own-clock-open")).to_be_hidden()
    shot(phone, "class-after-end-clock-nl-390x844", full=True)
    # a phone that reloads the tab (it was in the background) still shows it, under the
    # join form, until the tab is closed or the pupil joins a class again
    phone.reload()
    expect(tid(phone, "join")).to_be_visible()
    expect(phone.locator('[data-kept][data-testid="own-clock"]')).to_have_attribute(
        "data-plays", "6"
    )
    expect(phone.locator('[data-kept][data-testid="class-bye"]')).to_contain_text(
        "De les is afgelopen"
    )
