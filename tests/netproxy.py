"""A loopback TCP proxy of the tests' own, to drop connections as a school's Wi-Fi does.

`Proxy` listens on a free port of 127.0.0.1 and forwards every connection to
``target`` (a port of 127.0.0.1), on an asyncio loop in a thread of its own, so
a plain (sync) test, a websockets client or a Chromium page can go through it:
open ``http://127.0.0.1:{proxy.port}/`` instead of the server's own port.

Three states, changed from any thread (each call returns once the loop did it):

* `heal` -- (the start) bytes go both ways;
* `blackhole` -- a silent drop (a phone walked out of range): nothing is
  forwarded, nothing is closed; neither end hears anything. What is sent
  meanwhile is held, and delivered on `heal` (TCP retransmits what was not
  acknowledged: a press made during the drop arrives late, the case to test),
  unless ``discard=True``, then it is lost. A new connection waits too;
* `reset` -- a hard drop: every connection is closed with a TCP reset (RST, so
  the page hears it at once), and while ``down`` every new connection is reset
  as soon as it comes, until `heal`.

It counts what it forwarded (`sent`) so a test can wait on a condition. Helpers
"network" and "journal" use it too; it imports nothing of mindwidget.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Proxy"]

_START_S = 10.0
_CHUNK = 65536


@dataclass(eq=False)
class _Pipe:
    """One proxied connection: the client's side and the server's."""

    client: asyncio.StreamWriter
    server: asyncio.StreamWriter | None = None
    held: dict[str, list[bytes]] = field(default_factory=lambda: {"up": [], "down": []})
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class Proxy:
    """A TCP proxy from a free loopback port to ``127.0.0.1:target`` (see the module)."""

    def __init__(self, target: int, host: str = "127.0.0.1") -> None:
        self.target = target
        self.host = host
        self.port = 0
        self.state = "open"  # "open" | "blackhole" | "down"
        self.discard = False
        self.sent = {"up": 0, "down": 0}  # bytes forwarded to the server / to the client
        self.resets = 0  # connections reset
        self._pipes: set[_Pipe] = set()
        self._healed: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="netproxy", daemon=True)
        self._thread.start()
        if not self._ready.wait(_START_S):
            raise RuntimeError("the loopback proxy did not start")
        if self._error is not None:
            raise self._error

    # ------------------------------------------------------------ from a test
    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def blackhole(self, discard: bool = False) -> None:
        """Stop forwarding, silently (held until `heal`, or lost with ``discard``)."""
        self._call(self._set, "blackhole", discard)

    def reset(self) -> None:
        """Reset every connection now, and each new one until `heal`."""
        self._call(self._set, "down", False)

    def heal(self) -> None:
        """Forward again (what was held goes on first)."""
        self._call(self._set, "open", False)

    @property
    def connections(self) -> int:
        return len(self._pipes)

    def close(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            self._call(self._shutdown)
        self._thread.join(_START_S)

    def __enter__(self) -> Proxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        assert self._loop is not None

        async def run() -> Any:
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(_START_S)

    # ------------------------------------------------------------ on the loop
    def _run(self) -> None:
        async def main() -> None:
            try:
                self._loop = asyncio.get_running_loop()
                self._healed = asyncio.Event()
                self._healed.set()
                self._stopped = asyncio.Event()
                self._server = await asyncio.start_server(self._accept, self.host, 0)
                self.port = self._server.sockets[0].getsockname()[1]
            except BaseException as exc:
                self._error = exc
                self._ready.set()
                return
            self._ready.set()
            await self._stopped.wait()

        asyncio.run(main())

    def _set(self, state: str, discard: bool) -> None:
        assert self._healed is not None
        self.state, self.discard = state, discard
        if state == "open":
            self._healed.set()
            for pipe in list(self._pipes):
                self._flush(pipe)
            return
        self._healed.clear()
        if state == "down":
            for pipe in list(self._pipes):
                self._kill(pipe)

    def _shutdown(self) -> None:
        for pipe in list(self._pipes):
            self._kill(pipe)
        if self._server is not None:
            self._server.close()
        self._stopped.set()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pipe = _Pipe(writer)
        if self.state == "down":
            self._kill(pipe)
            return
        self._pipes.add(pipe)
        assert self._healed is not None
        await self._healed.wait()  # a black hole answers no new connection either
        if pipe not in self._pipes:
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target)
        except OSError:
            self._kill(pipe)
            return
        pipe.server = up_writer
        pipe.tasks = [
            asyncio.ensure_future(self._pump(pipe, reader, "up")),
            asyncio.ensure_future(self._pump(pipe, up_reader, "down")),
        ]

    async def _pump(self, pipe: _Pipe, reader: asyncio.StreamReader, way: str) -> None:
        """Read one way and forward (or hold) what comes; an end that closes closes both."""
        try:
            while True:
                data = await reader.read(_CHUNK)
                if not data:
                    break
                if self.state == "open":
                    self._write(pipe, way, data)
                elif self.state == "blackhole" and not self.discard:
                    pipe.held[way].append(data)
        except (ConnectionError, OSError):
            pass
        finally:
            if pipe in self._pipes and self.state == "open":
                self._close(pipe)

    def _write(self, pipe: _Pipe, way: str, data: bytes) -> None:
        to = pipe.server if way == "up" else pipe.client
        if to is None or to.is_closing():
            return
        to.write(data)
        self.sent[way] += len(data)

    def _flush(self, pipe: _Pipe) -> None:
        for way in ("up", "down"):
            for data in pipe.held[way]:
                self._write(pipe, way, data)
            pipe.held[way].clear()
        if all(t.done() for t in pipe.tasks) and pipe.tasks:
            self._close(pipe)  # an end closed during the black hole

    def _close(self, pipe: _Pipe) -> None:
        self._pipes.discard(pipe)
        for w in (pipe.client, pipe.server):
            if w is not None:
                with contextlib.suppress(Exception):
                    w.close()
        for t in pipe.tasks:
            t.cancel()

    def _kill(self, pipe: _Pipe) -> None:
        """Close both ends with a reset (SO_LINGER 0): the hard drop."""
        self._pipes.discard(pipe)
        for w in (pipe.client, pipe.server):
            if w is None:
                continue
            sock = w.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(Exception):
                w.transport.abort()
        self.resets += 1
        for t in pipe.tasks:
            t.cancel()
