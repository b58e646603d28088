"""The class server on a network that is not friendly, and behind a school's proxy.

Issue 25, parts 3 and 4: each finding of the adversarial suite is a test here
(websockets clients and raw sockets on 127.0.0.1 against a `Classroom` on a
free port, as in tests/classroom/test_classroom.py), and a real nginx (Debian's package,
`tests/nginx_proxy.py`) stands in front of the server where a school's would.
Pupils "at other addresses" are pages whose X-Forwarded-For a trusted proxy
sets; an untrusted peer's X-Forwarded-For is ignored. Waits are on conditions
with a bounded timeout, never a sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from classroom_harness import WAIT_S, Client, Server
from nginx_proxy import NGINX, nginx_proxy
from serving import alone, free_port, listening, server_process

from mindwidget.classroom import network as network_module
from mindwidget.classroom import room as room_module

CLASS = 60


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 10_000:04d}"


def at(address: str) -> dict[str, str]:
    """The headers of a page at ``address`` that came through the (trusted) proxy."""
    return {"X-Forwarded-For": address, "X-Real-IP": address}


def many(n: int, make: object) -> list[Client]:
    with ThreadPoolExecutor(16) as pool:
        return list(pool.map(lambda i: make(i), range(n)))  # type: ignore[operator]


def until(test: object, what: str, timeout: float = WAIT_S) -> None:
    """Poll ``test()`` (a look at the server, 10 times a second) until it is true."""
    deadline = time.monotonic() + timeout
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        time.sleep(0.1)  # the poll's interval, not a wait for readiness


def raw_http(port: int, head: str, timeout: float = 10.0) -> tuple[int, str]:
    """Send ``head`` (the request's lines) and read the status line: (status, first line)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n\r\n")
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    line = data.split(b"\r\n", 1)[0].decode(errors="replace")
    return (int(line.split()[1]) if line.startswith("HTTP/") else 0), line


def check_status(port: int) -> int:
    """The status of /check (0: the connection was refused or reset)."""
    try:
        return raw_http(port, f"GET /check HTTP/1.1\nHost: 127.0.0.1:{port}", 5)[0]
    except OSError:
        return 0


def upgrade(port: int, host: str, origin: str) -> int:
    """The status of a WebSocket handshake on /ws with these Host and Origin headers."""
    status, _ = raw_http(
        port,
        f"GET /ws HTTP/1.1\nHost: {host}\nOrigin: {origin}\nUpgrade: websocket\n"
        "Connection: Upgrade\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\n"
        "Sec-WebSocket-Version: 13",
    )
    return status


def closed_by_server(s: socket.socket, timeout: float) -> bool:
    """The server closed ``s`` within ``timeout`` s (it reads end of file)."""
    s.settimeout(timeout)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def server_frames(s: socket.socket, timeout: float) -> list[int]:
    """The opcodes of the WebSocket frames the server sends on ``s`` (unmasked, short),
    up to its close frame (0x8), or until ``timeout`` s pass."""
    s.settimeout(timeout)
    opcodes: list[int] = []
    with contextlib.suppress(TimeoutError, OSError):
        while not opcodes or opcodes[-1] != 0x8:
            first, length = s.recv(1), s.recv(1)
            if not first or not length:
                break
            opcodes.append(first[0] & 0x0F)
            size = length[0] & 0x7F
            while size:
                size -= len(s.recv(size))
    return opcodes


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=3, seed=7, grace=0.6)
    yield s
    s.stop()


@pytest.fixture
def behind_proxy() -> Iterator[Server]:
    """A class whose proxy is this machine (127.0.0.1): pages say where they are."""
    s = Server(size=3, seed=7, grace=0.6, trust_proxy="127.0.0.1")
    yield s
    s.stop()


# ------------------------------------------------------ a class behind one address
@pytest.mark.parametrize("pupils", [30, CLASS])
def test_a_class_behind_one_address_is_neither_refused_nor_slowed(pupils: int) -> None:
    s = Server(size=3, seed=3)
    try:
        code = s.room.code  # type: ignore[union-attr]
        guesser = Client(s)
        for _ in range(6):  # a guesser at the school's address, before the class
            guesser.join(wrong(code), "Guess")
        assert guesser.join(code, "Guess")["key"] == "slow_down"  # the guesser waits

        def pupil(i: int) -> Client:
            c = Client(s, lang="nl")
            answer = c.join(code, f"Leerling {i + 1}", lang="nl")
            assert answer["type"] == "welcome", answer
            return c

        pages = many(pupils, pupil)
        snap = s.snapshot()
        seated = sum(1 for t in snap["tables"] for seat in t["seats"] if seat.get("name"))
        assert seated == pupils and len(snap["tables"]) == pupils // 3
        for c in pages:
            c.close()
    finally:
        s.stop()


