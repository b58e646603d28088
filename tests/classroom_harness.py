"""The class server for tests, benchmarks and the gallery, in one place.

* `Server` starts a `Classroom` on a free loopback port on a loop in a
  background thread (the way a Jupyter kernel's loop runs it) and runs calls on
  that loop (`call`), so a test reads and changes the class only where the
  server does. `Client` is one pupil's page: a socket, a thread reading it, and
  the page's model (the state and changes applied as class.js applies them).
  Every wait is on a condition, never a sleep.
* `LocalClass`: a class of real `Table`s without a server, for the dashboard's
  tests and gallery. It has the `Classroom` methods the dashboard calls and
  gives `snapshot()` in the format of the class server's contract
  (`mindwidget.wire.Snapshot`), made by the server's own `table_snapshot`: real Tables,
  pupils as plain records. It stands in for the network only. Its controls
  change its own records the way the contract describes (lock, remove, move,
  give a seat to a bot), so a test can see that a click reached the class.
  `gallery_class` is a class in every state a teacher meets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import segno
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from mindwidget.classroom import Classroom
from mindwidget.classroom.snapshot import table_snapshot, waiting_row
from mindwidget.table import Table

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

    def __init__(
        self,
        server: Server,
        lang: str = "en",
        origin: str | None = None,
        url: str | None = None,
        *,
        headers: dict[str, str] | None = None,
    ) -> None:
        """``url``: the socket's address when not the server's own (e.g. through
        `tests.netproxy.Proxy`: ``ws://127.0.0.1:{proxy.port}/ws``, or nginx);
        ``headers``: sent with the handshake (X-Forwarded-For: a page at another
        address, when a proxy is trusted)."""
        self.server = server
        self.ws: ClientConnection = connect(
            f"{url or server.ws_url}?lang={lang}",
            origin=origin,  # type: ignore[arg-type]
            additional_headers=headers or {},
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


def all_phase(clients: list[Client], *phases: str) -> None:
    """Wait until every client's table shows one of ``phases``."""
    for c in clients:
        c.wait(lambda x: x.phase in phases, f"phase {phases} for {c.info.get('name')}")


def ready_all(clients: list[Client]) -> None:
    """Every client presses Ready; wait until the level plays."""
    for c in clients:
        c.send({"type": "ready"})
    all_phase(clients, "play")


# ------------------------------------------------------- a class without a server
@dataclass
class Pupil:
    id: str
    name: str
    lang: str = "nl"
    connected: bool = True
    rtt_ms: float | None = 12.0
    gone: bool = False


@dataclass
class LocalTable:
    id: int
    table: Table
    chairs: dict[int, Pupil | None] = field(default_factory=dict)
    ready: set[int] = field(default_factory=set)  # seats that pressed Ready
    bot_seats: frozenset[int] = frozenset()  # a bot is in every seat the table has no person for
    games: int = 1

    @property
    def size(self) -> int:
        return self.table.game.players

    @property
    def phase(self) -> str:
        return self.table.phase

    def waiting_for(self) -> list[int]:
        if self.phase in ("ready", "stopped"):
            return [s for s, p in self.chairs.items() if p is not None and s not in self.ready]
        return []  # as the server: a running level waits for nobody's Ready


class LocalClass:
    def __init__(self, *, code: str = "4821", lang: str = "nl", size: int = 3) -> None:
        self.code = code
        self.lang = lang
        self.size = size
        self.url = f"http://192.168.1.20:8765/?code={code}"
        self.locked = False
        self.ended = False
        self.paused = False
        self.tables: list[LocalTable] = []
        self.waiting: list[Pupil] = []
        self.removed: list[str] = []

    def add_table(
        self, names: list[str | None], *, seed: int = 1, bots: str = "human"
    ) -> LocalTable:
        """A table with a pupil in each named seat (None: a bot)."""
        seats = tuple(i for i, n in enumerate(names) if n is not None)
        table = Table(players=len(names), seats=seats, bots=bots, seed=seed, mode="step")
        lt = LocalTable(len(self.tables) + 1, table)
        for i, n in enumerate(names):
            lt.chairs[i] = Pupil(f"p{lt.id}{i}", n, self.lang) if n is not None else None
        self.tables.append(lt)
        return lt

    # ---------------------------------------------------------------- snapshot
    def snapshot(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "url": self.url,
            "address": self.url.split("/?")[0],
            "qr_svg": segno.make_qr(self.url).svg_inline(scale=4),
            "locked": self.locked,
            "lang": self.lang,
            "size": self.size,
            "same_deal": False,
            "tables": [table_snapshot(lt) for lt in self.tables],  # the server's own
            "waiting_room": [waiting_row(p) for p in self.waiting],
        }

    # ---------------------------------------------------------------- controls
    def _pupil(self, pupil_id: str) -> tuple[LocalTable | None, int | None, Pupil]:
        for lt in self.tables:
            for s, p in lt.chairs.items():
                if p is not None and p.id == pupil_id:
                    return lt, s, p
        for p in self.waiting:
            if p.id == pupil_id:
                return None, None, p
        raise ValueError(f"no pupil {pupil_id!r} in this class.")

    def start_all(self) -> None:
        self.paused = False

    def pause_all(self) -> None:
        self.paused = True

    def end(self) -> None:
        self.ended = True

    def lock(self, locked: bool = True) -> None:
        self.locked = locked

    def remove(self, pupil_id: str) -> None:
        lt, s, p = self._pupil(pupil_id)
        if lt is not None and s is not None:
            lt.chairs[s] = None
        else:
            self.waiting.remove(p)
        self.removed.append(pupil_id)

    def move(self, pupil_id: str, table_id: int, seat: int) -> None:
        target = next(t for t in self.tables if t.id == table_id)
        if target.chairs.get(seat) is not None:
            raise ValueError(f"seat {seat + 1} of table {table_id} is taken.")
        lt, s, p = self._pupil(pupil_id)
        if lt is not None and s is not None:
            lt.chairs[s] = None
        else:
            self.waiting.remove(p)
        target.chairs[seat] = p

    def start_table(self, table_id: int) -> None:
        lt = next(t for t in self.tables if t.id == table_id)
        lt.ready = set(lt.chairs)

    def give_to_bot(self, table_id: int, seat: int) -> None:
        lt = next(t for t in self.tables if t.id == table_id)
        lt.chairs[seat] = None


NAMES = [
    "Anna",
    "Bas",
    "Cem",
    "Daan",
    "Eva",
    "Finn",
    "Gül",
    "Hanna",
    "Ilias",
    "Jonas",
    "Kim",
    "Lotte",
    "Mo",
    "Noor",
    "Olaf",
    "Pia",
    "Quinn",
    "Ruben",
    "Sara",
    "Tim",
    "Uma",
    "Vera",
    "Wout",
    "Xenia",
    "Yusuf",
    "Zoë",
]


def play_cards(lt: LocalTable, plays: int, *, mistake: bool = False) -> None:
    """Play ``plays`` cards at a table in step mode, each a second after the
    latest event: the pupil holding the lowest card plays it (with ``mistake``,
    the first play is a pupil's card that is not the lowest); bots at their
    planned times."""
    table = lt.table
    done = 0
    while done < plays and table.game.status == "playing":
        if table.phase in ("ready", "stopped"):
            table.ready()
            continue
        hands = table.game.hands
        holders = [s for s in range(len(hands)) if hands[s]]
        lowest = min(holders, key=lambda s: hands[s][0])
        people = [s for s in table.seats if hands[s]]
        if mistake and people and any(s != lowest for s in people):
            table.play(next(s for s in people if s != lowest), t=table.now + 1.0)
            mistake = False
        elif lowest in table.seats:
            table.play(lowest, t=table.now + 1.0)
        else:
            table.wait()
        done += 1
    lt.ready = set(lt.chairs)


def play_levels(lt: LocalTable, levels: int) -> None:
    """Clear ``levels`` levels without a mistake and deal the next."""
    for _ in range(levels):
        play_cards(lt, 1000)
        if lt.table.phase == "cleared":  # the table's word, whatever the game calls it
            lt.table.next_level()


def gallery_class(lang: str = "nl", tables: int = 10) -> LocalClass:
    """A class of ``tables`` tables in every state a teacher meets: playing,
    a mistake, a cleared level, a pupil offline, a table of bots only, a pupil
    waiting for a seat."""
    room = LocalClass(lang=lang)
    names = iter(NAMES)
    for i in range(tables):
        if i == 3:
            seats: list[str | None] = [None, None, None]
        elif i % 4 == 2:
            seats = [next(names), next(names), None]
        else:
            seats = [next(names), next(names), next(names)]
        lt = room.add_table(seats, seed=10 + i)
        play_levels(lt, (i * 5) % 4 + 1)
        play_cards(lt, (i * 3) % 4 + 1, mistake=i % 3 == 1)
    offline = room.tables[min(4, tables - 1)]  # a pupil offline (the fifth table, or the last)
    offline.chairs[1].connected = False  # type: ignore[union-attr]
    offline.ready.discard(1)
    rtts = [8.0, 14.0, 22.0, 35.0, 61.0, 120.0]
    for k, lt in enumerate(room.tables):
        for s, p in lt.chairs.items():
            if p is not None:
                p.rtt_ms = rtts[(k + s) % len(rtts)]
    room.waiting.append(Pupil("w1", next(names), lang))
    return room
