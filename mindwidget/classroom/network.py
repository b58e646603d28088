"""The class server on a network that is not friendly, and behind a school's proxy.

What `server.Classroom` needs of the network beyond Tornado's own settings:

* `public_origin`: the checked ``--public-url`` (``https://mind.school.example``),
  the address pages, QR code and Origin check use behind a reverse proxy;
* `Hosts`: the ``Host`` headers the class answers (an IP address, ``localhost``,
  the public URL's host); a name other than these is refused with 403 before a
  handler runs (`HostCheckedApplication`), against DNS rebinding;
* `client_address`: a page's address, from ``X-Forwarded-For`` (or
  ``X-Real-IP``) only when the connection comes from a trusted proxy, as
  Tornado's ``xheaders`` but trusted only from the proxy's own address;
* `GuardedHTTPServer`: an `HTTPServer` that bounds connections that have not
  become a WebSocket (per peer address and in all; each is closed after the
  short ``idle_connection_timeout``; when all are taken, a new one closes the
  oldest of the address that holds the most), and that meets "too many open files" by
  pausing its accepting for a moment and logging it once, not with a
  traceback per loop turn;
* `raise_file_limit`: the soft limit of open files raised to the hard one;
* the named limits (`MAX_SOCKETS`, `PER_ADDRESS`, `HANDSHAKE_S`, …), `interface`
  and `bind` (where the class listens) and `serve`, which builds the class's
  application and HTTP server with them.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import logging
import socket
from collections import Counter
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import tornado.httpserver
import tornado.httputil
import tornado.iostream
import tornado.netutil
import tornado.web
from tornado.ioloop import IOLoop

try:
    import resource
except ImportError:  # Windows: no soft limit of files to raise
    resource = None  # type: ignore[assignment]

from .inbox import MAX_MESSAGE_BYTES
from .options import PER_ADDRESS  # sockets one address may hold: the class's option

__all__ = [
    "DEFAULT_PORT",
    "MAX_SOCKETS",
    "PER_ADDRESS",
    "GuardedHTTPServer",
    "HostCheckedApplication",
    "Hosts",
    "bind",
    "client_address",
    "interface",
    "public_origin",
    "raise_file_limit",
    "serve",
    "trusted_addresses",
]

log = logging.getLogger("mindwidget.classroom")

#: Seconds a paused accept waits after "too many open files".
ACCEPT_PAUSE_S = 0.5
DEFAULT_PORT = 8765
#: The most sockets the server holds at once (each address: ``per_address``).
MAX_SOCKETS = 2000
# -- a network that is not friendly (a school's, shared with phones that come and go) --
#: Tornado pings each socket this often and closes one that has not answered within
#: the timeout (a phone that walked away; the page's own liveness is the room's).
WEBSOCKET_PING_INTERVAL_S = 10.0
WEBSOCKET_PING_TIMEOUT_S = 10.0
#: Seconds a connection may take to send its request (and the WebSocket handshake).
HANDSHAKE_S = 10.0
#: Connections that are not a pupil's socket (yet), from one address and in all.
UNFINISHED_PER_ADDRESS = 128
UNFINISHED_MAX = 512
_OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def public_origin(url: str) -> str:
    """``url`` as an origin (``scheme://host[:port]``), or ValueError saying what is allowed."""
    what = f"public_url must be an http:// or https:// address with a host and no path, not {url!r}"
    if not isinstance(url, str) or not url.strip():
        raise ValueError(f"{what}.")
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{what} (its port is not a number from 0 to 65535).") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{what}.")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"{what} (the class is served at the root of its own host).")
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    default = 443 if parts.scheme == "https" else 80
    return f"{parts.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def trusted_addresses(proxies: str | Iterable[str] | None) -> frozenset[str]:
    """The proxies' addresses (``"127.0.0.1"``, ``"10.0.0.2,10.0.0.3"`` or a list)."""
    if proxies is None:
        return frozenset()
    items = proxies.split(",") if isinstance(proxies, str) else list(proxies)
    out = set()
    for item in items:
        try:
            out.add(str(ipaddress.ip_address(str(item).strip())))
        except ValueError:
            raise ValueError(
                f"trust_proxy must be the proxy's IP address (or several, with commas), "
                f"not {item!r}."
            ) from None
    return frozenset(out)


