"""Every payload on the wire between a `Session` and its front end, declared once.

What Python sends (the keys of `Session.state`): `View` (`view.table_view`
with the session's additions), `Clock`, `Notice`, `Settings` and
`TraceUpdate` (its points are `TracePoint`). Every object is closed: the
schema allows no key that is not declared here. What a front end may send:
`Message` (one of the messages `Session.receive` accepts) and `SettingUpdate`
(`Session.set`).

`tools/build_wire_schema.py` turns these into the JSON Schema
``js/wire.schema.json``; a test keeps it up to date, a hypothesis test
validates every payload of whole random games against it, and vitest validates
the front end's fixtures and `js/payloads.js` against it.
"""

from __future__ import annotations

import sys
from typing import Literal

if sys.version_info >= (3, 12):
    from typing import NotRequired, Required, TypedDict
else:  # pydantic reads TypedDicts from typing_extensions before 3.12
    from typing_extensions import NotRequired, Required, TypedDict

__all__ = [
    "ACTIONS",
    "Changes",
    "Clock",
    "Message",
    "Notice",
    "PublicEvent",
    "SettingUpdate",
    "Settings",
    "State",
    "TracePoint",
    "TraceUpdate",
    "View",
]

Phase = Literal["ready", "stopped", "vote", "play", "cleared", "won", "lost"]
#: What a seat may do now (`view.ALLOWED`; a test holds the two equal).
Action = Literal[
    "ready", "play", "stop", "propose_star", "vote", "wait", "next_level", "start_blind",
    "new_game",
]  # fmt: skip
ACTIONS: tuple[str, ...] = Action.__args__  # type: ignore[attr-defined]
Lang = Literal["en", "nl", "de"]
Size = Literal["normal", "projector"]
TempoName = Literal["slow", "people", "quick"]
Speed = Literal[1, 2, 4]


# ------------------------------------------------------------------ the view
class Discard(TypedDict):
    """A card put aside (a discard): ``k`` lost (by a mistake, as its trace point) or
    star; ``card`` null while face down."""

    player: int
    card: int | None
    k: Literal["lost", "star"]


class EventDiscard(TypedDict):
    player: int
    card: int | None
    face_up: NotRequired[bool]


class PublicEvent(TypedDict, total=False):
    """An event as anyone at the table may know it (`Event.public_dict`)."""

    type: Required[
        Literal[
            "dealt", "ready", "stopped", "hands_on_table", "unready", "played",
            "mistake", "star_proposed", "star_voted", "star_declined", "star_used",
            "blind_checked", "cleared", "won", "lost", "blind_started",
        ]
    ]  # fmt: skip
    level: Required[int]
    t: Required[float]
    player: int
    card: int | None
    face_up: bool
    counts: list[int]
    blind: bool
    why: Literal["mistake", "star"]
    discards: list[EventDiscard]
    lives: int
    stars: int
    agree: bool
    pile: list[int]
    faults: list[int]
    lives_lost: int
    reward: Literal["life", "star"] | None
    granted: bool


class VotePanel(TypedDict):
    by: int
    votes: dict[str, bool]
    result: Literal["open", "declined", "used"]


class LivesLost(TypedDict):
    level: int
    lives: int


class Summary(TypedDict):
    level: int
    lives_lost: list[LivesLost]


class View(TypedDict):
    """The table as one seat sees it (`view.table_view` and the `Session`'s additions)."""

    players: int
    seat: int | None
    level: int
    levels: int
    lives: int
    stars: int
    max_lives: int
    max_stars: int
    blind: bool
    phase: Phase
    t: float
    hand: list[int]
    counts: list[int]
    pile: list[int | None]
    pile_by: list[int]
    discards: list[Discard]
    n: int
    news: list[PublicEvent]
    allowed: list[Action]
    vote: NotRequired[VotePanel]
    mistake: NotRequired[PublicEvent]
    cleared: NotRequired[PublicEvent]
    check: NotRequired[PublicEvent]
    summary: NotRequired[Summary]
    hands: NotRequired[list[list[int]]]  # reveal only
    plans: NotRequired[dict[str, float]]  # reveal only
    #: a class table (the class page adds it): the pupils' nicknames by seat, None for a bot
    names: NotRequired[list[str | None]]
    #: this seat pressed Ready; the table waits for the other people's (a class table)
    waiting_for_team: NotRequired[bool]
    #: the bots' tempo (a name, or a number set from a cell); null: these bots have none
    tempo: TempoName | float | None
    #: the watch speeds to choose from (a table of bots only), else empty
    speeds: list[Speed]
    tempos: NotRequired[list[TempoName]]
    tempo_labels: NotRequired[list[str]]
    speed_labels: NotRequired[list[str]]
    #: seconds the bots take to join after the person's Ready (real time, a person seated)
    join: NotRequired[float]
    #: phase "stopped": why the hands are on the table, and who called stop
    why: NotRequired[Literal["mistake", "star", "stop"]]
    stopped_by: NotRequired[int | None]


# ------------------------------------------------------- clock, notice, trace
class Clock(TypedDict):
    """The level clock (`Table.clock`) and whether the browser sends heartbeats now."""

    running: bool
    t: float
    seq: int
    epoch: int
    speed: Speed
    beat: bool


class Notice(TypedDict, total=False):
    """Why the latest message or setting was refused (``refused_<key>``); {} if none."""

    key: Required[str]
    params: Required[dict[str, str | int | float | None]]
    id: Required[int]
    you: bool


class TracePoint(TypedDict):
    """One point of the live timing trace (`view.TraceFeed`)."""

    k: Literal["play", "mistake", "lost", "star", "stop"]
    t: float
    player: int
    card: NotRequired[int | None]
    until: NotRequired[float | None]
    why: NotRequired[Literal["mistake", "star"]]


#: The live trace: the points from ``from`` on (0 and all of them in `Session.state`).
#: (The functional form: ``from`` is a Python keyword.)
TraceUpdate = TypedDict("TraceUpdate", {"epoch": int, "from": int, "points": list[TracePoint]})


class Settings(TypedDict):
    """What the front end's menus set: the bots' tempo and the watch speed."""

    tempo: TempoName | float
    speed: Speed


class Changes(TypedDict, total=False):
    """`Session.changes`: the keys of `State` that changed (``live_trace``: its new points)."""

    view: View
    clock: Clock
    notice: Notice | dict[str, None]
    lang: Lang
    size: Size
    reveal: bool
    mode: Literal["realtime", "step"]
    settings: Settings
    live_trace: TraceUpdate


#: `Session.state`: everything a new front end needs, every key of `Changes` present.
State = TypedDict("State", Changes.__annotations__)  # type: ignore[misc]


# ------------------------------------------------------ from the front end
class Hello(TypedDict):
    type: Literal["hello"]


class Tick(TypedDict):
    """A heartbeat (browser clock only): the level time and the last ``seq`` seen."""

    type: Literal["tick"]
    t: float
    seq: int


class Timed(TypedDict):
    """A seat's action at level time ``t`` (ignored with the host's clock)."""

    type: Literal["ready", "play", "stop", "propose_star"]
    t: NotRequired[float]


class Vote(TypedDict):
    type: Literal["vote"]
    agree: bool
    t: NotRequired[float]


class Untimed(TypedDict):
    type: Literal["wait", "next_level", "start_blind", "new_game"]


Message = Hello | Tick | Timed | Vote | Untimed


class SettingUpdate(TypedDict, total=False):
    """A front end's change of its settings (`Session.set`, one key or several)."""

    lang: Lang
    size: Size
    tempo: TempoName
    speed: Speed
