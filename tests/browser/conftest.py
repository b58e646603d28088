"""Browser-test infrastructure: a JupyterLab server and headless Chromium.

Every test collected from this directory is marked ``browser`` (deselect with
``-m "not browser"``).  The server is started by the tests themselves, so CI
needs nothing running beforehand; Chromium is Debian's ``/usr/bin/chromium``
(override with ``MINDWIDGET_CHROMIUM``), since Playwright cannot download its own.
The helpers themselves live in ``lab.py`` (shared with benchmarks/widget.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from lab import (
    LabError,
    launch_chromium,
    quiet_lab,
    running_lab,
    shutdown_sessions,
    write_notebook,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

HERE = Path(__file__).resolve().parent
# Default timeout for Playwright actions / expect() (ms).  A cold kernel start
# on a 2-core CI machine can take several seconds.
PW_TIMEOUT_MS = 60_000
expect.set_options(timeout=PW_TIMEOUT_MS)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's root_dir: tests copy notebooks here."""
    return tmp_path_factory.mktemp("lab_root")


@pytest.fixture(scope="session")
def lab_url(lab_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """JupyterLab on a free loopback port, its kernels started without asking and no
    news pop-up; yields its base URL ('http://127.0.0.1:N/')."""
    try:
        with running_lab(lab_root, tmp_path_factory.mktemp("lab_state")) as base:
            quiet_lab(base)
            yield base
    except LabError as exc:
        pytest.fail(str(exc))


@pytest.fixture(autouse=True)
def shut_kernels_down(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test that used the lab (its page already closed), shut its kernels down,
    so later tests do not share the 2-core machine with every earlier notebook's kernel."""
    yield
    if "lab_url" in request.fixturenames:
        shutdown_sessions(request.getfixturevalue("lab_url"))


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """Headless Debian Chromium driven by Playwright."""
    with sync_playwright() as pw:
        try:
            browser = launch_chromium(pw)
        except LabError as exc:
            pytest.fail(str(exc))
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium: Browser) -> Iterator[Page]:
    """A fresh browser context and page per test, with generous default timeouts."""
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(PW_TIMEOUT_MS)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


NotebookFactory = Callable[..., Path]


@pytest.fixture
def make_notebook(lab_root: Path) -> NotebookFactory:
    """``make_notebook("name.ipynb", "src1", "src2")`` writes a notebook into lab_root."""
    return lambda name, *sources: write_notebook(lab_root / name, *sources)


@pytest.fixture
def contexts(chromium: Browser) -> Iterator[list[BrowserContext]]:
    """The browser contexts a test opens (`class_pages.new_page`), closed after it."""
    made: list[BrowserContext] = []
    yield made
    for c in made:
        c.close()
