"""`MindWidget`: play The Mind in a notebook, in real time, with bot teammates.

Python decides, the browser keeps time. The widget is transport only: a
`Table` (`mindwidget.table`) holds the game, the bots and the level clock's
bookkeeping and decides everything. The widget checks each message from the
browser (hostile input: known types and fields, finite times within a day),
passes it to the table, and syncs three small traits: ``view`` (the table as
the person's seat sees it, `table_view`, with what the seat may do now in
``view["allowed"]``, and the bots' tempo and the watch speeds its menus offer in
``view["tempo"]`` and ``view["speeds"]``), ``clock`` (`Table.clock`) and ``notice`` (why something
was refused: a key of the locale files, with parameters). The live timing
trace goes out as messages carrying only new or changed points.

The browser runs the level clock and sends the level time of each action;
while the clock runs and a bot seat holds cards it sends a heartbeat ``tick``
ten times a second (`Table.tick`). No kernel-side timer is needed, so the
widget works wherever widgets render (JupyterLab, Notebook 7, VS Code, Colab,
marimo). Nothing it sends carries a bot's planned time (it would give the
bot's card away) unless ``reveal`` is on (the teacher's countdowns).

Messages from the browser: ``{"type": "hello"}``, ``{"type": "tick", "t", "seq"}``,
``{"type": "ready"|"play"|"stop"|"propose_star", "t"}``,
``{"type": "vote", "agree", "t"}``, ``{"type": "wait"}`` (step mode),
``{"type": "next_level"|"start_blind"|"new_game"}``. A tick that changes
nothing is not answered at all; anything malformed or not possible now leaves
the game exactly as it was and sets ``notice``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from .bots import TEMPOS, BotsLike, check_tempo
from .game import Game
from .i18n import LANGS, translate
from .rules import Rules
from .runner import BotError, Planned
from .table import MAX_LEVEL_SECONDS, MODES, WATCH_SPEEDS, Refused, Table, check_speed, whole
from .view import TraceFeed, table_view

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from .timing import TimingProfile

__all__ = ["MindWidget", "Refused"]

_STATIC = Path(__file__).resolve().parent / "static"
_MISSING_BUNDLE = """
export default { render({ el }) {
  el.textContent = "mindwidget: the JavaScript bundle is missing; " +
    "run `npm install && npm run build`.";
} };
"""
#: The message types the front end may send (named in the notice for a bad one).
MESSAGE_TYPES = (
    "hello | tick | ready | play | stop | propose_star | vote | wait | next_level | "
    "start_blind | new_game"
)
SIZES = ("normal", "projector")
#: The traits the browser may set, with their values.
SETTABLE: dict[str, tuple[object, ...]] = {
    "lang": LANGS,
    "size": SIZES,
    "tempo": tuple(TEMPOS),
    "speed": WATCH_SPEEDS,
}
#: Synced traits a refused update is answered with (small; never the bundle).
ECHOED = ("view", "clock", "notice", "lang", "size", "reveal", "mode", "tempo", "speed")


def _bundle(name: str, fallback: str) -> str | Path:
    path = _STATIC / name
    return path if path.exists() else fallback


class MindWidget(anywidget.AnyWidget):
    """The Mind at a table with bot teammates, shown by evaluating it in a cell.

    >>> w = MindWidget(players=3, seat=0, bots="perfect", seed=1)   # doctest: +SKIP
    >>> w                                                           # doctest: +SKIP

    ``seat`` is the person's seat (``None``: a team of bots only, for a class to
    watch). ``bots`` is a bot name ("human", the default: bots that wait like
    people and adapt to the person; "adaptive", "scalar", "perfect"), a `Bot`,
    or a list with one per seat (or one per bot seat). ``tempo`` is the bots'
    tempo ("slow", "people", "quick" or a number > 0; `w.tempo = "slow"` from
    a cell). ``speed`` (1, 2 or 4) runs the level clock of a table of bots only
    faster; the game and its trace keep true level times. ``reveal`` shows every
    hand and each bot's countdown (for the teacher). ``mode="step"`` has no
    running clock: "Wait" (or `step`) brings the next bot action. ``game``
    starts from a game you set up (e.g. `Game.from_hands` for a scenario);
    its player count and rules then replace ``players``, ``rules`` and ``seed``.
    ``table`` shows a `Table` you made (``seat`` one of its person seats, or
    None): two widgets may show one table, e.g. one per person.

    In a cell: `game`, `table`, `ready`, `play`, `stop`, `propose_star`, `vote`,
    `step`, `advance`, `next_level`, `start_blind`, `reset`, `trace`,
    `plot_trace`, `timing_profile`, `plot_timing`. These refuse what is not
    possible now with a `RuleError` (`Refused`).
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
    #: the bots' tempo: a name from `TEMPOS` or a number > 0 (checked by `_valid_tempo`)
    tempo = traitlets.Any("people").tag(sync=True)
    #: the watch speed of a table of bots only, from `WATCH_SPEEDS` (checked by `_valid_speed`)
    speed = traitlets.Any(1).tag(sync=True)

    def __init__(
        self,
        players: int = 3,
        seat: int | None = 0,
        bots: BotsLike = "human",
        seed: int | None = None,
        lang: str = "en",
        reveal: bool = False,
        mode: str = "realtime",
        rules: Rules | None = None,
        game: Game | None = None,
        table: Table | None = None,
        tempo: float | str = "people",
        speed: int = 1,
        **kwargs: Any,
    ) -> None:
        check_tempo(tempo)
        check_speed(speed)
        if table is None:
            if game is not None and not isinstance(game, Game):
                raise ValueError(f"game must be a Game (e.g. Game.from_hands(...)), not {game!r}.")
            n = rules.players if isinstance(rules, Rules) else players
            seat = _seat(seat, range(game.players if game is not None else whole("players", n)))
            seats = () if seat is None else (seat,)
            table = Table(
                players,
                seats,
                bots,
                seed=seed,
                rules=rules,
                game=game,
                mode=mode,
                tempo=tempo,
                speed=speed,
            )
        elif not isinstance(table, Table) or game is not None:
            raise ValueError(f"table must be a Table (and then no game), not {table!r}.")
        else:
            seat = _seat(seat, table.seats)
            mode = table.mode
            speed = table.speed
            if table.tempo is not None and tempo != "people":
                table.tempo = tempo
            elif table.tempo is not None:
                tempo = table.tempo
        self._table = table
        self._seat = seat
        self._notice_id = 0
        self._seen = (-1, 0)  # (epoch, events) of the last view: what is news
        self._feed = TraceFeed(seat, reveal)
        self._ready = False
        super().__init__(lang=lang, reveal=reveal, mode=mode, tempo=tempo, speed=speed, **kwargs)
        self._ready = True
        self.on_msg(self._on_msg)
        table.listen(self._on_change)
        self._sync()

    # ------------------------------------------------------------ the table
    @property
    def table(self) -> Table:
        """The table this widget shows (its game, bots and clock)."""
        return self._table

    @property
    def seat(self) -> int | None:
        """The person's seat (None: bots only)."""
        return self._seat

    @property
    def game(self) -> Game:
        """The game being played. Act through the widget's methods, so it shows."""
        return self._table.game

    @property
    def planned(self) -> Planned | None:
        """The next bot action the table waits for (known in Python only)."""
        return self._table.planned

    @property
    def plans(self) -> dict[int, float]:
        """Each bot's planned level time of its next play (reveal shows them as countdowns)."""
        return self._table.plans

    @property
    def now(self) -> float:
        """The level time Python knows: the latest event, tick or `advance`."""
        return self._table.now

    def close(self) -> None:
        table = getattr(self, "_table", None)
        if table is not None:
            table.unlisten(self._on_change)
        super().close()

    # ------------------------------------------------------------- syncing
    def _on_change(self) -> None:
        if self.notice:
            self.notice = {}
        self._sync()

    def _sync(self, full_trace: bool = False) -> None:
        table = self._table
        index = table.index
        epoch = table.epoch
        news_from = self._seen[1] if self._seen[0] == epoch else 0
        self._seen = (epoch, index.n)
        plans = table.plans if self.reveal else None
        with self.hold_sync():
            self.view = (
                table_view(
                    table.game,
                    self._seat,
                    reveal=self.reveal,
                    plans=plans,
                    news_from=news_from,
                    allowed=table.allowed(self._seat),
                    index=index,
                )
                | self._settings()
            )
            self.clock = table.clock
            if self.mode != table.mode:
                self.mode = table.mode
        self._send_trace(full_trace)

    def _settings(self) -> dict[str, Any]:
        """What the table's menus offer: ``tempo``, the bots' tempo (a name from
        `TEMPOS`, a number, or None when these bots have none, e.g. "scalar"), and
        ``speeds``, the watch speeds to choose from (`WATCH_SPEEDS` at a table of
        bots only, else none)."""
        tempo: str | float | None = None
        if self._table.tempo is not None:
            value = self.tempo
            named = [name for name, v in TEMPOS.items() if v == value]
            tempo = value if isinstance(value, str) else named[0] if named else float(value)
        speeds = [] if self._table.seats else list(WATCH_SPEEDS)
        return {"tempo": tempo, "speeds": speeds}

    def _send_trace(self, full: bool = False) -> None:
        feed = self._feed.update(self._table.index)
        part = feed.take()
        if full:
            part = (0, feed.points)
        if part is not None:
            start, points = part
            epoch = self._table.epoch
            self.send({"type": "trace", "epoch": epoch, "from": start, "points": points})

    def _notice(self, refused: Refused) -> None:
        self._notice_id += 1
        self.notice = {"key": refused.key, "params": refused.params, "id": self._notice_id}

    @traitlets.validate("tempo")
    def _valid_tempo(self, proposal: Mapping[str, Any]) -> float | str:
        value: float | str = proposal["value"]
        check_tempo(value)
        if self._ready:
            # also when the value is the same: the bots go back to it from where
            # they adapted to; raises when these bots have no tempo ("scalar")
            self._table.tempo = value
        return value

    @traitlets.validate("speed")
    def _valid_speed(self, proposal: Mapping[str, Any]) -> int:
        speed = check_speed(proposal["value"])
        if self._ready and speed != 1 and self._table.seats:
            self._table.speed = speed  # raises: a person is seated
        return speed

    @traitlets.observe("tempo")
    def _on_tempo(self, _change: Mapping[str, Any]) -> None:
        if self._ready:
            self._sync()  # the view's menu shows the new tempo

    @traitlets.observe("speed")
    def _on_speed(self, change: Mapping[str, Any]) -> None:
        if self._ready:
            self._table.speed = change["new"]

    @traitlets.observe("reveal", "mode")
    def _on_setting(self, change: Mapping[str, Any]) -> None:
        if not self._ready:
            return
        if change["name"] == "mode":
            self._table.mode = change["new"]
        self._feed = TraceFeed(self._seat, self.reveal)
        self._sync(full_trace=True)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Updates from the browser: only ``lang`` and ``size``; never the table.

        A refused field gets a notice and, if the browser shows it, the value
        Python holds (never a large trait such as the bundle); the rest applies.
        """
        allowed = {}
        for name, value in sync_data.items():
            valid = SETTABLE.get(name)
            kind = int if name == "speed" else str
            ok = valid is not None and type(value) is kind and value in valid
            if ok and name == "speed" and value != 1 and self._table.seats:
                ok, valid = False, (1,)
            if ok and name == "tempo" and self._table.tempo is None:
                ok = False  # these bots have no tempo (e.g. "scalar")
            if not ok:
                what = " | ".join(map(str, valid)) if valid else ", ".join(SETTABLE)
                if name == "tempo":
                    self._notice(Refused("bad_tempo", value=repr(value)[:40]))
                elif name == "speed":
                    allowed_speeds = ", ".join(map(str, valid or WATCH_SPEEDS))
                    self._notice(
                        Refused("bad_speed", value=repr(value)[:40], allowed=allowed_speeds)
                    )
                else:
                    self._notice(Refused("bad_field", field=str(name)[:40], allowed=what))
                if name in ECHOED:
                    self.send_state(name)  # the view goes back to the value Python holds
            else:
                allowed[name] = value
        if allowed:
            super().set_state(allowed)

    # ------------------------------------------------ messages from the browser
    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        try:
            self._handle(content)
        except Refused as refused:
            self._notice(refused)
        except BotError as error:
            self._notice(Refused("bot_failed", error=str(error)))

    def _handle(self, msg: object) -> None:
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise Refused("bad_message", allowed=MESSAGE_TYPES)
        kind, table = msg["type"], self._table
        if kind == "hello":
            self._send_trace(full=True)
            return
        handlers: dict[str, Callable[[], object]] = {
            "tick": lambda: table.tick(_time(msg), _field(msg, "seq", int)),
            "play": lambda: table.play(t=_time(msg), seat=self._person()),
            "stop": lambda: table.stop(t=_time(msg), seat=self._person()),
            "propose_star": lambda: table.propose_star(t=_time(msg), seat=self._person()),
            "vote": lambda: table.vote(
                _field(msg, "agree", bool), t=_time(msg), seat=self._person()
            ),
            "ready": lambda: table.ready(_time(msg)),
            "wait": self._wait_msg,
            "next_level": table.next_level,
            "start_blind": table.start_blind,
            "new_game": table.new_game,
        }
        handler = handlers.get(kind)
        if handler is None:
            raise Refused("bad_message", allowed=MESSAGE_TYPES)
        handler()

    def _person(self) -> int:
        if self._seat is None:
            raise Refused("no_seat")
        return self._seat

    def _wait_msg(self) -> None:
        if self._table.mode != "step":
            raise Refused("not_step")
        self._table.wait()

    # ------------------------------------------------- the API for notebooks
    def ready(self) -> None:
        """Hands off the table: the level starts (or goes on after a stop)."""
        self._table.ready()

    def play(self) -> int:
        """The person plays their lowest card at the current level time; returns it."""
        return self._table.play(self._person())

    def stop(self) -> None:
        """The person calls stop: hands on the table until `ready`."""
        self._table.stop(self._person())

    def propose_star(self) -> None:
        """The person proposes a throwing star; the bots vote at once."""
        self._table.propose_star(self._person())

    def vote(self, agree: bool) -> None:
        """The person's vote on a throwing star a bot proposed."""
        self._table.vote(agree, self._person())

    def step(self) -> Planned:
        """Apply the next bot action at its planned time; returns what happened."""
        return self._table.wait()

    def advance(self, seconds: float) -> int:
        """Let ``seconds`` of level time pass; returns how many bot actions happened."""
        return self._table.advance(seconds)

    def next_level(self) -> None:
        """Deal the next level after a cleared one."""
        self._table.next_level()

    def start_blind(self) -> None:
        """After a win: play again from level 1 with the cards face down."""
        self._table.start_blind()

    def reset(self, seed: int | None = None) -> None:
        """A new game (same players, rules and bots), dealt from ``seed``."""
        self._table.reset(seed)

    @property
    def trace(self) -> pd.DataFrame:
        """The game's timing trace as a DataFrame (see `mindwidget.trace.trace`)."""
        from .trace import trace

        return trace(self.game)

    def plot_trace(self, level: int | None = None, blind: bool | None = None) -> Figure:
        """One level's timing trace as a matplotlib figure (see `mindwidget.trace.plot_trace`)."""
        from .trace import plot_trace

        return plot_trace(self.game, level=level, blind=blind, lang=self.lang)

    def timing_profile(self, player: int | None = None) -> TimingProfile:
        """The person's inner clock (see `mindwidget.timing.timing_profile`); ``player``
        defaults to the person's seat."""
        from .timing import timing_profile

        return timing_profile(self.game, self._profiled(player))

    def plot_timing(self, player: int | None = None) -> Figure:
        """The person's waits beside the bots' and people's (`mindwidget.timing.plot_timing`)."""
        from .timing import plot_timing

        return plot_timing(
            self.game, self._profiled(player), lang=self.lang, you=self._seat, bots=True
        )

    def _profiled(self, player: int | None) -> int:
        if player is not None:
            return player
        if self._seat is None:
            raise ValueError("player: a table of bots only has no person; name a seat.")
        return self._seat

    @property
    def notice_text(self) -> str:
        """The current notice in the widget's language ('' if none)."""
        if not self.notice:
            return ""
        return translate(f"notice_{self.notice['key']}", self.lang, **self.notice["params"])


def _seat(seat: object, seats: Sequence[int]) -> int | None:
    """``seat`` as an int among ``seats`` (None: bots only), else ValueError."""
    if seat is None:
        return None
    try:
        s = whole("seat", seat)
    except ValueError:
        s = -1
    if s in seats:
        return s
    which = f"a seat from 0 to {len(seats) - 1}"
    if not isinstance(seats, range):
        which = f"a person seat of the table {tuple(seats)}"
    raise ValueError(f"seat must be None (bots only) or {which}, not {seat!r}.")


def _field(msg: dict[str, Any], name: str, kind: type) -> Any:
    value = msg.get(name)
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise Refused("bad_field", field=name, allowed="0, 1, 2, …")
    if kind is bool and not isinstance(value, bool):
        raise Refused("bad_field", field=name, allowed="true | false")
    return value


def _time(msg: dict[str, Any]) -> float:
    """The message's level time: a finite number of seconds within a day, else refused."""
    value = msg.get("t")
    # compared as it is, before float(): JSON ints may be huge (10**400 overflows a float)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not 0 <= value <= MAX_LEVEL_SECONDS
    ):
        raise Refused("bad_field", field="t", allowed=f"0 … {MAX_LEVEL_SECONDS:g} s")
    return float(value)
