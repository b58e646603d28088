"""The class server over its real sockets: joining, whole games, reconnecting, refusals.

Each test starts a `Classroom` on a free loopback port (on its own loop in a
thread, as a kernel runs it) and drives it with `websockets` clients that
send what the pupil page sends (`tests/classroom_harness.py`). The server
keeps the time: no client sends a heartbeat. Waits are on what the clients
receive, never a sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import websockets
from classroom_harness import Client, Server, all_phase, ready_all
from conformance import future_plans, seat_may_not_know
from jsonschema import Draft202012Validator
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from mindwidget.classroom import Classroom
from mindwidget.classroom import room as room_module
from mindwidget.classroom import server as server_module
from mindwidget.classroom import teacher as teacher_module
from mindwidget.classroom.inbox import MAX_MESSAGE_BYTES
from mindwidget.classroom.words import NAME_MAX

_SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "js" / "wire.schema.json").read_text(encoding="utf-8")
)
CLASS_FRAME, TEACHER_FRAME = (
    Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": _SCHEMA["$defs"]})
    for name in ("ClassFrame", "TeacherFrame")
)

#: Keys of the class's own messages whose whole numbers are never cards.
CLASS_NOT_CARDS = ("table", "size", "waiting_for", "id", "games", "s") + (
    # the pupil's own clock (`wire.OwnClock`): gaps, band edges and counts of plays
    "gap", "low", "high", "plays", "pupils", "need", "band_pupils", "class_plays",
)  # fmt: skip


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=7, grace=0.6)
    yield s
    s.stop()


def seated(server: Server, names: list[str], lang: str = "en") -> list[Client]:
    code = server.room.code  # type: ignore[union-attr]
    clients = []
    for name in names:
        c = Client(server, lang=lang)
        assert c.join(code, name, lang)["type"] == "welcome"
        clients.append(c)
    return clients


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 10_000:04d}"


def lowest_holder(clients: list[Client]) -> Client | None:
    held = [(c.view["hand"][0], c) for c in clients if c.view.get("hand")]
    return min(held, key=lambda h: h[0])[1] if held else None


def in_sync(clients: list[Client]) -> None:
    """Every page has seen the same number of the level's events."""
    n = max(c.view.get("n", 0) for c in clients)
    for c in clients:
        c.wait(lambda x: x.view.get("n", 0) >= n, "the latest event")


def play_level_well(clients: list[Client]) -> None:
    """The pupils play their cards in order (each waits to see the last play)."""
    while (c := lowest_holder(clients)) is not None and clients[0].phase == "play":
        before = c.view["n"]
        c.send({"type": "play"})
        c.wait(lambda x, n=before: x.view.get("n", 0) > n, "the play")
        in_sync(clients)


def clear_level(clients: list[Client]) -> None:
    """From hands on the table: everyone's Ready, the cards in order, the level cleared."""
    ready_all(clients)
    play_level_well(clients)
    all_phase(clients, "cleared")


def go_on_to_next_level(clients: list[Client]) -> None:
    """After a cleared level: the next one dealt and everyone's Ready."""
    clients[0].send({"type": "next_level"})
    all_phase(clients, "ready")
    ready_all(clients)


# ---------------------------------------------------------------- joining
def test_pupils_join_are_seated_and_the_full_table_starts(server: Server) -> None:
    a, b = seated(server, ["Anna", "Bo"])
    a.wait(lambda x: x.info.get("table") == 1 and not x.info["started"], "seated at table 1")
    assert a.model == {} and a.info["seat"] == 0  # no table before it starts
    (c,) = seated(server, ["Cas"])
    all_phase([a, b, c], "ready")
    assert [x.info["seat"] for x in (a, b, c)] == [0, 1, 2]
    assert [x.view["seat"] for x in (a, b, c)] == [0, 1, 2]
    (d,) = seated(server, ["Dee"])
    d.wait(lambda x: x.info.get("table") == 2, "the fourth pupil at a new table")
    snap = server.snapshot()
    assert [s["name"] for s in snap["tables"][0]["seats"]] == ["Anna", "Bo", "Cas"]
    assert snap["tables"][1]["seats"][0]["name"] == "Dee"
    assert snap["tables"][1]["status"] == "waiting"
    json.dumps(snap)  # JSON-ready


