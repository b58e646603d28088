"""`Game.legal_actions` lists an action exactly when the rules accept it (hypothesis).

Random tables (2 to 4 players, any level, small hands so that wins, losses and
blind mode come within reach) go through random action sequences; after each
step, for every seat and every core action, the action is listed exactly when
performing it on a copy raises no `RuleError`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindwidget import Game, RuleError, Rules

#: Every core action, performed by ``player`` (the team's actions ignore it).
ACTIONS: dict[str, list[Callable[[Game, int], object]]] = {
    "play": [lambda g, p: g.play(p)],
    "propose_star": [lambda g, p: g.propose_star(p)],
    "vote": [lambda g, p: g.vote(p, True), lambda g, p: g.vote(p, False)],
    "stop": [lambda g, p: g.stop(p)],
    "use_star": [lambda g, p: g.use_star()],
    "ready": [lambda g, p: g.ready()],
    "next_level": [lambda g, p: g.next_level()],
    "start_blind": [lambda g, p: g.start_blind()],
}


def accepted(game: Game, player: int, perform: Callable[[Game, int], object]) -> bool:
    copy = game.copy()
    try:
        perform(copy, player)
    except RuleError:
        assert copy == game  # a refusal changes nothing
        return False
    return True


def check(game: Game) -> None:
    for p in range(game.players):
        listed = game.legal_actions(p)
        assert len(set(listed)) == len(listed) and set(listed) <= set(ACTIONS)
        for name, ways in ACTIONS.items():
            results = {accepted(game, p, perform) for perform in ways}
            assert len(results) == 1, (name, p, game.describe())
            assert (name in listed) == results.pop(), (name, p, listed, game.describe())


@st.composite
def tables(draw: st.DrawFn) -> Game:
    players = draw(st.integers(2, 4))
    rules = Rules(players=players, mistake_discards=draw(st.sampled_from(["face_up", "face_down"])))
    per_hand = draw(st.integers(1, 3))
    cards = random.Random(draw(st.integers(0, 2**16))).sample(range(1, 101), players * per_hand)
    hands = [cards[i * per_hand : (i + 1) * per_hand] for i in range(players)]
    return Game.from_hands(
        hands,
        rules=rules,
        level=draw(st.integers(max(1, rules.n_levels - 2), rules.n_levels)),
        lives=draw(st.integers(1, rules.start_lives)),
        stars=draw(st.integers(0, rules.max_stars)),
        seed=draw(st.integers(0, 1000)),
        blind=draw(st.booleans()),
    )


STEPS = ("lowest", "lowest", "lowest", *ACTIONS)


def step(data: st.DataObject, game: Game) -> None:
    kind = data.draw(st.sampled_from(STEPS))
    player = data.draw(st.integers(0, game.players - 1))
    dt = data.draw(st.sampled_from([0.0, 0.25, 1.5]))
    t = game.t + dt
    try:
        if kind == "lowest":  # the holder of the lowest card plays: levels get cleared
            held = [(h[0], q) for q, h in enumerate(game.hands) if h]
            game.play(min(held)[1] if held else player, t=t)
        elif kind == "vote":
            game.vote(player, data.draw(st.booleans()), t=t)
        elif kind in ("use_star", "ready"):
            getattr(game, kind)(t=t)
        elif kind in ("next_level", "start_blind"):
            getattr(game, kind)()
        else:
            getattr(game, kind)(player, t=t)
    except RuleError:
        pass


@settings(max_examples=100, deadline=None)
@given(tables(), st.data())
def test_an_action_is_listed_exactly_when_the_rules_accept_it(
    game: Game, data: st.DataObject
) -> None:
    check(game)
    for _ in range(data.draw(st.integers(0, 40))):
        step(data, game)
        check(game)


def test_the_listing_reaches_every_kind_of_state() -> None:
    """The property is checked in states where each action is listed (it can fail)."""
    g = Game.from_hands([[5], [17]], level=12, stars=1)
    assert g.legal_actions(0) == ("play", "propose_star", "stop", "use_star", "ready")
    g.ready(t=0)
    g.propose_star(0, t=1)
    assert g.legal_actions(0) == ("stop", "use_star", "ready")
    assert g.legal_actions(1) == ("vote", "stop", "use_star", "ready")
    g.vote(1, False, t=1)
    g.play(0, t=2)
    g.play(1, t=3)
    assert g.status == "won" and g.legal_actions(1) == ("start_blind",)
    g.start_blind()
    check(g)
    g.play(1, t=1)
    g.play(0, t=2)  # face down, out of order: lives lost at the check
    check(g)
    assert g.legal_actions(0) in ((), ("next_level",))


def test_a_seat_that_does_not_exist_is_refused() -> None:
    g = Game(players=3, seed=1)
    with pytest.raises(RuleError, match="no player 3"):
        g.legal_actions(3)
