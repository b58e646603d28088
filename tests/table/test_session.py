"""`Session` (one seat of a table for one front end) and `HostClock`, driven with plain dicts."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindwidget.game import Game
from mindwidget.session import HostClock, Session, _bots_may_act
from mindwidget.table import Table


class FakeMonotonic:
    """A monotonic clock the test moves on (a clock input of `HostClock`)."""

    def __init__(self) -> None:
        self.s = 100.0

    def __call__(self) -> float:
        return self.s


def session(**kwargs: Any) -> Session:
    table = Table(3, (0,), "perfect", seed=kwargs.pop("seed", 1), game=kwargs.pop("game", None))
    return Session(table, 0, **kwargs)


def test_the_session_imports_neither_anywidget_nor_traitlets() -> None:
    code = (
        "import sys, mindwidget.session; "
        "print(sorted(m for m in ('anywidget', 'traitlets', 'ipywidgets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_state_is_json_and_holds_everything_a_new_front_end_needs() -> None:
    s = session()
    state = s.state()
    assert set(state) == {
        "view", "clock", "notice", "lang", "size", "reveal", "mode", "settings", "live_trace",
    }  # fmt: skip
    assert json.loads(json.dumps(state)) == state
    assert state["view"]["allowed"] == ["ready"] and state["view"]["join"] == 0.6
    assert state["clock"]["beat"] is False  # before Ready nothing runs
    assert state["live_trace"] == {"epoch": s.table.epoch, "from": 0, "points": []}
    assert s.changes() == {}


def test_a_play_from_plain_dicts_changes_the_view_clock_and_trace_only() -> None:
    s = session(game=Game.from_hands([[5, 50], [40], [90]]))
    s.state()
    s.receive({"type": "ready", "t": 0.0})
    first = s.changes()
    assert set(first) == {"view", "clock"} and first["clock"]["beat"] is True
    s.receive({"type": "play", "t": 1.0})
    changes = s.changes()
    assert set(changes) == {"view", "clock", "live_trace"}
    assert changes["live_trace"]["from"] == 0
    assert changes["live_trace"]["points"] == [{"k": "play", "t": 1.0, "card": 5, "player": 0}]
    s.receive({"type": "tick", "t": 12.5, "seq": changes["clock"]["seq"]})  # bot 1 plays 40
    later = s.changes()["live_trace"]
    assert later["from"] == 1 and [p["card"] for p in later["points"]] == [40]
    assert s.state()["live_trace"]["points"][0]["card"] == 5  # the whole trace again


@pytest.mark.parametrize(
    ("msg", "key"),
    [
        ("play", "bad_message"),
        ({"type": "fly"}, "bad_message"),
        ({"type": "play", "t": float("nan")}, "bad_field"),
        ({"type": "play", "t": 10**400}, "bad_field"),
        ({"type": "vote", "t": 1.0, "agree": "yes"}, "bad_field"),
        ({"type": "next_level"}, "next_level"),  # the core's reason
        ({"type": "wait"}, "not_step"),
    ],
)
def test_a_refusal_never_raises_sets_the_notice_and_changes_nothing(msg: Any, key: str) -> None:
    s = session()
    s.receive({"type": "ready", "t": 0.0})
    heard: list[int] = []
    s.listen(lambda: heard.append(1))
    before, state = s.table.game.to_json(), s.state()
    s.receive(msg)
    assert s.table.game.to_json() == before
    changes = s.changes()
    assert set(changes) == {"notice"} and changes["notice"]["key"] == key
    assert heard == [1]
    assert s.state()["view"] == state["view"]


def test_settings_from_the_front_end_are_checked() -> None:
    s = Session(Table(3, (0,), "human", seed=1), 0)
    assert s.set("lang", "nl") and s.lang == "nl"
    assert s.state()["view"]["tempo_labels"][0] != "slow"  # the menu speaks Dutch
    assert s.set("tempo", "quick") and s.table.tempo == pytest.approx(0.6)
    assert s.changes()["settings"] == {"tempo": "quick", "speed": 1}
    assert not s.set("speed", 2)  # a person is seated
    assert s.changes()["notice"]["params"]["allowed"] == "1"
    assert not s.set("view", {}) and s.state()["notice"]["key"] == "bad_field"
    with pytest.raises(ValueError, match="lang must be one of"):
        s.lang = "fr"


def test_the_view_says_why_the_table_stopped_and_whether_to_tick() -> None:
    s = session(game=Game.from_hands([[5, 50], [40], [90]]))
    s.receive({"type": "ready", "t": 0.0})
    s.receive({"type": "stop", "t": 0.5})
    view = s.state()["view"]
    assert view["phase"] == "stopped" and (view["why"], view["stopped_by"]) == ("stop", 0)
    assert s.state()["clock"]["beat"] is False  # no bot acts until Ready
    s.receive({"type": "ready", "t": 0.6})
    s.receive({"type": "play", "t": 0.7})
    s.receive({"type": "play", "t": 0.8})  # 50 before 40: a mistake, the table stops
    view = s.state()["view"]
    assert view["phase"] == "stopped" and view["why"] == "mistake"


# ------------------------------------------------------------------ the host's clock
def test_the_host_clock_runs_with_the_table_and_ignores_the_browsers_time() -> None:
    now = FakeMonotonic()
    table = Table(3, (0,), "perfect", game=Game.from_hands([[50], [10], [90]]))
    host = HostClock(table, now)
    s = Session(table, 0, clock="host", host=host)
    now.s += 5
    assert host.level_time() == 0.0 and host.due() is None  # nothing runs before Ready
    s.receive({"type": "ready", "t": 999.0})  # the browser's t is ignored
    assert table.game.level_events[-1].t == 0.0
    assert s.state()["clock"]["beat"] is False  # the host ticks, not the browser
    due = host.due()
    assert due == pytest.approx(now.s + 3.0)  # bot 1 plays 10 after 10 x 0.3 s
    s.receive({"type": "tick", "t": 50.0, "seq": table.seq})  # ignored: nothing happens
    assert table.game.pile == ()
    now.s = due
    assert host.tick() == 1 and table.game.pile == (10,)
    now.s += 1.25
    assert host.level_time() == pytest.approx(4.25)
    s.receive({"type": "play"})  # no t needed: the host stamps it
    played = [e for e in table.game.level_events if e.type == "played"]
    assert [(e.to_dict()["card"], e.t) for e in played] == [(10, 3.0), (50, pytest.approx(4.25))]


def host_game(seed: int, waits: list[float]) -> tuple[list[tuple[str, float | None]], str]:
    """A whole game at a host-clocked table: the person acts ``waits[k]`` seconds after
    the last step, the host ticks at each `HostClock.due`. Returns every stamped message
    (the person's, and the host's ticks) and the game's events."""
    table = Table(3, (0,), "perfect", seed=seed)
    now = FakeMonotonic()
    clock = HostClock(table, now)
    s = Session(table, 0, clock="host", host=clock)
    stamped: list[tuple[str, float | None]] = []
    for k in range(300):
        game = table.game
        if game.status not in ("playing", "cleared"):
            break
        if game.status == "cleared":
            stamped.append(("next_level", None))
            s.receive({"type": "next_level"})
            continue
        target = now.s + waits[k % len(waits)]
        while (due := clock.due()) is not None and due <= target:
            now.s = max(now.s, due)
            planned = table.planned
            assert planned is not None  # a heartbeat that late brings it
            stamped.append(("tick", max(clock.level_time(), planned.t)))
            assert clock.tick() >= 1
        now.s = target
        allowed = s.state()["view"]["allowed"]
        for kind in ("ready", "play"):
            if kind in allowed:
                stamped.append((kind, clock.level_time()))
                s.receive({"type": kind, "t": -5})  # the browser's t is ignored
                break
    return stamped, events(table)


