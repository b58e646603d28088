"""A class in a notebook's kernel outlives a kernel restart (issue 25): a real
IPython kernel (jupyter_client) makes a `Classroom` with a data folder, a pupil
joins over a websocket, the kernel restarts, the next `Classroom(...)` says the
class can be resumed and how, and ``resume=True`` brings it back: the same code,
port and teacher token, the pupil's seat token still valid, the game as it was.
Re-running the cell in the same kernel gives back the running class."""

from __future__ import annotations

import json
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from class_process import free_port
from jupyter_client.manager import start_new_kernel
from websockets.sync.client import connect

pytestmark = pytest.mark.timeout(180)
WAIT_S = 30.0


def run(client: Any, code: str) -> str:
    """Run ``code`` in the kernel; what it printed and showed as text (an error fails)."""
    msg_id = client.execute(code)
    out: list[str] = []
    while True:
        try:
            msg = client.get_iopub_msg(timeout=WAIT_S)
        except Empty:
            raise AssertionError(f"the kernel did not finish {code!r}; so far: {out}") from None
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind in ("execute_result", "display_data"):
            out.append(content["data"].get("text/plain", ""))
        elif kind == "error":
            raise AssertionError("\n".join(content["traceback"]))
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out)


def pupil(port: int, first: dict[str, Any]) -> Any:
    """One page's socket, open, that has sent ``first``."""
    ws = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=WAIT_S, legacy=True)
    ws.send(json.dumps(first))
    return ws


def seated(ws: Any) -> dict[str, Any]:
    """Read until the page has its seat token (if sent) and a whole state."""
    got: dict[str, Any] = {}
    while "state" not in got:
        msg = json.loads(ws.recv(timeout=WAIT_S))
        if msg["type"] in ("refused", "bye"):
            raise AssertionError(msg)
        if msg["type"] == "welcome":
            got["token"] = msg["token"]
        if msg["type"] == "update" and msg.get("state"):
            got["state"] = msg["state"]
            got["class"] = msg.get("class")
    return got


def test_a_kernel_restart_then_resume_brings_the_class_back(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    manager, client = start_new_kernel()
    try:
        start = (
            "from mindwidget import Classroom\n"
            f"room = Classroom(data={str(data)!r}, port={port}, size=2, bots='human', seed=5)\n"
            "print(room.code, room.teacher_token)"
        )
        said = run(client, start).split()
        code, token = said[-2], said[-1]
        ana_ws = pupil(port, {"type": "join", "code": code, "name": "Ana"})
        ben_ws = pupil(port, {"type": "join", "code": code, "name": "Ben"})
        ana, ben = seated(ana_ws), seated(ben_ws)  # a full table of two starts
        assert ana["class"]["table"] == ben["class"]["table"] == 1
        assert run(client, "print(room.tables[0].table.game.hands[0])").strip() == str(
            tuple(ana["state"]["view"]["hand"])
        )
        ana_ws.close()
        ben_ws.close()
        # the re-run cell: the running class, no OSError and no second class
        again = run(client, start)
        assert code in again and "already" in again
        assert run(client, "print(len(room.pupils), room.port)").split() == ["2", str(port)]

        manager.restart_kernel(now=True)
        client.wait_for_ready(timeout=WAIT_S)
        hint = run(
            client, f"from mindwidget import Classroom\nfresh = Classroom(data={str(data)!r})"
        )
        assert code in hint and "resume=True" in hint  # a recent class, and how to resume it
        back = run(
            client,
            f"room = Classroom(data={str(data)!r}, resume=True)\n"
            "print(room.code, room.teacher_token, room.port)",
        )
        assert back.split()[-3:] == [code, token, str(port)]
        again = seated(pupil(port, {"type": "rejoin", "token": ana["token"]}))
        assert again["class"]["table"] == 1 and again["class"]["seat"] == 0
        assert again["state"]["view"]["hand"] == ana["state"]["view"]["hand"]
        run(client, "room.stop()")
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
