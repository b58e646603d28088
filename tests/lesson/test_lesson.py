"""mindwidget.lesson: the building blocks of the lesson notebooks.

An answer stays hidden until asked for; nothing raises when a teacher follows
the text, whatever the class pressed before; every control speaks the
notebook's language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from mindwidget import Game, MindWidget, Scenario, lesson
from mindwidget.i18n import LANGS, translate
from mindwidget.rules import Rules
from mindwidget.view import phase


# ------------------------------------------------------------------ answers
def test_an_answer_is_hidden_until_its_button_is_pressed() -> None:
    a = lesson.Answer("The 45 goes first in **27.7%**.", lang="nl")
    button, body = a.children
    assert not a.shown and body.layout.display == "none"
    assert button.description == "Toon het antwoord"
    assert "<b>27.7%</b>" in a.html and "27.7%" in body.value
    button.click()  # as the browser's click does
    assert a.shown and body.layout.display != "none"
    assert button.description == "Verberg het antwoord"
    button.click()
    assert not a.shown and button.description == "Toon het antwoord"


def test_an_answer_escapes_text_and_embeds_figures() -> None:
    fig = Figure()
    fig.add_subplot().plot([0, 1])
    a = lesson.Answer("<script>x</script>", fig)
    assert "<script>" not in a.html and "&lt;script&gt;" in a.html
    assert "data:image/png;base64," in a.html


def test_a_bet_holds_its_answer_hidden_after_run_all() -> None:
    bet = lesson.bet_watch_bots("de")
    assert not bet.answer.shown
    assert "Level 10 von 10" in bet.answer.html  # computed already, seed 7
    assert bet.guess is not None and bet.guess.value is None  # nobody has bet yet
    assert list(bet.guess.options) == ["Ja", "Nein"]


def test_bet_team_sizes_gives_percentages_and_the_margin() -> None:
    bet = lesson.bet_team_sizes("en", games=2000)
    assert "4 players" in bet.answer.html and "%" in bet.answer.html
    assert bet.guess is not None and bet.guess.max == 100


# ------------------------------------------------------- 01: never raises
def test_next_moves_presses_ready_only_when_the_table_waits_for_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    w = lesson.class_view("en")
    assert phase(w.game) == "ready"
    lesson.next_moves(w, 2)  # the class has not pressed Ready
    out = capsys.readouterr().out
    assert out.startswith("Ready: hands off the table.")
    assert out.count("played") == 2 and len(w.game.pile) + len(w.game.discards) >= 2

    w2 = lesson.class_view("en")
    w2.ready()  # the class pressed Ready in the widget first
    lesson.next_moves(w2, 2)
    out = capsys.readouterr().out
    assert "Ready" not in out and out.count("played") == 2


def test_next_moves_never_raises_up_to_the_end_of_the_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    w = lesson.class_view("nl")
    for _ in range(12):
        lesson.next_moves(w, 2)
    out = capsys.readouterr().out
    assert phase(w.game) in ("cleared", "won", "lost")
    assert out.rstrip().endswith(
        ("druk in het spel op Volgend level.", "gewonnen.", "het laatste leven is op.")
    )
    lesson.next_moves(w, 1)  # still nothing raises
    assert capsys.readouterr().out.strip()


def test_next_moves_after_a_stop_presses_ready_again(capsys: pytest.CaptureFixture[str]) -> None:
    w = lesson.play("en", seed=1, bots="scalar")
    w.ready()
    w.stop()
    assert phase(w.game) == "stopped"
    w.mode = "step"
    lesson.next_moves(w, 1)
    # Ready was pressed after the stop, then a bot played (with this deal the
    # card is a mistake, which puts the hands back on the table: so the phase
    # alone cannot show the Ready)
    kinds = [e.type for e in w.game.level_events]
    assert "ready" in kinds[kinds.index("stopped") :]
    out = capsys.readouterr().out
    assert out.startswith("Ready") and "played" in out


def test_the_trace_before_anything_was_played_is_a_sentence_not_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    w = lesson.play("de", seed=1)
    assert lesson.trace_of(w) is None
    assert "noch keine Karte" in capsys.readouterr().out
    w.ready()
    # the deal is 18 (the person, who waits here) / 73 / 98: the bot with 73 holds
    # back while a lower card is likely still out (issue 21) and plays after ~70 s
    w.advance(120)
    assert isinstance(lesson.trace_of(w), Figure)
    assert lesson.your_tempo(lesson.play("en")) is None
    assert "No cards played yet" in capsys.readouterr().out


def test_the_play_table_has_the_widgets_human_like_bots_and_a_tempo() -> None:
    w = lesson.play("en")
    assert [type(b).__name__ for p, b in enumerate(w.table.bots) if p != 0] == [
        "HumanTimer",
        "HumanTimer",
    ]
    w.tempo = "slow"  # what the teacher note in 01-play tells the teacher to run
    assert w.table.tempo == 1.5


def test_the_inner_clock_says_when_too_few_cards_were_played_then_draws() -> None:
    game = Game.from_hands([[10, 20, 30, 40], [90], [95]])
    w = MindWidget(game=game, seat=0, bots="scalar", mode="step", lang="de")
    clock = lesson.inner_clock(w)  # nothing played yet: a sentence, no error
    assert clock.figure is None and "erst 0 deiner eigenen Karten" in clock.value
    w.ready()
    for seconds in (2.0, 3.5):
        w.advance(seconds)
        w.play()
    clock = lesson.inner_clock(w)
    assert clock.figure is None and "erst 2 deiner eigenen Karten" in clock.value
    w.advance(2.5)
    w.play()
    clock = lesson.inner_clock(w)
    assert isinstance(clock.figure, Figure) and "data:image/png;base64," in clock.value
    assert clock.sentence.startswith("Deine innere Uhr, aus **3** deiner Karten")
    assert "<b>3</b>" in clock.value and "{" not in clock.sentence
    watch = lesson.inner_clock(lesson.watch("en"))
    assert watch.figure is None and "Nobody plays at this table" in watch.value


# ------------------------------------------------------------- 02: rules
def test_the_rules_notebook_shows_every_story_of_the_library_but_one() -> None:
    """Each scenario is a section of 02-rules or in one of its menus; cap_stars
    only repeats cap_lives's rule (the box is full)."""
    cells = (Path(__file__).resolve().parents[2] / "notebooks/src/02-rules.cells").read_text()
    shown = set(re.findall(r'lesson\.scenario\("(\w+)"', cells))
    shown |= set(lesson.AT_THE_TABLE) | set(lesson.BLIND)
    assert "lesson.AT_THE_TABLE" in cells and "lesson.BLIND" in cells
    assert set(Scenario.names()) - shown == {"cap_stars"}
    assert shown <= set(Scenario.names())


