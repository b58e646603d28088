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

Reproducibility: the games are cut into fixed blocks of `BLOCK` games, and
block ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``. Work is handed
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

from .bots import Bot, BotsLike, PerfectTimer, ScalarTimer, make_team
from .events import Mistake, StarUsed
from .game import Game
from .rules import Rules
from .runner import _run_level

__all__ = ["BLOCK", "SimResult", "Summary", "simulate", "wilson_interval"]

#: Games per block: the unit of randomness (one seed sequence each).
BLOCK = 4096
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
    ``level_reached``, ``won``, ``lives_lost`` (one per mistake), ``stars_used``.

    ``levels``: one row per level reached with ``game``, ``level``,
    ``cleared``, ``mistakes``, ``stars_used`` and ``tempo_spread``: how far
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


def fast_engine_reason(team: Sequence[Bot]) -> str | None:
    """Why the fast engine cannot play this team (None: it can)."""
    for p, bot in enumerate(team):
        if type(bot) not in (PerfectTimer, ScalarTimer):
            return (
                f"seat {p} is a {type(bot).__name__}; the fast engine plays only "
                "PerfectTimer and ScalarTimer (not subclasses: their plan may differ)"
            )
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


def _deal(rng: np.random.Generator, g: int, n: int, k: int, deck: int) -> IntArray:
    """``g`` deals of ``k`` cards to each of ``n`` players: shape (g, n, k+1), sorted.

    Each deal is the first ``n*k`` cards of a random permutation of the deck
    (argsort of independent random keys), so every deal is equally likely,
    as with `Game`'s ``random.sample``. Column ``k`` holds the sentinel
    ``deck + 1`` ("no card"). (32-bit keys tie with probability ~1e-6 per deal;
    a tie only fixes the order of two cards.)
    """
    keys = rng.integers(0, 2**32, size=(g, deck), dtype=np.uint32)
    cards = np.argsort(keys, axis=1)[:, : n * k].astype(np.int64) + 1
    hands = np.empty((g, n, k + 1), dtype=np.int64)
    hands[:, :, :k] = np.sort(cards.reshape(g, n, k), axis=2)
    hands[:, :, k] = deck + 1
    return hands


