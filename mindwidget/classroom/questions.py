"""Questions to the whole class: every pupil answers on their own page.

The teacher puts a question (`Room.ask`, `Classroom.ask` in a notebook): a
text and its choices, each a string or ``{lang: text}`` so that every pupil
reads it in their own language, and the index of the right choice (None: a
question of opinion). Every pupil's page shows it (`pupil_view`, part of the
class part of their update, `Room.info`), and a pupil may change their
answer until the question is closed or revealed. While a level is being
played at the pupil's table the question waits (``held``): it never covers
cards in play.

Privacy: a pupil's page gets only their own choice, and after the reveal the
counts of the class's choices, never another pupil's answer.

This module holds the questions' state and rules (`Questions`, no transport,
no widget); `Question` is the handle the teacher's notebook gets, whose
display (`question_widget.QuestionWidget`) shows how many have answered, and
after the reveal the class's answers beside the right one. Every question,
answer and reveal is an entry of the class's journal (``question``,
``answer``, ``question_state``; `record.py`), so `Room.answers` survives a
resume.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..checks import whole
from ..classmodel import ANSWER_COLUMNS
from ..i18n import LANGS
from ..refusal import Refused
from .inbox import RateLimit

if TYPE_CHECKING:
    import pandas as pd

    from .tables import Pupil

__all__ = [
    "COLUMNS",
    "MAX_CHOICES",
    "MAX_TEXT",
    "Asked",
    "Question",
    "Questions",
    "check_text",
    "pick",
]

#: The longest question or choice (characters): one phone screen.
MAX_TEXT = 300
#: Choices per question: at least two, at most as many as a phone shows as buttons.
MIN_CHOICES, MAX_CHOICES = 2, 12
#: The most questions one lesson holds (the journal and every page stay small).
MAX_QUESTIONS = 500
#: A pupil's answers per second (and at once): a tap and a change of mind pass, a
#: flood does not (the socket's own limit, `inbox.RateLimit`, comes first).
ANSWER_RATE, ANSWER_BURST = 2.0, 6.0
#: The most changes of answer one pupil may make to one question (the journal's bound).
MAX_CHANGES = 60
#: The columns of `Room.answers` and `Question.answers`, in order (the frame
#: `classmodel.compare_answers` reads).
COLUMNS = ANSWER_COLUMNS
STATES = ("open", "closed", "revealed")


def check_text(name: str, value: object) -> str | dict[str, str]:
    """``value`` as a question's or a choice's text: a string, or ``{lang: text}`` with
    languages of `LANGS`; each text 1 to `MAX_TEXT` characters. ValueError says what
    is allowed."""
    if isinstance(value, str):
        if not value.strip() or len(value) > MAX_TEXT:
            raise ValueError(
                f"{name} must be a text of 1 to {MAX_TEXT} characters, not {value[:60]!r}"
                f"{' (' + str(len(value)) + ' characters)' if len(value) > 60 else ''}."
            )
        return value
    if isinstance(value, Mapping) and value:
        out: dict[str, str] = {}
        for lang, words in value.items():
            if lang not in LANGS:
                raise ValueError(
                    f"{name} is a dict from a language ({', '.join(LANGS)}) to its text; "
                    f"{lang!r} is not one."
                )
            if not isinstance(words, str):
                raise ValueError(f"{name}[{lang!r}] must be a text, not {words!r:.60}.")
            out[str(lang)] = str(check_text(f"{name}[{lang!r}]", words))
        return out
    raise ValueError(
        f"{name} must be a text or a dict {{lang: text}} ({', '.join(LANGS)}), not {value!r}."
    )


def pick(value: str | Mapping[str, str], lang: str, fallback: str = "en") -> str:
    """The text of ``value`` in ``lang`` (else in ``fallback``, else any it has)."""
    if isinstance(value, str):
        return value
    for one in (lang, fallback, *LANGS):
        if one in value:
            return value[one]
    return next(iter(value.values()))


@dataclass
class Answer:
    """One pupil's answer to one question (their latest choice)."""

    pupil: str
    name: str
    table: int | None
    choice: int
    seconds: float
    changes: int = 1


