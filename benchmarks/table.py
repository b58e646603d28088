"""What one action costs after a long level: a hostile front end spamming stop and ready.

    .venv/bin/python benchmarks/table.py [--events 10000] [--repeat 20]

A level of 3 players (the person in seat 0, perfect bots that wait long) gets
``events`` stop/ready events, made in the game core (fast) and then handed to
a `MindWidget` (messages through a recording comm, as in the tests) and, when
it exists, to a `Table` (no widget). Then one stop and one ready are timed,
``repeat`` times, and compared with the same two actions in a fresh level
(about ten events): the ratio is how much more an action costs after the long
level. An action whose cost does not grow with the level's length has a ratio
near 1.

It also sends a 20-byte update of ``_esm`` (a trait the browser may not set)
and reports how many bytes the kernel sends back.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def long_level(events: int) -> Any:
    """A level where the bots wait long (1, then 99 and 100) with ``events`` stop/ready events."""
    from mindwidget import Game

    g = Game.from_hands([[1, 2], [99], [100]], level=2, seed=1)
    g.ready(t=0.0)
    t = 0.0
    for _ in range(events // 2):
        t += 0.0001
        g.stop(0, t=t)
        g.ready(t=t)
    return g


def timed(action: Callable[[], object], repeat: int) -> float:
    """Median seconds of one call."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def widget_cost(events: int, repeat: int) -> dict[str, Any]:
    import comm
    from widget_harness import Browser, RecordingComm

    from mindwidget import MindWidget

    comm.create_comm = RecordingComm
    out: dict[str, Any] = {}
    for name, n in (("fresh", 0), ("long", events)):
        w = MindWidget(game=long_level(n), seat=0, bots="perfect")
        b = Browser(w)
        t = [w.game.t]

        def pair(b: Browser = b, t: list[float] = t) -> None:
            t[0] += 0.0001
            b.send({"type": "stop", "t": t[0]})
            b.send({"type": "ready", "t": t[0]})

        out[name] = {"level_events": len(w.game.level_events), "ms": timed(pair, repeat) * 500}
        assert not w.notice, w.notice
    sent = len(w.comm.sent)
    b.update({"_esm": "export default {}"})
    echoed = sum(len(json.dumps(e["data"])) for e in w.comm.sent[sent:])
    out["ratio"] = round(out["long"]["ms"] / out["fresh"]["ms"], 1)
    out["esm_update_20_bytes_echo_bytes"] = echoed
    return out


def table_cost(events: int, repeat: int) -> dict[str, Any] | None:
    try:
        from mindwidget import Table  # type: ignore[attr-defined]
    except ImportError:
        return None
    out: dict[str, Any] = {}
    for name, n in (("fresh", 0), ("long", events)):
        table = Table(game=long_level(n), seats=(0,), bots="perfect")
        t = [table.game.t]

        def pair(table: Any = table, t: list[float] = t) -> None:
            t[0] += 0.0001
            table.stop(t=t[0])
            table.ready(t=t[0])

        out[name] = {"level_events": len(table.game.level_events), "ms": timed(pair, repeat) * 500}
    out["ratio"] = round(out["long"]["ms"] / out["fresh"]["ms"], 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    result = {
        "events": args.events,
        "widget_message": widget_cost(args.events, args.repeat),
        "table_method": table_cost(args.events, args.repeat),
    }
    for part in ("widget_message", "table_method"):
        r = result[part]
        if r is None:
            continue
        for name in ("fresh", "long"):
            r[name]["ms"] = round(r[name]["ms"], 3)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
