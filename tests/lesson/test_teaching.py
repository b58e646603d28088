"""Every figure the lesson states, recomputed from the code that shows it.

The bets' answers in notebooks 03 and 05 (with the notebooks' seeds), the
claims of the scenario stories (recomputed from their hands), and each figure
in a notebook's Markdown text (from the default, parameter or constant the
notebook's code uses). If a test here fails, the simulation, a bot or a text
changed: run the notebooks again and make the text say what the code shows.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from mindwidget import (
    AdaptiveTimer,
    Game,
    PerfectTimer,
    Rules,
    ScalarTimer,
    Scenario,
    StarPolicy,
    run_game,
    run_level,
    simulate,
    trace,
)
from mindwidget.bots import BotsLike, HumanTimer
from mindwidget.bots.human import (
    REACTION_FLOOR,
    REFERENCE,
    REFERENCE_BANDS,
    REFERENCE_COUNTS,
    band_label,
    curve,
)
from mindwidget.classroom.dashboard import STUCK_SECONDS
from mindwidget.classroom.journal import KEEP_DAYS, data_dir, journal_path
from mindwidget.classroom.network import DEFAULT_PORT
from mindwidget.i18n import LANGS, decimal
from mindwidget.lesson.kit import flat
from mindwidget.lesson.kit import number as in_number
from mindwidget.lesson.kit import percent as in_percent
from mindwidget.lesson.nb03_probability import (
    _MARKS as NOISE_MARKS,
)
from mindwidget.lesson.nb03_probability import (
    bet_noise,
    bet_star_habits,
    bet_team_sizes,
    noise_slider,
)
from mindwidget.lesson.nb05_cooperation import bet_adaptive, bet_one_fast
from mindwidget.rules import MAX_LIVES, MAX_STARS, REWARDS
from mindwidget.scenario import sources
from mindwidget.sim.prob import expected_adjacent_pairs, p_wrong_order
from mindwidget.timing import MIN_PLAYS

CELLS = Path(__file__).resolve().parents[2] / "notebooks" / "src"


def percent(bots: BotsLike, games: int, seed: int, players: int = 3) -> float:
    """Win rate in percent, one decimal, as the notebooks print it."""
    result = simulate(players=players, bots=bots, games=games, seed=seed, progress=False)
    return round(100 * result.summary().win_rate, 1)


# ------------------------------------------------------------ 03-probability
def test_03_watch_bots_lose_in_the_last_level() -> None:
    game = run_game(Game(players=3, seed=7), ScalarTimer(), seed=7)
    assert (game.level, game.status) == (10, "lost")


@pytest.mark.parametrize(("players", "expected"), [(2, 54.8), (3, 46.2), (4, 58.4)])
def test_03_win_rate_by_players(players: int, expected: float) -> None:
    assert percent("scalar", 10_000, seed=1, players=players) == expected


def test_03_exact_values() -> None:
    assert round(100 * p_wrong_order(40, 45), 1) == 27.7
    assert round(100 * p_wrong_order(40, 45, top=35), 2) == 0.07
    assert expected_adjacent_pairs(3, 10) == pytest.approx(6.0)
    assert round(100 * p_wrong_order(40, 45, bot=ScalarTimer(cv=0.07)), 1) == 11.8


def test_03_slider_shows_what_the_plan_quotes() -> None:
    # The slider itself (its 2,000 levels and 1,000 games), not another calculation:
    # what the projector shows at 14% and at 7%.
    box = noise_slider("nl")
    shown = {}
    for cv in (0.14, 0.07):
        box.slider.value = cv
        shown[cv] = box.out.value
    assert "<b>27,7%</b>" in shown[0.14] and "2.000 gespeelde levels 26,4%" in shown[0.14]
    assert "<b>44,6%</b> van 1.000 spellen" in shown[0.14]
    assert "levels 11,8%" in shown[0.07] and "<b>97,7%</b> van 1.000 spellen" in shown[0.07]


@pytest.mark.parametrize(("cv", "expected"), [(0.07, 98.2), (0.14, 47.0), (0.28, 0.1)])
def test_03_noise(cv: float, expected: float) -> None:
    assert percent(ScalarTimer(cv=cv), 3000, seed=2) == expected


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (None, 45.4),
        (StarPolicy(close=0, last_life_gap=100), 49.4),
        (StarPolicy(), 48.0),
        (StarPolicy(close=10, vote_gap=100), 50.0),
    ],
)
def test_03_star_habits(policy: StarPolicy | None, expected: float) -> None:
    bot = ScalarTimer(propose_stars=policy is not None, star_policy=policy)
    assert percent(bot, 20_000, seed=3) == expected


# ------------------------------------------------------------ 05-cooperation
def test_05_one_fast_player() -> None:
    one_fast = [ScalarTimer(seconds_per_step=0.2), ScalarTimer(), ScalarTimer()]
    assert percent(one_fast, 10_000, seed=1) == 0.1
    game = run_game(Game(players=3, seed=2), one_fast, seed=2)
    t = trace(game)
    mistakes = t[(t["level"] == 3) & (t["outcome"] == "mistake")]
    assert list(mistakes["player"]) == [0, 0]


def test_05_adaptive_team() -> None:
    adaptive = [AdaptiveTimer(seconds_per_step=0.2), AdaptiveTimer(), AdaptiveTimer()]
    result = simulate(players=3, bots=adaptive, games=256, seed=1, progress=False)
    assert round(100 * result.summary().win_rate, 1) == 35.2
    spread = result.tempo_spread()
    assert round(spread[1], 2) == 0.45
    assert round(spread[6], 2) == 0.04
    team = [bot.seat(p) for p, bot in enumerate(adaptive)]
    game = run_game(Game(players=3, seed=3), team, seed=3)
    assert game.status == "won"
    assert all(round(bot.tempo, 2) == 0.21 for bot in team)


def test_05_a_person_pulls_the_bots() -> None:
    person = ScalarTimer(seconds_per_step=0.45)
    team = [bot.seat(p) for p, bot in enumerate([person, AdaptiveTimer(), AdaptiveTimer()])]
    game = run_game(Game(players=3, seed=5), team, seed=5)
    assert game.status == "won"
    assert all(round(bot.tempo, 1) == 0.4 for bot in team[1:])
    assert percent([person, ScalarTimer(), ScalarTimer()], 10_000, seed=1) == 0.2
    assert percent([person, AdaptiveTimer(), AdaptiveTimer()], 256, seed=1) == 13.7


# ------------------------------------------------- the stories' claims (02, 04)
def _said(name: str, step: int) -> dict[str, str]:
    """A scenario step's narration (steps counted from 1, as the board shows them)."""
    return Scenario.load(name).narrations[step - 1]


