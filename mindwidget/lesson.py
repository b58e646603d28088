"""The lesson's building blocks: what the notebooks in ``notebooks/<lang>/`` call.

The lesson notebooks hold no helper code: every cell is one call into this
module, in the notebook's language, e.g. ::

    from mindwidget import lesson
    lesson.play("nl")                      # a table for one person and two bots
    lesson.scenario("mistake", "nl")       # a rule, step by step, in big text
    lesson.bet_team_sizes("nl")            # a bet, with its answer behind a button

Words: every string here is a key of ``mindwidget/locales/lesson/<lang>.json``
(the ``ui`` section); the notebooks' prose and the rules card come from the
same files (``tools/build_notebooks.py`` writes them). The game's own words
(lives, throwing stars, ...) come from the widget's locale files.

Answers to bets are computed when the cell runs (so "Run All" prepares them)
but shown only when someone presses "Show the answer": `Answer`.

Nothing here raises when a teacher follows the text: `next_moves` presses
Ready only when the table waits for it, and says in words when there is
nothing left to do.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import ipywidgets
import numpy as np
import pandas as pd
import traitlets
from matplotlib.figure import Figure
from matplotlib.text import Annotation, Text

from .adaptive import AdaptiveTimer
from .bots import Bot, PerfectTimer, ScalarTimer, StarPolicy
from .game import Game
from .i18n import LANGS, translate
from .prob import expected_adjacent_pairs, p_wrong_order
from .rules import Rules
from .runner import run_game, run_level
from .scenario import Scenario
from .scenario_widget import ScenarioPlayer
from .sim import Summary, simulate
from .timing import MIN_PLAYS
from .trace import TraceFigure, plot_trace, trace
from .view import phase
from .widget import MindWidget

__all__ = [
    "Answer",
    "Bet",
    "next_moves",
    "play",
    "rules_card",
    "scenario",
    "text",
]

_TEXT_DIR = Path(__file__).resolve().parent / "locales" / "lesson"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: Okabe-Ito, as the seats (mindwidget/seats.json) and plot_trace use them.
_BLUE, _ORANGE, _GREEN, _GREY = "#0072B2", "#E69F00", "#009E73", "#777777"


# ------------------------------------------------------------------ words
@cache
def texts(lang: str) -> dict[str, Any]:
    """Every lesson text of one language: ``{"ui": {...}, "card": {...}, "01-play": {...}}``."""
    _check_lang(lang)
    data = json.loads((_TEXT_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"locales/lesson/{lang}.json must hold an object.")
    return data


def flat(lang: str) -> dict[str, str]:
    """The texts of one language as ``{"section.key": text}`` (a list of lines joined)."""
    out: dict[str, str] = {}
    for section, entries in texts(lang).items():
        for key, value in entries.items():
            out[f"{section}.{key}"] = "\n".join(value) if isinstance(value, list) else value
    return out


def text(key: str, lang: str, **params: Any) -> str:
    """The lesson text ``key`` ("ui.show_answer", or "show_answer" for the ui section)."""
    full = key if "." in key else f"ui.{key}"
    words = flat(lang)
    if full not in words:
        raise KeyError(f"no lesson text {full!r} in locales/lesson/{lang}.json")
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), words[full])


def _check_lang(lang: str) -> None:
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}.")


def percent(x: float, lang: str, digits: int = 1) -> str:
    """0.455 -> "45.5%" (en), "45,5%" (nl, de)."""
    s = f"{100 * x:.{digits}f}"
    return {"en": f"{s}%", "nl": s.replace(".", ",") + "%"}.get(lang, s.replace(".", ",") + " %")


def number(x: float, lang: str, digits: int = 0) -> str:
    """10000 -> "10,000" (en), "10.000" (nl, de)."""
    s = f"{x:,.{digits}f}"
    if lang in ("nl", "de"):
        s = s.replace(",", "_").replace(".", ",").replace("_", ".")
    return s


def _md(s: str) -> str:
    """A short text to HTML: escaped, with **bold**, paragraphs at blank lines."""
    out = []
    for para in s.split("\n\n"):
        escaped = html.escape(para.strip())
        out.append("<p>" + re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", escaped) + "</p>")
    return "".join(out)


def readable(fig: Figure, scale: float = 1.5, grow: float = 1.35) -> Figure:
    """``fig`` made for a projector: every text ``scale`` times as large (at least 13 pt),
    the legend below the plot, a card's label moved aside where it would cover a neighbour's;
    the figure ``grow`` times as large.
    """
    width, height = fig.get_size_inches()
    fig.set_size_inches(max(width, 7.0) * grow, height * grow)
    for ax in fig.axes:
        _spread_labels(ax)
        legend = ax.get_legend()
        if legend is not None:
            labels = [t.get_text() for t in legend.get_texts()]
            ax.legend(
                handles=legend.legend_handles,
                labels=labels,
                loc="upper center",
                bbox_to_anchor=(0.5, -0.2),
                ncol=2,
                frameon=False,
            )
    for item in fig.findobj(Text):
        item.set_fontsize(max(13.0, float(item.get_fontsize()) * scale))
    return fig


def _spread_labels(ax: Any) -> None:
    """Labels of points (annotations) that would overlap: every second one goes to the left."""
    notes = sorted((a for a in ax.texts if isinstance(a, Annotation)), key=lambda a: tuple(a.xy))
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    previous: Annotation | None = None
    for note in notes:
        if previous is not None and previous.get_horizontalalignment() != "right":
            dx = abs(note.xy[0] - previous.xy[0]) / max(x1 - x0, 1e-9)
            dy = abs(note.xy[1] - previous.xy[1]) / max(y1 - y0, 1e-9)
            if dx < 0.08 and dy < 0.08:
                note.set_position((-9, 3))
                note.set_horizontalalignment("right")
                previous = note
                continue
        previous = note


def _figure_html(fig: Figure) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="" style="max-width:100%" src="data:image/png;base64,{data}">'


def _html(part: object) -> str:
    if isinstance(part, (Scenario, Game)):
        return f"<pre>{html.escape(repr(part))}</pre>"
    if isinstance(part, Figure):
        return _figure_html(readable(part))
    if isinstance(part, pd.DataFrame):
        return part.to_html(border=0, escape=True, index=False)
    return _md(str(part))


_BIG = "font-size:1.35em;line-height:1.45"

#: Projector-sized controls: the words of a bet's slider and buttons (ipywidgets'
#: own classes) as large as the bet's question. (A scenario's story stands beside
#: its table at projector size by the board's own stylesheet, js/scenario.css.)
_STYLE = """<style>
.mw-lesson-big .widget-label, .mw-lesson-big .widget-readout,
.mw-lesson-big .widget-toggle-button, .mw-lesson-big .widget-dropdown select,
.mw-lesson-big .widget-button {
  font-size: 22px; line-height: 1.3;
}
.mw-lesson-big .widget-label { min-width: max-content; }
.mw-lesson-big .widget-readout { min-width: 3.5em; }
.mw-lesson-big .widget-toggle-button, .mw-lesson-big .widget-button,
.mw-lesson-big .widget-dropdown select { height: auto; min-height: 44px; padding: 4px 16px; }
.mw-lesson-big .widget-inline-hbox { min-height: 48px; align-items: center; }
.mw-lesson-big .widget-slider .ui-slider-handle { width: 22px; height: 22px; top: -8px; }
</style>"""


def _style() -> ipywidgets.HTML:
    """The lesson's projector styles (`_STYLE`), to put into a box of controls."""
    box = ipywidgets.HTML(_STYLE, layout=ipywidgets.Layout(display="contents"))
    box.add_class("mw-lesson-style")
    return box