def test_a_scenario_is_big_and_speaks_the_language() -> None:
    p = lesson.scenario("mistake", "nl")
    assert p.lang == "nl" and p.board.lang == "nl"
    assert p.board.size == "projector"
    assert p.scenario.position == 0


def test_a_scenario_keeps_its_projector_layout_when_someone_takes_over() -> None:
    p = lesson.scenario("mistake", "en")
    style = p.children[0]
    assert "mw-lesson-scenario" in p._dom_classes and "<style>" in style.value
    assert p.children[1] is p.board
    p.goto(2)
    live = p.take_over()
    assert p.children == (style, p.board, live)
    p.leave()
    assert p.children == (style, p.board)


def test_tables_and_bets_are_projector_sized() -> None:
    assert lesson.play("nl").size == "projector"
    assert lesson.play("nl", size="normal").size == "normal"
    assert lesson.watch("de").size == "projector"
    bet = lesson.bet_watch_bots("en")
    assert "mw-lesson-big" in bet._dom_classes and "font-size: 22px" in bet.children[0].value


def test_readable_enlarges_text_and_moves_a_covering_label_aside() -> None:
    fig = Figure()
    ax = fig.add_subplot()
    ax.set_xlim(0, 20)
    ax.set_ylim(0, 100)
    for t, card in ((18.0, 75), (18.05, 78), (5.0, 28)):
        ax.annotate(str(card), (t, card), xytext=(7, 3), textcoords="offset points", fontsize=8)
    ax.plot([0, 1], [0, 1], label="a")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    lesson.readable(fig)
    notes = {n.get_text(): n for n in ax.texts}
    assert notes["78"].get_horizontalalignment() == "right"  # beside 75, moved left
    assert notes["75"].get_horizontalalignment() == "left"
    assert notes["28"].get_horizontalalignment() == "left"
    assert min(n.get_fontsize() for n in notes.values()) >= 13
    legend = ax.get_legend()
    assert legend is not None and [t.get_text() for t in legend.get_texts()] == ["a"]


