"""The class's model: its spread, its swaps, its clocks and its lessons, from its own plays.

A class has played (`mindwidget.classdata`); this module turns its plays back
into the mathematics of the lesson (model -> data -> prediction -> check),
with no server and no clock: pure functions of `classdata` frames and `Game`s.

* `spread` -- each pupil's and the class's spread per band of gaps: the
  coefficient of variation (cv = standard deviation / mean) of their waits
  for a given gap, with the number of plays each figure rests on;
* `class_spread` -- the one cv (and seconds per step) the normal model takes
  from the class: the bands' cvs pooled;
* `close_pairs` -- every pair of close cards (at most `CLOSE` apart) held by
  two different pupils, and whether the class played it in the wrong order;
* `simulated_swaps` -- the same chance from two bots with the class's spread
  (their own `plan`), beside `mindwidget.sim.prob.swap_chance`;
* `fit_clock`, `clocks` -- a bot clock per pupil fitted to their plays
  (`HumanTimer`, the people curve at the pupil's tempo and spread), shrunk
  toward the class when a pupil has few plays; `simulate(bots=...)` plays them;
* `predict_tables` -- the win rate of a team like each table's, simulated with
  their clocks, beside what the tables did (Wilson intervals, `LEVEL_COLUMNS`);
* `compare_answers` -- the class's predictions (`Classroom.answers()`) beside
  the right answers: who chose what, and how far off the class was;
* `lesson_summary` -- one row of figures for a lesson (`history`).

Every figure says how many plays, pairs, tables or games it rests on: a
figure on few of them is small data, and the tables say so (``small``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .bots import HumanTimer, ScalarTimer
from .bots.human import KNOT_GAPS, REACTION_FLOOR, REFERENCE_BANDS, band_label, band_of, curve_of
from .checks import finite, whole
from .classdata import Seats, seat_info
from .events import Dealt, GameLost, GameWon, LevelCleared, Mistake, Played, StarUsed
from .game import Game
from .sim import simulate, wilson_interval

__all__ = [
    "CLOSE",
    "LEVEL_COLUMNS",
    "PRIOR_PLAYS",
    "SMALL_PLAYS",
    "SPREAD_COLUMNS",
    "ClassData",
    "ClassSpread",
    "Clocks",
    "ClockFit",
    "class_spread",
    "clocks",
    "close_pairs",
    "compare_answers",
    "demo_class",
    "fit_clock",
    "lesson_summary",
    "model_for_pairs",
    "pooled_cv",
    "predict_tables",
    "rate",
    "Rate",
    "simulated_swaps",
    "spread",
    "swap_rate",
    "who_guessed",
]

#: Two cards at most this far apart are a close pair (40 and 45 are).
CLOSE = 5
#: A figure resting on fewer plays than this is named small data.
SMALL_PLAYS = 10
#: How many plays the class's own clock counts as, when a pupil's clock is fitted:
#: a pupil with n plays gets n / (n + 3) of their own tempo (in logs) and the rest
#: the class's (and their spread likewise, with n - 1 degrees of freedom).
PRIOR_PLAYS = 3
#: The least a wait above the reaction floor counts as in a fit (a pupil may tap
#: sooner than the floor of the people curve; a log needs a positive number).
MIN_ABOVE = 0.05

#: The columns of `spread`.
SPREAD_COLUMNS = ("name", "band", "plays", "mean", "sd", "cv", "small")
#: The columns of `predict_tables`' per-level table.
LEVEL_COLUMNS = (
    "level",
    "tables",
    "cleared",
    "rate",
    "low",
    "high",
    "predicted",
    "small",
)
#: The name of the class as a whole in `spread` (the pupils' names are nicknames).
CLASS = ""


def _people(plays: pd.DataFrame) -> pd.DataFrame:
    """A person's plays with a gap of at least 1 and a finite wait > 0."""
    ok = (plays["kind"] == "person") & (plays["gap"] >= 1) & np.isfinite(plays["wait"])
    out: pd.DataFrame = plays[ok & (plays["wait"] > 0)]
    return out


def _middle(band: int) -> float:
    """The middle gap of a band: the median gap of the human reference's band."""
    return KNOT_GAPS[band]


