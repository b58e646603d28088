"""The teacher's dashboard: every table of a class at a glance, and its controls.

Two parts, as for a pupil's seat (`mindwidget.session`):

* `Board`: the dashboard apart from its transport. It reads the class's
  `snapshot()` (the format of `Classroom.snapshot`), adds what a teacher needs
  to see at a glance (which table is stuck, and why; where a pupil may be
  moved), builds the one table shown large as a watcher sees it (a `Session`
  with ``seat=None``: no hand at all unless the teacher turns on reveal), and
  checks every control message from the browser (hostile input: known types
  and fields, known pupils, tables and seats) before it calls the class's
  method (`start_all`, `pause_all`, `end`, `lock`, `remove`, `move`,
  `start_table`, `give_to_bot`). A refusal never raises: it sets the notice
  (a key of ``locales/teacher/<lang>.json`` with parameters) and changes
  nothing.
* `Dashboard`: the anywidget in the teacher's notebook (traits ``room``,
  ``table``, ``settings``, ``notice``). A timer on the kernel's event loop
  asks the board for changes at most `UPDATES_PER_SECOND` times a second;
  only a trait whose value changed goes to the browser.

The same `Board` serves ``/teacher`` of ``mindwidget class`` through the
class server's model shim. Nothing here ever reaches a pupil's socket.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import anywidget
import traitlets

from ..i18n import LANGS, seat_number, translate
from ..refusal import Refused
from ..session import Session
from ..table import Table

__all__ = ["Board", "CONTROLS", "Dashboard", "STUCK_SECONDS", "UPDATES_PER_SECOND"]

_STATIC = Path(__file__).resolve().parent.parent / "static"
_MISSING_BUNDLE = """
export default { render({ el }) {
  el.textContent = "mindwidget: the JavaScript bundle is missing; " +
    "run `npm install && npm run build`.";
} };
"""
#: How often at most the teacher's view is updated (the timer's rate).
UPDATES_PER_SECOND = 4
#: A table whose state has not changed for this long while it waits for
#: someone is marked stuck (a table waiting for a pupil who is offline is
#: marked at once).
STUCK_SECONDS = 30.0
#: The control messages the dashboard sends, each with its fields.
CONTROLS: dict[str, tuple[str, ...]] = {
    "start_all": (),
    "pause_all": (),
    "end": (),
    "lock": ("locked",),
    "remove": ("pupil",),
    "move": ("pupil", "table", "seat"),
    "start_table": ("table",),
    "give_to_bot": ("table", "seat"),
    "focus": ("table",),
    "reveal": ("on",),
    "lang": ("lang",),
    "clock": ("pupil",),
}
#: Phases in which a table can be stuck: it waits for a press, or plays a level
#: (not before it starts, nor when its game is over).
_WAITING = ("ready", "stopped", "vote", "cleared", "play")
_MAX_TEXT = 64  # the longest pupil id a message may carry


class ClassLike(Protocol):
    """What the dashboard needs of a class (`mindwidget.classroom.Classroom`)."""

    def snapshot(self) -> dict[str, Any]: ...
    def start_all(self) -> None: ...
    def pause_all(self) -> None: ...
    def end(self) -> None: ...
    def lock(self, locked: bool = True) -> None: ...
    def remove(self, pupil_id: str) -> None: ...
    def move(self, pupil_id: str, table_id: int, seat: int) -> None: ...
    def start_table(self, table_id: int) -> None: ...
    def give_to_bot(self, table_id: int, seat: int) -> None: ...


def _rounded_rtt(seat: Mapping[str, Any]) -> dict[str, Any]:
    """A seat with its round trip in whole milliseconds (the view changes less often)."""
    rtt = seat.get("rtt_ms")
    if isinstance(rtt, float) and math.isfinite(rtt):
        return dict(seat) | {"rtt_ms": round(rtt)}
    return dict(seat)


_SVG_TAG = re.compile(r"<svg\b([^>]*)>")
_SIZE = re.compile(r'\b(width|height)="(\d+(?:\.\d+)?)"')


def _scalable(svg: object) -> str:
    """The class's QR code as an SVG an ``<img>`` can scale: with ``xmlns`` and a
    ``viewBox`` (segno's inline SVG has neither). Anything else becomes ""."""
    if not isinstance(svg, str) or not svg.startswith("<svg") or len(svg) > 200_000:
        return ""
    tag = _SVG_TAG.match(svg)
    if tag is None:
        return ""
    attrs = tag.group(1)
    if "xmlns=" not in attrs:
        attrs += ' xmlns="http://www.w3.org/2000/svg"'
    size = dict(_SIZE.findall(attrs))
    if "viewBox" not in attrs and "width" in size and "height" in size:
        width, height = size["width"], size["height"]
        attrs += f' viewBox="0 0 {width} {height}"'
    return f"<svg{attrs}>{svg[tag.end() :]}"


def _int(value: object) -> int | None:
    return value if type(value) is int else None


class Board:
    """The teacher's dashboard of one class, apart from its transport.

    ``room`` is the class (its ``snapshot()`` and control methods; its
    ``tables``, each with ``id`` and ``table``, give the table shown large).
    ``now`` is the clock that measures how long a table has not moved.
    """

    def __init__(
        self,
        room: ClassLike,
        *,
        lang: str | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._room = room
        self._now = now
        self._notice_id = 0
        self.notice: dict[str, Any] = {}
        self.focus: int | None = None
        #: whose clock the teacher opened: a pupil's id, "" the class's, None none
        self.clock_for: str | None = None
        self.reveal = False
        self._watch: Session | None = None  # the table shown large, as a watcher sees it
        self._watch_key: tuple[int, bool, int] | None = None
        self._moved: dict[int, tuple[str, float]] = {}  # table -> (signature, since)
        self._last: dict[str, str] = {}  # part -> JSON last given out
        self._mistakes: dict[int, tuple[tuple[int, int], object]] = {}  # table -> (game, mistake)
        self._clock: tuple[tuple[Any, ...], dict[str, Any]] | None = None  # the large table's
        snap = self._snapshot()
        default = snap.get("lang")
        self.lang = lang if lang in LANGS else default if default in LANGS else "en"

    # ---------------------------------------------------------------- reading
    @property
    def room(self) -> ClassLike:
        return self._room

    def _snapshot(self) -> dict[str, Any]:
        snap = self._room.snapshot()
        return snap if isinstance(snap, dict) else {}

    def _class_table(self, table_id: int) -> object | None:
        for t in getattr(self._room, "tables", ()) or ():
            if getattr(t, "id", None) == table_id:
                found: object = t
                return found
        return None

    def _table(self, table_id: int) -> Table | None:
        table = getattr(self._class_table(table_id), "table", None)
        return table if isinstance(table, Table) else None

    def _level_clock(self, table_id: int, table: Table) -> dict[str, Any]:
        """The large table's clock as a page follows it (js/clock.js): the table's
        ``clock`` with ``t`` the level time now (the class table's `HostClock`; the
        table's latest event is often long ago). Made again only when the clock
        changes (a new event, a stop, another table), so the view does not change
        at every update; the page runs it on from there."""
        clock = table.clock | {"beat": False}  # the dashboard sends no heartbeat
        key = (table_id, id(table), clock.get("epoch"), clock.get("seq"), clock.get("running"))
        if self._clock is not None and self._clock[0] == key:
            return self._clock[1]
        host = getattr(self._class_table(table_id), "host", None)
        level_time = getattr(host, "level_time", None)
        if callable(level_time) and getattr(host, "table", None) is table:
            t = level_time()
            if isinstance(t, float) and math.isfinite(t):
                clock["t"] = round(t, 3)
        self._clock = (key, clock)
        return clock

    def _stuck(self, t: Mapping[str, Any], now: float) -> dict[str, Any] | None:
        """Why a table is stuck (None if it is not): something the teacher must act on.

        A pupil the table waits for is offline, or a seat it waits for is empty (at
        once); a level has run for `STUCK_SECONDS` twice over with nothing happening
        (the longest wait of a person for a far card is about 25 s), or the table
        has waited that long for a press nobody is there to make. Pupils who have not pressed Ready
        yet, are voting or read "Level cleared" are not stuck: that is their
        turn, not the teacher's; but a vote that waits for an offline pupil is,
        as a Ready does. Nothing is stuck once the lesson has ended."""
        tid = t.get("id")
        if not isinstance(tid, int):
            return None
        table = self._table(tid)
        moves = table.game.event_count if table is not None else None
        signature = json.dumps([{k: v for k, v in t.items() if k != "seats"}, moves], default=str)
        seen = self._moved.get(tid)
        if seen is None or seen[0] != signature:
            self._moved[tid] = seen = (signature, now)
        waiting = [s for s in t.get("waiting_for") or () if isinstance(s, int)]
        phase = t.get("phase")
        if phase not in _WAITING or self._ended():
            return None
        if phase == "vote" and table is not None and table.game.proposal is not None:
            votes = table.game.proposal["votes"]  # waits for the people who have not voted
            waiting = [s for s in table.seats if s not in votes]
        seats = {s.get("seat"): s for s in t.get("seats") or () if isinstance(s, Mapping)}
        offline = [
            s
            for s in waiting
            if seats.get(s, {}).get("kind") == "person" and not seats[s].get("connected", True)
        ]
        if offline:
            return {"reason": "offline", "seats": offline}
        empty = [s for s in waiting if seats.get(s, {}).get("kind") == "empty"]
        if empty:  # a pupil left a seat of a running game: nobody will press there
            return {"reason": "empty", "seats": empty}
        idle = now - seen[1]
        silent = phase == "play" and idle >= 2 * STUCK_SECONDS  # no card for a minute
        # hands on the table and nobody whose Ready it waits for: nobody will press
        unpressed = phase in ("ready", "stopped") and not waiting and idle >= STUCK_SECONDS
        if silent or unpressed:
            # in steps of 10 s, so the view does not change every update
            return {"reason": "idle", "seats": waiting, "seconds": int(idle // 10 * 10)}
        return None

    def _ended(self) -> bool:
        """Whether the lesson has ended (`Classroom.end`)."""
        return getattr(self._room, "ended", False) is True

    def _last_mistake(self, tid: int, told: object) -> object:
        """The latest mistake of the table's game (not only of its level): from
        the game's events, kept until the game has a new event."""
        table = self._table(tid)
        if table is None:
            return told
        game = table.game
        key = (id(game), game.event_count)
        cached = self._mistakes.get(tid)
        if cached is not None and cached[0] == key:
            return cached[1]
        found: object = None
        events = game.events
        holder = getattr(self._class_table(tid), "holder_at", None)

        def then(seat: int, at: int) -> str | None:  # who held the seat then (it may change)
            held = holder(seat, at) if callable(holder) else None
            return held[1] if isinstance(held, tuple) and isinstance(held[1], str) else None

        for i in range(len(events) - 1, -1, -1):
            if events[i].type == "mistake":
                d = events[i].to_dict()
                found = {
                    "card": d["card"],
                    "seat": d["player"],
                    "held": [[x["player"], x["card"]] for x in d["discards"]],
                    "level": d.get("level"),
                    "name": then(d["player"], i),
                    "held_names": [then(x["player"], i) for x in d["discards"]],
                }
                break
        self._mistakes[tid] = (key, found)
        return found

    def room_state(self) -> dict[str, Any]:
        """The snapshot, each table with ``stuck``, and ``free``: the seats a pupil may move to."""
        snap = self._snapshot()
        now = self._now()
        tables = []
        free: list[list[int]] = []
        for t in snap.get("tables") or ():
            if not isinstance(t, Mapping):
                continue
            seats = [_rounded_rtt(s) for s in t.get("seats") or () if isinstance(s, Mapping)]
            row = dict(t) | {"seats": seats, "stuck": self._stuck(t, now)}
            if isinstance(t.get("id"), int):
                row["last_mistake"] = self._last_mistake(t["id"], t.get("last_mistake"))
            tables.append(row)
            for s in t.get("seats") or ():
                if (
                    isinstance(s, Mapping)
                    and s.get("kind") in ("empty", "bot")
                    and isinstance(t.get("id"), int)
                    and isinstance(s.get("seat"), int)
                ):
                    free.append([t["id"], s["seat"]])
        known = {t.get("id") for t in tables}
        self._moved = {k: v for k, v in self._moved.items() if k in known}
        return snap | {
            "tables": tables,
            "free": free,
            "qr_svg": _scalable(snap.get("qr_svg")),
            "ended": self._ended(),
        }

    def table_state(self) -> dict[str, Any]:
        """The table shown large, as a watcher sees it (every hand only with reveal)."""
        if self.focus is None:
            return {}
        table = self._table(self.focus)
        if table is None:
            return {"id": self.focus}
        key = (self.focus, self.reveal, id(table))
        if self._watch is None or self._watch_key != key:
            self.close()
            self._watch = Session(table, None, lang=self.lang, reveal=self.reveal, size="projector")
            self._watch_key = key
        state = self._watch.state()
        view = dict(state["view"])
        # the seats' names, as a pupil's page shows the others (js/render.js seatNames)
        view["names"] = self._names(self.focus, table.game.players)
        # who plays there: a table with pupils is not "the bots playing"
        view["watch"] = "class" if self._has_pupils(self.focus) else "bots"
        points = state["live_trace"]["points"]
        return {
            "id": self.focus,
            "view": view,
            "points": points,
            "epoch": table.epoch,
            "clock": self._level_clock(self.focus, table),
        }

    def _has_pupils(self, table_id: int) -> bool:
        for t in self._snapshot().get("tables") or ():
            if isinstance(t, Mapping) and t.get("id") == table_id:
                return any(
                    isinstance(s, Mapping) and s.get("kind") == "person"
                    for s in t.get("seats") or ()
                )
        return False

    def close(self) -> None:
        """Stop following the table shown large."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None
            self._watch_key = None

    def _names(self, table_id: int, players: int) -> list[str]:
        """Each seat's name at a table: the pupil's nickname, the bot's name, else "Seat n"."""
        names = [translate("seat", self.lang, player=p) for p in range(players)]
        for t in self._snapshot().get("tables") or ():
            if isinstance(t, Mapping) and t.get("id") == table_id:
                for s in t.get("seats") or ():
                    seat, name = s.get("seat"), s.get("name")
                    if (
                        isinstance(seat, int)
                        and 0 <= seat < players
                        and isinstance(name, str)
                        and name
                    ):
                        names[seat] = name[:40]
        return names

    def clock_state(self) -> dict[str, Any]:
        """The clock the teacher opened (`clock_for`: a pupil's id, "" for the class's,
        None: none), as that pupil's page gets it ({} when none, or the class cannot)."""
        if self.clock_for is None:
            return {}
        clock_data = getattr(self._room, "clock_data", None)
        if not callable(clock_data):
            return {}
        data = clock_data(self.clock_for or None)
        return data if isinstance(data, dict) else {}

    def settings(self) -> dict[str, Any]:
        return {"lang": self.lang, "focus": self.focus, "reveal": self.reveal}

    def state(self) -> dict[str, Any]:
        """Everything a new front end needs: ``room``, ``table``, ``settings``, ``notice``."""
        out = {
            "room": self.room_state(),
            "table": self.table_state(),
            "settings": self.settings(),
            "notice": self.notice,
            "clock": self.clock_state(),
        }
        self._last = {k: json.dumps(v, sort_keys=True, default=str) for k, v in out.items()}
        return out

    def changes(self) -> dict[str, Any]:
        """Only the parts whose value changed since the last `state`/`changes` ({} if none)."""
        out: dict[str, Any] = {}
        parts: dict[str, Callable[[], Any]] = {
            "room": self.room_state,
            "table": self.table_state,
            "settings": self.settings,
            "notice": lambda: self.notice,
            "clock": self.clock_state,
        }
        for name, make in parts.items():
            value = make()
            text = json.dumps(value, sort_keys=True, default=str)
            if self._last.get(name) != text:
                self._last[name] = text
                out[name] = value
        return out

    # -------------------------------------------------------------- controls
    def _refuse(self, key: str, **params: Any) -> None:
        self._notice_id += 1
        self.notice = {"key": key, "params": params, "id": self._notice_id}

    def receive(self, message: object) -> None:
        """Check one message from the teacher's browser and act on it.

        Never raises: anything malformed, unknown or refused by the class sets
        `notice` and changes nothing.
        """
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self._refuse("refused_bad_control", allowed=" | ".join(CONTROLS))
            return
        kind = message["type"]
        fields = CONTROLS.get(kind)
        if fields is None or set(message) != {"type", *fields}:
            self._refuse("refused_bad_control", allowed=" | ".join(CONTROLS))
            return
        snap = self._snapshot()
        tables = {t.get("id"): t for t in snap.get("tables") or () if isinstance(t, Mapping)}
        refusals = self._notice_id
        try:
            self._act(kind, message, snap, tables)
        except ValueError as exc:  # the class refused it (e.g. a seat taken meanwhile)
            if isinstance(exc, Refused):  # a refusal in words of the class's language
                self._refuse("refused_not_done", reason=exc.text(self.lang)[:300])
            else:  # an English message is for a programmer, not for the dashboard
                self._refuse("refused_by_class")
            return
        if self.notice and refusals == self._notice_id:  # done: the last refusal is old news
            self.notice = {}

    def _act(
        self,
        kind: str,
        message: Mapping[str, Any],
        snap: Mapping[str, Any],
        tables: Mapping[Any, Mapping[str, Any]],
    ) -> None:
        room = self._room
        if kind in ("start_all", "pause_all", "end"):
            getattr(room, kind)()
        elif kind == "lock":
            if type(message["locked"]) is not bool:
                return self._refuse("refused_bad_field", field="locked")
            room.lock(message["locked"])
        elif kind == "reveal":
            if type(message["on"]) is not bool:
                return self._refuse("refused_bad_field", field="on")
            self.reveal = message["on"]
        elif kind == "lang":
            if message["lang"] not in LANGS:
                return self._refuse("refused_bad_field", field="lang")
            self.lang = message["lang"]
        elif kind == "clock":
            who = message["pupil"]
            if who is not None and (not isinstance(who, str) or len(who) > _MAX_TEXT):
                return self._refuse("refused_bad_field", field="pupil")
            if who and not self._known_pupil(who, snap):
                return self._refuse("refused_no_pupil")
            self.clock_for = who
        elif kind == "focus":
            tid = message["table"]
            if tid is not None and (_int(tid) is None or tid not in tables):
                return self._refuse("refused_no_table", table=str(tid)[:8])
            self.focus = tid
        else:
            tid = _int(message.get("table", 0))
            if tid is None or ("table" in message and tid not in tables):
                return self._refuse("refused_no_table", table=str(message["table"])[:8])
            seat = _int(message.get("seat", 0))
            if "seat" in message:
                seats = len(tables[tid].get("seats") or ())
                if seat is None or not 0 <= seat < seats:
                    return self._refuse("refused_no_seat", table=tid, seats=seats)
            pupil = message.get("pupil", "")
            if "pupil" in message and not self._known_pupil(pupil, snap):
                return self._refuse("refused_no_pupil")
            if kind == "remove":
                room.remove(str(pupil))
            elif kind == "move":
                taken = (tables[tid].get("seats") or ())[int(seat or 0)]
                if (
                    isinstance(taken, Mapping)
                    and taken.get("kind") == "person"
                    and taken.get("connected", True)
                ):  # a pupil sits there (a gone pupil's seat the class may give away)
                    return self._refuse(
                        "refused_seat_taken",
                        table=tid,
                        seat=seat_number(int(seat or 0)),
                        name=taken.get("name", ""),
                    )
                room.move(str(pupil), tid, int(seat or 0))
            elif kind == "start_table":
                table = tables[tid]
                if table.get("phase") != "waiting":
                    return self._refuse("refused_started", table=tid)
                if not any(s.get("kind") != "empty" for s in table.get("seats") or ()):
                    return self._refuse("refused_start_empty", table=tid)
                room.start_table(tid)
            else:
                room.give_to_bot(tid, int(seat or 0))
        return None

    @staticmethod
    def _known_pupil(pupil: object, snap: Mapping[str, Any]) -> bool:
        if not isinstance(pupil, str) or not 0 < len(pupil) <= _MAX_TEXT:
            return False
        for t in snap.get("tables") or ():
            for s in t.get("seats") or ():
                if isinstance(s, Mapping) and s.get("pupil") == pupil:
                    return True
        return any(
            isinstance(w, Mapping) and w.get("pupil") == pupil
            for w in snap.get("waiting_room") or ()
        )


def _bundle(name: str, fallback: str) -> str | Path:
    path = _STATIC / name
    return path if path.exists() else fallback


class Dashboard(anywidget.AnyWidget):
    """The teacher's dashboard of a class, shown by evaluating it in a cell.

    >>> room = Classroom(lan=True)        # doctest: +SKIP
    >>> Dashboard(room)                    # doctest: +SKIP   (what displaying ``room`` shows)

    The view follows the class on its own, at most `UPDATES_PER_SECOND` times
    a second, while the kernel's event loop runs (between cells too).
    `refresh` updates it at once.
    """

    _esm = _bundle("dashboard.js", _MISSING_BUNDLE)
    _css = _bundle("dashboard.css", "")

    room = traitlets.Dict().tag(sync=True)
    table = traitlets.Dict().tag(sync=True)
    settings = traitlets.Dict().tag(sync=True)
    notice = traitlets.Dict().tag(sync=True)
    clock = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        room: ClassLike,
        *,
        lang: str | None = None,
        updates_per_second: float = UPDATES_PER_SECOND,
        **kwargs: Any,
    ) -> None:
        if not 0 < updates_per_second <= UPDATES_PER_SECOND:
            raise ValueError(
                f"updates_per_second must be > 0 and at most {UPDATES_PER_SECOND}, "
                f"not {updates_per_second!r}."
            )
        self._board = Board(room, lang=lang)
        self._interval = 1.0 / updates_per_second
        self._timer: asyncio.TimerHandle | None = None
        super().__init__(**self._board.state(), **kwargs)
        self.on_msg(self._on_msg)
        self._schedule()

    @property
    def board(self) -> Board:
        return self._board

    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        self._board.receive(content)
        self.refresh()

    def refresh(self) -> None:
        """Send what changed since the last update (nothing if nothing did)."""
        changed = self._board.changes()
        if changed:
            with self.hold_sync():
                for name, value in changed.items():
                    setattr(self, name, value)

    def _schedule(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no running event loop (a script): `refresh` by hand
            return
        self._timer = loop.call_later(self._interval, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if self.comm is None:  # closed
            return
        try:
            self.refresh()
        finally:
            self._schedule()

    def stop(self) -> None:
        """Stop following the class (it ended): the view keeps its last state."""
        timer = getattr(self, "_timer", None)
        if timer is not None:
            timer.cancel()
            self._timer = None
        board = getattr(self, "_board", None)
        if board is not None:
            board.close()

    def close(self) -> None:
        self.stop()
        super().close()
