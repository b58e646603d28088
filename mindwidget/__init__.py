"""mindwidget: The Mind as a Jupyter widget and a Python library."""

from .game import Game, Observation
from .rules import RuleError, Rules

__all__ = ["Game", "Observation", "RuleError", "Rules"]
__version__ = "0.1.0"
