"""The teacher's dashboard (`mindwidget.classroom.dashboard`): what it shows and what it
lets through.

The class is `tests/classroom_harness.LocalClass`: real Tables with the class
server's snapshot format (the server itself is tested in its own files).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from classroom_harness import LocalClass

import mindwidget
from mindwidget.classroom import dashboard as dashboard_module
from mindwidget.classroom.dashboard import CONTROLS, STUCK_SECONDS, Board, Dashboard
from mindwidget.refusal import Refused


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
    room.tables[0].chairs[1].connected = False  # type: ignore[union-attr]
    tables = Board(room).state()["room"]["tables"]
    assert tables[0]["stuck"] == {"reason": "offline", "seats": [1]}
    assert tables[2]["stuck"] is None


def test_a_vote_waiting_for_an_offline_pupil_is_stuck_at_once() -> None:
    """A star proposed, and the pupil who has not voted yet goes offline: the vote
    would wait for ever. Before, the dashboard said no table was stuck."""
    room = _class()
    lt = room.tables[0]
    lt.table.ready()
    lt.ready = set(lt.chairs)
    lt.table.propose_star(0)
    lt.table.vote(True, seat=1)
    board = Board(room)
    assert lt.table.phase == "vote"
    assert board.state()["room"]["tables"][0]["stuck"] is None  # voting is their turn
    lt.chairs[2].connected = False  # type: ignore[union-attr]
    assert board.room_state()["tables"][0]["stuck"] == {"reason": "offline", "seats": [2]}
    lt.chairs[2].connected = True  # type: ignore[union-attr]
    lt.chairs[1].connected = False  # type: ignore[union-attr]  # voted already: not waited for
    assert board.room_state()["tables"][0]["stuck"] is None


def test_a_table_that_does_not_move_is_stuck_after_a_while() -> None:
    room = _class()
    clock = Clock()
    board = Board(room, now=clock)
    board.state()
    clock.t += STUCK_SECONDS - 1
    assert board.changes() == {}
    clock.t += 2
    stuck = board.changes()["room"]["tables"]
    # a pupil who has not pressed Ready yet is not stuck: that is the pupil's turn (issue 24)
    assert stuck[2]["waiting_for"] == [0] and stuck[2]["stuck"] is None
    # a table of bots only waits for nobody's Ready: nobody is there to press, it is stuck
    assert stuck[1]["waiting_for"] == [] and stuck[1]["stuck"]["reason"] == "idle"
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
    assert room.tables[2].chairs[2].name == "Bas"  # type: ignore[union-attr]
    assert room.tables[0].chairs[1] is None
    board.receive({"type": "remove", "pupil": "p10"})
    assert room.removed == ["p10"]
    board.receive({"type": "end"})
    assert room.ended
    assert board.notice == {}


def test_a_refusal_by_the_class_is_a_notice() -> None:
    room = _class()
    board = Board(room)
    board.receive({"type": "move", "pupil": "p10", "table": 3, "seat": 0})  # Dirk sits there
    # said in the dashboard's words, not the class's English message (issue 24)
    assert board.notice["key"] == "refused_seat_taken"
    assert board.notice["params"] == {"table": 3, "seat": 1, "name": "Dirk"}
    assert room.tables[0].chairs[0].name == "Anna"  # type: ignore[union-attr]


def test_a_refusal_in_english_is_not_shown_to_a_dutch_teacher() -> None:
    """A class error without words of its own (an English ValueError) becomes the
    dashboard's "not done"; a `Refused` is said in the dashboard's language."""
    room = _class()
    board = Board(room, lang="nl")
    full = Refused("no_free_seat", words="teacher", table=1)
    errors: list[ValueError] = [ValueError("the class's English"), full]

    def refuse() -> None:
        raise errors.pop(0)

    room.pause_all = refuse  # type: ignore[method-assign]
    board.receive({"type": "pause_all"})
    assert board.notice["key"] == "refused_by_class" and board.notice["params"] == {}
    board.receive({"type": "pause_all"})
    assert board.notice["key"] == "refused_not_done"
    assert board.notice["params"] == {
        "reason": "tafel 1 heeft geen lege plaats; kies de plaats van een bot."
    }


def test_starting_a_table_that_started_or_has_nobody_is_refused_in_words() -> None:
    room = _class()
    board = Board(room, lang="nl")
    board.receive({"type": "start_table", "table": 1})  # it plays already
    assert board.notice["key"] == "refused_started" and board.notice["params"] == {"table": 1}
    snapshot = room.snapshot

    def before_anyone_sits() -> dict[str, Any]:  # table 2 as the server shows a new table
        snap = snapshot()
        snap["tables"][1] |= {"phase": "waiting", "seats": [{"seat": 0, "kind": "empty"}]}
        return snap

    room.snapshot = before_anyone_sits  # type: ignore[method-assign]
    started: list[int] = []
    room.start_table = started.append  # type: ignore[assignment]
    board.receive({"type": "start_table", "table": 2})
    assert board.notice["key"] == "refused_start_empty" and board.notice["params"] == {"table": 2}
    assert started == []


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

    folder = Path(__file__).resolve().parents[2] / "mindwidget" / "locales" / "teacher"
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
        "refused_by_class",
        "refused_started",
        "refused_start_empty",
        "refused_seat_taken",
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


def test_the_large_table_shows_the_level_time_now_and_who_plays() -> None:
    """ "Groot tonen" 110 s into a level: the clock the page runs on is the class
    table's level time now (its `HostClock`), not the time of the latest event;
    a table with pupils is not "the bots playing" (issue 24)."""
    from classroom_harness import LocalTable, Pupil

    from mindwidget.session import HostClock
    from mindwidget.table import Table

    clock = Clock()
    table = Table(players=3, seats=(0, 1, 2), bots="human", seed=1)
    lt = LocalTable(1, table)
    lt.chairs = {s: Pupil(f"p{s}", n) for s, n in enumerate(["Anna", "Bas", "Cem"])}
    lt.host = HostClock(table, now=clock)  # type: ignore[attr-defined]  # as ClassTable has
    room = _class()
    room.tables = [lt]
    table.ready(t=0.0)
    board = Board(room, now=clock)
    clock.t += 110.0  # nobody has played for 110 s: the latest event is the Ready at 0
    board.receive({"type": "focus", "table": 1})
    state = board.table_state()
    assert state["view"]["t"] == 0.0
    assert state["clock"]["running"] is True
    assert state["clock"]["t"] == pytest.approx(110.0)
    assert state["view"]["watch"] == "class"
    # the clock is made again only when the table's clock changes: the view stays put
    clock.t += 5.0
    assert board.table_state()["clock"]["t"] == pytest.approx(110.0)
    for s in (0, 1, 2):
        lt.chairs[s] = None
    assert board.table_state()["view"]["watch"] == "bots"


def test_the_last_mistake_is_the_games_not_only_the_levels() -> None:
    from classroom_harness import play_cards, play_levels

    room = LocalClass()
    lt = room.add_table(["Anna", "Bas", "Cem"], seed=4)
    play_cards(lt, 1, mistake=True)
    board = Board(room)
    first = board.room_state()["tables"][0]["last_mistake"]
    assert first is not None and first["level"] == 1
    play_levels(lt, 1)  # the level is cleared and the next dealt
    assert lt.table.game.level == 2
    assert table_snapshot_mistake(room) is None  # the level's own index has forgotten it
    assert board.room_state()["tables"][0]["last_mistake"] == first


def table_snapshot_mistake(room: LocalClass) -> object:
    return room.snapshot()["tables"][0]["last_mistake"]


def test_after_the_end_of_the_lesson_nothing_is_stuck() -> None:
    room = _class()
    room.tables[0].chairs[1].connected = False  # type: ignore[union-attr]
    board = Board(room)
    assert board.room_state()["tables"][0]["stuck"]["reason"] == "offline"
    board.receive({"type": "end"})
    state = board.room_state()
    assert state["ended"] is True
    assert [t["stuck"] for t in state["tables"]] == [None, None, None]


def test_a_seat_left_in_the_middle_of_a_game_is_stuck_at_once() -> None:
    room = _class()
    room.tables[0].chairs[1] = None  # Bas moved away: the table still waits for seat 2's Ready
    room.tables[0].ready = {0, 2}
    room.tables[0].waiting_for = lambda: [1]  # type: ignore[method-assign]  # as the server says
    table = Board(room).room_state()["tables"][0]
    assert table["seats"][1]["kind"] == "empty"
    assert table["stuck"] == {"reason": "empty", "seats": [1]}


def test_pupils_reading_level_cleared_are_not_stuck() -> None:
    """ "Level gehaald" is the pupils' turn (they press Next level), however long it takes
    (issue 24): only a level with no card for a minute is stuck."""
    from classroom_harness import play_cards

    room = LocalClass()
    lt = room.add_table(["Anna", "Bas", "Cem"], seed=1)
    play_cards(lt, 1000)
    assert lt.table.phase == "cleared"
    clock = Clock()
    board = Board(room, now=clock)
    board.state()
    clock.t += 10 * STUCK_SECONDS
    assert board.room_state()["tables"][0]["stuck"] is None


def test_the_dashboard_reads_its_bundle_from_the_packages_static_folder() -> None:
    """classroom/dashboard.py lives one folder below the package's ``static/`` (where
    ``npm run build`` writes dashboard.js, beside the widget's bundle)."""
    static = Path(mindwidget.__file__).resolve().parent / "static"
    assert static == dashboard_module._STATIC
