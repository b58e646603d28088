"""A question to the whole class in Chromium (issue 32): several pupils, one a phone.

The server (`Classroom`) runs in this process (`tests/classroom_harness.py`);
each pupil is a browser context of their own. Every frame each page receives
over its WebSocket is kept and checked: a page gets its own answer and, only
after the reveal, the class's counts, never another pupil's answer. The
pictures go to docs/gallery/ (question-*.png): the question on a phone, and
the reveal as the teacher's notebook shows it on a projector (1920x1080,
1280x720), drawn by the widget's own bundle on a plain page.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import assert_accessible
from class_pages import new_page, phase_is, phone_page, press
from lab import tid
from playwright.sync_api import Browser, BrowserContext, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom_harness import Server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"
STATIC = ROOT / "mindwidget" / "static"

QUESTION = {
    "nl": "Hoeveel levels haalt jullie tafel vandaag?",
    "en": "How many levels will your table clear today?",
    "de": "Wie viele Level schafft euer Tisch heute?",
}
CHOICES = [
    {"nl": "1 of 2", "en": "1 or 2", "de": "1 oder 2"},
    {"nl": "3 of 4", "en": "3 or 4", "de": "3 oder 4"},
    {"nl": "5 of meer", "en": "5 or more", "de": "5 oder mehr"},
]
LABELS = {"nl": ("Naam", "Meedoen"), "de": ("Name", "Mitspielen"), "en": ("Name", "Join")}


def shot(page: Page, name: str) -> None:
    GALLERY.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(GALLERY / f"{name}.png"), animations="disabled")


def join(page: Page, server: Server, name: str, lang: str) -> None:
    name_label, button = LABELS[lang]
    page.goto(f"http://127.0.0.1:{server.port}/?lang={lang}")
    page.get_by_label("Code").fill(server.room.code)  # type: ignore[union-attr]
    page.get_by_label(name_label).fill(name)
    page.get_by_role("button", name=button).click()
    expect(page.locator("body")).to_have_attribute("data-joined", "true")


def keep_frames(page: Page) -> list[dict[str, Any]]:
    """Every frame the page receives on its sockets, parsed (reloads included)."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def choose(page: Page, index: int) -> None:
    button = tid(page, "class-question-choice").nth(index)
    expect(button).to_be_enabled()
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def questions_in(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        f["class"]["question"]
        for f in frames
        if f.get("type") == "update"
        and isinstance(f.get("class"), dict)
        and f["class"].get("question")
    ]


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=12, lang="nl", grace=30.0, data=False)
    yield s
    s.stop()


