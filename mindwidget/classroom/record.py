"""What a class's journal holds, and the class it brings back.

`Recorder` writes a running class to its `Journal`; `restore` reads a journal
back into a `Restored` class, from which the room rebuilds itself. The entries:

* the header: the class's code, teacher token, port and options;
* ``pupil``: a pupil's id, nickname, language and seat token (as they joined);
  ``removed``: a pupil the teacher took out of the class;
* ``seats``: who sits where at a table (pupil ids by seat, the bots' seats,
  the table's size, its games so far) and ``held``, who held each seat when
  during its game (`ClassTable.seat_history`: a card stays its player's after
  a resume), written whenever that changes and after each new game (a new
  field: an older journal has none, and its resumed history starts from the
  holders then; an older mindwidget ignores it, so no new schema version);
* ``game``: a table's new game (its rules and seed; a game is a pure
  function of these and its actions); ``act``: each accepted action of that
  game (a pupil's or a bot's, as `Game.actions` has it, with its level time
  ``t``; the entry's ``at`` is the server's wall clock);
* ``question``: a question the teacher put to the class (its id, text and
  choices, each a string or ``{lang: text}``, and the right choice or null);
  ``answer``: a pupil's answer to it (their latest counts), with their
  nickname and table then and the seconds since the question was put;
  ``question_state``: closed or revealed, with the right choice
  (`questions.Questions`; new kinds of entry, no new schema version);
* ``lock``, ``end``; ``note``: what the room recorded that the above does not
  say (the teacher's commands), kept for the record.

The recorder compares the class with what it wrote last (`sync`) once per
turn of the event loop, just before the pages are sent what changed, and
commits: whatever a page was shown is in the file first. Entries are
last-wins for seats and lock, so a class resumed and crashed again comes back
from the same file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..game import Game
from ..rules import RuleError, Rules
from .journal import Journal, JournalError

__all__ = ["Recorder", "Restored", "RestoredTable", "questions_of", "restore"]

#: The options of a class that its journal keeps (`Classroom`'s arguments).
OPTIONS = ("size", "bots", "tempo", "lang", "same_deal", "seed", "grace", "lan")
#: The room's entries that change nothing but the game of the table they name (read
#: from the game itself at the commit) or nothing kept (a pupil's connection).
QUIET = frozenset(("tick", "bots_go_on", "act", "rejoin", "left"))
#: The lesson's questions (`questions.Questions`): each entry's fields.
QUESTIONS: dict[object, tuple[str, ...]] = {
    "question": ("question", "text", "choices", "answer"),
    "answer": ("question", "pupil", "name", "table", "choice", "seconds"),
    "question_state": ("question", "state", "answer"),
}
#: The teacher's commands, kept as notes beside the state they changed.
NOTED = frozenset(
    ("start", "start_all", "pause", "lock", "remove", "move", "give_to_bot", "new_game")
)


class _Pupil(Protocol):
    id: str
    name: str
    lang: str
    token: str


class _ClassTable(Protocol):
    id: int
    size: int
    games: int

    @property
    def chairs(self) -> Mapping[int, Any]: ...
    @property
    def bot_seats(self) -> Iterable[int]: ...
    @property
    def table(self) -> Any: ...


class _Room(Protocol):
    locked: bool

    @property
    def pupils(self) -> Mapping[str, Any]: ...
    @property
    def tables(self) -> Sequence[Any]: ...


@dataclass
class _Written:
    """What the journal holds of one table."""

    seats: tuple[Any, ...] = ()
    game: Game | None = None
    actions: int = 0


class Recorder:
    """Writes ``room``'s class to ``journal``: the room's seam (`Room.recorder` is this
    object, `Room.commit` its `before_send`)."""

    def __init__(self, journal: Journal, room: _Room) -> None:
        self.journal = journal
        self.room = room
        self._pupils: dict[str, tuple[str, str, str]] = {}
        self._tables: dict[int, _Written] = {}
        self._locked: bool | None = None
        self._ended = False
        self.dirty = True  # the room changed something besides a game
        self._changed: set[int] = set()  # the tables whose games may have changed

    def known(self, back: Restored) -> None:
        """The class comes back from this journal (before `Room.restore`): what it holds
        is written already (what the resume changes, e.g. a stop, is written next)."""
        self._pupils = {pid: (d["name"], d["lang"], d["token"]) for pid, d in back.pupils.items()}
        for r in back.tables.values():
            seating = (r.size, r.seats, r.bots, r.games, r.people, r.held or [])
            w = self._tables[r.id] = _Written(seats=seating)
            if r.game is not None:
                w.game, w.actions = r.game, r.game.action_count
        self._locked = back.locked
        self._ended = False
        self.dirty = True

    def __call__(self, entry: Mapping[str, Any]) -> None:
        """An entry of the room (`Room.record`), before any page hears of the change."""
        kind = entry.get("kind")
        table = entry.get("table")
        if table is not None:
            self._changed.add(table)
        if kind in QUIET:
            return  # a game's actions are read from the game at the commit
        if kind in QUESTIONS:  # kept as they are (`questions.Questions` records them)
            self.journal.append(str(kind), {k: v for k, v in entry.items() if k in QUESTIONS[kind]})
            return
        self.dirty = True
        if kind == "join":  # the page gets its seat token at once: on disk first
            pid, name, lang, token = (entry[k] for k in ("pupil", "name", "lang", "token"))
            self._pupils[pid] = (name, lang, token)
            self.journal.append("pupil", {"id": pid, "name": name, "lang": lang, "token": token})
            self.journal.commit()
        elif kind == "end":
            self.ended()
        elif kind in NOTED:
            fields = {k: v for k, v in entry.items() if k in ("pupil", "table", "seat", "locked")}
            self.journal.append("note", {"what": kind, **fields})

    def before_send(self) -> None:
        """Once per loop turn, before the pages are sent what changed: write and commit."""
        self.sync(self.room)
        self.journal.commit()

    def sync(self, room: _Room) -> None:
        """Write what changed since the last sync: the games of the tables the room's
        entries named; pupils, seats and every game when it said something else changed."""
        journal = self.journal
        full = self.dirty
        if full:
            self.dirty = False
            pupils = room.pupils
            for pid, p in pupils.items():
                known = (p.name, p.lang, p.token)
                if self._pupils.get(pid) != known:
                    self._pupils[pid] = known
                    journal.append(
                        "pupil", {"id": pid, "name": p.name, "lang": p.lang, "token": p.token}
                    )
            if len(self._pupils) != len(pupils):
                for pid in [q for q in self._pupils if q not in pupils]:
                    del self._pupils[pid]
                    journal.append("removed", {"id": pid})
            for t in room.tables:
                self._sync_seats(t)
            if not self._ended and bool(room.locked) != self._locked:
                self._locked = bool(room.locked)
                journal.append("lock", {"locked": self._locked})
        if self._changed:
            changed, self._changed = self._changed, set()
            for t in room.tables if full else [room.tables[i - 1] for i in changed]:
                self._sync_game(t)
        elif full:
            for t in room.tables:
                self._sync_game(t)

    def _sync_seats(self, t: Any, force: bool = False) -> None:
        """Write table ``t``'s seating if it changed (``force``: in any case)."""
        w = self._tables.get(t.id)
        if w is None:
            w = self._tables[t.id] = _Written()
        seating = _seating(t)
        if force or seating != w.seats:
            w.seats = seating
            size, seats, bots, games, people, held = seating
            self.journal.append(
                "seats",
                {
                    "table": t.id,
                    "size": size,
                    "seats": seats,
                    "bots": bots,
                    "games": games,
                    "people": people,
                    "held": held,
                },
            )

    def _sync_game(self, t: Any) -> None:
        """Write table ``t``'s new game and new actions, if any."""
        table = t.table
        if table is None:
            return
        game = table.game
        w = self._tables.get(t.id)
        if w is None:
            w = self._tables[t.id] = _Written()
        if game is not w.game:
            w.game, w.actions = game, 0
            self.journal.append(
                "game", {"table": t.id, "rules": game.rules.to_dict(), "seed": game.seed}
            )
            self._sync_seats(t, force=True)  # its history starts afresh (`restore` forgot it)
        n = game.action_count
        if n != w.actions:
            for a in game.actions_from(w.actions):
                self.journal.append("act", {"table": t.id, "a": a})
            w.actions = n

    def ended(self) -> None:
        """The class ended (the teacher's end, or the server stopped)."""
        if not self._ended:
            self._ended = True
            self.journal.append("end", {})

    def commit(self) -> int:
        return self.journal.commit()


