"""``view["allowed"]``: exactly what the widget accepts from the browser now.

Games are driven by messages; at each state, for every action of the
vocabulary, a second widget replays the same messages (same seed, same bots:
the same game) and then sends that action: it is accepted (no notice) exactly
when the first widget's view listed it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from widget_harness import (
    Browser,
    recording_comm,  # noqa: F401  (autouse: every widget here records what it sends)
)

from mindwidget import Game, MindWidget
from mindwidget.bots import PerfectTimer
from mindwidget.game import Observation
from mindwidget.view import ALLOWED, table_view


class Proposer(PerfectTimer):
    """Proposes a star after the first card of level 2; agrees to every star."""

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        return obs.level == 2 and len(obs.pile) == 1

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        return True


def message(kind: str, b: Browser) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": kind}
    if kind in ("ready", "play", "stop", "propose_star", "vote"):
        msg["t"] = b.clock["t"]
    if kind == "vote":
        msg["agree"] = True
    return msg


def widget(kwargs: dict[str, Any]) -> MindWidget:
    return MindWidget(**{**kwargs, "game": kwargs["game"].copy()})


def accepted(kwargs: dict[str, Any], log: list[dict[str, Any]], kind: str) -> bool:
    b = Browser(widget(kwargs))
    for msg in log:
        b.send(msg)
    before = b.w.game.to_json()
    b.send(message(kind, b))
    if b.w.notice:
        assert b.w.game.to_json() == before
    return not b.w.notice


def walk(kwargs: dict[str, Any], script: list[str]) -> set[str]:
    """Send ``script``; check ``allowed`` against the replays before each message."""
    b = Browser(widget(kwargs))
    log: list[dict[str, Any]] = []
    seen: set[str] = set()
    for kind in script:
        allowed = b.view["allowed"]
        seen |= set(allowed)
        for action in ALLOWED:
            assert accepted(kwargs, log, action) == (action in allowed), (action, allowed, log)
        msg = message(kind, b) if kind != "tick" else {"type": "tick", "t": 99.0, "seq": 0}
        if kind == "tick":
            msg["seq"] = b.clock["seq"]
        b.send(msg)
        log.append(msg)
    return seen


def test_allowed_lists_exactly_what_the_widget_accepts() -> None:
    seen = set()
    game = Game.from_hands([[5, 60], [17, 70], [33, 80]], stars=1, seed=2)
    for mode in ("realtime", "step"):
        kwargs = {"game": game, "seat": 0, "bots": Proposer(propose_stars=True), "mode": mode}
        script = ["ready", "play", "tick", "wait", "vote", "stop", "ready", "propose_star",
                  "wait", "tick", "wait", "tick", "next_level", "new_game"]  # fmt: skip
        seen |= walk(kwargs, script)
        seen |= walk({**kwargs, "seat": None}, ["ready", "wait", "tick", "wait", "tick"])
    last = Game.from_hands([[5], [17], [33]], level=10, seed=3)
    script = ["ready", "tick", "play", "start_blind", "ready"]
    seen |= walk({"game": last, "seat": 2, "bots": "perfect"}, script)
    assert seen == set(ALLOWED)


def test_allowed_is_in_the_view_and_only_from_the_vocabulary() -> None:
    g = Game.from_hands([[5], [17], [33]])
    assert table_view(g, 0)["allowed"] == []
    assert table_view(g, 0, allowed=("play", "ready"))["allowed"] == ["ready", "play"]
    with pytest.raises(ValueError, match="allowed must name actions among ready"):
        table_view(g, 0, allowed=["fly"])
    w = MindWidget(game=g, seat=0, bots="perfect")
    assert w.view["allowed"] == ["ready"]
    w.ready()
    assert w.view["allowed"] == ["play", "stop", "propose_star"]
