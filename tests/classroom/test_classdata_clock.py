"""mindwidget.classdata: each pupil's clock, the class's median curve, the cards a
mistake jumped, and the CSV a Dutch spreadsheet opens, from hand-made games whose
waits are known."""

from __future__ import annotations

import io
import math
import re

import numpy as np
import pandas as pd
import pytest

from mindwidget import Game, classdata, timing
from mindwidget.events import Mistake, Played


def _anna_and_bram() -> Game:
    """Anna (seat 0) and Bram (seat 1), level 1 of a made-up deal, every time chosen:
    Anna plays 5, 20, 40 after 2, 4 and 6 s (gaps 5, 10, 20), Bram 10 and 60 after
    3 and 15 s (gaps 5 and 20)."""
    g = Game.from_hands([[5, 20, 40], [10, 60]], level=3)
    g.ready(t=0.0)
    for seat, t in [(0, 2.0), (1, 5.0), (0, 9.0), (0, 15.0), (1, 30.0)]:
        g.play(seat, t=t)
    return g


def _with_a_bot() -> Game:
    """Cem (seat 0) and a bot (seat 1): Cem's 30 after 7 s, the bot's 31 after 1 s."""
    g = Game.from_hands([[30], [31]], level=1)
    g.ready(t=0.0)
    g.play(0, t=7.0)
    g.play(1, t=8.0)
    return g


SEATS = {
    1: [
        {"seat": 0, "kind": "person", "name": "Anna"},
        {"seat": 1, "kind": "person", "name": "Bram"},
    ],
    2: [
        {"seat": 0, "kind": "person", "name": "Cem"},
        {"seat": 1, "kind": "bot", "name": "Bot 2"},
    ],
}


@pytest.fixture
def plays() -> pd.DataFrame:
    return classdata.plays({1: _anna_and_bram(), 2: _with_a_bot()}, SEATS)


def test_waits_are_each_pupils_own_with_the_first_gap_from_zero(plays: pd.DataFrame) -> None:
    anna = classdata.waits(plays, "Anna")
    assert tuple(anna.columns) == classdata.WAIT_COLUMNS
    assert anna[["card", "gap", "wait"]].values.tolist() == [[5, 5, 2], [20, 10, 4], [40, 20, 6]]
    everyone = classdata.waits(plays)
    assert sorted(everyone["name"].unique()) == ["Anna", "Bram", "Cem"]  # no bot
    assert everyone[everyone["name"] == "Cem"][["gap", "wait"]].values.tolist() == [[30, 7]]
    assert classdata.waits(plays, "Nobody").empty


def test_the_class_curve_is_the_median_per_band_with_its_plays_and_pupils(
    plays: pd.DataFrame,
) -> None:
    line = classdata.curve(classdata.waits(plays))
    assert tuple(line.columns) == classdata.CURVE_COLUMNS
    rows = line[["band", "wait", "plays", "pupils"]].values.tolist()
    # gap 5: Anna 2 s, Bram 3 s; gap 10: Anna 4 s; gap 20: Anna 6, Bram 15; gap 30: Cem 7
    assert rows == [
        ["5-7", 2.5, 2, 2],
        ["8-12", 4.0, 1, 1],
        ["13-24", 10.5, 2, 2],
        ["25+", 7.0, 1, 1],
    ]
    # on a pupil's page a band needs the plays of BAND_PUPILS pupils: none here has three
    assert classdata.curve(classdata.waits(plays), min_pupils=classdata.BAND_PUPILS).empty
    assert classdata.curve(classdata.waits(plays), min_pupils=2)["band"].tolist() == [
        "5-7",
        "13-24",
    ]


def test_a_pupils_clock_beside_the_class(plays: pd.DataFrame) -> None:
    anna = classdata.clock(plays, "Anna")
    assert anna.plays == 3 and anna.enough
    # her waits over the class's band medians: 2/2.5, 4/4, 6/10.5 -> median 0.8
    assert anna.vs_class == pytest.approx(0.8)
    assert anna.pace == "quicker"  # more than SAME_PACE below the class
    # the spread is the inner-clock mirror's, of her plays at every table
    same = timing.profile_of([5, 10, 20], [2, 4, 6])
    assert anna.profile.cv == pytest.approx(same.cv) and anna.profile.fitted
    assert anna.profile.plays == 3
    bram = classdata.clock(plays, "Bram")
    assert bram.plays == 2 and not bram.enough
    assert bram.pace == "" and math.isnan(bram.vs_class) and not bram.profile.fitted
    whole = classdata.clock(plays)
    assert whole.name is None and whole.plays == 6


