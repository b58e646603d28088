"""What a message costs the bare transport: Tornado against `websockets`, no game at all.

    .venv/bin/python benchmarks/transport.py [--sockets 120] [--seconds 8] [--rounds 2]
                                             [--ours 1.84 4.5] [--relay 1.46 2.92]

A server with ``--sockets`` pupils' sockets (one client process of
`websockets` connections) answers each message it receives with a frame of
about 700 bytes (the size of a class update) to each of the three sockets of
its table, as the class server does for a play; and, in a second server, to
none of them. The difference is what three frames out cost, the second server
what a frame in costs (its wake-up included). The pupils send a message
every 0.6–1.8 s each (about 90 a second for 120 sockets). Printed: the
server's CPU per message received (microseconds), for a Tornado server (the
class server's transport) and for a `websockets` server (the relay peer's of
`benchmarks/classroom.py`), alternating, each in a fresh process. This is the
floor under the class server's CPU per play: the event loop's wake-up and the
framing, before any game.

Last, that floor for the frames a play costs in `benchmarks/classroom.py`
(``--ours`` and ``--relay``: frames in and out per play, as it printed them):
Tornado's cost of our frames against `websockets`' cost of the relay's, the
least CPU per play the class server could have beside the relay, game or no
game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys

CLIENT = r"""
import asyncio, random, sys, websockets
async def main(port, n, seconds):
    url = f"ws://127.0.0.1:{port}/ws"
    conns = [await websockets.connect(url, ping_interval=None) for _ in range(n)]
    print("ok", flush=True)
    async def read(c):
        try:
            async for _ in c:
                pass
        except Exception:
            pass
    async def write(c, rng):
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while loop.time() < end:
            await asyncio.sleep(rng.uniform(0.6, 1.8))
            await c.send('{"type":"play"}')
    rng = random.Random(1)
    await asyncio.gather(*(read(c) for c in conns),
                         *(write(c, random.Random(rng.random())) for c in conns))
asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])))
"""

UPDATE = json.dumps({"type": "update", "changes": {"view": {"pad": "x" * 680}}})


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def _serve(kind: str, sockets: int, seconds: float, answers: int) -> float:
    socks: list[object] = []
    count = [0]
    if kind == "tornado":
        import tornado.web
        import tornado.websocket

        class Handler(tornado.websocket.WebSocketHandler):
            def open(self, *args: str, **kwargs: str) -> None:
                self.set_nodelay(True)
                socks.append(self)

            def on_message(self, message: str | bytes) -> None:
                count[0] += 1
                i = socks.index(self)
                for other in socks[i - i % 3 : i - i % 3 + answers]:
                    other.write_message(UPDATE)  # type: ignore[attr-defined]

        server = tornado.web.Application([("/ws", Handler)]).listen(0, "127.0.0.1")
        port = next(iter(server._sockets.values())).getsockname()[1]
    else:
        import websockets

        async def handler(ws: object) -> None:
            socks.append(ws)
            async for _ in ws:  # type: ignore[attr-defined]
                count[0] += 1
                i = socks.index(ws)
                websockets.broadcast(socks[i - i % 3 : i - i % 3 + answers], UPDATE)  # type: ignore[arg-type]

        server = await websockets.serve(handler, "127.0.0.1", 0)
        port = next(iter(server.sockets)).getsockname()[1]
    client = subprocess.Popen(
        [sys.executable, "-c", CLIENT, str(port), str(sockets), str(seconds + 1)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert client.stdout is not None
    await asyncio.get_running_loop().run_in_executor(None, client.stdout.readline)
    await asyncio.sleep(0.5)  # the first messages, not measured
    c0, n0 = _cpu(), count[0]
    await asyncio.sleep(seconds)
    c1, n = _cpu(), count[0] - n0
    client.kill()
    client.wait()
    server.stop() if kind == "tornado" else server.close()  # type: ignore[attr-defined]
    return 1e6 * (c1 - c0) / max(1, n)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        kind, sockets, seconds = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        print(asyncio.run(_serve(kind, sockets, seconds, int(sys.argv[5]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=120)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--ours", type=float, nargs=2, default=[1.84, 4.5], metavar=("IN", "OUT"))
    parser.add_argument("--relay", type=float, nargs=2, default=[1.46, 2.92], metavar=("IN", "OUT"))
    args = parser.parse_args()
    print(f"load average (1 min) at start: {os.getloadavg()[0]:.2f}")
    kinds = [(kind, answers) for kind in ("tornado", "websockets") for answers in (3, 0)]
    got: dict[tuple[str, int], list[float]] = {k: [] for k in kinds}
    for _ in range(args.rounds):
        for kind, answers in kinds:
            out = subprocess.run(
                [sys.executable, __file__, "--serve", kind, str(args.sockets), str(args.seconds),
                 str(answers)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            got[kind, answers].append(float(out.stdout.strip().splitlines()[-1]))
    best = {k: min(v) for k, v in got.items()}
    for (kind, answers), values in got.items():
        shown = ", ".join(f"{v:.0f}" for v in values)
        print(
            f"{kind:10}: {best[kind, answers]:6.0f} us of CPU per message in "
            f"(+{answers} frames out); runs {shown}"
        )
    print(f"tornado / websockets, a message and 3 frames out: "
          f"{best['tornado', 3] / best['websockets', 3]:.2f}")  # fmt: skip
    cost = {}
    for kind in ("tornado", "websockets"):
        frame_in, frame_out = best[kind, 0], max(0.0, (best[kind, 3] - best[kind, 0]) / 3)
        cost[kind] = (frame_in, frame_out)
        print(f"{kind:10}: a frame in {frame_in:.0f} us, a frame out {frame_out:.0f} us")
    ours = args.ours[0] * cost["tornado"][0] + args.ours[1] * cost["tornado"][1]
    relay = args.relay[0] * cost["websockets"][0] + args.relay[1] * cost["websockets"][1]
    print(
        f"the floor of a play: ours {args.ours[0]:g} in and {args.ours[1]:g} out on Tornado "
        f"{ours:.0f} us, the relay's {args.relay[0]:g} in and {args.relay[1]:g} out on "
        f"websockets {relay:.0f} us: x{ours / relay:.2f}"
    )


if __name__ == "__main__":
    main()