class Answer(ipywidgets.VBox):  # type: ignore[misc]
    """An answer behind a button: "Show the answer" shows it, "Hide the answer" hides it.

    ``parts`` are texts (``**bold**`` allowed), matplotlib figures or
    DataFrames, prepared now and shown only on request. `html` is what it
    shows; `shown` whether it is shown; `show`, `hide`, `toggle` from a cell.
    """

    def __init__(self, *parts: object, lang: str = "en") -> None:
        _check_lang(lang)
        self.lang = lang
        self.html = "".join(_html(p) for p in parts)
        self._body = ipywidgets.HTML(
            value=f'<div class="mw-lesson-answer" style="{_BIG}">{self.html}</div>',
            layout=ipywidgets.Layout(display="none"),
        )
        self._button = ipywidgets.Button(
            description=text("show_answer", lang),
            icon="eye",
            button_style="info",
            layout=ipywidgets.Layout(width="auto", height="44px", align_self="flex-start"),
        )
        self._button.style.font_size = "18px"
        self._button.add_class("mw-lesson-show")
        self._button.on_click(lambda _b: self.toggle())
        super().__init__(children=[self._button, self._body])
        self.add_class("mw-lesson-answer-box")

    @property
    def shown(self) -> bool:
        return bool(self._body.layout.display != "none")

    def show(self) -> None:
        self._body.layout.display = None
        self._button.description = text("hide_answer", self.lang)
        self._button.icon = "eye-slash"

    def hide(self) -> None:
        self._body.layout.display = "none"
        self._button.description = text("show_answer", self.lang)
        self._button.icon = "eye"

    def toggle(self) -> None:
        self.hide() if self.shown else self.show()


class Bet(ipywidgets.VBox):  # type: ignore[misc]
    """A bet in big text, a control for the class's guess, and the `Answer` below.

    ``choices``: buttons to pick one answer; ``out_of``: a slider "our bet:
    n in ``out_of``"; neither: the question and the answer only.
    """

    def __init__(
        self,
        question: str,
        answer: Answer,
        *,
        choices: Sequence[str] = (),
        out_of: int | None = None,
        lang: str = "en",
    ) -> None:
        _check_lang(lang)
        children: list[Any] = [
            _style(),
            ipywidgets.HTML(
                f'<div style="{_BIG}"><b>{html.escape(text("bet", lang))}</b> '
                f"{html.escape(question)}</div>"
            ),
        ]
        self.guess: ipywidgets.Widget | None = None
        if choices:
            self.guess = ipywidgets.ToggleButtons(
                options=list(choices),
                value=None,
                description=text("our_bet", lang),
                style={"description_width": "initial", "button_width": "auto"},
            )
        elif out_of is not None:
            self.guess = ipywidgets.IntSlider(
                value=out_of // 2,
                min=0,
                max=out_of,
                description=text("our_bet", lang),
                readout_format="d",
                style={"description_width": "initial"},
                layout=ipywidgets.Layout(width="min(46em, 100%)"),
            )
        if self.guess is not None:
            children.append(self.guess)
        children.append(answer)
        self.answer = answer
        super().__init__(children=children)
        self.add_class("mw-lesson-bet")
        self.add_class("mw-lesson-big")


def _fig(width: float = 7, height: float = 3.6) -> tuple[Figure, Any]:
    fig = TraceFigure(figsize=(width, height), layout="constrained")
    ax = fig.add_subplot()
    ax.spines[["top", "right"]].set_visible(False)
    return fig, ax


def _percent_axis(ax: Any, top: float = 1.0) -> None:
    ax.set_ylim(0, top)
    ax.yaxis.set_major_formatter(lambda y, _pos: f"{100 * y:.0f}%")


