"""The lesson's UI kit: its words (`text`, `percent`, `number`), `readable` figures,
`Answer`s behind a button and `Bet`s, in projector-sized text.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import re
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import ipywidgets
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.text import Annotation, Text

from ..checks import choice
from ..game import Game
from ..i18n import LANGS
from ..plots import TraceFigure
from ..scenario import Scenario

_TEXT_DIR = Path(__file__).resolve().parent.parent / "locales" / "lesson"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: Okabe-Ito, as the seats (mindwidget/seats.json) and plot_trace use them.
BLUE, ORANGE, GREEN, GREY = "#0072B2", "#E69F00", "#009E73", "#777777"


@cache
def texts(lang: str) -> dict[str, Any]:
    """Every lesson text of one language: ``{"ui": {...}, "card": {...}, "01-play": {...}}``."""
    check_lang(lang)
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
    """The lesson text ``key`` ("ui.show_answer", or "show_answer" for the ui section).

    Args:
        key: The text's key in ``locales/lesson/<lang>.json``.
        lang: "en", "nl" or "de".
        **params: Values for the text's ``{placeholders}``.
    """
    full = key if "." in key else f"ui.{key}"
    words = flat(lang)
    if full not in words:
        raise KeyError(f"no lesson text {full!r} in locales/lesson/{lang}.json")
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), words[full])


def check_lang(lang: str) -> None:
    """A `ValueError` unless ``lang`` is one of the lesson's languages (`LANGS`)."""
    choice("lang", lang, LANGS, quoted=False)


def percent(x: float, lang: str, digits: int = 1) -> str:
    """0.455 -> "45.5%" (en), "45,5%" (nl), "45,5 %" (de).

    Args:
        x: A share, 0 to 1.
        lang: "en", "nl" or "de": the decimal sign and the space before "%".
        digits: Decimals shown.
    """
    s = f"{100 * x:.{digits}f}"
    return {"en": f"{s}%", "nl": s.replace(".", ",") + "%"}.get(lang, s.replace(".", ",") + " %")


def number(x: float, lang: str, digits: int = 0) -> str:
    """10000 -> "10,000" (en), "10.000" (nl, de).

    Args:
        x: The number.
        lang: "en", "nl" or "de": the thousands separator and decimal sign.
        digits: Decimals shown.
    """
    s = f"{x:,.{digits}f}"
    if lang in ("nl", "de"):
        s = s.replace(",", "_").replace(".", ",").replace("_", ".")
    return s


def markdown_html(s: str) -> str:
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


def figure_html(fig: Figure) -> str:
    """A figure as an inline PNG ``<img>`` (what a cell's HTML shows)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="" style="max-width:100%" src="data:image/png;base64,{data}">'


def part_html(part: object) -> str:
    """One part of a lesson's output as HTML: a game or scenario, a figure, a table or text."""
    if isinstance(part, (Scenario, Game)):
        return f"<pre>{html.escape(repr(part))}</pre>"
    if isinstance(part, Figure):
        return figure_html(readable(part))
    if isinstance(part, pd.DataFrame):
        return part.to_html(border=0, escape=True, index=False)
    return markdown_html(str(part))


BIG_TEXT = "font-size:1.35em;line-height:1.45"

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
.mw-lesson-big .widget-hslider { flex-wrap: wrap; row-gap: 4px; }
.mw-lesson-big .widget-hslider .slider-container { flex: 1 1 240px; min-width: 180px; }
.mw-lesson-big .mw-lesson-slider-label { font-size: 22px; line-height: 1.3; }
.mw-lesson-big .mw-lesson-grid .widget-label {
  min-width: 0; white-space: normal; overflow-wrap: anywhere;
}
</style>"""


def labelled(label: str, slider: ipywidgets.Widget) -> ipywidgets.VBox:
    """A slider with its words above it, so a long label never squeezes the track."""
    words = ipywidgets.Label(label)
    words.add_class("mw-lesson-slider-label")
    slider.layout.width = "min(40em, 100%)"
    slider.layout.min_width = "min(300px, 100%)"
    box = ipywidgets.VBox([words, slider])
    box.label = words
    return box


def lesson_style() -> ipywidgets.HTML:
    """The lesson's projector styles (`_STYLE`), to put into a box of controls."""
    box = ipywidgets.HTML(_STYLE, layout=ipywidgets.Layout(display="contents"))
    box.add_class("mw-lesson-style")
    return box


