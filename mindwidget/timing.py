"""A mirror of a player's inner clock: how long they wait for a card, by its gap.

`timing_profile` fits one player's waits (from the timing trace,
`mindwidget.traces.trace`) against the gap: the card minus the top of the pile
when the wait began. The model is the one the bots' timing rests on: a
reaction floor plus a time that grows with the gap, with a spread in
proportion to that time (scalar timing, Gibbon 1977)::

    wait = floor + seconds_per_step * gap,   sd(wait) = cv * (wait - floor)

fitted by weighted least squares (weights 1 / fitted**2, the scalar
property), three rounds, with the floor between 0 and the shortest wait and
at most `MAX_FLOOR` (1 s). The profile also gives the player's tempo on the
people curve of `mindwidget.bots.HumanTimer` (1.0 = the human reference of
the mind-server data; 1.5 = half as slow again): the median of ``(wait -
0.4) / curve(gap)``, the number a `HumanTimer` bot adapts to.

`mindwidget.plots.plot_timing` draws the player's plays beside the other
seats' and the human reference (the band medians and the people curve).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from .bots.human import REACTION_FLOOR, curve
from .game import Game
from .traces import trace

__all__ = [
    "MAX_FLOOR",
    "MIN_PLAYS",
    "TimingProfile",
    "player_plays",
    "profile_of",
    "timing_profile",
]

#: Fewer plays than this and the profile says so instead of fitting.
MIN_PLAYS = 3
#: The highest reaction floor the fit gives (people: about 0.4 s; with only far
#: cards played the intercept is poorly known and would otherwise run away).
MAX_FLOOR = 1.0


@dataclass(frozen=True)
class TimingProfile:
    """One player's inner clock, fitted from their plays (see `timing_profile`).

    ``plays``: how many plays the fit rests on. ``fitted``: False when there
    were fewer than `MIN_PLAYS` (then every number is NaN and ``note`` says
    why). ``floor`` (s), ``seconds_per_step`` (s per step of the gap), ``cv``
    (the spread as a fraction of the time above the floor), ``tempo`` (on the
    people curve, 1.0 = the human reference) and ``median_wait`` (s).
    """

    player: int
    plays: int
    fitted: bool
    floor: float
    seconds_per_step: float
    cv: float
    tempo: float
    median_wait: float
    note: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        if not self.fitted:
            return f"player {self.player}: {self.note}"
        return (
            f"player {self.player}, {self.plays} plays: reaction floor {self.floor:.2f} s, "
            f"{self.seconds_per_step:.2f} s per step, spread cv {self.cv:.2f}, "
            f"tempo {self.tempo:.2f} x the people curve"
        )


def check_player(game: object, player: object) -> tuple[Game, int]:
    if not isinstance(game, Game):
        raise TypeError(f"expected a mindwidget Game, not {type(game).__name__}.")
    if (
        isinstance(player, bool)
        or not isinstance(player, (int, np.integer))
        or not 0 <= player < game.players
    ):
        raise ValueError(f"player must be a seat from 0 to {game.players - 1}, not {player!r}.")
    return game, int(player)


def timed_plays(game: Game) -> pd.DataFrame:
    """Every play of the trace (cards put aside are not plays) with ``wait`` > 0; the
    first card of a level has the gap from 0 (the trace leaves it NaN: no pile yet),
    as the bots count it."""
    rows = trace(game)
    plays = rows[rows["outcome"].isin(["play", "mistake"])].copy()
    plays["gap"] = plays["gap"].fillna(plays["card"].astype("float64"))
    out: pd.DataFrame = plays[(plays["gap"] >= 1) & (plays["wait"] > 0)].reset_index(drop=True)
    return out


def player_plays(game: Game, player: int) -> pd.DataFrame:
    """The trace rows of ``player``'s own plays (``wait`` > 0; the first card of a
    level has its gap from 0): cards put aside after a mistake or by a star are not
    plays."""
    game, player = check_player(game, player)
    plays = timed_plays(game)
    mine: pd.DataFrame = plays[plays["player"] == player].reset_index(drop=True)
    return mine


def timing_profile(game: Game, player: int) -> TimingProfile:
    """Fit ``player``'s waits against the gap: reaction floor, seconds per step, cv.

    With fewer than `MIN_PLAYS` plays nothing is fitted: ``fitted`` is False
    and ``note`` says how many plays there are and how many are needed.

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[10, 30], [50]])
    >>> g.ready(t=0); _ = g.play(0, t=5.0); _ = g.play(0, t=15.0)
    >>> timing_profile(g, 0).note
    'only 2 plays so far; the profile needs at least 3.'
    """
    game, player = check_player(game, player)
    plays = player_plays(game, player)
    return profile_of(plays["gap"], plays["wait"], player)


def profile_of(gap: Any, wait: Any, player: int = -1) -> TimingProfile:
    """`timing_profile` of any list of plays (``gap`` and ``wait``, the same length):
    the waits of one pupil over all the tables of a class (`mindwidget.classdata.clock`)."""
    gap = np.asarray(gap, dtype=np.float64)
    wait = np.asarray(wait, dtype=np.float64)
    n = len(gap)
    if n < MIN_PLAYS:
        word = "play" if n == 1 else "plays"
        note = f"only {n} {word} so far; the profile needs at least {MIN_PLAYS}."
        nan = math.nan
        return TimingProfile(player, n, False, nan, nan, nan, nan, nan, note)
    floor, step = _fit(gap, wait)
    above = np.maximum(step * gap, 1e-9)
    cv = float(np.sqrt(np.mean(((wait - floor - step * gap) / above) ** 2)))
    tempo = float(np.median(np.maximum(wait - REACTION_FLOOR, 1e-3) / [curve(g) for g in gap]))
    note = "" if len(np.unique(gap)) > 1 else "every play had the same gap: the floor is a guess."
    return TimingProfile(player, n, True, floor, step, cv, tempo, float(np.median(wait)), note)


def _fit(gap: np.ndarray[Any, Any], wait: np.ndarray[Any, Any]) -> tuple[float, float]:
    """Weighted least squares of wait = floor + step * gap, 0 <= floor <= min(wait)
    and at most `MAX_FLOOR` (a reaction floor, not the wait for far cards)."""
    low = min(float(wait.min()), MAX_FLOOR)
    if len(np.unique(gap)) < 2:
        floor = min(REACTION_FLOOR, low)
        return floor, max(float(np.median(wait - floor) / gap[0]), 0.0)
    design = np.column_stack([np.ones_like(gap), gap])
    weights = np.ones_like(gap)
    floor, step = 0.0, 0.0
    for _ in range(3):
        root = np.sqrt(weights)
        coef, *_ = np.linalg.lstsq(design * root[:, None], wait * root, rcond=None)
        floor, step = float(coef[0]), float(coef[1])
        floor = min(max(floor, 0.0), low)
        step = max(step, 0.0)
        if step == 0.0 or floor != coef[0]:
            # Refit the slope alone with the floor held at its bound.
            num = float(np.sum(weights * gap * (wait - floor)))
            step = max(num / float(np.sum(weights * gap * gap)), 0.0)
        fitted = np.maximum(floor + step * gap, 1e-3)
        weights = 1.0 / fitted**2
    return floor, step