def test_star_information_player_3_risks_12_in_39_with_the_73() -> None:
    # After the star and the 47, player 3 (seat 2) has seen the discards, the pile
    # and their own 73; player 2 put aside 60 as their lowest, so their one card is
    # above 60: any of the values above 60 player 3 has not seen.
    s = Scenario.load("star_information").goto(6)
    game = s.state
    assert game.hands[2] == (73,) and len(game.hands[1]) == 1 and not game.hands[0]
    seen = set(game.pile) | {d.card for d in game.discards if d.face_up} | set(game.hands[2])
    lowest_of_2 = min(d.card for d in game.discards if d.player == 1)
    assert lowest_of_2 == 60
    unseen = [v for v in range(lowest_of_2 + 1, 101) if v not in seen]
    below = [v for v in unseen if v < 73]
    assert (len(unseen), len(below)) == (39, 12)
    for lang, said in _said("star_information", 7).items():
        assert f" {len(unseen)} " in said and f" {len(below)} " in said, lang
        assert in_percent(len(below) / len(unseen), lang, 0) in said, lang


def test_star_information_the_star_is_for_the_44_far_above_the_empty_pile() -> None:
    # Two cards of one hand never swap (own lowest first): the danger the step
    # names is another hand's card, player 3's 51, before the 44 (about 1 in 4).
    s = Scenario.load("star_information")
    assert s.state.hands[0] == (44, 47) and 51 in s.state.hands[2]
    chance = p_wrong_order(44, 51)
    assert round(1 / chance) == 4
    for lang, said in _said("star_information", 2).items():
        assert re.search(r"\b1 (game in|op de|von) 4\b", said) and "51" in said, lang
        bot = ScalarTimer()  # the model the step names: 0.3 s a step, 14% spread
        assert decimal(bot.seconds_per_step, lang) in said, lang
        assert in_percent(bot.cv, lang, 0) in said, lang
    # the tip: just above the pile two close cards rarely swap, far above nearly a coin toss
    assert p_wrong_order(11, 12, top=10) < 0.01
    assert 0.4 < p_wrong_order(80, 81) < 0.5


