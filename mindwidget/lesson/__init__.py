"""The lesson's building blocks: what the notebooks in ``notebooks/<lang>/`` call.

The lesson notebooks hold no helper code: every cell is one call into this
module, in the notebook's language, e.g. ::

    from mindwidget import lesson
    lesson.play("nl")                      # a table for one person and two bots
    lesson.scenario("mistake", "nl")       # a rule, step by step, in big text
    lesson.bet_team_sizes("nl")            # a bet, with its answer behind a button

Words: every string here is a key of ``mindwidget/locales/lesson/<lang>.json``
(the ``ui`` section); the notebooks' prose and the rules card come from the
same files (``tools/build_notebooks.py`` writes them). The game's own words
(lives, throwing stars, ...) come from the widget's locale files.

Answers to bets are computed when the cell runs (so "Run All" prepares them)
but shown only when someone presses "Show the answer": `Answer`.

Arguments: ``lang`` is always the language of what a function shows ("en",
"nl" or "de"); ``w`` a `MindWidget` the lesson made; ``room`` a running
`Classroom`; ``data`` the class's data `experiment_class` returns. Counts of
games, draws or tries and seeds have the defaults the lesson texts rest on;
smaller counts are for tests.

Nothing here raises when a teacher follows the text: `next_moves` presses
Ready only when the table waits for it, and says in words when there is
nothing left to do.

Modules: `kit` is the UI kit (words, `readable`, `Answer`, `Bet`); one module
per notebook of ``notebooks/src/`` (`nb01_play` ... `nb06_class`, named
after the notebook, not after a function, so that ``lesson.play`` stays the
function); `card` the rules card. Every public name is re-exported here.
"""

from __future__ import annotations

from . import nb06_class, nb07_experiment
from .card import rules_card
from .kit import Answer, Bet, flat, number, percent, readable, text, texts
from .nb01_play import class_view, inner_clock, next_moves, play, trace_of, watch
from .nb02_rules import (
    AT_THE_TABLE,
    BLIND,
    COMMON_MISTAKES,
    LessonScenario,
    scenario,
    scenario_menu,
    setup_table,
)
from .nb03_probability import (
    bet_noise,
    bet_pairs,
    bet_star_habits,
    bet_swap,
    bet_team_sizes,
    bet_watch_bots,
    far_above,
    noise_slider,
    pile_table,
    sandbox,
    sandbox_result,
)
from .nb04_scenarios import bet_branch, refusals_in
from .nb05_cooperation import (
    before_after,
    bet_adaptive,
    bet_one_fast,
    bet_person,
    tempo_by_level,
    tempos,
    tempos_meet,
    your_tempo,
)
from .nb06_class import *  # noqa: F403  (its __all__: the sixth notebook's names)
from .nb07_experiment import *  # noqa: F403  (its __all__: the seventh notebook's names)

#: Every public name of the lesson modules (the notebooks and tests use them as
#: ``lesson.<name>``).
__all__ = [
    "AT_THE_TABLE",
    "Answer",
    "BLIND",
    "Bet",
    "COMMON_MISTAKES",
    "LessonScenario",
    "before_after",
    "bet_adaptive",
    "bet_branch",
    "bet_noise",
    "bet_one_fast",
    "bet_pairs",
    "bet_person",
    "bet_star_habits",
    "bet_swap",
    "bet_team_sizes",
    "bet_watch_bots",
    "class_view",
    "far_above",
    "flat",
    "inner_clock",
    "next_moves",
    "noise_slider",
    "number",
    "percent",
    "pile_table",
    "play",
    "readable",
    "refusals_in",
    "rules_card",
    "sandbox",
    "sandbox_result",
    "scenario",
    "scenario_menu",
    "setup_table",
    "tempo_by_level",
    "tempos",
    "tempos_meet",
    "text",
    "texts",
    "trace_of",
    "watch",
    "your_tempo",
]
__all__ += nb06_class.__all__
__all__ += nb07_experiment.__all__
