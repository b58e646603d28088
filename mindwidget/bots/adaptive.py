"""A bot that tunes its sense of time to its teammates: the cooperation lesson.

People who tap together do not keep their own tempo: each partner corrects
toward the other, continuously and mutually (Repp and Keller 2008, period and
phase correction in ensemble timing; Konvalinka, Vuust, Roepstorff and Frith
2010, two people tapping together adapt to each other). In The Mind the only
public signal of a teammate's tempo is when they play: a teammate who played
card c, ``elapsed`` seconds after the last public event, when the pile showed
``top``, waited about ``tempo x (c - top)``. `AdaptiveTimer` reads that tempo
off every teammate's play (a person's plays included) and moves its own tempo
a fraction of the way toward it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..checks import adaptation
from ..game import Observation
from ..rules import DECK_SIZE
from .base import DEFAULT_SECONDS_PER_STEP
from .stars import StarPolicy, p_no_card_between
from .timers import ScalarTimer

__all__ = ["AdaptiveTimer", "PlayReader", "SeenPlay", "follow"]


@dataclass(frozen=True)
class SeenPlay:
    """A face-up play read off the public events: who, how far above the pile, and
    how many seconds after the public event before it (when the wait began); and
    ``chance``: when the wait began, the chance (from what that player knew, by
    the public hand counts) that no other card lay between the pile and theirs
    (`mindwidget.bots.stars.p_no_card_between`; 1.0 if the counts are unknown)."""

    player: int
    card: int
    gap: int
    elapsed: float
    chance: float = 1.0


class PlayReader:
    """Reads the public events of a level once each and returns the new plays.

    Every bot re-plans at every public event, so a play's wait began at the
    public event just before it; its gap is counted from the pile's top then.
    A new level (or blind mode) starts the reading afresh.
    """

    def __init__(self) -> None:
        self._key: tuple[int, bool] | None = None
        self._seen = 0
        self._ref_t = 0.0
        self._ref_top = 0
        self._counts: list[int] = []
        self._face_up: set[int] = set()

    def read(self, obs: Observation) -> list[SeenPlay]:
        key = (obs.level, obs.blind)
        events = obs.events
        if key != self._key or len(events) < self._seen:
            self._key = key
            self._seen = 0
            self._ref_t = 0.0
            self._ref_top = 0
            self._counts = []
            self._face_up = set()
        plays: list[SeenPlay] = []
        for event in events[self._seen :]:
            t = float(event.get("t", self._ref_t))
            kind = event["type"]
            if kind == "dealt":
                self._counts = [int(c) for c in event.get("counts", ())]
            elif kind == "played":
                player = int(event["player"])
                if event.get("card") is not None:
                    card = int(event["card"])
                    chance = self._chance(player, card)
                    plays.append(
                        SeenPlay(player, card, card - self._ref_top, t - self._ref_t, chance)
                    )
                    self._ref_top = max(self._ref_top, card)
                self._take(player)
            elif kind in ("mistake", "star_used"):
                for discard in event.get("discards", ()):
                    self._take(int(discard["player"]))
                    if discard.get("card") is not None:
                        self._face_up.add(int(discard["card"]))
            self._ref_t = t
        self._seen = len(events)
        return plays

    def _take(self, player: int) -> None:
        if 0 <= player < len(self._counts) and self._counts[player] > 0:
            self._counts[player] -= 1

    def _chance(self, player: int, card: int) -> float:
        """The player's chance, when its wait began, that no other card lay between."""
        if not 0 <= player < len(self._counts):
            return 1.0
        top = self._ref_top
        own = self._counts[player]
        others = sum(self._counts) - own
        if others <= 0 or card <= top:
            return 1.0
        seen = [c for c in self._face_up if c > top]
        unseen = max(DECK_SIZE, card) - top - own - len(seen)
        between = card - top - 1 - sum(c < card for c in seen)
        if unseen < 0 or between < 0 or between > unseen:
            return 1.0
        return p_no_card_between(between, unseen, min(others, unseen))


