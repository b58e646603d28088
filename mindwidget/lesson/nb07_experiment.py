"""Notebook 07-experiment (notebooks/src/07-experiment.cells): the class's own experiment.

Model -> data -> prediction -> check, on the class's own plays
(`mindwidget.classmodel`):

* `experiment_class`: the class's data: the `Classroom` running in this kernel,
  else the latest lesson in the class journals (the class notebook 06 ran),
  else a demo data set (simulated pupils), and `about_data` says which;
* `spread_table`, `spread_figure`: each pupil's and the class's spread (cv) per
  band of gaps, with the plays each figure rests on;
* `swap_formula`, `swap_check`: the chance that 40 and 45 swap in the normal
  model with the class's spread, beside bots with that spread and beside the
  class's own close pairs;
* `class_clocks`, `team_prediction`: a bot clock per pupil, and a team like each
  table's simulated beside what the tables did;
* `class_predictions`: the class's guesses (``room.answers()``) beside the answers;
* `lesson_history`: this lesson beside the class's earlier ones.

Every number shown is computed here, from the data shown; every figure says
what it rests on (the class, the model, or the demo set) and how much.
"""

from __future__ import annotations

import datetime as dt
import html
import math
from typing import Any

import ipywidgets
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import classmodel as cm
from ..classmodel import ClassData
from .kit import (
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    new_figure,
    number,
    part_html,
    percent,
    percent_axis,
    readable,
)
from .kit import text as _text

__all__ = [
    "about_data",
    "class_clocks",
    "class_predictions",
    "experiment_class",
    "lesson_history",
    "spread_figure",
    "spread_table",
    "swap_check",
    "swap_formula",
    "team_prediction",
]

#: The two cards of the swap question (as in notebook 03).
A, B = 40, 45
#: Draws of the two bots in `swap_check`; games per table in `team_prediction`.
DRAWS = 10_000
GAMES_EACH = 1000

_SECTION = "07-experiment-ui"


def text(key: str, lang: str, **params: Any) -> str:
    """A word of this notebook's output (the section ``07-experiment-ui``)."""
    return _text(f"{_SECTION}.{key}", lang, **params)


def _dec(x: float, lang: str, digits: int = 2) -> str:
    return "–" if not math.isfinite(x) else number(x, lang, digits)


def _pct(x: float, lang: str, digits: int = 1) -> str:
    return "–" if not math.isfinite(x) else percent(x, lang, digits)


def _box(body: str) -> ipywidgets.HTML:
    style = "font-size:1.25em;line-height:1.5"
    cells = "<style>.mw-x td{white-space:nowrap}.mw-x table{font-size:inherit}</style>"
    return ipywidgets.HTML(f'{cells}<div class="mw-x" style="{style}">{body}</div>')


def _table(frame: pd.DataFrame, escape: bool = True) -> str:
    body = frame.to_html(border=0, escape=escape, index=False)
    return f'<div style="overflow-x:auto">{body}</div>'  # a narrow cell scrolls, never cuts


# ------------------------------------------------------------------ the data
def _from_classroom(room: Any) -> ClassData:
    from ..classroom.roomdata import games_and_seats

    games, seats = games_and_seats(room.room)
    out = ClassData(
        {n: g.copy() for n, g in games.items()},
        seats,
        label=str(room.code),
        day=dt.date.today().isoformat(),
        same_deal=bool(room.same_deal),
    )
    out.code = str(room.code)
    if callable(getattr(room, "answers", None)):
        out.answers = room.answers()
    return out


def _running() -> Any:
    """The `Classroom` this kernel serves (notebook 06 run in this kernel), or None."""
    import asyncio

    from ..classroom import keep

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    room = keep._RUNNING.get(loop)
    return None if room is None or room._closed else room


def experiment_class(
    lang: str, room: Any = None, data: Any = None, demo: bool = False, code: str | None = None
) -> ClassData:
    """The class's data for this notebook, and `about_data` says which it is:

    ``room`` (a `Classroom`) if given, else the class this kernel serves, else the
    latest lesson with pupils' plays in the class journals (``data``: their folder,
    default the user's; the class notebook 06 ran, or class ``code``'s), else (or
    with ``demo=True``)
    a demo data set: a class of simulated pupils (`classmodel.demo_class`).
    """
    text("data_demo", lang)  # the language is checked before anything runs
    if not demo:
        room = room if room is not None else None if code is not None else _running()
        if room is not None:
            found = _from_classroom(room)
            if (found.plays()["kind"] == "person").any():
                return found
        from ..classroom.history import latest

        kept = latest(data, code)
        if kept is not None:
            kept.code = kept.label.split()[0]
            return kept
    return cm.demo_class()


