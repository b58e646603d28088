"""How fast and how lean the Monte Carlo lab is (PettingZoo's performance_benchmark habit).

Run: ``.venv/bin/python benchmarks/sim.py`` (one process, one core; about two
minutes, most of it the million games). ``--memory-games 200000`` measures
the memory of fewer games (the script then says so and scales the per-game
figures up to a million).

Prints:

1. the time for 10,000 full games of 3 players with ``ScalarTimer(cv=0.15)``
   on the fast engine (target: at most 0.25 s), best of several runs;
2. games per second of the fast engine beside two peers measured in the same
   run, on the same team (3 players, ``ScalarTimer(cv=0.15, noise="lognormal")``,
   no stars): the reference engine (target: at least 50 times) and
   `minimal_games`, an independent minimal simulator written here (pure
   Python, lognormal waits, no stars; target: at least 40 times).
   The fast engine keeps its tables (``keep="games"``, the default: the
   target's figure); beside it, the same games with ``keep="summary"`` (only
   the totals, as the peer keeps only its count). Rounds alternate the four;
   each keeps its best round of CPU time;
3. the import time of ``mindwidget.game`` (the core a script or a worker
   needs) beside that of the full ``mindwidget`` (its peer): each in a fresh
   interpreter, several times, median;
4. the peak memory of a million games of 3 players with ``keep="summary"``
   (target: under 200 MB above the interpreter with mindwidget imported)
   beside ``keep="games"`` (the per-game tables), each in a fresh process:
   peak resident set size (``getrusage``) minus the resident size before the
   run, and the size of the tables themselves.

Figures only: the tests never assert on speed or memory.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from typing import Literal

from mindwidget.bots import ScalarTimer
from mindwidget.sim import simulate
from mindwidget.sim.results import Keep

MB = 1024 * 1024


def minimal_games(games: int, seed: int, players: int = 3, cv: float = 0.15) -> int:
    """Games won of ``games``: the minimal peer, pure Python, lognormal waits, no stars.

    The model of the engines: after every card each seat with cards plans afresh,
    ``0.3 s x gap x exp(cv Z)``, and the first plays its lowest card; a lower
    card held elsewhere costs a life and every card below goes. 3 players: 10
    levels, 3 lives, a life for levels 3, 6 and 9 (at most 5).
    """
    rng = random.Random(seed)
    gauss, exp = rng.gauss, math.exp
    won = 0
    for _ in range(games):
        lives = 3
        for level in range(1, 11):
            cards = rng.sample(range(1, 101), players * level)
            # each hand sorted high to low: its lowest card is the last one
            hands = [
                sorted(cards[p * level : (p + 1) * level], reverse=True) for p in range(players)
            ]
            top = 0
            while lives:
                best, hand = math.inf, None
                for h in hands:
                    if h:
                        wait = 0.3 * (h[-1] - top) * exp(cv * gauss(0.0, 1.0))
                        if wait < best:
                            best, hand = wait, h
                if hand is None:
                    break  # every card played: the level is cleared
                top = hand.pop()
                if any(h and h[-1] < top for h in hands):  # a mistake
                    lives -= 1
                    for h in hands:
                        while h and h[-1] < top:
                            h.pop()
            if not lives:
                break
            if level in (3, 6, 9) and lives < 5:
                lives += 1
        else:
            won += 1
    return won


LOGNORMAL = ScalarTimer(cv=0.15, noise="lognormal")


def peers(rounds: int, fast_games: int, minimal: int, reference: int) -> dict[str, float]:
    """Games per second (CPU time, best round) of the fast engine and its two peers."""
    best = {"fast": math.inf, "fast summary": math.inf, "minimal": math.inf, "reference": math.inf}
    won = dict.fromkeys(best, 0.0)
    for r in range(rounds):
        for name in best:
            start = time.process_time()
            if name == "minimal":
                won[name] = minimal_games(minimal, seed=r) / minimal
            else:
                engine: Literal["fast", "reference"] = (
                    "reference" if name == "reference" else "fast"
                )
                keep: Keep = "summary" if name.endswith("summary") else "games"
                games = reference if engine == "reference" else fast_games
                result = simulate(
                    3, LOGNORMAL, games, seed=r, engine=engine, progress=False, keep=keep
                )
                won[name] = result.summary().win_rate
            best[name] = min(best[name], time.process_time() - start)
    sizes = {
        "fast": fast_games,
        "fast summary": fast_games,
        "minimal": minimal,
        "reference": reference,
    }
    for name in best:
        print(
            f"  {name:12} {sizes[name] / best[name]:12,.0f} games/s "
            f"({sizes[name]:,} games, won {won[name]:.1%})"
        )
    return {name: sizes[name] / best[name] for name in best}


def best_of(runs: int, games: int, engine: str) -> tuple[float, float]:
    """Best and median wall time of ``runs`` runs (seconds)."""
    times = []
    for seed in range(runs):
        start = time.perf_counter()
        simulate(3, ScalarTimer(cv=0.15), games, seed=seed, engine=engine, progress=False)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    times.sort()
    return times[0], times[len(times) // 2]


def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter (same path) and return what it prints."""
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