def test_four_players_the_52_at_once_risked_22_percent() -> None:
    # Player 4 (seat 3) after the 47: the others still hold 3 cards, all above 47;
    # 52 unseen values lie above 47, 4 of them below 52.
    s = Scenario.load("four_players").goto(5)
    game = s.state
    assert game.pile[-1] == 47 and game.hands[3] == (52,)
    others = sum(len(h) for seat, h in enumerate(game.hands) if seat != 3)
    seen = set(game.pile) | set(game.hands[3])
    unseen = [v for v in range(48, 101) if v not in seen]
    between = [v for v in unseen if v < 52]
    assert (others, len(unseen), len(between)) == (3, 52, 4)
    none_between = math.comb(len(unseen) - len(between), others) / math.comb(len(unseen), others)
    assert none_between == math.comb(48, 3) / math.comb(52, 3)
    for lang, said in _said("four_players", 6).items():
        assert "C(48,3)/C(52,3)" in said, lang
        assert in_percent(none_between, lang, 0) in said, lang
        assert in_percent(1 - none_between, lang, 0) in said, lang


def test_cap_stars_the_team_holds_every_star_in_the_box() -> None:
    s = Scenario.load("cap_stars").goto(4)
    assert s.state.stars == MAX_STARS == 3
    s.step()
    assert s.state.stars == MAX_STARS
    for lang, said in _said("cap_stars", 5).items():
        assert "reserve" not in said.lower() and "Reserve" not in said, lang


def test_clean_level_times_are_the_model_of_03_without_its_wobble() -> None:
    # The story's times are PerfectTimer's (0.3 s a step, from the last card), as
    # its intro says: 17 after 5.1 s, 28 3.3 s later, 55 8.1 s later.
    s = Scenario.load("clean_level")
    model = PerfectTimer()
    game = run_level(Game.from_hands([list(h) for h in s.state.hands], seed=0), model, seed=0)
    played = trace(game)
    times = [round(float(t), 1) for t in played["t"]]
    scripted = [step["t"] for step in s.script if step["action"] == "play"]
    assert times == scripted == [5.1, 8.4, 16.5]
    assert model.seconds_per_step == 0.3
    waits = [round(b - a, 1) for a, b in zip([0.0, *times[:-1]], times, strict=True)]
    for k, wait in zip((2, 3, 4), waits, strict=True):
        for lang, said in _said("clean_level", k).items():
            assert decimal(wait, lang) in said, (k, lang)
    for lang, intro in (Scenario.load("clean_level").intro or {}).items():
        assert decimal(model.seconds_per_step, lang) in intro, lang


# ------------------------------------------- the figures the notebooks' texts state
# Each figure a Markdown cell states is recomputed here from the code that the
# notebook runs (a default argument, a bot's parameter, a constant of the rules or
# of the class journal), and looked for in the text as each language writes it.


def _text(key: str, lang: str) -> str:
    return flat(lang)[key]


def _default(function: Callable[..., object], name: str) -> object:
    return inspect.signature(function).parameters[name].default


def _says_everywhere(key: str, *figures: Callable[[str], str]) -> None:
    for lang in LANGS:
        said = _text(key, lang)
        for figure in figures:
            assert figure(lang) in said, (key, lang, figure(lang))


