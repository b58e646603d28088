"""The answers that docs/teaching.md quotes, with the notebooks' seeds.

The lesson plan gives the teacher the answer to every bet in notebooks 03 and
05. If a test here fails, the simulation (or a bot) changed: run the notebooks
again and update docs/teaching.md, and the expected value here, to what they
now show.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from mindwidget import (
    AdaptiveTimer,
    Game,
    PerfectTimer,
    ScalarTimer,
    Scenario,
    StarPolicy,
    run_game,
    run_level,
    simulate,
    trace,
)
from mindwidget.bots import BotsLike
from mindwidget.i18n import decimal
from mindwidget.lesson.kit import percent as in_percent
from mindwidget.prob import expected_adjacent_pairs, p_wrong_order
from mindwidget.rules import MAX_STARS


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


# ------------------------------------------------- the stories' claims (02, 04)
def _said(name: str, step: int) -> dict[str, str]:
    """A scenario step's narration (steps counted from 1, as the board shows them)."""
    return Scenario.load(name).narrations[step - 1]


def test_star_information_player_3_risks_12_in_39_with_the_73() -> None:
    # After the star and the 47, player 3 (seat 2) has seen the discards, the pile
    # and their own 73; player 2 put aside 60 as their lowest, so their one card is
    # above 60: any of the values above 60 player 3 has not seen.
    s = Scenario.load("star_information").goto(6)
    game = s.state
    assert game.hands[2] == (73,) and len(game.hands[1]) == 1 and not game.hands[0]
    seen = set(game.pile) | {d.card for d in game.discards if d.face_up} | set(game.hands[2])
    lowest_of_2 = min(d.card for d in game.discards if d.player == 1)
    assert lowest_of_2 == 60
    unseen = [v for v in range(lowest_of_2 + 1, 101) if v not in seen]
    below = [v for v in unseen if v < 73]
    assert (len(unseen), len(below)) == (39, 12)
    for lang, said in _said("star_information", 7).items():
        assert f" {len(unseen)} " in said and f" {len(below)} " in said, lang
        assert in_percent(len(below) / len(unseen), lang, 0) in said, lang


def test_star_information_the_star_is_for_the_44_far_above_the_empty_pile() -> None:
    # Two cards of one hand never swap (own lowest first): the danger the step
    # names is another hand's card, player 3's 51, before the 44 (about 1 in 4).
    s = Scenario.load("star_information")
    assert s.state.hands[0] == (44, 47) and 51 in s.state.hands[2]
    chance = p_wrong_order(44, 51)
    assert round(1 / chance) == 4
    for lang, said in _said("star_information", 2).items():
        assert re.search(r"\b1 (game in|op de|von) 4\b", said) and "51" in said, lang
        bot = ScalarTimer()  # the model the step names: 0.3 s a step, 14% spread
        assert decimal(bot.seconds_per_step, lang) in said, lang
        assert in_percent(bot.cv, lang, 0) in said, lang
    # the tip: just above the pile two close cards rarely swap, far above nearly a coin toss
    assert p_wrong_order(11, 12, top=10) < 0.01
    assert 0.4 < p_wrong_order(80, 81) < 0.5


def test_four_players_the_52_at_once_risked_22_percent() -> None:
    # Player 4 (seat 3) after the 47: the others still hold 3 cards, all above 47;
    # 52 unseen values lie above 47, 4 of them below 52.
    s = Scenario.load("four_players").goto(5)
    game = s.state
    assert game.pile[-1] == 47 and game.hands[3] == (52,)
    others = sum(len(h) for seat, h in enumerate(game.hands) if seat != 3)
    seen = set(game.pile) | set(game.hands[3])
    unseen = [v for v in range(48, 101) if v not in seen]
    between = [v for v in unseen if v < 52]
    assert (others, len(unseen), len(between)) == (3, 52, 4)
    none_between = math.comb(len(unseen) - len(between), others) / math.comb(len(unseen), others)
    assert none_between == math.comb(48, 3) / math.comb(52, 3)
    for lang, said in _said("four_players", 6).items():
        assert "C(48,3)/C(52,3)" in said, lang
        assert in_percent(none_between, lang, 0) in said, lang
        assert in_percent(1 - none_between, lang, 0) in said, lang


def test_cap_stars_the_team_holds_every_star_in_the_box() -> None:
    s = Scenario.load("cap_stars").goto(4)
    assert s.state.stars == MAX_STARS == 3
    s.step()
    assert s.state.stars == MAX_STARS
    for lang, said in _said("cap_stars", 5).items():
        assert "reserve" not in said.lower() and "Reserve" not in said, lang


def test_clean_level_times_are_the_model_of_03_without_its_wobble() -> None:
    # The story's times are PerfectTimer's (0.3 s a step, from the last card), as
    # its intro says: 17 after 5.1 s, 28 3.3 s later, 55 8.1 s later.
    s = Scenario.load("clean_level")
    model = PerfectTimer()
    game = run_level(Game.from_hands([list(h) for h in s.state.hands], seed=0), model, seed=0)
    played = trace(game)
    times = [round(float(t), 1) for t in played["t"]]
    scripted = [step["t"] for step in s.script if step["action"] == "play"]
    assert times == scripted == [5.1, 8.4, 16.5]
    assert model.seconds_per_step == 0.3
    waits = [round(b - a, 1) for a, b in zip([0.0, *times[:-1]], times, strict=True)]
    for k, wait in zip((2, 3, 4), waits, strict=True):
        for lang, said in _said("clean_level", k).items():
            assert decimal(wait, lang) in said, (k, lang)
    for lang, intro in (Scenario.load("clean_level").intro or {}).items():
        assert decimal(model.seconds_per_step, lang) in intro, lang
