"""A question to the whole class while other tables play: what it costs their plays.

    .venv/bin/python benchmarks/class_questions.py [--players 30] [--answerers 30]
                                                   [--rounds 6] [--gap 8] [--within 2]

A class server (`Classroom` on 127.0.0.1) runs in its own process. In this
process, ``--players`` pupils play at tables of three (as in
`benchmarks/classroom.py`: the holder of the lowest card plays it after a think
time of 0.2–0.6 s, level after level) and ``--answerers`` more pupils sit at
tables that do not play (their hands on the table). Every ``--gap`` seconds
the teacher asks a question (`Classroom.ask`, three choices); each answerer
answers once at a random moment within ``--within`` seconds of their page
showing it, and a third of them changes their mind once, 0.3 s later. (The
playing pupils' pages get the question too; it waits there while their level
runs.) The question is revealed before the next one.

Measured: the latency of each play at the playing tables (from the moment it
is sent to the moment the other two seats have the update showing it), split
by when it was sent: within the answers' window (from the question to
``--within`` + 0.5 s after it) or in the quiet rest; p50 / p95 / p99 of each
and the difference of the p95s (the target: at most 5 ms). Also the frames
and bytes a page receives for one question (its ask, own answer and reveal).

Clients and server share this machine's cores, so the figures include the
clients' own CPU; a run on a loaded machine spreads.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
import classroom as bench  # noqa: E402  (the class benchmark's pupils)

ROOT = Path(__file__).resolve().parents[1]

SERVER = """
import asyncio, json, shutil, sys, tempfile, time
from mindwidget.classroom import Classroom, room

room.JOINS_PER_ADDRESS = 1_000_000  # every pupil here comes from 127.0.0.1
QUESTION = {"nl": "Hoeveel levels haalt jullie tafel?", "en": "How many levels will you clear?"}
CHOICES = ["1-2", "3-4", "5+"]

async def main():
    data = tempfile.mkdtemp(prefix="mw-bench-")  # the journal keeps every answer, as in a lesson
    c = Classroom(size=3, bots="none", seed=1, per_address=100_000, rate=(1e6, 1e6), grace=600,
                  port=0, data=data)
    print(json.dumps({"port": c.port, "code": c.code}), flush=True)
    loop = asyncio.get_running_loop()
    q = None
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if line == "ask":
            # the CPU of the turn that asks: the question, then every page's update written
            # (Tornado's write included; they run before a callback set after them)
            start = time.thread_time()
            q = c.ask(QUESTION, CHOICES, answer=1)
            done = loop.create_future()
            loop.call_soon(lambda: done.set_result(time.thread_time() - start))
            cpu = await done
            print(json.dumps({"asked": q.id, "turn_ms": 1000 * cpu}), flush=True)
        elif line == "reveal" and q is not None:
            q.reveal()
            print(json.dumps({"revealed": q.id, "counts": q.counts()}), flush=True)
        elif line in ("stop", ""):
            n = len(c.answers())
            c.stop()
            print(json.dumps({"answers": n}), flush=True)
            break
    shutil.rmtree(data, ignore_errors=True)