def test_01_the_people_bots_medians_and_their_data_set() -> None:
    near = REACTION_FLOOR + curve(1)
    ten = REACTION_FLOOR + curve(10)
    assert (round(near, 1), round(ten, 1)) == (1.4, 8.6)
    _says_everywhere(
        "01-play.teacher_intro",
        lambda lang: decimal(near, lang),
        lambda lang: decimal(ten, lang),
        lambda lang: f" {sum(REFERENCE_COUNTS)} ",
        lambda lang: f" {REFERENCE_COUNTS[-1]} ",
        lambda lang: f" {REFERENCE_BANDS[-1][0]} ",
        lambda lang: decimal(ScalarTimer().seconds_per_step, lang),
    )
    assert band_label(len(REFERENCE_BANDS) - 1) == "25+"


def test_01_the_inner_clock_needs_min_plays_and_14_percent_is_usual() -> None:
    words = {"en": "three", "nl": "drie", "de": "drei"}
    assert MIN_PLAYS == 3
    _says_everywhere(
        "01-play.teacher_clock",
        lambda lang: words[lang],
        lambda lang: in_percent(ScalarTimer().cv, lang, 0),
    )


def test_02_the_core_stories_are_the_numbers_the_teacher_note_names() -> None:
    for lang in LANGS:
        core = {"en": "(core)", "nl": "(kern)", "de": "(Kern)"}[lang]
        numbers = [
            int(re.match(r"## (\d+)\.", line).group(1))  # type: ignore[union-attr]
            for key, line in flat(lang).items()
            if key.startswith("02-rules.") and key.endswith("_title") and core in line
        ]
        assert sorted(numbers) == [1, 2, 4, 5, 7, 12]
        listed = {
            "en": "1, 2, 4, 5, 7 and 12",
            "nl": "1, 2, 4, 5, 7 en 12",
            "de": "1, 2, 4, 5, 7 und 12",
        }
        assert listed[lang] in _text("02-rules.teacher_intro", lang)


def test_02_the_mistake_question_is_the_mistake_story() -> None:
    s = Scenario.load("mistake")
    assert sorted(card for hand in s.state.hands for card in hand) == [11, 26, 30, 34, 58, 71]
    s.goto(3)
    assert s.state.lives == s.goto(2).state.lives - 1
    _says_everywhere(
        "02-rules.teacher_r4", *(lambda lang, c=c: str(c) for c in (34, 26, 30, 58, 71))
    )


def test_02_the_73_after_the_star_and_where_rewards_come_from() -> None:
    # teacher_r6 repeats the story's 12 of 39 (test_star_information_... above)
    _says_everywhere(
        "02-rules.teacher_r6",
        lambda lang: " 39 ",
        lambda lang: " 12 ",
        lambda lang: in_percent(12 / 39, lang, 0),
    )
    lives = sorted(level for level, kind in REWARDS.items() if kind == "life")
    stars = sorted(level for level, kind in REWARDS.items() if kind == "star")
    assert (lives, stars) == ([3, 6, 9], [2, 5, 8])
    joined = {"en": " and ", "nl": " en ", "de": " und "}
    _says_everywhere(
        "02-rules.teacher_r8",
        lambda lang: ", ".join(map(str, sorted(REWARDS)[:-1])) + joined[lang] + "9",
        lambda lang: "3, 6" + joined[lang] + "9",
        lambda lang: "2, 5" + joined[lang] + "8",
    )
    _says_everywhere("02-rules.r9_text", lambda lang: f"{MAX_LIVES} ", lambda lang: f"{MAX_STARS} ")


def test_02_the_blind_pile_goes_down_once_or_costs_four_per_card() -> None:
    pile = [60, 70, 80, 90, 10, 11, 12, 13]
    descents = sum(b < a for a, b in zip(pile, pile[1:], strict=False))
    early = sum(any(later < card for later in pile[k + 1 :]) for k, card in enumerate(pile))
    assert (descents, early) == (1, 4)
    words = {"en": "four", "nl": "vier", "de": "vier"}
    _says_everywhere(
        "02-rules.teacher_r11",
        lambda lang: " ".join(map(str, pile)),
        lambda lang: words[lang],
    )
    assert Rules(blind_penalty="per_card").blind_penalty == "per_card"


def test_03_the_model_is_the_watch_tables_bot() -> None:
    bot = ScalarTimer()
    for key in ("03-probability.watch_text", "03-probability.exact_text"):
        _says_everywhere(
            key,
            lambda lang: decimal(bot.seconds_per_step, lang),
            lambda lang: in_percent(bot.cv, lang, 0),
        )
    _says_everywhere("03-probability.teacher_watch", lambda lang: in_percent(bot.cv, lang, 0))


