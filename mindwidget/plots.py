"""The figures: the timing trace of a level and a player's inner clock, in matplotlib.

* `plot_trace` -- one level of `mindwidget.traces.trace`: seconds since the
  level started against card (the Agg-safe API: no pyplot, no global state,
  so it renders in static notebook output);
* `plot_timing` -- one player's waits against the gap beside the human
  reference (`mindwidget.timing.timing_profile`);
* `plot_clock` -- a pupil's clock in a class (or the class's) beside the
  class's median curve (`mindwidget.classdata.clock`);
* `TraceFigure` and `theme_both` -- every figure reads in a light and a dark
  notebook, and from a class's back row.

This is the one module that loads matplotlib: the DataFrames (`mindwidget.trace`,
`mindwidget.timing`), the scenarios and the class data do not, so the class
server starts without it (and writes no font cache). The figures' words are
the widget's (`mindwidget/locales`), in the language asked for.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.ticker import FuncFormatter

from .bots.human import REACTION_FLOOR, REFERENCE, REFERENCE_BANDS, REFERENCE_COUNTS, curve
from .checks import choice, flag, whole
from .game import Game
from .i18n import LANGS, decimal, translate
from .timing import MIN_PLAYS, TimingProfile, check_player, timed_plays, timing_profile
from .traces import (
    MARKERS,
    OKABE_ITO,
    TraceLevel,
    check_game,
    level_rows,
    pick_level,
    trace_frame,
    trace_stops,
)

__all__ = [
    "FAINT",
    "FONT_SIZES",
    "INK",
    "TraceFigure",
    "figure_and_axes",
    "plot_clock",
    "plot_timing",
    "plot_trace",
    "theme_both",
]


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
    game = check_game(game)
    if you is not None and (
        isinstance(you, bool) or not isinstance(you, int) or not 0 <= you < game.players
    ):
        raise ValueError(f"you must be a seat from 0 to {game.players - 1}, not {you!r}.")
    if level is not None:
        level = whole("level", level)
    if blind is not None:
        blind = flag("blind", blind)
    choice("lang", lang, LANGS, quoted=False)
    lv = pick_level(game, level, blind)
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


def _seat_dots(ax: Axes, x: Any, y: Any, seat: int, label: str, size: float) -> Artist:
    """One seat's points in its colour and marker (`OKABE_ITO`, `MARKERS`), outlined white."""
    (line,) = ax.plot(
        x,
        y,
        ls="none",
        marker=MARKERS[seat % len(MARKERS)],
        ms=size,
        color=OKABE_ITO[seat % len(OKABE_ITO)],
        mec="white",
        zorder=3,
        label=label,
    )
    return line


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


def _draw(game: Game, lv: TraceLevel, ax: Axes, lang: str, you: int | None, bots: bool) -> None:
    def say(key: str, **params: Any) -> str:
        return translate(key, lang, **params)

    def name(p: int) -> str:
        if p == you:
            return say("you_seat", player=p)
        return say("bot" if bots else "plot_player", player=p)

    rows = trace_frame(level_rows(lv))
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
        handles.append(_seat_dots(ax, on_pile["t"], on_pile["card"], p, name(p), 9))
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


def _profile_line(
    ax: Axes, profile: TimingProfile, gaps: Any, colour: str, say: Callable[..., str], lang: str
) -> None:
    """A timing profile's fitted line on ``ax`` (labelled with its floor, step and
    spread), or, with too few plays, a note saying how many it needs."""
    if profile.fitted:
        ax.plot(
            gaps,
            profile.floor + profile.seconds_per_step * gaps,
            color=colour,
            lw=2,
            zorder=3,
            label=say(
                "timing_fit",
                floor=decimal(profile.floor, lang, 1),
                step=decimal(profile.seconds_per_step, lang, 2),
                cv=f"{profile.cv:.0%}",
            ),
        )
    else:
        ax.text(
            0.5,
            0.06,
            say("timing_too_few", n=profile.plays, need=MIN_PLAYS),
            transform=ax.transAxes,
            ha="center",
            color="0.3",
        )