def test_the_back_off_slows_a_guesser_who_opens_a_new_socket_for_each_try() -> None:
    s = Server(size=3, seed=3)
    try:
        code = s.room.code  # type: ignore[union-attr]
        keys = []
        for _ in range(room_module.ADDRESS_FREE_TRIES + 2):
            c = Client(s)
            keys.append(c.join(wrong(code), "Guess")["key"])
            c.close()
        assert keys[: room_module.ADDRESS_FREE_TRIES] == ["bad_code"] * (
            room_module.ADDRESS_FREE_TRIES
        )
        assert keys[-1] == "slow_down"
    finally:
        s.stop()


def test_one_address_may_make_only_so_many_joins_at_once(behind_proxy: Server) -> None:
    code = behind_proxy.room.code  # type: ignore[union-attr]
    keys = []
    for i in range(room_module.JOINS_PER_ADDRESS + 3):
        c = Client(behind_proxy, lang="nl", headers=at("203.0.113.66"))
        answer = c.join(code, f"Nep {i}", lang="nl")
        keys.append(answer.get("key", answer["type"]))
        c.close()
    assert keys[: room_module.JOINS_PER_ADDRESS] == ["welcome"] * room_module.JOINS_PER_ADDRESS
    assert keys[-1] == "too_many_joins"
    # another address is not held up by it
    assert Client(behind_proxy, headers=at("198.51.100.7")).join(code, "Ana")["type"] == "welcome"


def test_made_up_pupils_who_left_without_playing_hold_no_place_in_the_class(
    monkeypatch: pytest.MonkeyPatch, behind_proxy: Server
) -> None:
    monkeypatch.setattr(room_module, "MAX_PUPILS", 12)
    monkeypatch.setattr(room_module, "UNPLAYED_HOLD_S", 0.5)
    code = behind_proxy.room.code  # type: ignore[union-attr]
    for i in range(12):  # one device joins and drops its socket, again and again
        c = Client(behind_proxy, headers=at("203.0.113.66"))
        assert c.join(code, f"Fake {i}")["type"] == "welcome"
        c.close()
    real = Client(behind_proxy, lang="de", headers=at("198.51.100.7"))
    assert real.join(code, "Ana", lang="de")["key"] == "class_full"
    room = behind_proxy.room
    assert room is not None
    until(lambda: behind_proxy.call(lambda: len(room.pupils)) == 0, "the made-up pupils to go")
    assert real.join(code, "Ana", lang="de")["type"] == "welcome"
    tables = behind_proxy.snapshot()["tables"]
    names = [seat.get("name") or "" for t in tables for seat in t["seats"]]
    assert "Ana" in names and not [n for n in names if n.startswith("Fake")], names


# ------------------------------------------------------------- a school's proxy
def test_the_client_address_comes_from_x_forwarded_for_only_from_the_trusted_proxy() -> None:
    trusting = Server(per_address=2, trust_proxy="127.0.0.1")
    plain = Server(per_address=2)
    try:
        # behind the trusted proxy: two pages at each of three addresses
        held = [Client(trusting, headers=at(f"10.0.0.{i // 2 + 1}")) for i in range(6)]
        third = Client(trusting, headers=at("10.0.0.1"))
        assert third.wait_msg("bye")["key"] == "too_many"
        snap_addresses = trusting.call(
            lambda: sorted({s.address for s in trusting.room.sockets.all})  # type: ignore[union-attr]
        )
        assert snap_addresses == ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
        # an untrusted peer's header is ignored: every page is at 127.0.0.1
        a, b = (Client(plain, headers=at(f"10.0.0.{i}")) for i in (1, 2))
        c = Client(plain, headers=at("10.0.0.3"))
        assert c.wait_msg("bye")["key"] == "too_many"
        for x in (*held, a, b):
            x.close()
    finally:
        trusting.stop()
        plain.stop()