def _pupils(data: ClassData) -> int:
    plays = data.plays()
    return int(plays[plays["kind"] == "person"]["name"].nunique())


def about_data(data: ClassData, lang: str) -> ipywidgets.HTML:
    """Which data this notebook shows: the class's own (its code, day, pupils and
    plays) or the demo data set (simulated pupils, not people)."""
    people = cm._people(data.plays())
    n = number(len(people), lang)
    if data.demo:
        body = text("data_demo", lang, pupils=number(_pupils(data), lang), plays=n)
    else:
        body = text(
            "data_class",
            lang,
            code=data.code,
            day=data.day,
            pupils=number(_pupils(data), lang),
            plays=n,
        )
    return _box(part_html(body))


def _whose(data: ClassData, lang: str) -> str:
    return text("whose_demo" if data.demo else "whose_class", lang)


# ------------------------------------------------------------------ the spread
def _natural(name: str) -> tuple[str, int, str]:
    """ "P2" before "P10": a name's letters, then its number, then the rest."""
    import re

    found = re.match(r"(\D*)(\d+)(.*)", name)
    return (found.group(1), int(found.group(2)), found.group(3)) if found else (name, -1, "")


def spread_table(data: ClassData, lang: str) -> ipywidgets.HTML:
    """Each pupil's cv per band of gaps, and the class's, as "cv (plays)": a figure on
    fewer than `classmodel.SMALL_PLAYS` plays in grey (small data)."""
    table = cm.spread(data.plays())
    if table.empty:
        return _box(part_html(text("no_plays", lang)))
    bands = [b for b in cm.bands() if b in set(table["band"])]
    grey = "<span style='color:#767676'>{}</span>"
    rows = []
    names = sorted(set(table["name"]) - {cm.CLASS}, key=_natural)
    for name in [cm.CLASS, *names]:
        mine = table[table["name"] == name].set_index("band")
        who = text("the_class", lang) if name == cm.CLASS else html.escape(name)
        row = {html.escape(text("col_pupil", lang)): who}
        for band in bands:
            if band not in mine.index:
                row[band] = ""
                continue
            r = mine.loc[band]
            cell = f"{_dec(float(r['cv']), lang)}&nbsp;({int(r['plays'])})"
            row[band] = grey.format(cell) if r["small"] else cell
        n = int(mine["plays"].sum())
        cell = f"{_dec(cm.pooled_cv(table, name), lang)}&nbsp;({n})"
        row[html.escape(text("col_all_bands", lang))] = (
            grey.format(cell) if n < cm.SMALL_PLAYS else f"<b>{cell}</b>"
        )
        rows.append(row)
    frame = pd.DataFrame(rows)
    head = text("spread_head", lang, small=cm.SMALL_PLAYS)
    body = _table(frame, escape=False)
    return _box(part_html(head) + f"<p><b>{html.escape(text('gap_band', lang))}</b></p>" + body)


def spread_figure(data: ClassData, lang: str) -> Figure:
    """The class's cv per band (bars, with the plays each rests on) and each pupil's
    (dots: larger on more plays)."""
    table = cm.spread(data.plays())
    fig, ax = new_figure(8, 4)
    bands = [b for b in cm.bands() if b in set(table["band"])]
    x = {b: i for i, b in enumerate(bands)}
    whole = table[(table["name"] == cm.CLASS) & table["cv"].notna()]
    ax.bar(
        [x[b] for b in whole["band"]],
        whole["cv"],
        0.6,
        color=ORANGE,
        alpha=0.6,
        label=text("the_class", lang),
    )
    pupils = table[(table["name"] != cm.CLASS) & table["cv"].notna()]
    rng = np.random.default_rng(0)
    jitter = rng.uniform(-0.2, 0.2, len(pupils))
    ax.scatter(
        [x[b] + j for b, j in zip(pupils["band"], jitter, strict=True)],
        pupils["cv"],
        s=10 + 4 * pupils["plays"],
        color=BLUE,
        alpha=0.7,
        label=text("a_pupil", lang),
    )
    counts = dict(zip(whole["band"], whole["plays"], strict=True))
    ticks = [f"{b}\n{text('n_plays', lang, n=number(counts.get(b, 0), lang))}" for b in bands]
    ax.set_xticks(range(len(bands)), ticks)
    ax.set_xlabel(text("gap_band", lang))
    ax.set_ylabel(text("cv_axis", lang))
    ax.yaxis.set_major_formatter(lambda y, _pos: number(y, lang, 1))
    ax.set_title(text("spread_title", lang) + " · " + _whose(data, lang), loc="left")
    ax.legend(frameon=False)
    return readable(fig)