def test_a_slower_pupils_pace_and_a_known_spread() -> None:
    """Every card lies 2 above the pile. D waits 3 s each time (no spread), E 2 s, F
    2 s give or take a fifth: the class's median is 2.1 s, so D reads "slower" (3 / 2.1),
    E "same" (2 / 2.1), and D's spread is 0."""
    deal = [[2, 8, 14, 20], [4, 10, 16, 22], [6, 12, 18, 24]]
    g = Game.from_hands(deal, level=4)
    g.ready(t=0.0)
    t = 0.0
    seconds = {0: 3.0, 1: 2.0, 2: 2.0}
    wobble = iter([1.2, 0.8, 1.1, 0.9])
    for _card, seat in sorted((c, s) for s, hand in enumerate(deal) for c in hand):
        t += seconds[seat] * (next(wobble) if seat == 2 else 1.0)
        g.play(seat, t=t)
    seats = {1: [{"seat": s, "kind": "person", "name": n} for s, n in enumerate("DEF")]}
    frame = classdata.plays({1: g}, seats)
    assert classdata.curve(classdata.waits(frame))["wait"].tolist() == pytest.approx([2.1])
    dana = classdata.clock(frame, "D")
    assert dana.plays == 4 and dana.pace == "slower"
    assert dana.vs_class == pytest.approx(3 / 2.1)
    assert dana.profile.cv == pytest.approx(0.0, abs=1e-6)
    assert classdata.clock(frame, "E").pace == "same"
    fay = classdata.clock(frame, "F")
    assert fay.profile.cv > 0.05


def test_a_mistake_names_the_cards_it_jumped_and_who_held_them() -> None:
    g = Game.from_hands([[26], [30], [34, 50]], level=2)
    g.ready(t=0)
    g.play(2, t=2.0)
    seats = {
        1: [
            {"seat": 0, "kind": "person", "name": "Anna"},
            {"seat": 1, "kind": "person", "name": "Zoë"},
            {"seat": 2, "kind": "person", "name": "Bas"},
        ]
    }
    frame = classdata.plays({1: g}, seats)
    row = frame.iloc[0]
    assert bool(row["mistake"]) and row["card"] == 34
    assert row["jumped"] == (26, 30)
    assert row["jumped_player"] == (0, 1)
    assert row["jumped_name"] == ("Anna", "Zoë")
    # the same cards the core put aside (R6)
    mistake = next(e for e in g.events if isinstance(e, Mistake))
    assert row["jumped"] == tuple(d.card for d in mistake.discards)
    pairs = classdata.mistake_pairs(frame)
    assert tuple(pairs.columns) == classdata.PAIR_COLUMNS
    assert pairs[["name", "card", "lower_name", "lower", "apart"]].values.tolist() == [
        ["Bas", 34, "Anna", 26, 8],
        ["Bas", 34, "Zoë", 30, 4],
    ]


def test_a_play_in_order_jumped_nothing_and_a_seat_that_changed_hands_names_the_holder() -> None:
    g = Game.from_hands([[10, 40], [20]], level=2)
    g.ready(t=0)
    g.play(0, t=1.0)  # 10, in order
    g.play(0, t=2.0)  # 40 over Bram's 20: a mistake
    seats = {
        1: [
            {"seat": 0, "kind": "person", "name": "Anna"},
            {"seat": 1, "kind": "bot", "name": "Bot 2"},
            {"seat": 1, "kind": "person", "name": "Bram", "from": 3},  # after the first play
        ]
    }
    frame = classdata.plays({1: g}, seats)
    assert frame.iloc[0]["jumped"] == () and not frame.iloc[0]["mistake"]
    assert frame.iloc[1]["jumped"] == (20,) and frame.iloc[1]["jumped_name"] == ("Bram",)


