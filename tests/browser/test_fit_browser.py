"""Where a class trips (issue 21): the keys at a story's ends, a 02 story on a 1080p
screen, the table on an old 1280x720 projector and on a phone, in Dutch.

One JupyterLab for the module (the session's ``lab_url``); the phone test serves its
notebook with Voilà, as the student page is served. Every wait is on what the page
shows. The pictures go to docs/gallery/ (phone, 720 projector, 02 story).
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lab import (
    notebook_panel,
    open_notebook,
    run_cell,
    tid,
    write_notebook,
)
from playwright.sync_api import Browser, Locator, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from serving import free_port, jupyter_env, listening, server_process, with_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"
PW_TIMEOUT_MS = 60_000

# Every element of `el` whose text is cut or that reaches past the window's right
# edge: "cut" is a box that clips (overflow not visible) a content wider than
# itself, as "Akk…" or "speelt ove" were. Screen-reader-only text is left out.
CUT = """el => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  for (const e of el.querySelectorAll('*')) {
    if (e.closest('.mw-sr, svg') || !e.getClientRects().length) continue;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    const name = `${e.tagName}.${e.className}: ${e.textContent.trim().slice(0, 30)}`;
    if (r.right > vw + 0.5 || r.left < -0.5) out.push(`wider than the window: ${name}`);
    const clips = s.overflowX !== 'visible' || s.textOverflow === 'ellipsis';
    if (clips && e.scrollWidth > e.clientWidth + 1 && !['auto', 'scroll'].includes(s.overflowX))
      out.push(`cut (${e.scrollWidth} > ${e.clientWidth}): ${name}`);
  }
  return out;
}"""

# The smallest font size of any text in `el` (the trace's SVG and the key
# letters on the buttons, which the keys line repeats, left out).
SMALLEST_TEXT = """el => {
  let min = Infinity, at = '';
  for (const e of el.querySelectorAll('*')) {
    if (e.closest('svg, kbd, .mw-sr') || !e.getClientRects().length) continue;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const f = parseFloat(getComputedStyle(e).fontSize);
    if (f < min) { min = f; at = `${e.className}: ${e.textContent.trim().slice(0, 30)}`; }
  }
  return [min, at];
}"""


def shot(target: Page | Locator, name: str) -> None:
    GALLERY.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(GALLERY / f"{name}.png"), animations="disabled")


@contextlib.contextmanager
def sized_page(chromium: Browser, width: int, height: int, **options: Any) -> Iterator[Page]:
    context = chromium.new_context(viewport={"width": width, "height": height}, **options)
    context.set_default_timeout(PW_TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def files_open(page: Page) -> None:
    """JupyterLab's file browser open, as a teacher has it."""
    if not page.locator("#filebrowser").is_visible():
        page.locator('.jp-SideBar [data-id="filebrowser"]').click()
    expect(page.locator("#filebrowser")).to_be_visible()


def visible_height(page: Page) -> float:
    """The height of the notebook's scrolling area: what one screen shows of a cell."""
    h: float = (
        notebook_panel(page).locator(".jp-WindowedPanel-outer").evaluate("e => e.clientHeight")
    )
    return h


def to_top(target: Locator) -> None:
    target.evaluate("el => el.scrollIntoView({block: 'start'})")


