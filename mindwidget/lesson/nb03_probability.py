"""Notebook 03-probability (notebooks/src/03-probability.cells): bets on chances,
answered by simulation.
"""

from __future__ import annotations

from typing import Any

import ipywidgets
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..bots import Bot, ScalarTimer, StarPolicy
from ..bots.runner import run_game, run_level
from ..game import Game
from ..plots import plot_trace
from ..rules import Rules
from ..sim import Summary, simulate
from ..sim.prob import expected_adjacent_pairs, p_wrong_order
from .kit import (
    BIG_TEXT,
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    Answer,
    Bet,
    everyone,
    figure_html,
    labelled,
    lesson_style,
    markdown_html,
    new_figure,
    number,
    percent,
    percent_axis,
    text,
)


def summary_of(players: int, bots: Any, games: int, seed: int) -> Summary:
    """The `Summary` of ``games`` seeded games of ``players`` (``bots``), without a progress bar."""
    return simulate(players=players, bots=bots, games=games, seed=seed, progress=False).summary()


def bet_watch_bots(lang: str) -> Bet:
    """Will three bots clear all 10 levels? One game, seed 7, and its last level's trace."""
    game = run_game(Game(players=3, seed=7), ScalarTimer(), seed=7)
    key = "watch_won" if game.status == "won" else "watch_lost"
    answer = Answer(
        text(key, lang, level=game.level, of=game.levels),
        plot_trace(game, lang=lang, bots=True),
        text("watch_rings", lang),
        lang=lang,
    )
    yes_no = [everyone("yes"), everyone("no")]
    right = 0 if game.status == "won" else 1
    question = everyone("03-probability.bet_watch")
    return Bet(question, answer, choices=yes_no, lang=lang, right=right)


def bet_team_sizes(lang: str, games: int = 10_000, seed: int = 1) -> Bet:
    """How often do teams of 2, 3 and 4 bots win? A bar chart in percentages.

    Args:
        lang: The language of the bet and its answer.
        games: Games simulated per team size.
        seed: The simulation's seed (the same seed, the same figures).
    """
    sizes = (2, 3, 4)
    results = {n: summary_of(n, "scalar", games, seed) for n in sizes}
    fig, ax = new_figure(6, 3.6)
    rates = [results[n].win_rate for n in sizes]
    bars = ax.bar([text("n_players", lang, n=n) for n in sizes], rates, color=[GREEN, BLUE, ORANGE])
    ax.bar_label(bars, labels=[percent(r, lang) for r in rates], fontsize=13)
    percent_axis(ax)
    ax.set_ylabel(text("games_won", lang))
    ax.set_title(text("games_each", lang, games=number(games, lang)))
    lines = [
        text(
            "team_size_line",
            lang,
            n=n,
            levels=Game(players=n).levels,
            lives=Rules(players=n).start_lives,
            rate=percent(results[n].win_rate, lang),
        )
        for n in sizes
    ]
    margin = max((s.win_rate_high - s.win_rate_low) / 2 for s in results.values())
    answer = Answer(
        fig,
        "\n\n".join(lines),
        text("team_size_why", lang, margin=number(100 * margin, lang, 1)),
        lang=lang,
    )
    question = everyone("03-probability.bet_team")  # the range: three bots' games won in 100
    return Bet(question, answer, out_of=100, lang=lang, right=100 * results[3].win_rate)


def bet_swap(lang: str, runs: int = 3, levels: int = 2000) -> Bet:
    """40 against 45 on an empty pile: the exact chance, and simulations that settle on it.

    Args:
        lang: The language of the bet and its answer.
        runs: How many simulated runs the chart draws.
        levels: Levels of 40 against 45 in each run.
    """
    exact = p_wrong_order(40, 45)
    fig, ax = new_figure(7, 3.4)
    x = np.arange(1, levels + 1)
    for run in range(runs):
        hits = np.array([_swapped(run * levels + i, ScalarTimer()) for i in range(levels)])
        ax.plot(x, hits.cumsum() / x, lw=1.4, label=text("run_n", lang, n=run + 1))
    ax.axhline(exact, color="black", ls="--", label=text("exact", lang, p=percent(exact, lang)))
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(lambda x, _pos: number(x, lang))
    ax.set_xlabel(text("levels_played", lang))
    ax.set_ylabel(text("share_45_first", lang))
    percent_axis(ax)
    ax.legend(frameon=False)
    answer = Answer(
        text("swap_answer", lang, p=percent(exact, lang)),
        fig,
        text("swap_settle", lang),
        lang=lang,
    )
    question = everyone("03-probability.bet_swap")
    return Bet(question, answer, out_of=100, lang=lang, right=100 * exact)


