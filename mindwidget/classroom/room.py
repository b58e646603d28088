"""The class's room: its state and rules, apart from any transport.

A `Room` is the class: its code and teacher's token, its pupils (join,
rejoin with a seat token, the name checks, a slower answer to repeated wrong
codes), its tables (`tables.ClassTable`: seating, Ready for all, timers), the
teacher's commands (start, pause, lock, move, give a seat to a bot, remove,
end), the teacher's `snapshot`, the class part of what a pupil's page
shows (`info`) and the lesson's questions to every page (`ask`, `answers`:
`questions.Questions`). It imports no Tornado and opens no socket: `server.py` carries
its messages, and a test (or a journal replaying a class) drives it with fake
links and `ManualTimers`.

What it needs from the transport comes in through two small protocols:

* `Link`: one pupil page's connection (``server.PupilSocket``). The room sets
  its ``pupil``, ``lang`` and ``fresh`` (the next update carries the whole
  state), and calls ``send(frame)`` (a small frame now: ``welcome``,
  ``nickname``), ``dirty()`` (what the page shows changed: the transport sends
  one coalesced ``update`` later, the frame the room builds, `frame_for`) and
  ``bye(key)`` (tell the page why, then close).
* `tables.Timers`: ``now()`` (the server's clock, seconds) and
  ``call_at(when, callback)`` returning a handle with ``cancel()``.
  ``server.LoopTimers`` wraps the running event loop.

Seams for the work that builds on the room:

* **Journal.** Every change of the class's state passes through
  `Room.record` *before* any link is marked dirty: ``join``, ``rejoin``,
  ``left``, ``gone``, ``set``, ``act`` (a pupil's table message: ``ready``,
  ``play``, ``stop``, ``vote``, ...), ``new_game``, ``start``, ``move``,
  ``give_to_bot``, ``remove``, ``lock``, ``pause``, ``end``, the questions'
  ``question``, ``answer`` and ``question_state``, and each table's
  timers (``tick``, ``bots_go_on``, via `ClassTable.record`). A pupil's
  message is recorded as it came, once checked by `inbox.parse`: one the table
  then refuses replays as refused, so a replay needs no verdict. An entry is a
  JSON-able dict with its ``kind`` and the server time ``t``; it goes to
  ``Room.recorder`` (default None: nothing is recorded). The transport calls
  `Room.before_send` once per loop turn, before it writes that turn's
  coalesced updates: a journal commits its batch there, so no page shows a
  state the journal has not kept.
* **Liveness.** The transport tells the room of each sign of life
  of a joined pupil (a message, a pong) by `Room.alive` and of a closed
  connection by `Room.left`; `Room.check` (called about once a second)
  decides who is gone (away longer than ``grace``) and stops their table.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..i18n import LANGS, seat_number
from ..refusal import Refused
from ..rules import RuleError
from .inbox import RateLimit
from .options import BOTS, TABLE_SIZES, RoomOptions, Unpack, check
from .questions import Question, Questions
from .snapshot import table_snapshot, waiting_row
from .tables import (
    PUPIL_SETTINGS,
    ClassTable,
    Link,
    Pupil,
    Timers,
)
from .words import check_name, fold, make_name

if TYPE_CHECKING:
    from .record import Restored

__all__ = [
    "BOTS",
    "MAX_PUPILS",
    "OFFLINE_S",
    "PING_S",
    "TABLE_SIZES",
    "Link",
    "ManualTimers",
    "Room",
    "Timers",
]

#: A table's phases with cards in play: a question waits on its pupils' pages.
PLAYING = frozenset(("play", "vote"))
#: Seconds between the server's pings of each page (the transport sends them; the
#: page counts a silence of a ping interval and 3 s more as a lost connection).
PING_S = 2.0
#: Seconds without a sign of life (a message, a pong) after which a pupil counts
#: as offline, whether or not their socket closed (a Wi-Fi out of range closes
#: nothing); a table message that arrives after such a silence was pressed while
#: the connection was lost and is refused ("late").
OFFLINE_S = 6.0
#: Wrong codes from one page (socket) before its answers slow down.
FREE_TRIES = 3
#: Wrong codes from one address (a whole school behind one router or proxy) before
#: every page there waits too: a guesser who opens a new socket for each try is
#: slowed, a class that mistypes now and then is not. Forgotten after ADDRESS_MEMORY_S
#: without a wrong code.
ADDRESS_FREE_TRIES = 20
ADDRESS_MEMORY_S = 600.0
#: New pupils one address may add at once, then one per JOIN_REFILL_S: a class of
#: 60 behind one address joins at once, one device cannot make up 1,000 pupils.
JOINS_PER_ADDRESS = 100
JOIN_REFILL_S = 3.0
#: A pupil who never played and whose page has been gone this long (and longer than
#: the grace period) gives up their place and name in the class.
UNPLAYED_HOLD_S = 60.0
#: The most pupils one class takes (a page with the code cannot fill the memory).
MAX_PUPILS = 1000

Recorder = Callable[[dict[str, Any]], None]
log = logging.getLogger("mindwidget.classroom")


class ManualTimers:
    """`Timers` on a clock that moves only when told (`advance`): for tests and replays."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = float(start)
        self._due: list[tuple[float, int, _Handle]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.t

    def call_at(self, when: float, callback: Callable[[], None]) -> _Handle:
        handle = _Handle(callback)
        heapq.heappush(self._due, (float(when), next(self._order), handle))
        return handle

    def next_due(self) -> float | None:
        """When the next live timer fires (None: none is set)."""
        while self._due and self._due[0][2].cancelled:
            heapq.heappop(self._due)
        return self._due[0][0] if self._due else None

    def advance(self, to: float) -> int:
        """Move the clock to ``to``, firing every timer due by then in order; how many."""
        fired = 0
        while (due := self.next_due()) is not None and due <= to:
            _, _, handle = heapq.heappop(self._due)
            self.t = max(self.t, due)
            handle.cancelled = True
            handle.callback()
            fired += 1
        self.t = max(self.t, float(to))
        return fired


class _Handle:
    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Room:
    """The class: pupils, tables, the teacher's commands (no transport; see the module).

    ``options`` are the class's own (`options.RoomOptions`: size, bots, tempo, lang,
    same_deal, seed, grace), checked by `options.check`. ``recorder`` gets each change
    (the journal's seam)."""

    def __init__(
        self,
        timers: Timers,
        *,
        recorder: Recorder | None = None,
        **options: Unpack[RoomOptions],
    ) -> None:
        o = check(options, room=True)
        self.timers = timers
        self.size: int = o["size"]
        self.bots: str = o["bots"]
        self.tempo: float | str = o["tempo"]
        self.lang: str = o["lang"]
        self.same_deal: bool = o["same_deal"]
        self.seed: int = o["seed"] if o["seed"] is not None else secrets.randbelow(2**31)
        self.grace: float = o["grace"]
        self.recorder = recorder
        self.commit: Callable[[], None] | None = None  # the journal's, at `before_send`
        self.code = f"{secrets.randbelow(10_000):04d}"
        self.teacher_token = secrets.token_urlsafe(24)
        self.locked = False
        self.ended = False  # the teacher ended the lesson (`end`)
        self.tables: list[ClassTable] = []
        self.pupils: dict[str, Pupil] = {}
        self._by_token: dict[str, Pupil] = {}
        self._count = 0
        self._wrong: OrderedDict[str, tuple[int, float, float]] = OrderedDict()
        self._wrong_here: weakref.WeakKeyDictionary[Link, tuple[int, float]] = (
            weakref.WeakKeyDictionary()
        )
        self._joins: OrderedDict[str, RateLimit] = OrderedDict()
        self._played: set[str] = set()  # pupils who sent a table action
        #: What each page was sent last: its seat's session and its class part (`frame_for`).
        self._shown: weakref.WeakKeyDictionary[Link, tuple[object, dict[str, Any]]] = (
            weakref.WeakKeyDictionary()
        )
        #: What each pupil's page keeps once the lesson ends, sent just before the class's
        #: goodbye: each gives a frame for a pupil (or None). Their own clock (`ownclock`).
        self.keepsakes: list[Callable[[Room, Pupil], dict[str, Any] | None]] = [_own_clock_kept]
        # where the class is served (the transport sets these; the snapshot shows them)
        self.address = ""
        self.url = ""
        self.qr_svg = ""
        #: the lesson's questions to every pupil (`ask`, `answers`; `questions.py`)
        self.questions = Questions(
            self.timers.now, self.record, self._question_changed, self.lang, self.timers.call_at
        )

    # ------------------------------------------------------------- the seams
    def record(self, kind: str, **fields: Any) -> None:
        """One change of the class's state, before any page hears of it (the journal)."""
        if self.recorder is not None:
            self.recorder({"kind": kind, "t": self.timers.now(), **fields})

    def before_send(self) -> None:
        """The transport is about to write this loop turn's updates (a journal commits)."""
        if self.commit is not None:
            self.commit()

    def restore(self, back: Restored) -> None:
        """The class its journal kept (`record.restore`), into this new room: its code,
        teacher's token and lock, its pupils (offline until their pages come back with
        their seat tokens; the grace period counts from now), and its tables with their
        seats and games (`ClassTable.resume`: a level in play waits for Ready)."""
        if self.pupils or self.tables:
            raise ValueError("a class is restored into a new room only.")
        self.code, self.teacher_token, self.locked = back.code, back.teacher_token, back.locked
        now = self.timers.now()
        for d in back.pupils.values():
            p = Pupil(id=d["id"], name=d["name"], lang=d["lang"], token=d["token"], address="")
            p.left_at = now
            self.pupils[p.id] = p
            self._by_token[p.token] = p
            self._played.add(p.id)  # a resumed class keeps every place (`UNPLAYED_HOLD_S`)
        self._count = back.count
        self.questions.restore(back.questions, time.time())  # seconds go on
        for r in back.tables.values():
            t = self._new_table()
            t.size = r.size
            chairs = {s: self.pupils[pid] for s, pid in enumerate(r.seats) if pid in self.pupils}
            t.resume(chairs, r.bots, r.games, r.game, r.people or (), r.held)

    def alive(self, pupil: Pupil, now: float) -> None:
        """A sign of life of ``pupil`` (a message, a pong) at server time ``now``. One
        after a silence longer than `OFFLINE_S` marks the message it came with late."""
        pupil.late = pupil.seen_at is not None and now - pupil.seen_at > OFFLINE_S
        pupil.seen_at = now
        if pupil.quiet or pupil.gone:
            self.record("back", pupil=pupil.id)
            pupil.quiet = pupil.gone = False
            if pupil.table_id is not None:
                self.table(pupil.table_id).presence_changed()

    def left(self, link: Link, now: float) -> None:
        """``link`` closed at ``now``: its pupil is offline (and gone ``grace`` after their
        last sign of life)."""
        p = link.pupil
        if p is not None and p.link is link:
            self.record("left", pupil=p.id)
            p.link = None
            p.left_at = now
            if p.table_id is not None:
                self.table(p.table_id).presence_changed()

    def check(self, now: float) -> None:
        """Counted from each pupil's last sign of life (not from a socket's close): silent
        for `OFFLINE_S`, offline (the dashboard shows it); away longer than the grace
        period, gone: their table stops ("offline"). One who never played and whose
        socket closed `UNPLAYED_HOLD_S` ago leaves the class, so their name is free again."""
        hold = max(self.grace, UNPLAYED_HOLD_S)
        for p in list(self.pupils.values()):
            left = p.left_at
            made_up = p.link is None and p.id not in self._played  # and away that long:
            if made_up and left is not None and now - left >= hold:
                self.remove(p.id)
                continue
            last = p.seen_at if p.seen_at is not None else p.left_at
            if last is None:
                continue
            if p.link is not None and not p.quiet and now - last > OFFLINE_S:
                self.record("quiet", pupil=p.id)
                p.quiet = True
                if p.table_id is not None:
                    self.table(p.table_id).presence_changed()
            offline = p.link is None or p.quiet
            if offline and now - last >= self.grace and not p.gone:
                self.record("gone", pupil=p.id)
                p.gone = True
                if p.table_id is not None:
                    self.table(p.table_id).gone(p)

    # ---------------------------------------------------------------- reading
    def snapshot(self) -> dict[str, Any]:
        """What the teacher's dashboard shows, JSON-ready (`wire.py`)."""
        tables = [table_snapshot(t, self.lang) for t in self.tables]
        waiting = [waiting_row(p) for p in self.pupils.values() if p.table_id is None]
        return {
            "code": self.code,
            "url": self.url,
            "address": self.address,
            "qr_svg": self.qr_svg,
            "locked": self.locked,
            "ended": self.ended,
            "lang": self.lang,
            "size": self.size,
            "same_deal": self.same_deal,
            "tables": tables,
            "waiting_room": waiting,
        }

    def table(self, table_id: int) -> ClassTable:
        """The class's table ``table_id`` (from 1)."""
        ok = isinstance(table_id, int) and not isinstance(table_id, bool)
        if ok and 1 <= table_id <= len(self.tables):
            return self.tables[table_id - 1]  # tables are numbered in order, never removed
        ids = ", ".join(str(t.id) for t in self.tables) or "none yet"
        raise ValueError(f"table_id must be one of the class's tables ({ids}), not {table_id!r}.")

    def pupil(self, pupil_id: str) -> Pupil:
        p = self.pupils.get(pupil_id)
        if p is None:
            raise ValueError(f"pupil_id must be one of the class's pupils, not {pupil_id!r}.")
        return p

    def table_of(self, p: Pupil) -> ClassTable | None:
        return self.table(p.table_id) if p.table_id is not None else None

    def info(self, p: Pupil) -> dict[str, Any]:
        """The class part of a pupil's update: their table and who else sits there,
        whether they may open their own clock, and the lesson's current question
        (`Questions.pupil_view`: their own answer only)."""
        if p.table_id is None:
            out: dict[str, Any] = {"table": None, "seat": None, "name": p.name, "lang": p.lang}
            held = False
        else:
            t = self.table(p.table_id)
            out = t.info(p) | {"name": p.name, "lang": p.lang}
            held = t.phase in PLAYING  # a question never covers cards in play
        out["own_clock"] = self.clock_open(p)
        if self.questions.asked:
            out["question"] = self.questions.pupil_view(p, held)
        return out

    def frame_for(self, link: Link) -> dict[str, Any] | None:
        """The ``update`` frame for the page at ``link`` (None: nothing new to show).

        ``state``: the whole state of its pupil's seat (`Session.state`; None: no seat
        in play), when the page is ``fresh`` or the seat's session is another than the
        page was last sent; else ``changes``, what changed since (`Session.changes`).
        ``class``: the class part (`info`), with a state or when it changed."""
        p = link.pupil
        if p is None:
            return None
        t = self.table_of(p)
        session = t.session_of(p) if t is not None else None
        shown = self._shown.get(link)
        frame: dict[str, Any] = {"type": "update"}
        if link.fresh or shown is None or session is not shown[0]:
            frame["state"] = session.state() if session is not None else None
            link.fresh = False
        elif session is not None:
            changes = session.changes()
            if changes:
                frame["changes"] = changes
        info = self.info(p)
        if "state" in frame or shown is None or info != shown[1]:
            frame["class"] = info
        self._shown[link] = (session, info)
        return frame if len(frame) > 1 else None

    def clock_data(self, pupil_id: str | None) -> dict[str, Any]:
        """A pupil's clock as their page gets it (`ownclock.own_clock`), or the class's
        (None: every pupil's plays): what the teacher's dashboard shows."""
        from .ownclock import own_clock  # (it reads the class's data: `roomdata`)

        return own_clock(self, None if pupil_id is None else self.pupil(pupil_id))

    def clock_open(self, p: Pupil) -> bool:
        """``p`` may open their own clock ("Jouw klok", `ownclock`) now: between levels
        (a level cleared, or the next one dealt and no card played yet), at the end of a
        game, or before their table starts; never while a level is under way."""
        t = self.table_of(p)
        if t is None or t.table is None:
            return True
        phase = t.table.phase
        return phase in ("cleared", "won", "lost") or (phase == "ready" and not t.table.game.pile)

    # ---------------------------------------------------------- questions
    def ask(self, question: Any, choices: Any, answer: Any = None) -> Question:
        """Put a question to every pupil's page; the `Question` (display it in a cell:
        how many have answered, live; `Question.reveal`, `close`, `answers`, `counts`).

        ``question`` and each of ``choices`` (2 to 12) are a text, or a dict
        ``{lang: text}`` so that every pupil reads it in their own language;
        ``answer`` is the index of the right choice, or None for a question of
        opinion. A question still open is closed first. See docs/class-questions.md.
        """
        asked = self.questions.ask(question, choices, answer)
        return Question(self.questions, asked, lambda: len(self.pupils))

    def answers(self) -> Any:
        """Every answer to every question of the lesson (a DataFrame: question, text,
        pupil, name, table, choice, choice_text, right, seconds; `questions.COLUMNS`);
        kept in the journal, so it survives a resume."""
        return self.questions.frame()

    def _question_changed(self, _asked: Any, pupil: str | None) -> None:
        """A question changed: the pages that show it hear so (one pupil's answer: theirs)."""
        if pupil is not None:
            p = self.pupils.get(pupil)
            if p is not None:
                self._dirty(p)
            return
        for p in self.pupils.values():
            self._dirty(p)

    # ---------------------------------------------------------- the teacher
    def start_table(self, table_id: int) -> None:
        """Start a table now, with bots in its empty seats (or fewer players: bots='none')."""
        t = self.table(table_id)
        self.record("start", table=t.id)
        t.start()

    def start_all(self) -> None:
        """Start every table that has a pupil (bots fill the empty seats)."""
        self.record("start_all")
        for t in self.tables:
            if t.table is None and t.pupils and (self.bots != "none" or len(t.pupils) >= 2):
                t.start()

    def pause_all(self) -> None:
        """Stop every running level (hands on the table; each pupil presses Ready to go on)."""
        self.record("pause")
        for t in self.tables:
            t.stop_play()

    def lock(self, locked: bool = True) -> None:
        """No new pupils join while locked (a pupil with a seat token still gets back in)."""
        self.record("lock", locked=bool(locked))
        self.locked = bool(locked)

    def remove(self, pupil_id: str) -> None:
        """Take a pupil out of the class (their page is told; their seat is left empty)."""
        p = self.pupil(pupil_id)
        self.record("remove", pupil=p.id)
        self._unseat(p)
        del self.pupils[p.id]
        self._by_token.pop(p.token, None)
        self.questions.pupils_changed()
        link = p.link
        p.link = None
        if link is not None:
            link.bye("seat_gone")

    def move(self, pupil_id: str, table_id: int | None, seat: int | None = None) -> None:
        """Seat a pupil at ``table_id`` (a free seat, a bot's, or the seat of a pupil gone
        past the grace period, who goes to the waiting room; ``seat`` from 0, None: the
        first free one), or in the waiting room (``table_id=None``)."""
        p = self.pupil(pupil_id)
        if table_id is None:
            self.record("move", pupil=p.id, table=None, seat=None)
            self._unseat(p)
            self._dirty(p)
            return
        t = self.table(table_id)
        if seat is None:
            seat = t.free_seat()
            if seat is None:
                raise Refused("no_free_seat", words="teacher", table=t.id)
        occupant = t.chairs.get(seat) if 0 <= seat < t.size else None
        gone = occupant is not None and occupant.gone and occupant is not p
        if not 0 <= seat < t.size or (occupant is not None and not gone):
            raise Refused("seat_not_free", words="teacher", table=t.id, seat=seat_number(seat))
        self.record("move", pupil=p.id, table=t.id, seat=seat)
        if gone and occupant is not None:
            self._unseat(occupant)  # away past the grace period: to the waiting room
        self._unseat(p)
        t.sit(p, seat)
        self._auto_start(t)
        session = t.session_of(p)
        if session is not None:  # a table in play: the pupil's cards changed without a word
            session.tell("moved", table=t.id)

    def give_to_bot(self, table_id: int, seat: int) -> None:
        """A bot takes ``seat`` (from 0) of a table; a pupil sitting there goes to the
        waiting room."""
        t = self.table(table_id)
        if not 0 <= seat < t.size:
            raise ValueError(f"seat must be from 1 to {t.size}, not {seat_number(seat)}.")
        self.record("give_to_bot", table=t.id, seat=seat)
        pupil = t.to_bot(seat)
        if pupil is not None:
            self._dirty(pupil)

    def end(self) -> None:
        """The lesson is over: every page is told, and every table stops its clock. Each
        page gets what it keeps after the lesson first (`keepsakes`: its own clock); a
        question still open is closed (its answers are the lesson's)."""
        current = self.questions.current()
        if current is not None and current.state == "open":
            self.questions.close(current.id)
        self.record("end")
        for p in self.pupils.values():
            if p.link is not None:
                for keepsake in self.keepsakes:
                    try:
                        frame = keepsake(self, p)
                    except Exception:  # a keepsake that fails must not stop the end
                        log.exception("keepsake for %s failed", p.id)
                        continue
                    if frame is not None:
                        p.link.send(frame)
                p.link.bye("class_ended")
        for t in self.tables:
            t.close()
        self.locked = True
        self.ended = True

    # ---------------------------------------------------------- the pupils
    def receive(self, link: Link, msg: dict[str, Any]) -> None:
        """One checked message (`inbox.parse`) from a pupil's page; `Refused` if refused
        (nothing changed)."""
        kind = msg["type"]
        if kind == "nickname":
            lang = msg.get("lang") if msg.get("lang") in LANGS else link.lang
            taken = {fold(p.name) for p in self.pupils.values()}
            link.send({"type": "nickname", "name": make_name(str(lang), taken)})
        elif kind == "join":
            self._join(link, msg)
        elif kind == "rejoin":
            self._rejoin(link, msg["token"])
        else:
            p = link.pupil
            if p is None or p.link is not link:
                raise Refused("not_joined", words="class")
            self._from_pupil(link, p, msg)

    def _join(self, link: Link, msg: dict[str, Any]) -> None:
        if link.pupil is not None:
            raise Refused("bad_message", words="class", what="joined already")
        lang = msg.get("lang")
        if lang in LANGS:
            link.lang = str(lang)
        now = self.timers.now()
        here, here_until = self._wrong_here.get(link, (0, 0.0))
        tries, until, last = self._wrong.get(link.address, (0, 0.0, now))
        if now - last > ADDRESS_MEMORY_S:
            tries, until = 0, 0.0
        if now < max(until, here_until):
            raise Refused("slow_down", words="class", s=max(1, round(max(until, here_until) - now)))
        # the code as typed from the projector, where its digits stand apart: spaces anywhere go
        typed = "".join(str(msg["code"]).split())
        if not secrets.compare_digest(typed.encode(), self.code.encode()):
            self._wrong_here[link] = (here + 1, now + _back_off(here + 1, FREE_TRIES))
            self._wrong[link.address] = (
                tries + 1,
                now + _back_off(tries + 1, ADDRESS_FREE_TRIES),
                now,
            )
            self._wrong.move_to_end(link.address)
            while len(self._wrong) > 10_000:
                self._wrong.popitem(last=False)
            raise Refused("bad_code", words="class")
        name = check_name(msg["name"])
        if name is None:
            raise Refused("bad_name", words="class")
        if any(fold(p.name) == fold(name) for p in self.pupils.values()):
            raise Refused("name_taken", words="class", name=name)
        if self.ended:  # (locked too, but "closed to new players" is not what happened)
            raise Refused("class_ended", words="class")
        if self.locked:
            raise Refused("locked", words="class")
        if len(self.pupils) >= MAX_PUPILS:
            raise Refused("class_full", words="class")
        joins = self._joins.pop(link.address, None) or RateLimit(
            1 / JOIN_REFILL_S, JOINS_PER_ADDRESS, now=self.timers.now
        )
        self._joins[link.address] = joins  # the most recent last; the oldest forgotten
        while len(self._joins) > 10_000:
            self._joins.popitem(last=False)
        if not joins.take():
            raise Refused("too_many_joins", words="class", s=round(JOIN_REFILL_S))
        self._wrong_here.pop(link, None)
        self._count += 1
        token = secrets.token_urlsafe(24)
        p = Pupil(
            id=f"p{self._count}", name=name, lang=link.lang, token=token, address=link.address
        )
        self.record("join", pupil=p.id, name=name, lang=p.lang, token=token, address=p.address)
        self.pupils[p.id] = p
        self._by_token[token] = p
        self._attach(link, p)
        self._seat(p)
        self.questions.pupils_changed()

    def _rejoin(self, link: Link, token: str) -> None:
        p = self._by_token.get(token)
        if p is None or not secrets.compare_digest(p.token.encode(), token.encode()):
            raise Refused("seat_gone", words="class")
        if link.pupil is not None and link.pupil is not p:  # a page is one pupil
            raise Refused("bad_message", words="class", what="joined already")
        self.record("rejoin", pupil=p.id)
        old = p.link
        if old is not None and old is not link:
            old.pupil = None
            old.bye("elsewhere")
        self._attach(link, p)

    def _attach(self, link: Link, p: Pupil) -> None:
        link.pupil = p
        link.lang = p.lang
        link.fresh = True
        p.link = link
        p.left_at = None
        p.gone = p.quiet = p.late = False
        p.seen_at = self.timers.now()
        welcome = {"type": "welcome", "pupil": p.id, "name": p.name, "token": p.token}
        link.send(welcome | {"ping_s": PING_S})  # the page counts its silence from this
        if p.table_id is not None:
            self.table(p.table_id).presence_changed()  # the others see them back
        link.dirty()

    def _from_pupil(self, link: Link, p: Pupil, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("hello", "tick"):
            return  # the server keeps the time, and every state carries the trace
        if kind == "own_clock":  # "Jouw klok": their own plays, the class's aggregate
            if not self.clock_open(p):
                raise Refused("clock_later", words="class")
            from .ownclock import asked  # (it reads the class's data: `roomdata`)

            link.send(asked(self, p, self.timers.now()))
            return
        if kind == "answer":  # the lesson's question (`Questions.answer`: refused or kept)
            self.questions.answer(p, msg["question"], msg["choice"])
            return
        t = self.table_of(p)
        session = t.session_of(p) if t is not None else None
        if kind == "set":
            name, value = msg["name"], msg["value"]
            if name not in PUPIL_SETTINGS:  # the bots' tempo is the teacher's choice
                raise Refused("bad_message", words="class", what=f"set {str(name)[:20]}")
            self.record("set", pupil=p.id, name=name, value=value)
            if session is not None:
                if session.set(name, value) and name == "lang":
                    p.lang = link.lang = str(value)
            elif name == "lang" and value in LANGS:
                p.lang = link.lang = str(value)
            link.dirty()
            return
        # the rest are the table's messages (`wire.TableMessage`: parse let no other in)
        if t is None or session is None or p.seat is None:
            raise Refused("not_started", words="class")
        if p.late:  # pressed while the connection was lost: it arrives too late to count
            p.late = False
            raise Refused("late", words="class")
        self.record("act", pupil=p.id, table=t.id, seat=p.seat, message=dict(msg))
        self._played.add(p.id)
        if kind == "ready":
            t.press_ready(p.seat, msg)
        elif kind == "new_game" and "new_game" not in session.withheld:
            try:
                t.new_game()
            except RuleError:
                session.receive(msg)  # the session says why not, as the widget does
        else:
            session.receive(msg)
        link.dirty()

    # --------------------------------------------------------------- seating
    def _seed_for(self, table_id: int) -> Callable[[int], int]:
        def seed(game: int) -> int:
            which = 0 if self.same_deal else table_id
            return (self.seed * 1_000_003 + game * 10_007 + which) % 2**32

        return seed

    def _new_table(self) -> ClassTable:
        t = ClassTable(
            id=len(self.tables) + 1,
            size=self.size,
            bots=self.bots,
            tempo=self.tempo,
            seed_for=self._seed_for(len(self.tables) + 1),
            timers=self.timers,
            record=self.record,
        )
        self.tables.append(t)
        return t

    def _seat(self, p: Pupil) -> None:
        """A new pupil sits at the first table that has not started and has a free seat."""
        for t in self.tables:
            if t.table is None and (seat := t.free_seat()) is not None:
                break
        else:
            t = self._new_table()
            seat = 0
        t.sit(p, seat)
        self._auto_start(t)

    def _auto_start(self, t: ClassTable) -> None:
        if t.table is None and t.full and t.pupils:
            t.start()

    def _unseat(self, p: Pupil) -> None:
        if p.table_id is not None:
            self.table(p.table_id).leave(p)

    def _dirty(self, p: Pupil) -> None:
        if p.link is not None:
            p.link.dirty()


def _own_clock_kept(room: Room, p: Pupil) -> dict[str, Any] | None:
    """The pupil's own clock as the lesson ends (`ownclock.own_clock`, ``ended``)."""
    from .ownclock import own_clock  # (it reads the class's data: `roomdata`)

    return own_clock(room, p, ended=True)


def _back_off(tries: int, free: int) -> float:
    """Seconds to wait after ``tries`` wrong codes, ``free`` of them without a wait."""
    return 0.0 if tries < free else min(60.0, 2.0 ** (tries - free + 1))