#: The common mistakes of the scenario library, for one menu in 02-rules.
COMMON_MISTAKES = tuple(n for n in Scenario.names() if n.startswith("common_"))
#: The menu "at a real table" in 02-rules: the common mistakes, then questions
#: that come up at a real table.
AT_THE_TABLE = (*COMMON_MISTAKES, "same_moment", "star_one_hand_left", "four_players")
#: Blind mode's stories, one menu in 02-rules.
BLIND = ("blind_check", "blind_last_life", "blind_win")


# --------------------------------------------------------------- 01: play
def play(
    lang: str, seed: int | None = 1, bots: str = "human", size: str = "projector"
) -> MindWidget:
    """A table for one person (seat 0, "You") and two bots, in ``lang``.

    The bots are the widget's default, human-like ones (they wait as people
    wait, adapt to the person and propose throwing stars); ``w.tempo = "slow"``
    slows them down. It opens in projector size (the lesson is shown to a
    class); ``w.size = "normal"`` for a small screen.
    """
    return MindWidget(players=3, seat=0, bots=bots, seed=seed, lang=lang, size=size)


def watch(lang: str, seed: int = 2) -> MindWidget:
    """A table of three bots and nobody else, in projector size: the class watches."""
    return MindWidget(players=3, seat=None, bots="scalar", seed=seed, lang=lang, size="projector")


def class_view(lang: str, seed: int = 7) -> MindWidget:
    """Three bots, every hand shown, no running clock: one move per "Wait"."""
    return MindWidget(
        players=3,
        seat=None,
        bots="scalar",
        mode="step",
        reveal=True,
        size="projector",
        seed=seed,
        lang=lang,
    )


def next_moves(w: MindWidget, moves: int = 1) -> None:
    """Up to ``moves`` bot moves on ``w``, whatever was pressed before; prints what happened.

    Whenever the hands are on the table (before the level, or after a stop),
    it presses Ready first; if the level is over, it says so (and how to go
    on) instead of raising.
    """
    lang = w.lang
    done: list[str] = []
    for _ in range(moves):
        if phase(w.game) in ("ready", "stopped"):
            w.ready()
            done.append(text("moves_ready", lang))
        if w.planned is None:
            break
        before = len(w.game.pile) + len(w.game.discards)
        w.step()
        card = w.game.pile[-1] if w.game.pile else None
        if card is not None and len(w.game.pile) + len(w.game.discards) > before:
            who = translate("bot", lang, n=_last_player(w.game))
            done.append(text("moves_played", lang, who=who, card=card))
    p = phase(w.game)
    if p in ("cleared", "won", "lost"):
        done.append(text(f"moves_{p}", lang))
    elif not done:
        done.append(text("moves_none", lang))
    print(" ".join(done))


def _last_player(game: Game) -> int:
    for event in reversed(game.events):
        player = getattr(event, "player", None)
        if isinstance(player, int) and type(event).__name__ in ("Played", "Mistake"):
            return player
    return 0


def trace_of(w: MindWidget) -> Figure | None:
    """The timing trace of the level just played on ``w``, or a sentence if nothing was played."""
    if not w.game.pile and not w.game.discards and w.game.level == 1:
        print(text("trace_nothing_yet", w.lang))
        return None
    return w.plot_trace()


def inner_clock(w: MindWidget) -> ipywidgets.HTML:
    """The person's inner clock on ``w``: a sentence in big text and `MindWidget.plot_timing`.

    With fewer than three of the person's own cards (or nobody at the table)
    the sentence says so, and there is no chart. ``.figure`` is the chart (or None).
    """
    lang = w.lang
    fig: Figure | None = None
    if w.seat is None:
        sentence = text("clock_no_person", lang)
    else:
        profile = w.timing_profile()
        if not profile.fitted:
            sentence = text("clock_too_few", lang, n=profile.plays, need=MIN_PLAYS)
        else:
            sentence = text(
                "clock_summary",
                lang,
                plays=profile.plays,
                step=number(profile.seconds_per_step, lang, 2),
                cv=percent(profile.cv, lang, 0),
                tempo=number(profile.tempo, lang, 2),
            )
            fig = w.plot_timing()
    chart = _figure_html(fig) if fig is not None else ""
    box = ipywidgets.HTML(
        f'<div class="mw-lesson-clock" style="{_BIG}">{_md(sentence)}</div>{chart}'
    )
    box.sentence, box.figure = sentence, fig
    return box


