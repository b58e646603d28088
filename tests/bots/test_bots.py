"""Bots: timing models, the star policy, team building, and bad input."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest

import mindwidget.bots as mindwidget_bots
from mindwidget import Game, MindWidget, Table, timing_profile
from mindwidget.bots import (
    HUMAN_STAR_POLICY,
    REFERENCE,
    REFERENCE_BANDS,
    TEMPOS,
    AdaptiveTimer,
    Bot,
    HumanTimer,
    PerfectTimer,
    ScalarTimer,
    StarPolicy,
    check_tempo,
    make_team,
    public_floors,
)
from mindwidget.bots.human import FAR_EXPONENT, HOLD, KNOT_GAPS, curve
from mindwidget.bots.runner import ready_at, run_game, run_level
from mindwidget.bots.stars import chance_next, p_no_card_between
from mindwidget.sim.prob import p_wrong_order
from mindwidget.traces import trace


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


# ------------------------------------------------------------------ PerfectTimer
def test_perfect_timer_waits_seconds_per_step_times_the_gap() -> None:
    g = Game.from_hands([[17, 40], [28], [55]])
    bot = PerfectTimer(seconds_per_step=0.5).seat(0)
    assert bot.plan(g.observation(0), rng()) == pytest.approx(0.5 * 17)
    g.ready(t=0.0)
    g.play(0, t=8.5)  # the pile shows 17; the bot's next card is 40
    assert bot.plan(g.observation(0), rng()) == pytest.approx(0.5 * (40 - 17))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_team_of_perfect_timers_never_makes_a_mistake(players: int) -> None:
    for seed in range(3):
        game = run_game(Game(players=players, seed=seed), PerfectTimer(), seed=seed)
        assert game.status == "won"
        assert not any(e.type == "mistake" for e in game.events)


# ------------------------------------------------------------------ ScalarTimer
def plans(bot: Bot, obs_game: Game, n: int = 20_000, seed: int = 1) -> np.ndarray:
    r = rng(seed)
    obs = obs_game.observation(0)
    return np.array([bot.plan(obs, r) for _ in range(n)])


def test_scalar_timer_normal_noise_has_the_perfect_mean_and_weber_spread() -> None:
    g = Game.from_hands([[50], [90]])
    bot = ScalarTimer(cv=0.14, seconds_per_step=0.2, motor_sd=0.05).seat(0)
    waits = plans(bot, g)
    mean = 0.2 * 50
    sd = math.sqrt((0.14 * mean) ** 2 + 0.05**2)
    assert waits.mean() == pytest.approx(mean, abs=4 * sd / math.sqrt(waits.size))
    assert waits.std() == pytest.approx(sd, rel=0.03)


def test_scalar_timer_spread_grows_in_proportion_to_the_interval() -> None:
    """Scalar timing: the coefficient of variation is the same for short and long waits."""
    bot = ScalarTimer(cv=0.2, motor_sd=0.0).seat(0)
    short = plans(bot, Game.from_hands([[10], [90]]))
    long = plans(bot, Game.from_hands([[80], [90]]))
    assert long.std() / short.std() == pytest.approx(8.0, rel=0.05)
    assert short.std() / short.mean() == pytest.approx(0.2, rel=0.05)


def test_scalar_timer_lognormal_noise() -> None:
    g = Game.from_hands([[40], [90]])
    bot = ScalarTimer(cv=0.3, noise="lognormal", seconds_per_step=0.25).seat(0)
    logs = np.log(plans(bot, g))
    assert logs.mean() == pytest.approx(math.log(0.25 * 40), abs=0.01)
    assert logs.std() == pytest.approx(0.3, rel=0.03)


def test_scalar_timer_draws_fresh_noise_at_every_re_plan() -> None:
    g = Game.from_hands([[40], [90]])
    bot = ScalarTimer().seat(0)
    r = rng()
    obs = g.observation(0)
    first, second = bot.plan(obs, r), bot.plan(obs, r)
    assert first != second


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("make", "name", "value"),
    [
        (lambda: ScalarTimer(cv=-0.1), "cv", "-0.1"),
        (lambda: ScalarTimer(cv=float("nan")), "cv", "nan"),
        (lambda: ScalarTimer(seconds_per_step=0), "seconds_per_step", "0"),
        (lambda: PerfectTimer(seconds_per_step=-1), "seconds_per_step", "-1"),
        (lambda: ScalarTimer(motor_sd=float("inf")), "motor_sd", "inf"),
        (lambda: ScalarTimer(noise="uniform"), "noise", "uniform"),  # type: ignore[arg-type]
        (lambda: AdaptiveTimer(rate=1.5), "rate", "1.5"),
        (lambda: StarPolicy(close=-1), "close", "-1"),
    ],
)
def test_bad_bot_settings_name_the_parameter_the_value_and_what_is_allowed(
    make: object, name: str, value: str
) -> None:
    with pytest.raises(ValueError) as info:
        make()  # type: ignore[operator]
    message = str(info.value)
    assert name in message and value in message
    assert "must be" in message


def test_unknown_bot_name_lists_the_allowed_names() -> None:
    with pytest.raises(ValueError, match=r"'clever'.*perfect, scalar, adaptive, human"):
        make_team("clever", 3)


def test_a_bots_list_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match=r"one bot per seat \(3\), but has 2"):
        make_team([ScalarTimer(), ScalarTimer()], 3)


def test_a_bots_list_with_something_else_is_refused() -> None:
    with pytest.raises(ValueError, match=r"bots\[1\] must be a Bot"):
        make_team([ScalarTimer(), 0.3, ScalarTimer()], 3)  # type: ignore[list-item]


# ------------------------------------------------------------------ teams
def test_bots_accepts_one_bot_a_list_or_a_name() -> None:
    proto = ScalarTimer(cv=0.2)
    team = make_team(proto, 3)
    assert [b.player for b in team] == [0, 1, 2]
    assert len({id(b) for b in team}) == 3 and proto not in team
    assert all(isinstance(b, ScalarTimer) and b.cv == 0.2 for b in team)
    named = make_team(["perfect", "scalar", "adaptive"], 3)
    assert [type(b) for b in named] == [PerfectTimer, ScalarTimer, AdaptiveTimer]
    assert all(type(b) is AdaptiveTimer for b in make_team("adaptive", 2))


def test_a_team_can_mix_tempos_one_player_twice_as_fast() -> None:
    team = make_team([ScalarTimer(seconds_per_step=0.15), ScalarTimer(), ScalarTimer()], 3)
    g = Game.from_hands([[40], [50], [60]])
    perfect = [PerfectTimer(b.seconds_per_step).plan(g.observation(0), rng()) for b in team]
    assert perfect[0] == pytest.approx(perfect[1] / 2)
    game = run_game(Game(players=3, seed=4), team, seed=4)
    assert game.status in ("won", "lost")


# ------------------------------------------------------------------ public knowledge
def test_public_floors_a_player_who_discarded_60_holds_nothing_below_60() -> None:
    g = Game.from_hands([[12, 70], [60, 65], [20, 30]], stars=1)
    g.ready(t=0.0)
    g.use_star(t=1.0)  # discards 12, 60 and 20 face up
    floors = public_floors(g.observation(2))
    assert floors == (12, 60, 20)
    g.play(2, t=2.0)  # 30 on the pile
    assert public_floors(g.observation(0)) == (30, 60, None)


def test_public_floors_never_read_a_hidden_hand() -> None:
    a = Game.from_hands([[12, 70], [60, 65], [20, 30]])
    b = Game.from_hands([[12, 90], [60, 99], [20, 31]])
    assert public_floors(a.observation(0)) == public_floors(b.observation(0))


# ------------------------------------------------------------------ star policy
def test_star_policy_proposes_with_two_cards_close_above_the_top() -> None:
    policy = StarPolicy(close=6)
    g = Game.from_hands([[2, 5], [50, 80], [40, 90]], stars=1)
    assert policy.wants_star(g.observation(0))  # 2 and 5: both within 6 of the top (0)
    far = Game.from_hands([[2, 9], [50, 80], [40, 90]], stars=1)
    assert not policy.wants_star(far.observation(0))


def test_star_policy_counts_the_gap_from_the_top_of_the_pile() -> None:
    policy = StarPolicy(close=6)
    g = Game.from_hands([[3, 40, 44], [50, 80, 85], [30, 90, 95]], stars=1)
    g.ready(t=0.0)
    assert not policy.wants_star(g.observation(0))
    g.play(0, t=1.0)
    g.play(2, t=9.0)  # top 30: the bot holds 40 and 44, both more than 6 above
    assert not policy.wants_star(g.observation(0))
    g2 = Game.from_hands([[3, 33, 35], [50, 80, 85], [30, 90, 95]], stars=1)
    g2.ready(t=0.0)
    g2.play(0, t=1.0)
    g2.play(2, t=9.0)  # top 30: 33 and 35 are close
    assert policy.wants_star(g2.observation(0))


def test_star_policy_needs_a_star() -> None:
    g = Game.from_hands([[1, 2], [50, 80], [40, 90]], stars=0)
    assert not StarPolicy().wants_star(g.observation(0))


def test_star_policy_on_the_last_life_proposes_when_the_gap_is_small() -> None:
    policy = StarPolicy(last_life_gap=8)
    g = Game.from_hands([[7, 60], [50, 80], [40, 90]], lives=1, stars=1)
    assert policy.wants_star(g.observation(0))
    g3 = Game.from_hands([[7, 60], [50, 80], [40, 90]], lives=3, stars=1)
    assert not policy.wants_star(g3.observation(0))
    far = Game.from_hands([[20, 60], [50, 80], [40, 90]], lives=1, stars=1)
    assert not policy.wants_star(far.observation(0))


def test_star_policy_uses_public_floors_no_threat_no_star() -> None:
    """After a star, the others' face-up discards lie above my two close cards: no collision."""
    policy = StarPolicy(close=40)
    k = Game.from_hands([[28, 31, 33], [40, 60, 70], [45, 50, 90]], stars=2)
    k.ready(t=0.0)
    k.use_star(t=1.0)  # discards 28, 40, 45: players 1 and 2 hold nothing below 40
    assert public_floors(k.observation(0)) == (28, 40, 45)
    assert not policy.wants_star(k.observation(0))
    m = Game.from_hands([[28, 31, 33], [40, 60, 70], [32, 50, 90]], stars=2)
    m.ready(t=0.0)
    m.use_star(t=1.0)  # player 2 discarded 32 and might still hold a card below 33
    assert policy.wants_star(m.observation(0))


