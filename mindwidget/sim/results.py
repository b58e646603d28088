"""What `simulate` returns: `SimResult`, its `Summary` and exact `LevelTotals`, and the
Wilson interval of a win rate."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..bots import Bot
from ..rules import Rules

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

#: What `simulate` keeps: every game's rows, or only their sums.
Keep = Literal["games", "summary"]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
#: One block's rows: a column of `LEVEL_COLUMNS` each.
Rows = dict[str, npt.NDArray[Any]]

#: The columns of `SimResult.levels` (one row per game and level reached), in
#: order: what each engine's block returns.
LEVEL_COLUMNS = (
    "game",
    "level",
    "cleared",
    "mistakes",
    "stars_used",
    "lives",
    "stars",
    "tempo_spread",
)


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (Wilson 1927).

    Unlike the "p +- 1.96 SE" interval it stays inside [0, 1] and keeps its
    coverage when the rate is near 0 or 1, as win rates of hard settings are.
    """
    if trials < 1:
        raise ValueError(f"trials must be at least 1, not {trials}.")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Summary:
    """The headline numbers of a simulation."""

    games: int
    wins: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    mean_level_reached: float
    mean_levels_cleared: float
    mean_lives_lost: float
    mean_stars_used: float

    def to_dict(self) -> dict[str, float | int]:
        return dict(self.__dict__)

    def __str__(self) -> str:
        return (
            f"{self.games} games: won {self.wins} = {self.win_rate:.1%} "
            f"(95% CI {self.win_rate_low:.1%} to {self.win_rate_high:.1%}); "
            f"mean level reached {self.mean_level_reached:.2f}, "
            f"lives lost {self.mean_lives_lost:.2f}, stars used {self.mean_stars_used:.2f}"
        )


@dataclass(frozen=True, eq=False)
class LevelTotals:
    """Sums over games, level by level: everything a summary needs, and no game's row.

    ``played[i]``: how many games played level ``i + 1``; ``sums[c][i]``: the
    sum of column ``c`` of `SimResult.levels` over those games, for each
    column in `SUMMED`. Every sum is exact (whole numbers as ``int64``, the
    tempo spread as `Fraction` objects), so totals add up to the same numbers
    whatever the grouping: any chunking, any executor, either ``keep``.
    """

    played: IntArray
    sums: dict[str, npt.NDArray[Any]]

    #: the columns of `SimResult.levels` that are summed (all but game and level)
    SUMMED: ClassVar[tuple[str, ...]] = LEVEL_COLUMNS[2:]
    #: the summed columns that hold fractions (summed exactly as `Fraction`)
    FRACTIONAL: ClassVar[tuple[str, ...]] = ("tempo_spread",)

    @classmethod
    def of(cls, rows: Mapping[str, npt.NDArray[Any]], levels: int) -> LevelTotals:
        """The totals of one block's level rows (``levels``: the rules' level count)."""
        index = np.asarray(rows["level"], dtype=np.intp) - 1
        sums: dict[str, npt.NDArray[Any]] = {}
        for c in cls.SUMMED:
            values = np.asarray(rows[c])
            if c in cls.FRACTIONAL:
                sums[c] = _exact_sums(index, values.astype(np.float64), levels)
            else:
                # a block's sums are far below 2**53: exact in float64
                weights = values.astype(np.float64)
                sums[c] = np.bincount(index, weights, minlength=levels).astype(np.int64)
        return cls(np.bincount(index, minlength=levels).astype(np.int64), sums)

    @classmethod
    def of_levels(
        cls, played: IntArray, sums: Mapping[str, IntArray], spread: float
    ) -> LevelTotals:
        """The totals from each level's count of games (``played``) and sums of the
        whole-number columns (``sums``), for a team whose tempo spread is ``spread``
        in every game (the fast engine's: its stationary teams never change tempo).
        The same numbers as `of` on the rows."""
        fractions = _fractions(played.size)
        for level in np.flatnonzero(played):
            fractions[level] = Fraction(float(spread)) * int(played[level])
        whole = {
            c: np.asarray(sums[c], dtype=np.int64) for c in cls.SUMMED if c not in cls.FRACTIONAL
        }
        return cls(played, {**whole, **{c: fractions for c in cls.FRACTIONAL}})

    @classmethod
    def zero(cls, levels: int) -> LevelTotals:
        """No games yet."""
        sums = {
            c: _fractions(levels) if c in cls.FRACTIONAL else np.zeros(levels, np.int64)
            for c in cls.SUMMED
        }
        return cls(np.zeros(levels, np.int64), sums)

    def __add__(self, other: LevelTotals) -> LevelTotals:
        return LevelTotals(
            self.played + other.played, {c: self.sums[c] + other.sums[c] for c in self.SUMMED}
        )

    def mean(self, column: str) -> FloatArray:
        """Per level played, the mean of ``column`` over the games that played it."""
        reached = int(np.count_nonzero(self.played))  # a prefix: levels are played in order
        played, total = self.played[:reached], self.sums[column][:reached]
        if column in self.FRACTIONAL:
            return np.array([float(t / int(n)) for t, n in zip(total, played, strict=True)])
        return np.asarray(total / played, dtype=np.float64)


