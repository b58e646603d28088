"""The widget's words in English, Dutch and German: one JSON file per language.

``mindwidget/locales/{en,nl,de}.json`` hold every user-visible string of the
widget. The JavaScript bundle imports the same files (esbuild inlines them),
and Python reads them here, e.g. to put a refused message into words.
Placeholders look like ``{name}``.

Seats: code counts seats from 0 (``game.hands[0]``, ``player=0``); everything a
pupil reads counts them from 1 ("Player 1", "Bot 2", "You (player 1)"). The
placeholder ``{player}`` always receives the seat *index* and shows it plus
one (`seat_number`); the same rule holds in ``js/i18n.js``. No caller adds 1.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from .checks import LANGS, choice

__all__ = ["LANGS", "family", "messages", "plural", "reason", "say_in", "seat_number", "translate"]

_DIR = Path(__file__).resolve().parent / "locales"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def _load(lang: str) -> dict[str, str]:
    data = json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError(f"locales/{lang}.json must map keys to strings.")
    return data


def messages(lang: str) -> dict[str, str]:
    """Every string of one language, by key (a copy)."""
    choice("lang", lang, LANGS, quoted=False)
    return dict(_load(lang))


def plural(lang: str, n: float) -> str:
    """The plural category of ``n`` in ``lang``: "one" or "other".

    English, Dutch and German all have these two (as ``Intl.PluralRules`` says
    in the browser): "one" for exactly 1, "other" for everything else (0 too).
    """
    return "one" if n == 1 else "other"


def seat_number(index: Any) -> Any:
    """The number a pupil reads for the seat with code index ``index`` (0 -> 1).

    Anything that is not a whole number (a name already in words) is left as it is.
    """
    if isinstance(index, bool) or not hasattr(index, "__index__"):
        return index
    return int(index) + 1


def _fill(name: str, params: dict[str, Any], whole: str) -> str:
    if name not in params:
        return whole
    value = params[name]
    return str(seat_number(value) if name == "player" else value)


def decimal(x: float, lang: str = "en", digits: int = 1) -> str:
    """A number as ``lang`` writes it: 0.89 (en), 0,89 (nl, de); one format per language."""
    text = f"{x:.{digits}f}"
    return text if lang == "en" else text.replace(".", ",")


def translate(key: str, lang: str = "en", /, **params: Any) -> str:
    """The string ``key`` in ``lang`` with its ``{placeholders}`` filled in.

    A key with singular and plural forms (``key_one``, ``key_other`` in the
    locale files) is chosen by `plural` of the ``n`` parameter. A missing key
    falls back to English, then to the key itself. ``player`` is a seat index,
    shown counted from 1 (the module docstring).
    """
    table = _load(lang) if lang in LANGS else {}
    english = _load("en")
    if key not in english and "n" in params and isinstance(params["n"], (int, float)):
        form = f"{key}_{plural(lang, params['n'])}"
        if form in english:
            key = form
    text = table.get(key)
    if text is None:
        text = english.get(key, key)
    return _PLACEHOLDER.sub(lambda m: _fill(m.group(1), params, m.group(0)), text)


def reason(error: BaseException, lang: str = "en") -> str:
    """Why the rules refused something, in ``lang``.

    A `RuleError` with a ``key`` is said with the locale string
    ``refused_<key>`` and its ``params``; any other error (an argument check a
    pupil does not meet) is its English message.
    """
    said = getattr(error, "text", None)
    if callable(said):  # the one refusal above the core (mindwidget.refusal.Refused) says itself
        return str(said(lang))
    key = getattr(error, "key", None)
    if not key:
        return str(error)
    return translate(f"refused_{key}", lang, **getattr(error, "params", {}))


@cache
def family(name: str, lang: str) -> dict[str, Any]:
    """The strings of one family of ``locales/<name>/<lang>.json`` (the command's
    words are ``cli``): a JSON object (English for an unknown language)."""
    if not re.fullmatch(r"[a-z]+", name):
        raise ValueError(f"a family of strings is a folder of locales/, not {name!r}.")
    path = _DIR / name / f"{lang if lang in LANGS else 'en'}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"locales/{name}/{lang}.json must hold a JSON object.")
    return data


def say_in(name: str, key: str, lang: str = "en", /, **params: Any) -> str:
    """The string ``key`` of the family ``name`` in ``lang``, its ``{placeholders}``
    filled in (English, then the key itself, as fallback)."""
    text = family(name, lang).get(key) or family(name, "en").get(key, key)
    return _PLACEHOLDER.sub(lambda m: _fill(m.group(1), params, m.group(0)), str(text))
