"""Notebook 04-scenarios (notebooks/src/04-scenarios.cells): what happens from here."""

from __future__ import annotations

from typing import Any

from ..bots import PerfectTimer, ScalarTimer
from ..bots.runner import run_level
from ..game import Game
from ..i18n import LANGS, reason, translate
from ..plots import plot_trace
from ..rules import RuleError
from .kit import Answer, Bet, everyone, number, text


def bet_branch(start: Game, lang: str, tries: int = 1000, perfect_tries: int = 100) -> Bet:
    """From ``start``, how often do bots clear the level without losing a life?

    Args:
        start: The game to branch from (a scenario's state).
        lang: The language of the bet and its answer.
        tries: Branches played by bots with a human spread.
        perfect_tries: Branches played by perfect bots.
    """
    clean = sum(
        run_level(start.copy(), ScalarTimer(), seed=i).lives == start.lives for i in range(tries)
    )
    perfect = sum(
        run_level(start.copy(), PerfectTimer(), seed=i).lives == start.lives
        for i in range(perfect_tries)
    )
    fig = plot_trace(run_level(start.copy(), ScalarTimer(), seed=4), lang=lang)
    answer = Answer(
        text(
            "branch_answer",
            lang,
            clean=clean,
            tries=number(tries, lang),
            perfect=perfect,
            perfect_tries=perfect_tries,
        ),
        fig,
        lang=lang,
    )
    question = everyone("04-scenarios.bet_branch", tries=lambda lang: number(tries, lang))
    return Bet(question, answer, out_of=tries, lang=lang, right=clean)


def refusals_in(lang: str) -> None:
    """From now on a refusal (`RuleError`) raised in a cell of this notebook is
    printed in ``lang``, as one line, without a traceback: "Het spel weigert:
    Speler 1 heeft geen 5." (`i18n.reason`). ``str(error)`` stays English for
    developers. Outside IPython this does nothing.
    """
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}.")
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return
    shell = get_ipython()
    if shell is None:
        return

    def said(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None) -> None:
        print(f"{translate('scenario_refused', lang)} {reason(value, lang)}")

    shell.set_custom_exc((RuleError,), said)
