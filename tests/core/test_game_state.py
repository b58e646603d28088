"""A game's state is declared once: copy() shares nothing mutable, saving round-trips.

`copy()`, the saved snapshot and the JSON form all derive from one declaration
of the state's fields (`mindwidget.game._STATE`). These tests walk every
attribute of a game and its copy recursively, so a field added to the game
without saying how to copy it fails here.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindwidget import Game, RuleError, Rules
from mindwidget.events import Played
from mindwidget.game import _STATE, _sample_cards

_ATOMS = (int, float, str, bytes, bool, type(None))


def _children(obj: object) -> Iterator[object]:
    if isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
    elif isinstance(obj, (dict, MappingProxyType)):
        for k, v in obj.items():
            yield k
            yield v
    elif isinstance(obj, Game):
        for name in Game.__slots__:
            yield getattr(obj, name)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield getattr(obj, f.name)


def _mutable(obj: object) -> bool:
    """Could changing this object change whoever shares it?"""
    if isinstance(obj, (tuple, frozenset, MappingProxyType)):
        return False  # their items are walked separately
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return not type(obj).__dataclass_params__.frozen  # type: ignore[attr-defined]
    return True  # lists, dicts, sets, random generators, a Game itself


def mutables(root: object) -> dict[int, object]:
    """Every mutable object reachable from ``root``, by id."""
    found: dict[int, object] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, _ATOMS) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if _mutable(obj):
            found[id(obj)] = obj
        stack.extend(_children(obj))
    return found


def played_game(seed: int, steps: int) -> Game:
    """A game after ``steps`` random legal-or-refused actions (stars, stops, votes)."""
    rng = random.Random(seed)
    g = Game(players=rng.choice((2, 3, 4)), seed=seed)
    t = 0.0
    for _ in range(steps):
        t += rng.random()
        kind = rng.choice(("play", "play", "play", "propose", "vote", "stop", "go", "next"))
        p = rng.randrange(g.players)
        try:
            if kind == "play":
                g.play(p, t=t)
            elif kind == "propose":
                g.propose_star(p, t=t)
            elif kind == "vote":
                g.vote(p, rng.random() < 0.7, t=t)
            elif kind == "stop":
                g.stop(p, t=t)
            elif kind == "go":
                g.ready(t=t)
            elif g.status == "won":
                g.start_blind()
                t = 0.0
            else:
                g.next_level()
                t = 0.0
        except RuleError:
            pass
    return g


def test_every_slot_is_declared_once() -> None:
    names = [f.name for f in _STATE]
    assert len(names) == len(set(names))
    assert set(Game.__slots__) == set(names)
    # and every declared field is set, however the game was made
    for g in (Game(seed=1), Game.from_hands([[5], [9]], blind=True), played_game(3, 40)):
        for name in names:
            getattr(g, name)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80))
def test_copy_shares_nothing_mutable(seed: int, steps: int) -> None:
    g = played_game(seed, steps)
    g.observation(0)  # fill the public-event cache, which is state too
    c = g.copy()
    shared = mutables(g).keys() & mutables(c).keys()
    assert not shared, [type(mutables(g)[i]).__name__ for i in shared]
    assert c == g


def test_the_walk_finds_shared_mutable_state() -> None:
    # the test above can fail: a hand list shared by a careless copy is found
    g = Game(seed=4)
    c = g.copy()
    c._hands[0] = g._hands[0]
    assert mutables(g).keys() & mutables(c).keys()


def test_playing_on_in_the_copy_never_changes_the_original() -> None:
    g = played_game(11, 30)
    before = g.to_json()
    c = g.copy()
    for kind in range(200):
        t = c.t + 1.0
        try:
            if c.status == "cleared":
                c.next_level()
            elif c.status == "won":
                c.start_blind()
            elif kind % 7 == 0:
                c.stop(0, t=t)
            else:
                c.play(kind % c.players, t=t)
        except RuleError:
            pass
    # the copy's own containers, changed by hand, stay its own
    for h in c._hands:
        h.clear()
    c._start = None
    c._rng.random()
    assert g.to_json() == before


def test_to_dict_hands_out_no_internal_state() -> None:
    g = Game.from_hands([[3, 7], [5]], seed=2)
    g.play(0, t=1.0)
    before = g.to_json()
    saved = g.to_dict()
    saved["start"]["hands"][0].append(99)
    saved["actions"][0]["player"] = 1
    saved["state"]["pile"].append(42)
    assert g.to_json() == before


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_save_and_load_round_trip(seed: int, steps: int) -> None:
    g = played_game(seed, steps)
    loaded = Game.from_json(g.to_json())
    assert loaded == g
    assert loaded.to_json() == g.to_json()
    assert loaded.events == g.events
    for p in range(g.players):
        assert loaded.observation(p) == g.observation(p)
    # and both play on alike
    if g.status == "playing" and g.proposal is None:
        p = next((q for q in range(g.players) if g.lowest(q) is not None), 0)
        assert loaded.play(p, t=g.t + 1) == g.play(p, t=g.t + 1)
        assert loaded == g


def test_a_chosen_deal_round_trips_with_its_start() -> None:
    g = Game.from_hands([[3, 7], [5, 60]], level=3, lives=1, stars=0, seed=9, blind=True)
    g.play(0, t=0.5)
    loaded = Game.from_json(g.to_json())
    assert loaded == g and loaded.blind and loaded.to_dict()["start"]["blind"] is True


@pytest.mark.parametrize("steps", [0, 25])
def test_the_snapshot_is_what_it_was(steps: int) -> None:
    # saved files of earlier versions still load: the snapshot's keys are unchanged
    g = played_game(5, steps)
    assert list(g.to_dict()) == ["format", "version", "rules", "seed", "start", "actions", "state"]
    assert list(g.to_dict()["state"]) == [
        "level",
        "lives",
        "stars",
        "stars_boxed",
        "status",
        "blind",
        "blind_levels_cleared",
        "hands",
        "pile",
        "discards",
        "t",
        "proposal",
        "concentrating",
        "events",
        "rng",
    ]


def test_house_rules_round_trip() -> None:
    rules = Rules(players=5, levels=6, lives=5, spent_stars="box", rewards={1: "star"})
    g = Game(rules=rules, seed=3)
    g.play(0, t=1.0)
    assert Game.from_json(g.to_json()) == g


@pytest.mark.parametrize("deck", [1, 7, 40, 100, 101, 1000])
def test_dealing_draws_exactly_what_random_sample_draws(deck: int) -> None:
    # the inlined sample keeps every seed's deals (and saved games) as they were
    for seed in range(40):
        for k in sorted({0, 1, 2, 5, 6, 7, 12, 22, 30, 40, deck // 2, deck} & set(range(deck + 1))):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert _sample_cards(ours, deck, k) == theirs.sample(range(1, deck + 1), k)
            assert ours.getstate() == theirs.getstate()


def test_events_are_still_frozen_dataclasses() -> None:
    e = Played(1, 0.5, 2, 40, True)
    assert e == Played(level=1, t=0.5, player=2, card=40, face_up=True)
    assert dataclasses.astuple(e) == (1, 0.5, 2, 40, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.card = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Played(1, 0.5, 2, 40)  # type: ignore[call-arg]


def test_observations_are_still_frozen_and_equal_by_value() -> None:
    g = Game.from_hands([[5, 20], [10, 30]], seed=1)
    o = g.observation(0)
    assert o == g.copy().observation(0)
    assert o.hand == (5, 20) and o.counts == (2, 2) and o.discards == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.lives = 9  # type: ignore[misc]
    g.play(1, t=1.0)  # a mistake: 5 is discarded face up
    assert g.observation(1).discards == ((0, 5, "lost"),)


def test_a_game_pickles_after_observations() -> None:
    # the observation cache holds read-only views that pickle refuses
    g = played_game(8, 40)
    g.observation(0)
    assert pickle.loads(pickle.dumps(g)) == g
    h = pickle.loads(pickle.dumps(g))
    assert h.observation(1) == g.observation(1)


# The names saved games used before issue 17 ("one name per concept"): an old save still loads.
_OLD_ACTIONS = {"ready": "concentrate", "vote": "vote_star"}
_OLD_STATUS = {"cleared": "level_cleared"}


def test_an_old_save_with_the_old_action_names_still_loads() -> None:
    g = Game.from_hands([[3, 40], [20, 60]], level=2, lives=2, stars=1, seed=4)
    g.ready(t=0.0)
    g.play(0, t=1.0)
    g.stop(1, t=1.5)
    g.ready(t=2.0)
    g.propose_star(0, t=2.5)
    g.vote(1, False, t=3.0)
    for p, t in ((1, 4.0), (0, 5.0), (1, 6.0)):
        g.play(p, t=t)
    assert g.status == "cleared"
    saved = g.to_dict()
    old = [{**a, "action": _OLD_ACTIONS.get(a["action"], a["action"])} for a in saved["actions"]]
    assert {a["action"] for a in old} >= set(_OLD_ACTIONS.values())  # the save is an old one
    state = {**saved["state"], "status": _OLD_STATUS.get(g.status, g.status)}
    loaded = Game.from_dict({**saved, "actions": old, "state": state})
    assert loaded == g
    assert [a["action"] for a in loaded.actions] == [a["action"] for a in saved["actions"]]
