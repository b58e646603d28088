"""The teacher's dashboard (`mindwidget.dashboard`): what it shows and what it lets through.

The class is `tests/classroom_harness.LocalClass`: real Tables with the class
server's snapshot format (the server itself is tested in its own files).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from classroom_harness import LocalClass

from mindwidget.dashboard import CONTROLS, STUCK_SECONDS, Board, Dashboard


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _class() -> LocalClass:
    room = LocalClass()
    room.add_table(["Anna", "Bas", "Cem"], seed=1)
    room.add_table([None, None, None], seed=2)
    room.add_table(["Dirk", None, None], seed=3)
    return room


def _held_cards(room: LocalClass) -> set[int]:
    return {c for lt in room.tables for h in lt.table.game.hands for c in h}


def _numbers(value: Any) -> set[int]:
    """Every whole number anywhere in a JSON-like value."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_numbers(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_numbers(v) for v in value)) if value else set()
    return set()


def test_every_table_with_its_seats_and_free_places() -> None:
    board = Board(_class())
    state = board.state()
    room = state["room"]
    assert [t["id"] for t in room["tables"]] == [1, 2, 3]
    assert [s["name"] for s in room["tables"][0]["seats"]] == ["Anna", "Bas", "Cem"]
    assert room["tables"][0]["waiting_for"] == [0, 1, 2]
    assert room["free"] == [[2, 0], [2, 1], [2, 2], [3, 1], [3, 2]]
    assert state["settings"] == {"lang": "nl", "focus": None, "reveal": False}
    assert json.loads(json.dumps(state)) == state  # JSON-ready


def test_a_table_waiting_for_an_offline_pupil_is_stuck_at_once() -> None:
    room = _class()
    room.tables[0].seats[1].connected = False  # type: ignore[union-attr]
    tables = Board(room).state()["room"]["tables"]
    assert tables[0]["stuck"] == {"reason": "offline", "seats": [1]}
    assert tables[2]["stuck"] is None


def test_a_table_that_does_not_move_is_stuck_after_a_while() -> None:
    room = _class()
    clock = Clock()
    board = Board(room, now=clock)
    board.state()
    clock.t += STUCK_SECONDS - 1
    assert board.changes() == {}
    clock.t += 2
    stuck = board.changes()["room"]["tables"]
    assert stuck[2]["stuck"] == {"reason": "idle", "seats": [0], "seconds": 30}
    # a table of bots only waits for nobody's Ready, and is stuck all the same
    assert stuck[1]["waiting_for"] == [] and stuck[1]["stuck"]["reason"] == "idle"
    # a table that moves is not stuck any more
    room.tables[2].table.ready()
    room.tables[2].ready.add(0)
    tables = board.changes()["room"]["tables"]
    assert tables[2]["stuck"] is None
    # during a level a table may be quiet longer (a far card): twice as long
    clock.t += STUCK_SECONDS + 1
    assert board.changes()["room"]["tables"][2]["stuck"] is None
    clock.t += STUCK_SECONDS
    assert board.changes()["room"]["tables"][2]["stuck"]["reason"] == "idle"


def test_changes_only_what_changed() -> None:
    room = _class()
    board = Board(room)
    board.state()
    assert board.changes() == {}
    room.lock(True)
    assert set(board.changes()) == {"room"}
    board.receive({"type": "focus", "table": 2})
    assert set(board.changes()) == {"settings", "table"}


def test_controls_reach_the_class() -> None:
    room = _class()
    board = Board(room)
    board.receive({"type": "lock", "locked": True})
    assert room.locked
    board.receive({"type": "pause_all"})
    assert room.paused
    board.receive({"type": "move", "pupil": "p11", "table": 3, "seat": 2})
    assert room.tables[2].seats[2].name == "Bas"  # type: ignore[union-attr]
    assert room.tables[0].seats[1] is None
    board.receive({"type": "remove", "pupil": "p10"})
    assert room.removed == ["p10"]
    board.receive({"type": "end"})
    assert room.ended
    assert board.notice == {}


