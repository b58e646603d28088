"""Protocol tests of the class journal and resume (issue 25), in this process.

* A room written to its journal (through the room's seam, committed at the
  transport's once-per-loop-turn hook) comes back from it as it was: the same
  code, teacher token, pupils and seat tokens, seats, and every game replayed
  from its actions, a level in play stopped until Ready.
* The server writes no update that shows a play before the play is in the file.
* The re-run cell gives back the running class; a recent class is offered for
  resuming; a class can be forgotten; a damaged journal is a clear error.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom_harness import Client, Server  # noqa: E402
from serving import alone  # noqa: E402
from test_room import FakeLink  # noqa: E402

from mindwidget.classroom import Classroom, journal  # noqa: E402
from mindwidget.classroom import links as links_module  # noqa: E402
from mindwidget.classroom.inbox import parse  # noqa: E402
from mindwidget.classroom.keep import Keeper  # noqa: E402
from mindwidget.classroom.room import ManualTimers, Room  # noqa: E402


def _say(room: Room, link: FakeLink, msg: dict[str, Any]) -> None:
    room.receive(link, parse(json.dumps(msg)))
    room.before_send()  # the transport's hook, once per loop turn


def _kept_room(folder: Path, **options: Any) -> tuple[Room, ManualTimers, Keeper]:
    timers = ManualTimers(start=50.0)
    room = Room(timers, seed=11, **options)
    keeper = Keeper(folder, False)
    keeper.attach(room, 8765, False)
    return room, timers, keeper


def _resumed(folder: Path) -> tuple[Room, ManualTimers, Keeper]:
    keeper = Keeper(folder, True)
    timers = ManualTimers(start=5.0)  # a new process: its own clock
    room = Room(timers, **keeper.options({}))
    keeper.attach(room, keeper.port(None) or 0, False)
    return room, timers, keeper


def _play_until_stopped_in_level_two(room: Room, timers: ManualTimers, links: list[Any]) -> None:
    t = room.tables[0]
    assert t.table is not None
    for _ in range(40):
        phase = t.table.phase
        if phase == "play" and t.table.game.level == 2 and t.table.game.pile:
            return
        timers.advance(timers.now() + 0.7)
        room.before_send()
        by_seat = {link.pupil.seat: link for link in links if link.pupil.table_id == 1}
        if phase in ("ready", "stopped"):
            for link in by_seat.values():
                _say(room, link, {"type": "ready"})
        elif phase == "cleared":
            _say(room, by_seat[0], {"type": "next_level"})
        elif phase == "play":
            hands = t.table.game.hands
            seat = min((s for s in by_seat if hands[s]), key=lambda s: hands[s][0], default=None)
            if seat is not None:
                _say(room, by_seat[seat], {"type": "play"})
    raise AssertionError(f"table 1 did not reach level 2: {t.table!r}")


def test_a_room_comes_back_from_its_journal_as_it_was(tmp_path: Path) -> None:
    room, timers, keeper = _kept_room(tmp_path, size=3, lang="nl")
    log: list[Any] = []
    links = [FakeLink(log, f"10.0.0.{i}") for i in range(5)]
    for link, name in zip(links, ["Ana", "Ben", "Cas", "Dee", "Eva"], strict=True):
        _say(room, link, {"type": "join", "code": room.code, "name": name})
    room.give_to_bot(2, 2)  # Dee and Eva's table: a bot in the third seat, then started
    room.start_table(2)
    room.remove("p5")  # Eva leaves the class; a bot plays her seat at once (issue 24)
    room.before_send()
    _play_until_stopped_in_level_two(room, timers, links[:3])
    room.lock()
    room.before_send()
    game = room.tables[0].table.game.copy()  # type: ignore[union-attr]
    other = room.tables[1].table.game.copy()  # type: ignore[union-attr]
    assert room.tables[0].table.phase == "play"  # type: ignore[union-attr]
    seats = {t.id: dict(t.chairs) for t in room.tables}
    # the process dies here: nothing more is written (no stop, no end)

    back, _, again = _resumed(tmp_path)
    assert (back.code, back.teacher_token, back.locked) == (room.code, room.teacher_token, True)
    assert back.lang == "nl" and back.seed == room.seed and back.size == 3
    assert {p.id: (p.name, p.token) for p in back.pupils.values()} == {
        p.id: (p.name, p.token) for p in room.pupils.values()
    }
    assert all(not p.connected and p.left_at is not None for p in back.pupils.values())
    for t in back.tables:
        assert {s: (p.id if p else None) for s, p in t.chairs.items()} == {
            s: (p.id if p else None) for s, p in seats[t.id].items()
        }
    t1, t2 = back.tables
    assert t2.bot_seats == {1, 2} and t2.table is not None and t2.table.seats == (0,)
    assert t2.table.game == other  # every action replayed: the same game
    # the level in play stopped, hands on the table, in the first pupil's name
    assert t1.table is not None and t1.table.phase == "stopped"
    assert t1.table.game.actions[:-1] == game.actions
    assert t1.table.game.actions[-1]["action"] == "stop"
    assert t1.table.game.pile == game.pile and t1.table.game.lives == game.lives
    # Ana's page comes back with its seat token: her seat, her hand
    ana = FakeLink(log)
    _say(back, ana, {"type": "rejoin", "token": room.pupils["p1"].token})
    assert ana.frames[-1]["type"] == "welcome" and ana.pupil is back.pupils["p1"]
    assert back.table_of(ana.pupil) is t1 and ana.pupil.seat == 0
    # a new pupil gets a new id; nothing is numbered twice
    assert back._count == 5
    # the resumed class goes on in the same file: a second crash brings back the stop too
    third, _, _ = _resumed(tmp_path)
    assert third.tables[0].table.game == t1.table.game  # type: ignore[union-attr]
    assert third.tables[0].table.phase == "stopped"  # type: ignore[union-attr]
    for k in (keeper, again):
        k.recorder.journal.close()  # type: ignore[union-attr]


def test_a_play_is_in_the_journal_before_any_page_is_sent_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every update frame written to a pupil's socket shows no more actions of its
    table's game than the journal's file holds at that moment."""
    checked: list[int] = []
    late: list[str] = []
    write = links_module.PupilSocket._write

    def spy(self: Any, msg: dict[str, Any]) -> None:
        p = self.pupil
        if msg.get("type") == "update" and p is not None and p.table_id is not None:
            t = self.room.table(p.table_id)
            path = journal.journal_path(tmp_path, self.room.code)
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            rows = conn.execute("SELECT data FROM entries WHERE kind = 'act'").fetchall()
            conn.close()
            kept = sum(1 for (d,) in rows if json.loads(d)["table"] == t.id)
            shown = t.table.game.action_count if t.table is not None else 0
            checked.append(shown)
            if shown > kept:  # (one game per table here)
                late.append(f"{shown} actions shown, {kept} kept")
        write(self, msg)

    monkeypatch.setattr(links_module.PupilSocket, "_write", spy)
    server = Server(size=2, seed=4, data=tmp_path, tempo="quick")
    try:
        a, b = Client(server), Client(server)
        a.join(server.room.code, "Ana")  # type: ignore[union-attr]
        b.join(server.room.code, "Ben")  # type: ignore[union-attr]
        for c in (a, b):
            c.wait(lambda c: c.allowed("ready"), "Ready offered")
        for _ in range(300):  # each plays their lowest card when offered: levels and mistakes
            if max(checked, default=0) >= 8:
                break
            if not (_step(a) | _step(b)):
                a.wait(lambda _: _offered(a) or _offered(b), "something to do")
        assert max(checked) >= 8
    finally:
        server.stop()
    assert late == []


