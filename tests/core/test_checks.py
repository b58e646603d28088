"""One error policy: numpy integers count as whole numbers, bools never do, and
every number a file may set is bounded (issue 14, defects 3 and 4)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mindwidget import Game, RuleError, Rules, Scenario, trace
from mindwidget.checks import (
    MAX_JSON_CHARS,
    MAX_JSON_DEPTH,
    adaptation,
    choice,
    executor,
    finite,
    flag,
    instance,
    load_json,
    one_of,
    seat,
    whole,
)
from mindwidget.rules import MAX_ACTIONS, MAX_DECK, MAX_PLAYERS


# ------------------------------------------------------------ the checks
@pytest.mark.parametrize("value", [3, np.int64(3), np.int8(3), np.uint16(3)])
def test_whole_accepts_python_and_numpy_integers(value: object) -> None:
    got = whole("n", value, 0, 5)
    assert got == 3 and type(got) is int


@pytest.mark.parametrize(
    ("value", "match"),
    [
        (True, r"n must be a whole number between 0 and 5, not True"),
        (np.bool_(True), r"n must be a whole number between 0 and 5"),
        (3.0, r"n must be a whole number between 0 and 5, not 3.0"),
        ("3", r"n must be a whole number between 0 and 5, not '3'"),
        (np.float64(3), r"n must be a whole number"),
        (6, r"n must be between 0 and 5, not 6"),
        (np.int64(-1), r"n must be between 0 and 5, not -1"),
    ],
)
def test_whole_refuses_naming_the_parameter(value: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        whole("n", value, 0, 5)


def test_whole_one_sided_bounds_and_the_error_class() -> None:
    with pytest.raises(ValueError, match=r"seed must be a whole number >= 0, not -2"):
        whole("seed", -2, 0)
    with pytest.raises(RuleError, match=r"deck must be a whole number <= 10, not 11"):
        whole("deck", 11, hi=10, error=RuleError)


@pytest.mark.parametrize("value", [1.5, np.float32(1.5), np.float64(1.5)])
def test_finite_accepts_floats_of_any_kind(value: object) -> None:
    got = finite("t", value, 0.0)
    assert got == 1.5 and type(got) is float


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0, True, "1", None])
def test_finite_refuses(value: object) -> None:
    with pytest.raises(ValueError, match=r"t must be a finite number >= 0"):
        finite("t", value, 0.0)


def test_flag() -> None:
    assert flag("agree", np.bool_(False)) is False
    with pytest.raises(ValueError, match="agree must be True or False, not 1"):
        flag("agree", 1)


# ------------------------------------------- numpy integers in the game
def test_numpy_integers_are_whole_numbers_everywhere() -> None:
    # Game(seed=np.int64(3)) was refused while simulate(seed=np.int64(3)) was not
    g = Game(players=np.int64(3), seed=np.int64(3))  # type: ignore[arg-type]
    assert g == Game(players=3, seed=3)
    assert type(g.seed) is int and type(g.players) is int
    g.ready(t=np.float32(0.5))  # type: ignore[arg-type]
    g.play(np.int64(0), t=np.float64(1.0))  # type: ignore[arg-type]
    g.propose_star(np.int32(1), t=1.5)  # type: ignore[arg-type]
    g.vote(np.int64(2), np.bool_(False), t=2.0)  # type: ignore[arg-type]
    assert g.actions[1] == {"action": "play", "player": 0, "t": 1.0}
    assert type(g.actions[1]["player"]) is int
    assert Game.from_json(g.to_json()) == g  # plain JSON: no numpy inside

    rules = Rules(players=np.int64(2), levels=np.int64(3), lives=np.int64(2))  # type: ignore[arg-type]
    assert rules == Rules(players=2, levels=3, lives=2) and type(rules.levels) is int
    h = Game.from_hands(
        [[np.int64(5)], [np.int16(9)]],
        level=np.int64(1),  # type: ignore[arg-type]
        lives=np.int64(2),  # type: ignore[arg-type]
        stars=np.int64(0),  # type: ignore[arg-type]
    )
    assert h.hands == ((5,), (9,)) and type(h.hands[0][0]) is int
    assert (
        h.to_json() == Game.from_hands([[5], [9]], level=1, lives=2, stars=0, seed=h.seed).to_json()
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: Game(seed=True),
        lambda: Game(players=True),
        lambda: Rules(players=3, deck=True),
        lambda: Game.from_hands([[True], [5]]),
        lambda: Game.from_hands([[3], [5]], level=True),
        lambda: Game(seed=2).play(0, t=True),
        lambda: Game(seed=2).vote(0, 1),
    ],
)
def test_bools_are_never_whole_numbers(make: object) -> None:
    with pytest.raises(RuleError, match=r"whole number|True or False|t must be"):
        make()  # type: ignore[operator]


def test_trace_refuses_with_value_errors_naming_the_parameter() -> None:
    with pytest.raises(ValueError, match="game: expected a mindwidget Game"):
        trace("a game")  # type: ignore[arg-type]
    from mindwidget import plot_trace

    g = Game.from_hands([[5], [9]])
    g.play(0, t=1.0)
    with pytest.raises(ValueError, match="level must be a whole number, not 1.0"):
        plot_trace(g, level=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="blind must be True or False"):
        plot_trace(g, blind="no")  # type: ignore[arg-type]
    fig = plot_trace(g, level=np.int64(1))  # type: ignore[arg-type]
    assert fig.axes


# ------------------------------------- defect 3: deeply nested JSON text
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("load", [Game.from_json, Scenario.from_json])
@pytest.mark.parametrize(
    "text",
    [
        DEEP,
        '{"a": ' + "[" * 5_000 + "]" * 5_000 + "}",
        '{"a": ' + '{"b": ' * 5_000 + "1" + "}" * 5_000 + "}",
        DEEP.encode(),
    ],
)
def test_deeply_nested_json_is_a_rule_error(load: object, text: str) -> None:
    # before the fix: RecursionError from json.loads
    with pytest.raises(RuleError, match=rf"nests .* too deeply; allowed: at most {MAX_JSON_DEPTH}"):
        load(text)  # type: ignore[operator]


def test_nesting_is_counted_outside_strings_only() -> None:
    text = json.dumps({"say": "[" * 1000, "more": ["]]]{{"]})
    assert load_json(text, "a note") == {"say": "[" * 1000, "more": ["]]]{{"]}
    just_enough = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert load_json(just_enough, "a list") == eval(just_enough)
    with pytest.raises(ValueError, match="too deeply"):
        load_json("[" + just_enough + "]", "a list")
    with pytest.raises(ValueError, match="must be JSON text"):
        load_json("[[[]]", "a list")  # unbalanced: json's own message


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    "text",
    [
        '"\\' * 1_000_000,  # quote, backslash: a scan that backtracks would be quadratic
        '"\\"' * 700_000,
        '"' * 2_000_000,
        '["[[[{",' * 300_000,
        "[" * 1_000_000 + "]" * 1_000_000,
        "[]," * 700_000,
    ],
)
def test_hostile_text_is_refused_in_linear_time(text: str) -> None:
    with pytest.raises(RuleError, match="must be JSON text|too deeply"):
        Game.from_json(text)


def test_a_saved_game_still_loads_and_too_long_text_is_refused() -> None:
    g = Game(seed=5)
    g.play(0, t=1.0)
    assert Game.from_json(g.to_json()) == g
    assert Game.from_json(g.to_json().encode("utf-16")) == g
    with pytest.raises(RuleError, match="too long.*allowed: at most"):
        Game.from_json(" " * (MAX_JSON_CHARS + 1))


# ------------------------------ defect 4: a file must not exhaust memory
def _saved(rules: dict[str, object]) -> str:
    g = json.loads(Game(seed=1).to_json())
    g["rules"] = {**g["rules"], **rules}
    return json.dumps(g)


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("setting", "match"),
    [
        ({"deck": 1_000_000_000}, rf"deck must be a whole number <= {MAX_DECK}, not 1000000000"),
        ({"players": 11, "levels": 1}, rf"players must be a whole number <= {MAX_PLAYERS}"),
        ({"levels": 10**9}, rf"levels must be a whole number <= {MAX_DECK}"),
        ({"max_lives": 10**12, "lives": 3}, r"max_lives must be a whole number <= 99"),
        ({"max_stars": 10**12}, r"max_stars must be a whole number <= 99"),
        ({"stars": 10**12}, r"stars must be a whole number <= 99"),
        ({"rewards": {"1000000000": "life"}}, rf"a reward level must be between 1 and {MAX_DECK}"),
    ],
)
def test_every_number_a_file_may_set_is_bounded(setting: dict[str, object], match: str) -> None:
    # Rules first: they refuse without dealing, so a regression fails here
    # before the game below would build a deck of a billion cards (~36 GB).
    with pytest.raises(RuleError, match=match):
        Rules.from_dict({**Rules(players=3).to_dict(), **setting})
    with pytest.raises(RuleError, match=match):
        Game.from_json(_saved(setting))


def test_the_bounds_themselves_are_playable() -> None:
    g = Game(
        rules=Rules(
            players=MAX_PLAYERS,
            levels=MAX_DECK // MAX_PLAYERS,
            lives=99,
            max_lives=99,
            deck=MAX_DECK,
        )
    )
    g.play(0, t=1.0)
    assert Game.from_json(g.to_json()) == g


def test_too_many_hands_or_actions_in_a_file() -> None:
    with pytest.raises(RuleError, match=rf"too many hands; allowed: at most {MAX_PLAYERS}"):
        Game.from_hands([[c] for c in range(1, 2 + MAX_PLAYERS)])
    with pytest.raises(RuleError, match=rf"too many cards; allowed: at most {MAX_DECK}"):
        Game.from_hands([list(range(1, MAX_DECK + 2)), [5]])
    saved = json.loads(Game(seed=1).to_json())
    saved["actions"] = [{"action": "stop", "player": 0, "t": 0.0}] * (MAX_ACTIONS + 1)
    with pytest.raises(RuleError, match=rf"allowed: at most {MAX_ACTIONS:,}"):
        Game.from_json(json.dumps(saved))


def test_game_and_simulate_check_a_seed_alike() -> None:
    from mindwidget import simulate

    result = simulate(players=2, games=2, seed=np.int64(3))  # type: ignore[arg-type]
    assert result.seed == 3 and type(result.seed) is int
    assert Game(players=2, seed=np.int64(3)).seed == 3  # type: ignore[arg-type]
    for bad in (True, -1, 2.5):
        with pytest.raises(ValueError, match="seed must be a whole number >= 0") as sim_error:
            simulate(players=2, games=2, seed=bad)  # type: ignore[arg-type]
        with pytest.raises(RuleError, match="seed must be a whole number >= 0") as game_error:
            Game(players=2, seed=bad)  # type: ignore[arg-type]
        assert str(sim_error.value) == str(game_error.value)


# ------------------------------------------- bots, simulation and scenarios (issue 17)
def test_bots_sim_and_scenarios_check_with_the_one_module() -> None:
    """bots/checks.py and the local checks of sim and scenario_widget are gone:
    the wording a bot, simulate and a ScenarioPlayer give is checks.py's."""
    import importlib.util
    from pathlib import Path

    import mindwidget
    from mindwidget import ScenarioPlayer, simulate
    from mindwidget.bots import HumanTimer, ScalarTimer, StarPolicy

    assert importlib.util.find_spec("mindwidget.bots.checks") is None
    root = Path(mindwidget.__file__).parent
    for path in [*root.glob("sim/*.py"), root / "scenario_widget.py", *root.glob("bots/*.py")]:
        text = path.read_text("utf-8")
        for local in ("def _whole(", "def _one_of(", "def _check_executor(", "def _check_number("):
            assert local not in text, (path.name, local)

    def message(make: object) -> str:
        with pytest.raises(ValueError) as info:
            make()  # type: ignore[operator]
        return str(info.value)

    assert message(lambda: ScalarTimer(cv=-0.5)) == message(lambda: finite("cv", -0.5, 0))
    assert message(lambda: ScalarTimer(seconds_per_step=0)) == message(
        lambda: finite("seconds_per_step", 0, above=0)
    )
    assert message(lambda: StarPolicy(close=-1)) == message(
        lambda: whole("StarPolicy.close", -1, 0)
    )
    assert message(lambda: HumanTimer(tempo=-1.0)).endswith("or a finite number > 0, not -1.0.")
    assert message(lambda: simulate(games=0)) == message(lambda: whole("games", 0, 1))
    scenario = Scenario.load("mistake")
    assert message(lambda: ScenarioPlayer(scenario, seat=7)) == message(
        lambda: seat("seat", 7, 3, none="bots only")
    )


