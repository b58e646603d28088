"""Bad input gets a clear RuleError, and a refused action leaves the game as it was."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindwidget import Game, RuleError, Rules


def refused(g: Game, action: Callable[[], object], match: str) -> None:
    before = g.to_json()
    with pytest.raises(RuleError, match=match):
        action()
    assert g.to_json() == before


def test_rule_error_is_a_value_error() -> None:
    assert issubclass(RuleError, ValueError)


@pytest.mark.parametrize("player", [-1, 3, 99])
def test_wrong_player_index(player: int) -> None:
    g = Game(players=3, seed=1)
    refused(g, lambda: g.play(player), "players are numbered 0 to 2")


def test_player_must_be_a_whole_number() -> None:
    g = Game(players=3, seed=1)
    refused(g, lambda: g.play("0"), "whole number")  # type: ignore[arg-type]
    refused(g, lambda: g.play(True), "whole number")


def test_play_from_an_empty_hand() -> None:
    g = Game.from_hands([[10], [20, 30]])
    g.play(0, t=1.0)
    refused(g, lambda: g.play(0, t=2.0), "player 0 has no cards left")


def test_actions_after_the_game_ended() -> None:
    g = Game.from_hands([[50], [40, 90]], lives=1)
    g.play(0, t=1.0)
    assert g.status == "lost"
    refused(g, lambda: g.play(1), "lost")
    refused(g, lambda: g.use_star(), "lost")
    refused(g, lambda: g.stop(0), "lost")
    refused(g, g.next_level, "after a cleared level")
    refused(g, g.start_blind, "after a win")


def test_actions_while_a_cleared_level_waits_for_next_level() -> None:
    g = Game.from_hands([[10], [20]])
    g.play(0, t=1.0)
    g.play(1, t=2.0)
    assert g.status == "cleared"
    refused(g, lambda: g.propose_star(0), "next_level")
    refused(g, lambda: g.ready(), "next_level")
    refused(g, g.start_blind, "after a win")


@pytest.mark.parametrize("t", [0.5, -1.0, float("nan"), float("inf"), "1"])
def test_bad_time_stamps(t: object) -> None:
    g = Game.from_hands([[10], [20]])
    g.stop(0, t=1.0)
    refused(g, lambda: g.play(0, t=t), r"t=|t must")  # type: ignore[arg-type]


def test_star_with_none_left_and_vote_without_proposal() -> None:
    g = Game.from_hands([[10], [20], [30]], stars=0)
    refused(g, lambda: g.propose_star(1), "no throwing star left")
    refused(g, lambda: g.vote(1, True), "no throwing star is proposed")
    g = Game.from_hands([[10], [20], [30]])
    g.propose_star(0)
    refused(g, lambda: g.propose_star(1), "already proposed")
    refused(g, lambda: g.vote(0, True), "already agreed")
    refused(g, lambda: g.vote(1, "yes"), "True or False")  # type: ignore[arg-type]
    refused(g, lambda: g.play(1), "vote")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"players": 3, "levels": 0}, "levels must be at least 1"),
        ({"players": 4, "levels": 26}, "deck holds 100"),
        ({"players": 3, "lives": 0}, "lives must be between 1"),
        ({"players": 3, "lives": 6}, "lives must be between 1"),
        ({"players": 3, "stars": 4}, "stars must be between 0"),
        ({"players": 3, "mistake_discards": "hidden"}, "mistake_discards must be one of"),
        ({"players": 3, "rewards": {2: "gold"}}, "'life' or 'star'"),
        ({"players": 6}, "2, 3, 4 players"),
        ({"players": 2.5}, "whole number"),
    ],
)
def test_house_rules_that_make_no_sense(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(RuleError, match=match):
        Rules(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hands", "kwargs", "match"),
    [
        ([[10], [10]], {}, "dealt twice"),
        ([[0], [10]], {}, "cards run from 1 to 100"),
        ([[101], [10]], {}, "cards run from 1 to 100"),
        ([[], []], {}, "every hand is empty"),
        ([[1], [2]], {"level": 13}, "level must be between 1 and 12"),
        ([[1], [2]], {"lives": 0}, "lives must be between 1 and 5"),
        ([[1], [2]], {"stars": 4}, "stars must be between 0 and 3"),
        ([[1], [2], [3], [4], [5]], {}, "2, 3, 4 players"),
        ([["a"], [2]], {}, "whole numbers"),
        ("12", {}, "one list of cards per player"),
    ],
)
def test_bad_deals(hands: object, kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(RuleError, match=match):
        Game.from_hands(hands, **kwargs)  # type: ignore[arg-type]


def test_players_disagreeing_with_rules() -> None:
    with pytest.raises(RuleError, match="disagrees"):
        Game(players=2, rules=Rules(players=3))


def _saved() -> dict[str, object]:
    g = Game(players=3, seed=42)
    g.ready(t=0.0)
    g.use_star(t=1.0)
    return json.loads(g.to_json())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda d: "not json{", "must be JSON"),
        (lambda d: json.dumps([1, 2]), "JSON object"),
        (lambda d: json.dumps({**d, "format": "chess"}), "not a saved mindwidget game"),
        (lambda d: json.dumps({k: v for k, v in d.items() if k != "actions"}), "lacks actions"),
        (lambda d: json.dumps({**d, "seed": d["seed"] + 1}), "was changed"),
        (lambda d: json.dumps({**d, "state": {**d["state"], "lives": 5}}), "'lives'"),
        (lambda d: json.dumps({**d, "state": {**d["state"], "rng": [3, [1], None]}}), "'rng'"),
        (lambda d: json.dumps({**d, "actions": [{"action": "fly"}]}), "unknown action"),
        (
            lambda d: json.dumps({**d, "actions": [{"action": "play", "player": 7, "t": 0}]}),
            "saved action #0",
        ),
        (lambda d: json.dumps({**d, "rules": {"players": 9}}), "2, 3, 4 players"),
        (lambda d: json.dumps({**d, "rules": {"colour": "red"}}), "unknown rule setting"),
        (lambda d: json.dumps({**d, "seed": "x"}), "seed must be a whole number"),
    ],
)
def test_malformed_or_tampered_json(mutate: Callable[[dict], str], match: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(RuleError, match=match):
        Game.from_json(mutate(_saved()))


def test_apply_refuses_unknown_fields() -> None:
    g = Game(players=2, seed=0)
    refused(g, lambda: g.apply({"action": "play", "player": 0, "card": 5}), "takes")
    refused(g, lambda: g.apply("play"), "an action is an object")


def test_an_action_that_is_not_an_action_is_a_rule_error() -> None:
    # {"action": {}} once reached the old-name map as a dict key: TypeError (issue 25)
    d = _saved()
    for junk in ({}, [], None, 3, ["play"]):
        d["actions"] = [{"action": junk}]
        with pytest.raises(RuleError, match=r"saved action #0 .* an action is an object"):
            Game.from_json(json.dumps(d))
    d["actions"] = [{"action": "concentrate", "t": 0.0}]  # an old name still loads: only the
    with pytest.raises(RuleError, match="was changed"):  # state differs from this replay
        Game.from_json(json.dumps(d))


# ------------------------------------------------ damaged saves (hypothesis)


def _real_save() -> dict[str, Any]:
    """A save with something of everything: levels cleared, a mistake, a star, a vote."""
    from mindwidget.bots.runner import run_level

    g = Game(players=3, seed=16)  # a mistake and a star in its first three levels
    for level in range(3):
        run_level(g, "human", seed=level)
        if g.status == "cleared":
            g.next_level()
    if g.status == "playing":
        g.ready(t=g.t)
        if g.stars:
            g.propose_star(0, t=g.t + 0.5)
            g.vote(1, False, t=g.t + 0.5)
    return json.loads(g.to_json())  # type: ignore[no-any-return]


REAL_SAVE = _real_save()


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON tree, the root included."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


#: Every place but most of the random generator's 625 numbers (a few stand for them all).
PATHS = [p for p in _paths(REAL_SAVE) if p[:3] != ("state", "rng", 1) or p[3:] < (3,)]

#: What a damaged file may hold where a value was: wrong types, huge numbers,
#: NaN and infinities, and nested junk.
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([10**400, -(10**400), 2**63, 2**64 + 1, -1, 0])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["play", "ready", "vote", "concentrate", "won", "level_cleared", "face_up"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _mutate(data: Any, path: tuple[Any, ...], how: str, junk: Any) -> Any:
    if not path:
        return junk if how == "replace" else data
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = junk
    elif how == "delete":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif isinstance(parent, dict):  # "extra": a key no save has
        parent[f"extra{len(parent)}"] = junk
    return data


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(PATHS),
            st.sampled_from(["replace", "replace", "delete", "duplicate", "extra"]),
            JUNK,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_a_damaged_save_raises_rule_error_and_nothing_else(
    mutations: list[tuple[tuple[Any, ...], str, Any]],
) -> None:
    data: Any = copy.deepcopy(REAL_SAVE)
    for path, how, junk in mutations:
        try:
            data = _mutate(data, path, how, junk)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced this place
    text = json.dumps(data)  # NaN and Infinity as Python's json writes them
    try:
        game = Game.from_json(text)
    except RuleError as exc:
        assert str(exc)  # says what was wrong
        return
    # a mutation the file does not depend on (an early action's time, an extra
    # junk key in a rule-less place) may leave a loadable game: then it is whole
    assert Game.from_json(game.to_json()) == game


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=len(json.dumps(REAL_SAVE)) - 1), st.binary(max_size=4))
def test_a_cut_or_garbled_save_raises_rule_error(cut: int, noise: bytes) -> None:
    text = json.dumps(REAL_SAVE).encode()
    with pytest.raises(RuleError):
        Game.from_json(text[:cut] + noise)
