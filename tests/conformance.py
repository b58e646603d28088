"""Contracts that more than one implementation must keep, each stated once.

In the manner of PettingZoo's ``seed_test`` (``pettingzoo.test.seed_test``): a
function takes a factory for one implementation and checks the contract; a test
calls it once per implementation, so that the implementations are held to the
same assertions and a new one is checked by one more call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from mindwidget.game import Game

T = TypeVar("T")


def seed_test(
    play: Callable[[int], T],
    *,
    seed: int,
    other_seed: int,
    same: Callable[[T, T], object],
    differ: Callable[[T, T], bool],
) -> None:
    """A seed decides everything: the same seed gives the same record, another seed another.

    ``play(seed)`` runs the implementation from that seed and returns what it
    recorded (a game, a table of results). ``same(a, b)`` asserts that two records
    are the same (it raises when they are not); ``differ(a, c)`` says whether two
    records differ where the seed should show (a different deal or different times).
    """
    first = play(seed)
    again = play(seed)
    same(first, again)
    other = play(other_seed)
    assert differ(first, other), f"seeds {seed} and {other_seed} gave the same record"


# ------------------------------------------------------------ what a seat may know
#: Keys whose whole numbers are never card values (in any front end's payload).
NOT_CARDS = frozenset(
    {
        "players", "seat", "level", "levels", "lives", "stars", "n", "seq", "epoch", "id",
        "player", "p", "by", "from", "counts", "pile_by", "lives_lost", "buffer_paths",
        "max_lives", "max_stars", "speeds", "speed", "tempo",
        # the deck's size and places in the discards' list, not cards
        "deck", "mistake_discards",
    }
)  # fmt: skip

#: Keys under which a bot's planned time (a countdown) would travel.
TIMING_KEYS = frozenset({"due", "plans"})


def hidden_cards(game: Game, seat: int | None) -> set[int]:
    """The cards ``seat`` may not know now: the other hands, the others' face-down
    discards, and in blind mode the others' pile cards until the pile is turned."""
    hidden = {c for q, h in enumerate(game.hands) if q != seat for c in h}
    hidden |= {d.card for d in game.discards if not d.face_up and d.player != seat}
    events = game.level_events
    if game.blind and not any(e.type == "blind_checked" for e in events):
        played = [e for e in events if e.type == "played"]
        hidden |= {e.card for e in played if e.player != seat}  # type: ignore[attr-defined]
    return hidden


def leaks(data: Any, hidden: set[int], key: str = "") -> list[tuple[str, int]]:
    """Every whole number of ``data`` among ``hidden``, with its key (not `NOT_CARDS`)."""
    found: list[tuple[str, int]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            found += leaks(v, hidden, str(k))
    elif isinstance(data, list):
        for v in data:
            found += leaks(v, hidden, key)
    elif (
        isinstance(data, int)
        and not isinstance(data, bool)
        and key not in NOT_CARDS
        and data in hidden
    ):
        found.append((key, data))
    return found


def future_plans(plans: Iterable[float], planned: float | None, now: float) -> set[float]:
    """The level times at which bots plan to act that lie ahead of every public time."""
    ahead = set(plans) | ({planned} if planned is not None else set())
    return {t for t in ahead if t > now + 0.002}


def timing_leaks(data: Any, plans: set[float], key: str = "") -> list[tuple[str, object]]:
    """A planned time of ``plans`` in ``data`` (exact, or as rounded to the
    millisecond as the views round times), or any value under a `TIMING_KEYS` key."""
    found: list[tuple[str, object]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k in TIMING_KEYS and v not in (None, {}, []):
                found.append((str(k), v))
            found += timing_leaks(v, plans, str(k))
    elif isinstance(data, list):
        for v in data:
            found += timing_leaks(v, plans, key)
    elif isinstance(data, float) and any(abs(data - t) < 0.0006 for t in plans):
        found.append((key, data))
    return found


def seat_may_not_know(
    data: Any,
    *,
    game: Game,
    seat: int | None,
    plans: set[float],
    not_cards: Iterable[str] = (),
) -> tuple[list[tuple[str, int]], list[tuple[str, object]]]:
    """The seat's privacy contract, the same for every front end (the notebook
    widget's comm, a class page's socket): of ``data``, sent to ``seat``'s front end
    while ``game`` is as it is now, the cards that seat may not know (keys in
    ``not_cards`` are the front end's own counters) and the bots' planned times
    (``plans``, from `future_plans`). Both lists are empty when the payload keeps it."""
    skip = frozenset(not_cards)
    cards = [f for f in leaks(data, hidden_cards(game, seat)) if f[0] not in skip]
    return cards, timing_leaks(data, plans)