def _seating(t: _ClassTable) -> tuple[Any, ...]:
    seats = [None if t.chairs.get(s) is None else t.chairs[s].id for s in range(t.size)]
    people = None if t.table is None else list(t.table.seats)
    held = t.seat_history() if hasattr(t, "seat_history") else []
    return (t.size, seats, sorted(t.bot_seats), t.games, people, held)


# ------------------------------------------------------------------ reading back
@dataclass
class RestoredTable:
    """A table as its journal left it: seats (pupil ids), bots, its game rebuilt."""

    id: int
    size: int
    seats: list[str | None]
    bots: list[int]
    games: int
    people: list[int] | None = None  # the game's person seats (None: not started)
    game: Game | None = None
    #: who held each seat when during ``game`` (`ClassTable.seat_history`; None: unknown)
    held: list[dict[str, Any]] | None = None


@dataclass
class Restored:
    """A class as its journal left it (`restore`)."""

    code: str
    teacher_token: str
    port: int | None
    options: dict[str, Any]
    pupils: dict[str, dict[str, str]] = field(default_factory=dict)
    count: int = 0  # pupils ever joined (the next one is p<count+1>)
    tables: dict[int, RestoredTable] = field(default_factory=dict)
    locked: bool = False
    ended: bool = False
    entries: int = 0
    #: the lesson's questions, answers and their states, in order (checked entries)
    questions: list[dict[str, Any]] = field(default_factory=list)