def test_a_wrong_code_is_refused_in_the_pupils_language_and_then_slowed(server: Server) -> None:
    code = server.room.code  # type: ignore[union-attr]
    d = Client(server, lang="de")
    assert d.join("", "Anna", lang="de")["text"].startswith("Dieser Code stimmt nicht")
    c = Client(server, lang="nl")
    answer = c.join(wrong(code), "Anna", lang="nl")
    assert answer["type"] == "refused" and answer["key"] == "bad_code"
    assert answer["text"].startswith("Die code klopt niet")
    for _ in range(2):
        c.join(wrong(code), "Anna", lang="nl")
    slowed = c.join(code, "Anna", lang="nl")  # even the right code waits now
    assert slowed["key"] == "slow_down" and re.search(r"Wacht \d+ s", slowed["text"])
    assert server.snapshot()["tables"] == []
    # another page at the same address (a classmate behind the school's router) does
    # not wait: the back-off slows the guesser, not the class (issue 25; after
    # room.ADDRESS_FREE_TRIES wrong codes the address waits too: test_classroom_network)
    assert d.join(code, "Anna", lang="de")["type"] == "welcome"


def test_the_code_may_be_typed_with_spaces_between_its_digits(server: Server) -> None:
    """The projector shows the code with its digits apart: "48 21" (or with a
    non-breaking space from a copied text) is the code; another digit is not."""
    code = server.room.code  # type: ignore[union-attr]
    spaced = f" {code[:2]} {code[2:]}\u00a0"
    assert Client(server, lang="nl").join(spaced, "Anna", lang="nl")["type"] == "welcome"
    other = f"{code[:2]} {wrong(code)[2:]}"
    assert Client(server, lang="nl").join(other, "Bo")["key"] == "bad_code"


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * (NAME_MAX + 1), "a\u0000b", "tab\there", "\u200b" * 3, "new\nline"]
)
def test_names_must_be_1_to_20_printable_characters(server: Server, name: str) -> None:
    c = Client(server)
    answer = c.join(server.room.code, name)  # type: ignore[union-attr]
    assert answer["key"] == "bad_name", answer
    assert "1 to 20" in answer["text"]


@pytest.mark.parametrize("length", [101, 200])
def test_a_crafted_long_name_is_refused_as_a_name_in_the_pupils_words(
    server: Server, length: int
) -> None:
    """A name past the message's string limit (the page's field stops at 20) is
    refused as a name, not as "(field name)" inside a Dutch sentence (issue 24)."""
    c = Client(server, lang="nl")
    answer = c.join(server.room.code, "x" * length, lang="nl")  # type: ignore[union-attr]
    assert answer["key"] == "bad_name", answer
    assert answer["text"].startswith("Een naam heeft 1 tot 20 tekens")
    assert "field" not in answer["text"]


def test_names_are_unique_in_a_class_and_a_nickname_can_be_made_up(server: Server) -> None:
    seated(server, ["Anna"])
    c = Client(server, lang="de")
    taken = c.join(server.room.code, " anna ", lang="de")  # type: ignore[union-attr]
    assert taken["key"] == "name_taken" and "anna" in taken["text"]
    names = set()
    for _ in range(5):
        n = len(c.received)
        c.send({"type": "nickname", "lang": "de"})
        names.add(c.wait_msg("nickname", n)["name"])
    assert all(1 <= len(n) <= NAME_MAX and " " in n for n in names)
    assert c.join(server.room.code, sorted(names)[0], lang="de")["type"] == "welcome"  # type: ignore[union-attr]


def test_a_full_class_takes_no_one_new(monkeypatch: pytest.MonkeyPatch, server: Server) -> None:
    monkeypatch.setattr(room_module, "MAX_PUPILS", 2)  # the room keeps the rule
    seated(server, ["Anna", "Bo"])
    c = Client(server, lang="de")
    assert (
        c.join(server.room.code, "Cas", lang="de")["text"]
        == "Die Klasse ist voll. Frag deine Lehrkraft."
    )  # type: ignore[union-attr]


def test_a_locked_class_takes_no_one_new(server: Server) -> None:
    (a,) = seated(server, ["Anna"])
    server.call(server.room.lock)  # type: ignore[union-attr]
    b = Client(server, lang="nl")
    assert b.join(server.room.code, "Bo", lang="nl")["key"] == "locked"  # type: ignore[union-attr]
    a.close()
    back = Client(server)
    back.send({"type": "rejoin", "token": a.token})
    assert back.wait_msg("welcome")["name"] == "Anna"  # a seat token still gets back in


def test_a_pupil_who_comes_after_the_end_of_the_lesson_is_told_it_ended(server: Server) -> None:
    seated(server, ["Anna"])
    server.call(server.room.end)  # type: ignore[union-attr]
    late = Client(server, lang="nl").join(server.room.code, "Bo", lang="nl")  # type: ignore[union-attr]
    assert late["key"] == "class_ended"
    assert late["text"] == "De les is afgelopen. Bedankt voor het spelen!"