def test_03_run_counts_seeds_and_intervals_are_the_cells_own() -> None:
    games = _default(bet_team_sizes, "games")
    assert (games, _default(bet_team_sizes, "seed")) == (10_000, 1)
    _says_everywhere("03-probability.teacher_many", lambda lang: in_number(10_000, lang))
    # the 95% interval of a win rate near 46% over 10,000 games: about ±1 point
    assert round(196 * math.sqrt(0.46 * 0.54 / 10_000), 0) == 1
    assert (_default(bet_noise, "games"), _default(bet_noise, "seed")) == (3000, 2)
    _says_everywhere(
        "03-probability.teacher_noise",
        lambda lang: in_number(3000, lang),
        lambda lang: decimal(0.14, lang, 2),
        lambda lang: decimal(0.07, lang, 2),
    )
    assert (_default(bet_star_habits, "games"), _default(bet_star_habits, "seed")) == (20_000, 3)
    assert round(196 * math.sqrt(0.48 * 0.52 / 20_000), 1) == 0.7
    _says_everywhere(
        "03-probability.teacher_stars",
        lambda lang: in_number(20_000, lang),
        lambda lang: decimal(0.7, lang),
        lambda lang: f" {StarPolicy().close} ",
    )
    levels, games = _default(noise_slider, "levels"), _default(noise_slider, "games")
    _says_everywhere(
        "03-probability.slider_text",
        lambda lang: in_number(levels, lang),  # type: ignore[arg-type]
        lambda lang: in_number(games, lang),  # type: ignore[arg-type]
    )


def test_03_star_habits_lead_never_by_3_to_5_points() -> None:
    never = 45.4  # test_03_star_habits pins these four
    leads = [49.4 - never, 48.0 - never, 50.0 - never]
    assert all(2.5 <= lead < 5.5 for lead in leads)
    assert min(leads) > 2 * 0.7  # beyond both intervals


def test_03_why_the_same_1_5_s_is_small_far_up_and_large_near_the_pile() -> None:
    bot = ScalarTimer()

    def spread(wait: float) -> float:
        return math.hypot(bot.cv * wait, bot.motor_sd)

    empty = (bot.seconds_per_step * 40, bot.seconds_per_step * 45)
    near = (bot.seconds_per_step * (40 - 35), bot.seconds_per_step * (45 - 35))
    assert empty[1] - empty[0] == pytest.approx(1.5) == near[1] - near[0]
    figures = [*empty, *near, *(spread(w) for w in (*empty, *near))]
    assert [round(f, 1) for f in figures] == [12.0, 13.5, 1.5, 3.0, 1.7, 1.9, 0.2, 0.4]
    for lang in LANGS:
        said = _text("03-probability.teacher_why", lang)
        for f in figures:
            shown = decimal(f, lang) if f % 1 else f"{f:.0f}"
            assert shown in said, (lang, shown)
    _says_everywhere("ui.swap_answer", lambda lang: "12 ", lambda lang: decimal(13.5, lang))


def test_03_noise_bet_says_a_bit_under_half_at_14_percent() -> None:
    rate = percent(ScalarTimer(cv=0.14), 3000, seed=2)  # as test_03_noise: 47.0
    assert 40 < rate < 50
    assert {cv for cv, _ in NOISE_MARKS} == {0.07, 0.14, 0.28}
    _says_everywhere(
        "03-probability.noise_text",
        lambda lang: in_percent(0.07, lang, 0),
        lambda lang: in_percent(0.14, lang, 0),
    )


