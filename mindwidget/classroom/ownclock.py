""" "Jouw klok": each pupil's own clock, as the class server sends it to their page.

A pupil's page asks for it (``own_clock``) between levels and at the end of a game,
and gets it once more as the lesson ends (the page keeps it: `Room.end`). What is
computed is `mindwidget.classdata.clock` (Python decides; the page draws only what
it gets, `js/ownclock.js`); what is sent is `wire.OwnClock`:

* the pupil's own plays in this class (gap, wait, mistake), at every table they sat at;
* the class's median curve, only the bands resting on the plays of at least
  `classdata.BAND_PUPILS` pupils: a median of one or two others would be their waits;
* the pupil's spread (``cv``) and pace beside the class, or nothing with fewer plays
  than `classdata.CLOCK_MIN_PLAYS`.

Never another pupil's waits (`tests/classroom/test_ownclock.py`, and the browser test reads
every frame a page receives). The class's plays are computed once per change of
the class's games (`_plays`), however many pupils ask.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

from .. import classdata
from . import roomdata

if TYPE_CHECKING:
    import pandas as pd

    from .room import Room
    from .tables import Pupil

__all__ = ["ASK_S", "asked", "own_clock"]

#: A page that asks for its clock again within this many seconds gets the frame it got
#: (a page that asks in a loop costs the server one frame a second, however busy the class).
ASK_S = 1.0
#: Each pupil's latest answer: (server time, frame).
_ASKED: weakref.WeakKeyDictionary[Pupil, tuple[float, dict[str, Any]]] = weakref.WeakKeyDictionary()

#: The class's plays, per room, with the state of its games they were made of.
_CACHE: weakref.WeakKeyDictionary[Room, tuple[tuple[Any, ...], pd.DataFrame]] = (
    weakref.WeakKeyDictionary()
)


#: The frames made for the class's current state, per room: (state, {key: frame}).
_FRAMES: weakref.WeakKeyDictionary[Room, tuple[tuple[Any, ...], dict[Any, dict[str, Any]]]] = (
    weakref.WeakKeyDictionary()
)


def _state(room: Room) -> tuple[Any, ...]:
    """What the class's plays depend on: each table's game, its length and its seating."""
    out: list[Any] = []
    for t in room.tables:
        game = t.table.game if t.table is not None else None
        count = game.event_count if game is not None else 0
        out.append((t.id, id(game), count, len(t._held), len(t.earlier)))
    return tuple(out)


def _plays(room: Room) -> pd.DataFrame:
    """`roomdata.plays(room)`, made again only when a game or a seat changed."""
    key = _state(room)
    kept = _CACHE.get(room)
    if kept is not None and kept[0] == key:
        return kept[1]
    frame = roomdata.plays(room)
    _CACHE[room] = (key, frame)
    return frame


def _number(x: float) -> float | None:
    return round(float(x), 3) if math.isfinite(x) else None


def own_clock(room: Room, pupil: Pupil | None, ended: bool = False) -> dict[str, Any]:
    """The `wire.OwnClock` frame of ``pupil``: their own plays and the class's aggregate
    (None: the class's clock, every pupil's plays, for the teacher; ``name`` "").
    Made again only when the class's games changed (a dashboard asks at every update)."""
    key = (_state(room), None if pupil is None else pupil.id, pupil and pupil.name, ended)
    made = _FRAMES.get(room)
    if made is None or made[0] != key[0]:
        made = (key[0], {})
        _FRAMES[room] = made
    frame = made[1].get(key)
    if frame is None:
        frame = made[1][key] = _frame(room, pupil, ended)
    return dict(frame)


def asked(room: Room, pupil: Pupil, now: float) -> dict[str, Any]:
    """`own_clock` for a page that asked at server time ``now`` (at most one new frame a
    pupil every `ASK_S` seconds)."""
    last = _ASKED.get(pupil)
    if last is not None and 0 <= now - last[0] < ASK_S:
        return dict(last[1])
    frame = own_clock(room, pupil)
    _ASKED[pupil] = (now, frame)
    return frame


def _frame(room: Room, pupil: Pupil | None, ended: bool) -> dict[str, Any]:
    plays = _plays(room)
    mine = classdata.clock(plays, None if pupil is None else pupil.name)
    everyone = classdata.waits(plays)
    shown = classdata.curve(everyone, min_pupils=classdata.BAND_PUPILS)
    enough = mine.enough
    return {
        "type": "own_clock",
        "name": "" if pupil is None else pupil.name,
        "plays": [
            {
                "gap": float(r["gap"]),
                "wait": round(float(r["wait"]), 3),
                "mistake": bool(r["mistake"]),
            }
            for r in mine.waits.to_dict("records")
        ],
        "need": classdata.CLOCK_MIN_PLAYS,
        "curve": [
            {
                "low": int(r["low"]),
                "high": int(r["high"]),
                "gap": float(r["gap"]),
                "wait": round(float(r["wait"]), 3),
                "plays": int(r["plays"]),
                "pupils": int(r["pupils"]),
            }
            for r in shown.to_dict("records")
        ],
        "band_pupils": classdata.BAND_PUPILS,
        "class_plays": mine.class_plays,
        "floor": _number(mine.profile.floor) if enough else None,
        "step": _number(mine.profile.seconds_per_step) if enough else None,
        "cv": _number(mine.profile.cv) if enough else None,
        "half_within": _number(mine.half_within) if enough else None,
        "vs_class": _number(mine.vs_class) if enough else None,
        "pace": mine.pace,
        "ended": bool(ended),
    }
