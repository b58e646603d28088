"""mindwidget: The Mind as a Jupyter widget and a Python library.

Every name below is imported on first use (PEP 562), so ``import
mindwidget.game`` or ``from mindwidget import Game`` loads the game core only
(and its words, `mindwidget.descriptions`, loaded with the package): no IPython,
matplotlib, pandas or anywidget until a widget or a plot is asked for. To
export a new name, add it to `_EXPORTS` (and to the ``TYPE_CHECKING`` imports
below, for type checkers; a test checks that the two agree). No public name is
also the name of a submodule (the function `trace` lives in `mindwidget.traces`,
`describe` in `mindwidget.descriptions`): Python sets a submodule as an
attribute of its package when it loads, which would hide the name.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: Each public name and the module (relative to this package) that defines it.
_EXPORTS: dict[str, str] = {
    "AdaptiveTimer": ".bots",
    "Classroom": ".classroom",
    "Game": ".game",
    "HumanTimer": ".bots",
    "MindWidget": ".widget",
    "Observation": ".game",
    "PerfectTimer": ".bots",
    "RuleError": ".rules",
    "Rules": ".rules",
    "ScalarTimer": ".bots",
    "Scenario": ".scenario",
    "ScenarioPlayer": ".scenario_widget",
    "StarPolicy": ".bots",
    "plot_trace": ".plots",
    "run_game": ".bots.runner",
    "run_level": ".bots.runner",
    "simulate": ".sim",
    "Table": ".table",
    "describe": ".descriptions",
    "plot_timing": ".plots",
    "timing_profile": ".timing",
    "trace": ".traces",
}

__all__ = [
    "AdaptiveTimer",
    "Classroom",
    "Game",
    "HumanTimer",
    "MindWidget",
    "Observation",
    "PerfectTimer",
    "RuleError",
    "Rules",
    "ScalarTimer",
    "Scenario",
    "ScenarioPlayer",
    "StarPolicy",
    "Table",
    "describe",
    "plot_timing",
    "plot_trace",
    "run_game",
    "run_level",
    "simulate",
    "timing_profile",
    "trace",
]

if TYPE_CHECKING:
    from .bots import AdaptiveTimer, HumanTimer, PerfectTimer, ScalarTimer, StarPolicy
    from .bots.runner import run_game, run_level
    from .classroom import Classroom
    from .descriptions import describe
    from .game import Game, Observation
    from .plots import plot_timing, plot_trace
    from .rules import RuleError, Rules
    from .scenario import Scenario
    from .scenario_widget import ScenarioPlayer
    from .sim import simulate
    from .table import Table
    from .timing import timing_profile
    from .traces import trace
    from .widget import MindWidget

    __version__: str


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(import_module(module, __name__), name)
    elif name == "__version__":
        value = _version()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


# The core says nothing in words: `Game.describe()` and a game's repr get theirs
# from mindwidget/descriptions.py (above the core, with the locale files), which hands
# them to the core when it loads. Loading it here, with the package, makes every
# game speak however it was imported; it loads the core and the locale reader only.
import_module(".descriptions", __name__)


def __dir__() -> list[str]:
    return sorted({*__all__, "__version__", "__doc__", "__name__", "__path__"})


def _version() -> str:
    """The installed distribution's version: the one in pyproject.toml."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mindwidget")
    except PackageNotFoundError:  # a source tree on sys.path, never installed
        return "0+unknown"
