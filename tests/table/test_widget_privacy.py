"""No synced trait and no message carries a card its seat may not know.

Every message the widget publishes (the first state, every trait update,
every custom message) is checked at the moment it is sent, against the cards
that are hidden from the person's seat at that moment: the other hands,
face-down discards of others, and in blind mode the pile cards of others until
the pile is turned over. Only keys that are known not to be cards (counters,
seat numbers) may hold such a number.

The bots' timing gives their cards away too (a perfect bot plays 0.3 s per
step above the pile), so with ``reveal`` off no message may carry a bot's
planned time either: not as a value (exact, or rounded to the millisecond as
the views round times), and not under a key for it (``due``, ``plans``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import comm
import numpy as np
import pytest
from conformance import future_plans, seat_may_not_know, timing_leaks
from widget_harness import Browser, RecordingComm, lowest_overall, play_level_well

from mindwidget import MindWidget, Rules
from mindwidget.bots import PerfectTimer
from mindwidget.game import Observation


def widget_plans(w: MindWidget) -> set[float]:
    """The bots' planned times ahead of the widget's table's time."""
    return future_plans(w.plans.values(), w.planned.t if w.planned is not None else None, w.now)


class Watcher:
    def __init__(self) -> None:
        self.messages = 0
        self.found: list[tuple[str, int]] = []
        self.timing: list[tuple[str, object]] = []
        self.widget: MindWidget | None = None

    def check(self, entry: dict[str, Any]) -> None:
        w = self.widget
        if w is None:
            return
        self.messages += 1
        cards, timing = seat_may_not_know(
            entry["data"], game=w.game, seat=w.seat, plans=widget_plans(w)
        )
        self.found += cards
        if not w.reveal:
            self.timing += timing


@pytest.fixture
def watcher(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watcher]:
    watch = Watcher()

    def create(*args: Any, **kwargs: Any) -> RecordingComm:
        c = RecordingComm(*args, **kwargs)
        c.on_publish = watch.check
        return c

    monkeypatch.setattr(comm, "create_comm", create)
    yield watch


def watched(watch: Watcher, **kwargs: Any) -> Browser:
    kwargs.setdefault("bots", "perfect")
    w = MindWidget(**kwargs)
    watch.widget = w
    # The first state went out while the widget was being built: check it now.
    for entry in w.comm.sent:
        watch.check(entry)
    return Browser(w)


class Careless(PerfectTimer):
    propose_stars = True

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        return obs.level % 2 == 0

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        return obs.level == 2


def eager_person(b: Browser, levels: int = 99) -> None:
    """Plays at once, proposes and votes on stars, stops and resumes: a lot happens."""
    w = b.w
    proposed: set[int] = set()
    seat = w.seat or 0
    while w.game.status in ("playing", "cleared") and w.game.level <= levels:
        phase = b.view["phase"]
        if phase == "cleared":
            b.send({"type": "next_level"})
        elif phase in ("ready", "stopped"):
            b.act("ready")
        elif phase == "vote":
            b.act("vote", agree=w.game.level % 3 == 0)
        elif w.game.hands[seat] and w.game.level % 2 == 1:
            if w.game.level >= 5 or w.game.hands[seat][0] == lowest_overall(w):
                b.act("stop")
                b.act("ready")
                b.act("play")  # from level 5 on: at once, whatever the others hold
            else:
                assert b.run_clock()
        elif w.game.stars and w.game.hands[seat] and w.game.level not in proposed:
            proposed.add(w.game.level)
            b.act("propose_star")
        elif not b.run_clock():
            b.act("play")
        b.send({"type": "hello"})


def test_no_leak_in_a_won_game_and_blind_mode(watcher: Watcher) -> None:
    b = watched(watcher, players=2, seat=0, seed=3)
    while b.w.game.status != "won":
        play_level_well(b)
        if b.w.game.status == "cleared":
            b.send({"type": "next_level"})
        b.send({"type": "hello"})
    b.send({"type": "start_blind"})
    for _ in range(3):
        play_level_well(b)
        b.send({"type": "next_level"})
    assert watcher.messages > 100
    assert watcher.found == []
    assert watcher.timing == []


def test_no_leak_in_a_lost_game_with_stops_and_star_votes(watcher: Watcher) -> None:
    b = watched(watcher, players=3, seat=1, seed=8, bots=Careless())
    eager_person(b)
    assert b.w.game.status == "lost"
    kinds = {e.type for e in b.w.game.events}
    assert {"mistake", "stopped", "star_voted", "star_used", "star_declined"} <= kinds
    assert watcher.found == []
    assert watcher.timing == []


def test_no_leak_with_face_down_mistake_discards(watcher: Watcher) -> None:
    rules = Rules(players=3, mistake_discards="face_down")
    b = watched(watcher, rules=rules, seat=2, seed=5)
    eager_person(b)
    face_down = [d for e in b.w.game.events if e.type == "mistake" for d in e.discards]  # type: ignore[attr-defined]
    assert face_down and not any(d.face_up for d in face_down)
    assert watcher.found == []
    assert watcher.timing == []


def test_no_hand_values_at_all_when_bots_play_alone(watcher: Watcher) -> None:
    b = watched(watcher, players=4, seat=None, seed=2, bots="scalar")
    for _ in range(4):
        b.act("ready")
        while b.run_clock():
            pass
        if b.w.game.status != "cleared":
            break
        b.send({"type": "next_level"})
    assert watcher.found == []
    assert watcher.timing == []


def test_the_check_finds_a_leak_when_reveal_is_on(watcher: Watcher) -> None:
    """The detector itself can fail: reveal mode does send every hand."""
    b = watched(watcher, players=3, seat=0, seed=1, reveal=True)
    b.act("ready")
    assert lowest_overall(b.w) is not None
    assert ("hands", b.w.game.hands[1][0]) in watcher.found


def test_the_timing_check_finds_the_countdowns_when_reveal_is_on(watcher: Watcher) -> None:
    """The timing detector can fail too: reveal mode sends each bot's planned time."""
    b = watched(watcher, players=3, seat=0, seed=1, reveal=True)
    n = len(b.comm.sent)
    b.act("ready")
    plans = widget_plans(b.w)
    assert plans
    found = [f for e in b.comm.sent[n:] for f in timing_leaks(e["data"], plans)]
    assert ("plans", {str(p): t for p, t in sorted(b.w.plans.items())}) in found
    assert {k for k, _ in found} >= {"plans", "1", "2"}
