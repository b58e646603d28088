"""The widget's words in English, Dutch and German: one JSON file per language.

``mindwidget/locales/{en,nl,de}.json`` hold every user-visible string of the
widget. The JavaScript bundle imports the same files (esbuild inlines them),
and Python reads them here, e.g. to put a refused message into words.
Placeholders look like ``{name}``.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["LANGS", "messages", "translate"]

LANGS = ("en", "nl", "de")
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
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}.")
    return dict(_load(lang))


def translate(key: str, lang: str = "en", **params: Any) -> str:
    """The string ``key`` in ``lang`` with its ``{placeholders}`` filled in.

    A missing key falls back to English, then to the key itself.
    """
    text = _load(lang).get(key) if lang in LANGS else None
    if text is None:
        text = _load("en").get(key, key)
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)
