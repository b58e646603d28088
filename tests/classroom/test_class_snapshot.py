"""The teacher's snapshot says in fields of its own whether a table's game is over (won or
lost) and whether a level is cleared, so the dashboard reads them instead of working them
out from the phase (issue 26)."""

from __future__ import annotations

import json
from typing import Any

from mindwidget.classroom.inbox import parse
from mindwidget.classroom.room import ManualTimers, Room
from mindwidget.classroom.tables import Pupil


class Link:
    """A pupil page's connection, as little as the room needs."""

    def __init__(self, address: str) -> None:
        self.pupil: Pupil | None = None
        self.lang = "en"
        self.address = address
        self.fresh = True

    def send(self, frame: dict[str, Any]) -> None:
        pass

    def dirty(self) -> None:
        pass

    def bye(self, key: str) -> None:
        pass


def test_the_snapshot_says_over_and_cleared_as_the_game_means_them() -> None:
    timers = ManualTimers(start=100.0)
    room = Room(timers, seed=5, size=2)
    links = [Link("10.0.0.1"), Link("10.0.0.2")]
    for link, name in zip(links, ("Anna", "Bo"), strict=True):
        room.receive(link, parse(json.dumps({"type": "join", "code": room.code, "name": name})))
    (t,) = room.tables
    assert t.table is not None
    by_seat = {link.pupil.seat: link for link in links if link.pupil is not None}

    def snap() -> dict[str, Any]:
        (table,) = room.snapshot()["tables"]
        return table

    def say(link: Link, kind: str) -> None:
        timers.advance(timers.now() + 1.0)
        room.receive(link, parse(json.dumps({"type": kind})))

    def ready() -> None:
        for link in links:
            say(link, "ready")

    assert (snap()["over"], snap()["cleared"]) == (False, False)
    ready()
    assert (snap()["status"], snap()["over"], snap()["cleared"]) == ("playing", False, False)
    # level 1: the higher card first, a mistake (one life of two); the level is cleared
    game = t.table.game
    high = max(range(2), key=lambda s: game.hands[s][0])
    say(by_seat[high], "play")
    assert game.status == "cleared"
    assert (snap()["status"], snap()["over"], snap()["cleared"]) == ("stopped", False, True)
    for link in links:
        say(link, "next_level")
    assert (snap()["over"], snap()["cleared"]) == (False, False)
    ready()
    while game.status == "playing":  # the highest card each time: mistakes to the last life
        if t.table.phase in ("ready", "stopped"):
            ready()
            continue
        high = max((s for s in range(2) if game.hands[s]), key=lambda s: game.hands[s][-1])
        say(by_seat[high], "play")
    assert game.status == "lost"
    assert (snap()["status"], snap()["over"], snap()["cleared"]) == ("over", True, False)
