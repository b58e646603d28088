"""Bots that play like our class: fit a class's clocks and simulate teams like its tables.

Run: ``python benchmarks/experiment.py [repeats]`` (default 5; a few seconds).

Target: fitting a class's clocks (30 pupils, 20 plays each) and simulating
10,000 games of "bots like our class" take under 1 s together, so the
notebook (07-experiment) answers while the class waits. The class here:
30 pupils at 10 tables of three, each pupil 20 plays drawn from the people
curve at a tempo and spread of their own (`classmodel.fit_clock`'s model);
the 10,000 games are 1,000 per table (`classmodel.predict_tables`' default),
each table's team its three pupils' clocks (`HumanTimer`, rate 0: the fast
engine).

Printed per step (best and median of the repeats, wall clock, one process):

* ``fit``: `classmodel.clocks` on the 600 plays;
* ``simulate``: 10 x `simulate(3, bots=<a table's clocks>, games=1000)`;
* ``together``: both, the figure the target is about;
* the peer in the same run: ``simulate(3, bots="scalar", games=10_000)`` (the
  default bots, one call, one team) and the same with ``bots="human"`` at a
  fixed tempo, so a change of machine shows in both.
"""

from __future__ import annotations

import math
import statistics
import sys
import time

import numpy as np
import pandas as pd

TARGET_S = 1.0


def class_plays(pupils: int = 30, plays: int = 20, seed: int = 0) -> pd.DataFrame:
    """``plays`` plays for each of ``pupils`` pupils, three to a table."""
    from mindwidget.bots.human import REACTION_FLOOR, curve_of

    rng = np.random.default_rng(seed)
    rows = []
    for i in range(pupils):
        tempo = math.exp(rng.normal(0, 0.3))
        sigma = math.sqrt(math.log1p(rng.uniform(0.07, 0.3) ** 2))
        gaps = rng.integers(1, 31, plays).astype(float)
        waits = REACTION_FLOOR + tempo * curve_of(gaps) * np.exp(sigma * rng.standard_normal(plays))
        for g, w in zip(gaps, waits, strict=True):
            rows.append(
                {
                    "table": i // 3 + 1,
                    "player": i % 3,
                    "kind": "person",
                    "name": f"P{i + 1}",
                    "gap": g,
                    "wait": w,
                }
            )
    return pd.DataFrame(rows)


def once(frame: pd.DataFrame) -> tuple[float, float]:
    from mindwidget import simulate
    from mindwidget.classmodel import clocks

    t0 = time.perf_counter()
    fitted = clocks(frame)
    t1 = time.perf_counter()
    for table in range(1, 11):
        names = [f"P{3 * (table - 1) + s + 1}" for s in range(3)]
        result = simulate(3, bots=fitted.team(names), games=1000, seed=table, progress=False)
        assert result.engine == "fast"
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def peer(bots: object) -> float:
    from mindwidget import simulate

    t0 = time.perf_counter()
    simulate(3, bots=bots, games=10_000, progress=False)  # type: ignore[arg-type]
    return time.perf_counter() - t0


def main(repeats: int = 5) -> None:
    from mindwidget.bots import HumanTimer

    frame = class_plays()
    once(frame)  # warm up: imports, the fast engine's tables
    fits, sims, alone, human = [], [], [], []
    fixed = HumanTimer(rate=0, propose_stars=False)
    for _ in range(repeats):
        f, s = once(frame)
        fits.append(f)
        sims.append(s)
        alone.append(peer("scalar"))
        human.append(peer(fixed))
    both = [f + s for f, s in zip(fits, sims, strict=True)]

    def show(name: str, values: list[float]) -> None:
        best, median = min(values), statistics.median(values)
        print(f"{name:<46} best {1000 * best:7.1f} ms   median {1000 * median:7.1f} ms")

    print(f"30 pupils x 20 plays, 10 tables x 1,000 games; {repeats} repeats")
    show("fit the class's clocks (600 plays)", fits)
    show("simulate 10 x 1,000 games of our tables", sims)
    show("together (target < 1 s)", both)
    show("peer: simulate 10,000 games, bots='scalar'", alone)
    show("peer: simulate 10,000 games, HumanTimer(rate=0)", human)
    verdict = "within" if statistics.median(both) < TARGET_S else "OVER"
    print(f"median together {statistics.median(both):.3f} s: {verdict} the target of {TARGET_S} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
