"""The Monte Carlo lab: results, engines, executors, progress, cooperation, bad input.

Statistical tolerances. Seeds are fixed, so every run gives the same numbers;
the tolerances say how far apart two correct samplers may land:

* a rate or a mean: |difference| < 4 standard errors of the difference
  (two-sample z; a correct pair fails about once in 16,000 seeds);
* a distribution (levels reached): the two-sample Kolmogorov-Smirnov statistic
  below its 0.1% critical value, 1.95 x sqrt((n + m) / (n m)) (conservative
  for a discrete variable).
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from conformance import seed_test

from mindwidget import sim
from mindwidget.bots import AdaptiveTimer, Bot, HumanTimer, PerfectTimer, ScalarTimer, StarPolicy
from mindwidget.game import Observation
from mindwidget.rules import SETUP, RuleError, Rules
from mindwidget.sim import BLOCK, SimResult, simulate, wilson_interval
from mindwidget.sim import fast as fast_engine

Z = 4.0
KS_001 = 1.95


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    # spawn: safe even if a thread (a Dask cluster) is running in this process.
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        yield ex


def z_rate(a: pd.Series, b: pd.Series) -> float:
    pa, pb = a.mean(), b.mean()
    pooled = (a.sum() + b.sum()) / (len(a) + len(b))
    se = math.sqrt(pooled * (1 - pooled) * (1 / len(a) + 1 / len(b)))
    return 0.0 if se == 0 else float((pa - pb) / se)


def z_mean(a: pd.Series, b: pd.Series) -> float:
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return 0.0 if se == 0 else float((a.mean() - b.mean()) / se)


def ks(a: pd.Series, b: pd.Series) -> tuple[float, float]:
    """The two-sample KS statistic and its 0.1% critical value."""
    grid = np.union1d(a.to_numpy(), b.to_numpy())
    fa = np.searchsorted(np.sort(a.to_numpy()), grid, side="right") / len(a)
    fb = np.searchsorted(np.sort(b.to_numpy()), grid, side="right") / len(b)
    n, m = len(a), len(b)
    return float(np.abs(fa - fb).max()), KS_001 * math.sqrt((n + m) / (n * m))


# ------------------------------------------------------------------ results
def test_wilson_interval_known_values() -> None:
    # Wilson (1927); e.g. Newcombe (1998), table I.
    low, high = wilson_interval(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(81, 263)
    assert (low, high) == pytest.approx((0.2553, 0.3662), abs=1e-3)


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_one_row_per_game_and_one_per_level_reached(engine: str) -> None:
    games = 300 if engine == "fast" else 40
    r = simulate(
        3, ScalarTimer(cv=0.2, propose_stars=True), games, seed=3, engine=engine, progress=False
    )
    assert isinstance(r, SimResult) and r.engine == engine
    g, lv = r.games, r.levels
    assert list(g["game"]) == list(range(games))
    levels, lives = SETUP[3]
    per = lv.groupby("game")
    assert (g["level_reached"] == per["level"].max()).all()
    assert (per["level"].min() == 1).all() and (per.size() == g["level_reached"]).all()
    assert (g["levels_cleared"] == per["cleared"].sum()).all()
    assert (g["won"] == (g["levels_cleared"] == levels)).all()
    assert (g["lives_lost"] == per["mistakes"].sum()).all()
    assert (g["stars_used"] == per["stars_used"].sum()).all()
    lost = g[~g["won"]]
    assert (lost["lives_left"] == 0).all() and (
        lost["levels_cleared"] == lost["level_reached"] - 1
    ).all()
    # Every level but the last one of a game was cleared.
    not_last = lv[lv["level"] < lv["game"].map(g.set_index("game")["level_reached"])]
    assert not_last["cleared"].all()
    s = r.summary()
    assert s.games == games and s.wins == int(g["won"].sum())
    assert s.win_rate_low <= s.win_rate <= s.win_rate_high
    assert s.mean_level_reached == pytest.approx(g["level_reached"].mean())
    assert "95% CI" in str(s)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_rewards_are_capped_by_the_box(players: int, engine: str) -> None:
    """Perfect timers never lose a life: every reward is earned, and 5 lives / 3 stars cap it."""
    r = simulate(players, PerfectTimer(), games=20, seed=1, engine=engine, progress=False)
    assert r.games["won"].all() and (r.games["lives_lost"] == 0).all()
    levels, lives = SETUP[players]
    rules = Rules(players=players)
    earned_lives = sum(1 for lv, w in rules.rewards.items() if w == "life" and lv <= levels)
    earned_stars = sum(1 for lv, w in rules.rewards.items() if w == "star" and lv <= levels)
    assert (r.games["lives_left"] == min(5, lives + earned_lives)).all()
    assert (r.games["stars_left"] == min(3, 1 + earned_stars)).all()


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_same_seed_same_result_other_seed_other_result(engine: str) -> None:
    games = 2000 if engine == "fast" else 200
    seed_test(
        lambda seed: (
            simulate(3, ScalarTimer(), games, seed=seed, engine=engine, progress=False).levels
        ),
        seed=7,
        other_seed=8,
        same=pd.testing.assert_frame_equal,
        differ=lambda a, c: not a.equals(c),
    )


def test_auto_takes_the_fast_engine_when_it_applies() -> None:
    assert simulate(2, "scalar", 10, progress=False).engine == "fast"
    assert simulate(2, "perfect", 10, progress=False).engine == "fast"
    assert (
        simulate(2, ["perfect", ScalarTimer(noise="lognormal")], 10, progress=False).engine
        == "fast"
    )
    assert simulate(2, "adaptive", 5, progress=False).engine == "reference"
    fixed = HumanTimer(rate=0, propose_stars=False)
    assert simulate(2, fixed, 10, progress=False).engine == "fast"
    assert simulate(2, "human", 2, progress=False).engine == "reference"
    assert simulate(2, [fixed, ScalarTimer(propose_stars=True)], 2, progress=False).engine == (
        "reference"  # a star vote by risk
    )

    class Mine(ScalarTimer):
        pass

    assert simulate(2, Mine(), 5, progress=False).engine == "reference"

    class Bold(StarPolicy):
        def wants_star(self, obs: Observation) -> bool:
            return True

    bold = ScalarTimer(propose_stars=True, star_policy=Bold())
    assert simulate(2, bold, 5, progress=False).engine == "reference"
    with pytest.raises(ValueError, match="engine='fast' cannot play this team: seat 0 is a "):
        simulate(2, "adaptive", 5, engine="fast", progress=False)


# ------------------------------------------------------------------ the two engines agree
SETTINGS = {
    "2 players, cv 0.10, no stars": (2, ScalarTimer(cv=0.1)),
    "3 players, cv 0.20, stars": (3, ScalarTimer(cv=0.2, propose_stars=True)),
    # two and three equal lognormal seats: the fast engine races them by differences
    "2 players, cv 0.20 lognormal": (2, ScalarTimer(cv=0.2, noise="lognormal")),
    "3 players, cv 0.15 lognormal": (3, ScalarTimer(cv=0.15, noise="lognormal")),
    "4 players, cv 0.30 lognormal, stars": (
        4,
        ScalarTimer(cv=0.3, noise="lognormal", propose_stars=True),
    ),
    "3 players, HumanTimer at a fixed tempo": (3, HumanTimer(rate=0, propose_stars=False)),
    "3 players, HumanTimers and a ScalarTimer, stars": (
        3,
        [
            HumanTimer(tempo="quick", rate=0, propose_stars=False, star_policy=StarPolicy()),
            ScalarTimer(cv=0.2, propose_stars=True),
            HumanTimer(rate=0, propose_stars=False, cv_near=0.3, star_policy=StarPolicy()),
        ],
    ),
    "3 players, mixed team, stars": (
        3,
        [
            PerfectTimer(propose_stars=True),
            ScalarTimer(cv=0.15, noise="lognormal"),
            ScalarTimer(cv=0.25, seconds_per_step=0.33, propose_stars=True),
        ],
    ),
}
FAST_GAMES = 20_000
REFERENCE_GAMES = 1000


def disagreements(fast: SimResult, ref: SimResult) -> list[str]:
    """What two results disagree on beyond the tolerances (empty: they agree)."""
    f, r = fast.games, ref.games
    out = []
    if abs(z_rate(f["won"], r["won"])) >= Z:
        out.append("won")
    d, critical = ks(f["level_reached"], r["level_reached"])
    if d >= critical:
        out.append(f"levels reached (KS {d:.3f} >= {critical:.3f})")
    for column in ("level_reached", "lives_lost", "stars_used", "lives_left", "stars_left"):
        if abs(z_mean(f[column], r[column])) >= Z:
            out.append(column)
    fl, rl = fast.levels, ref.levels
    if abs(z_rate(fl["cleared"], rl["cleared"])) >= Z:
        out.append("cleared per level")
    if abs(z_mean(fl["mistakes"], rl["mistakes"])) >= Z:
        out.append("mistakes per level")
    return out


@pytest.mark.parametrize("name", list(SETTINGS))
def test_fast_and_reference_engines_agree(name: str, pool: ProcessPoolExecutor) -> None:
    players, bots = SETTINGS[name]
    fast = simulate(players, bots, FAST_GAMES, seed=1, engine="fast", progress=False)
    ref = simulate(
        players, bots, REFERENCE_GAMES, seed=2, engine="reference", executor=pool, progress=False
    )
    assert disagreements(fast, ref) == []


@pytest.mark.parametrize("k", range(1, fast_engine.NETWORK_MAX + 1))
def test_the_deals_sorting_network_sorts_any_hand(k: int) -> None:
    """The 0-1 principle: a comparator network that sorts all 2**k inputs of 0s and
    1s sorts every input of k values."""
    column = list((np.arange(2**k)[None, :] >> np.arange(k)[:, None]) & 1)
    for i, j in fast_engine._sorting_network(k):
        assert 0 <= i < j < k
        column[i], column[j] = np.minimum(column[i], column[j]), np.maximum(column[i], column[j])
    assert (np.diff(np.array(column), axis=0) >= 0).all()


@pytest.mark.parametrize("k", [1, 2, 5, fast_engine.NETWORK_MAX, fast_engine.NETWORK_MAX + 1])
def test_a_deal_holds_each_seats_cards_sorted(k: int) -> None:
    """The hands of `_deal` (a sorting network up to NETWORK_MAX cards, a sort above)
    are the cards drawn for each seat (draw j to seat j // k), each hand sorted."""
    players, games, deck = 3, 500, 100
    hands = fast_engine._deal(np.random.default_rng(4), games, players, k, deck)
    drawn = fast_engine._draw(np.random.default_rng(4), games, players * k, deck)
    expected = np.sort(drawn.reshape(games, players, k), axis=2).transpose(1, 0, 2)
    assert hands.shape == (players, games, k + 2)
    assert (hands[:, :, :k] == expected).all()
    assert (hands[:, :, k:] == fast_engine.NONE).all()


# The comparison above must be able to fail: the same statistics against a fast
# engine that plays a rule or a model wrong on purpose.
WRONG = (3, ScalarTimer(cv=0.15))


@pytest.fixture(scope="module")
def wrong_reference(pool: ProcessPoolExecutor) -> SimResult:
    players, bots = WRONG
    return simulate(
        players, bots, REFERENCE_GAMES, seed=2, engine="reference", executor=pool, progress=False
    )


def test_the_comparison_fails_on_a_wrong_reward(wrong_reference: SimResult) -> None:
    players, bots = WRONG
    right = simulate(players, bots, FAST_GAMES, seed=1, engine="fast", progress=False)
    assert disagreements(right, wrong_reference) == []
    # R8 wrong: no life for clearing level 6 (the other rewards as they are)
    rewards = {level: kind for level, kind in Rules(players=3).rewards.items() if level != 6}
    wrong = simulate(
        players,
        bots,
        FAST_GAMES,
        seed=1,
        engine="fast",
        progress=False,
        rules=Rules(players=3, rewards=rewards),
    )
    assert {"won", "lives_left"} <= set(disagreements(wrong, wrong_reference))


def test_the_comparison_fails_on_a_wrong_noise(
    wrong_reference: SimResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Normals 10% too wide (a wait's spread is the model of every timer)."""
    players, bots = WRONG
    normals = fast_engine._normals

    def wide(rng: np.random.Generator, shape: tuple[int, int], scale: float = 1.0) -> object:
        return normals(rng, shape, 1.1 * scale)

    monkeypatch.setattr(fast_engine, "_normals", wide)
    wrong = simulate(players, bots, FAST_GAMES, seed=1, engine="fast", progress=False)
    assert "won" in disagreements(wrong, wrong_reference)


def test_the_comparison_fails_on_a_wrong_race(pool: ProcessPoolExecutor) -> None:
    """Three equal lognormal seats race by differences from seat 0 (one Box-Muller
    pair per game): the same statistics catch that race 10% too wide."""
    players, bots = 3, ScalarTimer(cv=0.15, noise="lognormal")
    ref = simulate(
        players, bots, REFERENCE_GAMES, seed=2, engine="reference", executor=pool, progress=False
    )
    polar = fast_engine._polar
    fast = simulate(players, bots, FAST_GAMES, seed=1, engine="fast", progress=False)
    assert disagreements(fast, ref) == []
    with pytest.MonkeyPatch.context() as patch:

        def wide(rng: np.random.Generator, half: int, scale: float) -> object:
            return polar(rng, half, 1.1 * scale)

        patch.setattr(fast_engine, "_polar", wide)
        wrong = simulate(players, bots, FAST_GAMES, seed=1, engine="fast", progress=False)
    assert "won" in disagreements(wrong, ref)


# ------------------------------------------------------------------ executors and chunks
def test_the_result_does_not_depend_on_the_executor_or_the_chunks(
    pool: ProcessPoolExecutor,
) -> None:
    games = 2 * BLOCK + 500
    bots = ScalarTimer(cv=0.2, propose_stars=True)
    plain = simulate(3, bots, games, seed=4, progress=False)
    for kwargs in (
        {"executor": pool},
        {"executor": pool, "chunk_size": 2 * BLOCK},
        {"chunk_size": 1},
        {"chunk_size": 10 * games},
    ):
        other = simulate(3, bots, games, seed=4, progress=False, **kwargs)  # type: ignore[arg-type]
        pd.testing.assert_frame_equal(plain.levels, other.levels)
        pd.testing.assert_frame_equal(plain.games, other.games)


def test_the_reference_engine_gives_the_same_result_in_a_process_pool(
    pool: ProcessPoolExecutor,
) -> None:
    team = [AdaptiveTimer(cv=0.3), ScalarTimer(cv=0.3), ScalarTimer(cv=0.25)]  # short games
    plain = simulate(3, team, 300, seed=5, progress=False)
    pooled = simulate(3, team, 300, seed=5, progress=False, executor=pool)
    assert plain.engine == "reference"
    pd.testing.assert_frame_equal(plain.levels, pooled.levels)


def test_keep_summary_gives_the_same_summary_without_any_table() -> None:
    for engine, games in (("fast", 2 * BLOCK + 500), ("reference", 300)):
        bots = ScalarTimer(cv=0.2, propose_stars=True)
        full = simulate(3, bots, games, seed=9, engine=engine, progress=False)  # type: ignore[arg-type]
        small = simulate(3, bots, games, seed=9, engine=engine, progress=False, keep="summary")  # type: ignore[arg-type]
        assert full.keep == "games" and small.keep == "summary"
        assert small.summary() == full.summary()
        pd.testing.assert_frame_equal(small.by_level(), full.by_level(), check_exact=True)
        assert "won" in repr(small)
        with pytest.raises(AttributeError, match=r"kept only the summary \(keep='summary'\)"):
            small.games  # noqa: B018
        with pytest.raises(AttributeError, match=r"keep='games' for one row per level reached"):
            small.levels  # noqa: B018


def test_by_level_and_the_summary_agree_with_the_tables() -> None:
    r = simulate(3, ScalarTimer(cv=0.2, propose_stars=True), 3000, seed=11, progress=False)
    g, lv, by = r.games, r.levels, r.by_level()
    per = lv.groupby("level")
    assert list(by.index) == sorted(lv["level"].unique())
    assert (by["games"] == per.size()).all()
    assert (by["ended"] == g["level_reached"].value_counts().reindex(by.index, fill_value=0)).all()
    assert by["ended"].sum() == len(g)
    assert (by["cleared"] == per["cleared"].sum()).all()
    for column in ("mistakes", "stars_used", "lives", "stars", "tempo_spread"):
        assert by[column].to_numpy() == pytest.approx(per[column].mean().to_numpy(), rel=1e-12)
    s = r.summary()
    assert s.games == len(g) and s.wins == g["won"].sum()
    assert s.mean_level_reached == g["level_reached"].sum() / len(g)
    assert s.mean_levels_cleared == g["levels_cleared"].sum() / len(g)
    assert s.mean_lives_lost == g["lives_lost"].sum() / len(g)
    assert s.mean_stars_used == g["stars_used"].sum() / len(g)


def test_the_summary_is_exactly_the_same_for_any_chunks_and_executor(
    pool: ProcessPoolExecutor,
) -> None:
    games = 2 * BLOCK + 500
    bots = ScalarTimer(cv=0.2, propose_stars=True)
    plain = simulate(3, bots, games, seed=4, progress=False, keep="summary")
    for kwargs in (
        {"executor": pool},
        {"executor": pool, "chunk_size": 2 * BLOCK},
        {"chunk_size": 1},
        {"chunk_size": 10 * games},
    ):
        other = simulate(3, bots, games, seed=4, progress=False, keep="summary", **kwargs)  # type: ignore[arg-type]
        assert other.summary() == plain.summary()
        pd.testing.assert_frame_equal(other.by_level(), plain.by_level(), check_exact=True)


def test_an_adaptive_teams_tempo_spread_is_summed_exactly_in_any_grouping(
    pool: ProcessPoolExecutor,
) -> None:
    # every game has its own spread: a float sum would depend on the grouping
    team = [AdaptiveTimer(cv=0.3), ScalarTimer(cv=0.3), ScalarTimer(cv=0.25)]
    plain = simulate(3, team, 300, seed=5, progress=False, keep="summary")
    pooled = simulate(3, team, 300, seed=5, progress=False, keep="summary", executor=pool)
    full = simulate(3, team, 300, seed=5, progress=False, chunk_size=1)
    assert plain.engine == "reference" and full.levels["tempo_spread"].nunique() > 100
    for other in (pooled, full):
        assert other.summary() == plain.summary()
        pd.testing.assert_frame_equal(other.by_level(), plain.by_level(), check_exact=True)
    by_hand = full.levels.groupby("level")["tempo_spread"].apply(
        lambda x: float(sum(map(Fraction, x)) / len(x))
    )
    assert list(plain.tempo_spread()) == list(by_hand)


class LazyExecutor(Executor):
    """Runs a job only when its result is asked for; counts the jobs waiting."""

    def __init__(self) -> None:
        self.waiting = 0
        self.most = 0

    def submit(
        self, fn: Callable[..., object], /, *args: object, **kwargs: object
    ) -> Future[object]:
        owner = self
        self.waiting += 1
        self.most = max(self.most, self.waiting)

        class Lazy(Future[object]):
            def result(self, timeout: float | None = None) -> object:
                if not self.done():
                    owner.waiting -= 1
                    self.set_result(fn(*args, **kwargs))
                return super().result(timeout)

        return Lazy()


def test_no_more_than_in_flight_chunks_wait_at_any_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "BLOCK", 256)  # many small blocks, quickly
    monkeypatch.setattr(sim, "IN_FLIGHT", 3)
    games = 9 * 256 + 7
    plain = simulate(2, "perfect", games, seed=3, progress=False, keep="summary")
    lazy = LazyExecutor()
    waited = simulate(2, "perfect", games, seed=3, progress=False, keep="summary", executor=lazy)
    assert waited.summary() == plain.summary() and waited.summary().games == games
    assert lazy.most == 3 and lazy.waiting == 0


def test_a_local_dask_cluster_gives_the_same_result() -> None:
    import distributed  # in the test extra: a missing install must fail, not skip

    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        games = BLOCK + 100
        plain = simulate(2, ScalarTimer(cv=0.15), games, seed=6, progress=False)
        dasked = simulate(
            2, ScalarTimer(cv=0.15), games, seed=6, progress=False, executor=client.get_executor()
        )
    pd.testing.assert_frame_equal(plain.levels, dasked.levels)


def test_the_same_call_runs_on_a_dask_distributed_cluster() -> None:
    """Two worker processes: every chunk travels to another process and back."""
    import distributed

    games = 2 * BLOCK + 300
    bots = ScalarTimer(cv=0.2, propose_stars=True)
    plain = simulate(3, bots, games, seed=12, progress=False)
    summary = simulate(3, bots, games, seed=12, progress=False, keep="summary")
    with distributed.Client(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as client:
        # the Client itself, or its executor: the same call either way
        dasked = simulate(3, bots, games, seed=12, progress=False, executor=client)
        dasked_summary = simulate(
            3,
            bots,
            games,
            seed=12,
            progress=False,
            keep="summary",
            executor=client.get_executor(),
            chunk_size=BLOCK,
        )
        assert len(client.scheduler_info()["workers"]) == 2
    pd.testing.assert_frame_equal(plain.levels, dasked.levels)
    pd.testing.assert_frame_equal(plain.games, dasked.games)
    assert dasked_summary.summary() == summary.summary() == plain.summary()
    pd.testing.assert_frame_equal(dasked_summary.by_level(), plain.by_level(), check_exact=True)


# ------------------------------------------------------------------ progress
def test_progress_true_shows_a_bar_and_false_shows_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # tqdm.auto draws on stderr, or as a notebook bar (printed) when the process has
    # seen an IPython kernel: either way the bar shows, and nothing without progress
    simulate(2, "scalar", 100, progress=True)
    shown = capsys.readouterr()
    assert "simulate" in shown.err + shown.out
    simulate(2, "scalar", 100, progress=False)
    quiet = capsys.readouterr()
    assert "simulate" not in quiet.err + quiet.out


def test_progress_none_stays_quiet_on_a_short_run(capsys: pytest.CaptureFixture[str]) -> None:
    simulate(2, "scalar", 100)
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------ cooperation, measured
def test_adaptive_teams_converge_in_tempo_and_win_more_than_fixed_tempos() -> None:
    tempos = (0.3, 0.345, 0.39)  # the slowest 30% slower than the fastest
    fixed = simulate(
        3, [ScalarTimer(seconds_per_step=s) for s in tempos], 20_000, seed=1, progress=False
    )
    adaptive = simulate(
        3, [AdaptiveTimer(seconds_per_step=s) for s in tempos], 300, seed=2, progress=False
    )
    start = max(tempos) / min(tempos) - 1
    assert fixed.levels["tempo_spread"].to_numpy() == pytest.approx(start)
    # Closer in tempo at the end of every game than at its start ...
    last = adaptive.levels.groupby("game").tail(1)["tempo_spread"]
    assert (last < start).mean() > 0.95 and last.mean() < start / 2
    # ... level by level, as `simulate` reports it ...
    by_level = adaptive.tempo_spread()
    assert by_level.iloc[-1] < by_level.iloc[0] < start
    # ... and more games won.
    assert z_rate(adaptive.games["won"], fixed.games["won"]) > Z


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"games": 0}, r"games must be a whole number >= 1, not 0"),
        ({"games": 2.5}, r"games must be a whole number >= 1, not 2.5"),
        ({"bots": "clever"}, r"unknown bot name 'clever'; allowed: perfect, scalar, adaptive"),
        ({"bots": [ScalarTimer()] * 2}, r"one bot per seat \(3\), but has 2"),
        ({"engine": "turbo"}, r"engine must be 'auto', 'fast' or 'reference', not 'turbo'"),
        ({"seed": -1}, r"seed must be a whole number >= 0, not -1"),
        ({"progress": "yes"}, r"progress must be None, True or False"),
        ({"rules": Rules(players=2)}, r"players=3 disagrees with rules.players=2"),
    ],
)
def test_bad_input_raises_a_value_error_that_names_it(
    kwargs: dict[str, object], pattern: str
) -> None:
    with pytest.raises(ValueError, match=pattern):
        simulate(3, **{"bots": "scalar", "games": 10, "progress": False, **kwargs})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"chunk_size": 0}, r"chunk_size must be None or a whole number >= 1, not 0\."),
        ({"chunk_size": 2.5}, r"chunk_size must be None or a whole number >= 1, not 2\.5\."),
        ({"chunk_size": True}, r"chunk_size must be None or a whole number >= 1, not True\."),
        ({"chunk_size": "4096"}, r"chunk_size must be None or a whole number >= 1, not '4096'\."),
        (
            {"executor": "pool"},
            r"executor must be None, a concurrent\.futures\.Executor or a Dask "
            r"distributed\.Client, not 'pool'\.",
        ),
        ({"executor": ProcessPoolExecutor}, r"executor must be None, .*, not <class "),
        ({"players": "3"}, r"players must be a whole number >= 1, not '3'\."),
        ({"players": 2.0}, r"players must be a whole number >= 1, not 2\.0\."),
        ({"players": 0}, r"players must be a whole number >= 1, not 0\."),
        ({"players": 5}, r"The Mind is for 2, 3, 4 players, not 5\. .*Rules\(players=5, "),
        ({"games": True}, r"games must be a whole number >= 1, not True\."),
        ({"games": "10"}, r"games must be a whole number >= 1, not '10'\."),
        ({"seed": 1.5}, r"seed must be a whole number >= 0, not 1\.5\."),
        ({"seed": None}, r"seed must be a whole number >= 0, not None\."),
        ({"engine": ["fast"]}, r"engine must be 'auto', 'fast' or 'reference', not \['fast'\]\."),
        ({"engine": None}, r"engine must be 'auto', 'fast' or 'reference', not None\."),
        ({"progress": 1}, r"progress must be None, True or False, not 1\."),
        ({"progress": "yes"}, r"progress must be None, True or False, not 'yes'\."),
        ({"rules": {"players": 3}}, r"rules must be None or a Rules\(\.\.\.\), not \{'players'"),
        ({"keep": "rows"}, r"keep must be 'games' or 'summary', not 'rows'\."),
        ({"keep": None}, r"keep must be 'games' or 'summary', not None\."),
        ({"bots": 3}, r"bots must be a bot, a name \(perfect, scalar, adaptive, human\) or a list"),
    ],
)
def test_every_bad_argument_is_a_value_error_naming_it_its_value_and_what_is_allowed(
    kwargs: dict[str, object], pattern: str
) -> None:
    with pytest.raises(ValueError, match=pattern) as info:
        simulate(**{"bots": "scalar", "games": 10, "progress": False, **kwargs})  # type: ignore[arg-type]
    assert type(info.value) in (ValueError, RuleError)


