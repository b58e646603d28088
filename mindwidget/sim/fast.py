"""The fast engine: a second implementation of the rules, vectorised over many games.

`Game` (mindwidget/game.py) is the rules. This engine plays the same rules for
thousands of games at once on NumPy arrays, level by level, one public event
per step, for the stationary timers only (`FAST_TIMERS`, `fast_engine_reason`).
Where it can, it calls the core's own rule; where speed needs arrays, it
implements a rule again. Each rule (the R-numbers of ``tests/core/test_rules.py``
and ARCHITECTURE.md's rule table):

=====  ===============================================  ==================================
rule   what                                             here
=====  ===============================================  ==================================
R1     levels, lives, stars by player count             the core's `Rules` (not again)
R2     level n deals n cards each, fresh shuffle        AGAIN: `_deal` (`_draw`,
                                                        `_sorting_network`, `_by_seat`:
                                                        another random stream, the same
                                                        distribution)
R3     a seat plays its own lowest card                 AGAIN: `_play` (``ptr`` per seat);
                                                        `_last_hand` (the cards left all in
                                                        one hand, `_Level.holding`: played
                                                        out at once)
R6     a card played over a lower held card costs a     AGAIN: `_play` (``mistake``: every
       life; every lower card is discarded              hand's cards <= the played card go)
R7     a star: each seat with cards discards its        AGAIN: `_Star.throw` (the proposal
       lowest; spent into the supply or the box;        and votes by the default
       one no declines                                  `StarPolicy`)
R7     the star is used when the vote is unanimous      the core's `Rules.unanimous`
R8     rewards on clearing a level, capped by the box   the core's `Rules.reward`
R9     lost at once at 0 lives; won after the last      AGAIN: `_play` (``done``), `_end`,
       level                                            `_record`, `fast_block` (the level
                                                        loop)
=====  ===============================================  ==================================

A bot's model, not a rule, is also implemented again: `_planned_waits` (each
timer kind's ``plan``, its normals by `_normals` or, for two or three equal
lognormal seats, `_race_by_differences`) and `_held`
(`HumanTimer.hold_factor`: what the others still hold, counted from the
arrays), held to the bots by the same test.

Not played here: R4/R5 (time stamps, hands on the table: a seat re-plans
from every event instead), R10 (blind mode: `simulate` stops at the win), R11
(the seats read arrays, not observations).

The equivalence test that holds the AGAIN rows to the core:
``tests/bots/test_sim.py::test_fast_and_reference_engines_agree`` (the fast engine
against the reference engine, which is the runner on real `Game` objects,
for eight teams, two of them equal lognormal seats raced by differences:
win rate, level reached, lives lost, stars used and left, mistakes per
level), with ``test_house_rules_are_played_by_both_engines`` (fewer levels,
one life, stars spent into the box) and ``test_rewards_are_capped_by_the_box``
(R8, both engines). That the comparison can fail:
``test_the_comparison_fails_on_a_wrong_reward``,
``test_the_comparison_fails_on_a_wrong_noise`` and
``test_the_comparison_fails_on_a_wrong_race`` (the same statistics against
an engine with a rule or a model changed on purpose). The deal's sort on its
own: ``test_the_deals_sorting_network_sorts_any_hand`` (the 0-1 principle)
and ``test_a_deal_holds_each_seats_cards_sorted``.

Speed (``benchmarks/sim.py`` prints the figures): a step costs a
few dozen whole-array operations, so the engine avoids the expensive ones:
normals by Box and Muller on float32 (`_normals`, a third of the ziggurat's
time), log waits for lognormal teams (no ``exp``), one table for a team of
equal seats, and for two or three equal lognormal seats a race by
differences from seat 0 (`_race_by_differences`: one normal fewer per game
and step, the same first actor in distribution), a branch-free first actor
(`_first_to_act`: seat 1 against seat 0 is the comparison itself, later
seats by a maximum), hands sorted by a sorting network across all games
(`_sorting_network`; one sort per game costs mostly its calls), the counts
that ended games keep in one array (`_Counts`), handed over as they are when
a level never dropped a row, a level's mistakes from its lives (no counter),
the last hand by a count of the seats holding cards (`_Level.holding`), no
event at all for a hand that plays out alone (`_last_hand`), and a block's
totals summed as its levels end, with no rows at all for ``keep="summary"``
(`fast_block`) and the rows for ``keep="games"`` put by game with one
stable sort of a block's game numbers where they go into the table
(`results.collect_tables`), not a sort by game and level beforehand. Within a
step: a mistake's discards counted by ``argmin`` over the sorted hands
taken with ``take(axis=1)`` (a sum over the short card axis
costs three times as much, fancy indexing ten times), the first actor
counted in int8, each seat's lowest card in int16 (as the hands), a value
cast before a scatter rather than in it, ``nonzero()`` rather than
``flatnonzero``, a sum rather than ``count_nonzero(axis=...)``, and the
Box-Muller uniforms made by float32's exponent (no integer-to-float
conversion). Tried and slower, or no faster: blocks larger than 8192 games
(16384 to 65536 lost 5-12% once; 12288 and 16384 were within the noise
since), a vectorised Fisher-Yates deal, the repeated draws resolved all at
once (a mark array: twice the time) or in waves per game (2.5 times),
SFC64 (its raw numbers only 14% faster: not worth another stream), per-seat
tables by position in the sorted deal (the deal's tables cost 11 ms a
level against 0.7 for the sort), the last hand from the length of the
highest run of one hand (more at the deal than it saved), dropping ended
games at half the rows (slower), ``np.where`` or ``copyto(where=)`` for the
first actor, ``take(mode="wrap")``, an int16 pointer and a draw-major
layout of the draws (within the noise), and a flat cursor into the hands
instead of the pointer (no clamp and no index arithmetic a step, but the
hands copied into a buffer with a tail for the inert games: 1-8% slower).
Tried for the deal in a second round (`_draw` alone, 8,192 games, levels 1
to 10, one run each): every draw at once with an owner table (each
(game, card) written by one draw, the others drawn again round by round:
1.1 to 1.9 times the time, also with int8 owners), the repeats only marked
column by column and drawn again all together afterwards (1.3 to 1.5
times), a bit set of 13 bytes per game instead of the table of flags (1.15
times: more operations a column), and 16-bit draws from ``random_raw`` by
``%`` or Lemire's multiply (slower than `numpy.random.Generator.integers`
itself). The column loop costs its scattered reads and writes of the table
(about 100 us a column of 8,192 games in place, 30 us with the table in
cache), not its calls. And for ``keep="games"``: each block's rows made by
game, then level, in the block (a scatter a level and column, the game and
level columns counted out; `results.collect_tables` then copies them without a
sort): the same tables, 0.98 to 1.14 times the time in four A/B runs of
50,000 games, as `collect_tables` costs its first touch of the tables' fresh
memory (page faults: 9-10 ms for the 18 MB of 50,000 games' columns,
against 1.5 ms for the same copies into memory in use), not its sort; one
allocation for all columns (huge pages by NumPy's ``madvise``) gave 2 to 49
ms (the kernel's compaction), not worth it. Nor the level rows handed to
`collect_tables` as they ended (no block copy at all, one scatter a level and
column straight into the tables): 2,700 page faults fewer of 15,700, the
same tables, 0.98 to 1.04 times the time in three A/B runs.
Any of these may change the random
stream (and so the results for a seed), never the distribution: the race by
differences changed it for lognormal teams of two or three equal seats.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..bots import Bot, HumanTimer, PerfectTimer, ScalarTimer, StarPolicy
from ..bots.human import HOLD_P_MIN, curve
from ..rules import DECK_SIZE, Rules
from .results import (
    LEVEL_COLUMNS,
    BoolArray,
    FloatArray,
    IntArray,
    Keep,
    LevelTotals,
    Rows,
    spread_of,
)

#: How the fast engine draws a seat's wait (see `_planned_waits`).
TimerKind = Literal["normal", "lognormal", "human"]

#: The bot classes the fast engine plays (exactly these: a subclass may plan differently).
FAST_TIMERS: tuple[type[Bot], ...] = (PerfectTimer, ScalarTimer, HumanTimer)


def fast_engine_reason(team: Sequence[Bot], rules: Rules | None = None) -> str | None:
    """Why the fast engine cannot play this team under these rules (None: it can)."""
    for p, bot in enumerate(team):
        if type(bot) not in FAST_TIMERS:
            names = " and ".join(t.__name__ for t in FAST_TIMERS)
            return (
                f"seat {p} is a {type(bot).__name__}; the fast engine plays only "
                f"{names} (not subclasses: their plan may differ)"
            )
        if type(bot.star_policy) is not StarPolicy:
            return (
                f"seat {p} has a {type(bot.star_policy).__name__}; the fast engine plays "
                "only the default StarPolicy rules (with any parameters)"
            )
        if isinstance(bot, HumanTimer) and bot.rate != 0:
            return (
                f"seat {p} is a HumanTimer that adapts its tempo (rate={bot.rate:g}); the "
                "fast engine plays a HumanTimer only with rate=0"
            )
        if isinstance(bot, HumanTimer) and bot.propose_stars:
            return (
                f"seat {p} is a HumanTimer that proposes stars (at its reaction floor, never "
                "twice between cards); the fast engine plays a HumanTimer only with "
                "propose_stars=False"
            )
    proposes = any(b.propose_stars for b in team)
    for p, bot in enumerate(team):
        if proposes and bot.star_policy.risk is not None:
            return (
                f"seat {p} votes on stars by risk (StarPolicy(risk=...)); the fast engine "
                "plays only the StarPolicy rules by gap"
            )
    if rules is not None and rules.deck >= NONE - 1:
        return f"a deck of {rules.deck} cards; the fast engine handles up to {NONE - 2}"
    return None


def _timer_kind(bot: Bot) -> TimerKind:
    """The fast engine's timing model of one of the `FAST_TIMERS`."""
    if isinstance(bot, ScalarTimer):
        return bot.noise
    if isinstance(bot, HumanTimer):
        return "human"
    return "normal"  # PerfectTimer: a normal wait with no noise at all


