"""What the class journal costs, in one run:

    .venv/bin/python benchmarks/journal.py [--pupils 60] [--seconds 10] [--rounds 2]
                                           [--resume-tables 30] [--only listing]

1. CPU per play: `benchmarks/classroom.py`'s class (tables of three pupils
   playing real levels as `websockets` clients in other processes) served
   without a journal (``data=False``) and with one, alternately, ``--rounds``
   times each: the server's CPU seconds per play, and the journal's share.
2. Its size: the journal's bytes per play in that run, and what a lesson makes
   of it (45 minutes, 10 tables of three, a card every 3 s at each table: about
   9,000 plays).
3. Resume: a class of ``--resume-tables`` tables of three (`mindwidget class`
   in its own process) plays, is killed with SIGKILL and started again with
   ``--resume``; the time from the server answering again to every page being
   back at its seat with its whole state. The pages retry as class.js does
   (0.5 s, doubling, at most 5 s; the first retry after the kill included), and
   also with a 50 ms retry (the server's own share).
4. Listing (``--only listing``): `journal.classes` over a folder of 10 journals
   of 20,000 entries each (more than a lesson's), as this version writes them
   (with the index of version 2) and as version 1 did (no index); what
   ``mindwidget class`` does at start to offer a class for resuming.

Prints the load average with each figure (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

import classroom as bench  # noqa: E402  (benchmarks/classroom.py)
from class_process import ClassProcess, Pupil, free_port  # noqa: E402

LESSON_PLAYS = 45 * 60 // 3 * 10
#: Inside the benchmark's server: the CPU spent in the journal's seams (the room's
#: recorder and its commit at each loop turn) and in all, from the start of the class.
TIMED = """
    import time as _t
    _spent = [0.0, 0]
    _cpu0 = _t.process_time()
    def _timed(fn, count=False):
        def timed(*args):
            t0 = _t.process_time()
            try:
                return fn(*args)
            finally:
                _spent[0] += _t.process_time() - t0
                _spent[1] += count
        return timed
    if room.room.recorder is not None:
        room.room.recorder = _timed(room.room.recorder)
        room.room.commit = _timed(room.room.commit, True)
    def FIGURES(path):
        with open(path, "w") as f:
            json.dump({"journal_s": _spent[0], "commits": _spent[1],
                       "cpu_s": _t.process_time() - _cpu0}, f)