# -------------------------------------------------------------- 02: rules
class LessonScenario(ScenarioPlayer):
    """A `ScenarioPlayer` in projector size: its story stands beside the table
    (js/scenario.css), and `_STYLE`'s block stays the box's first child whatever
    the player shows (the board, or the board and a live table).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._style_box = _style()
        super().__init__(*args, **kwargs)
        self.board.size = "projector"
        self.add_class("mw-lesson-scenario")

    @traitlets.validate("children")
    def _keep_style(self, proposal: dict[str, Any]) -> tuple[Any, ...]:
        children = tuple(c for c in proposal["value"] if c is not self._style_box)
        return (self._style_box, *children)


def scenario(name: str, lang: str, seat: int | None = 0, bots: str = "scalar") -> ScenarioPlayer:
    """A scenario of the library in big text: Back, Next (or the arrow keys), Take over."""
    return LessonScenario(Scenario.load(name), lang=lang, seat=seat, bots=bots)


def scenario_menu(names: Sequence[str], lang: str) -> ipywidgets.VBox:
    """One scenario at a time out of ``names``, picked from a menu by its title."""
    players = [scenario(n, lang) for n in names]
    menu = ipywidgets.Dropdown(
        options=[(p.scenario.title, i) for i, p in enumerate(players)],
        value=0,
        description=text("pick_scenario", lang),
        style={"description_width": "initial"},
        layout=ipywidgets.Layout(width="min(48em, 100%)"),
    )
    box = ipywidgets.VBox(children=[menu, players[0]])

    def pick(change: dict[str, Any]) -> None:
        box.children = [menu, players[change["new"]]]

    menu.observe(pick, names="value")
    box.players = players  # for a cell (and the tests)
    return box


def setup_table(lang: str) -> ipywidgets.HTML:
    """Levels, lives and throwing stars by number of players, and the rewards, in big text."""

    def say(key: str, **kw: Any) -> str:
        return text(key, lang, **kw)

    rows = "".join(
        f"<tr><td>{n}</td><td>{r.n_levels}</td><td>{r.start_lives}</td><td>{r.stars}</td></tr>"
        for n, r in ((n, Rules(players=n)) for n in (2, 3, 4))
    )
    head = (
        f"<tr><th>{say('players')}</th><th>{say('levels')}</th>"
        f"<th>{translate('lives', lang)}</th><th>{translate('stars', lang)}</th></tr>"
    )
    rewards = ", ".join(
        f"{say('level_n', n=level)}: {translate(kind + '_card', lang)}"
        for level, kind in sorted(Rules().rewards.items())
    )
    style = "border-collapse:collapse;text-align:center;" + _BIG
    cell = "padding:0.2em 1.2em;border-bottom:1px solid #bbb"
    table = f'<table style="{style}">{head}{rows}</table>'.replace("<td>", f'<td style="{cell}">')
    table = table.replace("<th>", f'<th style="{cell}">')
    return ipywidgets.HTML(
        f'{table}<p style="{_BIG}"><b>{html.escape(say("rewards"))}</b> {html.escape(rewards)}</p>'
    )


# -------------------------------------------------------- 03: probability
def _summary(players: int, bots: Any, games: int, seed: int) -> Summary:
    return simulate(players=players, bots=bots, games=games, seed=seed, progress=False).summary()


def bet_watch_bots(lang: str) -> Bet:
    """Will three bots clear all 10 levels? One game, seed 7, and its last level's trace."""
    game = run_game(Game(players=3, seed=7), ScalarTimer(), seed=7)
    key = "watch_won" if game.status == "won" else "watch_lost"
    answer = Answer(
        text(key, lang, level=game.level, of=game.levels),
        plot_trace(game, lang=lang),
        text("watch_rings", lang),
        lang=lang,
    )
    yes_no = [text("yes", lang), text("no", lang)]
    return Bet(text("03-probability.bet_watch", lang), answer, choices=yes_no, lang=lang)


def bet_team_sizes(lang: str, games: int = 10_000, seed: int = 1) -> Bet:
    """How often do teams of 2, 3 and 4 bots win? A bar chart in percentages."""
    sizes = (2, 3, 4)
    results = {n: _summary(n, "scalar", games, seed) for n in sizes}
    fig, ax = _fig(6, 3.6)
    rates = [results[n].win_rate for n in sizes]
    bars = ax.bar(
        [text("n_players", lang, n=n) for n in sizes], rates, color=[_GREEN, _BLUE, _ORANGE]
    )
    ax.bar_label(bars, labels=[percent(r, lang) for r in rates], fontsize=13)
    _percent_axis(ax)
    ax.set_ylabel(text("games_won", lang))
    ax.set_title(text("games_each", lang, games=number(games, lang)))
    lines = [
        text(
            "team_size_line",
            lang,
            n=n,
            levels=Game(players=n).levels,
            lives=Rules(players=n).start_lives,
            rate=percent(results[n].win_rate, lang),
        )
        for n in sizes
    ]
    margin = max((s.win_rate_high - s.win_rate_low) / 2 for s in results.values())
    answer = Answer(
        fig,
        "\n\n".join(lines),
        text("team_size_why", lang, margin=number(100 * margin, lang, 1)),
        lang=lang,
    )
    return Bet(text("03-probability.bet_team", lang), answer, out_of=100, lang=lang)


def bet_swap(lang: str, runs: int = 3, levels: int = 2000) -> Bet:
    """40 against 45 on an empty pile: the exact chance, and simulations that settle on it."""
    exact = p_wrong_order(40, 45)
    fig, ax = _fig(7, 3.4)
    x = np.arange(1, levels + 1)
    for run in range(runs):
        hits = np.array([_swapped(run * levels + i, ScalarTimer()) for i in range(levels)])
        ax.plot(x, hits.cumsum() / x, lw=1.4, label=text("run_n", lang, n=run + 1))
    ax.axhline(exact, color="black", ls="--", label=text("exact", lang, p=percent(exact, lang)))
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(lambda x, _pos: number(x, lang))
    ax.set_xlabel(text("levels_played", lang))
    ax.set_ylabel(text("share_45_first", lang))
    _percent_axis(ax)
    ax.legend(frameon=False)
    answer = Answer(
        text("swap_answer", lang, p=percent(exact, lang)),
        fig,
        text("swap_settle", lang),
        lang=lang,
    )
    return Bet(text("03-probability.bet_swap", lang), answer, out_of=100, lang=lang)


def _swapped(seed: int, bot: Bot) -> bool:
    game = run_level(Game.from_hands([[40], [45]], seed=seed), bot, seed=seed)
    return bool(game.pile[0] == 45)


