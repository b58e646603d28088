"""The views of a table's seats share what every seat sees alike (issue 27).

`table_view` with an index builds the public part once per change of the game
(`mindwidget.view._shared`); each seat's view must be exactly the view built
from scratch, and must hold no card of another seat, blind mode included.
"""

from __future__ import annotations

import random

import pytest

from mindwidget import view
from mindwidget.game import Game
from mindwidget.rules import Rules
from mindwidget.table import LevelIndex


def _random_games(seed: int, steps: int) -> list[tuple[Game, LevelIndex]]:
    """A game of three played by random legal actions, with every step's state kept."""
    rng = random.Random(seed)
    game = Game(rules=Rules(players=3, levels=2), seed=seed)
    index = LevelIndex()
    states = []
    t = 0.0
    for _ in range(steps):
        seat = rng.randrange(3)
        legal = [a for a in game.legal_actions(seat) if a != "use_star"]
        if not legal:
            break
        action = rng.choice(legal)
        t += rng.choice((0.0, 0.5, 1.0))
        args = {
            "play": {"player": seat, "t": t},
            "propose_star": {"player": seat, "t": t},
            "vote": {"player": seat, "agree": rng.random() < 0.7, "t": t},
            "stop": {"player": seat, "t": t},
            "ready": {"t": t},
            "next_level": {},
            "start_blind": {},
        }[action]
        getattr(game, action)(**args)
        if action in ("next_level", "start_blind"):
            t = 0.0
        states.append((game, index))
        shared = [view.table_view(game, s, news_from=0, index=index) for s in range(3)]
        fresh = [view.table_view(game, s, news_from=0) for s in range(3)]
        assert shared == fresh, (action, game.level, game.blind)
    return states


@pytest.mark.parametrize("seed", range(6))
def test_every_seats_view_is_the_view_built_from_scratch(seed: int) -> None:
    """After every action, blind levels included (two levels: a win comes quickly)."""
    _random_games(seed, 400)


def test_a_blind_level_shows_each_seat_only_its_own_face_down_cards() -> None:
    game = Game.from_hands([[5], [17], [33]], rules=Rules(players=3, levels=1))
    game.ready(t=0)
    for p in range(3):
        game.play(p, t=1 + p)
    assert game.status == "won"
    game.start_blind()
    game.ready(t=0)
    index = LevelIndex()
    first = game.lowest(0)
    game.play(0, t=1.0)
    mine = view.table_view(game, 0, index=index)
    theirs = view.table_view(game, 1, index=index)  # the shared part, built for seat 0
    assert mine["pile"] == [first]
    assert theirs["pile"] == [None]


def test_the_public_part_is_built_once_per_change(monkeypatch: pytest.MonkeyPatch) -> None:
    builds = []
    build = view._public_part

    def counted(game: Game, idx: LevelIndex) -> dict[str, object]:
        builds.append(game.event_count)
        return build(game, idx)

    monkeypatch.setattr(view, "_public_part", counted)
    game = Game.from_hands([[5, 40], [17, 60], [33, 90]])
    index = LevelIndex()
    for s in range(3):
        view.table_view(game, s, index=index)
    game.ready(t=0)
    game.play(0, t=1.0)
    for s in range(3):
        view.table_view(game, s, index=index)
    assert builds == [1, 3]  # the deal; the deal, Ready and the play
