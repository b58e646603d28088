"""The class server's connections: each pupil page's socket and the small pages.

`PupilSocket` is one pupil page's WebSocket, the `room.Link` the room talks
to: bounded, checked, rate-limited messages in; small replies and coalesced
updates out (one per loop turn, after the room's `before_send`; the room
builds each, `Room.frame_for`, and the socket writes it), never piling up.
`Sockets` holds them all: their caps, and each one's update once per loop turn.
`LoopTimers` is the room's `tables.Timers` on the event loop. The pages
(join, check, bundle) are HTML from `pages`; `lan_address` and `qr_svg` say
where the class is. They serve a `Host` (the `server.Classroom`), which is
how this module needs no import of the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import tornado.web
import tornado.websocket

from ..i18n import LANGS
from ..refusal import Refused
from . import pages
from .inbox import RateLimit, parse
from .room import PING_S, Room
from .tables import Pupil
from .words import say

__all__ = [
    "Bundle",
    "CheckPage",
    "Host",
    "JoinPage",
    "LoopTimers",
    "NoIcon",
    "PupilSocket",
    "Sockets",
    "lan_address",
    "qr_svg",
    "ping_due",
    "read_bundle",
    "send_bundle",
]

log = logging.getLogger("mindwidget.classroom")
_STATIC = Path(__file__).resolve().parent.parent / "static"

#: A page that has not read what it was sent for this long is closed.
STALL_S = 20.0
#: A socket that has not joined after this long is closed.
JOIN_S = 120.0
#: Small replies that may wait behind the message on its way.
QUEUE = 8
#: A page is pinged at least this often, for the round trip the teacher sees.
RTT_S = 10.0


class Host(Protocol):
    """What the sockets and pages need of the server (`server.Classroom`)."""

    room: Room
    sockets: Sockets
    rate: tuple[float, float]
    public_origin: str | None

    @property
    def lang(self) -> str: ...
    def handle(self, sock: PupilSocket, msg: dict[str, Any]) -> None: ...
    def client_address(self, request: Any) -> str: ...


class LoopTimers:
    """`tables.Timers` on an asyncio event loop (the kernel's)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def now(self) -> float:
        return self.loop.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        return self.loop.call_at(when, callback)


class Sockets:
    """The class's pupil sockets: at most ``most`` in all and ``per_address`` from one
    address; each one's update once per loop turn, after the room's `Room.before_send`
    (the journal commits first); their housekeeping (`PupilSocket.check`)."""

    def __init__(
        self, room: Room, loop: asyncio.AbstractEventLoop, per_address: int, most: int
    ) -> None:
        self.room = room
        self.loop = loop
        self.per_address = per_address
        self.most = most
        self.all: set[PupilSocket] = set()
        self.closing = False  # the class is closing: no new socket
        self._per_address: Counter[str] = Counter()
        self._turn = False  # the room's before_send is set for this loop turn

    def opened(self, sock: PupilSocket) -> bool:
        """A new socket: False (and told why) when its address holds too many."""
        if self.closing:
            sock.bye("class_ended")
            return False
        full = len(self.all) >= self.most
        if full or self._per_address[sock.address] >= self.per_address:
            sock.bye("too_many")
            return False
        self.all.add(sock)
        self._per_address[sock.address] += 1
        return True

    def closed(self, sock: PupilSocket) -> None:
        if sock in self.all:
            self.all.discard(sock)
            self._per_address[sock.address] -= 1
            if self._per_address[sock.address] <= 0:
                del self._per_address[sock.address]
        self.room.left(sock, self.loop.time())

    def wants_update(self, sock: PupilSocket) -> None:
        """``sock`` has news: its update goes out later in this loop turn, after the
        room's `before_send` (the loop runs its callbacks in the order they were set)."""
        if not self._turn:
            self._turn = True
            self.loop.call_soon(self._before_send)
        self.loop.call_soon(sock.send_update)

    def _before_send(self) -> None:
        self._turn = False
        try:
            self.room.before_send()  # the journal's seam: commit, then the pages hear
        except Exception:
            log.exception("before_send failed")

    def check(self, now: float) -> None:
        """Pings, pages that stopped reading, sockets that never joined."""
        for sock in list(self.all):
            sock.check(now)

    def close(self) -> None:
        self.closing = True
        for sock in list(self.all):
            sock.close()


# ------------------------------------------------------------------ handlers
class _Page(tornado.web.RequestHandler):
    def set_default_headers(self) -> None:
        for k, v in pages.HEADERS.items():
            self.set_header(k, v)
        self.clear_header("Server")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}\n")


