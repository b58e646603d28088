"""mindwidget: The Mind as a Jupyter widget and a Python library."""

from .game import Game, Observation
from .rules import RuleError, Rules
from .scenarios import Scenario
from .trace import plot_trace, trace
from .widget import MindWidget

__all__ = [
    "Game",
    "MindWidget",
    "Observation",
    "RuleError",
    "Rules",
    "Scenario",
    "plot_trace",
    "trace",
]
__version__ = "0.1.0"
