"""A class of real `Table`s without a server, for the dashboard's tests and gallery.

`LocalClass` has the `Classroom` methods the dashboard calls and gives
`snapshot()` in the format of the class server's contract (CONTRACT.md): real
Tables, pupils as plain records. It stands in for the network only; the tables,
games, views and the dashboard's `Board` are the real ones. Its controls change
its own records the way the contract describes (lock, remove, move, give a seat
to a bot), so a test can see that a click reached the class.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import segno

from mindwidget.table import Table


@dataclass
class Pupil:
    id: str
    name: str
    lang: str = "nl"
    connected: bool = True
    rtt_ms: float | None = 12.0


@dataclass
class LocalTable:
    id: int
    table: Table
    seats: dict[int, Pupil | None] = field(default_factory=dict)
    ready: set[int] = field(default_factory=set)  # seats that pressed Ready


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
            lt.seats[i] = Pupil(f"p{lt.id}{i}", n, self.lang) if n is not None else None
        self.tables.append(lt)
        return lt

    # ---------------------------------------------------------------- snapshot
    def _waiting_for(self, lt: LocalTable) -> list[int]:
        phase = lt.table.phase
        if phase in ("ready", "stopped"):
            return [s for s, p in lt.seats.items() if p is not None and s not in lt.ready]
        return []  # as the server: a running level waits for nobody's Ready

    def _mistake(self, lt: LocalTable) -> dict[str, Any] | None:
        for e in reversed(lt.table.game.events):
            if e.type == "mistake":
                d = e.public_dict()
                return {
                    "card": d["card"],
                    "seat": d["player"],
                    "held": [[x["player"], x["card"]] for x in d["discards"]],
                }
        return None

    def snapshot(self) -> dict[str, Any]:
        tables = []
        for lt in self.tables:
            g = lt.table.game
            seats: list[dict[str, Any]] = []
            for s in range(g.players):
                p = lt.seats.get(s)
                if p is not None:
                    seats.append(
                        {
                            "seat": s,
                            "kind": "person",
                            "pupil": p.id,
                            "name": p.name,
                            "connected": p.connected,
                            "rtt_ms": p.rtt_ms,
                        }
                    )
                elif s in lt.table.seats:
                    seats.append({"seat": s, "kind": "empty"})
                else:
                    seats.append({"seat": s, "kind": "bot", "name": f"Bot {s + 1}"})
            tables.append(
                {
                    "id": lt.id,
                    "phase": lt.table.phase,
                    "level": g.level,
                    "levels": g.levels,
                    "lives": g.lives,
                    "stars": g.stars,
                    "status": g.status,
                    "waiting_for": self._waiting_for(lt),
                    "last_mistake": self._mistake(lt),
                    "seats": seats,
                }
            )
        return {
            "code": self.code,
            "url": self.url,
            "address": self.url.split("/?")[0],
            "qr_svg": segno.make_qr(self.url).svg_inline(scale=4),
            "locked": self.locked,
            "lang": self.lang,
            "size": self.size,
            "same_deal": False,
            "tables": tables,
            "waiting_room": [
                {"pupil": p.id, "name": p.name, "connected": p.connected} for p in self.waiting
            ],
        }

    # ---------------------------------------------------------------- controls
    def _pupil(self, pupil_id: str) -> tuple[LocalTable | None, int | None, Pupil]:
        for lt in self.tables:
            for s, p in lt.seats.items():
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
            lt.seats[s] = None
        else:
            self.waiting.remove(p)
        self.removed.append(pupil_id)

    def move(self, pupil_id: str, table_id: int, seat: int) -> None:
        target = next(t for t in self.tables if t.id == table_id)
        if target.seats.get(seat) is not None:
            raise ValueError(f"seat {seat + 1} of table {table_id} is taken.")
        lt, s, p = self._pupil(pupil_id)
        if lt is not None and s is not None:
            lt.seats[s] = None
        else:
            self.waiting.remove(p)
        target.seats[seat] = p

    def start_table(self, table_id: int) -> None:
        lt = next(t for t in self.tables if t.id == table_id)
        lt.ready = set(lt.seats)

    def give_to_bot(self, table_id: int, seat: int) -> None:
        lt = next(t for t in self.tables if t.id == table_id)
        lt.seats[seat] = None


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
    lt.ready = set(lt.seats)


def play_levels(lt: LocalTable, levels: int) -> None:
    """Clear ``levels`` levels without a mistake and deal the next."""
    for _ in range(levels):
        play_cards(lt, 1000)
        if lt.table.game.status == "cleared":
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
    room.tables[4].seats[1].connected = False  # type: ignore[union-attr]
    room.tables[4].ready.discard(1)
    rtts = [8.0, 14.0, 22.0, 35.0, 61.0, 120.0]
    for k, lt in enumerate(room.tables):
        for s, p in lt.seats.items():
            if p is not None:
                p.rtt_ms = rtts[(k + s) % len(rtts)]
    room.waiting.append(Pupil("w1", next(names), lang))
    return room