# ------------------------------------------------------------------ the swap
def swap_formula(data: ClassData, lang: str) -> ipywidgets.HTML:
    """The chance that 40 and 45 swap in the normal model, with the class's cv, the
    formula written out with the class's numbers."""
    spread = cm.class_spread(data.plays())
    if not math.isfinite(spread.cv):
        return _box(part_html(text("no_plays", lang)))
    from ..sim.prob import swap_chance

    s = swap_chance(A, B, spread.cv, spread.seconds_per_step)

    def d(x: float, k: int = 2) -> str:
        return _dec(x, lang, k)

    lines = [
        text(
            "model_from",
            lang,
            cv=d(spread.cv),
            spp=d(spread.seconds_per_step),
            plays=number(spread.plays, lang),
            bands=spread.bands,
        ),
        f"μ<sub>{A}</sub> = {d(s.seconds_per_step)} × {A} = {d(s.mu_a, 1)} s; "
        f"σ<sub>{A}</sub> = {d(s.cv)} × {d(s.mu_a, 1)} = {d(s.sd_a, 1)} s",
        f"μ<sub>{B}</sub> = {d(s.seconds_per_step)} × {B} = {d(s.mu_b, 1)} s; "
        f"σ<sub>{B}</sub> = {d(s.cv)} × {d(s.mu_b, 1)} = {d(s.sd_b, 1)} s",
        f"D = W<sub>{B}</sub> − W<sub>{A}</sub>: μ<sub>D</sub> = {d(s.mu_d, 1)} s, "
        f"σ<sub>D</sub> = √({d(s.sd_a, 1)}² + {d(s.sd_b, 1)}²) = {d(s.sd_d, 1)} s",
        f"P(D &lt; 0) = Φ(−μ<sub>D</sub> / σ<sub>D</sub>) = Φ({d(s.z).replace('-', '−')})"
        f" = <b>{_pct(s.p, lang)}</b>",
    ]
    note = text("model_note", lang)
    return _box("".join(f"<p>{line}</p>" for line in lines) + part_html(note))


def swap_check(data: ClassData, lang: str, draws: int = DRAWS, seed: int = 0) -> ipywidgets.HTML:
    """Three answers to one question: the normal model, bots with the class's spread
    (``draws`` times), and the class's own close pairs (each with a 95% Wilson
    interval where it is counted).

    Args:
        data: The class's data (`experiment_class`).
        lang: The language of the answers.
        draws: Races the bots with the class's spread run.
        seed: The races' seed.
    """
    plays = data.plays()
    spread = cm.class_spread(plays)
    if not math.isfinite(spread.cv):
        return _box(part_html(text("no_plays", lang)))
    from ..sim.prob import swap_chance

    model = swap_chance(A, B, spread.cv, spread.seconds_per_step).p
    bots = cm.simulated_swaps(A, B, spread.cv, spread.seconds_per_step, draws, seed)
    pairs = cm.close_pairs(data.tables, data.seats)
    ours = cm.swap_rate(pairs)
    fig, ax = new_figure(8, 4.4)
    mine = cm.model_for_pairs(pairs, spread.cv, spread.seconds_per_step)
    bars = [
        (text("bar_model", lang), model, None, GREY),
        (text("bar_bots", lang, n=number(draws, lang)), bots.rate, bots, BLUE),
    ]
    if ours.trials:
        n = number(ours.trials, lang)
        bars.append((text("bar_model_ours", lang, n=n), mine, None, GREEN))
        bars.append((text("bar_class", lang, n=n, close=cm.CLOSE), ours.rate, ours, ORANGE))
    for i, (_, value, counted, colour) in enumerate(bars):
        ax.barh(i, value, color=colour, height=0.6)
        right = value
        if counted is not None:
            low, high = value - counted.low, counted.high - value
            ax.errorbar(value, i, xerr=[[low], [high]], color="#333", capsize=6, lw=1.5)
            right = counted.high
        ax.annotate(
            _pct(value, lang),
            (right, i),
            textcoords="offset points",
            xytext=(8, 0),
            va="center",
            fontsize=11,
        )
    ax.set_yticks(range(len(bars)), [b[0] for b in bars])
    ax.invert_yaxis()
    top = max([b[1] for b in bars] + [b[2].high for b in bars if b[2] is not None] + [0.1])
    ax.set_xlim(0, min(1.0, top * 1.3))
    ax.xaxis.set_major_formatter(lambda v, _pos: _pct(v, lang, 0))
    ax.set_title(text("swap_title", lang, a=A, b=B) + " · " + _whose(data, lang), loc="left")
    notes = [text("swap_interval", lang)]
    if ours.trials:
        notes.append(
            text(
                "swap_class",
                lang,
                wrong=number(ours.hits, lang),
                pairs=number(ours.trials, lang),
                close=cm.CLOSE,
            )
        )
        notes.append(text("swap_model_ours", lang))
        if ours.small:
            notes.append(text("small_data", lang, n=number(ours.trials, lang)))
    else:
        notes.append(text("swap_no_pairs", lang, close=cm.CLOSE))
    return _box(part_html(fig) + "".join(part_html(n) for n in notes))


