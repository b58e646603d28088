"""Monte Carlo lab: play many games with bots and summarise them.

``simulate(players=3, bots="scalar", games=10_000)`` answers a class's question
("how often does a team of three win if people are 15% imprecise?") in well
under a second. Two engines give the same answers in distribution:

* ``"reference"``: the runner (`mindwidget.runner`) on real `Game` objects:
  full rules, every event, any bot (including `AdaptiveTimer` and your own).
* ``"fast"``: a vectorised NumPy engine for the stationary timers
  (`PerfectTimer`, `ScalarTimer` with either noise, with or without stars and
  the default `StarPolicy`; `HumanTimer` at a fixed tempo, ``rate=0``, that
  does not propose stars, holding back as it does: `_held`). It plays level
  by level across all games at once, one public event per step, in named
  steps over a `_Level` of arrays
  (`_Star.throw`, `_planned_waits`, `_first_to_act`, `_play`, `_end`).

``engine="auto"`` takes the fast one whenever it applies. The equivalence of
the two engines is a test (``tests/test_sim.py``), not a hope.

Reproducibility: the games are cut into fixed blocks (`BLOCK` games for the
fast engine, `REFERENCE_BLOCK` for the reference engine, which spawns one child
sequence per game), and block ``i`` draws from
``SeedSequence(seed, spawn_key=(i,))``. Work is handed
to an executor in chunks of whole blocks, so the result for a given seed is the
same whatever the executor (none, a process pool, a Dask ``distributed.Client``
or its ``get_executor()``) and however the blocks are grouped into chunks.

Any size: chunks are made as they are needed, at most `IN_FLIGHT` wait on an
executor, and ``keep="summary"`` adds each block into exact `LevelTotals`
instead of keeping its rows, so a million games or a billion take the same
memory (under 20 MB above the interpreter; ``keep="games"`` keeps about 500
bytes a game, about 930 at the peak).
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, ClassVar, Literal, Protocol

import numpy as np
import numpy.typing as npt
import pandas as pd

from .bots import Bot, BotsLike, HumanTimer, PerfectTimer, ScalarTimer, StarPolicy, make_team
from .bots.human import HOLD_P_MIN, curve
from .events import Mistake, StarUsed
from .game import Game
from .rules import DECK_SIZE, Rules
from .runner import BotError, _run_level

__all__ = [
    "BLOCK",
    "LEVEL_COLUMNS",
    "REFERENCE_BLOCK",
    "LevelTotals",
    "SimResult",
    "Summary",
    "simulate",
    "wilson_interval",
]

#: Games per block of the fast engine: the unit of randomness (one seed
#: sequence each) and of vectorisation.
BLOCK = 4096
#: Games per block of the reference engine (a block takes a few seconds).
REFERENCE_BLOCK = 256
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

Engine = Literal["auto", "fast", "reference"]
#: What `simulate` keeps: every game's rows, or only their sums.
Keep = Literal["games", "summary"]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

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


class _HasExecutor(Protocol):
    """A Dask ``distributed.Client``, as far as `simulate` uses one."""

    def get_executor(self) -> Executor: ...


# ---------------------------------------------------------------- results
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


# ---------------------------------------------------------------- checks
# The wording of mindwidget.checks (whole, choice), kept local for now.
def _whole(name: str, value: object, lo: int, *, none: bool = False) -> int:
    """``value`` as a plain ``int`` if it is a whole number >= ``lo`` (numpy's too)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= lo:
        return int(value)
    allowed = f"{'None or ' if none else ''}a whole number >= {lo}"
    raise ValueError(f"{name} must be {allowed}, not {value!r}.")


def _one_of(name: str, value: object, allowed: tuple[object, ...]) -> None:
    """Refuse ``value`` unless it is one of ``allowed`` (of its type: 1 is not True)."""
    if not any(isinstance(value, type(a)) and value == a for a in allowed):
        names = [repr(a) for a in allowed]
        listed = f"{', '.join(names[:-1])} or {names[-1]}"
        raise ValueError(f"{name} must be {listed}, not {value!r}.")


def _check_executor(executor: object) -> Executor | None:
    """None, an `Executor`, or a Dask ``distributed.Client`` (its ``get_executor()``)."""
    if executor is None or isinstance(executor, Executor):
        return executor
    get = getattr(executor, "get_executor", None)
    if callable(get) and not isinstance(executor, type):
        chosen = get()
        if isinstance(chosen, Executor):
            return chosen
    raise ValueError(
        "executor must be None, a concurrent.futures.Executor or a Dask distributed.Client, "
        f"not {executor!r}."
    )


def fast_engine_reason(team: Sequence[Bot], rules: Rules | None = None) -> str | None:
    """Why the fast engine cannot play this team under these rules (None: it can)."""
    for p, bot in enumerate(team):
        if type(bot) not in FAST_TIMERS:
            names = " and ".join(t.__name__ for t in FAST_TIMERS)
            return (
                f"seat {p} is a {type(bot).__name__}; the fast engine plays only "
                f"{names} (not subclasses: their plan may differ)"
            )
        if type(bot.star_policy) is not StarPolicy:
            return (
                f"seat {p} has a {type(bot.star_policy).__name__}; the fast engine plays "
                "only the default StarPolicy rules (with any parameters)"
            )
        if isinstance(bot, HumanTimer) and bot.rate != 0:
            return (
                f"seat {p} is a HumanTimer that adapts its tempo (rate={bot.rate:g}); the "
                "fast engine plays a HumanTimer only with rate=0"
            )
        if isinstance(bot, HumanTimer) and bot.propose_stars:
            return (
                f"seat {p} is a HumanTimer that proposes stars (at its reaction floor, never "
                "twice between cards); the fast engine plays a HumanTimer only with "
                "propose_stars=False"
            )
    proposes = any(b.propose_stars for b in team)
    for p, bot in enumerate(team):
        if proposes and bot.star_policy.risk is not None:
            return (
                f"seat {p} votes on stars by risk (StarPolicy(risk=...)); the fast engine "
                "plays only the StarPolicy rules by gap"
            )
    if rules is not None and rules.deck >= NONE - 1:
        return f"a deck of {rules.deck} cards; the fast engine handles up to {NONE - 2}"
    return None


# ---------------------------------------------------------------- the fast engine
#: How the fast engine draws a seat's wait (see `_planned_waits`).
TimerKind = Literal["normal", "lognormal", "human"]

#: The bot classes the fast engine plays (exactly these: a subclass may plan differently).
FAST_TIMERS: tuple[type[Bot], ...] = (PerfectTimer, ScalarTimer, HumanTimer)


def _timer_kind(bot: Bot) -> TimerKind:
    """The fast engine's timing model of one of the `FAST_TIMERS`."""
    if isinstance(bot, ScalarTimer):
        return bot.noise
    if isinstance(bot, HumanTimer):
        return "human"
    return "normal"  # PerfectTimer: a normal wait with no noise at all


@dataclass(frozen=True)
class _Seats:
    """Per-seat parameters of a stationary team, as arrays."""

    kind: tuple[TimerKind, ...]
    spp: FloatArray
    cv: FloatArray
    motor: FloatArray
    propose: BoolArray
    close: IntArray
    last_life_gap: IntArray
    vote_gap: IntArray
    #: the HumanTimer of each seat (None for the other kinds): its curve and spread
    human: tuple[HumanTimer | None, ...] = ()

    @classmethod
    def of(cls, team: Sequence[Bot]) -> _Seats:
        def arr(f: Callable[[Bot], float], dtype: type) -> Any:
            return np.array([f(b) for b in team], dtype=dtype)

        return cls(
            kind=tuple(_timer_kind(b) for b in team),
            spp=arr(lambda b: b.seconds_per_step, np.float64),
            cv=arr(lambda b: getattr(b, "cv", 0.0), np.float64),
            motor=arr(lambda b: getattr(b, "motor_sd", 0.0), np.float64),
            propose=arr(lambda b: b.propose_stars, np.bool_),
            close=arr(lambda b: b.star_policy.close, np.int64),
            last_life_gap=arr(lambda b: b.star_policy.last_life_gap, np.int64),
            vote_gap=arr(lambda b: b.star_policy.vote_gap, np.int64),
            human=tuple(b if isinstance(b, HumanTimer) else None for b in team),
        )


NONE = 30_000  # "no card": above every card, and far above every gap


def _deal(rng: np.random.Generator, g: int, n: int, k: int, deck: int) -> npt.NDArray[np.int16]:
    """``g`` deals of ``k`` cards to each of ``n`` players, seat-major and sorted.

    Shape (n, g, k+2); columns ``k`` and ``k+1`` hold the sentinel `NONE`.
    Cards are drawn one at a time, uniformly from the deck, and a card already
    dealt in that game is drawn again: each draw is uniform over the cards
    left, exactly like `Game`'s ``random.sample``. Seat s gets draws
    s*k .. s*k+k-1. (Cheaper than sorting 100 random keys per game: at most
    ``n*k`` draws, few of them repeated.)
    """
    total = n * k
    width = deck + 1
    taken = np.zeros(g * width, dtype=np.bool_)
    base = np.arange(g) * width
    cards = rng.integers(1, deck + 1, size=(g, total), dtype=np.int16)
    for j in range(total):
        c = cards[:, j]
        idx = base + c
        clash = np.flatnonzero(taken[idx])
        while clash.size:
            new = rng.integers(1, deck + 1, size=clash.size, dtype=np.int16)
            c[clash] = new
            idx[clash] = base[clash] + new
            clash = clash[taken[idx[clash]]]
        taken[idx] = True
        cards[:, j] = c
    hands = np.full((n, g, k + 2), NONE, dtype=np.int16)
    hands[:, :, :k] = np.sort(cards.reshape(g, n, k), axis=2).transpose(1, 0, 2)
    return hands


class _Timing:
    """Per-seat wait tables by gap: mean and noise scale, ``inf`` for no card."""

    def __init__(self, seats: _Seats, deck: int) -> None:
        n = seats.spp.size
        lognormal = np.array([k == "lognormal" for k in seats.kind])
        gaps = np.arange(deck + 2, dtype=np.float64)
        mean = seats.spp[:, None] * gaps[None, :]
        normal_sd = np.sqrt((seats.cv[:, None] * mean) ** 2 + seats.motor[:, None] ** 2)
        sd = np.where(lognormal[:, None], 0.0, normal_sd)
        #: "human": the median above the floor in ``mean``, the log spread in ``sd``
        self.floor = [0.0] * n
        #: "human": how much each seat holds back (`HumanTimer.hold`; 0 for the others)
        self.hold = np.zeros(n)
        for s, bot in enumerate(seats.human):
            if bot is not None:
                mean[s] = [bot.tempo * curve(g) for g in gaps]
                sd[s] = [bot.sigma(g) for g in gaps]
                self.floor[s] = bot.floor
                self.hold[s] = bot.hold
        self.holds = bool(self.hold.any())
        #: log(k!) for k up to the largest count of unseen values (see `_held`)
        self.log_fact = np.concatenate(
            ([0.0], np.cumsum(np.log(np.arange(1, max(deck, DECK_SIZE) + 2))))
        )
        # Gap 0 (an inert game, see `_Level.end`) and deck+1 (no card): never first.
        mean[:, [0, deck + 1]] = np.inf
        sd[:, [0, deck + 1]] = 0.0
        # float32 is plenty for a wait (7 digits) and halves the memory traffic.
        self.mean32 = mean.astype(np.float32)
        self.sd32 = sd.astype(np.float32)
        self.kind = seats.kind
        self.cv = [float(x) for x in seats.cv]
        #: a normal seat whose wait can be cut at 0 (ties at 0 are possible)
        self.clip = [
            seats.kind[s] == "normal" and bool((mean[s, 1:] - 9 * sd[s, 1:] < 0).any())
            for s in range(n)
        ]
        self.clip_any = any(self.clip)
        #: a seat without noise (ties between different gaps are possible)
        self.exact = any(
            self.cv[s] == 0 and (seats.kind[s] == "lognormal" or seats.motor[s] == 0)
            for s in range(n)
        ) or any(
            bool((sd[s, 1 : deck + 1] == 0).any()) for s in range(n) if seats.kind[s] == "human"
        )
        self.cap = deck + 1


def _held(timing: _Timing, lv: _Level, stars: bool) -> npt.NDArray[np.float32]:
    """Each seat's `HumanTimer.hold_factor` in every game: (seats, games).

    The same count as `mindwidget.bots.stars.chance_next`, from the arrays: the
    values above the pile that a seat has not seen (not its own cards, not a
    card discarded face up to a star: a card gone from a hand that lies above
    the pile), those between the pile and its lowest card, and the others'
    cards; then ``p = C(unseen - between, others) / C(unseen, others)`` and the
    factor ``max(p, HOLD_P_MIN) ** -hold``.
    """
    n, a = lv.low.shape
    level = lv.hands.shape[2] - 2
    top = lv.top.astype(np.int64)[None, :]
    low = lv.low.astype(np.int64)
    has = low < NONE
    own = np.maximum(level - lv.ptr, 0)
    others = np.maximum(lv.left[None, :] - own, 0)
    highest = lv.hands[:, :, max(level - 1, 0)].astype(np.int64)
    deck = np.maximum(np.maximum(highest, top), DECK_SIZE)
    deck = np.where(has, deck, DECK_SIZE)
    unseen = deck - top - own
    between = low - top - 1
    if stars:
        cards = lv.hands[:, :, :level].astype(np.int64)  # (seats, games, level)
        gone = (np.arange(level)[None, None, :] < lv.ptr[:, :, None]) & (cards > top[:, :, None])
        up = np.where(gone, cards, NONE)  # the face-up discards above the pile, per seat
        unseen -= gone.sum(axis=(0, 2))[None, :]
        flat = up.transpose(1, 0, 2).reshape(a, -1)  # (games, seats * level)
        between -= (flat[None, :, :] < low[:, :, None]).sum(axis=2)
    ok = has & (others > 0) & (between >= 0) & (unseen >= between)
    unseen = np.where(ok, unseen, 0)
    between = np.where(ok, between, 0)
    others = np.where(ok, others, 0)
    room = unseen - between - others
    lf = timing.log_fact
    log_p = (
        lf[np.maximum(unseen - between, 0)]
        - lf[np.maximum(room, 0)]
        - lf[unseen]
        + lf[np.maximum(unseen - others, 0)]
    )
    p = np.where(room >= 0, np.exp(np.minimum(log_p, 0.0)), 0.0)
    factor = np.maximum(p, HOLD_P_MIN) ** -timing.hold[:, None]
    return np.where(ok, factor, 1.0).astype(np.float32)


def _planned_waits(
    timing: _Timing,
    gap: npt.NDArray[np.int16],
    rng: np.random.Generator,
    held: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """Each seat's planned wait from this moment, for every game: (seats, games).

    The one place that knows each timer kind's model (the same as its bot's
    ``plan``, with fresh noise at every event). ``gap`` is each seat's lowest
    card minus the top of the pile; a seat with no card has gap ``deck + 1``
    and waits for ever. One standard normal per seat and game is drawn first,
    whatever the kinds. To add a kind: name it in `TimerKind`, map its bot in
    `_timer_kind` (and `FAST_TIMERS`), give `_Seats` and `_Timing` its
    parameters, and add its branch here; draw any further random numbers after
    ``z`` and only when a seat of that kind plays, so that the other kinds'
    results stay what they are for a seed. Say in `_Timing.exact` /
    `_Timing.clip` whether two of its waits can be exactly equal. ``held``:
    each "human" seat's hold factor (`_held`), None for 1.
    """
    z = rng.standard_normal(gap.shape, dtype=np.float32)
    wait = np.empty(gap.shape, dtype=np.float32)
    for s, kind in enumerate(timing.kind):
        mean = timing.mean32[s].take(gap[s])
        if kind == "lognormal":  # m * exp(cv Z)
            np.multiply(mean, np.exp(timing.cv[s] * z[s]), out=wait[s])
        elif kind == "human":  # floor + tempo curve(gap) held exp(sigma(gap) Z)
            np.multiply(mean, np.exp(timing.sd32[s].take(gap[s]) * z[s]), out=wait[s])
            if held is not None:
                wait[s] *= held[s]
            wait[s] += timing.floor[s]
        else:  # "normal": max(0, m + sd Z), sd = sqrt((cv m)^2 + motor^2)
            np.multiply(timing.sd32[s].take(gap[s]), z[s], out=wait[s])
            wait[s] += mean
            if timing.clip[s]:
                np.maximum(wait[s], 0.0, out=wait[s])
    return wait


def _first_to_act(
    timing: _Timing, wait: npt.NDArray[np.float32], rng: np.random.Generator
) -> npt.NDArray[np.intp]:
    """The seat with the smallest wait in each game; ties broken at random."""
    n, a = wait.shape
    # argmin over a short axis 0, written out because np.argmin(axis=0) copies the array.
    first = wait[0].copy()
    who = np.zeros(a, dtype=np.intp)
    for s in range(1, n):
        earlier = wait[s] < first
        np.copyto(first, wait[s], where=earlier)
        who = np.where(earlier, s, who)
    if timing.exact or timing.clip_any:
        if timing.exact:
            tied = ((wait == first).sum(axis=0) > 1) & np.isfinite(first)
        else:
            tied = first == 0
            if tied.any():
                tied &= (wait == 0).sum(axis=0) > 1
        if tied.any():
            t = np.flatnonzero(tied)
            keys = rng.random((n, t.size))
            keys[wait[:, t] != first[t]] = -1.0
            who[t] = np.argmax(keys, axis=0)
    return who


@dataclass
class _Level:
    """One level of the games still playing it; arrays are seat-major (seats, games).

    Games that end their level become inert (no cards, a count of cards left
    that never reaches 0 again) and are dropped once they are three quarters
    of the rows (`compact`).
    """

    hands: npt.NDArray[np.int16]  # (seats, games, level + 2): sorted, `NONE` after the cards
    ptr: npt.NDArray[np.intp]  # each seat's lowest card, as an index into its hand
    low: npt.NDArray[np.int16]  # each seat's lowest card (`NONE`: no card)
    floor: npt.NDArray[np.int16]  # each seat's public floor (its discards to stars)
    top: npt.NDArray[np.int16]  # the top of the pile
    declined: BoolArray  # a star proposal was declined since the last play
    left: IntArray  # cards left in hands
    lives: IntArray
    stars: IntArray
    boxed: IntArray  # stars spent into the box (``spent_stars="box"``)
    mistakes: IntArray
    stars_used: IntArray
    row: npt.NDArray[np.intp]  # the game's row in this level's results
    live: BoolArray

    #: what the level's results take from a game when it ends
    ENDED = ("lives", "stars", "boxed", "mistakes", "stars_used")

    @classmethod
    def deal(
        cls,
        rng: np.random.Generator,
        rules: Rules,
        level: int,
        lives: IntArray,
        stars: IntArray,
        boxed: IntArray,
    ) -> _Level:
        n, g = rules.players, lives.size
        hands = _deal(rng, g, n, level, rules.deck)
        return cls(
            hands=hands,
            ptr=np.zeros((n, g), dtype=np.intp),
            low=hands[:, :, 0].copy(),
            floor=np.zeros((n, g), dtype=np.int16),
            top=np.zeros(g, dtype=np.int16),
            declined=np.zeros(g, dtype=np.bool_),
            left=np.full(g, n * level, dtype=np.int64),
            lives=lives.copy(),
            stars=stars.copy(),
            boxed=boxed.copy(),
            mistakes=np.zeros(g, dtype=np.int64),
            stars_used=np.zeros(g, dtype=np.int64),
            row=np.arange(g),
            live=np.ones(g, dtype=np.bool_),
        )

    def compact(self) -> None:
        """Drop the inert games' rows (C order, so that flat views stay views)."""
        keep = self.live
        for f in fields(self):
            value = getattr(self, f.name)
            sub = value[:, keep] if value.ndim > 1 else value[keep]
            setattr(self, f.name, np.ascontiguousarray(sub))


@dataclass
class _Outcome:
    """A level's results, one row per game that played it (filled in as games end)."""

    cleared: BoolArray
    lives: IntArray
    stars: IntArray
    boxed: IntArray
    mistakes: IntArray
    stars_used: IntArray

    @classmethod
    def empty(cls, g: int) -> _Outcome:
        counts = {key: np.zeros(g, dtype=np.int64) for key in _Level.ENDED}
        return cls(cleared=np.zeros(g, dtype=np.bool_), **counts)


class _Star:
    """The default `StarPolicy` of every seat, as arrays: who proposes, who agrees."""

    def __init__(self, seats: _Seats, box: bool) -> None:
        self.any = bool(seats.propose.any())
        self.propose = seats.propose[:, None]
        self.close = seats.close[:, None]
        self.last_life_gap = seats.last_life_gap[:, None]
        self.vote_gap = seats.vote_gap[:, None]
        self.box = box

    def throw(self, lv: _Level, done: BoolArray) -> npt.NDArray[np.intp] | None:
        """Propose, vote and use a star where the policy says so.

        Returns the rows that go on to a play (None: all of them): a game with
        a proposal (used or declined) has its event already. Marks in ``done``
        the games that a star ended.
        """
        cand = (lv.stars > 0) & ~lv.declined
        if not cand.any():
            return None
        n, a = lv.low.shape
        low, top, ptr = lv.low, lv.top, lv.ptr
        width = lv.hands.shape[2]
        hflat = lv.hands.reshape(-1)
        has = low < NONE
        one_life = lv.lives == 1
        floors = np.where(has, np.maximum(top, lv.floor), NONE)
        other_min = np.empty_like(floors)
        for s in range(n):
            others = [floors[q] for q in range(n) if q != s]
            other_min[s] = np.minimum.reduce(others) if others else NONE
        rowbase = (np.arange(n)[:, None] * a + np.arange(a)[None, :]) * width
        second = hflat[rowbase + np.minimum(ptr + 1, width - 1)]
        d1 = low - top
        d2 = second - top
        wants = (
            self.propose
            & has
            & (
                ((d2 <= self.close) & (other_min < second))
                | (one_life & (d1 <= self.last_life_gap) & (other_min < low))
            )
        )
        prop = cand & wants.any(axis=0)
        if not prop.any():
            return None
        agree = ~has | one_life | (d1 <= self.vote_gap) | wants
        use = prop & agree.all(axis=0)
        lv.declined |= prop & ~use
        if use.any():
            u = np.flatnonzero(use)
            hu = has[:, u]
            lv.floor[:, u] = np.where(hu, low[:, u], lv.floor[:, u])
            ptr[:, u] += hu
            idx = (np.arange(n)[:, None] * a + u[None, :]) * width + ptr[:, u]
            low[:, u] = hflat[idx]
            lv.stars[u] -= 1
            if self.box:
                lv.boxed[u] += 1
            lv.stars_used[u] += 1
            lv.left[u] -= hu.sum(axis=0)
            done[u] = lv.left[u] == 0
        return np.flatnonzero(~prop)


def _play(
    lv: _Level, who: npt.NDArray[np.intp], rows: npt.NDArray[np.intp] | None, done: BoolArray
) -> None:
    """``who`` plays its lowest card in the games ``rows`` (None: all); a mistake costs a life.

    Marks in ``done`` the games that ended: no cards left, or no lives.
    """
    n, a = lv.low.shape
    level = lv.hands.shape[2] - 2
    width = level + 2
    hflat, pflat, lflat = lv.hands.reshape(-1), lv.ptr.reshape(-1), lv.low.reshape(-1)
    top, left = lv.top, lv.left
    if rows is None:  # every game plays: whole-array operations, no fancy indexing
        rows = np.arange(a)
        pos = who * a + rows
        card = lflat[pos]
        mistake = card > lv.low.min(axis=0)
        nxt = pflat[pos] + 1
        np.minimum(nxt, width - 1, out=nxt)  # inert rows stay on the sentinel
        pflat[pos] = nxt
        lflat[pos] = hflat[pos * width + nxt]
        top[:] = card
        lv.declined[:] = False
        left -= 1
        newly = left == 0
    else:
        pos = who[rows] * a + rows
        card = lflat[pos]
        mistake = card > lv.low[:, rows].min(axis=0)
        nxt = pflat[pos] + 1
        np.minimum(nxt, width - 1, out=nxt)
        pflat[pos] = nxt
        lflat[pos] = hflat[pos * width + nxt]
        top[rows] = card
        lv.declined[rows] = False
        left[rows] -= 1
        newly = np.zeros(a, dtype=np.bool_)
        newly[rows] = left[rows] == 0
    if mistake.any():
        # Everyone discards the cards below the played one (the mistake rule).
        m = rows[mistake]
        hm = lv.hands[:, m, :]
        lv.ptr[:, m] = (hm <= top[m][None, :, None]).sum(axis=2)
        lv.low[:, m] = np.take_along_axis(hm, lv.ptr[:, m][:, :, None], axis=2)[:, :, 0]
        left[m] = n * level - lv.ptr[:, m].sum(axis=0)
        lv.lives[m] -= 1
        lv.mistakes[m] += 1
        lost = m[lv.lives[m] <= 0]
        done[lost] = True
        newly[m] = left[m] == 0
    done |= newly


def _end(lv: _Level, done: BoolArray, outcome: _Outcome) -> int:
    """Record the games that ended in ``outcome`` and make them inert; return how many."""
    d = np.flatnonzero(done)
    row = lv.row[d]
    for key in _Level.ENDED:
        getattr(outcome, key)[row] = getattr(lv, key)[d]
    outcome.cleared[row] = (lv.left[d] == 0) & (lv.lives[d] > 0)
    lv.low[:, d] = NONE
    lv.ptr[:, d] = lv.hands.shape[2] - 2  # the first sentinel
    lv.left[d] = -(10**9)
    lv.live[d] = False
    return d.size


def _play_level(lv: _Level, timing: _Timing, star: _Star, rng: np.random.Generator) -> _Outcome:
    """Play one level in every game to its end: one public event per step."""
    outcome = _Outcome.empty(lv.top.size)
    n_live = lv.top.size
    while n_live:
        a = lv.top.size
        done = np.zeros(a, dtype=np.bool_)
        rows = star.throw(lv, done) if star.any else None
        # Plays: every seat re-plans from this moment with fresh noise.
        gap = np.minimum(lv.low - lv.top, timing.cap)
        held = _held(timing, lv, star.any) if timing.holds else None
        who = _first_to_act(timing, _planned_waits(timing, gap, rng, held), rng)
        _play(lv, who, rows, done)
        if done.any():
            n_live -= _end(lv, done, outcome)
            if n_live and n_live * 4 < a:
                lv.compact()
    return outcome


def _fast_block(
    rules: Rules, team: Sequence[Bot], games: int, seed: np.random.SeedSequence, first: int
) -> dict[str, Any]:
    """Play ``games`` whole games of stationary timers; return one row per level reached.

    The same model as the runner, one public event per step for all games at
    once: every seat re-plans with fresh noise after every event, so the next
    actor is the seat with the smallest fresh wait (ties broken at random); a
    proposal (the default `StarPolicy`) comes before any wait. The games that
    clear a level go on to the next; ``first`` numbers them.
    """
    rng = np.random.default_rng(seed)
    seats = _Seats.of(team)
    timing = _Timing(seats, rules.deck)
    star = _Star(seats, box=rules.spent_stars == "box")
    spread = _spread(team)
    lives = np.full(games, rules.start_lives, dtype=np.int64)
    stars = np.full(games, rules.stars, dtype=np.int64)
    boxed = np.zeros(games, dtype=np.int64)
    alive = np.arange(games)
    out: dict[str, list[Any]] = {c: [] for c in LEVEL_COLUMNS}
    for level in range(1, rules.n_levels + 1):
        g = alive.size
        if g == 0:
            break
        lv = _Level.deal(rng, rules, level, lives[alive], stars[alive], boxed[alive])
        end = _play_level(lv, timing, star, rng)
        # Rewards for the cleared levels (capped by the box: 5 lives, 3 stars).
        reward = rules.rewards.get(level)
        if reward == "life":
            end.lives += end.cleared & (end.lives < rules.max_lives)
        elif reward == "star":
            end.stars += end.cleared & (rules.max_stars - end.stars - end.boxed > 0)
        lives[alive] = end.lives
        stars[alive] = end.stars
        boxed[alive] = end.boxed
        row = {
            "game": alive + first,
            "level": np.full(g, level, dtype=np.int64),
            "cleared": end.cleared,
            "mistakes": end.mistakes,
            "stars_used": end.stars_used,
            "lives": end.lives,
            "stars": end.stars,
            "tempo_spread": np.full(g, spread),
        }
        for c in LEVEL_COLUMNS:
            out[c].append(row[c])
        alive = alive[end.cleared]
    return {c: np.concatenate(out[c]) for c in LEVEL_COLUMNS}


# ---------------------------------------------------------------- the reference engine
def _spread(team: Sequence[Bot]) -> float:
    tempos = [b.tempo for b in team]
    return max(tempos) / min(tempos) - 1.0


def _reference_block(
    rules: Rules, bots: BotsLike, games: int, seed: np.random.SeedSequence, first: int
) -> dict[str, Any]:
    """Play ``games`` games with the runner, one child seed sequence per game."""
    rows: dict[str, list[Any]] = {c: [] for c in LEVEL_COLUMNS}
    for i, child in enumerate(seed.spawn(games)):
        game = Game(seed=int(child.generate_state(1)[0]), rules=rules)
        team = make_team(bots, rules.players)
        rng = np.random.default_rng(child)
        while True:
            try:
                _run_level(game, team, rng)
            except BotError as exc:
                raise BotError(f"simulated game {first + i}: {exc}") from exc
            events = game.level_events
            rows["game"].append(first + i)
            rows["level"].append(game.level)
            rows["cleared"].append(game.status in ("level_cleared", "won"))
            rows["mistakes"].append(sum(isinstance(e, Mistake) for e in events))
            rows["stars_used"].append(sum(isinstance(e, StarUsed) for e in events))
            rows["lives"].append(game.lives)
            rows["stars"].append(game.stars)
            rows["tempo_spread"].append(_spread(team))
            if game.status != "level_cleared":
                break
            game.next_level()
    return {k: np.array(v) for k, v in rows.items()}


# ---------------------------------------------------------------- driver
#: Chunks submitted to an executor at a time: enough to keep a cluster busy,
#: few enough that the work waiting (and, with ``keep="summary"``, the
#: results not yet added up) stays small however many games are asked for.
IN_FLIGHT = 256

Rows = dict[str, npt.NDArray[Any]]


@dataclass(frozen=True)
class _Block:
    """What one block gives back: its totals, and its level rows if they are kept."""

    index: int
    totals: LevelTotals
    rows: Rows | None


@dataclass(frozen=True)
class _Job:
    """One chunk of work: picklable, so it can go to a process or a Dask worker."""

    engine: Literal["fast", "reference"]
    rules: dict[str, Any]  # Rules.to_dict(): a Rules holds a mappingproxy, which won't pickle
    bots: Any
    seed: int
    blocks: tuple[tuple[int, int], ...]  # (block index, games in it)
    keep: Keep = "games"

    @property
    def games(self) -> int:
        return sum(size for _, size in self.blocks)

    def __call__(self) -> list[_Block]:
        rules = Rules.from_dict(self.rules)
        out = []
        for index, size in self.blocks:
            ss = np.random.SeedSequence(self.seed, spawn_key=(index,))
            first = index * block_size(self.engine)
            if self.engine == "fast":
                team = make_team(self.bots, rules.players)
                rows = _fast_block(rules, team, size, ss, first)
            else:
                rows = _reference_block(rules, self.bots, size, ss, first)
            totals = LevelTotals.of(rows, rules.n_levels)
            if self.keep == "games":
                order = np.lexsort((rows["level"], rows["game"]))  # by game, then level
                out.append(_Block(index, totals, {c: rows[c][order] for c in LEVEL_COLUMNS}))
            else:
                out.append(_Block(index, totals, None))
        return out


def _run_job(job: _Job) -> list[_Block]:
    return job()


def block_size(engine: Literal["fast", "reference"]) -> int:
    """Games per block (one seed sequence each) for an engine."""
    return BLOCK if engine == "fast" else REFERENCE_BLOCK


def _chunks(
    games: int, chunk_size: int | None, block: int
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Whole blocks, ``chunk_size`` games' worth (rounded up) at a time, made as needed."""
    n_blocks = -(-games // block)
    per = 1 if chunk_size is None else max(1, -(-chunk_size // block))
    for start in range(0, n_blocks, per):
        stop = min(start + per, n_blocks)
        yield tuple((i, min(block, games - i * block)) for i in range(start, stop))


def simulate(
    players: int = 3,
    bots: BotsLike = "scalar",
    games: int = 10_000,
    seed: int = 0,
    engine: Engine = "auto",
    executor: Executor | _HasExecutor | None = None,
    progress: bool | None = None,
    rules: Rules | None = None,
    chunk_size: int | None = None,
    keep: Keep = "games",
) -> SimResult:
    """Play ``games`` games of ``players`` bots and collect what happened.

    ``bots``: one bot for every seat, a list with one per seat, or a name
    ("perfect", "scalar", "adaptive"). ``engine``: "auto" (the fast engine
    when it applies), "fast" or "reference". ``executor``: None (play here),
    any ``concurrent.futures.Executor`` (a process pool, or a Dask cluster's
    ``client.get_executor()``) or a Dask ``distributed.Client`` itself;
    chunks of whole blocks are submitted to it, at most `IN_FLIGHT` at a
    time. ``progress``: None shows a tqdm bar once a run has taken a second,
    True shows it at once, False never. ``rules``: house rules (default: the
    rules table for ``players``). ``chunk_size``: games per submitted chunk
    (rounded up to whole blocks of `BLOCK`); it never changes the result.
    ``keep``: "games" keeps the ``games`` and ``levels`` tables (about 500
    bytes a game); "summary" adds up each block as it comes in and keeps only
    the `LevelTotals`, so memory stays small for any number of games.
    ``summary()``, ``by_level()`` and ``tempo_spread()`` are the same either way.
    """
    players = _whole("players", players, 1)
    games = _whole("games", games, 1)
    seed = _whole("seed", seed, 0)
    if rules is None:
        rules = Rules(players=players)
    elif not isinstance(rules, Rules):
        raise ValueError(f"rules must be None or a Rules(...), not {rules!r}.")
    elif rules.players != players:
        raise ValueError(f"players={players} disagrees with rules.players={rules.players}.")
    _one_of("engine", engine, ("auto", "fast", "reference"))
    pool = _check_executor(executor)
    shown: object = progress
    if isinstance(shown, np.bool_):
        shown = bool(shown)
    _one_of("progress", shown, (None, True, False))
    if chunk_size is not None:
        chunk_size = _whole("chunk_size", chunk_size, 1, none=True)
    _one_of("keep", keep, ("games", "summary"))
    team = make_team(bots, players)  # validates bots
    reason = fast_engine_reason(team, rules)
    if engine == "fast" and reason is not None:
        raise ValueError(f"engine='fast' cannot play this team: {reason}; use 'reference'.")
    chosen: Literal["fast", "reference"] = (
        "fast" if engine == "fast" or (engine == "auto" and reason is None) else "reference"
    )
    jobs = (
        _Job(chosen, rules.to_dict(), bots, seed, blocks, keep)
        for blocks in _chunks(games, chunk_size, block_size(chosen))
    )
    totals = LevelTotals.zero(rules.n_levels)
    kept: list[Rows] = []
    for block in _blocks_in_order(jobs, pool, games, None if shown is None else bool(shown)):
        totals = totals + block.totals
        if block.rows is not None:
            kept.append(block.rows)
    return SimResult(
        players=players,
        engine=chosen,
        seed=seed,
        team=tuple(repr(b) for b in team),
        rules=rules,
        keep=keep,
        totals=totals,
        tables=_collect(kept, rules, games) if keep == "games" else None,
    )


def _blocks_in_order(
    jobs: Iterator[_Job], executor: Executor | None, games: int, progress: bool | None
) -> Iterator[_Block]:
    """Run the jobs here or on ``executor``; yield their blocks in block order."""
    from tqdm.auto import tqdm

    bar = None
    if progress is not False:
        bar = tqdm(total=games, unit="game", desc="simulate", delay=0 if progress else 1.0)
    pending: deque[tuple[Future[list[_Block]], int]] = deque()
    try:
        if executor is None:
            for job in jobs:
                yield from job()
                if bar is not None:
                    bar.update(job.games)
            return
        for job in itertools.islice(jobs, IN_FLIGHT):
            pending.append((executor.submit(_run_job, job), job.games))
        while pending:
            future, size = pending.popleft()
            blocks = future.result()
            following = next(jobs, None)
            if following is not None:
                pending.append((executor.submit(_run_job, following), following.games))
            if bar is not None:
                bar.update(size)
            yield from blocks
    finally:
        for future, _ in pending:
            future.cancel()
        if bar is not None:
            bar.close()


def _collect(parts: list[Rows], rules: Rules, games: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``games`` and ``levels`` tables from the blocks' rows (each sorted by game, level).

    The blocks hold consecutive games in order, so the rows are in order too:
    no sort, no group-by. A game's rows are its levels 1, 2, ..., so its rows
    start where ``level`` is 1.
    """
    data = {c: np.concatenate([p.pop(c) for p in parts]) for c in LEVEL_COLUMNS}
    parts.clear()
    levels = pd.DataFrame(data, copy=False)
    del data
    level = levels["level"].to_numpy()
    start = np.flatnonzero(level == 1)
    last = np.append(start[1:], level.size) - 1
    assert start.size == games

    def per_game(column: str) -> IntArray:
        values = levels[column].to_numpy().astype(np.int64)
        return np.add.reduceat(values, start)

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
