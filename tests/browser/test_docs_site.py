"""The documentation site in Chromium: its home page in English, Dutch and German.

The site is the one ``make docs`` built (``MINDWIDGET_SITE``, its folder); run
alone, the test builds one with ``mkdocs build --strict``. The test serves the
folder on 127.0.0.1 under the path of its ``site_url`` (``/mindwidget/``, as
GitHub Pages serves a project's site) and opens each language's home page: it speaks its
language, shows the three readers and the teacher's two commands in that
language, offers the other two languages, passes an axe audit (WCAG 2.2 A and
AA) in the light and the dark scheme, asks no other host for anything, fits a
phone, and every link and picture on it answers.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect

ROOT = Path(__file__).resolve().parents[2]
#: Each language's home page (the site's root is English), its three readers, and
#: the words of the other languages' entries in the language menu.
HOMES = {
    "en": ("", ("For the teacher", "For the school's IT", "For the developer")),
    "nl": ("nl/", ("Voor de docent", "Voor de ICT van de school", "Voor de ontwikkelaar")),
    "de": ("de/", ("Für die Lehrkraft", "Für die Schul-IT", "Für die Entwicklung")),
}
NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch"}


def site_path() -> str:
    """The path the site is published under (mkdocs.yml's ``site_url``), e.g. ``/mindwidget/``."""
    found = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)
    assert found, "mkdocs.yml names no site_url"
    return urlsplit(found[1]).path.rstrip("/") + "/"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make docs``'s site folder (``MINDWIDGET_SITE``), or one built here."""
    given = os.environ.get("MINDWIDGET_SITE", "").strip()
    if given:
        folder = Path(given)
        if not (folder / "index.html").is_file():
            pytest.fail(f"MINDWIDGET_SITE={given!r} holds no built site (make docs builds one)")
        return folder
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    if mkdocs is None:
        pytest.fail("mkdocs is not installed: pip install -e '.[docs]' (make venv does)")
    folder = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [mkdocs, "build", "--strict", "--quiet", "--site-dir", str(folder)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}")
    return folder


class _Published(SimpleHTTPRequestHandler):
    """The site's files under `site_path` only (anything else: 404), without a log line."""

    prefix = "/"

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "no such page")
        return super().translate_path("/" + path[len(self.prefix) :])

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def base(site: Path) -> Iterator[str]:
    """The site served on a free port of 127.0.0.1: its home page's URL."""
    prefix = site_path()
    handler = functools.partial(
        type("Handler", (_Published,), {"prefix": prefix}), directory=str(site)
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def phone(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
    )
    try:
        yield context.new_page()
    finally:
        context.close()


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.parametrize("lang", list(HOMES))
def test_the_home_page_speaks_its_language_to_its_three_readers(
    page: Page, base: str, lang: str
) -> None:
    path, readers = HOMES[lang]
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(base + path)
    page.wait_for_load_state("networkidle")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("article h1")).to_contain_text("mindwidget")
    for reader in readers:
        expect(page.locator("article .grid.cards").get_by_text(reader, exact=True)).to_be_visible()
    # the teacher's two commands, the lessons in this page's language
    commands = page.locator("article .grid.cards pre").first
    expect(commands).to_contain_text('pip install "mindwidget[lab]"')
    expect(commands).to_contain_text(f"mindwidget lesson --lang {lang}")
    # the language menu offers the other two languages' home pages
    for other, (other_path, _) in HOMES.items():
        link = page.locator(f'.md-select a[hreflang="{other}"]')
        expect(link).to_have_text(NAMES[other])
        assert urljoin(page.url, link.get_attribute("href") or "") == base + other_path
    assert_accessible(page, f"the {lang} home page")
    # nothing from elsewhere: no fonts, no scripts, no repository statistics
    elsewhere = [url for url in asked if urlsplit(url).netloc != urlsplit(base).netloc]
    assert elsewhere == [], f"the {lang} home page asked other hosts: {elsewhere}"


@pytest.mark.parametrize("lang", list(HOMES))
def test_the_home_page_in_the_dark_scheme(chromium: Browser, base: str, lang: str) -> None:
    # Material's dark scheme follows the system's until the reader picks one
    context = chromium.new_context(viewport={"width": 1280, "height": 720}, color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(base + HOMES[lang][0])
        expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
        assert_accessible(page, f"the {lang} home page in the dark scheme")
    finally:
        context.close()


def test_every_link_and_picture_of_the_home_pages_answers(page: Page, base: str) -> None:
    for lang, (path, _) in HOMES.items():
        page.goto(base + path)
        hrefs = page.eval_on_selector_all(
            "a[href]", "els => els.map(a => new URL(a.getAttribute('href'), location.href).href)"
        )
        local = sorted({h.split("#")[0] for h in hrefs if h.startswith(base)})
        assert len(local) >= 18, (lang, local)  # the nav, the cards, the languages
        broken = [h for h in local if status(h) != 200]
        assert broken == [], f"{lang}: links that do not answer: {broken}"
        pictures = page.locator("article img")
        assert pictures.count() >= 1
        for i in range(pictures.count()):
            picture = pictures.nth(i)
            picture.scroll_into_view_if_needed()
            src = picture.get_attribute("src") or ""
            assert urlsplit(urljoin(page.url, src)).netloc == urlsplit(base).netloc, src
            assert picture.evaluate("img => img.complete && img.naturalWidth > 0"), src
            assert picture.get_attribute("alt"), f"{lang}: a picture without words: {src}"


def test_the_dutch_home_page_fits_a_phone(phone: Page, base: str) -> None:
    phone.goto(base + "nl/")
    expect(phone.get_by_text("Voor de docent", exact=True)).to_be_visible()
    overflow = phone.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the phone"
    # the teacher's commands are readable without scrolling sideways on the page
    box = phone.locator("article .grid.cards pre").first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert_accessible(phone, "the Dutch home page on a phone")
