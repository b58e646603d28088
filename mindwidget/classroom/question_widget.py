"""The display of a class question in the teacher's notebook (`questions.Question`).

An anywidget with one synced trait, ``view`` (`Question.view`: the words and
numbers in the class's language; the counts only once revealed). It follows
the question as it changes: the class server's loop calls
`Questions.listeners` when an answer arrives (the kernel's own event loop, so
the count goes up between cells too; no timer runs while nothing changes), and
at most `UPDATES_PER_SECOND` updates a second go to the front end: a change
within that time is shown by one update a moment later, set on the server's
own timers (`Questions.call_at`), so 30 answers in the same moment are one
update. ``js/question_widget.js`` draws it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

if TYPE_CHECKING:
    from .questions import Asked, Question

__all__ = ["UPDATES_PER_SECOND", "QuestionWidget"]

_STATIC = Path(__file__).resolve().parent.parent / "static"
#: The most updates a second the display gets (the count is read from across a room).
UPDATES_PER_SECOND = 4.0
_MISSING = """
export default { render({ el }) {
  el.textContent = "mindwidget: the JavaScript bundle is missing; " +
    "run `npm install && npm run build`.";
} };
"""


def _bundle(name: str, fallback: str) -> str | Path:
    path = _STATIC / name
    return path if path.exists() else fallback


class QuestionWidget(anywidget.AnyWidget):
    """A class question as the notebook shows it: answered so far, then the chart."""

    _esm = _bundle("question_widget.js", _MISSING)
    _css = _bundle("question_widget.css", "")

    view = traitlets.Dict().tag(sync=True)
    #: False: the question's text is said above it already (a lesson's `Bet`)
    show_text = traitlets.Bool(True).tag(sync=True)

    def __init__(self, question: Question, **kwargs: Any) -> None:
        super().__init__(view=question.view(), **kwargs)
        self._question = question
        self._due: Any = None  # the server's timer for the next update
        self._last = -1e9
        question._questions.listeners.append(self._changed)

    def _changed(self, asked: Asked) -> None:
        if asked is not self._question._asked:
            return
        if self.comm is None:  # closed: it follows the question no more
            with contextlib.suppress(ValueError):
                self._question._questions.listeners.remove(self._changed)
            return
        if self._due is not None:
            return  # an update is due; it reads the question as it is then
        questions = self._question._questions
        now = questions.now()
        wait = self._last + 1.0 / UPDATES_PER_SECOND - now
        if wait <= 0 or questions.call_at is None:
            self._last = now
            self.refresh()
        else:  # on the server's loop (its timers), a moment later
            self._due = questions.call_at(now + wait, self._on_due)

    def _on_due(self) -> None:
        self._due = None
        self._last = self._question._questions.now()
        self.refresh()

    def refresh(self) -> None:
        """Show the question as it is now."""
        self.view = self._question.view()
