"""Notebook 02-rules (notebooks/src/02-rules.cells): the rules, one scenario at a time."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets
import traitlets

from ..i18n import translate
from ..rules import Rules
from ..scenario import Scenario
from ..scenario_widget import ScenarioPlayer
from .kit import BIG_TEXT, lesson_style, text

#: The common mistakes of the scenario library, for one menu in 02-rules.
COMMON_MISTAKES = tuple(n for n in Scenario.names() if n.startswith("common_"))
#: The menu "at a real table" in 02-rules: the common mistakes, then questions
#: that come up at a real table.
AT_THE_TABLE = (*COMMON_MISTAKES, "same_moment", "star_one_hand_left", "four_players")
#: Blind mode's stories, one menu in 02-rules.
BLIND = ("blind_check", "blind_last_life", "blind_win")


class LessonScenario(ScenarioPlayer):
    """A `ScenarioPlayer` in projector size: its story stands beside the table
    (js/scenario.css), and `_STYLE`'s block stays the box's first child whatever
    the player shows (the board, or the board and a live table).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._style_box = lesson_style()
        super().__init__(*args, **kwargs)
        self.board.size = "projector"
        self.add_class("mw-lesson-scenario")

    @traitlets.validate("children")
    def _keep_style(self, proposal: dict[str, Any]) -> tuple[Any, ...]:
        children = tuple(c for c in proposal["value"] if c is not self._style_box)
        return (self._style_box, *children)


def scenario(name: str, lang: str, seat: int | None = 0, bots: str = "scalar") -> ScenarioPlayer:
    """A scenario of the library in big text: Back, Next (or the arrow keys), Take over.

    Args:
        name: The scenario's name in the library (``mindwidget/scenarios/<name>.json``).
        lang: The language of its story and board.
        seat: The seat the person plays after "Take over" (None: bots only).
        bots: The bots of the other seats after "Take over".
    """
    return LessonScenario(Scenario.load(name), lang=lang, seat=seat, bots=bots)


def scenario_menu(names: Sequence[str], lang: str) -> ipywidgets.VBox:
    """One scenario at a time out of ``names``, picked from a menu by its title.

    Args:
        names: The scenarios' names in the library, in the menu's order.
        lang: The language of the menu and the stories.
    """
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
    style = "border-collapse:collapse;text-align:center;" + BIG_TEXT
    cell = "padding:0.2em 1.2em;border-bottom:1px solid #bbb"
    table = f'<table style="{style}">{head}{rows}</table>'.replace("<td>", f'<td style="{cell}">')
    table = table.replace("<th>", f'<th style="{cell}">')
    return ipywidgets.HTML(
        f'{table}<p style="{BIG_TEXT}"><b>{html.escape(say("rewards"))}</b> '
        f"{html.escape(rewards)}</p>"
    )
