"""The bot interface: `Bot`, which every timing model subclasses."""

from __future__ import annotations

import copy

import numpy as np

from ..checks import instance
from ..game import Observation
from .stars import StarPolicy, known_top

__all__ = ["DEFAULT_SECONDS_PER_STEP", "Bot"]

#: Seconds per step of the gap when nothing else is said. Chosen so that a
#: typical gap of 10-30 steps (101/(k+1) for k cards in play) gives a wait of
#: 3-9 s: the "few seconds" range in which the timing facts below were measured.
DEFAULT_SECONDS_PER_STEP = 0.3


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

    def star_delay(self, obs: Observation, rng: np.random.Generator) -> float:
        """Seconds from ``obs.t`` until this bot raises its hand for a throwing star,
        once `wants_star` said yes: at once, unless a timing model says otherwise."""
        return 0.0

    def ready_delay(self, obs: Observation, rng: np.random.Generator) -> float:
        """Seconds after the hands went back on the table (after a mistake, a star
        or a stop) until this bot is ready again: at once, unless a timing model
        says otherwise (`HumanTimer` pauses as a person does)."""
        return 0.0

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        """Whether to raise a hand for a throwing star now (see `StarPolicy`)."""
        return self.star_policy.wants_star(obs)

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        """Agree (True) or say no (False) to an open star proposal (see `StarPolicy`)."""
        return self.star_policy.vote(obs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seconds_per_step={self.seconds_per_step:g})"


def check_policy(star_policy: object) -> StarPolicy:
    """A bot's ``star_policy`` checked: None is the default `StarPolicy`."""
    if star_policy is None:
        return StarPolicy()
    return instance("star_policy", star_policy, StarPolicy)
