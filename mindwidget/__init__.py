"""mindwidget: The Mind as a Jupyter widget and a Python library."""

from .adaptive import AdaptiveTimer
from .bots import PerfectTimer, ScalarTimer, StarPolicy
from .game import Game, Observation
from .rules import RuleError, Rules
from .runner import run_game, run_level
from .scenario import Scenario
from .scenario_widget import ScenarioPlayer
from .sim import simulate
from .table import Table
from .trace import plot_trace, trace
from .widget import MindWidget

__all__ = [
    "AdaptiveTimer",
    "Game",
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
    "plot_trace",
    "run_game",
    "run_level",
    "simulate",
    "trace",
]
__version__ = "0.1.0"
