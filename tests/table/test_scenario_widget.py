"""ScenarioPlayer driven by simulated board messages: step, back, reset, language, take over."""

from __future__ import annotations

import json
from typing import Any

import pytest
from widget_harness import (
    Browser,
    recording_comm,  # noqa: F401  (autouse: every widget here records what it sends)
)

from mindwidget import MindWidget, Scenario, ScenarioPlayer
from mindwidget.i18n import messages
from mindwidget.rules import RuleError
from mindwidget.scenario_widget import ScenarioBoard, split_rule


def send(p: ScenarioPlayer, content: Any) -> None:
    """A message from the board's front end, the way a real one arrives."""
    p.board.comm.handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
    )


def update(w: Any, state: dict[str, Any]) -> None:
    """A trait change from the front end."""
    w.comm.handle_msg({"content": {"data": {"method": "update", "state": state}}})


def scene(p: ScenarioPlayer) -> dict[str, Any]:
    return dict(p.board.scene)


def player(name: str = "mistake", **kwargs: Any) -> ScenarioPlayer:
    return ScenarioPlayer(Scenario.load(name), **kwargs)


# ----------------------------------------------------------------- stepping
def test_next_back_and_reset_step_the_scenario_and_show_every_hand() -> None:
    p = player()
    s = scene(p)
    assert (s["position"], s["steps"], s["name"]) == (0, 6, "mistake")
    assert s["text"].startswith("Three players, level 2.")  # the intro
    assert s["rule"] is None
    assert s["table"]["hands"] == [[11, 26], [30, 71], [34, 58]]
    assert s["table"]["phase"] == "ready"
    assert s["trace"] == []

    for _ in range(3):
        send(p, {"type": "next"})
    s = scene(p)
    assert s["position"] == 3 and p.scenario.position == 3
    assert s["text"].startswith("Player 3 plays 34, but player 1 still holds 26")
    assert not s["text"].endswith("Rule:")
    assert s["rule"] is not None and s["rule"].startswith("A card played while someone holds")
    assert s["tip"] is None  # a rule, not a tip: the board labels them differently
    assert s["source"]["quote"].startswith("The team loses one life")  # the English text
    assert s["source"]["title"].endswith("(en)")
    table = s["table"]
    assert table["hands"] == [[], [71], [58]]
    assert table["pile"] == [11, 34] and table["lives"] == 2
    assert [(d["player"], d["card"]) for d in table["discards"]] == [(0, 26), (1, 30)]
    assert [(pt["k"], pt.get("card")) for pt in s["trace"]] == [
        ("play", 11),
        ("mistake", 34),
        ("lost", 26),
        ("lost", 30),
        ("stop", None),  # the mistake stops the table: hands on it
    ]

    send(p, {"type": "back"})
    s = scene(p)
    assert s["position"] == 2
    assert s["text"] == "Player 1 plays 11."
    assert s["table"]["hands"] == [[26], [30, 71], [34, 58]] and s["table"]["lives"] == 3
    assert [pt["k"] for pt in s["trace"]] == ["play"]

    send(p, {"type": "reset"})
    assert scene(p)["position"] == 0 and scene(p)["table"]["pile"] == []


def test_every_library_scenario_plays_through_the_board() -> None:
    for name in Scenario.names():
        p = player(name)
        n = len(p.scenario)
        ruled = 0
        for k in range(1, n + 1):
            send(p, {"type": "next"})
            s = scene(p)
            assert s["position"] == k, name
            state = p.scenario.state
            assert s["table"]["hands"] == [list(h) for h in state.hands], (name, k)
            assert s["table"]["pile"] == list(state.pile), (name, k)
            # the lowest card in play, which the board marks, is Python's (issue 26)
            held = [c for h in state.hands for c in h]
            assert s["table"]["lowest"] == (min(held) if held else None), (name, k)
            assert s["table"]["deck"] == state.rules.deck, (name, k)
            full = p.scenario.narrations[k - 1]["en"]
            assert s["text"] in full, (name, k)
            # each step shows a rule (with its source text) or a tip, never both
            assert (s["rule"] is None) != (s["tip"] is None), (name, k)
            assert s["rule"] is None or s["source"] is not None, (name, k)
            ruled += s["rule"] is not None
        assert ruled >= n // 2, name
        assert not p.board.notice
        json.dumps(p.board.scene)  # plain JSON for the browser


