"""The class server under a class: simulated pupils at tables of three playing real levels.

    .venv/bin/python benchmarks/classroom.py [--pupils 30 120 300] [--seconds 20]
                                             [--host 10x30] [--dashboard-tables 100]
                                             [--profile FILE] [--before DIR] [--split]

For each class size a fresh server runs in its own process (`Classroom` on
127.0.0.1, no socket cap, no rate limit), and the pupils are `websockets`
clients in another process: they join with the code, press Ready, and at each
table the pupil holding the lowest card plays it after a think time of
0.2–0.6 s, level after level (a won or lost game starts again). Measured:

* the latency of a play: from the moment the pupil sends it to the moment the
  last of the other two seats at the table has the update showing it
  (p50 / p95 / p99 over every play in the measured window);
* the frames the server received and sent per play (the pupils count them);
* the server process's CPU (seconds of CPU per second, so 1.0 is one core),
  its CPU per play (milliseconds of the server's CPU in the measured window
  divided by the plays in it: what a play costs, whatever the rate) and its
  peak memory (max RSS).

The host case (``--host 10x30``): several classes served by one process, as a
school's host would, here several `Classroom` instances on one event loop (10
classes of 30 pupils), beside the relay with the same 300 pupils.
``--profile FILE``: the server of the largest class size runs under cProfile
and writes its statistics to FILE (look for the p95 tail there).
``--before DIR``: each case is also served from the source tree DIR (a git
worktree of main, say), between ours and the relay, so that before and after
are measured in one run, under the same load.
``--split``: where our server's CPU goes, each entry point of the event loop
timed (a message in, an update out, the journal's commit, housekeeping); the
rest is Tornado's reading of frames, the event loop and the kernel. With
Tornado's own write (timed too), that rest is what the transport alone costs
a play of ours, set beside the relay's whole CPU per play.

The pupils all come from 127.0.0.1, so our server lifts its per-address join
burst as it lifts the socket cap; each class keeps its journal, as in a
lesson, in a temporary folder that goes at the end.

In the same run the same pupils, tables and think times are played through two
minimal relay peers, plain `websockets` that sends each message to the other
two at the table and nothing else:

* ``relay``: the pupils send what ours send, level after level (each presses
  Ready, the 3n cards of level n are played, the first presses Next level);
* ``relay plays``: the pupils only play, a card after each think time (the
  plainest peer: no Ready and no Next level, so fewer frames a play than any
  game of levels has).

The difference is what the game logic (checks, the table, three seat views,
the trace, the journal) and Tornado cost above bare transport. The servers and
the clients share this 2-core machine, so the figures include the clients' own
CPU. Besides frames, the pupils count the bytes of the frames they receive.

Last, the teacher's dashboard with ``--dashboard-tables`` tables in play
(`benchmarks/dashboard.py`): its updates per second and its share of one core.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import websockets

ROOT = Path(__file__).resolve().parents[1]
#: Simulated pupils per client process (whole tables of three).
PER_PROCESS = 60

OURS = """
import asyncio, cProfile, collections, json, resource, shutil, sys, tempfile, time
from mindwidget.classroom import Classroom, room
from mindwidget.classroom.links import PupilSocket, Sockets

CLASSES, PROFILE, SPLIT = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
# every pupil here comes from 127.0.0.1: lift the per-address join burst as the socket cap is
room.JOINS_PER_ADDRESS = 1_000_000
CPU = collections.Counter()  # --split: CPU seconds in each of the loop's entry points of ours

def timed(cls, name, part):
    inner, clock = getattr(cls, name), time.thread_time
    def outer(self, *args, **kwargs):
        start = clock()
        try:
            return inner(self, *args, **kwargs)
        finally:
            CPU[part] += clock() - start
    setattr(cls, name, outer)

