"""The timing trace: when each card left a hand, and how long the team waited.

The Mind is a game of timing ("a 5 goes quickly, with an 80 you wait a long
time"), so the most useful picture of a level is *time* against *card*. This
module turns any `Game` (played by hand, by bots with
`mindwidget.runner.run_game`, or stepped through in a scenario) into:

* `trace` -- a table with one row per card that left a hand;
* `trace_stops` -- the intervals between a "stop" and the resume after it;
* `plot_trace` -- a matplotlib figure of one level (the Agg-safe API: no
  pyplot, no global state, so it renders in static notebook output).

The trace is the god view: it reads the game's events, including face-down
cards (blind mode) and the cards others held. Show it after a level, not
during one.

Blind mode restarts the level numbers at 1, so a level is named by its number
*and* the ``blind`` flag.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from .checks import choice, flag, whole
from .events import (
    Concentrated,
    Dealt,
    Event,
    Mistake,
    Played,
    StarDeclined,
    StarUsed,
    Stopped,
)
from .game import Game
from .i18n import LANGS, translate

__all__ = [
    "MARKERS",
    "OKABE_ITO",
    "OUTCOMES",
    "TRACE_COLUMNS",
    "STOP_COLUMNS",
    "plot_trace",
    "trace",
    "trace_stops",
]

Outcome = Literal["ok", "mistake", "discarded_mistake", "discarded_star"]
#: Every value of the ``outcome`` column, in the order the plot's legend uses.
OUTCOMES: tuple[Outcome, ...] = ("ok", "mistake", "discarded_mistake", "discarded_star")
TRACE_COLUMNS = ("level", "t", "player", "card", "gap", "wait", "outcome", "blind")
STOP_COLUMNS = ("level", "start", "end", "player", "blind")

#: One colour and marker per seat, the same as in the widget's live trace
#: (`mindwidget/seats.json`, the one place for them): Okabe and Ito's
#: colour-blind safe palette, each colour with its own marker shape.
_SEATS = json.loads((Path(__file__).resolve().parent / "seats.json").read_text("utf-8"))
OKABE_ITO: tuple[str, ...] = tuple(_SEATS["colours"])
MARKERS: tuple[str, ...] = tuple(_SEATS["matplotlib_markers"])

#: Events after which everyone's timing starts afresh: a play (and the mistake
#: it caused), a throwing star used or declined, a stop, and the resume after
#: it. The deal (t=0) counts when nothing else happened yet.
_RESTARTS = (Dealt, Played, Mistake, StarUsed, StarDeclined, Stopped, Concentrated)


@dataclass(frozen=True)
class _Level:
    """The events of one dealt level (its first event is the `Dealt`)."""

    level: int
    blind: bool
    events: tuple[Event, ...]


def _levels(game: Game) -> Iterator[_Level]:
    current: list[Event] = []
    for e in game.events:
        if isinstance(e, Dealt):
            if current:
                yield _level_of(current)
            current = [e]
        elif current:
            current.append(e)
    if current:
        yield _level_of(current)


def _level_of(events: list[Event]) -> _Level:
    dealt = events[0]
    assert isinstance(dealt, Dealt)
    return _Level(dealt.level, dealt.blind, tuple(events))


def _check_game(game: object) -> Game:
    if not isinstance(game, Game):
        raise ValueError(f"game: expected a mindwidget Game, not {type(game).__name__}.")
    return game


def _level_rows(lv: _Level) -> list[dict[str, object]]:
    dealt = lv.events[0]
    assert isinstance(dealt, Dealt)
    hands = [set(h) for h in dealt.hands]
    rows: list[dict[str, object]] = []
    top: int | None = None  # the top of the pile
    before: int | None = None  # the top before the latest play
    last = 0.0  # time of the latest event that restarts the timing
    play_wait = 0.0  # the wait of the latest play
    events = lv.events
    for i, e in enumerate(events):
        if isinstance(e, Played):
            hands[e.player].discard(e.card)
            if lv.blind:
                # R10: face down, the core says nothing until the pile is
                # turned over; the trace marks a card played over a lower
                # held card at once (what R6 would have called a mistake).
                lower = any(c < e.card for h in hands for c in h)
            else:
                # R6: the core's own verdict, the Mistake event that follows the play.
                following = events[i + 1] if i + 1 < len(events) else None
                lower = isinstance(following, Mistake) and following.card == e.card
            play_wait = e.t - last
            outcome: Outcome = "mistake" if lower else "ok"
            rows.append(_row(lv, e.t, e.player, e.card, top, play_wait, outcome))
            before, top = top, e.card
        elif isinstance(e, Mistake):
            # R6: the discards as the core recorded them. The lower cards left
            # the hands at the moment of the mistaken play: same wait, and
            # their gap is measured from the same pile.
            for d in e.discards:
                hands[d.player].discard(d.card)
                rows.append(_row(lv, e.t, d.player, d.card, before, play_wait, "discarded_mistake"))
        elif isinstance(e, StarUsed):
            for d in e.discards:
                hands[d.player].discard(d.card)
                rows.append(_row(lv, e.t, d.player, d.card, top, e.t - last, "discarded_star"))
        if isinstance(e, _RESTARTS):
            last = e.t
    return rows


def _row(
    lv: _Level, t: float, player: int, card: int, top: int | None, wait: float, outcome: Outcome
) -> dict[str, object]:
    return {
        "level": lv.level,
        "t": t,
        "player": player,
        "card": card,
        "gap": math.nan if top is None else float(card - top),
        "wait": wait,
        "outcome": outcome,
        "blind": lv.blind,
    }


def _frame(rows: list[dict[str, object]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(TRACE_COLUMNS))
    typed: pd.DataFrame = frame.astype(
        {
            "level": "int64",
            "t": "float64",
            "player": "int64",
            "card": "int64",
            "gap": "float64",
            "wait": "float64",
            "outcome": "object",
            "blind": "bool",
        }
    )
    return typed


def trace(game: Game) -> pd.DataFrame:
    """One row per card that left a hand, in the order it happened.

    Columns:

    * ``level``, ``blind`` -- which level (blind mode counts from 1 again);
    * ``t`` -- seconds since the level started (the level clock);
    * ``player``, ``card`` -- who let go of which card;
    * ``gap`` -- the card minus the top of the pile just before (NaN while the
      pile is empty). Cards put aside after a mistake are measured from the
      pile *before* the mistaken card, like that card itself;
    * ``wait`` -- seconds since the previous event that restarts everyone's
      timing: a play (or its mistake), a throwing star used or declined, a
      "stop", or the resume after it (the previous concentrate). Cards put
      aside share the wait of the event that put them aside;
    * ``outcome`` -- ``"ok"``; ``"mistake"`` for a card played while a lower
      card was still held (in blind mode this is found only when the pile is
      turned over, but the trace knows it at once); ``"discarded_mistake"``
      for a lower card put aside after a mistake; ``"discarded_star"`` for a
      lowest card put aside by a throwing star.

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[26], [30], [34, 50]], level=2)
    >>> g.concentrate(t=0); _ = g.play(2, t=2.0); _ = g.play(2, t=3.0)
    >>> trace(g)[["card", "outcome"]].values.tolist()
    [[34, 'mistake'], [26, 'discarded_mistake'], [30, 'discarded_mistake'], [50, 'ok']]
    """
    game = _check_game(game)
    rows: list[dict[str, object]] = []
    for lv in _levels(game):
        rows.extend(_level_rows(lv))
    return _frame(rows)


def trace_stops(game: Game) -> pd.DataFrame:
    """The stops: one row per "stop" with the time the team resumed.

    Columns ``level``, ``start`` (the stop), ``end`` (the concentrate that
    resumed play; NaN if the level ended or the game stands before it),
    ``player`` (who called stop) and ``blind``. A second "stop" before the
    resume belongs to the first.
    """
    game = _check_game(game)
    rows: list[dict[str, object]] = []
    for lv in _levels(game):
        open_row: dict[str, object] | None = None
        for e in lv.events:
            if isinstance(e, Stopped) and open_row is None:
                open_row = {
                    "level": lv.level,
                    "start": e.t,
                    "end": math.nan,
                    "player": e.player,
                    "blind": lv.blind,
                }
                rows.append(open_row)
            elif isinstance(e, Concentrated) and open_row is not None:
                open_row["end"] = e.t
                open_row = None
    frame = pd.DataFrame(rows, columns=list(STOP_COLUMNS))
    typed: pd.DataFrame = frame.astype(
        {"level": "int64", "start": "float64", "end": "float64", "player": "int64", "blind": "bool"}
    )
    return typed


def _pick_level(game: Game, level: int | None, blind: bool | None) -> _Level:
    levels = list(_levels(game))
    if level is None and blind is None:
        # The last level in which a card left a hand; else the current one.
        for lv in reversed(levels):
            if _level_rows(lv):
                return lv
        return levels[-1]
    for lv in reversed(levels):
        if (level is None or lv.level == level) and (blind is None or lv.blind == blind):
            return lv
    played = ", ".join(f"{lv.level}{' (blind)' if lv.blind else ''}" for lv in levels)
    wanted = "any level" if level is None else f"level {level}"
    mode = "" if blind is None else (" in blind mode" if blind else " outside blind mode")
    raise ValueError(f"this game has no {wanted}{mode}; its levels so far: {played}.")


class TraceFigure(Figure):
    """A matplotlib Figure that shows itself as a PNG in any notebook.

    `plot_trace` does not use pyplot (no global figure state), so without
    ``%matplotlib inline`` IPython would print ``<Figure size ...>``; this
    class gives IPython the picture instead. Where an inline backend has
    registered its own Figure formatter, that formatter is used and the
    picture still shows once.
    """

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100)
        return buffer.getvalue()


def plot_trace(
    game: Game,
    level: int | None = None,
    ax: Axes | None = None,
    blind: bool | None = None,
    lang: str = "en",
    you: int | None = None,
    bots: bool = False,
) -> Figure:
    """Plot one level: seconds since the level started (x) against card (y).

    Every seat has its own colour *and* marker (Okabe-Ito palette), filled for
    a card that went on the pile and hollow for one put aside. A black ring
    marks a card played while a lower card was held, a cross a card put aside
    after that mistake, and a star a card put aside by a throwing star. Grey
    bands are stops (hands back on the table), and a thin grey line joins the
    pile in play order, so a mistake shows as a step down.

    ``level`` defaults to the last level in which a card was played. In a game
    that went on into blind mode a level number can occur twice; ``blind``
    picks one (by default the later one). Pass ``ax`` to draw into your own
    axes; the function returns the figure either way. ``lang`` ("en", "nl" or
    "de") is the language of the title, axes and legend (the widget's strings,
    `mindwidget/locales`).

    Seats are named as a pupil reads them, counted from 1: "Player 1", ... or,
    with ``bots=True``, as the widget names them: seat ``you`` (the person's;
    None at a table of bots only) "You (player 1)", the others "Bot 2", ...
    """
    game = _check_game(game)
    if you is not None and (
        isinstance(you, bool) or not isinstance(you, int) or not 0 <= you < game.players
    ):
        raise ValueError(f"you must be a seat from 0 to {game.players - 1}, not {you!r}.")
    if level is not None:
        level = whole("level", level)
    if blind is not None:
        blind = flag("blind", blind)
    choice("lang", lang, LANGS, quoted=False)
    lv = _pick_level(game, level, blind)
    fig, ax = figure_and_axes(ax, (7.5, 4.5))
    _draw(game, lv, ax, lang, you, bots)
    return fig


def figure_and_axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    """A new `TraceFigure` with one set of axes, or ``ax`` and the Figure it belongs to."""
    if ax is None:
        fig: Figure = TraceFigure(figsize=figsize, layout="constrained")
        return fig, fig.add_subplot()
    parent = ax.get_figure(root=True)
    if not isinstance(parent, Figure):
        raise ValueError("ax must belong to a matplotlib Figure.")
    return parent, ax


def _draw(game: Game, lv: _Level, ax: Axes, lang: str, you: int | None, bots: bool) -> None:
    def say(key: str, **params: Any) -> str:
        return translate(key, lang, **params)

    def name(p: int) -> str:
        if p == you:
            return say("you_seat", player=p)
        return say("bot" if bots else "plot_player", player=p)

    rows = _frame(_level_rows(lv))
    stops = trace_stops(game)
    stops = stops[(stops["level"] == lv.level) & (stops["blind"] == lv.blind)]
    end = max([float(rows["t"].max()) if len(rows) else 0.0, lv.events[-1].t, 1.0])
    handles: list[Artist] = []

    for start, stop_end in zip(stops["start"], stops["end"], strict=True):
        right = end if math.isnan(stop_end) else float(stop_end)
        ax.axvspan(float(start), max(right, float(start) + 0.05), color="0.85", zorder=0, lw=0)
    if len(stops):
        handles.append(Patch(color="0.85", label=say("plot_stop")))

    played = rows[rows["outcome"].isin(["ok", "mistake"])]
    if len(played):
        (pile,) = ax.plot(
            played["t"], played["card"], color="0.6", lw=1, zorder=1, label=say("plot_pile")
        )
        handles.append(pile)

    for p in range(game.players):
        colour, marker = OKABE_ITO[p % len(OKABE_ITO)], MARKERS[p % len(MARKERS)]
        mine = rows[rows["player"] == p]
        on_pile = mine[mine["outcome"].isin(["ok", "mistake"])]
        aside = mine[mine["outcome"].isin(["discarded_mistake", "discarded_star"])]
        (line,) = ax.plot(
            on_pile["t"],
            on_pile["card"],
            ls="none",
            marker=marker,
            ms=9,
            color=colour,
            mec="white",
            zorder=3,
            label=name(p),
        )
        handles.append(line)
        if len(aside):
            ax.plot(
                aside["t"],
                aside["card"],
                ls="none",
                marker=marker,
                ms=9,
                mfc="white",
                mec=colour,
                mew=2,
                zorder=3,
            )

    overlay = {
        "mistake": {"marker": "o", "ms": 17, "mfc": "none", "mew": 1.8},
        "discarded_mistake": {"marker": "x", "ms": 7, "mew": 1.5},
        "discarded_star": {"marker": "*", "ms": 8, "mew": 0.5},
    }
    for outcome, style in overlay.items():
        these = rows[rows["outcome"] == outcome]
        if len(these):
            (mark,) = ax.plot(
                these["t"],
                these["card"],
                ls="none",
                color="black",
                mec="black",
                zorder=4,
                label=say(f"plot_{outcome}"),
                **style,  # type: ignore[arg-type]
            )
            handles.append(mark)

    for t, card in zip(rows["t"], rows["card"], strict=True):
        ax.annotate(
            str(card),
            (float(t), float(card)),
            xytext=(7, 3),
            textcoords="offset points",
            fontsize=8,
            color="0.25",
        )

    if not len(rows):
        ax.text(
            0.5,
            0.5,
            say("plot_empty"),
            transform=ax.transAxes,
            ha="center",
            va="center",
            color="0.4",
        )
    ax.set_title(say("plot_title_blind" if lv.blind else "plot_title", n=lv.level))
    ax.set_xlabel(say("plot_x"))
    ax.set_ylabel(say("plot_y"))
    ax.set_xlim(0, end * 1.05)
    ax.set_ylim(0, game.rules.deck + 1)
    ax.grid(axis="y", color="0.92", zorder=0)
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize="small",
        frameon=False,
    )
