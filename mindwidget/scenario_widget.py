"""`ScenarioPlayer`: step through a scenario in a notebook, then take over and play.

    p = ScenarioPlayer(Scenario.load("mistake"), lang="nl")
    p                       # Back, Next, Reset (and the arrow keys), every hand face up,
                            # the narration of the step with the rule behind it,
                            # the timing trace so far, and "Take over from here"

The player holds no rules. Its buttons call the scenario's own `step`, `back`
and `reset`; the table is `view.table_view(state, seat=None, reveal=True)` (a
scenario shows every hand) and the trace is `view.trace_points` of the same
state. "Take over from here" turns the current step into a live game:
`Scenario.branch()` becomes the game of a `Table` with the person in
``seat`` and ``bots`` in the other seats, shown by a `MindWidget`.

Layout: the player is an ``ipywidgets.VBox`` whose children swap.

* Stepping: ``[board]``. The board is a small anywidget (`ScenarioBoard`,
  ``js/scenario.js``) that shows the synced ``scene`` and sends the buttons
  as messages; every decision is made here, in Python.
* Live: ``[board, live]``. The board shrinks to a bar ("you took over at step
  k", "Return to the scenario") and the `MindWidget` plays below it, with its
  own clock, keys and live region. Returning closes that widget; the scenario
  is still at the step it was taken over from.

A container of two widgets rather than one widget that does both keeps the
MindWidget exactly as it is everywhere else (one front end to test). It needs
a host that renders ipywidgets containers: JupyterLab, Notebook 7, VS Code and
Colab do; marimo renders anywidgets only.

Messages from the board: ``{"type": "next"|"back"|"reset"|"take_over"|"leave"}``.
A message that is not possible now changes nothing, and the board's ``notice``
says why (a `Refused`, the one refusal above the core: a ``refused_*`` key of
the locale files, shown as a `Session` shows its notice).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from .checks import choice, seat
from .game import Game
from .i18n import LANGS
from .refusal import Refused
from .scenario import Scenario
from .table import MODES, BotsLike, Table
from .view import phase, table_view, trace_points
from .widget import MindWidget

__all__ = ["ScenarioBoard", "ScenarioPlayer", "scene_phase", "split_rule"]

_STATIC = Path(__file__).resolve().parent / "static"
_MISSING_BUNDLE = """
export default { render({ el }) {
  el.textContent = "mindwidget: the JavaScript bundle is missing; " +
    "run `npm install && npm run build`.";
} };
"""

#: How a narration written as one text names the rule behind a step: it ends
#: with "Rule: ..." (en) or "Regel: ..." (nl, de). The library's steps carry
#: their rule or tip in a field of their own (`Scenario.point`).
RULE_MARKERS = {"en": "Rule:", "nl": "Regel:", "de": "Regel:"}


def split_rule(text: str, lang: str) -> tuple[str, str | None]:
    """A narration split into (what happens, the rule behind it).

    The rule is what follows the language's marker (``Rule:`` in English); a
    narration without one has no separate rule.
    """
    marker = RULE_MARKERS.get(lang, RULE_MARKERS["en"])
    head, found, rule = text.rpartition(marker)
    if not found or not head.strip() or not rule.strip():
        return text, None
    return head.strip(), rule.strip()


def scene_phase(game: Game) -> str:
    """What a scenario's phase line says the table is doing: `view.phase`, except
    right after the team concentrated (the step's last event is ``ready``):
    then ``"concentrated"``, as the narration of that step tells it, and not only
    that the level runs."""
    now = phase(game)
    events = game.level_events
    if now == "play" and events and events[-1].type == "ready":
        return "concentrated"
    return now


class ScenarioBoard(anywidget.AnyWidget):
    """The front end of a `ScenarioPlayer`: it shows ``scene`` and sends the buttons.

    Use it through `ScenarioPlayer`, which decides what every message does.
    """

    _esm = _STATIC / "scenario.js" if (_STATIC / "scenario.js").exists() else _MISSING_BUNDLE
    _css = _STATIC / "scenario.css" if (_STATIC / "scenario.css").exists() else ""

    scene = traitlets.Dict().tag(sync=True)
    notice = traitlets.Dict().tag(sync=True)
    lang = traitlets.Enum(LANGS, default_value="en").tag(sync=True)
    #: "projector": everything 1.6 times as large (as `MindWidget.size`).
    size = traitlets.Enum(("normal", "projector"), default_value="normal").tag(sync=True)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Updates from the browser: only ``lang``, and only to a known language."""
        if set(sync_data) == {"lang"} and sync_data["lang"] in LANGS:
            super().set_state(sync_data)


class ScenarioPlayer(ipywidgets.VBox):  # type: ignore[misc]
    """A scenario to step through (Back, Next, Reset), then to take over and play on.

    ``scenario`` is a `Scenario` (e.g. ``Scenario.load("mistake")``); the
    player steps that object, starting where it is. ``lang`` is en, nl or de:
    the buttons and the narrations (setting ``p.lang`` re-labels at once).
    "Take over from here" seats the person at ``seat`` (None: bots only) with
    ``bots`` in the other seats (see `MindWidget`), in ``mode`` "realtime" or
    "step".

    In a cell: `step`, `back`, `reset`, `goto`, `take_over`, `leave`, and
    `scenario`, `live` (the `MindWidget` while taken over, else None). They
    change the player where it is shown and return nothing, so a cell that
    calls them does not show the player a second time.
    """

    lang = traitlets.Enum(LANGS, default_value="en")

    def __init__(
        self,
        scenario: Scenario,
        lang: str = "en",
        seat: int | None = 0,
        bots: BotsLike = "adaptive",
        mode: str = "realtime",
        **kwargs: Any,
    ) -> None:
        if not isinstance(scenario, Scenario):
            raise ValueError(
                f"scenario must be a Scenario (e.g. Scenario.load('mistake')), not {scenario!r}."
            )
        seat = _check_seat(seat, scenario.state.players)
        choice("mode", mode, MODES, quoted=False)
        self._scenario = scenario
        self._seat = seat
        self._bots: BotsLike = bots
        self._mode = mode
        self._live: MindWidget | None = None
        self._live_from: int | None = None
        self._notice_id = 0
        self._board = ScenarioBoard(lang=lang)
        super().__init__(children=[self._board], lang=lang, **kwargs)
        self.add_class("mw-scenario-player")
        self._board.observe(self._lang_from_view, names="lang")
        self._board.on_msg(self._on_msg)
        self._sync()

    # ------------------------------------------------------------ the parts
    @property
    def scenario(self) -> Scenario:
        """The scenario being stepped."""
        return self._scenario

    @property
    def board(self) -> ScenarioBoard:
        """The anywidget that shows the scenario (the first child)."""
        return self._board

    @property
    def live(self) -> MindWidget | None:
        """The live game after "Take over from here" (None while stepping)."""
        return self._live

    @property
    def seat(self) -> int | None:
        """The person's seat when taking over (None: bots only)."""
        return self._seat

    @seat.setter
    def seat(self, value: int | None) -> None:
        self._seat = _check_seat(value, self._scenario.state.players)
        self._sync()

    # ------------------------------------------------------------- stepping
    def step(self) -> None:
        """The next step of the script (Next)."""
        self._api(lambda: self._do("next"))

    def back(self) -> None:
        """Undo the last step (Back)."""
        self._api(lambda: self._do("back"))

    def reset(self) -> None:
        """Back to the deal, before the first step (Reset)."""
        self._api(lambda: self._do("reset"))

    def goto(self, position: int) -> None:
        """The state after the first ``position`` steps (0 is the deal)."""

        def go() -> None:
            self._not_live()
            self._scenario.goto(position)
            with self._board.hold_sync():
                self._sync()
                self._board.notice = {}

        self._api(go)

    def take_over(self) -> MindWidget:
        """Take over from here: the current step becomes a live game (returned).

        The person sits at `seat`, bots at the others; the widget is shown in
        the player, below the board (``w = p.take_over()``: as a cell's last
        value it would show a second time). `leave` returns to the scenario.
        """
        self._api(self._do_take_over)
        assert self._live is not None
        return self._live

    def leave(self) -> None:
        """Return to the scenario, at the step it was taken over from (closes `live`)."""
        self._api(self._do_leave)

    def close(self) -> None:
        """Close the player with its board and live game (their front ends go too)."""
        # getattr: ipywidgets also closes a player whose __init__ refused its arguments.
        live = getattr(self, "_live", None)
        if live is not None:
            live.close()
            self._live = None
        board = getattr(self, "_board", None)
        if board is not None:
            board.close()
        super().close()

    # -------------------------------------------------------------- syncing
    def _sync(self) -> None:
        s = self._scenario
        s.lang = self.lang
        game = s.state
        text, point = s.text, s.point
        # While a live game runs, the board is only a bar: it must not carry the
        # hands (the person now holds a seat, and the other seats are hidden).
        live = self._live is not None
        self._board.scene = {
            "name": s.name,
            "title": s.title,
            "position": s.position,
            "steps": len(s),
            # the narrations name the hands: none of them while a live game runs
            "text": None if live else text,
            # what the step shows: a rule of the game (with its source text) or a tip
            "rule": None if live or point is None or point["kind"] != "rule" else point["text"],
            "tip": None if live or point is None or point["kind"] != "tip" else point["text"],
            "source": None if live or point is None else point["source"],
            "refusal": None if live else s.refusal_text,
            "seat": self._seat,
            "table": None if live else table_view(game, None, reveal=True),
            # the phase line's word: the table's phase, or "concentrated" right after concentrating
            "phase": None if live else scene_phase(game),
            "trace": [] if live else trace_points(game, None, reveal=True),
            "live": (
                None if self._live is None else {"from": self._live_from, "seat": self._live.seat}
            ),
        }

    @traitlets.observe("lang")
    def _on_lang(self, change: Mapping[str, Any]) -> None:
        if self._live is not None:
            self._live.lang = change["new"]
        with self._board.hold_sync():  # one message: the words and the narration together
            self._board.lang = change["new"]
            self._sync()

    def _lang_from_view(self, change: Mapping[str, Any]) -> None:
        self.lang = change["new"]

    # ------------------------------------------------------------- messages
    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        try:
            if not isinstance(kind, str):
                raise Refused("bad_message", allowed=", ".join(self._handlers()))
            self._do(kind)
        except Refused as refused:
            self._refuse(refused)

    def _handlers(self) -> dict[str, Callable[[], object]]:
        return {
            "next": self._do_next,
            "back": self._do_back,
            "reset": self._do_reset,
            "take_over": self._do_take_over,
            "leave": self._do_leave,
        }

    def _do(self, kind: str) -> None:
        handlers = self._handlers()
        handler = handlers.get(kind)
        if handler is None:
            raise Refused("bad_message", allowed=", ".join(handlers))
        with self._board.hold_sync():
            handler()
            self._board.notice = {}

    def _refuse(self, refused: Refused) -> None:
        """The board's notice, as a `Session`'s: ``{key, params, id}`` (``refused_<key>``)."""
        self._notice_id += 1
        self._board.notice = {"key": refused.key, "params": refused.params, "id": self._notice_id}

    def _not_live(self) -> None:
        if self._live is not None:
            raise Refused("live")

    def _do_next(self) -> None:
        self._not_live()
        if self._scenario.at_end:
            raise Refused("at_end")
        self._scenario.step()
        self._sync()

    def _do_back(self) -> None:
        self._not_live()
        if self._scenario.position == 0:
            raise Refused("at_start")
        self._scenario.back()
        self._sync()

    def _do_reset(self) -> None:
        self._not_live()
        self._scenario.reset()
        self._sync()

    def _do_take_over(self) -> None:
        self._not_live()
        game = self._scenario.branch()
        if phase(game) == "play":
            # Taking over is a new start for the person: hands on the table, and
            # the level clock waits for Ready (a stop at the step's time).
            game.stop(self._seat if self._seat is not None else 0, game.t)
        seats = () if self._seat is None else (self._seat,)
        table = Table(game=game, seats=seats, bots=self._bots, mode=self._mode)
        live = MindWidget(table=table, seat=self._seat, lang=self.lang)
        live.observe(self._lang_from_view, names="lang")
        self._live = live
        self._live_from = self._scenario.position
        self.children = [self._board, live]
        self._sync()

    def _do_leave(self) -> None:
        if self._live is None:
            raise Refused("not_live")
        live, self._live, self._live_from = self._live, None, None
        self.children = [self._board]
        live.close()
        self._sync()

    def _api(self, fn: Callable[[], object]) -> None:
        """A Python method: a refusal raises (a `Refused` is a `RuleError`, in English)."""
        fn()


def _check_seat(value: Any, players: int) -> int | None:
    return seat("seat", value, players, none="bots only")
