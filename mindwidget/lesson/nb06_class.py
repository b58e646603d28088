"""Notebook 06-class (notebooks/src/06-class.cells): the class studies its own plays.

The class has played at its tables (`mindwidget.Classroom`); now it looks at
its own data, beside two others:

* `compare_waits`: how long people waited before a card, by how far it lay
  above the pile: our class, the human-like bots (`HumanTimer`, games played
  here and now), and the people of one student project (`bots.human.REFERENCE`,
  the medians of its 142 waits, `REFERENCE_COUNTS` of them per band, shown
  under each band); `class_waits` draws it;
* `rank_tables`: under a same deal every table held the same cards, level by
  level, so tables can be ranked fairly, as in duplicate bridge; `class_tables`
  shows it, with a team of human-like bots on the same cards ranked among them.

Every function takes the class (anything with ``plays()``, ``results()`` and
``snapshot()``: a `Classroom`) or its plain data. When nobody has played yet
(a notebook run without pupils, e.g. in CI), the class's part is left out and
the output says why.
"""

from __future__ import annotations

import html
from typing import Any, Protocol

import ipywidgets
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import classdata
from ..bots import HumanTimer
from ..bots.human import REFERENCE, REFERENCE_COUNTS, band_label, band_of
from ..bots.runner import run_game, run_level
from ..classdata import plays as plays_of
from ..game import Game
from ..i18n import seat_number
from .kit import BIG_TEXT, BLUE, GREY, ORANGE, new_figure, number, part_html, readable, text

__all__ = [
    "WAIT_COLUMNS",
    "bot_plays",
    "bots_on_the_same_deal",
    "class_plays",
    "class_results",
    "in_words",
    "class_tables",
    "class_waits",
    "compare_waits",
    "rank_tables",
]

#: The columns of `compare_waits`: the band, then the median wait (s) of each
#: group and how many plays of the class and of the bots it is made of.
WAIT_COLUMNS = ("band", "class", "bots", "people", "class_plays", "bot_plays")


class ClassLike(Protocol):
    same_deal: bool

    def plays(self) -> pd.DataFrame: ...
    def results(self) -> pd.DataFrame: ...


def bot_plays(games: int = 30, players: int = 3, seed: int = 1) -> pd.DataFrame:
    """The plays of ``games`` games of human-like bots (`plays` columns, kind "bot").

    Args:
        games: How many games the bots play.
        players: Bots at each table.
        seed: The first game's seed (game ``i`` has ``seed + i``).
    """
    played = {
        i + 1: run_game(Game(players=players, seed=seed + i), "human", seed=seed + i)
        for i in range(games)
    }
    seats = {
        n: [{"seat": s, "kind": "bot", "name": f"Bot {s + 1}"} for s in range(players)]
        for n in played
    }
    return plays_of(played, seats)


def _people(frame: pd.DataFrame) -> pd.DataFrame:
    """The plays a person made, with a gap of at least 1 (the reference's bands)."""
    mine: pd.DataFrame = frame[(frame["kind"] == "person") & (frame["gap"] >= 1)]
    return mine


