"""The display of a class question in the teacher's notebook (`questions.Question`).

An anywidget with one synced trait, ``view`` (`Question.view`: the words and
numbers in the class's language; the counts only once revealed). It follows
the question as it changes: the class server's loop calls
`Questions.listeners` when an answer arrives (the kernel's own event loop, so
the count goes up between cells too; no timer of its own), and at most
`UPDATES_PER_SECOND` updates a second go to the front end (30 answers in the
same moment are one update). ``js/question_widget.js`` draws it.
"""

from __future__ import annotations

import asyncio
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
        self._due: asyncio.Handle | None = None
        self._last = 0.0
        question._questions.listeners.append(self._changed)

    def _changed(self, asked: Asked) -> None:
        if asked is not self._question._asked:
            return
        if self.comm is None:  # closed: it follows the question no more
            with contextlib.suppress(ValueError):
                self._question._questions.listeners.remove(self._changed)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script, a test): at once
            self.refresh()
            return
        if self._due is not None:
            return  # one update is on its way; it reads the question as it is then
        wait = max(0.0, self._last + 1.0 / UPDATES_PER_SECOND - loop.time())
        self._due = loop.call_later(wait, self._on_due)

    def _on_due(self) -> None:
        self._due = None
        with contextlib.suppress(RuntimeError):
            self._last = asyncio.get_running_loop().time()
        self.refresh()

    def refresh(self) -> None:
        """Show the question as it is now."""
        self.view = self._question.view()
