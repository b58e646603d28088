"""`MindWidget`: play The Mind in a notebook, in real time, with bot teammates.

Python decides, the browser keeps time.

* Python holds the `Game`, the bots and their random generator. It applies
  every action with the rules of the game core and plans the bots' next action
  with the runner's scheduling step (`plan_next`). It syncs three small traits:
  ``view`` (the table as the person's seat sees it, `table_view`), ``clock``
  and ``notice``; the live timing trace goes out as messages carrying only the
  new points.
* The browser runs the level clock. It sends the level time of each of the
  person's actions, and while the clock runs and a bot seat holds cards it
  sends a heartbeat ``tick`` with its level time ten times a second: Python
  then applies every bot action planned at or before that time, each at
  exactly its planned time.
  No kernel-side timer is needed, so the widget works wherever widgets render
  (JupyterLab, Notebook 7, VS Code, Colab, marimo).
* The browser never learns when a bot will act: a bot's planned time gives its
  card away (a perfect timer waits 0.3 s per step above the pile), so nothing
  Python sends carries it, unless ``reveal`` is on (the teacher's countdowns
  in ``view["plans"]``).

The clock protocol
------------------
``clock = {"running", "t", "seq", "epoch"}``. ``t`` is the level time of the
latest event (the browser's clock never shows less); ``seq`` counts the
changes Python syncs; ``epoch`` changes when the level clock restarts (a new
level, a new game). ``running`` is False before Ready, while a star vote is
open (the clock stands still), when the level is over, and always in step
mode. After a stop the clock runs on (the stop is shaded in the trace), but no
bot acts until Ready.

Messages from the browser: ``{"type": "hello"}``, ``{"type": "tick", "t", "seq"}``,
``{"type": "ready"|"play"|"stop"|"propose_star", "t"}``,
``{"type": "vote", "agree", "t"}``, ``{"type": "wait"}`` (step mode),
``{"type": "next_level"|"start_blind"|"new_game"}``.

A tick is answered only when it changes something: a tick before the next bot
action changes nothing and Python sends nothing back (no trait, no message).
Ticks are idempotent (an action, once applied, is no longer planned), so two
front ends of one widget may both tick. A tick whose ``seq`` is older than the
moment the clock last started running (Ready, the end of a star vote, a new
level) belongs to an earlier stretch of the clock and is dropped silently.
Anything else that is malformed or not possible now is refused: the game stays
exactly as it was and the ``notice`` trait says why (a key of the locale
files, with parameters).

A person's action at level time ``t`` first lets every bot action planned
before ``t`` happen (the tick that would have brought it may still be on its
way). A ``t`` earlier than the table's latest event is refused as "too late".
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import numpy as np
import traitlets

from .bots import Bot, BotsLike, PerfectTimer, make_team
from .game import Game, Observation
from .i18n import LANGS, translate
from .rules import RuleError, Rules
from .runner import BotError, Planned, apply_planned, plan_next, resolve_votes
from .view import phase, table_view, trace_points

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["MindWidget"]

_STATIC = Path(__file__).resolve().parent / "static"
_MISSING_BUNDLE = """
export default { render({ el }) {
  el.textContent = "mindwidget: the JavaScript bundle is missing; " +
    "run `npm install && npm run build`.";
} };
"""
MODES = ("realtime", "step")
#: The message types the front end may send (named in the notice for a bad one).
MESSAGE_TYPES = (
    "hello | tick | ready | play | stop | propose_star | vote | wait | next_level | "
    "start_blind | new_game"
)
SIZES = ("normal", "projector")
#: Traits the browser may change (everything else is decided in Python).


def _bundle(name: str, fallback: str) -> str | Path:
    path = _STATIC / name
    return path if path.exists() else fallback


class Refused(Exception):
    """An action that is not possible now: ``key`` names the reason in the locale files."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: str = "en") -> str:
        return translate(f"notice_{self.key}", lang, **self.params)


