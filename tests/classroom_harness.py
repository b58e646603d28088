"""The class server in-process for tests and benchmarks: its own event loop in a
thread, and pupils as real `websockets` clients.

`Server` starts a `Classroom` on a free loopback port on a loop in a
background thread (the way a Jupyter kernel's loop runs it) and runs calls on
that loop (`call`), so a test reads and changes the class only where the
server does. `Client` is one pupil's page: a socket, a thread reading it, and
the page's model (the state and changes applied as class.js applies them).
Every wait is on a condition, never a sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from mindwidget.classroom import Classroom

WAIT_S = 20.0


class Server:
    """A `Classroom` serving from a thread (``options``: its keywords)."""

    def __init__(self, **options: Any) -> None:
        self.options = options
        self.room: Classroom | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(WAIT_S):
            raise RuntimeError("the class server did not start")
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        async def main() -> None:
            try:
                self.loop = asyncio.get_running_loop()
                self._stop = asyncio.Event()
                self.room = Classroom(**self.options)
            except BaseException as exc:
                self._error = exc
                self._ready.set()
                return
            self._ready.set()
            await self._stop.wait()
            self.room.stop()

        asyncio.run(main())

    @property
    def port(self) -> int:
        assert self.room is not None
        return self.room.port

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` on the server's loop; its result (or its exception)."""
        assert self.loop is not None

        async def run() -> Any:
            return fn(*args, **kwargs)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(WAIT_S)

    def snapshot(self) -> dict[str, Any]:
        assert self.room is not None
        return dict(self.call(self.room.snapshot))

    def stop(self) -> None:
        if self.loop is not None and self.room is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(WAIT_S)


class Client:
    """One pupil's page: sends what a page sends, keeps what the server sent."""

    def __init__(self, server: Server, lang: str = "en", origin: str | None = None) -> None:
        self.server = server
        headers = {}
        self.ws: ClientConnection = connect(
            f"{server.ws_url}?lang={lang}",
            origin=origin,  # type: ignore[arg-type]
            additional_headers=headers,
            open_timeout=WAIT_S,
            max_size=2**22,
            legacy=True,  # kept open until close(), not a context manager
        )
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.model: dict[str, Any] = {}
        self.info: dict[str, Any] = {}
        self.token: str | None = None
        self.closed = False
        self.answer_pings = True
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                assert isinstance(raw, str)
                msg = json.loads(raw)
                with self._cond:
                    self.raw.append(raw)
                    self.received.append(msg)
                    self._apply(msg)
                    self._cond.notify_all()
                if msg.get("type") == "ping" and self.answer_pings:
                    self.send({"type": "pong", "id": msg["id"]})
        except (ConnectionClosed, OSError):
            pass
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def _apply(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self.token = msg["token"]
        elif kind == "update":
            if "state" in msg:
                self.model = dict(msg["state"] or {})
            self.model.update(msg.get("changes") or {})
            if "class" in msg:
                self.info = msg["class"]

    def send(self, msg: dict[str, Any] | str | bytes) -> None:
        with contextlib.suppress(ConnectionClosed):
            self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def wait(self, test: Callable[[Client], Any], what: Any = "", timeout: float = WAIT_S) -> Any:
        """Wait until ``test(self)`` is true; its value. ``what`` (or what it returns, if
        it is a function) says what was awaited when it does not come."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                value = test(self)
                if value:
                    return value
                left = end - time.monotonic()
                if left <= 0 or (self.closed and not value):
                    last = self.received[-3:]
                    said = what() if callable(what) else what
                    raise AssertionError(f"waited for {said or test}; last messages: {last}")
                self._cond.wait(min(left, 0.5))

    def wait_msg(self, kind: str, after: int = 0, timeout: float = WAIT_S) -> dict[str, Any]:
        def found(c: Client) -> dict[str, Any] | None:
            return next((m for m in c.received[after:] if m.get("type") == kind), None)

        return self.wait(found, f"a {kind!r} message", timeout)  # type: ignore[no-any-return]

    # ------------------------------------------------------------ the page
    def join(self, code: str, name: str, lang: str = "en") -> dict[str, Any]:
        n = len(self.received)
        self.send({"type": "join", "code": code, "name": name, "lang": lang})
        return self.wait(
            lambda c: next(
                (m for m in c.received[n:] if m.get("type") in ("welcome", "refused", "bye")),
                None,
            ),
            "an answer to join",
        )

    @property
    def view(self) -> dict[str, Any]:
        return dict(self.model.get("view") or {})

    @property
    def phase(self) -> str | None:
        return self.view.get("phase")

    def allowed(self, action: str) -> bool:
        return action in (self.view.get("allowed") or ())

    def close(self) -> None:
        self.ws.close()
        self._reader.join(WAIT_S)