def plot_timing(
    game: Game,
    player: int,
    ax: Axes | None = None,
    lang: str = "en",
    *,
    you: int | None = None,
    bots: bool = False,
) -> Figure:
    """The player's waits against the gap, beside the other seats' and the human reference.

    Plain axes (seconds against steps, as a pupil counts them; no log scales),
    numbers in the language's own format (0,89 in Dutch and German). The
    player's plays are their seat's colour and marker; the other seats' plays
    are small grey dots; the human reference is drawn as its band medians
    (grey bars across each band) and the people curve at tempo 1 (dashed);
    the player's fit is a line in their colour. ``lang``: "en", "nl" or "de".

    Names as the widget gives them with ``bots=True``: seat ``you`` (the
    person's; None at a table of bots only) is "You (player 1)", the other seats
    "Bot 2", "Bot 3": seats counted from 1, as everywhere a pupil reads. Else
    each seat is "Player 1", "Player 2", ...
    """
    game, player = check_player(game, player)
    if you is not None:
        you = check_player(game, you)[1]
    choice("lang", lang, LANGS, quoted=False)
    fig, ax = figure_and_axes(ax, (8.0, 7.0))

    def say(key: str, **params: Any) -> str:
        return translate(key, lang, **params)

    if player == you:
        name, title = say("you_seat", player=player), say("timing_title_you")
    elif bots or you is not None:
        name, title = say("bot", player=player), say("timing_title_bot", player=player)
    else:
        name, title = say("timing_player", player=player), say("timing_title", player=player)

    plays = timed_plays(game)
    others = plays[plays["player"] != player]
    mine = plays[plays["player"] == player]
    top_gap = float(max(plays["gap"].max() if len(plays) else 1.0, 30.0))

    for i, ((low, high), median) in enumerate(zip(REFERENCE_BANDS, REFERENCE, strict=True)):
        right = min(high, top_gap) + 0.5
        ax.plot(
            [low - 0.5 if low > 1 else 0.8, right],
            [median, median],
            color="black",
            lw=2.5,
            solid_capstyle="butt",
            zorder=2,
            label=say("timing_reference", n=sum(REFERENCE_COUNTS)) if i == 0 else None,
        )
    gaps = np.linspace(1, top_gap, 120)
    ax.plot(
        gaps,
        [REACTION_FLOOR + curve(g) for g in gaps],
        color="black",
        ls="--",
        lw=1,
        zorder=2,
        label=say("timing_curve"),
    )
    if len(others):
        ax.plot(
            others["gap"],
            others["wait"],
            ls="none",
            marker="o",
            ms=4,
            color="0.65",
            zorder=1,
            label=say("timing_others"),
        )
    colour = OKABE_ITO[player % len(OKABE_ITO)]
    _seat_dots(ax, mine["gap"], mine["wait"], player, name, 8)
    profile = timing_profile(game, player)
    _profile_line(ax, profile, gaps, colour, say, lang)
    ax.axhline(REACTION_FLOOR, color="0.5", lw=0.8, ls=":", zorder=0)
    waits = [float(plays["wait"].max())] if len(plays) else []
    y_top = max([REACTION_FLOOR + curve(top_gap), *waits]) * 1.1
    ax.set_xlim(0, top_gap * 1.05)
    ax.set_ylim(0, y_top)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: decimal(x, lang, 0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: decimal(y, lang, 0)))
    ax.set_title(title)
    ax.set_xlabel(say("timing_x"))
    ax.set_ylabel(say("timing_y"))
    ax.grid(color="0.92", zorder=0, which="major")
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.12),
        ncol=1,  # one entry a line: long words in large letters
        fontsize="small",
        frameon=False,
    )
    return fig


def plot_clock(clock: Any, ax: Axes | None = None, lang: str = "en") -> Figure:
    """A pupil's clock in a class, or the class's (`mindwidget.classdata.clock`): their
    waits against the gap at every table, their own line and spread (as `plot_timing`
    fits it), and the class's median wait per band of gaps, each with the number of
    plays it rests on (the title names the pupil's; the legend the class's)."""
    from .classdata import Clock

    if not isinstance(clock, Clock):
        raise TypeError(f"expected a classdata.Clock, not {type(clock).__name__}.")
    choice("lang", lang, LANGS, quoted=False)
    fig, ax = figure_and_axes(ax, (8.0, 6.5))

    def say(key: str, **params: Any) -> str:
        return translate(key, lang, **params)

    mine = clock.waits
    line = clock.curve
    if clock.name is None:
        title = say("timing_clock_title_class", n=clock.plays, pupils=clock.class_pupils)
        label = say("timing_clock_class_plays")
    else:
        title = say("timing_clock_title", name=clock.name, n=clock.plays)
        label = say("timing_clock_plays", name=clock.name)
    top_gap = float(max(mine["gap"].max() if len(mine) else 1.0, 30.0))
    if len(line):
        ax.plot(
            line["gap"],
            line["wait"],
            color="black",
            lw=2.5,
            marker="s",
            ms=7,
            zorder=2,
            label=say("timing_clock_class", n=clock.class_plays, pupils=clock.class_pupils),
        )
    fine = mine[~mine["mistake"]]
    _seat_dots(ax, fine["gap"], fine["wait"], 0, label, 8)
    wrong = mine[mine["mistake"]]
    if len(wrong):
        ax.plot(
            wrong["gap"],
            wrong["wait"],
            ls="none",
            marker="X",
            ms=10,
            color=OKABE_ITO[5 % len(OKABE_ITO)],
            mec="white",
            zorder=4,
            label=say("timing_clock_mistake"),
        )
    profile = clock.profile
    gaps = np.linspace(1, top_gap, 120)
    _profile_line(ax, profile, gaps, OKABE_ITO[0], say, lang)
    waits = [float(mine["wait"].max())] if len(mine) else [1.0]
    if len(line):
        waits.append(float(line["wait"].max()))
    ax.set_xlim(0, top_gap * 1.05)
    ax.set_ylim(0, max(waits) * 1.15)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: decimal(x, lang, 0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: decimal(y, lang, 0)))
    ax.set_title(title)
    ax.set_xlabel(say("timing_x"))
    ax.set_ylabel(say("timing_y"))
    ax.grid(color="0.92", zorder=0, which="major")
    ax.legend(
        loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=1, fontsize="small", frameon=False
    )
    return fig