def _swapped(seed: int, bot: Bot) -> bool:
    game = run_level(Game.from_hands([[40], [45]], seed=seed), bot, seed=seed)
    return bool(game.pile[0] == 45)


def swap_share(bot: Bot, levels: int, seed: int = 0) -> float:
    """How often 45 goes before 40 in ``levels`` levels of two such bots.

    The first move of `_swapped`'s level, drawn directly: both bots plan from the
    level's first moment (`Bot.plan` on their observations, as the runner asks
    them) and the earlier plan plays; 20 times quicker than playing each level.
    """
    game = Game.from_hands([[40], [45]], seed=seed)
    game.ready(t=0.0)
    low, high = bot.seat(0), bot.seat(1)
    obs_low, obs_high = game.observation(0), game.observation(1)
    rng = np.random.default_rng(seed)
    swapped = sum(high.plan(obs_high, rng) < low.plan(obs_low, rng) for _ in range(levels))
    return swapped / levels


def far_above(lang: str) -> Figure:
    """The chance that two cards swap, by how far above the pile the lower one lies."""
    above = list(range(1, 61))
    fig, ax = new_figure(7, 3.4)
    for apart in (1, 2, 5, 10):
        ax.plot(
            above,
            [p_wrong_order(a, a + apart) for a in above],
            label=text("cards_apart", lang, n=apart),
            lw=2,
        )
    ax.set_xlabel(text("steps_above_pile", lang))
    ax.set_ylabel(text("chance_swap", lang))
    percent_axis(ax, 0.5)
    ax.legend(frameon=False)
    return fig


def pile_table(lang: str) -> pd.DataFrame:
    """The 40 and the 45 with the pile at 0, 20 and 35: how often the 45 goes first."""
    frame: pd.DataFrame = pd.DataFrame(
        {
            text("chance_45_first", lang): [
                percent(p_wrong_order(40, 45, top=t), lang, 2) for t in (0, 20, 35)
            ]
        },
        index=pd.Index([0, 20, 35], name=text("top_of_pile", lang)),
    )
    return frame


def bet_pairs(lang: str, deals: int = 2000, seed: int = 0) -> Bet:
    """Touching pairs (41 and 42) in different hands: exact, and the mean of random deals.

    Args:
        lang: The language of the bet and its answer.
        deals: Random deals per level for the mean.
        seed: The deals' seed.
    """
    rng = np.random.default_rng(seed)
    levels = np.arange(1, 11)
    exact = [expected_adjacent_pairs(3, int(k)) for k in levels]
    dealt = [np.mean([_touching_pairs(rng, 3, int(k)) for _ in range(deals)]) for k in levels]
    fig, ax = new_figure(6, 3.4)
    ax.plot(levels, exact, "k--", label=text("exact_plain", lang))
    ax.plot(
        levels, dealt, "o", color=ORANGE, label=text("mean_of_deals", lang, n=number(deals, lang))
    )
    ax.set_xlabel(text("level_three_players", lang))
    ax.set_ylabel(text("touching_pairs", lang))
    ax.set_xticks(levels)
    ax.legend(frameon=False)
    answer = Answer(
        text(
            "pairs_answer",
            lang,
            exact=number(exact[-1], lang, 1),
            dealt=number(float(dealt[-1]), lang, 2),
            n=number(deals, lang),
        ),
        fig,
        lang=lang,
    )
    question = everyone("03-probability.bet_pairs")
    return Bet(question, answer, out_of=30, lang=lang, right=float(exact[-1]))


def _touching_pairs(rng: np.random.Generator, players: int, each: int) -> int:
    owner = np.full(102, -1)
    cards = rng.permutation(np.arange(1, 101))[: players * each]
    owner[cards] = np.repeat(np.arange(players), each)
    a, b = owner[1:100], owner[2:101]
    return int(np.sum((a >= 0) & (b >= 0) & (a != b)))


#: The wobbles the noise chart marks, with their text keys.
_MARKS = ((0.07, "wobble_counting"), (0.14, "wobble_person"), (0.28, "wobble_sloppy"))


