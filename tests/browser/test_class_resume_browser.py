"""A class server killed with SIGKILL and started again with ``--resume`` (issue 25):
three pupils' pages in Chromium come back by themselves (they retry with the seat
token in their storage) and find their seat, hand, pile and lives as they were; the
table waits, hands on the table, until all three press Klaar again.

Screenshots (Dutch and English, the pupil's page at 1920x1080, 1280x720 and a
390x844 phone) go to /work/wt/notes/shots/journal/ when that folder exists."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from class_pages import new_page, phase_is, press
from lab import tid
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from class_process import ClassProcess, free_port  # noqa: E402

SHOTS = Path("/work/wt/notes/shots/journal")
CARDS = "el => [...el.querySelectorAll('[data-card]')].map(c => c.dataset.card)"


def shot(page: Page, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def join(page: Page, server: ClassProcess, name: str, label: str, button: str) -> None:
    page.goto(f"http://127.0.0.1:{server.port}/")
    page.get_by_label("Code").fill(server.code)
    page.get_by_label(label).fill(name)
    page.get_by_role("button", name=button).click()
    expect(page.locator("body")).to_have_attribute("data-joined", "true")


def seen(page: Page) -> tuple[object, ...]:
    """What the page shows: its seat line, hand, pile and lives."""
    return (
        tid(page, "class-me").inner_text(),
        tid(page, "hand").evaluate(CARDS),
        tid(page, "pile").evaluate(CARDS),
        tid(page, "lives").get_attribute("data-count"),
    )


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_kill_9_then_resume_the_pages_come_back_by_themselves(
    chromium: Browser, contexts: list[BrowserContext], tmp_path: Path, lang: str
) -> None:
    server = ClassProcess(tmp_path / "data", free_port(), "--size", "3", "--seed", "7")
    server.start("--lang", lang)
    label, button = ("Naam", "Meedoen") if lang == "nl" else ("Name", "Join")
    sizes = [(1920, 1080), (1280, 720), (390, 844)]
    pages = []
    try:
        for (w, h), name in zip(sizes, ["Anna", "Bram", "Chaima"], strict=True):
            phone = w < 500
            page = new_page(
                chromium,
                contexts,
                viewport={"width": w, "height": h},
                is_mobile=phone,
                has_touch=phone,
            )
            pages.append(page)
            join(page, server, name, label, button)
        for page in pages:
            phase_is(page, "ready")
            press(page, "btn-ready")
        for page in pages:
            phase_is(page, "play")
        # level 1: the lowest card is played, every page shows it on the pile
        low = min(pages, key=lambda p: int(tid(p, "lowest-card").get_attribute("data-card") or 999))
        press(low, "btn-play")
        for page in pages:
            expect(tid(page, "pile").locator("[data-card]")).to_have_count(1)
        before = [seen(p) for p in pages]

        server.kill()
        for page in pages:
            expect(tid(page, "class-net")).to_have_attribute("data-state", "reconnecting")
        shot(pages[1], f"resume-offline-{lang}-1280")
        server.start("--resume", "--lang", lang)
        for page, was in zip(pages, before, strict=True):
            expect(tid(page, "class-net")).to_have_attribute("data-state", "")
            phase_is(page, "stopped")  # hands on the table until all press Klaar again
            expect(tid(page, "notice")).to_have_attribute("data-key", "resumed")  # and why
            assert seen(page) == was
        for page, (w, _) in zip(pages, sizes, strict=True):
            shot(page, f"resume-back-{lang}-{w}")
        for page in pages:
            press(page, "btn-ready")
        for page in pages:
            phase_is(page, "play")
    finally:
        server.stop()


def test_a_new_class_on_the_same_port_tells_an_old_page_to_join_again(
    chromium: Browser, contexts: list[BrowserContext], tmp_path: Path
) -> None:
    """The kernel restarted and the teacher ran Classroom(...) without resume: a pupil's
    page comes back with a seat token of the old class. It says so, in the class's
    language, and its join button works with the new code (it stayed greyed, without a
    word)."""
    port = free_port()
    first = ClassProcess(tmp_path / "one", port, "--size", "3")
    first.start("--lang", "nl")
    page = new_page(chromium, contexts, viewport={"width": 390, "height": 844})
    try:
        join(page, first, "Anna", "Naam", "Meedoen")
        first.kill()
        second = ClassProcess(tmp_path / "two", port, "--size", "3")
        second.start("--lang", "nl")
        try:
            expect(page.locator("#error")).to_contain_text("Je zit niet meer in deze klas")
            button = page.get_by_role("button", name="Meedoen")
            expect(button).to_be_enabled()
            shot(page, "new-class-old-page-nl-390x844")
            page.get_by_label("Code").fill(second.code)
            page.get_by_label("Naam").fill("Anna")
            button.click()
            expect(page.locator("body")).to_have_attribute("data-joined", "true")
            expect(tid(page, "class-me")).to_contain_text("Anna")
        finally:
            second.stop()
    finally:
        first.stop()


def test_the_teachers_page_says_when_its_server_is_gone_and_when_it_is_back(
    chromium: Browser, contexts: list[BrowserContext], tmp_path: Path
) -> None:
    """The class server killed: the teacher's page on the projector says so at once, in
    the class's language, and greys what it showed (it went on showing "Speelt" and the
    pupils online). Resumed, it is itself again."""
    server = ClassProcess(tmp_path / "data", free_port(), "--size", "3")
    server.start("--lang", "nl")
    pupil = new_page(chromium, contexts)
    teacher = new_page(chromium, contexts)
    try:
        join(pupil, server, "Anna", "Naam", "Meedoen")
        teacher.goto(server.teacher_url)
        expect(teacher.locator("body")).to_have_attribute("data-connected", "true")
        lost = tid(teacher, "server-lost")
        expect(lost).to_be_hidden()
        server.kill()
        expect(lost).to_be_visible()
        expect(lost).to_contain_text("Geen verbinding met de klasserver")
        box = lost.bounding_box()
        assert box is not None and box["y"] < 100 and box["width"] > 600, box  # at the top
        shot(teacher, "teacher-server-lost-nl-1280x720")
        server.start("--resume")
        expect(lost).to_be_hidden()
        expect(teacher.locator("body")).to_have_attribute("data-connected", "true")
    finally:
        server.stop()
