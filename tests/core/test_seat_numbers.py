"""Seats a pupil reads are counted from 1 (issue 19).

Code counts seats from 0 (``hands[0]``, ``player=0``); every word a pupil
reads counts them from 1: "Speler 1", "Bot 2", "Jij (speler 1)". The locale
placeholder ``{player}`` takes the seat index and shows it plus one
(`mindwidget.i18n.seat_number`, ``js/i18n.js``). These tests fail on any
pupil-facing string that numbers a seat from 0.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mindwidget import Game, Scenario, plot_trace
from mindwidget.bots.runner import run_game
from mindwidget.i18n import LANGS, messages, seat_number, translate
from mindwidget.plots import plot_timing

ROOT = Path(__file__).resolve().parents[2]
#: a seat named with the number 0, in any of the three languages
SEAT_ZERO = re.compile(
    r"\b(players?|spelers?|spieler|bots?|seats?|plaats|platz|sitz)\s+0\b(?![.,]\d)", re.I
)


def zero_seats(text: str) -> list[str]:
    return [m.group(0) for m in SEAT_ZERO.finditer(text)]


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def test_the_pattern_catches_seat_zero_in_every_language_and_nothing_else() -> None:
    for bad in ("Speler 0 legt 4.", "player 0: 11 26", "Spieler 0 hält", "Bot 0", "Plaats 0"):
        assert zero_seats(bad), bad
    for fine in ("Speler 1 legt 4.", "Bot 2", "level 10", "0 spelers? nee", "speler 0,5 s"):
        assert not zero_seats(fine), fine


def test_a_seat_index_is_shown_counted_from_1_in_python() -> None:
    assert seat_number(0) == 1 and seat_number(3) == 4
    assert seat_number("Jij") == "Jij" and seat_number(True) is True
    for lang in LANGS:
        assert translate("bot", lang, player=0) == "Bot 1"
        assert translate("scenario_player", lang, player=1).endswith(" 2")
        assert "1" in translate("you_seat", lang, player=0)
        # every string with a seat in it says 1 for seat index 0
        for key, text in messages(lang).items():
            if "{player}" in text:
                said = translate(key, lang, player=0, card=5, lowest=3, n=2)
                assert " 1" in said and not zero_seats(said), (lang, key, said)


@pytest.mark.parametrize(
    "path",
    [
        *sorted((ROOT / "mindwidget" / "locales").glob("*.json")),
        *sorted((ROOT / "mindwidget" / "locales" / "lesson").glob("*.json")),
        *sorted((ROOT / "mindwidget" / "scenarios").glob("*.json")),
    ],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_no_locale_string_or_scenario_text_numbers_a_seat_from_0(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    if path.parent.name == "scenarios" and path.name != "_sources.json":
        data = {k: v for k, v in data.items() if k in ("title", "intro", "steps")}
        steps = [
            {k: v for k, v in s.items() if k in ("say", "rule", "tip")} for s in data.pop("steps")
        ]
        data["steps"] = steps
    found = [(s[:80], zero_seats(s)) for s in strings(data) if zero_seats(s)]
    assert not found


@pytest.mark.parametrize(
    "path",
    [
        *sorted((ROOT / "notebooks").glob("[end][nle]/*.ipynb")),
        *sorted((ROOT / "docs" / "rules-card").glob("*.html")),
        *sorted((ROOT / "docs").glob("teaching*.md")),
    ],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_no_notebook_text_rules_card_or_guide_numbers_a_seat_from_0(path: Path) -> None:
    text = path.read_text("utf-8")
    if path.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert not zero_seats(text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_scenario_board_text_and_printed_table_counts_seats_from_1(lang: str) -> None:
    for name in Scenario.names():
        s = Scenario.load(name, lang=lang)
        for k in range(len(s) + 1):
            s.goto(k)
            point = s.point
            shown = [repr(s), s.text, *(([point["text"]]) if point else [])]
            if s.refusal_text:
                shown.append(s.refusal_text)
            for text in shown:
                assert not zero_seats(text), (name, k, zero_seats(text))
        # the printed table names seat index 0 "player 1" in this language
        assert translate("game_player", lang, player=0) in repr(s)


@pytest.mark.parametrize("lang", LANGS)
def test_plot_legends_count_seats_from_1(lang: str) -> None:
    g = run_game(Game(players=3, seed=1), "human", seed=1)
    fig = plot_trace(g, lang=lang)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert translate("plot_player", lang, player=0) in legend
    assert not any(zero_seats(t) for t in legend)
    ax = plot_timing(g, 0, lang=lang, you=None, bots=True).axes[0]
    labels = [ax.get_title(), *(t.get_text() for t in ax.get_legend().get_texts())]
    assert "Bot 1" in labels[0] and not any(zero_seats(t) for t in labels)


def test_take_over_keeps_the_seat_number_the_board_showed() -> None:
    s = Scenario.load("mistake", lang="nl").goto(2)
    board = s.text  # "Speler 1 legt de 11."
    assert board.startswith("Speler 1")
    g = s.branch()
    assert g.lang == "nl"
    assert "Speler 1:" in repr(g) and not zero_seats(repr(g))


@pytest.mark.parametrize("lang", LANGS)
def test_plot_trace_can_name_seats_as_the_widget_does(lang: str) -> None:
    g = run_game(Game(players=3, seed=1), "human", seed=1)
    legend = plot_trace(g, lang=lang, you=0, bots=True).axes[0].get_legend()
    labels = [t.get_text() for t in legend.get_texts()]
    assert translate("you_seat", lang, player=0) in labels and "Bot 2" in labels
    watch = plot_trace(g, lang=lang, bots=True).axes[0].get_legend()
    assert "Bot 1" in [t.get_text() for t in watch.get_texts()]
    with pytest.raises(ValueError, match="you must be a seat from 0 to 2"):
        plot_trace(g, you=3)


def test_a_refusal_in_a_lesson_cell_speaks_the_lessons_language() -> None:
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    from mindwidget import lesson

    shell = InteractiveShell.instance()
    try:
        lesson.refusals_in("nl")
        shell.run_cell("from mindwidget import Game\ng = Game.from_hands([[10], [30]])\ng.play(0)")
        with capture_output() as out:
            shell.run_cell("g.play(0)")  # seat index 0 has no card left
        assert out.stdout.strip() == (
            "Het spel weigert: Speler 1 heeft geen kaarten meer om te leggen."
        ), out.stdout
        assert "Traceback" not in out.stdout + out.stderr
    finally:
        shell.set_custom_exc((), None)
        InteractiveShell.clear_instance()
