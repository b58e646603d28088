"""The class server on an unfriendly network: floods, and a class behind one address.

    .venv/bin/python benchmarks/class_network.py [--pings 200] [--hard-limit 1024] [--only flood]
    PYTHONPATH=/path/to/other/tree .venv/bin/python benchmarks/class_network.py   # a peer

The server runs in its own process with its default limits (a soft limit of
1,024 open files, as many systems start it; a server that raises it to the
hard one may), on 127.0.0.1. A well-behaved pupil joins first and then sends
a ping every 50 ms; its round trip (p50 / p95, ms) is measured in each case:

* ``quiet``: nothing else happens (the peer for the others);
* ``2000 messages``: one socket sends 2,000 messages as fast as it can;
* ``2040 sockets``: 2,040 sockets opened from one address and held;
* ``500 idle``: 500 sockets opened and left idle;
* ``1000 half-open``: 1,000 TCP connections that send half a request and stop;
* ``1000 from 4``: the same from four addresses (127.0.0.2 to 127.0.0.5), which
  fill the server's unfinished connections (128 per address, 512 in all, fewer
  under the file limit); during it a new pupil joins from a fifth address
  (127.0.0.6), and the time from its first connection to its welcome is printed;
* ``1000 from 4, re-opened``: the same, and each connection the server closes
  is opened again at once, while five new pupils join one after another.

Last, a class of 60 joins from one address: how many are seated, how many are
refused, and the time until the last is seated. Figures depend on the machine's
load, which is printed; compare two trees by running each in the same minute.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]
#: ``--hard-limit``: the server's hard limit of open files too (None: the system's).
HARD_LIMIT: int | None = None
#: ``--only flood``: the quiet case and the flood from four addresses only.
ONLY: str | None = None

SERVER = """
import asyncio, inspect, json, resource, sys
from mindwidget.classroom import Classroom

