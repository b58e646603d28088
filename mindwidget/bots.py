"""Bot teammates whose timing is modelled on human interval timing.

A bot sees only `Game.observation` for its own seat. After every public event
(a play, a mistake, a star, a stop and the resume after it) it is asked how
long, from that moment, it will wait before playing its lowest card
(`Bot.plan`); it also says whether it wants to propose a throwing star
(`Bot.wants_star`) and how it votes on one (`Bot.vote`).

The waiting time is ``seconds_per_step x gap``, where the gap is the distance
between the bot's lowest card and the top of the pile: the tip in the rule
texts ("a 5 goes quickly, with an 80 you wait a long time").
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

from .game import Observation

__all__ = [
    "Bot",
    "PerfectTimer",
    "ScalarTimer",
    "make_team",
]

BOT_NAMES = ("perfect", "scalar", "adaptive")


def _check_positive(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number > 0, not {value!r}.")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, not {value!r}.")
    return value


def _check_nonneg(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number >= 0, not {value!r}.")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, not {value!r}.")
    return value


def known_top(obs: Observation) -> int:
    """The highest pile card this player can see (0 before the first play).

    In blind mode the pile lies face down; the bot then goes by the highest
    card it saw: its own plays and face-up discards.
    """
    if obs.top is not None:
        return obs.top
    seen = [c for c in obs.pile if c is not None]
    seen += [c for _, c, _ in obs.discards if c is not None]
    return max(seen, default=0)


class Bot:
    """The interface every bot follows; subclass it to write your own.

    ``plan`` returns a finite number of seconds >= 0. ``seat`` returns a fresh
    copy for one seat, so one bot object can stand for a whole team.
    """

    name = "bot"
    propose_stars: bool = False
    seconds_per_step: float = 0.3

    def seat(self, player: int) -> Bot:
        """A fresh copy of this bot for ``player``'s seat."""
        bot = copy.deepcopy(self)
        bot.player = player
        return bot

    player: int = 0

    @property
    def tempo(self) -> float:
        """The bot's current sense of time, in seconds per step of the gap."""
        return self.seconds_per_step

    def gap(self, obs: Observation) -> int:
        """Distance from the visible top of the pile to this bot's lowest card."""
        return max(obs.hand[0] - known_top(obs), 0) if obs.hand else 0

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        """Seconds from ``obs.t`` until this bot plays its lowest card."""
        return self.seconds_per_step * self.gap(obs)

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        """Whether to raise a hand for a throwing star now."""
        return False

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        """Agree (True) or say no (False) to an open star proposal."""
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seconds_per_step={self.seconds_per_step:g})"


class PerfectTimer(Bot):
    """Waits exactly ``seconds_per_step x (lowest card - top of the pile)``.

    A team of perfect timers never makes a mistake (ties are impossible since
    all cards differ): the game is hard only because people are not clocks.
    """

    name = "perfect"

    def __init__(self, seconds_per_step: float = 0.3, propose_stars: bool = False) -> None:
        self.seconds_per_step = _check_positive("seconds_per_step", seconds_per_step)
        self.propose_stars = bool(propose_stars)


class ScalarTimer(Bot):
    """The perfect wait with human timing noise (scalar timing, Weber's law).

    Scalar expectancy theory (Gibbon 1977; Gibbon, Church and Meck 1984): the
    spread of a produced interval grows in proportion to its length, with a
    constant coefficient of variation ``cv``. For intervals of a few seconds,
    people who may not count show a cv of about 0.14, and about 0.07 when they
    count (Grondin and Killeen). Following Wing and Kristofferson (1973), a
    small constant motor delay noise (standard deviation ``motor_sd`` seconds)
    is added to the central timer's noise.

    ``noise="normal"``: wait = m + cv*m*Z1 + motor_sd*Z2 (cut at 0), m = mean.
    ``noise="lognormal"``: wait = m * exp(cv*Z).
    Noise is drawn afresh at every re-plan.
    """

    name = "scalar"

    def __init__(
        self,
        cv: float = 0.14,
        noise: Literal["normal", "lognormal"] = "normal",
        seconds_per_step: float = 0.3,
        motor_sd: float = 0.03,
        propose_stars: bool = False,
    ) -> None:
        self.cv = _check_nonneg("cv", cv)
        if noise not in ("normal", "lognormal"):
            raise ValueError(f"noise must be 'normal' or 'lognormal', not {noise!r}.")
        self.noise: Literal["normal", "lognormal"] = noise
        self.seconds_per_step = _check_positive("seconds_per_step", seconds_per_step)
        self.motor_sd = _check_nonneg("motor_sd", motor_sd)
        self.propose_stars = bool(propose_stars)

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        mean = self.tempo * self.gap(obs)
        if self.noise == "lognormal":
            return float(mean * math.exp(self.cv * rng.standard_normal()))
        z1, z2 = rng.standard_normal(2)
        return max(0.0, float(mean + self.cv * mean * z1 + self.motor_sd * z2))

    def __repr__(self) -> str:
        return (
            f"ScalarTimer(cv={self.cv:g}, noise={self.noise!r}, "
            f"seconds_per_step={self.seconds_per_step:g}, motor_sd={self.motor_sd:g})"
        )


def bot_from_name(name: str) -> Bot:
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
            f"bots: a list needs one bot per seat ({players}), but has {len(bots)}."
        )
    team: list[Bot] = []
    for p, b in enumerate(bots):
        if isinstance(b, str):
            b = bot_from_name(b)
        if not isinstance(b, Bot):
            raise ValueError(f"bots[{p}] must be a Bot or a bot name, not {b!r}.")
        team.append(b.seat(p))
    return team