def test_the_synced_scene_stays_small() -> None:
    p = player()
    p.goto(len(p.scenario))
    assert len(json.dumps(scene(p))) < 4000


def test_the_phase_line_says_what_the_step_did() -> None:
    """Issue 21: right after the team concentrated the scene's phase is "concentrated"
    (its narration tells of the concentration), not only that the level runs."""
    p = player(lang="nl")
    phases = [scene(p)["phase"]]
    for _ in range(6):
        send(p, {"type": "next"})
        phases.append(scene(p)["phase"])
    assert phases == ["ready", "concentrated", "play", "stopped", "concentrated", "play", "cleared"]
    assert scene(p)["table"]["phase"] == "cleared"  # the table's own phase, unchanged
    send(p, {"type": "back"})
    assert scene(p)["phase"] == "play" == scene(p)["table"]["phase"]
    for lang in ("en", "nl", "de"):
        assert messages(lang)["scenario_phase_concentrated"]
    send(p, {"type": "take_over"})
    assert scene(p)["phase"] is None  # a live game: the board is a bar


def test_steps_that_are_not_possible_change_nothing_and_say_why() -> None:
    p = player()
    send(p, {"type": "back"})
    assert p.board.notice["key"] == "at_start" and scene(p)["position"] == 0
    send(p, {"type": "next"})
    assert p.board.notice == {}  # a step that works clears the notice
    p.goto(6)
    before = scene(p)
    send(p, {"type": "next"})
    assert p.board.notice["key"] == "at_end"
    assert scene(p) == before and p.scenario.position == 6
    first = p.board.notice["id"]
    for bad in ({"type": "jump"}, {"kind": "next"}, "next", None, {"type": 3}):
        send(p, bad)
        assert p.board.notice["key"] == "bad_message", bad
    assert p.board.notice["id"] > first  # each refusal shows again
    assert scene(p) == before
    send(p, {"type": "leave"})
    assert p.board.notice["key"] == "not_live"
    for key in ("at_start", "at_end", "bad_message", "not_live", "live"):
        assert "refused_" + key in messages("en")


def test_the_python_methods_refuse_with_rule_errors() -> None:
    p = player()
    with pytest.raises(RuleError, match="this is the start"):
        p.back()
    p.step()
    p.step()
    assert p.scenario.position == 2
    p.goto(6)
    with pytest.raises(RuleError, match="at its end"):
        p.step()
    with pytest.raises(RuleError, match="position must be"):
        p.goto(7)
    with pytest.raises(RuleError, match="No live game is running"):
        p.leave()
    p.reset()
    assert p.scenario.position == 0


def test_the_player_steps_the_scenario_it_was_given_from_where_it_is() -> None:
    sc = Scenario.load("mistake").goto(2)
    p = ScenarioPlayer(sc)
    assert p.scenario is sc and scene(p)["position"] == 2
    p.step()
    assert sc.position == 3


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="scenario must be a Scenario"):
        ScenarioPlayer("mistake")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat from 0 to 2"):
        player(seat=3)
    with pytest.raises(ValueError, match="seat from 0 to 2"):
        player(seat=True)
    with pytest.raises(ValueError, match="mode must be"):
        player(mode="fast")
    p = player()
    with pytest.raises(ValueError, match="seat from 0 to 2"):
        p.seat = -1
    p.seat = 2
    assert scene(p)["seat"] == 2


# ----------------------------------------------------------------- language
def test_lang_relabels_at_once_from_python_and_from_the_browser() -> None:
    p = player(lang="nl")
    p.goto(2)
    assert p.board.lang == "nl"
    assert scene(p)["text"] == "Speler 1 legt de 11."
    assert scene(p)["rule"] == "De laagste kaart in het spel gaat eerst."
    assert scene(p)["title"].startswith("De fout")
    p.lang = "de"
    assert p.board.lang == "de"
    assert scene(p)["text"] == "Spieler 1 legt die 11."
    update(p.board, {"lang": "en"})  # the board's language menu
    assert p.lang == "en" and scene(p)["text"] == "Player 1 plays 11."
    update(p.board, {"lang": "fr"})
    update(p.board, {"scene": {"position": 5}})  # the browser may not change the scene
    assert p.lang == "en" and scene(p)["position"] == 2


def test_split_rule() -> None:
    assert split_rule("Player 0 plays 11. Rule: the lowest goes first.", "en") == (
        "Player 0 plays 11.",
        "the lowest goes first.",
    )
    assert split_rule("Speler 0 legt 11. Regel: laagste eerst.", "nl")[1] == "laagste eerst."
    assert split_rule("No rule named here.", "en") == ("No rule named here.", None)
    assert split_rule("Rule: only a rule.", "en") == ("Rule: only a rule.", None)


