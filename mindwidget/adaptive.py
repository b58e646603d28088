"""`AdaptiveTimer` lives in `mindwidget.bots.adaptive`; this module keeps the old import path."""

from __future__ import annotations

from .bots.adaptive import AdaptiveTimer

__all__ = ["AdaptiveTimer"]