# ---------------------------------------------------------------- playing
def test_the_level_goes_on_only_when_every_pupil_pressed_ready(server: Server) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    a.send({"type": "ready"})
    b.send({"type": "ready"})
    c.wait(lambda x: x.info.get("waiting_for") == [2], "waiting for Cas only")
    # each page gets its own update: Anna's may come a moment after Cas's
    a.wait(lambda x: x.info.get("waiting_for") == [2], "Anna's page: waiting for Cas only")
    assert a.info["ready"] and not c.info["ready"]
    assert {x.phase for x in (a, b, c)} == {"ready"}
    # who pressed Ready is offered Ready no more and is told the table waits; Cas is not
    a.wait(lambda x: x.view.get("waiting_for_team") is True, "Anna's view: waiting for the team")
    assert "ready" not in a.view["allowed"] and "ready" in c.view["allowed"]
    assert not c.view.get("waiting_for_team")
    c.send({"type": "ready"})
    all_phase([a, b, c], "play")
    assert all(x.info["waiting_for"] == [] for x in (a, b, c))
    assert not any(x.view.get("waiting_for_team") for x in (a, b, c))


def test_between_levels_a_pupil_cannot_deal_a_new_game_for_the_whole_table(
    server: Server,
) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    clear_level([a, b, c])
    # the next level is offered; a new game (which would end this one for all) is not
    assert all("next_level" in x.view["allowed"] for x in (a, b, c))
    assert not any("new_game" in x.view["allowed"] for x in (a, b, c))
    n = len(b.received)
    b.send({"type": "new_game"})  # sent anyway: refused with a notice, nothing changes
    b.wait(lambda y: (y.model.get("notice") or {}).get("key") == "not_now", "a notice")
    # a new game would have dealt level 1 afresh (hands on the table): still cleared
    assert all(x.phase == "cleared" and x.view["level"] == 1 for x in (a, b, c))
    assert len(b.received) > n
    go_on_to_next_level([a, b, c])
    assert all(x.view["level"] == 2 for x in (a, b, c))


def test_a_mistake_stops_the_table_for_everyone_until_all_are_ready(server: Server) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    clear_level([a, b, c])
    go_on_to_next_level([a, b, c])
    # level 2: two cards each; the holder of the highest card plays it now
    high = max((x for x in (a, b, c)), key=lambda x: x.view["hand"][-1])
    if high.view["hand"][0] != min(y.view["hand"][0] for y in (a, b, c)):
        pass
    lives = a.view["lives"]
    # the lowest card of the highest hand is not the lowest overall unless that hand holds it
    mover = next(x for x in (a, b, c) if x is not lowest_holder([a, b, c]))
    mover.send({"type": "play"})
    for x in (a, b, c):
        x.wait(lambda y: y.view.get("lives") == lives - 1, "a life lost")
    all_phase([a, b, c], "stopped", "cleared")
    if a.phase == "stopped":
        mover.send({"type": "play"})  # hands on the table: refused, nothing changes
        mover.wait(lambda y: (y.model.get("notice") or {}).get("key"), "a notice")
        assert a.phase == "stopped"
        a.send({"type": "ready"})
        b.send({"type": "ready"})
        c.wait(lambda y: y.info["waiting_for"] == [2], "waiting for Cas")
        # after a mistake too: a pupil who pressed Ready sees the table wait for the others
        b.wait(lambda y: y.view.get("waiting_for_team") is True, "Bo's view: waiting")
        assert "ready" not in b.view["allowed"]
        c.send({"type": "ready"})
        all_phase([a, b, c], "play")
    assert server.snapshot()["tables"][0]["last_mistake"]["seat"] == mover.info["seat"]


def test_bots_fill_the_empty_seats_and_play_on_the_servers_clock() -> None:
    s = Server(size=3, seed=3, bots="scalar", tempo="quick")
    try:
        (a,) = seated(s, ["Anna"])
        s.call(s.room.start_table, 1)  # type: ignore[union-attr]
        a.wait(lambda x: x.phase == "ready", "the table dealt")
        assert [x["kind"] for x in a.info["seats"]] == ["person", "bot", "bot"]
        a.send({"type": "ready"})
        # no heartbeat from the page: the server's timer brings the bots' plays
        a.wait(lambda x: any(p != 0 for p in x.view.get("pile_by", [])), "a bot's play", 30)
        assert all(m.get("type") != "tick" for m in a.received)
    finally:
        s.stop()


def test_same_deal_gives_every_table_the_same_cards_and_a_seed_repeats_it() -> None:
    hands = []
    for _ in range(2):
        s = Server(size=2, seed=11, same_deal=True)
        try:
            clients = seated(s, ["A", "B", "C", "D"])
            all_phase(clients, "ready")
            hands.append([c.view["hand"] for c in clients])
        finally:
            s.stop()
    first, again = hands
    assert first[:2] == first[2:]  # table 1 and table 2
    assert first == again  # the same seed, the same deals