def _scaled(frame: pd.DataFrame) -> pd.Series:
    """Each wait scaled along the people curve to the middle gap of its band: the
    wait it would have been at that one gap (a band holds several gaps)."""
    bands = frame["gap"].map(band_of)
    middle = bands.map(_middle).to_numpy(dtype=float)
    at = REACTION_FLOOR + curve_of(frame["gap"].to_numpy(dtype=float))
    to = REACTION_FLOOR + curve_of(middle)
    return pd.Series(frame["wait"].to_numpy(dtype=float) * to / at, index=frame.index)


def _figures(waits: np.ndarray[Any, Any]) -> tuple[int, float, float, float]:
    n = len(waits)
    mean = float(waits.mean()) if n else math.nan
    sd = float(waits.std(ddof=1)) if n >= 2 else math.nan
    return n, mean, sd, sd / mean if n >= 2 and mean > 0 else math.nan


def spread(plays: pd.DataFrame) -> pd.DataFrame:
    """Each pupil's spread, and the class's, per band of gaps.

    ``plays``: a `mindwidget.classdata.plays` frame; only a person's plays with
    a gap of at least 1 count. Within a band the gaps differ (3 or 4 steps), so
    each wait is first scaled along the people curve to the band's middle gap
    (`bots.human.KNOT_GAPS`): the spread is then that of one gap. Columns
    (`SPREAD_COLUMNS`): ``name`` (the pupil; "" for the whole class, every
    pupil's plays together), ``band`` (as `bots.human.band_label` writes it),
    ``plays`` (how many the figure rests on), ``mean`` and ``sd`` of the waits
    (seconds), ``cv`` = sd / mean (NaN below 2 plays), ``small`` (fewer than
    `SMALL_PLAYS`). Bands nobody played in are left out.
    """
    mine = _people(plays)
    rows: list[dict[str, object]] = []
    if not mine.empty:
        scaled = _scaled(mine)
        bands = mine["gap"].map(band_of)
        groups = [(CLASS, mine.index)] + [
            (str(name), idx) for name, idx in mine.groupby("name", sort=True).groups.items()
        ]
        for name, idx in groups:
            for band in sorted(set(bands.loc[idx])):
                at = idx[bands.loc[idx].to_numpy() == band]
                n, mean, sd, cv = _figures(scaled.loc[at].to_numpy())
                rows.append(
                    {
                        "name": name,
                        "band": band_label(band),
                        "plays": n,
                        "mean": mean,
                        "sd": sd,
                        "cv": cv,
                        "small": n < SMALL_PLAYS,
                    }
                )
    out: pd.DataFrame = pd.DataFrame(rows, columns=list(SPREAD_COLUMNS)).astype(
        {"plays": "int64", "mean": float, "sd": float, "cv": float, "small": bool}
    )
    return out


@dataclass(frozen=True)
class ClassSpread:
    """The class's one spread for the normal model: ``cv`` (the bands' cvs of the
    whole class pooled, each weighted by its plays minus one), ``seconds_per_step``
    (the median of wait / gap over the class's plays), ``plays`` and ``bands``
    (how many plays and bands it rests on) and ``small`` (fewer than `SMALL_PLAYS`
    plays). ``cv`` is NaN when no band has two plays."""

    cv: float
    seconds_per_step: float
    plays: int
    bands: int
    small: bool


def pooled_cv(table: pd.DataFrame, name: str = CLASS) -> float:
    """One cv for ``name`` (default the whole class) from a `spread` table: its bands'
    cvs pooled, ``sqrt(sum((n - 1) cv^2) / sum(n - 1))`` over the bands with at least
    two plays (scalar timing: one cv at every gap); NaN if there are none."""
    rows = table[(table["name"] == name) & (table["plays"] >= 2)]
    weights = (rows["plays"] - 1).to_numpy(dtype=float)
    cvs = rows["cv"].to_numpy(dtype=float)
    return float(math.sqrt((weights * cvs**2).sum() / weights.sum())) if weights.sum() else math.nan


def class_spread(plays: pd.DataFrame) -> ClassSpread:
    """The class's spread for the normal model, from a `classdata.plays` frame.

    Scalar timing says one cv holds at every gap; the class's bands (`spread`,
    the rows of the whole class) are pooled: ``cv = sqrt(sum((n - 1) cv^2) /
    sum(n - 1))`` over the bands with at least two plays.
    """
    table = spread(plays)
    whole_class = table[(table["name"] == CLASS) & (table["plays"] >= 2)]
    cv = pooled_cv(table)
    mine = _people(plays)
    spp = float((mine["wait"] / mine["gap"]).median()) if not mine.empty else math.nan
    n = int(len(mine))
    return ClassSpread(cv, spp, n, int(len(whole_class)), n < SMALL_PLAYS)


