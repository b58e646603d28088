"""The teacher's side of a real class server: its data and its dashboard socket.

A `Classroom` on a free loopback port with pupils as `websockets` clients
(`tests/classroom_harness.py`), as in `test_classroom.py`. Waits are on what
the clients receive, never a sleep.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from classroom_harness import WAIT_S, Client, Server
from conformance import hidden_cards, leaks
from test_classroom import all_phase, clear_level, go_on_to_next_level, ready_all, seated
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from mindwidget import Game
from mindwidget.classdata import CLASS_PLAY_COLUMNS, load
from mindwidget.events import Played


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=7, grace=0.6)
    yield s
    s.stop()


class TeacherPage:
    """The teacher's page: its socket and the dashboard's parts as it holds them."""

    def __init__(self, server: Server, token: str | None = None) -> None:
        room = server.room
        assert room is not None
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/teacher/ws?token={token or room.teacher_token}",
            origin=f"http://127.0.0.1:{server.port}",  # type: ignore[arg-type]
            open_timeout=WAIT_S,
            max_size=2**24,
            legacy=True,  # kept open until close(), not a context manager
        )
        self.parts: dict[str, Any] = {}
        self.updates = 0
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                msg = json.loads(raw)
                with self._cond:
                    self.parts.update(msg.get("state") or {})
                    self.parts.update(msg.get("changes") or {})
                    self.updates += 1
                    self._cond.notify_all()
        except (ConnectionClosed, OSError):
            pass

    def send(self, msg: object) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def wait(self, test: Any, what: str) -> Any:
        with self._cond:
            if not self._cond.wait_for(lambda: test(self.parts), WAIT_S):
                raise AssertionError(f"waited for {what}; the dashboard holds {self.parts}")
            return test(self.parts)

    def table(self, tid: int) -> dict[str, Any]:
        return next(t for t in self.parts.get("room", {}).get("tables", []) if t["id"] == tid)

    def close(self) -> None:
        self.ws.close()


def test_plays_after_a_played_level_agree_with_each_tables_game(
    server: Server, tmp_path: Path
) -> None:
    pupils = seated(server, ["Anna", "Bo", "Cas"])
    all_phase(pupils, "ready")
    clear_level(pupils)
    room = server.room
    assert room is not None
    frame = server.call(room.plays)
    games = server.call(room.games)
    assert tuple(frame.columns) == CLASS_PLAY_COLUMNS
    assert frame["game"].tolist() == [1, 1, 1]
    played = [e for e in games[1].events if isinstance(e, Played)]
    assert len(frame) == len(played) == 3  # level 1: one card each
    assert frame["card"].tolist() == [e.card for e in played]
    assert set(frame["kind"]) == {"person"}
    names = dict(zip(frame["player"], frame["name"], strict=True))
    assert names == {0: "Anna", 1: "Bo", 2: "Cas"}  # one numbering: from 0 (issue 24)
    assert not frame["mistake"].any()
    assert (frame["rtt_ms"].isna() | (frame["rtt_ms"] >= 0)).all()

    # a round trip measured later does not change the plays made before it (issue 24)
    def slower() -> None:
        for p in room.pupils.values():
            p.rtt_ms = 999.0

    server.call(slower)
    later = server.call(room.plays)
    assert later["rtt_ms"].tolist() == pytest.approx(frame["rtt_ms"].tolist(), nan_ok=True)
    assert 999.0 not in later["rtt_ms"].tolist()
    # save: nothing on disk before; Game.from_json replays each table exactly
    assert list(tmp_path.iterdir()) == []
    path = server.call(room.save, tmp_path / "class.json")
    data = json.loads(path.read_text("utf-8"))
    for entry in data["tables"]:
        replayed = Game.from_json(json.dumps(entry["game"]))
        assert replayed.to_json() == games[entry["table"]].to_json()
    assert {n: g.to_json() for n, g in load(path).items()} == {
        n: g.to_json() for n, g in games.items()
    }
    assert room.teacher_token not in path.read_text("utf-8")


def test_the_teacher_socket_needs_the_token(server: Server) -> None:
    with pytest.raises(InvalidStatus) as err:
        TeacherPage(server, token="x" * 32)
    assert err.value.response.status_code == 403


def test_the_dashboard_follows_the_class_and_its_controls_reach_it(server: Server) -> None:
    teacher = TeacherPage(server)
    teacher.wait(lambda p: p.get("room", {}).get("code"), "the class code")
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")

    # the dashboard's pushes are throttled: it may show the table before all three sit
    def three_seated(p: dict[str, Any]) -> list[dict[str, Any]] | None:
        seats = p["room"]["tables"][0]["seats"] if p["room"]["tables"] else []
        return seats if [s.get("name") for s in seats] == ["Anna", "Bo", "Cas"] else None

    seats = teacher.wait(three_seated, "the three at one table")
    assert [s["kind"] for s in seats] == ["person"] * 3
    teacher.wait(lambda p: p["room"]["tables"][0]["waiting_for"] == [0, 1, 2], "all Ready")
    # a mistake at the table shows on the dashboard
    clear_level([a, b, c])
    go_on_to_next_level([a, b, c])
    held = {x.info["seat"]: x.view["hand"] for x in (a, b, c)}
    lowest = min(held, key=lambda s: held[s][0])
    mover = next(x for x in (a, b, c) if x.info["seat"] != lowest)
    mover.send({"type": "play"})
    mistake = teacher.wait(lambda p: p["room"]["tables"][0]["last_mistake"], "the mistake")
    assert mistake["seat"] == mover.info["seat"]
    # lock, move, remove
    teacher.send({"type": "lock", "locked": True})
    teacher.wait(lambda p: p["room"]["locked"] is True, "locked")
    d = Client(server)
    assert d.join(server.room.code, "Dee")["key"] == "locked"  # type: ignore[union-attr]
    teacher.send({"type": "remove", "pupil": _pupil_id(teacher, "Cas")})
    bye = c.wait_msg("bye")
    assert bye["key"] == "seat_gone"
    teacher.wait(lambda p: p["room"]["tables"][0]["seats"][2]["kind"] != "person", "Cas gone")
    teacher.send({"type": "move", "pupil": _pupil_id(teacher, "Bo"), "table": 1, "seat": 2})
    teacher.wait(lambda p: p["room"]["tables"][0]["seats"][2].get("name") == "Bo", "Bo moved")
    # hostile input: a notice, nothing else
    teacher.send("{not json")
    teacher.wait(lambda p: p.get("notice", {}).get("key") == "refused_bad_control", "a notice")
    teacher.send({"type": "remove", "pupil": "p999"})
    teacher.wait(lambda p: p.get("notice", {}).get("key") == "refused_no_pupil", "no such pupil")
    assert teacher.table(1)["seats"][0]["name"] == "Anna"
    teacher.close()


def _pupil_id(teacher: TeacherPage, name: str) -> str:
    for t in teacher.parts["room"]["tables"]:
        for s in t["seats"]:
            if s.get("name") == name:
                return str(s["pupil"])
    raise AssertionError(f"{name} is not seated")


def test_the_projector_view_carries_no_hidden_card_and_pupils_get_no_board(
    server: Server,
) -> None:
    pupils = seated(server, ["Anna", "Bo", "Cas"])
    all_phase(pupils, "ready")
    ready_all(pupils)
    teacher = TeacherPage(server)
    teacher.send({"type": "focus", "table": 1})
    view = teacher.wait(lambda p: (p.get("table") or {}).get("view"), "the large table")
    assert view["seat"] is None and view["hand"] == [] and "hands" not in view
    room = server.room
    assert room is not None
    held = {c for x in pupils for c in x.view["hand"]}
    game = server.call(lambda: room.tables[0].table.game.copy())
    assert held and hidden_cards(game, None) == held
    # the class's own numbers (table ids, seats, levels) are not cards
    assert not leaks(teacher.parts["table"], held)
    assert not leaks(teacher.parts["room"]["tables"][0]["last_mistake"] or {}, held)
    teacher.send({"type": "reveal", "on": True})
    hands = teacher.wait(lambda p: (p.get("table") or {}).get("view", {}).get("hands"), "reveal")
    assert sorted(c for h in hands for c in h) == sorted(held)
    # the reveal went to the teacher's page only: no pupil's socket ever saw a hand
    for x in pupils:
        for raw in x.raw:
            assert '"hands"' not in raw and '"room"' not in raw
    teacher.close()


def test_the_sixth_notebook_reads_a_real_class() -> None:
    from mindwidget import lesson

    server = Server(size=3, seed=7, grace=5.0, same_deal=True)
    try:
        pupils = seated(server, ["Anna", "Bo", "Cas"])
        all_phase(pupils, "ready")
        clear_level(pupils)
        room = server.room
        assert room is not None
        frame = server.call(room.plays)
        plays = lesson.in_words(frame, "en")  # shown in words (issue 24)
        assert list(plays["name"]) and set(plays["who"]) == {"pupil"}
        dutch = lesson.in_words(frame, "nl")
        assert set(dutch["wie"]) == {"leerling"} and set(dutch["speler"]) == {1, 2, 3}
        shown = server.call(lesson.class_plays, room, "nl").value
        assert "Anna" in shown and shown.split("<tbody>")[1].count("</tr>") == len(frame)
        tables = server.call(lesson.class_tables, room, "de")
        assert "dieselben Karten" in tables.value and "menschenähnliche Bots" in tables.value
        fig = server.call(lesson.class_waits, room, "nl", 2)
        assert fig.axes[0].get_title(loc="left") == "Hoe lang wachtten wij?"
    finally:
        server.stop()


def test_the_teachers_controls_start_the_tables_with_the_teachers_token_only(
    server: Server,
) -> None:
    (a,) = seated(server, ["Anna"])
    room = server.room
    assert room is not None
    for wrong in ("x" * 32, room.code):  # the class code lets a pupil join, nothing else
        with pytest.raises(InvalidStatus):
            TeacherPage(server, token=wrong)
    teacher = TeacherPage(server)
    teacher.send({"type": "format_disk"})
    teacher.wait(lambda p: p.get("notice", {}).get("key") == "refused_bad_control", "a notice")
    assert server.snapshot()["tables"][0]["status"] == "waiting"
    teacher.send({"type": "start_all"})
    a.wait(lambda x: x.phase == "ready", "the table started")
    teacher.close()


def test_displaying_a_class_shows_its_dashboard_which_keeps_its_last_state() -> None:
    server = Server(size=3, seed=1)
    room = server.room
    assert room is not None
    widget = server.call(lambda: room.dashboard)
    bundle = server.call(room._repr_mimebundle_)
    data = bundle[0]
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"] == repr(room)
    assert widget.room["code"] == room.code and widget._timer is not None  # follows the class
    server.stop()  # the class ends: the dashboard shows it, and stops following
    assert widget._timer is None and widget.comm is not None
    assert widget.room["locked"] is True


def bots_play_on(server: Server, teacher: TeacherPage) -> None:
    """Table 1, bots only, clears level 1 and deals level 2 with nobody pressing a
    button; Anna, whose seat went to a bot, waits in the waiting room."""
    teacher.wait(lambda p: teacher.table(1)["level"] >= 2, "the bots at level 2")
    assert server.snapshot()["waiting_room"][0]["name"] == "Anna"
    teacher.close()


def test_a_table_the_teacher_gives_to_bots_only_gets_ready_on_its_own() -> None:
    """Nobody presses Ready at a table without pupils: after the bots' human-like
    pause (on the server's clock) it starts, plays, and deals the next level."""
    server = Server(size=2, seed=5, bots="human", tempo=0.05)
    try:
        (a,) = seated(server, ["Anna"])
        teacher = TeacherPage(server)
        teacher.send({"type": "start_table", "table": 1})
        a.wait(lambda x: x.phase == "ready", "the table dealt")
        room = server.room
        assert room is not None

        def to_bot() -> dict[str, Any]:
            room.give_to_bot(1, 0)
            return room.snapshot()["tables"][0]

        table = server.call(to_bot)
        # the bots wait like people: not at once
        assert table["phase"] == "ready" and table["waiting_for"] == []
        assert [s["kind"] for s in table["seats"]] == ["bot", "bot"]
        teacher.wait(lambda p: teacher.table(1)["phase"] != "ready", "the bots' Ready")
        bots_play_on(server, teacher)
    finally:
        server.stop()


def test_a_table_of_bots_only_the_teacher_starts_plays() -> None:
    """A table whose every seat the teacher gave to bots starts when told, and plays."""
    server = Server(size=2, seed=6, bots="human", tempo=0.05)
    try:
        room = server.room
        assert room is not None
        seated(server, ["Anna"])  # the class's first table: the teacher gives it to bots
        teacher = TeacherPage(server)
        teacher.wait(lambda p: p.get("room", {}).get("tables"), "the first table")
        for seat in (0, 1):
            teacher.send({"type": "give_to_bot", "table": 1, "seat": seat})
        teacher.wait(
            lambda p: [s["kind"] for s in teacher.table(1)["seats"]] == ["bot", "bot"], "bots"
        )
        teacher.send({"type": "start_table", "table": 1})
        teacher.wait(lambda p: teacher.table(1)["status"] != "waiting", "the table started")
        bots_play_on(server, teacher)
    finally:
        server.stop()


def test_the_teachers_page_downloads_the_class_data_with_the_token_in_a_header(
    server: Server, tmp_path: Path
) -> None:
    """The dashboard's download (issue 24): what `room.save` writes, only with the
    teacher's token, which never goes into an address."""
    import urllib.error
    import urllib.request

    a, b = seated(server, ["Anna", "Bo"])
    room = server.room
    assert room is not None
    server.call(room.start_table, 1)  # two of three seats: a bot takes the third
    all_phase([a, b], "ready")
    url = f"http://127.0.0.1:{server.port}/teacher/data"
    for headers in ({}, {"X-Teacher-Token": "wrong"}):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)
        assert refused.value.code == 403
    with pytest.raises(urllib.error.HTTPError):  # nor in the address
        urllib.request.urlopen(f"{url}?token={room.teacher_token}", timeout=10)
    request = urllib.request.Request(url, headers={"X-Teacher-Token": room.teacher_token})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.headers["Content-Disposition"].startswith('attachment; filename="mindwidget')
        body = answer.read()
    saved = tmp_path / "saved.json"
    server.call(room.save, saved)
    assert json.loads(body) == json.loads(saved.read_text(encoding="utf-8"))
    path = tmp_path / "download.json"
    path.write_bytes(body)
    assert list(load(path)) == [1]


def test_the_end_of_the_lesson_on_the_teachers_socket(server: Server) -> None:
    """ "De les beëindigen" (issue 24): every pupil is told the class ended, the
    dashboard's state says the lesson ended, and an offline pupil does not make a
    table stuck any more."""
    a, b, c = seated(server, ["Anna", "Bo", "Cas"])
    all_phase([a, b, c], "ready")
    teacher = TeacherPage(server)
    c.close()  # Cas is offline: the table waiting for Cas's Ready is stuck
    teacher.wait(lambda p: (teacher.table(1)["stuck"] or {}).get("reason") == "offline", "stuck")
    assert teacher.parts["room"]["ended"] is False
    teacher.send({"type": "end"})
    for pupil in (a, b):
        assert pupil.wait_msg("bye")["key"] == "class_ended"
    teacher.wait(lambda p: p["room"]["ended"] is True, "the lesson ended")
    assert teacher.table(1)["stuck"] is None
    assert teacher.parts["room"]["locked"] is True
    teacher.close()
