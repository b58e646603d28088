"""No English on a Dutch or German screen (issue 19).

Every cell of the Dutch and German notebooks is checked during nbval's run
(``notebooks/conftest.py``). Here: the checker itself, and the two notebooks
whose outputs are text (01's moves, 04's scenarios and games) run with
nbclient in Dutch and German, so this file alone catches English in them.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from english_words import english_in, english_outputs, shown
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]


def test_the_checker_finds_english_and_passes_dutch_and_german() -> None:
    assert english_in("Game: 3 players, level 2 of 10, lives 3") == [
        "Game",
        "players",
        "lives",
    ]
    assert english_in("last: player 1 played 11 at 1.10 s")
    dutch = "Spel: 3 spelers, level 2 van 10. Het team won; nog 2 levens over. The Mind."
    german = "Spiel: 3 Spieler, Level 2 von 10. Die Hand ist leer; Tipp: warte."
    assert english_in(dutch) == [] and english_in(german) == []


def test_what_a_front_end_shows_is_checked_not_what_it_hides() -> None:
    widget = {
        "output_type": "display_data",
        "data": {
            "application/vnd.jupyter.widget-view+json": {},
            "text/plain": "<mindwidget.widget.MindWidget object>",
        },
    }
    figure = {
        "output_type": "display_data",
        "data": {"image/png": "", "text/plain": "<Figure size 640x480 with 1 Axes>"},
    }
    table = {
        "output_type": "execute_result",
        "data": {"text/html": "<table><tr><th>the player</th></tr></table>", "text/plain": "x"},
    }
    said = {"output_type": "stream", "name": "stdout", "text": "Bot 2 played 20.\n"}
    assert shown([widget, figure]) == []
    assert [k for k, _ in shown([table, said])] == ["text/html", "stream/stdout"]
    assert len(english_outputs([widget, figure, table, said])) == 2


@pytest.mark.parametrize("lang", ["nl", "de"])
@pytest.mark.parametrize("name", ["01-play", "04-scenarios"])
def test_the_dutch_and_german_notebooks_show_no_english(
    lang: str, name: str, tmp_path: Path
) -> None:
    nb = nbformat.read(ROOT / "notebooks" / lang / f"{name}.ipynb", as_version=4)
    NotebookClient(nb, timeout=600, resources={"metadata": {"path": str(tmp_path)}}).execute()
    found = [
        f"cell {i}: {hit}"
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for hit in english_outputs(cell.get("outputs", []))
    ]
    assert not found, "\n".join(found)