class _ClassPage(_Page):
    """A page in the language it asks for, else the class's."""

    def initialize(self, server: Host) -> None:
        self.server = server

    def _lang(self) -> str:
        lang = self.get_query_argument("lang", "")
        return lang if lang in LANGS else self.server.lang


class JoinPage(_ClassPage):
    def get(self) -> None:
        code = self.get_query_argument("code", "")
        code = code if code.isdigit() and len(code) <= 8 else ""
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(pages.join_page(self._lang(), self.server.lang, code))


class CheckPage(_ClassPage):
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(pages.check_page(self._lang()))


class Bundle(_Page):
    def initialize(self, bundle: dict[str, bytes]) -> None:
        self.bundle = bundle

    def get(self, name: str) -> None:
        send_bundle(self, self.bundle, name)


class NoIcon(_Page):
    def get(self) -> None:
        self.set_status(204)
        self.finish()


class PupilSocket(tornado.websocket.WebSocketHandler):
    """One pupil page's socket: checks, rate limit, and updates that never pile up.

    Updates are coalesced: while one is on its way (not yet taken by the
    operating system), later changes wait and go as one (`Session.changes`
    gathers them). A page that reads nothing for `STALL_S` is closed.
    """

    def initialize(self, server: Host) -> None:
        self.server = server  # the connections (`server.Classroom`)
        self.room = server.room  # the class (`room.Room`): the update frames
        self.sockets = server.sockets  # every pupil socket of the class
        self.pupil: Pupil | None = None
        self.address = server.client_address(self.request)
        lang = self.get_query_argument("lang", "")
        self.lang = lang if lang in LANGS else server.lang
        self.limit = RateLimit(*server.rate)
        self.fresh = True  # the next update carries the whole state (`Room.frame_for`)
        self._scheduled = False
        self._inflight: Any = None
        self._inflight_at = 0.0
        self._again = False
        self._opened_at = 0.0
        self._ping_id = 0
        self._ping_at: dict[int, float] = {}
        self._last_ping = 0.0
        self._last_write = 0.0
        self._closing = False
        self._counted = False
        self._queue: deque[dict[str, Any]] = deque()

    def check_origin(self, origin: str) -> bool:
        """The page's origin is this server's host (Tornado's check), or the public URL."""
        public = self.server.public_origin
        if public is not None and origin.lower().rstrip("/") == public:
            return True
        return bool(super().check_origin(origin))

    def open(self) -> None:
        self.set_nodelay(True)  # small messages, at once (no Nagle delay)
        self._opened_at = self.room.timers.now()
        self._counted = self.sockets.opened(self)

    def on_close(self) -> None:
        self._closing = True
        if self._counted:
            self.sockets.closed(self)

    def on_message(self, raw: str | bytes) -> None:
        if self._closing or not self._counted:
            return
        if not self.limit.take():
            if self.limit.refused == 1:
                self.notice(Refused("too_fast", words="class"))
            elif self.limit.refused > 500:
                self.bye("too_fast")
            return
        try:
            self.server.handle(self, parse(raw))
        except Refused as refusal:
            self.notice(refusal)
        except Exception:  # a handler fault must never reach the loop; the table is unchanged
            log.exception("message failed")
            self.notice(Refused("busy", words="class"))

    # ------------------------------------------------------------ sending
    def notice(self, refusal: Refused) -> None:
        kind = "refused" if self.pupil is None else "notice"
        text = refusal.text(self.lang)
        self.send({"type": kind, "key": refusal.key, "params": refusal.params, "text": text})

    def bye(self, key: str) -> None:
        """Tell the page why, then close."""
        text = say(f"err_{key}", self.lang)
        # written at once, ahead of the close frame; the few replies waiting their turn
        # first (what a page keeps after the lesson, `Room.keepsakes`)
        with contextlib.suppress(tornado.websocket.WebSocketClosedError):
            while self._queue:
                self.write_message(_encode(self._queue.popleft()))
            self.write_message(json.dumps({"type": "bye", "key": key, "text": text}))
        self._closing = True
        self.close(4000 + len(key), key)

    def send(self, msg: dict[str, Any]) -> None:
        """Send a small reply: now, or after the message on its way (at most `QUEUE`
        wait; a page that lets more pile up is not reading, and loses them)."""
        if self._closing:
            return
        if self._inflight is not None:
            if len(self._queue) < QUEUE:
                self._queue.append(msg)
            return
        self._write(msg)

    def _write(self, msg: dict[str, Any]) -> None:
        try:
            future = self.write_message(_encode(msg))
        except tornado.websocket.WebSocketClosedError:
            return
        self._last_write = now = self.room.timers.now()
        stream = self.ws_connection.stream if self.ws_connection is not None else None
        if stream is not None and not stream.writing():
            return  # the operating system took it all at once: nothing is on its way
        self._inflight = future
        self._inflight_at = now
        future.add_done_callback(self._written)

    def _written(self, future: Any) -> None:
        if future is self._inflight:
            self._inflight = None
        with contextlib.suppress(Exception):
            future.exception()
        if self._queue:
            self._write(self._queue.popleft())
        elif self._again:
            self._again = False
            self.dirty()

    def dirty(self) -> None:
        """Something this page shows changed: an update goes out soon (one per loop turn)."""
        if self._scheduled or self._closing:
            return
        self._scheduled = True
        self.sockets.wants_update(self)

    def send_update(self) -> None:
        """Write the room's update frame, if any (`Room.frame_for`; `Sockets.wants_update`
        calls this); one waits while a frame is on its way."""
        self._scheduled = False
        if self._closing or self.ws_connection is None:
            return
        if self._inflight is not None or self._queue:
            self._again = True
            return
        frame = self.room.frame_for(self)
        if frame is not None:
            self._write(frame)

    # --------------------------------------------------------- housekeeping
    def check(self, now: float) -> None:
        if self._closing:
            return
        if self._inflight is not None and now - self._inflight_at > STALL_S:
            self._closing = True
            self.close(1008, "not reading")
            return
        if self.pupil is None:
            if now - self._opened_at > JOIN_S:
                self.close(1008, "join first")
            return
        seen = self.pupil.seen_at if self.pupil.seen_at is not None else 0.0
        if self._inflight is None and ping_due(now, seen, self._last_write, self._last_ping):
            self._ping_id += 1
            self._ping_at = {self._ping_id: now}
            self._last_ping = now
            self.send({"type": "ping", "id": self._ping_id})

    def pong(self, ping_id: int) -> None:
        at = self._ping_at.pop(ping_id, None)
        if at is not None and self.pupil is not None:
            self.pupil.rtt_ms = round((self.room.timers.now() - at) * 1000, 1)


