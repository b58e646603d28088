"""`Table`: a game with its bots, their random generator and the level clock; no widget.

A table is what sits between the game core and any front end (a widget, a
test, a script, a future classroom server):

* the `Game` (layer 1), the bots in the seats no person takes, and one seeded
  generator for everything the bots draw;
* the bots' next action, planned with the runner's scheduling step
  (`plan_next`): known here only, never shown unless a front end reveals it;
* the level clock's bookkeeping. The table keeps no clock of its own (no
  timer runs): every call says what level time it is (``t``), or the table
  uses the latest time it knows (`now`). A person's action at ``t`` first lets
  every bot action planned before ``t`` happen, each at exactly its planned
  time; `tick` (a front end's clock reached ``t``) and `advance` (from a cell)
  bring the bot actions due by then; `wait` brings the next one (step mode).

Every method that changes the table refuses what is not possible now with one
exception type, `Refused` (``mindwidget.refusal``, a `RuleError`): its ``key``
names the reason in the locale files (``refused_<key>``; a refusal of the core
keeps the core's key and parameters, `Refused.from_rule`), and the game is left
exactly as it was. Bad arguments (a seat that does not exist, a time that is
not a finite number of seconds within a day) raise `ValueError` naming the
parameter.

``seats`` are the person seats (none: a team of bots; several: several people
at one table, e.g. ``Table(seats=(0, 2))``, each acting with ``seat=``). The
bots fill the rest.

    >>> t = Table(players=3, seats=(0,), bots="perfect", seed=1)
    >>> t.ready(); t.phase
    'play'

Front ends listen (`listen`) and hear once after each call that changed
something (however many bot actions it brought).

The clock protocol
------------------
`clock` is ``{"running", "t", "seq", "epoch"}``. ``t`` is the level time of
the latest event (a front end's clock never shows less); ``seq`` counts the
table's changes; ``epoch`` changes when the level clock restarts (a new
level, a new game). ``running`` is False before Ready, while a star vote is
open (the clock stands still), when the level is over, and always in step
mode. After a stop the clock runs on (the stop is shaded in the trace), but
no bot acts until Ready.

Ticks are idempotent (an action, once applied, is no longer planned), so two
front ends may both tick. A tick whose ``seq`` is older than the moment the
clock last started running (Ready, the end of a star vote, a new level)
belongs to an earlier stretch of the clock and is dropped. A ``t`` earlier
than the latest event is refused as "too late".
"""

from __future__ import annotations

import contextlib
import copy
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .bots import TEMPOS, Bot, BotsLike, HumanTimer, PerfectTimer, check_tempo, make_team
from .bots.runner import BotError, Planned, apply_planned, plan_next, ready_at, resolve_votes
from .checks import MAX_LEVEL_SECONDS, WATCH_SPEEDS, check_speed, level_seconds, whole
from .events import Event
from .game import Game, Observation
from .refusal import Refused
from .rules import RuleError, Rules

__all__ = [
    "MAX_LEVEL_SECONDS",
    "MODES",
    "TEMPOS",
    "BotsLike",
    "Planned",
    "WATCH_SPEEDS",
    "LevelIndex",
    "Table",
    "check_speed",
    "check_tempo",
    "level_seconds",
    "phase",
    "whole",
]

#: The modes of the level clock: a running clock, or none ("Wait" brings each bot action).
MODES = ("realtime", "step")


#: Seconds a team of bots keeps its hands on the table after a mistake or a
#: throwing star (``Rules.concentrate_after``) before it is ready again: a
#: human-like pause, so an onlooker sees the table stop. With a person at the
#: table, the person's Ready ends the pause instead (the bots are ready).
BOTS_READY_PAUSE = 1.5


