"""The timing trace: rows, gaps, waits and outcomes from real games, and its plot."""

from __future__ import annotations

import io
import math
import re

import pandas as pd
import pytest
from matplotlib.backend_bases import RendererBase
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Annotation

from mindwidget import Game, Rules
from mindwidget.bots.runner import run_game
from mindwidget.events import Dealt, Mistake, StarUsed
from mindwidget.plots import plot_trace
from mindwidget.traces import MARKERS, OKABE_ITO, TRACE_COLUMNS, trace, trace_stops


def rows(frame: pd.DataFrame) -> list[tuple[object, ...]]:
    """(player, card, gap, wait, outcome) per row, with NaN as None."""
    out = []
    for r in frame.itertuples():
        gap = None if math.isnan(r.gap) else r.gap
        out.append((r.player, r.card, gap, round(r.wait, 9), r.outcome))
    return out


def mistake_game() -> Game:
    """The rule example: 34 is played while 26 and 30 are still held."""
    g = Game.from_hands([[11, 26], [30, 71], [34, 58]], level=2, seed=0)
    g.ready(t=0.5)
    g.play(0, t=1.0)  # 11
    g.play(2, t=2.5)  # 34: too early
    g.stop(0, t=3.0)
    g.ready(t=4.0)
    g.play(2, t=6.0)  # 58
    g.play(1, t=7.5)  # 71
    return g


# ------------------------------------------------------------------ columns
def test_trace_has_the_documented_columns_and_types_even_when_empty() -> None:
    empty = trace(Game(players=3, seed=1))
    assert list(empty.columns) == list(TRACE_COLUMNS)
    assert len(empty) == 0
    assert str(empty["card"].dtype) == "int64"
    assert str(empty["gap"].dtype) == "float64"
    assert str(empty["blind"].dtype) == "bool"
    full = trace(mistake_game())
    assert full.dtypes.equals(empty.dtypes)


def test_trace_refuses_something_that_is_not_a_game() -> None:
    with pytest.raises(ValueError, match="game: expected a mindwidget Game, not list"):
        trace([])  # type: ignore[arg-type]


# ------------------------------------------------------------ a clean level
def test_clean_level_17_28_55_gaps_and_waits() -> None:
    g = Game.from_hands([[17], [28], [55]], seed=0)
    g.ready(t=0.5)
    g.play(0, t=1.0)
    g.play(1, t=2.5)
    g.play(2, t=5.0)
    assert rows(trace(g)) == [
        (0, 17, None, 0.5, "play"),  # the first card waits from the concentrate
        (1, 28, 11.0, 1.5, "play"),
        (2, 55, 27.0, 2.5, "play"),
    ]
    assert set(trace(g)["level"]) == {1}
    assert not trace(g)["blind"].any()


def test_a_play_before_the_concentrate_waits_from_the_deal() -> None:
    g = Game.from_hands([[17], [28]], seed=0)
    g.play(0, t=0.4)
    assert trace(g)["wait"].tolist() == [0.4]


# -------------------------------------------------------------- the mistake
def test_rule_example_34_while_26_and_30_are_held() -> None:
    t = trace(mistake_game())
    assert rows(t) == [
        (0, 11, None, 0.5, "play"),
        (2, 34, 23.0, 1.5, "mistake"),
        # put aside at the same moment, measured from the same pile (11)
        (0, 26, 15.0, 1.5, "lost"),
        (1, 30, 19.0, 1.5, "lost"),
        # 58 waits from the resume at t=4, not from the stop or from 34
        (2, 58, 24.0, 2.0, "play"),
        (1, 71, 13.0, 1.5, "play"),
    ]
    assert t.loc[t["outcome"] != "play", "t"].tolist() == [2.5, 2.5, 2.5]


def test_three_lower_cards_give_one_mistake_row_and_three_discards() -> None:
    g = Game.from_hands([[12, 19], [25, 80], [40, 62]], level=2, seed=0)
    g.ready(t=0)
    g.play(2, t=1.0)
    assert trace(g)["outcome"].tolist() == ["mistake"] + ["lost"] * 3
    assert g.lives == 2


def test_a_card_played_while_only_a_higher_card_is_held_is_ok() -> None:
    g = Game.from_hands([[40], [35]], seed=0)
    g.ready(t=0)
    g.play(1, t=1)
    g.play(0, t=2)
    assert trace(g)["outcome"].tolist() == ["play", "play"]


