""" "Jouw klok" at the class server, without sockets: a pupil's page gets their own
plays and the class's aggregate only, between levels and as the lesson ends; the
teacher's notebook draws any pupil's clock and the class's, and writes the CSV."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from jsonschema import Draft202012Validator
from test_room import FakeLink, _room, _say

from mindwidget import classdata
from mindwidget.classroom import ownclock, roomdata
from mindwidget.classroom.dashboard import Board
from mindwidget.classroom.room import ManualTimers, Room
from mindwidget.refusal import Refused

_SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "js" / "wire.schema.json").read_text(encoding="utf-8")
)
CLASS_FRAME = Draft202012Validator({"$ref": "#/$defs/ClassFrame", "$defs": _SCHEMA["$defs"]})
TEACHER_FRAME = Draft202012Validator({"$ref": "#/$defs/TeacherFrame", "$defs": _SCHEMA["$defs"]})
NAMES = ["Anna", "Bram", "Chaima"]


def _play_level(
    room: Room, timers: ManualTimers, links: dict[int, FakeLink], slow: dict[int, float]
) -> None:
    """Every pupil presses Ready, then the cards go down in order, each seat after its own
    number of seconds per step of the gap (``slow``), so each pupil's waits differ."""
    (t,) = room.tables
    assert t.table is not None
    for link in links.values():
        _say(room, link, '{"type": "ready"}')
    assert t.table.phase == "play"
    hands = {s: list(h) for s, h in enumerate(t.table.game.hands)}
    top = 0
    for card, seat in sorted((c, s) for s, cards in hands.items() for c in cards):
        timers.advance(timers.now() + max(0.5, (card - top) * slow[seat]))
        _say(room, links[seat], '{"type": "play"}')
        top = card


def _class(levels: int) -> tuple[Room, ManualTimers, dict[int, FakeLink]]:
    room, timers, _, log = _room(size=3, bots="none")
    links: dict[int, FakeLink] = {}
    for i, name in enumerate(NAMES):
        link = FakeLink(log, f"10.0.0.{i + 1}")
        _say(
            room, link, json.dumps({"type": "join", "code": room.code, "name": name, "lang": "nl"})
        )
        assert link.pupil is not None and link.pupil.seat is not None
        links[link.pupil.seat] = link
    slow = {0: 0.10, 1: 0.20, 2: 0.31}
    for level in range(levels):
        _play_level(room, timers, links, slow)
        (t,) = room.tables
        assert t.table is not None and t.table.phase == "cleared"
        if level < levels - 1:
            _say(room, links[0], '{"type": "next_level"}')
    return room, timers, links


def _asked(room: Room, link: FakeLink) -> dict[str, Any]:
    before = len(link.frames)
    _say(room, link, '{"type": "own_clock"}')
    (frame,) = link.frames[before:]
    return frame


def _numbers(x: Any) -> list[float]:
    if isinstance(x, dict):
        return [n for v in x.values() for n in _numbers(v)]
    if isinstance(x, list):
        return [n for v in x for n in _numbers(v)]
    return [float(x)] if isinstance(x, (int, float)) and not isinstance(x, bool) else []


def test_a_pupil_gets_their_own_plays_and_no_other_pupils_waits() -> None:
    room, _, links = _class(levels=3)  # 1 + 2 + 3 cards each
    plays = roomdata.plays(room)
    for seat, link in links.items():
        assert link.pupil is not None
        frame = _asked(room, link)
        assert not list(CLASS_FRAME.iter_errors(frame)), frame
        own = classdata.waits(plays, link.pupil.name)
        assert frame["name"] == link.pupil.name
        assert len(frame["plays"]) == len(own) == 6
        assert [p["wait"] for p in frame["plays"]] == pytest.approx(own["wait"].tolist())
        assert [p["gap"] for p in frame["plays"]] == own["gap"].tolist()
        assert frame["cv"] is not None and frame["pace"] in ("quicker", "same", "slower")
        # no wait of another pupil is anywhere in the frame (the curve's medians aside,
        # which rest on three pupils: every band here does); whole numbers aside too, as
        # a gap or a band's edge may be one (the waits here are mostly fractions)
        medians = {round(b["wait"], 3) for b in frame["curve"]}
        assert all(b["pupils"] >= classdata.BAND_PUPILS for b in frame["curve"])
        theirs = plays[(plays["kind"] == "person") & (plays["name"] != link.pupil.name)]
        others = {round(w, 3) for w in theirs["wait"] if w != int(w)}
        others -= medians | {round(w, 3) for w in own["wait"]}
        assert others, "the other pupils waited other times than this one"
        assert not others & {round(n, 3) for n in _numbers(frame)}, seat


