"""The teacher's snapshot of the class: each table and the waiting room as the
dashboard shows them (`wire.TableSnapshot`, `wire.WaitingRow`).

`Room.snapshot` builds it from the class's tables (`tables.ClassTable`) and pupils
(`tables.Pupil`); it reads them through the protocols `Seating` and `Seated`, so a
test's stand-in table (`tests/classroom_harness.py`) is shown the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Protocol

from ..i18n import translate
from ..table import Table

__all__ = ["Seated", "Seating", "table_snapshot", "waiting_row"]


class Seated(Protocol):
    """A pupil as the teacher's view reads one (`Pupil`, or a test's stand-in)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def connected(self) -> bool: ...
    @property
    def gone(self) -> bool: ...
    @property
    def rtt_ms(self) -> float | None: ...


class Seating(Protocol):
    """A class table as the teacher's view reads one (`ClassTable`, or a test's stand-in)."""

    @property
    def id(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def chairs(self) -> Mapping[int, Seated | None]: ...
    @property
    def bot_seats(self) -> Collection[int]: ...
    @property
    def table(self) -> Table | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def games(self) -> int: ...
    def waiting_for(self) -> list[int]: ...


def waiting_row(p: Seated) -> dict[str, Any]:
    """A pupil in the waiting room as the teacher's dashboard shows them (`wire.WaitingRow`)."""
    return {"pupil": p.id, "name": p.name, "connected": p.connected and not p.gone}


def table_snapshot(t: Seating, lang: str = "en") -> dict[str, Any]:
    """A table as the teacher's dashboard shows it (`wire.TableSnapshot`); a bot is named
    in the class's language ``lang``."""
    seats: list[dict[str, Any]] = []
    for s in range(t.size):
        p = t.chairs.get(s)
        if p is not None:
            seats.append(
                {
                    "seat": s,
                    "kind": "person",
                    "pupil": p.id,
                    "name": p.name,
                    "connected": p.connected and not p.gone,
                    "rtt_ms": p.rtt_ms,
                }
            )
        elif s in t.bot_seats or (t.table is not None and s not in t.table.seats):
            seats.append({"seat": s, "kind": "bot", "name": translate("bot", lang, player=s)})
        else:
            seats.append({"seat": s, "kind": "empty"})
    out: dict[str, Any] = {
        "id": t.id,
        "phase": t.phase,
        "level": 0,
        "levels": 0,
        "lives": 0,
        "stars": 0,
        "status": "waiting",
        # the game is won or lost (status "over"); a level is cleared (the next one waits)
        "over": False,
        "cleared": False,
        "waiting_for": t.waiting_for(),
        "last_mistake": None,
        "games": t.games,
        "seats": seats,
        "why": None,
        "offer_bot": [],
    }
    if t.table is not None:
        game = t.table.game
        phase = t.table.phase
        out.update(
            level=game.level,
            levels=game.levels,
            lives=game.lives,
            stars=game.stars,
            status="playing"
            if phase in ("play", "vote")
            else "over"
            if phase in ("won", "lost")
            else "stopped",
            over=phase in ("won", "lost"),
            cleared=phase == "cleared",
        )
        index = t.table.index
        i = index.last.get("mistake")
        if i is not None:
            e = index.events[i].to_dict()
            # who held each seat then (a seat may have changed hands since)
            at = len(game.events) - len(index.events) + i
            holder = getattr(t, "holder_at", None)

            def then(seat: int) -> str | None:
                found = holder(seat, at) if holder is not None else None
                return found[1] if found is not None else None

            out["last_mistake"] = {
                "card": e["card"],
                "seat": e["player"],
                "held": [[d["player"], d["card"]] for d in e["discards"]],
                "name": then(e["player"]),
                "held_names": [then(d["player"]) for d in e["discards"]],
            }
        # why the hands are on the table (a stop's reason, `events.STOP_REASONS`, or a
        # mistake or a star), so the dashboard words it
        last = index.last
        stops = [(last[k], k) for k in ("stopped", "hands_on_table") if k in last]
        if phase == "stopped" and stops:
            j, kind = max(stops)
            out["why"] = index.public(j)["why"]
        # seats whose pupil the table waits for, or plays for, who is not there: the
        # dashboard offers "give this seat to a bot" for each, so the table goes on
        out["offer_bot"] = [
            s
            for s, p in sorted(t.chairs.items())
            if p is not None and not (p.connected and not p.gone) and phase not in ("won", "lost")
        ]
    return out
