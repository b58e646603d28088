"""The class's room without its transport: no Tornado, no sockets, a clock moved by hand.

A `Room` is driven here as the server drives it: fake links stand in for the
pupils' sockets (they keep what the room sends and count the "dirty" marks),
and `ManualTimers` is the server's clock. The same seams carry the journal of
issue 25 (`Room.record`, before any page hears) and liveness (`Room.alive`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mindwidget.classroom.inbox import parse
from mindwidget.classroom.room import ManualTimers, Room
from mindwidget.classroom.tables import Pupil
from mindwidget.refusal import Refused

ROOT = Path(__file__).resolve().parents[2]


class FakeLink:
    """One pupil page's connection: what the room sent it, and each "dirty" mark."""

    def __init__(self, log: list[tuple[str, str]], address: str = "10.0.0.1") -> None:
        self.pupil: Pupil | None = None
        self.lang = "en"
        self.address = address
        self.fresh = True
        self.frames: list[dict[str, Any]] = []
        self.closed_with: str | None = None
        self._log = log

    def send(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)

    def dirty(self) -> None:
        self._log.append(("dirty", self.pupil.id if self.pupil else "?"))

    def bye(self, key: str) -> None:
        self.closed_with = key


def _room(**options: Any) -> tuple[Room, ManualTimers, list[dict[str, Any]], list[Any]]:
    timers = ManualTimers(start=100.0)
    log: list[Any] = []
    entries: list[dict[str, Any]] = []

    def recorder(entry: dict[str, Any]) -> None:
        json.dumps(entry)  # JSON-able, as a journal writes it
        entries.append(entry)
        log.append(("record", entry["kind"]))

    room = Room(timers, seed=5, recorder=recorder, **options)
    return room, timers, entries, log


def _say(room: Room, link: FakeLink, text: str) -> None:
    """A message as the socket passes it on: checked by `inbox.parse`, then the room's."""
    room.receive(link, parse(text))


def test_a_room_plays_a_level_with_no_sockets_and_records_each_change_first() -> None:
    room, timers, entries, log = _room(size=2)
    anna, bo = FakeLink(log), FakeLink(log, "10.0.0.2")
    _say(room, anna, json.dumps({"type": "join", "code": room.code, "name": "Anna"}))
    _say(room, bo, json.dumps({"type": "join", "code": room.code, "name": "Bo", "lang": "nl"}))
    assert [f["type"] for f in anna.frames] == ["welcome"]
    assert anna.pupil is not None and bo.pupil is not None and bo.pupil.lang == "nl"
    (t,) = room.tables
    assert t.table is not None and t.table.phase == "ready"  # a full table starts itself
    assert [e["kind"] for e in entries] == ["join", "join"]

    for link in (anna, bo):  # Ready for all: the level starts at the last one
        _say(room, link, '{"type": "ready"}')
    assert t.table.phase == "play"
    hands = {s: list(h) for s, h in enumerate(t.table.game.hands)}
    order = sorted((card, seat) for seat, cards in hands.items() for card in cards)
    links = {anna.pupil.seat: anna, bo.pupil.seat: bo}
    for card, seat in order:
        timers.advance(timers.now() + 1.5)  # the server's clock, moved by hand
        del log[:]
        _say(room, links[seat], '{"type": "play"}')
        # the journal has the play before any page is told of it
        assert log[0] == ("record", "act") and ("dirty", links[seat].pupil.id) in log
        assert entries[-1]["message"] == {"type": "play"} and entries[-1]["t"] == timers.now()
        assert t.table.game.top == card
    assert t.table.phase == "cleared" and t.table.game.level == 1
    assert "mistake" not in t.table.index.last  # played in order: no mistake
    assert room.info(anna.pupil)["seats"][bo.pupil.seat]["name"] == "Bo"


def test_a_refused_message_changes_nothing_and_records_nothing() -> None:
    room, _, entries, log = _room(size=3)
    link = FakeLink(log)
    with pytest.raises(Refused) as refused:
        _say(room, link, json.dumps({"type": "join", "code": "wrong", "name": "Anna"}))
    assert refused.value.key == "bad_code"
    with pytest.raises(Refused) as not_joined:
        _say(room, link, '{"type": "play"}')  # not joined
    assert (not_joined.value.key, not_joined.value.words) == ("not_joined", "class")
    assert room.pupils == {} and entries == [] and log == []