def browser_game(seed: int, stamped: list[tuple[str, float | None]]) -> str:
    """The same stamped messages from a browser-clocked front end."""
    table = Table(3, (0,), "perfect", seed=seed)
    s = Session(table, 0)
    for kind, t in stamped:
        if kind == "tick":
            s.receive({"type": "tick", "t": t, "seq": table.seq})
        elif t is None:
            s.receive({"type": kind})
        else:
            s.receive({"type": "tick", "t": t, "seq": table.seq})  # the heartbeat before it
            s.receive({"type": kind, "t": t})
        assert not s.state()["notice"], (kind, t, s.state()["notice"])
    return events(table)


def events(table: Table) -> str:
    return json.dumps([e.to_dict() for e in table.game.events], sort_keys=True)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    waits=st.lists(st.floats(0.05, 4.0), min_size=1, max_size=5),
)
def test_both_clock_sources_give_the_same_game_for_the_same_stamped_times(
    seed: int, waits: list[float]
) -> None:
    stamped, game = host_game(seed, waits)
    assert any(kind == "play" for kind, _ in stamped)
    assert browser_game(seed, stamped) == game


def test_heartbeats_are_needed_only_while_a_bot_may_act_as_anyone_at_the_table_can_see() -> None:
    """(Was js/clock.js botsMayAct; Python now says it as ``clock["beat"]``.)"""

    def view(**over: Any) -> dict[str, Any]:
        return {"phase": "play", "seat": 0, "counts": [2, 1, 0]} | over

    assert _bots_may_act(view())
    assert not _bots_may_act(view(counts=[2, 0, 0]))  # only the person holds cards
    # hands on the table after a mistake: a team of bots only gets ready by itself
    assert _bots_may_act(view(phase="stopped", seat=None))
    assert not _bots_may_act(view(phase="stopped"))  # a person presses Ready
    assert _bots_may_act(view(seat=None, counts=[1, 0, 0]))  # bots only
    for phase in ("ready", "vote", "cleared", "won", "lost"):
        assert not _bots_may_act(view(phase=phase))


