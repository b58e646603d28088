"""A question to the whole class (issue 32): asked, answered on every page, revealed.

The room is driven as the server drives it (fake links, `ManualTimers`, every
message through `inbox.parse`); the journal is a real one in a temporary
folder, resumed by a new room. Privacy: what a page is sent of a question
(`Room.info`) holds its own answer only, and the counts only after the reveal.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom_harness import Client, Server  # noqa: E402
from test_class_resume import _kept_room, _resumed  # noqa: E402
from test_room import FakeLink  # noqa: E402

from mindwidget.classroom import questions as q_module  # noqa: E402
from mindwidget.classroom.inbox import parse  # noqa: E402
from mindwidget.classroom.journal import JournalError, read  # noqa: E402
from mindwidget.classroom.record import restore  # noqa: E402
from mindwidget.classroom.room import ManualTimers, Room  # noqa: E402
from mindwidget.refusal import Refused  # noqa: E402

QUESTION = {"en": "Will the class clear level 3?", "nl": "Haalt de klas level 3?"}
YES_NO = [{"en": "yes", "nl": "ja"}, {"en": "no", "nl": "nee"}]


def _say(room: Room, link: FakeLink, msg: dict[str, Any]) -> None:
    room.receive(link, parse(json.dumps(msg)))
    room.before_send()


def _class(room: Room, names: list[tuple[str, str]]) -> list[FakeLink]:
    log: list[Any] = []
    links = []
    for i, (name, lang) in enumerate(names):
        link = FakeLink(log, f"10.0.0.{i + 1}")
        _say(room, link, {"type": "join", "code": room.code, "name": name, "lang": lang})
        links.append(link)
    return links


def _room(size: int = 3) -> tuple[Room, ManualTimers]:
    timers = ManualTimers(start=100.0)
    return Room(timers, seed=3, size=size, lang="nl"), timers


def _state(room: Room) -> Any:
    """Everything of the room's questions that an answer could change."""
    return copy.deepcopy([(a.state, a.answer, a.answers) for a in room.questions.asked])


def test_a_question_reaches_every_page_in_its_pupils_language_and_is_counted() -> None:
    room, timers = _room()
    anna, bo, cem = _class(room, [("Anna", "nl"), ("Bo", "en"), ("Cem", "de")])
    q = room.ask(QUESTION, YES_NO, answer=0)
    assert q.id == 1 and q.state == "open" and q.text == QUESTION["nl"]
    seen = {link.pupil.name: room.info(link.pupil)["question"] for link in (anna, bo, cem)}
    assert seen["Anna"]["text"] == "Haalt de klas level 3?" and seen["Anna"]["choices"] == [
        "ja",
        "nee",
    ]
    assert seen["Bo"]["text"] == "Will the class clear level 3?"
    assert seen["Cem"]["text"] == QUESTION["nl"]  # no German given: the class's language
    assert all(v["mine"] is None and "counts" not in v and "answer" not in v for v in seen.values())

    timers.advance(103.0)
    _say(room, anna, {"type": "answer", "question": 1, "choice": 0})
    timers.advance(104.5)
    _say(room, bo, {"type": "answer", "question": 1, "choice": 1})
    timers.advance(105.0)
    _say(room, bo, {"type": "answer", "question": 1, "choice": 0})  # a change of mind
    assert q.counts() == {0: 2, 1: 0} and q.answered == 2
    frame = q.answers()
    assert list(frame.columns) == list(q_module.COLUMNS)
    bo_row = frame[frame["name"] == "Bo"].iloc[0]
    assert bo_row["choice"] == 0 and bo_row["choice_text"] == "ja" and bool(bo_row["right"])
    assert bo_row["seconds"] == pytest.approx(5.0) and bo_row["table"] == 1
    assert frame["question"].dtype == "int64" and frame["choice"].dtype == "int64"
    assert room.info(anna.pupil)["question"]["mine"] == 0
    assert room.info(cem.pupil)["question"]["mine"] is None
    shown = q.widget.view["answered_text"]
    assert shown == "2 van 3 leerlingen hebben geantwoord"
    (dua,) = _class(room, [("Dua", "en")])  # joins now: sees the open question at once
    assert room.info(dua.pupil)["question"]["text"] == QUESTION["en"]
    assert q.widget.view["answered_text"] == "2 van 4 leerlingen hebben geantwoord"


