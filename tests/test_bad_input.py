"""Bad input gets a clear RuleError, and a refused action leaves the game as it was."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

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
