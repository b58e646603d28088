"""The pure view functions: what a seat sees of a game, without a widget."""

from __future__ import annotations

from mindwidget import Game, Rules
from mindwidget.view import phase, table_view, trace_points


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    g = Game.from_hands([[5, 40], [17, 60], [33, 90]])
    v = table_view(g, 1)
    assert v["hand"] == [17, 60] and v["counts"] == [2, 2, 2]
    assert "hands" not in v and v["phase"] == "ready"
    assert table_view(g, None)["hand"] == []
    assert table_view(g, 1, reveal=True)["hands"] == [[5, 40], [17, 60], [33, 90]]


def test_phases_follow_the_table() -> None:
    g = Game.from_hands([[5], [17], [33]])
    assert phase(g) == "ready"
    g.ready(t=0)
    assert phase(g) == "play"
    g.stop(0, t=1)
    assert phase(g) == "stopped"
    g.ready(t=2)
    g.propose_star(1, t=2)
    assert phase(g) == "vote"
    g.vote(0, False)
    assert phase(g) == "play"
    for p in range(3):
        g.play(p, t=3 + p)
    assert phase(g) == "cleared"


def test_a_mistake_shows_who_played_what_and_what_was_discarded() -> None:
    g = Game.from_hands([[5, 40], [17, 60], [33, 90]])
    g.ready(t=0)
    g.play(2, t=1.0)  # 33 while 5 and 17 are held
    v = table_view(g, 0)
    assert v["mistake"]["player"] == 2 and v["mistake"]["card"] == 33
    assert [(d["player"], d["card"], d["k"]) for d in v["discards"]] == [
        (0, 5, "lost"),
        (1, 17, "lost"),
    ]
    assert v["lives"] == 2
    pts = trace_points(g, 0)
    assert [(p["k"], p.get("card")) for p in pts] == [
        ("mistake", 33),
        ("lost", 5),
        ("lost", 17),
        ("stop", None),  # the mistake stops the table: hands on it
    ]
    assert pts[-1]["why"] == "mistake"
    g.play(0, t=2.0)
    assert "mistake" not in table_view(g, 0)  # shown until the next play


def test_face_down_discards_are_known_to_their_holder_only() -> None:
    rules = Rules(players=3, mistake_discards="face_down")
    g = Game.from_hands([[5, 40], [17, 60], [33, 90]], rules=rules)
    g.ready(t=0)
    g.play(2, t=1.0)
    assert [d["card"] for d in table_view(g, 0)["discards"]] == [5, None]
    assert [d["card"] for d in table_view(g, 1)["discards"]] == [None, 17]
    assert [d["card"] for d in table_view(g, None)["discards"]] == [None, None]
    assert [p["card"] for p in trace_points(g, 1) if p["k"] == "lost"] == [None, 17]


def test_blind_pile_shows_own_cards_until_the_pile_is_turned_over() -> None:
    g = Game.from_hands([[5], [17], [33]], blind=True)
    g.ready(t=0)
    g.play(0, t=1.0)
    g.play(1, t=2.0)
    assert table_view(g, 0)["pile"] == [5, None]
    assert table_view(g, None)["pile"] == [None, None]
    assert [p["card"] for p in trace_points(g, 1)] == [None, 17]
    g.play(2, t=3.0)
    check = table_view(g, 0)["check"]
    assert check["pile"] == [5, 17, 33] and check["faults"] == []
    assert [p["card"] for p in trace_points(g, 1)] == [5, 17, 33]


def test_news_lists_the_events_since_the_last_view() -> None:
    g = Game.from_hands([[5], [17], [33]])
    g.ready(t=0)
    n = len(g.level_events)
    g.play(0, t=1.0)
    news = table_view(g, 1, news_from=n)["news"]
    assert [e["type"] for e in news] == ["played"]