def test_a_page_gets_only_its_own_answer_and_the_counts_only_after_the_reveal() -> None:
    room, _ = _room()
    anna, bo, cem = _class(room, [("Anna", "nl"), ("Bo", "nl"), ("Cem", "nl")])
    room.ask("Hoeveel?", ["1", "2", "3"], answer=2)
    _say(room, anna, {"type": "answer", "question": 1, "choice": 0})
    _say(room, bo, {"type": "answer", "question": 1, "choice": 2})
    before = room.info(cem.pupil)["question"]
    assert set(before) == {"id", "text", "choices", "state", "held", "mine"}
    assert before["mine"] is None
    q = room.questions.get(1)
    room.questions.reveal(q.id)
    after = {link.pupil.name: room.info(link.pupil)["question"] for link in (anna, bo, cem)}
    assert after["Anna"]["mine"] == 0 and after["Bo"]["mine"] == 2 and after["Cem"]["mine"] is None
    assert all(v["counts"] == [1, 0, 1] and v["answer"] == 2 for v in after.values())
    # nothing in a page's class part names another pupil's choice
    text = json.dumps(room.info(cem.pupil))
    assert '"mine": 0' not in text and '"mine": 2' not in text


def test_bad_answers_are_refused_and_change_nothing() -> None:
    room, _ = _room()
    anna, bo = _class(room, [("Anna", "nl"), ("Bo", "nl")])
    with pytest.raises(Refused) as nothing_asked:  # nothing asked yet
        _say(room, anna, {"type": "answer", "question": 1, "choice": 0})
    assert nothing_asked.value.key == "question_closed"
    raise_cases = [
        ({"type": "answer", "question": 1, "choice": 3}, "bad_choice"),
        ({"type": "answer", "question": 1, "choice": -1}, "bad_choice"),
        ({"type": "answer", "question": 2, "choice": 0}, "question_closed"),
        ({"type": "answer", "question": 0, "choice": 0}, "question_closed"),
    ]
    question = room.ask("Welke?", ["a", "b", "c"])
    before = _state(room)
    for msg, key in raise_cases:
        with pytest.raises(Refused) as refused:
            _say(room, anna, msg)
        assert refused.value.key == key
    for bad in (
        '{"type": "answer", "question": "1", "choice": 0}',
        '{"type": "answer", "question": 1, "choice": 1.5}',
        '{"type": "answer", "question": 1, "choice": true}',
        '{"type": "answer", "question": 1}',
        '{"type": "answer", "question": 1, "choice": 0, "pupil": "p2"}',
    ):
        with pytest.raises(Refused) as refused:
            parse(bad)
        assert refused.value.key == "bad_message"
    assert _state(room) == before
    # a flood: the first few pass, the rest are refused and change nothing
    burst = int(q_module.ANSWER_BURST)
    for i in range(burst):
        _say(room, bo, {"type": "answer", "question": 1, "choice": i % 3})
    flood_state = _state(room)
    for i in range(burst, 40):
        if i % 3 == (burst - 1) % 3:
            continue  # the choice it holds: nothing to change
        with pytest.raises(Refused) as flood:
            _say(room, bo, {"type": "answer", "question": 1, "choice": i % 3})
        assert flood.value.key == "too_fast"
    assert _state(room) == flood_state
    question.close()
    closed = _state(room)
    with pytest.raises(Refused) as refused:
        _say(room, anna, {"type": "answer", "question": 1, "choice": 1})
    assert refused.value.key == "question_closed" and _state(room) == closed


def test_the_teachers_bad_question_says_what_is_allowed() -> None:
    room, _ = _room()
    with pytest.raises(ValueError, match="choices must be a list of 2 to 12"):
        room.ask("Welke?", ["alleen"])
    with pytest.raises(ValueError, match="choices must be a list"):
        room.ask("Welke?", "ab")
    with pytest.raises(ValueError, match="'fr' is not one"):
        room.ask({"fr": "Quoi?"}, ["a", "b"])
    with pytest.raises(ValueError, match="answer"):
        room.ask("Welke?", ["a", "b"], answer=2)
    with pytest.raises(ValueError, match="1 to 300 characters"):
        room.ask("", ["a", "b"])
    with pytest.raises(ValueError, match=r"\(301 characters\)"):
        room.ask("x" * 301, ["a", "b"])
    with pytest.raises(ValueError, match=r"choices\[1\]\['nl'\] must be a text"):
        room.ask("Welke?", ["a", {"nl": {"en": "b"}}])
    assert room.questions.asked == []