@dataclass(frozen=True)
class _Seats:
    """Per-seat parameters of a stationary team, as arrays."""

    kind: tuple[TimerKind, ...]
    spp: FloatArray
    cv: FloatArray
    motor: FloatArray
    propose: BoolArray
    close: IntArray
    last_life_gap: IntArray
    vote_gap: IntArray
    #: the HumanTimer of each seat (None for the other kinds): its curve and spread
    human: tuple[HumanTimer | None, ...] = ()

    @classmethod
    def of(cls, team: Sequence[Bot]) -> _Seats:
        def arr(f: Callable[[Bot], float], dtype: type) -> Any:
            return np.array([f(b) for b in team], dtype=dtype)

        return cls(
            kind=tuple(_timer_kind(b) for b in team),
            spp=arr(lambda b: b.seconds_per_step, np.float64),
            cv=arr(lambda b: getattr(b, "cv", 0.0), np.float64),
            motor=arr(lambda b: getattr(b, "motor_sd", 0.0), np.float64),
            propose=arr(lambda b: b.propose_stars, np.bool_),
            close=arr(lambda b: b.star_policy.close, np.int64),
            last_life_gap=arr(lambda b: b.star_policy.last_life_gap, np.int64),
            vote_gap=arr(lambda b: b.star_policy.vote_gap, np.int64),
            human=tuple(b if isinstance(b, HumanTimer) else None for b in team),
        )


NONE = 30_000  # "no card": above every card, and far above every gap