def test_the_pupil_asks_only_between_levels_and_their_page_knows_when() -> None:
    room, timers, links = _class(levels=1)
    anna = links[0]
    assert anna.pupil is not None
    assert room.info(anna.pupil)["own_clock"] is True  # cleared: between levels
    few = _asked(room, anna)
    assert len(few["plays"]) == 1 and few["cv"] is None and few["pace"] == ""
    assert few["need"] == classdata.CLOCK_MIN_PLAYS
    _say(room, anna, '{"type": "next_level"}')
    for link in links.values():
        _say(room, link, '{"type": "ready"}')
    assert room.info(anna.pupil)["own_clock"] is False  # a level runs: the cards come first
    sent = len(anna.frames)
    with pytest.raises(Refused) as refused:
        _say(room, anna, '{"type": "own_clock"}')
    assert refused.value.key == "clock_later" and len(anna.frames) == sent
    del timers


def test_as_the_lesson_ends_every_page_gets_its_clock_before_the_goodbye() -> None:
    room, _, links = _class(levels=2)
    room.end()
    for link in links.values():
        assert link.closed_with == "class_ended"
        last = link.frames[-1]
        assert last["type"] == "own_clock" and last["ended"] is True
        assert len(last["plays"]) == 3
        assert not list(CLASS_FRAME.iter_errors(last))


def _words(fig: Any) -> str:
    return " | ".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))


def test_the_notebook_draws_any_pupils_clock_and_the_class(tmp_path: Path) -> None:
    room, _, links = _class(levels=3)
    anna = links[0].pupil
    assert anna is not None
    fig = roomdata.clock(room, anna.id, lang="nl")
    fig.savefig(tmp_path / "clock.png")  # it draws
    text = " ".join(t.get_text() for t in fig.findobj(match=lambda a: hasattr(a, "get_text")))
    assert "Anna" in text and "6" in text  # the pupil, and the plays it rests on
    by_name = roomdata.clock(room, "chaima", lang="en")
    assert "Chaima" in " ".join(
        t.get_text() for t in by_name.findobj(lambda a: hasattr(a, "get_text"))
    )
    whole = roomdata.clock(room, None, lang="de")
    words = " ".join(t.get_text() for t in whole.findobj(lambda a: hasattr(a, "get_text")))
    assert "18" in words  # the class: three pupils, six plays each
    with pytest.raises(ValueError, match="no pupil"):
        roomdata.clock(room, "Nobody")
    path = roomdata.to_csv(room, tmp_path / "klas.csv", "nl")
    back = pd.read_csv(io.BytesIO(path.read_bytes()), sep=";", decimal=",", encoding="utf-8-sig")
    assert len(back) == 18 and set(back["naam"]) == set(NAMES)


def test_a_pupil_is_found_by_id_or_name() -> None:
    room, _, links = _class(levels=1)
    anna = links[0].pupil
    assert anna is not None
    assert roomdata.pupil_named(room, anna.id) is anna
    assert roomdata.pupil_named(room, " ANNA ") is anna
    assert roomdata.pupil_named(room, "Zed") is None