def _str(entry: Mapping[str, Any], key: str, limit: int = 200) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        raise ValueError(f"its {key!r} is not a short text")
    return value


def _int(entry: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"its {key!r} is not a whole number from {lo} to {hi}")
    return value


def restore(path: Any, header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> Restored:
    """The class that ``entries`` (of the journal at ``path``) describe, every table's
    game replayed from its actions. A damaged journal raises `JournalError`."""
    try:
        code = _str(header, "code", 8)
        token = _str(header, "teacher_token", 200)
        port = header.get("port")
        if port is not None:
            port = _int(header, "port", 0, 65535)
        options = header.get("options")
        if not isinstance(options, dict) or set(options) - set(OPTIONS):
            raise ValueError(f"its options are not an object of {', '.join(OPTIONS)}")
    except ValueError as exc:
        raise JournalError(path, f"its header is damaged: {exc}.") from None
    out = Restored(code=code, teacher_token=token, port=port, options=dict(options))
    out.entries = len(entries)
    for i, entry in enumerate(entries):
        kind = entry.get("kind")
        try:
            _restore_one(out, entry, kind)
        except (ValueError, TypeError, KeyError, RuleError) as exc:
            raise JournalError(path, f"entry {i + 1} ({kind!r}) is damaged: {exc}.") from None
    return out


def _restore_one(out: Restored, entry: Mapping[str, Any], kind: object) -> None:
    if kind == "pupil":
        pid = _str(entry, "id", 12)
        if not (pid.startswith("p") and pid[1:].isdigit()):
            raise ValueError(f"{pid!r} is not a pupil id")
        out.pupils[pid] = {
            "id": pid,
            "name": _str(entry, "name", 40),
            "lang": _str(entry, "lang", 8),
            "token": _str(entry, "token", 200),
        }
        out.count = max(out.count, int(pid[1:]))
    elif kind == "removed":
        out.pupils.pop(_str(entry, "id", 12), None)
    elif kind == "seats":
        tid = _int(entry, "table", 1, 10_000)
        size = _int(entry, "size", 1, 8)
        seats = entry.get("seats")
        bots = entry.get("bots")
        if not isinstance(seats, list) or len(seats) != size:
            raise ValueError("its seats are not one per seat")
        if any(s is not None and s not in out.pupils for s in seats):
            raise ValueError("a seat holds a pupil the journal does not know")
        if not isinstance(bots, list) or any(
            not isinstance(b, int) or isinstance(b, bool) or not 0 <= b < size for b in bots
        ):
            raise ValueError("its bots' seats are not seats of the table")
        if tid not in out.tables and tid != len(out.tables) + 1:
            raise ValueError(f"table {tid} comes before table {len(out.tables) + 1}")
        people = entry.get("people")
        if people is not None and (
            not isinstance(people, list)
            or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < 8 for s in people)
        ):
            raise ValueError("its person seats are not seats")
        t = out.tables.get(tid)
        games = _int(entry, "games", 0, 1_000_000)
        if t is None:
            t = out.tables[tid] = RestoredTable(tid, size, list(seats), list(bots), games)
        t.size, t.seats, t.bots, t.games = size, list(seats), list(bots), games
        t.people = None if people is None else list(people)
        if "held" in entry:
            t.held = checked_held(entry["held"], size)
    elif kind == "game":
        t = out.tables.get(_int(entry, "table", 1, 10_000))
        if t is None:
            raise ValueError("a game of a table the journal has not seated")
        rules = entry.get("rules")
        if not isinstance(rules, dict):
            raise ValueError("its rules are not an object")
        t.game = Game(seed=_int(entry, "seed", 0, 2**63), rules=Rules.from_dict(rules))
        t.held = None  # a new game's history is written after it
    elif kind == "act":
        t = out.tables.get(_int(entry, "table", 1, 10_000))
        if t is None or t.game is None:
            raise ValueError("an action at a table without a game")
        t.game.apply(entry.get("a"))  # a refused action is a damaged journal (RuleError)
    elif kind == "lock":
        locked = entry.get("locked")
        if not isinstance(locked, bool):
            raise ValueError("'locked' is not true or false")
        out.locked = locked
    elif kind == "end":
        out.ended = True
    elif kind == "note":
        pass
    elif kind in QUESTIONS:
        out.questions.append(_question(out, entry, str(kind)))
    else:
        raise ValueError("no such kind of entry")


