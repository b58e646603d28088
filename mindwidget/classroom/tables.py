"""The class's tables and pupils: who sits where, when a table starts, Ready for all.

No network here (`room.Room` holds the tables; `server.py` and `links.py`
carry the messages). A `ClassTable` holds:

* its chairs (`chairs`: every seat, from 0, to its pupil or None): a `Pupil`
  in each seat a pupil took, a bot in each seat the teacher gave to a bot, or
  nobody;
* once started, a `Table` (layer 3) with the pupils' seats as its person
  seats and bots in the rest, one `HostClock` (the server keeps the table's
  time) and one `Session` per pupil (`mindwidget.session`: that seat's view,
  checks and changes, exactly as the notebook widget has them);
* the Ready gate. A `Table` starts (or goes on after a stop) at one
  ``ready``; at a class table the level goes on only when every pupil at the
  table has pressed Ready, so each pupil's Ready is written down here and the
  last one is passed on (`press_ready`);
* a timer (`Timers`, the server's event loop) at the clock's next planned bot action
  (`HostClock.due`), set again after every change. A table without pupils
  (every seat given to a bot) has nobody to press Ready or Next level: its
  bots do, after the table's human-like pause (`BOTS_READY_PAUSE`) on the
  server's clock, as they do after a mistake.

Seating changes of a started table (a seat given to a bot, a pupil moved in)
build a new `Table` around the same `Game`: the game, its trace and its
random generator go on; the bots plan again.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..game import Game
from ..i18n import seat_number, translate
from ..refusal import Refused
from ..rules import RuleError
from ..session import HostClock, Session
from ..table import BOTS_READY_PAUSE, Table
from .seatview import ClassOverlay

__all__ = [
    "ClassTable",
    "Link",
    "Pupil",
    "Timer",
    "Timers",
]

log = logging.getLogger("mindwidget.classroom")

#: Phases in which every hand is on the table and Ready is awaited.
HANDS_ON = ("ready", "stopped")
#: What a pupil's page may set (the table's tempo and speed are the teacher's).
PUPIL_SETTINGS = ("lang", "size")


class Link(Protocol):
    """One pupil page's connection (`links.PupilSocket`; the room's seam, `room.py`)."""

    pupil: Pupil | None
    lang: str
    address: str
    fresh: bool  # the next update carries the whole state

    def send(self, frame: dict[str, Any]) -> None: ...
    def dirty(self) -> None: ...
    def bye(self, key: str) -> None: ...


class Timer(Protocol):
    """A timer that was set (an `asyncio.TimerHandle`, or `room.ManualTimers`' own)."""

    def cancel(self) -> None: ...


class Timers(Protocol):
    """The server's clock and its timers (`server.LoopTimers`, `room.ManualTimers`)."""

    def now(self) -> float: ...
    def call_at(self, when: float, callback: Callable[[], None]) -> Timer: ...


def _no_record(kind: str, **fields: Any) -> None:
    """The default of `ClassTable.record`: nothing is journaled."""


@dataclass(eq=False)
class Pupil:
    """A pupil of the class: ``id`` ("p1", ...), nickname, language, seat token."""

    id: str
    name: str
    lang: str
    token: str
    address: str
    table_id: int | None = None
    seat: int | None = None
    link: Link | None = None
    rtt_ms: float | None = None
    left_at: float | None = None  # server time the connection went (None: connected or never)
    seen_at: float | None = None  # server time of the latest sign of life (`Room.alive`)
    quiet: bool = False  # no sign of life for `room.OFFLINE_S`: offline, the link still open
    late: bool = False  # the latest message came after such a silence (`Room.alive`)
    gone: bool = False  # away longer than the grace period

    @property
    def connected(self) -> bool:
        """Online: a link, and a sign of life within `room.OFFLINE_S` (not its socket's close)."""
        return self.link is not None and not self.quiet


@dataclass(eq=False)
class ClassTable:
    """One table of the class (``id`` from 1) with ``size`` seats (from 0 in code)."""

    id: int
    size: int
    bots: str
    tempo: float | str
    seed_for: Callable[[int], int]  # the deal of this table's k-th game
    timers: Timers
    record: Callable[..., None] = _no_record  # `Room.record`: the journal's seam
    #: every seat of the table (from 0) -> its pupil, or None (empty, or a bot's)
    chairs: dict[int, Pupil | None] = field(default_factory=dict)
    bot_seats: set[int] = field(default_factory=set)
    table: Table | None = None
    host: HostClock | None = None
    sessions: dict[int, Session] = field(default_factory=dict)
    ready: set[int] = field(default_factory=set)
    games: int = 0
    #: Each pupil's round trip when their card was played, (level, blind, card) -> ms,
    #: of the game being played (`classdata.plays` shows it as it was then).
    play_rtt: dict[tuple[int, bool, int], float] = field(default_factory=dict)
    #: The games this table played before its current one (New game), in order, each
    #: with its `seat_history` and `play_rtt`: the class's plays keep them (`roomdata.plays`).
    #: (A class resumed from its journal starts again from its current games.)
    earlier: list[tuple[Game, list[dict[str, Any]], dict[tuple[int, bool, int], float]]] = field(
        default_factory=list
    )
    _timer: Timer | None = None
    _stamped: tuple[int, int] = (0, 0)  # (id of the game, its events stamped so far)
    #: who held each seat during the current game, in order: (the game's event count
    #: when they took it, seat, kind, name, pupil id or None); see `seat_history`
    _held: list[tuple[int, int, str, str, str | None]] = field(default_factory=list)
    _held_game: object = None
    #: the seats of `_held` that changed hands, and the list (and its length) they are of
    _handed: tuple[object, int, frozenset[int]] = (None, 0, frozenset())
    #: the teacher paused while the table voted on a throwing star: the pause follows the vote
    _pause_after_vote: bool = False

    def __post_init__(self) -> None:
        self.chairs = {s: None for s in range(self.size)}

    # ------------------------------------------------------------ reading
    @property
    def started(self) -> bool:
        return self.table is not None

    @property
    def pupils(self) -> list[Pupil]:
        return [p for p in self.chairs.values() if p is not None]

    def free_seat(self) -> int | None:
        """The first seat with nobody in it (not a bot's), or None."""
        for s, p in self.chairs.items():
            if p is None and s not in self.bot_seats:
                return s
        return None

    @property
    def full(self) -> bool:
        return self.free_seat() is None

    @property
    def phase(self) -> str:
        return "waiting" if self.table is None else self.table.phase

    def waiting_for(self) -> list[int]:
        """The person seats whose Ready the table waits for (none while it plays)."""
        if self.table is None or self.table.phase not in HANDS_ON:
            return []
        return [s for s in self.table.seats if s not in self.ready]

    def info(self, pupil: Pupil) -> dict[str, Any]:
        """What ``pupil``'s page shows around the table: where they sit and who else."""
        seats = []
        for s in range(self.size):
            p = self.chairs.get(s)
            if p is not None:
                seats.append({"seat": s, "kind": "person", "name": p.name, "connected": not p.gone})
            elif s in self.bot_seats or (self.table is not None and s not in self.table.seats):
                seats.append({"seat": s, "kind": "bot"})
            else:
                seats.append({"seat": s, "kind": "empty"})
        return {
            "table": self.id,
            "seat": pupil.seat,
            "size": self.size,
            "started": self.started,
            "seats": seats,
            "waiting_for": self.waiting_for(),
            "ready": pupil.seat in self.ready,
        }

    # ------------------------------------------------------------ seating
    def sit(self, pupil: Pupil, seat: int) -> None:
        """``pupil`` takes ``seat`` (empty or a bot's)."""
        if self.chairs.get(seat) is not None:
            raise ValueError(f"seat {seat_number(seat)} of table {self.id} is taken.")
        self.chairs[seat] = pupil
        self.bot_seats.discard(seat)
        pupil.table_id, pupil.seat = self.id, seat
        if self.table is not None and seat not in self.table.seats:
            self._reseat()
            self._stop_for(seat, self.sessions.get(seat), "seat")  # everyone sees who plays it now
        elif self.table is not None:
            self._note_holders()
            self._attach(pupil)
        self._seating_changed()

    def leave(self, pupil: Pupil) -> None:
        """``pupil`` leaves their seat. At a started table a bot plays it at once (named
        as everywhere, "Bot 2") until the teacher seats a pupil there, and a running
        level stops for the change of seat ("seat"): the others never wait for a Ready
        nobody will press."""
        seat = pupil.seat
        if pupil.table_id != self.id or seat is None or self.chairs.get(seat) is not pupil:
            return
        self.chairs[seat] = None
        pupil.table_id = pupil.seat = None
        session = self.sessions.pop(seat, None)
        if self.table is not None:
            self._stop_for(seat, session, "seat")
        if session is not None:
            session.close()
        self.ready.discard(seat)
        if self.table is not None:
            self.record("to_bot", table=self.id, seat=seat, why="left")
            self.bot_seats.add(seat)
            if seat in self.table.seats:
                self._reseat()
            self._note_holders()
        self._seating_changed()

    def to_bot(self, seat: int) -> Pupil | None:
        """A bot takes ``seat``; returns the pupil who sat there (now seatless)."""
        if not 0 <= seat < self.size:
            raise ValueError(f"seat must be from 1 to {self.size}, not {seat_number(seat)}.")
        pupil = self.chairs.get(seat)
        if pupil is not None:
            self.leave(pupil)
        self.bot_seats.add(seat)
        if self.table is not None and seat in self.table.seats:
            self._stop_for(seat, self.sessions.get(seat), "seat")
            self._reseat()
        self._note_holders()
        self._seating_changed()
        return pupil

    # ------------------------------------------------------------ playing
    def start(self) -> None:
        """Deal and start: the pupils in their seats, bots in the rest."""
        if self.table is not None:
            return
        people = tuple(s for s, p in self.chairs.items() if p is not None)
        if not people and not self.bot_seats:  # the teacher's bots may play alone
            raise Refused("start_empty", words="teacher", table=self.id)
        players = self.size
        if self.bots == "none":
            if len(people) < 2:
                raise Refused("start_too_few", words="teacher", table=self.id, n=len(people))
            # no bots: the pupils close up to seats 0..k-1 at a table of k
            pupils = [self.chairs[s] for s in people]
            players = len(pupils)
            self.size = players
            self.chairs = {s: p for s, p in enumerate(pupils)}
            for s, p in self.chairs.items():
                assert p is not None
                p.seat = s
            people = tuple(range(players))
            self.bot_seats = set()
        self.games += 1
        table = Table(
            players=players,
            seats=people,
            bots=self._bot_name(),
            seed=self.seed_for(self.games),
            tempo=self.tempo,
        )
        self._use(table)

    def new_game(self) -> None:
        """The next game of this table (its deal from the class's seeds); the one it
        played before is kept, with who held its seats (`earlier`)."""
        if self.table is None:
            raise RuleError("not started")
        before = (self.table.game, self.seat_history(), dict(self.play_rtt))
        self.table.new_game(seed=self.seed_for(self.games + 1))  # refused: nothing counted
        self.games += 1
        self.earlier.append(before)

    def press_ready(self, seat: int, message: dict[str, Any]) -> None:
        """``seat``'s Ready: written down; the last pupil's goes to the table."""
        assert self.table is not None
        session = self.sessions[seat]
        if self.table.phase not in HANDS_ON:
            session.receive(message)  # refused by the session, with its notice
            return
        self.ready.add(seat)
        if set(self.table.seats) <= self.ready:
            session.receive(message)
        else:
            session.refresh()  # Ready is withheld: its page says so until the table goes on
        self.notify()

    def resume(
        self,
        chairs: Mapping[int, Pupil],
        bots: Collection[int],
        games: int,
        game: Game | None = None,
        people: Collection[int] = (),
        held: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """The table as its journal left it (`Room.restore`): ``chairs`` (pupils by seat),
        the bots' seats, its games so far and its game, rebuilt from its actions, with
        ``people`` as the game's person seats, and ``held``, who held each seat when
        (`seat_history`; None: from the holders now); the bots plan afresh. A level in play
        stops (hands on the table) until every pupil at the table presses Ready."""
        self.chairs = {s: chairs.get(s) for s in range(self.size)}
        for s, p in self.chairs.items():
            if p is not None:
                p.table_id, p.seat = self.id, s
        self.bot_seats = set(bots)
        self.games = games
        if game is not None:
            table = Table(
                players=game.players,
                seats=tuple(people),
                bots=self._bot_name(),
                game=game,
                tempo=self.tempo,
            )
            if held:  # before `_use`: its note adds only what changed since
                self._held_game = game
                self._held = [
                    (h["from"], h["seat"], h["kind"], h["name"], h["pupil"]) for h in held
                ]
            self._use(table)
            for seat, session in self.sessions.items():  # in the first pupil's name
                self._stop_for(seat, session, "resumed")
                break
            for session in self.sessions.values():
                session.tell("resumed")  # why the table stopped

    def stop_play(self) -> bool:
        """Stop a running level (the teacher's pause, "teacher"); True if it stopped. A
        vote on a throwing star is not cut off: the level stops once it is decided, if
        it then plays on (a star used stops it by itself, hands on the table)."""
        if self.table is not None and self.table.phase == "vote":
            self._pause_after_vote = True
            return False
        if self.table is None or self.table.phase != "play":
            return False
        for seat, session in self.sessions.items():
            self._stop_for(seat, session, "teacher")
            break
        return self.table.phase != "play"

    def _pause_now(self) -> None:
        """The teacher's pause that waited for a vote (`stop_play`)."""
        self.stop_play()

    def _stop_for(self, seat: int, session: Session | None, why: str) -> None:
        """The level stops in ``seat``'s name for ``why`` (`events.STOP_REASONS`: the
        teacher, a lost connection, a change of seat), at the host's time."""
        if self.table is None or self.table.phase != "play":
            return
        if session is not None and seat in self.table.seats:
            self.record("stop", table=self.id, seat=seat, why=why)
            session.stop_for(why)

    def gone(self, pupil: Pupil) -> None:
        """``pupil`` has been away longer than the grace period: the table stops ("offline")."""
        if pupil.seat is not None:
            self._stop_for(pupil.seat, self.sessions.get(pupil.seat), "offline")
        self.notify()

    # ------------------------------------------------------------ history
    def _note_holders(self) -> None:
        """Write down who holds each seat from now on (a change since the last note)."""
        if self.table is None:
            return
        game = self.table.game
        if game is not self._held_game:  # a new game: its history starts afresh
            self._held_game, self._held = game, []
        at = len(game.events)
        last: dict[int, tuple[str, str, str | None]] = {}
        for _, s, kind, name, pid in self._held:
            last[s] = (kind, name, pid)
        for s in range(self.size):
            p = self.chairs.get(s)
            now = (
                ("person", p.name, p.id)
                if p is not None
                else ("bot", translate("bot", "en", player=s), None)
            )
            if last.get(s) != now:
                self._held.append((at, s, *now))

    def seat_history(self) -> list[dict[str, Any]]:
        """Who held each seat during the current game: ``{"seat", "kind", "name",
        "from"}`` per holder, ``from`` the game's event count when they took the seat
        (0: from the deal), as `mindwidget.classdata.plays` reads it. A card belongs to
        whoever held its seat when it was played: a pupil who takes a seat never
        inherits a bot's or another pupil's cards."""
        if self.table is None or self.table.game is not self._held_game:
            return []
        return [
            {"seat": s, "kind": kind, "name": name, "from": at, "pupil": pid}
            for at, s, kind, name, pid in self._held
        ]

    def earlier_name(self, seat: int, at: int) -> str | None:
        """The name of who held ``seat`` at the game's event ``at`` if not who holds it now
        (`seatview.ClassOverlay`: a pupil's board labels that card with it, never "you")."""
        if seat not in self._handed_over():
            return None  # one holder all game (nobody moved): asked for every card, kept quick
        then = self.holder_at(seat, at)
        if then is None or self.table is None:
            return None
        return None if then == self.holder_at(seat, len(self.table.game.events)) else then[1]

    def _handed_over(self) -> frozenset[int]:
        """The seats that more than one holder held in this game's `_held`."""
        held, n, seats = self._handed
        if held is not self._held or n != len(self._held):
            count = Counter(s for _, s, *_ in self._held)
            seats = frozenset(s for s, k in count.items() if k > 1)
            self._handed = (self._held, len(self._held), seats)
        return seats

    def holder_at(self, seat: int, at: int) -> tuple[str, str, str | None] | None:
        """(kind, name, pupil id) of who held ``seat`` at the game's event ``at``."""
        if self.table is None or self.table.game is not self._held_game:
            return None
        found = None
        for start, s, kind, name, pid in self._held:
            if s == seat and start <= at:
                found = (kind, name, pid)
        return found

    def session_of(self, pupil: Pupil) -> Session | None:
        if pupil.seat is None or self.chairs.get(pupil.seat) is not pupil:
            return None
        return self.sessions.get(pupil.seat)

    def close(self) -> None:
        """No more timers or sessions (the class ended)."""
        self._cancel()
        if self.table is not None:
            self.table.unlisten(self._on_change)
        if self.host is not None:
            self.host.close()
        for session in self.sessions.values():
            session.close()
        self.sessions.clear()

    # ------------------------------------------------------------ inside
    def _bot_name(self) -> str:
        return "human" if self.bots == "none" else self.bots

    def _use(self, table: Table) -> None:
        """Play on ``table`` from now on: its clock, its sessions, its timer."""
        self.close()
        self.table = table
        self.host = HostClock(table, now=self.timers.now)
        self.ready = set()
        table.listen(self._on_change)
        self._note_holders()  # before the sessions: their views name earlier holders
        for p in self.pupils:
            self._attach(p)
        self._on_change()

    def _attach(self, pupil: Pupil) -> None:
        assert self.table is not None and pupil.seat is not None
        old = self.sessions.pop(pupil.seat, None)
        if old is not None:
            old.close()
        session = Session(
            self.table,
            pupil.seat,
            lang=pupil.lang,
            clock="host",
            host=self.host,
            overlay=ClassOverlay(self, PUPIL_SETTINGS),
        )
        self.sessions[pupil.seat] = session
        session.listen(functools.partial(_dirty, pupil))
        _dirty(pupil)

    def _reseat(self) -> None:
        """A new `Table` around the same game with the pupils' seats as person seats."""
        assert self.table is not None
        game = self.table.game
        people = tuple(s for s, p in self.chairs.items() if p is not None)
        table = Table(
            players=game.players,
            seats=people,
            bots=self._bot_name(),
            game=game,
            tempo=self.tempo,
        )
        self._use(table)

    def withheld(self, seat: int) -> set[str]:
        """What the pupil in ``seat`` may not do now (`Session.withheld`, asked at each
        rebuild of its view): a new game between two levels (it would end the game for
        the whole table), and Ready again once pressed while the hands are on the
        table (the table waits for the others')."""
        out = set()
        if self.table is not None and self.table.game.status == "cleared":
            out.add("new_game")
        if seat in self.ready and self.table is not None and self.table.phase in HANDS_ON:
            out.add("ready")
        return out

    def _stamp_plays(self) -> None:
        """Write down the round trip of the pupil behind each new play (a bot's: none)."""
        if self.table is None:
            return
        game = self.table.game
        count = game.event_count
        if self._stamped[0] != id(game):
            self._stamped = (id(game), 0)
            self.play_rtt = {}
        new = count - self._stamped[1]
        if new <= 0:
            return
        events = game.level_events
        for e in events[max(0, len(events) - new) :]:
            if e.type in ("played", "mistake"):
                pupil = self.chairs.get(getattr(e, "player", -1))
                rtt = pupil.rtt_ms if pupil is not None else None
                if rtt is not None:
                    self.play_rtt[(e.level, game.blind, getattr(e, "card", 0))] = rtt
        self._stamped = (id(game), count)

    def _on_change(self) -> None:
        """The table changed: each new play's round trip is written down, Ready starts
        afresh once the hands are off, the timer is set again. (Each pupil's session
        hears the change itself and marks their page: one mark per page per change.)"""
        if self.table is not None and self.table.game is not self._held_game:
            self._note_holders()  # a new game (the table's New game)
        self._stamp_plays()
        if self.table is not None and self.table.phase not in HANDS_ON:
            self.ready.clear()
        if self._pause_after_vote and (self.table is None or self.table.phase != "vote"):
            self._pause_after_vote = False  # the vote is decided: the teacher's pause now
            if self.table is not None and self.table.phase == "play":
                self.timers.call_at(self.timers.now(), self._pause_now)  # (after this change)
        self._schedule()

    def presence_changed(self) -> None:
        """A pupil here went offline or came back: each view again (a stop for a lost
        connection says when its pupil is back), and each page hears of it."""
        self._seating_changed()

    def _seating_changed(self) -> None:
        """Who sits where changed (not the game): each view has the names again."""
        for session in self.sessions.values():
            session.refresh()
        self.notify()

    def notify(self) -> None:
        """Every pupil at the table hears that something around the table changed."""
        for p in self.pupils:
            _dirty(p)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _schedule(self) -> None:
        """A timer at the clock's next planned bot action (none: nothing planned)."""
        self._cancel()
        if self.host is None:
            return
        due = self.host.due()
        if due is not None:
            # never in the past: a level time a hair short of the plan must not spin
            now = self.timers.now()
            self._timer = self.timers.call_at(max(due, now + 0.001), self._tick)
        elif self._bots_wait():
            pause = self.timers.now() + BOTS_READY_PAUSE
            self._timer = self.timers.call_at(pause, self._bots_go_on)

    def _bots_wait(self) -> bool:
        """A table without pupils waits for a Ready (or the next level) nobody will press."""
        table = self.table
        return table is not None and not table.seats and table.phase in (*HANDS_ON, "cleared")

    def _bots_go_on(self) -> None:
        """The bots' Ready (or their next level) after a human-like pause, as people would."""
        self._timer = None
        if self.host is None or not self._bots_wait():
            return
        table = self.host.table
        self.record("bots_go_on", table=self.id)
        try:
            if table.phase == "cleared":
                table.next_level()
            else:
                table.ready(max(self.host.level_time(), table.game.t))
        except RuleError as error:
            log.warning("table %s: %s", self.id, error)
        except Exception:  # never let one table's fault stop the server's loop
            log.exception("table %s: the bots' Ready failed", self.id)
        self._schedule()

    def _tick(self) -> None:
        self._timer = None
        if self.host is None:
            return
        self.record("tick", table=self.id)
        try:
            self.host.tick()
        except RuleError as error:  # a bot that failed: the table shows what happened
            log.warning("table %s: %s", self.id, error)
        except Exception:  # never let one table's fault stop the server's loop
            log.exception("table %s: tick failed", self.id)
        self._schedule()


def _dirty(pupil: Pupil) -> None:
    link = pupil.link
    if link is not None:
        with contextlib.suppress(Exception):
            link.dirty()
