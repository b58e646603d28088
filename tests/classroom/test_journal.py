"""The class journal (issue 25): one SQLite file per class, read back in order,
listed, forgotten, pruned; a damaged file is a clear `JournalError`, never a crash."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindwidget.classroom import journal as J
from mindwidget.classroom.record import Recorder, restore
from mindwidget.classroom.room import ManualTimers
from mindwidget.classroom.tables import ClassTable, Pupil
from mindwidget.refusal import Refused
from mindwidget.rules import RuleError

HEADER = {
    "code": "4821",
    "teacher_token": "t" * 32,
    "port": 8765,
    "options": {"size": 3, "bots": "human", "tempo": "people", "lang": "nl", "seed": 7},
}


def test_entries_come_back_in_order_once_committed(tmp_path: Path) -> None:
    j = J.Journal.create(tmp_path, "4821", HEADER)
    before = time.time()
    for i in range(5):
        j.append("act", {"table": 1, "i": i})
    assert J.read(j.path)[1] == []  # buffered: nothing is in the file before the commit
    assert j.commit() == 5
    j.append("lock", {"locked": True})
    j.close()  # commits what is buffered
    header, entries = J.read(j.path)
    assert header["code"] == "4821" and header["teacher_token"] == "t" * 32
    assert [e.get("i") for e in entries] == [0, 1, 2, 3, 4, None]
    assert [e["kind"] for e in entries] == ["act"] * 5 + ["lock"]
    assert all(before <= e["at"] <= time.time() for e in entries)


def test_wal_and_normal_sync_and_private_file(tmp_path: Path) -> None:
    j = J.Journal.create(tmp_path / "data", "1234", HEADER | {"code": "1234"})
    assert j._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert j.path == tmp_path / "data" / "class-1234.sqlite3"
    assert j.path.stat().st_mode & 0o077 == 0  # only the teacher's user reads it
    with pytest.raises(FileExistsError, match="1234"):
        J.Journal.create(tmp_path / "data", "1234", HEADER)
    j.close()


def test_a_reopened_journal_appends_after_the_old_entries(tmp_path: Path) -> None:
    j = J.Journal.create(tmp_path, "4821", HEADER)
    j.append("end", {})
    j.close()
    again = J.Journal.open(j.path)
    again.append("lock", {"locked": False})
    again.close()
    assert [e["kind"] for e in J.read(j.path)[1]] == ["end", "lock"]


def test_an_entry_is_bounded_and_finite(tmp_path: Path) -> None:
    j = J.Journal.create(tmp_path, "4821", HEADER)
    with pytest.raises(ValueError, match="at most"):
        j.append("note", {"x": "a" * (J.MAX_ENTRY_CHARS + 1)})
    with pytest.raises(ValueError):
        j.append("act", {"t": float("nan")})
    assert j.pending == 0
    j.close()


def test_classes_forget_and_prune(tmp_path: Path) -> None:
    for code in ("1111", "2222", "3333"):
        J.Journal.create(tmp_path, code, HEADER | {"code": code}).close()
    (tmp_path / "class-9999.sqlite3").write_bytes(b"not a journal")
    (tmp_path / "notes.txt").write_text("hello")
    now = time.time()
    os.utime(tmp_path / "class-1111.sqlite3", (now - 40 * 86400, now - 40 * 86400))
    os.utime(tmp_path / "class-2222.sqlite3", (now - 100, now - 100))
    for p in tmp_path.glob("*-wal"):
        os.utime(p, (now - 40 * 86400, now - 40 * 86400))
    listed = J.classes(tmp_path)
    assert [c.code for c in listed] == ["3333", "2222", "1111"]  # the latest change first
    assert J.resumable(tmp_path) is None  # no pupil joined any of them
    again = J.Journal.open(tmp_path / "class-2222.sqlite3")
    again.append("pupil", {"id": "p1", "name": "Ana", "lang": "nl", "token": "x"})
    again.append("end", {})
    again.close()
    os.utime(tmp_path / "class-2222.sqlite3", (now - 100, now - 100))
    found = J.resumable(tmp_path)
    assert found is not None and (found.code, found.pupils, found.ended) == ("2222", 1, True)
    assert J.codes(tmp_path) >= {"1111", "2222", "3333", "9999"}
    assert J.prune(tmp_path, days=J.KEEP_DAYS) == ["1111"]
    assert not list(tmp_path.glob("class-1111*"))
    assert J.forget(tmp_path, "2222") == tmp_path / "class-2222.sqlite3"
    assert not list(tmp_path.glob("class-2222*"))  # the WAL and its index too
    with pytest.raises(ValueError, match="no class 5555.*3333"):
        J.forget(tmp_path, "5555")
    with pytest.raises(ValueError, match="up to 8 digits"):
        J.forget(tmp_path, "../x")
    assert (tmp_path / "notes.txt").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME is the Linux convention")
def test_the_default_folder_is_the_users_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/srv/somewhere")
    assert J.data_dir() == Path("/srv/somewhere/mindwidget")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert J.data_dir() == Path.home() / ".local" / "share" / "mindwidget"


@pytest.mark.parametrize(
    "damage, problem",
    [
        (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 50), "not a class journal"),
        (lambda p: p.write_bytes(os.urandom(4096)), "not a class journal"),
        (
            lambda p: _sql(p, "PRAGMA user_version = 7"),
            "newer mindwidget \\(journal version 7\\); this mindwidget reads versions 1 to 2",
        ),
        (lambda p: _sql(p, "UPDATE header SET value='x' WHERE key='format'"), "not a class"),
        (lambda p: _sql(p, "UPDATE header SET value='[1' WHERE key='class'"), "JSON"),
        (lambda p: _sql(p, "UPDATE entries SET data='{\"a\":' WHERE seq=1"), "entry #1"),
        (lambda p: _sql(p, "UPDATE entries SET data='[1]' WHERE seq=1"), "not an object"),
        (lambda p: _sql(p, "UPDATE entries SET at='soon' WHERE seq=1"), "no kind or time"),
        (lambda p: _sql(p, "DROP TABLE entries"), "cannot read its entries"),
    ],
)
def test_a_damaged_journal_says_which_file_and_what(
    tmp_path: Path, damage: Any, problem: str
) -> None:
    j = J.Journal.create(tmp_path, "4821", HEADER)
    j.append("lock", {"locked": True})
    j.close()
    damage(j.path)
    with pytest.raises(J.JournalError, match=problem) as caught:
        J.read(j.path)
    assert str(j.path) in str(caught.value)
    assert isinstance(caught.value, RuleError)
    assert len(J.classes(tmp_path)) <= 1  # listing the folder never raises


def _sql(path: Path, statement: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute(statement)
    conn.commit()
    conn.close()


# ------------------------------------------------------------ a class written and read back
def _class(tmp_path: Path) -> tuple[Any, Recorder, ManualTimers]:
    timers = ManualTimers()
    pupils = {
        f"p{i}": Pupil(id=f"p{i}", name=n, lang="nl", token=f"tok{i}" * 6, address="1.2.3.4")
        for i, n in enumerate(("Ana", "Ben", "Cas", "Dee"), start=1)
    }

    def seed_for(table_id: int) -> Any:
        return lambda game: 1000 * table_id + game

    tables = [
        ClassTable(id=k, size=3, bots="human", tempo="people", seed_for=seed_for(k), timers=timers)
        for k in (1, 2)
    ]
    room = SimpleNamespace(pupils=pupils, tables=tables, locked=False)
    tables[0].sit(pupils["p1"], 0)
    tables[0].sit(pupils["p2"], 1)
    tables[1].sit(pupils["p3"], 0)
    recorder = Recorder(J.Journal.create(tmp_path, "4821", HEADER), room)
    return room, recorder, timers


def _play_a_while(room: Any, recorder: Recorder) -> None:
    t1, t2 = room.tables
    t1.start()
    for _ in range(14):  # levels of the pupils' plays and the bots' in between
        table = t1.table
        phase = table.phase
        if phase == "play":
            seat = next((s for s in (0, 1) if table.game.hands[s]), None)
            if seat is None:
                table.tick(table.now + 30.0)
            else:
                with contextlib.suppress(Refused):  # a bot's star proposal came first
                    table.play(seat, t=table.now + 0.5)
        elif phase == "vote":
            table.vote(True, seat=0)
            table.vote(True, seat=1)
        elif phase == "cleared":
            table.next_level()
        elif phase in ("ready", "stopped"):
            table.ready(table.now)
        else:
            break
        recorder.sync(room)
        recorder.commit()
    t2.to_bot(1)
    t2.start()
    t2.table.ready(0.0)
    t2.table.tick(30.0)
    recorder.dirty = True
    recorder.sync(room)
    room.locked = True
    recorder.dirty = True
    recorder.sync(room)
    recorder.commit()


def test_a_class_comes_back_from_its_journal(tmp_path: Path) -> None:
    room, recorder, loop = _class(tmp_path)
    _play_a_while(room, recorder)
    del room.pupils["p4"]  # never seated; the teacher took them out
    recorder.dirty = True
    recorder.sync(room)
    recorder.commit()
    header, entries = J.read(recorder.journal.path)
    back = restore(recorder.journal.path, header, entries)
    assert (back.code, back.teacher_token, back.port) == ("4821", "t" * 32, 8765)
    assert set(back.pupils) == {"p1", "p2", "p3"} and back.count == 4
    assert back.pupils["p2"] == {"id": "p2", "name": "Ben", "lang": "nl", "token": "tok2" * 6}
    assert back.locked is True
    for t in room.tables:
        r = back.tables[t.id]
        assert (r.size, r.bots, r.games) == (t.size, sorted(t.bot_seats), t.games)
        assert r.seats == [None if p is None else p.id for p in t.chairs.values()]
        assert r.game == t.table.game  # replayed from the actions: the same game
        assert r.game is not None and r.game.actions == t.table.game.actions
        assert r.held == t.seat_history() and r.held  # who held each seat when
    assert back.tables[1].game.action_count > 4  # the bots' plays are there too


def test_who_held_each_seat_comes_back_for_each_game(tmp_path: Path) -> None:
    """A seat's holders during the game (issue 24) are in the journal, and a new
    game's history (from its deal) replaces the last game's, not one entry late."""
    room, recorder, _ = _class(tmp_path)
    _play_a_while(room, recorder)
    t1 = room.tables[0]
    t1.sit(room.pupils["p4"], 2)  # Dee takes the bot's seat mid-game
    recorder.dirty = True
    recorder.sync(room)
    recorder.commit()
    path = recorder.journal.path
    assert [h["name"] for h in t1.seat_history() if h["seat"] == 2] == ["Bot 3", "Dee"]
    assert restore(path, *J.read(path)).tables[1].held == t1.seat_history()
    t1.table.reset(77)  # the table's New game (no seat changes: only its actions noted)
    recorder({"kind": "act", "table": 1})
    recorder.sync(room)
    recorder.commit()
    held = restore(path, *J.read(path)).tables[1].held
    assert held == t1.seat_history()  # one holder a seat, from the deal
    assert [h["name"] for h in held] == ["Ana", "Ben", "Dee"]


def test_a_damaged_action_or_entry_is_a_journal_error(tmp_path: Path) -> None:
    room, recorder, loop = _class(tmp_path)
    _play_a_while(room, recorder)
    path = recorder.journal.path
    header, entries = J.read(path)
    acts = [i for i, e in enumerate(entries) if e["kind"] == "act"]
    for bad in (
        {"kind": "act", "table": 1, "a": {"action": "play", "player": 0, "t": -5.0}},
        {"kind": "act", "table": 1, "a": {"action": {}}},
        {"kind": "act", "table": 9, "a": {}},
        {
            "kind": "seats",
            "table": 1,
            "size": 3,
            "seats": ["p77", None, None],
            "bots": [],
            "games": 1,
        },
        {"kind": "pupil", "id": "x", "name": "A", "lang": "nl", "token": "t"},
        {
            "kind": "seats",
            "table": 1,
            "size": 3,
            "seats": [None] * 3,
            "bots": [],
            "games": 1,
            "held": "Ana",
        },
        {
            "kind": "seats",
            "table": 1,
            "size": 3,
            "seats": [None] * 3,
            "bots": [],
            "games": 1,
            "held": [{"seat": 5, "kind": "bot", "name": "Bot 6", "from": 0, "pupil": None}],
        },
        {
            "kind": "seats",
            "table": 1,
            "size": 3,
            "seats": [None] * 3,
            "bots": [],
            "games": 1,
            "held": [{"seat": 0, "kind": "cat", "name": "Ana", "from": 0, "pupil": None}],
        },
        {"kind": "warp"},
    ):
        damaged = list(entries)
        damaged[acts[2]] = bad
        with pytest.raises(J.JournalError, match=f"entry {acts[2] + 1} .*damaged") as caught:
            restore(path, header, damaged)
        assert str(path) in str(caught.value)
    with pytest.raises(J.JournalError, match="header is damaged"):
        restore(path, {**header, "options": {"colour": "red"}}, entries)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_fuzz_a_journal_file_damaged_anywhere(tmp_path_factory: Any, data: Any) -> None:
    """Bytes of a real journal overwritten or cut at random: reading and restoring it
    gives the class or a `JournalError`, never another exception."""
    folder = tmp_path_factory.mktemp("fuzz")
    room, recorder, loop = _class(folder)
    _play_a_while(room, recorder)
    recorder.journal.close()
    path = recorder.journal.path
    raw = bytearray(path.read_bytes())
    for p in path.parent.glob("*-wal"):
        p.unlink()  # checkpointed at close: the file alone
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    for _ in range(data.draw(st.integers(1, 8))):
        if raw:
            at = data.draw(st.integers(0, len(raw) - 1))
            raw[at] = data.draw(st.integers(0, 255))
    path.write_bytes(bytes(raw))
    try:
        header, entries = J.read(path)
        restore(path, header, entries)
    except J.JournalError as error:
        assert str(path) in str(error)
    J.classes(folder)  # never raises
