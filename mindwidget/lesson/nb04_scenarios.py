"""Notebook 04-scenarios (notebooks/src/04-scenarios.cells): what happens from here."""

from __future__ import annotations

from ..bots import PerfectTimer, ScalarTimer
from ..game import Game
from ..runner import run_level
from ..trace import plot_trace
from .kit import Answer, Bet, number, text


def bet_branch(start: Game, lang: str, tries: int = 1000, perfect_tries: int = 100) -> Bet:
    """From ``start``, how often do bots clear the level without losing a life?"""
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
    question = text("04-scenarios.bet_branch", lang, tries=number(tries, lang))
    return Bet(question, answer, out_of=tries, lang=lang)
