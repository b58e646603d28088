"""The timing trace: when each card left a hand, and how long the team waited.

The Mind is a game of timing ("a 5 goes quickly, with an 80 you wait a long
time"), so the most useful picture of a level is *time* against *card*. This
module turns any `Game` (played by hand, by bots with
`mindwidget.bots.runner.run_game`, or stepped through in a scenario) into:

* `trace` -- a table with one row per card that left a hand;
* `trace_stops` -- the intervals between a "stop" and the resume after it;
* (`mindwidget.plots.plot_trace` draws one level of it: the figures live
  there, so that this module, and the scenarios and the class data that read
  it, load no matplotlib.)

The trace is the god view: it reads the game's events, including face-down
cards (blind mode) and the cards others held. Show it after a level, not
during one.

Blind mode restarts the level numbers at 1, so a level is named by its number
*and* the ``blind`` flag.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pandas as pd

from .events import (
    Dealt,
    Event,
    Mistake,
    Played,
    Ready,
    StarDeclined,
    StarUsed,
    Stopped,
)
from .game import Game

__all__ = [
    "MARKERS",
    "OKABE_ITO",
    "OUTCOMES",
    "TRACE_COLUMNS",
    "STOP_COLUMNS",
    "trace",
    "trace_stops",
]

Outcome = Literal["play", "mistake", "lost", "star"]
#: Every value of the ``outcome`` column, in the order the plot's legend uses.
OUTCOMES: tuple[Outcome, ...] = ("play", "mistake", "lost", "star")
TRACE_COLUMNS = ("level", "t", "player", "card", "gap", "wait", "outcome", "blind")
STOP_COLUMNS = ("level", "start", "end", "player", "blind", "why")

#: One colour and marker per seat, the same as in the widget's live trace
#: (`mindwidget/seats.json`, the one place for them): Okabe and Ito's
#: colour-blind safe palette, each colour with its own marker shape.
_SEATS = json.loads((Path(__file__).resolve().parent / "seats.json").read_text("utf-8"))
OKABE_ITO: tuple[str, ...] = tuple(_SEATS["colours"])
MARKERS: tuple[str, ...] = tuple(_SEATS["matplotlib_markers"])

#: Events after which everyone's timing starts afresh: a play (and the mistake
#: it caused), a throwing star used or declined, a stop, and the resume after
#: it. The deal (t=0) counts when nothing else happened yet.
_RESTARTS = (Dealt, Played, Mistake, StarUsed, StarDeclined, Stopped, Ready)


@dataclass(frozen=True)
class TraceLevel:
    """The events of one dealt level (its first event is the `Dealt`)."""

    level: int
    blind: bool
    events: tuple[Event, ...]


def _levels(game: Game) -> Iterator[TraceLevel]:
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


def _level_of(events: list[Event]) -> TraceLevel:
    dealt = events[0]
    assert isinstance(dealt, Dealt)
    return TraceLevel(dealt.level, dealt.blind, tuple(events))


def check_game(game: object) -> Game:
    if not isinstance(game, Game):
        raise ValueError(f"game: expected a mindwidget Game, not {type(game).__name__}.")
    return game


def level_rows(lv: TraceLevel) -> list[dict[str, object]]:
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
            outcome: Outcome = "mistake" if lower else "play"
            rows.append(_row(lv, e.t, e.player, e.card, top, play_wait, outcome))
            before, top = top, e.card
        elif isinstance(e, Mistake):
            # R6: the discards as the core recorded them. The lower cards left
            # the hands at the moment of the mistaken play: same wait, and
            # their gap is measured from the same pile.
            for d in e.discards:
                hands[d.player].discard(d.card)
                rows.append(_row(lv, e.t, d.player, d.card, before, play_wait, "lost"))
        elif isinstance(e, StarUsed):
            for d in e.discards:
                hands[d.player].discard(d.card)
                rows.append(_row(lv, e.t, d.player, d.card, top, e.t - last, "star"))
        if isinstance(e, _RESTARTS):
            last = e.t
    return rows


def _row(
    lv: TraceLevel, t: float, player: int, card: int, top: int | None, wait: float, outcome: Outcome
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


def trace_frame(rows: list[dict[str, object]]) -> pd.DataFrame:
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
      "stop", or the resume after it (the previous ready). Cards put
      aside share the wait of the event that put them aside;
    * ``outcome`` -- ``"play"``; ``"mistake"`` for a card played while a lower
      card was still held (in blind mode this is found only when the pile is
      turned over, but the trace knows it at once); ``"lost"``
      for a lower card put aside after a mistake; ``"star"`` for a
      lowest card put aside by a throwing star.

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[26], [30], [34, 50]], level=2)
    >>> g.ready(t=0); _ = g.play(2, t=2.0); _ = g.play(2, t=3.0)
    >>> trace(g)[["card", "outcome"]].values.tolist()
    [[34, 'mistake'], [26, 'lost'], [30, 'lost'], [50, 'play']]
    """
    game = check_game(game)
    rows: list[dict[str, object]] = []
    for lv in _levels(game):
        rows.extend(level_rows(lv))
    return trace_frame(rows)


def trace_stops(game: Game) -> pd.DataFrame:
    """The stops: one row per "stop" with the time the team resumed.

    Columns ``level``, ``start`` (the stop), ``end`` (the ready that
    resumed play; NaN if the level ended or the game stands before it),
    ``player`` (who called stop, or in whose name the host stopped), ``blind``
    and ``why`` (`mindwidget.events.STOP_REASONS`: "player" when the seat called
    it; "offline", "teacher" or "seat" when a class server stopped the level for
    a lost connection, the teacher's pause or a change of seat). A second "stop"
    before the resume belongs to the first.
    """
    game = check_game(game)
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
                    "why": e.why,
                }
                rows.append(open_row)
            elif isinstance(e, Ready) and open_row is not None:
                open_row["end"] = e.t
                open_row = None
    frame = pd.DataFrame(rows, columns=list(STOP_COLUMNS))
    typed: pd.DataFrame = frame.astype(
        {
            "level": "int64",
            "start": "float64",
            "end": "float64",
            "player": "int64",
            "blind": "bool",
            "why": "object",
        }
    )
    return typed


def pick_level(game: Game, level: int | None, blind: bool | None) -> TraceLevel:
    levels = list(_levels(game))
    if level is None and blind is None:
        # The last level in which a card left a hand; else the current one.
        for lv in reversed(levels):
            if level_rows(lv):
                return lv
        return levels[-1]
    for lv in reversed(levels):
        if (level is None or lv.level == level) and (blind is None or lv.blind == blind):
            return lv
    played = ", ".join(f"{lv.level}{' (blind)' if lv.blind else ''}" for lv in levels)
    wanted = "any level" if level is None else f"level {level}"
    mode = "" if blind is None else (" in blind mode" if blind else " outside blind mode")
    raise ValueError(f"this game has no {wanted}{mode}; its levels so far: {played}.")
