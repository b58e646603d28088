"""The teacher's papers that go into a lesson folder beside the notebooks.

``mindwidget lesson --lang nl`` copies, with the notebooks, the teacher's guide
(``docs/teaching.nl.md``), the rules card to print (``docs/rules-card/nl.html``)
and the wiskunde A worksheet with its separate answer key
(``docs/worksheet/nl/*.pdf``, written by ``tools/build_worksheets.py``), each
under a name the teacher reads in their language. The wheel ships them in
``mindwidget/lessons/<lang>/`` beside the notebooks (``hatch_build.py`` reads
this table by its path, so this module imports nothing); a source checkout
copies them from ``docs/`` (`mindwidget.lessons_folder.lesson_handouts`).
"""

from __future__ import annotations

__all__ = ["HANDOUTS", "WORKSHEETS", "handouts"]

#: The worksheet and its answer key, per language: their file names.
WORKSHEETS: dict[str, tuple[str, str]] = {
    "en": ("worksheet.pdf", "worksheet-answers.pdf"),
    "nl": ("werkblad.pdf", "werkblad-antwoorden.pdf"),
    "de": ("arbeitsblatt.pdf", "arbeitsblatt-loesungen.pdf"),
}

#: The guide and the rules card: their names in a lesson folder, per language.
_NAMES: dict[str, tuple[str, str]] = {
    "en": ("teacher-guide.md", "rules-card.html"),
    "nl": ("docentenhandleiding.md", "spelregelkaart.html"),
    "de": ("lehrerhandreichung.md", "spielregelkarte.html"),
}
_GUIDES = {"en": "docs/teaching.md", "nl": "docs/teaching.nl.md", "de": "docs/teaching.de.md"}


def handouts(lang: str) -> dict[str, str]:
    """``{name in the lesson folder: path in the repository}`` for ``lang``."""
    if lang not in _NAMES:
        raise ValueError(f"lang must be one of {', '.join(_NAMES)}, not {lang!r}.")
    guide, card = _NAMES[lang]
    sheet, key = WORKSHEETS[lang]
    return {
        guide: _GUIDES[lang],
        card: f"docs/rules-card/{lang}.html",
        sheet: f"docs/worksheet/{lang}/{sheet}",
        key: f"docs/worksheet/{lang}/{key}",
    }


#: Every language's handouts.
HANDOUTS: dict[str, dict[str, str]] = {lang: handouts(lang) for lang in _NAMES}