def far_above(lang: str) -> Figure:
    """The chance that two cards swap, by how far above the pile the lower one lies."""
    above = list(range(1, 61))
    fig, ax = _fig(7, 3.4)
    for apart in (1, 2, 5, 10):
        ax.plot(
            above,
            [p_wrong_order(a, a + apart) for a in above],
            label=text("cards_apart", lang, n=apart),
            lw=2,
        )
    ax.set_xlabel(text("steps_above_pile", lang))
    ax.set_ylabel(text("chance_swap", lang))
    _percent_axis(ax, 0.5)
    ax.legend(frameon=False)
    return fig


def pile_table(lang: str) -> pd.DataFrame:
    """The 40 and the 45 with the pile at 0, 20 and 35: how often the 45 goes first."""
    frame: pd.DataFrame = pd.DataFrame(
        {
            text("chance_45_first", lang): [
                percent(p_wrong_order(40, 45, top=t), lang, 2) for t in (0, 20, 35)
            ]
        },
        index=pd.Index([0, 20, 35], name=text("top_of_pile", lang)),
    )
    return frame


def bet_pairs(lang: str, deals: int = 2000, seed: int = 0) -> Bet:
    """Touching pairs (41 and 42) in different hands: exact, and the mean of random deals."""
    rng = np.random.default_rng(seed)
    levels = np.arange(1, 11)
    exact = [expected_adjacent_pairs(3, int(k)) for k in levels]
    dealt = [np.mean([_touching_pairs(rng, 3, int(k)) for _ in range(deals)]) for k in levels]
    fig, ax = _fig(6, 3.4)
    ax.plot(levels, exact, "k--", label=text("exact_plain", lang))
    ax.plot(
        levels, dealt, "o", color=_ORANGE, label=text("mean_of_deals", lang, n=number(deals, lang))
    )
    ax.set_xlabel(text("level_three_players", lang))
    ax.set_ylabel(text("touching_pairs", lang))
    ax.set_xticks(levels)
    ax.legend(frameon=False)
    answer = Answer(
        text(
            "pairs_answer",
            lang,
            exact=number(exact[-1], lang, 1),
            dealt=number(float(dealt[-1]), lang, 2),
            n=number(deals, lang),
        ),
        fig,
        lang=lang,
    )
    return Bet(text("03-probability.bet_pairs", lang), answer, out_of=30, lang=lang)


def _touching_pairs(rng: np.random.Generator, players: int, each: int) -> int:
    owner = np.full(102, -1)
    cards = rng.permutation(np.arange(1, 101))[: players * each]
    owner[cards] = np.repeat(np.arange(players), each)
    a, b = owner[1:100], owner[2:101]
    return int(np.sum((a >= 0) & (b >= 0) & (a != b)))


#: The wobbles the noise chart marks, with their text keys.
_MARKS = ((0.07, "wobble_counting"), (0.14, "wobble_person"), (0.28, "wobble_sloppy"))


def bet_noise(lang: str, games: int = 3000, seed: int = 2) -> Bet:
    """Win rate of a team of three against the wobble of their clocks (0% to 30%)."""
    cvs = [round(0.02 * i, 2) for i in range(16)] + [0.07]
    noisy = {cv: _summary(3, ScalarTimer(cv=cv), games, seed) for cv in sorted(set(cvs))}
    fig, ax = _fig(7, 3.6)
    xs = list(noisy)
    ax.fill_between(
        xs,
        [s.win_rate_low for s in noisy.values()],
        [s.win_rate_high for s in noisy.values()],
        alpha=0.3,
        color=_BLUE,
    )
    ax.plot(xs, [s.win_rate for s in noisy.values()], "o-", color=_BLUE)
    for cv, key in _MARKS:
        ax.axvline(cv, color=_GREY, ls=":")
        ax.annotate(text(key, lang), (cv, 0.05), xytext=(4, 0), textcoords="offset points")
    ax.xaxis.set_major_formatter(lambda x, _pos: f"{100 * x:.0f}%")
    ax.set_xlabel(text("wobble_axis", lang))
    ax.set_ylabel(text("games_won_three", lang))
    _percent_axis(ax)
    lines = [
        text(
            "noise_line",
            lang,
            wobble=percent(cv, lang, 0),
            rate=percent(noisy[cv].win_rate, lang),
            games=number(games, lang),
        )
        for cv, _key in _MARKS
    ]
    answer = Answer("\n\n".join(lines), fig, lang=lang)
    return Bet(text("03-probability.bet_noise", lang), answer, out_of=100, lang=lang)


def noise_slider(lang: str, levels: int = 2000, games: int = 4000) -> ipywidgets.VBox:
    """A slider "how much each player's clock wobbles": 40 and 45 swap, and a team's win rate."""
    slider = ipywidgets.SelectionSlider(
        options=[(f"{p}%", round(p / 100, 2)) for p in range(0, 31)],
        value=0.14,
        description=text("wobble_slider", lang),
        continuous_update=False,
        style={"description_width": "initial"},
        layout=ipywidgets.Layout(width="min(44em, 100%)"),
    )
    out = ipywidgets.HTML()

    def update(_change: object = None) -> None:
        bot = ScalarTimer(cv=slider.value)
        exact = p_wrong_order(40, 45, bot=bot)
        races = float(np.mean([_swapped(i, bot) for i in range(levels)]))
        team = _summary(3, bot, games, 2)
        out.value = (
            f'<div style="{_BIG}">'
            + _md(
                text(
                    "slider_swap",
                    lang,
                    exact=percent(exact, lang),
                    sim=percent(races, lang),
                    n=number(levels, lang),
                )
                + "\n\n"
                + text(
                    "slider_team", lang, rate=percent(team.win_rate, lang), n=number(games, lang)
                )
            )
            + "</div>"
        )

    slider.observe(update, names="value")
    update()
    box = ipywidgets.VBox([_style(), slider, out])
    box.add_class("mw-lesson-big")
    box.slider, box.out = slider, out
    return box


