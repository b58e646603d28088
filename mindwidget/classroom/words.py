"""The class server's words in English, Dutch and German, and made-up nicknames.

The strings live in ``mindwidget/locales/class/{en,nl,de}.json`` (one place per
language; the pupil page's bundle imports the same files). Placeholders look
like ``{name}``. Nicknames are an adjective and an animal from the same files
("Snelle Vos", "Kluger Fuchs"), so they read naturally in each language.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Container
from functools import cache
from pathlib import Path
from typing import Any

from ..i18n import LANGS

__all__ = ["LANGS", "NAME_MAX", "check_name", "make_name", "say", "strings"]

_DIR = Path(__file__).resolve().parent.parent / "locales" / "class"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: The longest nickname, in characters.
NAME_MAX = 20


@cache
def strings(lang: str) -> dict[str, str]:
    """Every class string of ``lang`` (unknown languages: English)."""
    if lang not in LANGS:
        lang = "en"
    data = json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError(f"locales/class/{lang}.json must map keys to strings.")
    return data


def say(key: str, lang: str = "en", **params: Any) -> str:
    """The class string ``key`` in ``lang`` with its placeholders filled (English, then
    the key itself, as fallback)."""
    text = strings(lang).get(key) or strings("en").get(key, key)
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


def check_name(name: object) -> str | None:
    """``name`` tidied (spaces at the ends dropped, runs of spaces made one), or None
    when it is not 1 to `NAME_MAX` printable characters."""
    if not isinstance(name, str) or len(name) > 4 * NAME_MAX or not name.isprintable():
        return None  # (a space is printable; a tab, a newline or a control character is not)
    tidy = " ".join(name.split())
    if not 1 <= len(tidy) <= NAME_MAX or not tidy.isprintable():
        return None
    return tidy


def make_name(lang: str, taken: Container[str]) -> str:
    """A nickname in ``lang`` that no one in ``taken`` (folded names) has."""
    first = strings(lang)["nick_first"].split(",")
    second = strings(lang)["nick_second"].split(",")
    for attempt in range(200):
        name = f"{secrets.choice(first)} {secrets.choice(second)}"
        if attempt >= 50:
            name = f"{name[: NAME_MAX - 3]} {secrets.randbelow(90) + 10}"
        if fold(name) not in taken:
            return name
    raise RuntimeError("no free nickname")  # 120 names x 90 numbers: a class never gets here


def fold(name: str) -> str:
    """The form two names are compared in ("anna" and "Anna " are the same name)."""
    return " ".join(name.split()).casefold()