def test_a_question_waits_while_cards_are_in_play_at_the_pupils_table() -> None:
    room, _ = _room(size=2)
    anna, bo = _class(room, [("Anna", "nl"), ("Bo", "nl")])
    room.ask("Welke?", ["a", "b"])
    assert room.info(anna.pupil)["question"]["held"] is False  # hands on the table: shown
    for link in (anna, bo):
        _say(room, link, {"type": "ready"})
    t = room.tables[0]
    assert t.table is not None and t.table.phase == "play"
    assert room.info(anna.pupil)["question"]["held"] is True
    t.stop_play()
    assert room.info(anna.pupil)["question"]["held"] is False


def test_a_new_question_closes_the_open_one_and_room_answers_holds_all() -> None:
    room, _ = _room()
    empty = room.answers()  # no question yet: no rows, the same columns and kinds
    assert list(empty.columns) == list(q_module.COLUMNS) and len(empty) == 0
    assert empty["right"].dtype == "boolean" and empty["seconds"].dtype == "float64"
    (anna,) = _class(room, [("Anna", "nl")])
    first = room.ask("Eerste?", ["a", "b"], answer=1)
    _say(room, anna, {"type": "answer", "question": 1, "choice": 0})
    second = room.ask("Mening?", ["x", "y", "z"])
    assert first.state == "closed" and second.state == "open"
    _say(room, anna, {"type": "answer", "question": 2, "choice": 2})
    frame = room.answers()
    assert frame["question"].tolist() == [1, 2]
    assert frame["right"].tolist()[0] is False  # answered 0, the right one was 1
    assert frame["right"].iloc[1] is pd.NA
    room.end()  # the lesson ends: the open question closes with it
    assert second.state == "closed"


def test_questions_and_answers_survive_a_resume(tmp_path: Path) -> None:
    room, timers, keeper = _kept_room(tmp_path, size=3, lang="nl")
    anna, bo = _class(room, [("Anna", "nl"), ("Bo", "en")])
    first = room.ask(QUESTION, YES_NO, answer=0)
    timers.advance(timers.now() + 2.0)
    _say(room, anna, {"type": "answer", "question": 1, "choice": 1})
    first.reveal()
    room.ask("Open nog?", ["a", "b", "c"])
    _say(room, bo, {"type": "answer", "question": 2, "choice": 2})
    room.before_send()
    before = room.answers()
    keeper.stop(room)

    back, timers2, keeper2 = _resumed(tmp_path)
    pd.testing.assert_frame_equal(back.answers(), before)
    assert [a.state for a in back.questions.asked] == ["revealed", "open"]
    # the open question goes on: a pupil back with their token answers it
    link = FakeLink([], "10.0.0.9")
    _say(back, link, {"type": "rejoin", "token": anna.pupil.token})
    assert back.info(link.pupil)["question"]["text"] == "Open nog?"
    _say(back, link, {"type": "answer", "question": 2, "choice": 0})
    back.before_send()
    assert back.questions.get(2).counts() == [1, 0, 1]
    keeper2.stop(back)
    _, entries = read(keeper2.path)
    kinds = [e["kind"] for e in entries]
    assert kinds.count("question") == 2 and kinds.count("answer") == 3
    assert "question_state" in kinds


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "answer", "question": 5, "pupil": "p1", "name": "A", "table": 1, "choice": 0,
         "seconds": 1.0},
        {"kind": "answer", "question": 1, "pupil": "p1", "name": "A", "table": 1, "choice": 9,
         "seconds": 1.0},
        {"kind": "question", "question": 2, "text": "x", "choices": ["a"], "answer": None},
        {"kind": "question_state", "question": 1, "state": "gone", "answer": None},
        {"kind": "answer", "question": 1, "pupil": "p1", "name": "A", "table": 1, "choice": 0,
         "seconds": float("nan")},
    ],
)  # fmt: skip
def test_a_damaged_question_entry_is_a_journal_error(bad: dict[str, Any]) -> None:
    header = {"code": "1234", "teacher_token": "x" * 20, "port": None, "options": {}}
    first = {"kind": "question", "question": 1, "text": "Q?", "choices": ["a", "b"],
             "answer": None, "at": 1.0}  # fmt: skip
    assert restore("j", header, [first]).questions[0]["text"] == "Q?"
    with pytest.raises(JournalError):
        restore("j", header, [first, bad])


