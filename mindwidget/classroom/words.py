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
import unicodedata
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


#: Letters of other scripts that look like a Latin letter, each with the letter it
#: looks like: the entries of Unicode's confusables.txt (UTS #39, "Unicode Security
#: Mechanisms", section 4) whose source is a small Cyrillic, Greek or Armenian letter
#: and whose prototype is one small Latin letter, and the capitals that look like a
#: Latin capital (UTS #39 maps I, Greek Iota and Cyrillic I to "l"; here all three
#: are "I", which comes to the same once names are in lower case). Wide and styled
#: letters ("Ａｎｎａ") need no entry: NFKC folds them.
LOOK_ALIKE = str.maketrans(
    {
        # capitals: Cyrillic, Greek
        "\u0405": "S", "\u0406": "I", "\u0408": "J", "\u0410": "A", "\u0412": "B",
        "\u0415": "E", "\u041a": "K", "\u041c": "M", "\u041d": "H", "\u041e": "O",
        "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0423": "Y", "\u0425": "X",
        "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H",
        "\u0399": "I", "\u039a": "K", "\u039c": "M", "\u039d": "N", "\u039f": "O",
        "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
        # Cyrillic
        "\u0430": "a", "\u0433": "r", "\u0435": "e", "\u043e": "o", "\u0440": "p",
        "\u0441": "c", "\u0443": "y", "\u0445": "x", "\u0455": "s", "\u0456": "i",
        "\u0458": "j", "\u0461": "w", "\u0475": "v", "\u04af": "y", "\u04bb": "h",
        "\u04bd": "e", "\u04cf": "i", "\u0501": "d", "\u051b": "q", "\u051d": "w",
        # Greek
        "\u03b1": "a", "\u03b3": "y", "\u03b9": "i", "\u03bd": "v", "\u03bf": "o",
        "\u03c1": "p", "\u03c3": "o", "\u03c5": "u", "\u03f1": "p", "\u03f2": "c",
        "\u03f3": "j",
        # Armenian
        "\u0561": "w", "\u0563": "q", "\u0566": "q", "\u0570": "h", "\u0578": "n",
        "\u057c": "n", "\u057d": "u", "\u0581": "g", "\u0584": "f", "\u0585": "o",
    }
)  # fmt: skip


def fold(name: str) -> str:
    """The form two names are compared in: "anna", "Anna ", the wide "Ａｎｎａ" and the
    Cyrillic "Аnna" are all the same name (NFKC, lower case, then `LOOK_ALIKE`, a
    small part of UTS #39's confusable skeleton)."""
    wide_folded = unicodedata.normalize("NFKC", " ".join(name.split())).translate(LOOK_ALIKE)
    return unicodedata.normalize("NFKC", wide_folded.casefold()).translate(LOOK_ALIKE)
