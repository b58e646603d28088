"""The walk of one class play through the server, measured (not counted by hand).

Three pupils sit at one table (no bots); each presses Ready; then the first plays
their lowest card. While the server handles that play and writes its update to the
three pages, a profiler on the server's loop thread notes every call of a function
of ``mindwidget`` (in order), until the other two pages show the card on the pile.

It prints: the calls of the project's functions; the hops between modules (a call
whose caller is in another module of the package, or outside it); and the way out:
the calls from the table's change (`Session._on_table`) to the last frame written,
with its crossings between the class modules (links, server, room, tables).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/class_play_walk.py [--list]
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from classroom_harness import Client, Server, all_phase, ready_all  # noqa: E402

PACKAGE = str(Path(__file__).resolve().parent.parent / "mindwidget")


def _module(frame: FrameType | None) -> str | None:
    if frame is None:
        return None
    path = frame.f_code.co_filename
    if not path.startswith(PACKAGE):
        return None
    return path[len(PACKAGE) + 1 : -3].replace("/", ".")


def main() -> None:
    calls: list[tuple[str | None, str, str]] = []  # (caller's module, module, function)

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = _module(frame)
        if module is None or frame.f_code.co_name in ("<lambda>", "<genexpr>", "<listcomp>"):
            return
        calls.append((_module(frame.f_back), module, frame.f_code.co_qualname))

    server = Server(size=3, seed=7, data=False)
    try:
        pages = [Client(server) for _ in range(3)]
        assert server.room is not None
        for n, page in enumerate(pages):
            page.join(server.room.code, f"Kid{n}")
        all_phase(pages, "ready")
        ready_all(pages)
        first, others = pages[0], pages[1:]
        server.call(sys.setprofile, profile)
        first.send({"type": "play"})
        for page in others:
            page.wait(lambda c: len(c.view.get("pile") or []) == 1, "the card on the pile")
        first.wait(lambda c: len(c.view.get("pile") or []) == 1, "the card on the pile")
        server.call(sys.setprofile, None)
    finally:
        for page in locals().get("pages", []):
            page.close()
        server.stop()
    calls = [c for c in calls if c[2] != "main.<locals>.profile"]
    hops = sum(1 for caller, module, _ in calls if caller != module)
    print(f"calls of the package's functions: {len(calls)}, hops between modules: {hops}")
    # the seat and the class: session.py and classroom/*, the rest (table, game, view) aside
    walk = [c for c in calls if _ours(c[1])]
    steps = [(m, f) for i, (_, m, f) in enumerate(walk) if i == 0 or walk[i - 1][1] != m]
    print(f"hops between the seat's and the class's modules: {len(steps) - 1}")
    out = next((i for i, (m, f) in enumerate(steps) if f == "Session._on_table"), 0)
    print(f"  of which on the way out (from Session._on_table): {len(steps) - 1 - out}")
    three = ("classroom.links", "classroom.server", "classroom.room")
    back_and_forth = [
        (caller, module, name)
        for caller, module, name in calls
        if caller in three and module in three and caller != module
    ]
    print(f"calls between links, server and room: {len(back_and_forth)}")
    for caller, module, name in back_and_forth if "--list" in sys.argv else ():
        print(f"  {caller} -> {module}.{name}")
    if "--list" in sys.argv:
        for module, name in steps:
            print(f"  {module}.{name}")


def _ours(module: str | None) -> bool:
    return module is not None and (module == "session" or module.startswith("classroom."))


if __name__ == "__main__":
    main()