# R2 AGAIN (see the header): n cards each from a fresh shuffle
def _draw(rng: np.random.Generator, g: int, total: int, deck: int) -> npt.NDArray[np.int16]:
    """``g`` games' ``total`` different cards each, in the order dealt: (g, total).

    Cards are drawn one at a time, uniformly from the deck, and a card already
    dealt in that game is drawn again: each draw is uniform over the cards
    left, exactly like `Game`'s ``random.sample``; draw ``j`` goes to seat
    ``j // k`` (k cards each). Cheaper than sorting 100 random keys per game:
    ``total`` draws, few of them repeated; the draws again come from a pool
    drawn at once, as one call per repeat costs more than the numbers.
    """
    width = deck + 1
    taken = np.zeros(g * width, dtype=np.bool_)
    base = np.arange(g) * width
    cards = rng.integers(1, deck + 1, size=(g, total), dtype=np.int16)
    pool_size = g * total * total // width + 256  # about the repeats expected
    pool = rng.integers(1, deck + 1, size=pool_size, dtype=np.int16)
    used = 0
    for j in range(total):
        c = cards[:, j]  # a view: the draws again land in ``cards``
        idx = c.astype(np.intp)  # (widened, then added: a mixed-type sum costs a third more)
        idx += base
        clash = taken.take(idx).nonzero()[0]
        while clash.size:
            if used + clash.size > pool.size:
                pool = rng.integers(1, deck + 1, size=max(pool_size, clash.size), dtype=np.int16)
                used = 0
            new = pool[used : used + clash.size]
            used += clash.size
            c[clash] = new
            idx[clash] = base[clash] + new
            clash = clash[taken[idx[clash]]]
        taken[idx] = True
    return cards