def test_a_question_reaches_every_page_in_its_language_and_each_sees_only_its_own_answer(
    chromium: Browser, contexts: list[BrowserContext], server: Server
) -> None:
    room = server.room
    assert room is not None
    anna = new_page(  # a phone, as `phone_page`; axe is injected (bypass_csp)
        chromium,
        contexts,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        bypass_csp=True,
    )
    bram = new_page(chromium, contexts)
    chaima = new_page(chromium, contexts)
    pupils = {"Anna": (anna, "nl"), "Bram": (bram, "en"), "Chaima": (chaima, "de")}
    frames = {name: keep_frames(page) for name, (page, _) in pupils.items()}
    for name, (page, lang) in pupils.items():
        join(page, server, name, lang)
    for page, _ in pupils.values():
        phase_is(page, "ready")

    q = server.call(lambda: room.ask(QUESTION, CHOICES, answer=1))
    for page, lang in pupils.values():
        expect(tid(page, "class-question-text")).to_have_text(QUESTION[lang])
        expect(tid(page, "class-question-choice")).to_have_count(3)
        expect(tid(page, "class-question-choice").first).to_have_text(CHOICES[0][lang])
    # every button is a touch target on the phone, and the question fits its width
    sizes = tid(anna, "class-question-choice").evaluate_all(
        "bs => bs.map(b => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])"
    )
    assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390

    choose(anna, 0)
    choose(bram, 2)
    choose(chaima, 0)
    choose(chaima, 1)  # a change of mind before the question closes
    expect(tid(chaima, "class-question-choice").first).to_have_attribute("aria-pressed", "false")
    assert server.call(q.counts) == {0: 1, 1: 1, 2: 1}
    shot(anna, "question-phone-nl")
    assert_accessible(anna, "the open question on a phone", '[data-testid="class-question"]')

    # a reload keeps the open question, with the pupil's own choice pressed
    chaima.reload()
    expect(tid(chaima, "class-question-text")).to_have_text(QUESTION["de"])
    expect(tid(chaima, "class-question-choice").nth(1)).to_have_attribute("aria-pressed", "true")

    # while the table plays, the question waits: it never covers the cards
    for page, _ in pupils.values():
        press(page, "btn-ready")
    for page, _ in pupils.values():
        phase_is(page, "play")
        expect(tid(page, "class-question-waits")).to_be_visible()
        expect(tid(page, "class-question-choice")).to_have_count(0)
    anna.evaluate("window.scrollTo(0, 0)")
    shot(anna, "question-phone-waits-while-playing-nl")
    server.call(room.pause_all)
    for page, _ in pupils.values():
        phase_is(page, "stopped")
        expect(tid(page, "class-question-choice")).to_have_count(3)

    server.call(q.reveal)
    expect(tid(anna, "class-question-result")).to_have_text("Jij koos 1 of 2")
    expect(tid(anna, "class-question-answer")).to_have_text("Het antwoord: 3 of 4")
    expect(tid(bram, "class-question-result")).to_have_text("You chose 5 or more")
    expect(tid(bram, "class-question-answer")).to_have_text("The answer: 3 or 4")
    expect(tid(chaima, "class-question-result")).to_have_text("Du hast 3 oder 4 gewählt")
    counts = "De klas: 1 of 2: 1 · 3 of 4: 1 · 5 of meer: 1"  # counts only, after the reveal
    expect(tid(anna, "class-question-counts")).to_have_text(counts)
    anna.evaluate("window.scrollTo(0, 0)")
    shot(anna, "question-phone-revealed-nl")
    assert_accessible(anna, "the revealed question", '[data-testid="class-question"]')

    frame_rows = server.call(q.answers)
    assert sorted(frame_rows["name"]) == ["Anna", "Bram", "Chaima"]
    mine = {"Anna": {0}, "Bram": {2}, "Chaima": {0, 1}}  # Chaima changed her mind
    for name, got in frames.items():
        seen = questions_in(got)
        assert seen, f"{name}'s page was sent the question"
        for view in seen:
            assert view["mine"] in {None} | mine[name], (name, view)  # its own, or none yet
            if view["state"] != "revealed":
                assert "counts" not in view and "answer" not in view, (name, view)
        assert seen[-1]["counts"] == [1, 1, 1]
        others = [
            pid
            for pid in ("p1", "p2", "p3")
            if pid
            != server.call(lambda n=name: next(p.id for p in room.pupils.values() if p.name == n))
        ]
        text = json.dumps(got)
        assert not any(f'"{pid}"' in text for pid in others), name  # no other pupil's id

    # the lesson ends: each page keeps its own answers
    server.call(room.end)
    expect(tid(anna, "class-answers")).to_contain_text("Jouw antwoorden")
    expect(tid(anna, "class-answers")).to_contain_text("Jij koos 1 of 2")
    expect(tid(bram, "class-answers")).to_contain_text("You chose 5 or more")
    expect(tid(chaima, "class-answers")).to_contain_text("Du hast 3 oder 4 gewählt")
    shot(anna, "question-phone-after-lesson-nl")


