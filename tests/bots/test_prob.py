"""Each closed form in mindwidget.sim.prob against a simulation.

Tolerance: 4 standard errors of the simulated mean (a false alarm about once
in 16,000 runs for each check; the seeds are fixed, so a run is repeatable).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from mindwidget import Game
from mindwidget.bots import PerfectTimer, ScalarTimer
from mindwidget.bots.runner import run_level
from mindwidget.sim.prob import (
    expected_adjacent_pairs,
    expected_gap,
    expected_handovers,
    normal_cdf,
    p_wrong_order,
)


def deals(players: int, cards_each: int, n: int, seed: int) -> np.ndarray:
    """``n`` deals the way `Game` deals (``random.sample``): shape (n, players, cards_each)."""
    rng = random.Random(seed)
    out = np.empty((n, players, cards_each), dtype=np.int64)
    for i in range(n):
        cards = np.array(rng.sample(range(1, 101), players * cards_each))
        out[i] = np.sort(cards.reshape(players, cards_each), axis=1)
    return out


def within(simulated: np.ndarray, exact: float) -> None:
    se = simulated.std(ddof=1) / math.sqrt(simulated.size)
    assert abs(simulated.mean() - exact) < 4 * se + 1e-12, (simulated.mean(), exact, se)


@pytest.mark.parametrize("k", [1, 6, 30])
def test_expected_gap_is_101_over_k_plus_1(k: int) -> None:
    assert expected_gap(k) == pytest.approx(101 / (k + 1))
    d = deals(1, k, 20_000, seed=k)[:, 0, :]
    gaps = np.diff(np.concatenate([np.zeros((d.shape[0], 1)), d], axis=1), axis=1)
    within(gaps.mean(axis=1), expected_gap(k))


@pytest.mark.parametrize(("players", "level"), [(2, 12), (3, 5), (4, 8)])
def test_expected_handovers_between_consecutive_cards(players: int, level: int) -> None:
    d = deals(players, level, 8000, seed=players)
    owner = np.broadcast_to(np.arange(players)[None, :, None], d.shape).reshape(len(d), -1)
    order = np.argsort(d.reshape(len(d), -1), axis=1)
    in_order = np.take_along_axis(owner, order, axis=1)
    handovers = (np.diff(in_order, axis=1) != 0).sum(axis=1)
    within(handovers.astype(float), expected_handovers(players, level))
    assert expected_handovers(players, level) == (players - 1) * level


@pytest.mark.parametrize(("players", "level", "within_d"), [(3, 10, 1), (2, 12, 1), (4, 6, 3)])
def test_expected_adjacent_values_in_different_hands(
    players: int, level: int, within_d: int
) -> None:
    d = deals(players, level, 8000, seed=10 + players)
    where = np.full((len(d), 101 + within_d), -1)
    for p in range(players):
        np.put_along_axis(where, d[:, p, :], p, axis=1)
    count = np.zeros(len(d))
    for step in range(1, within_d + 1):
        a, b = where[:, 1 : 101 - step], where[:, 1 + step : 101]
        count += ((a >= 0) & (b >= 0) & (a != b)).sum(axis=1)
    within(count, expected_adjacent_pairs(players, level, within=within_d))
    if within_d == 1:
        k = players * level
        assert expected_adjacent_pairs(players, level) == pytest.approx(k * (k - level) / 100)


def wrong_order_rate(a: int, b: int, bots: list[ScalarTimer], runs: int, seed: int) -> np.ndarray:
    """Play the two-card level with the reference runner; 1 where b came first."""
    out = np.empty(runs)
    for i in range(runs):
        g = Game.from_hands([[a], [b]], seed=0)
        run_level(g, bots, seed=seed * 100_000 + i)
        out[i] = any(e.type == "mistake" for e in g.events)
    return out


@pytest.mark.parametrize(
    ("a", "b", "bots"),
    [
        (40, 45, [ScalarTimer(cv=0.14), ScalarTimer(cv=0.14)]),
        (20, 22, [ScalarTimer(cv=0.3, motor_sd=0.1), ScalarTimer(cv=0.3, motor_sd=0.1)]),
        (30, 36, [ScalarTimer(cv=0.2, noise="lognormal"), ScalarTimer(cv=0.1, noise="lognormal")]),
        (30, 50, [ScalarTimer(seconds_per_step=0.4), ScalarTimer(seconds_per_step=0.2)]),
    ],
)
def test_p_wrong_order_matches_the_runner(a: int, b: int, bots: list[ScalarTimer]) -> None:
    exact = p_wrong_order(a, b, bot=bots[0], other=bots[1])
    assert 0.02 < exact < 0.98  # an informative case
    within(wrong_order_rate(a, b, bots, runs=3000, seed=a), exact)


def test_p_wrong_order_closed_forms() -> None:
    bot = ScalarTimer(cv=0.1, seconds_per_step=0.5, motor_sd=0.0)
    # m_a = 5, m_b = 6, sd = 0.1 * sqrt(25 + 36)
    assert p_wrong_order(10, 12, bot=bot) == pytest.approx(normal_cdf(-1 / (0.1 * math.sqrt(61))))
    log = ScalarTimer(cv=0.2, noise="lognormal")
    expected = normal_cdf(math.log(10 / 12) / (0.2 * math.sqrt(2)))
    assert p_wrong_order(10, 12, bot=log) == pytest.approx(expected)
    # From a top of 5 the gaps are 5 and 7, relatively further apart than 10 and 12.
    assert p_wrong_order(10, 12, top=5, bot=log) == pytest.approx(
        normal_cdf(math.log(5 / 7) / (0.2 * math.sqrt(2)))
    )
    assert p_wrong_order(10, 12, top=5, bot=log) < p_wrong_order(10, 12, bot=log)
    assert p_wrong_order(10, 20, bot=PerfectTimer()) == 0.0
    assert p_wrong_order(10, 20, bot=PerfectTimer(0.3), other=PerfectTimer(0.1)) == 1.0
    assert p_wrong_order(10, 20, bot=PerfectTimer(0.2), other=PerfectTimer(0.1)) == 0.5


def test_closer_cards_are_more_often_played_in_the_wrong_order() -> None:
    ps = [p_wrong_order(50, 50 + d) for d in (1, 2, 5, 10, 20)]
    assert ps == sorted(ps, reverse=True)
    assert ps[0] > 0.45 and ps[-1] < 0.05


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: expected_gap(101), "cards"),
        (lambda: expected_gap(-1), "cards"),
        (lambda: expected_handovers(4, 30), "cards_each"),
        (lambda: p_wrong_order(20, 10), "top < a < b"),
        (lambda: p_wrong_order(10, 20, top=15), "top < a < b"),
    ],
)
def test_bad_input_is_named(call: object, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]