#: The star habits of part 6: text key -> the bot's StarPolicy (None: never).
HABITS: dict[str, StarPolicy | None] = {
    "habit_never": None,
    "habit_last_life": StarPolicy(close=0, last_life_gap=100),
    "habit_close": StarPolicy(),
    "habit_close_all": StarPolicy(close=10, vote_gap=100),
}


def _habit_bot(policy: StarPolicy | None, **kw: Any) -> ScalarTimer:
    return ScalarTimer(propose_stars=policy is not None, star_policy=policy, **kw)


def bet_star_habits(lang: str, games: int = 20_000, seed: int = 3) -> Bet:
    """Which throwing-star habit wins most often? Win rates and stars used."""
    results = {key: _summary(3, _habit_bot(p), games, seed) for key, p in HABITS.items()}
    table = pd.DataFrame(
        {
            text("habit", lang): [text(k, lang) for k in results],
            text("games_won", lang): [percent(s.win_rate, lang) for s in results.values()],
            text("stars_used", lang): [
                number(s.mean_stars_used, lang, 2) for s in results.values()
            ],
        },
    )
    answer = Answer(table, text("stars_answer", lang, games=number(games, lang)), lang=lang)
    choices = [text(k, lang) for k in HABITS]
    return Bet(text("03-probability.bet_stars", lang), answer, choices=choices, lang=lang)


def sandbox(lang: str) -> ipywidgets.VBox:
    """Your own experiment: players, wobble, one player's tempo, a star habit; press Run."""
    wide = ipywidgets.Layout(width="100%")
    players = ipywidgets.IntSlider(3, 2, 4, layout=wide)
    wobble = ipywidgets.SelectionSlider(
        options=[(f"{p}%", p / 100) for p in range(0, 31)], value=0.14, layout=wide
    )
    tempo = ipywidgets.SelectionSlider(
        options=[(f"{number(s / 100, lang, 2)} s", s / 100) for s in range(15, 46)],
        value=0.3,
        layout=wide,
    )
    habit = ipywidgets.Dropdown(
        options=[(text(k, lang), k) for k in HABITS], value="habit_never", layout=wide
    )
    games = ipywidgets.SelectionSlider(
        options=[(number(n, lang), n) for n in (500, 1000, 2000, 4000, 10_000)],
        value=1000,
        layout=wide,
    )
    rows = (
        ("sb_players", players),
        ("wobble_slider", wobble),
        ("sb_tempo", tempo),
        ("habit", habit),
        ("sb_games", games),
    )
    grid = ipywidgets.GridBox(
        children=[w for key, control in rows for w in (ipywidgets.Label(text(key, lang)), control)],
        layout=ipywidgets.Layout(
            grid_template_columns="max-content minmax(12em, 30em)", grid_gap="4px 12px"
        ),
    )
    run = ipywidgets.Button(
        description=text("sb_run", lang),
        button_style="primary",
        icon="play",
        layout=ipywidgets.Layout(width="auto", height="44px", align_self="flex-start"),
    )
    out = ipywidgets.HTML()

    def go(_b: object = None) -> None:
        sentence, fig = sandbox_result(
            lang, players.value, wobble.value, tempo.value, habit.value, games.value
        )
        out.value = f'<div style="{_BIG}">{_md(sentence)}</div>{_figure_html(fig)}'

    run.on_click(go)
    go()
    box = ipywidgets.VBox([_style(), grid, run, out])
    box.add_class("mw-lesson-big")
    box.run, box.out = go, out
    return box


def sandbox_result(
    lang: str, players: int, wobble: float, tempo: float, habit: str, games: int, seed: int = 0
) -> tuple[str, Figure]:
    """One sandbox run: a sentence and a chart of the level reached, in percentages."""
    policy = HABITS[habit]
    team: list[Bot] = [_habit_bot(policy, cv=wobble, seconds_per_step=tempo)]
    team += [_habit_bot(policy, cv=wobble) for _ in range(players - 1)]
    result = simulate(players=players, bots=team, games=games, seed=seed, progress=False)
    s = result.summary()
    reached = result.games["level_reached"].value_counts().sort_index()
    n_levels = Game(players=players).levels
    fig, ax = _fig(6, 3)
    share = [reached.get(k, 0) / games for k in range(1, n_levels + 1)]
    ax.bar(range(1, n_levels + 1), share, color=_GREEN)
    ax.set_xticks(range(1, n_levels + 1))
    ax.set_xlabel(text("level_reached", lang))
    ax.set_ylabel(text("share_of_games", lang))
    _percent_axis(ax, max(0.1, min(1.0, max(share) * 1.15)))
    sentence = text(
        "sb_result",
        lang,
        won=percent(s.win_rate, lang),
        games=number(games, lang),
        level=number(s.mean_level_reached, lang, 1),
    )
    return sentence, fig


# ---------------------------------------------------------- 04: scenarios
def bet_branch(start: Game, lang: str, tries: int = 1000, perfect_tries: int = 100) -> Bet:
    """From ``start``, how often do bots clear the level without losing a life?"""
    clean = sum(
        run_level(start.copy(), ScalarTimer(), seed=i).lives == start.lives for i in range(tries)
    )
    perfect = sum(
        run_level(start.copy(), PerfectTimer(), seed=i).lives == start.lives
        for i in range(perfect_tries)
    )
    fig = plot_trace(run_level(start.copy(), ScalarTimer(), seed=4), lang=lang)
    answer = Answer(
        text(
            "branch_answer",
            lang,
            clean=clean,
            tries=number(tries, lang),
            perfect=perfect,
            perfect_tries=perfect_tries,
        ),
        fig,
        lang=lang,
    )
    question = text("04-scenarios.bet_branch", lang, tries=number(tries, lang))
    return Bet(question, answer, out_of=tries, lang=lang)


