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