# ------------------------------------------------------------ the level's events
class LevelIndex:
    """The current level's events, indexed as they come.

    What a table and its views look up (has the level started, the cards
    played, the last vote, the last mistake) without going through every
    event again: a level may hold thousands of events (a front end that
    spams stop and ready). `update` reads only the events since its last
    call; a new level (a new deal) starts the index afresh.
    """

    def __init__(self) -> None:
        self.deals = 0  # how many levels this index has seen start
        self._game: Game | None = None
        self._count = 0
        self._start(())

    def _start(self, events: tuple[Event, ...]) -> None:
        self.events: tuple[Event, ...] = events
        self.n = 0
        self.started = False
        self.played: list[int] = []
        self.discarding: list[int] = []  # mistakes and throwing stars, in order
        self.last: dict[str, int] = {}
        self._public: dict[int, Mapping[str, Any]] = {}

    def update(self, game: Game) -> LevelIndex:
        """Read the events since the last update (all of them after a new deal)."""
        if game is self._game and game.event_count == self._count:
            return self  # nothing new
        self._game = game
        self._count = game.event_count
        events = game.level_events
        if not self.events or events[0] is not self.events[0]:
            self.deals += 1
            self._start(events)
        self.events = events
        for i in range(self.n, len(events)):
            kind = events[i].type
            self.last[kind] = i
            if kind == "played":
                self.played.append(i)
            elif kind in ("mistake", "star_used"):
                self.discarding.append(i)
            elif kind == "ready":
                self.started = True
        self.n = len(events)
        return self

    def copy(self, game: Game) -> LevelIndex:
        """The same index for ``game``, a copy of the game it was kept for."""
        other = copy.copy(self)
        other._game = game
        other.played = list(self.played)
        other.discarding = list(self.discarding)
        other.last = dict(self.last)
        other._public = dict(self._public)
        return other

    def public(self, i: int) -> Mapping[str, Any]:
        """The public dict of event ``i`` of the level (cached: events never change)."""
        d = self._public.get(i)
        if d is None:
            d = self._public[i] = self.events[i].public_dict()
        return d

    def after_play(self, kind: str) -> int | None:
        """The index of the last event of ``kind`` if no card was played after it."""
        i = self.last.get(kind, -1)
        return i if i > self.last.get("played", -1) else None

    @property
    def declined_since_last_play(self) -> bool:
        """A throwing star was declined since the last card (no bot proposes again until one)."""
        return self.after_play("star_declined") is not None


def phase(game: Game, index: LevelIndex | None = None) -> str:
    """What the table is waiting for, in one word the front end understands.

    ``ready``: hands on the table before the level starts; ``stopped``: hands on
    the table after a stop; ``vote``: a throwing star is proposed; ``play``: the
    level runs; ``cleared``, ``won``, ``lost``: the level or game is over.
    ``index`` (this game's, up to date) saves looking through the events.
    """
    if game.status == "cleared":
        return "cleared"
    if game.status in ("won", "lost"):
        return game.status
    if game.proposal is not None:
        return "vote"
    if game.concentrating:
        if index is not None:
            started = index.started
        else:
            started = any(e.type == "ready" for e in game.level_events)
        return "stopped" if started else "ready"
    return "play"


# ----------------------------------------------------------------- the bots
class _Watch(Bot):
    """Passes every call to a bot and writes down when it plans to play.

    The table gives `plan_next` these instead of the bots themselves, so a
    reveal mode can show each bot's countdown without asking it twice (which
    would draw different noise and change the game).
    """

    def __init__(self, bot: Bot, log: dict[int, float]) -> None:
        self._bot = bot
        self._log = log
        self.player = bot.player
        self.name = bot.name
        self.propose_stars = bot.propose_stars
        self.seconds_per_step = bot.seconds_per_step

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        wait = self._bot.plan(obs, rng)
        if isinstance(wait, (int, float)) and math.isfinite(wait):
            self._log[self.player] = obs.t + float(wait)
        return wait

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        return self._bot.wants_star(obs, rng)

    def star_delay(self, obs: Observation, rng: np.random.Generator) -> float:
        return self._bot.star_delay(obs, rng)

    def ready_delay(self, obs: Observation, rng: np.random.Generator) -> float:
        return self._bot.ready_delay(obs, rng)

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        return self._bot.vote(obs, rng)

    def __repr__(self) -> str:
        return repr(self._bot)


# -------------------------------------------------------------- checking input
def _seats(seats: int | Iterable[int] | None, players: int) -> tuple[int, ...]:
    listed: Iterable[object]
    if seats is None:
        listed = ()
    elif isinstance(seats, (int, np.integer)) and not isinstance(seats, (bool, np.bool_)):
        listed = (seats,)
    elif isinstance(seats, Iterable) and not isinstance(seats, (str, bytes)):
        listed = seats
    else:
        listed = (seats,)
    out: list[int] = []
    for s in listed:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)):
            ok = False
        else:
            ok = 0 <= int(s) < players and int(s) not in out
        if not ok:
            raise ValueError(
                f"seats must be None (bots only), a seat or a list of different seats from 0 to "
                f"{players - 1}, not {seats!r}."
            )
        out.append(int(s))
    return tuple(sorted(out))


