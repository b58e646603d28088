"""`Session`: one seat of a `Table` shown to one front end, apart from its transport.

A front end (the notebook widget, a browser at the class server, a test)
sees a table through a session. The session

* checks every message the front end sends (`receive`; hostile input: known
  types and fields, finite times within a day) and turns it into a `Table`
  call; a refusal never raises: it sets the ``notice`` (a locale key, its
  parameters and an id) and changes nothing;
* checks the settings the front end may change (`set`: lang, size, tempo,
  speed);
* holds the state to send (`state`): the ``view`` of the seat (`table_view`,
  with what the seat may do, the menus' entries and labels, whether the
  browser should send heartbeats, the join delay after Ready and why the
  table stopped), the ``clock``, the ``notice``, the settings and the
  ``live_trace`` (the name the widget's trait has too); and what changed
  since the last send (`changes`: the trace then carries only the new or
  changed points);
* knows its language (`lang`).

It imports neither anywidget nor traitlets: the widget (`mindwidget.widget`)
and the class server put it on their own transport.

The clock source
----------------
``clock="browser"`` (a notebook): the browser keeps the level time. It
stamps each action with ``t`` and, while ``clock["beat"]`` is true, sends a
heartbeat ``{"type": "tick", "t", "seq"}`` every 100 ms (`Table.tick`).

``clock="host"`` (the class server): one `HostClock` per table keeps the level
time from a monotonic clock the host passes in. The session stamps every
action with `HostClock.level_time` and ignores the browser's ``t`` and its
heartbeats (``clock["beat"]`` is false); the host calls `HostClock.tick` at
`HostClock.due`. The same stamped times give the same game either way.

Messages from a front end: ``{"type": "hello"}`` (the whole trace again),
``{"type": "tick", "t", "seq"}``, ``{"type": "ready"|"play"|"stop"|"propose_star", "t"}``,
``{"type": "vote", "agree", "t"}``, ``{"type": "wait"}`` (step mode),
``{"type": "next_level"|"start_blind"|"new_game"}``. Each action may name the
view it was made on (``epoch``, ``n``): one made on a state the table has left is
refused ("stale"), so a press that arrives late (held up on its way) never
plays a card into a game it did not see.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol

from . import wire
from .checks import choice, flag, level_seconds, whole
from .i18n import LANGS, messages, translate
from .refusal import Refused
from .table import (
    MAX_LEVEL_SECONDS,
    TEMPOS,
    WATCH_SPEEDS,
    Table,
    check_speed,
    check_tempo,
)
from .view import TraceFeed, table_view

__all__ = [
    "CLOCKS",
    "JOIN_SECONDS",
    "MESSAGE_TYPES",
    "SETTABLE",
    "SIZES",
    "VERSIONED",
    "HostClock",
    "Overlay",
    "Session",
    "check_seat",
]

#: Where the level time comes from: the front end's clock, or the host's.
CLOCKS = ("browser", "host")
#: The sizes a front end may show: "projector" is everything 1.6 times as large.
SIZES = ("normal", "projector")
#: How long after the person's Ready the bots "join" (hands off the table), in seconds.
JOIN_SECONDS = 0.6
#: The message types a front end may send (named in the notice for a bad one).
MESSAGE_TYPES = " | ".join(wire.MESSAGE_TYPES)
#: The actions that name the view they were made on (``epoch``, ``n``): refused
#: ("stale") when the table has left it (`Session.receive`).
VERSIONED = frozenset(
    ("ready", "play", "stop", "propose_star", "vote", "next_level", "start_blind", "new_game")
)
#: The settings a front end may change, with their values.
SETTABLE: dict[str, tuple[object, ...]] = {
    "lang": LANGS,
    "size": SIZES,
    "tempo": tuple(TEMPOS),
    "speed": WATCH_SPEEDS,
}


class Overlay(Protocol):
    """What a host lays over the views of its table's seats (e.g. a class table's
    nicknames), asked at each rebuild of a seat's view (`Session.refresh` when what
    it says changes while the table does not).

    ``settable``: the settings a front end may change (of `SETTABLE`; the menus show
    only those). ``withheld(seat)``: the actions kept from ``seat`` now (`Session.withheld`).
    ``view(seat, view)``: the keys the host adds to ``seat``'s view, given the view as
    the session built it. ``mark(points, events)``: the host may add to the trace's new
    ``points`` in place, given the game's event number of each.
    """

    @property
    def settable(self) -> Collection[str]: ...
    def withheld(self, seat: int | None) -> Collection[str]: ...
    def view(self, seat: int | None, view: dict[str, Any]) -> dict[str, Any]: ...
    def mark(self, points: list[dict[str, Any]], events: list[int]) -> None: ...


class HostClock:
    """The level clock of one table, kept by the host (the class server) from ``now``.

    ``now`` is a monotonic clock in seconds (`time.monotonic` by default; a
    test passes a function it advances). The level time runs while the table
    runs (`Table.running`), at the table's watch speed, and never goes below
    the table's latest event; a new level or game starts it afresh at the
    table's time. One per table, shared by all the table's sessions.
    """

    def __init__(self, table: Table, now: Callable[[], float] = time.monotonic) -> None:
        if not isinstance(table, Table):
            raise ValueError(f"table must be a Table, not {table!r}.")
        if not callable(now):
            raise ValueError(f"now must be a function giving seconds, not {now!r}.")
        self.table = table
        self._now = now
        self._epoch: int | None = None
        self._running = False
        self._base = 0.0
        self._anchor = 0.0
        self._speed = 1
        self._seq = -1
        self._follow()
        table.listen(self._follow)

    def _follow(self) -> None:
        """After every change of the table (as js/clock.js follows a synced clock)."""
        table = self.table
        at = self._now()
        running, epoch = table.running, table.epoch
        if epoch != self._epoch or not running or not self._running:
            base = table.now
        else:
            base = max(self._time_at(at), table.now)
        self._epoch, self._running, self._base, self._anchor = epoch, running, base, at
        self._speed = table.speed
        self._seq = table.seq

    def _fresh(self) -> None:
        if self.table.seq != self._seq:
            self._follow()  # a change this clock has not heard yet (listeners' order)

    def _time_at(self, at: float) -> float:
        if not self._running:
            return self._base
        return self._base + self._speed * max(0.0, at - self._anchor)

    def level_time(self) -> float:
        """The table's level time now (stands still while the table's clock does)."""
        self._fresh()
        return min(max(self._time_at(self._now()), self.table.now), MAX_LEVEL_SECONDS)

    def due(self) -> float | None:
        """The ``now()`` value at which `tick` must be called next (the next planned
        bot action, or the bots' Ready); None if nothing is planned or the clock stands still."""
        self._fresh()
        planned = self.table.planned
        if planned is None or not self._running or not self.table.running:
            return None
        return self._anchor + max(0.0, planned.t - self._base) / self._speed

    def tick(self) -> int:
        """Every bot action due by now happens (`Table.tick` at `level_time`); how many.

        An action is due when ``now()`` reached `due` (compared on the host's clock,
        so a rounding of the level time never holds it back)."""
        n = 0
        while (due := self.due()) is not None and self._now() >= due:
            planned = self.table.planned
            assert planned is not None
            n += self.table.tick(max(self.level_time(), planned.t))
        return n + self.table.tick(self.level_time())

    def close(self) -> None:
        self.table.unlisten(self._follow)


class Session:
    """One seat of a `Table` shown to one front end, apart from its transport.

    ``seat`` is the person's seat (one of ``table.seats``; None: an onlooker of a
    table of bots, e.g. a class watching). ``reveal`` shows every hand and each
    bot's planned time (the teacher's countdowns). ``clock`` is "browser" or
    "host" (then ``host`` is the table's `HostClock`). ``tempo`` is what the
    tempo menu shows (default: the table's). A host may lay an ``overlay`` over the
    view (`Overlay`: the settings the front end may change, the actions it keeps from
    the seat, the keys it adds to the view and the trace).
    """

    def __init__(
        self,
        table: Table,
        seat: int | None,
        *,
        lang: str = "en",
        reveal: bool = False,
        size: str = "normal",
        clock: str = "browser",
        host: HostClock | None = None,
        tempo: float | str | None = None,
        overlay: Overlay | None = None,
    ) -> None:
        if not isinstance(table, Table):
            raise ValueError(f"table must be a Table, not {table!r}.")
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock!r}.")
        if clock == "host" and (not isinstance(host, HostClock) or host.table is not table):
            raise ValueError(
                f"clock='host' needs host=HostClock(table) of this table, not {host!r}."
            )
        if tempo is not None:
            check_tempo(tempo)
        self.table = table
        self.seat = check_seat(seat, table.seats)
        self.clock_source = clock
        self.host = host if clock == "host" else None
        self._lang = choice("lang", lang, LANGS, quoted=False)
        self._size = choice("size", size, SIZES, quoted=False)
        self._reveal = flag("reveal", reveal)
        self._overlay = overlay
        self._settable = tuple(SETTABLE) if overlay is None else tuple(overlay.settable)
        self._withheld: frozenset[str] = frozenset()
        if tempo is not None and table.tempo is not None:
            table.tempo = tempo
        self._tempo: float | str = (
            tempo if tempo is not None else table.tempo if table.tempo is not None else "people"
        )
        self._notice: dict[str, Any] = {}
        self._notice_id = 0
        self._seen = (-1, 0)  # (epoch, events) of the last view: what is news
        self._news_from = 0
        self._feed = TraceFeed(self.seat, self._reveal)
        self._sent: dict[str, Any] = {}
        self._listeners: list[Callable[[], None]] = []
        self._current: dict[str, Any] = {}
        self._rebuild()
        table.listen(self._on_table)

    # ------------------------------------------------------------ settings
    @property
    def lang(self) -> str:
        """The front end's language (en, nl, de): the notice, the menus' labels."""
        return self._lang

    @lang.setter
    def lang(self, value: str) -> None:
        value = choice("lang", value, LANGS, quoted=False)
        if value != self._lang:
            self._lang = value
            self._rebuild(news=False)
            self._notify()

    @property
    def size(self) -> str:
        return self._size

    @size.setter
    def size(self, value: str) -> None:
        self._size = choice("size", value, SIZES, quoted=False)
        self._notify()

    @property
    def reveal(self) -> bool:
        """Every hand and each bot's planned time (the teacher's view)."""
        return self._reveal

    @reveal.setter
    def reveal(self, value: bool) -> None:
        value = flag("reveal", value)
        if value != self._reveal:
            self._reveal = value
            self._feed = TraceFeed(self.seat, value)
            self._sent.pop("live_trace", None)  # the whole trace again: other cards show
            self._rebuild()
            self._notify()

    @property
    def withheld(self) -> frozenset[str]:
        """Actions the host keeps from this seat for now (`Overlay.withheld`): left out
        of ``view["allowed"]``, and refused ("not_now") if sent anyway. ``ready`` among
        them while the hands are on the table means this seat pressed it and the table
        waits for the other people's; the view says so (``waiting_for_team``). Asked at
        each rebuild of the view (one per change); `refresh` when it changes by itself."""
        return self._withheld

    def refresh(self) -> None:
        """What the host's overlay says changed, the table did not: the view again
        (with the same news: the front end may not have had it yet)."""
        self._rebuild(again=True)
        self._notify()

    @property
    def mode(self) -> str:
        return self.table.mode

    @mode.setter
    def mode(self, value: str) -> None:
        self.table.mode = value  # the table's listeners: this session too

    @property
    def tempo(self) -> float | str:
        """The bots' tempo the menu shows: a name from `TEMPOS` or a number > 0."""
        return self._tempo

    @tempo.setter
    def tempo(self, value: float | str) -> None:
        check_tempo(value)
        old, self._tempo = self._tempo, value
        try:
            # also when the value is the same: the bots go back to it from where they
            # adapted to; raises when these bots have no tempo (e.g. "scalar")
            self.table.tempo = value  # the table's listeners: this session too
        except ValueError:
            self._tempo = old
            raise

    @property
    def speed(self) -> int:
        return self.table.speed

    @speed.setter
    def speed(self, value: int) -> None:
        self.table.speed = check_speed(value)

    def set(self, name: str, value: object) -> bool:
        """A setting from the front end (`SETTABLE`); refused: a notice, False, nothing changes."""
        valid = SETTABLE.get(name) if name in self._settable else None
        kind = int if name == "speed" else str
        ok = valid is not None and type(value) is kind and value in valid
        if ok and name == "speed" and value != 1 and self.table.seats:
            ok, valid = False, (1,)
        if ok and name == "tempo" and self.table.tempo is None:
            ok = False  # these bots have no tempo (e.g. "scalar")
        if not ok:
            if name == "tempo":
                self._refuse(Refused("bad_tempo", value=repr(value)[:40]))
            elif name == "speed":
                allowed = ", ".join(map(str, valid or WATCH_SPEEDS))
                self._refuse(Refused("bad_speed", value=repr(value)[:40], allowed=allowed))
            else:
                what = " | ".join(map(str, valid)) if valid else ", ".join(self._settable)
                self._refuse(Refused("bad_field", field=str(name)[:40], allowed=what))
            return False
        setattr(self, name, value)
        return True

    # ------------------------------------------------------------ messages
    def receive(self, message: object) -> None:
        """A message from the front end; a refusal sets the notice and changes nothing."""
        try:
            self._handle(message)
        except Refused as refused:
            self._refuse(refused)

    def _handle(self, msg: object) -> None:
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise Refused("bad_message", allowed=MESSAGE_TYPES)
        kind, table = msg["type"], self.table
        if kind == "hello":
            self._sent.pop("live_trace", None)  # the whole trace with the next changes()
            self._notify()
            return
        if kind == "tick" and self.host is not None:
            return  # the host keeps the time
        handlers: dict[str, Callable[[], object]] = {
            "tick": lambda: table.tick(_time(msg), _field(msg, "seq", int)),
            "play": lambda: table.play(t=self._t(msg), seat=self.person()),
            "stop": lambda: table.stop(t=self._t(msg), seat=self.person()),
            "propose_star": lambda: table.propose_star(t=self._t(msg), seat=self.person()),
            "vote": lambda: table.vote(
                _field(msg, "agree", bool), t=self._t(msg), seat=self.person()
            ),
            "ready": lambda: table.ready(self._t(msg)),
            "wait": self._wait,
            "next_level": table.next_level,
            "start_blind": table.start_blind,
            "new_game": table.new_game,
        }
        handler = handlers.get(kind)
        if handler is None:
            raise Refused("bad_message", allowed=MESSAGE_TYPES)
        if kind in self._withheld:
            raise Refused("not_now")
        if kind in VERSIONED:
            self._check_seen(msg)
        handler()

    def _check_seen(self, msg: dict[str, Any]) -> None:
        """Refuse ("stale") an action made on a view the table has left.

        An action names the view it was made on: its ``epoch`` (the clock's) and
        ``n`` (the view's count of the level's events). It is stale when the level
        changed since, unless only by this seat's own plays (two cards played in quick
        succession). A message naming no view (an older front end) is not checked."""
        if "epoch" not in msg and "n" not in msg:
            return
        epoch, n = _field(msg, "epoch", int), _field(msg, "n", int)
        index = self.table.index
        if n > index.n or n < 0:
            raise Refused("bad_field", field="n", allowed=f"0 … {index.n}")
        if epoch != self.table.epoch:
            raise Refused("stale")
        for i in range(n, index.n):
            e = index.public(i)
            if e["type"] != "played" or e["player"] != self.seat:
                raise Refused("stale")

    def _t(self, msg: dict[str, Any]) -> float:
        """The action's level time: the host's, or the message's (checked)."""
        if self.host is not None:
            return self.host.level_time()
        return _time(msg)

    def person(self) -> int:
        """The person's seat; refused at a table of bots only."""
        if self.seat is None:
            raise Refused("no_seat")
        return self.seat

    def _wait(self) -> None:
        if self.table.mode != "step":
            raise Refused("not_step")
        self.table.wait()

    def _refuse(self, refused: Refused) -> None:
        self._notice_id += 1
        self._notice = {"key": refused.key, "params": refused.params, "id": self._notice_id}
        if refused.params.get("player", -1) == self.seat and _has_you(str(refused.key)):
            self._notice["you"] = True  # said to the person: "You have no cards left"
        self._current["notice"] = self._notice
        self._notify()

    def tell(self, key: str, **params: Any) -> None:
        """Show the front end the notice ``refused_<key>`` (nothing changes): e.g. that
        the class server started again."""
        self._refuse(Refused(key, **params))

    @property
    def notice(self) -> dict[str, Any]:
        """Why the latest message or setting was refused: ``{"key", "params", "id"}``, or {}."""
        return self._notice

    @property
    def notice_text(self) -> str:
        """The notice in the session's language ('' if none)."""
        if not self._notice:
            return ""
        n = self._notice
        key = f"refused_{n['key']}_you" if n.get("you") else f"refused_{n['key']}"
        return translate(key, self._lang, **n["params"])

    # --------------------------------------------------------------- state
    def state(self) -> dict[str, Any]:
        """Everything a new front end needs, JSON-ready (the whole trace of the level)."""
        self._current["lang"], self._current["size"] = self._lang, self._size
        out = dict(self._current)
        self._feed.update(self.table.index).take()  # what follows is news from here on
        out["live_trace"] = self._trace(0, self._feed.points)
        self._sent = dict(out)
        return out

    def changes(self) -> dict[str, Any]:
        """The keys whose value changed since the last `state` or `changes` ({} if none);
        ``live_trace`` then carries only the new or changed points."""
        self._current["lang"], self._current["size"] = self._lang, self._size
        out = {k: v for k, v in self._current.items() if self._sent.get(k) != v}
        feed = self._feed.update(self.table.index)
        if "live_trace" not in self._sent:
            feed.take()
            out["live_trace"] = self._trace(0, feed.points)
        else:
            part = feed.take()
            if part is not None:
                out["live_trace"] = self._trace(*part)
        self._sent.update(out)
        return out

    def _trace(self, start: int, points: list[dict[str, Any]]) -> dict[str, Any]:
        out = [dict(p) for p in points]
        if self._overlay is not None and out:
            index, at = self.table.index, self._feed.at
            off = len(self.table.game.events) - len(index.events)  # the level's first event
            self._overlay.mark(out, [off + at[start + k] for k in range(len(out))])
        return {"epoch": self.table.epoch, "from": start, "points": out}

    # ------------------------------------------------------------ listening
    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after any change of the table or of this session."""
        self._listeners.append(callback)

    def unlisten(self, callback: Callable[[], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def close(self) -> None:
        self.table.unlisten(self._on_table)
        self._listeners.clear()

    def _notify(self) -> None:
        for callback in list(self._listeners):
            callback()

    def _on_table(self) -> None:
        self._notice = {}
        self._rebuild()
        self._notify()

    def _rebuild(self, news: bool = True, again: bool = False) -> None:
        """The view, the clock and the settings from the table as it is now (``again``:
        the table did not change, the news stays what it was)."""
        table = self.table
        index = table.index
        epoch = table.epoch
        if again and self._seen[0] == epoch:
            news_from = self._news_from
        else:
            news_from = (self._seen[1] if self._seen[0] == epoch else 0) if news else index.n
        self._seen = (epoch, index.n)
        self._news_from = news_from
        if self._overlay is not None:
            self._withheld = frozenset(self._overlay.withheld(self.seat))
        view = table_view(
            table.game,
            self.seat,
            reveal=self._reveal,
            plans=table.plans if self._reveal else None,
            news_from=news_from,
            allowed=table.allowed(self.seat),
            index=index,
        )
        view |= self._menus()
        if self._withheld:
            view["allowed"] = [a for a in view["allowed"] if a not in self._withheld]
            if "ready" in self._withheld and view["phase"] in ("ready", "stopped"):
                view["waiting_for_team"] = True
        if table.mode == "realtime" and view["phase"] == "ready" and self.seat is not None:
            view["join"] = JOIN_SECONDS  # the bots join a moment after the person's Ready
        if view["phase"] == "stopped":
            view.update(self._stopped(view))
        if self._overlay is not None:
            view.update(self._overlay.view(self.seat, view))
        clock = table.clock
        clock["beat"] = self.host is None and clock["running"] and _bots_may_act(view)
        if self.host is not None:
            clock["stamp"] = False  # the host keeps the time: the front end sends no t
        self._current = {
            "view": view,
            "clock": clock,
            "notice": self._notice,
            "lang": self._lang,
            "size": self._size,
            "reveal": self._reveal,
            "mode": table.mode,
            "settings": {"tempo": self._tempo, "speed": table.speed},
        }

    def _menus(self) -> dict[str, Any]:
        """What the table's menus offer: ``tempo``, the bots' tempo (a name from
        `TEMPOS`, a number, or None when these bots have none, e.g. "scalar");
        ``speeds``, the watch speeds (`WATCH_SPEEDS` at a table of bots only,
        else none); with ``tempos`` and ``tempo_labels``, ``speed_labels``: each
        menu's entries and their labels in `lang` (left out when there is no menu)."""
        tempo: str | float | None = None
        if self.table.tempo is not None and "tempo" in self._settable:
            value = self._tempo
            named = [name for name, v in TEMPOS.items() if v == value]
            tempo = value if isinstance(value, str) else named[0] if named else float(value)
        speeds = [] if self.table.seats or "speed" not in self._settable else list(WATCH_SPEEDS)
        out: dict[str, Any] = {"tempo": tempo, "speeds": speeds}
        if tempo is not None:
            out["tempos"] = list(TEMPOS)
            out["tempo_labels"] = [translate(f"tempo_{n}", self._lang) for n in TEMPOS]
        if speeds:
            out["speed_labels"] = [f"{s}×" for s in speeds]
        return out

    def _stopped(self, view: dict[str, Any]) -> dict[str, Any]:
        """Why the table stopped: ``{"why": "mistake"|"star"}`` (it stopped by itself,
        `Rules.concentrate_after`), ``{"why": "stop", "stopped_by": seat}`` (a seat
        called stop), or ``{"why": "offline"|"teacher"|"seat", "stopped_by": seat}``
        (the host stopped it in that seat's name, `mindwidget.events.STOP_REASONS`)."""
        points = self._feed.update(self.table.index).points
        stop = next((p for p in reversed(points) if p["k"] == "stop"), None)
        why = stop.get("why") if stop is not None else None
        if why is None and "mistake" in view:
            why = "mistake"
        if why in ("mistake", "star"):
            return {"why": why}
        by = stop["player"] if stop is not None else None
        return {"why": why or "stop", "stopped_by": by}

    def stop_for(self, why: str) -> bool:
        """The host stops a running level in this seat's name, for ``why``
        (`mindwidget.events.STOP_REASONS`: "offline", "teacher", "seat"), at the
        host's time; True if the level stopped. Not a message a front end may send."""
        if self.seat is None or self.table.phase != "play":
            return False
        t = self.host.level_time() if self.host is not None else self.table.now
        try:
            self.table.stop(seat=self.seat, t=t, why=why)
        except Refused as refused:
            self._refuse(refused)
        return self.table.phase != "play"


def _has_you(key: str) -> bool:
    """Whether the refusal ``key`` has a form said to the person ("You ...")."""
    return f"refused_{key}_you" in messages("en")


def _bots_may_act(view: dict[str, Any]) -> bool:
    """Whether a bot may still act, from what the seat sees: during play while a seat
    other than the person's holds cards; a team of bots only is also ready again by
    itself after a mistake or a star (the "stopped" phase)."""
    watching = view["seat"] is None
    if view["phase"] != "play" and not (view["phase"] == "stopped" and watching):
        return False
    return any(n > 0 for p, n in enumerate(view["counts"]) if p != view["seat"])


def check_seat(seat: object, seats: Sequence[int]) -> int | None:
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
    """The message's level time, checked here where a page's input enters: a finite
    number of seconds within a day (`checks.level_seconds`, the bound the table holds
    every caller to; a huge JSON int is refused, not overflowed), else refused with
    the field and what is allowed. The table adds only R4, which the core states."""
    try:
        return level_seconds("t", msg.get("t"))
    except ValueError:
        raise Refused("bad_field", field="t", allowed=f"0 … {MAX_LEVEL_SECONDS:g} s") from None
