"""Exact values to put beside a simulation (the Seeing Theory habit).

Each function is a closed form; ``tests/bots/test_prob.py`` checks each one
against a simulation.

* `expected_gap`: how far apart consecutive cards in play are on average.
* `expected_handovers`: how often the next card in play order is in another
  player's hand (a moment where two people's timing must agree).
* `expected_adjacent_pairs`: how many touching values (41 and 42) sit in
  different hands: the pairs that even a good team finds hard.
* `p_wrong_order`: the chance that two cards a < b in different hands are
  played in the wrong order by `ScalarTimer` bots (scalar timing).
* `swap_chance`: the same chance for two cards as the lesson writes it, in
  the normal model with one spread (cv) for everybody: the difference of two
  normal waits, ``P(D < 0) = Phi(-mu_D / sigma_D)``, with every part shown.
* `p_no_card_between`: the chance that none of the others' cards lies between
  the pile and one's own (what a `HumanTimer` weighs before a far card; it
  lives with the bots, `mindwidget.bots.stars`, and is exported here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..bots import Bot, HumanTimer, PerfectTimer, ScalarTimer
from ..bots.stars import p_no_card_between
from ..checks import finite, whole
from ..rules import DECK_SIZE

__all__ = [
    "expected_adjacent_pairs",
    "expected_gap",
    "expected_handovers",
    "normal_cdf",
    "p_no_card_between",
    "p_wrong_order",
    "swap_chance",
    "SwapChance",
]


def _check_cards(name: str, value: object, deck: int) -> int:
    count = whole(name, value, 0)
    if count > deck:
        raise ValueError(f"{name} must be at most the deck size ({deck}), not {count}.")
    return count


def expected_gap(cards: int, deck: int = DECK_SIZE) -> float:
    """Expected gap between consecutive cards in play: ``(deck + 1) / (cards + 1)``.

    With ``cards`` cards drawn at random from 1..``deck`` and sorted, the
    ``cards + 1`` gaps (from 0 to the lowest card, between neighbours, and from
    the highest card to ``deck + 1``) are exchangeable and add up to
    ``deck + 1``, so each has that mean (order statistics of a sample without
    replacement). For 3 players in level 10 (30 cards): 101/31 = 3.3 steps.
    """
    deck = whole("deck", deck, 0)
    if deck < 1:
        raise ValueError(f"deck must be a whole number >= 1, not {deck}.")
    k = _check_cards("cards", cards, deck)
    return (deck + 1) / (k + 1)


def _check_players(players: object, cards_each: object, deck: int) -> tuple[int, int]:
    n = whole("players", players, 0)
    if n < 1:
        raise ValueError(f"players must be a whole number >= 1, not {players!r}.")
    k = whole("cards_each", cards_each, 0)
    if n * k > deck:
        raise ValueError(
            f"{n} players x {k} cards need {n * k} cards; the deck holds {deck}; "
            f"allowed: cards_each <= {deck // n}."
        )
    return n, k


def expected_handovers(players: int, cards_each: int, deck: int = DECK_SIZE) -> float:
    """Expected number of times the next card in play order is another player's.

    There are ``N - 1`` consecutive pairs among the ``N = players x
    cards_each`` cards in play; a given pair lies in one hand with probability
    ``(cards_each - 1) / (N - 1)`` (the second card is one of the ``N - 1``
    others, ``cards_each - 1`` of them in the same hand). So the mean is
    ``N - 1 - (cards_each - 1) = (players - 1) x cards_each``.
    """
    n, k = _check_players(players, cards_each, deck)
    if n * k == 0:
        return 0.0
    return float((n - 1) * k)


def expected_adjacent_pairs(
    players: int, cards_each: int, deck: int = DECK_SIZE, within: int = 1
) -> float:
    """Expected number of value pairs (v, v + d), 1 <= d <= ``within``, in different hands.

    With ``within=1``: touching values such as 41 and 42. For a pair of values
    at distance d there are ``deck - d`` such pairs; both are dealt with
    probability ``N(N-1) / (deck(deck-1))`` (N = players x cards_each), and,
    given that, sit in different hands with probability ``(N - cards_each) /
    (N - 1)``. For ``within=1`` the sum is ``N (N - cards_each) / deck``.
    """
    deck = whole("deck", deck, 0)
    if deck < 2:
        raise ValueError(f"deck must be a whole number >= 2, not {deck}.")
    n, k = _check_players(players, cards_each, deck)
    d_max = whole("within", within, 0)
    total = n * k
    if total < 2:
        return 0.0
    both_in_different = total * (total - k) / (deck * (deck - 1))
    pairs = sum(deck - d for d in range(1, min(d_max, deck - 1) + 1))
    return pairs * both_in_different


def normal_cdf(x: float) -> float:
    """The standard normal distribution function, Phi(x)."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _timing(bot: Bot) -> tuple[float, float, float, str]:
    if isinstance(bot, ScalarTimer):
        return bot.seconds_per_step, bot.cv, bot.motor_sd, bot.noise
    if isinstance(bot, PerfectTimer):
        return bot.seconds_per_step, 0.0, 0.0, "normal"
    raise ValueError(
        f"bot must be a PerfectTimer, a ScalarTimer or (both) a HumanTimer, not {bot!r}."
    )


