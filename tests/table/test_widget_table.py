"""Several widgets on one `Table`: one per person, and an onlooker; one game."""

from __future__ import annotations

import pytest
from widget_harness import (
    Browser,
    recording_comm,  # noqa: F401  (autouse: every widget here records what it sends)
)

from mindwidget import Game, MindWidget, Table


def test_two_people_and_an_onlooker_share_one_table() -> None:
    table = Table(game=Game.from_hands([[5, 60], [17, 70], [33, 80]]), seats=(0, 2), bots="perfect")
    a = Browser(MindWidget(table=table, seat=0))
    c = Browser(MindWidget(table=table, seat=2))
    watch = Browser(MindWidget(table=table, seat=None))
    assert a.view["hand"] == [5, 60] and c.view["hand"] == [33, 80] and watch.view["hand"] == []
    a.act("ready")
    assert c.view["phase"] == watch.view["phase"] == "play"  # every view follows
    assert c.view["allowed"] == ["play", "stop", "propose_star"] and watch.view["allowed"] == []
    a.act("play", t=0.5)
    watch.pull()  # the trace messages the other views were sent
    c.pull()
    assert c.view["pile"] == [5] and watch.points == a.points == c.points
    c.act("play", t=1.0)  # 33 while bot 1 holds 17: a mistake, seen by all
    assert a.view["mistake"]["player"] == 2 and table.game.lives == 2
    watch.act("play")
    assert watch.w.notice["key"] == "no_seat" and not a.w.notice  # a notice is per view
    a.w.close()
    n = len(a.comm.sent)
    c.act("stop")
    assert len(a.comm.sent) == n and c.view["phase"] == "stopped"  # a closed view hears nothing


def test_a_widget_on_a_table_takes_its_mode_and_checks_its_seat() -> None:
    table = Table(players=3, seats=(1,), bots="perfect", seed=1, mode="step")
    w = MindWidget(table=table, seat=1)
    assert w.mode == "step" and w.table is table
    w.mode = "realtime"
    assert table.mode == "realtime"
    with pytest.raises(ValueError, match=r"person seat of the table \(1,\)"):
        MindWidget(table=table, seat=0)
    with pytest.raises(ValueError, match="table must be a Table"):
        MindWidget(table=table, game=Game(players=3, seed=1))