# -------------------------------------------------------------- reconnect
def test_a_reload_rejoins_the_same_seat_with_the_whole_state(server: Server) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    ready_all([a, b, c])
    hand = b.view["hand"]
    b.close()
    a.wait(lambda x: not x.info["seats"][1]["connected"] or True, "")
    again = Client(server)
    again.send({"type": "rejoin", "token": b.token})
    again.wait(lambda x: x.phase == "play", "the table again")
    assert again.info["seat"] == 1 and again.view["hand"] == hand
    assert again.model["live_trace"]["from"] == 0  # the whole trace
    stranger = Client(server)
    stranger.send({"type": "rejoin", "token": "x" * 32})
    assert stranger.wait_msg("refused")["key"] == "seat_gone"


def test_a_second_page_with_the_token_takes_over_and_the_first_is_told(server: Server) -> None:
    (a,) = seated(server, ["Anna"])
    other = Client(server)
    other.send({"type": "rejoin", "token": a.token})
    other.wait_msg("welcome")
    assert a.wait_msg("bye")["key"] == "elsewhere"


def test_a_pupil_gone_past_the_grace_period_stops_the_table_and_a_bot_can_take_over(
    server: Server,
) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    ready_all([a, b, c])
    c.close()
    all_phase([a, b], "stopped")
    assert not a.info["seats"][2]["connected"]
    seat = server.snapshot()["tables"][0]["seats"][2]
    assert seat["name"] == "Cas" and seat["connected"] is False
    server.call(server.room.give_to_bot, 1, 2)  # type: ignore[union-attr]
    a.wait(lambda x: x.info["seats"][2]["kind"] == "bot", "a bot in seat 3")
    a.send({"type": "ready"})
    b.send({"type": "ready"})
    all_phase([a, b], "play")
    assert server.snapshot()["waiting_room"][0]["name"] == "Cas"


# --------------------------------------------------------------- no leaks
class Recorder:
    """Every message the server writes to a pupil's socket, checked when written: against
    the wire's schema (`ClassFrame`), and for cards and plans the seat may not know.
    Every frame to a teacher's page too (`TeacherFrame`)."""

    def __init__(self) -> None:
        self.messages = 0
        self.frames: Counter[str] = Counter()
        self.found: list[Any] = []
        self.invalid: list[str] = []

    def valid(self, schema: Any, name: str, text: str) -> None:
        data = json.loads(text)
        self.frames[f"{name}:{data.get('type')}"] += 1
        for error in list(schema.iter_errors(data))[:1]:
            self.invalid.append(f"{name} {data.get('type')}: {error.message[:200]}")

    def check(self, sock: Any, text: str) -> None:
        self.valid(CLASS_FRAME, "class", text)
        p = sock.pupil
        if p is None or p.table_id is None:
            return
        t = sock.room.table(p.table_id)
        if t.table is None:
            return
        data = json.loads(text)
        self.messages += 1
        table = t.table
        planned = table.planned.t if table.planned is not None else None
        cards, timing = seat_may_not_know(
            data,
            game=table.game,
            seat=p.seat,
            plans=future_plans(table.plans.values(), planned, table.now),
            not_cards=CLASS_NOT_CARDS,
        )
        self.found += cards + timing


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    rec = Recorder()
    original = server_module.PupilSocket.write_message

    def write(self: Any, message: Any, binary: bool = False) -> Any:
        rec.check(self, message)
        return original(self, message, binary)

    monkeypatch.setattr(server_module.PupilSocket, "write_message", write)
    to_teacher = teacher_module.TeacherSocket.write_message

    def write_teacher(self: Any, message: Any, binary: bool = False) -> Any:
        rec.valid(TEACHER_FRAME, "teacher", message)
        return to_teacher(self, message, binary)

    monkeypatch.setattr(teacher_module.TeacherSocket, "write_message", write_teacher)
    return rec