# ------------------------------------------------------------------ clocks and teams
def class_clocks(data: ClassData, lang: str) -> ipywidgets.HTML:
    """Each pupil's clock: plays, tempo and cv (own fit and what the bot plays),
    and whether it rests on few plays (then shrunk toward the class)."""
    fitted = data.clocks()
    if not len(fitted):
        return _box(part_html(text("no_plays", lang)))
    table = fitted.table()
    table = table.iloc[sorted(range(len(table)), key=lambda i: _natural(table["name"].iloc[i]))]
    shown = pd.DataFrame(
        {
            text("col_pupil", lang): table["name"],
            text("col_plays", lang): table["plays"],
            text("col_tempo_own", lang): [_dec(v, lang) for v in table["tempo_own"]],
            text("col_cv_own", lang): [_dec(v, lang) for v in table["cv_own"]],
            text("col_tempo", lang): [_dec(v, lang) for v in table["tempo"]],
            text("col_cv", lang): [_dec(v, lang) for v in table["cv"]],
            text("col_small", lang): [text("yes" if s else "no", lang) for s in table["small"]],
        }
    )
    head = text(
        "clocks_head",
        lang,
        tempo=_dec(fitted.tempo, lang),
        cv=_dec(fitted.cv, lang),
        plays=number(fitted.plays, lang),
        small=cm.SMALL_PLAYS,
        prior=cm.PRIOR_PLAYS,
    )
    return _box(part_html(head) + _table(shown))


def team_prediction(data: ClassData, lang: str, games_each: int = GAMES_EACH) -> ipywidgets.HTML:
    """A team like each table's, simulated with its pupils' clocks, beside what the
    tables did: per level (a figure) and per table (a table), with 95% Wilson
    intervals.

    Args:
        data: The class's data (`experiment_class`).
        lang: The language of the figure and the table.
        games_each: Games simulated for each table's team.
    """
    plays = data.plays()
    tables, levels = cm.predict_tables(data.tables, plays, data.clocks(), games_each)
    if tables.empty:
        return _box(part_html(text("no_plays", lang)))
    fig, ax = new_figure(8, 4)
    ax.plot(
        levels["level"],
        levels["predicted"],
        "o-",
        color=BLUE,
        label=text("line_predicted", lang, n=number(games_each, lang)),
    )
    ax.errorbar(
        levels["level"] + 0.08,
        levels["rate"],
        yerr=[levels["rate"] - levels["low"], levels["high"] - levels["rate"]],
        fmt="s",
        color=ORANGE,
        capsize=5,
        label=text("line_actual", lang),
    )
    for lv, rate, n in zip(levels["level"], levels["rate"], levels["tables"], strict=True):
        ax.annotate(
            f"{n}",
            (lv + 0.08, rate),
            textcoords="offset points",
            xytext=(6, -4),
            fontsize=9,
            color=GREY,
        )
    percent_axis(ax, 1.05)
    ax.set_xticks(levels["level"])
    ax.set_xlabel(text("level", lang))
    ax.set_ylabel(text("clear_axis", lang))
    ax.set_title(text("teams_title", lang) + " · " + _whose(data, lang), loc="left")
    ax.legend(frameon=False)
    won = {True: text("won", lang), False: text("lost", lang), None: text("playing", lang)}
    shown = pd.DataFrame(
        {
            text("col_table", lang): tables["table"],
            text("col_pupils", lang): [
                ", ".join(n if n is not None else text("the_class", lang) for n in names)
                for names in tables["players"]
            ],
            text("col_win", lang): [
                f"{_pct(w, lang)} ({_pct(lo, lang)}–{_pct(hi, lang)})"
                for w, lo, hi in zip(
                    tables["win_rate"], tables["win_low"], tables["win_high"], strict=True
                )
            ],
            text("col_level_mean", lang): [_dec(v, lang, 1) for v in tables["level_mean"]],
            text("col_reached", lang): tables["reached"],
            text("col_won", lang): [won[w] for w in tables["won"]],
        }
    )
    notes = [text("teams_note", lang, n=number(games_each, lang))]
    over = tables[tables["won"].notna()]
    if len(over):
        won_n = int(sum(bool(w) for w in over["won"]))
        ours = cm.rate(won_n, len(over))
        notes.append(
            text(
                "teams_won",
                lang,
                won=number(won_n, lang),
                tables=number(len(over), lang),
                low=_pct(ours.low, lang, 0),
                high=_pct(ours.high, lang, 0),
                predicted=_pct(float(over["win_rate"].mean()), lang),
            )
        )
    if levels["small"].any():
        notes.append(text("teams_small", lang, tables=number(int(levels["tables"].max()), lang)))
    return _box(part_html(fig) + "".join(part_html(n) for n in notes) + _table(shown))


