"""The answers that docs/teaching.md quotes, with the notebooks' seeds.

The lesson plan gives the teacher the answer to every bet in notebooks 03 and
05. If a test here fails, the simulation (or a bot) changed: run the notebooks
again and update docs/teaching.md, and the expected value here, to what they
now show.
"""

from __future__ import annotations

import numpy as np
import pytest

from mindwidget import (
    AdaptiveTimer,
    Game,
    ScalarTimer,
    StarPolicy,
    run_game,
    run_level,
    simulate,
    trace,
)
from mindwidget.bots import BotsLike
from mindwidget.prob import expected_adjacent_pairs, p_wrong_order


def percent(bots: BotsLike, games: int, seed: int, players: int = 3) -> float:
    """Win rate in percent, one decimal, as the notebooks print it."""
    result = simulate(players=players, bots=bots, games=games, seed=seed, progress=False)
    return round(100 * result.summary().win_rate, 1)


# ------------------------------------------------------------ 03-probability
def test_03_watch_bots_lose_in_the_last_level() -> None:
    game = run_game(Game(players=3, seed=7), ScalarTimer(), seed=7)
    assert (game.level, game.status) == (10, "lost")


@pytest.mark.parametrize(("players", "expected"), [(2, 54.8), (3, 46.2), (4, 58.4)])
def test_03_win_rate_by_players(players: int, expected: float) -> None:
    assert percent("scalar", 10_000, seed=1, players=players) == expected


def test_03_exact_values() -> None:
    assert round(100 * p_wrong_order(40, 45), 1) == 27.7
    assert round(100 * p_wrong_order(40, 45, top=35), 2) == 0.07
    assert expected_adjacent_pairs(3, 10) == pytest.approx(6.0)
    assert round(100 * p_wrong_order(40, 45, bot=ScalarTimer(cv=0.07)), 1) == 11.8


def test_03_slider_races() -> None:
    for cv, expected in ((0.14, 27.1), (0.07, 11.3)):
        bot = ScalarTimer(cv=cv)
        races = [
            run_level(Game.from_hands([[40], [45]], seed=i), bot, seed=i).pile[0] == 45
            for i in range(2000)
        ]
        assert round(100 * float(np.mean(races)), 1) == expected


@pytest.mark.parametrize(("cv", "expected"), [(0.07, 98.2), (0.14, 47.0), (0.28, 0.1)])
def test_03_noise(cv: float, expected: float) -> None:
    assert percent(ScalarTimer(cv=cv), 3000, seed=2) == expected


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (None, 45.4),
        (StarPolicy(close=0, last_life_gap=100), 49.4),
        (StarPolicy(), 48.0),
        (StarPolicy(close=10, vote_gap=100), 50.0),
    ],
)
def test_03_star_habits(policy: StarPolicy | None, expected: float) -> None:
    bot = ScalarTimer(propose_stars=policy is not None, star_policy=policy)
    assert percent(bot, 20_000, seed=3) == expected


# ------------------------------------------------------------ 05-cooperation
def test_05_one_fast_player() -> None:
    one_fast = [ScalarTimer(seconds_per_step=0.2), ScalarTimer(), ScalarTimer()]
    assert percent(one_fast, 10_000, seed=1) == 0.1
    game = run_game(Game(players=3, seed=2), one_fast, seed=2)
    t = trace(game)
    mistakes = t[(t["level"] == 3) & (t["outcome"] == "mistake")]
    assert list(mistakes["player"]) == [0, 0]


def test_05_adaptive_team() -> None:
    adaptive = [AdaptiveTimer(seconds_per_step=0.2), AdaptiveTimer(), AdaptiveTimer()]
    result = simulate(players=3, bots=adaptive, games=256, seed=1, progress=False)
    assert round(100 * result.summary().win_rate, 1) == 35.2
    spread = result.tempo_spread()
    assert round(spread[1], 2) == 0.45
    assert round(spread[6], 2) == 0.04
    team = [bot.seat(p) for p, bot in enumerate(adaptive)]
    game = run_game(Game(players=3, seed=3), team, seed=3)
    assert game.status == "won"
    assert all(round(bot.tempo, 2) == 0.21 for bot in team)


def test_05_a_person_pulls_the_bots() -> None:
    person = ScalarTimer(seconds_per_step=0.45)
    team = [bot.seat(p) for p, bot in enumerate([person, AdaptiveTimer(), AdaptiveTimer()])]
    game = run_game(Game(players=3, seed=5), team, seed=5)
    assert game.status == "won"
    assert all(round(bot.tempo, 1) == 0.4 for bot in team[1:])
    assert percent([person, ScalarTimer(), ScalarTimer()], 10_000, seed=1) == 0.2
    assert percent([person, AdaptiveTimer(), AdaptiveTimer()], 256, seed=1) == 13.7
