"""Card plays per second of the game core over random full games.

At each step a random legal action is taken: a random player who still holds
cards plays (one step in twenty uses a throwing star while one is left), and a
cleared level is followed by the next one, until the game is won or lost.
Target (issue 2): >= 100,000 plays a second on one core.

Run: .venv/bin/python benchmarks/core.py [games]
"""

from __future__ import annotations

import random
import sys
import time

from mindwidget import Game


def random_game(seed: int, players: int, rng: random.Random) -> int:
    g = Game(players=players, seed=seed)
    plays = 0
    t = 0.0
    while True:
        status = g.status
        if status == "playing":
            t += 0.1
            if g.stars and rng.random() < 0.05:
                g.use_star(t=t)
                continue
            holders = [p for p in range(players) if g.lowest(p) is not None]
            g.play(holders[int(rng.random() * len(holders))], t=t)
            plays += 1
        elif status == "level_cleared":
            g.next_level()
            t = 0.0
        else:
            return plays


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    for players in (2, 3, 4):
        rng = random.Random(players)
        start = time.perf_counter()
        plays = sum(random_game(seed, players, rng) for seed in range(games))
        elapsed = time.perf_counter() - start
        print(
            f"{players} players: {games} random games, {plays} plays in {elapsed:.2f} s "
            f"= {plays / elapsed:,.0f} plays/s ({games / elapsed:,.0f} games/s)"
        )


if __name__ == "__main__":
    main()
