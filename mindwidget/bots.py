"""Bot teammates whose timing is modelled on human interval timing.

A bot sees only `Game.observation` for its own seat. After every public event
(a play, a mistake, a star, a stop and the resume after it) it is asked how
long, from that moment, it will wait before playing its lowest card
(`Bot.plan`); it also says whether it wants to propose a throwing star
(`Bot.wants_star`) and how it votes on one (`Bot.vote`).

The waiting time is ``seconds_per_step x gap``, where the gap is the distance
between the bot's lowest card and the top of the pile: the tip in the rule
texts ("a 5 goes quickly, with an 80 you wait a long time").

Timing models, from a clock to a person:

* `PerfectTimer`: the mean wait, exactly. It never makes a mistake.
* `ScalarTimer`: the mean wait with scalar (Weber-law) noise plus motor noise.
* `AdaptiveTimer` (in `mindwidget.adaptive`): a `ScalarTimer` whose tempo moves
  toward the tempo it observes in its teammates' plays.

Every bot takes ``propose_stars`` and a `StarPolicy` (when to propose a
throwing star, how to vote on one).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .game import Observation

__all__ = [
    "BOT_NAMES",
    "Bot",
    "BotsLike",
    "PerfectTimer",
    "ScalarTimer",
    "StarPolicy",
    "known_top",
    "make_team",
    "public_floors",
]

#: The names that ``bots=`` accepts anywhere in the API.
BOT_NAMES = ("perfect", "scalar", "adaptive")

#: Seconds per step of the gap when nothing else is said. Chosen so that a
#: typical gap of 10-30 steps (101/(k+1) for k cards in play) gives a wait of
#: 3-9 s: the "few seconds" range in which the timing facts below were measured.
DEFAULT_SECONDS_PER_STEP = 0.3


def _check_number(name: str, value: object, allowed: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be {allowed}, not {value!r}.")
    return float(value)


def _check_positive(name: str, value: object) -> float:
    allowed = "a finite number > 0"
    number = _check_number(name, value, allowed)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"{name} must be {allowed}, not {value!r}.")
    return number


def _check_nonneg(name: str, value: object) -> float:
    allowed = "a finite number >= 0"
    number = _check_number(name, value, allowed)
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{name} must be {allowed}, not {value!r}.")
    return number


def _check_count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, not {value!r}.")
    return int(value)


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
    floors: list[int | None] = [top if n else None for n in obs.hand_counts]
    for player, card, reason in obs.discards:
        floor = floors[player]
        if reason == "star" and card is not None and floor is not None and card > floor:
            floors[player] = card
    return tuple(floors)


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
    """

    close: int = 6
    last_life_gap: int = 25
    vote_gap: int = 12

    def __post_init__(self) -> None:
        for name in ("close", "last_life_gap", "vote_gap"):
            _check_count(f"StarPolicy.{name}", getattr(self, name))

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


class Bot:
    """The interface every bot follows; subclass it to write your own.

    ``plan`` returns a finite number of seconds >= 0. ``seat`` returns a fresh
    copy for one seat, so one bot object can stand for a whole team. The star
    decisions follow ``star_policy`` (a `StarPolicy`); ``wants_star`` is only
    asked when ``propose_stars`` is True.
    """

    name = "bot"
    propose_stars: bool = False
    star_policy: StarPolicy = StarPolicy()
    seconds_per_step: float = DEFAULT_SECONDS_PER_STEP
    player: int = 0

    def seat(self, player: int) -> Bot:
        """A fresh copy of this bot for ``player``'s seat."""
        bot = copy.deepcopy(self)
        bot.player = player
        bot.reset()
        return bot

    def reset(self) -> None:
        """Forget what was learned in earlier games (a new seat, a new game)."""

    @property
    def tempo(self) -> float:
        """The bot's current sense of time, in seconds per step of the gap."""
        return self.seconds_per_step

    def gap(self, obs: Observation) -> int:
        """Distance from the visible top of the pile to this bot's lowest card."""
        return max(obs.hand[0] - known_top(obs), 0) if obs.hand else 0

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        """Seconds from ``obs.t`` until this bot plays its lowest card."""
        return self.tempo * self.gap(obs)

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        """Whether to raise a hand for a throwing star now (see `StarPolicy`)."""
        return self.star_policy.wants_star(obs)

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        """Agree (True) or say no (False) to an open star proposal (see `StarPolicy`)."""
        return self.star_policy.vote(obs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seconds_per_step={self.seconds_per_step:g})"


def _check_policy(star_policy: object) -> StarPolicy:
    if star_policy is None:
        return StarPolicy()
    if not isinstance(star_policy, StarPolicy):
        raise ValueError(f"star_policy must be a StarPolicy(...), not {star_policy!r}.")
    return star_policy


