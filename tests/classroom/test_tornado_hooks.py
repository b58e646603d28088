"""What the class server takes from Tornado, checked against the installed Tornado.

`network.GuardedHTTPServer` counts the connections that have not finished their
request with Tornado's public hooks only: `HTTPServer.handle_stream` (a new
connection's stream), `HTTPServer.on_close` (given the `HTTP1ServerConnection`,
whose ``stream`` attribute names the stream it serves), `initialize`'s
``max_buffer_size`` and ``chunk_size`` (for the streams it makes), and the
IOLoop's ``add_handler``/``remove_handler`` for its own accepting. The one thing
Tornado does not document is the ``stream`` attribute; if it goes, no
connection would ever stop counting and the server would refuse everyone once
`UNFINISHED_MAX` connections had come and gone. Each test here fails with a
message naming what changed. pyproject.toml pins Tornado below 7 (tested with
6.6).
"""

from __future__ import annotations

import inspect
import socket
import time

import tornado
import tornado.http1connection
import tornado.httpserver
import tornado.iostream
import tornado.tcpserver
from classroom_harness import Client, Server

from mindwidget.classroom import network

CHANGED = f"Tornado {tornado.version} changed what mindwidget.classroom.network relies on: "


def test_an_http1_server_connection_names_its_stream() -> None:
    a, b = socket.socketpair()
    try:
        stream = tornado.iostream.IOStream(a)
        conn = tornado.http1connection.HTTP1ServerConnection(stream)
        assert getattr(conn, "stream", None) is stream, (
            CHANGED + "HTTP1ServerConnection has no `stream` attribute any more; "
            "GuardedHTTPServer.on_close finds the closed connection by it."
        )
    finally:
        a.close()
        b.close()


def test_the_hooks_have_the_signatures_the_server_overrides() -> None:
    init = inspect.signature(tornado.httpserver.HTTPServer.initialize).parameters
    for name in ("max_buffer_size", "chunk_size", "idle_connection_timeout", "body_timeout"):
        assert name in init, CHANGED + f"HTTPServer.initialize has no {name!r} argument."
    for cls, method, params in (
        (tornado.tcpserver.TCPServer, "handle_stream", ["self", "stream", "address"]),
        (tornado.httpserver.HTTPServer, "on_close", ["self", "server_conn"]),
        (tornado.tcpserver.TCPServer, "add_sockets", ["self", "sockets"]),
        (tornado.tcpserver.TCPServer, "stop", ["self"]),
    ):
        found = list(inspect.signature(getattr(cls, method)).parameters)
        assert found == params, CHANGED + f"{cls.__name__}.{method}{tuple(found)}"
    stream = inspect.signature(tornado.iostream.BaseIOStream).parameters  # IOStream passes on
    for name in ("max_buffer_size", "read_chunk_size"):
        assert name in stream, CHANGED + f"an IOStream takes no {name!r}."


def test_a_finished_request_and_a_websocket_stop_counting() -> None:
    """The counting seen from outside: after a page's request and a socket's
    handshake, no connection is counted as unfinished."""
    s = Server()
    try:
        guard: network.GuardedHTTPServer = s.room._server  # type: ignore[union-attr]
        with socket.create_connection(("127.0.0.1", s.port), timeout=5) as c:
            c.sendall(f"GET /check HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\n\r\n".encode())
            assert c.recv(12).startswith(b"HTTP/1.1 200")
            assert sum(s.call(lambda: guard.unfinished).values()) == 1
        ana = Client(s)
        assert ana.join(s.room.code, "Ana")["type"] == "welcome"  # type: ignore[union-attr]

        def counted() -> int:
            return sum(s.call(lambda: guard.unfinished).values())

        deadline = time.monotonic() + 10
        while counted() and time.monotonic() < deadline:
            time.sleep(0.05)  # the poll's interval: the closed page's connection ends
        assert counted() == 0, (
            CHANGED + "a closed connection, or one that became a WebSocket, is still "
            "counted as unfinished (HTTPServer.on_close is not called with it)."
        )
        ana.close()
    finally:
        s.stop()