# -------------------------------------------------------- 05: cooperation
def bet_one_fast(lang: str, games: int = 10_000) -> Bet:
    """One player at 0.2 s per step, two at 0.3: the win rate beside a team with one tempo."""
    in_step = _summary(3, [ScalarTimer(), ScalarTimer(), ScalarTimer()], games, 1)
    one_fast = [ScalarTimer(seconds_per_step=0.2), ScalarTimer(), ScalarTimer()]
    fast = _summary(3, one_fast, games, 1)
    game = run_game(Game(players=3, seed=2), one_fast, seed=2)
    answer = Answer(
        text(
            "fast_answer",
            lang,
            same=percent(in_step.win_rate, lang),
            fast=percent(fast.win_rate, lang),
            wins=fast.wins,
            games=number(games, lang),
        ),
        plot_trace(game, level=3, lang=lang),
        text("fast_trace", lang),
        lang=lang,
    )
    return Bet(text("05-cooperation.bet_fast", lang), answer, out_of=100, lang=lang)


def _adaptive_team() -> list[Bot]:
    return [AdaptiveTimer(seconds_per_step=0.2), AdaptiveTimer(), AdaptiveTimer()]


def bet_adaptive(lang: str, games: int = 256) -> Bet:
    """The same tempos, but every bot adapts: the win rate, and the tempos' spread by level."""
    result = simulate(players=3, bots=_adaptive_team(), games=games, seed=1, progress=False)
    spread = result.tempo_spread()
    fig, ax = _fig(6, 3.4)
    ax.plot(spread.index, spread.values, "o-", color=_BLUE, label=text("adaptive_team", lang))
    ax.axhline(0.3 / 0.2 - 1, color="black", ls="--", label=text("fixed_team", lang))
    ax.set_xlabel(text("level", lang))
    ax.set_ylabel(text("tempo_spread", lang))
    _percent_axis(ax, 0.6)
    ax.legend(frameon=False)
    answer = Answer(
        text(
            "adaptive_answer",
            lang,
            rate=percent(result.summary().win_rate, lang),
            games=number(games, lang),
        ),
        text("spread_explain", lang),
        fig,
        lang=lang,
    )
    return Bet(text("05-cooperation.bet_adaptive", lang), answer, out_of=100, lang=lang)


def tempos(team: Sequence[Bot], names: Sequence[str], title: str, lang: str) -> Figure:
    """Each adaptive bot's tempo after every play it saw; dotted lines mark a new level."""
    fig, ax = _fig(7, 3.6)
    new_level: Iterable[float] = ()
    for bot, name in zip(team, names, strict=True):
        if isinstance(bot, AdaptiveTimer):
            levels, values = zip(*bot.history, strict=True)
            ax.plot([bot.seconds_per_step, *values], label=name, lw=2)
            new_level = np.flatnonzero(np.diff(levels)) + 1.5
        elif isinstance(bot, ScalarTimer):
            ax.axhline(bot.seconds_per_step, color="black", ls="--", label=name)
    for x in new_level:
        ax.axvline(x, color="0.85", ls=":", zorder=0)
    ax.set_xlabel(text("plays_seen", lang))
    ax.set_ylabel(text("tempo_axis", lang))
    ax.yaxis.set_major_formatter(lambda y, _pos: number(y, lang, 2))
    ax.set_title(title)
    ax.legend(frameon=False)
    return fig


def tempos_meet(lang: str, seed: int = 3) -> Bet:
    """One game of the adaptive team: where do the three tempos end up?"""
    team = [bot.seat(p) for p, bot in enumerate(_adaptive_team())]
    game = run_game(Game(players=3, seed=seed), team, seed=seed)
    names = [translate("bot", lang, n=p) for p in range(3)]
    names[0] += f" ({text('fast', lang)})"
    fig = tempos(team, names, text("tempos_title", lang), lang)
    ends = " · ".join(f"{n}: {number(b.tempo, lang, 2)}" for n, b in zip(names, team, strict=True))
    answer = Answer(
        fig,
        text("meet_answer", lang, level=game.level, ends=ends),
        lang=lang,
    )
    choices = [text("meet_fast", lang), text("meet_middle", lang), text("meet_slow", lang)]
    return Bet(text("05-cooperation.bet_meet", lang), answer, choices=choices, lang=lang)


def before_after(lang: str, seed: int = 3) -> Figure:
    """The adaptive team's first and last level side by side."""
    team = [bot.seat(p) for p, bot in enumerate(_adaptive_team())]
    game = run_game(Game(players=3, seed=seed), team, seed=seed)
    fig = TraceFigure(figsize=(14, 5.5), layout="constrained")
    left, right = fig.subplots(1, 2)
    plot_trace(game, level=1, ax=left, lang=lang)
    plot_trace(game, level=game.level, ax=right, lang=lang)
    for ax in (left, right):
        notes = [a for a in ax.texts if isinstance(a, Annotation)]
        if len(notes) > 12:  # a full level: the dots speak, the numbers would cover each other
            for note in notes:
                note.remove()
    legend = right.get_legend()
    if legend is not None:  # the same marks as on the left: one legend is enough
        legend.remove()
    return readable(fig, scale=1.4, grow=1.0)