IMPORT = """
import time
start = time.perf_counter()
import {module}
print(time.perf_counter() - start)
"""


def import_time(module: str) -> float:
    """Seconds to import ``module`` in a fresh interpreter."""
    return float(_fresh(IMPORT.format(module=module)))


MEMORY = """
import json, resource, sys, time
import numpy as np
from mindwidget.bots import ScalarTimer
from mindwidget.sim import simulate

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()

simulate(3, ScalarTimer(cv=0.15), 5000, seed=1, progress=False, keep={keep!r})  # warm up
before = rss()
start, cpu = time.perf_counter(), time.process_time()
r = simulate(3, ScalarTimer(cv=0.15), {games}, seed=1, progress=False, keep={keep!r})
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux
tables = 0
if {keep!r} == "games":
    tables = int(r.games.memory_usage(deep=True).sum() + r.levels.memory_usage(deep=True).sum())
print(json.dumps({{"before": before, "peak": peak, "after": rss(), "tables": tables,
                  "seconds": seconds, "cpu": cpu, "won": r.summary().win_rate}}))
"""


def memory(keep: str, games: int) -> dict[str, float]:
    """Peak RSS and friends of one run of ``games`` games in a fresh process."""
    data: dict[str, float] = json.loads(_fresh(MEMORY.format(keep=keep, games=games)))
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memory-games", type=int, default=1_000_000)
    parser.add_argument("--import-repeats", type=int, default=7)
    args = parser.parse_args()

    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) at start: {load:.2f}")
    simulate(3, ScalarTimer(cv=0.15), 2000, progress=False)  # warm up imports and caches

    best, median = best_of(7, 10_000, "fast")
    verdict = "ok" if best <= 0.25 else "SLOWER than the 0.25 s target"
    print(
        f"fast engine: 10,000 games of 3 players, ScalarTimer(cv=0.15): "
        f"best {best:.3f} s, median {median:.3f} s ({verdict})"
    )

    print(f"the same team in the same run ({LOGNORMAL!r}, 3 players), best of 3 rounds:")
    rate = peers(3, 50_000, 2_000, 200)
    for peer, target in (("minimal", 40), ("reference", 50)):
        ratio = rate["fast"] / rate[peer]
        verdict = "ok" if ratio >= target else f"BELOW the {target}x target"
        print(f"fast / {peer}: {ratio:,.1f}x ({verdict})")
    print(f'fast with keep="summary" / minimal: {rate["fast summary"] / rate["minimal"]:,.1f}x')

    # Import times: alternate the two modules so that both see the same load.
    times: dict[str, list[float]] = {"mindwidget.game": [], "mindwidget": []}
    for _ in range(args.import_repeats):
        for module in times:
            times[module].append(import_time(module))
    core = statistics.median(times["mindwidget.game"])
    full = statistics.median(times["mindwidget"])
    print(
        f"import mindwidget.game: median {core * 1000:.0f} ms; import mindwidget (peer): "
        f"median {full * 1000:.0f} ms; ratio {core / full:.2f} "
        f"({args.import_repeats} fresh interpreters each)"
    )

    games = args.memory_games
    scale = 1_000_000 / games
    note = "" if games == 1_000_000 else f" (measured {games:,} games, scaled x{scale:g})"
    for keep in ("summary", "games"):
        m = memory(keep, games)
        above = (m["peak"] - m["before"]) / MB
        line = (
            f'{games:,} games, keep="{keep}": peak {above:,.0f} MB above the interpreter '
            f"({m['before'] / MB:,.0f} MB with mindwidget imported), {m['seconds']:.1f} s "
            f"({m['cpu']:.1f} s of CPU)"
        )
        if keep == "summary":
            verdict = "ok" if above <= 200 else "ABOVE the 200 MB target"
            line += f" ({verdict})"
        else:
            tables = m["tables"] / MB
            line += f"; tables {tables:,.0f} MB, peak {above / tables:.1f}x the tables" + (
                f"; a million games: about {above * scale:,.0f} MB" if scale != 1 else ""
            )
            line += note
        print(line)


if __name__ == "__main__":
    main()
