"""mindwidget: The Mind as a Jupyter widget and a Python library.

Every name below is imported on first use (PEP 562), so ``import
mindwidget.game`` or ``from mindwidget import Game`` loads the game core only
(and its words, `mindwidget.describe`, loaded with the package): no IPython,
matplotlib, pandas or anywidget until a widget or a plot is asked for. To
export a new name, add it to `_EXPORTS` (and to the ``TYPE_CHECKING`` imports
below, for type checkers; a test checks that the two agree).
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
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
    "describe": ".describe",
    "plot_timing": ".plots",
    "timing_profile": ".timing",
    "trace": ".trace",
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
    from .describe import describe
    from .game import Game, Observation
    from .plots import plot_timing, plot_trace
    from .rules import RuleError, Rules
    from .scenario import Scenario
    from .scenario_widget import ScenarioPlayer
    from .sim import simulate
    from .table import Table
    from .timing import timing_profile
    from .trace import trace
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


class _Package(ModuleType):
    """This package, keeping ``mindwidget.trace`` the function.

    When a submodule loads, Python sets it as an attribute of its package:
    loading ``mindwidget.trace`` (the module) would hide `trace` (the
    function it exports under the same name). The function wins, as it did
    when this package imported everything eagerly.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _EXPORTS.get(name) == "." + name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

# The core says nothing in words: `Game.describe()` and a game's repr get theirs
# from mindwidget/describe.py (above the core, with the locale files), which hands
# them to the core when it loads. Loading it here, with the package, makes every
# game speak however it was imported; it loads the core and the locale reader only.
import_module(".describe", __name__)


def __dir__() -> list[str]:
    return sorted({*__all__, "__version__", "__doc__", "__name__", "__path__"})


def _version() -> str:
    """The installed distribution's version: the one in pyproject.toml."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mindwidget")
    except PackageNotFoundError:  # a source tree on sys.path, never installed
        return "0+unknown"
