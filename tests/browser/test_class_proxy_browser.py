"""Pupils join the class through a real reverse proxy (Debian's nginx) and play a level.

A school that keeps pupils' devices from reaching a teacher's laptop runs the
class on a server behind a proxy (docs/school-it.md). Here nginx
(`tests/nginx_proxy.py`, the guide's configuration less TLS) stands on
127.0.0.1 in front of the `Classroom`, which trusts it for the pupils'
addresses: every page, its bundle and its WebSocket go through nginx.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from class_pages import clear_level_one_and_start_two, new_page, phase_is, press
from lab import tid
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import Server  # noqa: E402
from nginx_proxy import NGINX, nginx_proxy  # noqa: E402
from serving import free_port  # noqa: E402

SHOTS = Path(os.environ.get("MINDWIDGET_SHOTS", "/work/wt/notes/shots/network"))


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Server, int]]:
    if not os.path.exists(NGINX):
        pytest.skip("nginx is not installed (.ci/run installs Debian's nginx)")
    port = free_port()  # nginx's: the class's public address
    s = Server(
        size=3,
        seed=12,
        lang="nl",
        grace=30.0,
        trust_proxy="127.0.0.1",
        public_url=f"http://127.0.0.1:{port}",
    )
    try:
        with nginx_proxy(s.port, tmp_path / "nginx", port=port):
            yield s, port
    finally:
        s.stop()


def join(page: Page, port: int, code: str, name: str) -> None:
    page.goto(f"http://127.0.0.1:{port}/")
    page.get_by_label("Code").fill(code)
    page.get_by_label("Naam").fill(name)
    page.get_by_role("button", name="Meedoen").click()
    expect(page.locator("body")).to_have_attribute("data-joined", "true")


def test_three_pupils_join_through_nginx_and_play_a_level(
    chromium: Browser,
    contexts: list[BrowserContext],
    proxied: tuple[Server, int],
    tmp_path: Path,
) -> None:
    server, port = proxied
    room = server.room
    assert room is not None
    pages = [new_page(chromium, contexts) for _ in range(3)]
    for page, name in zip(pages, ["Anna", "Bram", "Chaima"], strict=True):
        join(page, port, room.code, name)
    for page in pages:
        phase_is(page, "ready")
    expect(tid(pages[1], "class-me")).to_contain_text("Bram · Tafel 1 · Speler 2")
    for page in pages:
        press(page, "btn-ready")
    for page in pages:
        phase_is(page, "play")
    clear_level_one_and_start_two(pages)  # level 1 played and cleared, level 2 running
    if SHOTS.parent.exists():
        SHOTS.mkdir(exist_ok=True)
        pages[0].screenshot(path=str(SHOTS / "proxy-level-2-nl.png"), animations="disabled")
    # the server saw each page through the proxy, at the address nginx forwarded
    addresses = server.call(lambda: sorted(p.address for p in room.pupils.values()))
    assert addresses == ["127.0.0.1"] * 3
    # and nginx served the pages and the bundle (a socket is logged when it closes)
    log = (tmp_path / "nginx" / "access.log").read_text().splitlines()
    assert sum(1 for line in log if 'GET / HTTP/1.1" 200' in line and "Chrom" in line) == 3
    assert any("GET /static/class.js" in line for line in log)
