"""`MindWidget`: play The Mind in a notebook, in real time, with bot teammates.

Python decides, the browser keeps time. The widget is transport only: a
`Table` holds the game, the bots and the level clock's bookkeeping; a
`Session` (`mindwidget.session`) shows the person's seat of it, checks every
message and setting from the browser and says what to show. The widget puts
the session on anywidget's comm: its state becomes the synced traits (the
trace as ``live_trace``: whole in the state a new view receives, then only the
new or changed points), and the browser's messages go to `Session.receive`.
No kernel-side timer runs (the browser ticks while ``clock["beat"]``), so the
widget works wherever widgets render (JupyterLab, Notebook 7, VS Code, Colab,
marimo). Nothing it sends carries a bot's planned time unless ``reveal`` is on.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from .checks import whole
from .game import Game
from .i18n import LANGS
from .refusal import Refused
from .rules import Rules
from .session import SIZES, Session, check_seat
from .table import MODES, BotsLike, Planned, Table

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
#: Synced traits a refused update is answered with (small; never the bundle).
ECHOED = ("view", "clock", "notice", "lang", "size", "reveal", "mode", "tempo", "speed")
#: The settings a cell sets on the widget, passed on to the session.
_SETTINGS = ("lang", "size", "reveal", "mode", "tempo", "speed")


class MindWidget(anywidget.AnyWidget):
    """The Mind at a table with bot teammates, shown by evaluating it in a cell.

    >>> w = MindWidget(players=3, seat=0, bots="perfect", seed=1)   # doctest: +SKIP
    >>> w                                                           # doctest: +SKIP

    Args:
        players: How many play: 2, 3 or 4 (other counts need `Rules` with levels and lives).
        seat: The person's seat, counted from 0. None: bots only, for a class to
            watch.
        bots: The bots in the other seats: a name ("human", the default;
            "adaptive", "scalar", "perfect"), a `Bot`, or a list with one per seat.
        seed: Makes the deals and the bots' timing repeatable: the same seed and
            the same presses at the same times give the same game. None: a fresh
            game each time.
        lang: The board's language: "en", "nl" or "de".
        reveal: Show every hand and each bot's countdown (for the teacher on a
            projector, not for a pupil who plays).
        mode: "realtime" (the level clock runs) or "step" (no clock: "Wait"
            brings each bot action, for explaining a level step by step).
        rules: House rules (`Rules`); they decide the player count.
        game: Start from a game you set up, e.g. `Game.from_hands`; its players
            and rules replace ``players``, ``rules`` and ``seed``.
        table: Show a `Table` you made instead of a new one (then no ``game``);
            ``seat`` is one of its person seats, or None. Two widgets may show
            one table.
        tempo: The bots' tempo: "slow", "people" or "quick", or a number > 0
            (1.5, 1.0, 0.6 times the people curve).
        speed: Watch speed 1, 2 or 4, at a table of bots only (``seat=None``);
            the game keeps true level times.
        size: "normal", or "projector" for text a class's back row can read.
        **kwargs: Passed on to anywidget (e.g. a ``layout``).

    In a cell: `game`, `table`, `session`, `ready`, `play`, `stop`,
    `propose_star`, `vote`, `wait`, `advance`, `next_level`, `start_blind`,
    `reset`, `trace`, `plot_trace`, `timing_profile`, `plot_timing`. These
    refuse what is not possible now with a `RuleError` (`Refused`).
    """

    _esm = _STATIC / "widget.js" if (_STATIC / "widget.js").exists() else _MISSING_BUNDLE
    _css = _STATIC / "widget.css" if (_STATIC / "widget.css").exists() else ""

    view = traitlets.Dict().tag(sync=True)
    clock = traitlets.Dict().tag(sync=True)
    notice = traitlets.Dict().tag(sync=True)
    #: the level's live trace: whole in the state a view receives, then only what changed
    live_trace = traitlets.Dict().tag(sync=True)
    lang = traitlets.Enum(LANGS, default_value="en").tag(sync=True)
    size = traitlets.Enum(SIZES, default_value="normal").tag(sync=True)
    reveal = traitlets.Bool(False).tag(sync=True)
    mode = traitlets.Enum(MODES, default_value="realtime").tag(sync=True)
    #: the bots' tempo: a name from `TEMPOS` or a number > 0 (checked by the session)
    tempo = traitlets.Any("people").tag(sync=True)
    #: the watch speed of a table of bots only, from `WATCH_SPEEDS` (checked by the session)
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
        size: str = "normal",
        **kwargs: Any,
    ) -> None:
        if table is None:
            if game is not None and not isinstance(game, Game):
                raise ValueError(f"game must be a Game (e.g. Game.from_hands(...)), not {game!r}.")
            n = rules.players if isinstance(rules, Rules) else players
            seat = check_seat(seat, range(whole("players", n) if game is None else game.players))
            table = Table(
                players,
                () if seat is None else (seat,),
                bots,
                seed=seed,
                rules=rules,
                game=game,
                mode=mode,
                tempo=tempo,
                speed=speed,
            )
            given: float | str | None = tempo
        elif not isinstance(table, Table) or game is not None:
            raise ValueError(f"table must be a Table (and then no game), not {table!r}.")
        else:
            given = None if tempo == "people" else tempo
        self._session = Session(table, seat, lang=lang, reveal=reveal, size=size, tempo=given)
        self._pushing = True  # values from the session: not passed back to it
        super().__init__(**self._as_traits(self._session.state()), **kwargs)
        self._pushing = False
        self.on_msg(self._on_msg)
        self._session.listen(self._push)

    @property
    def session(self) -> Session:
        """The seat of the table this widget shows (what is checked and sent)."""
        return self._session

    @property
    def table(self) -> Table:
        """The table this widget shows (its game, bots and clock)."""
        return self._session.table

    @property
    def seat(self) -> int | None:
        """The person's seat (None: bots only)."""
        return self._session.seat

    @property
    def game(self) -> Game:
        """The game being played. Act through the widget's methods, so it shows."""
        return self.table.game

    @property
    def planned(self) -> Planned | None:
        """The next bot action the table waits for (known in Python only)."""
        return self.table.planned

    @property
    def plans(self) -> dict[int, float]:
        """Each bot's planned level time of its next play (reveal shows them as countdowns)."""
        return self.table.plans

    @property
    def now(self) -> float:
        """The level time Python knows: the latest event, tick or `advance`."""
        return self.table.now

    def close(self) -> None:
        session = getattr(self, "_session", None)
        if session is not None:
            session.close()
        super().close()

    @staticmethod
    def _as_traits(state: Mapping[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in state.items() if k != "settings"}
        out.update(state.get("settings", {}))
        return out

    def _push(self) -> None:
        changes = self._as_traits(self._session.changes())
        if not changes:
            return
        self._pushing = True
        try:
            with self.hold_sync():
                for name, value in changes.items():
                    self.set_trait(name, value)
        finally:
            self._pushing = False

    def get_state(self, key: str | list[str] | None = None) -> dict[str, Any]:
        """A view that asks for the whole state gets the level's whole trace too."""
        state: dict[str, Any] = super().get_state(key)
        if key is None and "live_trace" in state:
            state["live_trace"] = self._session.state()["live_trace"]
        return state

    @traitlets.validate(*_SETTINGS)
    def _valid_setting(self, proposal: Mapping[str, Any]) -> Any:
        """A setting from a cell (`w.tempo = "slow"`): the session checks and applies it."""
        value = proposal["value"]
        if not self._pushing:
            setattr(self._session, proposal["trait"].name, value)  # ValueError if refused
        return value

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Updates from the browser: the settings the session accepts; never the table.

        A refused field gets a notice and, if the browser shows it, the value
        Python holds (never a large trait such as the bundle); the rest applies.
        """
        for name, value in sync_data.items():
            if not self._session.set(name, value) and name in ECHOED:
                self.send_state(name)  # the view goes back to the value Python holds

    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        self._session.receive(content)

    def ready(self) -> None:
        """Hands off the table: the level starts (or goes on after a stop)."""
        self.table.ready()

    def play(self) -> int:
        """The person plays their lowest card at the current level time; returns it."""
        return self.table.play(self._session.person())

    def stop(self) -> None:
        """The person calls stop: hands on the table until `ready`."""
        self.table.stop(self._session.person())

    def propose_star(self) -> None:
        """The person proposes a throwing star; the bots vote at once."""
        self.table.propose_star(self._session.person())

    def vote(self, agree: bool) -> None:
        """The person's vote on a throwing star a bot proposed."""
        self.table.vote(agree, self._session.person())

    def wait(self) -> Planned:
        """Apply the next bot action at its planned time; returns what happened."""
        return self.table.wait()

    def advance(self, seconds: float) -> int:
        """Let ``seconds`` of level time pass; returns how many bot actions happened."""
        return self.table.advance(seconds)

    def next_level(self) -> None:
        """Deal the next level after a cleared one."""
        self.table.next_level()

    def start_blind(self) -> None:
        """After a win: play again from level 1 with the cards face down."""
        self.table.start_blind()

    def reset(self, seed: int | None = None) -> None:
        """A new game (same players, rules and bots), dealt from ``seed``."""
        self.table.reset(seed)

    @property
    def trace(self) -> pd.DataFrame:
        """The game's timing trace as a DataFrame (see `mindwidget.traces.trace`)."""
        from .traces import trace

        return trace(self.game)

    def plot_trace(self, level: int | None = None, blind: bool | None = None) -> Figure:
        """One level's timing trace as a matplotlib figure (see `mindwidget.plots.plot_trace`)."""
        from .plots import plot_trace

        g, lang = self.game, self.lang
        return plot_trace(g, level=level, blind=blind, lang=lang, you=self.seat, bots=True)

    def timing_profile(self, player: int | None = None) -> TimingProfile:
        """The inner clock of ``player`` (default: the person) (`mindwidget.timing`)."""
        from .timing import timing_profile

        return timing_profile(self.game, self._profiled(player))

    def plot_timing(self, player: int | None = None) -> Figure:
        """The person's waits beside the bots' and people's (`mindwidget.plots.plot_timing`)."""
        from .plots import plot_timing

        return plot_timing(
            self.game, self._profiled(player), lang=self.lang, you=self.seat, bots=True
        )

    def _profiled(self, player: int | None) -> int:
        if player is not None:
            return player
        if self.seat is None:
            raise ValueError("player: a table of bots only has no person; name a seat.")
        return self.seat

    @property
    def notice_text(self) -> str:
        """The current notice in the widget's language ('' if none)."""
        return self._session.notice_text