def test_05_tempos_and_rates_the_texts_name() -> None:
    assert AdaptiveTimer().seconds_per_step == ScalarTimer().seconds_per_step == 0.3
    assert round(0.3 * 20) == 6
    _says_everywhere(
        "05-cooperation.fast_text",
        lambda lang: decimal(0.3, lang),
        lambda lang: decimal(0.2, lang),
        lambda lang: " 20 ",
        lambda lang: " 6 ",
    )
    assert round(percent("scalar", 10_000, seed=1)) == 46  # bet_one_fast's team with one tempo
    _says_everywhere("05-cooperation.bet_fast", lambda lang: " 46 ")
    assert _default(bet_one_fast, "games") == 10_000
    assert _default(bet_adaptive, "games") == 256
    _says_everywhere("05-cooperation.teacher_adapt", lambda lang: "256 ")
    # "a tenth of the way" (AdaptiveTimer), "a fifth" (HumanTimer)
    assert _default(AdaptiveTimer.__init__, "rate") == 0.1
    assert _default(HumanTimer.__init__, "rate") == 0.2
    _says_everywhere(
        "05-cooperation.teacher_intro",
        lambda lang: {"en": "a tenth", "nl": "een tiende", "de": "ein Zehntel"}[lang],
        lambda lang: {"en": "a fifth", "nl": "een vijfde", "de": "ein Fünftel"}[lang],
    )
    _says_everywhere("05-cooperation.person_text", lambda lang: decimal(0.45, lang, 2))
    _says_everywhere("ui.person_title", lambda lang: decimal(0.45, lang, 2))
    _says_everywhere("ui.person_answer", lambda lang: decimal(AdaptiveTimer().tempo, lang, 2))


def test_06_the_journal_sentence_is_what_the_journal_does() -> None:
    assert KEEP_DAYS == 30
    for key in ("06-class.teacher_privacy", "06-class.save_text"):
        _says_everywhere(key, lambda lang: f"{KEEP_DAYS} ")
    _says_everywhere(
        "06-class.teacher_privacy",
        lambda lang: "class-CODE.sqlite3",
        lambda lang: "Classroom.forget(",
        lambda lang: "mindwidget class --forget CODE",
        lambda lang: "~/.local/share/mindwidget",
    )
    assert data_dir().name == "mindwidget"
    assert journal_path("x", "1234").name.replace("1234", "CODE") == "class-CODE.sqlite3"
    for lang in LANGS:
        said = _text("06-class.teacher_privacy", lang).lower()
        assert "niets bewaard" not in said and "nothing is stored" not in said


def test_06_the_people_data_set_and_the_network_figures() -> None:
    assert sum(REFERENCE_COUNTS) == 142 and len(REFERENCE_COUNTS) == len(REFERENCE)
    _says_everywhere(
        "06-class.compare_text",
        lambda lang: f"{sum(REFERENCE_COUNTS)} ",
        lambda lang: f" {REFERENCE_COUNTS[-1]}.",
        lambda lang: band_label(len(REFERENCE_BANDS) - 1),
    )
    _says_everywhere("06-class.teacher_network", lambda lang: str(DEFAULT_PORT))
    # a red table: no card for 2 x STUCK_SECONDS ("a minute"), hands on the table
    # with nobody left to press Ready for STUCK_SECONDS ("half a minute")
    assert (2 * STUCK_SECONDS, STUCK_SECONDS) == (60, 30)
    minute = {"en": "for a minute", "nl": "een minuut lang", "de": "eine Minute lang"}
    half = {"en": "half a minute", "nl": "een halve minuut", "de": "eine halbe Minute"}
    _says_everywhere("06-class.teacher_join", minute.__getitem__, half.__getitem__)


@pytest.mark.parametrize("lang", LANGS)
def test_every_notebook_with_widgets_warns_of_model_not_found_the_next_morning(
    lang: str,
) -> None:
    for source in sorted(CELLS.glob("*.cells")):
        keys = " ".join(
            line for line in source.read_text().splitlines() if line.startswith("# %% md")
        )
        section = source.stem
        teacher = "\n".join(
            _text(f"{section}.{key}", lang)
            for key in keys.split()
            if key.startswith("teacher") and f"{section}.{key}" in flat(lang)
        )
        assert "Error displaying widget: model not found" in teacher, (section, lang)
        assert "Run → Run All Cells" in teacher, (section, lang)


