"""A class lesson after lesson: its journals read back, every game of every table.

A class's journal (`journal`) keeps every game each table played (a table's
new game starts a new one) and who held each seat when. `lessons` reads one
journal into its lessons (a class resumed on another day is a lesson of that
day), each a `classmodel.ClassData`; `history` compares lessons: the spread,
the mistakes per level and the levels reached, one row per lesson
(`classmodel.lesson_summary`). Nothing is written; a damaged journal raises
`JournalError` naming the file.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from ..classmodel import SUMMARY_COLUMNS, ClassData, lesson_summary
from ..game import Game
from ..rules import RuleError, Rules
from .journal import JournalError, classes, data_dir, journal_path, read
from .questions import Questions
from .record import checked_held, questions_of

__all__ = ["HISTORY_COLUMNS", "history", "latest", "lessons"]

#: The columns of `history`: which lesson, then `classmodel.SUMMARY_COLUMNS`.
HISTORY_COLUMNS = ("code", "day", "today", *SUMMARY_COLUMNS)


def _day(at: float) -> str:
    return dt.datetime.fromtimestamp(at).date().isoformat()


def lessons(path: str | Path, lang: str = "en") -> list[ClassData]:
    """The lessons in one class journal, by day: each day's games (every game a table
    started that day, numbered 1, 2, ... in the order they started) and who held
    their seats, and the answers to the questions put that day (`Classroom.answers()`'s
    columns; None when none was put). A damaged journal raises `JournalError`."""
    path = Path(path)
    header, entries = read(path)
    code = str(header.get("code", ""))
    games: list[tuple[str, int, Game, list[dict[str, Any]]]] = []  # day, table, game, held
    current: dict[int, int] = {}  # table -> index in games
    for i, entry in enumerate(entries):
        kind = entry.get("kind")
        try:
            if kind == "game":
                table = int(entry["table"])
                game = Game(seed=int(entry["seed"]), rules=Rules.from_dict(entry["rules"]))
                current[table] = len(games)
                games.append((_day(float(entry["at"])), table, game, []))
            elif kind == "act" and int(entry.get("table", 0)) in current:
                games[current[int(entry["table"])]][2].apply(entry.get("a"))
            elif kind == "seats" and int(entry.get("table", 0)) in current and "held" in entry:
                size = int(entry["size"])
                held = checked_held(entry["held"], size) or []
                games[current[int(entry["table"])]][3][:] = held
        except (ValueError, TypeError, KeyError, RuleError) as exc:
            raise JournalError(path, f"entry {i + 1} ({kind!r}) is damaged: {exc}.") from None
    try:
        answers = _answers_by_day(questions_of(entries), lang)
    except (ValueError, TypeError, KeyError) as exc:
        raise JournalError(path, f"a question of the lesson is damaged: {exc}.") from None
    out: list[ClassData] = []
    for day in sorted({g[0] for g in games}):
        tables: dict[int, Game] = {}
        seats: dict[int, list[dict[str, Any]]] = {}
        for n, (_, _table, game, held) in enumerate((g for g in games if g[0] == day), start=1):
            tables[n] = game
            seats[n] = held
        out.append(
            ClassData(tables, seats, label=f"{code} {day}", day=day, answers=answers.get(day))
        )
    return out


def _answers_by_day(asked: list[dict[str, Any]], lang: str) -> dict[str, pd.DataFrame]:
    """The answers to the questions a journal holds (`Classroom.answers()`'s columns),
    by the day each question was put."""
    if not asked:
        return {}
    questions = Questions(lambda: 0.0, lambda *_a, **_k: None, lambda _q, _p: None, lang)
    questions.restore(asked, time.time())
    frame = questions.frame()
    day_of = {e["question"]: _day(float(e["at"])) for e in asked if e["kind"] == "question"}
    days = frame["question"].map(day_of)
    return {day: frame[days == day].reset_index(drop=True) for day in set(day_of.values())}


def _paths(codes: Iterable[str] | None, data: str | Path | None) -> list[Path]:
    folder = Path(data) if data is not None else data_dir()
    if codes is None:
        return [c.path for c in classes(folder)]
    return [journal_path(folder, str(code)) for code in codes]


def history(
    codes: Iterable[str] | None = None,
    data: str | Path | None = None,
    today: str | None = None,
) -> pd.DataFrame:
    """The lessons of the classes ``codes`` (default: every class in the data folder
    ``data``, default the user's), one row per lesson, oldest first.

    Columns (`HISTORY_COLUMNS`): ``code``, ``day`` (ISO date), ``today`` (the
    lesson is of ``today``, default the date now) and the lesson's figures
    (`classmodel.lesson_summary`: plays, pupils, cv, levels, mistakes per level,
    levels reached, games). A lesson without any play of a pupil is left out.
    """
    today = today or dt.date.today().isoformat()
    rows = []
    for path in _paths(codes, data):
        code = path.name.removeprefix("class-").removesuffix(".sqlite3")
        for lesson in lessons(path):
            figures = lesson_summary(lesson.plays(), lesson.results())
            if not figures["plays"]:
                continue
            rows.append({"code": code, "day": lesson.day, "today": lesson.day == today} | figures)
    frame = pd.DataFrame(rows, columns=list(HISTORY_COLUMNS))
    out: pd.DataFrame = frame.sort_values(["day", "code"], kind="stable").reset_index(drop=True)
    return out


def latest(data: str | Path | None = None, code: str | None = None) -> ClassData | None:
    """The latest lesson with a pupil's plays among the journals of ``data`` (default
    the user's data folder): the class that notebook 06 ran (or class ``code``'s
    latest lesson); None if there is none."""
    folder = Path(data) if data is not None else data_dir()
    for info in classes(folder):
        if not info.pupils or (code is not None and info.code != str(code)):
            continue
        try:
            found = lessons(info.path)
        except JournalError:
            continue
        for lesson in reversed(found):
            if (lesson.plays()["kind"] == "person").any():
                lesson.label = f"{info.code} {lesson.day}"
                return lesson
    return None