def _offered(c: Client) -> str | None:
    """What a pupil may do now of a play, Ready, the next level and a new game."""
    for action in ("play", "ready", "next_level", "new_game"):
        if c.allowed(action) and (action != "play" or c.view.get("hand")):
            return action
    return None


def _step(c: Client) -> bool:
    """Do what the pupil is offered, if anything, and wait for the answer."""
    n = len(c.received)
    action = _offered(c)
    if action is None:
        return False
    c.send({"type": action})
    c.wait(lambda c: len(c.received) > n, f"an answer to {action}")
    return True


def test_the_rerun_cell_gives_back_the_running_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def main() -> None:
        first = Classroom(data=tmp_path, lang="en")
        port = first.port
        again = Classroom(data=tmp_path, port=port)  # the same cell, run again
        assert again is first and again.port == port
        said = capsys.readouterr().out
        assert f"serves class {first.code} already" in said and "stop()" in said
        assert len(said.strip().splitlines()) == 2  # the journal's line, then this one
        other = Classroom(data=tmp_path, port=0)  # another port: a second class beside it
        assert other is not first and other.port != port and other.code != first.code
        other.stop()
        first.stop()
        fresh = Classroom(data=tmp_path, port=port)  # after stop(): a new class
        assert fresh is not first and fresh.code != first.code
        fresh.stop()

    alone(asyncio.run, main())
    assert journal.classes(tmp_path) == []  # nobody joined: no journal is left


