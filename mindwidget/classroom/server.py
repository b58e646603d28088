"""`Classroom`: the class server, on the running event loop (a Jupyter kernel's).

Tornado serves (it ships with every Jupyter kernel):

* ``/``: the join page (code, name, language), then the pupil's table, drawn
  by the notebook widget's own code (``/static/class.js``);
* ``/check``: does the connection work, and how long is a round trip;
* ``/ws``: one WebSocket per pupil page (messages: `inbox`);
* ``/teacher?token=…``: the teacher's dashboard (`teacher`; the token never
  reaches a pupil).

Everything a socket sends is hostile (`links.PupilSocket`): bounded frames
(`inbox.MAX_MESSAGE_BYTES`), checked messages, a rate limit per socket, a cap
on sockets per address, a slower answer to repeated wrong codes, and a socket
whose page does not read what it is sent is closed rather than buffered
without end; connections that never finish are bounded and time out, and only
the class's own Host names are answered (`network`). The server reads its own
bundle (once, at start) and the journal of a class it resumes, and writes only
the class's journal (`keep`).

The class itself (its pupils, tables, rules and the teacher's commands) is a
`room.Room`, which has no Tornado: `Classroom` serves it and delegates to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import logging
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from ..i18n import LANGS, say_in
from ..refusal import Refused
from . import keep, network, pages, roomdata, teacher
from .links import (
    QUEUE,
    Bundle,
    CheckPage,
    JoinPage,
    LoopTimers,
    NoIcon,
    PupilSocket,
    Sockets,
    lan_address,
    qr_svg,
    read_bundle,
)
from .network import DEFAULT_PORT, MAX_SOCKETS
from .options import BOTS, PER_ADDRESS, ROOM_DEFAULTS, TABLE_SIZES, ClassOptions, Unpack, check
from .room import Room
from .tables import ClassTable, Pupil

__all__ = [
    "BOTS",
    "DEFAULT_PORT",
    "MAX_SOCKETS",
    "PER_ADDRESS",
    "QUEUE",
    "TABLE_SIZES",
    "Classroom",
    "PupilSocket",
]

log = logging.getLogger("mindwidget.classroom")


T = TypeVar("T")
P = ParamSpec("P")


class _OfRoom(Generic[T]):
    """The room's attribute of the same name, read-only: the class shows it as its own."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"the room's {self.name} (`Room`)"

    @overload
    def __get__(self, server: None, owner: type) -> _OfRoom[T]: ...
    @overload
    def __get__(self, server: Classroom, owner: type | None = None) -> T: ...
    def __get__(self, server: Classroom | None, owner: type | None = None) -> T | _OfRoom[T]:
        if server is None:
            return self  # on the class itself (help, an editor's completion)
        return getattr(server.room, self.name)  # type: ignore[no-any-return]


