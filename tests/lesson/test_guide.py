"""The teacher's guide (docs/teaching*.md): every figure in it is what the code shows.

Each figure the guide quotes is computed here by the lesson's own functions (the
answers behind the buttons of 03 and 05, the slider of 03, the worksheet's
numbers, the rules, the journal's keeping time) and written as the notebook
writes it in that language. Then every decimal number and every percentage in
the guide must be one of them: a figure that no code computes fails. Plain whole
numbers (minutes of the plan, card values of a story, part numbers) are the
lesson's own data and are not checked here, except the few named below.

If a test here fails after a change to a notebook, the guide quotes an old
figure: correct the guide to what the notebook now shows.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from mindwidget import ScalarTimer, lesson, simulate
from mindwidget.bots.base import DEFAULT_SECONDS_PER_STEP
from mindwidget.classroom.journal import KEEP_DAYS
from mindwidget.i18n import LANGS
from mindwidget.lesson import nb03_probability as nb03
from mindwidget.lesson import nb05_cooperation as nb05
from mindwidget.lesson import worksheet
from mindwidget.lesson.kit import number, percent
from mindwidget.rules import Rules

DOCS = Path(__file__).resolve().parents[2] / "docs"
GUIDES = {"en": "teaching.md", "nl": "teaching.nl.md", "de": "teaching.de.md"}
#: Decimal numbers (with a decimal sign or a thousands separator) and percentages.
FIGURE = re.compile(r"\d+(?:[.,]\d+)*\s?%|\d+(?:[.,]\d+)+")


#: Spaces that only typography tells apart (German writes "27,7\u202f%"; a guide may use " ").
SPACES = str.maketrans({"\u202f": " ", "\u00a0": " "})


def guide(lang: str) -> str:
    return (DOCS / GUIDES[lang]).read_text(encoding="utf-8").translate(SPACES)


def lab_word(lang: str, context: str, word: str) -> str:
    """``word`` of JupyterLab's menus in its language pack for ``lang`` (English as is;
    a word the pack does not translate stays English, as JupyterLab shows it)."""
    if lang == "en":
        return word
    import importlib

    from mindwidget.lessons_folder import LAB_LOCALES

    locale = LAB_LOCALES[lang]
    pack = importlib.import_module(f"jupyterlab_language_pack_{locale}")
    path = Path(pack.__file__).parent / "locale" / locale / "LC_MESSAGES" / "jupyterlab.json"
    words = json.loads(path.read_text(encoding="utf-8"))
    said = words.get(f"{context}\x04{word}" if context else word) or words.get(word) or [word]
    return str(said[0])


def _on_screen(figures: dict[str, str], html: str, *names: str) -> None:
    """The figures ``names`` are what the notebook shows (its answer's HTML)."""
    for name in names:
        assert figures[name] in html, (name, figures[name], html[:400])


@cache
def figures(lang: str) -> dict[str, str]:
    """Every figure the guide may quote, as the lesson writes it in ``lang``."""
    pct = lambda x, d=1: percent(x, lang, d)  # noqa: E731
    f: dict[str, str] = {}
    # -- the model's parameters (the bots of 03 and the worksheet)
    model = ScalarTimer()
    f["tempo"] = number(DEFAULT_SECONDS_PER_STEP, lang, 1)
    f["tempo_2"] = number(DEFAULT_SECONDS_PER_STEP, lang, 2)
    f["cv"] = pct(model.cv, 0)
    for cv, key in nb03._MARKS:
        f[key] = pct(cv, 0)
    # -- 03 part 3: team sizes (10,000 games each)
    sizes = lesson.bet_team_sizes(lang).answer.html
    for n in (2, 3, 4):
        rate = nb03.summary_of(n, "scalar", 10_000, 1).win_rate
        f[f"team_{n}"] = pct(rate)
    _on_screen(f, sizes, "team_2", "team_3", "team_4")
    f["games_team"] = number(10_000, lang)
    # -- 03 part 4: the swap of 40 and 45, the pile at 35, touching pairs
    swap = lesson.bet_swap(lang).answer.html
    f["swap"] = pct(nb03.p_wrong_order(40, 45))
    _on_screen(f, swap, "swap")
    f["swap_35"] = pct(nb03.p_wrong_order(40, 45, top=35), 2)
    assert f["swap_35"] in lesson.pile_table(lang).to_string()
    pairs = lesson.bet_pairs(lang).answer.html
    f["pairs"] = number(nb03.expected_adjacent_pairs(3, 10), lang, 1)
    rng = nb03.np.random.default_rng(0)
    dealt = [
        nb03.np.mean([nb03._touching_pairs(rng, 3, k) for _ in range(2000)]) for k in range(1, 11)
    ]
    f["pairs_dealt"] = number(float(dealt[-1]), lang, 2)
    f["deals"] = number(2000, lang)
    _on_screen(f, pairs, "pairs", "pairs_dealt", "deals")
    # -- 03 part 5: the wobble bet (3,000 games a point) and the slider
    noise = lesson.bet_noise(lang).answer.html
    for cv, _key in nb03._MARKS:
        f[f"noise_{cv}"] = pct(nb03.summary_of(3, ScalarTimer(cv=cv), 3000, 2).win_rate)
        _on_screen(f, noise, f"noise_{cv}")
    f["games_noise"] = number(3000, lang)
    for cv in (0.14, 0.07):
        shown = nb03._noise_answer(lang, cv, 2000, 1000)
        bot = ScalarTimer(cv=cv)
        f[f"slider_exact_{cv}"] = pct(nb03.p_wrong_order(40, 45, bot=bot))
        f[f"slider_sim_{cv}"] = pct(nb03.swap_share(bot, 2000))
        team = nb03.summary_of(3, bot, 1000, 2)
        f[f"slider_team_{cv}"] = pct(team.win_rate)
        _on_screen(f, shown, f"slider_exact_{cv}", f"slider_sim_{cv}", f"slider_team_{cv}")
        if cv == 0.14:  # the 95 % interval of the slider's 1,000 games
            f["slider_low"], f["slider_high"] = pct(team.win_rate_low), pct(team.win_rate_high)
    f["levels_slider"], f["games_slider"] = number(2000, lang), number(1000, lang)
    f["confidence"] = pct(0.95, 0)
    # -- 03 part 6: star habits (20,000 games each)
    stars = lesson.bet_star_habits(lang).answer.html
    for key, policy in nb03.HABITS.items():
        f[key] = pct(nb03.summary_of(3, nb03._habit_bot(policy), 20_000, 3).win_rate)
        _on_screen(f, stars, key)
    f["games_stars"] = number(20_000, lang)
    # -- 05
    fast = lesson.bet_one_fast(lang).answer.html
    one_fast = [ScalarTimer(seconds_per_step=0.2), ScalarTimer(), ScalarTimer()]
    f["one_fast"] = pct(nb03.summary_of(3, one_fast, 10_000, 1).win_rate)
    f["fast_tempo"] = number(0.2, lang, 1)
    _on_screen(f, fast, "one_fast")
    adaptive = simulate(players=3, bots=nb05._adaptive_team(), games=256, seed=1, progress=False)
    f["adaptive"] = pct(adaptive.summary().win_rate)
    _on_screen(f, lesson.bet_adaptive(lang).answer.html, "adaptive")
    spread = adaptive.tempo_spread()
    f["spread_1"], f["spread_6"] = pct(spread[1], 0), pct(spread[6], 0)
    f["games_adaptive"] = number(256, lang)
    meet = lesson.tempos_meet(lang).answer.html
    f["meet"] = number(0.21, lang, 2)
    assert meet.count(f["meet"]) == 3  # all three bots end at it
    person = lesson.bet_person(lang).answer.html
    f["person"] = number(0.45, lang, 2)
    careful = ScalarTimer(seconds_per_step=0.45)
    f["stubborn"] = pct(
        nb03.summary_of(3, [careful, ScalarTimer(), ScalarTimer()], 10_000, 1).win_rate
    )
    following = nb03.summary_of(3, [careful, nb05.AdaptiveTimer(), nb05.AdaptiveTimer()], 256, 1)
    f["following"] = pct(following.win_rate)
    f["person_from"], f["person_to"] = number(0.30, lang, 2), number(0.40, lang, 2)
    _on_screen(f, person, "stubborn", "following", "person_from", "person_to")
    # -- the worksheet's figures the guide repeats
    w = worksheet.figures(lang)
    f["ws_p_a"], f["ws_risk_b"], f["ws_three"] = w["p_a"], w["risk_b"], w["three"]
    return {name: value.translate(SPACES) for name, value in f.items()}


# Figures the guide must quote (the answer key): name -> at least once.
QUOTED = [
    "team_2",
    "team_3",
    "team_4",
    "swap",
    "swap_35",
    "pairs",
    "pairs_dealt",
    "noise_0.07",
    "noise_0.14",
    "noise_0.28",
    "slider_exact_0.14",
    "slider_sim_0.14",
    "slider_team_0.14",
    "slider_exact_0.07",
    "slider_team_0.07",
    "slider_low",
    "slider_high",
    "habit_never",
    "habit_last_life",
    "habit_close",
    "habit_close_all",
    "one_fast",
    "adaptive",
    "spread_1",
    "spread_6",
    "meet",
    "stubborn",
    "following",
    "ws_p_a",
    "ws_risk_b",
    "ws_three",
]


@pytest.mark.parametrize("lang", LANGS)
def test_the_guide_quotes_the_answers_the_notebooks_show(lang: str) -> None:
    text, f = guide(lang), figures(lang)
    missing = [(name, f[name]) for name in QUOTED if f[name] not in text]
    assert not missing, f"{GUIDES[lang]} lacks {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_decimal_and_percentage_in_the_guide_is_computed_by_the_code(lang: str) -> None:
    known = set(figures(lang).values())
    found = {m.group(0) for m in FIGURE.finditer(guide(lang))}
    unknown = sorted(found - known)
    assert not unknown, f"{GUIDES[lang]}: figures no code computes: {unknown}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_whole_numbers_the_guide_states_are_the_code_s(lang: str) -> None:
    text = guide(lang)
    days = {"en": "{} days", "nl": "{} dagen", "de": "{} Tage"}[lang]
    assert days.format(KEEP_DAYS) in text  # how long the journal is kept
    n = worksheet.numbers()
    assert f"{int(n['below_a'])}/{int(n['unseen_a'])}" in text  # 12/39
    four = Rules(players=4)
    levels = {"en": "{} levels", "nl": "{} levels", "de": "{} Level"}[lang]
    lives = {"en": "{} lives", "nl": "{} levens", "de": "{} Leben"}[lang]
    assert levels.format(four.n_levels) in text and lives.format(four.start_lives) in text
    assert "class-CODE.sqlite3" in text and "--forget CODE" in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_guide_names_the_product_as_it_is(lang: str) -> None:
    text = guide(lang)
    assert f"mindwidget lesson --lang {lang}" in text and "make lab" not in text
    for name in ("01-play", "02-rules", "03-probability", "05-cooperation", "06-class"):
        assert f"`{name}.ipynb`" in text, name
    assert "Classroom" in text and "room.ask(" in text and "resume=True" in text
    assert "Error displaying widget: model not found" in text
    assert (
        json.loads((DOCS.parent / "mindwidget/locales/class" / f"{lang}.json").read_text())[
            "reconnecting"
        ]
        in text
    )  # what a phone says while the class's server is away
    # JupyterLab's menu as the lesson opens it (--lang sets its language pack)
    run_all = f"**{lab_word(lang, 'menu', 'Run')} → {lab_word(lang, '', 'Run All Cells')}"
    assert run_all in text, run_all
    preview = f"{lab_word(lang, 'menu', 'Open With')} → {lab_word(lang, '', 'Markdown Preview')}"
    assert preview in text, preview
    # the files the lesson folder holds, by their names there
    from mindwidget.handouts import handouts

    for name in handouts(lang):
        assert f"`{name}`" in text, name
    # links that resolve inside docs/ (the MkDocs site)
    for link in re.findall(r"\]\(([^)#]+)\)", text):
        if not link.startswith(("http://", "https://")):
            assert (DOCS / link).exists(), link
    assert lesson.text("ui.show_answer", lang) in text


def test_the_guides_have_the_same_outline() -> None:
    outlines = {
        lang: [len(h) for h in re.findall(r"^(#+) ", guide(lang), flags=re.M)] for lang in LANGS
    }
    assert outlines["nl"] == outlines["en"] == outlines["de"]
    rows = {lang: len(re.findall(r"^\| ", guide(lang), flags=re.M)) for lang in LANGS}
    assert rows["nl"] == rows["en"] == rows["de"]


def test_a_figure_the_code_does_not_compute_is_caught() -> None:
    """The check itself: the old guide's 27,1 % and 47,0 %-beside-44,6 % mix-up."""
    known = set(figures("nl").values())
    assert "27,1%" not in known
    assert [m.group(0) for m in FIGURE.finditer("bij 14%: 27,1% en 1.000")] == [
        "14%",
        "27,1%",
        "1.000",
    ]