# ----------------------------------------------------------- throwing stars
def test_star_discards_and_the_wait_after_a_star() -> None:
    g = Game.from_hands([[44, 47], [60, 91], [51, 73]], level=2, seed=0)
    g.ready(t=0.0)
    g.play(0, t=2.0)  # 44
    g.propose_star(0, t=3.0)
    g.vote(1, True, t=3.5)
    g.vote(2, True, t=4.0)  # used: 47, 60, 51 put aside
    g.play(2, t=7.0)  # 73
    t = trace(g)
    assert rows(t) == [
        (0, 44, None, 2.0, "play"),
        # the star waits from the last play (a proposal does not restart)
        (0, 47, 3.0, 2.0, "star"),
        (1, 60, 16.0, 2.0, "star"),
        (2, 51, 7.0, 2.0, "star"),
        (2, 73, 29.0, 3.0, "play"),  # waits from the star, pile still 44
    ]


def test_a_declined_star_restarts_the_wait() -> None:
    g = Game.from_hands([[10], [20]], seed=0)
    g.ready(t=0.0)
    g.propose_star(1, t=1.0)
    g.vote(0, False, t=1.5)
    g.play(0, t=4.0)
    assert trace(g)["wait"].tolist() == [2.5]


# -------------------------------------------------------------------- stops
def test_stops_run_from_the_stop_to_the_resume() -> None:
    g = Game.from_hands([[10, 50], [20, 60]], level=2, seed=0)
    g.ready(t=0)
    g.play(0, t=1)
    g.stop(1, t=2)
    g.stop(0, t=2.5)  # a second stop before the resume belongs to the first
    g.ready(t=3)
    g.play(1, t=4)
    g.stop(1, t=5)  # still stopped when we look
    s = trace_stops(g)
    assert s[["level", "start", "player"]].values.tolist() == [[2, 2.0, 1], [2, 5.0, 1]]
    assert s["end"].iloc[0] == 3.0
    assert math.isnan(s["end"].iloc[1])
    assert trace(g)["wait"].tolist() == [1.0, 1.0]


def test_a_game_without_stops_has_an_empty_stop_table() -> None:
    assert len(trace_stops(mistake_game())) == 1
    empty = trace_stops(Game(players=2, seed=0))
    assert len(empty) == 0
    assert list(empty.columns) == [
        "level",
        "start",
        "end",
        "player",
        "blind",
        "why",
    ]


# --------------------------------------------------------------- blind mode
def blind_game() -> Game:
    """Win a one-level house game, then play blind level 1 with a fault."""
    g = Game.from_hands([[30], [70]], rules=Rules(players=2, levels=1, lives=2), seed=5)
    g.ready(t=0)
    g.play(0, t=1)
    g.play(1, t=3)
    g.start_blind()
    g.ready(t=0)
    low, high = sorted([(g.hands[0][0], 0), (g.hands[1][0], 1)])
    g.play(high[1], t=1.0)  # the higher card first: a fault found at the end
    g.play(low[1], t=2.0)
    return g


def test_blind_mode_rows_are_marked_and_the_fault_is_a_mistake_without_discards() -> None:
    g = blind_game()
    t = trace(g)
    assert t["level"].tolist() == [1, 1, 1, 1]
    assert t["blind"].tolist() == [False, False, True, True]
    assert t["outcome"].tolist() == ["play", "play", "mistake", "play"]
    assert g.lives == 1  # the check at the end of the level cost a life


def test_plot_trace_tells_normal_and_blind_level_1_apart() -> None:
    g = blind_game()
    ax_blind = plot_trace(g, level=1).axes[0]
    ax_normal = plot_trace(g, level=1, blind=False).axes[0]
    assert "blind" in ax_blind.get_title().lower()
    assert "blind" not in ax_normal.get_title()


# -------------------------------------------------------- games run by bots
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_card_that_left_a_hand_has_exactly_one_row(seed: int) -> None:
    g = run_game(Game(players=3, seed=seed), "scalar", seed=seed)
    t = trace(g)
    dealt = [e for e in g.events if isinstance(e, Dealt)]
    assert sorted(set(t["level"])) == [d.level for d in dealt]
    for d in dealt:
        mine = t[t["level"] == d.level]
        held = sorted(c for h in d.hands for c in h)
        gone = sorted(mine["card"])
        if d.level < g.level or g.status == "won":
            assert gone == held
        else:  # the level the game was lost in
            assert set(gone) <= set(held)
        for p, hand in enumerate(d.hands):
            assert set(mine.loc[mine["player"] == p, "card"]) <= set(hand)
        assert mine["t"].is_monotonic_increasing
    mistakes = [e for e in g.events if isinstance(e, Mistake)]
    assert (t["outcome"] == "mistake").sum() == len(mistakes)
    assert (t["outcome"] == "lost").sum() == sum(len(m.discards) for m in mistakes)
    assert (t["wait"] >= 0).all()


