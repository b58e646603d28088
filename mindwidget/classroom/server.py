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
import logging
import webbrowser
from collections import Counter
from pathlib import Path
from typing import Any

from ..checks import whole
from ..i18n import LANGS, say_in
from ..refusal import Refused
from . import keep, network, pages, teacher
from .links import (
    QUEUE,
    Bundle,
    CheckPage,
    JoinPage,
    LoopTimers,
    NoIcon,
    PupilSocket,
    lan_address,
    qr_svg,
    read_bundle,
)
from .network import DEFAULT_PORT, MAX_SOCKETS, PER_ADDRESS
from .questions import Question
from .room import BOTS, GRACE_S, TABLE_SIZES, Room
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


def _of_room(name: str, doc: str) -> Any:
    return property(lambda self: getattr(self.room, name), doc=doc)


class Classroom:
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
    and burst. The class's state and rules are its `room` (`room.Room`).

    Every change is kept in a journal in ``data`` (default: the user's data folder;
    False: none); ``resume=True`` (or a code) brings the latest class there back
    (`keep`). Run again on the same loop (a cell run twice): the running class;
    with another ``port`` (0: any free one), another class beside it.

    Behind a school's reverse proxy (docs/school-it.md): ``host`` is the
    interface to listen on (an IPv4 address); ``public_url`` the address the
    pupils use (``https://mind.school.example``: the pages, QR code and Origin
    check use it); ``trust_proxy`` the proxy's own address, the only peer whose
    ``X-Forwarded-For`` names the pupil. A ``Host`` that is a name other than the
    public URL's host (or localhost) is refused (`network.Hosts`: DNS rebinding).
    """

    def __new__(cls, **options: Any) -> Classroom:
        running = keep.rerun(options.get("resume"), options.get("port"))
        return running if isinstance(running, cls) else super().__new__(cls)

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
        per_address: int = PER_ADDRESS,
        rate: tuple[float, float] = (20.0, 40.0),
        host: str | None = None,
        public_url: str | None = None,
        trust_proxy: str | list[str] | None = None,
        data: str | Path | bool | None = None,
        resume: bool | str = False,
    ) -> None:
        if "room" in self.__dict__:
            return  # the class already running (`__new__`)
        if port is not None:
            port = whole("port", port, 0, 65535, none=True)
        public = network.public_origin(public_url) if public_url is not None else None
        self.trusted = network.trusted_addresses(trust_proxy)
        network.interface(host, lan)  # checked before anything starts
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                "Classroom serves on a running event loop: create it in a notebook "
                "(a Jupyter kernel) or inside asyncio.run(); in a terminal use `mindwidget class`."
            ) from None
        self._keeper = keep.Keeper(data, resume)
        options = dict(size=size, bots=bots, tempo=tempo, lang=lang, same_deal=same_deal)
        options.update(seed=seed, grace=grace)
        self.room = Room(LoopTimers(self._loop), **self._keeper.options(options))
        port, lan = self._keeper.port(port), self._keeper.lan(lan)
        listen = network.interface(host, lan)  # (a resumed class: its own lan)
        self.per_address = int(per_address)
        self.rate = (float(rate[0]), float(rate[1]))
        self._sockets: set[PupilSocket] = set()
        self._per_address: Counter[str] = Counter()
        self._turn = False  # the room's before_send is set for this loop turn
        self._bundle = read_bundle("class.js", "class.css")
        self._desk = teacher.Desk(self.room)
        self._closed = False

        routes = [
            *teacher.teacher_routes(self.room, self.rate),  # the dashboard: teacher.py
            (r"/", JoinPage, {"room": self}),
            (r"/check", CheckPage, {"room": self}),
            (r"/ws", PupilSocket, {"room": self}),
            (r"/static/(class\.js|class\.css)", Bundle, {"room": self}),
            (r"/favicon\.ico", NoIcon, {"room": self}),
        ]
        app, self._server, self.max_sockets = network.serve(routes, self.trusted)
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
        if open_browser:
            with contextlib.suppress(Exception):
                webbrowser.open(self.teacher_url)

    code = _of_room("code", "The class code a pupil types to join.")
    teacher_token = _of_room("teacher_token", "The secret in the teacher's page's address.")
    locked = _of_room("locked", "True while no new pupil may join.")
    tables = _of_room("tables", "The class's tables (`ClassTable`), numbered from 1.")
    pupils = _of_room("pupils", "The class's pupils (`Pupil`) by id.")
    size = _of_room("size", "Seats at each table.")
    bots = _of_room("bots", "Who fills an empty seat.")
    tempo = _of_room("tempo", "The bots' tempo.")
    lang = _of_room("lang", "The class's language.")
    same_deal = _of_room("same_deal", "Whether every table gets the same cards.")
    seed = _of_room("seed", "The seed of every table's deals.")
    grace = _of_room("grace", "Seconds a pupil may be away before their table stops.")
    ended = _of_room("ended", "Whether the teacher has ended the lesson (`end`).")

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

    def snapshot(self) -> dict[str, Any]:
        """What the teacher's dashboard shows, JSON-ready (`Room.snapshot`)."""
        return self.room.snapshot()

    def table(self, table_id: int) -> ClassTable:
        """The class's table ``table_id`` (from 1)."""
        return self.room.table(table_id)

    def pupil(self, pupil_id: str) -> Pupil:
        return self.room.pupil(pupil_id)

    def info(self, p: Pupil) -> dict[str, Any]:
        """The class part of a pupil's update (`Room.info`)."""
        return self.room.info(p)

    # ------------------------------------------------- the teacher (`Room`)
    def plays(self) -> Any:
        """One row per card played at any table of the class (`mindwidget.classdata.plays`):
        table, level, seat (from 1), person or bot, nickname, card, gap, wait, mistake,
        round trip."""
        return teacher.plays(self.room)

    def results(self) -> Any:
        """One row per table and level: cleared, mistakes, stars used, seconds."""
        return teacher.results(self.room)

    def stops(self) -> Any:
        """One row per stop at any table, with why: a pupil, a lost connection, the
        teacher, a change of seat (`mindwidget.classdata.stops`)."""
        return teacher.stops(self.room)

    def games(self) -> Any:
        """A copy of each started table's game, by table number."""
        return teacher.games(self.room)

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

    def ask(self, question: Any, choices: Any, answer: int | None = None) -> Question:
        """Put a question to every pupil's page; the `Question` (display it in a cell:
        how many have answered, live; `Question.reveal`, `close`, `answers`, `counts`).

        ``question`` and each of ``choices`` (2 to 12) are a text, or a dict
        ``{lang: text}`` so that every pupil reads it in their own language;
        ``answer`` is the index of the right choice, or None for a question of
        opinion. A question still open is closed first. See docs/class-questions.md.
        """
        return self.room.ask(question, choices, answer)

    def answers(self) -> Any:
        """Every answer to every question of the lesson (a DataFrame: question, text,
        pupil, name, table, choice, choice_text, right, seconds); kept in the journal,
        so it survives a resume."""
        return self.room.answers()

    def save(self, path: str | Path) -> Path:
        """Write the class's games to ``path`` (JSON: `Game.from_json` replays each
        table's ``game``; `mindwidget.classdata.load` reads it back). Nicknames only.
        The journal keeps more (`keep`); this is the class's data to study."""
        return teacher.save(self.room, path)

    def to_csv(self, path: str | Path, lang: str | None = None) -> Path:
        """Write the class's plays to ``path`` as CSV, one row per play, that a
        spreadsheet opens in ``lang`` (default: the class's): in Dutch ";" between the
        fields, decimal commas, Dutch column names, the player counted from 1, UTF-8
        with a byte-order mark (which Excel needs; `mindwidget.classdata.to_csv`)."""
        return teacher.to_csv(self.room, path, lang)

    def clock(self, pupil: str | None = None, lang: str | None = None) -> Any:
        """A pupil's clock (``pupil``: their id or nickname; None: the class's): their
        waits against the gap at every table, their spread and the class's median
        curve, with the number of plays each rests on (a matplotlib figure; "Jouw
        klok" on the pupil's page shows the same plays)."""
        return teacher.clock(self.room, pupil, lang)

    @staticmethod
    def forget(code: str, data: str | Path | None = None) -> Path:
        """Delete class ``code``'s journal (in ``data``, default the user's data folder)."""
        return keep.forget(code, data)

    def start_table(self, table_id: int) -> None:
        """Start a table now, with bots in its empty seats (or fewer players: bots='none')."""
        self.room.start_table(table_id)

    def start_all(self) -> None:
        """Start every table that has a pupil (bots fill the empty seats)."""
        self.room.start_all()

    def pause_all(self) -> None:
        """Stop every running level (hands on the table; each pupil presses Ready to go on)."""
        self.room.pause_all()

    def lock(self, locked: bool = True) -> None:
        """No new pupils join while locked (a pupil with a seat token still gets back in)."""
        self.room.lock(locked)

    def remove(self, pupil_id: str) -> None:
        """Take a pupil out of the class (their page is told; their seat is left empty)."""
        self.room.remove(pupil_id)

    def move(self, pupil_id: str, table_id: int | None, seat: int | None = None) -> None:
        """Seat a pupil at ``table_id`` or in the waiting room (None): `Room.move`."""
        self.room.move(pupil_id, table_id, seat)

    def give_to_bot(self, table_id: int, seat: int) -> None:
        """A bot takes ``seat`` (from 0) of a table; its pupil goes to the waiting room."""
        self.room.give_to_bot(table_id, seat)

    def end(self) -> None:
        """The lesson is over: every page is told, and every table stops its clock."""
        self.room.end()

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
        for s in list(self._sockets):
            s.close()

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

    # -------------------------------------------------------------- sockets
    def opened(self, sock: PupilSocket) -> bool:
        """A new socket: False (and told why) when its address holds too many."""
        if self._closed:
            sock.bye("class_ended")
            return False
        full = len(self._sockets) >= min(MAX_SOCKETS, self.max_sockets)
        if full or self._per_address[sock.address] >= self.per_address:
            sock.bye("too_many")
            return False
        self._sockets.add(sock)
        self._per_address[sock.address] += 1
        return True

    def client_address(self, request: Any) -> str:
        """Who a request is from (X-Forwarded-For only from a trusted proxy: `network`)."""
        return network.client_address(request, self.trusted)

    def closed(self, sock: PupilSocket) -> None:
        if sock in self._sockets:
            self._sockets.discard(sock)
            self._per_address[sock.address] -= 1
            if self._per_address[sock.address] <= 0:
                del self._per_address[sock.address]
        self.room.left(sock, self._loop.time())

    def wants_update(self, sock: PupilSocket) -> None:
        """``sock`` has news: its update goes out later in this loop turn, after the
        room's `before_send` (the loop runs its callbacks in the order they were set)."""
        if not self._turn:
            self._turn = True
            self._loop.call_soon(self._before_send)
        self._loop.call_soon(sock.send_update)

    def _before_send(self) -> None:
        self._turn = False
        try:
            self.room.before_send()  # the journal's seam: commit, then the pages hear
        except Exception:
            log.exception("before_send failed")

    def _housekeeping(self) -> None:
        """Once a second: pings, pages that stopped reading, sockets that never joined,
        pupils away longer than the grace period."""
        now = self._loop.time()
        try:
            for sock in list(self._sockets):
                sock.check(now)
            self.room.check(now)
        except Exception:
            log.exception("housekeeping failed")
        if not self._closed:
            self._house = self._loop.call_later(1.0, self._housekeeping)