def client_address(request: tornado.httputil.HTTPServerRequest, trusted: frozenset[str]) -> str:
    """Who sent ``request``: the peer, or, when the peer is a trusted proxy, the last
    address in ``X-Forwarded-For`` that is not a trusted proxy (else ``X-Real-IP``)."""
    peer = request.remote_ip or "?"
    if peer not in trusted:
        return peer
    forwarded = request.headers.get("X-Forwarded-For", "")
    for item in reversed([i.strip() for i in forwarded.split(",")]):
        address = _ip(item)
        if address is None:
            break  # a malformed entry: what stands before it may be made up
        if address not in trusted:
            return address
    return _ip(request.headers.get("X-Real-IP", "").strip()) or peer


def _ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


class Hosts:
    """The ``Host`` headers the class answers. DNS rebinding needs a name that an
    attacker's DNS points at this machine, so a name must be the public URL's host or
    ``localhost``; an IP address (the listening one, the LAN one, a second network
    card's, a forwarder's on 127.0.0.1) is this machine reached directly, and is
    answered on any port (the Origin check still wants the page's own origin)."""

    def __init__(self, public: str | None = None) -> None:
        names = {"localhost"}
        if public:
            names.add((urlsplit(public).hostname or "").lower())
        self.names = frozenset(names)

    def __contains__(self, host: object) -> bool:
        if not isinstance(host, str) or not host:
            return False
        name = urlsplit(f"//{host}").hostname  # without the port; [::1] as ::1
        if name is None:
            return False
        if name.lower() in self.names:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def describe(self) -> str:
        return ", ".join(sorted(self.names)) + " and IP addresses"


class HostCheckedApplication(tornado.web.Application):
    """A Tornado application that answers only the class's `Hosts` (others: 403; the
    first few refused names are logged once each, for a teacher whose pupils use a
    name the class does not know: `--public-url` gives it)."""

    hosts: Hosts | None = None
    _told: set[str]

    def find_handler(  # `tornado.routing.Router`'s hook
        self, request: tornado.httputil.HTTPServerRequest, **kwargs: Any
    ) -> Any:  # an HTTPMessageDelegate (Tornado's own annotation names a private class)
        host = request.headers.get("Host", "")
        if self.hosts is not None and host not in self.hosts:
            told = self.__dict__.setdefault("_told", set())
            if len(told) < 10 and host not in told:
                told.add(host)
                log.warning(
                    "Refused a request for the host %r: the class answers only %s "
                    "(pupils who use another name need --public-url / public_url).",
                    host[:100],
                    self.hosts.describe(),
                )
            return self.get_handler_delegate(
                request, tornado.web.ErrorHandler, {"status_code": 403}
            )
        return super().find_handler(request, **kwargs)


