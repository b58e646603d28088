"""A class plays The Mind together: the class server (`Classroom`, `mindwidget class`).

Pupils open the teacher's address on their laptops, tablets and phones, type
the class code and a name, and sit at tables of 2 to 4 with bots in the empty
seats. Each pupil's table is drawn by the notebook widget's own code, over a
WebSocket, with only their own hand; the server keeps every table's time.

* `room`: `Room`, the class's state and rules (pupils, seating, the
  teacher's commands, the snapshot), with no Tornado: a test or a journal
  drives it without sockets;
* `server`: `Classroom`, the Tornado server on the running event loop, which
  serves a `Room`; `links`: each pupil page's socket and the small pages;
* `tables`: the class's tables and pupils (seating, Ready for all, timers);
* `teacher`: the teacher's dashboard, its socket and the class's data;
* `inbox`: what a page may send, checked; the rate limit;
* `options`: the class's options (`ClassOptions`), declared and checked once;
* `seatview`: what a class table lays over each pupil's view of it;
* `journal`: the class's journal (one SQLite file per class); `record`: what
  it holds and the class it brings back; `keep`: a server's journal, resume
  and the re-run cell;
* `pages`: the HTML; `words`: the strings (``locales/class/``) and nicknames;
* `questions`: a question to every pupil's page (`Classroom.ask`) and its
  answers; `question_widget`: its display in the teacher's notebook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .options import BOTS, TABLE_SIZES, ClassOptions, Unpack

if TYPE_CHECKING:
    from .server import Classroom

__all__ = ["BOTS", "TABLE_SIZES", "Classroom", "serve"]


def __getattr__(name: str) -> Any:
    """`Classroom` is loaded on first use (PEP 562): the room needs no Tornado."""
    if name == "Classroom":
        from .server import Classroom

        return Classroom
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


async def serve(save: str | None = None, **options: Unpack[ClassOptions]) -> None:
    """Run a `Classroom` until cancelled (`mindwidget class`), printing where to go;
    at the end, the class's data to ``save`` (`Classroom.save`), if given."""
    import asyncio

    from ..i18n import say_in
    from .server import Classroom

    room = Classroom(**options)
    print(room.describe(), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        try:
            if save is not None:
                said = say_in("cli", "saved", room.lang, path=room.save(save))
                print(said, flush=True)
        finally:
            room.stop()
