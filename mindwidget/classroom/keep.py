"""Keeping a `Classroom`: its journal, a class resumed, the re-run cell.

* `Keeper` is one class server's journal: in a new class it picks a code no
  journal of the data folder has, writes the header and says where the file
  is; resuming, it reads the latest class with a pupil (or the one named),
  and `Room.restore` rebuilds it; it attaches the `record.Recorder` to the room
  (``Room.recorder``, ``Room.commit``), and at the end writes the last entries
  (a class nobody joined leaves no file).
* `rerun`: a second ``Classroom(...)`` on the loop of a running one (the
  notebook's cell run again) gives back the running class, saying so in one
  line, rather than a second class or ``OSError: Address already in use``.
  A call that names another port (``port=0``: any free one) asks for another
  class on the same loop: a host serving several classes in one process.
* After a kernel restart the next new class says, in one line, that a recent
  class can be resumed and how (`RECENT_S`).

The lines are the teacher's, in the class's language (``locales/class``).
"""

from __future__ import annotations

import asyncio
import secrets
import weakref
from pathlib import Path
from typing import Any, Protocol

from . import journal
from .journal import KEEP_DAYS, Journal
from .record import Recorder, Restored, restore
from .room import Room
from .words import say

__all__ = ["RECENT_S", "Keeper", "rerun"]

#: A class changed within this many seconds is offered for resuming at the next start.
RECENT_S = 12 * 3600.0


class _Served(Protocol):
    code: str
    port: int
    address: str
    _closed: bool
    _keeper: Keeper

    @property
    def pupils(self) -> dict[str, Any]: ...
    @property
    def lang(self) -> str: ...
    def stop(self) -> None: ...


_RUNNING: dict[asyncio.AbstractEventLoop, _Served] = {}
#: every class served in this process (forgotten once nothing else holds it)
_SERVED: weakref.WeakSet[Any] = weakref.WeakSet()


def rerun(resume: object, port: object = None) -> _Served | None:
    """The class this event loop serves already (None: none, another class asked for
    by another ``port``, or one that gives way: ``resume`` asked while the running
    class has no pupil, which then stops)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    old = _RUNNING.get(loop)
    if old is None or old._closed:
        return None
    if port is not None and port != old.port:
        return None  # another class beside it (a host of several classes)
    if resume and not old.pupils:
        old.stop()
        return None
    print(say("keep_running", old.lang, code=old.code, address=old.address, n=len(old.pupils)))
    return old


def serving(room: _Served) -> None:
    """``room`` serves on this loop now (a re-run cell gets it back)."""
    _RUNNING[asyncio.get_running_loop()] = room
    _SERVED.add(room)


def running() -> list[Any]:
    """Every class served in this process and not stopped (`lesson.kit.Bet` asks
    its pupils when there is exactly one)."""
    return [c for c in list(_SERVED) if not c._closed]


def folder_of(data: str | Path | bool | None) -> Path | None:
    """The data folder: ``data``, or the user's (None or True), or none (False)."""
    if data is False:
        return None
    if data is None or data is True:
        return journal.data_dir()
    if not isinstance(data, (str, Path)):
        raise ValueError(
            f"data must be a folder, None (the user's data folder) or False, not {data!r}."
        )
    return Path(data)