def test_no_socket_ever_carries_another_seats_card_over_whole_games(recorder: Recorder) -> None:
    # the test's pupils act as fast as the server answers: no rate limit in the way
    s = Server(size=3, seed=21, bots="scalar", tempo="quick", rate=(10_000, 10_000))
    try:
        people = seated(s, ["Anna", "Bo", "Cas", "Dee"])
        token = s.room.teacher_token  # type: ignore[union-attr]
        teacher = connect(f"ws://127.0.0.1:{s.port}/teacher/ws?token={token}")
        teacher.send(json.dumps({"type": "focus", "table": 1}))  # a table shown large too
        s.call(s.room.start_all)  # type: ignore[union-attr]
        table1, (d,) = people[:3], people[3:]
        for game in range(2):
            all_phase(table1, "ready")
            while table1[0].phase not in ("won", "lost"):
                if table1[0].phase in ("ready", "stopped"):
                    ready_all(table1)
                elif table1[0].phase == "cleared":
                    table1[0].send({"type": "next_level"})
                    all_phase(table1, "ready")
                else:
                    # a careless play now and then: mistakes, stops, hands back on the table
                    holder = lowest_holder(table1)
                    mover = holder if game == 0 or table1[0].view["n"] % 3 else table1[-1]
                    if mover is None or not mover.view.get("hand"):
                        mover = holder
                    if mover is None:
                        break
                    before = mover.view["n"]
                    mover.send({"type": "play"})
                    mover.wait(
                        lambda x, n=before: x.view.get("n", 0) != n or x.phase != "play",
                        lambda m=mover: f"the play, or {m.model.get('notice')} {m.view}",
                    )
                    in_sync(table1)
            table1[0].send({"type": "new_game"})
        # Dee's table of bots plays on the server's clock meanwhile
        d.send({"type": "ready"})
        d.wait(lambda x: len(x.view.get("pile", [])) > 0 or x.phase != "play", "bots play", 30)
        teacher.close()
    finally:
        s.stop()
    assert recorder.messages > 100
    assert recorder.found == []
    # every frame to every socket is one the wire declares (js/wire.schema.json)
    assert recorder.invalid == []
    assert {"class:welcome", "class:update", "class:bye", "teacher:update"} <= set(recorder.frames)
    assert recorder.frames["class:own_clock"] == 4  # each page's own clock as the class ends


# ------------------------------------------------------- hostile clients
def test_garbage_is_refused_with_a_notice_and_changes_nothing(server: Server) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"], lang="nl")
    all_phase([a, b, c], "ready")
    before = server.snapshot()["tables"]
    bad: list[Any] = [
        "not json",
        "[1, 2",
        "[" * 600 + "]" * 600,
        json.dumps([{"type": "play"}]),
        json.dumps({"type": "dance"}),
        json.dumps({"type": "play", "card": 3}),
        json.dumps({"type": "vote", "agree": "yes"}),
        json.dumps({"type": "vote"}),
        json.dumps({"type": "set", "name": "lang", "value": {"x": 1}}),
        json.dumps({"type": "join", "code": 4821, "name": "x"}),
        json.dumps({"type": 7}),
        json.dumps({"type": "play", "t": "soon"}),
        json.dumps({"type": "ping", "id": True}),
    ]
    for text in bad:
        n = len(a.received)
        a.send(text)
        notice = a.wait_msg("notice", n)
        assert notice["key"] == "bad_message" and "niet" in notice["text"], (text, notice)
    a.send(b"\x00\x01binary")
    assert a.wait_msg("notice", len(a.received) - 1)["key"] == "bad_message"
    for name in ("speed", "tempo"):  # the teacher's: refused by the class
        n = len(a.received)
        a.send({"type": "set", "name": name, "value": "quick" if name == "tempo" else 4})
        assert a.wait_msg("notice", n)["key"] == "bad_message"
    a.send({"type": "set", "name": "lang", "value": "fr"})  # the session refuses it
    a.wait(lambda x: (x.model.get("notice") or {}).get("key") == "bad_field", "the table's notice")
    assert a.model["lang"] == "nl"
    assert server.snapshot()["tables"] == before
    a.send({"type": "play"})  # before Ready: the table's own refusal
    a.wait(lambda x: (x.model.get("notice") or {}).get("key") == "press_ready", "press ready")
    assert server.snapshot()["tables"] == before


def test_before_joining_only_joining_is_possible(server: Server) -> None:
    seated(server, ["Anna", "Bo", "Cas"])
    stranger = Client(server)
    stranger.send({"type": "play"})
    assert stranger.wait_msg("refused")["key"] == "not_joined"
    stranger.send({"type": "pong", "id": 1})
    assert stranger.wait_msg("refused", 1)["key"] == "not_joined"


def test_a_huge_frame_or_a_flood_costs_only_that_socket(server: Server) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    big = Client(server)
    big.send("x" * 1_000_000)
    big.wait(lambda x: x.closed, "the huge frame's socket closed")
    flood = Client(server)
    for i in range(2000):
        flood.send({"type": "ping", "id": i})
    flood.wait(lambda x: any(m.get("key") == "too_fast" for m in x.received), "too fast")
    pongs = sum(1 for m in flood.received if m.get("type") == "pong")
    assert pongs < 200
    ready_all([a, b, c])  # every other page is served as before
    play_level_well([a, b, c])
    all_phase([a, b, c], "cleared")


def test_sockets_per_address_are_capped() -> None:
    s = Server(per_address=4)
    try:
        held = [Client(s) for _ in range(4)]
        extra = Client(s)
        assert extra.wait_msg("bye")["key"] == "too_many"
        extra.wait(lambda x: x.closed, "closed")
        held[0].close()
        ok = Client(s)
        assert ok.join(s.room.code, "Anna")["type"] == "welcome"  # type: ignore[union-attr]
    finally:
        s.stop()