def test_numpy_integers_are_whole_numbers_everywhere() -> None:
    plain = simulate(3, "scalar", 600, seed=2, chunk_size=300, progress=False)
    numpy = simulate(
        np.int64(3),  # type: ignore[arg-type]
        "scalar",
        np.int32(600),  # type: ignore[arg-type]
        seed=np.uint16(2),  # type: ignore[arg-type]
        chunk_size=np.int8(100),  # type: ignore[arg-type]
        progress=np.bool_(False),  # type: ignore[arg-type]
        rules=Rules(players=3),
    )
    pd.testing.assert_frame_equal(plain.levels, numpy.levels)
    assert type(numpy.players) is int and type(numpy.seed) is int


class Negative(Bot):
    def plan(self, obs: Observation, rng: np.random.Generator) -> float:
        return -1.0 if obs.level == 2 else self.tempo * self.gap(obs)


def test_a_failing_user_bot_names_the_bot_the_event_and_the_game() -> None:
    with pytest.raises(ValueError) as info:
        simulate(2, Negative(), 3, progress=False)
    assert str(info.value) == (
        "simulated game 0: bot Negative(seconds_per_step=0.3) in seat 0 returned wait=-1.0 "
        "after ready at t=0 in level 2; allowed: a finite number of seconds >= 0."
    )


def test_house_rules_are_played_by_both_engines() -> None:
    rules = Rules(players=3, levels=4, lives=1, spent_stars="box")
    bots = ScalarTimer(cv=0.15, propose_stars=True)
    fast = simulate(3, bots, 4000, seed=1, rules=rules, progress=False)
    ref = simulate(3, bots, 300, seed=2, rules=rules, engine="reference", progress=False)
    assert fast.games["level_reached"].max() == 4
    assert abs(z_rate(fast.games["won"], ref.games["won"])) < Z
    for column in ("stars_used", "stars_left", "lives_lost"):
        assert abs(z_mean(fast.games[column], ref.games[column])) < Z, column
