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
from mindwidget.lesson.kit import BIG_TEXT, text
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
    last = lesson.class_plays(room, "en", rows=5).value
    assert len(_cells(last)) == 5
    assert f"The last 5 of {len(room.plays())} cards played." in last
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
    shown = lesson.in_words(room.plays().tail(50), "nl")
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


def _cells(page: str) -> list[list[str]]:
    """The rows of the (first) table in an HTML output, as the texts of their cells."""
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    rows = body.split("</tr>")[:-1]
    return [[c.split(">", 1)[1] for c in r.split("</td>")[:-1]] for r in rows]


def test_the_plays_table_shows_every_card_with_a_count_on_the_projector() -> None:
    """Each card is a row, as 06's text says: all of them, in a box that scrolls, with
    how many there are above them, in the kit's projector-sized text."""
    room = _class()
    n = len(room.plays())
    assert n > 12  # more than the 12 rows it used to show
    for lang, count in (
        ("nl", f"{n} kaarten gespeeld, elke kaart één rij"),
        ("de", f"{n} Karten gespielt, jede Karte eine Zeile"),
        ("en", f"{n} cards played, each one a row"),
    ):
        shown = lesson.class_plays(room, lang).value
        assert len(_cells(shown)) == n
        assert count in shown
        assert 'class="mw-lesson-table" tabindex="0" role="region"' in shown
        assert "overflow: auto" in shown and "font-size:1.35em" in shown


def test_a_first_card_has_a_dash_for_its_gap_and_a_note_says_why() -> None:
    """The data have no gap for the first card of a level (no card below it on the pile:
    NaN, as `trace` defines it); the table shows "–" there, and says what it means."""
    room = _class()
    plays = room.plays()
    shown = lesson.class_plays(room, "nl").value
    assert "NaN" not in shown and "nan" not in shown
    column = list(lesson.in_words(plays, "nl").columns).index("afstand")
    gaps = [row[column] for row in _cells(shown)]
    first = plays["gap"].isna().tolist()
    assert any(first) and not all(first)
    assert [g == "–" for g in gaps] == first
    # the first card of each level at each table, and only those
    firsts = plays.groupby(["table", "level", "blind"]).head(1).index
    assert sorted(plays.index[plays["gap"].isna()]) == sorted(firsts)
    assert "De eerste kaart van een level heeft geen kaart onder zich op de stapel" in shown
    assert "first card of a level has no card below it" in lesson.class_plays(room, "en").value
    assert "erste Karte eines Levels" in lesson.class_plays(room, "de").value


def test_the_class_tables_write_numbers_as_the_language_does() -> None:
    """A decimal comma in nl and de, as 03 writes its numbers (the kit's `number`)."""
    room = _class()
    plays = room.plays()
    for lang, sign in (("nl", ","), ("de", ","), ("en", ".")):
        words = lesson.in_words(plays, lang)
        t = words[text("col_t", lang)]
        expected = [f"{x:.1f}".replace(".", sign) for x in plays["t"]]
        assert t.tolist() == expected
        ranked = lesson.class_tables(room, lang).value
        seconds = [row[-1] for row in _cells(ranked)]
        assert seconds and all(sign in s for s in seconds), seconds
        other = "." if sign == "," else ","
        assert not any(other in s for s in seconds)


def test_the_ranking_is_as_large_as_the_kits_other_outputs() -> None:
    """The ranking on the projector: the kit's big text (`kit.BIG_TEXT`), not notebook size."""
    shown = lesson.class_tables(_class(), "nl").value
    assert f'style="{BIG_TEXT}"' in shown and "font-size: inherit" in shown
