"""The runner: virtual time, seeded ties, reproducibility, failing bots."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conformance import seed_test

from mindwidget import Game
from mindwidget.bots import AdaptiveTimer, Bot, PerfectTimer, ScalarTimer, make_team
from mindwidget.bots.runner import BotError, Planned, apply_planned, plan_next, run_game, run_level
from mindwidget.game import Observation


def test_the_earliest_planned_moment_acts_first_and_every_action_carries_its_time() -> None:
    g = Game.from_hands([[10], [30], [20]])
    run_level(g, PerfectTimer(seconds_per_step=0.1), seed=0)
    plays = [(e.player, e.card, e.t) for e in g.events if e.type == "played"]
    assert [(p, c) for p, c, _ in plays] == [(0, 10), (2, 20), (1, 30)]
    # Each bot re-plans after every play: 10 steps, then 10 more, then 10 more.
    assert [t for *_, t in plays] == pytest.approx([1.0, 2.0, 3.0])
    assert all("t" in a for a in g.actions if a["action"] != "next_level")


def test_same_seed_same_game_same_times() -> None:
    def same(a: Game, b: Game) -> None:
        assert a == b
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]

    seed_test(
        lambda seed: run_game(Game(players=3, seed=5), ScalarTimer(), seed=seed),
        seed=9,
        other_seed=10,
        same=same,
        differ=lambda a, c: [e.t for e in c.events] != [e.t for e in a.events],
    )


def test_ties_are_broken_by_the_seeded_generator() -> None:
    # Seat 0 waits 0.2 x 10 = 2 s, seat 1 waits 0.1 x 20 = 2 s: a tie.
    team = [PerfectTimer(seconds_per_step=0.2), PerfectTimer(seconds_per_step=0.1)]
    firsts = []
    for seed in range(40):
        g = Game.from_hands([[10], [20]], seed=0)
        run_level(g, team, seed=seed)
        first = next(e for e in g.events if e.type == "played")
        assert first.t == 2.0
        firsts.append(first.player)
        again = Game.from_hands([[10], [20]], seed=0)
        run_level(again, team, seed=seed)
        assert again == g
    assert set(firsts) == {0, 1}


def test_plan_next_skips_seats_and_returns_none_when_nobody_acts() -> None:
    g = Game.from_hands([[10], [30], [20]])
    team = make_team(PerfectTimer(), 3)
    rng = np.random.default_rng(0)
    assert plan_next(g, team, rng) is None  # hands still on the table
    g.ready(t=0.0)
    assert plan_next(g, team, rng) == Planned(3.0, 0, "play")
    assert plan_next(g, team, rng, skip=(0,)) == Planned(6.0, 2, "play")


def test_a_star_proposal_comes_before_any_wait_and_bots_vote_by_their_rule() -> None:
    g = Game.from_hands([[2, 5, 60], [8, 70, 80], [40, 50, 90]], stars=1)
    team = make_team(PerfectTimer(propose_stars=True), 3)
    rng = np.random.default_rng(0)
    g.ready(t=0.0)
    planned = plan_next(g, team, rng)
    assert planned == Planned(0.0, 0, "propose_star")
    run_level(g, team, seed=0)
    kinds = [e.type for e in g.level_events]
    # Seat 2's lowest card (40) is far from the top: it says no, the star stays.
    assert kinds[:5] == ["dealt", "ready", "star_proposed", "star_voted", "star_voted"]
    assert "star_declined" in kinds and "star_used" not in kinds
    assert g.stars == 1


class AlwaysYes(PerfectTimer):
    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        return True


def test_apply_planned_leaves_the_vote_of_a_skipped_seat_to_its_person() -> None:
    # Seat 1 is a person's seat, but a team from make_team has a bot object there
    # too; that bot must not vote for the person.
    g = Game.from_hands([[10], [30], [20]], stars=1)
    g.ready(t=0.0)
    team = make_team(AlwaysYes(), 3)
    rng = np.random.default_rng(0)
    apply_planned(g, team, Planned(0.5, 0, "propose_star"), rng, skip=(1,))
    assert g.proposal is not None  # still open: the person has not voted
    assert g.proposal["votes"] == {0: True, 2: True}
    assert g.stars == 1
    g.vote(1, False, t=0.5)
    assert g.proposal is None and g.stars == 1  # the person's "no" decided it


def test_run_level_and_run_game_accept_a_seated_team_and_keep_what_it_learned() -> None:
    team = make_team([AdaptiveTimer(seconds_per_step=s) for s in (0.25, 0.3, 0.35)], 3)
    g = Game(players=3, seed=2)
    run_level(g, team, seed=1)
    learned = [b.tempo for b in team]
    assert learned != [0.25, 0.3, 0.35]
    if g.status == "cleared":
        g.next_level()
        run_level(g, team, seed=2)
        assert all(isinstance(b, AdaptiveTimer) for b in team)
        assert [b.tempo for b in team] != learned


class Returns(Bot):
    def __init__(self, wait: object) -> None:
        self.wait = wait

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        return self.wait  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"Returns({self.wait!r})"


@pytest.mark.parametrize("wait", [-1.0, math.nan, math.inf, "soon"])
def test_a_user_bot_with_a_bad_wait_is_named_with_its_seat_and_the_event(wait: object) -> None:
    g = Game(players=3, seed=1)
    team = [ScalarTimer(), Returns(wait), ScalarTimer()]
    with pytest.raises(ValueError) as info:
        run_game(g, team, seed=0)
    message = str(info.value)
    assert isinstance(info.value, BotError)
    assert f"Returns({wait!r})" in message and "seat 1" in message
    assert "wait=" in message and "ready at t=0 in level 1" in message
    assert "seconds >= 0" in message


class Breaks(Bot):
    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        if obs.pile:
            raise ZeroDivisionError("oops")
        return self.tempo * self.gap(obs)


def test_a_user_bot_that_raises_is_named_with_the_event_and_the_cause_is_kept() -> None:
    g = Game.from_hands([[10, 20], [30, 40]])
    with pytest.raises(
        BotError, match=r"seat 0 failed in plan\(\) after played at t=3 in level 2"
    ) as info:
        run_level(g, Breaks(), seed=0)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    assert "ZeroDivisionError: oops" in str(info.value)


class Maybe(Bot):
    propose_stars = True

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        return "yes"  # type: ignore[return-value]


def test_a_star_answer_that_is_not_true_or_false_is_refused() -> None:
    with pytest.raises(BotError, match=r"answered wants_star\(\)='yes'.*True or False"):
        run_level(Game.from_hands([[10], [30]]), Maybe(), seed=0)


def test_run_level_finishes_an_open_proposal_that_ends_the_level() -> None:
    g = Game.from_hands([[10], [20]], lives=1)
    g.propose_star(0)
    run_level(g, PerfectTimer())  # bot 1 agrees: the star empties both hands
    assert g.status == "cleared" and g.stars == 0