def _to_room(method: Callable[Concatenate[Room, P], T]) -> Callable[Concatenate[Classroom, P], T]:
    """The room's method of the same name (its signature and docstring), on the class."""
    name = method.__name__

    @functools.wraps(method)
    def call(self: Classroom, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return getattr(self.room, name)(*args, **kwargs)  # type: ignore[no-any-return]

    return call


class Classroom:
    """A class playing The Mind together: pupils' browsers at tables of ``size``.

    >>> c = Classroom(lan=True, lang="nl")   # doctest: +SKIP
    >>> c                                    # address, code, QR code, tables

    Returns at once and serves on the running event loop (a notebook's kernel);
    `stop` closes it. Run again on the same loop (a cell run twice): the running
    class; with another ``port``, another class beside it. The class's state and
    rules are its `room` (`room.Room`). Every option is a keyword
    (`options.ClassOptions`):

    * ``size``: seats at each table, 2 to 4 (default 3);
    * ``bots``: who fills the empty seats of a table the teacher starts: "human"
      (default), "adaptive" or "scalar"; "none": the pupils close up;
    * ``tempo``: the bots' tempo, "slow", "people" (default), "quick" or a factor;
    * ``lang``: the class's language, "en" (default), "nl" or "de";
    * ``same_deal``: every table gets the same cards; ``seed``: the deals' seed
      (the same seed, the same deals);
    * ``grace``: seconds a pupil may be away before their table stops (15);
    * ``data``: the folder of the class's journal (default: the user's data
      folder; False: no journal); ``resume``: True brings the latest class there
      back, a code that class (`keep`);
    * ``lan``: serve the school network too (default: 127.0.0.1 only); ``port``:
      the port (default 8765; 0: any free one); ``open_browser``: open the
      teacher's page;
    * ``per_address``: sockets one address may hold; ``rate``: each socket's
      messages per second and burst;
    * behind a school's reverse proxy (docs/school-it.md): ``host``, the
      interface to listen on (an IPv4 address); ``public_url``, the address the
      pupils use (``https://mind.school.example``: the pages, QR code and Origin
      check use it); ``trust_proxy``, the proxy's own address, the only peer
      whose ``X-Forwarded-For`` names the pupil. A ``Host`` that is a name other
      than the public URL's host (or localhost) is refused (`network.Hosts`).
    """

    def __new__(cls, **options: Unpack[ClassOptions]) -> Classroom:
        running = keep.rerun(options.get("resume"), options.get("port"))
        return running if isinstance(running, cls) else super().__new__(cls)

    def __init__(self, **options: Unpack[ClassOptions]) -> None:
        if "room" in self.__dict__:
            return  # the class already running (`__new__`)
        o = check(options)
        lan, host = o["lan"], o["host"]
        public = network.public_origin(o["public_url"]) if o["public_url"] is not None else None
        self.trusted = network.trusted_addresses(o["trust_proxy"])
        network.interface(host, lan)  # checked before anything starts
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                "Classroom serves on a running event loop: create it in a notebook "
                "(a Jupyter kernel) or inside asyncio.run(); in a terminal use `mindwidget class`."
            ) from None
        self._keeper = keep.Keeper(o["data"], o["resume"])
        given = {name: o[name] for name in ROOM_DEFAULTS}
        self.room = Room(LoopTimers(self._loop), **self._keeper.options(given))
        port, lan = self._keeper.port(o["port"]), self._keeper.lan(lan)
        listen = network.interface(host, lan)  # (a resumed class: its own lan)
        self.per_address: int = o["per_address"]
        self.rate: tuple[float, float] = o["rate"]
        self._bundle = read_bundle("class.js", "class.css")
        self._desk = teacher.Desk(self.room)
        self._closed = False

        routes = [
            *teacher.teacher_routes(self.room, self.rate),  # the dashboard: teacher.py
            (r"/", JoinPage, {"server": self}),
            (r"/check", CheckPage, {"server": self}),
            (r"/ws", PupilSocket, {"server": self}),
            (r"/static/(class\.js|class\.css)", Bundle, {"bundle": self._bundle}),
            (r"/favicon\.ico", NoIcon),
        ]
        app, self._server, self.max_sockets = network.serve(routes, self.trusted)
        most = min(MAX_SOCKETS, self.max_sockets)
        self.sockets = Sockets(self.room, self._loop, self.per_address, most)
        self.lan = bool(lan)  # True: served on the school network too (`--lan`)
        try:
            sockets = network.bind(port, listen, lan or listen != "127.0.0.1")
        except OSError as exc:  # e.g. a class served there still
            text = (  # in the class's language (a notebook shows it; the command its own)
                say_in("cli", "port_in_use_here", self.room.lang, port=port)
                if exc.errno == errno.EADDRINUSE
                else f"port {port}: {exc.strerror}; port=N (--port N) serves another."
            )
            raise OSError(exc.errno, text) from None  # the errno kept
        self._server.add_sockets(sockets)
        self.port = int(sockets[0].getsockname()[1])
        self._keeper.attach(self.room, self.port, lan)
        keep.serving(self)
        lan_ip = lan_address() if listen in ("0.0.0.0", "::") else listen
        app.hosts = network.Hosts(public)
        self.host = lan_ip
        self.public_origin = public
        self.address = self.room.address = public or f"http://{self.host}:{self.port}"
        self.url = self.room.url = f"{self.address}/?code={self.code}"
        self.teacher_url = f"{self.address}/teacher?token={self.teacher_token}"
        self.room.qr_svg = qr_svg(self.url)
        self._house = self._loop.call_later(1.0, self._housekeeping)
        if o["open_browser"]:
            with contextlib.suppress(Exception):
                webbrowser.open(self.teacher_url)

    # the room's, shown as the class's own (read-only)
    code: _OfRoom[str] = _OfRoom()  # the class code a pupil types to join
    teacher_token: _OfRoom[str] = _OfRoom()  # the secret in the teacher's page's address
    locked: _OfRoom[bool] = _OfRoom()  # True while no new pupil may join
    tables: _OfRoom[list[ClassTable]] = _OfRoom()  # the class's tables, numbered from 1
    pupils: _OfRoom[dict[str, Pupil]] = _OfRoom()  # the class's pupils by id
    size: _OfRoom[int] = _OfRoom()
    bots: _OfRoom[str] = _OfRoom()
    tempo: _OfRoom[float | str] = _OfRoom()
    lang: _OfRoom[str] = _OfRoom()
    same_deal: _OfRoom[bool] = _OfRoom()
    seed: _OfRoom[int] = _OfRoom()
    grace: _OfRoom[float] = _OfRoom()
    ended: _OfRoom[bool] = _OfRoom()  # the teacher has ended the lesson (`end`)
    # the room's methods (their docstrings are the room's): reading the class, the
    # lesson's questions, and the teacher's commands
    snapshot = _to_room(Room.snapshot)
    table = _to_room(Room.table)
    pupil = _to_room(Room.pupil)
    info = _to_room(Room.info)
    ask = _to_room(Room.ask)
    answers = _to_room(Room.answers)
    start_table = _to_room(Room.start_table)
    start_all = _to_room(Room.start_all)
    pause_all = _to_room(Room.pause_all)
    lock = _to_room(Room.lock)
    remove = _to_room(Room.remove)
    move = _to_room(Room.move)
    give_to_bot = _to_room(Room.give_to_bot)
    end = _to_room(Room.end)

    # ---------------------------------------------------------------- reading
    def __repr__(self) -> str:
        state = "stopped" if self._closed else f"{len(self.pupils)} pupils"
        return f"Classroom({self.address}, code {self.code}, {state})"

    def describe(self, lang: str | None = None) -> str:
        """What the terminal shows, in ``lang`` (the class's language by default): the
        address, the code, a QR code, the teacher's page; on 127.0.0.1, that only this
        computer reaches it and that ``--lan`` serves the school network."""
        import io

        import segno

        lang = lang if lang in LANGS else self.lang
        out = io.StringIO()
        segno.make(self.url, error="m").terminal(out=out, compact=True)
        labels = [say_in("cli", k, lang) for k in ("pupils_go_to", "class_code", "teacher_page")]
        width = max(len(label) for label in labels) + 1
        values = (self.address, self.code, self.teacher_url)
        lines = [f"{label:<{width}} {value}" for label, value in zip(labels, values, strict=True)]
        if self.address == f"http://127.0.0.1:{self.port}":  # no LAN, no proxy's public URL
            lines.append(say_in("cli", "local_only", lang, address=self.address))
        return f"{out.getvalue()}\n" + "\n".join(lines) + "\n" + say_in("cli", "ctrl_c", lang)

    def _repr_html_(self) -> str:
        return pages.teacher_html(self.snapshot(), self.lang)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self._desk.mimebundle(repr(self), **kwargs)

    @property
    def dashboard(self) -> Any:
        """The class's dashboard widget (made on first use; displaying the class shows it)."""
        return self._desk.dashboard

    # ------------------------------------------------- the teacher (`Room`)
    def plays(self) -> Any:
        """One row per card played at any table of the class (`mindwidget.classdata.plays`):
        table, level, seat (from 1), person or bot, nickname, card, gap, wait, mistake,
        round trip."""
        return roomdata.plays(self.room)

    def results(self) -> Any:
        """One row per table and level: cleared, mistakes, stars used, seconds."""
        return roomdata.results(self.room)

    def stops(self) -> Any:
        """One row per stop at any table, with why: a pupil, a lost connection, the
        teacher, a change of seat (`mindwidget.classdata.stops`)."""
        return roomdata.stops(self.room)

    def games(self) -> Any:
        """A copy of each started table's game, by table number."""
        return roomdata.games(self.room)

    def clocks(self) -> Any:
        """Each pupil's clock, fitted to their plays (`mindwidget.classmodel.clocks`): a
        dict of bots by nickname that `simulate(bots=[...])` plays, "bots that play
        like our class"; ``clocks().table()`` shows each fit and how many plays it
        rests on (few plays: shrunk toward the class, and marked small)."""
        from ..classmodel import clocks

        return clocks(self.plays())

    def history(self, codes: list[str] | None = None) -> Any:
        """This class's lessons compared, one row per lesson (a class resumed on another
        day is another lesson), with the lessons of the classes ``codes`` in the same
        data folder: spread, mistakes per level, levels reached
        (`mindwidget.classroom.history.history`)."""
        from .history import history

        folder = self._keeper.folder
        if folder is None:
            raise ValueError("this class keeps no journal (data=False): it has no history.")
        return history([self.code, *(codes or [])], data=folder)

    def save(self, path: str | Path) -> Path:
        """Write the class's games to ``path`` (JSON: `Game.from_json` replays each
        table's ``game``; `mindwidget.classdata.load` reads it back). Nicknames only.
        The journal keeps more (`keep`); this is the class's data to study."""
        return roomdata.save(self.room, path)

    def to_csv(self, path: str | Path, lang: str | None = None) -> Path:
        """Write the class's plays to ``path`` as CSV, one row per play, that a
        spreadsheet opens in ``lang`` (default: the class's): in Dutch ";" between the
        fields, decimal commas, Dutch column names, the player counted from 1, UTF-8
        with a byte-order mark (which Excel needs; `mindwidget.classdata.to_csv`)."""
        return roomdata.to_csv(self.room, path, lang)

    def clock(self, pupil: str | None = None, lang: str | None = None) -> Any:
        """A pupil's clock (``pupil``: their id or nickname; None: the class's): their
        waits against the gap at every table, their spread and the class's median
        curve, with the number of plays each rests on (a matplotlib figure; "Jouw
        klok" on the pupil's page shows the same plays)."""
        return roomdata.clock(self.room, pupil, lang)

    @staticmethod
    def forget(code: str, data: str | Path | None = None) -> Path:
        """Delete class ``code``'s journal (in ``data``, default the user's data folder)."""
        return keep.forget(code, data)

    def stop(self) -> None:
        """Close the server (pages are told the class ended)."""
        if self._closed:
            return
        self.end()
        self._keeper.stop(self.room)
        self._desk.close()
        self._closed = True
        self._house.cancel()
        self._server.stop()
        self.sockets.close()

    # ------------------------------------------------------------- messages
    def handle(self, sock: PupilSocket, msg: dict[str, Any]) -> None:
        """One checked message from a pupil's page: the connection's own (ping, pong)
        here, the rest to the room."""
        kind = msg["type"]
        if kind == "ping":
            sock.send({"type": "pong", "id": msg["id"]})
            return
        p = sock.pupil
        joined = p is not None and p.link is sock
        if joined and p is not None:
            self.room.alive(p, self._loop.time())
        if kind == "pong":
            if not joined:
                raise Refused("not_joined", words="class")
            sock.pong(msg["id"])
            return
        self.room.receive(sock, msg)

    def client_address(self, request: Any) -> str:
        """Who a request is from (X-Forwarded-For only from a trusted proxy: `network`)."""
        return network.client_address(request, self.trusted)

    def _housekeeping(self) -> None:
        """Once a second: pings, pages that stopped reading, sockets that never joined,
        pupils away longer than the grace period."""
        now = self._loop.time()
        try:
            self.sockets.check(now)
            self.room.check(now)
        except Exception:
            log.exception("housekeeping failed")
        if not self._closed:
            self._house = self._loop.call_later(1.0, self._housekeeping)