def test_the_wrong_code_back_off_is_per_forwarded_address(behind_proxy: Server) -> None:
    code = behind_proxy.room.code  # type: ignore[union-attr]
    guesser = Client(behind_proxy, headers=at("10.1.1.1"))
    for _ in range(4):
        guesser.join(wrong(code), "Guess")
    assert guesser.join(code, "Guess")["key"] == "slow_down"
    other = Client(behind_proxy, headers=at("10.2.2.2"))
    assert other.join(code, "Ana")["type"] == "welcome"


def test_a_public_url_is_the_address_pages_show_and_the_origin_that_is_allowed() -> None:
    s = Server(public_url="https://klas.school.example", trust_proxy="127.0.0.1")
    try:
        room = s.room
        assert room is not None
        assert room.address == "https://klas.school.example"
        assert room.url == f"https://klas.school.example/?code={room.code}"
        assert room.teacher_url.startswith("https://klas.school.example/teacher?token=")
        assert "klas.school.example" in s.snapshot()["url"]
        assert upgrade(s.port, "klas.school.example", "https://klas.school.example") == 101
        assert upgrade(s.port, "evil.example", "https://klas.school.example") == 403
        assert upgrade(s.port, "klas.school.example", "https://evil.example") == 403
    finally:
        s.stop()


def test_behind_a_proxy_on_another_port_the_teacher_s_socket_takes_the_public_origin() -> None:
    # nginx's "proxy_set_header Host $host" drops the port; the browser's Origin has it
    s = Server(public_url="https://klas.school.example:8443", trust_proxy="127.0.0.1")
    try:
        room = s.room
        assert room is not None
        public = "https://klas.school.example:8443"
        assert upgrade(s.port, "klas.school.example", public) == 101
        token = room.teacher_token
        status, _ = raw_http(
            s.port,
            f"GET /teacher/ws?token={token} HTTP/1.1\nHost: klas.school.example\n"
            f"Origin: {public}\nUpgrade: websocket\nConnection: Upgrade\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Version: 13",
        )
        assert status == 101
    finally:
        s.stop()


def test_dns_rebinding_a_foreign_host_is_refused_on_the_page_and_the_socket() -> None:
    s = Server()
    try:
        assert upgrade(s.port, "evil.example", "http://evil.example") == 403
        assert raw_http(s.port, "GET / HTTP/1.1\nHost: evil.example")[0] == 403
        assert raw_http(s.port, f"GET /check HTTP/1.1\nHost: evil.example:{s.port}")[0] == 403
        # the listening address itself is a host the class has
        here = f"127.0.0.1:{s.port}"
        assert upgrade(s.port, here, f"http://{here}") == 101
        assert raw_http(s.port, f"GET / HTTP/1.1\nHost: {here}")[0] == 200
    finally:
        s.stop()


def test_on_every_interface_the_lan_address_is_a_host_the_class_answers() -> None:
    s = Server(host="0.0.0.0", port=0)
    try:
        room = s.room
        assert room is not None
        lan = f"{room.host}:{s.port}"
        assert room.address == f"http://{lan}"
        assert raw_http(s.port, f"GET / HTTP/1.1\nHost: {lan}")[0] == 200
        assert upgrade(s.port, lan, f"http://{lan}") == 101
        assert raw_http(s.port, f"GET / HTTP/1.1\nHost: evil.example:{s.port}")[0] == 403
        # a second network card's address is this machine's too; a name is not
        assert raw_http(s.port, f"GET / HTTP/1.1\nHost: 10.9.8.7:{s.port}")[0] == 200
        assert raw_http(s.port, f"GET / HTTP/1.1\nHost: [::1]:{s.port}")[0] == 200
        assert raw_http(s.port, f"GET / HTTP/1.1\nHost: laptop.example:{s.port}")[0] == 403
    finally:
        s.stop()


