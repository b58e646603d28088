"""The class server as its own process (`mindwidget class`), for the crash and resume
tests: started, killed with SIGKILL, started again with ``--resume``; and pupils that
play by themselves over websockets (asyncio), reconnecting with their seat token as a
page does. Every wait is on a condition with a bounded timeout."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from mindwidget.classroom import journal as J
from mindwidget.game import Game
from mindwidget.i18n import LANGS, say_in

WAIT_S = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: A class server with options the command does not take (``serve(**options)``).
SERVE = """
import asyncio, json, sys
from mindwidget.classroom import serve
try:
    asyncio.run(serve(**json.loads(sys.argv[1])))
except KeyboardInterrupt:
    pass
"""


#: The terminal's labels in every language (the command speaks the class's: issue 24).
_LABELS = {
    key: "|".join(re.escape(say_in("cli", key, lang)) for lang in LANGS)
    for key in ("class_code", "teacher_page")
}


class ClassProcess:
    """``python -m mindwidget.cli class --data DIR --port PORT ...`` in a process (or,
    with ``options``, `serve` with those keywords)."""

    def __init__(
        self, data: Path, port: int, *args: str, options: dict[str, Any] | None = None
    ) -> None:
        self.data, self.port, self.args, self.options = data, port, args, options
        self.proc: subprocess.Popen[bytes] | None = None
        self.code = ""
        self.teacher_url = ""
        self.out = data.parent / f"{data.name}-server.log"

    def start(self, *extra: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with self.out.open("ab") as log:
            log.write(f"--- start {extra}\n".encode())
        self._log = self.out.open("ab")
        self._seen = self.out.stat().st_size
        if self.options is None:
            cmd = [sys.executable, "-m", "mindwidget.cli", "class", "--no-browser"]
            cmd += ["--data", str(self.data), "--port", str(self.port), *self.args, *extra]
        else:
            options = self.options | {"data": str(self.data), "port": self.port}
            if "--resume" in extra:
                options["resume"] = True
            cmd = [sys.executable, "-c", SERVE, json.dumps(options)]
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + WAIT_S
        while time.monotonic() < end:
            text = self.out.read_bytes()[self._seen :].decode("utf-8", "replace")
            code = re.search(rf"(?:{_LABELS['class_code']})\s+(\d+)", text)
            teacher = re.search(rf"(?:{_LABELS['teacher_page']})\s+(\S+)", text)
            if code and teacher and _listening(self.port):
                self.code, self.teacher_url = code.group(1), teacher.group(1)
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"the class server ended: {text[-2000:]}")
            time.sleep(0.02)
        raise AssertionError(f"the class server did not start: {self.out.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no cleanup, no last commit."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(WAIT_S)
        self._log.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(WAIT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(WAIT_S)
            self._log.close()

    def output(self) -> str:
        return self.out.read_text("utf-8", "replace")


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Pupil:
    """One pupil's page: joins once, then plays by itself (lowest card after a short,
    random pause; Ready, Next level, New game and votes when offered); after the server
    goes, reconnects with its seat token until it is back."""

    def __init__(
        self,
        name: str,
        port: int,
        rng: random.Random,
        backoff: tuple[float, float] | None = None,
    ) -> None:
        self.name, self.port, self.rng = name, port, rng
        self.backoff = backoff  # (first, most) seconds between retries as class.js waits
        self.token: str | None = None
        self.model: dict[str, Any] = {}
        self.info: dict[str, Any] = {}
        self.seen: list[tuple[Any, ...]] = []  # every (table, level, pile, lives) shown
        self.sent_level_change = False  # next_level/new_game sent since the last state
        self.level_changes = 0  # next_level/new_game sent in all
        self.fresh = asyncio.Event()  # a whole state came since the last reconnect
        self.ws: ClientConnection | None = None
        self.errors: list[str] = []
        self.first_phase: str | None = None  # the phase of the last whole state
        self._task: asyncio.Task[None] | None = None

    @property
    def view(self) -> dict[str, Any]:
        return dict(self.model.get("view") or {})

    def state(self) -> tuple[Any, ...]:
        v = self.view
        return (self.info.get("table"), v.get("level"), tuple(v.get("pile") or ()), v.get("lives"))

    def run(self, code: str) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(code))

    async def _run(self, code: str) -> None:
        wait = 0.0
        while True:
            try:
                async with websockets.connect(
                    f"ws://127.0.0.1:{self.port}/ws", open_timeout=WAIT_S, max_size=2**22
                ) as ws:
                    self.ws = ws
                    if self.token is None:
                        await ws.send(json.dumps({"type": "join", "code": code, "name": self.name}))
                    else:
                        await ws.send(json.dumps({"type": "rejoin", "token": self.token}))
                    async for raw in ws:
                        wait = 0.0  # the server answered
                        await self._on(ws, json.loads(raw))
            except (OSError, websockets.ConnectionClosed, asyncio.TimeoutError):
                pass
            self.ws = None
            if self.backoff is None:
                await asyncio.sleep(0.05)  # a quick retry (the tests need not wait as pages do)
            else:
                first, most = self.backoff
                wait = min(most, wait * 2 if wait else first)
                await asyncio.sleep(wait)

    async def _on(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self.token = msg["token"]
        elif kind == "ping":
            await ws.send(json.dumps({"type": "pong", "id": msg["id"]}))
        elif kind == "refused" or kind == "bye":
            self.errors.append(str(msg))
        elif kind == "update":
            if "state" in msg:
                self.model = dict(msg["state"] or {})
                if msg["state"] is not None:
                    self.first_phase = self.view.get("phase")
                    self.fresh.set()
                    self.sent_level_change = False
            self.model.update(msg.get("changes") or {})
            if "class" in msg:
                self.info = msg["class"]
            if self.view:
                self.seen.append(self.state())
            await self._act(ws)

    async def _act(self, ws: ClientConnection) -> None:
        v = self.view
        allowed = set(v.get("allowed") or ())
        phase = v.get("phase")
        send = None
        if phase == "play" and "play" in allowed and v.get("hand"):
            hand = tuple(v["hand"])
            await asyncio.sleep(self.rng.uniform(0.0, 0.15))
            if self.view.get("phase") == "play" and tuple(self.view.get("hand") or ()) == hand:
                send = {"type": "play"}
        elif "vote" in allowed:
            send = {"type": "vote", "agree": True}
        elif "ready" in allowed:
            send = {"type": "ready"}
        elif "next_level" in allowed:
            send = {"type": "next_level"}
            self.sent_level_change = True
            self.level_changes += 1
        elif "new_game" in allowed:
            send = {"type": "new_game"}
            self.sent_level_change = True
            self.level_changes += 1
        if send is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps(send))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


async def teacher(url: str, message: dict[str, Any]) -> None:
    """One control from the teacher's page (its socket, with its token)."""
    ws_url = url.replace("http://", "ws://").replace("/teacher?", "/teacher/ws?")
    async with websockets.connect(ws_url, open_timeout=WAIT_S, max_size=2**22) as ws:
        await ws.recv()  # the first state
        await ws.send(json.dumps(message))
        await asyncio.wait_for(ws.recv(), WAIT_S)


def history(path: Path) -> dict[int, set[tuple[Any, ...]]]:
    """Every state (level, pile, lives) each table's games passed through, replayed
    from the journal at ``path``."""
    _, entries = J.read(path)
    games: dict[int, Game] = {}
    states: dict[int, set[tuple[Any, ...]]] = {}
    from mindwidget.rules import Rules

    for e in entries:
        if e["kind"] == "game":
            g = games[e["table"]] = Game(seed=e["seed"], rules=Rules.from_dict(e["rules"]))
        elif e["kind"] == "act":
            g = games[e["table"]]
            g.apply(e["a"])
        else:
            continue
        states.setdefault(e["table"], set()).add((g.level, tuple(g.pile), g.lives))
    return states