@dataclass
class Asked:
    """One question of the lesson and its answers (`Questions`)."""

    id: int
    text: str | dict[str, str]
    choices: list[str | dict[str, str]]
    answer: int | None
    at: float  # the server's time it was put (`Timers.now`)
    state: str = "open"
    answers: dict[str, Answer] = field(default_factory=dict)

    def counts(self) -> list[int]:
        out = [0] * len(self.choices)
        for a in self.answers.values():
            out[a.choice] += 1
        return out


class Questions:
    """The lesson's questions and every pupil's answers (a `Room` holds one).

    ``now`` is the server's clock; ``record(kind, **fields)`` the room's journal
    seam (`Room.record`); ``changed(asked, pupil)`` tells the room whose pages
    show something new (``pupil`` None: every page); ``lang`` the class's;
    ``call_at(when, callback)`` the server's timers (`tables.Timers`), on which a
    notebook's display of a question schedules its next update.
    """

    def __init__(
        self,
        now: Callable[[], float],
        record: Callable[..., None],
        changed: Callable[[Asked, str | None], None],
        lang: str = "en",
        call_at: Callable[[float, Callable[[], None]], Any] | None = None,
    ) -> None:
        self.now = now
        self.call_at = call_at
        self.record = record
        self.changed = changed
        self.lang = lang
        self.asked: list[Asked] = []
        self._limits: dict[str, RateLimit] = {}
        #: called after any change of a question (a notebook's widget shows it)
        self.listeners: list[Callable[[Asked], None]] = []

    # ---------------------------------------------------------------- teacher
    def ask(self, question: object, choices: object, answer: object = None) -> Asked:
        """Put a question to every pupil (see `Room.ask`). An earlier question still
        open is closed first: a pupil's page shows one question at a time."""
        text = check_text("question", question)
        if isinstance(choices, (str, bytes, Mapping)) or not isinstance(choices, Sequence):
            raise ValueError(
                f"choices must be a list of {MIN_CHOICES} to {MAX_CHOICES} texts (or "
                f"{{lang: text}} dicts), not {choices!r}."
            )
        if not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
            raise ValueError(
                f"choices must be a list of {MIN_CHOICES} to {MAX_CHOICES} texts, "
                f"not {len(choices)}."
            )
        options = [check_text(f"choices[{i}]", c) for i, c in enumerate(choices)]
        right = self._right(answer, len(options))
        if len(self.asked) >= MAX_QUESTIONS:
            raise ValueError(f"a lesson holds at most {MAX_QUESTIONS} questions.")
        for old in self.asked:
            if old.state == "open":
                self.close(old.id)
        asked = Asked(len(self.asked) + 1, text, options, right, self.now())
        self.record("question", question=asked.id, text=text, choices=options, answer=right)
        self.asked.append(asked)
        self._changed(asked, None)
        return asked

    @staticmethod
    def _right(answer: object, n: int) -> int | None:
        if answer is None:
            return None
        return whole("answer", answer, 0, n - 1)

    def get(self, qid: int) -> Asked:
        ok = isinstance(qid, int) and not isinstance(qid, bool) and 1 <= qid <= len(self.asked)
        if not ok:
            raise ValueError(f"no question {qid!r} in this lesson ({len(self.asked)} asked).")
        return self.asked[qid - 1]

    def close(self, qid: int) -> None:
        """No more answers to question ``qid`` (its answers so far stay)."""
        asked = self.get(qid)
        if asked.state == "open":
            self.record("question_state", question=asked.id, state="closed", answer=asked.answer)
            asked.state = "closed"
            self._changed(asked, None)

    def reveal(self, qid: int, answer: object = None) -> None:
        """Close question ``qid`` and show every page its own choice beside the right
        answer (``answer``: the right choice's index, if not given when asked) and
        the class's counts."""
        asked = self.get(qid)
        right = self._right(answer, len(asked.choices)) if answer is not None else asked.answer
        if asked.state == "revealed" and right == asked.answer:
            return
        self.record("question_state", question=asked.id, state="revealed", answer=right)
        asked.state, asked.answer = "revealed", right
        self._changed(asked, None)

    def _changed(self, asked: Asked, pupil: str | None) -> None:
        self.changed(asked, pupil)
        for listen in list(self.listeners):
            listen(asked)

    # ---------------------------------------------------------------- pupils
    def answer(self, p: Pupil, qid: int, choice: int) -> None:
        """``p`` chooses ``choice`` (from 0) for question ``qid``; `Refused` (nothing
        changed) if the question is not open, the choice is not one of it, or the
        pupil answers too often."""
        if not 1 <= qid <= len(self.asked) or self.asked[qid - 1].state != "open":
            raise Refused("question_closed", words="class")
        asked = self.asked[qid - 1]
        if not 0 <= choice < len(asked.choices):
            raise Refused("bad_choice", words="class", n=len(asked.choices))
        old = asked.answers.get(p.id)
        if old is not None and old.choice == choice:
            return  # the same again: nothing changes
        if old is not None and old.changes >= MAX_CHANGES:
            raise Refused("too_fast", words="class")
        limit = self._limits.get(p.id)
        if limit is None:
            limit = self._limits[p.id] = RateLimit(ANSWER_RATE, ANSWER_BURST, now=self.now)
        if not limit.take():
            raise Refused("too_fast", words="class")
        seconds = round(max(0.0, self.now() - asked.at), 3)
        self.record(
            "answer",
            question=asked.id,
            pupil=p.id,
            name=p.name,
            table=p.table_id,
            choice=choice,
            seconds=seconds,
        )
        changes = 1 if old is None else old.changes + 1
        asked.answers[p.id] = Answer(p.id, p.name, p.table_id, choice, seconds, changes)
        self._changed(asked, p.id)

    def pupils_changed(self) -> None:
        """A pupil joined or left the class: a display of the current question counts
        them anew ("12 of 31"); no page changes."""
        asked = self.current()
        if asked is not None:
            for listen in list(self.listeners):
                listen(asked)

    def current(self) -> Asked | None:
        """The question a page shows: the latest one asked (open, closed or revealed)."""
        return self.asked[-1] if self.asked else None

    def pupil_view(self, p: Pupil, held: bool) -> dict[str, Any] | None:
        """What ``p``'s page shows of the current question (`wire.PupilQuestion`), in
        their language: only their own choice, and the counts after the reveal."""
        asked = self.current()
        if asked is None:
            return None
        mine = asked.answers.get(p.id)
        out: dict[str, Any] = {
            "id": asked.id,
            "text": pick(asked.text, p.lang, self.lang),
            "choices": [pick(c, p.lang, self.lang) for c in asked.choices],
            "state": asked.state,
            "held": bool(held),
            "mine": None if mine is None else mine.choice,
        }
        if asked.state == "revealed":
            out["answer"] = asked.answer
            out["counts"] = asked.counts()
        return out

    # ---------------------------------------------------------------- reading
    def frame(self, qid: int | None = None) -> pd.DataFrame:
        """Every answer (of question ``qid``, or of all), one row each (`COLUMNS`)."""
        import pandas as pd

        rows = []
        for asked in self.asked if qid is None else [self.get(qid)]:
            text = pick(asked.text, self.lang)
            for a in asked.answers.values():
                rows.append(
                    {
                        "question": asked.id,
                        "text": text,
                        "pupil": a.pupil,
                        "name": a.name,
                        "table": a.table,
                        "choice": a.choice,
                        "choice_text": pick(asked.choices[a.choice], self.lang),
                        "right": pd.NA if asked.answer is None else a.choice == asked.answer,
                        "seconds": a.seconds,
                    }
                )
        out = pd.DataFrame(rows, columns=list(COLUMNS))
        typed: pd.DataFrame = out.astype(
            {
                "question": "int64",
                "text": "object",
                "pupil": "object",
                "name": "object",
                "table": "Int64",
                "choice": "int64",
                "choice_text": "object",
                "right": "boolean",
                "seconds": "float64",
            }
        )
        return typed

    # ---------------------------------------------------------------- resume
    def restore(self, entries: Sequence[Mapping[str, Any]], wall_now: float) -> None:
        """The questions of a journal (`record.Restored.questions`, checked there): an
        open question stays open, its seconds counted on from when it was put."""
        for e in entries:
            kind = e["kind"]
            if kind == "question":
                since = max(0.0, wall_now - float(e.get("at", wall_now)))
                asked = Asked(e["question"], e["text"], list(e["choices"]), e["answer"], 0.0)
                asked.at = self.now() - since
                self.asked.append(asked)
            elif kind == "answer":
                asked = self.asked[e["question"] - 1]
                old = asked.answers.get(e["pupil"])
                changes = 1 if old is None else old.changes + 1
                asked.answers[e["pupil"]] = Answer(
                    e["pupil"], e["name"], e["table"], e["choice"], e["seconds"], changes
                )
            elif kind == "question_state":
                asked = self.asked[e["question"] - 1]
                asked.state, asked.answer = e["state"], e["answer"]