if SPLIT:
    timed(PupilSocket, "on_message", "a message in (checks, the game, the seats' views)")
    timed(PupilSocket, "send_update", "an update out (its changes, JSON, Tornado's write)")
    timed(Sockets, "_before_send", "the journal's commit")
    timed(Classroom, "_housekeeping", "housekeeping (pings, who is offline)")
    timed(PupilSocket, "write_message", "write")  # Tornado's, within the parts above

async def main():
    data = tempfile.mkdtemp(prefix="mw-bench-")  # each class keeps its journal, as in a lesson
    rooms = [
        Classroom(size=3, bots="none", seed=1, per_address=100_000, rate=(1e6, 1e6), grace=600,
                  port=0, data=data)  # port=0: another class, not this loop's class again
        for _ in range(CLASSES)
    ]
    import mindwidget
    print("serving", mindwidget.__file__, file=sys.stderr, flush=True)
    print(json.dumps([{"port": r.port, "code": r.code} for r in rooms]), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
    profile = cProfile.Profile() if PROFILE != "-" else None
    if profile:
        profile.enable()
    CPU.clear()
    start = time.process_time()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "stop"
    whole = time.process_time() - start
    if profile:
        profile.disable()
        profile.dump_stats(PROFILE)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    split = {part: cpu / whole for part, cpu in CPU.items()} if SPLIT else {}
    print(json.dumps({"maxrss_mb": peak, "split": split}), flush=True)
    shutil.rmtree(data, ignore_errors=True)

asyncio.run(main())
"""


RELAY = """
import asyncio, json, resource, sys
import websockets

tables = {}

async def handler(ws):
    group = None
    async for raw in ws:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            group = tables.setdefault(msg["table"], set())
            group.add(ws)
            await ws.send(json.dumps({"type": "welcome"}))
        elif group is not None:
            websockets.broadcast([o for o in group if o is not ws], raw)

async def main():
    async with websockets.serve(handler, "127.0.0.1", 0, max_size=2**16) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(json.dumps([{"port": port, "code": ""}]), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "stop"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"maxrss_mb": peak}), flush=True)

asyncio.run(main())
"""


# ------------------------------------------------------------------ clients
#: Frames this client process received and sent in the measured window (the
#: server sent and received as many): what a play costs in frames.
FRAMES = {"in": 0, "out": 0, "bytes_in": 0, "bytes_out": 0}


async def send(ws: Any, text: str) -> None:
    FRAMES["out"] += 1
    FRAMES["bytes_out"] += len(text)
    await ws.send(text)


class Pupil:
    def __init__(self, ws: Any, table: Table) -> None:
        self.ws = ws
        self.table = table
        self.view: dict[str, Any] = {}
        self.seen = 0  # pile length seen


class Table:
    def __init__(self, tid: int, sent: dict[tuple[int, int], float], lat: list[float]) -> None:
        self.id = tid
        self.pupils: list[Pupil] = []
        self.sent = sent
        self.lat = lat
        self.changed = asyncio.Event()
        self.seen_by: dict[int, int] = {}  # card -> how many other seats saw it

    def saw(self, card: int) -> None:
        key = (self.id, card)
        if key not in self.sent:
            return
        self.seen_by[card] = self.seen_by.get(card, 0) + 1
        if self.seen_by[card] == len(self.pupils) - 1:
            self.lat.append(time.perf_counter() - self.sent.pop(key))


async def read_ours(p: Pupil) -> None:
    async for raw in p.ws:
        FRAMES["in"] += 1
        FRAMES["bytes_in"] += len(raw)
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "ping":
            await send(p.ws, json.dumps({"type": "pong", "id": msg["id"]}))
        elif kind == "update":
            if msg.get("state"):
                p.view = msg["state"]["view"]
                p.seen = len(p.view.get("pile", []))
            view = (msg.get("changes") or {}).get("view")
            if view:
                pile = view.get("pile", [])
                if len(pile) > p.seen and view.get("seat") != (pile and view["pile_by"][-1]):
                    p.table.saw(int(pile[-1]))
                p.seen = len(pile)
                p.view = view
            p.table.changed.set()


async def drive_ours(t: Table, stop: asyncio.Event, rng: random.Random) -> None:
    """One table's pupils play well: the lowest card first, after a think time."""
    asked: set[tuple[Any, ...]] = set()
    while not stop.is_set():
        t.changed.clear()
        views = [p.view for p in t.pupils]
        same = len({(v.get("n"), v.get("level"), v.get("phase")) for v in views}) == 1
        phase = views[0].get("phase")
        step = (views[0].get("level"), views[0].get("n"), phase, views[0].get("lives"))
        if same and step not in asked:
            if phase in ("ready", "stopped"):
                asked.add(step)
                for p in t.pupils:
                    await send(p.ws, '{"type":"ready"}')
            elif phase == "cleared":
                asked.add(step)
                await send(t.pupils[0].ws, '{"type":"next_level"}')
            elif phase in ("won", "lost"):
                asked.add(step)
                await send(t.pupils[0].ws, '{"type":"new_game"}')
            elif phase == "play":
                held = [(p.view["hand"][0], p) for p in t.pupils if p.view.get("hand")]
                if held:
                    asked.add(step)
                    card, p = min(held, key=lambda h: h[0])
                    await asyncio.sleep(rng.uniform(0.2, 0.6))
                    t.sent[(t.id, card)] = time.perf_counter()
                    await send(p.ws, '{"type":"play"}')
        try:
            await asyncio.wait_for(t.changed.wait(), 5)
        except asyncio.TimeoutError:
            asked.clear()  # nothing moved for 5 s: look again


