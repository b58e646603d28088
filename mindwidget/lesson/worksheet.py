"""The wiskunde A worksheet and its answer key: A4 pages typeset with Typst.

The words are ``mindwidget/locales/worksheet/<lang>.json`` (Typst markup with
``{name}`` placeholders); every number in them is filled in here, computed by
the code the lesson runs: the model's timing (`ScalarTimer`'s tempo and
spread), `prob.p_wrong_order` and `prob.normal_cdf` for the swap of 40 and 45,
`prob.p_no_card_between` for the two urn-model chances (their hands read
from the scenarios ``star_information`` and ``four_players``), the slider of
03 (`nb03_probability.swap_share`) for the simulation, and `simulate` for a
team's win rate.

`source` gives the Typst text of the pupils' sheet or of the key; `pdf`
typesets it with Typst's Python package (``pip install typst``; only the
build needs it: ``tools/build_worksheets.py`` writes the PDFs into
``docs/worksheet/<lang>/``, and the wheel ships them, see ``hatch_build.py``).
Typst uses only its own embedded fonts here, and no date, so the same source
gives the same PDF on any machine.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ..bots import ScalarTimer
from ..handouts import WORKSHEETS
from ..rules import DECK_SIZE
from ..scenario import Scenario
from ..sim import simulate
from ..sim.prob import expected_adjacent_pairs, normal_cdf, p_no_card_between, p_wrong_order
from .kit import check_lang, number, percent
from .nb03_probability import swap_share

__all__ = ["FILES", "figures", "numbers", "pdf", "source", "texts"]

_TEXT_DIR = Path(__file__).resolve().parent.parent / "locales" / "worksheet"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

#: The two cards of the swap question, and the pile of its part (e).
LOW, HIGH, PILE = 40, 45, 35
#: Levels of the 03 slider's races (`noise_slider`'s default) and the team's games.
SLIDER_LEVELS = 2000
TEAM_GAMES, TEAM_SEED = 10_000, 1
#: The spreads the key tabulates for a pupil's own swap chance.
OWN_SPREADS = (0.07, 0.10, 0.20, 0.28)
#: The rows of the table a pupil fills in from their own plays.
ROWS = 8

#: The file names in a lesson folder: (pupils' sheet, answer key), per language.
FILES = WORKSHEETS


def texts(lang: str) -> dict[str, Any]:
    """The worksheet's words in ``lang`` (``locales/worksheet/<lang>.json``)."""
    check_lang(lang)
    data = json.loads((_TEXT_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"locales/worksheet/{lang}.json must hold an object.")
    return data


def _star_story() -> tuple[int, int]:
    """``star_information``: after the star each player put their lowest card away.
    Player 3 keeps only the 73; player 2 has one card left, above their 60. From
    player 3's view: how many values can it be, and how many lie below the 73?"""
    hands = Scenario.load("star_information").state.hands
    p2, p3 = sorted(hands[1]), sorted(hands[2])
    own = p3[1]
    discards = {min(h) for h in hands}
    unseen = [v for v in range(p2[0] + 1, DECK_SIZE + 1) if v != own and v not in discards]
    return len(unseen), sum(v < own for v in unseen)


def _four_players() -> tuple[int, int, int, int]:
    """``four_players``: player 4 has just played the 47 and keeps the 52. The others
    hold the cards above 47. Returns (pile, own card, unseen values, the others' cards)."""
    hands = Scenario.load("four_players").state.hands
    top, own = sorted(hands[3])
    others = sum(v > top for hand in hands[:3] for v in hand)
    unseen = sum(1 for v in range(top + 1, DECK_SIZE + 1) if v != own)
    return top, own, unseen, others


@cache
def numbers() -> dict[str, float]:
    """Every number the worksheet and its key state, computed (unformatted)."""
    model = ScalarTimer()
    tempo, cv = model.seconds_per_step, model.cv
    mu_low, mu_high = tempo * LOW, tempo * HIGH
    sd_low, sd_high = cv * mu_low, cv * mu_high
    sd_d = math.hypot(sd_low, sd_high)
    z = (0 - (mu_high - mu_low)) / sd_d
    pile_mu_low, pile_mu_high = tempo * (LOW - PILE), tempo * (HIGH - PILE)
    pile_sd = math.hypot(cv * pile_mu_low, cv * pile_mu_high)
    pile_z = -(pile_mu_high - pile_mu_low) / pile_sd
    unseen_a, below_a = _star_story()
    top_b, own_b, unseen_b, others_b = _four_players()
    between_b = own_b - top_b - 1
    none_b = p_no_card_between(between_b, unseen_b, others_b)
    sim = swap_share(ScalarTimer(cv=cv), SLIDER_LEVELS)
    p = normal_cdf(z)
    se = math.sqrt(p * (1 - p) / SLIDER_LEVELS)
    team = simulate(
        players=3, bots=ScalarTimer(), games=TEAM_GAMES, seed=TEAM_SEED, progress=False
    ).summary()
    out = dict(
        tempo=tempo,
        cv=cv,
        low=LOW,
        high=HIGH,
        mu_low=mu_low,
        mu_high=mu_high,
        sd_low=sd_low,
        sd_high=sd_high,
        mu_d=mu_high - mu_low,
        sd_d=sd_d,
        z=z,
        p_swap=p,
        p_swap_lesson=p_wrong_order(LOW, HIGH),
        pile=PILE,
        pile_mu_low=pile_mu_low,
        pile_mu_high=pile_mu_high,
        pile_sd_low=cv * pile_mu_low,
        pile_sd_high=cv * pile_mu_high,
        pile_sd_d=pile_sd,
        pile_z=pile_z,
        p_pile=normal_cdf(pile_z),
        root=math.hypot(mu_low, mu_high),
        unseen_a=unseen_a,
        below_a=below_a,
        p_a=below_a / unseen_a,
        top_b=top_b,
        own_b=own_b,
        unseen_b=unseen_b,
        others_b=others_b,
        between_b=between_b,
        none_b=none_b,
        risk_b=1 - none_b,
        levels=SLIDER_LEVELS,
        sim=sim,
        se=se,
        diff=abs(sim - p),
        diff_se=abs(sim - p) / se,
        se_ten=math.sqrt(p * (1 - p) / (10 * SLIDER_LEVELS)),
        team_games=TEAM_GAMES,
        team=team.win_rate,
        team_dec=team.win_rate,
        three=team.win_rate**3,
        pairs=expected_adjacent_pairs(3, 10),
        pairs_dealt=30,
        pairs_each=10,
    )
    for i, c in enumerate(OWN_SPREADS):
        out[f"own_cv_{i}"] = c
        out[f"own_p_{i}"] = normal_cdf(-(mu_high - mu_low) / (c * math.hypot(mu_low, mu_high)))
    return out


def figures(lang: str) -> dict[str, str]:
    """The numbers as the sheet prints them in ``lang`` (decimal comma in nl and de)."""
    check_lang(lang)
    n = numbers()

    def num(digits: int) -> Callable[[float], str]:
        return lambda x: number(x, lang, digits)

    def pct(digits: int) -> Callable[[float], str]:
        return lambda x: percent(x, lang, digits)

    style: dict[str, Callable[[float], str]] = {
        "tempo": num(1),
        "cv": pct(0),
        "low": num(0),
        "high": num(0),
        "mu_low": num(1),
        "mu_high": num(1),
        "sd_low": num(2),
        "sd_high": num(2),
        "mu_d": num(1),
        "sd_d": num(2),
        "z": lambda x: number(x, lang, 2).replace("-", "\u2212"),
        "p_swap": pct(1),
        "p_swap_lesson": pct(1),
        "pile": num(0),
        "pile_mu_low": num(1),
        "pile_mu_high": num(1),
        "pile_sd_low": num(2),
        "pile_sd_high": num(2),
        "pile_sd_d": num(2),
        "pile_z": lambda x: number(x, lang, 2).replace("-", "\u2212"),
        "p_pile": pct(2),
        "root": num(2),
        "unseen_a": num(0),
        "below_a": num(0),
        "p_a": pct(1),
        "top_b": num(0),
        "own_b": num(0),
        "unseen_b": num(0),
        "others_b": num(0),
        "between_b": num(0),
        "none_b": pct(1),
        "risk_b": pct(1),
        "levels": num(0),
        "sim": pct(1),
        "se": lambda x: number(100 * x, lang, 1),
        "diff": lambda x: number(100 * x, lang, 1),
        "diff_se": num(1),
        "se_ten": lambda x: number(100 * x, lang, 1),
        "team_games": num(0),
        "team": pct(1),
        "team_dec": num(3),
        "three": pct(1),
        "pairs": num(1),
        "pairs_dealt": num(0),
        "pairs_each": num(0),
    }
    for i in range(len(OWN_SPREADS)):
        style[f"own_cv_{i}"] = pct(0)
        style[f"own_p_{i}"] = pct(1)
    if set(style) != set(n):
        raise AssertionError(f"unformatted numbers: {sorted(set(n) ^ set(style))}")
    out = {key: style[key](value) for key, value in n.items()}
    # Dutch and German write "27,7 %" inside a sentence as the lesson does; Typst
    # markup reads a plain "%" as text, so nothing needs escaping.
    out["blank"] = "#box(width: 2.2cm, stroke: (bottom: 0.5pt))"
    out["space"] = "#v(0.8cm)"
    return out


def _fill(template: str, values: dict[str, str], where: str) -> str:
    def one(m: re.Match[str]) -> str:
        if m.group(1) not in values:
            raise KeyError(f"{where}: no number named {{{m.group(1)}}}")
        return values[m.group(1)]

    return _PLACEHOLDER.sub(one, template)


def _lines(value: Any) -> str:
    return "\n".join(value) if isinstance(value, list) else str(value)


def source(lang: str, answers: bool = False) -> str:
    """The Typst text of the pupils' sheet (or, with ``answers``, of the answer key)."""
    words = texts(lang)
    values = figures(lang)

    def say(key: str) -> str:
        return _fill(_lines(words[key]), values, f"locales/worksheet/{lang}.json {key}")

    head = [
        '#set document(title: "' + say("title_key" if answers else "title") + '", date: none)',
        '#set page(paper: "a4", margin: (x: 17mm, top: 15mm, bottom: 15mm),',
        "  footer: context [#set text(8pt, fill: luma(90)); "
        + say("footer")
        + " #h(1fr) #counter(page).display()])",
        f'#set text(font: "Libertinus Serif", size: 11pt, lang: "{lang}")',
        "#set par(justify: false, leading: 0.58em)",
        '#show heading: set text(font: "Libertinus Serif", fill: rgb("#0b4f8a"))',
        "#show heading.where(level: 1): set text(size: 17pt)",
        "#show heading.where(level: 2): set text(size: 12.5pt)",
        "#show heading: set block(above: 1.1em, below: 0.55em)",
        '#let model(body) = block(fill: rgb("#eef5fb"), stroke: (left: 3pt + rgb("#0072B2")),'
        " inset: 7pt, width: 100%, body)",
        "#let answer(body) = block(inset: (left: 8pt), above: 0.4em, below: 0.9em,"
        ' stroke: (left: 1.5pt + rgb("#009E73")), body)',
        "",
    ]
    body: list[str] = []
    if answers:
        body += [f"= {say('title_key')}", say("key_intro"), ""]
        for part in words["parts"]:
            body.append(f"== {say(part + '_title')}")
            body.append(say(part + "_key"))
            body.append("")
    else:
        body += [
            f"= {say('title')}",
            say("name_line"),
            "",
            say("intro"),
            "",
            "#model[" + say("model") + "]",
            "",
        ]
        for part in words["parts"]:
            body.append(f"== {say(part + '_title')}")
            body.append(say(part))
            if part == "own":
                body.append(_table(words, lang))
                body.append(say("own_after"))
            body.append("")
    return "\n".join(head + body) + "\n"


def _table(words: dict[str, Any], lang: str) -> str:
    """The table a pupil fills in: one row per play, gap, wait, wait per step."""
    heads = ", ".join(f"[*{h}*]" for h in words["table_heads"])
    rows = ", ".join(f"[{i}], [], [], []" for i in range(1, ROWS + 1))
    return (
        "#table(columns: (1.2cm, 1fr, 1fr, 1fr), rows: (auto,) + (0.7cm,) * "
        f"{ROWS}, align: (center, center, center, center), stroke: 0.5pt + luma(120), "
        f"{heads}, {rows})"
    )


def pdf(lang: str, answers: bool = False) -> bytes:
    """The sheet (or key) typeset as an A4 PDF (needs Typst's Python package)."""
    import typst  # only the build and the tests need it (the ``worksheet`` extra)

    data = typst.compile(source(lang, answers).encode("utf-8"), ignore_system_fonts=True)
    if not isinstance(data, bytes):
        raise TypeError("typst.compile gave no PDF")
    return data
