"""What the teacher's dashboard costs the class server, with 100 tables in play.

    .venv/bin/python benchmarks/dashboard.py [--tables 100] [--seconds 15] [--json out.json]

A `Classroom` serves on an event loop in a thread, as a kernel's loop runs it.
It holds ``--tables`` tables of three human-like bots playing on the server's
clock at the "quick" tempo (each table is started by a stand-in pupil who then
gives the seat to a bot; a driver on the loop presses the table's Ready, Next
level and New game for it, as a teacher would at a table of bots only). Then,
for ``--seconds`` each, in one run:

1. **no teacher**: the class alone (the peer every other figure is compared to);
2. **/teacher page**: one teacher's page on ``/teacher/ws`` (a `websockets`
   client in this process reading every update);
3. **notebook widget**: the `Dashboard` widget of the notebook on the same loop.

For each it reports the CPU seconds of the server's loop thread per second of
wall time (``thread_time`` inside the loop: what the server spent, not the
client), the dashboard's share of one core above the class alone, the updates
per second the teacher's view received and their size, and the time one
`Board.changes()` takes with this many tables (median and p95).

Targets: the teacher's view is updated at most a few times a second
(`mindwidget.classroom.dashboard.UPDATES_PER_SECOND`), and costs the server under 10% of
one core.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.sync.client import connect  # noqa: E402

from mindwidget.classroom import Classroom  # noqa: E402
from mindwidget.classroom.dashboard import UPDATES_PER_SECOND, Board, Dashboard  # noqa: E402
from mindwidget.classroom.tables import Pupil  # noqa: E402


class Loop:
    """An event loop in a thread with a `Classroom` of bots-only tables in play."""

    def __init__(self, tables: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.room: Classroom | None = None
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.loop.call_soon(ready.set)
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait()
        self.call(self._open, tables)

    def call(self, fn: Any, *args: Any) -> Any:
        async def run() -> Any:
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(60)

    def _open(self, tables: int) -> None:
        room = Classroom(size=3, seed=1, tempo="quick")
        for i in range(tables):
            p = Pupil(id=f"s{i}", name=f"S{i}", lang="en", token=f"t{i}", address="-")
            room.pupils[p.id] = p
            room._seat(p)  # the stand-in sits down at a new table ...
            assert p.table_id is not None and p.seat is not None
            room.start_table(p.table_id)
            room.give_to_bot(p.table_id, p.seat)  # ... and gives the seat to a bot
            room.remove(p.id)
        self.room = room
        self._drive()

    def _drive(self) -> None:
        """Every 0.2 s: what a teacher presses at a table of bots only."""
        assert self.room is not None
        for t in self.room.tables:
            table, host = t.table, t.host
            if table is None or host is None:
                continue
            phase = table.phase
            if phase in ("ready", "stopped"):
                table.ready(t=max(host.level_time(), table.now))
            elif phase == "cleared":
                table.next_level()
            elif phase in ("won", "lost"):
                table.new_game()
        self.loop.call_later(0.2, self._drive)

    def cpu(self) -> float:
        """CPU seconds of the loop's thread so far."""
        return float(self.call(time.thread_time))

    def stop(self) -> None:
        if self.room is not None:
            self.call(self.room.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)


def measure(loop: Loop, seconds: float) -> float:
    """CPU seconds of the server per second of wall time, over ``seconds``."""
    c0, t0 = loop.cpu(), time.monotonic()
    time.sleep(seconds)  # a benchmark window, not a wait for a condition
    return (loop.cpu() - c0) / (time.monotonic() - t0)


def plays(loop: Loop) -> int:
    assert loop.room is not None
    room = loop.room
    return int(loop.call(lambda: sum(t.table.game.event_count for t in room.tables if t.table)))


def teacher_page(loop: Loop, seconds: float) -> tuple[float, float, float]:
    """(server CPU per second, updates per second, mean bytes per update) with a /teacher page."""
    room = loop.room
    assert room is not None
    url = f"ws://127.0.0.1:{room.port}/teacher/ws?token={room.teacher_token}"
    sizes: list[int] = []
    stop = threading.Event()
    with connect(url, origin=f"http://127.0.0.1:{room.port}", max_size=2**24) as ws:
        ws.recv()  # the whole state first

        def read() -> None:
            while not stop.is_set():
                try:
                    sizes.append(len(ws.recv(timeout=0.5)))
                except TimeoutError:
                    continue
                except Exception:
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        start = len(sizes)
        t0 = time.monotonic()
        cpu = measure(loop, seconds)
        n = len(sizes) - start
        rate = n / (time.monotonic() - t0)
        stop.set()
        reader.join(2)
    mean = statistics.fmean(sizes[start:]) if n else 0.0
    return cpu, rate, mean


def widget(loop: Loop, seconds: float) -> tuple[float, float]:
    """(server CPU per second, updates per second) with the notebook's Dashboard widget."""
    room = loop.room
    assert room is not None
    box: dict[str, Any] = {}
    changes = [0]

    def make() -> None:
        w = Dashboard(room)
        w.observe(lambda _change: changes.__setitem__(0, changes[0] + 1), names=["room"])
        box["w"] = w

    loop.call(make)
    c0 = changes[0]
    t0 = time.monotonic()
    cpu = measure(loop, seconds)
    rate = (changes[0] - c0) / (time.monotonic() - t0)
    loop.call(box["w"].close)
    return cpu, rate


def board_cost(loop: Loop, n: int = 60) -> tuple[float, float]:
    """Median and p95 (ms) of one `Board.changes()` on the loop, with this class."""
    room = loop.room
    assert room is not None
    board = loop.call(Board, room)
    loop.call(board.state)
    times = []
    for _ in range(n):

        def one() -> float:
            t0 = time.perf_counter()
            board.changes()
            return (time.perf_counter() - t0) * 1000

        times.append(loop.call(one))
        time.sleep(0.05)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    loop = Loop(args.tables)
    try:
        time.sleep(2)  # let the levels get going (a warm-up window)
        before = plays(loop)
        alone = measure(loop, args.seconds)
        page_cpu, page_rate, page_bytes = teacher_page(loop, args.seconds)
        widget_cpu, widget_rate = widget(loop, args.seconds)
        events = (plays(loop) - before) / (3 * args.seconds)
        median_ms, p95_ms = board_cost(loop)
    finally:
        loop.stop()
    out = {
        "tables": args.tables,
        "events_per_second_all_tables": round(events, 1),
        "server_cpu_alone": round(alone, 4),
        "server_cpu_with_teacher_page": round(page_cpu, 4),
        "server_cpu_with_widget": round(widget_cpu, 4),
        "dashboard_share_of_a_core_page": round(page_cpu - alone, 4),
        "dashboard_share_of_a_core_widget": round(widget_cpu - alone, 4),
        "teacher_page_updates_per_second": round(page_rate, 2),
        "widget_updates_per_second": round(widget_rate, 2),
        "update_limit_per_second": UPDATES_PER_SECOND,
        "teacher_page_bytes_per_update": round(page_bytes),
        "board_changes_ms_median": round(median_ms, 2),
        "board_changes_ms_p95": round(p95_ms, 2),
        "ratio_page_to_alone": round(page_cpu / alone, 2) if alone else None,
    }
    for k, v in out.items():
        print(f"{k:36} {v}")
    ok = (
        out["dashboard_share_of_a_core_page"] < 0.10
        and out["dashboard_share_of_a_core_widget"] < 0.10
        and page_rate <= UPDATES_PER_SECOND + 0.5
    )
    print("targets (< 10% of one core, at most a few updates a second):", "met" if ok else "MISSED")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
