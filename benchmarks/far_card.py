"""Far cards at level 1: how often does a bot play a high card while a teammate
still holds a lower one? Before (the ``main`` branch) and after (this tree).

Run: ``python benchmarks/far_card.py [games]`` (default 2000 levels per deal;
about a minute per tree on one core).

A teacher's run of ``01-play`` lost a life at level 1 with no
part in it: Bot 2 played 98 after 34-39 s of silence while Bot 1 still held
73. Three default widget bots (``bots="human"``: `HumanTimer`, adapting,
proposing stars) play one level 1 of each deal below; a deal goes wrong when
the high card is played while the middle one is still in a hand (target:
below 5%). Also printed: the median length of the level and how often a star
was used.

The peer is the same script run on the ``main`` branch, in a temporary
``git worktree`` (``/tmp/far-card-base``), in the same run, as a child
process with that tree first on ``PYTHONPATH``. ``--here`` measures only the
tree this script is imported from.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

DEALS = ((10, 75, 99), (40, 73, 98), (20, 60, 90), (5, 50, 95))
BASE = Path("/tmp/far-card-base")
ROOT = Path(__file__).resolve().parent.parent


def measure(games: int) -> dict[str, list[float]]:
    from mindwidget import Game
    from mindwidget.bots.runner import run_level

    out: dict[str, list[float]] = {}
    for deal in DEALS:
        low, mid, high = deal
        wrong = stars = 0
        lengths = []
        for seed in range(games):
            game = Game.from_hands([[low], [mid], [high]], level=1, seed=seed)
            run_level(game, "human", seed=seed)
            played = [e.card for e in game.events if e.type == "played"]
            early = mid not in played or played.index(high) < played.index(mid)
            wrong += high in played and early
            stars += any(e.type == "star_used" for e in game.events)
            lengths.append(game.t)
        out["/".join(map(str, deal))] = [wrong / games, float(np.median(lengths)), stars / games]
    return out


def base_tree() -> Path:
    if not (BASE / "mindwidget").is_dir():
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(BASE), "main"],
            check=True,
            capture_output=True,
        )
    return BASE


def main(games: int) -> None:
    start = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=str(base_tree()))
    child = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), str(games), "--here"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=str(BASE),
    )
    before = json.loads(child.stdout)
    after = measure(games)
    print(f"far cards at level 1, three default bots ('human'), {games} levels per deal")
    print("wrong: the high card played while the middle one is still held (target < 5%)\n")
    print(
        f"{'deal':>10} | {'main: wrong':>11} {'length':>7} {'star':>5} | "
        f"{'now: wrong':>10} {'length':>7} {'star':>5} | {'ratio':>5}"
    )
    for deal, (w0, l0, s0) in before.items():
        w1, l1, s1 = after[deal]
        ratio = w1 / w0 if w0 else float("nan")
        print(
            f"{deal:>10} | {w0:>11.1%} {l0:>6.1f}s {s0:>5.0%} | "
            f"{w1:>10.1%} {l1:>6.1f}s {s1:>5.0%} | {ratio:>5.2f}"
        )
    print(
        f"\n({time.perf_counter() - start:.0f} s; 'length': median seconds of the level;"
        " 'star': share of levels where a star was used)"
    )


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 2000
    if "--here" in sys.argv:
        print(json.dumps(measure(n)))
    else:
        main(n)