def test_500_held_sockets_and_a_page_that_never_reads_do_not_stop_the_class() -> None:
    s = Server(per_address=600, size=2, seed=4)
    held: list[Any] = []
    stop = threading.Event()

    async def hold() -> None:
        for _ in range(500):
            held.append(await websockets.connect(s.ws_url, open_timeout=30))
        opened.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)  # polls the test's flag; nothing waits on it
        for w in held:
            await w.close()

    opened = threading.Event()
    thread = threading.Thread(target=lambda: asyncio.run(hold()), daemon=True)
    thread.start()
    try:
        assert opened.wait(120), "500 sockets did not open"
        # a pupil whose page never reads: its socket buffers nothing without end
        sleeper = connect(s.ws_url, max_queue=1, legacy=True)
        sleeper.send(json.dumps({"type": "join", "code": s.room.code, "name": "Zzz"}))  # type: ignore[union-attr]
        (a,) = seated(s, ["Anna"])  # Anna sits with Zzz: a full table of two
        a.wait(lambda x: x.phase == "ready", "dealt")
        a.send({"type": "ready"})
        a.wait(lambda x: x.info["waiting_for"] == [0], "waiting for the sleeper")
        for i in range(300):  # much to send to the sleeper: language changes
            a.send({"type": "set", "name": "lang", "value": ["nl", "en", "de"][i % 3]})
        a.wait(lambda x: x.model.get("lang") == "en", "the last change")
        sockets = s.call(lambda: [len(x._queue) for x in s.room.sockets.all])  # type: ignore[union-attr]
        assert max(sockets) <= server_module.QUEUE
        later = Client(s)
        assert later.join(s.room.code, "Bo")["type"] == "welcome"  # type: ignore[union-attr]
        sleeper.close()
    finally:
        stop.set()
        thread.join(60)
        s.stop()


def test_the_socket_checks_its_origin(server: Server) -> None:
    with pytest.raises(InvalidStatus):
        connect(server.ws_url, origin="http://evil.example")  # type: ignore[arg-type]
    ok = connect(server.ws_url, origin=f"http://127.0.0.1:{server.port}", legacy=True)  # type: ignore[arg-type]
    ok.close()


def test_fuzzed_messages_never_break_the_server_or_change_a_refused_game() -> None:
    from hypothesis import HealthCheck, assume, given, settings
    from hypothesis import strategies as st

    server = Server(size=3, seed=7, rate=(10_000, 10_000))  # no rate limit in the way

    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30))
    values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=3), max_leaves=6)
    kinds = st.sampled_from(
        ["play", "stop", "vote", "set", "join", "rejoin", "ping", "pong", "tick", "x", ""]
    )
    messages = st.fixed_dictionaries(
        {"type": kinds}, optional={k: values for k in ("t", "agree", "name", "value", "id")}
    )

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(messages, st.text(max_size=50)))
    def send(msg: Any) -> None:
        text = msg if isinstance(msg, str) else json.dumps(msg)
        # a frame over the limit closes the socket (test_a_huge_frame_or_a_flood_...)
        assume(len(text.encode()) <= MAX_MESSAGE_BYTES)
        a.send(text)

    send()
    # still answered. The replies to the 60 fuzzed frames may still fill the socket's
    # small queue (at most QUEUE wait; more are dropped, as for a page that does not
    # read): ask again, each time with a new id, until one comes back
    n = len(a.received)
    answered = None
    for ping_id in range(100, 120):
        a.send({"type": "ping", "id": ping_id})
        with contextlib.suppress(AssertionError):
            answered = a.wait_msg("pong", n, timeout=1.0)
            break
    assert answered is not None and 100 <= answered["id"] < 120
    assert {x.phase for x in (a, b, c)} == {"ready"}
    server.stop()


# ---------------------------------------------------------------- pages
def get(url: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), ""


def test_pages_forbid_inline_script_are_not_cached_and_hold_no_teacher_token(
    server: Server,
) -> None:
    base = f"http://127.0.0.1:{server.port}"
    token = server.room.teacher_token  # type: ignore[union-attr]
    for path, word in (("/?lang=nl", "Meedoen"), ("/?lang=de", "Mitspielen"), ("/", "Join")):
        status, headers, body = get(base + path)
        assert status == 200 and word in body
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert (
            "unsafe-inline"
            not in headers["Content-Security-Policy"].split("script-src")[1].split(";")[0]
        )
        assert headers["Cache-Control"] == "no-store"
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body)  # no inline script
        assert token not in body
    status, _, body = get(base + "/?lang=nl")
    assert '<label for="code">Code</label>' in body and '<label for="name">Naam</label>' in body
    assert get(base + "/check?lang=nl")[0] == 200
    assert get(base + "/static/class.js")[0] == 200
    status, _, body = get(base + "/teacher")  # an empty shell: the socket needs the token
    assert status == 200 and server.room.code not in body  # type: ignore[union-attr]
    assert get(base + "/teacher?token=" + "x" * 32)[0] == 403
    status, _, body = get(base + f"/teacher?token={token}")
    assert status == 200 and "/static/teacher.js" in body  # the dashboard (teacher.py)
    assert get(base + "/static/../server.py")[0] == 404