# R2 AGAIN (see the header): the hands sorted
def _by_seat(cards: npt.NDArray[np.int16], k: int, deck: int) -> npt.NDArray[np.int16]:
    """Each game's cards sorted, seat by seat: ``seat * (deck + 1) + card`` sorted
    in one sort per game (far cheaper than one per hand), the key taken off again.
    (The key fits int16 for every deck and player count the rules allow.)"""
    offset = (np.arange(cards.shape[1], dtype=np.int16) // k) * np.int16(deck + 1)
    keyed: npt.NDArray[np.int16] = cards + offset
    keyed.sort(axis=1)
    keyed -= offset
    return keyed


#: The largest hand sorted by a sorting network (`_sorting_network`); larger hands
#: (house rules only) by one sort per game (`_by_seat`).
NETWORK_MAX = 12


# R2 AGAIN (see the header): the hands sorted
@functools.lru_cache(maxsize=NETWORK_MAX + 1)
def _sorting_network(k: int) -> tuple[tuple[int, int], ...]:
    """R2 again (the hands sorted; see the header): the comparators (i, j), i < j, of
    Batcher's odd-even merge sort of ``k`` values (Knuth, TAOCP 5.3.4), for the next
    power of two with those beyond ``k`` left out (they would compare with a value
    above all: no exchange). 32 for 10 values."""
    size = 1
    while size < k:
        size *= 2
    out = []
    p = 1
    while p < size:
        q = p
        while q >= 1:
            for j in range(q % p, size - q, 2 * q):
                for i in range(min(q, size - j - q)):
                    if (i + j) // (2 * p) == (i + j + q) // (2 * p) and i + j + q < k:
                        out.append((i + j, i + j + q))
            q //= 2
        p *= 2
    return tuple(out)


# R2 AGAIN (see the header): the hands dealt
def _deal(rng: np.random.Generator, g: int, n: int, k: int, deck: int) -> npt.NDArray[np.int16]:
    """``g`` deals of ``k`` cards to each of ``n`` players, seat-major and sorted.

    Shape (n, g, k+2); columns ``k`` and ``k+1`` hold the sentinel `NONE`. A
    hand of up to `NETWORK_MAX` cards is sorted by a sorting network across
    all hands at once (a minimum and a maximum of whole arrays per
    comparator: a third of the time of one sort per game for three hands of
    three cards, three quarters for ten; a sort of many short rows costs
    mostly its calls).
    """
    hands = np.full((n, g, k + 2), NONE, dtype=np.int16)
    cards = _draw(rng, g, n * k, deck)
    if k > NETWORK_MAX:
        hands[:, :, :k] = _by_seat(cards, k, deck).reshape(g, n, k).transpose(1, 0, 2)
        return hands
    by_card = np.ascontiguousarray(cards.T).reshape(n, k, g)  # draw j goes to seat j // k
    column = [by_card[:, i] for i in range(k)]
    for i, j in _sorting_network(k):
        column[i], column[j] = np.minimum(column[i], column[j]), np.maximum(column[i], column[j])
    for i in range(k):
        hands[:, :, i] = column[i]
    return hands


class _Timing:
    """Per-seat wait tables by gap: mean and noise scale, ``inf`` for no card.

    A table has `NONE` + 1 entries, so that ``low - top`` indexes it as it is
    (a seat with no card has a gap of at least ``NONE - deck``: ``inf``); only
    the first ``deck + 1`` entries and the last few are ever read.
    """

    def __init__(self, seats: _Seats, deck: int) -> None:
        n = seats.spp.size
        lognormal = np.array([k == "lognormal" for k in seats.kind])
        gaps = np.arange(deck + 2, dtype=np.float64)
        mean = seats.spp[:, None] * gaps[None, :]
        normal_sd = np.sqrt((seats.cv[:, None] * mean) ** 2 + seats.motor[:, None] ** 2)
        sd = np.where(lognormal[:, None], 0.0, normal_sd)
        #: "human": the median above the floor in ``mean``, the log spread in ``sd``
        self.floor = [0.0] * n
        #: "human": how much each seat holds back (`HumanTimer.hold`; 0 for the others)
        self.hold = np.zeros(n)
        for s, bot in enumerate(seats.human):
            if bot is not None:
                mean[s] = [bot.tempo * curve(g) for g in gaps]
                sd[s] = [bot.sigma(g) for g in gaps]
                self.floor[s] = bot.floor
                self.hold[s] = bot.hold
        self.holds = bool(self.hold.any())
        #: log(k!) for k up to the largest count of unseen values (see `_held`)
        self.log_fact = np.concatenate(
            ([0.0], np.cumsum(np.log(np.arange(1, max(deck, DECK_SIZE) + 2))))
        )
        # Gap 0 (an inert game, see `_Level.end`) and deck+1 (no card): never first.
        mean[:, [0, deck + 1]] = np.inf
        sd[:, [0, deck + 1]] = 0.0
        self.kind = seats.kind
        self.cv = [float(x) for x in seats.cv]
        #: a normal seat whose wait can be cut at 0 (ties at 0 are possible)
        self.clip = [
            seats.kind[s] == "normal" and bool((mean[s, 1:] - 9 * sd[s, 1:] < 0).any())
            for s in range(n)
        ]
        self.clip_any = any(self.clip)
        #: a seat without noise (ties between different gaps are possible)
        self.exact = any(
            self.cv[s] == 0 and (seats.kind[s] == "lognormal" or seats.motor[s] == 0)
            for s in range(n)
        ) or any(
            bool((sd[s, 1 : deck + 1] == 0).any()) for s in range(n) if seats.kind[s] == "human"
        )
        #: every seat lognormal: compare log waits, log m + cv Z (the same order, no exp)
        self.log_keys = all(k == "lognormal" for k in seats.kind)
        if self.log_keys:
            with np.errstate(divide="ignore"):
                mean = np.log(mean)
        # float32 is plenty for a wait (7 digits) and halves the memory traffic.
        self.mean32 = _wide(mean, deck)
        self.sd32 = _wide(sd, deck)
        #: every seat the same: one table for all of them (no per-seat loop)
        self.same = n > 0 and all(
            self.kind[s] == self.kind[0]
            and self.floor[s] == self.floor[0]
            and self.clip[s] == self.clip[0]
            and self.cv[s] == self.cv[0]
            and np.array_equal(mean[s], mean[0])
            and np.array_equal(sd[s], sd[0])
            for s in range(n)
        )
        self.cv32 = np.array(self.cv, dtype=np.float32)[:, None]


def _wide(table: FloatArray, deck: int) -> npt.NDArray[np.float32]:
    """A (seats, deck + 2) table as float32, widened to `NONE` + 1 entries with the last."""
    out = np.empty((table.shape[0], NONE + 1), dtype=np.float32)
    out[:, : deck + 2] = table
    out[:, deck + 2 :] = table[:, deck + 1 : deck + 2]
    return out


def _held(timing: _Timing, lv: _Level, stars: bool) -> npt.NDArray[np.float32]:
    """Each seat's `HumanTimer.hold_factor` in every game: (seats, games).

    The same count as `mindwidget.bots.stars.chance_next`, from the arrays: the
    values above the pile that a seat has not seen (not its own cards, not a
    card discarded face up to a star: a card gone from a hand that lies above
    the pile), those between the pile and its lowest card, and the others'
    cards; then ``p = C(unseen - between, others) / C(unseen, others)`` and the
    factor ``max(p, HOLD_P_MIN) ** -hold``.
    """
    n, a = lv.low.shape
    level = lv.hands.shape[2] - 2
    top = lv.top.astype(np.int64)[None, :]
    low = lv.low.astype(np.int64)
    has = low < NONE
    own = np.maximum(level - lv.ptr, 0)
    others = np.maximum(own.sum(axis=0)[None, :] - own, 0)
    highest = lv.hands[:, :, max(level - 1, 0)].astype(np.int64)
    deck = np.maximum(np.maximum(highest, top), DECK_SIZE)
    deck = np.where(has, deck, DECK_SIZE)
    unseen = deck - top - own
    between = low - top - 1
    if stars:
        cards = lv.hands[:, :, :level].astype(np.int64)  # (seats, games, level)
        gone = (np.arange(level)[None, None, :] < lv.ptr[:, :, None]) & (cards > top[:, :, None])
        up = np.where(gone, cards, NONE)  # the face-up discards above the pile, per seat
        unseen -= gone.sum(axis=(0, 2))[None, :]
        flat = up.transpose(1, 0, 2).reshape(a, -1)  # (games, seats * level)
        between -= (flat[None, :, :] < low[:, :, None]).sum(axis=2)
    ok = has & (others > 0) & (between >= 0) & (unseen >= between)
    unseen = np.where(ok, unseen, 0)
    between = np.where(ok, between, 0)
    others = np.where(ok, others, 0)
    room = unseen - between - others
    lf = timing.log_fact
    log_p = (
        lf[np.maximum(unseen - between, 0)]
        - lf[np.maximum(room, 0)]
        - lf[unseen]
        + lf[np.maximum(unseen - others, 0)]
    )
    p = np.where(room >= 0, np.exp(np.minimum(log_p, 0.0)), 0.0)
    factor = np.maximum(p, HOLD_P_MIN) ** -timing.hold[:, None]
    return np.where(ok, factor, 1.0).astype(np.float32)


def _normals(
    rng: np.random.Generator, shape: tuple[int, int], scale: float = 1.0
) -> npt.NDArray[np.float32]:
    """Standard normals of ``shape`` times ``scale``, two from every two uniforms
    (Box and Muller 1958).

    float32 throughout, where NumPy's log, sqrt, cos and sin are vectorised,
    and the uniforms straight from the bit generator (`random_raw`): 23-bit
    integers ``k`` put under float32's exponent of 1 (``1 + U``, ``U = k /
    2**23``: no integer-to-float conversion). About a third of the time of
    `numpy.random.Generator.standard_normal` (ziggurat, one number at a time),
    which was the largest single cost of a step. ``1 - U`` lies in (0, 1], so
    every radius is finite and ``|Z| <= sqrt(46 ln 2) = 5.65`` (the normal
    lies beyond with probability 2e-8).
    """
    size = shape[0] * shape[1]
    half = (size + 1) // 2
    r, angle = _polar(rng, half, scale)
    z = np.empty((2, half), dtype=np.float32)
    np.cos(angle, out=z[0])
    np.sin(angle, out=z[1])
    z *= r
    return z.reshape(-1)[:size].reshape(shape)


def _polar(
    rng: np.random.Generator, half: int, scale: float
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """``half`` radii ``scale * R`` and angles of Box and Muller (see `_normals`):
    ``R cos(angle)`` and ``R sin(angle)`` are two independent standard normals."""
    raw = rng.bit_generator.random_raw(half).view(np.uint32).reshape(2, half)
    # 23 random bits under float32's exponent of 1: f = 1 + k / 2**23 in [1, 2), no conversion
    bits = raw >> np.uint32(9)
    bits |= np.uint32(0x3F800000)
    f = bits.view(np.float32)
    # R = sqrt(-2 ln(1 - U)) with 1 - U = 2 - f in (0, 1]; the scale inside the root
    r = np.subtract(np.float32(2.0), f[0])
    np.log(r, out=r)
    r *= np.float32(-2.0 * scale * scale)
    np.sqrt(r, out=r)
    angle = f[1]  # 2 pi f = 2 pi U + 2 pi: the same sine and cosine
    angle *= np.float32(2 * np.pi)
    return r, angle


def _race_by_differences(
    rng: np.random.Generator, keys: npt.NDArray[np.float32], cv: float
) -> None:
    """Add to two or three seats' log means (``keys``, (seats, games)) noise that
    orders them as ``log m + cv Z`` does, with one normal fewer per game.

    Only the order of the keys counts (`_first_to_act`), and taking seat 0's
    ``cv Z_0`` from every key keeps it: seat 0's key is its log mean, and the
    others get ``cv (Z_s - Z_0)``. For two seats that is one normal of
    variance 2; for three, a pair of variance 2 and covariance 1, which one
    Box-Muller pair gives exactly: ``sqrt 2 R cos(angle)`` and ``sqrt 2 R
    cos(angle - pi/3)`` (= ``sqrt 2 (Y1 / 2 + sqrt(3) / 2 Y2)``). The same
    distribution of the first actor, from two thirds of the random numbers and
    of the passes.
    """
    n, a = keys.shape
    scale = float(np.sqrt(2.0)) * cv
    if n == 2:
        keys[1] += _normals(rng, (1, a), scale)[0]
        return
    r, angle = _polar(rng, a, scale)
    c = np.cos(angle)
    c *= r
    keys[1] += c
    angle -= np.float32(np.pi / 3)
    np.cos(angle, out=c)
    c *= r
    keys[2] += c


def _planned_waits(
    timing: _Timing,
    gap: IntArray,
    rng: np.random.Generator,
    held: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """Each seat's planned wait from this moment, for every game: (seats, games).

    The one place that knows each timer kind's model (the same as its bot's
    ``plan``, with fresh noise at every event). ``gap`` is each seat's lowest
    card minus the top of the pile; a seat with no card has a gap of at least
    ``NONE - deck`` and waits for ever. One standard normal per seat and game
    is drawn first (`_normals`), whatever the kinds. With every seat
    lognormal (`_Timing.log_keys`) the result is the log of the wait,
    ``log m + cv Z``: the same order, so the same seat acts first. To add a
    kind: name it in `TimerKind`, map its bot in `_timer_kind` (and
    `FAST_TIMERS`), give `_Seats` and `_Timing` its parameters, and add its
    branch here; draw any further random numbers after ``z`` and only when a
    seat of that kind plays, so that the other kinds' results stay what they
    are for a seed. Say in `_Timing.exact` / `_Timing.clip` whether two of its
    waits can be exactly equal. ``held``: each "human" seat's hold factor
    (`_held`), None for 1.
    """
    mean: npt.NDArray[np.float32]
    if timing.same and timing.log_keys:  # log m + cv Z, one table for every seat
        mean = timing.mean32[0].take(gap)
        if gap.shape[0] in (2, 3):
            _race_by_differences(rng, mean, timing.cv[0])
        else:
            mean += _normals(rng, gap.shape, timing.cv[0])
        return mean
    z = _normals(rng, gap.shape)
    if timing.same and timing.kind[0] != "human":  # one table for every seat
        mean = timing.mean32[0].take(gap)
        z *= timing.sd32[0].take(gap)  # "normal": max(0, m + sd Z)
        mean += z
        if timing.clip_any:
            np.maximum(mean, 0.0, out=mean)
        return mean
    if timing.log_keys:
        wait = _per_seat(timing.mean32, gap)
        z *= timing.cv32
        wait += z
        return wait
    wait = np.empty(gap.shape, dtype=np.float32)
    for s, kind in enumerate(timing.kind):
        mean = timing.mean32[s].take(gap[s])
        if kind == "lognormal":  # m * exp(cv Z)
            np.multiply(mean, np.exp(timing.cv[s] * z[s]), out=wait[s])
        elif kind == "human":  # floor + tempo curve(gap) held exp(sigma(gap) Z)
            np.multiply(mean, np.exp(timing.sd32[s].take(gap[s]) * z[s]), out=wait[s])
            if held is not None:
                wait[s] *= held[s]
            wait[s] += timing.floor[s]
        else:  # "normal": max(0, m + sd Z), sd = sqrt((cv m)^2 + motor^2)
            np.multiply(timing.sd32[s].take(gap[s]), z[s], out=wait[s])
            wait[s] += mean
            if timing.clip[s]:
                np.maximum(wait[s], 0.0, out=wait[s])
    return wait


@functools.lru_cache(maxsize=64)
def _arange(n: int) -> npt.NDArray[np.intp]:
    """``np.arange(n)``, made once for each ``n`` (read-only)."""
    out = np.arange(n)
    out.flags.writeable = False
    return out


def _per_seat(table: npt.NDArray[np.float32], gap: IntArray) -> npt.NDArray[np.float32]:
    """``table[s, gap[s, g]]`` for every seat s and game g: one gather."""
    width = table.shape[1]
    offset = (np.arange(gap.shape[0]) * width)[:, None]
    out: npt.NDArray[np.float32] = table.reshape(-1).take(gap + offset)
    return out


def _first_to_act(
    timing: _Timing, wait: npt.NDArray[np.float32], rng: np.random.Generator
) -> npt.NDArray[np.intp]:
    """The seat with the smallest wait in each game; ties broken at random."""
    n, a = wait.shape
    # argmin over a short axis 0, written out without branches: np.argmin(axis=0)
    # copies the array, and a masked copy (np.where) mispredicts on random masks.
    # The seat counted in int8 (a few seats; an eighth of intp's bytes), widened once at the end.
    if n == 1:
        first = wait[0].copy()
        who8 = np.zeros(a, dtype=np.int8)
    else:  # seat 1 against seat 0: the seat is the comparison itself
        first = np.minimum(wait[0], wait[1])
        who8 = np.less(wait[1], wait[0]).view(np.int8)
    ties = timing.exact or timing.clip_any  # (then the smallest wait itself is needed)
    for s in range(2, n):
        earlier = np.less(wait[s], first).view(np.int8)
        if s < n - 1 or ties:
            np.minimum(first, wait[s], out=first)
        # s is above every seat before it: where s is earlier, the maximum is s
        earlier *= np.int8(s)
        np.maximum(who8, earlier, out=who8)
    who = who8.astype(np.intp)
    if ties:
        if timing.exact:
            tied = ((wait == first).sum(axis=0) > 1) & np.isfinite(first)
        else:
            tied = first == 0
            if tied.any():
                tied &= (wait == 0).sum(axis=0) > 1
        if tied.any():
            t = tied.nonzero()[0]
            keys = rng.random((n, t.size))
            keys[wait[:, t] != first[t]] = -1.0
            who[t] = np.argmax(keys, axis=0)
    return who


class _Counts:
    """Each game's counts, rows of one (5, games) array: ended games are recorded
    with one copy (`_record`), not five."""

    counts: IntArray

    #: the rows of ``counts``: what the level's results take from a game when it ends
    ENDED = ("lives", "stars", "boxed", "mistakes", "stars_used")

    def _row(self, i: int) -> IntArray:
        row: IntArray = self.counts[i]
        return row

    @property
    def lives(self) -> IntArray:
        return self._row(0)

    @property
    def stars(self) -> IntArray:
        return self._row(1)

    @property
    def boxed(self) -> IntArray:  # stars spent into the box (``spent_stars="box"``)
        return self._row(2)

    @property
    def mistakes(self) -> IntArray:
        return self._row(3)

    @property
    def stars_used(self) -> IntArray:
        return self._row(4)


@dataclass
class _Level(_Counts):
    """One level of the games still playing it; arrays are seat-major (seats, games).

    Games that end their level become inert (no cards, a count of seats with
    cards that never comes down to 1 again) and are dropped once they are
    three quarters of the rows (`compact`).
    """

    hands: npt.NDArray[np.int16]  # (seats, games, level + 2): sorted, `NONE` after the cards
    ptr: npt.NDArray[np.intp]  # each seat's lowest card, as an index into its hand
    low: npt.NDArray[np.int16]  # each seat's lowest card (`NONE`: no card)
    floor: npt.NDArray[np.int16]  # each seat's public floor (its discards to stars)
    top: npt.NDArray[np.int16]  # the top of the pile (int16, as the hands)
    declined: BoolArray  # a star proposal was declined since the last play
    holding: IntArray  # how many seats hold cards (`_last_hand`)
    #: (5, games): `_Counts.ENDED`, but while the level is played the "mistakes" row
    #: holds mistakes + lives, the lives at the deal (a mistake moves one from one to
    #: the other; `_play_level` takes the lives off at the end)
    counts: IntArray
    row: npt.NDArray[np.intp]  # the game's row in this level's results
    live: BoolArray

    @classmethod
    def deal(
        cls,
        rng: np.random.Generator,
        rules: Rules,
        level: int,
        lives: IntArray,
        stars: IntArray,
        boxed: IntArray,
    ) -> _Level:
        n, g = rules.players, lives.size
        hands = _deal(rng, g, n, level, rules.deck)
        counts = np.zeros((len(cls.ENDED), g), dtype=np.int64)
        counts[0], counts[1], counts[2], counts[3] = lives, stars, boxed, lives
        return cls(
            hands=hands,
            ptr=np.zeros((n, g), dtype=np.intp),
            low=hands[:, :, 0].copy(),
            floor=np.zeros((n, g), dtype=np.int16),
            top=np.zeros(g, dtype=np.int16),
            declined=np.zeros(g, dtype=np.bool_),
            holding=np.full(g, n, dtype=np.int64),
            counts=counts,
            row=np.arange(g),
            live=np.ones(g, dtype=np.bool_),
        )

    def compact(self) -> None:
        """Drop the inert games' rows (C order, so that flat views stay views)."""
        keep = self.live
        for f in fields(self):
            value = getattr(self, f.name)
            sub = value[:, keep] if value.ndim > 1 else value[keep]
            setattr(self, f.name, np.ascontiguousarray(sub))


@dataclass
class _Outcome(_Counts):
    """A level's results, one row per game that played it (filled in as games end)."""

    cleared: BoolArray
    counts: IntArray  # (5, games): `_Counts.ENDED`

    def column(self, name: str) -> npt.NDArray[Any]:
        """This level's values of a column of `LEVEL_COLUMNS` (cleared and the counts)."""
        if name == "cleared":
            return self.cleared
        return self._row(self.ENDED.index(name))

    @classmethod
    def empty(cls, g: int) -> _Outcome:
        counts = np.zeros((len(cls.ENDED), g), dtype=np.int64)
        return cls(cleared=np.zeros(g, dtype=np.bool_), counts=counts)


class _Star:
    """The default `StarPolicy` of every seat, as arrays: who proposes, who agrees."""

    def __init__(self, seats: _Seats, rules: Rules) -> None:
        self.rules = rules
        self.any = bool(seats.propose.any())
        self.propose = seats.propose[:, None]
        self.close = seats.close[:, None]
        self.last_life_gap = seats.last_life_gap[:, None]
        self.vote_gap = seats.vote_gap[:, None]
        self.box = rules.spent_stars == "box"

    # R7 AGAIN (see the header): a star's discards; the vote by Rules.unanimous
    def throw(self, lv: _Level, done: BoolArray) -> npt.NDArray[np.intp] | None:
        """Propose, vote and use a star where the policy says so.

        Returns the rows that go on to a play (None: all of them): a game with
        a proposal (used or declined) has its event already. Marks in ``done``
        the games that a star ended.
        """
        cand = (lv.stars > 0) & ~lv.declined
        if not cand.any():
            return None
        n, a = lv.low.shape
        low, top, ptr = lv.low, lv.top, lv.ptr
        width = lv.hands.shape[2]
        hflat = lv.hands.reshape(-1)
        has = low < NONE
        one_life = lv.lives == 1
        floors = np.where(has, np.maximum(top, lv.floor), NONE)
        other_min = np.empty_like(floors)
        for s in range(n):
            others = [floors[q] for q in range(n) if q != s]
            other_min[s] = np.minimum.reduce(others) if others else NONE
        rowbase = (np.arange(n)[:, None] * a + np.arange(a)[None, :]) * width
        second = hflat[rowbase + np.minimum(ptr + 1, width - 1)]
        d1 = low - top
        d2 = second - top
        wants = (
            self.propose
            & has
            & (
                ((d2 <= self.close) & (other_min < second))
                | (one_life & (d1 <= self.last_life_gap) & (other_min < low))
            )
        )
        prop = cand & wants.any(axis=0)
        if not prop.any():
            return None
        agree = ~has | one_life | (d1 <= self.vote_gap) | wants
        use = prop & self.rules.unanimous(np.count_nonzero(agree, axis=0))  # R7: the core's vote
        lv.declined |= prop & ~use
        if use.any():
            u = use.nonzero()[0]
            hu = has[:, u]
            lv.floor[:, u] = np.where(hu, low[:, u], lv.floor[:, u])
            ptr[:, u] += hu
            idx = (np.arange(n)[:, None] * a + u[None, :]) * width + ptr[:, u]
            low[:, u] = hflat[idx]
            lv.stars[u] -= 1
            if self.box:
                lv.boxed[u] += 1
            lv.stars_used[u] += 1
            holding = (low[:, u] < NONE).sum(axis=0)
            lv.holding[u] = holding
            done[u] = holding == 0
        rows: npt.NDArray[np.intp] = (~prop).nonzero()[0]
        return rows


# R3, R6, R9 AGAIN (see the header): the lowest card, a mistake's life and discards, lost
def _play(
    lv: _Level,
    who: npt.NDArray[np.intp],
    rows: npt.NDArray[np.intp] | None,
    done: BoolArray,
    stars: bool = True,
) -> None:
    """``who`` plays its lowest card in the games ``rows`` (None: all); a mistake costs a life.

    Marks in ``done`` the games that ended: no lives, or every card left in
    one hand (`_last_hand`). ``stars`` False: no seat proposes a star, so no
    proposal is ever declined (``declined`` stays False). A seat that plays
    its last card stops holding cards; after a mistake the seats are counted
    again.
    """
    n, a = lv.low.shape
    level = lv.hands.shape[2] - 2
    width = level + 2
    hflat, pflat, lflat = lv.hands.reshape(-1), lv.ptr.reshape(-1), lv.low.reshape(-1)
    top, holding = lv.top, lv.holding
    if rows is None:  # every game plays: whole-array operations, no fancy indexing
        pos = who * a
        pos += _arange(a)
        card = lflat.take(pos)
        mistake = card > lv.low.min(axis=0)
        top[:] = card
        if stars:
            lv.declined[:] = False
        m = mistake.nonzero()[0]
    else:
        pos = who.take(rows)
        pos *= a
        pos += rows
        card = lflat.take(pos)
        mistake = card > lv.low[:, rows].min(axis=0)
        top[rows] = card
        lv.declined[rows] = False
        m = rows[mistake]
    nxt = pflat.take(pos)
    nxt += 1
    np.minimum(nxt, width - 1, out=nxt)  # inert rows stay on the sentinel
    pflat[pos] = nxt  # (fancy assignment: faster than ``put``)
    hidx = pos * width
    hidx += nxt
    new = hflat.take(hidx)
    lflat[pos] = new
    if rows is None:
        holding -= new == NONE
    else:
        holding[rows] -= new == NONE
    if m.size:
        # Everyone discards the cards below the played one (the mistake rule).
        below = lv.hands.take(m, axis=1) <= top.take(m)[None, :, None]
        # each seat's cards gone: the hand is sorted, so they are the first ones, and
        # the first card kept is the first False (there is one: the sentinels)
        p = below.argmin(axis=2)
        lv.ptr[:, m] = p
        idx = _arange(n)[:, None] * a + m
        idx *= width
        idx += p
        low = hflat.take(idx)
        lv.low[:, m] = low
        holding[m] = (p < level).sum(axis=0)  # (count_nonzero with an axis costs 3 times)
        lives = lv.counts[0]  # (the mistake itself is counted by the lives: see `_Level`)
        after = lives.take(m)
        after -= 1
        lives[m] = after
        done[m] = after <= 0  # R9: lost at once (``done`` was False for every row played)
    _last_hand(lv, done)


# R3 AGAIN (see the header): the last hand plays out (its own lowest card each time)
def _last_hand(lv: _Level, done: BoolArray) -> None:
    """Mark in ``done`` the games whose cards left are all in one hand (or none are left).

    That hand plays them in order: each is the lowest card held, so no
    mistake and no star proposal can come (`StarPolicy.wants_star` needs
    another seat with cards); the level is cleared. Playing them out one
    event at a time would change nothing but the time it takes. (Inert games
    count far more seats than there are.)
    """
    done |= lv.holding <= 1


# R9 AGAIN (see the header): a game ends with its level cleared or its lives gone
def _end(lv: _Level, done: BoolArray) -> int:
    """Make the games that ended inert; return how many.

    An inert game has no cards (every wait is for ever, so it plays `NONE`
    and changes nothing) and a count of seats with cards that never comes
    down to 1 again. Its counts stay as they were: `_record` takes them when the game
    is dropped (`_Level.compact`) or the level is over, one copy for many
    games instead of one per step.
    """
    d = done.nonzero()[0]
    lv.low[:, d] = NONE
    lv.holding[d] = 10**9
    lv.live[d] = False
    return d.size


# R9 AGAIN (see the header): a game with lives left when it ended cleared the level
def _record(lv: _Level, outcome: _Outcome) -> None:
    """Record the inert games in ``outcome``: with lives left, a game cleared the level."""
    d = (~lv.live).nonzero()[0]
    row = lv.row.take(d)
    outcome.counts[:, row] = lv.counts.take(d, axis=1)
    outcome.cleared[row] = lv.lives.take(d) > 0


def _play_level(lv: _Level, timing: _Timing, star: _Star, rng: np.random.Generator) -> _Outcome:
    """Play one level in every game to its end: one public event per step."""
    outcome = _Outcome.empty(lv.top.size)
    done = np.zeros(lv.top.size, dtype=np.bool_)
    _last_hand(lv, done)  # a level of one card each for a team of one
    n_live = lv.top.size - _end(lv, done) if done.any() else lv.top.size
    while n_live:
        a = lv.top.size
        done = np.zeros(a, dtype=np.bool_)
        rows = star.throw(lv, done) if star.any else None
        # Plays: every seat re-plans from this moment with fresh noise.
        gap = (lv.low - lv.top).astype(np.intp)  # (in int16, then widened: half the time)
        held = _held(timing, lv, star.any) if timing.holds else None
        who = _first_to_act(timing, _planned_waits(timing, gap, rng, held), rng)
        _play(lv, who, rows, done, star.any)
        if done.any():
            n_live -= _end(lv, done)
            if n_live and n_live * 4 < a:
                _record(lv, outcome)
                lv.compact()
    if lv.row.size == outcome.cleared.size:  # never compacted: the rows are the games
        outcome.counts, outcome.cleared = lv.counts, lv.lives > 0  # (every game ended)
    else:
        _record(lv, outcome)
    outcome.mistakes[:] -= outcome.lives  # mistakes + lives, less the lives (see `_Level`)
    return outcome


def fast_block(
    rules: Rules,
    team: Sequence[Bot],
    games: int,
    seed: np.random.SeedSequence,
    first: int,
    keep: Keep = "games",
) -> tuple[LevelTotals, Rows | None]:
    """Play ``games`` whole games of stationary timers; return their `LevelTotals` and,
    with ``keep="games"``, one row per level reached, level by level (each level's
    games in order; None otherwise).

    The same model as the runner, one public event per step for all games at
    once: every seat re-plans with fresh noise after every event, so the next
    actor is the seat with the smallest fresh wait (ties broken at random); a
    proposal (the default `StarPolicy`) comes before any wait. The games that
    clear a level go on to the next; ``first`` numbers them. The totals are
    summed level by level as the levels end (no rows for them).
    """
    rng = np.random.default_rng(seed)
    seats = _Seats.of(team)
    timing = _Timing(seats, rules.deck)
    star = _Star(seats, rules)
    spread = spread_of(team)
    lives = np.full(games, rules.start_lives, dtype=np.int64)
    stars = np.full(games, rules.stars, dtype=np.int64)
    boxed = np.zeros(games, dtype=np.int64)
    alive = np.arange(games)
    played = np.zeros(rules.n_levels, dtype=np.int64)
    sums = {c: np.zeros(rules.n_levels, dtype=np.int64) for c in _SUMMED}
    ended: list[tuple[IntArray, _Outcome]] = []
    for level in range(1, rules.n_levels + 1):
        g = alive.size
        if g == 0:
            break
        lv = _Level.deal(rng, rules, level, lives[alive], stars[alive], boxed[alive])
        end = _play_level(lv, timing, star, rng)
        # R8: the rewards for the cleared levels, by the core's own rule.
        _, life, star_gain = rules.reward(level, end.lives, end.stars, end.boxed)
        if life is not False:
            end.lives[:] += end.cleared & life
        if star_gain is not False:
            end.stars[:] += end.cleared & star_gain
        lives[alive] = end.lives
        stars[alive] = end.stars
        boxed[alive] = end.boxed
        played[level - 1] = g
        for c in _SUMMED:
            sums[c][level - 1] = end.column(c).sum()
        if keep == "games":
            ended.append((alive, end))
        alive = alive[end.cleared]
    totals = LevelTotals.of_levels(played, sums, spread)
    if keep != "games":
        return totals, None
    rows: Rows = {
        "game": np.concatenate([alive for alive, _ in ended]) + first,
        "level": np.repeat(
            np.arange(1, len(ended) + 1, dtype=np.int64), [alive.size for alive, _ in ended]
        ),
        **{
            c: np.concatenate([end.column(c) for _, end in ended])
            for c in LEVEL_COLUMNS
            if c not in ("game", "level", "tempo_spread")
        },
    }
    rows["tempo_spread"] = np.full(rows["game"].size, spread)
    return totals, {c: rows[c] for c in LEVEL_COLUMNS}


#: the summed columns of `LevelTotals` that the fast engine adds up itself (the tempo
#: spread is one number for a stationary team: `LevelTotals.of_levels`)
_SUMMED = tuple(c for c in LevelTotals.SUMMED if c not in LevelTotals.FRACTIONAL)
