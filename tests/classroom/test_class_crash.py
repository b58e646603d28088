"""The crash test of issue 25: whole games at four tables (pupils playing by
themselves over websockets, bots at one table), the server process killed with
SIGKILL at a random moment 20 times and resumed with ``--resume`` each time.
Every play any page showed is in the resumed class, nothing is played twice, and
every page is back at its seat by itself (its seat token still valid)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
from class_process import ClassProcess, Pupil, free_port, history, teacher
from serving import alone

from mindwidget.classroom import journal as J

KILLS = 20
pytestmark = pytest.mark.timeout(240)


def test_kill_9_twenty_times_during_whole_games_and_resume(tmp_path: Path) -> None:
    alone(asyncio.run, _crash_loop(tmp_path))


async def _crash_loop(tmp_path: Path) -> None:
    rng = random.Random(25)
    data = tmp_path / "data"
    port = free_port()
    server = ClassProcess(data, port, "--size", "3", "--tempo", "0.25", "--seed", "25")
    server.start()
    code, teacher_url = server.code, server.teacher_url
    # three full tables of pupils (they start by themselves), a fourth of one pupil and
    # two bots (the teacher starts it)
    pupils = [Pupil(f"Kind{i}", port, random.Random(rng.random())) for i in range(10)]
    for p in pupils:
        p.run(code)
        await _until(lambda p=p: p.token and p.info.get("table"), f"{p.name} seated")
    await teacher(teacher_url, {"type": "start_all"})
    await _until(lambda: all(p.view.get("phase") for p in pupils), "every table dealt")
    back_in: list[float] = []
    checked = 0  # pages held to the pile and hand they showed before the kill (20-29 of 200)
    try:
        for kill in range(KILLS):
            await asyncio.sleep(rng.uniform(0.1, 0.8))  # play on, then a random moment
            server.kill()
            before = {p.name: (p.state(), tuple(p.view.get("hand") or ())) for p in pupils}
            shown = {p.name: list(p.seen) for p in pupils}
            # a table where any pupil asked for the next level or a new game may have moved
            # on in the journal before that page (or its tablemates' pages) saw it
            moved = {before[p.name][0][0] for p in pupils if p.sent_level_change}
            changes = {p.name: p.level_changes for p in pupils}
            for p in pupils:
                p.fresh.clear()
            server.start("--resume")
            started = time.monotonic()  # the server answers again
            assert (server.code, server.teacher_url) == (code, teacher_url)
            await _until(lambda: all(p.fresh.is_set() for p in pupils), "every page back")
            back_in.append(time.monotonic() - started)
            # while the last page comes back, a table whose pages are back plays on: one that
            # went on to another level or game since the kill (a loss and a new game bring
            # back level 1) has moved on too
            moved |= {before[p.name][0][0] for p in pupils if p.level_changes != changes[p.name]}
            states = history(J.journal_path(data, code))
            for p in pupils:
                (table, level, pile, lives), hand = before[p.name]
                now_table, now_level, now_pile, _ = p.state()
                assert now_table == table, f"{p.name} is back at table {table}"
                # no play any page showed is missing: each state shown is in the journal
                for seen in shown[p.name]:
                    assert seen[1:] in states[seen[0]], f"kill {kill}: {p.name} saw {seen}"
                assert p.state()[1:] in states[table]
                # nothing played twice; what was played before is still on the pile
                assert len(set(now_pile)) == len(now_pile)
                if table not in moved and now_level == level:
                    checked += 1
                    assert now_pile[: len(pile)] == pile, f"kill {kill}: {p.name}"
                    left = set(hand) - set(p.view.get("hand") or ())
                    gone = set(now_pile) | {d["card"] for d in p.view.get("discards") or ()}
                    assert left <= gone, f"kill {kill}: {p.name} lost {left - gone}"
                    assert set(p.view.get("hand") or ()) <= set(hand)
            # the resumed tables stopped (hands on the table) until the pupils press Ready
            assert all(p.first_phase != "play" for p in pupils), [p.first_phase for p in pupils]
        states = history(J.journal_path(data, code))
        assert min(len(states[t]) for t in (1, 2, 3)) > KILLS  # the pupils played on
        # at the fourth table the bots plan afresh after each resume and play on
        lone = pupils[-1]
        assert lone.info["table"] == 4
        await _until(lambda: set(lone.view.get("pile_by") or ()) - {0}, "a bot's play", 30)
    finally:
        for p in pupils:
            await p.close()
        server.stop()
    assert all("seat_gone" not in e for p in pupils for e in p.errors), [p.errors for p in pupils]
    print(f"back at their seats after the server answered: max {max(back_in):.2f} s")
    assert checked > 0, "no page stayed at its level over a kill: the pile check never ran"


async def _until(test: object, what: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not test():  # type: ignore[operator]
        if time.monotonic() > end:
            raise AssertionError(f"waited for {what}")
        await asyncio.sleep(0.01)