def test_classroom_needs_a_running_loop_and_checks_its_options() -> None:
    # in a thread of its own: no event loop runs there (in this process the browser
    # tests' Playwright keeps one running in the main thread)
    with ThreadPoolExecutor(1) as pool, pytest.raises(RuntimeError, match="running event loop"):
        pool.submit(Classroom).result()

    async def bad(**kw: Any) -> None:
        Classroom(**kw)

    for kw, word in (({"size": 5}, "size"), ({"bots": "x"}, "bots"), ({"lang": "fr"}, "lang"),
                     ({"tempo": -1}, "tempo"), ({"seed": "x"}, "seed")):  # fmt: skip
        with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match=word):
            pool.submit(asyncio.run, bad(**kw)).result()


def test_the_class_command_takes_the_options_of_classroom() -> None:
    from mindwidget.cli import build_parser

    args = build_parser().parse_args(
        ["class", "--lan", "--port", "8800", "--size", "4", "--bots", "none", "--tempo", "slow"]
        + ["--lang", "de", "--same-deal", "--seed", "3", "--no-browser"]
    )
    assert (args.lan, args.port, args.size, args.bots, args.tempo) == (
        True,
        8800,
        4,
        "none",
        "slow",
    )
    assert (args.lang, args.same_deal, args.seed, args.no_browser) == ("de", True, 3, True)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["class", "--size", "5"])


def test_the_snapshot_and_the_notebook_view_show_the_code_qr_and_tables(server: Server) -> None:
    seated(server, ["Anna", "Bo <b>"])
    snap = server.snapshot()
    assert snap["qr_svg"].startswith("<svg") and snap["url"].endswith(f"?code={snap['code']}")
    html = server.call(server.room._repr_html_)  # type: ignore[union-attr]
    assert snap["code"] in html and "Anna" in html and "Bo &lt;b&gt;" in html
    assert server.room.teacher_token not in html  # type: ignore[union-attr]


def test_the_teacher_moves_a_pupil_into_a_gone_pupils_seat_and_sees_round_trips(
    server: Server,
) -> None:
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    (d,) = seated(server, ["Dee"])  # table 2, waiting
    all_phase([a, b, c], "ready")
    ready_all([a, b, c])
    hand = c.view["hand"]
    c.close()
    all_phase([a, b], "stopped")  # Cas gone past the grace period
    server.call(server.room.move, "p4", 1, 2)  # type: ignore[union-attr]
    d.wait(lambda x: x.info.get("table") == 1 and x.view.get("hand") == hand, "Cas's seat")
    snap = server.snapshot()
    assert snap["tables"][0]["seats"][2]["name"] == "Dee"
    assert [p["name"] for p in snap["waiting_room"]] == ["Cas"]
    for x in (a, b, d):
        x.send({"type": "ready"})
    all_phase([a, b, d], "play")
    # every page is pinged; the teacher sees each seat's round trip
    a.wait_msg("ping")

    def timed() -> bool:
        seats = server.snapshot()["tables"][0]["seats"]
        return all(isinstance(s["rtt_ms"], float) for s in seats[:2])

    a.wait(lambda _: timed(), "round trips in the snapshot")


def test_a_page_is_pinged_only_where_an_end_would_go_quiet() -> None:
    from mindwidget.classroom.links import PING_S, RTT_S, ping_due

    now = 100.0
    # in play: heard from and written to within the ping interval, pinged a while ago
    assert not ping_due(now, now - 0.5, now - 0.3, now - 5.0)
    # the page heard nothing from the server for a ping interval
    assert ping_due(now, now - 0.5, now - PING_S, now - 5.0)
    # the server heard nothing from the page: a silent drop while its updates still go out
    assert ping_due(now, now - PING_S, now - 0.1, now - 5.0)
    # never twice within a ping interval, however quiet
    assert not ping_due(now, now - 50.0, now - 50.0, now - PING_S + 0.1)
    # the round trip is measured every RTT_S, even in play
    assert ping_due(now, now - 0.1, now - 0.1, now - RTT_S)
    assert not ping_due(now, now - 0.1, now - 0.1, now - RTT_S + 0.1)