def test_a_stop_is_a_shaded_span_in_the_trace() -> None:
    g = Game.from_hands([[5], [17], [33]])
    g.ready(t=0)
    g.stop(1, t=1.5)
    assert trace_points(g, 0) == [{"k": "stop", "t": 1.5, "until": None, "player": 1}]
    g.ready(t=4.0)
    assert trace_points(g, 0)[0]["until"] == 4.0


# ---------------------------------------------- what the JS used to work out (issue 26)
def test_the_view_carries_the_deck_it_is_played_with() -> None:
    assert table_view(Game.from_hands([[5], [17], [33]]), 0)["deck"] == 100
    rules = Rules(players=3, levels=2, deck=50)
    assert table_view(Game(rules=rules, seed=1), 0)["deck"] == 50


def test_a_shown_mistake_names_its_put_aside_cards_its_early_card_and_the_lives_it_cost() -> None:
    g = Game.from_hands([[5, 40, 80], [17, 60, 85], [33, 45, 90]], lives=3)
    g.ready(t=0)
    g.play(2, t=1.0)  # 33 while 5 and 17 are held: a mistake
    v = table_view(g, 0)
    assert v["mistake_discards"] == [0, 1] and v["early"] is True
    assert v["mistake"]["lives_lost"] == 1 and v["lives"] == 3 - 1
    assert v["pile"][-1] == v["mistake"]["card"]
    g.ready(t=2.0)
    g.play(0, t=3.0)  # 40: fine; the mistake's panel goes, and with it what it marked
    v = table_view(g, 0)
    assert "mistake" not in v and "mistake_discards" not in v and "early" not in v
    g.play(1, t=4.0)  # 60 while 45 is held: a second mistake puts aside only 45
    v = table_view(g, 1)
    assert [d["card"] for d in v["discards"]] == [5, 17, 45]
    assert v["mistake_discards"] == [2] and v["early"] is True
    assert v["mistake"]["lives_lost"] == 3 - v["lives"] - 1


def test_the_summary_counts_the_lives_each_event_says_it_cost() -> None:
    g = Game.from_hands([[5, 40], [17, 60], [33, 90]], lives=2)
    g.ready(t=0)
    g.play(2, t=1.0)  # a mistake: one life
    g.ready(t=2.0)
    g.play(1, t=3.0)  # 60 while 40 is held: the last life
    v = table_view(g, 0)
    assert v["phase"] == "lost"
    lost = [e.to_dict()["lives_lost"] for e in g.events if e.type == "mistake"]
    assert v["summary"]["lives_lost"] == [{"level": 2, "lives": sum(lost)}] and lost == [1, 1]


def test_the_blind_hint_comes_after_a_win_only_while_blind_mode_may_still_follow() -> None:
    rules = Rules(players=2, levels=1, lives=2)
    g = Game.from_hands([[5], [17]], rules=rules)
    g.ready(t=0)
    g.play(0, t=1.0)
    assert "blind_hint" not in table_view(g, 0)  # the level runs
    g.play(1, t=2.0)
    assert g.status == "won" and table_view(g, 0)["blind_hint"] is True
    g.start_blind()
    g.ready(t=0)
    for p in range(2):
        g.play(p, t=1.0 + p)
    assert g.status in ("won", "lost") and g.blind
    assert "blind_hint" not in table_view(g, 0)  # blind mode comes once


def test_a_revealed_view_names_the_lowest_card_in_any_hand() -> None:
    g = Game.from_hands([[40, 80], [17, 60], [33, 90]])
    assert table_view(g, None, reveal=True)["lowest"] == 17
    assert "lowest" not in table_view(g, 0)  # it would tell another seat's card
    g.ready(t=0)
    for p, t in ((1, 1.0), (2, 2.0), (0, 3.0), (1, 4.0), (0, 5.0), (2, 6.0)):
        g.play(p, t=t)
    assert g.status == "cleared" and table_view(g, None, reveal=True)["lowest"] is None
