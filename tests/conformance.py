"""Contracts that more than one implementation must keep, each stated once.

In the manner of PettingZoo's ``seed_test`` (``pettingzoo.test.seed_test``): a
function takes a factory for one implementation and checks the contract; a test
calls it once per implementation, so that the implementations are held to the
same assertions and a new one is checked by one more call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

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