"""


def cpu_per_play(pupils: int, seconds: float, rounds: int) -> None:
    original = bench.OURS
    rows: dict[str, list[float]] = {"without": [], "with": []}
    shares: list[float] = []
    sizes = []
    for r in range(rounds):
        for kind in ("without", "with"):
            folder = tempfile.mkdtemp(prefix="mw-journal-bench-")
            data = "False" if kind == "without" else repr(folder)
            figures = Path(folder) / "figures.json"
            bench.OURS = (
                original.replace("grace=600)", f"grace=600, data={data})")
                .replace(
                    "    room = Classroom(",
                    "    with __import__('contextlib').redirect_stdout(sys.stderr):\n"
                    "        room = Classroom(",  # the journal's line, away from the JSON
                )
                .replace(
                    '    print(json.dumps({"port"',
                    TIMED + '    print(json.dumps({"port"',
                )
                .replace("    peak = ", f"    FIGURES({str(figures)!r})\n    peak = ")
            )
            assert original != bench.OURS
            out = bench.run("ours", pupils, 3.0, seconds, None)
            ms = 1000 * out["cpu"] * seconds / max(1, out["plays"])
            rows[kind].append(ms)
            if kind == "with":
                f = json.loads(figures.read_text())
                shares.append(f["journal_s"] / f["cpu_s"])
                print(f"    inside the server: the journal {1000 * f['journal_s']:.0f} ms of "
                      f"{1000 * f['cpu_s']:.0f} ms CPU ({100 * shares[-1]:.1f}%), "
                      f"{f['commits']} commits")  # fmt: skip
            print(f"  round {r + 1} {kind:7} journal: {out['plays']:5d} plays, "
                  f"{ms:.3f} ms CPU per play, load {out['load']:.1f}", flush=True)  # fmt: skip
            if kind == "with":
                files = list(Path(folder).glob("class-*"))
                size = sum(f.stat().st_size for f in files)
                # every play of the whole run (warm-up and tail too): the journal's own count
                from mindwidget.classroom import journal as J

                path = next(f for f in files if f.name.endswith(".sqlite3"))
                acts = sum(1 for e in J.read(path)[1] if e["kind"] == "act")
                sizes.append((size, acts))
    bench.OURS = original
    without, with_ = statistics.median(rows["without"]), statistics.median(rows["with"])
    share = (with_ - without) / with_
    print(f"CPU per play: {without:.3f} ms without the journal, {with_:.3f} ms with it "
          f"(median of {rounds}): {100 * share:.1f}% more; measured inside the server, the "
          f"journal's share of its CPU: {100 * statistics.median(shares):.1f}% "
          "(target < 10%)")  # fmt: skip
    per_act = statistics.median(s / max(1, a) for s, a in sizes)
    print(f"size: {per_act:.0f} bytes per action (file and WAL, {sizes[-1][1]} actions); "
          f"a lesson of ~{LESSON_PLAYS:,} plays (with Ready, stops and votes ~1.5 actions "
          f"a play): ~{per_act * LESSON_PLAYS * 1.5 / 1e6:.1f} MB")  # fmt: skip


async def resume_time(tables: int, page_backoff: bool) -> float:
    data = Path(tempfile.mkdtemp(prefix="mw-resume-bench-")) / "data"
    port = free_port()
    # every pupil here comes from 127.0.0.1: no cap on sockets per address
    options = {"size": 3, "seed": 3, "tempo": 0.25, "per_address": 1000}
    server = ClassProcess(data, port, options=options)
    server.start()
    rng = random.Random(3)
    backoff = (0.5, 5.0) if page_backoff else None
    pupils = [Pupil(f"P{i}", port, random.Random(rng.random()), backoff) for i in range(3 * tables)]
    try:
        for p in pupils:
            p.run(server.code)
        await _until(lambda: all(p.fresh.is_set() for p in pupils), 60)
        await asyncio.sleep(3.0)  # the tables play
        server.kill()
        for p in pupils:
            p.fresh.clear()
        await asyncio.sleep(1.0)  # the pages find the server gone and wait to retry
        server.start("--resume")
        t0 = time.perf_counter()  # the server answers again
        await _until(lambda: all(p.fresh.is_set() for p in pupils), 60)
        return time.perf_counter() - t0
    finally:
        for p in pupils:
            await p.close()
        server.stop()


async def _until(test: object, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not test():  # type: ignore[operator]
        if time.monotonic() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


def listing(journals: int = 10, entries: int = 20_000) -> None:
    """`journal.classes` over ``journals`` files of ``entries`` each, version 2 and 1."""
    import sqlite3

    from mindwidget.classroom import journal

    folder = Path(tempfile.mkdtemp(prefix="mindwidget-listing-"))
    entry = {"table": 1, "action": {"action": "play", "player": 0, "t": 1.5}}
    for k in range(journals):
        code = str(1000 + k)
        book = journal.Journal.create(folder, code, {"code": code})
        for i in range(entries):
            book.append("pupil" if i % 500 == 0 else "act", entry)
            if i % 100 == 99:
                book.commit()
        book.close()

    def timed() -> float:
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            assert len(journal.classes(folder)) == journals
            runs.append(time.perf_counter() - start)
        return statistics.median(runs) * 1000

    now = timed()
    for path in folder.glob("class-*.sqlite3"):  # as version 1 wrote them
        with sqlite3.connect(path) as conn:
            conn.execute("DROP INDEX entries_listed")
            conn.execute("PRAGMA user_version = 1")
        conn.close()
    before = timed()
    print(f"listing {journals} journals of {entries:,} entries: {now:.1f} ms "
          f"(version {journal.VERSION}), {before:.1f} ms (version 1), median of 5, "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pupils", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--resume-tables", type=int, default=30)
    parser.add_argument("--only", choices=["listing"], default=None, help="the listing only")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    if args.only == "listing":
        listing()
        return
    cpu_per_play(args.pupils, args.seconds, args.rounds)
    for page in (False, True):
        took = asyncio.run(resume_time(args.resume_tables, page))
        how = "as class.js retries (0.5 s doubling, at most 5 s)" if page else "50 ms retries"
        print(f"resume, {args.resume_tables} tables and {3 * args.resume_tables} pupils, {how}: "
              f"every page back at its seat {took:.2f} s after the server answered "
              f"(target < 5 s), load {os.getloadavg()[0]:.1f}")  # fmt: skip
    listing()


if __name__ == "__main__":
    main()
