"""Issue 24, parts 2 and 3 in the core: every stop says why, and an action made on a
view the table has left is refused.

A stop carries its reason (`events.STOP_REASONS`) from `Game.stop` into the event,
the saved game, `trace_stops`, the live trace point and the view's ``why``; a
session's action names the view it was made on (``epoch``, ``n``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mindwidget.descriptions import describe_event
from mindwidget.events import STOP_REASONS, Stopped
from mindwidget.game import Game
from mindwidget.rules import RuleError
from mindwidget.session import HostClock, Session
from mindwidget.table import Table
from mindwidget.traces import trace_stops


def stopped(why: str = "player") -> Game:
    g = Game.from_hands([[10, 50], [20, 60]], level=2, seed=0)
    g.ready(t=0)
    g.stop(1, t=2, why=why)
    return g


@pytest.mark.parametrize("why", STOP_REASONS)
def test_the_stop_event_the_save_and_the_trace_carry_the_reason(why: str) -> None:
    g = stopped(why)
    e = g.events[-1]
    assert isinstance(e, Stopped) and (e.player, e.why) == (1, why)
    assert e.to_dict()["why"] == why and e.public_dict()["why"] == why
    again = Game.from_json(g.to_json())
    assert again == g and again.events[-1] == e
    assert trace_stops(g)[["player", "why"]].values.tolist() == [[1, why]]


def test_a_stop_by_the_player_saves_as_before_and_old_saves_load() -> None:
    g = stopped()
    assert g.actions[-1] == {"action": "stop", "player": 1, "t": 2.0}  # no "why" key
    old = json.loads(g.to_json())  # a save from before the reasons: the same text
    loaded = Game.from_dict(old)
    assert loaded.events[-1] == Stopped(2, 2.0, 1, "player")
    assert stopped("offline").actions[-1]["why"] == "offline"


def test_an_unknown_reason_is_refused_and_changes_nothing() -> None:
    g = Game.from_hands([[10, 50], [20, 60]], level=2, seed=0)
    g.ready(t=0)
    before = g.to_dict()
    with pytest.raises(RuleError, match=r"why must be one of 'player', 'offline'"):
        g.stop(0, t=1, why="bored")
    assert g.to_dict() == before
    saved = json.loads(stopped("teacher").to_json())
    saved["actions"][-1]["why"] = "bored"
    with pytest.raises(RuleError, match="why must be one of"):
        Game.from_dict(saved)


@pytest.mark.parametrize(
    ("why", "lang", "text"),
    [
        ("player", "nl", "speler 2 riep stop"),
        ("offline", "nl", "de tafel stopte: speler 2 verloor de verbinding"),
        ("teacher", "nl", "de docent pauzeerde de tafel"),
        ("seat", "de", "der Tisch hielt für einen Platzwechsel an (Spieler 2)"),
        ("offline", "en", "the table stopped: player 2 lost the connection"),
    ],
)
def test_the_god_view_words_each_reason(why: str, lang: str, text: str) -> None:
    assert describe_event(stopped(why).events[-1], lang).startswith(text)


def host_session(
    hands: list[list[int]] | None = None,
) -> tuple[Table, dict[int, Session], list[float]]:
    """Two pupils (seats 0 and 1) and a bot, on a host clock the test moves."""
    now = [100.0]
    seats = (0, 1)
    game = Game.from_hands(hands or [[5, 50], [40], [90]])
    table = Table(3, seats, "perfect", game=game)
    host = HostClock(table, now=lambda: now[0])
    sessions = {s: Session(table, s, clock="host", host=host) for s in seats}
    return table, sessions, now


@pytest.mark.parametrize("why", ["offline", "teacher", "seat"])
def test_a_host_stop_names_its_reason_in_every_seat_view(why: str) -> None:
    table, sessions, now = host_session()
    sessions[0].receive({"type": "ready"})
    now[0] += 0.4
    assert sessions[1].stop_for(why)
    for s in sessions.values():
        view = s.state()["view"]
        assert view["phase"] == "stopped"
        assert (view["why"], view["stopped_by"]) == (why, 1)
    point = sessions[0].state()["live_trace"]["points"][-1]
    assert point["k"] == "stop" and point["why"] == why and point["player"] == 1
    assert table.game.events[-1] == Stopped(2, pytest.approx(0.4), 1, why)
    assert not sessions[1].stop_for(why)  # stopped already: nothing more


def test_a_pupil_cannot_send_a_reason() -> None:
    _, sessions, _ = host_session()
    sessions[0].receive({"type": "ready"})
    sessions[0].receive({"type": "stop", "why": "teacher"})  # the field is not read
    view = sessions[0].state()["view"]
    assert (view["why"], view["stopped_by"]) == ("stop", 0)


def seen(s: Session) -> dict[str, Any]:
    state = s.state()
    return {"epoch": state["clock"]["epoch"], "n": state["view"]["n"]}


def test_an_action_made_on_a_view_the_table_has_left_is_refused() -> None:
    table, sessions, now = host_session([[50], [40], [90]])
    a, b = sessions[0], sessions[1]
    a.receive({"type": "ready"})
    old = seen(a)  # pressed now, arrives after b's play
    now[0] += 1
    b.receive({"type": "play", **seen(b)})
    before = table.game.to_dict()
    a.receive({"type": "play", **old})
    assert table.game.to_dict() == before
    assert a.notice["key"] == "stale"
    a.lang = "nl"
    assert a.notice_text.startswith("De tafel was al veranderd")
    a.receive({"type": "play", **seen(a)})  # on the view as it is now: played
    assert list(table.game.pile) == [40, 50]


def test_own_quick_plays_pass_and_a_bad_or_foreign_view_is_refused() -> None:
    table, sessions, now = host_session([[5, 6, 70], [40], [90]])
    a = sessions[0]
    a.receive({"type": "ready"})
    first = seen(a)
    now[0] += 1
    a.receive({"type": "play", **first})
    a.receive({"type": "play", **first})  # a second tap before the page heard the first
    assert a.notice == {} and list(table.game.pile) == [5, 6]
    a.receive({"type": "play"})  # a front end that names no view is not checked
    assert a.notice == {} and list(table.game.pile) == [5, 6, 70]
    assert table.game.lives < 3  # 70 before 40: a mistake, as the rules say
    b = seen(a)
    a.receive({"type": "stop", "epoch": b["epoch"] + 1, "n": b["n"]})
    assert a.notice["key"] == "stale"
    a.receive({"type": "stop", "epoch": b["epoch"], "n": b["n"] + 5})
    assert a.notice["key"] == "bad_field"
    a.receive({"type": "stop", "epoch": b["epoch"], "n": "x"})
    assert a.notice["key"] == "bad_field"


def test_the_class_data_lists_each_stop_with_its_reason_and_who_held_the_seat_then() -> None:
    from mindwidget.classdata import STOP_COLUMNS, stops

    g = Game.from_hands([[10, 50], [20, 60]], level=2, seed=0)
    g.ready(t=0)
    g.stop(0, t=1)
    g.ready(t=2)
    g.stop(1, t=3, why="offline")
    seats = {
        1: [
            {"seat": 0, "kind": "person", "name": "Anna"},
            {"seat": 1, "kind": "person", "name": "Cas"},
            {"seat": 1, "kind": "bot", "name": "Bot 2", "from": len(g.events)},
        ]
    }
    frame = stops({1: g}, seats)
    assert tuple(frame.columns) == STOP_COLUMNS
    got = frame[["seat", "name", "why", "start", "end"]].values.tolist()
    assert got[0] == [1, "Anna", "player", 1.0, 2.0]
    assert got[1][:4] == [2, "Cas", "offline", 3.0]  # Cas held seat 2 then, not the bot