def test_vote_rule() -> None:
    policy = StarPolicy(vote_gap=12, close=6, last_life_gap=8)
    near = Game.from_hands([[10, 60], [50, 80], [40, 90]], stars=1)
    assert policy.vote(near.observation(0))  # lowest card within 12 of the top
    far = Game.from_hands([[30, 60], [50, 80], [40, 90]], stars=1)
    assert not policy.vote(far.observation(0))  # far away: keep the star
    last = Game.from_hands([[30, 60], [50, 80], [40, 90]], lives=1, stars=1)
    assert policy.vote(last.observation(0))  # one life left: always agree
    empty = Game.from_hands([[], [50, 80], [40, 90]], stars=1)
    assert policy.vote(empty.observation(0))  # nothing to lose


def test_propose_stars_switches_proposals_on_and_off() -> None:
    for propose in (False, True):
        used = 0
        for seed in range(8):
            bot = ScalarTimer(cv=0.2, propose_stars=propose)
            game = run_game(Game(players=3, seed=seed), bot, seed=seed)
            used += sum(e.type == "star_proposed" for e in game.events)
        assert (used > 0) == propose


# ------------------------------------------------------------------ AdaptiveTimer
def test_adaptive_timer_moves_toward_a_teammates_observed_tempo() -> None:
    g = Game.from_hands([[30, 80], [20], [90]])
    bot = AdaptiveTimer(seconds_per_step=0.3, rate=0.25, min_gap=3).seat(0)
    g.ready(t=1.0)
    g.play(1, t=1.0 + 0.5 * 20)  # a person in seat 1 waited 0.5 s per step for 20
    bot.plan(g.observation(0), rng())
    expected = math.exp(math.log(0.3) + 0.25 * (math.log(0.5) - math.log(0.3)))
    assert bot.tempo == pytest.approx(expected)
    # Its own play teaches it nothing; a second look at the same events neither.
    g.play(0, t=20.0)
    bot.plan(g.observation(0), rng())
    assert bot.tempo == pytest.approx(expected)


