"""`Table` without any widget: a game with its bots, their generator and the level clock."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mindwidget import Game, RuleError, Rules, Table
from mindwidget.bots import PerfectTimer
from mindwidget.bots.runner import Planned
from mindwidget.game import Observation
from mindwidget.i18n import LANGS
from mindwidget.refusal import Refused
from mindwidget.table import MAX_LEVEL_SECONDS, LevelIndex, phase
from mindwidget.view import ALLOWED, TraceFeed, trace_points


def lowest_overall(game: Game) -> int | None:
    return min((h[0] for h in game.hands if h), default=None)


def play_level_well(table: Table, seat: int = 0) -> None:
    """The person plays exactly when their card is the lowest; the bots come by `wait`."""
    table.ready()
    while table.game.status == "playing":
        hand = table.game.hands[seat]
        if hand and hand[0] == lowest_overall(table.game):
            table.play(seat)
        else:
            table.wait()


# --------------------------------------------------------------- one person
def test_a_person_and_two_bots_win_a_game_and_go_blind() -> None:
    table = Table(players=3, seats=0, bots="perfect", seed=3)
    levels = table.game.levels
    for level in range(1, levels + 1):
        assert table.game.level == level and table.phase == "ready"
        assert table.allowed(0) == ("ready",)
        play_level_well(table)
        if level < levels:
            assert table.phase == "cleared" and table.allowed(0) == ("next_level", "new_game")
            table.next_level()
    assert table.game.status == "won"
    assert table.allowed(0) == ("start_blind", "new_game")
    table.start_blind()
    play_level_well(table)
    assert table.game.blind and table.game.status in ("cleared", "won")


def test_a_persons_action_first_brings_the_bot_actions_planned_before_it() -> None:
    table = Table(game=Game.from_hands([[50], [10], [90]]), bots="perfect")
    table.ready(t=0.0)
    assert table.planned == Planned(pytest.approx(3.0), 1, "play")
    assert table.play(t=3.5) == 50
    assert [(e.player, e.t) for e in table.game.level_events if e.type == "played"] == [
        (1, pytest.approx(3.0)),
        (0, 3.5),
    ]


def test_ticks_and_advance_bring_exactly_the_bot_actions_due() -> None:
    table = Table(game=Game.from_hands([[90], [10, 40], [20]]), bots="perfect")
    table.ready()
    assert table.tick(2.9) == 0 and table.game.pile == ()
    assert table.tick(7.5) == 2 and table.game.pile == (10, 20)
    assert table.tick(7.5) == 0  # idempotent: a second front end, or a retry
    assert table.now == 6.0  # the latest event: a tick is the front end's own time
    assert table.advance(5.9) == 0
    assert table.advance(0.1) == 1 and table.game.pile == (10, 20, 40)
    assert table.now == pytest.approx(12.0)


# ------------------------------------------------------------------ bots only
def test_bots_only_ticks_give_the_game_of_virtual_time() -> None:
    for seed in (1, 2):
        ticked = Table(players=3, seats=None, bots="scalar", seed=seed)
        advanced = Table(players=3, seats=(), bots="scalar", seed=seed)
        while ticked.game.status in ("playing", "cleared"):
            if ticked.game.status == "cleared":
                ticked.next_level()
                advanced.next_level()
            ticked.ready()
            advanced.ready()
            t = ticked.now
            while ticked.planned is not None:
                t += 0.1
                ticked.tick(t, ticked.seq)
            advanced.advance(10_000)
        assert ticked.game == advanced.game
        assert ticked.game.status in ("won", "lost") and ticked.game.level >= 2


def test_a_bots_only_table_refuses_person_actions() -> None:
    table = Table(players=3, seats=None, bots="perfect", seed=1)
    table.ready()
    before = table.game.to_json()
    with pytest.raises(Refused) as info:
        table.play()
    assert info.value.key == "no_seat" and table.game.to_json() == before
    assert table.allowed(None) == ()


# ------------------------------------------------------------- two people
class YesSayer(PerfectTimer):
    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        return True


def test_two_person_seats_each_act_and_the_vote_waits_for_both() -> None:
    game = Game.from_hands([[5, 60], [17, 70], [33, 80], [40, 90]], stars=1)
    table = Table(game=game, seats=(0, 2), bots=YesSayer())
    assert table.seats == (0, 2)
    table.ready()
    with pytest.raises(ValueError, match="several person seats"):
        table.play()
    with pytest.raises(ValueError, match="person seat"):
        table.play(seat=1)  # a bot's seat
    assert table.play(seat=0, t=1.0) == 5
    assert table.allowed(0) == ("play", "stop", "propose_star")
    assert table.allowed(1) == ()  # a bot's seat: nothing for a person there
    table.propose_star(seat=2, t=1.5)
    # the bots (1 and 3) agreed at once; the vote waits for the other person
    assert table.game.proposal == {"votes": {2: True, 1: True, 3: True}}
    assert table.phase == "vote" and "vote" in table.allowed(0)
    assert "vote" not in table.allowed(2)
    table.vote(True, seat=0)
    assert table.game.stars == 0 and table.game.hands == ((), (70,), (80,), (90,))
    assert table.phase == "stopped"  # after a star every hand is back on the table
    with pytest.raises(Refused, match="Ready"):
        table.play(seat=2)
    table.ready()
    table.advance(100)
    assert table.game.status == "cleared"


def test_bots_for_the_bot_seats_only() -> None:
    table = Table(players=4, seats=(1, 2), bots=["perfect", "scalar"], seed=1)
    names = [type(b).__name__ for b in table.bots]
    assert names[0] == "PerfectTimer" and names[3] == "ScalarTimer"


# --------------------------------------------------------------- refusals
def refusals(table: Table) -> list[tuple[str, Any]]:
    """Every seat action, now, tried on a copy: (name, the Refused or None)."""
    seat = table.seats[0]
    t = table.now
    tries = {
        "ready": lambda x: x.ready(t=t),
        "play": lambda x: x.play(seat, t=t),
        "stop": lambda x: x.stop(seat, t=t),
        "propose_star": lambda x: x.propose_star(seat, t=t),
        "vote": lambda x: x.vote(True, seat, t=t),
        "wait": lambda x: x.wait(),
        "next_level": lambda x: x.next_level(),
        "start_blind": lambda x: x.start_blind(),
        "new_game": lambda x: x.new_game(),
    }
    out = []
    for name, act in tries.items():
        copy = table.copy()
        try:
            act(copy)
            out.append((name, None))
        except Refused as refused:
            out.append((name, refused))
            assert copy.game == table.game, name  # a refusal changes nothing
            assert copy.planned == table.planned and copy.seq == table.seq, name
    return out


def do(table: Table, name: str, rng: random.Random) -> None:
    """Seat 1 (the person) does ``name`` now."""
    if name == "vote":
        table.vote(rng.random() < 0.5, 1)
    elif name in ("play", "stop", "propose_star"):
        getattr(table, name)(1)
    else:
        getattr(table, name)()


class Proposer(PerfectTimer):
    def wants_star(self, obs: Observation, rng: np.random.Generator) -> bool:
        return len(obs.pile) == 1

    def vote(self, obs: Observation, rng: np.random.Generator) -> bool:
        return obs.level % 3 != 0


@pytest.mark.parametrize("mode", ["realtime", "step"])
def test_allowed_lists_exactly_what_the_table_accepts_and_refusals_change_nothing(
    mode: str,
) -> None:
    rng = random.Random(5)
    seen: set[str] = set()
    keys: set[str] = set()
    for seed in range(6):
        table = Table(
            players=3, seats=(1,), bots=Proposer(propose_stars=True), seed=seed, mode=mode
        )
        for _ in range(60):
            tried = refusals(table)
            allowed = table.allowed(1)
            seen |= set(allowed)
            for name, refused in tried:
                if name == "wait" and mode == "realtime":
                    continue  # wait works from a cell in any mode; listed in step mode only
                assert (refused is None) == (name in allowed), (name, allowed, refused)
                if refused is not None:
                    keys.add(refused.key)
            ok = [name for name, refused in tried if refused is None and name != "new_game"]
            if not ok:
                break
            name = "wait" if "wait" in ok and rng.random() < 0.5 else rng.choice(ok)
            do(table, name, rng)
            if mode == "realtime":
                table.advance(rng.choice([0.0, 0.5, 3.0]))
    assert seen >= set(ALLOWED) - {"start_blind"} - ({"wait"} if mode == "realtime" else set())
    assert {"press_ready", "vote_first", "level_over", "not_now"} <= keys


def test_allowed_is_the_rules_legal_actions_narrowed_by_the_tables_own_gates() -> None:
    """`Table.allowed` lists no action the rules refuse now (`Game.legal_actions`), and
    withholds none of the rules' actions between levels (next level, blind mode)."""
    rng = random.Random(3)
    seen: set[str] = set()
    for seed in range(4):
        rules = Rules(players=3, levels=2, lives=3)
        table = Table(
            players=3, seats=(1,), bots=Proposer(propose_stars=True), seed=seed, rules=rules
        )
        for _ in range(80):
            legal = set(table.game.legal_actions(1))
            allowed = set(table.allowed(1))
            seen |= allowed
            assert allowed - {"wait", "new_game"} <= legal, (allowed, legal)
            assert {"next_level", "start_blind"} & legal <= allowed, (allowed, legal)
            onlooker = set(table.allowed(None))
            assert onlooker - {"wait", "new_game"} <= set(table.game.legal_actions(0))
            ok = sorted(allowed - {"new_game"})
            if not ok:
                break
            do(table, rng.choice(ok), rng)
            table.advance(rng.choice([0.0, 0.5, 3.0]))
    assert {"next_level", "start_blind", "play", "ready"} <= seen, seen


