"""mindwidget: The Mind as a Jupyter widget and a Python library."""

from .bots import AdaptiveTimer, HumanTimer, PerfectTimer, ScalarTimer, StarPolicy
from .game import Game, Observation
from .rules import RuleError, Rules
from .runner import run_game, run_level
from .scenario_widget import ScenarioPlayer
from .scenarios import Scenario
from .sim import simulate
from .table import Table
from .timing import plot_timing, timing_profile
from .trace import plot_trace, trace
from .widget import MindWidget

__all__ = [
    "AdaptiveTimer",
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
    "plot_timing",
    "plot_trace",
    "run_game",
    "run_level",
    "simulate",
    "timing_profile",
    "trace",
]
__version__ = "0.1.0"