class PerfectTimer(Bot):
    """Waits exactly ``seconds_per_step x (lowest card - top of the pile)``.

    The "mental clock" of the rule texts' tip taken literally: a 5 goes
    quickly, an 80 waits a long time. A team of perfect timers with one tempo
    never makes a mistake (all cards differ, so no two waits are equal): the
    game is hard only because people are not clocks (Gibbon 1977).

    Parameters: ``seconds_per_step`` (> 0, default 0.3 s), ``propose_stars``
    and ``star_policy`` (see `StarPolicy`).
    """

    name = "perfect"

    def __init__(
        self,
        seconds_per_step: float = DEFAULT_SECONDS_PER_STEP,
        propose_stars: bool = False,
        star_policy: StarPolicy | None = None,
    ) -> None:
        self.seconds_per_step = _check_positive("seconds_per_step", seconds_per_step)
        self.propose_stars = bool(propose_stars)
        self.star_policy = _check_policy(star_policy)

    def __repr__(self) -> str:
        return (
            f"PerfectTimer(seconds_per_step={self.seconds_per_step:g}, "
            f"propose_stars={self.propose_stars})"
        )


class ScalarTimer(Bot):
    """The perfect wait with human timing noise (scalar timing, Weber's law).

    Scalar expectancy theory (Gibbon 1977; Gibbon, Church and Meck 1984): the
    spread of a produced interval grows in proportion to its length, with a
    constant coefficient of variation ``cv``. For intervals of a few seconds,
    people who may not count show a cv of about 0.14, and about 0.07 when they
    count (Grondin and Killeen). Following Wing and Kristofferson (1973), a
    small constant motor noise (standard deviation ``motor_sd`` seconds) is
    added to the central timer's noise.

    With m = ``tempo x gap`` (the perfect wait):

    * ``noise="normal"``: wait = max(0, m + cv*m*Z1 + motor_sd*Z2);
    * ``noise="lognormal"``: wait = m * exp(cv*Z) (no motor term).

    Z, Z1, Z2 are standard normal and drawn afresh at every re-plan.

    Parameters: ``cv`` (>= 0, default 0.14), ``noise``, ``seconds_per_step``
    (> 0, default 0.3 s), ``motor_sd`` (>= 0, default 0.03 s),
    ``propose_stars`` and ``star_policy`` (see `StarPolicy`).
    """

    name = "scalar"

    def __init__(
        self,
        cv: float = 0.14,
        noise: Literal["normal", "lognormal"] = "normal",
        seconds_per_step: float = DEFAULT_SECONDS_PER_STEP,
        motor_sd: float = 0.03,
        propose_stars: bool = False,
        star_policy: StarPolicy | None = None,
    ) -> None:
        self.cv = _check_nonneg("cv", cv)
        if noise not in ("normal", "lognormal"):
            raise ValueError(f"noise must be 'normal' or 'lognormal', not {noise!r}.")
        self.noise: Literal["normal", "lognormal"] = noise
        self.seconds_per_step = _check_positive("seconds_per_step", seconds_per_step)
        self.motor_sd = _check_nonneg("motor_sd", motor_sd)
        self.propose_stars = bool(propose_stars)
        self.star_policy = _check_policy(star_policy)

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        mean = self.tempo * self.gap(obs)
        if self.noise == "lognormal":
            return float(mean * math.exp(self.cv * rng.standard_normal()))
        z1, z2 = rng.standard_normal(2)
        return max(0.0, float(mean + self.cv * mean * z1 + self.motor_sd * z2))

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(cv={self.cv:g}, noise={self.noise!r}, "
            f"seconds_per_step={self.seconds_per_step:g}, motor_sd={self.motor_sd:g}, "
            f"propose_stars={self.propose_stars})"
        )


def bot_from_name(name: str) -> Bot:
    """A default bot for a name in `BOT_NAMES`."""
    if name == "perfect":
        return PerfectTimer()
    if name == "scalar":
        return ScalarTimer()
    if name == "adaptive":
        from .adaptive import AdaptiveTimer

        return AdaptiveTimer()
    raise ValueError(f"bots: unknown bot name {name!r}; allowed: {', '.join(BOT_NAMES)}.")


BotsLike = Bot | str | Sequence[Bot | str]


def make_team(bots: BotsLike, players: int) -> list[Bot]:
    """One fresh bot per seat from one bot, a name, or a list with one per seat."""
    if isinstance(bots, (Bot, str)):
        proto = bot_from_name(bots) if isinstance(bots, str) else bots
        return [proto.seat(p) for p in range(players)]
    if not isinstance(bots, Sequence):
        raise ValueError(
            f"bots must be a bot, a name ({', '.join(BOT_NAMES)}) or a list with one per "
            f"seat, not {bots!r}."
        )
    if len(bots) != players:
        raise ValueError(
            f"bots: a list needs one bot per seat ({players}), but has {len(bots)}: {bots!r}."
        )
    team: list[Bot] = []
    for p, b in enumerate(bots):
        if isinstance(b, str):
            b = bot_from_name(b)
        if not isinstance(b, Bot):
            raise ValueError(f"bots[{p}] must be a Bot or a bot name, not {b!r}.")
        team.append(b.seat(p))
    return team
