"""A class's own data: every play at every table, as one DataFrame.

A class plays at several tables at once (`mindwidget.classroom`). This module
turns the tables' games and who sat where into what the class studies after
playing, with no server and no clock: pure functions of `Game`s and seat
metadata.

* `plays` -- one row per card played onto a pile, at every table;
* `results` -- one row per table and level: cleared or not, mistakes, time;
* `stops` -- one row per stop at every table, with its reason (a pupil, a lost
  connection, the teacher, a change of seat);
* `games` -- a copy of each table's game (the class may study it freely);
* `to_json` / `save` / `load` -- one file that `Game.from_json` replays
  table by table. Nothing is written to disk unless the teacher saves.

Seat metadata is the ``seats`` list of a table in `Classroom.snapshot()`
(``{"seat": 0, "kind": "person"|"bot"|"empty", "name": ..., "rtt_ms": ...}``,
``seat`` counted from 0 as in code); a table without it reads as unknown
players. Gap and wait come from `mindwidget.trace.trace`, the one place that
defines them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .checks import load_json, whole
from .events import Dealt, GameLost, GameWon, LevelCleared, Played, StarUsed, Stopped
from .game import Game
from .rules import RuleError
from .trace import trace, trace_stops

__all__ = [
    "FORMAT",
    "PLAY_COLUMNS",
    "RESULT_COLUMNS",
    "STOP_COLUMNS",
    "games",
    "load",
    "plays",
    "results",
    "save",
    "stops",
    "to_json",
]

#: A saved class file's format name and version.
FORMAT = "mindwidget-class"
VERSION = 1
#: The columns of `plays`, in order. ``seat`` counts from 1 (as pupils read
#: it: "Player 1"); ``player`` is the same seat counted from 0 (as in code
#: and in `trace`).
_PLAY_TYPES = {
    "table": "int64",
    "level": "int64",
    "blind": "bool",
    "seat": "int64",
    "player": "int64",
    "kind": "object",
    "name": "object",
    "card": "int64",
    "t": "float64",
    "gap": "float64",
    "wait": "float64",
    "mistake": "bool",
    "rtt_ms": "float64",
}
PLAY_COLUMNS = tuple(_PLAY_TYPES)
#: The columns of `results`, in order.
_RESULT_TYPES = {
    "table": "int64",
    "level": "int64",
    "blind": "bool",
    "cleared": "bool",
    "mistakes": "int64",
    "stars_used": "int64",
    "seconds": "float64",
}
RESULT_COLUMNS = tuple(_RESULT_TYPES)
#: The columns of `stops`, in order.
_STOP_TYPES = {
    "table": "int64",
    "level": "int64",
    "blind": "bool",
    "seat": "int64",
    "player": "int64",
    "kind": "object",
    "name": "object",
    "why": "object",
    "start": "float64",
    "end": "float64",
}
STOP_COLUMNS = tuple(_STOP_TYPES)
#: What a seat may be, as in `Classroom.snapshot()`.
KINDS = ("person", "bot", "empty")

Tables = Mapping[int, Game]
Seats = Mapping[int, Sequence[Mapping[str, Any]]]


def _tables(tables: object) -> dict[int, Game]:
    if not isinstance(tables, Mapping):
        raise ValueError(
            f"tables: expected a mapping of table number to Game, not {type(tables).__name__}."
        )
    out: dict[int, Game] = {}
    for key, game in tables.items():
        number = whole("table number", key, lo=1)
        if not isinstance(game, Game):
            raise ValueError(f"table {number}: expected a mindwidget Game, not {game!r}.")
        out[number] = game
    return dict(sorted(out.items()))


def _seat_info(seats: Seats | None, table: int, player: int, at: int = 0) -> tuple[str, str, float]:
    """(kind, name, round trip in ms) of whoever held a seat at the game's event ``at``;
    unknown seats read as ("", "", NaN).

    A seat may be listed more than once, each entry with ``from`` (the game's event
    count when that holder took the seat; none: from the deal): the entry with the
    latest ``from`` at or before ``at`` holds it (`ClassTable.seat_history`)."""
    listed = (seats or {}).get(table, ())
    best: Mapping[str, Any] | None = None
    best_from = -1
    for info in listed:
        if not isinstance(info, Mapping) or info.get("seat") != player:
            continue
        start = info.get("from", 0)
        if isinstance(start, bool) or not isinstance(start, int):
            start = 0
        if best_from <= start <= at:  # the latest holder by then (listed in order)
            best, best_from = info, start
    if best is None:
        return "", "", math.nan
    kind = best.get("kind")
    name = best.get("name")
    rtt = best.get("rtt_ms")
    ok = isinstance(rtt, (int, float)) and not isinstance(rtt, bool) and math.isfinite(rtt)
    return (
        kind if isinstance(kind, str) else "",
        name if isinstance(name, str) else "",
        float(rtt) if ok else math.nan,  # type: ignore[arg-type]
    )


def plays(tables: Tables, seats: Seats | None = None) -> pd.DataFrame:
    """One row per card played onto a pile, table by table, in the order played.

    Columns (`PLAY_COLUMNS`): ``table`` (its number, from 1), ``level`` and
    ``blind`` (blind mode counts its levels from 1 again), ``seat`` (from 1, as
    pupils read it) and ``player`` (the same seat from 0, as in `trace`),
    ``kind`` ("person" or "bot"), ``name`` (the pupil's nickname or the bot's
    name), ``card``, ``t`` (seconds since the level started), ``gap`` and
    ``wait`` (as `mindwidget.trace.trace` defines them), ``mistake`` (True
    for a card played while a lower card was still held) and ``rtt_ms`` (the
    seat's latest measured round trip to the server, NaN for a bot).

    Cards put aside after a mistake or by a throwing star are not plays; the
    trace of a table's game (`games`) lists them. ``kind`` and ``name`` are those
    of whoever held the seat when the card was played (a seat listed with
    ``from``, see `_seat_info`): a pupil who took a seat mid-game does not
    inherit the cards of the bot or pupil before them.

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[26], [30], [34, 50]], level=2)
    >>> g.ready(t=0); _ = g.play(2, t=2.0); _ = g.play(2, t=3.0)
    >>> seats = {1: [{"seat": 2, "kind": "person", "name": "Anna", "rtt_ms": 12.0}]}
    >>> plays({1: g}, seats)[["seat", "name", "card", "mistake"]].values.tolist()
    [[3, 'Anna', 34, True], [3, 'Anna', 50, False]]
    """
    rows: list[dict[str, object]] = []
    for number, game in _tables(tables).items():
        frame = trace(game)
        frame = frame[frame["outcome"].isin(("play", "mistake"))]
        # each play row is one Played event, in order: where it stands in the game
        at = [i for i, e in enumerate(game.events) if isinstance(e, Played)]
        assert len(at) == len(frame)
        for r, i in zip(frame.itertuples(index=False), at, strict=True):
            kind, name, rtt = _seat_info(seats, number, int(r.player), i)
            rows.append(
                {
                    "table": number,
                    "level": r.level,
                    "blind": r.blind,
                    "seat": int(r.player) + 1,
                    "player": r.player,
                    "kind": kind,
                    "name": name,
                    "card": r.card,
                    "t": r.t,
                    "gap": r.gap,
                    "wait": r.wait,
                    "mistake": r.outcome == "mistake",
                    "rtt_ms": rtt if kind == "person" else math.nan,
                }
            )
    return _frame(rows, _PLAY_TYPES)


def stops(tables: Tables, seats: Seats | None = None) -> pd.DataFrame:
    """One row per "stop" at every table, with why it happened.

    Columns (`STOP_COLUMNS`): ``table``, ``level``, ``blind``, ``seat`` (from 1)
    and ``player`` (from 0): in whose name; ``kind`` and ``name``: who held that
    seat then; ``why`` (`mindwidget.events.STOP_REASONS`): "player" (they called
    it), "offline" (their connection was lost), "teacher" (the teacher's pause),
    "seat" (the seating changed); ``start`` and ``end`` (the Ready that resumed;
    NaN if none yet), as `mindwidget.trace.trace_stops` gives them.
    """
    rows: list[dict[str, object]] = []
    for number, game in _tables(tables).items():
        at = [i for i, e in enumerate(game.events) if isinstance(e, Stopped)]
        frame = trace_stops(game)
        # a second stop before the resume belongs to the first: match rows to stops by time
        starts: dict[tuple[int, float], int] = {}
        for i in at:
            starts.setdefault((game.events[i].level, game.events[i].t), i)
        for r in frame.to_dict("records"):
            player = int(r["player"])
            kind, name, _ = _seat_info(
                seats, number, player, starts.get((r["level"], r["start"]), 0)
            )
            rows.append(
                {
                    "table": number,
                    "level": r["level"],
                    "blind": r["blind"],
                    "seat": player + 1,
                    "player": player,
                    "kind": kind,
                    "name": name,
                    "why": r["why"],
                    "start": r["start"],
                    "end": r["end"],
                }
            )
    return _frame(rows, _STOP_TYPES)


def results(tables: Tables) -> pd.DataFrame:
    """One row per table and dealt level: how the table did there.

    Columns (`RESULT_COLUMNS`): ``table``, ``level``, ``blind``, ``cleared``
    (the level was cleared, or the game won in it), ``mistakes`` (cards played
    too early), ``stars_used`` and ``seconds`` (level time of the level's last
    event). Under a same deal every table holds the same cards level by level,
    so these rows compare tables fairly, as in duplicate bridge.
    """
    checked = _tables(tables)
    mistakes = plays(checked).groupby(["table", "level", "blind"])["mistake"].sum()
    rows: list[dict[str, object]] = []
    for number, game in checked.items():
        row: dict[str, object] | None = None
        for e in game.events:
            if isinstance(e, Dealt):
                row = {
                    "table": number,
                    "level": e.level,
                    "blind": e.blind,
                    "cleared": False,
                    "mistakes": int(mistakes.get((number, e.level, e.blind), 0)),
                    "stars_used": 0,
                    "seconds": 0.0,
                }
                rows.append(row)
            elif row is not None:
                row["seconds"] = max(float(row["seconds"]), e.t)  # type: ignore[arg-type]
                if isinstance(e, (LevelCleared, GameWon)):
                    row["cleared"] = True
                elif isinstance(e, StarUsed):
                    row["stars_used"] = int(row["stars_used"]) + 1  # type: ignore[call-overload]
                elif isinstance(e, GameLost):
                    row["cleared"] = False
    return _frame(rows, _RESULT_TYPES)


def _frame(rows: list[dict[str, object]], types: Mapping[str, str]) -> pd.DataFrame:
    """``rows`` as a DataFrame with ``types``' columns, in order, of those dtypes
    (also when there are no rows)."""
    out: pd.DataFrame = pd.DataFrame(rows, columns=list(types)).astype(dict(types))
    return out


def games(tables: Tables) -> dict[int, Game]:
    """A copy of each table's game, by table number: study it, the tables play on."""
    return {number: game.copy() for number, game in _tables(tables).items()}


def _public_seats(listed: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What a saved file keeps of a seat: its number (from 0), kind and nickname."""
    out = []
    for info in listed:
        if isinstance(info, Mapping) and isinstance(info.get("seat"), int):
            kind = info.get("kind")
            name = info.get("name")
            entry = {
                "seat": info["seat"],
                "kind": kind if kind in KINDS else "",
                "name": name if isinstance(name, str) else "",
            }
            start = info.get("from")
            if isinstance(start, int) and not isinstance(start, bool):
                entry["from"] = start  # who held the seat since (a seat that changed hands)
            out.append(entry)
    return out


def to_json(tables: Tables, seats: Seats | None = None) -> str:
    """The class as JSON text: each table's saved game (`Game.to_dict`) and its seats.

    ``{"format": "mindwidget-class", "version": 1, "tables": [{"table": 1,
    "seats": [{"seat": 0, "kind": "person", "name": "Anna"}, ...], "game":
    {...}}, ...]}``. Each ``game`` is exactly what `Game.to_json` writes, so
    `Game.from_json` replays it table by table. Only nicknames are kept: no
    pupil id, token, address or round trip.
    """
    entries = [
        {
            "table": number,
            "seats": _public_seats((seats or {}).get(number, ())),
            "game": game.to_dict(),
        }
        for number, game in _tables(tables).items()
    ]
    return json.dumps({"format": FORMAT, "version": VERSION, "tables": entries}, indent=1)


def save(path: str | Path, tables: Tables, seats: Seats | None = None) -> Path:
    """Write `to_json` to ``path`` (the teacher's explicit choice) and return the path."""
    target = Path(path)
    target.write_text(to_json(tables, seats), encoding="utf-8")
    return target


def load(path: str | Path) -> dict[int, Game]:
    """Read a saved class: each table's game, replayed and checked (`Game.from_json`).

    A file is hostile input: it is bounded in size and nesting, and a
    malformed or tampered table raises `RuleError` naming the table.
    """
    data = load_json(Path(path).read_bytes(), "a saved class", error=RuleError)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RuleError(f"not a saved mindwidget class: expected format {FORMAT!r}.")
    if data.get("version") != VERSION:
        raise RuleError(f"a saved class of version {data.get('version')!r}; allowed: {VERSION}.")
    entries = data.get("tables")
    if not isinstance(entries, list):
        raise RuleError("a saved class holds a list of tables.")
    out: dict[int, Game] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise RuleError(f"table entry #{i} must be an object with table, seats and game.")
        number = whole(f"table entry #{i}: table", entry.get("table"), lo=1, error=RuleError)
        if number in out:
            raise RuleError(f"table {number} is in the file twice.")
        try:
            out[number] = Game.from_dict(entry.get("game"))
        except RuleError as exc:
            raise RuleError(f"table {number}: {exc}") from None
    return out