def _medians(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    bands = frame["gap"].map(band_of)
    grouped = frame.groupby(bands)["wait"]
    return grouped.median(), grouped.size()


def compare_waits(class_plays: pd.DataFrame, bots: pd.DataFrame) -> pd.DataFrame:
    """Median wait per band of gaps: the class's people, the bots, people elsewhere.

    ``class_plays`` and ``bots`` are `mindwidget.classdata.plays` frames; only
    plays with a gap of at least 1 count (the first card of a level has none).
    A band the class has not played yet has NaN.
    """
    ours, ours_n = _medians(_people(class_plays))
    theirs = bots[bots["gap"] >= 1]
    bot_median, bot_n = _medians(theirs)
    rows = []
    for i, reference in enumerate(REFERENCE):
        rows.append(
            {
                "band": band_label(i),
                "class": float(ours.get(i, np.nan)),
                "bots": float(bot_median.get(i, np.nan)),
                "people": reference,
                "class_plays": int(ours_n.get(i, 0)),
                "bot_plays": int(bot_n.get(i, 0)),
            }
        )
    table: pd.DataFrame = pd.DataFrame(rows, columns=list(WAIT_COLUMNS))
    return table


def _nobody(lang: str) -> ipywidgets.HTML:
    return ipywidgets.HTML(part_html(text("class_nobody", lang)))


#: The lesson's words for the columns of `classdata.plays` and `classdata.results`
#: (one list for the lesson and the CSV: `classdata.COLUMN_WORDS`).
_COLUMN_WORDS = classdata.COLUMN_WORDS


#: The number columns of the class's data and their decimals as a person reads them.
_DIGITS = {"t": 1, "gap": 0, "wait": 1, "seconds": 1, "rtt_ms": 0}
#: What a number column shows where it has no value (the first card of a level has
#: no card below it on the pile, so no gap; a bot has no round trip): `class_dash` says so.
DASH = "–"


def _written(x: float, lang: str, digits: int) -> str:
    """``x`` as ``lang`` writes it (the kit's `number`: 4,5 in nl and de), `DASH` for NaN."""
    return DASH if pd.isna(x) else number(float(x), lang, digits)


def in_words(frame: pd.DataFrame, lang: str) -> pd.DataFrame:
    """A `classdata.plays` or `classdata.results` frame as a person reads it in
    ``lang``: its columns and values in words ("leerling", "ja"), the player
    counted from 1, its numbers written as the language writes them (a decimal
    comma in nl and de; `DASH` where there is none). The data itself keeps its
    machine columns and numbers for code (``room.plays()["player"]`` counts from
    0, as code does, and a first card's ``gap`` is NaN)."""
    shown = frame.copy()
    yes, no = text("yes", lang), text("no", lang)
    for column in shown.columns:
        if shown[column].dtype == bool:
            shown[column] = shown[column].map({True: yes, False: no})
    if "player" in shown:
        shown["player"] = shown["player"].map(seat_number)  # a person reads it from 1
    if "kind" in shown:
        kinds = {"person": text("kind_person", lang), "bot": text("kind_bot", lang)}
        shown["kind"] = shown["kind"].map(lambda k: kinds.get(k, k))
    for column in ("jumped", "jumped_player", "jumped_name"):  # a mistake's lower cards
        if column in shown:
            shown[column] = shown[column].map(lambda held, c=column: classdata.listed(held, c))
    for column, digits in _DIGITS.items():
        if column in shown:
            shown[column] = [_written(x, lang, digits) for x in shown[column]]
    words = {c: text(w, lang) for c, w in _COLUMN_WORDS.items() if c in shown}
    out: pd.DataFrame = shown.rename(columns=words)
    return out


#: A table on the projector: as large as the kit's other outputs (`kit.BIG_TEXT`), its
#: header kept in sight while the rows scroll in their box, which the keyboard can
#: scroll too (it takes the focus); the box as wide as the cell (a wide table scrolls
#: sideways in it, the note below it stays in the cell).
_TABLE_STYLE = """<style>
.widget-html-content:has(> .mw-lesson-class) { min-width: 0; flex: 1 1 auto; }
.mw-lesson-table { max-height: 70vh; max-width: 100%; overflow: auto; }
.mw-lesson-table table { font-size: inherit; border-collapse: collapse; }
.mw-lesson-table th, .mw-lesson-table td { padding: 0.2em 0.6em; text-align: right; }
.mw-lesson-table thead th {
  position: sticky; top: 0;
  background: var(--jp-layout-color0, #fff); color: var(--jp-ui-font-color0, inherit);
}
.mw-lesson-table tbody tr:nth-child(odd) { background: var(--jp-layout-color2, #f3f3f3); }
</style>"""


def _big_table(shown: pd.DataFrame, label: str, *, above: str = "", below: str = "") -> str:
    """``shown`` in projector-sized text, every row in a box that scrolls, with the
    words ``above`` and ``below`` it; ``label`` names the box for a screen reader."""
    body = shown.to_html(border=0, escape=True, index=False)
    box = f'class="mw-lesson-table" tabindex="0" role="region" aria-label="{html.escape(label)}"'
    return (
        f'{_TABLE_STYLE}<div class="mw-lesson-class" style="{BIG_TEXT}">'
        f"{part_html(above) if above else ''}"
        f"<div {box}>{body}</div>{part_html(below) if below else ''}</div>"
    )


def class_plays(room: ClassLike, lang: str, rows: int | None = None) -> ipywidgets.HTML:
    """The class's plays in ``lang`` (`in_words`), each card a row, in projector-sized
    text, in a box that scrolls, with how many there are and what "–" means; the
    last ``rows`` only if given. Or why there are none yet."""
    frame = room.plays()
    if not (frame["kind"] == "person").any():
        return _nobody(lang)
    shown = frame if rows is None else frame.tail(rows)
    n = len(frame)
    if len(shown) < n:
        count = text("class_plays_last", lang, shown=number(len(shown), lang), n=number(n, lang))
    elif n == 1:
        count = text("class_plays_count_one", lang)
    else:
        count = text("class_plays_count", lang, n=number(n, lang))
    table = _big_table(in_words(shown, lang), count, above=count, below=text("class_dash", lang))
    return ipywidgets.HTML(table)


def class_results(room: ClassLike, lang: str) -> pd.DataFrame | ipywidgets.HTML:
    """The class's results, table by table and level, in ``lang`` (`in_words`)."""
    frame = room.results()
    if frame.empty:
        return _nobody(lang)
    return in_words(frame, lang)


def class_waits(room: ClassLike, lang: str, games: int = 30, seed: int = 1) -> Figure:
    """Our class against the human-like bots against people elsewhere: median waits.

    Without any play of a pupil (a run without pupils) the class's bars are
    left out and the title says why.

    Args:
        room: The running class (a `Classroom`).
        lang: The language of the figure.
        games: Games the bots play for their bars.
        seed: The bots' seed.
    """
    table = compare_waits(room.plays(), bot_plays(games, seed=seed))
    fig, ax = new_figure(8, 4)
    x = np.arange(len(table))
    width = 0.27
    have_class = table["class_plays"].sum() > 0
    groups = [
        ("class", text("class_line", lang), ORANGE),
        ("bots", text("bots_line", lang, games=number(games, lang)), BLUE),
        ("people", text("people_line", lang, n=number(sum(REFERENCE_COUNTS), lang)), GREY),
    ]
    for k, (column, label, colour) in enumerate(groups):
        if column == "class" and not have_class:
            continue
        ax.bar(x + (k - 1) * width, table[column], width, label=label, color=colour)
    # how many of the people's waits each band's bar rests on (a small data set)
    ticks = [
        text("band_n", lang, band=b, n=n)
        for b, n in zip(table["band"], REFERENCE_COUNTS, strict=True)
    ]
    ax.set_xticks(x, ticks)
    ax.set_xlabel(text("gap_band", lang))
    ax.set_ylabel(text("median_wait", lang))
    title = text("waits_title", lang) if have_class else text("waits_title_no_class", lang)
    ax.set_title(title, loc="left")
    ax.legend(frameon=False)
    return readable(fig)


def rank_tables(results: pd.DataFrame) -> pd.DataFrame:
    """Each level's tables ranked: cleared first, then fewer mistakes, then quicker.

    ``results`` is a `mindwidget.classdata.results` frame. Columns: ``level``,
    ``table``, ``cleared``, ``mistakes``, ``seconds`` and ``rank`` (1 is best;
    tables that did equally well share a rank). Blind levels are left out.
    """
    frame = results[~results["blind"]].copy()
    keys = list(zip(~frame["cleared"], frame["mistakes"], frame["seconds"], strict=True))
    levels = frame["level"].tolist()
    frame["rank"] = [
        1 + sum(other < key for other, lv in zip(keys, levels, strict=True) if lv == level)
        for key, level in zip(keys, levels, strict=True)
    ]
    frame["rank"] = frame["rank"].astype("int64")
    out = frame.sort_values(["level", "rank", "table"])
    columns = ["level", "table", "cleared", "mistakes", "seconds", "rank"]
    ranked: pd.DataFrame = out[columns].reset_index(drop=True)
    return ranked


def bots_on_the_same_deal(games: dict[int, Game], seed: int = 1) -> Game | None:
    """Three human-like bots play the cards the class had (a same deal: every table's
    game has the same seed, so the same cards level by level); None without a game."""
    if not games:
        return None
    first = games[min(games)]
    levels = max(g.level for g in games.values())
    bots = Game(players=first.players, seed=first.seed, rules=first.rules)
    team = [HumanTimer() for _ in range(bots.players)]
    for _ in range(levels):
        run_level(bots, team, seed=seed + bots.level)
        if str(bots.status) != "cleared" or bots.level >= levels:
            break
        bots.next_level()
    return bots


def class_tables(room: Any, lang: str) -> ipywidgets.HTML:
    """The tables level by level, ranked (fair under a same deal, which the text says).

    Under a same deal a team of human-like bots plays the same cards as well, up
    to the highest level a table reached, and is ranked with the tables: "our
    tables against the bots on the same deal".
    """
    results = room.results()
    if results.empty:
        return _nobody(lang)
    same = bool(getattr(room, "same_deal", False))
    bots_id = int(results["table"].max()) + 1
    if same:
        bots = bots_on_the_same_deal(room.games())
        if bots is not None:
            theirs = classdata.results({bots_id: bots})
            levels = set(results["level"])
            results = pd.concat([results, theirs[theirs["level"].isin(levels)]], ignore_index=True)
    ranked = rank_tables(results)
    who = ranked["table"].map(lambda t: text("class_bots", lang) if t == bots_id else str(t))
    shown = pd.DataFrame(
        {
            text("level", lang).capitalize(): ranked["level"],
            text("class_table", lang): who,
            text("class_rank", lang): ranked["rank"],
            text("class_cleared", lang): ranked["cleared"].map(
                lambda c: text("yes" if c else "no", lang)
            ),
            text("class_mistakes", lang): ranked["mistakes"],
            text("class_seconds", lang): [_written(x, lang, 1) for x in ranked["seconds"]],
        }
    )
    note = text("class_same_deal" if same else "class_not_same", lang)
    return ipywidgets.HTML(_big_table(shown, text("class_rank", lang), above=note))