def p_wrong_order(
    a: int, b: int, top: int = 0, bot: Bot | None = None, other: Bot | None = None
) -> float:
    """Probability that card ``b`` is played before card ``a`` (a < b).

    Card ``a`` is held by ``bot`` and ``b`` by ``other`` (default: the same
    kind of bot; default bot: ``ScalarTimer()``), both plan from the same
    moment with the pile at ``top``, and nothing else is in play. With m = tempo
    x gap and scalar timing (Gibbon 1977; Wing and Kristofferson 1973 for the
    motor term):

    * ``noise="normal"``: wait ~ N(m, (cv m)^2 + motor_sd^2), so
      ``P = Phi((m_a - m_b) / sqrt(var_a + var_b))``. (The bot cuts a negative
      wait at 0; that changes P by less than the chance of a negative wait,
      below 1e-6 for any gap >= 2 at the default settings.)
    * ``noise="lognormal"``: ln wait ~ N(ln m, cv^2), so
      ``P = Phi((ln m_a - ln m_b) / sqrt(cv_a^2 + cv_b^2))``, exactly.

    Without noise on either side the answer is 0 or 1 (0.5 for a tie).

    For two `HumanTimer` bots (shifted lognormal waits; their floors and tempos
    cancel when both plan from the same moment at one tempo):
    ``P = Phi((ln curve(a - top) - ln curve(b - top)) / sqrt(s_a^2 + s_b^2))``
    with ``s = sigma(gap)`` (`HumanTimer.wrong_order`).
    """
    for name, value in (("a", a), ("b", b), ("top", top)):
        whole(name, value, 0)
    if not top < a < b:
        raise ValueError(f"need top < a < b, not top={top}, a={a}, b={b}.")
    bot_a = ScalarTimer() if bot is None else bot
    bot_b = bot_a if other is None else other
    if isinstance(bot_a, HumanTimer) and isinstance(bot_b, HumanTimer):
        if bot_a.tempo != bot_b.tempo or bot_a.floor != bot_b.floor:
            raise ValueError(
                "two HumanTimers need the same tempo and floor for the closed form, not "
                f"{bot_a!r} and {bot_b!r}."
            )
        return bot_a.wrong_order(a - top, b - top, bot_b)
    spp_a, cv_a, motor_a, noise_a = _timing(bot_a)
    spp_b, cv_b, motor_b, noise_b = _timing(bot_b)
    m_a = spp_a * (a - top)
    m_b = spp_b * (b - top)
    if noise_a != noise_b:
        raise ValueError(
            f"both bots must use the same noise for a closed form, not {noise_a!r} and {noise_b!r}."
        )
    if noise_a == "lognormal":
        spread = math.hypot(cv_a, cv_b)
        diff = math.log(m_a) - math.log(m_b)
    else:
        spread = math.sqrt((cv_a * m_a) ** 2 + motor_a**2 + (cv_b * m_b) ** 2 + motor_b**2)
        diff = m_a - m_b
    if spread == 0:
        return 0.5 if diff == 0 else float(diff > 0)
    return normal_cdf(diff / spread)


@dataclass(frozen=True)
class SwapChance:
    """The chance that card ``b`` is played before card ``a`` in the normal model,
    with its parts: the mean and spread of each wait (``mu_a``, ``sd_a``, ...), of
    their difference ``D = W_b - W_a`` (``mu_d``, ``sd_d``), ``z = -mu_d / sd_d``
    and ``p = Phi(z)``."""

    a: int
    b: int
    top: int
    cv: float
    seconds_per_step: float
    mu_a: float
    mu_b: float
    sd_a: float
    sd_b: float
    mu_d: float
    sd_d: float
    z: float
    p: float


def swap_chance(
    a: int, b: int, cv: float, seconds_per_step: float = 1.0, top: int = 0
) -> SwapChance:
    """The chance that two cards ``a < b`` in different hands swap, in the normal model.

    Each wait is normal with mean ``seconds_per_step x (card - top)`` and standard
    deviation ``cv x`` that mean (scalar timing: the spread grows with the wait).
    The difference ``D = W_b - W_a`` of two independent normal waits is normal with
    ``mu_D = mu_b - mu_a`` and ``sigma_D = sqrt(sd_a^2 + sd_b^2)``; the cards swap
    when ``D < 0``: ``P(D < 0) = Phi(-mu_D / sigma_D)``. The tempo cancels: with
    ``cv = 0.14``, 40 and 45 swap with chance ``Phi(-5 / (0.14 x sqrt(40^2 + 45^2)))``
    = 27.7%, whatever the seconds per step. It is `p_wrong_order` for two
    ``ScalarTimer(cv=cv, seconds_per_step=seconds_per_step, motor_sd=0)`` bots
    (``tests/classroom/test_classmodel.py`` checks both, and a simulation).

    >>> round(swap_chance(40, 45, cv=0.14).p, 3)
    0.277
    """
    for name, value in (("a", a), ("b", b), ("top", top)):
        whole(name, value, 0)
    if not top < a < b:
        raise ValueError(f"need top < a < b, not top={top}, a={a}, b={b}.")
    cv = finite("cv", cv, above=0)
    spp = finite("seconds_per_step", seconds_per_step, above=0)
    mu_a, mu_b = spp * (a - top), spp * (b - top)
    sd_a, sd_b = cv * mu_a, cv * mu_b
    mu_d = mu_b - mu_a
    sd_d = math.hypot(sd_a, sd_b)
    z = -mu_d / sd_d
    return SwapChance(a, b, top, cv, spp, mu_a, mu_b, sd_a, sd_b, mu_d, sd_d, z, normal_cdf(z))