def test_the_star_tip_is_cited_as_the_spelregelwijzer_pages_own_tips() -> None:
    # It is the rules page's section "Tips die uit de regels volgen", not "the rulebook".
    assert sources("nl")["tip_star_close"]["doc"] == "nl_rules_page"
    section = {
        "en": "Tips that follow from the rules",
        "nl": "Tips die uit de regels volgen",
        "de": "Tipps, die aus den Regeln folgen",
    }
    rulebook = {"en": "rulebook", "nl": "regelboek", "de": "Spielregel"}
    for name in ("star_information", "common_star_too_long"):
        s = Scenario.load(name)
        for step, point in zip(s.script, s.points, strict=True):
            if step.get("source") == "tip_star_close":
                assert point is not None
                for lang, tip in point["text"].items():
                    assert section[lang] in tip and rulebook[lang] not in tip, (name, lang)
    for lang in LANGS:
        for key in ("03-probability.stars_text", "03-probability.teacher_stars"):
            assert section[lang] in _text(key, lang), (key, lang)
            assert rulebook[lang] not in _text(key, lang), (key, lang)
        assert "Spelregelwijzer" in _text("ui.habit_close", lang)


# A figure is a decimal, a percentage or a thousand (10.000): a computed quantity,
# as against a card, a level or a seat. Every figure in the Dutch lesson texts and
# story narrations is listed here with the test that checks it; a new figure fails
# the guard below until it is added, with its check.
_FIGURE = re.compile(r"±?\d+(?:[.,]\d+)+%?|\d+[\s-]?%|\d+\s?×\s?\d+")
FIGURES: dict[str, set[str]] = {
    "ui.swap_answer": {"13,5"},  # test_03_why_the_same_1_5_s_...
    "ui.swap_settle": {"2.000"},  # test_the_last_figures_...: bet_swap's levels
    "ui.spread_explain": {"50%"},  # test_the_last_figures_...: (1.5 - 1)
    "ui.person_title": {"0,45"},  # test_05_tempos_and_rates_the_texts_name
    "ui.person_answer": {"0,30"},  # idem
    "01-play.teacher_intro": {"1,4", "8,6", "0,3", "1280×720"},  # test_01_the_people_bots_...
    "01-play.teacher_clock": {"14%"},  # test_01_the_inner_clock_...
    "02-rules.teacher_r6": {"31%"},  # test_02_the_73_after_the_star_...
    "03-probability.watch_text": {"0,3", "14%"},  # test_03_the_model_is_the_watch_tables_bot
    "03-probability.teacher_watch": {"14%"},  # idem
    "03-probability.teacher_many": {"10.000", "95%"},  # test_03_run_counts_...
    "03-probability.exact_text": {"0,3", "14%"},  # test_03_the_model_is_...
    "03-probability.teacher_exact": {"14%"},  # test_the_last_figures_...
    "03-probability.teacher_why": {"13,5", "1,7", "1,9", "1,5", "3,0", "0,2", "0,4"},
    "03-probability.noise_text": {"7%", "14%"},  # test_03_noise_bet_...
    "03-probability.teacher_noise": {"0,14", "0,07", "3.000", "95%"},  # test_03_run_counts_...
    "03-probability.bet_noise": {"14%", "7%", "28%"},  # test_03_noise_bet_... (the marks)
    "03-probability.slider_text": {"2.000", "1.000"},  # test_03_run_counts_...
    "03-probability.teacher_stars": {"20.000", "95%", "±0,7"},  # idem
    "04-scenarios.branch_text": {"2,0"},  # test_the_last_figures_...: the cell's t=2.0
    "05-cooperation.fast_text": {"0,3", "0,2"},  # test_05_tempos_and_rates_...
    "05-cooperation.teacher_fast": {"10.000"},  # idem (bet_one_fast's games)
    "05-cooperation.person_text": {"0,45", "0,3"},  # idem
    "clean_level:2": {"5,1", "0,3"},  # test_clean_level_times_are_the_model_...
    "clean_level:3": {"3,3"},  # idem
    "clean_level:4": {"8,1"},  # idem
    "clean_level:intro": {"0,3"},  # idem
    "common_skip_concentration:1": {"0,4"},  # test_the_last_figures_...: the step's t
    "four_players:6": {"48,3", "52,3", "78%", "22%"},  # test_four_players_the_52_...
    "same_moment:4": {"5,0"},  # test_the_last_figures_...: the step's t
    "same_moment:6": {"8,0"},  # idem
    "star_information:2": {"0,3", "14%"},  # test_star_information_the_star_is_for_the_44_...
    "star_information:7": {"31%"},  # test_star_information_player_3_risks_12_in_39_...
    # notebook 07: test_lesson_experiment.py::test_every_number_in_the_notebooks_text_is_the_codes
    "07-experiment-ui.col_win": {"95%"},  # Wilson's interval: sim.Z95
    "07-experiment-ui.swap_interval": {"95%"},  # idem
    "07-experiment-ui.teams_note": {"95%"},  # idem
    "07-experiment-ui.teams_won": {"95%"},  # idem
    "07-experiment.teacher_check": {"95%"},  # idem
}


