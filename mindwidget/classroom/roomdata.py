"""The class's data as the teacher reads it: every table's games of a running class.

Each function reads a class's `room.Room` (its tables, their games and who held
each seat when) and hands it to `mindwidget.classdata`, which makes the tables
and files: `plays`, `stops`, `results`, `games`, `save`, `to_json`, `to_csv`,
and the figure of a pupil's clock (`clock`). `Classroom.plays` and the others are
these (`server.py`), the teacher's page downloads them (`teacher.py`) and a
pupil's own clock is made from `plays` (`ownclock.py`). No network, no
matplotlib until a figure is asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import classdata

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from ..game import Game
    from .room import Room
    from .tables import Pupil

__all__ = [
    "clock",
    "games",
    "games_and_seats",
    "plays",
    "pupil_named",
    "results",
    "save",
    "stops",
    "to_csv",
    "to_json",
]


def games_and_seats(room: Room) -> tuple[dict[int, Game], dict[int, list[dict[str, Any]]]]:
    """Each started table's game, and who held each of its seats when (`seat_history`:
    every holder since the deal, the current one with its round trip)."""
    games = {t.id: t.table.game for t in room.tables if t.table is not None}
    now = {t["id"]: t["seats"] for t in room.snapshot()["tables"] if t["id"] in games}
    seats: dict[int, list[dict[str, Any]]] = {}
    for t in room.tables:
        if t.id not in games:
            continue
        # the round trip is the current pupil's (an earlier holder has none now)
        rtt = {s.get("pupil"): s.get("rtt_ms") for s in now[t.id] if s.get("kind") == "person"}
        history = t.seat_history() or now[t.id]
        seats[t.id] = [
            h | {"rtt_ms": rtt.get(h.get("pupil"))} if h.get("kind") == "person" else h
            for h in history
        ]
    return games, seats


def plays(room: Room) -> pd.DataFrame:
    """One row per card played at any table of the class (`mindwidget.classdata.plays`),
    each pupil's round trip as it was when the card was played; with ``game`` (after
    ``table``): the table's game, from 1, so the games a table played before its New
    game stay in the class's data (`ClassTable.earlier`)."""
    import pandas as pd

    rtts = {t.id: t.play_rtt for t in room.tables if t.table is not None}
    now = classdata.plays(*games_and_seats(room), rtts=rtts)
    number = {t.id: t.games for t in room.tables}  # the current game's (`ClassTable.games`)
    frames = [now.assign(game=now["table"].map(number).astype("int64"))]
    for t in room.tables:
        for k, (game, held, at_play) in enumerate(t.earlier):
            before = classdata.plays({t.id: game}, {t.id: held}, rtts={t.id: at_play})
            frames.append(before.assign(game=k + 1))
    out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    out = out.sort_values(["table", "game"], kind="stable", ignore_index=True)
    frame: pd.DataFrame = out[list(classdata.CLASS_PLAY_COLUMNS)]
    return frame


def stops(room: Room) -> pd.DataFrame:
    """One row per stop at any table, with why (`mindwidget.classdata.stops`)."""
    return classdata.stops(*games_and_seats(room))


def results(room: Room) -> pd.DataFrame:
    """One row per table and level: cleared, mistakes, stars used, seconds."""
    return classdata.results(games_and_seats(room)[0])


def games(room: Room) -> dict[int, Game]:
    """A copy of each started table's game, by table number."""
    return classdata.games(games_and_seats(room)[0], lang=room.lang)


def save(room: Room, path: str | Path) -> Path:
    """Write the class's games to ``path`` (`mindwidget.classdata.save`)."""
    return classdata.save(path, *games_and_seats(room))


def to_json(room: Room) -> str:
    """What `save` writes, as text (the teacher's page downloads it)."""
    return classdata.to_json(*games_and_seats(room))


def to_csv(room: Room, path: str | Path, lang: str | None = None) -> Path:
    """The class's plays as a CSV file a spreadsheet opens (`classdata.save_csv`), in
    ``lang`` (default: the class's): Dutch columns, ";" and decimal commas in Dutch."""
    return classdata.save_csv(path, plays(room), room.lang if lang is None else lang)


def clock(room: Room, pupil: str | None = None, lang: str | None = None) -> Figure:
    """The figure of ``pupil``'s clock (their id, "p3", or nickname; None: the
    class's), as their page shows it and with the class's whole curve
    (`classdata.clock`, `plots.plot_clock`), in ``lang`` (default: the class's)."""
    from ..plots import plot_clock

    name = None
    if pupil is not None:
        found = pupil_named(room, pupil) if isinstance(pupil, str) else None
        if found is None:
            known = ", ".join(p.name for p in room.pupils.values()) or "none yet"
            raise ValueError(f"no pupil {pupil!r} in this class; its pupils: {known}.")
        name = found.name
    return plot_clock(classdata.clock(plays(room), name), lang=room.lang if lang is None else lang)


def pupil_named(room: Room, who: str) -> Pupil | None:
    """The pupil of the class with this id ("p3") or nickname (as typed, any case)."""
    if who in room.pupils:
        return room.pupils[who]
    folded = who.strip().casefold()
    for p in room.pupils.values():
        if p.name.casefold() == folded:
            return p
    return None
