"""`Classroom`: the class server, on the running event loop (a Jupyter kernel's).

Tornado serves (it ships with every Jupyter kernel):

* ``/``: the join page (code, name, language), then the pupil's table, drawn
  by the notebook widget's own code (``/static/class.js``);
* ``/check``: does the connection work, and how long is a round trip;
* ``/ws``: one WebSocket per pupil page (messages: `wire`);
* ``/teacher?token=…``: the teacher's dashboard (`teacher`; the token never
  reaches a pupil).

Everything a socket sends is hostile: bounded frames (`wire.MAX_MESSAGE_BYTES`),
checked messages, a rate limit per socket, a cap on sockets per address, a
slower answer to repeated wrong codes, and a socket whose page does not read
what it is sent is closed rather than buffered without end. The server reads
no file but its own bundle (once, at start) and writes none.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import socket
import time
import webbrowser
from collections import Counter, OrderedDict, deque
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.netutil
import tornado.web
import tornado.websocket

from ..checks import choice, whole
from ..i18n import LANGS
from ..rules import RuleError
from ..table import Table
from . import pages
from .tables import ClassTable, Pupil, table_snapshot, waiting_row
from .teacher import Teacher, teacher_routes
from .wire import MAX_MESSAGE_BYTES, TABLE_TYPES, RateLimit, Refusal, parse
from .words import check_name, fold, make_name, say

__all__ = ["BOTS", "SIZES", "Classroom"]

log = logging.getLogger("mindwidget.classroom")

_STATIC = Path(__file__).resolve().parent.parent / "static"
#: Table sizes a class may choose, and who fills an empty seat.
SIZES = (2, 3, 4)
BOTS = ("human", "adaptive", "scalar", "none")
DEFAULT_PORT = 8765
#: Seconds a pupil may be away before their table stops for them.
GRACE_S = 15.0
#: Seconds between pings of each page (the round trip the teacher sees).
PING_S = 5.0
#: A page that has not read what it was sent for this long is closed.
STALL_S = 20.0
#: A socket that has not joined after this long is closed.
JOIN_S = 120.0
#: Wrong codes from one address before its answers slow down.
FREE_TRIES = 3
MAX_SOCKETS = 2000
#: What a pupil's page may set (the table's tempo and speed are the teacher's).
PUPIL_SETTINGS = ("lang", "size")
#: The most pupils one class takes (a page with the code cannot fill the memory).
MAX_PUPILS = 1000
#: Small replies that may wait behind the message on its way.
QUEUE = 8


class Classroom(Teacher):
    """A class playing The Mind together: pupils' browsers at tables of ``size``.

    >>> c = Classroom(lan=True, lang="nl")   # doctest: +SKIP
    >>> c                                    # address, code, QR code, tables

    Returns at once and serves on the running event loop (a notebook's
    kernel); `stop` closes it. ``lan`` binds the school network (default:
    127.0.0.1 only). ``bots`` fills the empty seats of a table the teacher
    starts ("none": the pupils close up). ``same_deal`` deals every table the
    same cards; ``seed`` makes the deals reproducible. ``grace`` is how long
    (s) a pupil may be away before the table stops; ``per_address`` caps the
    sockets one address may hold; ``rate`` is each socket's messages per second
    and burst.
    """

    def __init__(
        self,
        *,
        lan: bool = False,
        port: int | None = None,
        size: int = 3,
        bots: str = "human",
        tempo: float | str = "people",
        lang: str = "en",
        same_deal: bool = False,
        seed: int | None = None,
        open_browser: bool = False,
        grace: float = GRACE_S,
        per_address: int = 20,
        rate: tuple[float, float] = (20.0, 40.0),
    ) -> None:
        size = whole("size", size, min(SIZES), max(SIZES))
        choice("bots", bots, BOTS, quoted=False)
        choice("lang", lang, LANGS, quoted=False)
        if seed is not None:
            seed = whole("seed", seed, none=True)
        if port is not None:
            port = whole("port", port, 0, 65535, none=True)
        # the bots' name and tempo are checked by the table they will fill
        Table(players=size, seats=tuple(range(size)), bots=_bot(bots), tempo=tempo)
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                "Classroom serves on a running event loop: create it in a notebook "
                "(a Jupyter kernel) or inside asyncio.run(); in a terminal use `mindwidget class`."
            ) from None
        self.size = size
        self.bots = bots
        self.tempo = tempo
        self.lang = lang
        self.same_deal = bool(same_deal)
        self.seed = seed if seed is not None else secrets.randbelow(2**31)
        self.grace = float(grace)
        self.per_address = int(per_address)
        self.rate = (float(rate[0]), float(rate[1]))
        self.code = f"{secrets.randbelow(10_000):04d}"
        self.teacher_token = secrets.token_urlsafe(24)
        self.locked = False
        self.tables: list[ClassTable] = []
        self.pupils: dict[str, Pupil] = {}
        self._by_token: dict[str, Pupil] = {}
        self._count = 0
        self._sockets: set[PupilSocket] = set()
        self._per_address: Counter[str] = Counter()
        self._wrong: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._bundle = _read_bundle()
        self._closed = False

        app = tornado.web.Application(
            [
                *teacher_routes(self),  # the dashboard and the class's data: teacher.py
                (r"/", JoinPage, {"room": self}),
                (r"/check", CheckPage, {"room": self}),
                (r"/ws", PupilSocket, {"room": self}),
                (r"/static/(class\.js|class\.css)", Bundle, {"room": self}),
                (r"/favicon\.ico", NoIcon, {"room": self}),
            ],
            websocket_max_message_size=MAX_MESSAGE_BYTES,
            websocket_ping_interval=10,
            websocket_ping_timeout=10,
            compress_response=False,
        )
        self._server = tornado.httpserver.HTTPServer(
            app,
            idle_connection_timeout=60,
            body_timeout=10,
            max_body_size=16 * 1024,
            max_header_size=16 * 1024,
        )
        address = "0.0.0.0" if lan else "127.0.0.1"
        sockets = _bind(port, address, lan)
        self._server.add_sockets(sockets)
        self.port = int(sockets[0].getsockname()[1])
        self.host = _lan_address() if lan else "127.0.0.1"
        self.address = f"http://{self.host}:{self.port}"
        self.url = f"{self.address}/?code={self.code}"
        self.teacher_url = f"{self.address}/teacher?token={self.teacher_token}"
        self._qr = _qr_svg(self.url)
        self._house = self._loop.call_later(1.0, self._housekeeping)
        if open_browser:
            with contextlib.suppress(Exception):
                webbrowser.open(self.teacher_url)

    # ---------------------------------------------------------------- reading
    def __repr__(self) -> str:
        state = "stopped" if self._closed else f"{len(self.pupils)} pupils"
        return f"Classroom({self.address}, code {self.code}, {state})"

    def describe(self) -> str:
        """What the terminal shows: the address, the code, a QR code, the teacher's page."""
        import io

        import segno

        out = io.StringIO()
        segno.make(self.url, error="m").terminal(out=out, compact=True)
        return (
            f"{out.getvalue()}\n"
            f"Pupils go to:   {self.address}\n"
            f"Class code:     {self.code}\n"
            f"Teacher's page: {self.teacher_url}\n"
            "(Ctrl+C ends the class.)"
        )

    def _repr_html_(self) -> str:
        return pages.teacher_html(self.snapshot(), self.lang)

    def snapshot(self) -> dict[str, Any]:
        """What the teacher's dashboard shows, JSON-ready (CONTRACT.md, section 2)."""
        tables = [table_snapshot(t) for t in self.tables]
        waiting = [waiting_row(p) for p in self.pupils.values() if p.table_id is None]
        return {
            "code": self.code,
            "url": self.url,
            "address": self.address,
            "qr_svg": self._qr,
            "locked": self.locked,
            "lang": self.lang,
            "size": self.size,
            "same_deal": self.same_deal,
            "tables": tables,
            "waiting_room": waiting,
        }

    # ---------------------------------------------------------- the teacher
    def table(self, table_id: int) -> ClassTable:
        """The class's table ``table_id`` (from 1)."""
        ok = isinstance(table_id, int) and not isinstance(table_id, bool)
        if ok and 1 <= table_id <= len(self.tables):
            return self.tables[table_id - 1]  # tables are numbered in order, never removed
        ids = ", ".join(str(t.id) for t in self.tables) or "none yet"
        raise ValueError(f"table_id must be one of the class's tables ({ids}), not {table_id!r}.")

    def pupil(self, pupil_id: str) -> Pupil:
        p = self.pupils.get(pupil_id)
        if p is None:
            raise ValueError(f"pupil_id must be one of the class's pupils, not {pupil_id!r}.")
        return p

    def start_table(self, table_id: int) -> None:
        """Start a table now, with bots in its empty seats (or fewer players: bots='none')."""
        self.table(table_id).start()

    def start_all(self) -> None:
        """Start every table that has a pupil (bots fill the empty seats)."""
        for t in self.tables:
            if t.table is None and t.pupils and (self.bots != "none" or len(t.pupils) >= 2):
                t.start()

    def pause_all(self) -> None:
        """Stop every running level (hands on the table; each pupil presses Ready to go on)."""
        for t in self.tables:
            t.stop_play()

    def lock(self, locked: bool = True) -> None:
        """No new pupils join while locked (a pupil with a seat token still gets back in)."""
        self.locked = bool(locked)

    def remove(self, pupil_id: str) -> None:
        """Take a pupil out of the class (their page is told; their seat is left empty)."""
        p = self.pupil(pupil_id)
        self._unseat(p)
        del self.pupils[p.id]
        self._by_token.pop(p.token, None)
        link = p.link
        p.link = None
        if isinstance(link, PupilSocket):
            link.bye("seat_gone")

    def move(self, pupil_id: str, table_id: int | None, seat: int | None = None) -> None:
        """Seat a pupil at ``table_id`` (a free seat, a bot's, or the seat of a pupil gone
        past the grace period, who goes to the waiting room; ``seat`` from 0, None: the
        first free one), or in the waiting room (``table_id=None``)."""
        p = self.pupil(pupil_id)
        if table_id is None:
            self._unseat(p)
            self._dirty(p)
            return
        t = self.table(table_id)
        if seat is None:
            seat = t.free_seat()
            if seat is None:
                raise ValueError(f"table {t.id} has no free seat; name a bot's seat.")
        occupant = t.seats.get(seat) if 0 <= seat < t.size else None
        if occupant is not None and occupant.gone and occupant is not p:
            self._unseat(occupant)  # away past the grace period: to the waiting room
            occupant = None
        if not 0 <= seat < t.size or occupant is not None:
            raise ValueError(
                f"seat must be a free seat, a bot's seat or a gone pupil's seat of table {t.id} "
                f"(from 0), not {seat!r}."
            )
        self._unseat(p)
        t.sit(p, seat)
        self._auto_start(t)

    def give_to_bot(self, table_id: int, seat: int) -> None:
        """A bot takes ``seat`` (from 0) of a table; a pupil sitting there goes to the
        waiting room."""
        t = self.table(table_id)
        pupil = t.to_bot(seat)
        if pupil is not None:
            self._dirty(pupil)

    def end(self) -> None:
        """The lesson is over: every page is told, and every table stops its clock."""
        for p in self.pupils.values():
            link = p.link
            if isinstance(link, PupilSocket):
                link.bye("class_ended")
        for t in self.tables:
            t.close()
        self.locked = True

    def stop(self) -> None:
        """Close the server (pages are told the class ended)."""
        if self._closed:
            return
        self.end()
        self._close_teacher()
        self._closed = True
        self._house.cancel()
        self._server.stop()
        for s in list(self._sockets):
            s.close()

    # --------------------------------------------------------------- seating
    def _seed_for(self, table_id: int) -> Any:
        def seed(game: int) -> int:
            which = 0 if self.same_deal else table_id
            return (self.seed * 1_000_003 + game * 10_007 + which) % 2**32

        return seed

    def _new_table(self) -> ClassTable:
        t = ClassTable(
            id=len(self.tables) + 1,
            size=self.size,
            bots=self.bots,
            tempo=self.tempo,
            seed_for=self._seed_for(len(self.tables) + 1),
            loop=self._loop,
        )
        self.tables.append(t)
        return t

    def _seat(self, p: Pupil) -> None:
        """A new pupil sits at the first table that has not started and has a free seat."""
        for t in self.tables:
            if t.table is None and (seat := t.free_seat()) is not None:
                break
        else:
            t = self._new_table()
            seat = 0
        t.sit(p, seat)
        self._auto_start(t)

    def _auto_start(self, t: ClassTable) -> None:
        if t.table is None and t.full and t.pupils:
            t.start()

    def _unseat(self, p: Pupil) -> None:
        if p.table_id is not None:
            self.table(p.table_id).leave(p)

    def _dirty(self, p: Pupil) -> None:
        if p.link is not None:
            p.link.dirty()

    # ------------------------------------------------------------- messages
    def handle(self, sock: PupilSocket, msg: dict[str, Any]) -> None:
        """One checked message from a pupil's page."""
        kind = msg["type"]
        if kind == "ping":
            sock.send({"type": "pong", "id": msg["id"]})
        elif kind == "nickname":
            lang = msg.get("lang") if msg.get("lang") in LANGS else sock.lang
            taken = {fold(p.name) for p in self.pupils.values()}
            sock.send({"type": "nickname", "name": make_name(str(lang), taken)})
        elif kind == "join":
            self._join(sock, msg)
        elif kind == "rejoin":
            self._rejoin(sock, msg["token"])
        else:
            p = sock.pupil
            if p is None or p.link is not sock:
                raise Refusal("not_joined")
            self._from_pupil(sock, p, msg)

    def _join(self, sock: PupilSocket, msg: dict[str, Any]) -> None:
        if sock.pupil is not None:
            raise Refusal("bad_message", what="joined already")
        lang = msg.get("lang")
        if lang in LANGS:
            sock.lang = str(lang)
        now = time.monotonic()
        tries, until = self._wrong.get(sock.address, (0, 0.0))
        if now < until:
            raise Refusal("slow_down", s=max(1, round(until - now)))
        if not secrets.compare_digest(str(msg["code"]).strip().encode(), self.code.encode()):
            tries += 1
            wait = 0.0 if tries < FREE_TRIES else min(60.0, 2.0 ** (tries - FREE_TRIES + 1))
            self._wrong[sock.address] = (tries, now + wait)
            self._wrong.move_to_end(sock.address)
            while len(self._wrong) > 10_000:
                self._wrong.popitem(last=False)
            raise Refusal("bad_code")
        name = check_name(msg["name"])
        if name is None:
            raise Refusal("bad_name")
        if any(fold(p.name) == fold(name) for p in self.pupils.values()):
            raise Refusal("name_taken", name=name)
        if self.locked:
            raise Refusal("locked")
        if len(self.pupils) >= MAX_PUPILS:
            raise Refusal("class_full")
        self._wrong.pop(sock.address, None)
        self._count += 1
        token = secrets.token_urlsafe(24)
        p = Pupil(
            id=f"p{self._count}", name=name, lang=sock.lang, token=token, address=sock.address
        )
        self.pupils[p.id] = p
        self._by_token[token] = p
        self._attach(sock, p)
        self._seat(p)

    def _rejoin(self, sock: PupilSocket, token: str) -> None:
        p = self._by_token.get(token)
        if p is None or not secrets.compare_digest(p.token.encode(), token.encode()):
            raise Refusal("seat_gone")
        old = p.link
        if old is not None and old is not sock and isinstance(old, PupilSocket):
            old.pupil = None
            old.bye("elsewhere")
        self._attach(sock, p)

    def _attach(self, sock: PupilSocket, p: Pupil) -> None:
        sock.pupil = p
        sock.lang = p.lang
        sock.fresh = True
        p.link = sock
        p.left_at = None
        p.gone = False
        sock.send({"type": "welcome", "pupil": p.id, "name": p.name, "token": p.token})
        if p.table_id is not None:
            self.table(p.table_id).notify()  # the others see them back
        sock.dirty()

    def _from_pupil(self, sock: PupilSocket, p: Pupil, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "pong":
            sock.pong(msg["id"])
            return
        if kind in ("hello", "tick"):
            return  # the server keeps the time, and every state carries the trace
        t = self.table(p.table_id) if p.table_id is not None else None
        session = t.session_of(p) if t is not None else None
        if kind == "set":
            name, value = msg["name"], msg["value"]
            if name not in PUPIL_SETTINGS:  # the bots' tempo is the teacher's choice
                raise Refusal("bad_message", what=f"set {str(name)[:20]}")
            if session is not None:
                if session.set(name, value) and name == "lang":
                    p.lang = sock.lang = str(value)
            elif name == "lang" and value in LANGS:
                p.lang = sock.lang = str(value)
            sock.dirty()
            return
        if kind not in TABLE_TYPES:
            raise Refusal("bad_message", what="type")
        if t is None or session is None or p.seat is None:
            raise Refusal("not_started")
        if kind == "ready":
            t.press_ready(p.seat, msg)
        elif kind == "new_game" and "new_game" not in session.withheld:
            try:
                t.new_game()
            except RuleError:
                session.receive(msg)  # the session says why not, as the widget does
        else:
            session.receive(msg)
        sock.dirty()

    # -------------------------------------------------------------- sockets
    def opened(self, sock: PupilSocket) -> bool:
        """A new socket: False (and told why) when its address holds too many."""
        if self._closed:
            sock.bye("class_ended")
            return False
        if len(self._sockets) >= MAX_SOCKETS or self._per_address[sock.address] >= self.per_address:
            sock.bye("too_many")
            return False
        self._sockets.add(sock)
        self._per_address[sock.address] += 1
        return True

    def closed(self, sock: PupilSocket) -> None:
        if sock in self._sockets:
            self._sockets.discard(sock)
            self._per_address[sock.address] -= 1
            if self._per_address[sock.address] <= 0:
                del self._per_address[sock.address]
        p = sock.pupil
        if p is not None and p.link is sock:
            p.link = None
            p.left_at = self._loop.time()
            if p.table_id is not None:
                self.table(p.table_id).notify()

    def _housekeeping(self) -> None:
        """Once a second: pings, pages that stopped reading, sockets that never joined,
        pupils away longer than the grace period."""
        now = self._loop.time()
        try:
            for sock in list(self._sockets):
                sock.check(now)
            for p in list(self.pupils.values()):
                away = p.left_at is not None and now - p.left_at >= self.grace
                if p.link is None and away and not p.gone:
                    p.gone = True
                    if p.table_id is not None:
                        self.table(p.table_id).gone(p)
        except Exception:
            log.exception("housekeeping failed")
        if not self._closed:
            self._house = self._loop.call_later(1.0, self._housekeeping)

    def info(self, p: Pupil) -> dict[str, Any]:
        """The class part of a pupil's update: their table and who else sits there."""
        if p.table_id is None:
            return {"table": None, "seat": None, "name": p.name, "lang": p.lang}
        return self.table(p.table_id).info(p) | {"name": p.name, "lang": p.lang}


# ------------------------------------------------------------------ handlers
class _Page(tornado.web.RequestHandler):
    def initialize(self, room: Classroom) -> None:
        self.room = room

    def set_default_headers(self) -> None:
        for k, v in pages.HEADERS.items():
            self.set_header(k, v)
        self.clear_header("Server")

    def _lang(self) -> str:
        lang = self.get_query_argument("lang", "")
        return lang if lang in LANGS else self.room.lang

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}\n")


