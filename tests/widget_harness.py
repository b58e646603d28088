"""A simulated browser for `MindWidget`: no kernel, no page.

`comm.create_comm` is the hook ipywidgets offers for this: it is replaced by a
comm that records every message the widget publishes (state syncs and custom
messages), and messages "from the browser" go in through ``handle_msg``, the
path a real front end's messages take.

The simulated browser keeps a level clock like js/clock.js does (it follows
the synced ``clock``), but its time only moves with the heartbeats it sends:
level time is virtual here, so a whole game takes milliseconds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import comm
import pytest
from comm.base_comm import BaseComm

from mindwidget.widget import MindWidget

#: Level seconds between two heartbeats (js/clock.js: HEARTBEAT_MS).
HEARTBEAT_S = 0.1


class RecordingComm(BaseComm):  # type: ignore[misc]
    """Keeps every published message; calls ``on_publish`` on each one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        self.on_publish: Callable[[dict[str, Any]], None] | None = None
        super().__init__(*args, **kwargs)

    def publish_msg(
        self,
        msg_type: str,
        data: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
        buffers: list[bytes] | None = None,
        **keys: Any,
    ) -> None:
        entry = {"msg_type": msg_type, "data": json.loads(json.dumps(data or {}))}
        self.sent.append(entry)
        if self.on_publish is not None:
            self.on_publish(entry)


class Browser:
    """What the front end knows: the synced traits and the trace points it was sent."""

    def __init__(self, widget: MindWidget, late: bool = False) -> None:
        """``late``: a view that appears now (sees only messages sent from now on)."""
        self.w = widget
        self.comm: RecordingComm = widget.comm
        self.points: list[dict[str, Any]] = []
        self.trace_epoch: int | None = None
        self._time = 0.0
        self._clock_epoch: int | None = None
        self._read = len(self.comm.sent) if late else 0
        self.pull()

    # messages the widget sent -------------------------------------------
    def pull(self) -> None:
        for entry in self.comm.sent[self._read :]:
            msg = entry["data"].get("state", {}).get("live_trace")  # open or update
            if msg is not None:
                self.merge(msg)
        self._read = len(self.comm.sent)

    def merge(self, msg: dict[str, Any]) -> None:
        """The synced trace: the points from ``from`` on (as js/widget.js merges them)."""
        if msg["epoch"] != self.trace_epoch:
            self.points = []
            self.trace_epoch = msg["epoch"]
        self.points[msg["from"] :] = msg["points"]

    def reload(self) -> None:
        """The page asks for the whole state (a new view or a reload), as JupyterLab does."""
        self.merge(self.w.get_state()["live_trace"])

    @property
    def view(self) -> dict[str, Any]:
        return dict(self.w.view)

    @property
    def clock(self) -> dict[str, Any]:
        return dict(self.w.clock)

    @property
    def now(self) -> float:
        """The browser's level time: follows ``clock`` as js/clock.js does."""
        c = self.clock
        if c["epoch"] != self._clock_epoch or not c["running"]:
            self._time = c["t"]
        else:
            self._time = max(self._time, c["t"])
        self._clock_epoch = c["epoch"]
        return self._time

    # messages to the widget ---------------------------------------------
    def send(self, content: Any) -> None:
        self.w.comm.handle_msg(
            {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
        )
        self.pull()

    def update(self, state: dict[str, Any]) -> None:
        self.w.comm.handle_msg({"content": {"data": {"method": "update", "state": state}}})
        self.pull()

    def act(self, kind: str, **fields: Any) -> None:
        """A person's action at the browser's level time."""
        fields.setdefault("t", self.now)
        self.send({"type": kind, **fields})

    def beat(self, dt: float = HEARTBEAT_S) -> bool:
        """The clock moves on by ``dt`` and sends a heartbeat; True if Python answered."""
        t = self.now + dt
        self._time = t
        n = len(self.comm.sent)
        self.send({"type": "tick", "t": t, "seq": self.clock["seq"]})
        return len(self.comm.sent) > n

    def bots_may_act(self) -> bool:
        """As js/widget.js: Python says whether a heartbeat is needed (``clock["beat"]``)."""
        return bool(self.clock["beat"])

    def run_clock(self, limit: int = 10_000) -> bool:
        """Heartbeats, as the front end sends them, until Python answers one (a bot
        acted); False if the clock stands still or no bot may act."""
        if not self.clock["running"] or not self.bots_may_act():
            return False
        for _ in range(limit):
            if self.beat():
                return True
        raise AssertionError(f"no answer to {limit} heartbeats")


def lowest_overall(w: MindWidget) -> int | None:
    return min((h[0] for h in w.game.hands if h), default=None)


def play_level_well(b: Browser) -> None:
    """A person who plays exactly when their card is the lowest on the table."""
    w = b.w
    assert b.view["phase"] == "ready"
    b.act("ready")
    while w.game.status == "playing":
        seat = w.seat
        assert seat is not None
        low = lowest_overall(w)
        if w.game.hands[seat] and w.game.hands[seat][0] == low:
            b.act("play")
        else:
            assert b.run_clock(), "a bot should act"


@pytest.fixture(autouse=True)
def recording_comm(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every widget created in a test module that imports this fixture gets a
    `RecordingComm` (an autouse fixture: importing it is enough)."""
    monkeypatch.setattr(comm, "create_comm", RecordingComm)
    yield


def make(**kwargs: Any) -> tuple[MindWidget, Browser]:
    """A widget (perfect bots, seed 1 unless given) and a browser driving it."""
    kwargs.setdefault("bots", "perfect")
    kwargs.setdefault("seed", 1)
    w = MindWidget(**kwargs)
    return w, Browser(w)
