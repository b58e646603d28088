"""`Game.refusal`: the public precondition of each action, the one a table asks."""

from __future__ import annotations

import pytest

from mindwidget import Game
from mindwidget.game import RuleError


def test_refusal_is_none_exactly_for_the_actions_legal_actions_lists() -> None:
    game = Game.from_hands([[10, 40], [20, 60], [30, 80]])
    game.ready(t=0.0)
    game.play(0, t=1.0)
    for seat in range(3):
        legal = game.legal_actions(seat)
        for action in ("play", "propose_star", "use_star", "next_level", "start_blind"):
            assert (game.refusal(action, seat) is None) == (action in legal), (action, seat)


def test_a_refusal_says_why_and_an_unknown_action_is_named() -> None:
    game = Game.from_hands([[10], [20]])
    game.ready(t=0.0)
    game.play(0, t=1.0)
    refused = game.refusal("play", 0)
    assert isinstance(refused, RuleError)
    assert refused.key == "no_cards"
    with pytest.raises(ValueError, match="action must be one of play, vote, .* not 'fly'"):
        game.refusal("fly", 0)
