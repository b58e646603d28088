"""timing_profile and plot_timing: a mirror of a player's inner clock."""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.figure import Figure

from mindwidget import Game, timing_profile
from mindwidget.bots import HumanTimer, ScalarTimer
from mindwidget.bots.runner import run_game
from mindwidget.plots import plot_timing
from mindwidget.timing import MAX_FLOOR, MIN_PLAYS, player_plays


def clockwork(floor: float, step: float, cards: list[int]) -> Game:
    """Player 0 plays ``cards`` waiting exactly floor + step * gap each time."""
    g = Game.from_hands([cards, [99]])
    g.ready(t=0.0)
    t, top = 0.0, 0
    for card in cards:
        t += floor + step * (card - top)
        g.play(0, t=t)
        top = card
    return g


def test_fewer_than_three_plays_says_so_instead_of_fitting() -> None:
    g = clockwork(0.5, 1.0, [10, 30])
    profile = timing_profile(g, 0)
    assert not profile.fitted and profile.plays == 2 == MIN_PLAYS - 1
    assert math.isnan(profile.seconds_per_step) and math.isnan(profile.floor)
    assert profile.note == "only 2 plays so far; the profile needs at least 3."
    assert "only 2 plays" in str(profile)
    assert timing_profile(g, 1).plays == 0


def test_the_first_card_of_a_level_counts_its_gap_from_zero() -> None:
    rows = player_plays(clockwork(0.5, 1.0, [10, 30]), 0)
    assert rows["gap"].tolist() == [10.0, 20.0]
    assert rows["wait"].tolist() == pytest.approx([10.5, 20.5])


def test_a_clockwork_player_is_fitted_exactly() -> None:
    g = clockwork(0.5, 0.8, [5, 12, 30, 31, 60])
    profile = timing_profile(g, 0)
    assert profile.fitted and profile.plays == 5
    assert profile.floor == pytest.approx(0.5, abs=1e-6)
    assert profile.seconds_per_step == pytest.approx(0.8, abs=1e-6)
    assert profile.cv == pytest.approx(0.0, abs=1e-6)
    assert "0.80 s per step" in str(profile)


def test_the_profile_finds_a_scalar_timers_tempo_and_spread() -> None:
    """Seat 0 waits 0.5 s per step with cv 0.1 and no floor, among perfect bots."""
    team = [ScalarTimer(seconds_per_step=0.5, cv=0.1, motor_sd=0.0)] + [
        ScalarTimer(seconds_per_step=0.5, cv=0.1, motor_sd=0.0)
    ] * 2
    g = run_game(Game(players=3, seed=2), team, seed=2)
    profile = timing_profile(g, 0)
    assert profile.plays >= 20
    assert profile.seconds_per_step == pytest.approx(0.5, rel=0.15)
    assert profile.floor < 0.4
    assert 0.03 < profile.cv < 0.25


def test_the_profile_reads_a_human_timers_tempo_on_the_people_curve() -> None:
    team = [HumanTimer(tempo="slow", rate=0)] + [HumanTimer(tempo="slow", rate=0)] * 2
    g = run_game(Game(players=3, seed=4), team, seed=4)
    profile = timing_profile(g, 1)
    assert profile.tempo == pytest.approx(1.5, rel=0.2)
    assert profile.floor >= 0.0


def test_player_plays_are_the_players_own_plays_only() -> None:
    g = run_game(Game(players=3, seed=1), "human", seed=1)
    for p in range(3):
        rows = player_plays(g, p)
        assert set(rows["player"]) <= {p}
        assert set(rows["outcome"]) <= {"play", "mistake"}
        assert (rows["gap"] >= 1).all()
    assert sum(len(player_plays(g, p)) for p in range(3)) > 0


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_plot_timing_draws_the_player_beside_the_bots_and_the_reference(lang: str) -> None:
    g = run_game(Game(players=3, seed=1), "human", seed=1)
    fig = plot_timing(g, 0, lang=lang)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    title = {"en": "inner clock", "nl": "innerlijke klok", "de": "innere Uhr"}[lang]
    assert title in ax.get_title()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(labels) == 5  # reference, curve, the others, the player, the fit
    mine = player_plays(g, 0)
    drawn = [line for line in ax.get_lines() if len(line.get_xdata()) == len(mine)]
    assert any(np.allclose(line.get_ydata(), mine["wait"]) for line in drawn)


def test_plot_timing_with_too_few_plays_says_so() -> None:
    fig = plot_timing(clockwork(0.5, 1.0, [10]), 0, lang="de")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts == ["erst 1 Karte gespielt; das Profil braucht mindestens 3"]


@pytest.mark.parametrize("player", [-1, 3, 1.0, True, "0"])
def test_a_bad_player_is_refused_naming_the_seats(player: object) -> None:
    g = Game(players=3, seed=0)
    with pytest.raises(ValueError, match=r"player must be a seat from 0 to 2, not"):
        timing_profile(g, player)  # type: ignore[arg-type]


def test_plot_timing_refuses_an_unknown_language() -> None:
    with pytest.raises(ValueError, match=r"lang must be one of en, nl, de, not 'fr'"):
        plot_timing(Game(players=2, seed=0), 0, lang="fr")


def test_the_floor_stays_a_reaction_floor_when_only_far_cards_were_played() -> None:
    g = clockwork(3.0, 0.5, [20, 45, 70, 95])  # every wait is 3 s + 0.5 s per step
    profile = timing_profile(g, 0)
    assert profile.floor == MAX_FLOOR == 1.0
    assert profile.seconds_per_step > 0.5  # the rest is put down to the steps


@pytest.mark.parametrize(
    ("lang", "you", "bot"),
    [
        ("en", ("You (player 1)", "Your inner clock"), ("Bot 3", "Bot 3's inner clock")),
        (
            "nl",
            ("Jij (speler 1)", "Jouw innerlijke klok"),
            ("Bot 3", "De innerlijke klok van Bot 3"),
        ),
        ("de", ("Du (Spieler 1)", "Deine innere Uhr"), ("Bot 3", "Die innere Uhr von Bot 3")),
    ],
)
def test_plot_timing_names_the_person_you_and_the_bots_as_the_widget_does(
    lang: str, you: tuple[str, str], bot: tuple[str, str]
) -> None:
    g = run_game(Game(players=3, seed=1), "human", seed=1)
    for player, (name, title) in ((0, you), (2, bot)):
        ax = plot_timing(g, player, lang=lang, you=0, bots=True).axes[0]
        assert ax.get_title().startswith(title)
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert name in labels
        others = [s for s in [ax.get_title(), *labels] if s != you[0]]
        assert not any("layer" in s or "peler" in s for s in others)
    # a table of bots only: every seat is a bot
    assert (
        plot_timing(g, 0, lang=lang, you=None, bots=True)
        .axes[0]
        .get_title()
        .startswith(bot[1].replace("3", "1"))  # seat index 0 is Bot 1
    )


def test_plot_timing_refuses_a_person_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match=r"player must be a seat from 0 to 2, not 5"):
        plot_timing(Game(players=3, seed=0), 0, you=5)