# ------------------------------------------------------------ the lesson's bets
def test_slider_bins_are_round_and_cover_every_number() -> None:
    from mindwidget.lesson.kit import bin_of, bins

    assert bins(100) == [(i * 10, i * 10 + 9) for i in range(9)] + [(90, 100)]
    assert bins(30) == [(0, 4), (5, 9), (10, 14), (15, 19), (20, 24), (25, 30)]
    assert len(bins(1000)) == 10 and bins(1000)[-1] == (900, 1000)
    for out_of in (1, 7, 30, 100, 1000, 12345):
        ranges = bins(out_of)
        assert len(ranges) <= 10 and ranges[0][0] == 0 and ranges[-1][1] == out_of
        covered = [n for lo, hi in ranges for n in range(lo, hi + 1)]
        assert covered == list(range(out_of + 1))  # each number in exactly one range
        assert all(lo <= n <= hi for n in (0, out_of) for lo, hi in [ranges[bin_of(n, ranges)]])
    assert bin_of(45.5, bins(100)) == 4 and bin_of(100, bins(100)) == 9


def test_a_bet_goes_to_every_pupil_and_its_answer_button_reveals_the_class() -> None:
    from mindwidget import lesson
    from mindwidget.lesson.kit import Bet, everyone

    room, timers = _room()
    anna, bo = _class(room, [("Anna", "nl"), ("Bo", "de")])
    plain = lesson.bet_swap("nl", runs=1, levels=20)  # no class running: as before
    assert plain.question is None
    answer = lesson.Answer("45%", lang="nl")
    question = everyone("03-probability.bet_swap")
    bet = Bet(question, answer, out_of=100, lang="nl", room=room, right=45.5)
    assert bet.question is None and room.questions.asked == []  # Run All asks nobody
    assert bet.ask_button.description == "Vraag het de klas"
    bet.ask_button.click()
    seen = room.info(bo.pupil)["question"]
    assert seen["text"] == lesson.text("03-probability.bet_swap", "de")  # Bo's language
    assert seen["choices"][0] == "0–9" and seen["choices"][-1] == "90–100"
    assert bet._class_box is not None and bet._class_box.children == (bet.question.widget,)
    _say(room, anna, {"type": "answer", "question": 1, "choice": 4})
    _say(room, bo, {"type": "answer", "question": 1, "choice": 2})
    assert bet.question.widget.view["answered"] == 1  # the second: a moment later, at most
    timers.advance(timers.now() + 0.25)  # 4 updates a second, on the server's timers
    view = bet.question.widget.view
    assert view["answered"] == 2 and "counts" not in view  # no spread before the answer
    answer._button.click()  # the teacher shows the answer: the class's spread first
    timers.advance(timers.now() + 0.25)
    view = bet.question.widget.view
    assert bet.question.state == "revealed" and view["counts"][4] == 1 and view["answer"] == 4
    assert view["answer_text"] == "Het antwoord: 40–49"
    assert room.info(anna.pupil)["question"]["mine"] == 4
    assert room.info(bo.pupil)["question"]["answer"] == 4


def test_every_class_part_with_a_question_is_a_frame_the_wire_declares() -> None:
    schema = json.loads((Path(__file__).resolve().parents[2] / "js/wire.schema.json").read_text())
    frame = Draft202012Validator({"$ref": "#/$defs/ClassFrame", "$defs": schema["$defs"]})
    message = Draft202012Validator({"$ref": "#/$defs/PupilMessage", "$defs": schema["$defs"]})
    room, _ = _room()
    anna, bo = _class(room, [("Anna", "nl"), ("Bo", "en")])
    q = room.ask(QUESTION, YES_NO)
    answer = {"type": "answer", "question": 1, "choice": 1}
    assert message.is_valid(answer) and not message.is_valid(answer | {"choice": "1"})
    _say(room, anna, answer)
    parts = [room.info(anna.pupil), room.info(bo.pupil)]
    q.reveal(1)
    parts += [room.info(anna.pupil), room.info(bo.pupil)]
    for part in parts:
        errors = list(frame.iter_errors({"type": "update", "class": part}))
        assert not errors, errors[0].message
    assert parts[-1]["question"]["counts"] == [0, 1] and parts[-1]["question"]["answer"] == 1