def test_a_refusal_is_a_rule_error_with_a_key_and_words_in_every_language() -> None:
    table = Table(players=3, seats=0, bots="perfect", seed=1)
    with pytest.raises(RuleError, match="Ready") as info:
        table.play()
    refused = info.value
    assert isinstance(refused, Refused) and refused.key == "press_ready"
    assert len({refused.text(lang) for lang in LANGS}) == len(LANGS)
    with pytest.raises(Refused, match="before") as late:
        table.ready(t=1.0)
        table.play(t=0.5)
    assert late.value.key == "too_late" and late.value.params == {"t": 0.5, "last": 1.0}


@pytest.mark.parametrize(
    "bad", [-1, float("nan"), float("inf"), 10**400, MAX_LEVEL_SECONDS + 1, "1"]
)
def test_a_time_that_is_not_a_finite_number_within_a_day_is_a_value_error(bad: Any) -> None:
    table = Table(players=3, seats=0, bots="perfect", seed=1)
    table.ready()
    before = table.game.to_json()
    for act in (lambda: table.play(t=bad), lambda: table.tick(bad), lambda: table.advance(bad)):
        with pytest.raises(ValueError, match="seconds"):
            act()
    assert table.game.to_json() == before


def test_advance_may_not_take_a_level_past_a_day() -> None:
    table = Table(players=3, seats=0, bots="perfect", seed=1)
    table.ready()
    table.stop()
    table.advance(MAX_LEVEL_SECONDS - 1)
    with pytest.raises(ValueError, match="would pass a day"):
        table.advance(2)
    assert table.now == MAX_LEVEL_SECONDS - 1