class Keeper:
    """One class server's journal (none with ``data=False``)."""

    def __init__(self, data: str | Path | bool | None, resume: bool | str) -> None:
        self.folder = folder_of(data)
        self.named = data not in (None, True, False)
        self.back: Restored | None = None
        self.path: Path | None = None
        self.recorder: Recorder | None = None
        if not resume:
            return
        if self.folder is None:
            raise ValueError("resume needs a data folder: leave data out (the user's) or name one.")
        if resume is True:
            info = journal.resumable(self.folder)
        else:
            info = next((c for c in journal.classes(self.folder) if c.code == resume), None)
        if info is None and resume is not True:
            named = journal.journal_path(self.folder, resume)
            if named.exists():  # not listed: damaged, foreign or too new; read says which
                journal.read(named)
        if info is None:
            what = "no class with a pupil" if resume is True else f"no class {resume}"
            raise ValueError(
                f"{self.folder} holds {what} to resume; without resume a new class starts."
            )
        header, entries = journal.read(info.path)
        self.back = restore(info.path, header, entries)
        self.path = info.path

    def options(self, given: dict[str, Any]) -> dict[str, Any]:
        """The room's options: the journal's when resuming, else ``given``."""
        if self.back is None:
            return given
        kept = {k: v for k, v in self.back.options.items() if k != "lan"}
        return {**given, **kept}

    def port(self, port: int | None) -> int | None:
        """The port to serve: ``port``, or the resumed class's."""
        return self.back.port if port is None and self.back is not None else port

    def lan(self, lan: bool) -> bool:
        return bool(lan or (self.back is not None and self.back.options.get("lan")))

    def attach(self, room: Room, port: int, lan: bool) -> None:
        """Open the journal (a new one, or the resumed class's), bring a resumed class
        back into ``room``, and record from now on. Says where the journal is."""
        if self.folder is None:
            return
        if self.back is not None:
            assert self.path is not None
            book = Journal.open(self.path)
            self.recorder = Recorder(book, room)
            self.recorder.known(self.back)
            room.restore(self.back)
            print(say("keep_resumed", room.lang, code=room.code, n=len(room.pupils)))
        else:
            self._offer(room.lang)
            journal.prune(self.folder)
            taken = journal.codes(self.folder)
            while room.code in taken:
                room.code = f"{secrets.randbelow(10_000):04d}"
            options = {
                "size": room.size,
                "bots": room.bots,
                "tempo": room.tempo,
                "lang": room.lang,
                "same_deal": room.same_deal,
                "seed": room.seed,
                "grace": room.grace,
                "lan": bool(lan),
            }
            header = {
                "code": room.code,
                "teacher_token": room.teacher_token,
                "port": port,
                "options": options,
            }
            book = Journal.create(self.folder, room.code, header)
            self.recorder = Recorder(book, room)
        self.path = book.path
        room.recorder = self.recorder
        room.commit = self.recorder.before_send
        print(say("keep_where", room.lang, path=str(book.path), days=KEEP_DAYS, code=room.code))

    def _offer(self, lang: str) -> None:
        """A recent class that did not end can be resumed: say so, and how."""
        assert self.folder is not None
        info = journal.resumable(self.folder)
        if info is None or info.ended or info.age() > RECENT_S:
            return
        data = f"data={str(self.folder)!r}, " if self.named else ""
        flag = f" --data {self.folder}" if self.named else ""
        minutes = max(1, round(info.age() / 60))
        print(
            say(
                "keep_offer",
                lang,
                code=info.code,
                n=info.pupils,
                minutes=minutes,
                call=f"Classroom({data}resume=True)",
                command=f"mindwidget class{flag} --resume",
            )
        )

    def writes(self, path: Path) -> bool:
        """Whether this server writes the journal at ``path`` now."""
        return self.recorder is not None and self.path is not None and self.path == path

    def stop(self, room: Room) -> None:
        """The class ended: the last entries written, the file closed (a class that no
        pupil joined leaves none)."""
        if self.recorder is None:
            return
        recorder, self.recorder = self.recorder, None
        try:
            recorder.ended()
            recorder.before_send()
        finally:
            recorder.journal.close()
        room.recorder = None
        room.commit = None
        if not room.pupils and self.back is None and self.folder is not None:
            journal.forget(self.folder, room.code)


def forget(code: str, data: str | Path | None = None) -> Path:
    """Delete class ``code``'s journal from ``data`` (default: the user's data folder);
    refused while this process serves that class."""
    folder = folder_of(data)
    assert folder is not None
    path = journal.journal_path(folder, code)
    for room in _RUNNING.values():
        if not room._closed and room._keeper.writes(path):
            raise ValueError(f"class {code} is running here: stop() it first, then forget it.")
    journal.forget(folder, code)
    return path