def _figures_nl() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for key, said in flat("nl").items():
        if key.startswith("card."):
            continue
        shown = set(_FIGURE.findall(re.sub(r"`[^`]*`", "", said)))  # code is not prose
        if shown:
            found[key] = shown
    for name in Scenario.names():
        s = Scenario.load(name)
        texts = [("intro", (s.intro or {}).get("nl", ""))]
        for k, (said, point) in enumerate(zip(s.narrations, s.points, strict=True), 1):
            texts.append((str(k), said["nl"] + " " + (point["text"]["nl"] if point else "")))
        for where, said in texts:
            shown = set(_FIGURE.findall(said))
            if shown:
                found[f"{name}:{where}"] = shown
    return found


def test_every_figure_in_the_dutch_texts_is_listed_with_its_check() -> None:
    assert _figures_nl() == FIGURES


def test_the_last_figures_each_from_its_code() -> None:
    from mindwidget.lesson.nb03_probability import bet_swap

    assert _default(bet_swap, "levels") == 2000
    _says_everywhere("ui.swap_settle", lambda lang: in_number(2000, lang))
    assert round(100 * (0.3 / 0.2 - 1)) == 50  # a spread of 50%: one tempo 1.5 x the other
    _says_everywhere("03-probability.teacher_exact", lambda lang: in_percent(0.14, lang, 0))
    assert "g.play(0, t=2.0)" in (CELLS / "04-scenarios.cells").read_text()
    _says_everywhere("04-scenarios.branch_text", lambda lang: decimal(2.0, lang))
    for name, step in (("common_skip_concentration", 1), ("same_moment", 4), ("same_moment", 6)):
        t = Scenario.load(name).script[step - 1]["t"]
        for lang, said in _said(name, step).items():
            assert decimal(t, lang) in said, (name, step, lang)


def _figures(lang: str) -> dict[str, set[str]]:
    """Every figure of one language's lesson texts and stories, as numbers in words
    of code ("10.000", "10,000" -> "10000"; "1,4" -> "1.4"; "14 %" -> "14%")."""
    thousands, point = {"en": (",", "."), "nl": (".", ","), "de": (".", ",")}[lang]
    found: dict[str, set[str]] = {}

    def add(where: str, said: str) -> None:
        shown = {
            re.sub(r"[\s-]", "", f).replace(thousands, "").replace(point, ".")
            if re.search(rf"\d{re.escape(thousands)}\d{{3}}\b", f)
            else re.sub(r"[\s-]", "", f).replace(point, ".")
            for f in _FIGURE.findall(re.sub(r"C\(\d+,\d+\)", "C", said))  # C(48,3): a formula
        }
        if shown:
            found[where] = shown

    for key, said in flat(lang).items():
        if not key.startswith("card."):
            add(key, re.sub(r"`[^`]*`", "", said))
    for name in Scenario.names():
        s = Scenario.load(name)
        add(f"{name}:intro", (s.intro or {}).get(lang, ""))
        for k, (said, point_) in enumerate(zip(s.narrations, s.points, strict=True), 1):
            add(f"{name}:{k}", said[lang] + " " + (point_["text"][lang] if point_ else ""))
    return found


def test_english_and_german_texts_state_the_same_figures_as_the_dutch() -> None:
    # The guard above lists the Dutch figures with their checks; the other two
    # languages may state no figure the Dutch text does not.
    dutch = _figures("nl")
    for lang in ("en", "de"):
        assert _figures(lang) == dutch, lang