# ---------------------------------------------------------------- step mode
def test_step_mode_wait_brings_the_next_bot_action_and_the_clock_stands_still() -> None:
    table = Table(game=Game.from_hands([[80], [10], [30]]), bots="perfect", mode="step")
    with pytest.raises(Refused) as info:
        table.wait()
    assert info.value.key == "press_ready"
    table.ready()
    assert not table.running and table.allowed(0) == ("play", "stop", "propose_star", "wait")
    assert table.tick(50.0, table.seq) == 0  # no clock in step mode
    first = table.wait()
    assert first == Planned(pytest.approx(3.0), 1, "play") and table.now == first.t
    table.wait()
    assert table.game.pile == (10, 30)
    assert "wait" not in table.allowed(0)  # no bot holds a card
    with pytest.raises(Refused) as info:
        table.wait()
    assert info.value.key == "nothing_to_wait"
    table.mode = "realtime"
    assert table.running


def test_a_switch_to_step_mode_keeps_the_front_ends_time() -> None:
    table = Table(players=3, seats=0, bots="perfect", seed=1)
    table.ready()
    table.tick(0.5, table.seq)
    assert table.game.t == 0.0
    table.mode = "step"
    assert table.clock["t"] == 0.5 and not table.clock["running"]


def test_a_stale_tick_is_dropped() -> None:
    table = Table(game=Game.from_hands([[50], [10], [90]]), bots="perfect")
    old = table.seq
    table.ready()
    assert table.tick(5.0, old) == 0 and table.game.pile == ()
    with pytest.raises(Refused) as info:
        table.tick(5.0, table.seq + 1)
    assert info.value.key == "bad_field"
    assert table.tick(5.0, table.seq) == 1