def _fractions(levels: int) -> npt.NDArray[Any]:
    return np.array([Fraction(0)] * levels, dtype=object)


def _exact_sums(index: npt.NDArray[np.intp], values: FloatArray, levels: int) -> npt.NDArray[Any]:
    """Per level, the exact sum of ``values`` as a `Fraction` (an object array)."""
    total = _fractions(levels)
    if values.size and (values == values[0]).all():  # a stationary team: one value
        counts = np.bincount(index, minlength=levels)
        for level in np.flatnonzero(counts):
            total[level] = Fraction(float(values[0])) * int(counts[level])
        return total
    order = np.lexsort((values, index))
    index, values = index[order], values[order]
    new = np.ones(index.size, dtype=np.bool_)
    new[1:] = (index[1:] != index[:-1]) | (values[1:] != values[:-1])
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, index.size))
    for level, value, count in zip(index[starts], values[starts], counts, strict=True):
        total[level] += Fraction(float(value)) * int(count)
    return total


@dataclass(frozen=True, repr=False, eq=False)
class SimResult:
    """What `simulate` returns.

    ``games`` (with ``keep="games"``): one row per game with ``game``,
    ``levels_cleared``, ``level_reached``, ``won``, ``lives_lost`` (one per
    mistake), ``stars_used``, ``lives_left`` and ``stars_left``.

    ``levels`` (with ``keep="games"``): one row per level reached with the
    columns in `LEVEL_COLUMNS`: ``game``, ``level``, ``cleared``, ``mistakes``,
    ``stars_used``, ``lives`` and ``stars`` (at the end of the level, its
    reward included) and ``tempo_spread``: how far apart the team's tempos are
    at the end of that level, as ``max/min - 1`` (0.3 = the slowest is 30%
    slower than the fastest; constant for stationary timers, shrinking for an
    adaptive team).

    ``summary()``, ``by_level()`` and ``tempo_spread()`` come from ``totals``
    (`LevelTotals`), which both ``keep`` settings hold: they are the same
    numbers either way.
    """

    players: int
    engine: Literal["fast", "reference"]
    seed: int
    team: tuple[str, ...]
    rules: Rules
    keep: Keep
    totals: LevelTotals
    tables: tuple[pd.DataFrame, pd.DataFrame] | None = field(default=None, compare=False)

    def _table(self, which: int, name: str) -> pd.DataFrame:
        if self.tables is None:
            raise AttributeError(
                f"this result kept only the summary (keep='summary'), so it has no {name} "
                f"table; use summary(), by_level() or tempo_spread(), or simulate with "
                f"keep='games' for one row per {'game' if which == 0 else 'level reached'}."
            )
        return self.tables[which]

    @property
    def games(self) -> pd.DataFrame:
        """One row per game (``keep="games"`` only)."""
        return self._table(0, "games")

    @property
    def levels(self) -> pd.DataFrame:
        """One row per game and level reached (``keep="games"`` only)."""
        return self._table(1, "levels")

    def summary(self) -> Summary:
        t = self.totals
        n = int(t.played[0])
        wins = int(t.sums["cleared"][-1])
        low, high = wilson_interval(wins, n)
        return Summary(
            games=n,
            wins=wins,
            win_rate=wins / n,
            win_rate_low=low,
            win_rate_high=high,
            # a game reaches level L by playing levels 1..L: one row each
            mean_level_reached=int(t.played.sum()) / n,
            mean_levels_cleared=int(t.sums["cleared"].sum()) / n,
            mean_lives_lost=int(t.sums["mistakes"].sum()) / n,
            mean_stars_used=int(t.sums["stars_used"].sum()) / n,
        )

    def by_level(self) -> pd.DataFrame:
        """One row per level that some game played, indexed by ``level``.

        ``games``: games that played it; ``ended``: games whose last level it
        was (won or lost: the distribution of the level reached); ``cleared``
        and ``clear_rate``; per game that played it, the means of
        ``mistakes`` (lives lost), ``stars_used``, ``lives`` and ``stars`` at
        its end, and ``tempo_spread``.
        """
        t = self.totals
        reached = int(np.count_nonzero(t.played))  # a prefix: levels are played in order
        played = t.played[:reached]
        table: dict[str, npt.NDArray[Any]] = {
            "games": played,
            "ended": played - np.append(played[1:], 0),
            "cleared": t.sums["cleared"][:reached],
            "clear_rate": t.mean("cleared"),
            **{c: t.mean(c) for c in LevelTotals.SUMMED if c != "cleared"},
        }
        frame: pd.DataFrame = pd.DataFrame(
            table, index=pd.Index(np.arange(1, reached + 1), name="level")
        )
        return frame

    def tempo_spread(self) -> pd.Series:
        """Mean tempo spread at the end of each level, by level."""
        spread: pd.Series = self.by_level()["tempo_spread"]
        return spread

    def __repr__(self) -> str:
        return f"SimResult({self.engine} engine, {self.players} players: {self.summary()})"


