"""English words on a Dutch or German screen: the words and where a notebook shows them.

Used by ``notebooks/conftest.py`` (every cell nbval runs in ``notebooks/nl`` and
``notebooks/de``) and ``tests/lesson/test_notebook_words.py``. The list holds only
English words that never occur in a Dutch or German sentence of the lesson
(no "in", "is", "of", "over", "hand", "won", "tip", "last", "team", "level"...),
so a hit is English. Names ("The Mind") are left out first.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from typing import Any

ENGLISH = frozenset(
    (
        "the",
        "and",
        "with",
        "when",
        "which",
        "what",
        "where",
        "who",
        "you",
        "your",
        "players",
        "player",
        "played",
        "plays",
        "lives",
        "stars",
        "star",
        "throwing",
        "pile",
        "discards",
        "discarded",
        "cards",
        "card",
        "hands",
        "mistake",
        "cleared",
        "waiting",
        "playing",
        "lost",
        "game",
        "games",
        "agree",
        "agrees",
        "declined",
        "press",
        "ready",
        "wait",
        "steps",
        "first",
        "lowest",
        "higher",
        "lower",
        "aside",
        "holds",
        "took",
        "answer",
        "hide",
        "yes",
        "seconds",
        "people",
        "guess",
        "our",
        "these",
        "those",
        "this",
        "that",
        "there",
        "their",
        "they",
    )
)
# names that are the same in every language
_NAMES = re.compile(r"The Mind|The Evolution of Trust|The Game")

_WORD = re.compile(r"[A-Za-z]+")
_TAG = re.compile(r"<(style|script)\b.*?</\1>|<[^>]+>", re.S | re.I)
# what a front end shows instead of text/plain (a widget, a picture, HTML)
_RICHER = (
    "application/vnd.jupyter.widget-view+json",
    "text/html",
    "image/png",
    "image/svg+xml",
    "text/markdown",
)


def english_in(text: str) -> list[str]:
    """The English words in ``text`` (case-insensitive), in order."""
    return [w for w in _WORD.findall(_NAMES.sub(" ", text)) if w.lower() in ENGLISH]


def shown(outputs: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """What a notebook front end shows of a cell's outputs, as ``(kind, text)``.

    Streams (stdout, stderr) and errors as they are; for a display or a
    result the representation a front end picks: a widget or a picture is not
    text (the widget's words come from the locale files, checked elsewhere),
    HTML without its tags, else text/plain.
    """
    out: list[tuple[str, str]] = []
    for o in outputs:
        kind = o.get("output_type")
        if kind == "stream":
            text = o.get("text", "")
            out.append(
                (f"stream/{o.get('name')}", "".join(text) if isinstance(text, list) else text)
            )
        elif kind == "error":
            out.append(("error", f"{o.get('ename')}: {o.get('evalue')}"))
        elif kind in ("display_data", "execute_result"):
            data = o.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data or any(
                k.startswith("image/") for k in data
            ):
                continue
            if "text/html" in data:
                raw = data["text/html"]
                raw = "".join(raw) if isinstance(raw, list) else raw
                out.append(("text/html", html.unescape(_TAG.sub(" ", raw))))
            elif "text/plain" in data and not any(k in data for k in _RICHER):
                raw = data["text/plain"]
                out.append(("text/plain", "".join(raw) if isinstance(raw, list) else raw))
    return out


def english_outputs(outputs: Iterable[Mapping[str, Any]]) -> list[str]:
    """Each shown output with English words in it: "kind: words | text"."""
    found = []
    for kind, text in shown(outputs):
        words = english_in(text)
        if words:
            found.append(f"{kind}: {', '.join(sorted(set(words)))} | {text[:300]!r}")
    return found