def test_mindwidget_class_serves_in_the_foreground_and_prints_where_to_go() -> None:
    import os
    import signal
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mindwidget.cli", "class", "--no-browser", "--port", str(port)]
        + ["--lang", "de"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:  # until all is printed (the server is up by then)
            lines.append(line)
            if line.startswith("(Strg+C"):
                break
        text = "".join(lines)
        # in the class's language (issue 24), and 127.0.0.1 said to be this computer's only
        assert "Schüler gehen zu:" in text and "Seite der Lehrkraft:" in text
        assert f"http://127.0.0.1:{port}" in text and "/teacher?token=" in text
        assert "Nur dieser Computer erreicht" in text and "--lan" in text
        assert "Pupils" not in text and "Teacher" not in text and "Ctrl+C" not in text
        code = text.split("Klassencode:")[1].split()[0]
        status, _, body = get(f"http://127.0.0.1:{port}/?code={code}")
        assert status == 200 and "Mitspielen" in body and f'value="{code}"' in body
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        rest, _ = proc.communicate(timeout=20)
        assert "Die Stunde ist beendet." in rest
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(20)


def test_two_pupils_and_a_bot_the_bot_never_holds_up_ready_and_a_stop_needs_both() -> None:
    """`Table(seats=(0, 1))` with a bot in seat 2: the table starts at one `ready`, so the
    class writes each pupil's Ready down and passes on the last one."""
    s = Server(size=3, seed=5, bots="scalar", tempo="slow")
    try:
        a, b = seated(s, ["Anna", "Bo"])
        s.call(s.room.start_table, 1)  # type: ignore[union-attr]
        all_phase([a, b], "ready")
        assert [x["kind"] for x in a.info["seats"]] == ["person", "person", "bot"]
        b.send({"type": "ready"})
        a.wait(lambda x: x.info["waiting_for"] == [0], "waiting for Anna only")
        assert a.phase == "ready"
        a.send({"type": "ready"})
        all_phase([a, b], "play")
        a.send({"type": "stop"})  # hands on the table: both press Ready again
        all_phase([a, b], "stopped")
        a.send({"type": "ready"})
        b.wait(lambda x: x.info["waiting_for"] == [1], "waiting for Bo")
        assert b.phase == "stopped"
        b.send({"type": "ready"})
        for x in (a, b):  # the level goes on (and may end as the bot plays)
            x.wait(lambda y: y.phase != "stopped", "the level going on")
    finally:
        s.stop()


def star_proposed_in_level_two(server: Server) -> list[Client]:
    """Anna, Bo and Cas clear level 1; in level 2 Anna proposes a throwing star."""
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    clear_level([a, b, c])
    go_on_to_next_level([a, b, c])
    a.send({"type": "propose_star"})
    all_phase([a, b, c], "vote")
    return [a, b, c]


def test_a_throwing_star_needs_every_pupils_vote_and_stops_the_table_for_everyone(
    server: Server,
) -> None:
    a, b, c = star_proposed_in_level_two(server)
    b.send({"type": "vote", "agree": True})
    b.wait(lambda x: not x.allowed("vote"), "Bo has voted")
    assert c.phase == "vote" and c.allowed("vote")  # the star waits for Cas
    c.send({"type": "vote", "agree": True})
    all_phase([a, b, c], "stopped")  # every hand back on the table
    assert all(len(x.view["hand"]) == 1 for x in (a, b, c))
    a.send({"type": "ready"})
    b.send({"type": "ready"})
    c.wait(lambda x: x.info["waiting_for"] == [2], "waiting for Cas")
    c.send({"type": "ready"})
    all_phase([a, b, c], "play")


def test_the_teachers_pause_during_a_vote_follows_the_vote(server: Server) -> None:
    """A vote is not cut off by the pause; once it is declined and the level would play
    on, it stops in the teacher's name (before, the pause did nothing at a voting table)."""
    a, b, c = star_proposed_in_level_two(server)
    server.call(server.room.pause_all)  # type: ignore[union-attr]
    assert server.snapshot()["tables"][0]["phase"] == "vote"
    b.send({"type": "vote", "agree": True})
    b.wait(lambda x: not x.allowed("vote"), "Bo has voted")
    assert server.snapshot()["tables"][0]["phase"] == "vote"  # still Cas's vote to come
    c.send({"type": "vote", "agree": False})
    for x in (a, b, c):
        x.wait(lambda v: v.phase == "stopped" and v.view.get("why") == "teacher", "the pause")
    assert server.snapshot()["tables"][0]["why"] == "teacher"
    ready_all([a, b, c])
    all_phase([a, b, c], "play")  # a pause once: Ready goes on as after any pause


def test_made_up_names_stay_unique_when_every_plain_one_is_taken() -> None:
    from mindwidget.classroom.words import check_name, fold, make_name, strings

    first, second = strings("nl")["nick_first"].split(","), strings("nl")["nick_second"].split(",")
    taken = {fold(f"{a} {b}") for a in first for b in second}
    name = make_name("nl", taken)
    assert fold(name) not in taken and check_name(name) == name and name[-2:].isdigit()