def test_star_proposing_bots_give_star_rows() -> None:
    from mindwidget.bots import ScalarTimer

    for seed in range(10):
        g = run_game(Game(players=4, seed=seed), ScalarTimer(propose_stars=True), seed=seed)
        used = [e for e in g.events if isinstance(e, StarUsed)]
        if used:
            t = trace(g)
            assert (t["outcome"] == "star").sum() == sum(len(e.discards) for e in used)
            return
    raise AssertionError("no bot team proposed a star in 10 seeded games")


# --------------------------------------------------------------------- plot
def legend_texts(fig: Figure) -> list[str]:
    legend = fig.axes[0].get_legend()
    assert legend is not None
    return [t.get_text() for t in legend.get_texts()]


def test_plot_of_the_mistake_level_has_the_expected_legend_and_artists() -> None:
    fig = plot_trace(mistake_game())
    assert isinstance(fig, Figure)
    assert legend_texts(fig) == [
        "stop: hands on the table",
        "the pile, in order",
        "Player 1",  # seat index 0: a pupil reads seats counted from 1
        "Player 2",
        "Player 3",
        "mistake: a lower card was still held",
        "put aside after a mistake",
    ]
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    ring = lines["mistake: a lower card was still held"]
    assert list(ring.get_ydata()) == [34]
    assert sorted(lines["put aside after a mistake"].get_ydata()) == [26, 30]
    assert list(lines["the pile, in order"].get_ydata()) == [11, 34, 58, 71]
    # one annotation per card, one grey band per stop
    assert sorted(int(a.get_text()) for a in ax.texts if isinstance(a, Annotation)) == [
        11,
        26,
        30,
        34,
        58,
        71,
    ]
    assert len(ax.patches) == 1


def test_every_player_has_its_own_colour_and_marker() -> None:
    fig = plot_trace(mistake_game())
    players = [
        line for line in fig.axes[0].get_lines() if str(line.get_label()).startswith("Player")
    ]
    assert [line.get_marker() for line in players] == list(MARKERS[:3])
    assert [line.get_color() for line in players] == list(OKABE_ITO[:3])
    assert len({(line.get_marker(), line.get_color()) for line in players}) == 3


def test_plot_marks_star_discards_with_their_own_symbol() -> None:
    g = Game.from_hands([[10, 83], [20, 84]], level=2, seed=0)
    g.ready(t=0)
    g.play(0, t=1)
    g.play(1, t=2)
    g.use_star(t=3)
    fig = plot_trace(g)
    texts = legend_texts(fig)
    assert "put aside by a throwing star" in texts
    assert "stop: hands on the table" not in texts
    stars = [line for line in fig.axes[0].get_lines() if line.get_marker() == "*"]
    assert len(stars) == 1 and sorted(stars[0].get_ydata()) == [83, 84]


def test_plot_defaults_to_the_last_level_in_which_a_card_was_played() -> None:
    g = run_game(Game(players=2, seed=4), "perfect", seed=0)
    assert g.status == "won"
    assert plot_trace(g).axes[0].get_title().startswith(f"Level {g.levels}:")
    g2 = Game.from_hands([[17], [28]], seed=0)
    g2.play(0, t=1)
    g2.play(1, t=2)
    g2.next_level()  # level 2 is dealt, nothing played in it yet
    assert plot_trace(g2).axes[0].get_title().startswith("Level 1:")
    assert plot_trace(g2, level=2).axes[0].get_title().startswith("Level 2:")


def test_plot_of_a_fresh_level_says_nothing_happened_yet() -> None:
    fig = plot_trace(Game(players=3, seed=0))
    assert "no card has been played yet" in [t.get_text() for t in fig.axes[0].texts]
    assert legend_texts(fig) == ["Player 1", "Player 2", "Player 3"]


