"""Monte Carlo lab: play many games with bots and summarise them.

``simulate(players=3, bots="scalar", games=10_000)`` answers a class's question
("how often does a team of three win if people are 15% imprecise?") in well
under a second. Two engines give the same answers in distribution:

* ``"reference"``: the runner (`mindwidget.runner`) on real `Game` objects:
  full rules, every event, any bot (including `AdaptiveTimer` and your own).
* ``"fast"``: a vectorised NumPy engine for the stationary timers
  (`PerfectTimer`, `ScalarTimer` with either noise, with or without stars and
  the default `StarPolicy`). It plays level by level across all games at once,
  one public event per step, with masks for the games that are done.

``engine="auto"`` takes the fast one whenever it applies. The equivalence of
the two engines is a test (``tests/test_sim.py``), not a hope.

Reproducibility: the games are cut into fixed blocks (`BLOCK` games for the
fast engine, `REFERENCE_BLOCK` for the reference engine, which spawns one child
sequence per game), and block ``i`` draws from
``SeedSequence(seed, spawn_key=(i,))``. Work is handed
to an executor in chunks of whole blocks, so the result for a given seed is the
same whatever the executor (none, a process pool, a Dask cluster's
``client.get_executor()``) and however the blocks are grouped into chunks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from .bots import Bot, BotsLike, PerfectTimer, ScalarTimer, StarPolicy, make_team
from .events import Mistake, StarUsed
from .game import Game
from .rules import Rules
from .runner import BotError, _run_level

__all__ = ["BLOCK", "REFERENCE_BLOCK", "SimResult", "Summary", "simulate", "wilson_interval"]

#: Games per block of the fast engine: the unit of randomness (one seed
#: sequence each) and of vectorisation.
BLOCK = 4096
#: Games per block of the reference engine (a block takes a few seconds).
REFERENCE_BLOCK = 256
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

Engine = Literal["auto", "fast", "reference"]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


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


@dataclass(frozen=True)
class SimResult:
    """What `simulate` returns.

    ``games``: one row per game with ``game``, ``levels_cleared``,
    ``level_reached``, ``won``, ``lives_lost`` (one per mistake),
    ``stars_used``, ``lives_left`` and ``stars_left``.

    ``levels``: one row per level reached with ``game``, ``level``,
    ``cleared``, ``mistakes``, ``stars_used``, ``lives`` and ``stars`` (at the
    end of the level, its reward included) and ``tempo_spread``: how far
    apart the team's tempos are at the end of that level, as
    ``max/min - 1`` (0.3 = the slowest is 30% slower than the fastest; constant
    for stationary timers, shrinking for an adaptive team).
    """

    games: pd.DataFrame
    levels: pd.DataFrame
    players: int
    engine: Literal["fast", "reference"]
    seed: int
    team: tuple[str, ...] = field(default=())

    def summary(self) -> Summary:
        g = self.games
        n = len(g)
        wins = int(g["won"].sum())
        low, high = wilson_interval(wins, n)
        return Summary(
            games=n,
            wins=wins,
            win_rate=wins / n,
            win_rate_low=low,
            win_rate_high=high,
            mean_level_reached=float(g["level_reached"].mean()),
            mean_levels_cleared=float(g["levels_cleared"].mean()),
            mean_lives_lost=float(g["lives_lost"].mean()),
            mean_stars_used=float(g["stars_used"].mean()),
        )

    def tempo_spread(self) -> pd.Series:
        """Mean tempo spread at the end of each level, by level."""
        return self.levels.groupby("level")["tempo_spread"].mean()

    def __repr__(self) -> str:
        return f"SimResult({self.engine} engine, {self.players} players: {self.summary()})"


# ---------------------------------------------------------------- checks
def _check_games(games: object) -> int:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, not {games!r}.")
    return int(games)


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, not {seed!r}.")
    return int(seed)


def fast_engine_reason(team: Sequence[Bot], rules: Rules | None = None) -> str | None:
    """Why the fast engine cannot play this team under these rules (None: it can)."""
    for p, bot in enumerate(team):
        if type(bot) not in (PerfectTimer, ScalarTimer):
            return (
                f"seat {p} is a {type(bot).__name__}; the fast engine plays only "
                "PerfectTimer and ScalarTimer (not subclasses: their plan may differ)"
            )
        if type(bot.star_policy) is not StarPolicy:
            return (
                f"seat {p} has a {type(bot.star_policy).__name__}; the fast engine plays "
                "only the default StarPolicy rules (with any parameters)"
            )
        if bot.star_policy.risk is not None:
            return (
                f"seat {p} proposes stars by risk (StarPolicy(risk=...)); the fast engine "
                "plays only the StarPolicy rules by gap"
            )
    if rules is not None and rules.deck >= NONE - 1:
        return f"a deck of {rules.deck} cards; the fast engine handles up to {NONE - 2}"
    return None


# ---------------------------------------------------------------- the fast engine
@dataclass(frozen=True)
class _Seats:
    """Per-seat parameters of a stationary team, as arrays."""

    spp: FloatArray
    cv: FloatArray
    motor: FloatArray
    lognormal: BoolArray
    propose: BoolArray
    close: IntArray
    last_life_gap: IntArray
    vote_gap: IntArray

    @classmethod
    def of(cls, team: Sequence[Bot]) -> _Seats:
        def arr(f: Callable[[Bot], float], dtype: type) -> Any:
            return np.array([f(b) for b in team], dtype=dtype)

        return cls(
            spp=arr(lambda b: b.seconds_per_step, np.float64),
            cv=arr(lambda b: getattr(b, "cv", 0.0), np.float64),
            motor=arr(lambda b: getattr(b, "motor_sd", 0.0), np.float64),
            lognormal=arr(lambda b: getattr(b, "noise", "normal") == "lognormal", np.bool_),
            propose=arr(lambda b: b.propose_stars, np.bool_),
            close=arr(lambda b: b.star_policy.close, np.int64),
            last_life_gap=arr(lambda b: b.star_policy.last_life_gap, np.int64),
            vote_gap=arr(lambda b: b.star_policy.vote_gap, np.int64),
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


class _Tables:
    """Per-seat wait tables by gap: mean and noise scale, ``inf`` for no card."""

    def __init__(self, seats: _Seats, deck: int) -> None:
        n = seats.spp.size
        gaps = np.arange(deck + 2, dtype=np.float64)
        self.mean = seats.spp[:, None] * gaps[None, :]
        normal_sd = np.sqrt((seats.cv[:, None] * self.mean) ** 2 + seats.motor[:, None] ** 2)
        self.sd = np.where(seats.lognormal[:, None], 0.0, normal_sd)
        # Gap 0 (an inert game, see _fast_block) and deck+1 (no card): never first.
        self.mean[:, [0, deck + 1]] = np.inf
        self.sd[:, [0, deck + 1]] = 0.0
        # float32 is plenty for a wait (7 digits) and halves the memory traffic.
        self.mean32 = self.mean.astype(np.float32)
        self.sd32 = self.sd.astype(np.float32)
        self.lognormal = [bool(x) for x in seats.lognormal]
        self.cv = [float(x) for x in seats.cv]
        #: a normal seat whose wait can be cut at 0 (ties at 0 are possible)
        self.clip = [
            (not self.lognormal[s]) and bool((self.mean[s, 1:] - 9 * self.sd[s, 1:] < 0).any())
            for s in range(n)
        ]
        #: a seat without noise (ties between different gaps are possible)
        self.exact = any(
            (self.cv[s] == 0 and (self.lognormal[s] or seats.motor[s] == 0)) for s in range(n)
        )
        self.cap = deck + 1


def _fast_block(
    rules: Rules, seats: _Seats, games: int, seed: np.random.SeedSequence
) -> dict[str, Any]:
    """Play ``games`` whole games of stationary timers; return per-level rows.

    The same model as the runner, one public event per step for all games at
    once: every seat re-plans with fresh noise after every event, so the next
    actor is the seat with the smallest fresh wait (ties broken at random); a
    proposal (the default `StarPolicy`) comes before any wait. Arrays are
    seat-major, (seats, games); games that end their level are dropped.
    """
    rng = np.random.default_rng(seed)
    n, deck = rules.players, rules.deck
    tab = _Tables(seats, deck)
    lives = np.full(games, rules.start_lives, dtype=np.int64)
    stars = np.full(games, rules.stars, dtype=np.int64)
    boxed = np.zeros(games, dtype=np.int64)
    alive = np.arange(games)
    box = rules.spent_stars == "box"
    star_seats = bool(seats.propose.any())
    propose = seats.propose[:, None]
    close = seats.close[:, None]
    last_life_gap = seats.last_life_gap[:, None]
    vote_gap = seats.vote_gap[:, None]
    clip_any = any(tab.clip)
    out: dict[str, list[Any]] = {
        k: [] for k in ("game", "level", "cleared", "mistakes", "used", "lives", "stars")
    }

    for level in range(1, rules.n_levels + 1):
        g = alive.size
        if g == 0:
            break
        width = level + 2
        st: dict[str, Any] = {
            "hands": _deal(rng, g, n, level, deck),
            "lid": np.arange(g),
            "ptr": np.zeros((n, g), dtype=np.intp),
            "top": np.zeros(g, dtype=np.int16),
            "floor": np.zeros((n, g), dtype=np.int16),
            "declined": np.zeros(g, dtype=np.bool_),
            "left": np.full(g, n * level, dtype=np.int64),
            "lives": lives[alive].copy(),
            "stars": stars[alive].copy(),
            "boxed": boxed[alive].copy(),
            "mistakes": np.zeros(g, dtype=np.int64),
            "used": np.zeros(g, dtype=np.int64),
            "live": np.ones(g, dtype=np.bool_),
        }
        st["low"] = st["hands"][:, :, 0].copy()
        fin = {k: np.zeros(g, dtype=np.int64) for k in ("lives", "stars", "boxed", "mistakes")}
        fin["used"] = np.zeros(g, dtype=np.int64)
        fin_cleared = np.zeros(g, dtype=np.bool_)

        n_live = g
        while n_live:
            hands, ptr, low, top = st["hands"], st["ptr"], st["low"], st["top"]
            a = top.size
            # Flat views (the arrays are C-ordered): one index per (seat, game).
            hflat, pflat, lflat = hands.reshape(-1), ptr.reshape(-1), low.reshape(-1)
            left = st["left"]
            done = np.zeros(a, dtype=np.bool_)
            play_rows: npt.NDArray[np.intp] | None = None  # None: every row plays

            # Throwing stars: the default StarPolicy, for every seat at once.
            if star_seats:
                cand = (st["stars"] > 0) & ~st["declined"]
                if cand.any():
                    has = low < NONE
                    one_life = st["lives"] == 1
                    floors = np.where(has, np.maximum(top, st["floor"]), NONE)
                    other_min = np.empty_like(floors)
                    for s in range(n):
                        others = [floors[q] for q in range(n) if q != s]
                        other_min[s] = np.minimum.reduce(others) if others else NONE
                    rowbase = (np.arange(n)[:, None] * a + np.arange(a)[None, :]) * width
                    second = hflat[rowbase + np.minimum(ptr + 1, width - 1)]
                    d1 = low - top
                    d2 = second - top
                    wants = (
                        propose
                        & has
                        & (
                            ((d2 <= close) & (other_min < second))
                            | (one_life & (d1 <= last_life_gap) & (other_min < low))
                        )
                    )
                    prop = cand & wants.any(axis=0)
                    if prop.any():
                        agree = ~has | one_life | (d1 <= vote_gap) | wants
                        use = prop & agree.all(axis=0)
                        st["declined"] |= prop & ~use
                        play_rows = np.flatnonzero(~prop)
                        if use.any():
                            u = np.flatnonzero(use)
                            hu = has[:, u]
                            st["floor"][:, u] = np.where(hu, low[:, u], st["floor"][:, u])
                            ptr[:, u] += hu
                            idx = (np.arange(n)[:, None] * a + u[None, :]) * width + ptr[:, u]
                            low[:, u] = hflat[idx]
                            st["stars"][u] -= 1
                            if box:
                                st["boxed"][u] += 1
                            st["used"][u] += 1
                            left[u] -= hu.sum(axis=0)
                            done[u] = left[u] == 0

            # Plays: every seat re-plans from this moment with fresh noise.
            z = rng.standard_normal((n, a), dtype=np.float32)
            gap = np.minimum(low - top, tab.cap)
            wait = np.empty((n, a), dtype=np.float32)
            for s in range(n):
                mean = tab.mean32[s].take(gap[s])
                if tab.lognormal[s]:
                    np.multiply(mean, np.exp(tab.cv[s] * z[s]), out=wait[s])
                else:
                    np.multiply(tab.sd32[s].take(gap[s]), z[s], out=wait[s])
                    wait[s] += mean
                    if tab.clip[s]:
                        np.maximum(wait[s], 0.0, out=wait[s])
            # The first to act: the smallest wait (argmin over a short axis 0,
            # written out because np.argmin(axis=0) copies the array).
            first = wait[0].copy()
            who = np.zeros(a, dtype=np.intp)
            for s in range(1, n):
                earlier = wait[s] < first
                np.copyto(first, wait[s], where=earlier)
                who = np.where(earlier, s, who)
            rows = np.arange(a)
            if tab.exact or clip_any:
                if tab.exact:
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
            if play_rows is None:
                pos = who * a + rows
                card = lflat[pos]
                mistake = card > low.min(axis=0)
                nxt = pflat[pos] + 1
                np.minimum(nxt, width - 1, out=nxt)  # inert rows stay on the sentinel
                pflat[pos] = nxt
                lflat[pos] = hflat[pos * width + nxt]
                top[:] = card
                st["declined"][:] = False
                left -= 1
                newly = left == 0
            else:
                rows = play_rows
                pos = who[rows] * a + rows
                card = lflat[pos]
                mistake = card > low[:, rows].min(axis=0)
                nxt = pflat[pos] + 1
                np.minimum(nxt, width - 1, out=nxt)
                pflat[pos] = nxt
                lflat[pos] = hflat[pos * width + nxt]
                top[rows] = card
                st["declined"][rows] = False
                left[rows] -= 1
                newly = np.zeros(a, dtype=np.bool_)
                newly[rows] = left[rows] == 0
            if mistake.any():
                m = rows[mistake]
                hm = hands[:, m, :]
                ptr[:, m] = (hm <= top[m][None, :, None]).sum(axis=2)
                low[:, m] = np.take_along_axis(hm, ptr[:, m][:, :, None], axis=2)[:, :, 0]
                left[m] = n * level - ptr[:, m].sum(axis=0)
                st["lives"][m] -= 1
                st["mistakes"][m] += 1
                lost = m[st["lives"][m] <= 0]
                done[lost] = True
                newly[m] = left[m] == 0
            done |= newly

            if done.any():
                # Record the games that ended, then make them inert: no cards,
                # and a count of cards left that never reaches 0 again.
                d = np.flatnonzero(done)
                lid = st["lid"][d]
                for key in fin:
                    fin[key][lid] = st[key][d]
                fin_cleared[lid] = (left[d] == 0) & (st["lives"][d] > 0)
                low[:, d] = NONE
                ptr[:, d] = level
                left[d] = -(10**9)
                st["live"][d] = False
                n_live -= d.size
                if n_live and n_live * 4 < a:
                    keep = st["live"]
                    for key, value in st.items():
                        # C order, so that the flat views above stay views.
                        sub = value[:, keep] if value.ndim > 1 else value[keep]
                        st[key] = np.ascontiguousarray(sub)

        # Rewards for the cleared levels (capped by the box: 5 lives, 3 stars).
        reward = rules.rewards.get(level)
        if reward == "life":
            fin["lives"] += fin_cleared & (fin["lives"] < rules.max_lives)
        elif reward == "star":
            fin["stars"] += fin_cleared & (rules.max_stars - fin["stars"] - fin["boxed"] > 0)
        lives[alive] = fin["lives"]
        stars[alive] = fin["stars"]
        boxed[alive] = fin["boxed"]
        out["game"].append(alive)
        out["level"].append(np.full(g, level, dtype=np.int64))
        out["cleared"].append(fin_cleared)
        out["mistakes"].append(fin["mistakes"])
        out["used"].append(fin["used"])
        out["lives"].append(fin["lives"].copy())
        out["stars"].append(fin["stars"].copy())
        alive = alive[fin_cleared]

    return {
        "game": np.concatenate(out["game"]),
        "level": np.concatenate(out["level"]),
        "cleared": np.concatenate(out["cleared"]),
        "mistakes": np.concatenate(out["mistakes"]),
        "stars_used": np.concatenate(out["used"]),
        "lives": np.concatenate(out["lives"]),
        "stars": np.concatenate(out["stars"]),
    }


# ---------------------------------------------------------------- the reference engine
def _spread(team: Sequence[Bot]) -> float:
    tempos = [b.tempo for b in team]
    return max(tempos) / min(tempos) - 1.0


def _reference_block(
    rules: Rules, bots: BotsLike, games: int, seed: np.random.SeedSequence, first: int
) -> dict[str, Any]:
    """Play ``games`` games with the runner, one child seed sequence per game."""
    rows: dict[str, list[Any]] = {
        k: []
        for k in (
            "game",
            "level",
            "cleared",
            "mistakes",
            "stars_used",
            "lives",
            "stars",
            "tempo_spread",
        )
    }
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
@dataclass(frozen=True)
class _Job:
    """One chunk of work: picklable, so it can go to a process or a Dask worker."""

    engine: Literal["fast", "reference"]
    rules: dict[str, Any]  # Rules.to_dict(): a Rules holds a mappingproxy, which won't pickle
    bots: Any
    seed: int
    blocks: tuple[tuple[int, int], ...]  # (block index, games in it)

    def __call__(self) -> list[dict[str, Any]]:
        rules = Rules.from_dict(self.rules)
        out = []
        for index, size in self.blocks:
            ss = np.random.SeedSequence(self.seed, spawn_key=(index,))
            first = index * block_size(self.engine)
            if self.engine == "fast":
                team = make_team(self.bots, rules.players)
                rows: dict[str, Any] = _fast_block(rules, _Seats.of(team), size, ss)
                rows["game"] = rows["game"] + first
                rows["tempo_spread"] = np.full(rows["game"].size, _spread(team))
            else:
                rows = _reference_block(rules, self.bots, size, ss, first)
            out.append(rows)
        return out


def _run_job(job: _Job) -> list[dict[str, Any]]:
    return job()


def block_size(engine: Literal["fast", "reference"]) -> int:
    """Games per block (one seed sequence each) for an engine."""
    return BLOCK if engine == "fast" else REFERENCE_BLOCK


def _chunks(
    games: int, chunk_size: int | None, block: int
) -> Iterator[tuple[tuple[int, int], ...]]:
    blocks = [(i, min(block, games - i * block)) for i in range(-(-games // block))]
    per = 1 if chunk_size is None else max(1, -(-chunk_size // block))
    for start in range(0, len(blocks), per):
        yield tuple(blocks[start : start + per])


def simulate(
    players: int = 3,
    bots: BotsLike = "scalar",
    games: int = 10_000,
    seed: int = 0,
    engine: Engine = "auto",
    executor: Executor | None = None,
    progress: bool | None = None,
    rules: Rules | None = None,
    chunk_size: int | None = None,
) -> SimResult:
    """Play ``games`` games of ``players`` bots and collect what happened.

    ``bots``: one bot for every seat, a list with one per seat, or a name
    ("perfect", "scalar", "adaptive"). ``engine``: "auto" (the fast engine
    when it applies), "fast" or "reference". ``executor``: any
    ``concurrent.futures.Executor`` (a process pool, or a Dask cluster's
    ``client.get_executor()``); chunks of whole blocks are submitted to it.
    ``progress``: None shows a tqdm bar once a run has taken a second, True
    shows it at once, False never. ``rules``: house rules (default: the rules
    table for ``players``). ``chunk_size``: games per submitted chunk (rounded
    up to whole blocks of `BLOCK`); it never changes the result.
    """
    games = _check_games(games)
    seed = _check_seed(seed)
    if rules is None:
        rules = Rules(players=players)
    elif not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules(...), not {rules!r}.")
    elif rules.players != players:
        raise ValueError(f"players={players} disagrees with rules.players={rules.players}.")
    if engine not in ("auto", "fast", "reference"):
        raise ValueError(f"engine must be 'auto', 'fast' or 'reference', not {engine!r}.")
    if chunk_size is not None:
        chunk_size = _check_games(chunk_size)
    if progress not in (None, True, False):
        raise ValueError(f"progress must be None, True or False, not {progress!r}.")
    team = make_team(bots, players)  # validates bots
    reason = fast_engine_reason(team, rules)
    if engine == "fast" and reason is not None:
        raise ValueError(f"engine='fast' cannot play this team: {reason}; use 'reference'.")
    chosen: Literal["fast", "reference"] = (
        "fast" if engine == "fast" or (engine == "auto" and reason is None) else "reference"
    )
    jobs = [
        _Job(chosen, rules.to_dict(), bots, seed, blocks)
        for blocks in _chunks(games, chunk_size, block_size(chosen))
    ]
    parts = _execute(jobs, executor, games, progress)
    result = _collect(parts, rules, games)
    return SimResult(
        games=result[0],
        levels=result[1],
        players=players,
        engine=chosen,
        seed=seed,
        team=tuple(repr(b) for b in team),
    )


def _execute(
    jobs: list[_Job], executor: Executor | None, games: int, progress: bool | None
) -> list[dict[str, Any]]:
    from tqdm.auto import tqdm

    bar = None
    if progress is not False:
        bar = tqdm(total=games, unit="game", desc="simulate", delay=0 if progress else 1.0)
    results: list[list[dict[str, Any]] | None] = [None] * len(jobs)
    try:
        if executor is None:
            for i, job in enumerate(jobs):
                results[i] = job()
                if bar is not None:
                    bar.update(sum(size for _, size in job.blocks))
        else:
            futures: list[Future[list[dict[str, Any]]]] = [
                executor.submit(_run_job, job) for job in jobs
            ]
            pending = {f: i for i, f in enumerate(futures)}
            from concurrent.futures import FIRST_COMPLETED, wait

            while pending:
                finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for f in finished:
                    i = pending.pop(f)
                    results[i] = f.result()
                    if bar is not None:
                        bar.update(sum(size for _, size in jobs[i].blocks))
    finally:
        if bar is not None:
            bar.close()
    return [rows for part in results if part is not None for rows in part]


def _collect(
    parts: list[dict[str, Any]], rules: Rules, games: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    cols = ("game", "level", "cleared", "mistakes", "stars_used", "lives", "stars", "tempo_spread")
    data = {c: np.concatenate([p[c] for p in parts]) for c in cols}
    levels = pd.DataFrame(data)
    levels = levels.sort_values(["game", "level"], kind="stable").reset_index(drop=True)
    g = levels.groupby("game", sort=True)
    last = g.tail(1).set_index("game")
    per = pd.DataFrame(
        {
            "levels_cleared": g["cleared"].sum().astype(np.int64),
            "level_reached": g["level"].max().astype(np.int64),
            "lives_lost": g["mistakes"].sum().astype(np.int64),
            "stars_used": g["stars_used"].sum().astype(np.int64),
            "lives_left": last["lives"].astype(np.int64),
            "stars_left": last["stars"].astype(np.int64),
        }
    )
    per["won"] = per["levels_cleared"] == rules.n_levels
    per = per.reset_index()
    per = per[
        [
            "game",
            "levels_cleared",
            "level_reached",
            "won",
            "lives_lost",
            "stars_used",
            "lives_left",
            "stars_left",
        ]
    ]
    assert len(per) == games
    return per, levels