def test_the_common_mistakes_menu_shows_one_scenario_at_a_time() -> None:
    box = lesson.scenario_menu(lesson.COMMON_MISTAKES, "de")
    menu, shown = box.children
    assert len(lesson.COMMON_MISTAKES) == 6 and len(menu.options) == 6
    assert shown is box.players[0]
    menu.value = 3
    assert box.children[1] is box.players[3]


def test_the_setup_table_comes_from_the_rules() -> None:
    html = lesson.setup_table("de").value
    for n in (2, 3, 4):
        r = Rules(players=n)
        assert f">{r.n_levels}</td>" in html and f">{r.start_lives}</td>" in html
    assert "Wurfsterne" in html and "Belohnungen" in html


# ------------------------------------------------------ 03 and 05: numbers
@pytest.mark.parametrize(
    ("lang", "x", "expected"),
    [("en", 0.455, "45.5%"), ("nl", 0.455, "45,5%"), ("de", 0.455, "45,5\u202f%")],
)
def test_percentages_are_written_as_each_language_writes_them(
    lang: str, x: float, expected: str
) -> None:
    assert lesson.percent(x, lang) == expected
    assert lesson.number(10_000, lang) == ("10,000" if lang == "en" else "10.000")


def test_the_noise_slider_is_named_in_words_and_updates_its_answer() -> None:
    box = lesson.noise_slider("en", levels=200, games=300)
    assert box.label.value == "How much each player's clock wobbles:"
    assert box.slider.description == ""  # the words stand above the track, not beside it
    assert box.slider.label == "14%" and not box.slider.continuous_update
    before = box.out.value
    box.slider.value = 0.07
    assert box.out.value != before and "%" in box.out.value
    box.slider.value = 0.14
    assert box.out.value == before  # an answer once given is kept


def test_the_noise_sliders_races_agree_with_the_exact_chance() -> None:
    from mindwidget.bots import ScalarTimer
    from mindwidget.lesson.nb03_probability import _swapped, swap_share
    from mindwidget.sim.prob import p_wrong_order

    bot = ScalarTimer(cv=0.2)
    exact = p_wrong_order(40, 45, bot=bot)
    assert swap_share(bot, 20_000) == pytest.approx(exact, abs=0.01)
    played = sum(_swapped(i, bot) for i in range(1500)) / 1500
    assert played == pytest.approx(exact, abs=0.03)  # the same race, played level by level


def test_the_sandbox_charts_the_level_reached_in_percentages() -> None:
    sentence, fig = lesson.sandbox_result("en", 3, 0.14, 0.3, "habit_never", 500)
    assert sentence.startswith("The team won **")
    ax = fig.axes[0]
    assert ax.get_xlabel() == "level reached"
    labels = [ax.yaxis.get_major_formatter()(y, 0) for y in ax.get_yticks()]
    assert all(label.endswith("%") for label in labels)


def test_bet_person_names_the_careful_person_and_the_bots() -> None:
    bet = lesson.bet_person("nl", games=500, adaptive_games=8)
    assert "De <b>bots</b> bewegen" in bet.answer.html
    assert not bet.answer.shown


# ----------------------------------------------------------- words, card
def test_texts_name_what_is_missing() -> None:
    with pytest.raises(KeyError, match="ui.nope"):
        lesson.text("nope", "en")
    with pytest.raises(ValueError, match="lang must be one of en, nl, de"):
        lesson.text("show_answer", "fr")


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_card_is_one_a4_page_with_the_rules_a_class_needs(lang: str) -> None:
    card = lesson.rules_card(lang)
    assert "@page { size: A4" in card and f'<html lang="{lang}">' in card
    for key in ("lives_title", "mistake_title", "stop_title", "star_title", "rewards_title"):
        assert lesson.text(f"card.{key}", lang) in card
    for level, kind in Rules().rewards.items():
        assert (
            f"{lesson.text('level_n', lang, n=level)}</b>: {translate(kind + '_card', lang)}"
            in card
        )
    assert str(Rules().max_lives) in card and "{" not in card.split("</style>")[1]


# the guides: tests/lesson/test_guide.py


def test_every_laptop_gets_a_deal_of_its_own_unless_the_teacher_sets_a_seed() -> None:
    """Issue 21: every laptop got the same first game in 01 (seed 1)."""
    deals = {lesson.play("nl").table.game.hands for _ in range(4)}
    assert len(deals) > 1
    assert lesson.play("nl", seed=1).table.game.hands == ((18,), (73,), (98,))
    w = lesson.play("nl")
    w.reset(seed=1)  # what the teacher note says, for one deal the whole class shares
    assert w.table.game.hands == ((18,), (73,), (98,))