class Answer(ipywidgets.VBox):  # type: ignore[misc]
    """An answer behind a button: "Show the answer" shows it, "Hide the answer" hides it.

    `html` is what it shows; `shown` whether it is shown; `show`, `hide`,
    `toggle` from a cell.

    Args:
        *parts: Texts (``**bold**`` allowed), matplotlib figures or DataFrames,
            prepared now and shown only on request.
        lang: The buttons' language: "en", "nl" or "de".
    """

    def __init__(self, *parts: object, lang: str = "en") -> None:
        check_lang(lang)
        self.lang = lang
        self.html = "".join(part_html(p) for p in parts)
        self._body = ipywidgets.HTML(
            value=f'<div class="mw-lesson-answer" style="{BIG_TEXT}">{self.html}</div>',
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


Words = str | dict[str, str]


def everyone(key: str, **params: Any) -> dict[str, str]:
    """The lesson text ``key`` in every language, ``{lang: text}`` (what a class question
    sends, so that each pupil reads it in their own language); a callable parameter is
    called with the language (a number in that language's format)."""
    return {
        lang: text(key, lang, **{k: v(lang) if callable(v) else v for k, v in params.items()})
        for lang in LANGS
    }


def _in(words: Words, lang: str) -> str:
    """``words`` (a text, or ``{lang: text}``) in ``lang``."""
    if isinstance(words, str):
        return words
    return words.get(lang) or next(iter(words.values()))


#: Round bin widths for a slider's answers on the pupils' phones.
_NICE = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000)
#: The most answer buttons a slider bet gives a pupil's phone.
MAX_BINS = 10


def bins(out_of: int) -> list[tuple[int, int]]:
    """The answers a pupil picks from for a slider "n in ``out_of``": at most
    `MAX_BINS` ranges of one round width (1, 2, 5, 10, 20, 25, 50, ...) from 0, the
    last one up to ``out_of`` included: 100 gives 0–9, 10–19, ..., 90–100."""
    width = next((w for w in _NICE if math.ceil(out_of / w) <= MAX_BINS), _NICE[-1])
    width = max(width, math.ceil(out_of / MAX_BINS))
    n = max(1, math.ceil(out_of / width))
    return [(k * width, out_of if k == n - 1 else (k + 1) * width - 1) for k in range(n)]


def bin_of(value: float, ranges: Sequence[tuple[int, int]]) -> int:
    """The index of the range of ``ranges`` (`bins`) that holds ``value``."""
    for i, (_lo, hi) in enumerate(ranges):
        if value <= hi:
            return i
    return len(ranges) - 1


def _bin_words(lo: int, hi: int) -> dict[str, str]:
    return {
        lang: number(lo, lang) if lo == hi else f"{number(lo, lang)}–{number(hi, lang)}"
        for lang in LANGS
    }


def running_class() -> Any:
    """The one class server running in this kernel (`mindwidget.classroom.Classroom`),
    or None (none, or several: then pass ``room=`` to a `Bet`). The lesson does not
    import the class server (a layer beside it): a class runs only once its module
    is loaded, so the lesson asks that module only then."""
    keep = sys.modules.get("mindwidget.classroom.keep")
    if keep is None:
        return None
    served = keep.running()
    return served[0] if len(served) == 1 else None