class _Watch(Bot):
    """Passes every call to a bot and writes down when it plans to play.

    The widget gives `plan_next` these instead of the bots themselves, so the
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

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        return self._bot.vote(obs, rng)

    def __repr__(self) -> str:
        return repr(self._bot)


class MindWidget(anywidget.AnyWidget):
    """The Mind at a table with bot teammates, shown by evaluating it in a cell.

    >>> w = MindWidget(players=3, seat=0, bots="perfect", seed=1)   # doctest: +SKIP
    >>> w                                                           # doctest: +SKIP

    ``seat`` is the person's seat (``None``: a team of bots only, for a class to
    watch). ``bots`` is a bot name ("adaptive", "scalar", "perfect"), a `Bot`,
    or a list with one per seat (or one per bot seat). ``reveal`` shows every
    hand and each bot's countdown (for the teacher). ``mode="step"`` has no
    running clock: "Wait" (or `step`) brings the next bot action. ``game``
    starts from a game you set up (e.g. `Game.from_hands` for a scenario);
    its player count and rules then replace ``players``, ``rules`` and ``seed``.

    In a cell: `game`, `ready`, `play`, `stop`, `propose_star`, `vote`, `step`,
    `advance`, `next_level`, `start_blind`, `reset`, `trace`, `plot_trace`.
    These refuse what is not possible now with a `RuleError`.
    """

    _esm = _bundle("widget.js", _MISSING_BUNDLE)
    _css = _bundle("widget.css", "")

    view = traitlets.Dict().tag(sync=True)
    clock = traitlets.Dict().tag(sync=True)
    notice = traitlets.Dict().tag(sync=True)
    lang = traitlets.Enum(LANGS, default_value="en").tag(sync=True)
    size = traitlets.Enum(SIZES, default_value="normal").tag(sync=True)
    reveal = traitlets.Bool(False).tag(sync=True)
    mode = traitlets.Enum(MODES, default_value="realtime").tag(sync=True)

    def __init__(
        self,
        players: int = 3,
        seat: int | None = 0,
        bots: BotsLike = "adaptive",
        seed: int | None = None,
        lang: str = "en",
        reveal: bool = False,
        mode: str = "realtime",
        rules: Rules | None = None,
        game: Game | None = None,
        **kwargs: Any,
    ) -> None:
        if game is None:
            game = Game(players=None if rules is not None else players, seed=seed, rules=rules)
        elif not isinstance(game, Game):
            raise ValueError(f"game must be a Game (e.g. Game.from_hands(...)), not {game!r}.")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players
        ):
            raise ValueError(
                f"seat must be None (bots only) or a seat from 0 to {game.players - 1}, "
                f"not {seat!r}."
            )
        self._seat = seat
        self._bots_spec: BotsLike = bots
        self._sync_ready = False
        self._notice_id = 0
        self._epoch = 0
        self._seq = 0
        self._run_seq = 0  # the seq at which the clock last started running
        self._was_running = False
        self._batching = False
        self._dirty = False
        self._sent: list[dict[str, Any]] = []
        self._sent_epoch = -1
        super().__init__(lang=lang, reveal=reveal, mode=mode, **kwargs)
        self.on_msg(self._on_msg)
        self._start(game)

    # ------------------------------------------------------------ the table
    @property
    def seat(self) -> int | None:
        """The person's seat (None: bots only)."""
        return self._seat

    @property
    def game(self) -> Game:
        """The game being played. Act through the widget's methods, so it shows."""
        return self._game

    @property
    def planned(self) -> Planned | None:
        """The next bot action the widget waits for (None if no bot will act).

        Known in Python only: the browser learns a bot's action when it happens.
        """
        return self._planned

    @property
    def plans(self) -> dict[int, float]:
        """Each bot's planned level time of its next play (reveal shows them as countdowns)."""
        return dict(self._plans)

    @property
    def now(self) -> float:
        """The level time Python knows: the latest event or `advance`."""
        return max(self._now, self._game.t)

    def _team(self, players: int) -> list[Bot]:
        bots = self._bots_spec
        if (
            self._seat is not None
            and isinstance(bots, Sequence)
            and not isinstance(bots, str)
            and len(bots) == players - 1
        ):
            bots = [*bots[: self._seat], PerfectTimer(), *bots[self._seat :]]
        return make_team(bots, players)

    def _start(self, game: Game) -> None:
        self._game = game
        self._bots = self._team(game.players)
        self._plans: dict[int, float] = {}
        self._watch: list[Bot] = [_Watch(b, self._plans) for b in self._bots]
        self._rng = np.random.default_rng(game.seed)
        self._planned: Planned | None = None
        self._now = 0.0
        self._heard: tuple[int, float] | None = None  # (epoch key, browser time) of the last tick
        self._seen = 0
        self._epoch += 1
        self._sync_ready = True
        if game.status == "playing" and game.proposal is not None:
            # a game taken over mid-vote (a scenario, `game=`): the bots vote now,
            # so the vote waits at most for the person
            with self._then_changed():
                resolve_votes(game, self._bots, self._rng, skip=self._skip())
        else:
            self._changed()

    def reset(self, seed: int | None = None) -> None:
        """A new game (same players, rules and bots), dealt from ``seed``."""
        self._start(Game(seed=seed, rules=self._game.rules))

    # ------------------------------------------------------------- syncing
    def _skip(self) -> tuple[int, ...]:
        return () if self._seat is None else (self._seat,)

    def _replan(self) -> None:
        self._plans.clear()
        self._planned = plan_next(self._game, self._watch, self._rng, skip=self._skip())

    def _changed(self) -> None:
        """After every change of the game: plan the bots, then sync view, clock, trace."""
        self._seq += 1
        try:
            self._replan()
        except BotError:
            self._planned = None  # the table shows what happened; the notice says why
            raise
        finally:
            self._notice_off()
            self._mark_run()
            if self._batching:
                self._dirty = True
            else:
                self._sync()

    @contextlib.contextmanager
    def _batch(self) -> Iterator[None]:
        """Sync once at the end, however many changes happen inside (e.g. a tick
        that brings two bot actions)."""
        outer = self._batching
        self._batching = True
        try:
            yield
        finally:
            self._batching = outer
            if not outer and self._dirty:
                self._dirty = False
                self._sync()

    def _running(self) -> bool:
        return self.mode == "realtime" and phase(self._game) in ("play", "stopped")

    def _mark_run(self) -> None:
        """Remember the seq at which the clock started running (ticks from before are stale)."""
        running = self._running()
        if running and not self._was_running:
            self._run_seq = self._seq
        self._was_running = running

    def _sync(self) -> None:
        if not self._sync_ready:
            return
        game = self._game
        level_events = len(game.level_events)
        level_start = len(game.events) - level_events
        news_from = max(0, self._seen - level_start)
        self._seen = len(game.events)
        with self.hold_sync():
            self.view = table_view(
                game,
                self._seat,
                reveal=self.reveal,
                plans=self._plans if self.reveal else None,
                news_from=news_from,
                allowed=self._allowed(),
            )
            self.clock = {
                "running": self._running(),
                "t": self.now,
                "seq": self._seq,
                "epoch": self._epoch_key(),
            }
        self._send_trace()

    def _allowed(self) -> list[str]:
        """What the browser may send now and have accepted (see `view.table_view`)."""
        game, seat = self._game, self._seat
        p = phase(game)
        out = ["ready"] if p in ("ready", "stopped") else []
        if seat is not None:
            legal = game.legal_actions(seat)
            if p == "play":
                out += [a for a in ("play", "stop", "propose_star") if a in legal]
            if "vote_star" in legal:
                out.append("vote")
        if self.mode == "step" and self._planned is not None:
            out.append("wait")
        legal_any = game.legal_actions(0)
        out += [a for a in ("next_level", "start_blind") if a in legal_any]
        if game.status != "playing":
            out.append("new_game")
        return out

    def _send_trace(self, full: bool = False) -> None:
        points = trace_points(self._game, self._seat, reveal=self.reveal)
        start = 0
        if not full and self._sent_epoch == self._epoch_key():
            while (
                start < len(points)
                and start < len(self._sent)
                and points[start] == self._sent[start]
            ):
                start += 1
            if start == len(points) == len(self._sent):
                return
        self._sent = points
        self._sent_epoch = self._epoch_key()
        self.send(
            {
                "type": "trace",
                "epoch": self._epoch_key(),
                "from": start,
                "points": points[start:],
            }
        )

    def _epoch_key(self) -> int:
        """Changes whenever the level clock and the trace start afresh (a new level or game)."""
        return self._epoch * 1000 + sum(1 for e in self._game.events if e.type == "dealt")

    def _notice(self, refused: Refused) -> None:
        self._notice_id += 1
        self.notice = {"key": refused.key, "params": refused.params, "id": self._notice_id}

    def _notice_off(self) -> None:
        if self.notice:
            self.notice = {}

    @traitlets.observe("reveal", "mode")
    def _on_setting(self, change: Mapping[str, Any]) -> None:
        if self._sync_ready:
            heard = self._heard
            if change["name"] == "mode" and heard is not None and heard[0] == self._epoch_key():
                self._now = max(self._now, heard[1])
            self._seq += 1
            self._mark_run()
            self._sync()
            self._send_trace(full=True)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Updates from the browser: only ``lang`` and ``size``; never the table."""
        allowed = {}
        choices = {"lang": LANGS, "size": SIZES}
        for name, value in sync_data.items():
            valid = choices.get(name)
            if valid is None or value not in valid:
                what = " | ".join(valid) if valid else "lang, size"
                self._notice(Refused("bad_field", field=name, allowed=what))
                if self.has_trait(name):
                    self.send_state(name)  # the view goes back to the value Python holds
            else:
                allowed[name] = value
        if allowed:
            super().set_state(allowed)

    # ------------------------------------------------------------ actions
    def _catch_up(self, t: float, inclusive: bool = False) -> int:
        """Apply every bot action planned before level time ``t`` (``inclusive``: at
        or before), each at its planned time; returns how many."""
        n = 0
        while self._planned is not None and (
            self._planned.t < t or (inclusive and self._planned.t <= t)
        ):
            self._apply_planned(self._planned)
            n += 1
        return n

    def _apply_planned(self, planned: Planned) -> None:
        with self._then_changed():
            apply_planned(self._game, self._bots, planned, self._rng, skip=self._skip())
            self._now = max(self._now, planned.t)

    @contextlib.contextmanager
    def _then_changed(self) -> Iterator[None]:
        """Plan and sync after the game changed, also when a bot then fails (the
        view must show what happened before the notice says which bot failed)."""
        try:
            yield
        finally:
            self._changed()

    def _do_tick(self, t: float, seq: int) -> None:
        """The browser's clock reached ``t``: every bot action due by then happens."""
        if seq > self._seq:
            raise Refused("bad_field", field="seq", allowed=f"0 … {self._seq}")
        if seq < self._run_seq or not self._running():
            return  # from an earlier stretch of the clock, or the clock stands still
        self._catch_up(t, inclusive=True)
        # the browser's clock reached t (its own time: it reveals nothing); a switch
        # to step mode goes on from here, not from the last event
        self._heard = (self._epoch_key(), t)

    def _check_t(self, t: float) -> None:
        if t < self._game.t:
            raise Refused("too_late", t=round(t, 2), last=round(self._game.t, 2))

    def _person(self) -> int:
        if self._seat is None:
            raise Refused("no_seat")
        return self._seat

    def _rule(self, fn: Callable[[], object]) -> None:
        """Call a game method; turn a refusal of the rules into a notice key."""
        try:
            fn()
        except RuleError as exc:
            raise Refused(self._why_not()) from exc

    def _why_not(self) -> str:
        game = self._game
        p = phase(game)
        if p in ("cleared", "won", "lost"):
            return "level_over"
        if p == "vote":
            return "vote_first"
        return "not_now"

    def _do_play(self, t: float) -> int:
        seat = self._person()
        self._check_t(t)
        if not self._game.hands[seat]:
            raise Refused("no_cards")
        self._before_person_action(t)
        if not self._game.hands[seat]:
            raise Refused("no_cards")
        played: list[int] = []
        self._rule(lambda: played.append(self._game.play(seat, t=t)))
        self._now = max(self._now, t)
        self._changed()
        return played[0]

    def _before_person_action(self, t: float) -> None:
        p = phase(self._game)
        if p in ("cleared", "won", "lost"):
            raise Refused("level_over")
        if p in ("ready", "stopped"):
            raise Refused("press_ready")
        if p == "vote":
            raise Refused("vote_first")
        self._catch_up(t)
        p = phase(self._game)
        if p in ("cleared", "won", "lost"):
            raise Refused("level_over")
        if p == "vote":
            raise Refused("vote_first")

    def _do_stop(self, t: float) -> None:
        seat = self._person()
        self._check_t(t)
        self._before_person_action(t)
        self._rule(lambda: self._game.stop(seat, t=t))
        self._now = max(self._now, t)
        self._changed()

    def _do_propose(self, t: float) -> None:
        seat = self._person()
        self._check_t(t)
        if self._game.stars <= 0:
            raise Refused("no_stars")
        self._before_person_action(t)
        if self._game.stars <= 0:
            raise Refused("no_stars")
        self._rule(lambda: self._game.propose_star(seat, t=t))
        self._now = max(self._now, t)
        with self._then_changed():
            resolve_votes(self._game, self._bots, self._rng, skip=self._skip())

    def _do_vote(self, agree: bool, t: float) -> None:
        seat = self._person()
        self._check_t(t)
        if self._game.proposal is None:
            raise Refused("not_now")
        self._rule(lambda: self._game.vote_star(seat, agree, t=t))
        self._now = max(self._now, t)
        with self._then_changed():
            resolve_votes(self._game, self._bots, self._rng, skip=self._skip())

    def _do_ready(self, t: float) -> None:
        self._check_t(t)
        if phase(self._game) not in ("ready", "stopped"):
            raise Refused("not_now")
        self._rule(lambda: self._game.concentrate(t=t))
        self._now = max(self._now, t)
        self._changed()

    def _do_wait(self) -> Planned:
        planned = self._planned
        if planned is None:
            p = phase(self._game)
            raise Refused("press_ready" if p in ("ready", "stopped") else "nothing_to_wait")
        self._apply_planned(planned)
        return planned

    def _do_next_level(self) -> None:
        self._rule(self._game.next_level)
        self._now = 0.0
        self._changed()

    def _do_start_blind(self) -> None:
        self._rule(self._game.start_blind)
        self._now = 0.0
        self._changed()

    def _do_new_game(self) -> None:
        if self._game.status == "playing":
            raise Refused("not_now")
        self.reset()

    # ------------------------------------------------ messages from the browser
    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        with self._batch():
            try:
                self._handle(content)
            except Refused as refused:
                self._notice(refused)
            except BotError as error:
                self._notice(Refused("bot_failed", error=str(error)))

    def _handle(self, msg: object) -> None:
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise Refused("bad_message", allowed=MESSAGE_TYPES)
        kind = msg["type"]
        if kind == "hello":
            self._send_trace(full=True)
            return
        handlers: dict[str, Callable[[], object]] = {
            "tick": lambda: self._do_tick(_time(msg), _field(msg, "seq", int)),
            "play": lambda: self._do_play(_time(msg)),
            "stop": lambda: self._do_stop(_time(msg)),
            "propose_star": lambda: self._do_propose(_time(msg)),
            "vote": lambda: self._do_vote(_field(msg, "agree", bool), _time(msg)),
            "ready": lambda: self._do_ready(_time(msg)),
            "wait": self._wait_msg,
            "next_level": self._do_next_level,
            "start_blind": self._do_start_blind,
            "new_game": self._do_new_game,
        }
        handler = handlers.get(kind)
        if handler is None:
            raise Refused("bad_message", allowed=MESSAGE_TYPES)
        handler()

    def _wait_msg(self) -> None:
        if self.mode != "step":
            raise Refused("not_step")
        self._do_wait()

    # ------------------------------------------------- the API for notebooks
    def _api(self, fn: Callable[[], Any]) -> Any:
        try:
            with self._batch():
                return fn()
        except Refused as refused:
            cause = refused.__cause__
            extra = f" ({cause})" if cause is not None else ""
            raise RuleError(refused.text("en") + extra) from None

    def ready(self) -> None:
        """Hands off the table: the level starts (or goes on after a stop)."""
        self._api(lambda: self._do_ready(self.now))

    def play(self) -> int:
        """The person plays their lowest card at the current level time; returns it."""
        return int(self._api(lambda: self._do_play(self.now)))

    def stop(self) -> None:
        """The person calls stop: hands on the table until `ready`."""
        self._api(lambda: self._do_stop(self.now))

    def propose_star(self) -> None:
        """The person proposes a throwing star; the bots vote at once."""
        self._api(lambda: self._do_propose(self.now))

    def vote(self, agree: bool) -> None:
        """The person's vote on a throwing star a bot proposed."""
        if not isinstance(agree, bool):
            raise RuleError(f"agree must be True or False, not {agree!r}.")
        self._api(lambda: self._do_vote(agree, self.now))

    def step(self) -> Planned:
        """Apply the next bot action at its planned time; returns what happened."""
        return self._api(self._do_wait)  # type: ignore[no-any-return]

    def advance(self, seconds: float) -> int:
        """Let ``seconds`` of level time pass; returns how many bot actions happened."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise RuleError(f"seconds must be a number, not {seconds!r}.")
        if not math.isfinite(seconds) or seconds < 0:
            raise RuleError(f"seconds must be a finite number >= 0, not {seconds}.")
        end = self.now + float(seconds)
        with self._batch():
            n = self._catch_up(end, inclusive=True)
            if phase(self._game) in ("play", "stopped"):
                self._now = max(self._now, end)
            self._dirty = True
        return n

    def next_level(self) -> None:
        """Deal the next level after a cleared one."""
        self._api(self._do_next_level)

    def start_blind(self) -> None:
        """After a win: play again from level 1 with the cards face down."""
        self._api(self._do_start_blind)

    @property
    def trace(self) -> pd.DataFrame:
        """The game's timing trace as a DataFrame (see `mindwidget.trace.trace`)."""
        from .trace import trace

        return trace(self._game)

    def plot_trace(self, level: int | None = None, blind: bool | None = None) -> Figure:
        """One level's timing trace as a matplotlib figure (see `mindwidget.trace.plot_trace`)."""
        from .trace import plot_trace

        return plot_trace(self._game, level=level, blind=blind, lang=self.lang)

    @property
    def notice_text(self) -> str:
        """The current notice in the widget's language ('' if none)."""
        if not self.notice:
            return ""
        return translate(f"notice_{self.notice['key']}", self.lang, **self.notice["params"])


def _field(msg: dict[str, Any], name: str, kind: type) -> Any:
    value = msg.get(name)
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise Refused("bad_field", field=name, allowed="0, 1, 2, …")
    if kind is bool and not isinstance(value, bool):
        raise Refused("bad_field", field=name, allowed="true | false")
    return value


def _time(msg: dict[str, Any]) -> float:
    value = msg.get("t")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused("bad_field", field="t", allowed="≥ 0 s")
    t = float(value)
    if not math.isfinite(t) or t < 0:
        raise Refused("bad_field", field="t", allowed="≥ 0 s")
    return t
