"""How fast the Monte Carlo lab is (PettingZoo's performance_benchmark habit).

Run: ``.venv/bin/python benchmarks/sim.py`` (one process, one core).

Prints:

1. the time for 10,000 full games of 3 players with ``ScalarTimer(cv=0.15)``
   on the fast engine (target: at most 0.25 s), best of several runs;
2. games per second of the fast and the reference engine measured in the same
   run, and their ratio (target: at least 50).

Figures only: the tests never assert on speed.
"""

from __future__ import annotations

import os
import platform
import time

from mindwidget.bots import ScalarTimer
from mindwidget.sim import simulate


def best_of(runs: int, games: int, engine: str) -> tuple[float, float]:
    """Best and median wall time of ``runs`` runs (seconds)."""
    times = []
    for seed in range(runs):
        start = time.perf_counter()
        simulate(3, ScalarTimer(cv=0.15), games, seed=seed, engine=engine, progress=False)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    times.sort()
    return times[0], times[len(times) // 2]


def main() -> None:
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

    fast_games, ref_games = 20_000, 300
    fast_best, _ = best_of(3, fast_games, "fast")
    ref_best, _ = best_of(1, ref_games, "reference")
    fast_rate = fast_games / fast_best
    ref_rate = ref_games / ref_best
    ratio = fast_rate / ref_rate
    verdict = "ok" if ratio >= 50 else "BELOW the 50x target"
    print(f"fast engine:      {fast_rate:12,.0f} games/s ({fast_games:,} games)")
    print(f"reference engine: {ref_rate:12,.0f} games/s ({ref_games:,} games)")
    print(f"ratio: {ratio:,.0f}x ({verdict})")


if __name__ == "__main__":
    main()