# ----------------------------------------------------------------- the table
class Table:
    """A game of The Mind with bots in every seat but ``seats`` (the people).

    Args:
        players: How many play: 2, 3 or 4 (other counts need `Rules` with levels and lives).
        seats: The people's seats, counted from 0: one seat, several, or None
            for a table of bots only. Each action names the seat that acts.
        bots: The bots in the other seats: a name ("human", the default;
            "adaptive", "scalar", "perfect"), a `Bot`, or a list with one per
            seat (or one per bot seat).
        seed: Makes the deals and the bots' timing repeatable. None: a fresh game.
        rules: House rules (`Rules`); they decide the player count.
        game: Start from a game you set up (e.g. `Game.from_hands`); its player
            count and rules then replace ``players``, ``rules`` and ``seed``.
        mode: "realtime" (a front end's clock runs and ticks) or "step" (no
            running clock: `wait` brings the next bot action).
        tempo: The bots' tempo ("slow", "people", "quick" or a number > 0; see
            `tempo`). None: the bots' own.
        speed: The watch speed of a table of bots only: 1, 2 or 4 (see `speed`).

    Methods for everything a seat can do: `ready`, `play`, `stop`,
    `propose_star`, `vote`, `next_level`, `start_blind`, `new_game`; and for
    time: `tick`, `advance`, `wait`. `allowed` says what a seat may do now.
    """

    _now: float
    _heard: tuple[int, float] | None

    def __init__(
        self,
        players: int = 3,
        seats: int | Iterable[int] | None = (0,),
        bots: BotsLike = "human",
        seed: int | None = None,
        rules: Rules | None = None,
        game: Game | None = None,
        mode: str = "realtime",
        tempo: float | str | None = None,
        speed: int = 1,
    ) -> None:
        if tempo is not None:
            tempo = check_tempo(tempo)
        speed = check_speed(speed)
        if game is None:
            if rules is None:
                players = whole("players", players)
            if seed is not None:
                seed = whole("seed", seed)
            game = Game(players=None if rules is not None else players, seed=seed, rules=rules)
        elif not isinstance(game, Game):
            raise ValueError(f"game must be a Game (e.g. Game.from_hands(...)), not {game!r}.")
        self._seats = _seats(seats, game.players)
        self._bots_spec: BotsLike = bots
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}.")
        self._mode = mode
        self._tempo = tempo
        self._speed = speed
        self._listeners: list[Callable[[], None]] = []
        self._depth = 0
        self._seq = 0
        self._run_seq = 0  # the seq at which the clock last started running
        self._was_running = False
        self._games = 0
        if speed != 1 and self._seats:
            raise ValueError(self._speed_for_bots_only(speed))
        self._start(game)

    # ------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        """The game. Act through the table's methods, so its bots and listeners follow."""
        return self._game

    @property
    def seats(self) -> tuple[int, ...]:
        """The person seats (empty: bots only)."""
        return self._seats

    @property
    def bots(self) -> tuple[Bot, ...]:
        """The bot in every seat (a person's seat holds a stand-in that never acts)."""
        return tuple(self._bots)

    @property
    def planned(self) -> Planned | None:
        """The next bot action (None if no bot will act now). Never shown to a pupil."""
        return self._planned

    @property
    def plans(self) -> dict[int, float]:
        """Each bot's planned level time of its next play (for a teacher's countdowns)."""
        return dict(self._plans)

    @property
    def now(self) -> float:
        """The level time the table knows: the latest event, tick or `advance`."""
        return max(self._now, self._game.t)

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, value: str) -> None:
        if value not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {value!r}.")
        if value == self._mode:
            return
        with self._action():
            heard = self._heard
            if heard is not None and heard[0] == self.epoch:
                self._now = max(self._now, heard[1])  # go on from the front end's time
            self._mode = value
            self._seq += 1
            self._mark_run()

    @property
    def tempo(self) -> float | None:
        """The bots' tempo on the people curve (`mindwidget.bots.TEMPOS`: "slow" 1.5,
        "people" 1.0, "quick" 0.6, or a number > 0): the mean over the bot seats
        whose timing has a tempo (`HumanTimer`; they adapt to the people from it).
        None when no bot seat has one.

        Setting it (a name or a number) sets every such bot's tempo now; the
        bots plan again from it. Other bots (e.g. ``"scalar"``) have no tempo to
        set: a ValueError says so.
        """
        tempos = [b.tempo for p, b in enumerate(self._bots) if self._has_tempo(p)]
        return sum(tempos) / len(tempos) if tempos else None

    @tempo.setter
    def tempo(self, value: float | str) -> None:
        tempo = check_tempo(value)
        if not any(self._has_tempo(p) for p in range(len(self._bots))):
            names = ", ".join(
                type(b).__name__ for p, b in enumerate(self._bots) if p not in self._seats
            )
            raise ValueError(
                f"tempo: this table's bots ({names}) have no tempo to set; bots='human' has."
            )
        with self._action():
            self._tempo = tempo
            for p, bot in enumerate(self._bots):
                if self._has_tempo(p):
                    assert isinstance(bot, HumanTimer)
                    bot.set_tempo(tempo)
            self._changed()

    def _has_tempo(self, p: int) -> bool:
        return p not in self._seats and isinstance(self._bots[p], HumanTimer)

    @property
    def speed(self) -> int:
        """The watch speed of a table of bots only (`WATCH_SPEEDS`: 1, 2 or 4).

        A front end runs the level clock ``speed`` times faster than real time
        and ticks with that level time; the game and its trace keep true level
        times (nothing here changes but the value in `clock`). A table with a
        person plays at 1.
        """
        return self._speed

    @speed.setter
    def speed(self, value: int) -> None:
        speed = check_speed(value)
        if speed != 1 and self._seats:
            raise ValueError(self._speed_for_bots_only(speed))
        if speed == self._speed:
            return
        with self._action():
            heard = self._heard
            if heard is not None and heard[0] == self.epoch:
                self._now = max(self._now, heard[1])  # the clock goes on from the front end's time
            self._speed = speed
            self._seq += 1
            self._mark_run()

    def _speed_for_bots_only(self, speed: int) -> str:
        return (
            f"speed {speed!r} is for a table of bots only; this table has people in seats "
            f"{self._seats}: allowed 1."
        )

    @property
    def index(self) -> LevelIndex:
        """The current level's events, indexed (up to date)."""
        return self._index.update(self._game)

    @property
    def phase(self) -> str:
        """What the table waits for (see `phase`)."""
        return phase(self._game, self.index)

    @property
    def running(self) -> bool:
        """Whether the level clock runs (real time, during play or a stop)."""
        return self._mode == "realtime" and self.phase in ("play", "stopped")

    @property
    def seq(self) -> int:
        """Counts the table's changes (a tick from before `run_seq` is stale)."""
        return self._seq

    @property
    def epoch(self) -> int:
        """Changes whenever the level clock starts afresh (a new level or a new game)."""
        return self._games * 1000 + self.index.deals

    @property
    def clock(self) -> dict[str, Any]:
        """The level clock as a front end follows it: running, t, seq, epoch."""
        return {
            "running": self.running,
            "t": self.now,
            "seq": self._seq,
            "epoch": self.epoch,
            "speed": self._speed,
        }

    def allowed(self, seat: int | None) -> tuple[str, ...]:
        """What ``seat`` (None: an onlooker, e.g. the teacher of a bots-only table) may do now.

        Names from `mindwidget.view.ALLOWED`: each is accepted if done now
        (bot actions due before its time come first and may change that).
        ``wait`` is listed in step mode only (in real time the clock brings
        the bots), though `wait` works from a cell in any mode.
        """
        if seat is not None:
            seat = whole("seat", seat)
        game = self._game
        person = seat if seat is not None and seat in self._seats else None
        p = self.phase
        # The rules (the team's actions are every seat's: an onlooker reads seat 0's;
        # while the level runs it may take none of them, so they are not asked) ...
        asked = person is not None or p in ("ready", "stopped") or game.status != "playing"
        legal = game.legal_actions(0 if person is None else person) if asked else ()
        # ... narrowed by the table's own gates: Ready only while the hands are on the
        # table, a seat's own cards and stars only while the level runs (not before
        # Ready), Wait in step mode with a bot action planned, a new game once over.
        out = ["ready"] if p in ("ready", "stopped") and "ready" in legal else []
        if person is not None:
            if p == "play":
                out += [a for a in ("play", "stop", "propose_star") if a in legal]
            if "vote" in legal:
                out.append("vote")
        if self._mode == "step" and self._planned is not None:
            out.append("wait")
        out += [a for a in ("next_level", "start_blind") if a in legal]
        if game.status != "playing":
            out.append("new_game")
        return tuple(out)

    # ------------------------------------------------------------ listening
    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` once after each call that changed the table."""
        self._listeners.append(callback)

    def unlisten(self, callback: Callable[[], None]) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(callback)

    @contextlib.contextmanager
    def _action(self) -> Iterator[None]:
        """One call from outside: listeners hear once at its end if anything changed
        (also when a bot failed after the game changed). A failing bot is a
        `Refused` ("bot_failed", naming the seat and what it did)."""
        self._depth += 1
        seq = self._seq
        try:
            yield
        except BotError as error:
            if self._depth > 1:
                raise
            raise Refused("bot_failed", error=str(error)) from error
        finally:
            self._depth -= 1
            if self._depth == 0 and self._seq != seq:
                for callback in list(self._listeners):
                    callback()

    # -------------------------------------------------------------- a game
    def _team(self, players: int) -> list[Bot]:
        bots = self._bots_spec
        if (
            self._seats
            and isinstance(bots, Sequence)
            and not isinstance(bots, str)
            and len(bots) == players - len(self._seats)
        ):
            filled: list[Any] = list(bots)
            for s in self._seats:
                filled.insert(s, PerfectTimer())
            bots = filled
        team = make_team(bots, players)
        if self._tempo is not None:
            for p, bot in enumerate(team):
                if isinstance(bot, HumanTimer) and p not in self._seats:
                    bot.set_tempo(self._tempo)
        return team

    def _start(self, game: Game) -> None:
        with self._action():
            self._game = game
            self._bots = self._team(game.players)
            self._plans: dict[int, float] = {}
            self._watch: list[Bot] = [_Watch(b, self._plans) for b in self._bots]
            self._rng = np.random.default_rng(game.seed)
            self._planned: Planned | None = None
            self._now = 0.0
            self._heard = None  # (epoch, time) of the front end's last tick
            self._games += 1
            self._index = LevelIndex()
            if game.status == "playing" and game.proposal is not None:
                # a game taken over mid-vote (a scenario, `game=`): the bots vote now,
                # so the vote waits at most for the people
                with self._then_changed():
                    resolve_votes(game, self._bots, self._rng, skip=self._seats)
            else:
                self._changed()

    def copy(self) -> Table:
        """An independent table in the same state (game, bots, generator, plans), no listeners.

        The branching primitive of a table, as `Game.copy` is of a game: what
        would happen if ...
        """
        other = copy.copy(self)
        other._game = self._game.copy()
        other._bots = copy.deepcopy(self._bots)
        other._plans = dict(self._plans)
        other._watch = [_Watch(b, other._plans) for b in other._bots]
        other._rng = copy.deepcopy(self._rng)
        other._index = self._index.copy(other._game)
        other._listeners = []
        return other

    def reset(self, seed: int | None = None) -> None:
        """A new game (same players, rules and bots), dealt from ``seed``, whatever the state."""
        if seed is not None:
            seed = whole("seed", seed)
        self._start(Game(seed=seed, rules=self._game.rules))

    def new_game(self, seed: int | None = None) -> None:
        """A new game once this one is over or between levels (refused during a level)."""
        if self._game.status == "playing":
            raise Refused("not_now")
        self.reset(seed)

    # ----------------------------------------------------------- changes
    def _changed(self) -> None:
        """After every change of the game: the bots plan again."""
        self._seq += 1
        try:
            self._plans.clear()
            self._planned = plan_next(
                self._game,
                self._watch,
                self._rng,
                skip=self._seats,
                declined=self.index.declined_since_last_play,
            )
            if self._planned is None and self._bots_ready_again():
                # each bot's human-like pause (`ready_at`), and at least a moment
                # in which an onlooker sees the table stop
                ready = ready_at(self._game, self._watch, self._rng, skip=self._seats)
                self._planned = Planned(max(ready, self._game.t + BOTS_READY_PAUSE), -1, "ready")
        except BotError:
            self._planned = None  # the table shows what happened; the error says why
            raise
        finally:
            self._mark_run()

    def _bots_ready_again(self) -> bool:
        """A team of bots only, with every hand on the table after a mistake or a star."""
        game = self._game
        if self._seats or game.status != "playing" or not game.concentrating:
            return False
        events = game.level_events
        return bool(events) and events[-1].type == "hands_on_table"

    @contextlib.contextmanager
    def _then_changed(self) -> Iterator[None]:
        """Plan after the game changed, also when a bot then fails."""
        try:
            yield
        finally:
            self._changed()

    def _mark_run(self) -> None:
        running = self.running
        if running and not self._was_running:
            self._run_seq = self._seq
        self._was_running = running

    def _catch_up(self, t: float, inclusive: bool = False) -> int:
        """Every bot action planned before ``t`` (``inclusive``: at or before) happens,
        each at its planned time; returns how many."""
        n = 0
        while self._planned is not None and (
            self._planned.t < t or (inclusive and self._planned.t <= t)
        ):
            self._apply(self._planned)
            n += 1
        return n

    def _apply(self, planned: Planned) -> None:
        with self._then_changed():
            apply_planned(self._game, self._bots, planned, self._rng, skip=self._seats)
            self._now = max(self._now, planned.t)

    # ------------------------------------------------------------- checks
    def _time(self, t: object) -> float:
        """An action's level time ``t`` (None: `now`): the table's own bound for any
        caller (a number of seconds within a day, `checks.level_seconds`; a session has
        already refused a page's ``t`` outside it), then the core's R4 (time stamps never
        decrease, `Game.time_refusal`), asked before the bots catch up to ``t``."""
        if t is None:
            return self.now
        t = level_seconds("t", t)
        refusal = self._game.time_refusal(t)
        if refusal is not None:
            raise Refused.from_rule(refusal)
        return t

    def _person(self, seat: object) -> int:
        if not self._seats:
            raise Refused("no_seat")
        if seat is None:
            if len(self._seats) > 1:
                raise ValueError(
                    f"seat: this table has several person seats {self._seats}; say which one acts."
                )
            return self._seats[0]
        s = whole("seat", seat)
        if s not in self._seats:
            raise ValueError(f"seat must be a person seat {self._seats}, not {seat!r}.")
        return s

    def _rule(self, fn: Callable[[], object]) -> None:
        """Call a game method; a refusal of the rules becomes a `Refused` with the same
        reason (the `RuleError`'s key and params)."""
        try:
            fn()
        except Refused:
            raise
        except RuleError as exc:
            raise Refused.from_rule(exc) from exc

    def _before_person_action(
        self, t: float, precondition: Callable[[], RuleError | None] | None = None
    ) -> None:
        """The table's gates of a seat's action at ``t``, then the bots catch up to ``t``,
        then the gates again. ``precondition`` is the core's own check of the action
        (`Game.refusal`: the one `legal_actions`
        asks), asked before the bots catch up, so that an action the rules refuse now
        (no cards, no stars) lets no time pass; the core's action asks it again after."""
        p = self.phase
        if p in ("cleared", "won", "lost"):
            raise Refused("level_over")
        refused = None if precondition is None else precondition()
        if refused is not None:
            raise Refused.from_rule(refused) from refused
        if p in ("ready", "stopped"):
            raise Refused("press_ready")
        if p == "vote":
            raise Refused("vote_first")
        self._catch_up(t)
        p = self.phase
        if p in ("cleared", "won", "lost"):
            raise Refused("level_over")
        if p == "vote":
            raise Refused("vote_first")

    # ----------------------------------------------------------- actions
    def ready(self, t: float | None = None) -> None:
        """Hands off the table: the level starts (or goes on after a stop)."""
        with self._action():
            t = self._time(t)
            if self.phase not in ("ready", "stopped"):
                raise Refused("not_now")
            self._rule(lambda: self._game.ready(t=t))
            self._now = max(self._now, t)
            self._changed()

    def play(self, seat: int | None = None, t: float | None = None) -> int:
        """``seat`` (a person's; may be left out at a table of one person) plays their
        lowest card at level time ``t`` (default: `now`); returns the card."""
        with self._action():
            s = self._person(seat)
            t = self._time(t)
            self._before_person_action(t, lambda: self._game.refusal("play", s))
            played: list[int] = []
            self._rule(lambda: played.append(self._game.play(s, t=t)))
            self._now = max(self._now, t)
            self._changed()
            return played[0]

    def stop(self, seat: int | None = None, t: float | None = None, why: str = "player") -> None:
        """``seat`` calls stop: hands on the table until `ready`. ``why`` says why
        (`mindwidget.events.STOP_REASONS`; a host stops in a seat's name for another
        reason than the seat's own stop, e.g. "offline")."""
        with self._action():
            s = self._person(seat)
            t = self._time(t)
            self._before_person_action(t)
            self._rule(lambda: self._game.stop(s, t=t, why=why))
            self._now = max(self._now, t)
            self._changed()

    def propose_star(self, seat: int | None = None, t: float | None = None) -> None:
        """``seat`` proposes a throwing star; the bots vote at once."""
        with self._action():
            s = self._person(seat)
            t = self._time(t)
            self._before_person_action(t, lambda: self._game.refusal("propose_star"))
            self._rule(lambda: self._game.propose_star(s, t=t))
            self._now = max(self._now, t)
            with self._then_changed():
                resolve_votes(self._game, self._bots, self._rng, skip=self._seats)

    def vote(self, agree: bool, seat: int | None = None, t: float | None = None) -> None:
        """``seat``'s vote on the open throwing-star proposal."""
        if not isinstance(agree, (bool, np.bool_)):
            raise ValueError(f"agree must be True or False, not {agree!r}.")
        with self._action():
            s = self._person(seat)
            t = self._time(t)
            if self._game.proposal is None:
                raise Refused("not_now")
            self._rule(lambda: self._game.vote(s, bool(agree), t=t))
            self._now = max(self._now, t)
            with self._then_changed():
                resolve_votes(self._game, self._bots, self._rng, skip=self._seats)

    def next_level(self) -> None:
        """Deal the next level after a cleared one."""
        with self._action():
            self._rule(self._game.next_level)
            self._now = 0.0
            self._changed()

    def start_blind(self) -> None:
        """After a win: play again from level 1 with the cards face down."""
        with self._action():
            self._rule(self._game.start_blind)
            self._now = 0.0
            self._changed()

    # ---------------------------------------------------------------- time
    def tick(self, t: float, seq: int | None = None) -> int:
        """A front end's clock reached ``t``: every bot action due by then happens.

        ``seq`` is the table's `seq` the front end had seen: a tick from before
        the clock last started running (Ready, the end of a vote, a new level)
        is stale and changes nothing; so does a tick while the clock stands
        still. Returns how many bot actions happened.
        """
        t = level_seconds("t", t)
        if seq is not None:
            seq = whole("seq", seq)
            if seq > self._seq:
                raise Refused("bad_field", field="seq", allowed=f"0 … {self._seq}")
            if seq < self._run_seq:
                return 0
        if not self.running:
            return 0
        with self._action():
            n = self._catch_up(t, inclusive=True)
            # the front end's clock reached t (its own time: it reveals nothing);
            # a switch to step mode goes on from here, not from the last event
            self._heard = (self.epoch, t)
            return n

    def wait(self) -> Planned:
        """Apply the next bot action at its planned time; returns what happened."""
        with self._action():
            planned = self._planned
            if planned is None:
                p = self.phase
                raise Refused("press_ready" if p in ("ready", "stopped") else "nothing_to_wait")
            self._apply(planned)
            return planned

    def advance(self, seconds: float) -> int:
        """Let ``seconds`` of level time pass; returns how many bot actions happened.

        The level time may not pass a day (`MAX_LEVEL_SECONDS`).
        """
        step = level_seconds("seconds", seconds)
        end = self.now + step
        if not end <= MAX_LEVEL_SECONDS:
            raise ValueError(
                f"seconds: {step:g} s from level time {self.now:g} s would pass a day "
                f"({MAX_LEVEL_SECONDS:g} s), the longest a level may last."
            )
        with self._action():
            n = self._catch_up(end, inclusive=True)
            if self.phase in ("play", "stopped") and end > self._now:
                self._now = end
                self._seq += 1
            return n

    def __repr__(self) -> str:
        people = ", ".join(map(str, self._seats)) or "none"
        head = f"Table(people in seats {people}; {self.phase}; level time {self.now:g} s)"
        return f"{head}\n{self._game!r}"