def test_a_refusal_by_the_class_is_a_notice() -> None:
    room = _class()
    board = Board(room)
    board.receive({"type": "move", "pupil": "p10", "table": 3, "seat": 0})  # Dirk sits there
    assert board.notice["key"] == "refused_not_done"
    assert "seat 1 of table 3 is taken" in board.notice["params"]["reason"]
    assert room.tables[0].seats[0].name == "Anna"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "message",
    [
        None,
        "start_all",
        [],
        {"type": "format_disk"},
        {"type": "start_all", "extra": 1},
        {"type": "lock", "locked": "yes"},
        {"type": "remove", "pupil": "nobody"},
        {"type": "remove", "pupil": "x" * 10_000},
        {"type": "remove", "pupil": {"$gt": ""}},
        {"type": "move", "pupil": "p10", "table": 99, "seat": 0},
        {"type": "move", "pupil": "p10", "table": 2, "seat": 3},
        {"type": "move", "pupil": "p10", "table": 2, "seat": -1},
        {"type": "move", "pupil": "p10", "table": 2, "seat": True},
        {"type": "move", "pupil": "p10", "table": 2.0, "seat": 0},
        {"type": "focus", "table": "1"},
        {"type": "reveal", "on": 1},
        {"type": "lang", "lang": "fr"},
    ],
)
def test_hostile_messages_change_nothing(message: object) -> None:
    room = _class()
    board = Board(room)
    before = json.dumps(board.state(), sort_keys=True)
    board.receive(message)
    assert board.notice["key"].startswith("refused_")
    assert board.notice["key"] != "refused_not_done"  # caught by the board, not the class
    after = board.state()
    after["notice"] = {}
    assert json.dumps(after, sort_keys=True) == before
    assert not room.locked and not room.removed and not room.paused


def test_every_notice_is_said_in_every_language() -> None:
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "mindwidget" / "locales" / "teacher"
    files = {
        lang: json.loads((folder / f"{lang}.json").read_text("utf-8"))
        for lang in ("en", "nl", "de")
    }
    assert files["en"].keys() == files["nl"].keys() == files["de"].keys()
    for key in (
        "refused_bad_control",
        "refused_bad_field",
        "refused_no_table",
        "refused_no_seat",
        "refused_no_pupil",
        "refused_not_done",
    ):
        assert key in files["en"]
    for kind in ("start_all", "pause_all", "end", "lock", "remove", "move", "start_table"):
        assert f"control_{kind}" in files["en"] and kind in CONTROLS


def test_the_projector_view_hides_every_hand_unless_reveal() -> None:
    room = _class()
    for lt in room.tables:
        lt.table.ready()
        if lt.table.planned is not None:
            lt.table.wait()  # a bot plays a card: the pile holds a public card
        else:
            lt.table.play(0, t=1.0)
    board = Board(room)
    held = _held_cards(room)
    for tid in (1, 2, 3):
        board.receive({"type": "focus", "table": tid})
        state = board.state()
        view = state["table"]["view"]
        assert view["hand"] == [] and sum(view["counts"]) > 0
        assert "hands" not in view and "plans" not in view
        # no held card anywhere in what the dashboard sends (above 12, so not a
        # level, life or count; times are in ms and not whole numbers here)
        sent = _numbers({k: v for k, v in state.items()})
        assert not sent & {c for c in held if c > 12}
    board.receive({"type": "reveal", "on": True})
    state = board.state()
    assert state["table"]["view"]["hands"] == [list(h) for h in room.tables[2].table.game.hands]
    assert held


def test_the_widget_syncs_the_board() -> None:
    room = _class()
    w = Dashboard(room)
    assert [t["id"] for t in w.room["tables"]] == [1, 2, 3]
    w._on_msg(w, {"type": "focus", "table": 1}, [])
    assert w.settings["focus"] == 1 and w.table["view"]["players"] == 3
    room.lock(True)
    w.refresh()
    assert w.room["locked"] is True
    with pytest.raises(ValueError, match="updates_per_second must be > 0 and at most 4"):
        Dashboard(room, updates_per_second=50)
    w.close()