def test_blind_mode_names_the_lower_cards_held_when_the_card_was_played() -> None:
    g = Game.from_hands([[10, 40], [20]], level=1, blind=True)
    g.ready(t=0)
    g.play(0, t=1.0)
    g.play(0, t=2.0)  # face down over the 20 still held
    frame = classdata.plays({1: g})
    assert frame["mistake"].tolist() == [False, True]
    assert frame.iloc[1]["jumped"] == (20,) and frame.iloc[1]["jumped_player"] == (1,)


def test_the_csv_opens_in_a_dutch_spreadsheet(plays: pd.DataFrame, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = classdata.save_csv(tmp_path / "klas.csv", plays, "nl")
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM: Excel reads the names right
    back = pd.read_csv(io.BytesIO(raw), sep=";", decimal=",", encoding="utf-8-sig")
    assert list(back.columns[:6]) == ["tafel", "level", "blind", "speler", "wie", "naam"]
    assert "wachttijd (s)" in back.columns and "overgeslagen kaarten" in back.columns
    assert len(back) == len(plays)
    assert back["speler"].tolist() == [p + 1 for p in plays["player"]]  # from 1
    assert back["wie"].tolist() == ["leerling"] * 6 + ["bot"]
    assert back["fout"].unique().tolist() == ["Nee"]
    np.testing.assert_allclose(back["wachttijd (s)"], plays["wait"].round(2))
    np.testing.assert_allclose(back["tijd (s)"], plays["t"])
    text = raw.decode("utf-8-sig")
    assert "2,5" not in text.split("\r\n")[0]
    assert ";15,0;" in text  # Anna's 40 at 15 s: a decimal comma, no dot
    assert "15.0" not in text


def test_the_csv_in_english_and_german(plays: pd.DataFrame) -> None:
    english = pd.read_csv(io.StringIO(classdata.to_csv(plays, "en")))
    assert "wait (s)" in english.columns and english["player"].min() == 1
    german = pd.read_csv(io.StringIO(classdata.to_csv(plays, "de")), sep=";", decimal=",")
    assert "Wartezeit (s)" in german.columns
    np.testing.assert_allclose(german["Wartezeit (s)"], plays["wait"])
    with pytest.raises(ValueError, match="lang must be one of en, nl, de"):
        classdata.to_csv(plays, "fr")


def test_a_csv_of_a_mistake_lists_the_jumped_cards_in_one_field() -> None:
    g = Game.from_hands([[26], [30], [34, 50]], level=2)
    g.ready(t=0)
    g.play(2, t=2.5)
    seats = {
        1: [{"seat": s, "kind": "person", "name": n} for s, n in enumerate(["Anna", "Zoë", "Bas"])]
    }
    back = pd.read_csv(
        io.StringIO(classdata.to_csv(classdata.plays({1: g}, seats), "nl")),
        sep=";",
        decimal=",",
        dtype=str,
    )
    row = back.iloc[0]
    assert row["overgeslagen kaarten"] == "26 30"
    assert row["in hand bij speler"] == "1 2"
    assert row["in hand bij"] == "Anna / Zoë"
    assert row["tijd (s)"] == "2,5"


def test_played_events_and_play_rows_agree() -> None:
    g = _anna_and_bram()
    assert sum(isinstance(e, Played) for e in g.events) == len(classdata.plays({1: g}))


def test_the_clock_figure_names_its_plays_and_says_when_they_are_too_few(
    plays: pd.DataFrame,
) -> None:
    from mindwidget.plots import plot_clock

    def words(fig: object) -> str:
        return " | ".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))  # type: ignore[attr-defined]

    anna = words(plot_clock(classdata.clock(plays, "Anna"), lang="nl"))
    assert "De klok van Anna: 3 kaarten in deze klas" in anna
    assert "6 kaarten van 3 leerlingen" in anna  # the class's curve, in the legend
    assert re.search(r"lijn: \d+,\d s \+ \d+,\d\d s per stap", anna)  # decimal commas
    bram = words(plot_clock(classdata.clock(plays, "Bram"), lang="en"))
    assert "only 2 plays so far; the profile needs at least 3" in bram
    with pytest.raises(TypeError, match="classdata.Clock"):
        plot_clock(plays)
