"""Typed events: what happened in a game, in order, each with its time stamp.

``t`` is seconds since the level started (the level clock); the core never
reads a clock, it only records the times it is given. Every event has a
``to_dict()`` that gives a plain, JSON-able dict with a ``"type"`` key.

Some events carry cards that only their holders may see (``Dealt.hands``, the
values of face-down cards). ``public_dict()`` gives the version that anyone at
the table may know; observations, bots and the widget use only that.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

__all__ = [
    "BlindChecked",
    "BlindStarted",
    "Ready",
    "Dealt",
    "Discard",
    "Event",
    "GameLost",
    "GameWon",
    "HandsOnTable",
    "LevelCleared",
    "Mistake",
    "Played",
    "StarDeclined",
    "StarProposed",
    "StarUsed",
    "StarVoted",
    "STOP_REASONS",
    "Stopped",
    "Unready",
]

#: Why a level stopped by a "stop" (`Stopped.why`): ``"player"``, the seat called it;
#: ``"offline"``, the seat's connection was lost (a class table); ``"teacher"``, the
#: teacher paused the table; ``"seat"``, the seating changed (a pupil moved out, a seat
#: given to a bot); ``"resumed"``, a class server came back from its journal with the
#: level in play. A stop by a mistake or a star is a `HandsOnTable` instead.
STOP_REASONS = ("player", "offline", "teacher", "seat", "resumed")


@dataclass(frozen=True, slots=True)
class Discard:
    """One card put aside from a hand: by a mistake or by a throwing star."""

    player: int
    card: int
    face_up: bool

    def public(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card if self.face_up else None}


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"
    level: int
    t: float

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [asdict(v) if isinstance(v, Discard) else _plain(v) for v in value]
            out[f.name] = value
        return out

    def public_dict(self) -> dict[str, Any]:
        """What every player may know of this event."""
        return self.to_dict()


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A level was dealt: every hand is on the table (concentration)."""

    type: ClassVar[str] = "dealt"
    hands: tuple[tuple[int, ...], ...]
    blind: bool

    def public_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "level": self.level,
            "t": self.t,
            "counts": [len(h) for h in self.hands],
            "blind": self.blind,
        }


@dataclass(frozen=True, slots=True)
class Ready(Event):
    """All hands came off the table: the level (re)starts."""

    type: ClassVar[str] = "ready"


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    """A "stop": everyone puts a hand on the table again.

    ``why`` is one of `STOP_REASONS` ("player": ``player`` called it; else the
    host stopped the level in ``player``'s name, e.g. their connection was lost).
    """

    type: ClassVar[str] = "stopped"
    player: int
    why: str


@dataclass(frozen=True, slots=True)
class HandsOnTable(Event):
    """After a mistake or a throwing star: every hand goes back on the table.

    ``why`` is ``"mistake"`` or ``"star"``; ``player`` is who stopped the
    table (for a mistake the holder of the lowest card put aside, who "calls
    stop"; for a star its proposer, or the first seat that put a card aside).
    The level goes on with `Ready` (see ``Rules.concentrate_after``).
    """

    type: ClassVar[str] = "hands_on_table"
    why: str
    player: int


@dataclass(frozen=True, slots=True)
class Unready(Event):
    """A card was played while every hand was on the table: a mistake of
    etiquette (the rules do not refuse it; the table and the widget do)."""

    type: ClassVar[str] = "unready"
    player: int


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A card went on the pile (face down in blind mode)."""

    type: ClassVar[str] = "played"
    player: int
    card: int
    face_up: bool

    def public_dict(self) -> dict[str, Any]:
        out = self.to_dict()
        if not self.face_up:
            out["card"] = None
        return out


@dataclass(frozen=True, slots=True)
class Mistake(Event):
    """A card was played while a lower card was held: ``lives_lost`` lives lost (R6: one),
    ``lives`` left."""

    type: ClassVar[str] = "mistake"
    player: int
    card: int
    discards: tuple[Discard, ...]
    lives_lost: int
    lives: int

    def public_dict(self) -> dict[str, Any]:
        out = self.to_dict()
        out["discards"] = [d.public() for d in self.discards]
        return out


@dataclass(frozen=True, slots=True)
class StarProposed(Event):
    type: ClassVar[str] = "star_proposed"
    player: int


@dataclass(frozen=True, slots=True)
class StarVoted(Event):
    type: ClassVar[str] = "star_voted"
    player: int
    agree: bool


@dataclass(frozen=True, slots=True)
class StarDeclined(Event):
    """A player said no: the proposal ends, the star stays."""

    type: ClassVar[str] = "star_declined"
    player: int


@dataclass(frozen=True, slots=True)
class StarUsed(Event):
    """Everyone agreed: each player with cards discards their lowest face up."""

    type: ClassVar[str] = "star_used"
    discards: tuple[Discard, ...]
    stars: int


@dataclass(frozen=True, slots=True)
class BlindChecked(Event):
    """Blind mode: the pile is turned over at the end of the level."""

    type: ClassVar[str] = "blind_checked"
    pile: tuple[int, ...]
    faults: tuple[int, ...]
    lives_lost: int
    lives: int


@dataclass(frozen=True, slots=True)
class LevelCleared(Event):
    type: ClassVar[str] = "cleared"
    reward: str | None
    granted: bool
    lives: int
    stars: int


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    type: ClassVar[str] = "won"
    blind: bool


@dataclass(frozen=True, slots=True)
class GameLost(Event):
    type: ClassVar[str] = "lost"


@dataclass(frozen=True, slots=True)
class BlindStarted(Event):
    type: ClassVar[str] = "blind_started"


def fast_init(cls: type[Any]) -> None:
    """Give a frozen dataclass (without defaults) a faster ``__init__``.

    The same signature and the same result, but fields are stored directly
    (a slot's descriptor, or the instance dict) rather than through
    ``object.__setattr__`` as `dataclasses` does for frozen classes: about
    twice as fast. A game makes an event or two per action and an
    observation per bot decision, so these are on its hottest paths.
    """
    names = [f.name for f in fields(cls)]
    args = ", ".join(names)
    namespace: dict[str, Any] = {}
    if "__slots__" in cls.__dict__:
        env = {f"_set_{n}": getattr(cls, n).__set__ for n in names}
        body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
    else:
        env = {}
        body = "    d = self.__dict__\n" + "".join(f"    d[{n!r}] = {n}\n" for n in names)
    exec(f"def __init__(self, {args}):\n{body}", env, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning to a method)


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        Dealt,
        Ready,
        Stopped,
        HandsOnTable,
        Unready,
        Played,
        Mistake,
        StarProposed,
        StarVoted,
        StarDeclined,
        StarUsed,
        BlindChecked,
        LevelCleared,
        GameWon,
        GameLost,
        BlindStarted,
    )
}
fast_init(Discard)
for _event in EVENT_TYPES.values():
    fast_init(_event)