def test_pupils_join_and_play_through_nginx_which_names_their_address(tmp_path: Path) -> None:
    if not os.path.exists(NGINX):
        pytest.skip("nginx is not installed (.ci/run installs Debian's nginx)")
    port = free_port()  # nginx's: the address the pupils use
    s = Server(size=2, seed=5, trust_proxy="127.0.0.1", public_url=f"http://127.0.0.1:{port}")
    try:
        with nginx_proxy(s.port, tmp_path / "nginx", port=port):
            url, origin = f"ws://127.0.0.1:{port}/ws", f"http://127.0.0.1:{port}"
            a = Client(s, url=url, origin=origin)
            b = Client(s, url=url, origin=origin)
            code = s.room.code  # type: ignore[union-attr]
            assert a.join(code, "Anna")["type"] == "welcome"
            assert b.join(code, "Bo")["type"] == "welcome"
            for c in (a, b):
                c.wait(lambda x: x.view.get("phase") == "ready", "the table dealt")
                c.send({"type": "ready"})
            for c in (a, b):
                c.wait(lambda x: x.view.get("phase") == "play", "playing")
            low = min((a, b), key=lambda c: c.view["hand"][0])
            before = low.view["n"]
            low.send({"type": "play"})
            for c in (a, b):
                c.wait(lambda x: x.view.get("n", 0) > before, "the play, through nginx")
            # nginx told the server who the page is: this machine, by X-Forwarded-For
            assert s.call(lambda: [p.address for p in s.room.pupils.values()]) == [  # type: ignore[union-attr]
                "127.0.0.1",
                "127.0.0.1",
            ]
            a.close()
            b.close()
    finally:
        s.stop()


# -------------------------------------------------- unfinished connections
def test_unfinished_connections_are_bounded_per_address_and_time_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(network_module, "HANDSHAKE_S", 1.0)
    s = Server()
    held: list[socket.socket] = []
    try:
        for _ in range(network_module.UNFINISHED_PER_ADDRESS + 20):
            c = socket.create_connection(("127.0.0.1", s.port), timeout=5)
            c.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
            held.append(c)
        # the ones past the bound are closed at once; the rest when the handshake times out
        assert closed_by_server(held[-1], 3.0)
        assert all(closed_by_server(c, 5.0) for c in held[:5])
        ok = Client(s)
        assert ok.join(s.room.code, "Anna")["type"] == "welcome"  # type: ignore[union-attr]
    finally:
        for c in held:
            c.close()
        s.stop()


def test_the_soft_file_limit_is_raised_to_the_hard_one_at_start() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    lower = min(soft, 512)
    resource.setrlimit(resource.RLIMIT_NOFILE, (lower, hard))
    try:
        s = Server()
        s.stop()
        now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert now == (hard if hard != resource.RLIM_INFINITY else now) and now > lower
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_100_unfinished_connections_under_64_files_leave_no_traceback_and_the_class_answers(
    tmp_path: Path,
) -> None:
    """A server whose hard limit is 64 files: 100 connections that never finish."""
    port = free_port()
    log_path = tmp_path / "class.log"

    def small_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

    cmd = [sys.executable, "-m", "mindwidget", "class", "--no-browser", "--port", str(port)]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            preexec_fn=small_limit,
        )
    held: list[socket.socket] = []
    try:
        deadline = time.monotonic() + WAIT_S
        while not listening(port):
            assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(0.2)
        for _ in range(100):
            with contextlib.suppress(OSError):
                c = socket.create_connection(("127.0.0.1", port), timeout=2)
                c.sendall(b"GET / HTTP/1.1\r\n")
                held.append(c)
        for c in held:
            c.close()
        held.clear()
        deadline = time.monotonic() + WAIT_S
        until(lambda: check_status(port) == 200, "the class to answer again")
        text = log_path.read_text(errors="replace")
        assert text.count("Traceback") == 0, text[-2000:]
        assert text.lower().count("too many open files") <= 1, text[-2000:]
    finally:
        for c in held:
            c.close()
        proc.terminate()
        proc.wait(20)


class OutOfFiles:
    """A listening socket whose ``accept`` fails as the system's does when no file is left
    (a stand-in for the operating system, not for our code)."""

    def __init__(self) -> None:
        self.real = socket.socket()
        self.real.bind(("127.0.0.1", 0))
        self.real.listen()
        self.accepts = 0

    def fileno(self) -> int:
        return self.real.fileno()

    def accept(self) -> tuple[socket.socket, object]:
        self.accepts += 1
        raise OSError(errno.EMFILE, "Too many open files")

    def close(self) -> None:
        self.real.close()