def _fast_block(
    rules: Rules, seats: _Seats, games: int, seed: np.random.SeedSequence
) -> dict[str, IntArray | BoolArray | FloatArray]:
    """Play ``games`` whole games of stationary timers; return per-level rows."""
    rng = np.random.default_rng(seed)
    n, deck = rules.players, rules.deck
    none = deck + 1
    lives = np.full(games, rules.start_lives, dtype=np.int64)
    stars = np.full(games, rules.stars, dtype=np.int64)
    boxed = np.zeros(games, dtype=np.int64)
    alive = np.arange(games)
    box = rules.spent_stars == "box"
    star_seats = bool(seats.propose.any())
    all_log = bool(seats.lognormal.all())
    any_log = bool(seats.lognormal.any())
    spp, cv, motor = seats.spp[None, :], seats.cv[None, :], seats.motor[None, :]
    motor2 = motor**2
    logn = seats.lognormal[None, :]
    seat_ids = np.arange(n)[None, :]
    out_game: list[IntArray] = []
    out_level: list[IntArray] = []
    out_cleared: list[BoolArray] = []
    out_mistakes: list[IntArray] = []
    out_stars: list[IntArray] = []

    for level in range(1, rules.n_levels + 1):
        g = alive.size
        if g == 0:
            break
        hands = _deal(rng, g, n, level, deck)
        # Level-local state, one row per game still playing this level.
        st: dict[str, Any] = {
            "lid": np.arange(g),
            "hands": hands,
            "ptr": np.zeros((g, n), dtype=np.int64),
            "top": np.zeros(g, dtype=np.int64),
            "floor": np.zeros((g, n), dtype=np.int64),
            "declined": np.zeros(g, dtype=np.bool_),
            "lives": lives[alive].copy(),
            "stars": stars[alive].copy(),
            "boxed": boxed[alive].copy(),
            "mistakes": np.zeros(g, dtype=np.int64),
            "used": np.zeros(g, dtype=np.int64),
        }
        fin_lives = np.empty(g, dtype=np.int64)
        fin_stars = np.empty(g, dtype=np.int64)
        fin_boxed = np.empty(g, dtype=np.int64)
        fin_mistakes = np.empty(g, dtype=np.int64)
        fin_used = np.empty(g, dtype=np.int64)
        fin_cleared = np.zeros(g, dtype=np.bool_)

        while st["lid"].size:
            h = st["hands"]
            ptr = st["ptr"]
            top = st["top"]
            a = top.size
            low = np.take_along_axis(h, ptr[:, :, None], axis=2)[:, :, 0]
            has = low < none
            plays = np.ones(a, dtype=np.bool_)
            done = np.zeros(a, dtype=np.bool_)
            cleared = np.zeros(a, dtype=np.bool_)

            # Throwing stars: the default StarPolicy, for every seat at once.
            if star_seats:
                cand = (st["stars"] > 0) & ~st["declined"]
                if cand.any():
                    one_life = (st["lives"] == 1)[:, None]
                    floors = np.where(has, np.maximum(top[:, None], st["floor"]), none)
                    order = np.argsort(floors, axis=1)
                    min1 = np.take_along_axis(floors, order[:, :1], axis=1)
                    min2 = np.take_along_axis(floors, order[:, 1:2], axis=1)
                    other_min = np.where(seat_ids == order[:, :1], min2, min1)
                    nxt = np.take_along_axis(h, np.minimum(ptr + 1, level)[:, :, None], axis=2)
                    second = nxt[:, :, 0]
                    d1 = low - top[:, None]
                    d2 = second - top[:, None]
                    wants = (
                        seats.propose[None, :]
                        & has
                        & (
                            ((d2 <= seats.close[None, :]) & (other_min < second))
                            | (one_life & (d1 <= seats.last_life_gap[None, :]) & (other_min < low))
                        )
                    )
                    prop = cand & wants.any(axis=1)
                    if prop.any():
                        agree = ~has | one_life | (d1 <= seats.vote_gap[None, :]) | wants
                        use = prop & agree.all(axis=1)
                        st["declined"] |= prop & ~use
                        plays &= ~prop
                        if use.any():
                            u = np.flatnonzero(use)
                            hu = has[u]
                            st["floor"][u] = np.where(hu, low[u], st["floor"][u])
                            ptr[u] += hu
                            st["stars"][u] -= 1
                            if box:
                                st["boxed"][u] += 1
                            st["used"][u] += 1
                            clr = (ptr[u] == level).all(axis=1)
                            cleared[u] = clr
                            done[u] = clr

            # Plays: every seat re-plans from this moment with fresh noise.
            p = np.flatnonzero(plays)
            if p.size:
                lp = low[p]
                hp = has[p]
                mean = spp * (lp - top[p, None])
                z = rng.standard_normal(lp.shape)
                if all_log:
                    wait = mean * np.exp(cv * z)
                else:
                    wait = mean + np.sqrt((cv * mean) ** 2 + motor2) * z
                    np.maximum(wait, 0.0, out=wait)
                    if any_log:
                        wait = np.where(logn, mean * np.exp(cv * z), wait)
                wait[~hp] = np.inf
                who = np.argmin(wait, axis=1)
                first = wait[np.arange(p.size), who]
                ties = (wait == first[:, None]).sum(axis=1) > 1
                if ties.any():
                    t = np.flatnonzero(ties)
                    keys = rng.random((t.size, n))
                    keys[wait[t] != first[t, None]] = -1.0
                    who[t] = np.argmax(keys, axis=1)
                card = lp[np.arange(p.size), who]
                mistake = card > lp.min(axis=1)
                ptr[p, who] += 1
                top[p] = card
                st["declined"][p] = False
                if mistake.any():
                    m = p[mistake]
                    ptr[m] = (h[m] <= top[m, None, None]).sum(axis=2)
                    st["lives"][m] -= 1
                    st["mistakes"][m] += 1
                    lost = m[st["lives"][m] <= 0]
                    done[lost] = True
                clr = (ptr[p] == level).all(axis=1) & (st["lives"][p] > 0)
                cleared[p] |= clr
                done[p] |= clr

            if done.any():
                d = np.flatnonzero(done)
                lid = st["lid"][d]
                fin_lives[lid] = st["lives"][d]
                fin_stars[lid] = st["stars"][d]
                fin_boxed[lid] = st["boxed"][d]
                fin_mistakes[lid] = st["mistakes"][d]
                fin_used[lid] = st["used"][d]
                fin_cleared[lid] = cleared[d]
                keep = ~done
                for key, value in st.items():
                    st[key] = value[keep]

        # Rewards for the cleared levels (capped by the box: 5 lives, 3 stars).
        reward = rules.rewards.get(level)
        if reward == "life":
            fin_lives += fin_cleared & (fin_lives < rules.max_lives)
        elif reward == "star":
            fin_stars += fin_cleared & (rules.max_stars - fin_stars - fin_boxed > 0)
        lives[alive] = fin_lives
        stars[alive] = fin_stars
        boxed[alive] = fin_boxed
        out_game.append(alive)
        out_level.append(np.full(g, level, dtype=np.int64))
        out_cleared.append(fin_cleared)
        out_mistakes.append(fin_mistakes)
        out_stars.append(fin_used)
        alive = alive[fin_cleared]

    return {
        "game": np.concatenate(out_game),
        "level": np.concatenate(out_level),
        "cleared": np.concatenate(out_cleared),
        "mistakes": np.concatenate(out_mistakes),
        "stars_used": np.concatenate(out_stars),
    }