class JoinPage(_Page):
    def get(self) -> None:
        code = self.get_query_argument("code", "")
        code = code if code.isdigit() and len(code) <= 8 else ""
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(pages.join_page(self._lang(), self.room.lang, code))


class CheckPage(_Page):
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(pages.check_page(self._lang()))


class Bundle(_Page):
    def get(self, name: str) -> None:
        body = self.room._bundle.get(name)
        if body is None:
            raise tornado.web.HTTPError(404)
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        self.set_header("Content-Type", f"{kind}; charset=utf-8")
        self.finish(body)


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

    def initialize(self, room: Classroom) -> None:
        self.room = room
        self.pupil: Pupil | None = None
        self.address = self.request.remote_ip or "?"
        lang = self.get_query_argument("lang", "")
        self.lang = lang if lang in LANGS else room.lang
        self.limit = RateLimit(*room.rate)
        self.fresh = True  # the next update carries the whole state
        self._sent_session: object = None
        self._sent_info: dict[str, Any] | None = None
        self._scheduled = False
        self._inflight: Any = None
        self._inflight_at = 0.0
        self._again = False
        self._opened_at = 0.0
        self._ping_id = 0
        self._ping_at: dict[int, float] = {}
        self._last_ping = 0.0
        self._closing = False
        self._counted = False
        self._queue: deque[dict[str, Any]] = deque()

    # tornado's default origin check: the page's origin must be this server's host
    def open(self) -> None:
        self.set_nodelay(True)  # small messages, at once (no Nagle delay)
        self._opened_at = self.room._loop.time()
        self._counted = self.room.opened(self)

    def on_close(self) -> None:
        self._closing = True
        if self._counted:
            self.room.closed(self)

    def on_message(self, raw: str | bytes) -> None:
        if self._closing or not self._counted:
            return
        if not self.limit.take():
            if self.limit.refused == 1:
                self.notice(Refusal("too_fast"))
            elif self.limit.refused > 500:
                self.bye("too_fast")
            return
        try:
            self.room.handle(self, parse(raw))
        except Refusal as refusal:
            self.notice(refusal)
        except Exception:  # a handler fault must never reach the loop; the table is unchanged
            log.exception("message failed")
            self.notice(Refusal("busy"))

    # ------------------------------------------------------------ sending
    def notice(self, refusal: Refusal) -> None:
        kind = "refused" if self.pupil is None else "notice"
        text = say(f"err_{refusal.key}", self.lang, **refusal.params)
        self.send({"type": kind, "key": refusal.key, "params": refusal.params, "text": text})

    def bye(self, key: str) -> None:
        """Tell the page why, then close."""
        text = say(f"err_{key}", self.lang)
        # written at once, ahead of the close frame (past any reply waiting its turn)
        with contextlib.suppress(tornado.websocket.WebSocketClosedError):
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
            future = self.write_message(json.dumps(msg, separators=(",", ":")))
        except tornado.websocket.WebSocketClosedError:
            return
        self._inflight = future
        self._inflight_at = self.room._loop.time()
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
        self.room._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if self._closing or self.ws_connection is None:
            return
        if self._inflight is not None or self._queue:
            self._again = True
            return
        p = self.pupil
        if p is None:
            return
        room = self.room
        t = room.table(p.table_id) if p.table_id is not None else None
        session = t.session_of(p) if t is not None else None
        msg: dict[str, Any] = {"type": "update"}
        if session is not self._sent_session or self.fresh:
            msg["state"] = session.state() if session is not None else None
            self._sent_session = session
            self.fresh = False
        elif session is not None:
            changes = session.changes()
            if changes:
                msg["changes"] = changes
        info = room.info(p)
        if info != self._sent_info or "state" in msg:
            msg["class"] = info
            self._sent_info = info
        if len(msg) > 1:
            self._write(msg)

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
        if now - self._last_ping >= PING_S and self._inflight is None:
            self._ping_id += 1
            self._ping_at = {self._ping_id: now}
            self._last_ping = now
            self.send({"type": "ping", "id": self._ping_id})

    def pong(self, ping_id: int) -> None:
        at = self._ping_at.pop(ping_id, None)
        if at is not None and self.pupil is not None:
            self.pupil.rtt_ms = round((self.room._loop.time() - at) * 1000, 1)