def test_out_of_files_pauses_accepting_and_is_said_once(caplog: pytest.LogCaptureFixture) -> None:
    import tornado.web

    from mindwidget.classroom import network

    listener = OutOfFiles()

    async def run() -> None:
        server = network.GuardedHTTPServer(tornado.web.Application([]))
        server.add_sockets([listener])  # type: ignore[list-item]
        waiting = socket.create_connection(listener.real.getsockname())  # always readable
        await asyncio.sleep(4 * network.ACCEPT_PAUSE_S + 0.2)  # the span observed
        server.stop()
        waiting.close()

    with caplog.at_level(logging.WARNING, logger="mindwidget.classroom"):
        alone(asyncio.run, run())
    said = [r for r in caplog.records if "too many open files" in r.getMessage().lower()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    # one try per pause, not a spinning loop (about 5 in 2.2 s, not thousands)
    assert 2 <= listener.accepts <= 8, listener.accepts


# ------------------------------------------------------------------ messages
@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "join", "code": "\\ud800", "name": "Anna"}',
        '{"type": "join", "code": "1234", "name": "An\\udfffna"}',
        '{"type": "join", "code": "1234", "name": "Anna", "lang": "\\ud800"}',
        '{"type": "rejoin", "token": "\\udc00abc"}',
        '{"type": "nickname", "lang": "\\ud83d"}',
        '{"type": "join", "\\ud800": "x"}',
    ],
)
def test_an_unpaired_surrogate_is_refused_cleanly(
    raw: str, caplog: pytest.LogCaptureFixture, server: Server
) -> None:
    c = Client(server, lang="nl")
    with caplog.at_level(logging.ERROR, logger="mindwidget.classroom"):
        c.send(raw)
        answer = c.wait_msg("refused")
    assert answer["key"] == "bad_message" and answer["text"].startswith("De pagina stuurde")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert server.snapshot()["tables"] == []


def test_a_ghost_seat_rejoin_with_another_pupils_token_from_a_joined_socket_is_refused(
    server: Server,
) -> None:
    code = server.room.code  # type: ignore[union-attr]
    ana, ben = Client(server), Client(server)
    assert ana.join(code, "Ana")["type"] == "welcome"
    assert ben.join(code, "Ben")["type"] == "welcome"
    n = len(ben.received)
    ben.send({"type": "rejoin", "token": ana.token})
    answer = ben.wait_msg("notice", n)
    assert answer["key"] == "bad_message"
    room = server.room
    assert room is not None
    links = server.call(lambda: {p.name: p.link is not None for p in room.pupils.values()})
    assert links == {"Ana": True, "Ben": True}
    ben.wait(lambda x: x.info.get("name") == "Ben", "Ben's page still Ben's")
    # Ana's page is still Ana's; when Ben leaves, Ben is offline
    assert not any(m.get("type") == "bye" for m in ana.received)
    ben.close()
    until(lambda: server.call(lambda: room.pupils["p2"].link) is None, "Ben offline")


# ----------------------------------------------------------------- liveness
def test_a_socket_that_stops_answering_pings_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(network_module, "WEBSOCKET_PING_INTERVAL_S", 0.3)
    monkeypatch.setattr(network_module, "WEBSOCKET_PING_TIMEOUT_S", 0.3)
    s = Server()
    try:
        # a page that did its handshake and then reads nothing, answers nothing
        with socket.create_connection(("127.0.0.1", s.port), timeout=5) as c:
            c.sendall(
                (
                    f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\nUpgrade: websocket\r\n"
                    "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n"
                ).encode()
            )
            head = b""
            while b"\r\n\r\n" not in head:
                head += c.recv(1)
            assert head.startswith(b"HTTP/1.1 101")
            # no pong: Tornado closes it (a close frame; pings before it)
            frames = server_frames(c, 5.0)
            assert frames[-1:] == [0x8] and 0x9 in frames, frames
    finally:
        s.stop()


