"""Property tests over random games and random action sequences (hypothesis).

The seed test follows PettingZoo's ``seed_test``: two games with the same seed
that receive the same actions stay identical.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mindwidget import Game, RuleError, Rules
from mindwidget.events import BlindChecked, Mistake, StarUsed

ACTION_KINDS = (
    "play",
    "play",
    "play",
    "play",
    "propose_star",
    "vote",
    "use_star",
    "stop",
    "ready",
    "next_level",
    "start_blind",
    "bad_t",
)


def random_action(data: st.DataObject, g: Game) -> dict[str, Any]:
    kind = data.draw(st.sampled_from(ACTION_KINDS))
    player = data.draw(st.integers(-1, g.players))
    dt = data.draw(st.floats(0, 3, allow_nan=False))
    if kind == "bad_t":
        return {"action": "play", "player": player, "t": g.t - 1.0}
    action: dict[str, Any] = {"action": kind, "player": player, "t": g.t + dt}
    if kind == "vote":
        action["agree"] = data.draw(st.booleans())
    if kind in ("use_star", "ready"):
        del action["player"]
    if kind in ("next_level", "start_blind"):
        action = {"action": kind}
    return action


def check_invariants(g: Game) -> None:
    # observations give this level's public events, and nothing stale
    for p in range(g.players):
        events = [dict(e) for e in g.observation(p).events]
        assert events == [e.public_dict() for e in g.level_events]
    assert 0 <= g.lives <= g.rules.max_lives
    assert 0 <= g.stars <= g.rules.max_stars
    # every dealt card of this level is exactly once in a hand, on the pile or discarded
    dealt = g.level_events[0]
    dealt_cards = sorted(c for h in dealt.hands for c in h)  # type: ignore[attr-defined]
    now = [c for h in g.hands for c in h] + list(g.pile) + [d.card for d in g.discards]
    assert sorted(now) == dealt_cards
    # the pile ascends: a mistake discards every lower card, so the next card is higher
    pile = list(g.pile)
    if not g.blind:
        assert pile == sorted(pile) and len(set(pile)) == len(pile)
    else:
        # blind mode: every card that a later card undercuts was a recorded fault
        undercut = {c for i, c in enumerate(pile) if any(d < c for d in pile[i + 1 :])}
        checks = [e for e in g.level_events if isinstance(e, BlindChecked)]
        if checks and g.rules.blind_penalty == "pile":
            # the turned-over pile: each card lower than the one before it is a fault
            descents = [pile[i] for i in range(1, len(pile)) if pile[i] < pile[i - 1]]
            assert list(checks[-1].faults) == descents
        elif checks:
            assert undercut <= set(checks[-1].faults)


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_random_action_sequences_keep_every_invariant(players: int, seed: int, data: Any) -> None:
    # short house-rule games reach a win and blind mode often
    levels = data.draw(st.sampled_from([None, 1, 2]))
    rules = Rules(players=players, levels=levels, lives=4 if levels else None)
    g = Game(seed=seed, rules=rules)
    twin = Game(seed=seed, rules=rules)
    for _ in range(data.draw(st.integers(1, 80))):
        action = random_action(data, g)
        before = g.to_json()
        try:
            g.apply(action)
        except RuleError:
            assert g.to_json() == before  # a refused action changes nothing
            continue
        twin.apply(action)
        check_invariants(g)
        assert twin.to_json() == g.to_json()  # same seed, same actions: identical
    copy = Game.from_json(g.to_json())
    assert copy == g and copy.to_json() == g.to_json()


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_json_round_trip_continues_with_the_same_deals(players: int, seed: int) -> None:
    g = Game(players=players, seed=seed)
    g.use_star(t=0.5)
    while g.status == "playing":
        g.play(min(range(players), key=lambda p: g.hands[p][0] if g.hands[p] else 999))
    saved = Game.from_json(g.to_json())
    g.next_level()
    saved.next_level()
    assert saved.hands == g.hands and saved.to_json() == g.to_json()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_copy_branches_independently(seed: int) -> None:
    g = Game(players=3, seed=seed)
    branch = g.copy()
    before = g.to_json()
    branch.use_star(t=1.0)
    assert g.to_json() == before
    assert branch.stars == g.stars - 1


def test_every_card_is_accounted_for_over_a_whole_game() -> None:
    g = Game(players=4, seed=2024)
    cards_seen = 0
    while g.status in ("playing", "cleared"):
        if g.status == "cleared":
            g.next_level()
            continue
        # the player with the highest lowest card plays: many mistakes
        p = max((p for p in range(4) if g.hands[p]), key=lambda p: g.hands[p][0])
        g.play(p)
        check_invariants(g)
        cards_seen += 1
    assert g.status == "lost"
    assert any(isinstance(e, Mistake) for e in g.events)
    assert cards_seen > 0


def test_star_discards_are_face_up_in_every_level() -> None:
    g = Game(players=3, seed=7, rules=Rules(players=3))
    g.use_star(t=0.0)
    used = [e for e in g.events if isinstance(e, StarUsed)]
    assert used and all(d.face_up for d in used[0].discards)
    assert json.loads(g.to_json())["state"]["stars"] == 0