def test_adaptive_timer_ignores_tiny_gaps_and_clips_outliers() -> None:
    g = Game.from_hands([[30], [2], [90]])
    bot = AdaptiveTimer(seconds_per_step=0.3, min_gap=3, max_ratio=2.0).seat(0)
    g.ready(t=0.0)
    g.play(1, t=5.0)  # gap 2 < min_gap
    bot.plan(g.observation(0), rng())
    assert bot.tempo == 0.3
    h = Game.from_hands([[30], [10], [90]])
    bot = AdaptiveTimer(seconds_per_step=0.3, rate=1.0, max_ratio=2.0).seat(0)
    h.ready(t=0.0)
    h.play(1, t=100.0)  # 10 s per step: clipped to twice the current tempo
    bot.plan(h.observation(0), rng())
    assert bot.tempo == pytest.approx(0.6)


def test_adaptive_timer_starts_afresh_in_a_new_seat() -> None:
    g = Game.from_hands([[30, 80], [20], [90]])
    bot = AdaptiveTimer(seconds_per_step=0.3).seat(0)
    g.ready(t=0.0)
    g.play(1, t=12.0)
    bot.plan(g.observation(0), rng())
    assert bot.tempo != 0.3
    assert bot.seat(1).tempo == 0.3


def test_a_team_of_adaptive_timers_converges_within_a_game() -> None:
    spreads = []
    for seed in range(4):
        team = make_team([AdaptiveTimer(seconds_per_step=s) for s in (0.3, 0.345, 0.39)], 3)
        run_game(Game(players=3, seed=seed), team, seed=seed)
        tempos = [b.tempo for b in team]
        spreads.append(max(tempos) / min(tempos) - 1)
    assert np.mean(spreads) < 0.3 / 2


