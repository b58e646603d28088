"""The stationary timing models: `PerfectTimer` (a clock) and `ScalarTimer` (a person
with scalar timing noise)."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from ..checks import finite
from ..game import Observation
from .base import DEFAULT_SECONDS_PER_STEP, Bot, check_policy
from .stars import StarPolicy

__all__ = ["PerfectTimer", "ScalarTimer"]


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
        self.seconds_per_step = finite("seconds_per_step", seconds_per_step, above=0)
        self.propose_stars = bool(propose_stars)
        self.star_policy = check_policy(star_policy)

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
        self.cv = finite("cv", cv, 0)
        if noise not in ("normal", "lognormal"):
            raise ValueError(f"noise must be 'normal' or 'lognormal', not {noise!r}.")
        self.noise: Literal["normal", "lognormal"] = noise
        self.seconds_per_step = finite("seconds_per_step", seconds_per_step, above=0)
        self.motor_sd = finite("motor_sd", motor_sd, 0)
        self.propose_stars = bool(propose_stars)
        self.star_policy = check_policy(star_policy)

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