class Bet(ipywidgets.VBox):  # type: ignore[misc]
    """A bet in big text, a control for the class's guess, and the `Answer` below.

    ``choices``: buttons to pick one answer; ``out_of``: a slider "our bet:
    n in ``out_of``"; neither: the question and the answer only. ``question`` and
    each choice are a text, or ``{lang: text}`` (`everyone`).

    With a class (``room``: a running `Classroom`; None: the one running in this
    kernel, if there is exactly one; False: none) the bet has an "Ask the class"
    button (`ask`): it puts the bet to every pupil's page as a class question
    (`Classroom.ask`; `question` is its handle; running the cell asks nobody, so
    Run All is safe): the choices as buttons, or for a slider the ranges of
    `bins` (0–9, 10–19, ..., 90–100 for 100). ``right`` is the right choice's
    index, or for a slider the right number (its range is the right answer);
    None: the answer says it in words. In the button's place the notebook then
    shows how many pupils have answered; "Show the answer" reveals the class's
    answers, their spread as a chart, before the answer itself.
    """

    def __init__(
        self,
        question: Words,
        answer: Answer,
        *,
        choices: Sequence[Words] = (),
        out_of: int | None = None,
        lang: str = "en",
        room: Any = None,
        right: float | None = None,
    ) -> None:
        check_lang(lang)
        children: list[Any] = [
            lesson_style(),
            ipywidgets.HTML(
                f'<div style="{BIG_TEXT}"><b>{html.escape(text("bet", lang))}</b> '
                f"{html.escape(_in(question, lang))}</div>"
            ),
        ]
        self.guess: ipywidgets.Widget | None = None
        self.question: Any = None  # the class question (`classroom.questions.Question`)
        self.bins: list[tuple[int, int]] = []
        if choices:
            self.guess = ipywidgets.ToggleButtons(
                options=[_in(c, lang) for c in choices],
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
        room = running_class() if room is None else room
        self.room = room if room and (choices or out_of is not None) else None
        self._class_box: ipywidgets.VBox | None = None
        self._asking: tuple[Words, list[Words], int | None] | None = None
        if self.room is not None:
            if choices:
                options: list[Words] = list(choices)
                index = None if right is None else int(right)
            else:
                assert out_of is not None
                self.bins = bins(out_of)
                options = [_bin_words(lo, hi) for lo, hi in self.bins]
                index = None if right is None else bin_of(right, self.bins)
            self._asking = (question, options, index)
            self.ask_button = ipywidgets.Button(
                description=text("ask_class", lang),
                icon="mobile",
                button_style="primary",
                layout=ipywidgets.Layout(width="auto", height="44px", align_self="flex-start"),
            )
            self.ask_button.style.font_size = "18px"
            self.ask_button.add_class("mw-lesson-ask")
            self.ask_button.on_click(lambda _b: self.ask())
            self._class_box = ipywidgets.VBox([self.ask_button])
            children.append(self._class_box)
            answer._button.on_click(lambda _b: self._reveal())
        children.append(answer)
        self.answer = answer
        super().__init__(children=children)
        self.add_class("mw-lesson-bet")
        self.add_class("mw-lesson-big")

    def ask(self) -> Any:
        """Put the bet to every pupil's page now ("Ask the class" does this; running the
        cell does not, so Run All asks nobody): the class question (`question`)."""
        if self.question is None and self.room is not None and self._asking is not None:
            question, options, index = self._asking
            self.question = self.room.ask(question, options, answer=index)
            self.question.widget.show_text = False  # the bet says it above, as large
            if self._class_box is not None:
                self._class_box.children = [self.question.widget]
        return self.question

    def _reveal(self) -> None:
        """ "Show the answer" pressed: the class's answers are revealed (once)."""
        if self.answer.shown and self.question is not None and self.question.state != "revealed":
            self.question.reveal()


def new_figure(width: float = 7, height: float = 3.6) -> tuple[Figure, Any]:
    """A lesson figure and its axes: its size in inches, no top or right spine."""
    fig = TraceFigure(figsize=(width, height), layout="constrained")
    ax = fig.add_subplot()
    ax.spines[["top", "right"]].set_visible(False)
    return fig, ax


def percent_axis(ax: Any, top: float = 1.0) -> None:
    """The y axis from 0 to ``top`` as a share, labelled in percent."""
    ax.set_ylim(0, top)
    ax.yaxis.set_major_formatter(lambda y, _pos: f"{100 * y:.0f}%")
