"""How human are the widget's default bots? Figures against the human reference.

Run: ``python benchmarks/human_likeness.py [games]`` (default 300 games per
measure; about a minute on one core).

Prints, for the default widget bots (``bots="human"``: `HumanTimer` at the
"people" tempo, adapting, proposing stars) and, as the peer measured in the
same run, the old default (``"adaptive"``):

1. the median wait per gap band of every play in three-player games of bots,
   beside the human reference (the mind-server data), and the ratio per band
   (target: every band within 1.3x either way);
2. the share of bot plays that come sooner than 0.4 s after the previous
   public event (target: none);
3. the median length (seconds) of a three-player level 1 and level 5 with bots
   only, at each named tempo;
4. how often a person playing a full game of ``01-play`` (three players, the
   person in seat 0) meets at least one throwing-star vote: the person's seat
   is simulated by a `HumanTimer` that never proposes (target: most games).
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from mindwidget import Game
from mindwidget.bots import (
    REFERENCE,
    TEMPOS,
    BotsLike,
    HumanTimer,
    band_label,
    band_of,
    make_team,
)
from mindwidget.bots.runner import run_game, run_level
from mindwidget.events import Dealt
from mindwidget.traces import trace

FLOOR = 0.4


def plays_of(game: Game) -> pd.DataFrame:
    rows = trace(game)
    plays = rows[rows["outcome"].isin(["play", "mistake"])].copy()
    plays["gap"] = plays["gap"].fillna(plays["card"].astype("float64"))
    return plays


def sooner_than_floor(game: Game) -> tuple[int, int]:
    """(bot actions sooner than FLOOR after the previous public event, all bot actions)."""
    early = total = 0
    last = 0.0
    for e in game.events:
        if isinstance(e, Dealt):
            last = e.t
            continue
        if e.type in ("played", "star_proposed"):
            total += 1
            early += e.t - last < FLOOR - 1e-9
        if e.type not in ("star_voted",):  # a vote is answered at once, not a new event
            last = e.t
    return early, total


def bands(bots: BotsLike, games: int) -> tuple[pd.Series, float, int]:
    frames = []
    early = total = 0
    for seed in range(games):
        game = run_game(Game(players=3, seed=seed), bots, seed=seed)
        frames.append(plays_of(game))
        e, t = sooner_than_floor(game)
        early += e
        total += t
    plays = pd.concat(frames)
    plays = plays[plays["gap"] >= 1]
    medians = plays.groupby(plays["gap"].map(band_of))["wait"].median()
    return medians, early / total, total


def level_length(tempo: str, level: int, games: int) -> tuple[float, float]:
    """Median seconds of one level of three bots, and the share of levels cleared."""
    lengths = []
    cleared = 0
    for seed in range(games):
        rng = np.random.default_rng(seed)
        cards = rng.choice(np.arange(1, 101), size=3 * level, replace=False)
        hands = [sorted(int(c) for c in cards[p * level : (p + 1) * level]) for p in range(3)]
        game = Game.from_hands(hands, level=level, seed=seed)
        run_level(game, HumanTimer(tempo=tempo), seed=seed)
        lengths.append(game.t)
        cleared += game.status in ("cleared", "won")
    return float(np.median(lengths)), cleared / games


def meets_a_vote(games: int) -> tuple[float, float, float]:
    """Share of full games in which the person's seat meets a vote; proposals and
    stars used per game."""
    met = proposals = used = 0
    for seed in range(games):
        team = make_team([HumanTimer(propose_stars=False), "human", "human"], 3)
        game = run_game(Game(players=3, seed=seed), team, seed=seed)
        k = sum(e.type == "star_proposed" for e in game.events)
        met += k > 0
        proposals += k
        used += sum(e.type == "star_used" for e in game.events)
    return met / games, proposals / games, used / games


def main(games: int) -> None:
    start = time.perf_counter()
    print(f"human likeness of the default widget bots ({games} games per measure)\n")
    print("1. median wait per gap band, three-player games of bots only")
    results = {name: bands(name, games) for name in ("human", "adaptive")}
    header = f"{'gap':>6} {'people':>7} {'human':>7} {'ratio':>6} {'adaptive':>9} {'ratio':>6}"
    print(header)
    worst = 1.0
    for i, reference in enumerate(REFERENCE):
        h = results["human"][0].get(i, float("nan"))
        a = results["adaptive"][0].get(i, float("nan"))
        worst = max(worst, h / reference, reference / h)
        print(
            f"{band_label(i):>6} {reference:>7.2f} {h:>7.2f} {h / reference:>6.2f} "
            f"{a:>9.2f} {a / reference:>6.2f}"
        )
    verdict = "yes" if worst <= 1.3 else "NO"
    print(f"   every band of 'human' within 1.3x: {verdict} (worst {worst:.2f}x)")

    print("\n2. bot actions sooner than 0.4 s after the previous public event")
    for name, (_, share, total) in results.items():
        print(f"   {name:>9}: {share:.2%} of {total} plays and proposals")

    print("\n3. median length of a three-player level, bots only (s; share cleared)")
    print(f"   {'tempo':>7} {'factor':>6} {'level 1':>14} {'level 5':>14}")
    for tempo, factor in TEMPOS.items():
        one, c1 = level_length(tempo, 1, games)
        five, c5 = level_length(tempo, 5, games)
        print(f"   {tempo:>7} {factor:>6.1f} {one:>7.1f} ({c1:>4.0%}) {five:>7.1f} ({c5:>4.0%})")

    print("\n4. a person in seat 0 of 01-play (three players, full games)")
    share, proposals, used = meets_a_vote(games)
    print(
        f"   meets at least one star vote in {share:.0%} of games; "
        f"{proposals:.1f} proposals and {used:.1f} stars used per game"
    )
    print(f"\n({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