class GuardedHTTPServer(tornado.httpserver.HTTPServer):
    """An `HTTPServer` that bounds the connections that are not (yet) a WebSocket:
    ``per_peer`` from one peer address (a trusted proxy's excepted; one past it is
    closed at once) and ``in_all``. When ``in_all`` are open, a new connection still
    gets in: the oldest unfinished connection of the address that holds the most is
    closed for it (`evicted` counts them), so a few devices that open connections and
    never finish them cannot keep a pupil out; they lose their own oldest first (nginx,
    out of connections, likewise closes the oldest that still wait for a request:
    ``ngx_drain_connections``, src/core/ngx_connection.c; it looks at no address). A
    connection stops counting when its HTTP part ends (`on_close`): closed, or become
    a WebSocket. Out of files, it stops accepting for `ACCEPT_PAUSE_S` and says so once.

    Only Tornado's public hooks: `handle_stream` (each new connection's `IOStream`),
    `on_close` (the `HTTP1ServerConnection` whose ``stream`` it serves), `add_sockets`
    and `stop`, and the `IOLoop`'s handlers for the accepting."""

    def initialize(
        self,
        *args: Any,
        per_peer: int = 128,
        in_all: int = 512,
        trusted: frozenset[str] = frozenset(),
        **kwargs: Any,
    ) -> None:
        if kwargs.get("ssl_options") is not None:
            raise ValueError("the class server speaks plain HTTP: TLS is the proxy's.")
        super().initialize(*args, **kwargs)
        self.per_peer = per_peer
        self.in_all = in_all
        self.trusted = trusted
        self.evicted = 0  # unfinished connections closed to let a new one in
        self._stream_args = {
            "max_buffer_size": kwargs.get("max_buffer_size"),
            "read_chunk_size": kwargs.get("chunk_size"),
        }
        # each address's unfinished connections, the oldest first, and each one's address
        self._open: dict[str, dict[tornado.iostream.IOStream, None]] = {}
        self._peer_of: dict[tornado.iostream.IOStream, str] = {}
        self._listening: list[tuple[socket.socket, Any]] = []
        self._told_out_of_files = False
        self._told_full = False

    @property
    def unfinished(self) -> Counter[str]:
        """How many unfinished connections each address holds."""
        return Counter({peer: len(streams) for peer, streams in self._open.items()})

    def handle_stream(self, stream: tornado.iostream.IOStream, address: Any) -> None:
        peer = str(address[0]) if isinstance(address, tuple) and address else "?"
        mine = self._open.get(peer, {})
        if peer not in self.trusted and len(mine) >= self.per_peer:
            stream.close()
            return
        if len(self._peer_of) >= self.in_all and self._open:
            self._evict(peer)
        self._open.setdefault(peer, {})[stream] = None
        self._peer_of[stream] = peer
        super().handle_stream(stream, address)

    def _evict(self, newcomer: str) -> None:
        """Close the oldest unfinished connection of the address that holds the most
        (the newcomer's own counted with it: a flooding address replaces its own)."""
        top = max(self._open, key=lambda p: len(self._open[p]) + (p == newcomer))
        oldest = next(iter(self._open[top]))
        self._forget(oldest)
        oldest.close()
        self.evicted += 1
        if not self._told_full:
            self._told_full = True
            log.warning(
                "%d connections that have not finished their request are open: for each "
                "new one, the oldest of the address that holds the most is closed. This "
                "is said once.",
                self.in_all,
            )

    def _forget(self, stream: object) -> None:
        peer = self._peer_of.pop(stream, None)  # type: ignore[call-overload]
        if peer is not None:
            streams = self._open[peer]
            del streams[stream]  # type: ignore[arg-type]
            if not streams:
                del self._open[peer]

    def on_close(self, server_conn: object) -> None:
        """The connection's HTTP part ended: it closed, or it is a WebSocket now."""
        self._forget(getattr(server_conn, "stream", None))
        super().on_close(server_conn)

    # ----------------------------------------------------------------- accepting
    def add_sockets(self, sockets: Iterable[socket.socket]) -> None:
        for sock in sockets:
            self._listening.append((sock, self._accept_on(sock)))

    def stop(self) -> None:
        listening, self._listening = self._listening, []
        for sock, remove in listening:
            remove()
            sock.close()
        super().stop()

    def _serve(self, connection: socket.socket, address: Any) -> None:
        """A new connection: its stream to `handle_stream` (as `TCPServer` does)."""
        try:
            stream = tornado.iostream.IOStream(connection, **self._stream_args)
            self.handle_stream(stream, address)
        except Exception:
            connection.close()
            log.exception("A new connection could not be served.")

    def _accept_on(self, sock: socket.socket) -> Any:
        """As `tornado.netutil.add_accept_handler`, and out of files: a pause, said once."""
        loop = IOLoop.current()
        state = {"removed": False, "reading": True}

        def resume() -> None:
            if not state["removed"] and not state["reading"]:
                state["reading"] = True
                loop.add_handler(sock, accept, IOLoop.READ)

        def accept(fd: Any, events: int) -> None:
            for _ in range(128):
                if state["removed"]:
                    return
                try:
                    connection, address = sock.accept()
                except BlockingIOError:
                    return
                except ConnectionAbortedError:
                    continue
                except OSError as exc:
                    if exc.errno not in _OUT_OF_FILES:
                        raise
                    self._out_of_files()
                    state["reading"] = False
                    loop.remove_handler(sock)
                    loop.call_later(ACCEPT_PAUSE_S, resume)
                    return
                self._serve(connection, address)

        def remove() -> None:
            state["removed"] = True
            if state["reading"]:
                with contextlib.suppress(Exception):
                    loop.remove_handler(sock)

        loop.add_handler(sock, accept, IOLoop.READ)
        return remove

    def _out_of_files(self) -> None:
        if not self._told_out_of_files:
            self._told_out_of_files = True
            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0] if resource else "?"
            log.warning(
                "Too many open files (the limit is %s): new connections wait until some "
                "close. Raise the limit (ulimit -n, or LimitNOFILE= in a systemd unit). "
                "This is said once.",
                soft,
            )


