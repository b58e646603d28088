"""Argument checks shared by every layer: one error policy, one wording.

* A whole number is a Python ``int`` or a numpy integer (``np.int64(3)``);
  a ``bool`` is never one. The checked value comes back as a plain ``int``,
  so it saves to JSON like any other.
* A number is a whole number or a float (numpy floats too), finite, and comes
  back as a plain ``float``.
* Every message names the parameter, says what was wrong and what is allowed.
* The error is `ValueError` by default. The rules core passes
  ``error=RuleError`` (a `ValueError` too): what the rules refuse, and every
  bad argument of a game's actions, is a `RuleError` there.

This module is part of the core layer: it imports nothing but the standard
library (no numpy: numpy registers its integers as `numbers.Integral`).
"""

from __future__ import annotations

import itertools
import json
import math
import numbers
import re
from collections.abc import Collection
from typing import Any, TypeVar

__all__ = [
    "MAX_JSON_CHARS",
    "MAX_JSON_DEPTH",
    "choice",
    "finite",
    "flag",
    "load_json",
    "whole",
]

T = TypeVar("T")

#: The largest JSON text a file may hold (a saved game of 100,000 actions is
#: about 5 MB), and how deeply its lists and objects may nest (a saved game
#: nests 4 deep, a scenario 5).
MAX_JSON_CHARS = 8_000_000
MAX_JSON_DEPTH = 32


# ------------------------------------------------ the table's and the session's checks
__all__ += ["MAX_LEVEL_SECONDS", "WATCH_SPEEDS", "check_speed", "level_seconds"]

#: The longest a level may last, in seconds of level time (a day): any later time is refused.
MAX_LEVEL_SECONDS = 86_400.0
#: How much faster than real time a front end may run the level clock of a table of bots only.
WATCH_SPEEDS = (1, 2, 4)


def level_seconds(name: str, value: object, limit: float = MAX_LEVEL_SECONDS) -> float:
    """``value`` as level seconds: a finite number from 0 to ``limit`` (a day), else ValueError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number of seconds, not {value!r}.")
    try:
        t = float(value)
    except OverflowError:
        t = math.inf
    if not (0 <= t <= limit):
        raise ValueError(
            f"{name} must be a finite number of seconds from 0 to {limit:g}, not {value!r}."
        )
    return t


def check_speed(speed: object) -> int:
    """A watch speed from `WATCH_SPEEDS`, else a ValueError naming the value and those allowed."""
    if isinstance(speed, bool) or not isinstance(speed, numbers.Real) or speed not in WATCH_SPEEDS:
        allowed = ", ".join(map(str, WATCH_SPEEDS))
        raise ValueError(f"speed must be one of {allowed}, not {speed!r}.")
    return next(s for s in WATCH_SPEEDS if s == speed)


# ------------------------------------------------ numbers, flags, choices


def _num(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


def _range(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"between {_num(lo)} and {_num(hi)}"
    if lo is not None:
        return f">= {_num(lo)}"
    if hi is not None:
        return f"<= {_num(hi)}"
    return ""


def whole(
    name: str,
    value: object,
    lo: int | None = None,
    hi: int | None = None,
    *,
    error: type[ValueError] = ValueError,
) -> int:
    """``value`` as a plain ``int`` if it is a whole number in ``[lo, hi]``."""
    if type(value) is int:
        number = value
    elif not isinstance(value, bool) and isinstance(value, numbers.Integral):
        number = int(value)
    else:
        allowed = f" {_range(lo, hi)}" if lo is not None or hi is not None else ""
        raise error(f"{name} must be a whole number{allowed}, not {value!r}.")
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        kind = "" if lo is not None and hi is not None else "a whole number "
        raise error(f"{name} must be {kind}{_range(lo, hi)}, not {number}.")
    return number


def finite(
    name: str,
    value: object,
    lo: float | None = None,
    hi: float | None = None,
    *,
    error: type[ValueError] = ValueError,
) -> float:
    """``value`` as a plain ``float`` if it is a finite number in ``[lo, hi]``."""
    allowed = f"a finite number {_range(lo, hi)}".rstrip()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise error(f"{name} must be {allowed}, not {value!r}.")
    number = float(value)
    if (
        not math.isfinite(number)
        or (lo is not None and number < lo)
        or (hi is not None and number > hi)
    ):
        raise error(f"{name} must be {allowed}, not {number:g}.")
    return number


def flag(name: str, value: object, *, error: type[ValueError] = ValueError) -> bool:
    """``value`` if it is ``True`` or ``False`` (numpy's ``bool_`` too)."""
    if isinstance(value, bool):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
        return bool(value)
    raise error(f"{name} must be True or False, not {value!r}.")


def choice(
    name: str, value: T, allowed: Collection[T], *, error: type[ValueError] = ValueError
) -> T:
    """``value`` if it is one of ``allowed``."""
    try:
        ok = value in allowed
    except TypeError:  # an unhashable value asked of a set
        ok = False
    if not ok:
        raise error(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}.")
    return value


# A JSON string, or an unclosed one running to the end of the text. The loop is
# "unrolled" (no alternation under the star) and it always matches from an
# opening quote, so scanning is linear in the text however hostile.
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 and -1 as signed bytes


def _depth(text: str) -> int:
    """How deeply the lists and objects in JSON ``text`` may nest, without parsing.

    A text that opens no more than `MAX_JSON_DEPTH` brackets cannot nest
    deeper than that. Otherwise strings are dropped and the running count of
    open brackets is taken at C speed; where brackets do not pair up, json
    stops at the first stray one, before nesting deeper than this count.
    """
    opening = text.count("[") + text.count("{")
    if opening <= MAX_JSON_DEPTH:  # cannot nest deeper than it opens
        return opening
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    steps = memoryview(brackets.encode("ascii").translate(_STEPS)).cast("b")
    return max(itertools.accumulate(steps), default=0)


def load_json(text: object, what: str, *, error: type[ValueError] = ValueError) -> Any:
    """Parse JSON ``text`` from a file or a browser: bounded size and nesting.

    ``what`` names the thing in the message ("a saved game"). Too long, too
    deeply nested or malformed text raises ``error``; parsing never recurses
    past `MAX_JSON_DEPTH` (a deeply nested text would raise `RecursionError`
    in `json.loads`).
    """
    if isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
        try:  # the encodings json.loads accepts for bytes
            text = raw.decode(json.detect_encoding(raw), "surrogatepass")
        except UnicodeDecodeError as exc:
            raise error(f"{what} must be JSON text: {exc}") from None
    if not isinstance(text, str):
        raise error(f"{what} must be JSON text, not {type(text).__name__}.")
    if len(text) > MAX_JSON_CHARS:
        raise error(
            f"{what} is too long: {len(text):,} characters; allowed: at most {MAX_JSON_CHARS:,}."
        )
    if _depth(text) > MAX_JSON_DEPTH:
        raise error(
            f"{what} nests its lists and objects too deeply; allowed: at most {MAX_JSON_DEPTH} "
            "levels."
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise error(f"{what} must be JSON text: {exc}") from None
