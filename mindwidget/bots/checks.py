"""Argument checks shared by the bots: a clear `ValueError` naming the value."""

from __future__ import annotations

import math

import numpy as np

__all__: list[str] = []


def _check_number(name: str, value: object, allowed: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be {allowed}, not {value!r}.")
    return float(value)


def _check_positive(name: str, value: object) -> float:
    allowed = "a finite number > 0"
    number = _check_number(name, value, allowed)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"{name} must be {allowed}, not {value!r}.")
    return number


def _check_nonneg(name: str, value: object) -> float:
    allowed = "a finite number >= 0"
    number = _check_number(name, value, allowed)
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{name} must be {allowed}, not {value!r}.")
    return number


def _check_count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, not {value!r}.")
    return int(value)


def _check_adaptation(
    rate: object, min_gap: object, max_ratio: object, *, still: bool
) -> tuple[float, int, float]:
    """The adaptation settings of a bot that follows the table's tempo: ``rate``
    in (0, 1] (``still``: [0, 1], 0 for a bot that keeps its tempo), ``min_gap``
    (at least 1) and ``max_ratio`` > 1."""
    if still:
        checked = _check_nonneg("rate", rate)
        interval = "[0, 1]"
    else:
        checked = _check_positive("rate", rate)
        interval = "(0, 1]"
    if checked > 1:
        raise ValueError(f"rate must be a number in {interval}, not {checked!r}.")
    gap = max(1, _check_count("min_gap", min_gap))
    ratio = _check_positive("max_ratio", max_ratio)
    if ratio <= 1:
        raise ValueError(f"max_ratio must be a number > 1, not {ratio!r}.")
    return checked, gap, ratio
