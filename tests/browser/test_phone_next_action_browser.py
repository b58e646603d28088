"""On a pupil's phone the next action stays in sight: Klaar after a mistake, Volgend
level when the level is done, Nieuw spel when the game is lost.

A 390 x 844 phone loses about 100 px to the browser's own bars, so the pages are
390 x 744. Three pupils on such phones play at one table of the class server
(`tests/classroom_harness.py`); the test knows the deal from the server, so it
knows who holds the lowest card, and makes mistakes on purpose. Each next action
must be in the viewport as the page is (nobody scrolls), not covered, not clipped.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from class_pages import clear_level_one_and_start_two, new_page, phase_is, press
from lab import tid
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import Server  # noqa: E402

GALLERY = Path(__file__).resolve().parents[2] / "docs" / "gallery"
#: a 390 x 844 phone less 100 px of the browser's own bars
PHONE = {"width": 390, "height": 744}

IN_SIGHT = """b => {
  const r = b.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  let clipped = false;
  for (let e = b.parentElement; e; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.overflowY === "visible" && s.overflowX === "visible") continue;
    const c = e.getBoundingClientRect();
    if (r.top < c.top - 1 || r.bottom > c.bottom + 1) clipped = true;
  }
  return {hit: !!at && b.contains(at), clipped, top: r.top, bottom: r.bottom,
          height: innerHeight, scrolled: scrollY};
}"""


def in_sight(page: Page, testid: str) -> None:
    """The button ``testid`` is wholly in the viewport as the page stands, and a tap on
    its middle reaches it."""
    got = tid(page, testid).evaluate(IN_SIGHT)
    assert got["scrolled"] == 0, got
    assert got["hit"] and not got["clipped"], (testid, got)
    assert got["top"] >= 0 and got["bottom"] <= got["height"], (testid, got)


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=12, lang="nl", grace=30.0)
    yield s
    s.stop()


def phones(chromium: Browser, contexts: list[BrowserContext], server: Server) -> list[Page]:
    """Three pupils on phones at table 1, level 1 running."""
    pages = [
        new_page(
            chromium,
            contexts,
            viewport=PHONE,
            has_touch=True,
            is_mobile=True,
            device_scale_factor=2,
        )
        for _ in range(3)
    ]
    for page, name in zip(pages, ["Anouk", "Daan", "Sem"], strict=True):
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.get_by_label("Code").fill(server.room.code)  # type: ignore[union-attr]
        page.get_by_label("Naam").fill(name)
        page.get_by_role("button", name="Meedoen").tap()
        expect(page.locator("body")).to_have_attribute("data-joined", "true")
    for page in pages:
        phase_is(page, "ready")
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
    return pages


def hands(server: Server) -> list[list[int]]:
    return server.call(lambda: [list(h) for h in server.room.tables[0].table.game.hands])  # type: ignore[union-attr]


def top(page: Page) -> None:
    page.evaluate("scrollTo(0, 0)")


def mistake(pages: list[Page], server: Server) -> None:
    """A pupil who does not hold the lowest card plays: a mistake, the table stops."""
    held = hands(server)
    low = min((s for s in range(3) if held[s]), key=lambda s: held[s][0])
    early = next(s for s in range(3) if held[s] and s != low)
    press(pages[early], "btn-play")


def test_the_next_action_is_in_sight_on_a_phone_after_a_mistake(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    pages = phones(chromium, contexts, server)
    clear_level_one_and_start_two(pages)
    for page in pages:
        top(page)
    mistake(pages, server)
    for page in pages:
        phase_is(page, "stopped")
        expect(tid(page, "mistake")).to_be_visible()
        in_sight(page, "btn-ready")
    pages[2].screenshot(
        path=str(GALLERY / "class-phone-after-mistake-nl.png"), animations="disabled"
    )
    for page in pages:
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
    # the rest of the level in order, the mistake's panel still there: Volgend level in sight
    while any(held := hands(server)):
        low = min((s for s in range(3) if held[s]), key=lambda s: held[s][0])
        press(pages[low], "btn-play")
        expect(tid(pages[low], "pile-top")).to_have_attribute("data-card", str(held[low][0]))
    for page in pages:
        phase_is(page, "cleared")
        top(page)
        in_sight(page, "btn-next-level")
    # mistakes until the lives are gone: Nieuw spel in sight
    for _ in range(40):
        phase = tid(pages[0], "phase").get_attribute("data-phase")
        if phase == "lost":
            break
        if phase == "cleared":
            press(pages[0], "btn-next-level")
            phase = "ready"
            for page in pages:
                phase_is(page, "ready")
        if phase in ("ready", "stopped"):
            for page in pages:
                press(page, "btn-ready")
            for page in pages:
                phase_is(page, "play")
        else:
            mistake(pages, server)
            expect(tid(pages[0], "phase")).not_to_have_attribute("data-phase", "play")
    for page in pages:
        phase_is(page, "lost")
        top(page)
        in_sight(page, "btn-new-game")


def test_a_vote_after_a_mistake_is_in_sight_on_a_phone(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    """The bar that stays at the screen's bottom edge covers no vote: after a mistake
    (its panel stays) a star proposed puts Akkoord and Niet akkoord in the news; each
    voter reaches both as the page stands (nobody scrolls), the bar in its place."""
    pages = phones(chromium, contexts, server)
    clear_level_one_and_start_two(pages)
    mistake(pages, server)
    for page in pages:
        phase_is(page, "stopped")
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
        expect(tid(page, "mistake")).to_be_visible()
    proposer = next(p for p in pages if tid(p, "btn-star").is_enabled())
    press(proposer, "btn-star")
    for page in (p for p in pages if p is not proposer):
        expect(tid(page, "btn-agree")).to_be_enabled()
        top(page)
        for testid in ("btn-agree", "btn-decline"):
            in_sight(page, testid)