def test_one_of_instance_seat_executor_and_adaptation() -> None:
    from concurrent.futures import ThreadPoolExecutor

    assert one_of("engine", "fast", ("auto", "fast")) == "fast"
    with pytest.raises(ValueError, match=r"^progress must be None, True or False, not 1\.$"):
        one_of("progress", 1, (None, True, False))  # 1 == True, but not of its type
    with pytest.raises(ValueError, match=r"^keep must be 'games', not 'rows'\.$"):
        one_of("keep", "rows", ("games",))
    rules = Rules(players=2)
    assert instance("rules", rules, Rules) is rules
    assert instance("rules", None, Rules, none=True) is None
    with pytest.raises(RuleError, match=r"^rules must be None or a Rules\(\.\.\.\), not 3\.$"):
        instance("rules", 3, Rules, none=True, error=RuleError)
    assert seat("seat", np.int64(2), 3) == 2 and seat("seat", None, 3, none="bots only") is None
    for bad in (3, -1, True, 1.0, None):
        with pytest.raises(ValueError, match=r"seat must be a seat from 0 to 2, not "):
            seat("seat", bad, 3)
    with ThreadPoolExecutor(1) as pool:
        assert executor(pool) is pool
    assert executor(None) is None
    with pytest.raises(ValueError, match=r"^executor must be None, a concurrent\.futures"):
        executor(ThreadPoolExecutor)
    assert adaptation(0, 0, 1.5, still=True) == (0.0, 1, 1.5)
    assert adaptation(np.float64(0.5), np.int8(4), 2, still=False) == (0.5, 4, 2.0)
    for rate, still, words in (
        (0, False, r"rate must be a finite number > 0 and <= 1, not 0\."),
        (1.5, True, r"rate must be a finite number between 0 and 1, not 1\.5\."),
    ):
        with pytest.raises(ValueError, match=words):
            adaptation(rate, 3, 2.0, still=still)
    with pytest.raises(ValueError, match=r"max_ratio must be a finite number > 1, not 1\."):
        adaptation(0.5, 3, 1, still=False)


def test_whole_none_finite_above_and_choice_unquoted() -> None:
    with pytest.raises(
        ValueError, match=r"^chunk_size must be None or a whole number >= 1, not 0\.$"
    ):
        whole("chunk_size", 0, 1, none=True)
    with pytest.raises(
        ValueError, match=r"^chunk_size must be None or a whole number >= 1, not 'x'"
    ):
        whole("chunk_size", "x", 1, none=True)
    assert finite("cv", 0.25, above=0) == 0.25
    with pytest.raises(ValueError, match=r"^cv must be a finite number > 0, not 0\.$"):
        finite("cv", 0, above=0)
    with pytest.raises(ValueError, match=r"^cv must be a finite number > 0, not -1\.5\.$"):
        finite("cv", np.float64(-1.5), above=0)  # numpy floats shown as numbers
    with pytest.raises(ValueError, match=r"^lang must be one of en, nl, de, not 'fr'\.$"):
        choice("lang", "fr", ("en", "nl", "de"), quoted=False)