# ------------------------------------------------------------------ swaps
def close_pairs(
    games: Mapping[int, Game], seats: Seats | None = None, close: int = CLOSE
) -> pd.DataFrame:
    """Every pair of cards ``a < b``, at most ``close`` apart, dealt to two different
    pupils, and whether it was played in the wrong order.

    A pair counts once one of its two cards is played: ``wrong`` is True when
    ``b`` was played while ``a`` was still held (a mistake), False when ``a`` went
    first. A pair of which a card went aside first (a throwing star, another
    mistake) was never put to the test and is left out. With ``seats`` (as for
    `classdata.plays`) only pairs both held by a person count; without, every seat
    counts. Columns: ``table``, ``level``, ``blind``, ``a``, ``b``, ``apart``
    (``b - a``), ``top`` (the pile when the pair was decided), ``wrong``.
    """
    whole("close", close, 1)
    rows: list[dict[str, object]] = []
    for number, game in sorted(games.items()):
        pairs: dict[tuple[int, int], tuple[int, int]] = {}  # (a, b) -> (seat a, seat b)
        held: dict[int, int] = {}  # card -> seat, while held
        level, blind, top = 0, False, 0
        for i, e in enumerate(game.events):
            if isinstance(e, Dealt):
                level, blind, top = e.level, e.blind, 0
                held = {c: p for p, hand in enumerate(e.hands) for c in hand}
                cards = sorted(held)
                pairs = {
                    (a, b): (held[a], held[b])
                    for j, a in enumerate(cards)
                    for b in cards[j + 1 :]
                    if b - a <= close and held[a] != held[b]
                }
            elif isinstance(e, Played):
                for (a, b), (pa, pb) in list(pairs.items()):
                    if e.card not in (a, b):
                        continue
                    del pairs[(a, b)]
                    if seats is not None:
                        kinds = {seat_info(seats, number, p, i)[0] for p in (pa, pb)}
                        if kinds != {"person"}:
                            continue
                    row: dict[str, object] = {"table": number, "level": level, "blind": blind}
                    row |= {"a": a, "b": b}
                    row |= {"apart": b - a, "top": top, "wrong": e.card == b}
                    rows.append(row)
                held.pop(e.card, None)
                top = e.card
            elif isinstance(e, (Mistake, StarUsed)):
                for d in e.discards:
                    held.pop(d.card, None)
                    for pair in [k for k in pairs if d.card in k]:
                        del pairs[pair]
    columns = ["table", "level", "blind", "a", "b", "apart", "top", "wrong"]
    types: dict[str, Any] = dict.fromkeys(["table", "level", "a", "b", "apart", "top"], "int64")
    out: pd.DataFrame = pd.DataFrame(rows, columns=columns).astype(
        types | {"blind": bool, "wrong": bool}
    )
    return out


@dataclass(frozen=True)
class Rate:
    """A share with its 95% Wilson interval (`sim.wilson_interval`): ``hits`` of
    ``trials``; ``small`` when fewer than `SMALL_PLAYS` trials."""

    hits: int
    trials: int
    rate: float
    low: float
    high: float
    small: bool


def rate(hits: int, trials: int) -> Rate:
    """``hits`` of ``trials`` as a `Rate` with its 95% Wilson interval (NaN for none)."""
    if trials < 1:
        return Rate(hits, 0, math.nan, math.nan, math.nan, True)
    low, high = wilson_interval(hits, trials)
    return Rate(hits, trials, hits / trials, low, high, trials < SMALL_PLAYS)


def swap_rate(pairs: pd.DataFrame) -> Rate:
    """How often the class's close pairs (`close_pairs`) went in the wrong order."""
    return rate(int(pairs["wrong"].sum()), int(len(pairs)))


def model_for_pairs(pairs: pd.DataFrame, cv: float, seconds_per_step: float = 1.0) -> float:
    """The normal model's chance of a swap (`prob.swap_chance`) for each of ``pairs``
    (`close_pairs`), from the pile as it was when the pair was decided, averaged:
    what the model expects of those very pairs (NaN without pairs)."""
    from .sim.prob import swap_chance

    if pairs.empty:
        return math.nan
    chances = [
        swap_chance(int(a), int(b), cv, seconds_per_step, int(top)).p
        for a, b, top in zip(pairs["a"], pairs["b"], pairs["top"], strict=True)
    ]
    return float(np.mean(chances))