# ------------------------------------------------------------------- helpers
def _bot(bots: str) -> str:
    return "human" if bots == "none" else bots


def _read_bundle() -> dict[str, bytes]:
    """The pupil page's bundle, read once (the server reads no file after this)."""
    out = {}
    for name in ("class.js", "class.css"):
        path = _STATIC / name
        if path.exists():
            out[name] = path.read_bytes()
    return out


def _bind(port: int | None, address: str, lan: bool) -> list[socket.socket]:
    if port is not None:
        return tornado.netutil.bind_sockets(port, address, family=socket.AF_INET)
    if lan:  # an easy number to type, if it is free
        with contextlib.suppress(OSError):
            return tornado.netutil.bind_sockets(DEFAULT_PORT, address, family=socket.AF_INET)
    return tornado.netutil.bind_sockets(0, address, family=socket.AF_INET)


def _lan_address() -> str:
    """This machine's address on the school network (the route out; nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        ip = str(s.getsockname()[0])
        if not ip.startswith("127."):
            return ip
    with contextlib.suppress(OSError):
        return socket.gethostbyname(socket.gethostname())
    return "127.0.0.1"


def _qr_svg(url: str) -> str:
    """The address with the code as a QR code (SVG, scales to any size)."""
    import segno

    qr = segno.make(url, error="m")
    svg: str = qr.svg_inline(scale=8, border=2, dark="#000", light="#fff")
    return svg.replace("<svg ", '<svg style="width: 100%; height: 100%" ', 1)
