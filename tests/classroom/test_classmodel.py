"""The class's model (mindwidget/classmodel.py, prob.swap_chance, classroom/history.py).

The fitted clocks recover a player's spread; the normal model's swap chance is
`prob.p_wrong_order` and agrees with a simulation; close pairs, the spread table,
the answers comparison and the lessons read from journals are checked on data
made by hand, where the right answer is known.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mindwidget import Game, classdata, simulate
from mindwidget import classmodel as cm
from mindwidget.bots import HumanTimer, ScalarTimer
from mindwidget.bots.human import REACTION_FLOOR, curve_of
from mindwidget.bots.runner import run_game
from mindwidget.classroom import history as hist
from mindwidget.classroom import journal as J
from mindwidget.sim.prob import p_wrong_order, swap_chance

# ------------------------------------------------------------------ fitted clocks
#: How close a clock fitted to 30 plays comes to the spread it was drawn with. The
#: fit's sigma has a relative standard error of about 1/sqrt(2 x 29) = 13%, so
#: 95% of fits within 30% (2.3 standard errors) is what the estimator promises.
TOLERANCE = 0.30
PLAYS = 30


def _player(cv: float, tempo: float, rng: np.random.Generator, n: int = PLAYS) -> tuple:
    """``n`` plays of a person who waits as the model says: gaps 1..30 at random,
    ``wait = floor + tempo x curve(gap) x exp(sigma Z)`` with sigma for ``cv``."""
    gaps = rng.integers(1, 31, n).astype(float)
    sigma = math.sqrt(math.log1p(cv * cv))
    waits = REACTION_FLOOR + tempo * curve_of(gaps) * np.exp(sigma * rng.standard_normal(n))
    return gaps, waits


@pytest.mark.parametrize("cv", [0.07, 0.14, 0.28])
def test_a_fitted_clock_recovers_a_players_spread_from_30_plays(cv: float) -> None:
    rng = np.random.default_rng(int(cv * 100))
    fits = [cm.fit_clock(*_player(cv, 1.3, rng)) for _ in range(200)]
    own = np.array([f.cv_own for f in fits])
    within = np.mean(np.abs(own / cv - 1) <= TOLERANCE)
    assert within >= 0.95, (cv, within)
    assert abs(np.median(own) / cv - 1) < 0.05  # no bias to speak of
    tempos = np.array([f.tempo_own for f in fits])
    assert abs(np.median(tempos) / 1.3 - 1) < 0.03
    assert all(f.plays == PLAYS and not f.small for f in fits)


def _frame(players: dict[str, tuple]) -> pd.DataFrame:
    rows = []
    for name, (gaps, waits) in players.items():
        for g, w in zip(gaps, waits, strict=True):
            rows.append(
                {"table": 1, "player": 0, "kind": "person", "name": name, "gap": g, "wait": w}
            )
    return pd.DataFrame(rows)


def test_class_clocks_keep_each_pupils_spread_and_shrink_small_data_toward_the_class() -> None:
    rng = np.random.default_rng(5)
    players = {
        "Anna": _player(0.07, 0.8, rng),
        "Bram": _player(0.14, 1.0, rng),
        "Cas": _player(0.28, 1.4, rng),
        "Dirk": _player(0.14, 1.0, rng, n=3),  # small data
    }
    clocks = cm.clocks(_frame(players))
    table = clocks.table().set_index("name")
    for name, cv in (("Anna", 0.07), ("Bram", 0.14), ("Cas", 0.28)):
        assert abs(table.loc[name, "cv_own"] / cv - 1) <= TOLERANCE, (name, table.loc[name])
        # shrunk toward the class, by at most k / (n - 1 + k) of the way (in sigma^2)
        own, used, whole = table.loc[name, "cv_own"], table.loc[name, "cv"], clocks.cv
        assert min(own, whole) <= used <= max(own, whole)
        assert not table.loc[name, "small"]
    assert table.loc["Dirk", "small"] and table.loc["Dirk", "plays"] == 3
    # three plays: the class counts as PRIOR_PLAYS plays, so Dirk's tempo is pulled halfway
    own, used = math.log(table.loc["Dirk", "tempo_own"]), math.log(table.loc["Dirk", "tempo"])
    assert used == pytest.approx((3 * own + cm.PRIOR_PLAYS * math.log(clocks.tempo)) / 6)
    # the clocks are bots that simulate() plays (the fast engine: fixed tempo, no stars)
    bot = clocks["Cas"]
    assert isinstance(bot, HumanTimer) and bot.rate == 0 and bot.cv_near == table.loc["Cas", "cv"]
    result = simulate(3, bots=clocks.team(["Anna", "Bram", "Cas"]), games=300, progress=False)
    assert result.engine == "fast" and 0 <= result.summary().win_rate <= 1
    assert len(clocks.team(["Anna"], players=3)) == 3
    # the clocks themselves, one per seat, are a team too; more than the seats are not
    trio = cm.Clocks([clocks.fits[n] for n in ("Anna", "Bram", "Cas")], clocks.tempo, clocks.cv, 90)
    assert simulate(3, bots=trio, games=50, progress=False).engine == "fast"
    with pytest.raises(ValueError, match=r"one bot per seat \(3\), but has 4.*clocks.team"):
        simulate(3, bots=clocks, games=10, progress=False)
    with pytest.raises(ValueError, match="no clock for"):
        clocks.team(["Zoë"])


def test_a_clock_needs_a_play_and_refuses_bad_numbers() -> None:
    with pytest.raises(ValueError, match="at least one play"):
        cm.fit_clock([], [])
    with pytest.raises(ValueError, match="finite"):
        cm.fit_clock([1, 2], [1.0, float("nan")])
    with pytest.raises(ValueError, match="one length"):
        cm.fit_clock([1, 2], [1.0])
    one = cm.fit_clock([5], [3.0])
    assert one.plays == 1 and math.isnan(one.cv_own) and one.small


# ------------------------------------------------------------------ the swap chance
@pytest.mark.parametrize(
    "a, b, cv, spp, top",
    [(40, 45, 0.14, 0.3, 0), (40, 45, 0.25, 1.0, 0), (12, 14, 0.1, 0.5, 3), (60, 61, 0.3, 2.0, 50)],
)
def test_the_normal_model_is_p_wrong_order(a: int, b: int, cv: float, spp: float, top: int) -> None:
    s = swap_chance(a, b, cv, spp, top)
    bot = ScalarTimer(cv=cv, seconds_per_step=spp, motor_sd=0)
    assert s.p == pytest.approx(p_wrong_order(a, b, top, bot=bot), abs=1e-12)
    assert s.mu_d == pytest.approx(spp * (b - a))
    assert s.sd_d == pytest.approx(math.hypot(cv * spp * (a - top), cv * spp * (b - top)))
    assert s.p == pytest.approx(0.5 * math.erfc(-s.z / math.sqrt(2)))


def test_the_normal_model_at_014_is_the_lessons_277_percent() -> None:
    assert round(100 * swap_chance(40, 45, cv=0.14).p, 1) == 27.7
    with pytest.raises(ValueError, match="top < a < b"):
        swap_chance(45, 40, 0.14)
    with pytest.raises(ValueError, match="cv"):
        swap_chance(40, 45, 0.0)


@pytest.mark.parametrize("cv", [0.07, 0.14, 0.28])
def test_bots_with_the_spread_agree_with_the_model(cv: float) -> None:
    p = swap_chance(40, 45, cv, 0.7).p
    sim = cm.simulated_swaps(40, 45, cv, 0.7, draws=20_000, seed=3)
    assert abs(sim.rate - p) < 4 * math.sqrt(p * (1 - p) / sim.trials)
    assert sim.low <= sim.rate <= sim.high


# ------------------------------------------------------------------ the class's data
PEOPLE = {
    1: [
        {"seat": 0, "kind": "person", "name": "Anna"},
        {"seat": 1, "kind": "person", "name": "Bram"},
    ]
}


def test_close_pairs_count_the_order_in_which_two_pupils_played() -> None:
    wrong = Game.from_hands([[40], [45]])
    wrong.ready(t=0)
    wrong.play(1, t=3.0)  # 45 before 40: a mistake
    right = Game.from_hands([[40, 80], [43]])
    right.ready(t=0)
    right.play(0, t=3.0)
    right.play(1, t=4.0)
    pairs = cm.close_pairs({1: wrong, 2: right}, {1: PEOPLE[1], 2: PEOPLE[1]})
    assert pairs[["table", "a", "b", "wrong", "top"]].values.tolist() == [
        [1, 40, 45, True, 0],
        [2, 40, 43, False, 0],
    ]
    rate = cm.swap_rate(pairs)
    assert (rate.hits, rate.trials, rate.small) == (1, 2, True)
    # a bot's card is not a pupil's: with seats, that pair does not count
    bots = {1: [PEOPLE[1][0], {"seat": 1, "kind": "bot", "name": "Bot 2"}]}
    assert cm.close_pairs({1: wrong}, bots).empty
    assert len(cm.close_pairs({1: wrong})) == 1  # without seats every seat counts
    # one hand's two cards are never a pair; cards 6 apart are not close
    same = Game.from_hands([[40, 44], [50]])
    assert cm.close_pairs({1: same}).empty
    # the model for exactly these pairs, from their piles
    assert cm.model_for_pairs(pairs, 0.2) == pytest.approx(
        (swap_chance(40, 45, 0.2).p + swap_chance(40, 43, 0.2).p) / 2
    )


def test_a_pair_a_star_put_aside_was_never_tested() -> None:
    g = Game.from_hands([[40], [45]], stars=1)
    g.ready(t=0)
    g.propose_star(0, t=1.0)
    g.vote(1, True, t=1.5)
    assert cm.close_pairs({1: g}).empty


def test_the_spread_of_a_band_is_sd_over_mean_with_its_count() -> None:
    rows = [{"kind": "person", "name": "Anna", "gap": 1.0, "wait": w} for w in (1.0, 2.0, 3.0)]
    rows += [{"kind": "person", "name": "Bram", "gap": 1.0, "wait": 2.0}]
    rows += [{"kind": "bot", "name": "Bot 3", "gap": 1.0, "wait": 50.0}]  # not a person
    table = cm.spread(pd.DataFrame(rows)).set_index(["name", "band"])
    assert table.loc[("Anna", "1"), "cv"] == pytest.approx(0.5)  # mean 2, sd 1
    assert table.loc[("Anna", "1"), "plays"] == 3 and table.loc[("Anna", "1"), "small"]
    assert math.isnan(table.loc[("Bram", "1"), "cv"])  # one play: no spread
    assert table.loc[("", "1"), "plays"] == 4
    assert table.loc[("", "1"), "cv"] == pytest.approx(np.std([1, 2, 3, 2], ddof=1) / 2)


def test_within_a_band_each_wait_is_scaled_to_the_bands_middle_gap() -> None:
    """Waits exactly on the people curve at gaps 5, 6 and 7 have no spread at one gap."""
    gaps = [5.0, 6.0, 7.0]
    waits = REACTION_FLOOR + curve_of(np.array(gaps))
    rows = [
        {"kind": "person", "name": "A", "gap": g, "wait": w}
        for g, w in zip(gaps, waits, strict=True)
    ]
    table = cm.spread(pd.DataFrame(rows))
    assert table["cv"].iloc[0] == pytest.approx(0, abs=1e-12)


def test_predicted_tables_sit_beside_what_the_tables_did() -> None:
    data = cm.demo_class(pupils=6, seed=2)
    plays = data.plays()
    tables, levels = cm.predict_tables(data.tables, plays, games_each=200)
    assert tables["table"].tolist() == [1, 2]
    assert (tables["simulated"] == 200).all()
    assert (
        (tables["win_low"] <= tables["win_rate"]) & (tables["win_rate"] <= tables["win_high"])
    ).all()
    ended = [cm._outcomes(g) for g in data.tables.values()]
    for row in levels.itertuples():
        at = [c for outcomes in ended for lv, c in outcomes if lv == row.level]
        assert (row.tables, row.cleared) == (len(at), sum(at))
        assert row.low <= row.rate <= row.high and row.small and 0 <= row.predicted <= 1
    assert list(levels.columns) == list(cm.LEVEL_COLUMNS)
    assert levels["tables"].iloc[0] == 2  # both tables ended level 1


# ------------------------------------------------------------------ the class's guesses
def test_the_class_answers_beside_the_right_answers() -> None:
    rows = []
    choices = ["10%", "30%", "50%"]
    for pupil, choice in zip(("p1", "p2", "p3", "p4"), (1, 1, 0, 2), strict=True):
        rows.append(
            {
                "question": 1,
                "text": "How often does a team of three win?",
                "pupil": pupil,
                "name": pupil.upper(),
                "table": 1,
                "choice": choice,
                "choice_text": choices[choice],
                "right": choice == 1,
                "seconds": 4.0,
            }
        )
    for pupil, choice in (("p1", 0), ("p2", 1)):
        rows.append(
            {
                "question": 2,
                "text": "Which do you like?",
                "pupil": pupil,
                "name": pupil,
                "table": 1,
                "choice": choice,
                "choice_text": ["a", "b"][choice],
                "right": None,
                "seconds": 2.0,
            }
        )
    table = cm.compare_answers(pd.DataFrame(rows)).set_index("question")
    q1 = table.loc[1]
    assert (q1["answers"], q1["right"], q1["right_text"], q1["most_text"]) == (4, 2, "30%", "30%")
    assert q1["share"] == 0.5 and q1["off"] == pytest.approx(0.5)  # 0, 0, 1, 1 choices off
    assert q1["off_value"] == pytest.approx(10.0)  # 0, 0, 20, 20 percentage points
    q2 = table.loc[2]
    assert q2["right_text"] == "" and math.isnan(q2["share"]) and q2["answers"] == 2
    with pytest.raises(ValueError, match="missing columns"):
        cm.compare_answers(pd.DataFrame({"question": [1]}))
    who = cm.who_guessed(pd.DataFrame(rows)).set_index("name")
    assert who.loc["P3", 1] == ("10%", False) and who.loc["P1", 1] == ("30%", True)
    assert who.loc["p1", 2] == ("a", None)  # an opinion: neither right nor wrong
    assert who.loc["P1", 2] is None  # P1 did not answer question 2


# ------------------------------------------------------------------ lesson after lesson
HEADER = {"code": "4821", "teacher_token": "t" * 32, "port": 8765, "options": {"size": 2}}


def _journal(folder: Path, code: str, seeds: list[int]) -> Path:
    """A class journal with one game per seed at table 1 (two pupils), played by bots."""
    j = J.Journal.create(folder, code, HEADER | {"code": code})
    j.append("pupil", {"id": "p1", "name": "Anna", "lang": "nl", "token": "a" * 24})
    j.append("pupil", {"id": "p2", "name": "Bram", "lang": "nl", "token": "b" * 24})
    held = [
        {"seat": 0, "kind": "person", "name": "Anna", "from": 0, "pupil": "p1"},
        {"seat": 1, "kind": "person", "name": "Bram", "from": 0, "pupil": "p2"},
    ]
    for k, seed in enumerate(seeds):
        game = run_game(Game(players=2, seed=seed), "human", seed=seed)
        j.append("game", {"table": 1, "seed": seed, "rules": game.rules.to_dict()})
        j.append(
            "seats",
            {
                "table": 1,
                "size": 2,
                "seats": ["p1", "p2"],
                "bots": [],
                "games": k + 1,
                "people": [0, 1],
                "held": held,
            },
        )
        for action in game.actions:
            j.append("act", {"table": 1, "a": action})
        j.commit()
    j.close()
    return j.path


def test_history_compares_the_lessons_of_one_class_and_of_two(tmp_path: Path) -> None:
    path = _journal(tmp_path, "4821", [11, 12])
    # the first game was a lesson a week ago: its entries move back seven days
    conn = sqlite3.connect(path)
    firsts = [
        r[0] for r in conn.execute("SELECT seq FROM entries WHERE kind = 'game' ORDER BY seq")
    ]
    conn.execute("UPDATE entries SET at = at - 7 * 86400 WHERE seq < ?", (firsts[1],))
    conn.commit()
    conn.close()
    lessons = hist.lessons(path)
    assert len(lessons) == 2 and all(len(lesson.tables) == 1 for lesson in lessons)
    games = [run_game(Game(players=2, seed=s), "human", seed=s) for s in (11, 12)]
    for lesson, game in zip(lessons, games, strict=True):
        assert lesson.tables[1] == game  # every game of every lesson, replayed
        assert set(lesson.plays()["name"]) == {"Anna", "Bram"}
    today = time.strftime("%Y-%m-%d")
    frame = hist.history(["4821"], data=tmp_path, today=today)
    assert frame["today"].tolist() == [False, True]
    assert list(frame.columns) == list(hist.HISTORY_COLUMNS)
    for row, game in zip(frame.itertuples(), games, strict=True):
        plays = classdata.plays(
            {1: game},
            {1: [{"seat": s, "kind": "person", "name": n} for s, n in enumerate(("Anna", "Bram"))]},
        )
        results = classdata.results({1: game})
        assert row.plays == int(((plays["gap"] >= 1) & (plays["wait"] > 0)).sum())
        assert row.mistakes_per_level == pytest.approx(results["mistakes"].mean())
        assert row.level_max == results["level"].max() == game.level
    # the classes a teacher names: two journals, one lesson each
    _journal(tmp_path, "5555", [14])
    both = hist.history(["4821", "5555"], data=tmp_path, today=today)
    assert sorted(both["code"]) == ["4821", "4821", "5555"]
    assert hist.latest(tmp_path) is not None


def test_a_lesson_read_from_its_journal_keeps_the_class_answers(tmp_path: Path) -> None:
    # notebook 07 in another kernel than the class: the answers come from the journal
    path = _journal(tmp_path, "4821", [11])
    entries = [
        ("question", {"question": 1, "text": "Hoeveel?", "choices": ["a", "b"], "answer": 1}),
        (
            "answer",
            {"question": 1, "pupil": "p1", "name": "Anna", "table": 1, "choice": 0, "seconds": 2.5},
        ),
        (
            "answer",
            {"question": 1, "pupil": "p2", "name": "Bram", "table": 1, "choice": 1, "seconds": 3.0},
        ),
        (
            "answer",
            {"question": 1, "pupil": "p1", "name": "Anna", "table": 1, "choice": 1, "seconds": 4.0},
        ),  # Anna changed her mind: her last answer counts
        ("question_state", {"question": 1, "state": "revealed", "answer": 1}),
    ]
    conn = sqlite3.connect(path)
    seq = conn.execute("SELECT max(seq), max(at) FROM entries").fetchone()
    for k, (kind, data) in enumerate(entries, start=1):
        conn.execute(
            "INSERT INTO entries (seq, at, kind, data) VALUES (?, ?, ?, ?)",
            (seq[0] + k, seq[1], kind, json.dumps(data)),
        )
    conn.commit()
    conn.close()
    (lesson,) = hist.lessons(path)
    answers = lesson.answers.sort_values("name").reset_index(drop=True)
    assert answers["name"].tolist() == ["Anna", "Bram"]
    assert answers["choice"].tolist() == [1, 1] and answers["right"].tolist() == [True, True]
    assert cm.compare_answers(lesson.answers)["answers"].tolist() == [2]
    # a lesson without questions has none
    (quiet,) = hist.lessons(_journal(tmp_path / "b", "5555", [12]))
    assert quiet.answers is None


def test_a_damaged_journal_is_a_journal_error_naming_the_file(tmp_path: Path) -> None:
    path = _journal(tmp_path, "4821", [11])
    conn = sqlite3.connect(path)
    conn.execute(
        'UPDATE entries SET data = \'{"table": 1, "a": {"action": "fly"}}\' WHERE kind = \'act\''
    )
    conn.commit()
    conn.close()
    with pytest.raises(J.JournalError, match="4821"):
        hist.lessons(path)


def test_the_demo_class_says_it_is_a_demo_and_has_small_and_large_data() -> None:
    data = cm.demo_class()
    assert data.demo and data.code == ""
    summary = cm.lesson_summary(data.plays(), data.results())
    assert summary["pupils"] == 12 and summary["tables"] == 4
    assert 0 < summary["cv"] < 1