def raise_file_limit() -> int:
    """Raise the soft limit of open files to the hard one (as far as allowed); the
    soft limit after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# --------------------------------------------------------- where and how it listens
def interface(host: str | None, lan: bool) -> str:
    """The address to listen on: ``host``, else the school network's (``lan``) or this
    machine's only."""
    if host is None:
        return "0.0.0.0" if lan else "127.0.0.1"
    try:
        return str(ipaddress.IPv4Address(str(host).strip()))
    except ValueError:
        raise ValueError(
            f"host must be the IPv4 address of an interface to listen on (127.0.0.1: this "
            f"machine only, 0.0.0.0: every interface), not {host!r}."
        ) from None


def bind(port: int | None, address: str, lan: bool) -> list[socket.socket]:
    """The listening sockets: ``port``, else (``lan``) `DEFAULT_PORT` if free, else any."""
    if port is not None:
        return tornado.netutil.bind_sockets(port, address, family=socket.AF_INET)
    if lan:  # an easy number to type, if it is free
        with contextlib.suppress(OSError):
            return tornado.netutil.bind_sockets(DEFAULT_PORT, address, family=socket.AF_INET)
    return tornado.netutil.bind_sockets(0, address, family=socket.AF_INET)


def serve(
    routes: list[Any], trusted: frozenset[str]
) -> tuple[HostCheckedApplication, GuardedHTTPServer, int]:
    """The class's application (``routes``), its HTTP server with the limits above, and
    the most sockets it may hold (`MAX_SOCKETS`, fewer when the machine allows fewer
    open files)."""
    app = HostCheckedApplication(
        routes,
        websocket_max_message_size=MAX_MESSAGE_BYTES,
        websocket_ping_interval=WEBSOCKET_PING_INTERVAL_S,
        websocket_ping_timeout=WEBSOCKET_PING_TIMEOUT_S,
        compress_response=False,
    )
    files = raise_file_limit()
    budget = max(64, files - 128) if files > 0 else MAX_SOCKETS + UNFINISHED_MAX
    server = GuardedHTTPServer(
        app,
        idle_connection_timeout=HANDSHAKE_S,
        body_timeout=10,
        max_body_size=16 * 1024,
        max_header_size=16 * 1024,
        per_peer=UNFINISHED_PER_ADDRESS,
        in_all=min(UNFINISHED_MAX, budget // 4),
        trusted=trusted,
    )
    return app, server, min(MAX_SOCKETS, budget)
