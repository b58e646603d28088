"""The timing trace: when each card left a hand, and how long the team waited.

The Mind is a game of timing ("a 5 goes quickly, with an 80 you wait a long
time"), so the most useful picture of a level is *time* against *card*. This
module turns any `Game` (played by hand, by bots with
`mindwidget.runner.run_game`, or stepped through in a scenario) into:

* `trace` -- a table with one row per card that left a hand;
* `trace_stops` -- the intervals between a "stop" and the resume after it;
* `plot_trace` -- a matplotlib figure of one level (the Agg-safe API: no
  pyplot, no global state, so it renders in static notebook output).

The trace is the god view: it reads the game's events, including face-down
cards (blind mode) and the cards others held. Show it after a level, not
during one.

Blind mode restarts the level numbers at 1, so a level is named by its number
*and* the ``blind`` flag.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

from .checks import choice, flag, whole
from .events import (
    Dealt,
    Event,
    Mistake,
    Played,
    Ready,
    StarDeclined,
    StarUsed,
    Stopped,
)
from .game import Game
from .i18n import LANGS, translate

__all__ = [
    "MARKERS",
    "OKABE_ITO",
    "OUTCOMES",
    "TRACE_COLUMNS",
    "STOP_COLUMNS",
    "plot_trace",
    "trace",
    "trace_stops",
]

Outcome = Literal["play", "mistake", "lost", "star"]
#: Every value of the ``outcome`` column, in the order the plot's legend uses.
OUTCOMES: tuple[Outcome, ...] = ("play", "mistake", "lost", "star")
TRACE_COLUMNS = ("level", "t", "player", "card", "gap", "wait", "outcome", "blind")
STOP_COLUMNS = ("level", "start", "end", "player", "blind", "why")

#: One colour and marker per seat, the same as in the widget's live trace
#: (`mindwidget/seats.json`, the one place for them): Okabe and Ito's
#: colour-blind safe palette, each colour with its own marker shape.
_SEATS = json.loads((Path(__file__).resolve().parent / "seats.json").read_text("utf-8"))
OKABE_ITO: tuple[str, ...] = tuple(_SEATS["colours"])
MARKERS: tuple[str, ...] = tuple(_SEATS["matplotlib_markers"])

#: Events after which everyone's timing starts afresh: a play (and the mistake
#: it caused), a throwing star used or declined, a stop, and the resume after
#: it. The deal (t=0) counts when nothing else happened yet.
_RESTARTS = (Dealt, Played, Mistake, StarUsed, StarDeclined, Stopped, Ready)


@dataclass(frozen=True)
class _Level:
    """The events of one dealt level (its first event is the `Dealt`)."""

    level: int
    blind: bool
    events: tuple[Event, ...]


def _levels(game: Game) -> Iterator[_Level]:
    current: list[Event] = []
    for e in game.events:
        if isinstance(e, Dealt):
            if current:
                yield _level_of(current)
            current = [e]
        elif current:
            current.append(e)
    if current:
        yield _level_of(current)


def _level_of(events: list[Event]) -> _Level:
    dealt = events[0]
    assert isinstance(dealt, Dealt)
    return _Level(dealt.level, dealt.blind, tuple(events))


def _check_game(game: object) -> Game:
    if not isinstance(game, Game):
        raise ValueError(f"game: expected a mindwidget Game, not {type(game).__name__}.")
    return game


def _level_rows(lv: _Level) -> list[dict[str, object]]:
    dealt = lv.events[0]
    assert isinstance(dealt, Dealt)
    hands = [set(h) for h in dealt.hands]
    rows: list[dict[str, object]] = []
    top: int | None = None  # the top of the pile
    before: int | None = None  # the top before the latest play
    last = 0.0  # time of the latest event that restarts the timing
    play_wait = 0.0  # the wait of the latest play
    events = lv.events
    for i, e in enumerate(events):
        if isinstance(e, Played):
            hands[e.player].discard(e.card)
            if lv.blind:
                # R10: face down, the core says nothing until the pile is
                # turned over; the trace marks a card played over a lower
                # held card at once (what R6 would have called a mistake).
                lower = any(c < e.card for h in hands for c in h)
            else:
                # R6: the core's own verdict, the Mistake event that follows the play.
                following = events[i + 1] if i + 1 < len(events) else None
                lower = isinstance(following, Mistake) and following.card == e.card
            play_wait = e.t - last
            outcome: Outcome = "mistake" if lower else "play"
            rows.append(_row(lv, e.t, e.player, e.card, top, play_wait, outcome))
            before, top = top, e.card
        elif isinstance(e, Mistake):
            # R6: the discards as the core recorded them. The lower cards left
            # the hands at the moment of the mistaken play: same wait, and
            # their gap is measured from the same pile.
            for d in e.discards:
                hands[d.player].discard(d.card)
                rows.append(_row(lv, e.t, d.player, d.card, before, play_wait, "lost"))
        elif isinstance(e, StarUsed):
            for d in e.discards:
                hands[d.player].discard(d.card)
                rows.append(_row(lv, e.t, d.player, d.card, top, e.t - last, "star"))
        if isinstance(e, _RESTARTS):
            last = e.t
    return rows


def _row(
    lv: _Level, t: float, player: int, card: int, top: int | None, wait: float, outcome: Outcome
) -> dict[str, object]:
    return {
        "level": lv.level,
        "t": t,
        "player": player,
        "card": card,
        "gap": math.nan if top is None else float(card - top),
        "wait": wait,
        "outcome": outcome,
        "blind": lv.blind,
    }


def _frame(rows: list[dict[str, object]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(TRACE_COLUMNS))
    typed: pd.DataFrame = frame.astype(
        {
            "level": "int64",
            "t": "float64",
            "player": "int64",
            "card": "int64",
            "gap": "float64",
            "wait": "float64",
            "outcome": "object",
            "blind": "bool",
        }
    )
    return typed


def trace(game: Game) -> pd.DataFrame:
    """One row per card that left a hand, in the order it happened.

    Columns:

    * ``level``, ``blind`` -- which level (blind mode counts from 1 again);
    * ``t`` -- seconds since the level started (the level clock);
    * ``player``, ``card`` -- who let go of which card;
    * ``gap`` -- the card minus the top of the pile just before (NaN while the
      pile is empty). Cards put aside after a mistake are measured from the
      pile *before* the mistaken card, like that card itself;
    * ``wait`` -- seconds since the previous event that restarts everyone's
      timing: a play (or its mistake), a throwing star used or declined, a
      "stop", or the resume after it (the previous ready). Cards put
      aside share the wait of the event that put them aside;
    * ``outcome`` -- ``"play"``; ``"mistake"`` for a card played while a lower
      card was still held (in blind mode this is found only when the pile is
      turned over, but the trace knows it at once); ``"lost"``
      for a lower card put aside after a mistake; ``"star"`` for a
      lowest card put aside by a throwing star.

    >>> from mindwidget import Game
    >>> g = Game.from_hands([[26], [30], [34, 50]], level=2)
    >>> g.ready(t=0); _ = g.play(2, t=2.0); _ = g.play(2, t=3.0)
    >>> trace(g)[["card", "outcome"]].values.tolist()
    [[34, 'mistake'], [26, 'lost'], [30, 'lost'], [50, 'play']]
    """
    game = _check_game(game)
    rows: list[dict[str, object]] = []
    for lv in _levels(game):
        rows.extend(_level_rows(lv))
    return _frame(rows)


def trace_stops(game: Game) -> pd.DataFrame:
    """The stops: one row per "stop" with the time the team resumed.

    Columns ``level``, ``start`` (the stop), ``end`` (the ready that
    resumed play; NaN if the level ended or the game stands before it),
    ``player`` (who called stop, or in whose name the host stopped), ``blind``
    and ``why`` (`mindwidget.events.STOP_REASONS`: "player" when the seat called
    it; "offline", "teacher" or "seat" when a class server stopped the level for
    a lost connection, the teacher's pause or a change of seat). A second "stop"
    before the resume belongs to the first.
    """
    game = _check_game(game)
    rows: list[dict[str, object]] = []
    for lv in _levels(game):
        open_row: dict[str, object] | None = None
        for e in lv.events:
            if isinstance(e, Stopped) and open_row is None:
                open_row = {
                    "level": lv.level,
                    "start": e.t,
                    "end": math.nan,
                    "player": e.player,
                    "blind": lv.blind,
                    "why": e.why,
                }
                rows.append(open_row)
            elif isinstance(e, Ready) and open_row is not None:
                open_row["end"] = e.t
                open_row = None
    frame = pd.DataFrame(rows, columns=list(STOP_COLUMNS))
    typed: pd.DataFrame = frame.astype(
        {
            "level": "int64",
            "start": "float64",
            "end": "float64",
            "player": "int64",
            "blind": "bool",
            "why": "object",
        }
    )
    return typed


def _pick_level(game: Game, level: int | None, blind: bool | None) -> _Level:
    levels = list(_levels(game))
    if level is None and blind is None:
        # The last level in which a card left a hand; else the current one.
        for lv in reversed(levels):
            if _level_rows(lv):
                return lv
        return levels[-1]
    for lv in reversed(levels):
        if (level is None or lv.level == level) and (blind is None or lv.blind == blind):
            return lv
    played = ", ".join(f"{lv.level}{' (blind)' if lv.blind else ''}" for lv in levels)
    wanted = "any level" if level is None else f"level {level}"
    mode = "" if blind is None else (" in blind mode" if blind else " outside blind mode")
    raise ValueError(f"this game has no {wanted}{mode}; its levels so far: {played}.")


#: Text, axes and dark marks of every `TraceFigure`: a grey that reads on a light
#: and on a dark notebook (JupyterLab's dark theme), on a transparent background.
INK = "#8a8a8a"
#: Light fills and grid lines (stops, the grid): a see-through grey, for both themes.
FAINT = (0.55, 0.55, 0.55, 0.22)
#: Smallest font sizes (points) in a `TraceFigure`, readable from the back row.
FONT_SIZES = {"title": 15.0, "label": 13.0, "tick": 12.0, "legend": 12.0, "text": 11.0}


def _luminance(colour: Any) -> tuple[float, float, float]:
    """(lightness, saturation-ish spread, alpha) of a matplotlib colour."""
    r, g, b, a = to_rgba(colour)
    return (r + g + b) / 3, max(r, g, b) - min(r, g, b), a


def _for_both_themes(colour: Any) -> Any:
    """Black and dark greys become `INK`, light greys `FAINT`; colours stay."""
    if isinstance(colour, str) and colour == "none":
        return colour
    light, spread, alpha = _luminance(colour)
    if alpha == 0 or spread > 0.08:
        return colour
    if light < 0.35:
        return INK
    if 0.75 <= light < 0.999:
        return FAINT
    return colour


def theme_both(fig: Figure) -> None:
    """Make ``fig`` read in a light and in a dark notebook, and from the back row.

    A transparent background; text, axes and ticks in `INK`; black marks in
    `INK` and light grey fills in `FAINT`; fonts at least `FONT_SIZES`. Colours
    (the seats' Okabe-Ito palette) are kept. `TraceFigure` does this before it
    draws; it can be called again (it changes nothing the second time).
    """
    fig.patch.set_alpha(0.0)
    for ax in fig.axes:
        ax.patch.set_alpha(0.0)
        for spine in ax.spines.values():
            spine.set_edgecolor(INK)
        ax.tick_params(colors=INK, labelcolor=INK, which="both")
        for label in ax.get_xticklabels() + ax.get_yticklabels():
            label.set_fontsize(max(label.get_fontsize(), FONT_SIZES["tick"]))
        for text, size in (
            (ax.title, "title"),
            (ax.xaxis.label, "label"),
            (ax.yaxis.label, "label"),
        ):
            text.set_fontsize(max(text.get_fontsize(), FONT_SIZES[size]))
        for line in ax.get_xgridlines() + ax.get_ygridlines():
            line.set_color(FAINT)
        legend = ax.get_legend()
        if legend is not None:
            for text in legend.get_texts():
                text.set_fontsize(max(text.get_fontsize(), FONT_SIZES["legend"]))
    for artist in fig.findobj(lambda a: isinstance(a, (Text, Line2D, Patch))):
        if isinstance(artist, Text):
            artist.set_color(_for_both_themes(artist.get_color()))
            if float(artist.get_fontsize()) < FONT_SIZES["text"] and artist.get_text():
                artist.set_fontsize(FONT_SIZES["text"])
        elif isinstance(artist, Line2D):
            artist.set_color(_for_both_themes(artist.get_color()))
            artist.set_markeredgecolor(_for_both_themes(artist.get_markeredgecolor()))
            face = artist.get_markerfacecolor()
            if not (isinstance(face, str) and face == "none"):
                artist.set_markerfacecolor(_for_both_themes(face))
        elif isinstance(artist, Patch) and artist is not fig.patch:
            if any(artist is ax.patch for ax in fig.axes):
                continue
            artist.set_facecolor(_for_both_themes(artist.get_facecolor()))
            artist.set_edgecolor(_for_both_themes(artist.get_edgecolor()))


class TraceFigure(Figure):
    """A matplotlib Figure that shows itself as a PNG in any notebook, light or dark.

    `plot_trace` does not use pyplot (no global figure state), so without
    ``%matplotlib inline`` IPython would print ``<Figure size ...>``; this
    class gives IPython the picture instead. Where an inline backend has
    registered its own Figure formatter, that formatter is used and the
    picture still shows once. Before it draws it calls `theme_both`: a
    transparent picture whose text and marks read in JupyterLab's light and
    dark themes (not a white box in the dark one).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.patch.set_alpha(0.0)  # transparent also where it is saved before it is drawn

    def draw(self, renderer: RendererBase) -> None:
        theme_both(self)
        super().draw(renderer)

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100, transparent=True)
        return buffer.getvalue()


def plot_trace(
    game: Game,
    level: int | None = None,
    ax: Axes | None = None,
    blind: bool | None = None,
    lang: str = "en",
    you: int | None = None,
    bots: bool = False,
) -> Figure:
    """Plot one level: seconds since the level started (x) against card (y).

    Every seat has its own colour *and* marker (Okabe-Ito palette), filled for
    a card that went on the pile and hollow for one put aside. A grey ring (`INK`)
    marks a card played while a lower card was held, a cross a card put aside
    after that mistake, and a star a card put aside by a throwing star. Grey
    bands are stops (hands back on the table), and a thin grey line joins the
    pile in play order, so a mistake shows as a step down.

    ``level`` defaults to the last level in which a card was played. In a game
    that went on into blind mode a level number can occur twice; ``blind``
    picks one (by default the later one). Pass ``ax`` to draw into your own
    axes; the function returns the figure either way. ``lang`` ("en", "nl" or
    "de") is the language of the title, axes and legend (the widget's strings,
    `mindwidget/locales`).

    Seats are named as a pupil reads them, counted from 1: "Player 1", ... or,
    with ``bots=True``, as the widget names them: seat ``you`` (the person's;
    None at a table of bots only) "You (player 1)", the others "Bot 2", ...
    """
    game = _check_game(game)
    if you is not None and (
        isinstance(you, bool) or not isinstance(you, int) or not 0 <= you < game.players
    ):
        raise ValueError(f"you must be a seat from 0 to {game.players - 1}, not {you!r}.")
    if level is not None:
        level = whole("level", level)
    if blind is not None:
        blind = flag("blind", blind)
    choice("lang", lang, LANGS, quoted=False)
    lv = _pick_level(game, level, blind)
    fig, ax = figure_and_axes(ax, (8.0, 5.8))
    _draw(game, lv, ax, lang, you, bots)
    return fig


def figure_and_axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    """A new `TraceFigure` with one set of axes, or ``ax`` and the Figure it belongs to."""
    if ax is None:
        fig: Figure = TraceFigure(figsize=figsize, layout="constrained")
        return fig, fig.add_subplot()
    parent = ax.get_figure(root=True)
    if not isinstance(parent, Figure):
        raise ValueError("ax must belong to a matplotlib Figure.")
    return parent, ax


#: Where a card's number may stand, in points from its dot, in order of preference.
_LABEL_SPOTS = ((7, 3), (7, -14), (-7, 3), (-7, -14), (7, 14), (7, -25), (-7, 14), (-7, -25))


def _label_cards(ax: Axes, rows: pd.DataFrame, top: tuple[float, float]) -> None:
    """Each card's number beside its dot, where it covers no other number or dot.

    The spots are tried in `_LABEL_SPOTS` order, time order first, on the
    axes' size in points (the axes span ``0..top`` in time and card); a number
    with no free spot takes the first one.
    """
    fig = ax.get_figure(root=True)
    width_in, height_in = fig.get_size_inches() if fig is not None else (7.5, 4.5)
    w_pt, h_pt = 72 * width_in * 0.86, 72 * height_in * 0.55  # the axes, roughly
    size = FONT_SIZES["text"]
    points = [
        (float(t) / top[0] * w_pt, float(c) / top[1] * h_pt)
        for t, c in zip(rows["t"], rows["card"], strict=True)
    ]
    taken = [(x - 5, y - 5, x + 5, y + 5) for x, y in points]  # the dots

    def free(box: tuple[float, float, float, float]) -> bool:
        return all(
            box[2] <= b[0] or b[2] <= box[0] or box[3] <= b[1] or b[3] <= box[1] for b in taken
        )

    for (x, y), t, card in zip(points, rows["t"], rows["card"], strict=True):
        text = str(card)
        w = 0.62 * size * len(text)
        boxes: list[tuple[float, float, tuple[float, float, float, float]]] = []
        for dx, dy in _LABEL_SPOTS:
            left = x + dx if dx > 0 else x + dx - w
            boxes.append((dx if dx > 0 else dx - w, dy, (left, y + dy, left + w, y + dy + size)))
        spot = next((b for b in boxes if free(b[2])), boxes[0])
        taken.append(spot[2])
        ax.annotate(
            text,
            (t, card),
            xytext=(spot[0], spot[1]),
            textcoords="offset points",
            fontsize=size,
            color=INK,
        )


def _draw(game: Game, lv: _Level, ax: Axes, lang: str, you: int | None, bots: bool) -> None:
    def say(key: str, **params: Any) -> str:
        return translate(key, lang, **params)

    def name(p: int) -> str:
        if p == you:
            return say("you_seat", player=p)
        return say("bot" if bots else "plot_player", player=p)

    rows = _frame(_level_rows(lv))
    stops = trace_stops(game)
    stops = stops[(stops["level"] == lv.level) & (stops["blind"] == lv.blind)]
    end = max([float(rows["t"].max()) if len(rows) else 0.0, lv.events[-1].t, 1.0])
    handles: list[Artist] = []

    for start, stop_end in zip(stops["start"], stops["end"], strict=True):
        right = end if math.isnan(stop_end) else float(stop_end)
        ax.axvspan(float(start), max(right, float(start) + 0.05), color="0.85", zorder=0, lw=0)
    if len(stops):
        handles.append(Patch(color="0.85", label=say("plot_stop")))

    played = rows[rows["outcome"].isin(["play", "mistake"])]
    if len(played):
        (pile,) = ax.plot(
            played["t"], played["card"], color="0.6", lw=1, zorder=1, label=say("plot_pile")
        )
        handles.append(pile)

    for p in range(game.players):
        colour, marker = OKABE_ITO[p % len(OKABE_ITO)], MARKERS[p % len(MARKERS)]
        mine = rows[rows["player"] == p]
        on_pile = mine[mine["outcome"].isin(["play", "mistake"])]
        aside = mine[mine["outcome"].isin(["lost", "star"])]
        (line,) = ax.plot(
            on_pile["t"],
            on_pile["card"],
            ls="none",
            marker=marker,
            ms=9,
            color=colour,
            mec="white",
            zorder=3,
            label=name(p),
        )
        handles.append(line)
        if len(aside):
            ax.plot(
                aside["t"],
                aside["card"],
                ls="none",
                marker=marker,
                ms=9,
                mfc="white",
                mec=colour,
                mew=2,
                zorder=3,
            )

    overlay = {
        "mistake": {"marker": "o", "ms": 17, "mfc": "none", "mew": 1.8},
        "lost": {"marker": "x", "ms": 7, "mew": 1.5},
        "star": {"marker": "*", "ms": 8, "mew": 0.5},
    }
    for outcome, style in overlay.items():
        these = rows[rows["outcome"] == outcome]
        if len(these):
            (mark,) = ax.plot(
                these["t"],
                these["card"],
                ls="none",
                color="black",
                mec="black",
                zorder=4,
                label=say(f"plot_{outcome}"),
                **style,  # type: ignore[arg-type]
            )
            handles.append(mark)

    _label_cards(ax, rows, (end * 1.05, game.rules.deck + 1.0))

    if not len(rows):
        ax.text(
            0.5,
            0.5,
            say("plot_empty"),
            transform=ax.transAxes,
            ha="center",
            va="center",
            color="0.4",
        )
    ax.set_title(say("plot_title_blind" if lv.blind else "plot_title", n=lv.level))
    ax.set_xlabel(say("plot_x"))
    ax.set_ylabel(say("plot_y"))
    ax.set_xlim(0, end * 1.05)
    ax.set_ylim(0, game.rules.deck + 1)
    ax.grid(axis="y", color="0.92", zorder=0)
    ax.legend(
        handles=handles,
        loc="upper center",  # below the plot: the plot keeps the figure's width
        bbox_to_anchor=(0.5, -0.14),
        ncol=2,
        fontsize="small",
        frameon=False,
    )
