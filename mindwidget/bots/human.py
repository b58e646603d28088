"""`HumanTimer`: a bot that waits the way people wait, at a tempo the person sets.

People playing The Mind do not wait a fixed time per step. The 142 waits of
people that seed the ACT-R bot of the public ``RuurdBijlsma/mind-server``
project (its ``data/init_memory.csv``: gap, seconds since the previous card)
have these medians (the "human reference", `REFERENCE`):

=========  ====  ===  ===  ===  ====  =====  =====
gap        1     2    3-4  5-7  8-12  13-24  25+
median, s  1.35  2.2  2.8  6.1  8.0   19     23
=========  ====  ===  ===  ===  ====  =====  =====

Nobody in it played sooner than 0.4 s after the previous card, and the waits
spread widely: the spread of log(wait) (interquartile range / 1.349) is about
0.5 at gaps 1-2 and about 1.0 from gap 3 on, because tempos differ between
people and between moments, not only within one person.

The model (a shifted lognormal, the usual shape of response times: a fixed
non-decision time plus a skewed decision time; Ratcliff and Murdock 1976,
Heathcote, Brown and Cousineau 2004)::

    wait = floor + tempo * curve(gap) * hold * exp(sigma(gap) * Z),   Z ~ N(0, 1)

* ``floor`` (0.4 s): the reaction floor after every public event (a card, a
  stop, the end of a concentration, a star): every bot re-plans from that
  moment, so no bot acts sooner than ``floor`` after anything happened.
* ``curve`` (the people curve; `curve`): a continuous fit through the band
  medians: at each band's median gap in the data (`KNOT_GAPS`: 1, 2, 3, 6, 9.5,
  17, 33) it is the reference median minus the floor, and between them it runs
  straight on log-log axes. Past the last band (gap 33) it keeps growing as
  ``gap**0.96`` (`FAR_EXPONENT`, the exponent of the power law through all the
  band medians, ``0.93 * gap**0.96``): a 99 waits longer than a 75, as the
  rule texts' tip says ("with an 80 you wait a long time"). (The earlier Hill
  curve levelled off toward 78 s, so 75 and 99 above the pile waited 44 and
  52 s: close enough for their spreads to overlap.)
* ``hold`` (`hold_factor`): a person holding 98 while the others still hold
  cards waits for them. The bot weighs what the others still hold: ``p``, the
  chance that no other card lies between the pile and its own
  (`mindwidget.bots.stars.chance_next`: the others' card count dealt at random
  over the values it has not seen, `p_no_card_between`), and waits
  ``p**-0.15`` times longer (`HOLD`; ``p`` counted from 0.01 up). At level 1,
  pile 10, the bot with 99 (one other card, 89 unseen values, 88 below 99:
  p = 1/89) waits 1.96 times the curve, the bot with 75 (p = 25/89) 1.21
  times. Three default bots then play 99 before 75 in under 1% of 10/75/99
  deals (31% before; `benchmarks/far_card.py`). When it reads a teammate's
  tempo, the bot divides by the hold that teammate had (from the public hand
  counts), so holding back does not make the team drift slower.
  Why 0.15: 0.08 leaves 3.5% in 10/75/99, 0.12 1%, 0.15 0.5%, 0.2 none but a
  level 1 of 89 s instead of 70 s.
  Measured (``benchmarks/human_likeness.py``, 300 games): the bots' band
  medians lie within 0.92 to 1.23 times the reference (the 25+ band is the
  highest: its far cards wait longer now), where the Hill curve gave 0.79 to
  1.16.
* ``tempo``: one number that scales the whole curve above the floor; the
  names `TEMPOS` ("slow" 1.5, "people" 1.0, "quick" 0.6) or a number.
* ``sigma(gap)``: the lognormal spread, the same for every wait of a given gap
  whatever the tempo (the scalar property: the spread grows in proportion to
  the wait, Gibbon 1977), and growing with the gap from ``cv_near`` (gap 1) to
  ``cv_far`` (far cards), the coefficient of variation of the part above the
  floor. The defaults (0.12 to 0.2) lie around one person's timing cv of
  about 0.14 for a few seconds (Grondin and Killeen), growing toward the
  wider spread of long waits, but far below the pooled human spread (0.5 to
  1.0 in log units, a cv of 0.5 to 1.3), whose width comes mostly from
  differences between people and moments: that is what the ``tempo`` and its
  adaptation stand for. Even three bots with cv 0.2 to 0.45 won none of 100
  three-player games (level 5.0 reached on average); with the defaults three
  of them win about two games in five and reach level 8 on average
  (``simulate(3, "human", 400, seed=7)``: 40.5%, 95% interval 35.8% to 45.4%,
  level 7.97; seed 1: 39.5%).

Adapting to the person (``rate`` > 0, the default): like `AdaptiveTimer`, the
bot reads every teammate's face-up play (a person's included), the observed
tempo ``(elapsed - floor) / (curve(gap) * hold)``, and moves its tempo a fraction
``rate`` of the way toward it on a log scale (Repp and Keller 2008;
Konvalinka et al. 2010). ``rate=0`` keeps the tempo fixed (and lets the fast
simulation engine play it). It starts from "people" (1.0), the tempo of the
reference data, which came from people playing the game; in a first game
the person's own tempo is not known yet.

Why ``rate=0.2``: with a person at a fixed tempo in seat 0 and two bots
starting at 1.0 (80 three-player games each), the bots ended the game at a
median tempo of 0.62 beside a quick person (0.6) and 1.23 beside a slow one
(1.5); at ``rate=0.1``: 0.73 and 1.12. The price, as for `AdaptiveTimer`: a
play a bot observes is the earliest of several plans, so a table of bots only
drifts faster, to a median tempo of 0.87 by the end of a game (0.93 at 0.1);
the band medians of ``benchmarks/human_likeness.py`` stay within 1.23 times
the reference.

After a stop, and after a mistake or a throwing star when the rules make the
team put their hands back on the table, the bot is ready again after
``floor`` plus a pause of ``ready_pause`` seconds (median, at tempo 1, cv
0.3), counted from that event: `ready_delay` says how long from now (the
runner resumes when every bot is ready), and if a person resumes sooner,
`plan` adds the rest of the pause before the bot starts timing.

Throwing stars (`HUMAN_STAR_POLICY`, ``StarPolicy(risk=1.2, vote_risk=0.5,
last_life_gap=8)``): the bot estimates its risk (`risk`: the expected number
of wrong orders its lowest card takes part in, from this timing model,
`wrong_order`, the same closed form as `mindwidget.sim.prob.p_wrong_order`).
Close cards far above the pile are the risky ones: their waits are long and
their spreads overlap. It raises its hand (at the reaction floor, and never
twice between two cards) when the risk is at least 1.2 (about the 95th
percentile of the moments it is asked), or on the last life with its lowest
card within 8 of the pile; it agrees, as a cautious person would, when its
own risk is at least 0.5, its lowest card is within 12 of the pile (the star
costs it little), one life is left or its hand is empty. After the team said
no, it does not ask again while it still holds a card it held then near the
pile (its lowest, and those within `DECLINED_NEAR` = 12 steps): before, a
person who said no heard a proposal after every card (three within 6 s).
Measured (``benchmarks/human_likeness.py``, 300 full three-player games, a
person in seat 0 who never proposes): the person meets a star vote in 96% of
games, 3.6 proposals and 3.2 stars used per game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..checks import adaptation, finite
from ..game import Observation
from ..rules import DECK_SIZE
from .adaptive import PlayReader, follow
from .base import Bot, check_policy
from .stars import StarPolicy, chance_next, known_top

__all__ = [
    "FAR_EXPONENT",
    "HOLD",
    "HUMAN_STAR_POLICY",
    "KNOT_GAPS",
    "KNOT_WAITS",
    "REACTION_FLOOR",
    "REFERENCE",
    "REFERENCE_BANDS",
    "REFERENCE_COUNTS",
    "TEMPOS",
    "HumanTimer",
    "band_label",
    "band_of",
    "check_tempo",
    "curve",
    "curve_of",
    "reference_median",
]

#: Named tempos: a factor on the people curve (1.0 = the human reference).
TEMPOS: Mapping[str, float] = {"slow": 1.5, "people": 1.0, "quick": 0.6}

#: The gap bands of the human reference, as (lowest, highest) gaps.
REFERENCE_BANDS: tuple[tuple[int, int], ...] = (
    (1, 1),
    (2, 2),
    (3, 4),
    (5, 7),
    (8, 12),
    (13, 24),
    (25, DECK_SIZE),
)
#: Median wait of people, in seconds, per band of `REFERENCE_BANDS` (source above).
REFERENCE: tuple[float, ...] = (1.35, 2.2, 2.8, 6.1, 8.0, 19.0, 23.0)
#: How many of the 142 waits of the source lie in each band of `REFERENCE_BANDS`:
#: a small data set, thinnest far above the pile (11 waits at gaps of 25 or more).
REFERENCE_COUNTS: tuple[int, ...] = (16, 19, 18, 35, 22, 21, 11)

#: The gap at the middle of each band in the reference data (its median gap).
KNOT_GAPS: tuple[float, ...] = (1.0, 2.0, 3.0, 6.0, 9.5, 17.0, 33.0)
#: The people curve above the floor at `KNOT_GAPS`, tempo 1 (seconds; fitted, see
#: the module docstring): the curve runs straight between them on log-log axes.
KNOT_WAITS: tuple[float, ...] = (0.95, 1.8, 2.4, 5.7, 7.6, 18.6, 22.6)
#: Past the last knot the curve grows as ``gap**FAR_EXPONENT``: the exponent of the
#: power law through all the band medians (0.93 * gap**0.96 above the floor).
FAR_EXPONENT = 0.96
#: Nobody in the reference played sooner than this after the previous card.
REACTION_FLOOR = 0.4
#: How much a bot holds back when another card probably lies between the pile and
#: its own: the wait above the floor is multiplied by ``p**-HOLD`` (``p`` the chance
#: that none does, `chance_next`, counted from ``HOLD_P_MIN`` up).
HOLD = 0.15
HOLD_P_MIN = 0.01

_LOG_GAPS = np.log(np.array(KNOT_GAPS))
_LOG_WAITS = np.log(np.array(KNOT_WAITS))
_NEAR_SLOPE = float((_LOG_WAITS[1] - _LOG_WAITS[0]) / (_LOG_GAPS[1] - _LOG_GAPS[0]))


def curve_of(gaps: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """`curve` for an array of gaps (0 for a gap <= 0)."""
    g = np.asarray(gaps, dtype=np.float64)
    log_g = np.log(np.where(g > 0, g, 1.0))
    inner = np.interp(log_g, _LOG_GAPS, _LOG_WAITS)
    below = _LOG_WAITS[0] + _NEAR_SLOPE * (log_g - _LOG_GAPS[0])
    above = _LOG_WAITS[-1] + FAR_EXPONENT * (log_g - _LOG_GAPS[-1])
    log_w = np.where(log_g < _LOG_GAPS[0], below, np.where(log_g > _LOG_GAPS[-1], above, inner))
    return np.where(g > 0, np.exp(log_w), 0.0)


def curve(gap: float) -> float:
    """The people curve: the median wait above the floor at tempo 1 (seconds).

    Straight on log-log axes between `KNOT_WAITS` at `KNOT_GAPS`, and on past the
    last band as ``gap**FAR_EXPONENT``, so a far card keeps waiting longer.
    """
    return float(curve_of(gap))


def band_of(gap: float) -> int:
    """The index in `REFERENCE_BANDS` of the band holding ``gap`` (-1 below gap 1)."""
    for i, (low, high) in enumerate(REFERENCE_BANDS):
        if low <= gap <= high:
            return i
    return len(REFERENCE_BANDS) - 1 if gap > REFERENCE_BANDS[-1][1] else -1


def band_label(i: int) -> str:
    """A band's name as the reference table writes it: "1", "3-4", "25+"."""
    low, high = REFERENCE_BANDS[i]
    if i == len(REFERENCE_BANDS) - 1:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


