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
* `mistake_pairs` -- one row per card a mistake jumped, and who held it;
* `waits`, `curve`, `clock` -- a pupil's waits against the gap, the class's
  median curve, and a pupil's clock (their spread, beside the class);
* `to_csv` / `save_csv` -- the plays for a spreadsheet in the class's language;
* `to_json` / `save` / `load` -- one file that `Game.from_json` replays
  table by table. Nothing is written to disk unless the teacher saves.

Seat metadata is the ``seats`` list of a table in `Classroom.snapshot()`
(``{"seat": 0, "kind": "person"|"bot"|"empty", "name": ..., "rtt_ms": ...}``,
``seat`` counted from 0 as in code); a table without it reads as unknown
players. One seat numbering in the data: ``player``, from 0 as in code (the
lesson's display shows it from 1, as a person reads it: `mindwidget.lesson`).
``rtts`` (a class table keeps them, `ClassTable.play_rtt`) give each play's
round trip as it was when the card was played. Gap and wait come from
`mindwidget.traces.trace`, the one place that defines them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .bots.human import REFERENCE_BANDS, band_label, band_of
from .checks import LANGS, choice, load_json, whole
from .events import Dealt, GameLost, GameWon, LevelCleared, Mistake, Played, StarUsed, Stopped
from .game import Game
from .i18n import family, seat_number
from .rules import RuleError
from .timing import MIN_PLAYS, TimingProfile, profile_of
from .traces import trace, trace_stops

__all__ = [
    "BAND_PUPILS",
    "CLASS_PLAY_COLUMNS",
    "CLOCK_MIN_PLAYS",
    "COLUMN_WORDS",
    "CSV_DIALECT",
    "CSV_ENCODING",
    "CURVE_COLUMNS",
    "FORMAT",
    "PAIR_COLUMNS",
    "PLAY_COLUMNS",
    "RESULT_COLUMNS",
    "STOP_COLUMNS",
    "WAIT_COLUMNS",
    "Clock",
    "clock",
    "curve",
    "games",
    "listed",
    "load",
    "mistake_pairs",
    "plays",
    "results",
    "save",
    "save_csv",
    "stops",
    "to_csv",
    "to_json",
    "waits",
]

#: A saved class file's format name and version.
FORMAT = "mindwidget-class"
VERSION = 1
#: The columns of `plays`, in order. ``player`` is the seat counted from 0 (as
#: in code and in `trace`); what a person reads counts it from 1 (the lesson's
#: display), so the data has no second numbering.
_PLAY_TYPES = {
    "table": "int64",
    "level": "int64",
    "blind": "bool",
    "player": "int64",
    "kind": "object",
    "name": "object",
    "card": "int64",
    "t": "float64",
    "gap": "float64",
    "wait": "float64",
    "mistake": "bool",
    "rtt_ms": "float64",
    "jumped": "object",
    "jumped_player": "object",
    "jumped_name": "object",
}
PLAY_COLUMNS = tuple(_PLAY_TYPES)
#: The columns of a running class's plays (`Classroom.plays`): `PLAY_COLUMNS` with
#: ``game`` after ``table``, the table's game from 1 (the games before a New game stay).
CLASS_PLAY_COLUMNS = ("table", "game", *PLAY_COLUMNS[1:])
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
#: Each table's round trips at the time of each play: (level, blind, card) -> ms.
Rtts = Mapping[int, Mapping[tuple[int, bool, int], float]]


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


def seat_info(seats: Seats | None, table: int, player: int, at: int = 0) -> tuple[str, str, float]:
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


def _finite(value: object) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else math.nan  # type: ignore[arg-type]


def plays(tables: Tables, seats: Seats | None = None, rtts: Rtts | None = None) -> pd.DataFrame:
    """One row per card played onto a pile, table by table, in the order played.

    Columns (`PLAY_COLUMNS`): ``table`` (its number, from 1), ``level`` and
    ``blind`` (blind mode counts its levels from 1 again), ``player`` (the
    seat, from 0 as in `trace`), ``kind`` ("person" or "bot"), ``name`` (the
    pupil's nickname or the bot's name), ``card``, ``t`` (seconds since the
    level started), ``gap`` and ``wait`` (as `mindwidget.traces.trace` defines
    them), ``mistake`` (True for a card played while a lower card was still
    held) and ``rtt_ms`` (the pupil's round trip to the server when the card
    was played, from ``rtts``; a table without ``rtts``: the seat's latest;
    NaN for a bot or when not measured). For a mistake, ``jumped`` (the lower
    cards still held, which it jumped, lowest first), ``jumped_player`` (their
    seats, from 0) and ``jumped_name`` (who held each then); empty tuples for a
    play in order. `mistake_pairs` lists them one pair a row.

    Cards put aside after a mistake or by a throwing star are not plays; the
    trace of a table's game (`games`) lists them. ``kind`` and ``name`` are those
    of whoever held the seat when the card was played (a seat listed with
    ``from``, see `seat_info`): a pupil who took a seat mid-game does not
    inherit the cards of the bot or pupil before them.

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[26], [30], [34, 50]], level=2)
    >>> g.ready(t=0); _ = g.play(2, t=2.0); _ = g.play(2, t=3.0)
    >>> seats = {1: [{"seat": 2, "kind": "person", "name": "Anna", "rtt_ms": 12.0}]}
    >>> plays({1: g}, seats)[["player", "name", "card", "mistake"]].values.tolist()
    [[2, 'Anna', 34, True], [2, 'Anna', 50, False]]
    """
    rows: list[dict[str, object]] = []
    for number, game in _tables(tables).items():
        frame = trace(game)
        frame = frame[frame["outcome"].isin(("play", "mistake"))]
        at_play = (rtts or {}).get(number)
        # each play row is one Played event, in order: where it stands in the game
        at = [i for i, e in enumerate(game.events) if isinstance(e, Played)]
        assert len(at) == len(frame)
        lower = _jumped(game)
        for r, i in zip(frame.itertuples(index=False), at, strict=True):
            kind, name, rtt = seat_info(seats, number, int(r.player), i)
            jumped = lower[i] if r.outcome == "mistake" else ()
            if at_play is not None:
                rtt = _finite(at_play.get((int(r.level), bool(r.blind), int(r.card))))
            rows.append(
                {
                    "table": number,
                    "level": r.level,
                    "blind": r.blind,
                    "player": r.player,
                    "kind": kind,
                    "name": name,
                    "card": r.card,
                    "t": r.t,
                    "gap": r.gap,
                    "wait": r.wait,
                    "mistake": r.outcome == "mistake",
                    "rtt_ms": rtt if kind == "person" else math.nan,
                    "jumped": tuple(card for _, card in jumped),
                    "jumped_player": tuple(seat for seat, _ in jumped),
                    "jumped_name": tuple(seat_info(seats, number, s, i)[1] for s, _ in jumped),
                }
            )
    return _frame(rows, _PLAY_TYPES)


def _jumped(game: Game) -> dict[int, tuple[tuple[int, int], ...]]:
    """For each `Played` event (by its place in ``game.events``): the lower cards still
    held when it was played, as (seat, card), lowest first. For a mistake these are the
    cards it jumped: R6's discards (face up, the `Mistake` event lists the same), and in
    blind mode the cards the turned-over pile will show were held below it."""
    out: dict[int, tuple[tuple[int, int], ...]] = {}
    hands: list[set[int]] = []
    for i, e in enumerate(game.events):
        if isinstance(e, Dealt):
            hands = [set(h) for h in e.hands]
        elif isinstance(e, Played):
            hands[e.player].discard(e.card)
            held = [(s, c) for s, h in enumerate(hands) for c in h if c < e.card]
            out[i] = tuple(sorted(held, key=lambda sc: sc[1]))
        elif isinstance(e, (Mistake, StarUsed)):
            for d in e.discards:
                hands[d.player].discard(d.card)
    return out


def stops(tables: Tables, seats: Seats | None = None) -> pd.DataFrame:
    """One row per "stop" at every table, with why it happened.

    Columns (`STOP_COLUMNS`): ``table``, ``level``, ``blind``, ``seat`` (from 1)
    and ``player`` (from 0): in whose name; ``kind`` and ``name``: who held that
    seat then; ``why`` (`mindwidget.events.STOP_REASONS`): "player" (they called
    it), "offline" (their connection was lost), "teacher" (the teacher's pause),
    "seat" (the seating changed); ``start`` and ``end`` (the Ready that resumed;
    NaN if none yet), as `mindwidget.traces.trace_stops` gives them.
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
            kind, name, _ = seat_info(
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


def games(tables: Tables, lang: str | None = None) -> dict[int, Game]:
    """A copy of each table's game, by table number: study it, the tables play on.
    ``lang``: the language each copy describes itself in (its repr: the class's)."""
    out = {number: game.copy() for number, game in _tables(tables).items()}
    if lang is not None:
        for game in out.values():
            game.lang = lang
    return out


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


# ------------------------------------------------------------------ mistakes
#: The columns of `mistake_pairs`, in order.
_PAIR_TYPES = {
    "table": "int64",
    "level": "int64",
    "blind": "bool",
    "card": "int64",
    "player": "int64",
    "name": "object",
    "lower": "int64",
    "lower_player": "int64",
    "lower_name": "object",
    "apart": "int64",
}
PAIR_COLUMNS = tuple(_PAIR_TYPES)


def mistake_pairs(plays: pd.DataFrame) -> pd.DataFrame:
    """One row per card a mistake jumped: the pairs of cards that caused the class's
    mistakes, from a `plays` frame.

    Columns (`PAIR_COLUMNS`): ``table``, ``level``, ``blind``; ``card``, ``player``
    (from 0) and ``name``: the card played too early and who played it; ``lower``,
    ``lower_player`` and ``lower_name``: a lower card still held and who held it;
    ``apart``: ``card - lower`` (how close the two cards lay).

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[26], [30], [34, 50]], level=2)
    >>> g.ready(t=0); _ = g.play(2, t=2.0)
    >>> mistake_pairs(plays({1: g}))[["card", "lower", "lower_player", "apart"]].values.tolist()
    [[34, 26, 0, 8], [34, 30, 1, 4]]
    """
    rows: list[dict[str, object]] = []
    for r in plays[plays["mistake"]].to_dict("records"):
        lowers = zip(r["jumped"], r["jumped_player"], r["jumped_name"], strict=True)
        for lower, seat, name in lowers:
            rows.append(
                {
                    "table": r["table"],
                    "level": r["level"],
                    "blind": r["blind"],
                    "card": r["card"],
                    "player": r["player"],
                    "name": r["name"],
                    "lower": lower,
                    "lower_player": seat,
                    "lower_name": name,
                    "apart": int(r["card"]) - int(lower),
                }
            )
    return _frame(rows, _PAIR_TYPES)


# ------------------------------------------------------------- a pupil's clock
#: A figure about a pupil's clock needs at least this many plays (`timing.MIN_PLAYS`).
CLOCK_MIN_PLAYS = MIN_PLAYS
#: A band of the class's median curve shown on a pupil's page rests on the plays of
#: at least this many pupils: a median of one or two others would be their waits.
BAND_PUPILS = 3
#: Within this fraction of the class's waits, a pupil waits "about as long" as the class.
SAME_PACE = 0.15
#: The columns of `waits`, in order.
_WAIT_TYPES = {
    "table": "int64",
    "level": "int64",
    "blind": "bool",
    "name": "object",
    "card": "int64",
    "gap": "float64",
    "wait": "float64",
    "mistake": "bool",
}
WAIT_COLUMNS = tuple(_WAIT_TYPES)
#: The columns of `curve`, in order.
_CURVE_TYPES = {
    "band": "object",
    "low": "int64",
    "high": "int64",
    "gap": "float64",
    "wait": "float64",
    "plays": "int64",
    "pupils": "int64",
}
CURVE_COLUMNS = tuple(_CURVE_TYPES)


def waits(plays: pd.DataFrame, name: str | None = None) -> pd.DataFrame:
    """The pupils' waits against the gap, from a `plays` frame: one row per card a
    pupil played (bots left out), or only pupil ``name``'s.

    As the inner-clock mirror counts them (`mindwidget.timing`): the first card of a
    level has its gap from 0 (the card itself; `plays` leaves it NaN: no pile yet), and
    a play needs a wait above 0. Columns (`WAIT_COLUMNS`): ``table``, ``level``,
    ``blind``, ``name``, ``card``, ``gap``, ``wait``, ``mistake``.
    """
    people = plays[plays["kind"] == "person"]
    if name is not None:
        people = people[people["name"] == name]
    frame = people.assign(gap=people["gap"].fillna(people["card"].astype("float64")))
    frame = frame[(frame["gap"] >= 1) & (frame["wait"] > 0)]
    return _frame(frame[list(_WAIT_TYPES)].to_dict("records"), _WAIT_TYPES)


def curve(waits: pd.DataFrame, min_pupils: int = 1) -> pd.DataFrame:
    """The class's median curve: per band of gaps (`bots.human.REFERENCE_BANDS`, the
    bands of the human reference) the median gap and median wait of a `waits` frame,
    with how many plays and pupils each rests on. A band with plays of fewer than
    ``min_pupils`` pupils is left out (`BAND_PUPILS` on a pupil's page)."""
    bands = waits["gap"].map(band_of)
    rows: list[dict[str, object]] = []
    for i, (low, high) in enumerate(REFERENCE_BANDS):
        here = waits[bands == i]
        pupils = int(here["name"].nunique())
        if len(here) == 0 or pupils < min_pupils:
            continue
        rows.append(
            {
                "band": band_label(i),
                "low": low,
                "high": high,
                "gap": float(here["gap"].median()),
                "wait": float(here["wait"].median()),
                "plays": len(here),
                "pupils": pupils,
            }
        )
    return _frame(rows, _CURVE_TYPES)


@dataclass(frozen=True)
class Clock:
    """A pupil's clock (or the class's) in this class: see `clock`."""

    #: the pupil's nickname; None: the whole class
    name: str | None
    #: the plays it rests on (`waits`)
    waits: pd.DataFrame
    #: the class's median curve (`curve`), every band with a play
    curve: pd.DataFrame
    #: `timing.profile_of` the waits: reaction floor, seconds per step, spread ``cv``
    profile: TimingProfile
    #: the median of the pupil's wait over the class's median wait in the same band
    #: (1.0: as long as the class; NaN: too few plays)
    vs_class: float
    #: "quicker", "same" or "slower" than the class (`SAME_PACE`); "" with too few plays
    pace: str
    #: the plays and pupils the class's curve rests on (every pupil's, this one's too)
    class_plays: int
    class_pupils: int
    #: half of the waits lie within this fraction of the pupil's own line ``floor +
    #: step * gap`` (the median of ``|wait - line| / line``): the spread in plain words
    #: on their page (NaN: too few plays). ``profile.cv`` is the model's spread.
    half_within: float = math.nan

    @property
    def plays(self) -> int:
        return len(self.waits)

    @property
    def enough(self) -> bool:
        """Enough plays for a spread (`CLOCK_MIN_PLAYS`)."""
        return self.plays >= CLOCK_MIN_PLAYS


def clock(plays: pd.DataFrame, name: str | None = None) -> Clock:
    """Pupil ``name``'s clock in this class (None: the class's): their waits against
    the gap at every table they sat at, the class's median curve beside them, their
    own line and spread (`timing.profile_of`: ``cv``, the spread as a fraction of the
    time above the reaction floor; ``half_within``, the same in plain words: half of
    the waits lie within that fraction of the line) and how long they wait beside the
    class (``vs_class``).

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[10, 20, 30], [40]], level=4)
    >>> g.ready(t=0); _ = g.play(0, t=5.0); _ = g.play(0, t=10.0)
    >>> seats = {1: [{"seat": 0, "kind": "person", "name": "Anna"}]}
    >>> clock(plays({1: g}, seats), "Anna").plays, clock(plays({1: g}, seats), "Anna").pace
    (2, '')
    """
    everyone = waits(plays)
    mine = everyone if name is None else everyone[everyone["name"] == name]
    profile = profile_of(mine["gap"], mine["wait"])
    line = curve(everyone)
    vs_class, pace, half_within = math.nan, "", math.nan
    if profile.fitted:
        line_at = profile.floor + profile.seconds_per_step * mine["gap"].to_numpy(np.float64)
        off = np.abs(mine["wait"].to_numpy(np.float64) - line_at) / np.maximum(line_at, 1e-3)
        half_within = float(np.median(off))
    if len(mine) >= CLOCK_MIN_PLAYS:
        by_band = dict(zip(line["band"], line["wait"], strict=True))
        labels = mine["gap"].map(lambda g: band_label(band_of(g)))
        ratio = mine["wait"].to_numpy() / labels.map(by_band).to_numpy(dtype=np.float64)
        vs_class = float(np.median(ratio))
        pace = (
            "quicker"
            if vs_class < 1 - SAME_PACE
            else "slower"
            if vs_class > 1 + SAME_PACE
            else "same"
        )
    return Clock(
        name,
        mine.reset_index(drop=True),
        line,
        profile,
        vs_class,
        pace,
        len(everyone),
        int(everyone["name"].nunique()),
        half_within,
    )


# ---------------------------------------------------------------------- CSV
#: The words of each column of `plays` and `results` (``col_*`` in ``locales/lesson``):
#: the lesson's display (`lesson.in_words`) and `to_csv` name them the same.
COLUMN_WORDS = {
    "table": "col_table",
    "game": "col_game",
    "level": "col_level",
    "blind": "col_blind",
    "player": "col_player",
    "kind": "col_kind",
    "name": "col_name",
    "card": "col_card",
    "t": "col_t",
    "gap": "col_gap",
    "wait": "col_wait",
    "mistake": "col_mistake",
    "rtt_ms": "col_rtt",
    "cleared": "col_cleared",
    "mistakes": "col_mistakes",
    "stars_used": "col_stars_used",
    "seconds": "col_seconds",
    "jumped": "col_jumped",
    "jumped_player": "col_jumped_player",
    "jumped_name": "col_jumped_name",
}
#: What a spreadsheet in each language expects: the field separator and the decimal
#: sign. Dutch and German Excel read ";" and "," (their list separator is ";", since
#: "," is the decimal sign); English reads "," and ".".
CSV_DIALECT = {"nl": (";", ","), "de": (";", ","), "en": (",", ".")}
#: The text encoding of `to_csv`: UTF-8 with a byte-order mark, which Excel needs to
#: read "é" or "ü" in a name as UTF-8 rather than as the Windows code page.
CSV_ENCODING = "utf-8-sig"


def listed(held: Sequence[Any], column: str) -> str:
    """A mistake's ``jumped`` cards, ``jumped_player`` seats (shown from 1) or
    ``jumped_name`` names as one cell for a person: "26 30", "1 2", "Anna / Zoë"."""
    if column == "jumped_player":
        return " ".join(str(seat_number(s)) for s in held)
    return " / ".join(map(str, held)) if column == "jumped_name" else " ".join(map(str, held))


def _word(key: str, lang: str) -> str:
    """The lesson's word ``key`` (``locales/lesson``, its ``ui`` part) in ``lang``."""
    word = family("lesson", lang)["ui"].get(key) or family("lesson", "en")["ui"][key]
    return str(word)


def to_csv(plays: pd.DataFrame, lang: str = "nl") -> str:
    """A `plays` frame as CSV text that opens in a spreadsheet in ``lang``: one row per
    play, the columns named in that language (`COLUMN_WORDS`), yes/no in words, the
    player counted from 1 (as a person reads it), decimal commas and ";" between the
    fields in Dutch and German (`CSV_DIALECT`). The cards a mistake jumped, their
    players and names stand in one field each, separated by spaces (names by " / ").
    Write it with `CSV_ENCODING` (`save_csv` does).
    """
    lang = choice("lang", lang, LANGS, quoted=False)
    sep, dec = CSV_DIALECT[lang]
    yes, no = _word("yes", lang), _word("no", lang)
    kinds = {k: _word(f"kind_{k}", lang) for k in ("person", "bot")}
    shown = plays.copy()
    for column in shown.columns:
        if shown[column].dtype == bool:
            shown[column] = shown[column].map({True: yes, False: no})
    if "player" in shown:
        shown["player"] = shown["player"].map(seat_number)
    if "kind" in shown:
        shown["kind"] = shown["kind"].map(lambda k: kinds.get(k, k))
    for column in ("jumped", "jumped_player", "jumped_name"):
        if column in shown:
            shown[column] = shown[column].map(lambda held, c=column: listed(held, c))
    for column in ("t", "wait", "gap"):
        if column in shown:
            shown[column] = shown[column].round(2)
    if "rtt_ms" in shown:
        shown["rtt_ms"] = shown["rtt_ms"].round(0)
    words = {c: _word(w, lang) for c, w in COLUMN_WORDS.items() if c in shown}
    text: str = shown.rename(columns=words).to_csv(
        sep=sep, decimal=dec, index=False, lineterminator="\r\n"
    )
    return text


def save_csv(path: str | Path, plays: pd.DataFrame, lang: str = "nl") -> Path:
    """Write `to_csv` to ``path`` in `CSV_ENCODING` (what Excel needs) and return it."""
    target = Path(path)
    target.write_bytes(to_csv(plays, lang).encode(CSV_ENCODING))
    return target