# --------------------------------------------------------------- start-up
def test_the_server_writes_no_file_at_start(tmp_path: Path) -> None:
    """Started with an empty HOME, serving a page, the server writes nothing there but
    its journal (issue 25: "with the journal it writes exactly the journal")."""
    probe = "import sys, mindwidget.classroom.server; print('matplotlib' in sys.modules)"
    loads = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert loads.stdout.strip() == "False", loads  # matplotlib would write its font cache
    home = tmp_path / "home"
    home.mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MPL"))}
    env.update(HOME=str(home), PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-m", "mindwidget", "class", "--no-browser", "--port", str(port)]
    with server_process(
        cmd,
        tmp_path / "class.log",
        up=lambda: listening(port),
        what="class",
        timeout=WAIT_S,
        env=env,
    ):
        assert raw_http(port, f"GET / HTTP/1.1\nHost: 127.0.0.1:{port}")[0] == 200
    # the journal (its data folder, docs/privacy.md's) is the only thing it may write
    journal = Path(".local", "share", "mindwidget")
    written = sorted(p.relative_to(home) for p in home.rglob("*") if p.is_file())
    assert [p for p in written if journal not in p.parents] == [], written


def test_python_m_mindwidget_is_the_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mindwidget", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0 and out.stdout.startswith("mindwidget "), out


# --------------------------------------------------------------------- names
@pytest.mark.parametrize("look_alike", ["Ａｎｎａ", "\u0410nna", "\u0430nn\u0430", "ΑΝΝΑ", "anna"])
def test_a_look_alike_of_a_name_in_the_class_is_taken(look_alike: str, server: Server) -> None:
    code = server.room.code  # type: ignore[union-attr]
    assert Client(server).join(code, "Anna")["type"] == "welcome"
    answer = Client(server, lang="nl").join(code, look_alike, lang="nl")
    assert answer["key"] == "name_taken", answer
    assert Client(server).join(code, "Anne")["type"] == "welcome"


# ----------------------------------------------------------------- the command
def test_the_class_command_serves_behind_a_proxy_at_its_public_address(tmp_path: Path) -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "mindwidget", "class", "--no-browser", "--port", str(port)]
    cmd += ["--host", "127.0.0.1", "--public-url", "https://mind.school.example/"]
    cmd += ["--trust-proxy", "127.0.0.1"]
    log_path = tmp_path / "class.log"
    with server_process(cmd, log_path, up=lambda: listening(port), what="class", timeout=WAIT_S):
        until(lambda: "Teacher's page:" in log_path.read_text(), "the addresses printed")
        text = log_path.read_text()
        assert re.search(r"^Pupils go to: +https://mind\.school\.example$", text, re.M), text
        assert re.search(
            r"^Teacher's page: +https://mind\.school\.example/teacher\?token=", text, re.M
        )
        assert "127.0.0.1" not in text  # nor "only this computer reaches it": the proxy does
        # the proxy passes Host: mind.school.example; a foreign host is refused
        assert raw_http(port, "GET / HTTP/1.1\nHost: mind.school.example")[0] == 200
        assert raw_http(port, "GET / HTTP/1.1\nHost: evil.example")[0] == 403


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--public-url", "mind.school.example"], "public_url must be an http:// or https://"),
        (["--public-url", "https://school.example/mind"], "at the root of its own host"),
        (["--trust-proxy", "the proxy"], "trust_proxy must be the proxy's IP address"),
        (["--host", "everywhere"], "host must be the IPv4 address of an interface"),
    ],
)
def test_the_class_command_says_what_is_wrong_with_a_network_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from mindwidget.cli import main

    assert alone(main, ["class", "--no-browser", *argv]) == 1
    assert message in capsys.readouterr().err


def test_a_resumed_class_keeps_the_places_of_pupils_who_never_played(tmp_path: Path) -> None:
    """After a crash every page is away at once; none loses its place for not having
    played (the made-up pupils' rule is for a running class)."""
    from test_room import FakeLink

    from mindwidget.classroom.inbox import parse
    from mindwidget.classroom.keep import Keeper
    from mindwidget.classroom.room import ManualTimers, Room

    timers = ManualTimers(start=10.0)
    room = Room(timers, seed=3)
    keeper = Keeper(tmp_path, False)
    keeper.attach(room, 8765, False)
    link = FakeLink([], "10.0.0.1")
    room.receive(link, parse(json.dumps({"type": "join", "code": room.code, "name": "Ana"})))
    room.before_send()  # written; then the process dies without a word
    again = Keeper(tmp_path, True)
    later = ManualTimers(start=5.0)
    back = Room(later, **again.options({}))
    again.attach(back, 0, False)
    later.advance(5.0 + 10 * room_module.UNPLAYED_HOLD_S)
    back.check(later.now())
    assert [p.name for p in back.pupils.values()] == ["Ana"]
    for k in (keeper, again):
        k.stop(room if k is keeper else back)
