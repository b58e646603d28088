"""Every payload on the wire, declared once: each layer imports its vocabulary from here.

What Python sends (the keys of `Session.state`): `View` (`view.table_view`
with the session's additions), `Clock`, `Notice`, `Settings` and
`TraceUpdate` (its points are `TracePoint`). Every object is closed: the
schema allows no key that is not declared here. What a front end may send:
`Message` (one of the messages `Session.receive` accepts) and `SettingUpdate`
(`Session.set`). `ACTIONS` is `view.ALLOWED`; `MESSAGE_TYPES` names the
session's message table.

The class server (`mindwidget.classroom`): `ClassFrame` is every frame it
writes to a pupil's page (`Welcome`, `Update` with `ClassInfo`, `Refusal`,
`Bye`, `Ping`, `Pong`, `NicknameFrame`); `PupilMessage` every message a
pupil's page may send (`classroom.inbox.FIELDS` is read from it: no ``t``, the
server keeps the time); `TeacherFrame` every frame the teacher's page gets
(`Board.state`: `TeacherState`), `TeacherMessage` its control messages
(`dashboard.CONTROLS`), and `Snapshot` what `Classroom.snapshot` returns.

`tools/build_wire_schema.py` turns these into the JSON Schema
``js/wire.schema.json``; a test keeps it up to date, a hypothesis test
validates every payload of whole random games against it, and vitest validates
the front end's fixtures against it; ``js/wire.gen.js`` (the JSDoc types and names the
front end uses) is generated from here too.
"""

from __future__ import annotations

import sys
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

if sys.version_info >= (3, 12):
    from typing import NotRequired, Required, TypedDict
else:  # pydantic reads TypedDicts from typing_extensions before 3.12
    from typing_extensions import NotRequired, Required, TypedDict