def simulated_swaps(
    a: int, b: int, cv: float, seconds_per_step: float = 1.0, draws: int = 10_000, seed: int = 0
) -> Rate:
    """How often ``b`` goes before ``a`` when two bots with spread ``cv`` hold them:
    ``ScalarTimer(cv=cv, seconds_per_step=..., motor_sd=0)`` each plan their wait
    (their own `plan`, from one table at the start of a level), ``draws`` times."""
    draws = whole("draws", draws, 1)
    bot = ScalarTimer(cv=finite("cv", cv, above=0), seconds_per_step=seconds_per_step, motor_sd=0)
    first, second = bot.seat(0), bot.seat(1)
    game = Game.from_hands([[a], [b]])
    game.ready(t=0)
    obs_a, obs_b = game.observation(0), game.observation(1)
    rng = np.random.default_rng(seed)
    wrong = sum(second.plan(obs_b, rng) < first.plan(obs_a, rng) for _ in range(draws))
    return rate(int(wrong), draws)


# ------------------------------------------------------------------ clocks
@dataclass(frozen=True)
class ClockFit:
    """A pupil's clock: the people curve at their ``tempo`` with spread ``cv`` (of
    the wait above the reaction floor), fitted to ``plays`` of their plays.

    ``tempo_own`` and ``cv_own`` are the pupil's own figures (NaN for cv below two
    plays); ``tempo`` and ``cv`` are shrunk toward the class (`PRIOR_PLAYS`):
    what the bot plays. ``small``: fewer than `SMALL_PLAYS` plays."""

    name: str
    plays: int
    tempo: float
    cv: float
    tempo_own: float
    cv_own: float
    small: bool

    @property
    def bot(self) -> HumanTimer:
        """A bot that waits like this pupil: `HumanTimer` at the fitted tempo and
        spread, which keeps its tempo (``rate=0``), holds back no more than the pupil
        did in the fit (``hold=0``) and proposes no star (the fast engine plays it)."""
        return HumanTimer(
            tempo=self.tempo,
            cv_near=self.cv,
            cv_far=self.cv,
            rate=0,
            hold=0,
            propose_stars=False,
        )


def _log_ratios(gaps: Any, waits: Any, floor: float = REACTION_FLOOR) -> np.ndarray[Any, Any]:
    g = np.asarray(gaps, dtype=float)
    w = np.asarray(waits, dtype=float)
    if g.shape != w.shape or g.ndim != 1:
        raise ValueError(
            f"gaps and waits must be two lists of one length, not {g.shape} and {w.shape}."
        )
    if not (np.isfinite(g).all() and np.isfinite(w).all()) or (g < 1).any() or (w < 0).any():
        raise ValueError("gaps must be finite numbers >= 1 and waits finite numbers >= 0.")
    above = np.maximum(w - floor, MIN_ABOVE)
    out: np.ndarray[Any, Any] = np.log(above) - np.log(curve_of(g))
    return out


def _cv(sigma2: float) -> float:
    return math.sqrt(math.expm1(sigma2)) if math.isfinite(sigma2) else math.nan


def fit_clock(
    gaps: Any,
    waits: Any,
    name: str = "",
    prior: tuple[float, float] | None = None,
    prior_plays: float = PRIOR_PLAYS,
) -> ClockFit:
    """Fit the people curve's tempo and spread to one pupil's plays.

    The model (`HumanTimer`): ``wait = floor + tempo x curve(gap) x exp(sigma Z)``.
    With ``r = ln(wait - floor) - ln curve(gap)`` for each play, ``ln tempo`` is the
    mean of ``r`` and ``sigma`` its standard deviation; the spread as a cv is
    ``sqrt(exp(sigma^2) - 1)`` (a wait closer than 0.05 s above the floor counts
    as 0.05 s). ``prior``: the class's ``(ln tempo, sigma^2)``, toward which a pupil
    with ``n`` plays is shrunk: ``(n x own + k x class) / (n + k)`` for the log
    tempo, and ``sigma^2`` with ``n - 1`` and ``k`` degrees of freedom, ``k`` =
    ``prior_plays``. Without a prior the own figures are the clock's.
    """
    r = _log_ratios(gaps, waits)
    n = len(r)
    if n == 0:
        raise ValueError(f"{name or 'a pupil'}: a clock needs at least one play with a gap >= 1.")
    k = finite("prior_plays", prior_plays, 0)
    log_tempo = float(r.mean())
    sigma2 = float(r.var(ddof=1)) if n >= 2 else math.nan
    tempo_log, sig2 = log_tempo, sigma2
    if prior is not None:
        p_log, p_sig2 = prior
        tempo_log = (n * log_tempo + k * p_log) / (n + k)
        own = (n - 1) * sigma2 if n >= 2 else 0.0
        sig2 = (own + k * p_sig2) / (max(n - 1, 0) + k) if max(n - 1, 0) + k > 0 else math.nan
    if not math.isfinite(sig2):
        sig2 = 0.0  # one play and no class to lean on: no spread can be seen
    return ClockFit(
        name=name,
        plays=n,
        tempo=math.exp(tempo_log),
        cv=_cv(sig2),
        tempo_own=math.exp(log_tempo),
        cv_own=_cv(sigma2),
        small=n < SMALL_PLAYS,
    )