# ------------------------------------------------------------------ the package
def _imports(path: Path, package: str) -> set[str]:
    """The mindwidget modules a file imports (relative and absolute imports alike)."""
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.add(stem)
            found.update(f"{stem}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("mindwidget")}


def test_the_bots_package_has_no_import_cycle() -> None:
    """Every module of mindwidget.bots imports only modules that do not import it back."""
    root = Path(mindwidget_bots.__file__).parent
    modules = {f"mindwidget.bots.{p.stem}": p for p in root.glob("*.py") if p.stem != "__init__"}
    graph = {
        name: {m for m in _imports(path, "mindwidget.bots") if m in modules}
        for name, path in modules.items()
    }
    assert graph["mindwidget.bots.team"] >= {"mindwidget.bots.adaptive"}
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        if state.get(name) == 2:
            return
        assert state.get(name) != 1, f"import cycle: {' -> '.join((*path, name))}"
        state[name] = 1
        for dep in sorted(graph[name]):
            visit(dep, (*path, name))
        state[name] = 2
        order.append(name)

    for name in sorted(graph):
        visit(name, ())
    assert len(order) == len(modules)


# ------------------------------------------------------------------ HumanTimer
def human_plans(bot: Bot, gap: int, n: int = 20_000, seed: int = 3) -> np.ndarray:
    return plans(bot, Game.from_hands([[gap], [99]]), n=n, seed=seed)


def test_human_timer_never_plays_before_the_reaction_floor() -> None:
    bot = HumanTimer(tempo="quick", cv_near=0.8, cv_far=0.8).seat(0)
    waits = human_plans(bot, 1)
    assert waits.min() >= 0.4
    assert np.quantile(waits, 0.01) < 0.55  # the floor is a floor, not a typical wait


@pytest.mark.parametrize("gap", [1, 2, 6, 17, 40])
def test_human_timer_median_wait_follows_the_people_curve(gap: int) -> None:
    """Without holding back (hold=0) the median is the curve; by default the
    curve times the hold factor: the other player's one card lies below this
    bot's with chance (gap - 1) / 99."""
    still = HumanTimer(rate=0, hold=0).seat(0)
    assert np.median(human_plans(still, gap)) == pytest.approx(0.4 + curve(gap), rel=0.02)
    assert still.median_wait(gap) == pytest.approx(0.4 + curve(gap))
    bot = HumanTimer(rate=0).seat(0)
    obs = Game.from_hands([[gap], [99]]).observation(0)
    assert chance_next(obs) == pytest.approx((100 - gap) / 99)
    held = ((100 - gap) / 99) ** -HOLD
    assert bot.hold_factor(obs) == pytest.approx(held)
    assert np.median(human_plans(bot, gap)) == pytest.approx(0.4 + curve(gap) * held, rel=0.02)


def test_the_people_curve_runs_through_every_reference_band() -> None:
    """At each band's median gap in the reference data (1, 2, 3, 6, 9.5, 17, 33)."""
    for gap, median, band in zip(KNOT_GAPS, REFERENCE, REFERENCE_BANDS, strict=True):
        assert band[0] <= gap <= band[1]
        assert 0.4 + curve(gap) == pytest.approx(median)


def test_the_people_curve_keeps_growing_past_the_last_band() -> None:
    """Continuous and rising everywhere; past gap 33 as gap**0.96, not flat."""
    gaps = np.linspace(0.5, 100, 2000)
    values = [curve(g) for g in gaps]
    assert all(b > a for a, b in zip(values, values[1:], strict=False))
    assert max(abs(curve(g + 1e-6) - curve(g)) for g in KNOT_GAPS) < 1e-4
    assert curve(99) / curve(75) == pytest.approx((99 / 75) ** FAR_EXPONENT)
    assert curve(99) > 2.5 * curve(33) and curve(0) == 0.0


def test_no_card_between_is_the_hypergeometric_chance() -> None:
    assert p_no_card_between(0, 50, 5) == 1.0
    assert p_no_card_between(88, 89, 1) == pytest.approx(1 / 89)
    assert p_no_card_between(10, 12, 3) == 0.0  # three cards cannot all fit above
    assert p_no_card_between(5, 20, 2) == pytest.approx((15 * 14) / (20 * 19))
    r = rng(2)
    draws = np.array([r.choice(30, size=4, replace=False) for _ in range(20_000)])
    assert float(np.mean((draws >= 9).all(axis=1))) == pytest.approx(
        p_no_card_between(9, 30, 4), abs=0.01
    )
    with pytest.raises(ValueError, match="between <= unseen"):
        p_no_card_between(31, 30, 1)


def test_a_bot_holding_99_counts_what_the_others_still_hold() -> None:
    g = Game.from_hands([[10], [75], [99]])
    g.ready(t=0.0)
    g.play(0, t=9.0)
    assert chance_next(g.observation(2)) == pytest.approx(1 / 89)
    assert chance_next(g.observation(1)) == pytest.approx(25 / 89)
    bot = HumanTimer()
    assert bot.seat(2).hold_factor(g.observation(2)) > 1.5 * bot.seat(1).hold_factor(
        g.observation(1)
    )
    g.play(1, t=50.0)  # 75 is out of the way: nobody else holds a card
    assert chance_next(g.observation(2)) == 1.0 and bot.seat(2).hold_factor(g.observation(2)) == 1


def far_card_wrong(deal: tuple[int, int, int], bots: object, games: int) -> float:
    low, mid, high = deal
    wrong = 0
    for seed in range(games):
        game = Game.from_hands([[low], [mid], [high]], level=1, seed=seed)
        run_level(game, bots, seed=seed)  # type: ignore[arg-type]
        played = [e.card for e in game.events if e.type == "played"]
        wrong += high in played and (mid not in played or played.index(high) < played.index(mid))
    return wrong / games


@pytest.mark.parametrize("deal", [(10, 75, 99), (40, 73, 98)])
def test_three_default_bots_rarely_play_a_far_card_before_a_lower_one(
    deal: tuple[int, int, int],
) -> None:
    """Issue 21: 99 before 75 in 31% of levels, 98 before 73 in 13%; target < 5%
    (measured: under 1%; `benchmarks/far_card.py`)."""
    assert far_card_wrong(deal, "human", 300) < 0.05


def test_without_holding_back_the_curve_alone_leaves_99_before_75_often() -> None:
    """The growing curve alone brings 10/75/99 from 31% to about 15%: holding
    back for what the others still hold is what brings it under 5%."""
    assert far_card_wrong((10, 75, 99), HumanTimer(hold=0), 300) > 0.08


def test_tempo_scales_the_whole_curve_above_the_floor() -> None:
    people = np.median(human_plans(HumanTimer(tempo="people", rate=0).seat(0), 20))
    slow = np.median(human_plans(HumanTimer(tempo="slow", rate=0).seat(0), 20))
    quick = np.median(human_plans(HumanTimer(tempo=0.6, rate=0).seat(0), 20))
    assert (slow - 0.4) / (people - 0.4) == pytest.approx(TEMPOS["slow"], rel=0.03)
    assert (quick - 0.4) / (people - 0.4) == pytest.approx(0.6, rel=0.03)
    assert TEMPOS == {"slow": 1.5, "people": 1.0, "quick": 0.6}


def test_human_spread_is_scalar_and_grows_with_the_gap() -> None:
    """log(wait - floor) has the same spread at any tempo, wider for far cards."""
    for gap in (1, 30):
        spreads = []
        for tempo in ("quick", "slow"):
            bot = HumanTimer(tempo=tempo, rate=0).seat(0)
            spreads.append(np.log(human_plans(bot, gap) - 0.4).std())
        assert spreads[0] == pytest.approx(spreads[1], rel=0.03)
        assert spreads[0] == pytest.approx(HumanTimer().sigma(gap), rel=0.03)
    bot = HumanTimer()
    assert bot.sigma(1) == pytest.approx(math.sqrt(math.log1p(0.12**2)))
    assert bot.sigma(1) < bot.sigma(6) < bot.sigma(30) <= math.sqrt(math.log1p(0.2**2))


def test_bots_only_game_has_no_play_sooner_than_the_floor() -> None:
    for seed in range(3):
        game = run_game(Game(players=3, seed=seed), "human", seed=seed)
        waits = trace(game)["wait"]
        assert len(waits) > 10 and waits.min() >= 0.4 - 1e-9


def test_human_timer_adapts_to_a_slow_person() -> None:
    g = Game.from_hands([[30, 80], [20], [90]])
    bot = HumanTimer(rate=0.25).seat(0)
    g.ready(t=1.0)
    # a person 40% slower than the people curve, holding back as a bot does: the
    # three other cards (of 99 unseen values) all lie above their 20 with chance
    # C(80, 3) / C(99, 3)
    held = p_no_card_between(19, 99, 3) ** -HOLD
    person = 1.4 * curve(20) * held
    g.play(1, t=1.0 + 0.4 + person)
    bot.plan(g.observation(0), rng())
    assert bot.tempo == pytest.approx(math.exp(0.25 * math.log(1.4)))
    fixed = HumanTimer(rate=0).seat(0)
    fixed.plan(g.observation(0), rng())
    assert fixed.tempo == 1.0


def test_set_tempo_and_a_new_seat() -> None:
    bot = HumanTimer().seat(0)
    bot.set_tempo("slow")
    assert bot.tempo == 1.5 and bot.seat(1).tempo == 1.5
    assert HumanTimer(tempo=0.8).seat(2).tempo == 0.8


def test_ready_delay_is_a_human_pause_after_the_floor() -> None:
    g = Game.from_hands([[30], [40], [90]])
    r = rng()
    people = [HumanTimer().seat(0).ready_delay(g.observation(0), r) for _ in range(4000)]
    slow = [HumanTimer(tempo="slow").seat(0).ready_delay(g.observation(0), r) for _ in range(4000)]
    assert min(people) >= 0.4
    assert np.median(people) == pytest.approx(0.4 + 1.6, rel=0.03)
    assert np.median(slow) == pytest.approx(0.4 + 1.5 * 1.6, rel=0.03)
    assert ScalarTimer().ready_delay(g.observation(0), r) == 0.0


@pytest.mark.parametrize(
    ("tempo", "shown"),
    [(0, "0"), (-1.0, "-1.0"), (float("nan"), "nan"), (float("inf"), "inf"), ("fast", "'fast'")],
)
def test_bad_tempo_names_the_value_and_what_is_allowed(tempo: object, shown: str) -> None:
    with pytest.raises(ValueError) as info:
        HumanTimer(tempo=tempo)  # type: ignore[arg-type]
    message = str(info.value)
    assert f"not {shown}" in message
    assert "'slow', 'people', 'quick' or a finite number > 0" in message
    with pytest.raises(ValueError, match="tempo must be"):
        check_tempo(tempo)


def test_human_is_a_bot_name() -> None:
    team = make_team("human", 3)
    assert all(type(b) is HumanTimer and b.propose_stars for b in team)
    assert team[0].star_policy == HUMAN_STAR_POLICY


# ------------------------------------------------------------------ stars by risk
def test_close_cards_far_above_the_pile_are_the_risky_ones() -> None:
    bot = HumanTimer()
    assert bot.wrong_order(40, 42) > 0.2 > bot.wrong_order(2, 4)
    near = Game.from_hands([[3, 70], [50, 80], [40, 90]], stars=1)
    far = Game.from_hands([[45, 70], [50, 80], [40, 90]], stars=1)
    assert bot.seat(0).risk(far.observation(0)) > 5 * bot.seat(0).risk(near.observation(0))


def test_wrong_order_matches_prob_and_a_simulation() -> None:
    bot = HumanTimer(rate=0)
    exact = p_wrong_order(40, 44, bot=bot)
    assert exact == pytest.approx(bot.wrong_order(40, 44))
    r = rng(5)
    wa = bot.floor + curve(40) * np.exp(bot.sigma(40) * r.standard_normal(100_000))
    wb = bot.floor + curve(44) * np.exp(bot.sigma(44) * r.standard_normal(100_000))
    assert float(np.mean(wb < wa)) == pytest.approx(exact, abs=0.01)


def test_risk_policy_proposes_when_the_risk_is_high_and_votes_cautiously() -> None:
    policy = StarPolicy(risk=1.0, vote_risk=0.5, vote_gap=5)
    assert policy.wants_star_at(Game.from_hands([[45], [50], [40]], stars=1).observation(0), 1.0)
    calm = Game.from_hands([[45], [50], [40]], stars=1).observation(0)
    assert not policy.wants_star_at(calm, 0.9)
    assert not policy.wants_star_at(Game.from_hands([[45], [50], [40]], stars=0).observation(0), 5)
    assert policy.vote_at(calm, 0.5) and not policy.vote_at(calm, 0.4)
    close = Game.from_hands([[4], [50], [40]], stars=1).observation(0)
    assert policy.vote_at(close, 0.0)  # its card is close to the pile: the star costs little
    last = Game.from_hands([[45], [50], [40]], stars=1, lives=1).observation(0)
    assert policy.vote_at(last, 0.0)
    with pytest.raises(ValueError, match="risk and vote_risk go together"):
        StarPolicy(risk=1.0)
    with pytest.raises(ValueError, match=r"StarPolicy.risk must be a finite number >= 0, not -1"):
        StarPolicy(risk=-1, vote_risk=0.5)


def test_human_bots_propose_stars_now_and_then_never_twice_between_cards() -> None:
    proposed = 0
    for seed in range(6):
        game = run_game(Game(players=3, seed=seed), "human", seed=seed)
        proposed += sum(e.type == "star_proposed" for e in game.events)
        since_card = 0
        for e in game.events:
            since_card = (
                0 if e.type in ("played", "dealt") else since_card + (e.type == "star_used")
            )
            assert since_card <= 1
    assert 3 <= proposed <= 6 * 12


# ------------------------------------------------------------------ the table and the widget
def test_the_widgets_default_bots_wait_like_people_and_adapt() -> None:
    w = MindWidget(players=3, seat=0, seed=1)
    bots = w.table.bots
    assert all(type(bots[p]) is HumanTimer and bots[p].propose_stars for p in (1, 2))
    assert all(bots[p].rate > 0 for p in (1, 2))
    assert w.tempo == "people" and w.table.tempo == 1.0


def test_the_tempo_is_set_from_python_and_the_bots_plan_again() -> None:
    w = MindWidget(players=3, seat=0, seed=1)
    w.ready()
    seq = w.table.seq
    w.tempo = "slow"
    assert w.table.tempo == 1.5 and w.table.seq > seq
    assert [b.tempo for b in w.table.bots[1:]] == [1.5, 1.5]
    w.tempo = 0.8
    assert w.table.tempo == pytest.approx(0.8)
    w.table.bots[1].set_tempo(1.3)  # as if it had adapted
    w.tempo = 0.8  # the same value again: back to it
    assert [b.tempo for b in w.table.bots[1:]] == [0.8, 0.8]
    table = Table(players=3, seats=(0,), seed=2, tempo="quick")
    assert table.tempo == 0.6


@pytest.mark.parametrize("tempo", [0, -1.0, float("nan"), float("inf"), "fast"])
def test_a_bad_tempo_is_refused_and_changes_nothing(tempo: object) -> None:
    w = MindWidget(players=3, seat=0, seed=1)
    with pytest.raises(ValueError, match=r"tempo must be 'slow', 'people', 'quick' or a finite"):
        w.tempo = tempo  # type: ignore[assignment]
    assert w.tempo == "people" and w.table.tempo == 1.0
    with pytest.raises(ValueError, match=r"tempo must be"):
        MindWidget(players=3, seat=0, seed=1, tempo=tempo)  # type: ignore[arg-type]


def test_a_table_without_human_bots_has_no_tempo_to_set() -> None:
    table = Table(players=3, seats=(0,), bots="scalar", seed=1)
    assert table.tempo is None
    with pytest.raises(ValueError, match=r"bots \(ScalarTimer, ScalarTimer\) have no tempo"):
        table.tempo = "slow"
    w = MindWidget(players=3, seat=0, bots="scalar", seed=1)
    with pytest.raises(ValueError, match=r"have no tempo to set; bots='human' has"):
        w.tempo = "slow"
    assert w.tempo == "people"
    w.set_state({"tempo": "quick"})  # from the browser: a notice, nothing changes
    assert w.tempo == "people" and w.notice["key"] == "bad_tempo"


def test_the_watch_speed_of_a_table_of_bots_only() -> None:
    w = MindWidget(players=3, seat=None, seed=3, speed=2)
    assert w.clock["speed"] == 2 and w.table.speed == 2
    w.speed = 4
    assert w.clock["speed"] == 4
    for bad in (3, 0, 1.5, "2", True):
        with pytest.raises(ValueError, match=r"speed must be one of 1, 2, 4, not"):
            w.speed = bad  # type: ignore[assignment]
    assert w.speed == 4
    with pytest.raises(ValueError, match=r"speed 2 is for a table of bots only.*allowed 1"):
        MindWidget(players=3, seat=0, seed=3, speed=2)
    person = MindWidget(players=3, seat=0, seed=3)
    with pytest.raises(ValueError, match=r"speed 4 is for a table of bots only"):
        person.speed = 4
    assert person.speed == 1 and person.clock["speed"] == 1


def test_the_game_keeps_true_level_times_at_any_watch_speed() -> None:
    games = []
    for speed in (1, 4):
        table = Table(players=3, seats=None, seed=5, speed=speed)
        table.ready(t=0.0)
        for t in np.arange(0.1, 60.0, 0.1):
            table.tick(float(t))
        games.append(table.game.to_json())
    assert games[0] == games[1]


def test_the_browser_sets_the_tempo_by_name_and_a_bad_value_gets_a_notice() -> None:
    w = MindWidget(players=3, seat=0, seed=1)
    w.set_state({"tempo": "quick"})
    assert w.tempo == "quick" and w.table.tempo == 0.6
    w.set_state({"tempo": "fast"})
    assert w.tempo == "quick" and w.notice["key"] == "bad_tempo"
    assert "'fast'" in w.notice_text and "like people" in w.notice_text
    w.set_state({"speed": 2})
    assert w.speed == 1 and w.notice["key"] == "bad_speed"
    assert w.notice["params"]["allowed"] == "1"
    watch = MindWidget(players=3, seat=None, seed=1)
    watch.set_state({"speed": 4})
    assert watch.clock["speed"] == 4
    watch.set_state({"speed": 3})
    assert watch.notice["params"] == {"value": "3", "allowed": "1, 2, 4"}


def test_the_widget_mirrors_a_players_clock() -> None:
    w = MindWidget(players=3, seat=None, seed=1, mode="step")
    w.ready()
    while w.planned is not None:
        w.wait()
    with pytest.raises(ValueError, match="a table of bots only has no person"):
        w.timing_profile()
    profile = w.timing_profile(1)
    assert profile == timing_profile(w.game, 1)
    assert w.plot_timing(1).axes


# ------------------------------------------------------------------ ready again after a pause
def stopped_game() -> Game:
    g = Game.from_hands([[10, 60], [30, 70], [50, 90]])
    g.ready(t=0.0)
    g.play(0, t=8.0)
    g.stop(1, t=9.0)  # hands back on the table
    return g


def test_human_bots_are_ready_again_after_a_human_pause() -> None:
    resumes = []
    for seed in range(200):
        g = stopped_game()
        run_level(g, HumanTimer(rate=0), seed=seed)
        resumes.append([e.t for e in g.level_events if e.type == "ready"][1] - 9.0)
    # the team goes on when its slowest bot is ready: the latest of three pauses
    assert min(resumes) >= 0.4
    assert 2.0 < float(np.median(resumes)) < 4.0
    assert ready_at(stopped_game(), make_team(HumanTimer(), 3), rng(), skip=(0, 1, 2)) == 9.0


def test_other_bots_are_ready_at_once() -> None:
    g = stopped_game()
    run_level(g, ScalarTimer(), seed=1)
    assert [e.t for e in g.level_events if e.type == "ready"] == [0.0, 9.0]


def test_at_a_table_a_human_bot_raises_its_hand_for_a_star_after_the_floor() -> None:
    """The table's bot watcher passes star_delay on: a proposal comes 0.4 s after Ready."""
    game = Game.from_hands([[50], [5, 70], [60]], lives=1, stars=1)
    table = Table(seats=(0,), game=game, seed=1)
    table.ready(t=2.0)
    planned = table.planned
    assert planned is not None and planned.action == "propose_star" and planned.player == 1
    assert planned.t == pytest.approx(2.4)


def test_after_a_quick_ready_the_bots_finish_their_pause_first() -> None:
    """A person stops and presses Ready 0.1 s later: no bot plays before it is ready."""
    later = []
    for seed in range(40):
        game = Game.from_hands([[90], [3, 60], [4, 70]])
        table = Table(seats=(0,), game=game, seed=seed)
        table.ready(t=0.0)
        table.stop(t=0.2)
        table.ready(t=0.3)
        planned = table.planned
        assert planned is not None
        bot = table.bots[planned.player]
        assert isinstance(bot, HumanTimer)
        assert planned.t >= bot._pause_until + 0.4  # ready, then at least the reaction floor
        later.append(planned.t)
    quick = [
        Table(seats=(0,), game=Game.from_hands([[90], [3, 60], [4, 70]]), seed=s) for s in range(40)
    ]
    for t in quick:
        t.ready(t=0.0)
    plain = [t.planned.t for t in quick if t.planned is not None]
    assert np.median(later) - 0.3 > np.median(plain) + 1.0


def test_after_a_no_a_bot_does_not_propose_again_while_its_cards_are_still_there() -> None:
    """Issue 21: after the person voted no, three proposals came within 6 s (one
    after each card). Now the bot waits until the cards it held near the pile
    when the team said no have gone."""
    policy = StarPolicy(close=10)
    g = Game.from_hands([[40, 90], [41, 45, 46, 48], [43, 95]], stars=2)
    g.ready(t=0.0)
    g.play(0, t=3.0)
    bot, r = HumanTimer(star_policy=policy).seat(1), rng()
    assert bot.wants_star(g.observation(1), r)
    g.propose_star(1, t=3.4)
    g.vote(0, False, t=3.5)
    bot.plan(g.observation(1), r)  # every bot re-plans after each event
    g.play(1, t=5.0)  # the pile has changed
    assert policy.wants_star(g.observation(1))  # the policy alone would propose again
    assert not bot.wants_star(g.observation(1), r)
    g.play(2, t=7.0)
    assert not bot.wants_star(g.observation(1), r)
    fresh = Game.from_hands([[40, 90], [41, 45, 46, 48], [43, 95]], stars=2, level=3)
    fresh.ready(t=0.0)
    fresh.play(0, t=3.0)
    assert bot.wants_star(fresh.observation(1), r)  # a new level: the no is forgotten


def test_a_person_who_says_no_hears_no_stream_of_proposals() -> None:
    """A table with a person in seat 0 who votes no to every star and plays at
    about a second per step: never three proposals within 6 s (before: in 9 of
    40 games), and the bots still propose."""
    proposals = crowded = 0
    for seed in range(12):
        table = Table(players=3, bots="human", seed=seed)
        table.ready(t=0.0)
        now = 0.0
        for _ in range(20_000):
            game = table.game
            if game.status == "cleared":
                table.next_level()
                now = 0.0
                table.ready(t=0.0)
                continue
            if game.status != "playing":
                break
            if game.concentrating:
                table.ready(t=now)
                continue
            now += 0.25
            table.tick(now)
            game = table.game
            if game.status != "playing" or game.concentrating:
                continue
            if game.proposal is not None:
                if 0 not in game.proposal:
                    table.vote(False, t=now)
                continue
            hand, since = game.hands[0], now - game.level_events[-1].t
            if hand and hand[0] - (game.top or 0) <= since:
                table.play(t=now)
        times = [(e.level, e.t) for e in table.game.events if e.type == "star_proposed"]
        proposals += len(times)
        crowded += sum(
            a[0] == b[0] and b[1] - a[1] <= 6 for a, b in zip(times, times[2:], strict=False)
        )
    assert crowded == 0
    assert proposals >= 6
