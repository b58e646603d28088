"""Notebook 01-play (notebooks/src/01-play.cells): a table to play, a class's view,
the next moves, the trace and the inner clock.
"""

from __future__ import annotations

import ipywidgets
from matplotlib.figure import Figure

from ..game import Game
from ..i18n import translate
from ..plots import plot_trace
from ..timing import MIN_PLAYS
from ..view import phase
from ..widget import MindWidget
from .kit import BIG_TEXT, figure_html, markdown_html, number, percent, text


def play(
    lang: str, seed: int | None = None, bots: str = "human", size: str = "projector"
) -> MindWidget:
    """A table for one person (seat 0, "You") and two bots, in ``lang``.

    Each table deals afresh (every laptop of the class its own game); ``seed``
    (or ``w.reset(seed=1)`` later) gives one deal that the whole class shares.

    The bots are the widget's default, human-like ones (they wait as people
    wait, adapt to the person and propose throwing stars); ``w.tempo = "slow"``
    slows them down. It opens in projector size (the lesson is shown to a
    class); ``w.size = "normal"`` is for one pupil at a laptop.

    Args:
        lang: The board's language ("en", "nl" or "de").
        seed: One deal for the whole class; None: each table its own.
        bots: The two bots (a name, as `MindWidget` takes it).
        size: "projector" or "normal".
    """
    return MindWidget(players=3, seat=0, bots=bots, seed=seed, lang=lang, size=size)


def watch(lang: str, seed: int = 2) -> MindWidget:
    """A table of three bots and nobody else, in projector size: the class watches.

    Args:
        lang: The board's language ("en", "nl" or "de").
        seed: The deal and the bots' timing (the same seed, the same game).
    """
    return MindWidget(players=3, seat=None, bots="scalar", seed=seed, lang=lang, size="projector")


def class_view(lang: str, seed: int = 7) -> MindWidget:
    """Three bots, every hand shown, no running clock: one move per "Wait".

    Args:
        lang: The board's language ("en", "nl" or "de").
        seed: The deal and the bots' timing (the same seed, the same game).
    """
    return MindWidget(
        players=3,
        seat=None,
        bots="scalar",
        mode="step",
        reveal=True,
        size="projector",
        seed=seed,
        lang=lang,
    )


def next_moves(w: MindWidget, moves: int = 1) -> None:
    """Up to ``moves`` bot moves on ``w``, whatever was pressed before; prints what happened.

    Whenever the hands are on the table (before the level, or after a stop),
    it presses Ready first; if the level is over, it says so (and how to go
    on) instead of raising.
    """
    lang = w.lang
    done: list[str] = []
    for _ in range(moves):
        if phase(w.game) in ("ready", "stopped"):
            w.ready()
            done.append(text("moves_ready", lang))
        if w.planned is None:
            break
        before = len(w.game.pile) + len(w.game.discards)
        w.wait()
        card = w.game.pile[-1] if w.game.pile else None
        if card is not None and len(w.game.pile) + len(w.game.discards) > before:
            who = translate("bot", lang, player=_last_player(w.game))
            done.append(text("moves_played", lang, who=who, card=card))
    p = phase(w.game)
    if p in ("cleared", "won", "lost"):
        done.append(text(f"moves_{p}", lang))
    elif not done:
        done.append(text("moves_none", lang))
    print(" ".join(done))


def _last_player(game: Game) -> int:
    for event in reversed(game.events):
        player = getattr(event, "player", None)
        if isinstance(player, int) and type(event).__name__ in ("Played", "Mistake"):
            return player
    return 0


def trace_of(w: MindWidget) -> Figure | None:
    """The timing trace of the level just played on ``w``, or a sentence if nothing was played."""
    if not w.game.pile and not w.game.discards and w.game.level == 1:
        print(text("trace_nothing_yet", w.lang))
        return None
    # named as the table above names them: "Jij (speler 1)", "Bot 2", ...
    return plot_trace(w.game, lang=w.lang, you=w.seat, bots=True)


def inner_clock(w: MindWidget) -> ipywidgets.HTML:
    """The person's inner clock on ``w``: a sentence in big text and `MindWidget.plot_timing`.

    With fewer than three of the person's own cards (or nobody at the table)
    the sentence says so, and there is no chart. ``.figure`` is the chart (or None).
    """
    lang = w.lang
    fig: Figure | None = None
    if w.seat is None:
        sentence = text("clock_no_person", lang)
    else:
        profile = w.timing_profile()
        if not profile.fitted:
            sentence = text("clock_too_few", lang, n=profile.plays, need=MIN_PLAYS)
        else:
            sentence = text(
                "clock_summary",
                lang,
                plays=profile.plays,
                step=number(profile.seconds_per_step, lang, 2),
                cv=percent(profile.cv, lang, 0),
                tempo=number(profile.tempo, lang, 2),
            )
            fig = w.plot_timing()
    chart = figure_html(fig) if fig is not None else ""
    box = ipywidgets.HTML(
        f'<div class="mw-lesson-clock" style="{BIG_TEXT}">{markdown_html(sentence)}</div>{chart}'
    )
    box.sentence, box.figure = sentence, fig
    return box
