"""A class plays The Mind together: the class server (`Classroom`, `mindwidget class`).

Pupils open the teacher's address on their laptops, tablets and phones, type
the class code and a name, and sit at tables of 2 to 4 with bots in the empty
seats. Each pupil's table is drawn by the notebook widget's own code, over a
WebSocket, with only their own hand; the server keeps every table's time.

* `server`: `Classroom`, the Tornado server on the running event loop;
* `tables`: the class's tables and pupils (seating, Ready for all, timers);
* `wire`: what a page may send, checked; the rate limit;
* `pages`: the HTML; `words`: the strings (``locales/class/``) and nicknames.
"""

from __future__ import annotations

from .server import BOTS, SIZES, Classroom

__all__ = ["BOTS", "SIZES", "Classroom", "serve"]


async def serve(**options: object) -> None:
    """Run a `Classroom` until cancelled (`mindwidget class`), printing where to go."""
    import asyncio

    room = Classroom(**options)  # type: ignore[arg-type]
    print(room.describe(), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        room.stop()
