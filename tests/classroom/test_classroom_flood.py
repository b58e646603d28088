"""A few devices that open connections and never finish them do not keep a pupil out.

The adversary: 1,000 TCP connections from four addresses (127.0.0.2 to
127.0.0.5, all loopback), each sending half a request and then nothing. The
server keeps at most `UNFINISHED_PER_ADDRESS` of them per address and
`UNFINISHED_MAX` in all (fewer under a low file limit); when all are taken, a
new connection closes the oldest unfinished one of the address that holds the
most (`network.GuardedHTTPServer`). A pupil from a fifth address must then load
the page and join, long before the flood's handshakes time out, both in this
process and in a ``mindwidget class`` process under a 1,024-file limit.
Figures (a well-behaved pupil's round trip during the flood) are
benchmarks/class_network.py's, not this test's.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from classroom_harness import WAIT_S, Client, Server
from serving import free_port, listening
from websockets.sync.client import connect

from mindwidget.classroom import network

FLOOD = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
PUPIL = "127.0.0.6"
HALF = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # and never the rest


@pytest.fixture(autouse=True)
def enough_files() -> Iterator[None]:
    """This process holds the flood's 1,000 sockets (and, in process, the server's)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    if want < 2600:
        pytest.skip(f"the flood needs about 2,600 open files here; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def flood(port: int, per_address: int = 250) -> dict[str, list[socket.socket]]:
    """``per_address`` half requests from each address of `FLOOD` (1,000 in all)."""
    held: dict[str, list[socket.socket]] = {a: [] for a in FLOOD}
    for address in FLOOD:
        for _ in range(per_address):
            c = socket.create_connection(
                ("127.0.0.1", port), timeout=5, source_address=(address, 0)
            )
            with contextlib.suppress(OSError):  # closed at once: past the address's bound
                c.sendall(HALF)
            held[address].append(c)
    return held


def closed_by_server(s: socket.socket, timeout: float) -> bool:
    s.settimeout(timeout)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def get(port: int, path: str, source: str) -> int:
    """The status of ``GET path`` from ``source`` (0: closed without an answer)."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=WAIT_S, source_address=(source, 0)
    ) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        data = b""
        with contextlib.suppress(OSError):
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
    line = data.split(b"\r\n", 1)[0].decode(errors="replace")
    return int(line.split()[1]) if line.startswith("HTTP/") else 0


def join_from(port: int, code: str, source: str) -> dict[str, object]:
    """A pupil's page at ``source`` opens its socket and joins: the server's answer."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S, source_address=(source, 0))
    with connect(
        f"ws://127.0.0.1:{port}/ws?lang=nl",
        sock=sock,
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        open_timeout=WAIT_S,
    ) as ws:
        ws.send(json.dumps({"type": "join", "code": code, "name": "Noor"}))
        while True:
            msg = json.loads(ws.recv(WAIT_S))
            if msg.get("type") in ("welcome", "refused", "bye"):
                return msg  # type: ignore[no-any-return]


def until(test: object, what: str, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        time.sleep(0.05)  # the poll's interval


def test_four_flooding_devices_leave_room_for_a_pupil_from_a_fifth_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(network, "HANDSHAKE_S", 120.0)  # the flood stays for the whole test
    s = Server()
    held: dict[str, list[socket.socket]] = {}
    try:
        guard = s.room._server  # type: ignore[union-attr]
        per, most = network.UNFINISHED_PER_ADDRESS, guard.in_all
        assert 4 * per >= most  # four devices alone could fill the server
        held = flood(s.port)

        def counts() -> dict[str, int]:
            return dict(s.call(lambda: guard.unfinished))

        until(lambda: sum(counts().values()) == most, f"{most} unfinished connections")
        assert all(n <= per for n in counts().values()), counts()
        # past an address's bound: closed at once
        assert closed_by_server(held[FLOOD[0]][-1], 3.0)
        assert s.call(lambda: guard.evicted) == 0

        # a pupil from a fifth address: the page, then the socket and the join
        assert get(s.port, "/check", PUPIL) == 200
        answer = join_from(s.port, s.room.code, PUPIL)  # type: ignore[union-attr]
        assert answer["type"] == "welcome", answer
        # and one more from this machine, through the test harness
        ana = Client(s)
        assert ana.join(s.room.code, "Ana")["type"] == "welcome"  # type: ignore[union-attr]
        evicted = s.call(lambda: guard.evicted)
        assert evicted >= 1  # the first new connection made room (a closed one frees its own)
        # the room came from the flood: the oldest of an address that held the most
        assert closed_by_server(held[FLOOD[0]][0], 3.0)
        flood_left = sum(n for a, n in counts().items() if a in FLOOD)
        assert flood_left <= most - evicted
        # the flood's newest connections are still open (not timed out: 120 s)
        assert not closed_by_server(held[FLOOD[-1]][per - 1], 0.2)
        ana.close()
    finally:
        for socks in held.values():
            for c in socks:
                c.close()
        s.stop()


def test_the_flood_under_a_1024_file_limit_leaves_room_for_a_pupil(tmp_path: Path) -> None:
    """``mindwidget class`` whose hard limit is 1,024 files: the flood, then a pupil."""
    port = free_port()
    log_path = tmp_path / "class.log"

    def usual_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    cmd = [sys.executable, "-m", "mindwidget", "class", "--no-browser", "--port", str(port)]
    cmd += ["--data", str(tmp_path / "data")]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            preexec_fn=usual_limit,
        )
    held: dict[str, list[socket.socket]] = {}
    try:
        deadline = time.monotonic() + WAIT_S
        while not listening(port):
            assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(0.2)
        journal = re.compile(r"class-(\d+)\.sqlite3")  # the class's journal names its code
        until(lambda: journal.search(log_path.read_text(errors="replace")), "the class's code")
        match = journal.search(log_path.read_text(errors="replace"))
        assert match, log_path.read_text()
        started = time.monotonic()
        held = flood(port)
        # the server holds the flood (224 connections here: its file budget's quarter):
        # the last address's newest are open, the first address's oldest made room
        assert not closed_by_server(held[FLOOD[-1]][-1], 0.2)
        assert closed_by_server(held[FLOOD[0]][0], 3.0)
        assert get(port, "/check", PUPIL) == 200
        assert get(port, "/", PUPIL) == 200
        answer = join_from(port, match.group(1), PUPIL)
        assert answer["type"] == "welcome", answer
        # long before the flood's handshakes time out
        assert time.monotonic() - started < network.HANDSHAKE_S, "the pupil got in too late"
        text = log_path.read_text(errors="replace")
        assert text.count("Traceback") == 0, text[-2000:]
        assert "the oldest of the address that holds the most is closed" in text
    finally:
        for socks in held.values():
            for c in socks:
                c.close()
        proc.terminate()
        proc.wait(20)
