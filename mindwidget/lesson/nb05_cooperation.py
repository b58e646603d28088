"""Notebook 05-cooperation (notebooks/src/05-cooperation.cells): tempos that meet."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.text import Annotation

from ..bots import AdaptiveTimer, Bot, ScalarTimer
from ..bots.runner import run_game
from ..game import Game
from ..i18n import translate
from ..plots import TraceFigure, plot_trace
from ..sim import Summary, simulate
from ..traces import OKABE_ITO, trace
from ..widget import MindWidget
from .kit import (
    BLUE,
    Answer,
    Bet,
    everyone,
    new_figure,
    number,
    percent,
    percent_axis,
    readable,
    text,
)
from .nb03_probability import summary_of


def bet_one_fast(lang: str, games: int = 10_000) -> Bet:
    """One player at 0.2 s per step, two at 0.3: the win rate beside a team with one tempo.

    Args:
        lang: The language of the bet and its answer.
        games: Games simulated per team.
    """
    in_step = summary_of(3, [ScalarTimer(), ScalarTimer(), ScalarTimer()], games, 1)
    one_fast = [ScalarTimer(seconds_per_step=0.2), ScalarTimer(), ScalarTimer()]
    fast = summary_of(3, one_fast, games, 1)
    game = run_game(Game(players=3, seed=2), one_fast, seed=2)
    answer = Answer(
        text(
            "fast_answer",
            lang,
            same=percent(in_step.win_rate, lang),
            fast=percent(fast.win_rate, lang),
            wins=fast.wins,
            games=number(games, lang),
        ),
        plot_trace(game, level=3, lang=lang, bots=True),
        text("fast_trace", lang),
        lang=lang,
    )
    question = everyone("05-cooperation.bet_fast")
    return Bet(question, answer, out_of=100, lang=lang, right=100 * fast.win_rate)


def _adaptive_team() -> list[Bot]:
    return [AdaptiveTimer(seconds_per_step=0.2), AdaptiveTimer(), AdaptiveTimer()]


def bet_adaptive(lang: str, games: int = 256) -> Bet:
    """The same tempos, but every bot adapts: the win rate, and the tempos' spread by level.

    Args:
        lang: The language of the bet and its answer.
        games: Games the adaptive team plays (on the reference engine: slower per game).
    """
    result = simulate(players=3, bots=_adaptive_team(), games=games, seed=1, progress=False)
    spread = result.tempo_spread()
    fig, ax = new_figure(6, 3.4)
    ax.plot(spread.index, spread.values, "o-", color=BLUE, label=text("adaptive_team", lang))
    ax.axhline(0.3 / 0.2 - 1, color="black", ls="--", label=text("fixed_team", lang))
    ax.set_xlabel(text("level", lang))
    ax.set_ylabel(text("tempo_spread", lang))
    percent_axis(ax, 0.6)
    ax.legend(frameon=False)
    answer = Answer(
        text(
            "adaptive_answer",
            lang,
            rate=percent(result.summary().win_rate, lang),
            games=number(games, lang),
        ),
        text("spread_explain", lang),
        fig,
        lang=lang,
    )
    question = everyone("05-cooperation.bet_adaptive")
    rate = 100 * result.summary().win_rate
    return Bet(question, answer, out_of=100, lang=lang, right=rate)


def tempos(team: Sequence[Bot], names: Sequence[str], title: str, lang: str) -> Figure:
    """Each adaptive bot's tempo after every play it saw; dotted lines mark a new level.

    Each seat keeps its colour (`OKABE_ITO`, as in every trace of the lesson:
    the fast player of part 1's orange circles is the orange line here).

    Args:
        team: The bots, one per seat, after their game (an `AdaptiveTimer` keeps its history).
        names: Each seat's name in the legend.
        title: The figure's title.
        lang: The language of the axes.
    """
    fig, ax = new_figure(7, 3.6)
    new_level: Iterable[float] = ()
    for p, (bot, name) in enumerate(zip(team, names, strict=True)):
        if isinstance(bot, AdaptiveTimer):
            levels, values = zip(*bot.history, strict=True)
            colour = OKABE_ITO[p % len(OKABE_ITO)]
            ax.plot([bot.seconds_per_step, *values], label=name, lw=2.5, color=colour)
            new_level = np.flatnonzero(np.diff(levels)) + 1.5
        elif isinstance(bot, ScalarTimer):
            ax.axhline(bot.seconds_per_step, color="black", ls="--", label=name)
    for x in new_level:
        ax.axvline(x, color="0.85", ls=":", zorder=0)
    ax.set_xlabel(text("plays_seen", lang))
    ax.set_ylabel(text("tempo_axis", lang))
    ax.yaxis.set_major_formatter(lambda y, _pos: number(y, lang, 2))
    ax.set_title(title)
    ax.legend(frameon=False)
    return fig


def tempos_meet(lang: str, seed: int = 3) -> Bet:
    """One game of the adaptive team: where do the three tempos end up?

    Args:
        lang: The language of the bet and its answer.
        seed: The game's deal and timing.
    """
    team = [bot.seat(p) for p, bot in enumerate(_adaptive_team())]
    game = run_game(Game(players=3, seed=seed), team, seed=seed)
    names = [translate("bot", lang, player=p) for p in range(3)]
    names[0] += f" ({text('fast', lang)})"
    fig = tempos(team, names, text("tempos_title", lang), lang)
    ends = " · ".join(f"{n}: {number(b.tempo, lang, 2)}" for n, b in zip(names, team, strict=True))
    answer = Answer(
        fig,
        text("meet_answer", lang, level=game.level, ends=ends),
        lang=lang,
    )
    choices = [everyone("meet_fast"), everyone("meet_middle"), everyone("meet_slow")]
    question = everyone("05-cooperation.bet_meet")
    return Bet(question, answer, choices=choices, lang=lang, right=_where_met(team))


def _where_met(team: Sequence[Any]) -> int:
    """Where the tempos of the adaptive team ended (`tempos_meet`'s choices): 0 near the
    fast one's start (0.2 s per step), 1 in the middle, 2 near the slow ones' (0.3)."""
    end = sum(b.tempo for b in team) / len(team)
    return min(range(3), key=lambda i: abs(end - (0.2, 0.25, 0.3)[i]))


def _who_moved(team: Sequence[Any], stubborn: Summary, following: Summary) -> int:
    """`bet_person`'s right choice: 0 the bots slowed down (their tempo left 0.30 s by
    more than 0.03) and the team won no less than with bots that do not adapt, 1 the
    game fell apart (the bots stayed), 2 both."""
    moved = abs(team[1].tempo - 0.3) > 0.03
    apart = following.win_rate < stubborn.win_rate
    return 2 if moved and apart else 0 if moved else 1


def before_after(lang: str, seed: int = 3) -> Figure:
    """The adaptive team's first and last level side by side.

    Args:
        lang: The language of the figure.
        seed: The game's deal and timing (as in `tempos_meet`, the same game).
    """
    team = [bot.seat(p) for p, bot in enumerate(_adaptive_team())]
    game = run_game(Game(players=3, seed=seed), team, seed=seed)
    fig = TraceFigure(figsize=(14, 5.5), layout="constrained")
    left, right = fig.subplots(1, 2)
    plot_trace(game, level=1, ax=left, lang=lang, bots=True)  # named as in tempos_meet
    plot_trace(game, level=game.level, ax=right, lang=lang, bots=True)
    for ax in (left, right):
        notes = [a for a in ax.texts if isinstance(a, Annotation)]
        if len(notes) > 12:  # a full level: the dots speak, the numbers would cover each other
            for note in notes:
                note.remove()
    legend = right.get_legend()
    if legend is not None:  # the same marks as on the left: one legend is enough
        legend.remove()
    return readable(fig, scale=1.4, grow=1.0)


def bet_person(lang: str, games: int = 10_000, adaptive_games: int = 256) -> Bet:
    """A careful person at 0.45 s per step and two bots: who moves?

    Args:
        lang: The language of the bet and its answer.
        games: Games simulated with bots that keep their tempo.
        adaptive_games: Games simulated with bots that adapt (slower per game).
    """
    person = ScalarTimer(seconds_per_step=0.45)
    team = [bot.seat(p) for p, bot in enumerate([person, AdaptiveTimer(), AdaptiveTimer()])]
    run_game(Game(players=3, seed=5), team, seed=5)  # one game: the bots' tempos move
    names = [text("careful_person", lang)] + [translate("bot", lang, player=p) for p in (1, 2)]
    fig = tempos(team, names, text("person_title", lang), lang)
    stubborn = summary_of(3, [person, ScalarTimer(), ScalarTimer()], games, 1)
    following = summary_of(3, [person, AdaptiveTimer(), AdaptiveTimer()], adaptive_games, 1)
    answer = Answer(
        fig,
        text(
            "person_answer",
            lang,
            end=number(team[1].tempo, lang, 2),
            stubborn=percent(stubborn.win_rate, lang),
            following=percent(following.win_rate, lang),
            games=number(games, lang),
            adaptive_games=number(adaptive_games, lang),
        ),
        lang=lang,
    )
    choices = [everyone("person_bots"), everyone("person_apart"), everyone("person_both")]
    question = everyone("05-cooperation.bet_person")
    right = _who_moved(team, stubborn, following)
    return Bet(question, answer, choices=choices, lang=lang, right=right)


def tempo_by_level(game: Game) -> pd.DataFrame:
    """Median seconds per step of every player's plays, level by level (gaps of 3 or more).

    Args:
        game: Any game (a widget's ``w.game``).
    """
    t = trace(game)
    if t.empty:
        empty: pd.DataFrame = pd.DataFrame()
        return empty
    plays = t[(t["outcome"] == "play") & (t["gap"] >= 3)]
    tempo = (plays["wait"] / plays["gap"]).groupby([plays["level"], plays["player"]]).median()
    by_level: pd.DataFrame = tempo.unstack("player")
    return by_level


def your_tempo(w: MindWidget) -> Figure | None:
    """Everyone's tempo level by level, read off the trace of ``w``; a sentence if none yet."""
    lang = w.lang
    played = tempo_by_level(w.game)
    if played.empty:
        print(text("tempo_nothing_yet", lang))
        return None
    fig, ax = new_figure(6, 3.4)
    for p in played.columns:
        who = translate("you_seat" if int(p) == w.seat else "bot", lang, player=int(p))
        ax.plot(played.index, played[p], "o-", label=who, lw=2)
    ax.set_xticks(list(played.index))
    ax.set_xlabel(text("level", lang))
    ax.set_ylabel(text("tempo_axis", lang))
    ax.legend(frameon=False)
    return fig