asyncio.run(main())
"""


class Table(bench.Table):
    """A playing table that keeps when each play was sent beside its latency."""

    def __init__(self, tid: int, sent: dict[tuple[int, int], float], lat: list[Any]) -> None:
        super().__init__(tid, sent, lat)

    def saw(self, card: int) -> None:
        key = (self.id, card)
        if key not in self.sent:
            return
        self.seen_by[card] = self.seen_by.get(card, 0) + 1
        if self.seen_by[card] == len(self.pupils) - 1:
            at = self.sent.pop(key)
            self.lat.append((at, time.perf_counter() - at))


class Answerer:
    """A pupil at a table that does not play: answers each question once (or twice)."""

    def __init__(self, ws: Any, rng: random.Random, within: float) -> None:
        self.ws = ws
        self.rng = rng
        self.within = within
        self.answered: set[int] = set()
        self.frames = 0
        self.bytes = 0

    async def read(self) -> None:
        async for raw in self.ws:
            self.frames += 1
            self.bytes += len(raw)
            msg = json.loads(raw)
            if msg.get("type") == "ping":
                await self.ws.send(json.dumps({"type": "pong", "id": msg["id"]}))
                continue
            q = (msg.get("class") or {}).get("question") if msg.get("type") == "update" else None
            if q and q["state"] == "open" and q["id"] not in self.answered:
                self.answered.add(q["id"])
                asyncio.get_running_loop().create_task(self.answer(q["id"], len(q["choices"])))

    async def answer(self, qid: int, n: int) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.within))  # the pupil thinks, then taps
        choice = self.rng.randrange(n)
        await self.ws.send(json.dumps({"type": "answer", "question": qid, "choice": choice}))
        if self.rng.random() < 1 / 3:
            await asyncio.sleep(0.3)  # a change of mind
            again = (choice + 1) % n
            await self.ws.send(json.dumps({"type": "answer", "question": qid, "choice": again}))


async def join(url: str, code: str, name: str) -> Any:
    ws = await websockets.connect(url, max_size=2**22, open_timeout=60, ping_interval=None)
    await ws.send(json.dumps({"type": "join", "code": code, "name": name}))
    while json.loads(await ws.recv()).get("type") != "welcome":
        pass
    return ws


def percentiles(ms: list[float]) -> dict[str, float]:
    if len(ms) < 20:
        return {"n": len(ms)}
    q = statistics.quantiles(ms, n=100)
    return {"n": len(ms), "p50": q[49], "p95": q[94], "p99": q[98]}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert server.stdin is not None and server.stdout is not None

    def reply() -> dict[str, Any]:  # the next JSON line (the server prints more)
        assert server.stdout is not None
        while not (line := server.stdout.readline()).startswith("{"):
            if not line:
                raise RuntimeError("the class server stopped")
        return dict(json.loads(line))

    info = reply()
    url, code = f"ws://127.0.0.1:{info['port']}/ws", info["code"]

    def say(line: str) -> dict[str, Any]:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(line + "\n")
        server.stdin.flush()
        return reply()

    sent: dict[tuple[int, int], float] = {}
    lat: list[tuple[float, float]] = []
    tables = [Table(i + 1, sent, lat) for i in range(args.players // 3)]
    tasks = []
    for i in range(len(tables) * 3):  # the players first: they fill tables 1, 2, ...
        t = tables[i // 3]
        p = bench.Pupil(await join(url, code, f"play{i}"), t)
        t.pupils.append(p)
        tasks.append(asyncio.create_task(bench.read_ours(p)))
    rng = random.Random(7)
    # then the answerers, at tables of their own, in a process of their own (as on their
    # own phones: their work is not the players' client's)
    child = subprocess.Popen(
        [sys.executable, __file__, "--answer", url, code, str(args.answerers), str(args.within)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    assert child.stdout.readline().strip() == "joined"
    stop = asyncio.Event()
    tasks += [
        asyncio.create_task(bench.drive_ours(t, stop, random.Random(rng.random()))) for t in tables
    ]
    await asyncio.sleep(args.warm)  # the benchmark's warm-up window
    lat.clear()
    windows: list[tuple[float, float]] = []
    turns_ms: list[float] = []
    counts = []
    loop = asyncio.get_running_loop()
    child.stdin.write("count\n")  # the answerers count their frames from now
    child.stdin.flush()
    for _ in range(args.rounds):
        at = time.perf_counter()
        asked = await loop.run_in_executor(None, say, "ask")  # never block the pupils' loop
        turns_ms.append(asked["turn_ms"])
        windows.append((at, at + args.within + 0.5))
        await asyncio.sleep(args.gap - 0.5)  # answers come in, then the quiet rest
        counts.append((await loop.run_in_executor(None, say, "reveal"))["counts"])
        await asyncio.sleep(0.5)
    child.stdin.close()
    got = json.loads(child.stdout.readline())
    child.wait(30)
    frames = got["frames"] / (args.rounds * args.answerers)
    size = got["bytes"] / (args.rounds * args.answerers)
    stop.set()
    for task in tasks:
        task.cancel()
    kept = say("stop")
    server.wait(30)
    during = [ms * 1000 for at, ms in lat if any(a <= at <= b for a, b in windows)]
    quiet = [ms * 1000 for at, ms in lat if not any(a <= at <= b for a, b in windows)]
    return {
        "during": percentiles(during),
        "quiet": percentiles(quiet),
        "answers_counted": [sum(c.values()) for c in counts],
        "ask_turn_ms": statistics.median(turns_ms),
        "answers_kept": kept["answers"],
        "frames_per_page_per_question": frames,
        "bytes_per_page_per_question": size,
    }


def server_turns(pupils: int, answerers: int, repeat: int = 50) -> dict[str, float]:
    """The server's own work for one question, without sockets (a `Room`, fake links):
    the loop turn that asks (the question, then every page's class part and its frame
    as JSON) and one answer's turn (its checks, the journal's entry, the page's class
    part and frame); best of ``repeat``, in ms. No play waits longer for a question
    than the longest of these turns."""
    from mindwidget.classroom import room as room_module
    from mindwidget.classroom.inbox import parse
    from mindwidget.classroom.room import ManualTimers, Room

    room_module.JOINS_PER_ADDRESS = 1_000_000

    class Link:
        def __init__(self) -> None:
            self.pupil: Any = None
            self.lang, self.address, self.fresh = "nl", "127.0.0.1", True

        def send(self, frame: dict[str, Any]) -> None:
            pass

        def dirty(self) -> None:
            pass

        def bye(self, key: str) -> None:
            pass

    entries: list[dict[str, Any]] = []
    timers = ManualTimers()
    room = Room(timers, size=3, lang="nl", seed=1, recorder=entries.append)
    links = []
    for i in range(pupils):
        link = Link()
        room.receive(link, parse(json.dumps({"type": "join", "code": room.code, "name": f"P{i}"})))
        links.append(link)
    ask, answer = [], []
    for k in range(repeat):
        timers.advance(timers.now() + 10.0)  # the next question, 10 s on
        t0 = time.perf_counter()
        room.ask("Q?", ["a", "b", "c"], answer=1)
        for link in links:
            json.dumps({"type": "update", "class": room.info(link.pupil)})
        ask.append(time.perf_counter() - t0)
        for i, link in enumerate(links[:answerers]):
            t0 = time.perf_counter()
            msg = parse(json.dumps({"type": "answer", "question": k + 1, "choice": i % 3}))
            room.receive(link, msg)
            json.dumps({"type": "update", "class": room.info(link.pupil)})
            answer.append(time.perf_counter() - t0)
    return {"ask_ms": 1000 * min(ask), "answer_ms": 1000 * min(answer)}


async def answer(url: str, code: str, n: int, within: float) -> None:
    """The answerers' process: join, say so, answer every question until stdin closes."""
    rng = random.Random(7)
    answerers = [
        Answerer(await join(url, code, f"ask{i}"), random.Random(rng.random()), within)
        for i in range(n)
    ]
    tasks = [asyncio.create_task(a.read()) for a in answerers]
    print("joined", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # "count"
    for a in answerers:
        a.frames = a.bytes = 0
    await loop.run_in_executor(None, sys.stdin.readline)  # closed: the end
    frames, size = sum(a.frames for a in answerers), sum(a.bytes for a in answerers)
    for task in tasks:
        task.cancel()
    print(json.dumps({"frames": frames, "bytes": size}), flush=True)


def main() -> None:
    if sys.argv[1:2] == ["--answer"]:
        url, code, n, within = sys.argv[2:6]
        asyncio.run(answer(url, code, int(n), float(within)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--answerers", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--gap", type=float, default=8.0)
    parser.add_argument("--within", type=float, default=2.0)
    parser.add_argument("--warm", type=float, default=4.0)
    args = parser.parse_args()
    turns = server_turns(args.players + args.answerers, args.answerers)
    out = asyncio.run(run(args))
    d, q = out["during"], out["quiet"]
    print(f"{args.players} pupils playing at {args.players // 3} tables; {args.answerers} answer")
    print(f"each of {args.rounds} questions within {args.within} s (one in three changes once)")
    for name, r in (("while answers come in", d), ("quiet", q)):
        if "p95" in r:
            print(
                f"  plays {name:>22}: n={r['n']:4d}  p50 {r['p50']:6.1f} ms  "
                f"p95 {r['p95']:6.1f} ms  p99 {r['p99']:6.1f} ms"
            )
        else:
            print(f"  plays {name:>22}: n={r['n']} (too few for percentiles)")
    if "p95" in d and "p95" in q:
        print(f"  p95 added by the answers: {d['p95'] - q['p95']:+.1f} ms (target: at most 5 ms)")
    kept = out["answers_kept"]
    print(f"  answers counted at each reveal: {out['answers_counted']} (kept: {kept})")
    print(
        f"  the server's turn that asks ({args.players + args.answerers} pages): "
        f"{turns['ask_ms']:.2f} ms; one answer's turn: {turns['answer_ms']:.3f} ms of CPU"
    )
    print(
        f"  in the server, the turn that asks with its {args.players + args.answerers} "
        f"updates written: {out['ask_turn_ms']:.1f} ms of CPU (median)"
    )
    print(
        f"  an answering page receives {out['frames_per_page_per_question']:.1f} frames, "
        f"{out['bytes_per_page_per_question']:.0f} bytes per question (pings included)"
    )


if __name__ == "__main__":
    main()