# ------------------------------------------------------------------ the rest
def test_numpy_numbers_are_accepted_wherever_a_number_is() -> None:
    table = Table(
        players=np.int64(3), seats=np.int64(0), bots="perfect", seed=np.int64(1), mode="step"
    )
    table.ready(t=np.float64(0.0))
    assert table.allowed(np.int64(0)) == ("play", "stop", "propose_star", "wait")
    table.stop(seat=np.int32(0), t=np.float32(0.5))
    table.ready(t=np.int64(1))
    table.vote  # noqa: B018  (a method: vote(agree) accepts numpy booleans too)
    table.advance(np.float64(0.25))
    table.tick(np.float64(2.0), np.int64(table.seq))
    table.reset(seed=np.uint16(4))
    assert table.game.seed == 4


def test_listeners_hear_once_per_call_that_changed_something() -> None:
    table = Table(game=Game.from_hands([[90], [10, 40], [20]]), bots="perfect")
    heard: list[int] = []
    table.listen(lambda: heard.append(table.seq))
    table.ready()
    assert len(heard) == 1
    table.tick(7.5, table.seq)  # two bot actions: heard once, after both
    assert len(heard) == 2 and table.game.pile == (10, 20)
    table.tick(7.6, table.seq)
    with pytest.raises(Refused):
        table.next_level()
    assert len(heard) == 2  # nothing changed


def test_the_index_and_trace_feed_agree_with_a_fresh_look_at_the_game() -> None:
    table = Table(players=3, seats=0, bots="perfect", seed=2)
    feed = TraceFeed(0, False)
    sent: list[dict[str, Any]] = []
    while table.game.status == "playing":
        if table.phase in ("ready", "stopped"):
            table.ready()
        elif random.Random(table.seq).random() < 0.3:
            table.stop()
        elif table.game.hands[0]:
            table.play()
        else:
            table.wait()
        idx = table.index
        assert phase(table.game, idx) == phase(table.game)
        assert idx.n == len(table.game.level_events)
        assert idx.played == [
            i for i, e in enumerate(table.game.level_events) if e.type == "played"
        ]
        part = feed.update(idx).take()
        if part is not None:
            start, points = part
            sent[start:] = [dict(p) for p in points]
        assert sent == trace_points(table.game, 0)
    assert isinstance(LevelIndex().update(table.game).deals, int)


def test_the_table_imports_no_widget() -> None:
    """Layer 3: nothing in table.py, or what it imports from mindwidget, imports a widget."""
    root = Path(__file__).parents[2] / "mindwidget"
    todo, seen, imported = ["table"], set(), set()
    while todo:
        name = todo.pop()  # dotted, relative to mindwidget: "table", "bots.human"
        if name in seen:
            continue
        seen.add(name)
        path = root.joinpath(*name.split("."))
        package = path.is_dir()
        file = path / "__init__.py" if package else path.with_suffix(".py")
        here = name.split(".") if package else name.split(".")[:-1]
        tree = ast.parse(file.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                if node.module:
                    todo.append(".".join([*base, node.module]))
                elif base:
                    todo.append(".".join(base))
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
    assert "bots.runner" in seen and "widget" not in seen and "view" not in seen
    assert not imported & {"anywidget", "traitlets", "ipywidgets", "comm"}


def test_a_mistake_stops_the_table_bots_are_ready_again_after_a_pause() -> None:
    # "dan stopt het spel meteen ... Het team concentreert zich opnieuw en speelt het
    # level af": a person presses Ready; a team of bots only is ready after a pause
    from mindwidget.table import BOTS_READY_PAUSE

    game = Game.from_hands([[34, 60], [26, 70], [30, 80]], level=2)
    person = Table(game=game.copy(), seats=(0,), bots="perfect")
    person.ready(t=0.0)
    person.play(t=0.5)  # 34 while 26 and 30 are held
    assert person.phase == "stopped" and person.allowed(0) == ("ready",)
    with pytest.raises(Refused, match="press Ready"):
        person.play(t=0.6)
    assert person.planned is None  # the bots wait for the person's Ready
    person.ready(t=2.0)
    assert person.phase == "play" and person.planned is not None

    stopped = game.copy()
    stopped.ready(t=0.0)
    stopped.play(0, t=0.5)  # the same mistake, at a table of bots only
    bots = Table(game=stopped, seats=None, bots="perfect")
    assert bots.phase == "stopped"
    ready = bots.planned
    assert ready is not None and ready.action == "ready"
    assert ready.t == pytest.approx(0.5 + BOTS_READY_PAUSE)
    assert bots.advance(BOTS_READY_PAUSE - 0.1) == 0 and bots.phase == "stopped"
    assert bots.advance(0.1) == 1 and bots.phase == "play"
    bots.advance(100)
    assert bots.game.status == "cleared"