# ------------------------------------------------------------------- helpers
def ping_due(now: float, heard_at: float, sent_at: float, pinged_at: float) -> bool:
    """Whether a page is pinged ``now`` (server times, seconds).

    Where an end would otherwise go quiet for `room.PING_S`: the server heard
    nothing from the page since ``heard_at`` (`Room.check` counts it offline
    from there; a silent drop during play, while updates are still written,
    included), or the page heard nothing since ``sent_at`` (it counts that
    silence as a lost connection); and every `RTT_S` for the round trip the
    teacher sees. Never twice within `PING_S`. A page in play hears and speaks
    often, so it is seldom pinged.
    """
    if now - pinged_at < PING_S:
        return False
    return max(now - heard_at, now - sent_at) >= PING_S or now - pinged_at >= RTT_S


#: A frame's JSON: compact, and no check for cycles (a frame is plain data built here).
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def read_bundle(*names: str) -> dict[str, bytes]:
    """A page's bundle (``names`` in the package's static folder), read once."""
    out = {}
    for name in names:
        path = _STATIC / name
        if path.exists():
            out[name] = path.read_bytes()
    return out


def send_bundle(handler: tornado.web.RequestHandler, bundle: dict[str, bytes], name: str) -> None:
    """Answer a request for ``name`` of a page's bundle (`read_bundle`): 404 if it has none."""
    body = bundle.get(name)
    if body is None:
        raise tornado.web.HTTPError(404)
    kind = "text/javascript" if name.endswith(".js") else "text/css"
    handler.set_header("Content-Type", f"{kind}; charset=utf-8")
    handler.finish(body)


def lan_address() -> str:
    """This machine's address on the school network (the route out; nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        ip = str(s.getsockname()[0])
        if not ip.startswith("127."):
            return ip
    with contextlib.suppress(OSError):
        return socket.gethostbyname(socket.gethostname())
    return "127.0.0.1"


def qr_svg(url: str) -> str:
    """The address with the code as a QR code (SVG, scales to any size)."""
    import segno

    qr = segno.make(url, error="m")
    svg: str = qr.svg_inline(scale=8, border=2, dark="#000", light="#fff")
    return svg.replace("<svg ", '<svg style="width: 100%; height: 100%" ', 1)