def test_plot_of_a_level_that_was_not_played_names_the_levels_there_are() -> None:
    with pytest.raises(ValueError, match=r"no level 7; its levels so far: 2"):
        plot_trace(mistake_game(), level=7)


def test_plot_draws_into_given_axes_and_renders_without_pyplot() -> None:
    fig = Figure()
    ax = fig.add_subplot()
    out = plot_trace(mistake_game(), ax=ax)
    assert out is fig
    assert any(isinstance(a, Line2D) for a in ax.get_lines())
    buf = io.BytesIO()
    out.savefig(buf, format="png")
    assert buf.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_trace_shows_as_a_png_without_pyplot() -> None:
    # a notebook without %matplotlib inline shows the picture, not "<Figure ...>"
    from IPython.core.formatters import PNGFormatter

    g = Game.from_hands([[17], [28], [55]])
    g.play(0, t=1.0)
    g.play(1, t=2.0)
    g.play(2, t=3.5)
    png = PNGFormatter()(plot_trace(g))
    assert isinstance(png, bytes) and png.startswith(b"\x89PNG")


def test_plot_trace_speaks_the_widgets_languages() -> None:
    g = Game.from_hands([[34], [26], [30, 50]])
    g.play(0, t=1.0)
    g.play(2, t=2.0)
    texts = {}
    for lang in ("en", "nl", "de"):
        ax = plot_trace(g, lang=lang).axes[0]
        texts[lang] = (ax.get_title(), ax.get_xlabel(), *legend_texts(ax.get_figure()))
    assert texts["nl"][1] == "seconden sinds het begin van het level"
    assert "Spieler 1" in texts["de"] and "Spieler 0" not in texts["de"]
    assert len({texts["en"], texts["nl"], texts["de"]}) == 3
    with pytest.raises(ValueError, match="lang must be one of en, nl, de"):
        plot_trace(g, lang="fr")


# ------------------------------------------------------------ read from the back row, light or dark
def _drawn(fig: Figure) -> RendererBase:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def test_card_numbers_never_cover_each_other() -> None:
    """Issue 21: the numbers overlapped (447 overlapping pairs in the levels of
    12 games before; now none)."""
    import itertools

    from mindwidget.bots.runner import run_game

    labels = 0
    for seed in range(4):
        game = run_game(Game(players=3, seed=seed), "human", seed=seed)
        for level in range(1, game.level + 1):
            fig = plot_trace(game, level=level, lang="nl")
            renderer = _drawn(fig)
            boxes = [
                t.get_window_extent(renderer) for t in fig.axes[0].texts if t.get_text().isdigit()
            ]
            labels += len(boxes)
            for a, b in itertools.combinations(boxes, 2):
                both = a.intersection(a, b)
                assert both is None or both.width * both.height <= 4
    assert labels > 100


def test_plots_are_transparent_with_large_grey_text_for_light_and_dark_notebooks() -> None:
    import io

    from PIL import Image

    from mindwidget.plots import FONT_SIZES, INK, plot_timing

    game = Game.from_hands([[10, 40], [20, 60], [30, 80]])
    game.ready(t=0.0)
    for t, p in ((4.0, 0), (6.0, 1), (8.0, 2), (20.0, 0), (25.0, 1), (30.0, 2)):
        game.play(p, t=t)
    for fig in (plot_trace(game, lang="nl"), plot_timing(game, 0, lang="nl")):
        image = Image.open(io.BytesIO(fig._repr_png_())).convert("RGBA")
        assert image.getpixel((1, 1))[3] == 0  # no white box in the dark theme
        _drawn(fig)
        ax = fig.axes[0]
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels()):
            assert text.get_color() == INK
        assert ax.title.get_fontsize() >= FONT_SIZES["title"]
        assert min(t.get_fontsize() for t in ax.get_legend().get_texts()) >= 12


def test_the_inner_clock_plot_has_plain_axes_and_dutch_numbers() -> None:
    from mindwidget.bots.runner import run_game
    from mindwidget.plots import plot_timing

    game = run_game(Game(players=3, seed=4), "human", seed=4)
    fig = plot_timing(game, 0, lang="nl", you=0, bots=True)
    _drawn(fig)
    ax = fig.axes[0]
    assert ax.get_xscale() == ax.get_yscale() == "linear"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    fit = next(s for s in legend if " s per stap" in s)
    assert re.search(r"\d,\d+ s \+ \d,\d+ s per stap", fit), fit
    assert not any("plaatsen" in s for s in legend)