def bet_person(lang: str, games: int = 10_000, adaptive_games: int = 256) -> Bet:
    """A careful person at 0.45 s per step and two bots: who moves?"""
    person = ScalarTimer(seconds_per_step=0.45)
    team = [bot.seat(p) for p, bot in enumerate([person, AdaptiveTimer(), AdaptiveTimer()])]
    run_game(Game(players=3, seed=5), team, seed=5)  # one game: the bots' tempos move
    names = [text("careful_person", lang)] + [translate("bot", lang, n=p) for p in (1, 2)]
    fig = tempos(team, names, text("person_title", lang), lang)
    stubborn = _summary(3, [person, ScalarTimer(), ScalarTimer()], games, 1)
    following = _summary(3, [person, AdaptiveTimer(), AdaptiveTimer()], adaptive_games, 1)
    answer = Answer(
        fig,
        text(
            "person_answer",
            lang,
            end=number(team[1].tempo, lang, 2),
            stubborn=percent(stubborn.win_rate, lang),
            following=percent(following.win_rate, lang),
            games=number(games, lang),
            adaptive_games=number(adaptive_games, lang),
        ),
        lang=lang,
    )
    choices = [text("person_bots", lang), text("person_apart", lang), text("person_both", lang)]
    return Bet(text("05-cooperation.bet_person", lang), answer, choices=choices, lang=lang)


def tempo_by_level(game: Game) -> pd.DataFrame:
    """Median seconds per step of every player's plays, level by level (gaps of 3 or more)."""
    t = trace(game)
    if t.empty:
        empty: pd.DataFrame = pd.DataFrame()
        return empty
    plays = t[(t["outcome"] == "ok") & (t["gap"] >= 3)]
    tempo = (plays["wait"] / plays["gap"]).groupby([plays["level"], plays["player"]]).median()
    by_level: pd.DataFrame = tempo.unstack("player")
    return by_level


def your_tempo(w: MindWidget) -> Figure | None:
    """Everyone's tempo level by level, read off the trace of ``w``; a sentence if none yet."""
    lang = w.lang
    played = tempo_by_level(w.game)
    if played.empty:
        print(text("tempo_nothing_yet", lang))
        return None
    fig, ax = _fig(6, 3.4)
    for p in played.columns:
        who = translate("you", lang) if int(p) == w.seat else translate("bot", lang, n=p)
        ax.plot(played.index, played[p], "o-", label=who, lw=2)
    ax.set_xticks(list(played.index))
    ax.set_xlabel(text("level", lang))
    ax.set_ylabel(text("tempo_axis", lang))
    ax.legend(frameon=False)
    return fig


# -------------------------------------------------------------- rules card
def rules_card(lang: str) -> str:
    """The rules a class needs before its first game, as one printable A4 page (HTML)."""
    _check_lang(lang)
    rules = Rules()

    def say(key: str, **kw: Any) -> str:
        return html.escape(text(f"card.{key}", lang, **kw))

    rows = "".join(
        f"<tr><td>{n}</td><td>{r.n_levels}</td><td>{r.start_lives}</td><td>{r.stars}</td></tr>"
        for n, r in ((n, Rules(players=n)) for n in (2, 3, 4))
    )
    rewards = "".join(
        f"<li><b>{html.escape(text('level_n', lang, n=level))}</b>: "
        f"{html.escape(translate(kind + '_card', lang))}</li>"
        for level, kind in sorted(Rules().rewards.items())
    )
    head = "".join(
        f"<th>{w}</th>"
        for w in (
            say("players"),
            say("levels"),
            html.escape(translate("lives", lang)),
            html.escape(translate("stars", lang)),
        )
    )
    reward_text = say("rewards", max_lives=rules.max_lives, max_stars=rules.max_stars)
    sections = "".join(
        f"<section><h2>{say(f'{k}_title')}</h2><p>{say(k)}</p></section>"
        for k in ("goal", "silence", "lives", "mistake", "stop", "star")
    )
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{say("title")}</title>
<style>
@page {{ size: A4; margin: 14mm; }}
* {{ box-sizing: border-box; }}
body {{ font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11.5pt; line-height: 1.3;
  color: #111; margin: 0 auto; max-width: 182mm; }}
h1 {{ font-size: 22pt; margin: 0 0 1mm; }}
.lead {{ font-size: 13pt; margin: 0 0 3mm; }}
h2 {{ font-size: 14pt; margin: 0 0 1mm; color: #0b4f8a; }}
section {{ border-left: 4px solid #0072B2; padding: 0.5mm 0 0.5mm 3.5mm; margin: 0 0 2.5mm;
  break-inside: avoid; }}
section p {{ margin: 0; }}
.grid {{ display: grid; grid-template-columns: 1fr 1fr; gap: 0 6mm; }}
table {{ border-collapse: collapse; margin: 1mm 0 0; }}
td, th {{ border-bottom: 1px solid #999; padding: 0.6mm 3mm; text-align: center; }}
ul {{ margin: 1mm 0 0; padding: 0; list-style: none; columns: 2; column-gap: 3mm; }}
li {{ font-size: 11pt; break-inside: avoid; }}
.tip {{ background: #fff3d6; border: 2px solid #E69F00; border-radius: 3mm; padding: 3mm 4mm;
  font-size: 13.5pt; margin-top: 2mm; }}
footer {{ margin-top: 4mm; font-size: 9pt; color: #555; }}
</style>
</head>
<body>
<h1>{say("title")}</h1>
<p class="lead">{say("lead")}</p>
<div class="grid">
<section><h2>{say("setup_title")}</h2>
<table><tr>{head}</tr>{rows}</table>
<p>{say("setup")}</p></section>
<section><h2>{say("rewards_title")}</h2><p>{reward_text}</p><ul>{rewards}</ul></section>
</div>
<div class="grid">{sections}</div>
<p class="tip">{say("tip")}</p>
<footer>{say("footer")}</footer>
</body>
</html>
"""
