"""06's tables in JupyterLab, as the projector shows them (1920x1080 and 1280x720 with
the file browser open): every card a row with its count, "–" and its note instead of
NaN, decimal commas, projector-sized text, nothing wider than the cell.

The class is three tables of human-like bots on the same deal, seated as pupils (no
class server needed: `lesson.class_plays` and `class_tables` read any object with
``plays()``, ``results()`` and ``games()``). The pictures go to docs/gallery/.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from lab import open_notebook, run_cell
from playwright.sync_api import Page, expect

GALLERY = Path(__file__).resolve().parents[2] / "docs" / "gallery"

CLASS = """
from dataclasses import dataclass
from mindwidget import Game, classdata, lesson, run_game

@dataclass
class Played:
    tables: dict
    seats: dict
    same_deal: bool = True
    def plays(self): return classdata.plays(self.tables, self.seats)
    def results(self): return classdata.results(self.tables)
    def games(self): return classdata.games(self.tables)

tables = {n: run_game(Game(players=3, seed=5), "human", seed=n) for n in (1, 2, 3)}
names = {1: ["Lotte", "Milan", "Noor"], 2: ["Sem", "Julia", "Daan"], 3: ["Emma", "Finn", "Saar"]}
seats = {
    n: [{"seat": s, "kind": "person", "name": names[n][s], "rtt_ms": 5.0 + s} for s in range(3)]
    for n in tables
}
room = Played(tables, seats)
"""

#: the smallest text of a part, its widest right edge, and the output area's right edge
MEASURE = """el => {
  const area = el.closest('.jp-OutputArea-output').getBoundingClientRect();
  let smallest = 1e9, right = 0;
  for (const e of el.querySelectorAll('td, th, p')) {
    smallest = Math.min(smallest, parseFloat(getComputedStyle(e).fontSize));
    if (e.closest('.mw-lesson-table') !== null) continue;
    right = Math.max(right, e.getBoundingClientRect().right);
  }
  const box = el.querySelector('.mw-lesson-table').getBoundingClientRect();
  return {smallest, right: Math.max(right, box.right), area: area.right};
}"""


def test_the_class_tables_on_the_projector(
    page: Page, lab_url: str, make_notebook: Callable[..., Path]
) -> None:
    make_notebook(
        "class_tables.ipynb",
        CLASS,
        'lesson.class_plays(room, "nl")',
        'lesson.class_tables(room, "nl")',
    )
    GALLERY.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    panel = open_notebook(page, lab_url, "class_tables.ipynb")
    for i in range(3):
        run_cell(page, panel, i)
    parts = panel.locator(".mw-lesson-class")
    expect(parts).to_have_count(2)
    plays, ranking = parts.nth(0), parts.nth(1)
    count = plays.locator("p").first
    expect(count).to_have_text(re.compile(r"^\d+ kaarten gespeeld, elke kaart één rij"))
    n = int(count.inner_text().split()[0])
    assert n > 12 and plays.locator("tbody tr").count() == n  # every card, not the last 12
    assert "NaN" not in plays.inner_text() and "nan" not in plays.inner_text()
    expect(plays.locator("td", has_text=re.compile("^–$")).first).to_be_attached()
    expect(plays).to_contain_text("De eerste kaart van een level heeft geen kaart")
    times = plays.locator("tbody tr").first.locator("td").nth(7).inner_text()
    assert re.fullmatch(r"\d+,\d", times), times  # a decimal comma
    seconds = ranking.locator("tbody tr").first.locator("td").last.inner_text()
    assert re.fullmatch(r"\d+,\d", seconds), seconds
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        for name, part in (("plays-table", plays), ("ranking", ranking)):
            part.scroll_into_view_if_needed()
            got = part.evaluate(MEASURE)
            assert got["smallest"] >= 17, got  # the kit's big text, not the notebook's 13 px
            assert got["right"] <= got["area"] + 1, (width, got)  # nothing runs out of the cell
            if (name, width) in (("plays-table", 1920), ("ranking", 1280)):
                page.screenshot(path=str(GALLERY / f"class-{name}-nl-{width}x{height}.png"))
