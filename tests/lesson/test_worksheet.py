"""The wiskunde A worksheet and its answer key: they build, their numbers are the
code's, and the committed PDFs are what the sources give."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mindwidget import ScalarTimer, simulate
from mindwidget.bots.human import curve
from mindwidget.handouts import HANDOUTS
from mindwidget.i18n import LANGS
from mindwidget.lesson import worksheet
from mindwidget.lesson.kit import percent
from mindwidget.lesson.nb03_probability import _noise_answer
from mindwidget.sim.prob import expected_adjacent_pairs, p_no_card_between, p_wrong_order

ROOT = Path(__file__).resolve().parents[2]


def typst_here() -> None:
    pytest.importorskip("typst", reason="Typst's Python package (the test extra) builds the PDFs")


def test_the_swap_chance_is_the_difference_of_two_normal_waits() -> None:
    n = worksheet.numbers()
    # the model the sheet states is the lesson's bot, without its small motor delay
    assert n["p_swap"] == pytest.approx(p_wrong_order(40, 45, bot=ScalarTimer(motor_sd=0)))
    assert round(100 * n["p_swap"], 1) == round(100 * p_wrong_order(40, 45), 1) == 27.7
    assert n["p_pile"] == pytest.approx(p_wrong_order(40, 45, top=35, bot=ScalarTimer(motor_sd=0)))
    assert (n["mu_low"], n["mu_high"]) == pytest.approx((12.0, 13.5))
    assert n["sd_d"] == pytest.approx(math.sqrt((0.14 * 12) ** 2 + (0.14 * 13.5) ** 2))
    for i, cv in enumerate(worksheet.OWN_SPREADS):
        bot = ScalarTimer(cv=cv, motor_sd=0)
        assert n[f"own_p_{i}"] == pytest.approx(p_wrong_order(40, 45, bot=bot))


def test_the_urn_chances_are_read_from_the_stories_hands() -> None:
    n = worksheet.numbers()
    # star_information: player 2's card lies above 60 and is not player 3's 73
    assert (n["unseen_a"], n["below_a"]) == (39, 12)
    assert n["p_a"] == pytest.approx(12 / 39)
    assert n["p_a"] == pytest.approx(1 - p_no_card_between(12, 39, 1))
    # four_players: nobody holds 48-51, from player 4's view after the 47
    assert (n["top_b"], n["own_b"], n["unseen_b"], n["others_b"]) == (47, 52, 52, 3)
    assert n["none_b"] == pytest.approx(math.comb(48, 3) / math.comb(52, 3))
    assert round(100 * n["none_b"]) == 78


def test_the_simulation_is_the_slider_of_03_and_the_team_rate_a_simulation() -> None:
    n = worksheet.numbers()
    shown = _noise_answer("nl", 0.14, worksheet.SLIDER_LEVELS, 1000)
    assert percent(n["sim"], "nl") in shown  # what the projector shows at 14 %
    team = simulate(players=3, bots="scalar", games=10_000, seed=1, progress=False)
    assert n["team"] == team.summary().win_rate
    assert n["three"] == pytest.approx(n["team"] ** 3)
    assert n["pairs"] == expected_adjacent_pairs(3, 10) == pytest.approx(6.0)
    assert n["se"] == pytest.approx(math.sqrt(n["p_swap"] * (1 - n["p_swap"]) / 2000))


def test_the_key_s_remark_on_the_people_curve_holds() -> None:
    """The key: a card 3 above the pile waits longer per step than one 30 above it."""
    assert curve(3) / 3 > curve(30) / 30


@pytest.mark.parametrize("lang", LANGS)
def test_every_number_on_the_sheet_and_the_key_is_filled_in_from_the_code(lang: str) -> None:
    figures = worksheet.figures(lang)
    sheet, key = worksheet.source(lang), worksheet.source(lang, answers=True)
    for text in (sheet, key):
        assert "{" + "p_swap" not in text and not re.search(r"\{[a-z_0-9]+\}", text)
    for name in ("p_swap", "p_pile", "p_a", "none_b", "risk_b", "three", "pairs", "sd_d"):
        assert figures[name] in key, (lang, name)
    for name in ("cv", "tempo", "sim", "levels", "team", "unseen_b"):
        assert figures[name] in sheet, (lang, name)
    # the answers are not on the pupils' sheet
    for name in ("p_swap", "p_pile", "p_a", "none_b", "three"):
        assert figures[name] not in sheet, (lang, name)
    assert ("," in figures["p_swap"]) == (lang != "en")


def test_the_texts_have_the_same_keys_and_no_unknown_number() -> None:
    keys = {lang: set(worksheet.texts(lang)) for lang in LANGS}
    assert keys["nl"] == keys["en"] == keys["de"]
    with pytest.raises(KeyError, match="no number named"):
        worksheet._fill("{nope}", worksheet.figures("en"), "test")


@pytest.mark.parametrize("lang", LANGS)
def test_the_sheet_and_the_key_build_as_a4_pdfs(lang: str) -> None:
    typst_here()
    for answers in (False, True):
        data = worksheet.pdf(lang, answers)
        assert data.startswith(b"%PDF-")
        pages = re.findall(rb"/Type\s*/Page[^s]", data)
        assert 1 <= len(pages) <= 2, (lang, answers, len(pages))
        # A4: 595.28 x 841.89 pt
        assert re.search(rb"/MediaBox\s*\[\s*0\s+0\s+595\.2\d*\s+841\.8\d*\s*\]", data)


def test_the_committed_pdfs_are_what_the_sources_give() -> None:
    """docs/worksheet/ is written by tools/build_worksheets.py; run it after a change."""
    typst_here()
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_worksheets.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for lang in LANGS:
        for name in worksheet.FILES[lang]:
            assert name in HANDOUTS[lang]
            assert (ROOT / HANDOUTS[lang][name]).is_file()
