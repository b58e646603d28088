"""The table's menus in the widget's view: the bots' tempo and the watch speed (issue 11)."""

from __future__ import annotations

import pytest
from widget_harness import (
    Browser,
    recording_comm,  # noqa: F401  (autouse: every widget here records what it sends)
)

from mindwidget import MindWidget
from mindwidget.table import WATCH_SPEEDS


def test_the_view_offers_the_tempo_of_bots_that_have_one() -> None:
    w = MindWidget(players=3, seat=0, seed=1, bots="human")
    b = Browser(w)
    assert b.view["tempo"] == "people"
    assert b.view["speeds"] == []  # a person is seated: no watch speed


def test_bots_without_a_tempo_offer_none() -> None:
    b = Browser(MindWidget(players=3, seat=0, seed=1, bots="scalar"))
    assert b.view["tempo"] is None


def test_choosing_a_tempo_in_the_browser_sets_the_bots_and_the_view() -> None:
    w = MindWidget(players=3, seat=0, seed=1, bots="human")
    b = Browser(w)
    b.update({"tempo": "quick"})
    assert w.tempo == "quick"
    assert w.table.tempo == pytest.approx(0.6)
    assert b.view["tempo"] == "quick"
    w.tempo = "slow"  # from a cell: the menu follows
    assert b.view["tempo"] == "slow"


def test_a_tempo_set_as_a_number_shows_its_name_or_the_number() -> None:
    w = MindWidget(players=3, seat=0, seed=1, bots="human", tempo=0.6)
    assert w.view["tempo"] == "quick"
    w.tempo = 0.8
    assert w.view["tempo"] == 0.8


def test_a_table_of_bots_only_offers_the_watch_speeds() -> None:
    w = MindWidget(players=3, seat=None, seed=1, bots="human")
    b = Browser(w)
    assert b.view["speeds"] == list(WATCH_SPEEDS)
    b.update({"speed": 2})
    assert w.speed == 2 and b.clock["speed"] == 2


def test_the_widget_s_timing_chart_names_the_person_you() -> None:
    w = MindWidget(players=3, seat=0, seed=1, bots="human", lang="nl")
    assert w.plot_timing().axes[0].get_title().startswith("Jouw innerlijke klok")
    assert w.plot_timing(1).axes[0].get_title().startswith("De innerlijke klok van Bot 2")
    watch = MindWidget(players=3, seat=None, seed=1, bots="human")
    assert watch.plot_timing(2).axes[0].get_title().startswith("Bot 3's inner clock")


def test_the_size_is_a_setting_of_the_widget_and_its_session() -> None:
    w = MindWidget(players=3, seat=0, seed=1, size="projector")
    assert w.size == "projector" and w.session.size == "projector"
    w.size = "normal"
    assert w.session.size == "normal"
