"""What a class table lays over each pupil's view of it (`session.Overlay`).

A `Session` is one seat of a table for any front end; what only a class table
adds lives here. `ClassOverlay` gives each pupil's session:

* the settings a pupil may change (`tables.PUPIL_SETTINGS`);
* the actions kept from a seat now (`ClassTable.withheld`: a new game between two
  levels; Ready again once pressed while the hands are on the table);
* the seats' nicknames (``names``, None for a bot);
* after a stop for a lost connection, whether its pupil is back (``back``);
* where seats changed hands mid-game, who held a seat when each card was played or
  put aside (``pile_names``, ``discard_names``, ``mistake_names`` in the view, ``by``
  on the trace's points; `ClassTable.earlier_name`), never "you".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import ClassTable

__all__ = ["ClassOverlay"]


class ClassOverlay:
    """The class's part of the views of ``table``'s seats (`session.Overlay`)."""

    def __init__(self, table: ClassTable, settable: tuple[str, ...]) -> None:
        self.table = table
        self.settable = settable

    def withheld(self, seat: int | None) -> set[str]:
        return self.table.withheld(seat) if seat is not None else set()

    def view(self, seat: int | None, view: dict[str, Any]) -> dict[str, Any]:
        """Each seat's nickname (``names``, None: a bot or nobody); after a stop for a lost
        connection, whether its pupil is connected again (``back``); earlier holders."""
        chairs = self.table.chairs
        out: dict[str, Any] = {
            "names": [p.name if p is not None else None for p in chairs.values()]
        }
        if view["phase"] == "stopped" and view.get("why") == "offline":
            p = chairs.get(view.get("stopped_by", -1))
            out["back"] = p is None or not (p.link is None or p.quiet or p.gone)
        return out | self._earlier_holders(view)

    def mark(self, points: list[dict[str, Any]], events: list[int]) -> None:
        """A point of an earlier holder of its seat names them (``by``): never "you"."""
        for p, at in zip(points, events, strict=True):
            name = self.table.earlier_name(int(p["player"]), at)
            if name is not None:
                p["by"] = name

    def _earlier_holders(self, view: dict[str, Any]) -> dict[str, Any]:
        """The names of who played each pile card and held each card put aside, where
        that was not the seat's holder now: ``pile_names``, ``discard_names`` and
        ``mistake_names`` run beside ``pile``, ``discards`` and ``mistake.discards``
        (None: the seat's holder now). Left out when every card is its holder's."""
        table = self.table.table
        if table is None:
            return {}
        held_by = self.table.earlier_name
        index = table.index
        off = len(table.game.events) - len(index.events)  # the level's first event in the game
        pile = [held_by(int(index.public(i)["player"]), off + i) for i in index.played]
        aside: list[str | None] = []
        for i in index.discarding:
            aside.extend(held_by(int(d["player"]), off + i) for d in index.public(i)["discards"])
        out: dict[str, Any] = {}
        if any(pile):
            out["pile_names"] = pile
        if any(aside):
            out["discard_names"] = aside
        m = index.last.get("mistake")
        if "mistake" in view and m is not None:
            names = [held_by(int(d["player"]), off + m) for d in index.public(m)["discards"]]
            if any(names):
                out["mistake_names"] = names
        return out