def bet_noise(lang: str, games: int = 3000, seed: int = 2) -> Bet:
    """Win rate of a team of three against the wobble of their clocks (0% to 30%).

    Args:
        lang: The language of the bet and its answer.
        games: Games simulated per wobble.
        seed: The simulation's seed.
    """
    cvs = [round(0.02 * i, 2) for i in range(16)] + [0.07]
    noisy = {cv: summary_of(3, ScalarTimer(cv=cv), games, seed) for cv in sorted(set(cvs))}
    fig, ax = new_figure(7, 3.6)
    xs = list(noisy)
    ax.fill_between(
        xs,
        [s.win_rate_low for s in noisy.values()],
        [s.win_rate_high for s in noisy.values()],
        alpha=0.3,
        color=BLUE,
    )
    ax.plot(xs, [s.win_rate for s in noisy.values()], "o-", color=BLUE)
    for cv, key in _MARKS:
        ax.axvline(cv, color=GREY, ls=":")
        ax.annotate(text(key, lang), (cv, 0.05), xytext=(4, 0), textcoords="offset points")
    ax.xaxis.set_major_formatter(lambda x, _pos: f"{100 * x:.0f}%")
    ax.set_xlabel(text("wobble_axis", lang))
    ax.set_ylabel(text("games_won_three", lang))
    percent_axis(ax)
    lines = [
        text(
            "noise_line",
            lang,
            wobble=percent(cv, lang, 0),
            rate=percent(noisy[cv].win_rate, lang),
            games=number(games, lang),
        )
        for cv, _key in _MARKS
    ]
    answer = Answer("\n\n".join(lines), fig, lang=lang)
    question = everyone("03-probability.bet_noise")  # the range: the team at 7%
    return Bet(question, answer, out_of=100, lang=lang, right=100 * noisy[0.07].win_rate)


def noise_slider(lang: str, levels: int = 2000, games: int = 1000) -> ipywidgets.VBox:
    """A slider "how much each player's clock wobbles": 40 and 45 swap, and a team's win rate.

    Its words stand above it (a track of the full width at any screen size). It
    answers when it is let go (``continuous_update=False``), within about 0.3 s
    per step: the races are drawn directly (`swap_share`), the team plays 1,000
    games on the fast engine, and an answer once given is kept for that wobble
    (``benchmarks/notebook_times.py`` measures it).

    Args:
        lang: The language of the slider's words.
        levels: Races of 40 against 45 drawn per step.
        games: Games the team plays per step.
    """
    slider = ipywidgets.SelectionSlider(
        options=[(f"{p}%", round(p / 100, 2)) for p in range(0, 31)],
        value=0.14,
        continuous_update=False,
    )
    row = labelled(text("wobble_slider", lang), slider)
    out = ipywidgets.HTML()
    answers: dict[float, str] = {}

    def update(_change: object = None) -> None:
        cv = float(slider.value)
        if cv not in answers:
            answers[cv] = _noise_answer(lang, cv, levels, games)
        out.value = answers[cv]

    slider.observe(update, names="value")
    update()
    box = ipywidgets.VBox([lesson_style(), row, out])
    box.add_class("mw-lesson-big")
    box.slider, box.label, box.out = slider, row.label, out
    return box


def _noise_answer(lang: str, cv: float, levels: int, games: int) -> str:
    """The noise slider's answer for one wobble (HTML)."""
    bot = ScalarTimer(cv=cv)
    exact = p_wrong_order(40, 45, bot=bot)
    races = swap_share(bot, levels)
    team = summary_of(3, bot, games, 2)
    return (
        f'<div style="{BIG_TEXT}">'
        + markdown_html(
            text(
                "slider_swap",
                lang,
                exact=percent(exact, lang),
                sim=percent(races, lang),
                n=number(levels, lang),
            )
            + "\n\n"
            + text("slider_team", lang, rate=percent(team.win_rate, lang), n=number(games, lang))
        )
        + "</div>"
    )


#: The star habits of part 6: text key -> the bot's StarPolicy (None: never).
HABITS: dict[str, StarPolicy | None] = {
    "habit_never": None,
    "habit_last_life": StarPolicy(close=0, last_life_gap=100),
    "habit_close": StarPolicy(),
    "habit_close_all": StarPolicy(close=10, vote_gap=100),
}


def _habit_bot(policy: StarPolicy | None, **kw: Any) -> ScalarTimer:
    return ScalarTimer(propose_stars=policy is not None, star_policy=policy, **kw)