def test_a_recent_class_is_offered_for_resuming_then_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = Server(size=2, seed=3, data=tmp_path, lang="nl")
    code, token = server.room.code, server.room.teacher_token  # type: ignore[union-attr]
    ana = Client(server)
    ana.join(code, "Ana")  # her seat token is in the file before her page has it
    info = journal.resumable(tmp_path)
    assert info is not None and info.code == code and info.pupils == 1 and not info.ended
    ana.close()

    def die() -> None:
        """The kernel restarts: the server writes nothing more and listens no more."""
        c = server.room
        assert c is not None
        c.room.recorder = c.room.commit = c._keeper.recorder = None
        c._server.stop()

    server.call(die)

    async def main() -> None:
        capsys.readouterr()
        fresh = Classroom(data=tmp_path, lang="nl")
        said = capsys.readouterr().out
        assert f"Klas {code}" in said and f"Classroom(data={str(tmp_path)!r}, resume=True)" in said
        assert f"mindwidget class --data {tmp_path} --resume" in said
        back = Classroom(data=tmp_path, resume=True)  # the empty new class gives way
        assert fresh._closed and back is not fresh
        assert (back.code, back.teacher_token, back.lang) == (code, token, "nl")
        assert [p.name for p in back.pupils.values()] == ["Ana"]
        assert "Klas" in capsys.readouterr().out
        with pytest.raises(ValueError, match="running here"):
            Classroom.forget(code, data=tmp_path)
        back.stop()
        assert Classroom.forget(code, data=tmp_path) == journal.journal_path(tmp_path, code)
        with pytest.raises(ValueError, match="no class to resume|no class with a pupil"):
            Classroom(data=tmp_path, resume=True)

    try:
        alone(asyncio.run, main())
    finally:
        server.stop()
    assert journal.classes(tmp_path) == []


def test_a_damaged_journal_is_a_clear_error_and_serves_nothing(tmp_path: Path) -> None:
    j = journal.Journal.create(tmp_path, "1234", {"code": "1234", "teacher_token": "x" * 20})
    j.append("pupil", {"id": "p1", "name": "Ana", "lang": "en", "token": "t" * 20})
    j.append("act", {"table": 7, "a": {"action": "play"}})
    j.close()

    async def main() -> None:
        with pytest.raises(journal.JournalError, match="class-1234.sqlite3.*(header|entry)"):
            Classroom(data=tmp_path, resume=True)
        with pytest.raises(ValueError, match="data must be a folder"):
            Classroom(data=3.5)  # type: ignore[arg-type]

    alone(asyncio.run, main())