def follow(tempo: float, observed: float, rate: float, max_ratio: float) -> float:
    """Move ``tempo`` a fraction ``rate`` of the way toward ``observed`` on a log
    scale, after clipping ``observed`` to within a factor ``max_ratio`` of it."""
    observed = min(max(observed, tempo / max_ratio), tempo * max_ratio)
    log_tempo = math.log(tempo)
    return math.exp(log_tempo + rate * (math.log(observed) - log_tempo))


class AdaptiveTimer(ScalarTimer):
    """A `ScalarTimer` whose tempo converges toward its teammates' tempo.

    It starts at ``seconds_per_step`` and keeps a current ``tempo``. For every
    face-up play by another seat it computes the observed tempo

        observed = (t_play - t_ref) / (card - top_ref)

    where ``t_ref`` and ``top_ref`` are the time and the pile's top at the
    public event just before the play (every bot re-plans from that moment, so
    that is when the teammate's wait began). It then moves its tempo a fraction
    ``rate`` of the way toward it, on a log scale (period correction, Repp and
    Keller 2008; mutual adaptation, Konvalinka et al. 2010):

        log tempo += rate * (log observed - log tempo)

    Plays with a gap below ``min_gap`` steps are ignored (their timing is
    mostly motor noise, Wing and Kristofferson 1973), and an observed tempo is
    clipped to within a factor ``max_ratio`` of the current one, so one absent-
    minded pause does not throw the bot off. The tempo carries over from level
    to level; a new seat (`Bot.seat`) starts afresh.

    Parameters: as `ScalarTimer`, plus ``rate`` (0 < rate <= 1, default 0.1),
    ``min_gap`` (whole number >= 1, default 3) and ``max_ratio`` (> 1,
    default 2.0).

    Why 0.1: for a team of three whose tempos start 30% apart (0.30, 0.345,
    0.39 s per step, cv 0.14), 1,000 games each won 41.9% at rate 0.1, 39.3% at
    0.25 and 34.3% at 0.5 (a fixed-tempo team: 10%; one shared tempo: 46%). A
    faster rate converges sooner but chases noise. A known bias: the play a
    bot observes is the earliest of several plans, so it is fast for its gap,
    and an adaptive team drifts faster during a game (about 12% at rate 0.1,
    26% at rate 0.25, over a whole game).
    """

    name = "adaptive"

    def __init__(
        self,
        cv: float = 0.14,
        noise: Literal["normal", "lognormal"] = "normal",
        seconds_per_step: float = DEFAULT_SECONDS_PER_STEP,
        motor_sd: float = 0.03,
        rate: float = 0.1,
        min_gap: int = 3,
        max_ratio: float = 2.0,
        propose_stars: bool = False,
        star_policy: StarPolicy | None = None,
    ) -> None:
        super().__init__(
            cv=cv,
            noise=noise,
            seconds_per_step=seconds_per_step,
            motor_sd=motor_sd,
            propose_stars=propose_stars,
            star_policy=star_policy,
        )
        self.rate, self.min_gap, self.max_ratio = adaptation(rate, min_gap, max_ratio, still=False)
        self.reset()

    def reset(self) -> None:
        self._tempo = self.seconds_per_step
        self._reader = PlayReader()
        #: (level, tempo after the update) for every observation used.
        self.history: list[tuple[int, float]] = []

    @property
    def tempo(self) -> float:
        return self._tempo

    def observe(self, obs: Observation) -> None:
        """Read the public events not seen yet and update the tempo."""
        for play in self._reader.read(obs):
            if play.player != self.player and play.gap >= self.min_gap and play.elapsed > 0:
                observed = play.elapsed / play.gap
                self._tempo = follow(self._tempo, observed, self.rate, self.max_ratio)
                self.history.append((obs.level, self._tempo))

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        self.observe(obs)
        return super().plan(obs, rng)

    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        self.observe(obs)
        return super().wants_star(obs, rng)

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        self.observe(obs)
        return super().vote(obs, rng)

    def __repr__(self) -> str:
        return (
            f"AdaptiveTimer(cv={self.cv:g}, noise={self.noise!r}, "
            f"seconds_per_step={self.seconds_per_step:g}, tempo={self._tempo:.3g}, "
            f"rate={self.rate:g}, propose_stars={self.propose_stars})"
        )