class Clocks(dict[str, HumanTimer]):
    """Each pupil's clock as a bot, by nickname (`fit_clock`): a ``dict`` of
    `HumanTimer`s, so ``simulate(players=3, bots=[c["Anna"], c["Bram"], c["Cas"]])``
    plays a team like theirs; `team` picks one. ``fits``: each pupil's `ClockFit`;
    ``table()``: the fits as a DataFrame; ``tempo`` and ``cv``: the class's own clock
    (every pupil's plays together; ``plays`` of them)."""

    def __init__(self, fits: Sequence[ClockFit], tempo: float, cv: float, plays: int) -> None:
        super().__init__((f.name, f.bot) for f in fits)
        self.fits = {f.name: f for f in fits}
        self.tempo, self.cv, self.plays = tempo, cv, plays

    def team(self, names: Sequence[str], players: int | None = None) -> list[HumanTimer]:
        """The clocks of ``names``, seat by seat; seats beyond them (up to ``players``)
        get the class's own clock."""
        missing = [n for n in names if n not in self]
        if missing:
            raise ValueError(f"no clock for {missing}; the class's clocks: {sorted(self)}.")
        team = [self[n] for n in names]
        extra = (players or len(team)) - len(team)
        return team + [self.class_bot() for _ in range(max(extra, 0))]

    def class_bot(self) -> HumanTimer:
        """A bot that waits like the class as a whole (its tempo and spread)."""
        fit = ClockFit("", self.plays, self.tempo, self.cv, self.tempo, self.cv, False)
        return fit.bot

    def table(self) -> pd.DataFrame:
        """One row per pupil: name, plays, tempo, cv (what the bot plays), tempo_own,
        cv_own (the pupil's own fit), small."""
        columns = ["name", "plays", "tempo", "cv", "tempo_own", "cv_own", "small"]
        rows = [{c: getattr(f, c) for c in columns} for f in self.fits.values()]
        out_: pd.DataFrame = pd.DataFrame(rows, columns=columns)
        return out_

    def __repr__(self) -> str:
        return f"Clocks({len(self)} pupils, class tempo {self.tempo:.2f}, cv {self.cv:.2f})"


def clocks(plays: pd.DataFrame, prior_plays: float = PRIOR_PLAYS) -> Clocks:
    """A clock per pupil fitted to their plays (`fit_clock`), shrunk toward the class.

    ``plays``: a `classdata.plays` frame (a person's plays with a gap >= 1 count).
    The class's clock: the log tempo is the mean over every pupil's plays, and
    sigma^2 the pupils' spreads pooled (each pupil around their own tempo), so
    the differences between pupils stay in their tempos.
    """
    mine = _people(plays)
    if mine.empty:
        return Clocks([], math.nan, math.nan, 0)
    r = pd.Series(_log_ratios(mine["gap"], mine["wait"]), index=mine.index)
    groups = r.groupby(mine["name"])
    dof = (groups.size() - 1).clip(lower=0)
    within = float((groups.var(ddof=1).fillna(0) * dof).sum())
    sig2 = within / float(dof.sum()) if dof.sum() > 0 else math.nan
    class_log = float(r.mean())
    prior = (class_log, sig2 if math.isfinite(sig2) else 0.0)
    fits = [
        fit_clock(mine.loc[idx, "gap"], mine.loc[idx, "wait"], str(name), prior, prior_plays)
        for name, idx in mine.groupby("name", sort=True).groups.items()
    ]
    return Clocks(fits, math.exp(class_log), _cv(prior[1]), int(len(mine)))


