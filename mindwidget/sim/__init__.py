"""Monte Carlo lab: play many games with bots and summarise them.

``simulate(players=3, bots="scalar", games=10_000)`` answers a class's question
("how often does a team of three win if people are 15% imprecise?") in well
under a second. Two engines give the same answers in distribution:

* ``"reference"``: the runner (`mindwidget.bots.runner`) on real `Game` objects:
  full rules, every event, any bot (including `AdaptiveTimer` and your own).
* ``"fast"``: a vectorised NumPy engine for the stationary timers
  (`PerfectTimer`, `ScalarTimer` with either noise, with or without stars and
  the default `StarPolicy`; `HumanTimer` at a fixed tempo, ``rate=0``, that
  does not propose stars, holding back as it does: `fast._held`). It plays
  level by level across all games at once, one public event per step, in
  named steps over a `_Level` of arrays
  (`_Star.throw`, `_planned_waits`, `_first_to_act`, `_play`, `_end`).

``engine="auto"`` takes the fast one whenever it applies. The equivalence of
the two engines is a test (``tests/bots/test_sim.py``), not a hope.

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
memory (about 55 MB above the interpreter; ``keep="games"`` keeps about 500
bytes a game, about 900 at the peak).

The package: this module is the driver (`simulate`, blocks, chunks,
executors) and the reference engine; `mindwidget.sim.results` holds what it
returns (`SimResult`, `Summary`, `LevelTotals`); `mindwidget.sim.fast` the
fast engine, whose header lists each rule it implements again and the test
that holds it to the core.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from ..bots import BotsLike, make_team
from ..bots.runner import BotError, play_out_level
from ..checks import executor as checked_executor
from ..checks import instance, one_of, whole
from ..events import Mistake, StarUsed
from ..game import Game
from ..rules import Rules

# Names of the former single module mindwidget/sim.py, still importable from here.
from .fast import FAST_TIMERS as FAST_TIMERS
from .fast import NONE as NONE
from .fast import TimerKind as TimerKind
from .fast import fast_block, fast_engine_reason
from .results import (
    LEVEL_COLUMNS,
    Keep,
    LevelTotals,
    Rows,
    SimResult,
    Summary,
    collect_tables,
    spread_of,
    wilson_interval,
)
from .results import Z95 as Z95
from .results import BoolArray as BoolArray
from .results import FloatArray as FloatArray
from .results import IntArray as IntArray

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
BLOCK = 8192
#: Games per block of the reference engine (a block takes a few seconds).
REFERENCE_BLOCK = 256

Engine = Literal["auto", "fast", "reference"]


class _HasExecutor(Protocol):
    """A Dask ``distributed.Client``, as far as `simulate` uses one."""

    def get_executor(self) -> Executor: ...


# ---------------------------------------------------------------- the reference engine
def _reference_block(
    rules: Rules, bots: BotsLike, games: int, seed: np.random.SeedSequence, first: int
) -> dict[str, Any]:
    """Play ``games`` games with the runner, one child seed sequence per game; return
    one row per level reached, by game, then level."""
    rows: dict[str, list[Any]] = {c: [] for c in LEVEL_COLUMNS}
    for i, child in enumerate(seed.spawn(games)):
        game = Game(seed=int(child.generate_state(1)[0]), rules=rules)
        team = make_team(bots, rules.players)
        rng = np.random.default_rng(child)
        while True:
            try:
                play_out_level(game, team, rng)
            except BotError as exc:
                raise BotError(f"simulated game {first + i}: {exc}") from exc
            events = game.level_events
            rows["game"].append(first + i)
            rows["level"].append(game.level)
            rows["cleared"].append(game.status in ("cleared", "won"))
            rows["mistakes"].append(sum(isinstance(e, Mistake) for e in events))
            rows["stars_used"].append(sum(isinstance(e, StarUsed) for e in events))
            rows["lives"].append(game.lives)
            rows["stars"].append(game.stars)
            rows["tempo_spread"].append(spread_of(team))
            if game.status != "cleared":
                break
            game.next_level()
    return {k: np.array(v) for k, v in rows.items()}


# ---------------------------------------------------------------- driver
#: Chunks submitted to an executor at a time: enough to keep a cluster busy,
#: few enough that the work waiting (and, with ``keep="summary"``, the
#: results not yet added up) stays small however many games are asked for.
IN_FLIGHT = 256


@dataclass(frozen=True)
class _Block:
    """What one block gives back: its totals, and its level rows if they are kept:
    by game, then level, or (``by_level``, the fast engine's) level by level."""

    index: int
    totals: LevelTotals
    rows: Rows | None
    by_level: bool = False


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
            rows: Rows | None
            if self.engine == "fast":
                team = make_team(self.bots, rules.players)
                totals, rows = fast_block(rules, team, size, ss, first, self.keep)
            else:
                rows = _reference_block(rules, self.bots, size, ss, first)
                totals = LevelTotals.of(rows, rules.n_levels)
            kept = rows if self.keep == "games" else None
            out.append(_Block(index, totals, kept, by_level=self.engine == "fast"))
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

    Args:
        players: How many bots play each game.
        bots: One bot for every seat, a list with one per seat, or a name
            ("perfect", "scalar", "adaptive", "human").
        games: How many games to play.
        seed: Makes the run repeatable: the same seed and engine give the same
            games, whatever the ``executor`` and ``chunk_size``.
        engine: "auto" (the fast engine when it can play this team), "fast" or
            "reference" (the game core itself, for any bot).
        executor: None (play here), any ``concurrent.futures.Executor`` (a
            process pool, or a Dask cluster's ``client.get_executor()``) or a
            Dask ``distributed.Client`` itself; chunks of whole blocks are
            submitted to it, at most `IN_FLIGHT` at a time.
        progress: None shows a tqdm bar once a run has taken a second, True
            shows it at once, False never.
        rules: House rules (default: the rules table for ``players``).
        chunk_size: Games per submitted chunk (rounded up to whole blocks of
            `BLOCK`); it never changes the result.
        keep: "games" keeps the ``games`` and ``levels`` tables (about 500 bytes
            a game); "summary" adds up each block as it comes in and keeps only
            the `LevelTotals`, so memory stays small for any number of games.
            ``summary()``, ``by_level()`` and ``tempo_spread()`` are the same
            either way.
    """
    players = whole("players", players, 1)
    games = whole("games", games, 1)
    seed = whole("seed", seed, 0)
    rules = Rules(players=players) if rules is None else instance("rules", rules, Rules, none=True)
    if rules.players != players:
        raise ValueError(f"players={players} disagrees with rules.players={rules.players}.")
    one_of("engine", engine, ("auto", "fast", "reference"))
    pool = checked_executor(executor)
    shown: object = progress
    if isinstance(shown, np.bool_):
        shown = bool(shown)
    one_of("progress", shown, (None, True, False))
    if chunk_size is not None:
        chunk_size = whole("chunk_size", chunk_size, 1, none=True)
    one_of("keep", keep, ("games", "summary"))
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
    kept: list[tuple[Rows, bool]] = []
    for block in _blocks_in_order(jobs, pool, games, None if shown is None else bool(shown)):
        totals = totals + block.totals
        if block.rows is not None:
            kept.append((block.rows, block.by_level))
    return SimResult(
        players=players,
        engine=chosen,
        seed=seed,
        team=tuple(repr(b) for b in team),
        rules=rules,
        keep=keep,
        totals=totals,
        tables=collect_tables(kept, rules, games) if keep == "games" else None,
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