def test_the_teachers_commands_are_recorded_and_a_gone_pupil_is_decided_by_the_room() -> None:
    room, timers, entries, log = _room(size=2, grace=2.0)
    anna = FakeLink(log)
    _say(room, anna, json.dumps({"type": "join", "code": room.code, "name": "Anna"}))
    assert anna.pupil is not None
    p = anna.pupil
    room.alive(p, timers.now())
    assert p.seen_at == timers.now()
    room.left(anna, timers.now())
    room.check(timers.now() + 1.0)
    assert not p.gone
    room.check(timers.now() + 2.0)
    assert p.gone
    room.give_to_bot(1, 1)
    room.lock()
    room.end()
    kinds = [e["kind"] for e in entries]
    assert kinds == ["join", "left", "gone", "give_to_bot", "lock", "end"]
    assert room.locked


def test_the_room_loads_no_tornado() -> None:
    code = (
        "import sys, mindwidget.classroom.room, mindwidget.classroom.tables\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'tornado'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def _seated_pair() -> tuple[Room, ManualTimers, dict[int, FakeLink]]:
    room, timers, _, log = _room(size=2)
    links = [FakeLink(log, f"10.0.0.{i}") for i in (1, 2)]
    for link, name in zip(links, ("Anna", "Bo"), strict=True):
        _say(room, link, json.dumps({"type": "join", "code": room.code, "name": name}))
    return room, timers, {link.pupil.seat: link for link in links if link.pupil is not None}


def _news(room: Room, link: FakeLink) -> list[dict[str, Any]]:
    assert link.pupil is not None
    t = room.table_of(link.pupil)
    session = t.session_of(link.pupil) if t is not None else None
    assert session is not None
    return list(session.state()["view"]["news"])


def test_every_seat_hears_the_news_when_what_it_may_do_flips() -> None:
    # Ready complete (withheld "ready" goes), the level cleared (withheld "new_game"
    # comes): the change that flips what a seat may do is still news to every seat
    # (the screen reader's announcements), as it is when nothing flips
    room, timers, links = _seated_pair()
    (t,) = room.tables
    assert t.table is not None
    first, last = links[0], links[1]
    _say(room, first, '{"type": "ready"}')  # written down; the table waits for Bo
    _say(room, last, '{"type": "ready"}')  # the table goes on: Ready is no longer withheld
    assert [n["type"] for n in _news(room, first)] == ["ready"]
    hands = {s: list(h) for s, h in enumerate(t.table.game.hands)}
    order = sorted((card, seat) for seat, cards in hands.items() for card in cards)
    for card, seat in order:
        timers.advance(timers.now() + 1.5)
        _say(room, links[seat], '{"type": "play"}')
        for link in links.values():  # each play is news at every seat, the last one too
            assert card in [n.get("card") for n in _news(room, link)], (card, _news(room, link))
    assert t.table.phase == "cleared"


@pytest.mark.parametrize("number", ["NaN", "-Infinity", "1e999", "-1", "2.5"])
def test_a_number_in_a_class_message_acts_on_nothing(number: str) -> None:
    # the server keeps the time: a class page's actions carry no t (wire.PupilMessage),
    # so no number from a page can play, stop or vote, however odd it is
    room, timers, links = _seated_pair()
    (t,) = room.tables
    assert t.table is not None
    for link in links.values():
        _say(room, link, '{"type": "ready"}')
    timers.advance(timers.now() + 1.0)
    _say(room, links[0], '{"type": "propose_star"}')  # a vote is open: seat 1 may vote
    assert t.table.phase == "vote"
    before = t.table.game.to_json()
    for kind in ("play", "stop", "propose_star", "ready"):
        for link in links.values():
            with pytest.raises(Refused) as refused:
                _say(room, link, f'{{"type": "{kind}", "t": {number}}}')
            assert refused.value.key == "bad_message"
    with pytest.raises(Refused) as with_t:
        _say(room, links[1], f'{{"type": "vote", "agree": true, "t": {number}}}')
    assert (with_t.value.key, with_t.value.words) == ("bad_message", "class")
    assert t.table.game.to_json() == before and t.table.phase == "vote"
    _say(room, links[1], '{"type": "vote", "agree": false}')  # the same vote, without t
    assert t.table.phase != "vote"


def test_a_pupils_view_names_the_seats_and_offers_no_menu_of_the_teachers() -> None:
    # the page shows the view as it comes (js/classmodel.js edits nothing): the server
    # puts the nicknames in and leaves out the bots' tempo and the speeds
    room, _, links = _seated_pair()
    for seat, link in links.items():
        assert link.pupil is not None
        t = room.table_of(link.pupil)
        session = t.session_of(link.pupil) if t is not None else None
        assert session is not None
        view = session.state()["view"]
        assert view["names"] == ["Anna", "Bo"] and view["seat"] == seat
        assert view["tempo"] is None and view["speeds"] == []
    room.give_to_bot(1, 1)  # Bo's seat to a bot: Anna's view names it so at once
    anna = links[0]
    assert anna.pupil is not None
    t = room.table_of(anna.pupil)
    assert t is not None and t.session_of(anna.pupil) is not None
    assert t.session_of(anna.pupil).state()["view"]["names"] == ["Anna", None]  # type: ignore[union-attr]


def test_a_teachers_command_the_class_cannot_do_is_said_in_the_dashboards_words() -> None:
    """A refusal of the room carries its words (issue 24): the Dutch dashboard says
    "Niet gedaan: tafel 1 heeft geen lege plaats…", not the English message."""
    from mindwidget.classroom.dashboard import Board

    room, _, entries, log = _room(size=2, lang="nl")
    links = [FakeLink(log, f"10.0.0.{i}") for i in range(3)]
    for link, name in zip(links, ["Anna", "Bo", "Cas"], strict=True):
        _say(room, link, json.dumps({"type": "join", "code": room.code, "name": name}))
    cas = links[2].pupil
    assert cas is not None and cas.table_id == 2
    with pytest.raises(Refused) as declined:
        room.move(cas.id, 1)  # table 1 is full
    assert str(declined.value) == "table 1 has no free seat; choose a bot's seat."
    before = room.snapshot()
    board = Board(room)
    board.receive({"type": "move", "pupil": cas.id, "table": 1, "seat": 0})
    assert board.notice["key"] == "refused_seat_taken"  # the board saw it first
    room.remove(links[1].pupil.id)  # type: ignore[union-attr]
    room.give_to_bot(1, 1)  # Bo's seat is a bot's now: Cas may take it
    room.move(cas.id, 1, 1)
    assert room.tables[0].chairs[1] is cas
    with pytest.raises(Refused) as empty:
        room.start_table(2)  # nobody sits there any more
    assert empty.value.text("nl") == "tafel 2 heeft nog geen leerling, dus er is niets te starten."
    assert empty.value.text("de").startswith("Tisch 2 hat noch keinen Schüler")
    # through the dashboard, when the room refuses what the board let through
    board.receive({"type": "start_all"})
    room.start_all = lambda: room.start_table(2)  # type: ignore[method-assign]
    board.receive({"type": "start_all"})
    assert board.notice["key"] == "refused_not_done"
    assert board.notice["params"]["reason"].startswith("tafel 2 heeft nog geen leerling")
    assert before["tables"][1]["seats"][0]["name"] == "Cas"


def test_the_room_builds_each_pages_update_frame_and_the_socket_only_writes_it() -> None:
    """`Room.frame_for`: a fresh page gets the whole state and the class part; then only
    what changed (the trace's new points), and nothing when nothing changed."""
    room, _, _, log = _room(size=2)
    anna, bo = FakeLink(log), FakeLink(log, "10.0.0.2")
    assert room.frame_for(anna) is None  # no pupil yet: nothing to show
    _say(room, anna, json.dumps({"type": "join", "code": room.code, "name": "Anna"}))
    _say(room, bo, json.dumps({"type": "join", "code": room.code, "name": "Bo"}))
    first = room.frame_for(anna)
    assert first is not None and first["type"] == "update"
    assert first["state"]["view"]["phase"] == "ready" and first["class"]["name"] == "Anna"
    assert anna.fresh is False
    assert room.frame_for(anna) is None  # nothing changed since
    for link in (anna, bo):
        _say(room, link, '{"type": "ready"}')
    _say(room, anna, '{"type": "play"}')
    news = room.frame_for(anna)
    assert news is not None and "state" not in news
    assert news["changes"]["view"]["phase"] in ("play", "cleared")
    assert news["changes"]["live_trace"]["points"]  # the new play's point only
    anna.fresh = True  # a page that came back: the whole state again, with the class part
    again = room.frame_for(anna)
    assert again is not None and "state" in again and again["class"]["name"] == "Anna"


def test_the_class_options_are_declared_once_and_an_unknown_one_is_named() -> None:
    from mindwidget.classroom.options import CLASS_DEFAULTS, ClassOptions, RoomOptions, pick

    assert set(CLASS_DEFAULTS) == set(ClassOptions.__annotations__)
    assert set(RoomOptions.__annotations__) < set(ClassOptions.__annotations__)
    with pytest.raises(TypeError, match="Room\\(\\) has no option 'colour'; its options: size"):
        Room(ManualTimers(), colour="red")  # type: ignore[call-arg]
    for kw, word in (({"size": 5}, "size"), ({"bots": "x"}, "bots"), ({"lang": "fr"}, "lang"),
                     ({"tempo": -1}, "tempo"), ({"seed": "x"}, "seed")):  # fmt: skip
        with pytest.raises(ValueError, match=word):
            Room(ManualTimers(), **kw)
    # the command's flags name the options: what is no option (save, forget) stays out
    picked = pick({"size": 4, "lan": True, "save": "x.json", "forget": None, "command": "class"})
    assert picked == {"size": 4, "lan": True}