# ------------------------------------------------------------------ the projector
PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>question</title>
<link rel="stylesheet" href="question_widget.css">
<style>body {{ margin: 24px 48px; font-family: system-ui, sans-serif; }}</style></head>
<body><div id="host"></div>
<script type="module">
import widget from "./question_widget.js";
const view = await (await fetch("view.json")).json();
const model = {{ get: () => view, on: () => {{}}, off: () => {{}} }};
widget.render({{ model, el: document.getElementById("host") }});
document.body.dataset.ready = "1";
</script></body></html>
"""


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


def test_the_reveal_on_the_projector_is_readable_at_both_sizes(
    chromium: Browser, contexts: list[BrowserContext], served: tuple[Path, str]
) -> None:
    """The notebook's display of a revealed question, as the class's answers came in
    from 30 pupils (a real `Room`, answers through its checks)."""
    from mindwidget.classroom.inbox import parse
    from mindwidget.classroom.room import ManualTimers, Room
    from mindwidget.lesson.kit import bins, everyone

    sys.path.insert(0, str(ROOT / "tests"))
    from test_room import FakeLink

    room = Room(ManualTimers(), size=3, lang="nl", seed=1)
    links = []
    for i in range(30):
        link = FakeLink([], f"10.0.1.{i}")
        room.receive(link, parse(json.dumps({"type": "join", "code": room.code, "name": f"P{i}"})))
        links.append(link)
    labels = [f"{lo}–{hi}" for lo, hi in bins(100)]
    q = room.ask(everyone("03-probability.bet_swap"), labels, answer=4)
    guesses = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 7, 7, 8, 9]
    for link, guess in zip(links, guesses, strict=False):
        room.receive(link, parse(json.dumps({"type": "answer", "question": 1, "choice": guess})))
    q.reveal()
    folder, url = served
    for name in ("question_widget.js", "question_widget.css"):
        shutil.copy(STATIC / name, folder / name)
    (folder / "view.json").write_text(json.dumps(q.view()), encoding="utf-8")
    (folder / "index.html").write_text(PAGE.format(lang="nl"), encoding="utf-8")
    for width, height in ((1920, 1080), (1280, 720)):
        page = new_page(chromium, contexts, viewport={"width": width, "height": height})
        page.goto(url)
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        answered = "26 van 30 leerlingen hebben geantwoord"
        expect(tid(page, "question-answered")).to_have_text(answered)
        expect(tid(page, "question-answer")).to_have_text("Het antwoord: 40–49")
        rows = page.locator(".mwq-label").evaluate_all(
            "ls => ls.map(l => parseFloat(getComputedStyle(l).fontSize))"
        )
        assert len(rows) == 10 and min(rows) >= 20  # read from the back row
        box = tid(page, "question-widget").bounding_box()
        assert box is not None and box["y"] + box["height"] <= height  # all of it in sight
        shot(page, f"question-reveal-projector-{width}x{height}-nl")


# ------------------------------------------------------------------ in JupyterLab
def test_a_bet_in_the_notebook_goes_to_the_pupils_and_counts_them_live(
    page: Page, lab_url: str, lab_root: Path, chromium: Browser, contexts: list[BrowserContext]
) -> None:
    """The lesson's Bet finds the class the kernel serves: the pupil's phone gets it, the
    notebook counts the answer with no cell run (the server's loop updates it), and
    "Toon het antwoord" shows the class's answers before the answer, on a projector."""
    from lab import open_notebook, run_cell, write_notebook

    write_notebook(
        lab_root / "class-bet.ipynb",
        "from mindwidget import Classroom, lesson\n"
        'c = Classroom(lang="nl", size=2, data=False)\nprint(c.url)',
        'bet = lesson.bet_watch_bots("nl")\nbet',
    )
    page.set_viewport_size({"width": 1920, "height": 1080})
    panel = open_notebook(page, lab_url, "class-bet.ipynb")
    run_cell(page, panel, 0)
    url = panel.locator(".jp-OutputArea-output").first.inner_text().strip()
    pupil = phone_page(chromium, contexts)
    pupil.goto(url)
    pupil.get_by_label("Naam").fill("Sam")
    pupil.get_by_role("button", name="Meedoen").click()
    expect(pupil.locator("body")).to_have_attribute("data-joined", "true")
    run_cell(page, panel, 1)
    panel.get_by_role("button", name="Vraag het de klas").click()  # running the cell asks nobody
    counted = tid(panel, "question-answered")
    expect(counted).to_have_text("0 van 1 leerlingen hebben geantwoord")
    expect(tid(pupil, "class-question-text")).to_have_text("Halen deze drie bots alle 10 levels?")
    choose(pupil, 0)
    expect(counted).to_have_text("1 van 1 leerlingen hebben geantwoord")  # no cell was run
    panel.get_by_role("button", name="Toon het antwoord").click()
    expect(tid(panel, "question-chart")).to_be_visible()
    expect(tid(pupil, "class-question-result")).to_have_text("Jij koos Ja")
    expect(tid(pupil, "class-question-answer")).to_contain_text("Het antwoord: ")
    tid(panel, "question-widget").scroll_into_view_if_needed()
    shot(page, "question-bet-notebook-1920x1080-nl")