def reference_median(gap: float) -> float:
    """The human reference median wait (seconds) for a gap."""
    i = band_of(gap)
    if i < 0:
        raise ValueError(f"gap must be at least 1, not {gap!r}.")
    return REFERENCE[i]


def check_tempo(tempo: object, name: str = "tempo") -> float:
    """A tempo factor from a name in `TEMPOS` or a finite number > 0."""
    if isinstance(tempo, str) and tempo in TEMPOS:
        return TEMPOS[tempo]
    allowed = f"{', '.join(repr(k) for k in TEMPOS)} or a finite number > 0"
    return finite(name, tempo, above=0, allowed=allowed)


#: Wrong-order tables by spread settings (they do not depend on the tempo).
_PAIRS: dict[tuple[float, float, float], np.ndarray[Any, np.dtype[np.float64]]] = {}
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


#: After a star was declined, a bot does not propose again while it holds a card
#: it held then within this many steps of the pile (or its lowest card then).
DECLINED_NEAR = 12

#: Events that put the hands back on the table (a mistake or a star only when
#: the rules make the team concentrate after them).
_DOWN = ("stopped", "mistake", "star_used")


def _sigma(cv: float) -> float:
    """The lognormal sigma whose coefficient of variation is ``cv``."""
    return math.sqrt(math.log1p(cv * cv))


