"""Issue 14: a hostile front end (or a careless cell) cannot crash, blow up or slow the widget.

1. JSON carries ints of any size: ``t = 10**400`` is refused with a notice.
2. An update naming traits the browser may not set (``log``, ``comm``, ...)
   is refused field by field; the valid rest (``lang``) still applies.
7. No level time beyond a day: ``advance(1e308)`` is a ValueError, the clock
   stays finite.
8. What one action costs does not grow with the level's length (a front end
   spamming stop and ready); a refused update never echoes a large trait.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from widget_harness import (
    make,
    recording_comm,  # noqa: F401  (autouse: every widget here records what it sends)
)

from mindwidget import Game
from mindwidget import events as events_module
from mindwidget.table import MAX_LEVEL_SECONDS

# ------------------------------------------------------------ 1. huge numbers
HUGE = 10**400


@pytest.mark.parametrize(
    "msg",
    [
        {"type": "play", "t": HUGE},
        {"type": "stop", "t": HUGE},
        {"type": "ready", "t": HUGE},
        {"type": "vote", "agree": True, "t": HUGE},
        {"type": "tick", "t": HUGE, "seq": 1},
        {"type": "tick", "t": 1.0, "seq": HUGE},
        {"type": "play", "t": -HUGE},
        {"type": "play", "t": MAX_LEVEL_SECONDS + 1},
        {"type": "tick", "t": 1e308, "seq": 1},
    ],
)
def test_a_huge_or_far_time_is_a_notice_and_changes_nothing(msg: dict[str, Any]) -> None:
    w, b = make(players=3, seat=0)
    b.act("ready")
    before, view, clock = w.game.to_json(), b.view, b.clock
    b.send(msg)  # no OverflowError out of the message handler
    assert w.notice["key"] == "bad_field"
    assert w.notice["params"]["field"] in ("t", "seq")
    assert w.game.to_json() == before and b.view == view and b.clock == clock


# ---------------------------------------------------- 2. traits not to be set
@pytest.mark.parametrize("name", ["log", "comm", "_msg_callbacks", "keys", "_esm", "view"])
def test_an_update_of_a_trait_the_browser_may_not_set_is_refused_and_the_rest_applies(
    name: str,
) -> None:
    w, b = make(players=3, seat=0)
    b.update({name: 1, "lang": "nl"})  # no "Can't clean for JSON"
    assert w.lang == "nl"
    assert w.notice["key"] == "bad_field" and w.notice["params"]["field"] == name
    assert w.game.status == "playing" and w.view["phase"] == "ready"


def test_a_refused_update_never_sends_the_bundle_back() -> None:
    w, b = make(players=3, seat=0)
    n = len(b.comm.sent)
    b.update({"_esm": "export default {}", "_css": "*{}"})
    back = [e["data"] for e in b.comm.sent[n:]]
    assert not any("_esm" in d.get("state", {}) or "_css" in d.get("state", {}) for d in back)
    assert sum(len(json.dumps(d)) for d in back) < 1000
    n = len(b.comm.sent)
    b.update({"reveal": True})  # a small synced trait: the browser is told Python's value
    assert {"reveal": False} in [e["data"].get("state") for e in b.comm.sent[n:]]


# ------------------------------------------------------------- 7. a day at most
def test_advance_beyond_a_day_is_refused_and_the_clock_stays_finite() -> None:
    w, b = make(players=3, seat=0)
    b.act("ready")
    b.act("stop")
    with pytest.raises(ValueError, match="seconds"):
        w.advance(1e308)
    with pytest.raises(ValueError, match="seconds"):
        w.advance(1e308)
    assert math.isfinite(b.clock["t"]) and b.clock["t"] < 1
    w.advance(MAX_LEVEL_SECONDS / 2)
    with pytest.raises(ValueError, match="would pass a day"):
        w.advance(MAX_LEVEL_SECONDS / 2 + 1)  # each step is within a day, the sum is not
    assert b.clock["t"] == pytest.approx(MAX_LEVEL_SECONDS / 2, abs=1)
    for bad in (float("nan"), float("inf"), -1.0, "1", True):
        with pytest.raises(ValueError, match="seconds"):
            w.advance(bad)  # type: ignore[arg-type]


# ----------------------------------------------------------- 8. long levels
def long_level(events: int) -> Game:
    g = Game.from_hands([[1, 2], [99], [100]], level=2, seed=1)
    g.ready(t=0.0)
    for i in range(events // 2):
        g.stop(0, t=i * 1e-4)
        g.ready(t=i * 1e-4)
    return g


def reads_per_action(events: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many events are turned into dicts for one stop and one ready."""
    w, b = make(game=long_level(events), seat=0)
    count = [0]
    original = events_module.Event.to_dict

    def counting(self: events_module.Event) -> dict[str, Any]:
        count[0] += 1
        return original(self)

    monkeypatch.setattr(events_module.Event, "to_dict", counting)
    t = w.game.t
    b.send({"type": "stop", "t": t})
    b.send({"type": "ready", "t": t})
    assert not w.notice and b.view["phase"] == "play"
    monkeypatch.setattr(events_module.Event, "to_dict", original)
    return count[0]


def test_an_action_reads_only_the_new_events_however_long_the_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    short = reads_per_action(10, monkeypatch)
    long = reads_per_action(10_000, monkeypatch)
    assert long == short and long < 20, (short, long)


def test_a_long_level_still_sends_the_right_view_and_trace() -> None:
    w, b = make(game=long_level(2000), seat=0)
    b.send({"type": "hello"})
    assert len(b.points) == 1000 and all(p["k"] == "stop" for p in b.points)
    n = len(b.comm.sent)
    b.act("stop", t=1.0)
    sent = [e["data"] for e in b.comm.sent[n:]]
    assert sum(len(json.dumps(d)) for d in sent) < 3000  # not the whole trace again
    b.act("ready", t=2.0)
    assert b.points[-1] == {"k": "stop", "t": 1.0, "until": 2.0, "player": 0}
    assert len(b.points) == 1001 and b.view["n"] == len(w.game.level_events)


# --------------------------------------------------------------- numpy numbers
def test_numpy_numbers_are_accepted_by_the_widget() -> None:
    w, b = make(players=np.int64(3), seat=np.int64(1), seed=np.int64(2))
    assert w.seat == 1 and type(w.seat) is int and w.game.seed == 2
    w.ready()
    assert w.advance(np.float64(0.0)) == 0
    w.reset(seed=np.int32(5))
    assert w.game.seed == 5
