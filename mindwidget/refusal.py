"""`Refused`: the one refusal above the core, for everything a person asks that cannot be done now.

The core refuses with a `RuleError` (``mindwidget.rules``), which says nothing
in words. Everything above it (the table, a seat's session, the widgets, the
class server and the teacher's dashboard) refuses with `Refused`, a
`RuleError` too: a ``key`` into the locale files and the ``params`` that fill
its placeholders. Nothing changed when it is raised. `Refused.from_rule`
turns the core's refusal into one with the same reason.

Who reads the words decides where they live (``words``):

* ``"game"``: ``refused_<key>`` in ``locales/<lang>.json``, what the table, a
  widget and a seat's notice say (the core's keys and the table's own);
* ``"class"``: ``err_<key>`` in ``locales/class``, what the class server tells
  a pupil's page (a message it does not take, a wrong code, a full class);
* ``"teacher"``: ``declined_<key>`` in ``locales/teacher``, a teacher's command
  the class cannot do now (start an empty table, a seat that is not free).
"""

from __future__ import annotations

from typing import Any

from .i18n import say_in, translate
from .rules import RuleError

__all__ = ["WORDS", "Refused"]

#: Where each kind of refusal has its words: the family of locale files
#: (None: the game's own, ``locales/<lang>.json``) and the prefix of its keys.
WORDS: dict[str, tuple[str | None, str]] = {
    "game": (None, "refused_"),
    "class": ("class", "err_"),
    "teacher": ("teacher", "declined_"),
}


class Refused(RuleError):
    """Something asked that is not possible now; nothing changed.

    ``key`` names the reason in the locale files, ``params`` fill its
    placeholders and ``words`` says which strings hold it (`WORDS`: the
    game's, the class page's or the teacher's). `text` says it in a language;
    ``str`` is the English text (with the rule that refused it, if any), for
    a traceback in a notebook.

        >>> Refused("press_ready").text("nl")
        'De handen liggen op tafel: druk eerst op Klaar.'
    """

    def __init__(self, key: str, /, *, words: str = "game", **params: Any) -> None:
        if words not in WORDS:
            raise ValueError(f"words must be one of {', '.join(WORDS)}, not {words!r}.")
        super().__init__(key)
        self.key = key
        self.params = params
        self.words = words

    @classmethod
    def from_rule(cls, error: RuleError) -> Refused:
        """The core's refusal with the same reason (its ``key`` and ``params``;
        ``not_now`` if it names none)."""
        if error.key is not None:
            return cls(error.key, **error.params)
        return cls("not_now")

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang`` (English, then the key, where a string is missing)."""
        family, prefix = WORDS[self.words]
        if family is None:
            return translate(f"{prefix}{self.key}", lang, **self.params)
        return say_in(family, f"{prefix}{self.key}", lang, **self.params)

    def __str__(self) -> str:
        cause = self.__cause__
        return self.text("en") + (f" ({cause})" if cause is not None else "")
