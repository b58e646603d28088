"""Throwing stars: what every player knows in public, and when to propose one.

`known_top` and `public_floors` read public knowledge from an `Observation`;
`p_no_card_between` and `chance_next` say how likely it is that no other player
holds a card between the pile and one's own; `StarPolicy` decides when a bot
proposes a throwing star and how it votes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..checks import finite, whole
from ..game import Observation
from ..rules import DECK_SIZE

__all__ = ["StarPolicy", "chance_next", "known_top", "p_no_card_between", "public_floors"]


def known_top(obs: Observation) -> int:
    """The highest pile card this player can see (0 before the first play).

    In blind mode the pile lies face down; the bot then goes by the highest
    pile card it saw: its own plays. (Discards are not on the pile: a card
    discarded to a throwing star says nothing about the top.)
    """
    if obs.top is not None:
        return obs.top
    return max((c for c in obs.pile if c is not None), default=0)


def public_floors(obs: Observation) -> tuple[int | None, ...]:
    """For each seat, a card value below which that player surely holds nothing.

    Public knowledge only (the tip in the rule texts: "after a throwing star,
    watch the face-up discards: a player who discarded 60 as their lowest card
    holds nothing below 60"):

    * every card still held lies above the top of the pile (a play removes all
      lower cards, by the mistake rule), so the floor is at least the top;
    * a card a player discarded face up to a throwing star was their lowest,
      so their floor is at least that card.

    ``None`` marks a seat with no cards left.
    """
    top = known_top(obs)
    floors: list[int | None] = [top if n else None for n in obs.counts]
    for player, card, kind in obs.discards:
        floor = floors[player]
        if kind == "star" and card is not None and floor is not None and card > floor:
            floors[player] = card
    return tuple(floors)


def p_no_card_between(between: int, unseen: int, others: int) -> float:
    """The chance that none of the others' cards lies among ``between`` given values.

    The others hold ``others`` cards, dealt at random from ``unseen`` values
    (every value one has not seen: not in one's hand, not face up on the pile or
    among the discards); ``between`` of those values lie between the pile and
    one's own lowest card. Hypergeometric: ``C(unseen - between, others) /
    C(unseen, others)``, 0 when the others' cards cannot all lie above.
    (`mindwidget.sim.prob` exports it beside the other exact values.)
    """
    for name, value in (("between", between), ("unseen", unseen), ("others", others)):
        whole(name, value, 0)
    if between > unseen or others > unseen:
        raise ValueError(
            f"need between <= unseen and others <= unseen, not between={between}, "
            f"unseen={unseen}, others={others}."
        )
    if others > unseen - between:
        return 0.0
    return math.comb(unseen - between, others) / math.comb(unseen, others)


def chance_next(obs: Observation) -> float:
    """The chance, from what this player knows, that no other player holds a card
    between the pile and this player's lowest card (1.0 with no cards or no others).

    Unseen values: those above the pile (`known_top`) that are not in this
    player's hand nor discarded face up; a deck of `DECK_SIZE` cards (or up to
    the highest card this player has seen). See `p_no_card_between`.
    """
    if not obs.hand:
        return 1.0
    others = sum(obs.counts) - len(obs.hand)
    if others <= 0:
        return 1.0
    top = known_top(obs)
    seen = {c for _, c, _ in obs.discards if c is not None and c > top}
    seen.update(obs.hand)
    deck = max(DECK_SIZE, obs.hand[-1], top)
    unseen = deck - top - len(seen)
    low = obs.hand[0]
    between = low - top - 1 - sum(top < c < low for c in seen)
    return p_no_card_between(between, unseen, min(others, unseen))


@dataclass(frozen=True)
class StarPolicy:
    """When a bot proposes a throwing star, and how it votes on one.

    The rule texts' tip: "propose a throwing star when you hold two cards close
    above the top card of the pile: that is where a collision is most likely",
    and a star is wasted if it is still on the table when the game is lost.

    Propose (if the bot has ``propose_stars=True`` and the team has a star) when

    * its two lowest cards both lie at most ``close`` steps above the top, or
    * one life is left and its lowest card lies at most ``last_life_gap`` steps
      above the top,

    and another player may still hold a card below that card (by
    `public_floors`; after a star a bot knows who is out of its way). After a
    proposal is declined, no bot proposes again before the next card is played.

    Vote rule: agree when the bot would propose itself, when one life is left,
    when its own hand is empty, or when its lowest card lies at most
    ``vote_gap`` steps above the top (it is in the crowded zone too); otherwise
    say no (its card is far away, so the star is better kept).

    Defaults, measured with the fast engine (40,000 games of 3 players,
    ``ScalarTimer(cv=0.15)``): no stars 36.5% won; this policy 38.9% (with
    ``last_life_gap=8``: 38.4%). A star still on the table when the last life
    goes has gained nothing, hence the generous last-life rule.

    By risk (``risk`` set; the default of `HumanTimer`): a bot that can
    estimate its risk (`HumanTimer.risk`: the expected number of wrong orders
    its lowest card takes part in, from its own timing, consistent with
    `mindwidget.sim.prob.p_wrong_order`) proposes when that risk is at least
    ``risk`` (or by the last-life rule above), and, as a cautious person
    would, agrees when its own risk is at least ``vote_risk``, when its lowest
    card lies at most ``vote_gap`` above the top (the star costs it little),
    when one life is left or when its hand is empty; otherwise it keeps the
    star for later.
    """

    close: int = 6
    last_life_gap: int = 25
    vote_gap: int = 12
    risk: float | None = None
    vote_risk: float | None = None

    def __post_init__(self) -> None:
        for name in ("close", "last_life_gap", "vote_gap"):
            whole(f"StarPolicy.{name}", getattr(self, name), 0)
        for name in ("risk", "vote_risk"):
            value = getattr(self, name)
            if value is not None:
                finite(f"StarPolicy.{name}", value, 0)
        if (self.risk is None) != (self.vote_risk is None):
            raise ValueError(
                "StarPolicy: risk and vote_risk go together (both numbers or both None), "
                f"not risk={self.risk!r}, vote_risk={self.vote_risk!r}."
            )

    def wants_star(self, obs: Observation) -> bool:
        """The proposal rule above, from ``obs`` alone."""
        if obs.stars <= 0 or not obs.hand:
            return False
        top = known_top(obs)
        floors = public_floors(obs)
        others = [f for p, f in enumerate(floors) if p != obs.player and f is not None]
        if not others:
            return False
        lowest_floor = min(others)
        hand = obs.hand
        if len(hand) >= 2 and hand[1] - top <= self.close and lowest_floor < hand[1]:
            return True
        return obs.lives == 1 and hand[0] - top <= self.last_life_gap and lowest_floor < hand[0]

    def vote(self, obs: Observation) -> bool:
        """The vote rule above, from ``obs`` alone."""
        if not obs.hand or obs.lives == 1:
            return True
        return obs.hand[0] - known_top(obs) <= self.vote_gap or self.wants_star(obs)

    def _threatened(self, obs: Observation) -> bool:
        """Someone else may still hold a card below this player's lowest card."""
        floors = public_floors(obs)
        others = [f for p, f in enumerate(floors) if p != obs.player and f is not None]
        return bool(others) and min(others) < obs.hand[0]

    def wants_star_at(self, obs: Observation, risk: float) -> bool:
        """The proposal rule by risk (``risk`` set), given the bot's own risk estimate."""
        if obs.stars <= 0 or not obs.hand or self.risk is None:
            return False
        others = sum(obs.counts) - len(obs.hand)
        if others <= 0:
            return False
        if risk >= self.risk:
            return True
        gap = obs.hand[0] - known_top(obs)
        return obs.lives == 1 and gap <= self.last_life_gap and self._threatened(obs)

    def vote_at(self, obs: Observation, risk: float) -> bool:
        """The cautious vote by risk (``vote_risk`` set), given the bot's own risk estimate."""
        if not obs.hand or obs.lives == 1:
            return True
        if obs.hand[0] - known_top(obs) <= self.vote_gap:
            return True
        return self.vote_risk is not None and risk >= self.vote_risk