async def main():
    options = dict(size=3, seed=1, grace=600, data=False, **json.loads(sys.argv[1]))
    known = inspect.signature(Classroom).parameters  # a peer tree may lack some
    room = Classroom(**{k: v for k, v in options.items() if k in known})
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    import mindwidget
    tree = mindwidget.__file__.rsplit("/mindwidget/", 1)[0]
    out = {"port": room.port, "code": room.code, "files": soft, "tree": tree}
    print(json.dumps(out), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

asyncio.run(main())
"""


def start_server(**options: Any) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    import resource

    def limit() -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        hard = min(hard, HARD_LIMIT) if HARD_LIMIT else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))

    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, json.dumps(options)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
        cwd="/",  # the tree under test comes from PYTHONPATH or the installed package
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # the class may say something first (its journal)
        if line.startswith("{"):
            return proc, json.loads(line)
    raise RuntimeError(f"the server did not start: {proc.stderr.read() if proc.stderr else ''}")


def stop(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    with contextlib.suppress(OSError):
        proc.stdin.write("\n")
        proc.stdin.flush()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        print(f"{'':16} the server did not stop when asked: killed", flush=True)
        proc.kill()
        proc.wait(15)


async def pupil(port: int, code: str, name: str) -> Any:
    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws",
        open_timeout=30,
        max_size=2**22,
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
    )
    await ws.send(json.dumps({"type": "join", "code": code, "name": name}))
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if msg["type"] in ("welcome", "refused", "bye"):
            if msg["type"] != "welcome":
                raise RuntimeError(f"{name}: {msg}")
            return ws


async def round_trips(ws: Any, n: int) -> list[float]:
    """``n`` pings, one per 50 ms; each round trip in ms (a lost one counts as 5 s)."""
    out: list[float] = []
    for i in range(n):
        sent = time.perf_counter()
        try:
            await ws.send(json.dumps({"type": "ping", "id": 10_000 + i}))
        except websockets.ConnectionClosed:  # the server dropped the pupil: the rest is lost
            return out + [5000.0] * (n - i)

        async def pong(want: int = 10_000 + i) -> None:
            while True:
                msg = json.loads(await ws.recv())
                if msg.get("type") == "pong" and msg.get("id") == want:
                    return

        try:
            await asyncio.wait_for(pong(), 5)
            out.append((time.perf_counter() - sent) * 1000)
        except (TimeoutError, websockets.ConnectionClosed):
            out.append(5000.0)
        await asyncio.sleep(0.05)
    return out


async def flood_messages(port: int, code: str) -> None:
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=30) as ws:
        for i in range(2000):
            await ws.send(json.dumps({"type": "ping", "id": i}))
        with contextlib.suppress(Exception):
            await asyncio.sleep(3)


async def hold_sockets(port: int, n: int, seconds: float) -> int:
    async def one() -> Any:
        try:
            return await websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10)
        except Exception:
            return None

    socks = await asyncio.gather(*(one() for _ in range(n)))
    opened = sum(1 for s in socks if s is not None)
    await asyncio.sleep(seconds)
    closing = [asyncio.wait_for(s.close(), 10) for s in socks if s is not None]
    await asyncio.gather(*closing, return_exceptions=True)
    return opened


def half_open(port: int, n: int, source: str | None = None) -> list[socket.socket]:
    held = []
    for _ in range(n):
        try:
            where = (source, 0) if source else None
            c = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=where)
            c.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(c)
        except OSError:
            break
    return held


def reopening(port: int, held: list[socket.socket], source: str, stop: Any) -> int:
    """Keep ``held`` open: each one the server closes is opened again at once (with
    half a request), until ``stop`` is set; how many were opened again."""
    import select

    again = 0
    while not stop.is_set() and held:
        readable, _, _ = select.select(held, [], [], 0.05)
        for c in readable:
            try:
                closed = not c.recv(4096)
            except OSError:
                closed = True
            if closed:
                held.remove(c)
                c.close()
                held.extend(half_open(port, 1, source))
                again += 1
    return again


def summary(rtts: list[float]) -> str:
    q = statistics.quantiles(rtts, n=100)
    lost = sum(1 for r in rtts if r >= 5000)
    return f"p50 {q[49]:7.1f} ms  p95 {q[94]:7.1f} ms  lost {lost}"


FLOOD = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")


async def new_pupil_from(port: int, code: str, source: str, name: str = "Noor") -> float:
    """A pupil's page at ``source`` opens its socket and joins: seconds to its welcome."""
    start = time.perf_counter()
    loop = asyncio.get_running_loop()
    sock = await loop.run_in_executor(
        None, lambda: socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    )
    sock.setblocking(False)
    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws",
        sock=sock,
        open_timeout=30,
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
    )
    try:
        await ws.send(json.dumps({"type": "join", "code": code, "name": name}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] in ("welcome", "refused", "bye"):
                if msg["type"] != "welcome":
                    raise RuntimeError(f"the new pupil: {msg}")
                return time.perf_counter() - start
    finally:
        await ws.close()


async def case(name: str, pings: int, during: Any = None) -> None:
    proc, info = start_server()
    port, code = info["port"], info["code"]
    try:
        me = await pupil(port, code, "Well Behaved")
        task = asyncio.ensure_future(during(port, code)) if during else None
        await asyncio.sleep(0.3 if during else 0)
        rtts = await round_trips(me, pings)
        extra = ""
        if task is not None:
            result = await task
            extra = f"  ({result})" if result is not None else ""
        print(f"{name:16} {summary(rtts)}  files {info['files']}{extra}", flush=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(me.close(), 10)
    finally:
        stop(proc)
        assert proc.stderr is not None
        err = proc.stderr.read()
        if err.strip():
            print(
                f"{'':16} server's stderr: {len(err)} bytes, "
                f"{err.count('Traceback')} tracebacks, "
                f"{err.lower().count('too many open files')} 'too many open files'",
                flush=True,
            )


async def class_of(n: int, nginx: bool = False) -> None:
    """``n`` pupils join at once from one address (``nginx``: through nginx)."""
    with contextlib.ExitStack() as stack:
        if nginx:
            sys.path.insert(0, str(ROOT / "tests"))
            from nginx_proxy import nginx_proxy  # type: ignore[import-not-found]
            from serving import free_port  # type: ignore[import-not-found]

            front = free_port()
            proc, info = start_server(
                trust_proxy="127.0.0.1", public_url=f"http://127.0.0.1:{front}"
            )
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            stack.enter_context(nginx_proxy(info["port"], folder, port=front))
            await joins(n, proc, front, info["code"], "through nginx")
        else:
            proc, info = start_server()
            await joins(n, proc, info["port"], info["code"], "behind one address")


async def joins(n: int, proc: subprocess.Popen[str], port: int, code: str, how: str) -> None:
    try:
        start = time.perf_counter()

        async def one(i: int) -> Any:
            try:
                return await pupil(port, code, f"Leerling {i + 1}")
            except Exception:
                return None

        socks = await asyncio.gather(*(one(i) for i in range(n)))
        took = time.perf_counter() - start
        seated = sum(1 for s in socks if s is not None)
        print(
            f"class of {n:3d} {how}: {seated} seated, {n - seated} refused, "
            f"the last seated after {took:.2f} s",
            flush=True,
        )
        await asyncio.gather(*(s.close() for s in socks if s is not None), return_exceptions=True)
    finally:
        stop(proc)


async def main(pings: int) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}", flush=True)
    proc, info = start_server()
    assert proc.stdin is not None
    proc.stdin.write("\n")
    proc.stdin.close()
    proc.wait(30)
    print(f"server from {info['tree']}; soft limit of files after start: {info['files']}")
    await case("quiet", pings)

    async def sockets_2040(port: int, code: str) -> str:
        return f"{await hold_sockets(port, 2040, pings * 0.06)} of 2040 opened"

    async def idle_500(port: int, code: str) -> str:
        return f"{await hold_sockets(port, 500, pings * 0.06)} of 500 opened"

    async def half_from_4(port: int, code: str) -> str:
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        held = await asyncio.gather(
            *(loop.run_in_executor(None, half_open, port, 250, a) for a in FLOOD)
        )
        opened = time.perf_counter() - start
        try:
            joined = await new_pupil_from(port, code, "127.0.0.6")
            said = f"welcomed {joined * 1000:.0f} ms after its first connection"
        except Exception as exc:  # a server that keeps the pupil out
            said = f"not let in ({type(exc).__name__}: {str(exc)[:60]})"
        await asyncio.sleep(max(0.0, pings * 0.06 - (time.perf_counter() - start)))
        n = sum(len(h) for h in held)
        for c in (c for h in held for c in h):
            c.close()
        return f"{n} of 1000 connected in {opened:.1f} s; a new pupil from 127.0.0.6 {said}"

    async def reopened_from_4(port: int, code: str) -> str:
        """As ``half_from_4``, and every connection the server closes is opened again."""
        import threading

        loop = asyncio.get_running_loop()
        held = await asyncio.gather(
            *(loop.run_in_executor(None, half_open, port, 250, a) for a in FLOOD)
        )
        stop = threading.Event()
        keeping = [
            loop.run_in_executor(None, reopening, port, h, a, stop)
            for h, a in zip(held, FLOOD, strict=True)
        ]
        joins = []
        for i in range(5):  # five new pupils, one after another, while the flood churns
            try:
                took = await new_pupil_from(port, code, "127.0.0.6", f"Noor {i + 1}")
                joins.append(f"{took * 1000:.0f}")
            except Exception as exc:
                joins.append(f"not let in ({type(exc).__name__}: {str(exc)[:50]})")
        await asyncio.sleep(pings * 0.06)
        stop.set()
        again = sum(await asyncio.gather(*keeping))
        for c in (c for h in held for c in h):
            c.close()
        joined = ", ".join(joins)
        return f"{again} reopened; five new pupils from 127.0.0.6 welcomed after {joined} ms"

    async def half_1000(port: int, code: str) -> str:
        held = await asyncio.get_running_loop().run_in_executor(None, half_open, port, 1000)
        await asyncio.sleep(pings * 0.06)
        n = len(held)
        for c in held:
            c.close()
        return f"{n} of 1000 connected"

    if ONLY == "flood":
        await case("1000 from 4", pings, half_from_4)
        await case("1000 from 4, re-opened", pings, reopened_from_4)
        return
    await case("2000 messages", pings, flood_messages)
    await case("2040 sockets", pings, sockets_2040)
    await case("500 idle", pings, idle_500)
    await case("1000 half-open", pings, half_1000)
    await case("1000 from 4", pings, half_from_4)
    await case("1000 from 4, re-opened", pings, reopened_from_4)
    await class_of(30)
    await class_of(60)
    if shutil.which("nginx") or Path("/usr/sbin/nginx").exists():
        await class_of(60, nginx=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pings", type=int, default=200, help="pings per case (default 200)")
    parser.add_argument(
        "--hard-limit", type=int, default=None, help="the server's hard limit of open files too"
    )
    parser.add_argument(
        "--only", choices=["flood"], default=None, help="quiet and '1000 from 4' only"
    )
    args = parser.parse_args()
    HARD_LIMIT = args.hard_limit
    ONLY = args.only
    asyncio.run(main(args.pings))
