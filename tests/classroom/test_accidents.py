"""A lesson's ordinary accidents over the class server's protocol (issue 24, parts 1-3).

* a pupil moved out of a running table: a bot plays the seat at once, the table goes
  on, and who held each seat when each card was played is kept (boards, plays(),
  the dashboard);
* a silent and a hard drop through a loopback proxy of the test's own
  (`tests.netproxy.Proxy`): the dashboard shows the pupil offline within 10 s, the
  table stops within 25 s ("offline"), and a press made during the drop is never
  played;
* every stop says why: a pupil, a lost connection, the teacher, a change of seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mindwidget.traces import trace_stops
from tests.classroom_harness import Client, Server, all_phase, ready_all
from tests.netproxy import Proxy

WAIT_S = 20.0


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=7, tempo="slow")
    yield s
    s.stop()


def join(server: Server, name: str, url: str | None = None, lang: str = "en") -> Client:
    c = Client(server, lang=lang, url=url)
    assert c.join(server.room.code, name, lang)["type"] == "welcome"  # type: ignore[union-attr]
    return c


def until(test: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    """Wait (bounded) for ``test()`` to be true, polling the server; its value."""
    end = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


def table(server: Server, n: int = 1) -> dict[str, Any]:
    return dict(server.snapshot()["tables"][n - 1])


def seat_of(server: Server, name: str, n: int = 1) -> dict[str, Any]:
    return next(s for s in table(server, n)["seats"] if s.get("name") == name)


def lowest(clients: list[Client]) -> Client:
    return min((c for c in clients if c.view.get("hand")), key=lambda c: c.view["hand"][0])


# ------------------------------------------------------------------ 1. the move
def test_a_pupil_moved_out_of_a_running_table_leaves_a_bot_and_keeps_their_cards(
    server: Server,
) -> None:
    pupils = [join(server, n) for n in ("Anna", "Bram", "Eva")]
    all_phase(pupils, "ready")
    ready_all(pupils)
    eva = lowest(pupils)  # the one who may play now without a mistake
    others = [c for c in pupils if c is not eva]
    name, seat = eva.info["name"], eva.info["seat"]
    n = eva.view["n"]
    eva.send({"type": "play", "epoch": eva.model["clock"]["epoch"], "n": n})
    for c in pupils:
        c.wait(lambda x: x.view.get("n", 0) > n, "the play")
    card = eva.view["pile"][-1]
    f = join(server, "Finn")  # a second table, waiting
    f.wait(lambda x: x.info.get("table") == 2, "Finn at table 2")
    server.call(server.room.move, seat_of(server, name)["pupil"], 2, 1)  # type: ignore[union-attr]

    # the seat is a bot's at once, named as everywhere; the level stopped for the change
    for c in others:
        c.wait(lambda x: x.info["seats"][seat]["kind"] == "bot", "a bot in the seat")
        c.wait(lambda x: x.view.get("why") == "seat", "the stop for the seat")
        assert c.view["stopped_by"] == seat
        assert c.view["pile_names"][-1] == name  # Eva's card is still Eva's on the boards
    row = table(server)
    assert row["seats"][seat] == {"seat": seat, "kind": "bot", "name": f"Bot {seat + 1}"}
    assert row["why"] == "seat" and row["offer_bot"] == []
    # the two pupils left go on: the table waits for nobody who is not there
    ready_all(others)
    assert table(server)["waiting_for"] == []

    # Finn takes the bot's seat: he never inherits Eva's card (nor the bot's)
    server.call(server.room.move, seat_of(server, "Finn", 2)["pupil"], 1, seat)  # type: ignore[union-attr]
    f.wait(lambda x: x.info.get("table") == 1 and x.view.get("pile"), "Finn at table 1")
    k = f.view["pile"].index(card)
    assert f.view["pile_names"][k] == name
    whole = [m["state"] for m in f.received if m.get("type") == "update" and m.get("state")]
    point = next(p for p in whole[-1]["live_trace"]["points"] if p.get("card") == card)
    assert point["by"] == name  # the live trace names her too, never Finn
    plays = server.call(server.room.plays)  # type: ignore[union-attr]
    row = plays[plays["card"] == card].iloc[0]
    assert (row["name"], row["kind"]) == (name, "person")
    for c in [*others, f, eva]:
        c.close()


def test_a_pupil_moved_to_a_table_in_play_is_told_in_their_language(server: Server) -> None:
    """Moved into a running table, a pupil's cards and neighbours change at once: the
    page says why (before, only the bar's table number changed)."""
    pupils = [join(server, n) for n in ("Anna", "Bram", "Eva")]
    all_phase(pupils, "ready")
    ready_all(pupils)
    finn = join(server, "Finn", lang="nl")  # a second table, waiting
    finn.wait(lambda x: x.info.get("table") == 2, "Finn at table 2")
    seat = pupils[2].info["seat"]
    server.call(server.room.give_to_bot, 1, seat)  # type: ignore[union-attr]
    server.call(server.room.move, seat_of(server, "Finn", 2)["pupil"], 1, seat)  # type: ignore[union-attr]
    finn.wait(lambda x: (x.model.get("notice") or {}).get("key") == "moved", "the word")
    assert finn.model["notice"]["params"] == {"table": 1}
    assert finn.info["table"] == 1 and finn.view.get("hand")
    for c in pupils[:2]:  # the others hear of the seat's change as before, not of a move
        c.wait(lambda x: x.view.get("why") == "seat", "the stop for the seat")
        assert (c.model.get("notice") or {}).get("key") != "moved"
    for c in [*pupils, finn]:
        c.close()


# ------------------------------------------------------------ 3. why each stop
def test_every_stop_says_why_the_pupil_the_teacher_a_seat_and_a_lost_connection() -> None:
    s = Server(size=3, seed=5, tempo="slow", grace=1.0)
    try:
        a, b, c = (join(s, n, lang="nl") for n in ("Anna", "Bram", "Cas"))
        all_phase([a, b, c], "ready")
        ready_all([a, b, c])
        a.send({"type": "stop"})
        for x in (a, b, c):
            x.wait(lambda v: v.view.get("why") == "stop", "a pupil's stop")
        assert b.view["stopped_by"] == a.info["seat"]
        ready_all([a, b, c])
        s.call(s.room.pause_all)  # type: ignore[union-attr]
        for x in (a, b, c):
            x.wait(lambda v: v.view.get("why") == "teacher", "the teacher's pause")
        assert table(s)["why"] == "teacher"
        ready_all([a, b, c])
        seat = c.info["seat"]
        c.close()  # Cas's connection is lost past the grace period
        for x in (a, b):
            x.wait(lambda v: v.view.get("why") == "offline", "the stop for a lost connection")
            assert x.view["stopped_by"] == seat
        assert table(s)["offer_bot"] == [seat]  # the dashboard's way on
        s.call(s.room.give_to_bot, 1, seat)  # type: ignore[union-attr]
        a.wait(lambda v: v.info["seats"][seat]["kind"] == "bot", "a bot in Cas's seat")
        ready_all([a, b])
        s.call(s.room.give_to_bot, 1, b.info["seat"])  # type: ignore[union-attr]
        a.wait(lambda v: v.view.get("why") == "seat", "the stop for a change of seat")
        game = s.call(lambda: s.room.table(1).table.game.copy())  # type: ignore[union-attr]
        assert trace_stops(game)["why"].tolist() == ["player", "teacher", "offline", "seat"]
        rows = s.call(s.room.stops)  # type: ignore[union-attr]
        assert rows["why"].tolist() == ["player", "teacher", "offline", "seat"]
        assert rows["name"].tolist() == ["Anna", "Anna", "Cas", "Bram"]  # in whose name, then
        a.close()
        b.close()
    finally:
        s.stop()


def test_the_others_hear_when_the_pupil_a_table_stopped_for_is_back() -> None:
    """A lost connection stops the table in its pupil's name; once that pupil's page is
    back, the others' views say so (before, they said "no connection" until Ready)."""
    s = Server(size=3, seed=5, tempo="slow", grace=1.0)
    try:
        a, b, c = (join(s, n, lang="nl") for n in ("Anna", "Bram", "Cas"))
        all_phase([a, b, c], "ready")
        ready_all([a, b, c])
        seat, token = c.info["seat"], c.token
        c.close()  # Cas's connection is lost past the grace period
        for x in (a, b):
            x.wait(lambda v: v.view.get("why") == "offline", "the stop for a lost connection")
            assert x.view["stopped_by"] == seat and x.view["back"] is False
        again = Client(s, lang="nl")
        again.send({"type": "rejoin", "token": token})
        again.wait_msg("welcome")
        for x in (a, b):
            x.wait(lambda v: v.view.get("back") is True, "Cas back")
            assert x.view["why"] == "offline" and x.view["stopped_by"] == seat
        again.wait(lambda v: v.view.get("back") is True, "the view of Cas herself")
        ready_all([a, b, again])
        all_phase([a, b, again], "play")
        for x in (a, b, again):
            x.close()
    finally:
        s.stop()


# ----------------------------------------------------------- 2. the connection
def through(server: Server) -> tuple[Proxy, str]:
    proxy = Proxy(server.port)
    return proxy, f"ws://127.0.0.1:{proxy.port}/ws"


def test_a_silent_drop_is_offline_within_10_s_stops_within_25_s_and_plays_no_late_press(
    server: Server,
) -> None:
    proxy, url = through(server)
    try:
        a, b = join(server, "Anna"), join(server, "Bram")
        c = join(server, "Cas", url=url)  # the phone, through the proxy
        all_phase([a, b, c], "ready")
        ready_all([a, b, c])
        game = server.room.table(1).table.game  # type: ignore[union-attr]
        pile = server.call(lambda: list(game.pile))
        hand = list(c.view["hand"])

        # a short drop: nothing closes; the dashboard says offline within 10 s
        proxy.blackhole()
        dropped = time.monotonic()
        seen = {"epoch": c.model["clock"]["epoch"], "n": c.view["n"]}
        c.send({"type": "play", **seen})  # pressed during the drop: held, it arrives late
        until(lambda: seat_of(server, "Cas")["connected"] is False, "Cas offline", 10.0)
        assert time.monotonic() - dropped <= 10.0
        n = len(c.received)
        proxy.heal()  # back in range: the held press arrives now, and is refused
        c.wait(lambda x: any(m.get("key") == "late" for m in x.received[n:]), "the refusal")
        until(lambda: seat_of(server, "Cas")["connected"] is True, "Cas online again")
        assert server.call(lambda: list(game.pile)) == pile and list(c.view["hand"]) == hand

        # a long drop: the table stops for the lost connection within 25 s
        proxy.blackhole()
        dropped = time.monotonic()
        c.send({"type": "play", **seen})
        a.wait(lambda x: x.view.get("why") == "offline", "the table stopped", 25.0)
        assert time.monotonic() - dropped <= 25.0
        assert a.view["stopped_by"] == c.info["seat"]
        proxy.heal()
        until(
            lambda: seat_of(server, "Cas")["connected"] is True or c.closed,
            "Cas back, or the server closed the silent socket",
        )
        assert server.call(lambda: list(game.pile)) == pile  # no card from a press made offline
        for x in (a, b, c):
            x.close()
    finally:
        proxy.close()


def test_a_hard_drop_is_offline_at_once_and_the_seat_comes_back_on_reconnect() -> None:
    s = Server(size=3, seed=7, tempo="slow", grace=2.0)
    proxy, url = through(s)
    try:
        a, b = join(s, "Anna"), join(s, "Bram")
        c = join(s, "Cas", url=url)
        all_phase([a, b, c], "ready")
        ready_all([a, b, c])
        token, seat = c.token, c.info["seat"]
        proxy.reset()  # a hard drop: every connection reset, new ones too until heal
        c.wait(lambda x: x.closed, "the phone's socket closed")
        until(lambda: seat_of(s, "Cas")["connected"] is False, "Cas offline", 3.0)
        a.wait(lambda x: x.view.get("why") == "offline", "the table stopped")
        with pytest.raises(Exception):  # noqa: B017 (websockets' own error, or the OS's)
            Client(s, url=url)  # still down: a reconnect is reset too
        proxy.heal()
        back = Client(s, url=url)
        back.send({"type": "rejoin", "token": token})
        back.wait(lambda x: x.info.get("seat") == seat, "the same seat again")
        assert back.view["phase"] == "stopped" and back.view["why"] == "offline"
        assert back.view["stopped_by"] == seat
        until(lambda: seat_of(s, "Cas")["connected"] is True, "Cas online again")
        for x in (a, b, back):
            x.close()
    finally:
        proxy.close()
        s.stop()


def test_an_action_made_on_a_view_the_table_has_left_is_refused_over_the_wire(
    server: Server,
) -> None:
    pupils = [join(server, n) for n in ("Anna", "Bram", "Cas")]
    all_phase(pupils, "ready")
    ready_all(pupils)
    first = lowest(pupils)
    late = next(c for c in pupils if c is not first)
    old = {"epoch": late.model["clock"]["epoch"], "n": late.view["n"]}
    first.send({"type": "play"})
    late.wait(lambda x: x.view["n"] > old["n"], "the other's play")
    pile = list(late.view["pile"])
    late.send({"type": "stop", **old})  # made before that play: refused, nothing changes
    late.wait(lambda x: (x.model.get("notice") or {}).get("key") == "stale", "the refusal")
    assert late.phase == "play" and list(late.view["pile"]) == pile
    for c in pupils:
        c.close()
