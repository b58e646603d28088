"""Write the version-1 class journal that tests/classroom/test_journal_upgrade.py upgrades.

    PYTHONPATH=$PWD .venv/bin/python tools/make_journal_fixture.py

It was run once, at commit 21bbe4b (the last with journal version 1), and its
output is kept: ``tests/fixtures/journal-v1/class-<code>.sqlite3`` and, beside it,
``expected.json`` (what the class was when its process "died": pupils with their
seat tokens, each table's seats, bots and game). A later tree writes a later
version, so this script refuses to run unless `journal.VERSION` is 1: to make
the file again, check out that commit (``git worktree add /tmp/v1 21bbe4b``) and
run it there.

The class: five pupils join a class of tables of three in Dutch; table 2 gets a
bot and starts; Eva leaves (a bot takes her seat); table 1 plays until level 2
is under way; the class is locked. No stop and no end are written: the process
dies in the middle of a level, which is what a resume is for.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "journal-v1"


class Link:
    """A pupil page's connection as the room sees it (frames kept, nothing sent)."""

    def __init__(self, address: str) -> None:
        self.pupil: Any = None
        self.lang = "nl"
        self.address = address
        self.fresh = True
        self.frames: list[dict[str, Any]] = []
        self.closed_with: str | None = None

    def send(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)

    def dirty(self) -> None:
        pass

    def bye(self, key: str) -> None:
        self.closed_with = key


def main() -> None:
    from mindwidget.classroom import journal
    from mindwidget.classroom.inbox import parse
    from mindwidget.classroom.keep import Keeper
    from mindwidget.classroom.room import ManualTimers, Room

    if journal.VERSION != 1:
        sys.exit(f"this tree writes journal version {journal.VERSION}; run this at commit 21bbe4b.")

    def say(room: Room, link: Link, msg: dict[str, Any]) -> None:
        room.receive(link, parse(json.dumps(msg)))
        room.before_send()

    folder = Path(tempfile.mkdtemp())
    timers = ManualTimers(start=50.0)
    room = Room(timers, seed=11, size=3, lang="nl")
    keeper = Keeper(folder, False)
    keeper.attach(room, 8765, False)
    links = [Link(f"10.0.0.{i}") for i in range(5)]
    for link, name in zip(links, ["Ana", "Ben", "Cas", "Dee", "Eva"], strict=True):
        say(room, link, {"type": "join", "code": room.code, "name": name})
    room.give_to_bot(2, 2)
    room.start_table(2)
    room.remove("p5")
    room.before_send()
    t = room.tables[0]
    for _ in range(60):
        table = t.table
        assert table is not None
        if table.phase == "play" and table.game.level == 2 and table.game.pile:
            break
        timers.advance(timers.now() + 0.7)
        room.before_send()
        by_seat = {k.pupil.seat: k for k in links[:3] if k.pupil and k.pupil.table_id == 1}
        if table.phase in ("ready", "stopped"):
            for link in by_seat.values():
                say(room, link, {"type": "ready"})
        elif table.phase == "cleared":
            say(room, by_seat[0], {"type": "next_level"})
        elif table.phase == "play":
            hands = table.game.hands
            seat = min((s for s in by_seat if hands[s]), key=lambda s: hands[s][0], default=None)
            if seat is not None:
                say(room, by_seat[seat], {"type": "play"})
    else:
        sys.exit("table 1 did not reach level 2")
    room.lock()
    room.before_send()
    expected = {
        "made_with": "tools/make_journal_fixture.py at commit 21bbe4b (journal version 1)",
        "code": room.code,
        "teacher_token": room.teacher_token,
        "lang": room.lang,
        "seed": room.seed,
        "locked": room.locked,
        "pupils": {p.id: [p.name, p.token] for p in room.pupils.values()},
        "tables": {
            str(t.id): {
                "chairs": {str(s): (p.id if p else None) for s, p in t.chairs.items()},
                "bots": sorted(t.bot_seats),
                "actions": t.table.game.actions if t.table else None,
                "phase": t.table.phase if t.table else None,
            }
            for t in room.tables
        },
    }
    assert keeper.recorder is not None and keeper.path is not None
    keeper.recorder.journal.close()  # the last connection: SQLite folds the WAL into the file
    path = keeper.path
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        expected["entries"] = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    assert version == 1, version
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("class-*.sqlite3*"):
        old.unlink()
    shutil.copyfile(path, OUT / path.name)
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(folder)
    print(
        f"wrote {OUT / path.name} ({(OUT / path.name).stat().st_size:,} bytes, "
        f"{expected['entries']} entries) and expected.json"
    )


if __name__ == "__main__":
    main()