class Question:
    """A question put to the class (`Classroom.ask`): the teacher's handle.

    Displayed in a notebook it shows how many pupils have answered, live (the
    class server's loop updates it as answers arrive), and after `reveal` the
    class's answers as a chart beside the right one. `close` stops answers;
    `answers` is a DataFrame of the answers so far, `counts` a dict choice ->
    count.
    """

    def __init__(self, questions: Questions, asked: Asked, pupils: Callable[[], int]) -> None:
        self._questions = questions
        self._asked = asked
        self._pupils = pupils
        self._widget: Any = None

    @property
    def id(self) -> int:
        """The question's number in the lesson (from 1; the ``question`` column)."""
        return self._asked.id

    @property
    def state(self) -> str:
        """ "open", "closed" or "revealed"."""
        return self._asked.state

    @property
    def answer(self) -> int | None:
        """The index of the right choice (None: a question of opinion, or not yet given)."""
        return self._asked.answer

    @property
    def choices(self) -> list[str]:
        """The choices in the class's language."""
        return [pick(c, self._questions.lang) for c in self._asked.choices]

    @property
    def text(self) -> str:
        """The question in the class's language."""
        return pick(self._asked.text, self._questions.lang)

    def close(self) -> Question:
        """No more answers (the pupils' pages say the question is closed)."""
        self._questions.close(self.id)
        return self

    def reveal(self, answer: int | None = None) -> Question:
        """Close the question and show the class's answers beside the right one: on the
        projector (this question's display) as a chart, on each pupil's page "You
        chose … · The answer: …" in their language. ``answer`` (an index) gives or
        changes the right choice."""
        self._questions.reveal(self.id, answer)
        return self

    def counts(self) -> dict[int, int]:
        """How many pupils chose each choice (by index, every choice listed)."""
        return dict(enumerate(self._asked.counts()))

    def answers(self) -> pd.DataFrame:
        """One row per pupil who answered: question, text, pupil, name, table, choice,
        choice_text, right (NA for an opinion), seconds after the question was put."""
        return self._questions.frame(self.id)

    @property
    def answered(self) -> int:
        """How many pupils have answered."""
        return len(self._asked.answers)

    def view(self) -> dict[str, Any]:
        """What the question's display shows (`question_widget`), in the class's
        language: counts only once revealed."""
        from ..i18n import say_in

        lang = self._questions.lang
        asked = self._asked
        n, of = len(asked.answers), self._pupils()
        out: dict[str, Any] = {
            "id": asked.id,
            "lang": lang,
            "text": self.text,
            "choices": self.choices,
            "state": asked.state,
            "answered": n,
            "pupils": of,
            "answered_text": say_in("teacher", "q_answered", lang, n=n, of=of),
            "state_text": say_in("teacher", f"q_state_{asked.state}", lang),
        }
        if asked.state == "revealed":
            counts = asked.counts()
            out["counts"] = counts
            out["answer"] = asked.answer
            if asked.answer is not None:
                right = say_in("teacher", "q_right", lang, answer=self.choices[asked.answer])
            else:
                right = say_in("teacher", "q_opinion", lang)
            out["answer_text"] = right
            out["count_labels"] = [
                say_in("teacher", "q_count", lang, n=c, share=_share(c, n, lang)) for c in counts
            ]
        return out

    @property
    def widget(self) -> Any:
        """The question's display (an anywidget; made on first use)."""
        if self._widget is None:
            from .question_widget import QuestionWidget

            self._widget = QuestionWidget(self)
        return self._widget

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return (
            f"Question({self.id}: {self.text!r}, {self.state}, "
            f"{self.answered} of {self._pupils()} answered)"
        )


def _share(count: int, total: int, lang: str) -> str:
    """``count`` of ``total`` as a whole percentage in ``lang`` ("40%", "40 %")."""
    if total == 0:
        return "0%" if lang != "de" else "0 %"
    value = round(100 * count / total)
    return f"{value} %" if lang == "de" else f"{value}%"