def bet_star_habits(lang: str, games: int = 20_000, seed: int = 3) -> Bet:
    """Which throwing-star habit wins most often? Win rates and stars used.

    Args:
        lang: The language of the bet and its answer.
        games: Games simulated per habit.
        seed: The simulation's seed.
    """
    results = {key: summary_of(3, _habit_bot(p), games, seed) for key, p in HABITS.items()}
    table = pd.DataFrame(
        {
            text("habit", lang): [text(k, lang) for k in results],
            text("games_won", lang): [percent(s.win_rate, lang) for s in results.values()],
            text("stars_used", lang): [
                number(s.mean_stars_used, lang, 2) for s in results.values()
            ],
        },
    )
    answer = Answer(table, text("stars_answer", lang, games=number(games, lang)), lang=lang)
    choices = [everyone(k) for k in HABITS]
    best = max(range(len(HABITS)), key=lambda i: list(results.values())[i].win_rate)
    question = everyone("03-probability.bet_stars")
    return Bet(question, answer, choices=choices, lang=lang, right=best)


def sandbox(lang: str) -> ipywidgets.VBox:
    """Your own experiment: players, wobble, one player's tempo, a star habit; press Run."""
    wide = ipywidgets.Layout(width="100%")
    players = ipywidgets.IntSlider(3, 2, 4, layout=wide)
    wobble = ipywidgets.SelectionSlider(
        options=[(f"{p}%", p / 100) for p in range(0, 31)], value=0.14, layout=wide
    )
    tempo = ipywidgets.SelectionSlider(
        options=[(f"{number(s / 100, lang, 2)} s", s / 100) for s in range(15, 46)],
        value=0.3,
        layout=wide,
    )
    habit = ipywidgets.Dropdown(
        options=[(text(k, lang), k) for k in HABITS], value="habit_never", layout=wide
    )
    games = ipywidgets.SelectionSlider(
        options=[(number(n, lang), n) for n in (500, 1000, 2000, 4000, 10_000)],
        value=1000,
        layout=wide,
    )
    rows = (
        ("sb_players", players),
        ("wobble_slider", wobble),
        ("sb_tempo", tempo),
        ("habit", habit),
        ("sb_games", games),
    )
    grid = ipywidgets.GridBox(
        children=[w for key, control in rows for w in (ipywidgets.Label(text(key, lang)), control)],
        layout=ipywidgets.Layout(
            # the words may wrap; every slider keeps at least 300 px (a track of 150+)
            grid_template_columns="fit-content(45%) minmax(300px, 36em)",
            grid_gap="4px 12px",
            align_items="center",
        ),
    )
    grid.add_class("mw-lesson-grid")
    run = ipywidgets.Button(
        description=text("sb_run", lang),
        button_style="primary",
        icon="play",
        layout=ipywidgets.Layout(width="auto", height="44px", align_self="flex-start"),
    )
    out = ipywidgets.HTML()

    def go(_b: object = None) -> None:
        sentence, fig = sandbox_result(
            lang, players.value, wobble.value, tempo.value, habit.value, games.value
        )
        out.value = f'<div style="{BIG_TEXT}">{markdown_html(sentence)}</div>{figure_html(fig)}'

    run.on_click(go)
    go()
    box = ipywidgets.VBox([lesson_style(), grid, run, out])
    box.add_class("mw-lesson-big")
    box.run, box.out = go, out
    return box


def sandbox_result(
    lang: str, players: int, wobble: float, tempo: float, habit: str, games: int, seed: int = 0
) -> tuple[str, Figure]:
    """One sandbox run: a sentence and a chart of the level reached, in percentages.

    Args:
        lang: The language of the sentence and the chart.
        players: How many play.
        wobble: Each clock's wobble (its cv, 0.15 for 15%).
        tempo: The first player's seconds per step (the others keep the default).
        habit: The team's throwing-star habit, a key of `HABITS`.
        games: Games simulated.
        seed: The simulation's seed.
    """
    policy = HABITS[habit]
    team: list[Bot] = [_habit_bot(policy, cv=wobble, seconds_per_step=tempo)]
    team += [_habit_bot(policy, cv=wobble) for _ in range(players - 1)]
    result = simulate(players=players, bots=team, games=games, seed=seed, progress=False)
    s = result.summary()
    reached = result.games["level_reached"].value_counts().sort_index()
    n_levels = Game(players=players).levels
    fig, ax = new_figure(6, 3)
    share = [reached.get(k, 0) / games for k in range(1, n_levels + 1)]
    ax.bar(range(1, n_levels + 1), share, color=GREEN)
    ax.set_xticks(range(1, n_levels + 1))
    ax.set_xlabel(text("level_reached", lang))
    ax.set_ylabel(text("share_of_games", lang))
    percent_axis(ax, max(0.1, min(1.0, max(share) * 1.15)))
    sentence = text(
        "sb_result",
        lang,
        won=percent(s.win_rate, lang),
        games=number(games, lang),
        level=number(s.mean_level_reached, lang, 1),
    )
    return sentence, fig