# ---------------------------------------------------------------- the reference engine
def _spread(team: Sequence[Bot]) -> float:
    tempos = [b.tempo for b in team]
    return max(tempos) / min(tempos) - 1.0


def _reference_block(
    rules: Rules, bots: BotsLike, games: int, seed: np.random.SeedSequence
) -> dict[str, IntArray | BoolArray | FloatArray]:
    """Play ``games`` games with the runner, one child seed sequence per game."""
    game_ids: list[int] = []
    levels: list[int] = []
    cleared: list[bool] = []
    mistakes: list[int] = []
    stars_used: list[int] = []
    spread: list[float] = []
    for i, child in enumerate(seed.spawn(games)):
        game_seed = int(child.generate_state(1)[0])
        game = Game(seed=game_seed, rules=rules)
        team = make_team(bots, rules.players)
        rng = np.random.default_rng(child)
        while True:
            try:
                _run_level(game, team, rng)
            except ValueError as exc:
                raise type(exc)(f"{exc} (simulated game {i} of this block)") from exc
            events = game.level_events
            game_ids.append(i)
            levels.append(game.level)
            cleared.append(game.status in ("level_cleared", "won"))
            mistakes.append(sum(isinstance(e, Mistake) for e in events))
            stars_used.append(sum(isinstance(e, StarUsed) for e in events))
            spread.append(_spread(team))
            if game.status != "level_cleared":
                break
            game.next_level()
    return {
        "game": np.array(game_ids, dtype=np.int64),
        "level": np.array(levels, dtype=np.int64),
        "cleared": np.array(cleared, dtype=np.bool_),
        "mistakes": np.array(mistakes, dtype=np.int64),
        "stars_used": np.array(stars_used, dtype=np.int64),
        "tempo_spread": np.array(spread, dtype=np.float64),
    }


# ---------------------------------------------------------------- driver
@dataclass(frozen=True)
class _Job:
    """One chunk of work: picklable, so it can go to a process or a Dask worker."""

    engine: Literal["fast", "reference"]
    rules: Rules
    bots: Any
    seed: int
    blocks: tuple[tuple[int, int], ...]  # (block index, games in it)

    def __call__(self) -> list[dict[str, Any]]:
        out = []
        for index, size in self.blocks:
            ss = np.random.SeedSequence(self.seed, spawn_key=(index,))
            if self.engine == "fast":
                team = make_team(self.bots, self.rules.players)
                rows: dict[str, Any] = _fast_block(self.rules, _Seats.of(team), size, ss)
                rows["tempo_spread"] = np.full(rows["game"].size, _spread(team))
            else:
                rows = _reference_block(self.rules, self.bots, size, ss)
            rows["game"] = rows["game"] + index * BLOCK
            out.append(rows)
        return out


def _run_job(job: _Job) -> list[dict[str, Any]]:
    return job()


def _chunks(games: int, chunk_size: int | None) -> Iterator[tuple[tuple[int, int], ...]]:
    blocks = [(i, min(BLOCK, games - i * BLOCK)) for i in range(-(-games // BLOCK))]
    if chunk_size is None:
        per = 1
    else:
        per = max(1, -(-chunk_size // BLOCK))
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
    reason = fast_engine_reason(team)
    if engine == "fast" and reason is not None:
        raise ValueError(f"engine='fast' cannot play this team: {reason}; use 'reference'.")
    chosen: Literal["fast", "reference"] = (
        "fast" if engine == "fast" or (engine == "auto" and reason is None) else "reference"
    )
    jobs = [
        _Job(chosen, rules, bots, seed, blocks)
        for blocks in _chunks(games, chunk_size)
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
    cols = ("game", "level", "cleared", "mistakes", "stars_used", "tempo_spread")
    data = {c: np.concatenate([p[c] for p in parts]) for c in cols}
    levels = pd.DataFrame(data)
    levels = levels.sort_values(["game", "level"], kind="stable").reset_index(drop=True)
    g = levels.groupby("game", sort=True)
    per = pd.DataFrame(
        {
            "levels_cleared": g["cleared"].sum().astype(np.int64),
            "level_reached": g["level"].max().astype(np.int64),
            "lives_lost": g["mistakes"].sum().astype(np.int64),
            "stars_used": g["stars_used"].sum().astype(np.int64),
        }
    )
    per["won"] = per["levels_cleared"] == rules.n_levels
    per = per.reset_index()
    per = per[["game", "levels_cleared", "level_reached", "won", "lives_lost", "stars_used"]]
    assert len(per) == games
    return per, levels