#: What the relay's messages carry besides their type: about twice an update of ours.
PAD = "x" * 1500


async def read_relay(p: Pupil) -> None:
    async for raw in p.ws:
        FRAMES["in"] += 1
        FRAMES["bytes_in"] += len(raw)
        msg = json.loads(raw)
        if msg.get("type") == "play":
            p.table.saw(msg["card"])


async def drive_relay(t: Table, stop: asyncio.Event, rng: random.Random, levels: bool) -> None:
    """The relay's pupils. With ``levels`` they send what ours send, level after level: each
    presses Ready, the cards of level n (3n plays, each after a think time), then the first
    presses Next level (10 levels, then level 1 again); every message goes to the other two.
    Without, they only play, a card after each think time (the plainest peer)."""
    card = 0
    level = 1
    while not stop.is_set():
        if levels:
            for p in t.pupils:
                await send(p.ws, json.dumps({"type": "ready", "pad": PAD}))
        for _ in range(len(t.pupils) * level if levels else 1):
            await asyncio.sleep(rng.uniform(0.2, 0.6))
            card += 1
            p = t.pupils[card % len(t.pupils)]
            t.sent[(t.id, card)] = time.perf_counter()
            await send(p.ws, json.dumps({"type": "play", "card": card, "pad": PAD}))
        if levels:
            await send(t.pupils[0].ws, json.dumps({"type": "next_level", "pad": PAD}))
            level = level % 10 + 1