class HumanTimer(Bot):
    """Waits like a person: a reaction floor, the people curve, a human spread.

    See the module's docstring for the model, its fit and its source.

    Parameters: ``tempo`` (a name in `TEMPOS` or a finite number > 0, default
    "people"), ``floor`` (>= 0, default 0.4 s), ``cv_near`` and ``cv_far``
    (>= 0, defaults 0.12 and 0.2; the spread at gap 1 and far away),
    ``spread_gap`` (> 0, default 6: the gap over which the spread grows about
    two thirds of the way), ``rate`` (0 <= rate <= 1, default 0.2; 0 = a fixed
    tempo), ``min_gap`` (whole number >= 1, default 2), ``max_ratio`` (> 1,
    default 2.0), ``ready_pause`` (>= 0, default 1.6 s), ``hold`` (>= 0,
    default `HOLD` = 0.15; 0 = no holding back), ``propose_stars`` (default
    True) and ``star_policy`` (default `HUMAN_STAR_POLICY`).
    """

    name = "human"

    def __init__(
        self,
        tempo: float | str = "people",
        floor: float = REACTION_FLOOR,
        cv_near: float = 0.12,
        cv_far: float = 0.2,
        spread_gap: float = 6.0,
        rate: float = 0.2,
        min_gap: int = 2,
        max_ratio: float = 2.0,
        ready_pause: float = 1.6,
        hold: float = HOLD,
        propose_stars: bool = True,
        star_policy: StarPolicy | None = None,
    ) -> None:
        self.start_tempo = check_tempo(tempo)
        self.floor = finite("floor", floor, 0)
        self.cv_near = finite("cv_near", cv_near, 0)
        self.cv_far = finite("cv_far", cv_far, 0)
        self.spread_gap = finite("spread_gap", spread_gap, above=0)
        self.rate, self.min_gap, self.max_ratio = adaptation(rate, min_gap, max_ratio, still=True)
        self.ready_pause = finite("ready_pause", ready_pause, 0)
        self.hold = finite("hold", hold, 0)
        self.propose_stars = bool(propose_stars)
        self.star_policy = HUMAN_STAR_POLICY if star_policy is None else check_policy(star_policy)
        self.reset()

    # ------------------------------------------------------------ the tempo
    def reset(self) -> None:
        self._tempo = self.start_tempo
        self._reader = PlayReader()
        #: (level, tempo after the update) for every observation used.
        self.history: list[tuple[int, float]] = []
        self._pause_key: tuple[int, bool, int] | None = None
        self._pause_until = 0.0
        self._declined_key: tuple[int, bool] | None = None
        self._declined_seen = 0
        #: this bot's cards near the pile when a throwing star was last declined
        self._declined_near: frozenset[int] = frozenset()

    @property
    def tempo(self) -> float:
        """The current tempo: a factor on the people curve (1.0 = the reference)."""
        return self._tempo

    def set_tempo(self, tempo: float | str) -> None:
        """Set the tempo now (a name in `TEMPOS` or a number); adaptation goes on from it."""
        self._tempo = self.start_tempo = check_tempo(tempo)

    @property
    def seconds_per_step(self) -> float:  # type: ignore[override]
        """Seconds per step of the curve at gap 10 at the current tempo (for comparison
        with the linear timers; the curve itself is not linear)."""
        return self._tempo * curve(10) / 10

    def observe(self, obs: Observation) -> None:
        """Read the teammates' plays not seen yet and move the tempo toward theirs;
        note this bot's lowest card when a throwing star is declined."""
        key = (obs.level, obs.blind)
        if key != self._declined_key or len(obs.events) < self._declined_seen:
            self._declined_key, self._declined_seen = key, 0
            self._declined_near = frozenset()
        for event in obs.events[self._declined_seen :]:
            if event["type"] == "star_declined":
                near = known_top(obs) + DECLINED_NEAR
                near_cards = obs.hand[:1] + tuple(c for c in obs.hand if c <= near)
                self._declined_near = frozenset(near_cards)
        self._declined_seen = len(obs.events)
        for play in self._reader.read(obs):
            if self.rate == 0 or play.player == self.player or play.gap < self.min_gap:
                continue
            above = play.elapsed - self.floor
            if above <= 0:
                continue
            observed = above / (curve(play.gap) * self._held(play.chance))
            self._tempo = follow(self._tempo, observed, self.rate, self.max_ratio)
            self.history.append((obs.level, self._tempo))

    # ------------------------------------------------------------ the model
    def median_wait(self, gap: float, tempo: float | None = None) -> float:
        """The median wait (seconds) for a gap at ``tempo`` (default: the current one)."""
        t = self._tempo if tempo is None else tempo
        return self.floor + t * curve(gap)

    def sigma(self, gap: float) -> float:
        """The lognormal spread of the wait above the floor at this gap."""
        weight = math.exp(-max(gap - 1.0, 0.0) / self.spread_gap)
        return _sigma(self.cv_far + (self.cv_near - self.cv_far) * weight)

    def hold_factor(self, obs: Observation) -> float:
        """How much longer than the curve this bot waits because another card
        probably lies between the pile and its own: ``max(p, HOLD_P_MIN)**-hold``,
        ``p`` = `chance_next` (1.0 when ``hold`` is 0 or nobody else holds cards)."""
        return self._held(chance_next(obs)) if self.hold else 1.0

    def _held(self, chance: float) -> float:
        return float(max(chance, HOLD_P_MIN) ** -self.hold)

    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        """The people curve's wait, held back by `hold_factor`; and if the level
        went on before this bot was ready again (a person pressed Ready quickly),
        the rest of its pause first."""
        self.observe(obs)
        gap = self.gap(obs)
        above = self._tempo * curve(gap) * self.hold_factor(obs)
        wait = float(self.floor + above * math.exp(self.sigma(gap) * rng.standard_normal()))
        ready = self._ready_time(obs, rng)
        if ready is not None and ready > obs.t:
            wait += ready - obs.t
        return wait

    def star_delay(self, obs: Observation, rng: np.random.Generator) -> float:
        """A hand goes up for a star at the reaction floor (before any card: every
        planned play lies above the floor)."""
        return self.floor

    def ready_delay(self, obs: Observation, rng: np.random.Generator) -> float:
        """Seconds from ``obs.t`` until this bot is ready again after the hands went
        back on the table: ``floor`` plus a pause (median ``ready_pause x tempo``,
        cv 0.3) counted from the stop, mistake or star that put them there, drawn
        once for that event (so `plan` and the runner agree on it)."""
        self.observe(obs)
        ready = self._ready_time(obs, rng)
        if ready is None:  # no stop, mistake or star: a pause from now
            return self.floor + self._pause(rng)
        return max(ready - obs.t, 0.0)

    def _pause(self, rng: np.random.Generator) -> float:
        return float(self._tempo * self.ready_pause * math.exp(_sigma(0.3) * rng.standard_normal()))

    def _ready_time(self, obs: Observation, rng: np.random.Generator) -> float | None:
        """The level time at which this bot is ready again after the hands last went
        on the table in this level (a stop; a mistake or a star when the rules make
        the team concentrate), or None when they have not."""
        down = resumed = -1
        for i, event in enumerate(obs.events):
            kind = event["type"]
            if kind in _DOWN:
                down = i
            elif kind == "ready":
                resumed = i
        if down < 0 or not (obs.concentrating or resumed > down):
            return None
        key = (obs.level, obs.blind, down)
        if key != self._pause_key:
            self._pause_key = key
            start = float(obs.events[down]["t"])
            self._pause_until = start + self.floor + self._pause(rng)
        return self._pause_until

    def wrong_order(self, gap_a: int, gap_b: int, other: HumanTimer | None = None) -> float:
        """The chance that the card at ``gap_b`` is played before the one at ``gap_a``
        (gap_a < gap_b), both planned now: ``gap_a`` by this bot, ``gap_b`` by
        ``other`` (default: a bot that times like this one).

        The floor and the tempo cancel: ``Phi((log m_a - log m_b) / sqrt(s_a^2 + s_b^2))``
        with ``m = curve(gap)`` and ``s = sigma(gap)``.
        """
        if not 0 < gap_a < gap_b:
            raise ValueError(f"need 0 < gap_a < gap_b, not gap_a={gap_a}, gap_b={gap_b}.")
        spread = math.hypot(self.sigma(gap_a), (other or self).sigma(gap_b))
        diff = math.log(curve(gap_a)) - math.log(curve(gap_b))
        if spread == 0:
            return 0.0
        return 0.5 * math.erfc(-diff / spread / math.sqrt(2.0))

    def _pair_table(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        """``table[a, b]``: the chance that the cards at gaps a and b go in the wrong order."""
        key = (self.cv_near, self.cv_far, self.spread_gap)
        table = _PAIRS.get(key)
        if table is None:
            gaps = np.arange(1, DECK_SIZE + 1, dtype=np.float64)
            log_m = np.log(curve_of(gaps))
            sig = np.array([self.sigma(g) for g in gaps])
            spread = np.hypot(sig[:, None], sig[None, :])
            z = -np.abs(log_m[:, None] - log_m[None, :]) / np.where(spread > 0, spread, 1.0)
            inner = np.where(spread > 0, 0.5 * _erfc(-z / math.sqrt(2.0)), 0.0)
            np.fill_diagonal(inner, 0.0)
            table = np.zeros((DECK_SIZE + 1, DECK_SIZE + 1))
            table[1:, 1:] = inner
            _PAIRS[key] = table
        return table

    def risk(self, obs: Observation) -> float:
        """The expected number of wrong orders that involve this bot's lowest card.

        Every value above the pile that this bot has not seen (not in its hand,
        not put aside face up) lies in another player's hand with the same
        chance, ``cards the others hold / unseen values``; each such value
        ``v`` and the bot's lowest card ``c`` go in the wrong order with the
        chance `wrong_order` (`mindwidget.sim.prob.p_wrong_order` gives the same).
        Close cards far above the pile are the dangerous ones: their waits are
        long, so their spreads overlap.
        """
        if not obs.hand:
            return 0.0
        top = known_top(obs)
        others = sum(obs.counts) - len(obs.hand)
        if others <= 0:
            return 0.0
        seen = set(obs.hand) | {c for _, c, _ in obs.discards if c is not None}
        unseen = [v for v in range(top + 1, DECK_SIZE + 1) if v not in seen]
        if not unseen:
            return 0.0
        table = self._pair_table()
        d = min(obs.hand[0] - top, DECK_SIZE)
        gaps = np.minimum(np.array(unseen) - top, DECK_SIZE)
        return float(others / len(unseen) * table[d, gaps].sum())

    # ------------------------------------------------------------ stars
    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        """As `StarPolicy` says; but never twice between two cards (a person waits
        to see a card played before asking for another star); and after a star
        was declined, not again while this bot still holds one of the cards it
        held near the pile then (its lowest and those within `DECLINED_NEAR`
        steps: the team said no to that situation, and a person asks again only
        once it has gone)."""
        self.observe(obs)
        if self._declined_near.intersection(obs.hand):
            return False
        for event in reversed(obs.events):
            if event["type"] == "played":
                break
            if event["type"] == "star_used":
                return False
        if self.star_policy.risk is None:
            return self.star_policy.wants_star(obs)
        return self.star_policy.wants_star_at(obs, self.risk(obs))

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        self.observe(obs)
        if self.star_policy.risk is None:
            return self.star_policy.vote(obs)
        return self.star_policy.vote_at(obs, self.risk(obs))

    def __repr__(self) -> str:
        return (
            f"HumanTimer(tempo={self._tempo:.3g}, floor={self.floor:g}, "
            f"cv_near={self.cv_near:g}, cv_far={self.cv_far:g}, rate={self.rate:g}, "
            f"hold={self.hold:g}, "
            f"propose_stars={self.propose_stars})"
        )


#: The default star policy of `HumanTimer`: by risk (see `StarPolicy`).
HUMAN_STAR_POLICY = StarPolicy(last_life_gap=8, risk=1.2, vote_risk=0.5)
