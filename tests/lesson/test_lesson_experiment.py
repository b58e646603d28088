"""Notebook 07-experiment (mindwidget/lesson/nb07_experiment.py) on a real class, a
class journal and the demo data set: it says which it shows, speaks the lesson's
language, and the class's clocks and history come from the running `Classroom`."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from pathlib import Path

import ipywidgets
import pytest
from classroom_harness import Client, Server, all_phase, ready_all
from english_words import english_outputs
from matplotlib.figure import Figure
from test_classroom import play_level_well, seated

from mindwidget import classmodel as cm
from mindwidget import lesson
from mindwidget.i18n import LANGS
from mindwidget.lesson import nb07_experiment as nb

STEPS = (
    nb.about_data,
    nb.spread_figure,
    nb.spread_table,
    nb.swap_formula,
    nb.swap_check,
    nb.class_clocks,
    nb.team_prediction,
    nb.class_predictions,
    nb.lesson_history,
)


def _shown(out: object) -> str:
    if isinstance(out, Figure):
        return " ".join(t.get_text() for t in out.findobj(lambda a: hasattr(a, "get_text")))
    assert isinstance(out, ipywidgets.HTML), out
    return out.value


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[Client], Path]]:
    """A class of two pupils at a table of two that cleared two levels, with its journal."""
    data = tmp_path_factory.mktemp("journals")
    server = Server(size=2, seed=3, bots="scalar", data=str(data))
    clients = seated(server, ["Anna", "Bo"])
    all_phase(clients, "ready")
    for level in (1, 2):
        ready_all(clients)
        play_level_well(clients)
        all_phase(clients, "cleared")
        if level == 1:
            clients[0].send({"type": "next_level"})
            all_phase(clients, "ready")
    yield server, clients, data
    for c in clients:
        c.close()
    server.stop()


def test_the_running_class_gives_its_clocks_history_and_its_own_data(
    played: tuple[Server, list[Client], Path],
) -> None:
    server, _, data = played
    room = server.room
    assert room is not None
    clocks = server.call(room.clocks)
    plays = server.call(room.plays)
    people = plays[(plays["kind"] == "person") & (plays["gap"] >= 1)]
    assert set(clocks) == {"Anna", "Bo"}
    assert (
        clocks.table().set_index("name")["plays"].to_dict()
        == people.groupby("name").size().to_dict()
    )
    assert clocks.table()["small"].all()  # a few plays each: small data, and it says so
    history = server.call(room.history)
    assert history["code"].tolist() == [room.code] and history["today"].tolist() == [True]
    assert history["plays"].iloc[0] == len(people) and history["level_max"].iloc[0] == 2
    # the notebook on the class this kernel serves ...
    mine = server.call(lesson.experiment_class, "nl", room)
    assert not mine.demo and mine.code == room.code and len(mine.plays()) == len(plays)
    # ... and in another kernel: the latest lesson in the journals (the class 06 ran)
    assert lesson.experiment_class("nl", data=data, code="0").demo  # no class 0 there
    assert lesson.experiment_class("nl", data=data, code=room.code).code == room.code
    kept = lesson.experiment_class("nl", data=data)
    assert not kept.demo and kept.code == room.code
    assert len(cm._people(kept.plays())) == len(people)
    said = nb.about_data(kept, "nl").value
    assert room.code in said and dt.date.today().isoformat() in said and "demo" not in said.lower()


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_of_the_notebook_speaks_its_language_on_class_and_demo(
    played: tuple[Server, list[Client], Path], lang: str
) -> None:
    _, _, data = played
    for source in (
        lesson.experiment_class(lang, data=data),
        lesson.experiment_class(lang, demo=True),
    ):
        for step in STEPS:
            shown = _shown(step(source, lang))
            if lang != "en":
                found = english_outputs(
                    [{"output_type": "display_data", "data": {"text/html": shown}}]
                )
                assert not found, (step.__name__, found)
        about = nb.about_data(source, lang).value
        assert (nb.text("whose_demo", lang) if source.demo else "") in _shown(
            nb.spread_figure(source, lang)
        )
        assert ("Demo" in about or "demo" in about) == source.demo


def test_a_notebook_without_any_class_shows_the_demo_and_says_so(tmp_path: Path) -> None:
    data = lesson.experiment_class("nl", data=tmp_path)  # an empty data folder
    assert data.demo
    said = nb.about_data(data, "nl").value
    assert "Demo-gegevensset" in said and "gesimuleerde leerlingen" in said
    # every number it shows is the data's: the pupils and plays it rests on
    assert f"{cm.lesson_summary(data.plays(), data.results())['plays']} zetten" in said


def test_the_swap_formula_shows_the_classes_own_numbers_in_dutch() -> None:
    data = cm.demo_class()
    spread = cm.class_spread(data.plays())
    from mindwidget.sim.prob import swap_chance

    s = swap_chance(40, 45, spread.cv, spread.seconds_per_step)
    shown = nb.swap_formula(data, "nl").value
    assert lesson.percent(s.p, "nl") in shown  # a decimal comma, the model's number
    assert f"Φ({lesson.number(s.z, 'nl', 2).replace('-', '−')})" in shown


def test_the_class_predictions_show_answers_when_the_class_has_them() -> None:
    import pandas as pd

    data = cm.demo_class(pupils=3)
    assert nb.text("no_answers", "nl")[:20] in nb.class_predictions(data, "nl").value
    data.answers = pd.DataFrame(
        [
            {
                "question": 1,
                "text": "Hoe vaak wint een team van drie?",
                "pupil": "p1",
                "name": "A",
                "table": 1,
                "choice": 1,
                "choice_text": "30%",
                "right": True,
                "seconds": 3.0,
            },
            {
                "question": 1,
                "text": "Hoe vaak wint een team van drie?",
                "pupil": "p2",
                "name": "<b>B",
                "table": 1,
                "choice": 0,
                "choice_text": "10%",
                "right": False,
                "seconds": 5.0,
            },
        ]
    )
    shown = nb.class_predictions(data, "nl").value
    assert "Hoe vaak wint een team van drie?" in shown and "50%" in shown and "0,5" in shown
    assert "30% ✓" in shown and "10% ✗" in shown  # who guessed what
    assert "&lt;b&gt;B" in shown and "<b>B" not in shown  # a nickname is text, not HTML


def test_every_number_in_the_notebooks_text_is_the_codes() -> None:
    """The prose of 07 holds no figure of its own: each number in it is a section or a
    notebook's number, or the constant of the code that it names."""
    import re

    from mindwidget.bots import TEMPOS
    from mindwidget.classroom.journal import KEEP_DAYS
    from mindwidget.sim import Z95

    bound = {
        str(nb.A): "the swap question's lower card",
        str(nb.B): "its higher card",
        str(cm.CLOSE): "how far apart a close pair lies",
        str(KEEP_DAYS): "days a journal is kept",
        "95": "the Wilson interval's level",
    }
    assert round(100 * (1 - math.erfc(Z95 / math.sqrt(2)))) == 95  # two-sided coverage
    assert TEMPOS["people"] == 1.0  # "tempo 1 = people elsewhere"
    for lang in LANGS:
        texts = lesson.texts(lang)["07-experiment"]
        for key, value in texts.items():
            value = "\n".join(value) if isinstance(value, list) else value
            for found in re.findall(r"\d+(?:[.,]\d+)?", value):
                if key.endswith("_title") and re.match(rf"## {found}\. ", value):
                    continue  # the section's own number
                if found in ("01", "03", "06", "07") or found in bound:
                    continue  # a notebook's name, or a constant of the code
                allowed = {("predict_text", "0"), ("clocks_text", "1"), ("teacher_check", "1")}
                allowed |= {("talk", "5")}  # a question to the class: "fitted to 5 plays?"
                assert (key, found) in allowed, (lang, key, found)
        # each bound number is said where the code uses it
        check = texts["check_text"]
        assert f"{cm.CLOSE}" in check and f"{nb.A} " in check and f"{nb.B} " in check
        assert f"{KEEP_DAYS} " in texts["teacher_data"]