def test_a_new_game_keeps_the_plays_of_the_game_before() -> None:
    room, timers, links = _class(levels=2)  # 1 + 2 cards each
    (t,) = room.tables
    t.new_game()  # as after a game won or lost (between levels a pupil may not)
    assert t.games == 2 and len(t.earlier) == 1
    _play_level(room, timers, links, {0: 0.1, 1: 0.2, 2: 0.3})  # level 1 of game 2
    plays = roomdata.plays(room)
    assert list(plays.columns[:3]) == ["table", "game", "level"]
    assert plays.groupby("game").size().to_dict() == {1: 9, 2: 3}
    assert plays["game"].is_monotonic_increasing
    anna = _asked(room, links[0])
    assert len(anna["plays"]) == 4  # three of the first game, one of the second
    assert not list(CLASS_FRAME.iter_errors(anna))


def test_the_teachers_dashboard_shows_any_pupils_clock_and_the_class() -> None:
    room, _, links = _class(levels=3)
    anna = links[0].pupil
    assert anna is not None
    board = Board(room, lang="nl")
    assert board.state()["clock"] == {}  # none open
    board.receive({"type": "clock", "pupil": anna.id})
    shown = board.changes()["clock"]
    assert shown["name"] == "Anna" and len(shown["plays"]) == 6
    assert shown == _asked(room, links[0])  # the same as her own page gets
    assert not list(TEACHER_FRAME.iter_errors({"type": "update", "state": board.state()}))
    board.receive({"type": "clock", "pupil": ""})  # the class's
    whole = board.changes()["clock"]
    assert whole["name"] == "" and len(whole["plays"]) == 18
    assert not list(TEACHER_FRAME.iter_errors({"type": "update", "changes": {"clock": whole}}))
    # a pupil not in the class, or a pupil that is not a string: refused, nothing changes
    board.receive({"type": "clock", "pupil": "p99"})
    assert board.notice["key"] == "refused_no_pupil" and board.state()["clock"] == whole
    board.receive({"type": "clock", "pupil": 3})
    assert board.notice["key"] == "refused_bad_field" and board.state()["clock"] == whole
    board.receive({"type": "clock", "pupil": None})
    assert board.changes()["clock"] == {}


def test_a_page_asking_in_a_loop_gets_one_new_clock_a_second() -> None:
    room, timers, links = _class(levels=1)
    anna = links[0].pupil
    assert anna is not None
    first = ownclock.asked(room, anna, now=500.0)
    assert len(first["plays"]) == 1
    _say(room, links[0], '{"type": "next_level"}')
    _play_level(room, timers, links, {0: 0.1, 1: 0.2, 2: 0.3})  # two more cards each
    again = ownclock.asked(room, anna, now=500.0 + ownclock.ASK_S / 2)
    assert again == first  # asked again within a second: the frame it had
    later = ownclock.asked(room, anna, now=500.0 + ownclock.ASK_S)
    assert len(later["plays"]) == 3


def test_a_keepsake_that_fails_does_not_stop_the_end() -> None:
    room, _, links = _class(levels=1)

    def broken(room: Room, pupil: Any) -> dict[str, Any]:
        raise RuntimeError("broken")

    room.keepsakes.insert(0, broken)
    room.end()
    for link in links.values():
        assert link.closed_with == "class_ended"
        assert link.frames[-1]["type"] == "own_clock"


def test_the_clock_stays_closed_from_the_first_card_of_a_level_to_its_end() -> None:
    room, timers, links = _class(levels=1)
    (t,) = room.tables
    assert t.table is not None
    _say(room, links[0], '{"type": "next_level"}')
    anna = links[0].pupil
    assert anna is not None and room.clock_open(anna)  # dealt, no card yet: between levels
    for link in links.values():
        _say(room, link, '{"type": "ready"}')
    hands = {s: list(h) for s, h in enumerate(t.table.game.hands)}
    low = min(hands, key=lambda s: hands[s][0])
    wrong = next(s for s in hands if s != low and hands[s][0] > hands[low][0])
    timers.advance(timers.now() + 1.0)
    _say(room, links[wrong], '{"type": "play"}')  # a mistake: the level stops
    assert t.table.phase in ("stopped", "ready") and t.table.game.pile
    assert not room.clock_open(anna)  # hands on the table mid-level: the cards come first
    with pytest.raises(Refused) as later:
        _say(room, links[0], '{"type": "own_clock"}')
    assert (later.value.key, later.value.words) == ("clock_later", "class")