# ---------------------------------------------------------------- take over
def test_take_over_turns_the_step_into_a_live_game_and_back() -> None:
    p = player(seat=0, bots="perfect")
    p.goto(1)  # level 2 has begun: hands off the table
    send(p, {"type": "take_over"})
    live = p.live
    assert isinstance(live, MindWidget)
    assert list(p.children) == [p.board, live]
    assert live.seat == 0 and live.lang == "en"
    assert live.game.hands == p.scenario.state.hands
    assert live.game.lives == 3 and live.game.level == 2
    assert scene(p)["live"] == {"from": 1, "seat": 0}

    # The person plays one card in the live game; the scenario stays where it was.
    b = Browser(live)
    # Taking over mid-level: hands on the table first; the clock waits for Ready.
    assert b.view["phase"] == "stopped" and b.view["allowed"] == ["ready"]
    assert b.view["hand"] == [11, 26]
    b.act("ready")
    assert b.view["phase"] == "play"
    b.act("play")
    assert b.view["pile"] == [11]
    assert any(pt["k"] == "play" and pt["card"] == 11 for pt in b.points)
    assert p.scenario.position == 1 and list(p.scenario.state.pile) == []

    # The scenario waits while the live game runs.
    send(p, {"type": "next"})
    assert p.board.notice["key"] == "live" and p.scenario.position == 1
    send(p, {"type": "take_over"})
    assert p.board.notice["key"] == "live" and p.live is live
    with pytest.raises(RuleError, match="return to the scenario first"):
        p.step()

    # Language follows both ways.
    p.lang = "de"
    assert live.lang == "de"
    update(live, {"lang": "nl"})  # the live widget's own language menu
    assert p.lang == "nl" and p.board.lang == "nl"

    send(p, {"type": "leave"})
    assert p.live is None and list(p.children) == [p.board]
    assert live.comm is None  # closed
    assert scene(p)["live"] is None and scene(p)["position"] == 1
    send(p, {"type": "next"})
    assert scene(p)["position"] == 2


def test_take_over_from_python_with_bots_only_and_in_step_mode() -> None:
    p = player(seat=None, bots="perfect", mode="step")
    p.goto(3)  # after the mistake: hands on the table again
    live = p.take_over()
    assert live.seat is None and live.mode == "step"
    assert live.view["phase"] == "stopped"
    assert scene(p)["live"] == {"from": 3, "seat": None}
    live.ready()
    assert live.wait().player == 2  # the bots play on: player 2's 58 is the lowest left
    assert list(live.game.pile) == [11, 34, 58]
    p.leave()
    p.take_over()  # again, from the same step: a fresh branch
    assert p.live is not None and list(p.live.game.pile) == [11, 34]


def test_closing_the_player_closes_its_parts() -> None:
    p = player()
    live = p.take_over()
    board = p.board
    p.close()
    assert board.comm is None and live.comm is None and p.live is None


def test_the_board_is_its_own_small_anywidget() -> None:
    p = player()
    assert isinstance(p.board, ScenarioBoard)
    assert set(p.board.keys) >= {"scene", "notice", "lang"}
    assert "table" not in p.board.keys  # one synced dict, not the game


def test_while_a_live_game_runs_the_board_carries_no_hands() -> None:
    p = player(seat=0, bots="perfect")
    p.goto(1)
    hidden = [c for seat, hand in enumerate(p.scenario.state.hands) if seat != 0 for c in hand]
    assert hidden
    p.board.comm.sent.clear()
    send(p, {"type": "take_over"})
    p.lang = "de"  # a re-sync while live
    assert scene(p)["table"] is None and scene(p)["trace"] == []
    assert scene(p)["text"] is None  # the narrations name the hands too
    for entry in p.board.comm.sent:
        state = entry["data"].get("state", {})
        if "scene" in state:
            shown = {k: v for k, v in state["scene"].items() if k != "title"}
            sent = json.dumps(shown)  # the title names the scenario, as before take-over
            assert state["scene"]["table"] is None
            assert not any(f" {c}" in sent or f"[{c}" in sent for c in hidden), sent
    send(p, {"type": "leave"})
    assert scene(p)["table"]["hands"]  # back to the scenario: every hand again
