"""A class journal of an older version is upgraded when it is opened, and resumes.

``tests/fixtures/journal-v1/`` holds a journal written by mindwidget's journal
version 1 (by ``tools/make_journal_fixture.py``, at the last commit of that
version) and what its class was when the process stopped (``expected.json``).
Upgraded, it must resume as that class, with every row it held, in the schema a
new journal has; an upgrade is one transaction; a newer journal is refused.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mindwidget.classroom import journal as J
from mindwidget.classroom.keep import Keeper
from mindwidget.classroom.room import ManualTimers, Room

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "journal-v1"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())


def _copy(folder: Path) -> Path:
    (source,) = FIXTURE.glob("class-*.sqlite3")
    target = folder / source.name
    shutil.copyfile(source, target)
    return target


def _rows(path: Path) -> tuple[list[Any], list[Any]]:
    with sqlite3.connect(path) as conn:
        header = conn.execute("SELECT key, value FROM header ORDER BY key").fetchall()
        entries = conn.execute("SELECT seq, at, kind, data FROM entries ORDER BY seq").fetchall()
    conn.close()
    return header, entries


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _schema(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        conn.close()
    return [(t, n, " ".join(str(s).split())) for t, n, s in rows]


def test_the_fixture_is_a_version_1_journal() -> None:
    (path,) = FIXTURE.glob("class-*.sqlite3")
    assert _version(path) == 1 and J.VERSION > 1
    assert [n for _, n, _ in _schema(path) if not n.startswith("sqlite_")] == ["entries", "header"]


def test_a_version_1_journal_is_listed_as_it_is(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    before = path.read_bytes()
    (info,) = J.classes(tmp_path)
    assert (info.code, info.pupils, info.ended) == (EXPECTED["code"], 5, False)
    assert J.resumable(tmp_path) == info
    assert _version(path) == 1 and path.read_bytes() == before  # listing writes nothing


def test_a_version_1_journal_upgrades_resumes_and_loses_nothing(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    header_rows, entry_rows = _rows(path)
    assert len(entry_rows) == EXPECTED["entries"]

    keeper = Keeper(tmp_path, True)  # reads it: upgraded first
    assert _version(path) == J.VERSION
    room = Room(ManualTimers(start=5.0), **keeper.options({}))
    keeper.attach(room, keeper.port(None) or 0, False)
    try:
        # the class as it was
        assert (room.code, room.teacher_token) == (EXPECTED["code"], EXPECTED["teacher_token"])
        assert (room.lang, room.seed, room.locked) == ("nl", EXPECTED["seed"], True)
        pupils = {p.id: [p.name, p.token] for p in room.pupils.values()}
        assert pupils == EXPECTED["pupils"]
        for t in room.tables:
            was = EXPECTED["tables"][str(t.id)]
            chairs = {str(s): (p.id if p else None) for s, p in t.chairs.items()}
            assert chairs == was["chairs"] and sorted(t.bot_seats) == was["bots"]
            assert t.table is not None
            actions = t.table.game.actions
            if was["phase"] == "play":  # a level in play comes back stopped
                assert list(actions[:-1]) == was["actions"] and actions[-1]["action"] == "stop"
                assert t.table.phase == "stopped"
            else:
                assert list(actions) == was["actions"] and t.table.phase == was["phase"]
        # the resumed class writes on in the same file, after every old row
        room.before_send()
        keeper.recorder.journal.commit()  # type: ignore[union-attr]
    finally:
        keeper.recorder.journal.close()  # type: ignore[union-attr]
    header_after, entries_after = _rows(path)
    assert header_after == header_rows
    assert entries_after[: len(entry_rows)] == entry_rows
    assert len(entries_after) > len(entry_rows)  # the stop of the resumed level, at least
    # the upgraded file is what a new journal of this version is
    fresh = J.Journal.create(tmp_path / "new", "1234", {"code": "1234"})
    fresh.close()
    assert _schema(path) == _schema(fresh.path)
    # and it resumes again, as any journal of this version
    again = Keeper(tmp_path, True)
    assert again.back is not None and again.back.code == EXPECTED["code"]


def test_the_listing_uses_the_index_of_version_2(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    assert J.upgrade(path) == 1 and J.upgrade(path) == J.VERSION  # the second: nothing to do
    conn = sqlite3.connect(path)
    try:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM entries WHERE kind = 'pupil'"
        ).fetchall()
    finally:
        conn.close()
    assert "entries_listed" in str(plan), plan
    (info,) = J.classes(tmp_path)
    assert (info.pupils, info.ended) == (5, False)


def test_an_upgrade_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A later version whose second step fails: the first step's change is undone too,
    and the file is the version-1 journal it was."""
    path = _copy(tmp_path)
    before = _schema(path), _rows(path)

    def to_3(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE notes (x TEXT)")
        conn.execute("INSERT INTO no_such_table VALUES (1)")

    monkeypatch.setattr(J, "VERSION", 3)
    monkeypatch.setattr(J, "UPGRADES", {1: J.UPGRADES[1], 2: to_3})
    with pytest.raises(J.JournalError, match="from version 1 to 3 failed") as caught:
        J.read(path)
    assert str(path) in str(caught.value)
    assert _version(path) == 1 and (_schema(path), _rows(path)) == before


def test_a_journal_of_a_newer_mindwidget_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {J.VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    for read in (J.read, J.Journal.open, J.upgrade):
        with pytest.raises(J.JournalError) as caught:
            read(path)
        said = str(caught.value)
        assert f"journal version {J.VERSION + 1}" in said and f"1 to {J.VERSION}" in said
        assert "pip install --upgrade mindwidget" in said and str(path) in said
    assert J.classes(tmp_path) == []  # not offered for resuming
    # resuming it by its code says why it cannot, not that there is no such class
    with pytest.raises(J.JournalError, match="pip install --upgrade mindwidget"):
        Keeper(tmp_path, EXPECTED["code"])
    assert path.read_bytes() == before