def spread_of(team: Sequence[Bot]) -> float:
    """How far apart a team's tempos are: the fastest over the slowest, minus 1."""
    tempos = [b.tempo for b in team]
    return max(tempos) / min(tempos) - 1.0


def collect_tables(
    parts: list[tuple[Rows, bool]], rules: Rules, games: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``games`` and ``levels`` tables from the blocks' rows, each by game, then
    level, or (True beside it) level by level with each level's games in order.

    The blocks hold consecutive games in order, so the rows, each block's taken
    by game straight into the table's column, are in order too: one copy, and
    for rows level by level one stable sort of the block's game numbers (which
    keeps each game's levels in order). A game's rows are its levels 1, 2, ...,
    so its rows start where ``level`` is 1.
    """
    total = sum(rows["level"].size for rows, _ in parts)
    data = {c: np.empty(total, dtype=parts[0][0][c].dtype) for c in LEVEL_COLUMNS}
    at = 0
    for rows, by_level in parts:  # block by block, each block's rows freed as they go in
        size = rows["level"].size
        order = np.argsort(rows["game"], kind="stable") if by_level else None
        for c in LEVEL_COLUMNS:
            values = rows.pop(c)
            into = data[c][at : at + size]
            if order is None:
                into[:] = values
            else:
                # (an order is a permutation, so no index is out of range; mode="raise",
                # the default, would write through a buffer: twice the time)
                np.take(values, order, out=into, mode="clip")
        at += size
    parts.clear()
    levels = pd.DataFrame(data, copy=False)
    del data
    level = levels["level"].to_numpy()
    start = np.flatnonzero(level == 1)
    last = np.append(start[1:], level.size) - 1
    assert start.size == games

    def per_game(column: str) -> IntArray:
        total: IntArray = np.add.reduceat(levels[column].to_numpy(), start, dtype=np.int64)
        return total

    cleared = per_game("cleared")
    per = pd.DataFrame(
        {
            "game": levels["game"].to_numpy()[start],
            "levels_cleared": cleared,
            "level_reached": level[last].astype(np.int64),
            "won": cleared == rules.n_levels,
            "lives_lost": per_game("mistakes"),
            "stars_used": per_game("stars_used"),
            "lives_left": levels["lives"].to_numpy()[last].astype(np.int64),
            "stars_left": levels["stars"].to_numpy()[last].astype(np.int64),
        }
    )
    return per, levels