__all__ = [
    "ACTIONS",
    "MESSAGE_TYPES",
    "Changes",
    "ClassFrame",
    "ClassInfo",
    "Clock",
    "Message",
    "Notice",
    "OwnClock",
    "PublicEvent",
    "PupilMessage",
    "SettingUpdate",
    "Settings",
    "Snapshot",
    "State",
    "TeacherFrame",
    "TeacherMessage",
    "TracePoint",
    "TraceUpdate",
    "View",
    "fields_of",
    "types_of",
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
    why: Literal["mistake", "star", "player", "offline", "teacher", "seat", "resumed"]
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
    #: the highest card of the deck (cards run 1 .. deck): the trace's card axis
    deck: int
    #: with ``mistake``: the places in ``discards`` of the cards that mistake put aside
    mistake_discards: NotRequired[list[int]]
    #: (only true) the pile's top card is the one the shown ``mistake`` played too early
    early: NotRequired[Literal[True]]
    #: (only true) after a win: blind mode may follow (the rules allow it once); the banner says so
    blind_hint: NotRequired[Literal[True]]
    vote: NotRequired[VotePanel]
    mistake: NotRequired[PublicEvent]
    cleared: NotRequired[PublicEvent]
    check: NotRequired[PublicEvent]
    summary: NotRequired[Summary]
    hands: NotRequired[list[list[int]]]  # reveal only
    plans: NotRequired[dict[str, float]]  # reveal only
    #: reveal only: the lowest card in any hand (the one the rules want next); null: none
    lowest: NotRequired[int | None]
    #: a class table (the class page adds it): the pupils' nicknames by seat, None for a bot
    names: NotRequired[list[str | None]]
    #: a class table whose seats changed hands: who played each pile card, held each card
    #: put aside, and each of the mistake's, where not the seat's holder now (else null)
    pile_names: NotRequired[list[str | None]]
    discard_names: NotRequired[list[str | None]]
    mistake_names: NotRequired[list[str | None]]
    #: the class page lost its connection (the page adds it): every action disabled
    offline: NotRequired[bool]
    #: this seat pressed Ready; the table waits for the other people's (a class table)
    waiting_for_team: NotRequired[bool]
    #: the teacher's dashboard: who plays the table shown large (pupils, or bots only)
    watch: NotRequired[Literal["class", "bots"]]
    #: the bots' tempo (a name, or a number set from a cell); null: these bots have none
    tempo: TempoName | float | None
    #: the watch speeds to choose from (a table of bots only), else empty
    speeds: list[Speed]
    tempos: NotRequired[list[TempoName]]
    tempo_labels: NotRequired[list[str]]
    speed_labels: NotRequired[list[str]]
    #: seconds the bots take to join after the person's Ready (real time, a person seated)
    join: NotRequired[float]
    #: phase "stopped": why the hands are on the table, and in whose name (not for a
    #: mistake or a star): "stop", the seat called it; "offline", its connection was
    #: lost; "teacher", the teacher paused; "seat", the seating changed
    why: NotRequired[Literal["mistake", "star", "stop", "offline", "teacher", "seat", "resumed"]]
    stopped_by: NotRequired[int | None]
    #: "offline" at a class table: the seat it stopped for is connected again (its pupil
    #: is back; the table waits for their Ready like the others')
    back: NotRequired[bool]


# ------------------------------------------------------- clock, notice, trace
class Clock(TypedDict):
    """The level clock (`Table.clock`) and whether the browser sends heartbeats now."""

    running: bool
    t: float
    seq: int
    epoch: int
    speed: Speed
    beat: bool
    #: false: the host keeps the time (the class server), the front end sends no ``t``;
    #: absent: the front end stamps its actions (the notebook widget)
    stamp: NotRequired[Literal[False]]


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
    why: NotRequired[Literal["mistake", "star", "offline", "teacher", "seat", "resumed"]]
    #: a class table: the earlier holder of the point's seat who played or held it
    by: NotRequired[str]


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
    """A seat's action at level time ``t`` (ignored with the host's clock), made on
    the view of ``epoch`` (`Clock`) and ``n`` (`View`): refused when the table has
    left it (`Session.receive`, "stale")."""

    type: Literal["ready", "play", "stop", "propose_star"]
    t: NotRequired[float]
    epoch: NotRequired[int]
    n: NotRequired[int]


class Vote(TypedDict):
    type: Literal["vote"]
    agree: bool
    t: NotRequired[float]
    epoch: NotRequired[int]
    n: NotRequired[int]


class Untimed(TypedDict):
    type: Literal["wait", "next_level", "start_blind", "new_game"]
    epoch: NotRequired[int]
    n: NotRequired[int]


Message = Hello | Tick | Timed | Vote | Untimed


class SettingUpdate(TypedDict, total=False):
    """A front end's change of its settings (`Session.set`, one key or several)."""

    lang: Lang
    size: Size
    tempo: TempoName
    speed: Speed


# ------------------------------------------------------ the class server
class Join(TypedDict):
    """Join the class: its code and a nickname (``lang``: the join page's language)."""

    type: Literal["join"]
    code: str
    name: str
    lang: NotRequired[str]


class Rejoin(TypedDict):
    """Back to one's seat with the seat token from `Welcome`."""

    type: Literal["rejoin"]
    token: str


class NicknameAsk(TypedDict):
    """Ask the server for a free nickname in ``lang``."""

    type: Literal["nickname"]
    lang: NotRequired[str]


class PingMessage(TypedDict):
    """The connection check (answered `Pong`), or the page's answer ``pong`` to a `Ping`."""

    type: Literal["ping", "pong"]
    id: int


class SetMessage(TypedDict):
    """A pupil's setting: ``lang`` or ``size`` (the tempo and speed are the teacher's)."""

    type: Literal["set"]
    name: str
    value: str | int | float | bool


class ClassAction(TypedDict):
    """A pupil's action at the table, with no ``t``: the server stamps it. ``epoch``
    and ``n``: the view it was made on (refused "stale" once the table has left it)."""

    type: Literal[
        "ready", "play", "stop", "propose_star", "wait", "next_level", "start_blind",
        "new_game",
    ]  # fmt: skip
    epoch: NotRequired[int]
    n: NotRequired[int]


class ClassVote(TypedDict):
    type: Literal["vote"]
    agree: bool
    epoch: NotRequired[int]
    n: NotRequired[int]


class OwnClockAsk(TypedDict):
    """Open "Jouw klok": the pupil asks for their own clock (answered `OwnClock`)."""

    type: Literal["own_clock"]


class AnswerMessage(TypedDict):
    """A pupil's answer to the lesson's question ``question`` (its id): the index of
    their ``choice`` (`classroom.questions.Questions.answer` checks both)."""

    type: Literal["answer"]
    question: int
    choice: int


#: What a pupil's page may send the class server (`classroom.inbox.parse` checks it).
#: The pupil's messages that go to their table's `Session`.
TableMessage = Hello | ClassAction | ClassVote
PupilMessage = (
    Join
    | Rejoin
    | NicknameAsk
    | PingMessage
    | SetMessage
    | TableMessage
    | OwnClockAsk
    | AnswerMessage
)


class ClassSeat(TypedDict):
    """A seat at the pupil's table as their page shows it (no other seat's cards)."""

    seat: int
    kind: Literal["person", "bot", "empty"]
    name: NotRequired[str]
    connected: NotRequired[bool]


class PupilQuestion(TypedDict):
    """The lesson's current question as one pupil's page shows it
    (`Questions.pupil_view`), in their language: ``mine`` is their own choice (null:
    none yet); ``held`` while a level is played at their table (the question waits);
    ``answer`` and the class's ``counts`` only once revealed, never another pupil's
    answer."""

    id: int
    text: str
    choices: list[str]
    state: Literal["open", "closed", "revealed"]
    held: bool
    mine: int | None
    answer: NotRequired[int | None]
    counts: NotRequired[list[int]]


class ClassInfo(TypedDict):
    """The class part of a pupil's update (`Room.info`): where they sit and who else,
    and the lesson's current question (`PupilQuestion`; absent before the first)."""

    table: int | None
    seat: int | None
    name: str
    lang: Lang
    size: NotRequired[int]
    started: NotRequired[bool]
    seats: NotRequired[list[ClassSeat]]
    waiting_for: NotRequired[list[int]]
    ready: NotRequired[bool]
    #: the pupil may open their own clock now (not while their table plays a level)
    own_clock: NotRequired[bool]
    question: NotRequired[PupilQuestion | None]


class Welcome(TypedDict):
    """Joined (or back): the pupil's id, nickname and seat token (kept by the page)."""

    type: Literal["welcome"]
    pupil: str
    name: str
    token: str
    #: seconds between the server's pings: the page counts a longer silence as a lost
    #: connection (`room.PING_S`)
    ping_s: NotRequired[float]


#: What changed for the pupil's page: the whole ``state`` (null: no table yet) or its
#: ``changes``, and ``class`` (`ClassInfo`) when the class part changed. (The
#: functional form: ``class`` is a Python keyword.)
Update = TypedDict(
    "Update",
    {
        "type": Literal["update"],
        "state": NotRequired[State | None],
        "changes": NotRequired[Changes],
        "class": NotRequired[ClassInfo],
    },
)


class Refusal(TypedDict):
    """A refused message (nothing changed): ``refused`` before joining, else ``notice``;
    ``key`` names the class string ``err_<key>``, ``text`` says it in the page's language."""

    type: Literal["refused", "notice"]
    key: str
    params: dict[str, str | int | float | None]
    text: str


class Bye(TypedDict):
    """The server closes the socket, and says why."""

    type: Literal["bye"]
    key: str
    text: str


class Ping(TypedDict):
    """The server's ping (the page answers ``pong``; the teacher sees the round trip),
    or its ``pong`` to the page's connection check."""

    type: Literal["ping", "pong"]
    id: int


class NicknameFrame(TypedDict):
    type: Literal["nickname"]
    name: str


class ClockPoint(TypedDict):
    """One of the pupil's own plays: the gap to the pile, the wait (s), a mistake or not."""

    gap: float
    wait: float
    mistake: bool


class ClockBand(TypedDict):
    """One band of gaps of the class's median curve: its gaps (``low`` to ``high``), the
    median gap and median wait (s) of the pupils' plays there, and how many plays and
    pupils it rests on (at least `classdata.BAND_PUPILS` pupils, or it is not sent)."""

    low: int
    high: int
    gap: float
    wait: float
    plays: int
    pupils: int


class OwnClock(TypedDict):
    """ "Jouw klok" (`classroom.ownclock`): the pupil's own plays in this class and the
    class's aggregate only, never another pupil's waits.

    ``need``: the plays a spread needs (`classdata.CLOCK_MIN_PLAYS`). ``floor``,
    ``step``, ``cv``: the pupil's own line ``floor + step * gap`` and the spread of
    their waits around it (`timing.profile_of`), ``half_within`` the same in plain
    words (half of their waits lie within that fraction of the line); ``vs_class``:
    their wait over the class's (median); ``pace``: "quicker", "same" or "slower" ("" with too few
    plays); null where there are too few plays. ``band_pupils``: the pupils a band
    of the curve needs (`classdata.BAND_PUPILS`); ``class_plays``: every pupil's
    plays the class's curve comes from; ``ended``: sent as the lesson ended (the
    page keeps it)."""

    type: Literal["own_clock"]
    name: str
    plays: list[ClockPoint]
    need: int
    curve: list[ClockBand]
    band_pupils: int
    class_plays: int
    floor: float | None
    step: float | None
    cv: float | None
    half_within: float | None
    vs_class: float | None
    pace: Literal["quicker", "same", "slower", ""]
    ended: bool


#: Every frame the class server writes to a pupil's page.
ClassFrame = Welcome | Update | Refusal | Bye | Ping | NicknameFrame | OwnClock


class SnapshotSeat(ClassSeat):
    """A seat as the teacher sees it (a pupil's id and round trip besides); ``seat``
    from 0 (people read it from 1)."""

    pupil: NotRequired[str]
    rtt_ms: NotRequired[float | None]


class LastMistake(TypedDict):
    """The latest mistake of a table's game; ``level`` on the dashboard (`Board`), which
    keeps it past its level."""

    card: int
    seat: int
    held: list[list[int]]
    level: NotRequired[int]
    #: who held the mistake's seat, and each card's, when it happened (a seat may have
    #: changed hands since; null: unknown)
    name: NotRequired[str | None]
    held_names: NotRequired[list[str | None]]


class TableSnapshot(TypedDict):
    """A table in `Snapshot` (`snapshot.table_snapshot`). ``status``: "over" is won or lost."""

    id: int
    phase: str
    level: int
    levels: int
    lives: int
    stars: int
    status: Literal["waiting", "playing", "stopped", "over"]
    #: the game is won or lost (``status`` "over"); a level is cleared and the next one waits
    over: bool
    cleared: bool
    waiting_for: list[int]
    last_mistake: LastMistake | None
    games: int
    seats: list[SnapshotSeat]
    #: phase "stopped": why (a stop's reason, `events.STOP_REASONS`, or mistake, star)
    why: NotRequired[str | None]
    #: seats whose pupil the table waits for or plays for, who is not there: the
    #: dashboard offers "give this seat to a bot" for each
    offer_bot: NotRequired[list[int]]


class WaitingRow(TypedDict):
    pupil: str
    name: str
    connected: bool


class Snapshot(TypedDict):
    """`Classroom.snapshot` (`Room.snapshot`): the class as its teacher sees it."""

    code: str
    url: str
    address: str
    qr_svg: str
    locked: bool
    #: the teacher ended the lesson (`Room.end`)
    ended: bool
    lang: Lang
    size: int
    same_deal: bool
    tables: list[TableSnapshot]
    waiting_room: list[WaitingRow]


class TeacherCommand(TypedDict):
    """A command of the whole class."""

    type: Literal["start_all", "pause_all", "end"]


class TeacherLock(TypedDict):
    type: Literal["lock"]
    locked: bool


class TeacherRemove(TypedDict):
    type: Literal["remove"]
    pupil: str


class TeacherMove(TypedDict):
    """Seat a pupil at ``table`` (from 1), ``seat`` (from 0)."""

    type: Literal["move"]
    pupil: str
    table: int
    seat: int


class TeacherStartTable(TypedDict):
    type: Literal["start_table"]
    table: int


class TeacherGiveToBot(TypedDict):
    type: Literal["give_to_bot"]
    table: int
    seat: int


class TeacherFocus(TypedDict):
    """Show ``table`` large (null: none)."""

    type: Literal["focus"]
    table: int | None


class TeacherReveal(TypedDict):
    type: Literal["reveal"]
    on: bool


class TeacherLang(TypedDict):
    type: Literal["lang"]
    lang: Lang


class TeacherClock(TypedDict):
    """Show a pupil's clock (their id), the class's (""), or none (null)."""

    type: Literal["clock"]
    pupil: str | None


#: A control message of the teacher's dashboard (`dashboard.CONTROLS` names the same
#: fields of each type; `Board.receive` checks them).
TeacherMessage = (
    TeacherCommand | TeacherLock | TeacherRemove | TeacherMove | TeacherStartTable
    | TeacherGiveToBot | TeacherFocus | TeacherReveal | TeacherLang | TeacherClock
)  # fmt: skip


class Stuck(TypedDict):
    """Why a table is stuck: a pupil it waits for is offline, a seat it waits for is
    empty, or nothing moved for long (`Board._stuck`)."""

    reason: Literal["offline", "empty", "idle"]
    seats: list[int]
    seconds: NotRequired[int]


class TeacherTable(TableSnapshot):
    """A table on the teacher's dashboard: its `TableSnapshot` and whether it is stuck."""

    stuck: Stuck | None


#: The class on the teacher's dashboard (`Board.room_state`): the `Snapshot` with each
#: table's ``stuck`` and ``free``, the [table, seat] pairs a pupil may be moved to.
TeacherRoom = TypedDict(
    "TeacherRoom",
    {**Snapshot.__annotations__, "tables": list[TeacherTable], "free": list[list[int]]},  # type: ignore[misc]
)


class FocusTable(TypedDict, total=False):
    """The table shown large (`Board.table_state`), as a watcher sees it; {} if none."""

    id: int
    view: View
    points: list[TracePoint]
    epoch: int
    #: the table's clock with ``t`` the level time when sent (`Board._level_clock`)
    clock: Clock


class TeacherSettings(TypedDict):
    lang: Lang
    focus: int | None
    reveal: bool


class TeacherParts(TypedDict, total=False):
    """`Board.state` (every part) or `Board.changes` (the parts that changed)."""

    room: TeacherRoom
    table: FocusTable
    settings: TeacherSettings
    notice: Notice | dict[str, None]
    #: the clock the teacher opened (`Board.clock_state`: a pupil's, or the class's with
    #: ``name`` ""), as a pupil's page gets it; {} when none is open
    clock: OwnClock | dict[str, None]


class TeacherUpdate(TypedDict):
    """What the teacher's page gets (`teacher.TeacherSocket`): `Board.state` first, then
    `Board.changes`."""

    type: Literal["update"]
    state: NotRequired[TeacherParts]
    changes: NotRequired[TeacherParts]


#: Every frame the class server writes to the teacher's page.
TeacherFrame = TeacherUpdate


# ---------------------------------------------------------------- readers
def types_of(union: Any) -> tuple[str, ...]:
    """The ``type`` values of a message union (or one TypedDict), in order."""
    members = get_args(union) if get_origin(union) in (Union, UnionType) else (union,)
    out: list[str] = []
    for member in members:
        hint = get_type_hints(member, include_extras=True)["type"]
        if get_origin(hint) in (Required, NotRequired):
            hint = get_args(hint)[0]
        out += [t for t in get_args(hint) if t not in out]
    return tuple(out)


_KINDS: dict[Any, tuple[type, ...]] = {
    str: (str,),
    int: (int,),
    float: (int, float),
    bool: (bool,),
    type(None): (type(None),),
}


def fields_of(union: Any) -> dict[str, tuple[dict[str, tuple[type, ...]], frozenset[str]]]:
    """Each message type of ``union``: its fields with the Python kinds they may hold
    (a float field takes an int too) and the fields it must carry (``type`` aside)."""
    members = get_args(union) if get_origin(union) in (Union, UnionType) else (union,)
    out: dict[str, tuple[dict[str, tuple[type, ...]], frozenset[str]]] = {}
    for member in members:
        hints = get_type_hints(member, include_extras=True)
        fields: dict[str, tuple[type, ...]] = {}
        required: set[str] = set()
        for name, hint in hints.items():
            wrapper = get_origin(hint)
            if wrapper in (Required, NotRequired):
                hint = get_args(hint)[0]
            if wrapper is Required or (member.__total__ and wrapper is not NotRequired):
                required.add(name)
            if name == "type":
                types = get_args(hint)
                continue
            kinds: tuple[type, ...] = ()
            if get_origin(hint) is Literal:  # e.g. a language: its values' kind
                kinds = tuple(type(v) for v in get_args(hint))
            else:
                for one in get_args(hint) or (hint,):
                    kinds += _KINDS[one]
            fields[name] = tuple(dict.fromkeys(kinds))
        for kind in types:
            out[kind] = (fields, frozenset(required - {"type"}))
    return out


#: The message types a front end may send its `Session` (the session's table).
MESSAGE_TYPES: tuple[str, ...] = types_of(Message)
