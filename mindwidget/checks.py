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
from concurrent.futures import Executor
from typing import Any, TypeVar

__all__ = [
    "LANGS",
    "MAX_JSON_CHARS",
    "MAX_JSON_DEPTH",
    "MAX_LEVEL_SECONDS",
    "WATCH_SPEEDS",
    "adaptation",
    "check_speed",
    "level_seconds",
    "choice",
    "executor",
    "finite",
    "flag",
    "instance",
    "load_json",
    "one_of",
    "seat",
    "whole",
]

T = TypeVar("T")

#: The languages mindwidget speaks, one locale file each (``locales/<lang>.json``,
#: read by `mindwidget.i18n`, which names the same tuple). Here so that the core
#: can check a game's ``lang`` without loading any words.
LANGS = ("en", "nl", "de")

#: The largest JSON text a file may hold (a saved game of 100,000 actions is
#: about 5 MB), and how deeply its lists and objects may nest (a saved game
#: nests 4 deep, a scenario 5).
MAX_JSON_CHARS = 8_000_000
MAX_JSON_DEPTH = 32


# ------------------------------------------------ the table's and the session's checks

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


def _range(lo: float | None, hi: float | None, above: float | None = None) -> str:
    if above is not None:  # an open lower bound
        return f"> {_num(above)}" + (f" and <= {_num(hi)}" if hi is not None else "")
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
    none: bool = False,
    error: type[ValueError] = ValueError,
) -> int:
    """``value`` as a plain ``int`` if it is a whole number in ``[lo, hi]``.

    ``none=True``: the message says that None is allowed too (the caller
    lets None through before asking).
    """
    if type(value) is int:
        number = value
    elif not isinstance(value, bool) and isinstance(value, numbers.Integral):
        number = int(value)
    else:
        allowed = f" {_range(lo, hi)}" if lo is not None or hi is not None else ""
        or_none = "None or " if none else ""
        raise error(f"{name} must be {or_none}a whole number{allowed}, not {value!r}.")
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        kind = "" if lo is not None and hi is not None else "a whole number "
        if none:
            kind = f"None or {kind or 'a whole number '}"
        raise error(f"{name} must be {kind}{_range(lo, hi)}, not {number}.")
    return number


def finite(
    name: str,
    value: object,
    lo: float | None = None,
    hi: float | None = None,
    *,
    above: float | None = None,
    allowed: str | None = None,
    error: type[ValueError] = ValueError,
) -> float:
    """``value`` as a plain ``float`` if it is a finite number in ``[lo, hi]``
    (and ``> above``). ``allowed`` replaces the words for what is allowed
    (e.g. "'slow', 'people', 'quick' or a finite number > 0")."""
    if allowed is None:
        allowed = f"a finite number {_range(lo, hi, above)}".rstrip()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise error(f"{name} must be {allowed}, not {value!r}.")
    number = float(value)
    if (
        not math.isfinite(number)
        or (lo is not None and number < lo)
        or (hi is not None and number > hi)
        or (above is not None and number <= above)
    ):
        # a Python int or float as written; a numpy float as a number, not np.float64(...)
        shown = repr(value) if type(value).__module__ == "builtins" else f"{number:g}"
        raise error(f"{name} must be {allowed}, not {shown}.")
    return number


def flag(name: str, value: object, *, error: type[ValueError] = ValueError) -> bool:
    """``value`` if it is ``True`` or ``False`` (numpy's ``bool_`` too)."""
    if isinstance(value, bool):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
        return bool(value)
    raise error(f"{name} must be True or False, not {value!r}.")


def choice(
    name: str,
    value: T,
    allowed: Collection[T],
    *,
    quoted: bool = True,
    error: type[ValueError] = ValueError,
) -> T:
    """``value`` if it is one of ``allowed`` (listed as written with ``quoted=False``:
    "lang must be one of en, nl, de, not 'fr'.")."""
    try:
        ok = value in allowed
    except TypeError:  # an unhashable value asked of a set
        ok = False
    if not ok:
        listed = ", ".join(map(repr if quoted else str, allowed))
        raise error(f"{name} must be one of {listed}, not {value!r}.")
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


# ------------------------------------------------ bots, simulation, scenarios
# (formerly bots/checks.py and the local checks of sim.py and scenario_widget.py)
def one_of(
    name: str, value: T, allowed: tuple[T, ...], *, error: type[ValueError] = ValueError
) -> T:
    """``value`` if it is one of ``allowed``, of its type too (1 is not True):
    "engine must be 'auto', 'fast' or 'reference', not 'turbo'."."""
    if not any(isinstance(value, type(a)) and value == a for a in allowed):
        names = [repr(a) for a in allowed]
        listed = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]
        raise error(f"{name} must be {listed}, not {value!r}.")
    return value


def instance(
    name: str,
    value: object,
    kind: type[T],
    *,
    none: bool = False,
    error: type[ValueError] = ValueError,
) -> T:
    """``value`` if it is a ``kind`` (or None, with ``none=True``):
    "rules must be None or a Rules(...), not {...}."."""
    if isinstance(value, kind) or (none and value is None):
        return value  # type: ignore[return-value]
    or_none = "None or " if none else ""
    raise error(f"{name} must be {or_none}a {kind.__name__}(...), not {value!r}.")


def seat(name: str, value: object, seats: int, *, none: str | None = None) -> int | None:
    """A seat number from 0 to ``seats - 1`` (numpy integers too); None when
    ``none`` names what None means ("bots only")."""
    if value is None and none is not None:
        return None
    try:
        number = whole(name, value)
    except ValueError:
        number = -1
    if not 0 <= number < seats:
        or_none = f"None ({none}) or " if none is not None else ""
        raise ValueError(f"{name} must be {or_none}a seat from 0 to {seats - 1}, not {value!r}.")
    return number


def executor(value: object) -> Executor | None:
    """None, an `Executor`, or a Dask ``distributed.Client`` (its ``get_executor()``)."""
    if value is None or isinstance(value, Executor):
        return value
    get = getattr(value, "get_executor", None)
    if callable(get) and not isinstance(value, type):
        chosen = get()
        if isinstance(chosen, Executor):
            return chosen
    raise ValueError(
        "executor must be None, a concurrent.futures.Executor or a Dask distributed.Client, "
        f"not {value!r}."
    )


def adaptation(
    rate: object, min_gap: object, max_ratio: object, *, still: bool
) -> tuple[float, int, float]:
    """The adaptation settings of a bot that follows the table's tempo: ``rate``
    in (0, 1] (``still``: [0, 1], 0 for a bot that keeps its tempo), ``min_gap``
    (at least 1) and ``max_ratio`` > 1."""
    checked = finite("rate", rate, 0, 1) if still else finite("rate", rate, hi=1, above=0)
    gap = max(1, whole("min_gap", min_gap, 0))
    ratio = finite("max_ratio", max_ratio, above=1)
    return checked, gap, ratio
