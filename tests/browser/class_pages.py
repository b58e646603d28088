"""Pupils' pages of the class server in Chromium: one browser context per pupil
(its own storage, as its own laptop or phone; the ``contexts`` fixture in
conftest.py closes them), and what a pupil does there.
Shared by the class-server and the dashboard browser tests."""

from __future__ import annotations

from typing import Any

from conftest import PW_TIMEOUT_MS
from lab import tid
from playwright.sync_api import Browser, BrowserContext, Page, expect


def new_page(chromium: Browser, made: list[BrowserContext], **options: Any) -> Page:
    options.setdefault("viewport", {"width": 1280, "height": 720})
    context = chromium.new_context(**options)
    context.set_default_timeout(PW_TIMEOUT_MS)
    made.append(context)
    return context.new_page()


def phone_page(chromium: Browser, made: list[BrowserContext]) -> Page:
    """A pupil's phone: 390 x 844, touch, twice the pixels."""
    return new_page(
        chromium,
        made,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )


def phase_is(page: Page, phase: str) -> None:
    expect(tid(page, "phase")).to_have_attribute("data-phase", phase)


def press(page: Page, testid: str) -> None:
    button = tid(page, testid)
    expect(button).to_be_enabled()
    button.click()


def lowest(page: Page) -> int | None:
    """The pupil's lowest card as their page shows it (None: no cards)."""
    card = tid(page, "lowest-card")
    return int(card.get_attribute("data-card") or 0) if card.count() else None


def clear_level_one_and_start_two(pages: list[Page]) -> None:
    """Level 1 running: each plays their card in order (lowest first), every page
    shows it cleared; the first deals level 2, all press Ready, it runs."""
    for page in sorted(pages, key=lambda p: lowest(p) or 999):
        press(page, "btn-play")
    for page in pages:
        phase_is(page, "cleared")
    press(pages[0], "btn-next-level")
    for page in pages:
        phase_is(page, "ready")
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