def test_over_the_sockets_no_page_receives_another_pupils_answer() -> None:
    """Every frame the server writes to each of four pages (three at one table, one in
    the waiting room) while a question is asked, answered, changed, refused and
    revealed: its own choice only, the counts only after the reveal, refusals said."""
    server = Server(size=3, seed=4, lang="nl", grace=30.0, data=False)
    langs = ("nl", "en", "de", "nl")
    clients = [Client(server, lang) for lang in langs]
    try:
        for c, name, lang in zip(clients, ["Anna", "Bo", "Cem", "Dua"], langs, strict=True):
            assert c.join(server.room.code, name, lang)["type"] == "welcome"
        room = server.room
        assert room is not None
        q = server.call(lambda: room.ask(QUESTION, YES_NO, answer=1))
        for c in clients:
            c.wait(lambda x: (x.info.get("question") or {}).get("id") == 1, "the question")
        picks = {0: 1, 1: 0, 2: 1}  # Dua (3) does not answer
        for i, choice in picks.items():
            clients[i].send({"type": "answer", "question": 1, "choice": choice})
        clients[1].send({"type": "answer", "question": 1, "choice": 1})  # Bo changes
        picks[1] = 1
        n = len(clients[3].received)
        clients[3].send({"type": "answer", "question": 1, "choice": 7})
        refused = clients[3].wait_msg("notice", after=n)
        assert refused["key"] == "bad_choice" and "2" in refused["text"]
        for i, c in enumerate(clients[:3]):
            c.wait(lambda x, i=i: x.info["question"]["mine"] == picks[i], f"{i}'s own answer")
        assert server.call(q.counts) == {0: 0, 1: 3}
        server.call(q.reveal)
        for c in clients:
            c.wait(lambda x: x.info["question"]["state"] == "revealed", "the reveal")
        mine = {0: {1}, 1: {0, 1}, 2: {1}, 3: set()}
        for i, c in enumerate(clients):
            for raw, msg in zip(c.raw, c.received, strict=True):
                part = msg.get("class") if msg.get("type") == "update" else None
                view = (part or {}).get("question")
                if view:
                    assert view["mine"] is None or view["mine"] in mine[i], (i, view)
                    if view["state"] != "revealed":
                        assert "counts" not in view and "answer" not in view, (i, view)
                for p in room.pupils.values():
                    if p.name != c.info["name"]:
                        assert p.token not in raw and f'"{p.id}"' not in raw, (i, raw)
            assert c.info["question"]["counts"] == [0, 3]
        assert clients[2].info["question"]["text"] == QUESTION["nl"]  # no German: the class's
        assert clients[1].info["question"]["choices"] == ["yes", "no"]
    finally:
        for c in clients:
            c.close()
        server.stop()


def test_the_bets_right_answers_are_what_their_answers_say(monkeypatch: pytest.MonkeyPatch) -> None:
    """The right choice a bet sends the pupils is computed, and agrees with the words the
    notebook's answer shows (some of which are fixed texts: "near the fast one")."""
    from mindwidget.lesson import kit, nb03_probability, nb05_cooperation

    room, _ = _room()
    monkeypatch.setattr(kit, "running_class", lambda: room)
    meet = nb05_cooperation.tempos_meet("nl").ask()
    assert meet.choices[meet.answer] == "bij de snelle"  # meet_answer: "van de **snelle**"
    person = nb05_cooperation.bet_person("nl", games=500, adaptive_games=8).ask()
    assert person.answer == 0  # person_answer: "De **bots** bewegen"
    watch = nb03_probability.bet_watch_bots("nl")
    assert watch.ask().choices[watch.question.answer] in watch.answer.html  # "Nee. De bots ..."
    swap = nb03_probability.bet_swap("nl", runs=1, levels=20).ask()
    assert swap.choices[swap.answer] == "20–29"  # p_wrong_order(40, 45): 27,7%


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["question", "choice", "pupil", "answer", "t"]), _JUNK, max_size=4
    )
)
def test_any_answer_message_is_refused_or_counted_and_a_refusal_changes_nothing(
    fields: dict[str, Any],
) -> None:
    room, _ = _room()
    (anna,) = _class(room, [("Anna", "nl")])
    room.ask("Welke?", ["a", "b", "c"])
    room.questions.reveal(1)  # question 1 revealed (closed), question 2 open
    room.ask("Nog een?", ["x", "y"])
    before = _state(room)
    try:
        text = json.dumps({"type": "answer", **fields})
    except ValueError:
        return  # not JSON at all (a page cannot send it)
    try:
        room.receive(anna, parse(text))
    except Refused as refused:
        assert refused.key in ("bad_message", "question_closed", "bad_choice")
        assert _state(room) == before
        return
    ok = fields.get("question") == 2 and fields.get("choice") in (0, 1)
    assert ok and set(fields) == {"question", "choice"}
    assert room.questions.get(2).counts()[fields["choice"]] == 1