def test_the_command_forgets_a_class_and_says_what_it_cannot_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mindwidget.cli import main

    assert alone(main, ["class", "--data", str(tmp_path), "--resume"]) == 1
    assert "holds no class with a pupil to resume" in capsys.readouterr().err
    journal.Journal.create(tmp_path, "4821", {"code": "4821", "teacher_token": "x"}).close()
    assert alone(main, ["class", "--data", str(tmp_path), "--forget", "4821"]) == 0
    assert "class-4821.sqlite3" in capsys.readouterr().out
    assert not list(tmp_path.iterdir())
    assert alone(main, ["class", "--data", str(tmp_path), "--forget", "4821"]) == 1
    assert "has no class 4821" in capsys.readouterr().err


def _who_played(room: Room, seat: int) -> dict[str, Any]:
    """What each view names as the holder of each card played so far at table 1, as
    ``seat``'s pupil, the teacher's `plays()` and the dashboard see it."""
    from mindwidget.classroom.roomdata import plays

    t = room.tables[0]
    state = t.sessions[seat].state()
    view = state["view"]
    points = {p["card"]: p.get("by") for p in state["live_trace"]["points"] if "card" in p}
    rows = plays(room)
    row = room.snapshot()["tables"][0]
    return {
        "board": list(zip(view["pile"], view.get("pile_names", view["pile"]), strict=True)),
        "aside": view.get("mistake_names"),
        "trace": points,
        "plays": sorted(zip(rows["card"], rows["name"], rows["kind"], strict=True)),
        "mistake": row["last_mistake"],
    }


def test_who_held_each_seat_comes_back_after_a_crash(tmp_path: Path) -> None:
    """Eva's mistake stays Eva's after she is moved out (a bot takes her seat), Finn
    takes the bot's seat, and the server dies: on the resumed boards, trace, plays()
    and dashboard the card is still hers, never Finn's (issues 24 and 25)."""
    room, timers, keeper = _kept_room(tmp_path, size=3)
    log: list[Any] = []
    links = [FakeLink(log, f"10.0.0.{i}") for i in range(4)]
    for link, name in zip(links, ["Ana", "Ben", "Eva", "Finn"], strict=True):
        _say(room, link, {"type": "join", "code": room.code, "name": name})
    t = room.tables[0]
    for link in links[:3]:
        _say(room, link, {"type": "ready"})
    assert t.table is not None and t.table.phase == "play"
    hands = t.table.game.hands
    eva = max(links[:3], key=lambda link: hands[link.pupil.seat][0])  # her card: a mistake
    seat = eva.pupil.seat
    card = hands[seat][0]
    _say(room, eva, {"type": "play"})
    assert t.table.index.last.get("mistake") is not None
    room.move(eva.pupil.id, 2, 1)  # a bot plays her seat at once
    room.before_send()
    room.move(links[3].pupil.id, 1, seat)  # Finn takes the bot's seat
    room.before_send()
    name = eva.pupil.name
    before = _who_played(room, seat)
    assert before["mistake"]["name"] == name
    assert dict(before["board"])[card] == name and before["trace"][card] == name
    assert (card, name, "person") in before["plays"]
    # the process dies here: nothing more is written

    back, _, again = _resumed(tmp_path)
    assert back.tables[0].chairs[seat].name == "Finn"  # type: ignore[union-attr]
    after = _who_played(back, seat)
    assert after["plays"] == before["plays"]
    assert after["mistake"] == before["mistake"]
    assert after["board"] == before["board"]
    assert {c: after["trace"][c] for c in before["trace"]} == before["trace"]
    for k in (keeper, again):
        k.recorder.journal.close()  # type: ignore[union-attr]


def test_a_port_in_use_is_said_in_the_classs_language(tmp_path: Path) -> None:
    """In a notebook the teacher reads the error itself (the command words its own)."""
    import errno
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        async def main() -> None:
            with pytest.raises(OSError, match=f"poort {port} is al in gebruik") as info:
                Classroom(lang="nl", port=port, data=tmp_path)
            assert info.value.errno == errno.EADDRINUSE
            assert "Classroom(port=N)" in str(info.value)

        alone(asyncio.run, main())