def test_a_table_of_bots_only_plays_a_whole_level_on_the_hosts_clock_alone() -> None:
    """The host only calls tick() at due(): the bots play, stop after a mistake, get
    ready again by themselves and clear or lose the level, as with a browser's heartbeats."""
    for seed in range(4):
        now = FakeMonotonic()
        table = Table(3, (), "scalar", seed=seed)
        host = HostClock(table, now)
        s = Session(table, None, clock="host", host=host)
        s.receive({"type": "ready"})
        stamped = []
        while (due := host.due()) is not None:
            now.s = max(now.s, due)
            stamped.append(host.level_time())
            assert host.tick() >= 1
        assert table.game.status != "playing"
        browser = Table(3, (), "scalar", seed=seed)
        b = Session(browser, None)
        b.receive({"type": "ready", "t": 0.0})
        for t in stamped:
            b.receive(
                {
                    "type": "tick",
                    "t": max(t, browser.planned.t if browser.planned else t),
                    "seq": browser.seq,
                }
            )
        assert events(browser) == events(table)


def test_a_closed_session_hears_nothing_more_and_a_second_session_sees_the_same_table() -> None:
    table = Table(3, (0, 1), "perfect", game=Game.from_hands([[5], [40], [90]]))
    a, b = Session(table, 0), Session(table, 1, lang="de")
    heard: list[str] = []
    b.listen(lambda: heard.append("b"))
    a.receive({"type": "ready", "t": 0.0})
    assert heard == ["b"] and b.state()["view"]["phase"] == "play"
    assert b.state()["view"]["hand"] == [40] and 40 not in a.state()["view"]["hand"]
    b.close()
    a.receive({"type": "play", "t": 0.5})
    assert heard == ["b"]  # closed: no more calls
    b.receive({"type": "fly"})
    assert b.notice_text.startswith("Das Widget")  # a refusal in the session's language


class _Overlay:
    """A host's overlay (`session.Overlay`) that is not the class's: labels and a rule."""

    settable = ("lang",)

    def __init__(self) -> None:
        self.keep_from: set[str] = {"new_game"}

    def withheld(self, seat: int | None) -> set[str]:
        return self.keep_from

    def view(self, seat: int | None, view: dict[str, Any]) -> dict[str, Any]:
        return {"names": [f"seat {s}" for s in range(len(view["counts"]))]}

    def mark(self, points: list[dict[str, Any]], events: list[int]) -> None:
        for p, at in zip(points, events, strict=True):
            p["by"] = f"event {at}"


def test_a_host_lays_one_overlay_over_the_seats_view_and_trace() -> None:
    """What a host adds comes through one object (`Overlay`): its keys in the view, its
    withheld actions left out of ``allowed`` and refused, its settings only, its marks on
    the trace's points. The session itself knows nothing of what the host is."""
    overlay = _Overlay()
    overlay.keep_from = {"ready"}
    s = session(game=Game.from_hands([[5, 50], [40], [90]]), overlay=overlay)
    state = s.state()
    assert state["view"]["names"] == ["seat 0", "seat 1", "seat 2"]
    assert "ready" not in state["view"]["allowed"] and state["view"]["waiting_for_team"] is True
    assert state["view"]["tempo"] is None and state["view"]["speeds"] == []  # lang only
    assert s.set("size", "projector") is False and s.notice["key"] == "bad_field"
    s.receive({"type": "ready", "t": 0.0})
    assert s.notice["key"] == "not_now" and s.table.phase == "ready"  # refused, unchanged
    overlay.keep_from = set()
    s.refresh()
    s.receive({"type": "ready", "t": 0.0})
    s.receive({"type": "play", "t": 1.0})
    points = s.changes()["live_trace"]["points"]
    assert points and all(p["by"].startswith("event ") for p in points)
