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
from widget_harness import Browser, RecordingComm, lowest_overall, play_level_well

from mindwidget import Game, MindWidget, Rules
from mindwidget.bots import PerfectTimer
from mindwidget.game import Observation

#: Keys whose whole numbers are never card values.
NOT_CARDS = frozenset(
    {
        "players", "seat", "level", "levels", "lives", "stars", "n", "seq", "epoch", "id",
        "player", "p", "by", "from", "counts", "pile_by", "lives_lost", "buffer_paths",
        "max_lives", "max_stars", "speeds", "speed", "tempo",
        # the deck's size and places in the discards' list (issue 26), not cards
        "deck", "mistake_discards",
    }
)  # fmt: skip


def hidden_cards(game: Game, seat: int | None) -> set[int]:
    hidden = {c for q, h in enumerate(game.hands) if q != seat for c in h}
    hidden |= {d.card for d in game.discards if not d.face_up and d.player != seat}
    events = game.level_events
    if game.blind and not any(e.type == "blind_checked" for e in events):
        played = [e for e in events if e.type == "played"]
        hidden |= {e.card for e in played if e.player != seat}  # type: ignore[attr-defined]
    return hidden


def leaks(data: Any, hidden: set[int], key: str = "") -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            found += leaks(v, hidden, str(k))
    elif isinstance(data, list):
        for v in data:
            found += leaks(v, hidden, key)
    elif (
        isinstance(data, int)
        and not isinstance(data, bool)
        and key not in NOT_CARDS
        and data in hidden
    ):
        found.append((key, data))
    return found


#: Keys under which a bot's planned time (a countdown) would travel.
TIMING_KEYS = frozenset({"due", "plans"})


def future_plans(w: MindWidget) -> set[float]:
    """The level times at which bots plan to act that lie ahead of every public time."""
    plans = set(w.plans.values())
    if w.planned is not None:
        plans.add(w.planned.t)
    return {t for t in plans if t > w.now + 0.002}


def timing_leaks(data: Any, plans: set[float], key: str = "") -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k in TIMING_KEYS and v not in (None, {}, []):
                found.append((str(k), v))
            found += timing_leaks(v, plans, str(k))
    elif isinstance(data, list):
        for v in data:
            found += timing_leaks(v, plans, key)
    elif isinstance(data, float) and any(abs(data - t) < 0.0006 for t in plans):
        found.append((key, data))
    return found


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
        self.found += leaks(entry["data"], hidden_cards(w.game, w.seat))
        if not w.reveal:
            self.timing += timing_leaks(entry["data"], future_plans(w))


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
    plans = future_plans(b.w)
    assert plans
    found = [f for e in b.comm.sent[n:] for f in timing_leaks(e["data"], plans)]
    assert ("plans", {str(p): t for p, t in sorted(b.w.plans.items())}) in found
    assert {k for k, _ in found} >= {"plans", "1", "2"}