# ------------------------------------------------------------------ predictions
def _outcomes(game: Game) -> list[tuple[int, bool]]:
    """(level, cleared) for each level of ``game`` that has ended (blind mode left out)."""
    out: list[tuple[int, bool]] = []
    level, blind = 0, False
    for e in game.events:
        if isinstance(e, Dealt):
            level, blind = e.level, e.blind
        elif blind:
            continue
        elif isinstance(e, (LevelCleared, GameWon)):
            if not out or out[-1][0] != level:
                out.append((level, True))
        elif isinstance(e, GameLost):
            out.append((level, False))
    return out


def _table_names(plays: pd.DataFrame, table: int, players: int) -> list[str | None]:
    """Who played each seat of a table most: a pupil's nickname, or None (a bot)."""
    mine = plays[(plays["table"] == table) & (plays["kind"] == "person")]
    names: list[str | None] = []
    for seat in range(players):
        at = mine[mine["player"] == seat]["name"]
        names.append(str(at.mode().iloc[0]) if not at.empty else None)
    return names


def predict_tables(
    games: Mapping[int, Game],
    plays: pd.DataFrame,
    fitted: Clocks | None = None,
    games_each: int = 1000,
    seed: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each table's team, as clocks, simulated ``games_each`` times, beside what the
    table did.

    A pupil's seat plays their clock (`clocks`); a seat no pupil played plays the
    class's clock. Returns two tables. Per table: ``table``, ``players``
    (a tuple of nicknames, seat by seat; None for a seat no pupil played: the
    class's clock plays it), ``simulated`` (games), ``win_rate`` with ``win_low``
    and ``win_high`` (95% Wilson interval), ``level_mean`` (the mean level reached
    in the simulation), ``reached`` (the highest level the table played) and
    ``won`` (True, False, or None while its game goes on). Per level
    (`LEVEL_COLUMNS`): how many tables ended it, how many cleared it, that share
    with its 95% Wilson interval, ``predicted`` (the simulated chance of clearing
    it, averaged over the tables that ended it) and ``small`` (fewer than
    `SMALL_PLAYS` tables).
    """
    fitted = clocks(plays) if fitted is None else fitted
    per_table: list[dict[str, object]] = []
    levels: dict[int, list[tuple[bool, float]]] = {}
    for number, game in sorted(games.items()):
        names = _table_names(plays, number, game.players)
        if not any(names) or not len(fitted):
            continue
        team = [fitted[n] if n is not None and n in fitted else fitted.class_bot() for n in names]
        result = simulate(
            game.players,
            bots=team,
            games=games_each,
            seed=seed + number,
            keep="summary",
            rules=game.rules,
            progress=False,
        )
        summary = result.summary()
        clear = result.by_level()["clear_rate"]
        outcomes = _outcomes(game)
        for level, cleared in outcomes:
            levels.setdefault(level, []).append((cleared, float(clear.get(level, 0.0))))
        status = str(game.status)
        won = True if status == "won" else False if status == "lost" else None
        per_table.append(
            {
                "table": number,
                "players": tuple(names),
                "simulated": summary.games,
                "win_rate": summary.win_rate,
                "win_low": summary.win_rate_low,
                "win_high": summary.win_rate_high,
                "level_mean": summary.mean_level_reached,
                "reached": max((lv for lv, _ in outcomes), default=game.level),
                "won": won,
            }
        )
    tables = pd.DataFrame(
        per_table,
        columns=[
            "table",
            "players",
            "simulated",
            "win_rate",
            "win_low",
            "win_high",
            "level_mean",
            "reached",
            "won",
        ],
    )
    rows = []
    for level in sorted(levels):
        seen = levels[level]
        r = rate(sum(c for c, _ in seen), len(seen))
        rows.append(
            {
                "level": level,
                "tables": r.trials,
                "cleared": r.hits,
                "rate": r.rate,
                "low": r.low,
                "high": r.high,
                "predicted": float(np.mean([p for _, p in seen])),
                "small": r.small,
            }
        )
    return tables, pd.DataFrame(rows, columns=list(LEVEL_COLUMNS))


# ------------------------------------------------------------------ predictions of the class
ANSWER_COLUMNS = (
    "question",
    "text",
    "pupil",
    "name",
    "table",
    "choice",
    "choice_text",
    "right",
    "seconds",
)


def _right_choice(group: pd.DataFrame) -> int | None:
    """The right choice of a question from its answers' ``right`` column (True where a
    pupil's choice is right), or None for a question of opinion or none right."""
    right = group["right"]
    known = right[right.notna()]
    if known.empty:
        return None
    hits = group.loc[known.index[known.astype(bool).to_numpy()], "choice"]
    return int(hits.iloc[0]) if not hits.empty else None


def _number(text: object) -> float:
    """The first number in a choice's text ("27%", "1,5 s"), or NaN."""
    import re

    found = re.search(r"-?\d+(?:[.,]\d+)?", str(text))
    return float(found.group(0).replace(",", ".")) if found else math.nan


def compare_answers(answers: pd.DataFrame) -> pd.DataFrame:
    """The class's predictions beside the right answers, one row per question.

    ``answers``: one row per pupil and question, with the columns of
    ``Classroom.answers()`` (`ANSWER_COLUMNS`; ``right`` is True where that pupil's
    choice is the right one, False where not, and empty for a question of
    opinion). Columns: ``question``, ``text``, ``answers`` (how many pupils
    answered), ``right_text`` (the right choice, "" if none), ``right`` (how many
    chose it), ``share`` (right / answers), ``most_text`` (the choice most pupils
    took), ``off`` (the mean distance of the guesses from the right choice, in
    choices: 0 if all were right, 1 if all were one choice away) and ``off_value``
    (the same in the choices' own numbers, when each choice's text starts with
    one: "20%" -> 20), ``small`` (fewer than `SMALL_PLAYS` answers).
    """
    missing = [
        c
        for c in ("question", "text", "name", "choice", "choice_text", "right")
        if c not in answers
    ]
    if missing:
        raise ValueError(
            f"answers: missing columns {missing}; expected those of Classroom.answers(): "
            f"{', '.join(ANSWER_COLUMNS)}."
        )
    rows = []
    for question, group in answers.groupby("question", sort=True):
        n = int(len(group))
        right = _right_choice(group)
        counts = group["choice"].value_counts()
        most = int(counts.index[0]) if n else -1
        texts = group.drop_duplicates("choice").set_index("choice")["choice_text"]
        row: dict[str, object] = {
            "question": question,
            "text": str(group["text"].iloc[0]),
            "answers": n,
            "right_text": "" if right is None else str(texts.get(right, "")),
            "right": 0 if right is None else int((group["choice"] == right).sum()),
            "share": math.nan,
            "most_text": str(texts.get(most, "")),
            "off": math.nan,
            "off_value": math.nan,
            "small": n < SMALL_PLAYS,
        }
        if right is not None and n:
            row["share"] = row["right"] / n  # type: ignore[operator]
            row["off"] = float((group["choice"] - right).abs().mean())
            values = group["choice_text"].map(_number)
            truth = _number(texts.get(right, ""))
            if values.notna().all() and math.isfinite(truth):
                row["off_value"] = float((values - truth).abs().mean())
        rows.append(row)
    columns = [
        "question",
        "text",
        "answers",
        "right_text",
        "right",
        "share",
        "most_text",
        "off",
        "off_value",
        "small",
    ]
    out_: pd.DataFrame = pd.DataFrame(rows, columns=columns)
    return out_


def who_guessed(answers: pd.DataFrame) -> pd.DataFrame:
    """Who guessed what: one row per pupil (``name``), one column per question (its
    ``question`` number), each cell the text of that pupil's choice and whether it
    was right (``(text, True/False/None)``; None for an opinion), or None where the
    pupil did not answer. Pupils in the order of their names."""
    missing = [c for c in ("question", "name", "choice_text", "right") if c not in answers]
    if missing:
        raise ValueError(
            f"answers: missing columns {missing}; expected {', '.join(ANSWER_COLUMNS)}."
        )
    questions = sorted(set(answers["question"]))
    rows = []
    for name, group in answers.groupby("name", sort=True):
        row: dict[object, object] = {"name": str(name)}
        by_question = group.drop_duplicates("question", keep="last").set_index("question")
        for q in questions:
            if q not in by_question.index:
                row[q] = None
                continue
            right = by_question.loc[q, "right"]
            known = (
                None
                if right is None or (isinstance(right, float) and math.isnan(right))
                else bool(right)
            )
            row[q] = (str(by_question.loc[q, "choice_text"]), known)
        rows.append(row)
    out: pd.DataFrame = pd.DataFrame(rows, columns=["name", *questions])
    return out


# ------------------------------------------------------------------ lessons
SUMMARY_COLUMNS = (
    "plays",
    "pupils",
    "cv",
    "levels",
    "mistakes_per_level",
    "level_mean",
    "level_max",
    "tables",
)


def lesson_summary(plays: pd.DataFrame, results: pd.DataFrame) -> dict[str, object]:
    """One lesson in figures (`SUMMARY_COLUMNS`): ``plays`` (a person's plays with a
    gap), ``pupils``, ``cv`` (`class_spread`), ``levels`` (levels played at all
    tables, blind mode left out), ``mistakes_per_level`` (cards played too early per
    level played), ``level_mean`` and ``level_max`` (the highest level each table
    reached: mean and highest) and ``tables``."""
    people = _people(plays)
    spread_ = class_spread(plays)
    normal = results[~results["blind"]] if not results.empty else results
    reached = normal.groupby("table")["level"].max() if not normal.empty else pd.Series(dtype=int)
    return {
        "plays": int(len(people)),
        "pupils": int(people["name"].nunique()),
        "cv": spread_.cv,
        "levels": int(len(normal)),
        "mistakes_per_level": float(normal["mistakes"].mean()) if len(normal) else math.nan,
        "level_mean": float(reached.mean()) if len(reached) else math.nan,
        "level_max": int(reached.max()) if len(reached) else 0,
        "tables": int(len(reached)),
    }


def bands() -> list[str]:
    """The bands' names, in order ("1", "2", "3-4", ... "25+")."""
    return [band_label(i) for i in range(len(REFERENCE_BANDS))]


# ------------------------------------------------------------------ a class's data
@dataclass
class ClassData:
    """A class's games and who held each seat, read like a running `Classroom`:
    `plays`, `results`, `games`, `clocks`. ``label``: what it is ("class 4711,
    3 December 2026" or a demo); ``demo``: True for a simulated class (no real
    pupils: every figure then describes the model); ``day``: the lesson's date
    (ISO, or "" if unknown)."""

    tables: dict[int, Game]
    seats: dict[int, list[dict[str, Any]]]
    label: str = ""
    demo: bool = False
    day: str = ""
    same_deal: bool = False
    #: the class's code ("" for a demo)
    code: str = ""
    #: the class's answers to the lesson's questions (`Classroom.answers()`), if any
    answers: Any = None

    def plays(self) -> pd.DataFrame:
        from .classdata import plays

        return plays(self.tables, self.seats)

    def results(self) -> pd.DataFrame:
        from .classdata import results

        return results(self.tables)

    def games(self) -> dict[int, Game]:
        return {n: g.copy() for n, g in self.tables.items()}

    def clocks(self) -> Clocks:
        return clocks(self.plays())


def demo_class(pupils: int = 12, size: int = 3, seed: int = 7, label: str = "demo") -> ClassData:
    """A simulated class (not people): ``pupils`` bots at tables of ``size``, one game
    each, every pupil a `HumanTimer` with a tempo of its own (lognormal around the
    people curve's 1.0, sigma 0.3) and a spread of its own (cv from 0.08 to 0.35,
    evenly), adapting a little to the others (``rate=0.1``). A lesson without a
    class's own plays shows this, and says so (``demo=True``)."""
    from .bots.runner import run_game

    pupils = whole("pupils", pupils, 1, 200)
    size = whole("size", size, 2, 4)
    rng = np.random.default_rng(seed)
    tempos = np.exp(rng.normal(0.0, 0.3, pupils))
    cvs = rng.uniform(0.08, 0.35, pupils)
    tables: dict[int, Game] = {}
    seats: dict[int, list[dict[str, Any]]] = {}
    for number, start in enumerate(range(0, pupils, size), start=1):
        who = list(range(start, min(start + size, pupils)))
        team = [
            HumanTimer(
                tempo=float(tempos[i]), cv_near=float(cvs[i]), cv_far=float(cvs[i]), rate=0.1
            )
            for i in who
        ]
        while len(team) < size:
            team.append(HumanTimer())
        game = Game(players=size, seed=seed * 1000 + number)
        tables[number] = run_game(game, team, seed=seed * 1000 + number)
        seats[number] = [
            {
                "seat": s,
                "kind": "person" if s < len(who) else "bot",
                "name": f"P{who[s] + 1}" if s < len(who) else f"Bot {s + 1}",
            }
            for s in range(size)
        ]
    return ClassData(tables, seats, label=label, demo=True)
