"""mindwidget.lesson's sixth notebook: the class against the bots and people elsewhere,
and the tables ranked level by level (on real games; the class server has its own tests)."""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets
import numpy as np
import pandas as pd
import pytest

from mindwidget import Game, classdata, lesson, run_game
from mindwidget.bots.human import REFERENCE, band_of
from mindwidget.lesson.nb06_class import WAIT_COLUMNS


@dataclass
class Played:
    """A class after playing: its tables' games and who sat where (a Classroom's data)."""

    tables: dict[int, Game]
    seats: dict[int, list[dict[str, object]]]
    same_deal: bool = True

    def plays(self) -> pd.DataFrame:
        return classdata.plays(self.tables, self.seats)

    def results(self) -> pd.DataFrame:
        return classdata.results(self.tables)

    def games(self) -> dict[int, Game]:
        return classdata.games(self.tables)


def _class(same_deal: bool = True) -> Played:
    # the same deal at every table (same seed), people in seats 0 and 1
    tables = {
        n: run_game(Game(players=3, seed=5 if same_deal else n), "human", seed=n) for n in (1, 2, 3)
    }
    people = [
        {"seat": 0, "kind": "person", "name": "Anna"},
        {"seat": 1, "kind": "person", "name": "Bo"},
    ]
    return Played(
        tables,
        {n: [*people, {"seat": 2, "kind": "bot", "name": "Bot 3"}] for n in tables},
        same_deal,
    )


def test_compare_waits_has_every_band_with_the_classes_medians() -> None:
    room = _class()
    bots = lesson.bot_plays(games=3)
    table = lesson.compare_waits(room.plays(), bots)
    assert tuple(table.columns) == WAIT_COLUMNS
    assert table["people"].tolist() == list(REFERENCE)
    plays = room.plays()
    people = plays[(plays["kind"] == "person") & (plays["gap"] >= 1)]
    expected = people.groupby(people["gap"].map(band_of))["wait"].median()
    for i, row in table.iterrows():
        if row["class_plays"]:
            assert row["class"] == pytest.approx(expected[i])
        else:
            assert np.isnan(row["class"])
    assert table["class_plays"].sum() == len(people)
    assert table["bot_plays"].sum() == (bots["gap"] >= 1).sum()


def test_rank_tables_level_by_level() -> None:
    results = pd.DataFrame(
        {
            "table": [1, 2, 3, 1, 2, 3],
            "level": [1, 1, 1, 2, 2, 2],
            "blind": [False] * 6,
            "cleared": [True, True, False, True, True, True],
            "mistakes": [1, 0, 0, 0, 0, 2],
            "stars_used": [0] * 6,
            "seconds": [10.0, 20.0, 5.0, 30.0, 30.0, 12.0],
        }
    )
    ranked = lesson.rank_tables(results)
    by = {(r.level, r.table): r.rank for r in ranked.itertuples()}
    assert by == {(1, 2): 1, (1, 1): 2, (1, 3): 3, (2, 1): 1, (2, 2): 1, (2, 3): 3}


def test_the_notebooks_cells_say_why_the_class_part_is_missing_without_pupils() -> None:
    bots_only = Played({1: run_game(Game(players=3, seed=1), "human", seed=1)}, {}, True)
    shown = lesson.class_plays(bots_only, "de")
    assert isinstance(shown, ipywidgets.HTML) and "niemand ist verbunden" in shown.value
    fig = lesson.class_waits(bots_only, "nl", games=2)
    assert "nog niet gespeeld" in fig.axes[0].get_title(loc="left")
    assert len(fig.axes[0].containers) == 2  # the bots and people elsewhere


def test_the_class_part_with_pupils() -> None:
    room = _class()
    assert len(lesson.class_plays(room, "en", rows=5)) == 5
    fig = lesson.class_waits(room, "en", games=2)
    assert len(fig.axes[0].containers) == 3
    shown = lesson.class_tables(room, "nl")
    assert "dezelfde kaarten" in shown.value and "Plaats" in shown.value
    assert "verschillende kaarten" in lesson.class_tables(_class(same_deal=False), "nl").value
    # under a same deal, human-like bots on the same cards are ranked among the tables
    assert "bots" in shown.value.lower()
    assert "bots" not in lesson.class_tables(_class(same_deal=False), "nl").value.lower()


def test_the_bots_play_the_same_cards_as_the_class() -> None:
    room = _class()
    bots = lesson.bots_on_the_same_deal(room.games())
    assert bots is not None
    first = next(e for e in bots.events if e.type == "dealt")
    theirs = next(e for e in room.tables[1].events if e.type == "dealt")
    assert first.hands == theirs.hands  # type: ignore[attr-defined]
    assert bots.level <= max(g.level for g in room.tables.values())


def test_the_class_plays_and_results_are_shown_in_the_class_language() -> None:
    """On a Dutch screen (issue 24): Dutch column names and values, the player from 1;
    the data keeps its machine columns, the player from 0."""
    room = _class()
    shown = lesson.class_plays(room, "nl", rows=50)
    assert isinstance(shown, pd.DataFrame)
    english = set(classdata.PLAY_COLUMNS) - {"level", "blind"}  # the same word in Dutch
    assert english.isdisjoint(shown.columns)
    assert list(shown.columns[:4]) == ["tafel", "level", "blind", "speler"]
    assert set(shown["wie"]) <= {"leerling", "bot"} and "leerling" in set(shown["wie"])
    assert set(shown["fout"]) <= {"Ja", "Nee"} and set(shown["blind"]) <= {"Ja", "Nee"}
    plays = room.plays().tail(50)
    assert shown["speler"].tolist() == (plays["player"] + 1).tolist()
    assert set(plays["player"]) == {0, 1, 2}
    results = lesson.class_results(room, "de")
    assert isinstance(results, pd.DataFrame)
    assert {"Tisch", "geschafft", "Fehler", "Wurfsterne", "Sekunden"} <= set(results.columns)
    assert set(results["geschafft"]) <= {"Ja", "Nein"}