# ------------------------------------------------------------------ the class's guesses
def class_predictions(data: ClassData, lang: str) -> ipywidgets.HTML:
    """The class's answers to the lesson's questions (``room.answers()``) beside the
    right answers: how many chose right and how far off the class was."""
    answers = getattr(data, "answers", None)
    if answers is None or len(answers) == 0:
        return _box(part_html(text("no_answers", lang)))
    table = cm.compare_answers(answers)
    shown = pd.DataFrame(
        {
            text("col_question", lang): table["text"],
            text("col_answers", lang): table["answers"],
            text("col_right", lang): table["right_text"],
            text("col_share", lang): [_pct(s, lang, 0) for s in table["share"]],
            text("col_most", lang): table["most_text"],
            text("col_off", lang): [_dec(v, lang, 1) for v in table["off"]],
        }
    )
    who = cm.who_guessed(answers)
    marks = {True: "✓", False: "✗", None: ""}
    grid = pd.DataFrame(
        {text("col_pupil", lang): who["name"]}
        | {
            text("col_question_n", lang, n=i + 1): [
                "" if cell is None else f"{cell[0]} {marks[cell[1]]}".strip() for cell in who[q]
            ]
            for i, q in enumerate(who.columns[1:])
        }
    )
    head = part_html(text("answers_head", lang)) + _table(shown)
    return _box(head + part_html(text("who_head", lang)) + _table(grid))


# ------------------------------------------------------------------ lesson after lesson
def _history(data: ClassData) -> pd.DataFrame:
    if data.demo:
        earlier = cm.demo_class(seed=3)
        rows = []
        for day, lesson, today in (("demo-1", earlier, False), ("demo-2", data, True)):
            rows.append(
                {"code": "demo", "day": day, "today": today}
                | cm.lesson_summary(lesson.plays(), lesson.results())
            )
        out_: pd.DataFrame = pd.DataFrame(rows)
        return out_
    from ..classroom.history import history
    from ..classroom.journal import JournalError

    try:
        found = history([data.code])
    except (JournalError, ValueError):  # a class without a journal: this lesson only
        found = pd.DataFrame()
    if found.empty or not found["today"].any():
        row = {"code": data.code, "day": data.day, "today": True}
        found = pd.concat(
            [found, pd.DataFrame([row | cm.lesson_summary(data.plays(), data.results())])]
        )
    out: pd.DataFrame = found.reset_index(drop=True)
    return out


def lesson_history(data: ClassData, lang: str) -> ipywidgets.HTML:
    """This lesson ("today") beside the class's earlier lessons: spread, mistakes
    per level, levels reached, and what each rests on."""
    found = _history(data)
    label = [
        text("today", lang) if t else text("earlier_demo", lang) if data.demo else str(d)
        for t, d in zip(found["today"], found["day"], strict=True)
    ]
    shown = pd.DataFrame(
        {
            text("col_lesson", lang): label,
            text("col_pupils_n", lang): found["pupils"],
            text("col_plays", lang): found["plays"],
            text("col_spread", lang): [_dec(v, lang) for v in found["cv"]],
            text("col_levels", lang): found["levels"],
            text("col_mistakes", lang): [_dec(v, lang) for v in found["mistakes_per_level"]],
            text("col_level_mean_lesson", lang): [_dec(v, lang, 1) for v in found["level_mean"]],
            text("col_level_max", lang): found["level_max"],
        }
    )
    note = text("history_one", lang) if len(found) < 2 else text("history_more", lang)
    return _box(part_html(_whose(data, lang)) + _table(shown) + part_html(note))