async def clients(
    port: int, code: str, n: int, peer: str, warm: float, seconds: float, first: int
) -> dict[str, Any]:
    """``n`` pupils (tables ``first``, ``first + 1``, ...): join, say so, wait for "go", play."""
    relay = peer != "ours"
    sent: dict[tuple[int, int], float] = {}
    lat: list[float] = []
    tables = [Table(first + i, sent, lat) for i in range(n // 3)]
    url = f"ws://127.0.0.1:{port}/" + ("" if relay else "ws")
    tasks = []
    for i in range(len(tables) * 3):
        t = tables[i // 3]
        ws = await websockets.connect(url, max_size=2**22, open_timeout=60, ping_interval=None)
        p = Pupil(ws, t)
        t.pupils.append(p)
        if relay:
            await ws.send(json.dumps({"type": "hello", "table": t.id}))
            await ws.recv()
            tasks.append(asyncio.create_task(read_relay(p)))
        else:
            await ws.send(json.dumps({"type": "join", "code": code, "name": f"p{first}-{i}"}))
            while json.loads(await ws.recv()).get("type") != "welcome":
                pass
            tasks.append(asyncio.create_task(read_ours(p)))
    print("joined", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
    stop = asyncio.Event()
    rng = random.Random(first)
    tasks += [
        asyncio.create_task(
            drive_relay(t, stop, random.Random(rng.random()), levels=peer == "relay")
            if relay
            else drive_ours(t, stop, random.Random(rng.random()))
        )
        for t in tables
    ]
    await asyncio.sleep(warm)  # the benchmark's warm-up window, not a wait for a condition
    lat.clear()
    FRAMES.update(dict.fromkeys(FRAMES, 0))
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    measured = list(lat)
    frames = dict(FRAMES)
    elapsed = time.perf_counter() - t0
    stop.set()
    for task in tasks:
        task.cancel()
    for t in tables:
        for p in t.pupils:
            await p.ws.close()
    return {"lat_ms": [x * 1000 for x in measured], "elapsed": elapsed, "frames": frames}


def client_main() -> None:
    port, code, n, peer, warm, seconds, first = sys.argv[2:9]
    out = asyncio.run(
        clients(int(port), code, int(n), peer, float(warm), float(seconds), int(first))
    )
    print(json.dumps(out))


# ------------------------------------------------------------------ a run
def run(
    kind: str,
    n: int,
    warm: float,
    seconds: float,
    server_nice: int | None,
    classes: int = 1,
    profile: str | None = None,
    tree: Path = ROOT,
    split: bool = False,
) -> dict[str, Any]:
    """``n`` pupils on one server process: ours with ``classes`` classes of ``n / classes``
    (one `Classroom` each; its mindwidget from the source ``tree``), or the relay."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = RELAY if kind.startswith("relay") else OURS
    server_env = dict(env, PYTHONPATH=str(tree))
    server = subprocess.Popen(
        [sys.executable, "-c", code, str(classes), profile or "-", "1" if split else "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=server_env, cwd=tree,
    )  # fmt: skip
    assert server.stdout is not None and server.stdin is not None
    line = server.stdout.readline()
    while not line.startswith("["):  # the class's own words (its journal, its address)
        line = server.stdout.readline()
    hellos = json.loads(line)
    proc = psutil.Process(server.pid)
    if server_nice is not None:  # the server as on the teacher's laptop, the pupils niced
        proc.nice(server_nice)
    # the pupils in processes of at most PER_PROCESS, joining one process after the other
    # (so each table's three pupils are in one process and one class), then all start together
    workers = []
    per_class = n // len(hellos)
    for c, hello in enumerate(hellos):
        for first in range(c * per_class, (c + 1) * per_class, PER_PROCESS):
            count = min(PER_PROCESS, (c + 1) * per_class - first)
            w = subprocess.Popen(
                [sys.executable, __file__, "--client", str(hello["port"]), hello["code"] or "-",
                 str(count), "ours" if kind == "before" else kind, str(warm), str(seconds),
                 str(first // 3 + 1)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
            )  # fmt: skip
            assert w.stdout is not None
            assert w.stdout.readline().strip() == "joined"
            workers.append(w)
    for w in workers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    server.stdin.write("go\n")  # the profile (if any) covers the play, not the joining
    server.stdin.flush()
    # the server's CPU over the measured window only
    time.sleep(warm)  # the same warm-up window as the clients'
    t0 = proc.cpu_times()
    c0 = t0.user + t0.system
    k0 = sum(sum(psutil.Process(w.pid).cpu_times()[:2]) for w in workers)
    w0 = time.perf_counter()
    time.sleep(seconds)  # the measured window (the clients measure the same seconds)
    t1 = proc.cpu_times()
    c1 = t1.user + t1.system
    k1 = sum(sum(psutil.Process(w.pid).cpu_times()[:2]) for w in workers)
    w1 = time.perf_counter()
    outs = [w.communicate(timeout=warm + seconds + 600)[0] for w in workers]
    server.stdin.write("\n")
    server.stdin.flush()
    mem = json.loads(server.stdout.readline())
    server.wait(30)
    got = [json.loads(out) for out in outs]
    lat = sorted(x for g in got for x in g["lat_ms"])
    frames_in = sum(g["frames"]["out"] for g in got)  # what the server received ...
    frames_out = sum(g["frames"]["in"] for g in got)  # ... and sent
    q = statistics.quantiles(lat, n=100) if len(lat) > 2 else [float("nan")] * 99
    cpu_s = c1 - c0
    return {
        "kind": kind if classes == 1 else f"{kind} x{classes}",
        "pupils": n,
        "classes": classes,
        "plays": len(lat),
        "cpu_ms_per_play": 1000 * cpu_s / max(1, len(lat)),
        # the kernel's share (system time: the sockets, for the most part)
        "sys_ms_per_play": 1000 * (t1.system - t0.system) / max(1, len(lat)),
        # frames per play, as the server sees them: received / sent
        "frames_in": frames_in / max(1, len(lat)),
        "frames_out": frames_out / max(1, len(lat)),
        # bytes per frame the server sent (what its JSON and its sockets carry)
        "bytes_per_frame_out": sum(g["frames"]["bytes_in"] for g in got) / max(1, frames_out),
        "p50": q[49],
        "p95": q[94],
        "p99": q[98],
        "cpu": cpu_s / max(1e-9, w1 - w0),
        "clients_cpu": (k1 - k0) / max(1e-9, w1 - w0),
        "load": os.getloadavg()[0],
        "maxrss_mb": mem["maxrss_mb"],
        "split": mem.get("split") or {},
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        client_main()
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pupils", type=int, nargs="+", default=[30, 120, 300])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warm", type=float, default=5.0)
    parser.add_argument(
        "--server-nice",
        type=int,
        default=None,
        help="the servers' niceness (default: this process's; e.g. 0 with the benchmark run "
        "under `nice`, so that on a shared machine the pupils' processes yield to the server)",
    )
    parser.add_argument(
        "--host",
        default="10x30",
        help="the host case: CLASSESxPUPILS classes on one server process ('' to skip)",
    )
    parser.add_argument(
        "--profile",
        default=None,
        help="write cProfile statistics of our server at the largest class size to this file",
    )
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        help="also serve each case from this source tree (e.g. a worktree of main), "
        "as 'before', between ours and the relay: before and after in one run",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="time our server's entry points (a message in, an update out, the journal's "
        "commit, housekeeping) and print each one's share of its CPU",
    )
    parser.add_argument(
        "--dashboard-tables",
        type=int,
        default=100,
        help="the teacher's dashboard with this many tables in play (0: skip)",
    )
    args = parser.parse_args()
    print(f"{'server':11} {'pupils':>6} {'plays':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
          f"{'CPU':>6} {'CPU ms/play':>11} {'of it sys':>9} {'peak MB':>8} {'clients CPU':>11} "
          f"{'load':>5} {'frames in/out per play':>22}")  # fmt: skip
    rows = []
    cases = [(n, 1) for n in args.pupils]
    if args.host:
        classes, per = (int(x) for x in args.host.split("x"))
        cases.append((classes * per, classes))
    largest = max(args.pupils)
    for n, classes in cases:
        for kind in ("ours",) + ("before",) * bool(args.before) + ("relay", "relay plays"):
            profile = args.profile if kind == "ours" and classes == 1 and n == largest else None
            tree = args.before.resolve() if kind == "before" else ROOT
            split = args.split and kind in ("ours", "before")
            r = run(
                kind, n, args.warm, args.seconds, args.server_nice, classes, profile, tree, split
            )
            r["case"] = (n, classes)
            rows.append(r)
            print(f"{r['kind']:11} {r['pupils']:6d} {r['plays']:6d} {r['p50']:8.1f} "
                  f"{r['p95']:8.1f} {r['p99']:8.1f} {r['cpu']:6.2f} {r['cpu_ms_per_play']:11.2f} "
                  f"{r['sys_ms_per_play']:9.2f} "
                  f"{r['maxrss_mb']:8.1f} {r['clients_cpu']:11.2f} {r['load']:5.1f} "
                  f"{r['frames_in']:11.2f} / {r['frames_out']:.2f} "
                  f"({r['bytes_per_frame_out']:,.0f} B a frame out)",
                  flush=True)  # fmt: skip
            if r["split"]:
                split = dict(r["split"])
                write = split.pop("write", 0.0)
                parts = ", ".join(f"{part} {share:.0%}" for part, share in split.items())
                rest = 1 - sum(split.values())
                print(f"          its CPU: {parts} (within these, Tornado's write {write:.0%}: "
                      f"updates, pings, replies); the rest (Tornado's reading, the event loop, "
                      f"the kernel) {rest:.0%}", flush=True)  # fmt: skip
                r["transport_ms"] = (rest + write) * r["cpu_ms_per_play"]
    print("\nours (and before) / each relay, one run (p95, CPU per play; targets: 5x and 2x):")
    for case in cases:
        label = f"{case[0]:4d} pupils" + (f" in {case[1]} classes" if case[1] > 1 else "")
        for peer in ("relay", "relay plays"):
            p = next(r for r in rows if r["case"] == case and r["kind"].split(" x")[0] == peer)
            for name in ("ours", "before"):
                found = [r for r in rows if r["case"] == case and r["kind"].startswith(name)]
                if found:
                    o = found[0]
                    frames = (o["frames_in"] + o["frames_out"]) / max(
                        p["frames_in"] + p["frames_out"], 1e-9
                    )
                    cpu = o["cpu_ms_per_play"] / max(p["cpu_ms_per_play"], 1e-9)
                    print(
                        f"  {label}, {name} / {peer}: p95 x{o['p95'] / p['p95']:.1f}, "
                        f"CPU per play x{cpu:.1f} (= frames per play x{frames:.1f} "
                        f"times CPU per frame x{cpu / frames:.1f})"
                    )
    if args.split:
        print("\nTornado alone (its reading and writing, the event loop, the kernel), per play:")
        for case in cases:
            p = next(r for r in rows if r["case"] == case and r["kind"].split(" x")[0] == "relay")
            for o in rows:
                if o["case"] == case and "transport_ms" in o:
                    print(
                        f"  {o['kind']:11} {o['pupils']:4d} pupils: {o['transport_ms']:.2f} ms, "
                        f"x{o['transport_ms'] / p['cpu_ms_per_play']:.1f} the relay's whole "
                        f"CPU per play ({p['cpu_ms_per_play']:.2f} ms); the rest of ours "
                        f"{o['cpu_ms_per_play'] - o['transport_ms']:.2f} ms"
                    )
    targets = {120: 50.0, 300: 100.0}
    for r in rows:
        if r["kind"] == "ours" and r["pupils"] in targets:
            ok = r["p95"] < targets[r["pupils"]] and r["maxrss_mb"] < 300
            print(
                f"target at {r['pupils']}: p95 < {targets[r['pupils']]:.0f} ms, < 300 MB: "
                f"{'met' if ok else 'NOT met'}"
            )
    if args.dashboard_tables:
        # the teacher's view: at most a few updates a second, under 10% of one core
        from dashboard import main as dashboard_main  # benchmarks/dashboard.py

        print(f"\nthe teacher's dashboard, {args.dashboard_tables} tables in play:", flush=True)
        dashboard_main(["--tables", str(args.dashboard_tables), "--seconds", str(args.seconds)])


if __name__ == "__main__":
    main()