#: The most holders a game's seat history may list (a lesson has a few dozen).
MAX_HELD = 10_000


def checked_held(value: object, size: int) -> list[dict[str, Any]] | None:
    """A ``seats`` entry's ``held`` (`ClassTable.seat_history`), checked."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > MAX_HELD:
        raise ValueError(f"its 'held' is not a list of at most {MAX_HELD:,} holders")
    out = []
    for h in value:
        if not isinstance(h, dict):
            raise ValueError("a holder in its 'held' is not an object")
        kind = h.get("kind")
        if kind not in ("person", "bot"):
            raise ValueError("a holder's 'kind' is not 'person' or 'bot'")
        pupil = h.get("pupil")
        if pupil is not None:
            pupil = _str(h, "pupil", 12)
        out.append(
            {
                "seat": _int(h, "seat", 0, size - 1),
                "kind": kind,
                "name": _str(h, "name", 40),
                "from": _int(h, "from", 0, 10_000_000),
                "pupil": pupil,
            }
        )
    return out


def _text(value: object, what: str) -> str | dict[str, str]:
    from .questions import check_text

    return check_text(what, value)


def questions_of(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The lesson's questions, answers and their states among a journal's ``entries``,
    checked as `restore` checks them (a ValueError says what is wrong): what
    `questions.Questions.restore` reads, for a reader of an old lesson's journal."""
    out = Restored("", "", None, {})
    for entry in entries:
        kind = entry.get("kind")
        if kind in QUESTIONS:
            out.questions.append(_question(out, entry, str(kind)))
    return out.questions


def _question(out: Restored, entry: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """A ``question``, ``answer`` or ``question_state`` entry, checked against the
    questions before it (`questions.Questions.restore` reads what this returns)."""
    from .questions import MAX_CHOICES, MAX_QUESTIONS, MIN_CHOICES, STATES

    asked = [q for q in out.questions if q["kind"] == "question"]
    qid = _int(entry, "question", 1, MAX_QUESTIONS)
    at = entry.get("at", 0.0)
    if kind == "question":
        if qid != len(asked) + 1:
            raise ValueError(f"question {qid} comes after question {len(asked)}")
        choices = entry.get("choices")
        if not isinstance(choices, list) or not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
            raise ValueError(f"its choices are not a list of {MIN_CHOICES} to {MAX_CHOICES}")
        texts = [_text(c, f"choices[{i}]") for i, c in enumerate(choices)]
        answer = entry.get("answer")
        if answer is not None:
            answer = _int(entry, "answer", 0, len(texts) - 1)
        text = _text(entry.get("text"), "text")
        return {
            "kind": kind,
            "question": qid,
            "text": text,
            "choices": texts,
            "answer": answer,
            "at": at,
        }
    if qid > len(asked):
        raise ValueError(f"it names question {qid}, which was not asked")
    n = len(asked[qid - 1]["choices"])
    if kind == "answer":
        seconds = entry.get("seconds")
        if not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e7:
            raise ValueError("its 'seconds' is not a time")
        table = entry.get("table")
        if table is not None:
            table = _int(entry, "table", 1, 10_000)
        return {
            "kind": kind,
            "question": qid,
            "pupil": _str(entry, "pupil", 12),
            "name": _str(entry, "name", 40),
            "table": table,
            "choice": _int(entry, "choice", 0, n - 1),
            "seconds": float(seconds),
        }
    state = entry.get("state")
    if state not in STATES:
        raise ValueError(f"its 'state' is not one of {', '.join(STATES)}")
    answer = entry.get("answer")
    if answer is not None:
        answer = _int(entry, "answer", 0, n - 1)
    return {"kind": kind, "question": qid, "state": state, "answer": answer, "at": at}