def notebook(path: Path, *cells: tuple[str, str]) -> None:
    """A notebook of (kind, source) cells: kind "markdown" or "code"."""
    nb = json.loads(write_notebook(path).read_text())
    nb["cells"] = [
        {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": src}
        | ({"execution_count": None, "outputs": []} if kind == "code" else {})
        for i, (kind, src) in enumerate(cells)
    ]
    path.write_text(json.dumps(nb, indent=1))


# --------------------------------------------------------------- 1. the keys
def test_keys_past_a_storys_ends_stay_on_the_board(
    page: Page, lab_url: str, lab_root: Path
) -> None:
    """Past the last step (and before the first) an arrow key does nothing, gently: the
    focus stays on the board, no heading folds, no key reaches the notebook."""
    notebook(
        lab_root / "keys.ipynb",
        ("markdown", "# De fout"),
        ("code", 'from mindwidget import lesson\np = lesson.scenario("mistake", "nl")\np'),
        ("markdown", "## Laagste kaart eerst"),
        ("markdown", "Wat gebeurt er?"),
        ("code", "1 + 1"),
    )
    panel = open_notebook(page, lab_url, "keys.ipynb")
    run_cell(page, panel, 0)
    board = tid(panel, "scenario")
    counter = tid(board, "step-counter")
    expect(counter).to_have_attribute("data-position", "0")
    cells = panel.locator(".jp-Cell").count()
    tid(board, "btn-next").click()
    for k in range(2, 7):
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_attribute("data-position", str(k))
    expect(tid(board, "btn-next")).to_be_disabled()
    # One press too many, and more: nothing happens, the board keeps the keys.
    for key in ("ArrowRight", "ArrowRight", "End", "a", "m"):
        page.keyboard.press(key)
    expect(counter).to_have_attribute("data-position", "6")
    assert board.evaluate("b => b.contains(document.activeElement)")
    page.keyboard.press("ArrowLeft")  # the board steps back; no heading folds
    expect(counter).to_have_attribute("data-position", "5")
    expect(tid(board, "narration")).to_contain_text("58")
    # And at the start: Home, then Left again and again.
    page.keyboard.press("Home")
    expect(counter).to_have_attribute("data-position", "0")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_attribute("data-position", "1")
    assert board.evaluate("b => b.contains(document.activeElement)")
    # The notebook is as it was: no heading folded, no cell added, hidden or turned.
    expect(panel.locator('[data-heading-collapsed="true"]')).to_have_count(0)
    expect(panel.locator(".jp-Cell")).to_have_count(cells)
    expect(panel.locator(".jp-Cell.lm-mod-hidden, .jp-Cell.jp-mod-hidden")).to_have_count(0)
    expect(panel.locator(".jp-MarkdownCell.jp-mod-rendered")).to_have_count(3)
    expect(panel.get_by_role("heading", name="Laagste kaart eerst")).to_be_visible()


# ------------------------------------------------------- 5. a story at 1080p
def test_a_story_fits_1080p(chromium: Browser, lab_url: str, lab_root: Path) -> None:
    """Each step of the two tallest stories (the longest narration; four players) fits
    one 1920x1080 screen with the file browser open, timeline included; the phase line
    says what the narration says (the team concentrated)."""
    write_notebook(
        lab_root / "story.ipynb",
        'from mindwidget import lesson\np = lesson.scenario("mistake", "nl")\np',
        'q = lesson.scenario("four_players", "nl")\nq',
    )
    with sized_page(chromium, 1920, 1080) as page:
        panel = open_notebook(page, lab_url, "story.ipynb")
        files_open(page)
        run_cell(page, panel, 0)
        run_cell(page, panel, 1)
        screen = visible_height(page)
        for i in range(2):
            board = tid(panel, "scenario").nth(i)
            counter = tid(board, "step-counter")
            expect(counter).to_be_visible()
            position = 0
            while True:
                to_top(board)
                box = board.bounding_box()
                assert box is not None
                assert box["height"] <= screen, (i, position, box["height"], screen)
                trace = tid(board, "trace").bounding_box()
                assert (
                    trace is not None and trace["y"] + trace["height"] <= box["y"] + box["height"]
                )
                header = board.locator(".mw-header").bounding_box()
                assert header is not None and header["height"] <= 100, header  # two lines at most
                assert board.evaluate(CUT) == []
                if i == 0 and position == 1:
                    expect(tid(board, "phase")).to_have_attribute("data-phase", "concentrated")
                    expect(tid(board, "phase")).to_contain_text("geconcentreerd")
                    expect(tid(board, "narration")).to_contain_text("Handen op tafel")
                if i == 0 and position == 2:
                    shot(page, "story-1080")
                if tid(board, "btn-next").is_disabled():
                    break
                tid(board, "btn-next").click()
                position += 1
                expect(counter).to_have_attribute("data-position", str(position))
            assert position >= 6


# ---------------------------------------------------- 4. an old projector
def test_table_on_a_1280x720_projector(chromium: Browser, lab_url: str, lab_root: Path) -> None:
    """With the file browser open, the table's text is never below 14 px and the whole
    widget fits the screen, in projector size and in normal size; the keys line fits."""
    write_notebook(
        lab_root / "p720.ipynb",
        'from mindwidget import lesson\nw = lesson.play("nl", seed=5)\nw',
        'w.size = "normal"',
        "w.table.ready(0.0)\nw.table.play(0, 0.5)",  # a mistake: Bot 1 holds a lower card
    )
    with sized_page(chromium, 1280, 720) as page:
        panel = open_notebook(page, lab_url, "p720.ipynb")
        files_open(page)
        run_cell(page, panel, 0)
        w = tid(panel, "mindwidget").first
        expect(tid(w, "phase")).to_be_visible()
        screen = visible_height(page)
        for size in ("projector", "normal"):
            if size == "normal":
                run_cell(page, panel, 1)
                expect(w).not_to_have_class("mw-projector")
            to_top(w)
            smallest, where = w.evaluate(SMALLEST_TEXT)
            assert smallest >= 14, (size, smallest, where)
            box = w.bounding_box()
            assert box is not None and box["height"] <= screen, (size, box, screen)
            assert w.evaluate(CUT) == [], size
            keys = w.locator(".mw-keys")
            assert keys.evaluate("e => e.scrollWidth <= e.clientWidth"), size
            if size == "projector":
                shot(page, "projector-720-files")
        run_cell(page, panel, 2)
        expect(tid(w, "mistake")).to_be_visible()
        to_top(w)
        box = w.bounding_box()
        assert box is not None and box["height"] <= screen
        assert w.evaluate(SMALLEST_TEXT)[0] >= 14
        assert w.evaluate(CUT) == []


# ---------------------------------------------- 8. the step table, Run All
def test_step_table_after_run_all(page: Page, lab_url: str, lab_root: Path) -> None:
    """01's step table, run with Run All in a fresh kernel (the next cell plays two cards
    before the browser has shown the table): the timeline shows both cards, the
    teacher's countdown is whole, and nothing is cut."""
    write_notebook(
        lab_root / "runall.ipynb",
        'from mindwidget import lesson\nclass_view = lesson.class_view("nl")\nclass_view',
        "lesson.next_moves(class_view, 2)",
    )
    panel = open_notebook(page, lab_url, "runall.ipynb")
    page.get_by_text("Run", exact=True).first.click()
    page.get_by_text("Run All Cells", exact=True).click()
    w = tid(panel, "mindwidget")
    expect(tid(w, "pile")).to_contain_text("Stapel (2)")
    expect(w.locator('[data-testid="trace"] [data-kind="play"]')).to_have_count(2)
    plan = w.locator('[data-testid^="plan-"]')
    expect(plan).to_have_count(1)
    expect(plan).to_contain_text("speelt over")
    to_top(w)
    assert w.evaluate(CUT) == []
    box, seat = (
        plan.bounding_box(),
        plan.locator("xpath=ancestor::*[@data-anchor][1]").bounding_box(),
    )
    assert box is not None and seat is not None
    assert box["x"] + box["width"] <= seat["x"] + seat["width"]  # whole, inside its seat


# --------------------------------------------------------------- 3. a phone
PHONE_NOTEBOOK = '''from mindwidget import MindWidget
from mindwidget.bots import PerfectTimer


class Proposer(PerfectTimer):
    """A perfect bot that proposes a throwing star half a second into the level, and agrees."""

    def wants_star(self, obs, rng):
        return True

    def star_delay(self, obs, rng):
        return 0.5

    def vote(self, obs, rng):
        return True


# level 1: you hold 36, Bot 1 holds 16 (one second a step: it waits 16 s),
# Bot 2 holds 65 (0.3 s a step: after your 36 it waits 8.7 s)
MindWidget(players=3, seat=0, seed=73, lang="nl",
           bots=[PerfectTimer(1.0), Proposer(1.0, propose_stars=True), Proposer(0.3)])'''


@contextlib.contextmanager
def voila(notebook_path: Path, state: Path) -> Iterator[str]:
    """Voilà serving one notebook on a free loopback port (as `mindwidget app` does)."""
    state.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = with_path(jupyter_env(state), ROOT)
    cmd = [
        sys.executable, "-m", "voila", str(notebook_path),
        "--Voila.ip=127.0.0.1", f"--port={port}", "--Voila.port_retries=0",
        "--theme=light", "--no-browser",
    ]  # fmt: skip
    with server_process(
        cmd,
        state / "voila.log",
        up=lambda: listening(port),
        what="Voilà",
        timeout=90,
        env=env,
        cwd=notebook_path.parent,
        stop=signal.SIGINT,
    ):
        yield f"http://127.0.0.1:{port}/"


def phone_checks(page: Page, w: Locator, what: str) -> None:
    """Nothing wider than the screen or cut; every button and menu at least 44 px."""
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")  # sizes at rest
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, what
    assert w.evaluate(CUT) == [], what
    small = w.evaluate(
        "el => [...el.querySelectorAll('button, select')].filter(e => e.getClientRects().length)"
        ".map(e => [e.dataset.testid || e.tagName, e.getBoundingClientRect()])"
        ".filter(([, r]) => r.height < 44 || r.width < 44)"
        ".map(([k, r]) => `${k} ${r.width}x${r.height}`)"
    )
    assert small == [], (what, small)


def test_table_on_a_phone(chromium: Browser, tmp_path: Path) -> None:
    """390x844, touch, Dutch: through a star vote, a mistake and the level's end, every
    button keeps its whole label, the mistake reads across the screen, nothing is cut
    or too wide."""
    nb = tmp_path / "phone.ipynb"
    write_notebook(nb, PHONE_NOTEBOOK)
    with (
        voila(nb, tmp_path / "voila") as url,
        sized_page(chromium, 390, 844, is_mobile=True, has_touch=True) as page,
    ):
        page.goto(url)
        w = tid(page, "mindwidget")
        expect(tid(w, "phase")).to_have_attribute("data-phase", "ready")
        # The header keeps the title, the level time and the language menu.
        for part in (w.locator(".mw-title"), tid(w, "clock"), tid(w, "lang"), tid(w, "level")):
            expect(part).to_be_visible()
        phone_checks(page, w, "start")

        tid(w, "btn-ready").tap()
        vote = tid(w, "vote")
        expect(tid(vote, "btn-decline")).to_be_visible()  # Bot 1 proposed a star
        expect(tid(vote, "btn-decline").locator(".mw-btn-label")).to_have_text("Niet akkoord")
        expect(tid(vote, "btn-agree").locator(".mw-btn-label")).to_have_text("Akkoord")
        phone_checks(page, w, "vote")
        to_top(w)
        shot(page, "phone-star-vote")
        tid(vote, "btn-decline").tap()
        expect(vote).to_have_attribute("data-result", "declined")

        tid(w, "lowest-card").tap()  # 36, while Bot 1 still holds 16
        mistake = tid(w, "mistake")
        expect(mistake).to_contain_text("Jij legde de 36")
        panel_box = mistake.bounding_box()
        assert panel_box is not None and panel_box["width"] >= 280, panel_box  # not a column
        phone_checks(page, w, "mistake")
        to_top(w)
        shot(page, "phone-mistake")

        # Ready again; Bot 2 plays 65: the level's ending stands under the buttons,
        # covering no sentence.
        tid(w, "btn-ready").tap()
        expect(tid(w, "cleared")).to_be_visible(timeout=30_000)
        phone_checks(page, w, "cleared")
        phase, ending = tid(w, "phase").bounding_box(), tid(w, "cleared").bounding_box()
        assert phase is not None and ending is not None
        assert ending["y"] >= phase["y"] + phase["height"], (phase, ending)
