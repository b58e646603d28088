"""What the widget shows, as small plain dicts: pure functions of a `Game`.

The widget never sends the game itself to the browser. It sends

* `table_view`: the table as one seat sees it (built from
  `Game.observation` and public events; every hand only when ``reveal`` is on),
  with ``allowed``: what the seat may do now (`ALLOWED` names the vocabulary);
* `trace_points`: the points of the current level's live timing trace.

With ``reveal`` off, nothing here carries a card that the seat may not know.
With ``seat=None`` (a team of bots, watched by a class) and ``reveal`` off, no
hand holds a value at all: the class sees what any onlooker at a table sees.

Both are pure functions: they can be tested without a widget or a browser.
A table passes its `LevelIndex` (and keeps a `TraceFeed` per view), so that
what a change costs does not grow with the length of the level: only the
events since the last view are read.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from .events import Event
from .game import Game
from .table import LevelIndex, phase
from .wire import ACTIONS

__all__ = ["ALLOWED", "TraceFeed", "phase", "table_view", "trace_points"]

#: The vocabulary of ``view["allowed"]``, in this order: what the person (or,
#: with ``seat=None``, the teacher) may do now. Each is the ``type`` of the
#: message the front end sends for it, and a listed action is accepted when
#: sent now (bot actions due before its time come first and may change that;
#: the notice then says why). The front end enables a button or a key only
#: for what is listed; it re-derives nothing from the phase.
#:
#: * ``ready``: hands off the table (the level starts, or goes on after a stop)
#: * ``play``: play the seat's lowest card
#: * ``stop``: call stop
#: * ``propose_star``: propose a throwing star
#: * ``vote``: agree or say no to the open proposal (the seat has not voted)
#: * ``wait``: step mode, the next bot action is planned
#: * ``next_level``: deal the next level after a cleared one
#: * ``start_blind``: after a win, play on with the cards face down
#: * ``new_game``: the level or game is over; a new game may be dealt
ALLOWED = ACTIONS  # declared once, on the wire (`mindwidget.wire.Action`)


def _known(card: int | None, who: int, seat: int | None, private: int | None) -> int | None:
    """``card`` if public, else the private value when ``seat`` holds it."""
    if card is not None:
        return card
    return private if seat is not None and who == seat else None


def table_view(
    game: Game,
    seat: int | None,
    reveal: bool = False,
    plans: Mapping[int, float] | None = None,
    news_from: int | None = None,
    allowed: Sequence[str] = (),
    index: LevelIndex | None = None,
) -> dict[str, Any]:
    """The table as ``seat`` sees it (``seat=None``: an onlooker).

    ``plans`` (each bot's planned time of its next play) is included only with
    ``reveal``. ``news_from`` is the index in this level's events from which
    the events are "news" (for the screen-reader live region); by default none.
    ``allowed`` becomes ``view["allowed"]`` (see `ALLOWED`): decided by the
    table, not here, because it depends on more than the game (the mode, the
    bots' plans). ``index`` is the game's `LevelIndex` if one is kept: then the
    parts every seat sees alike are built once per change of the game and
    shared by the views of its seats (`_shared`); treat a view as read-only.
    """
    idx = (index if index is not None else LevelIndex()).update(game)
    shared = _shared(game, idx) if index is not None else _public_part(game, idx)
    obs = game.observation(seat if seat is not None else 0)
    if not reveal and shared["pile_public"] and shared["discards_public"]:
        # every seat sees the pile and the discards alike: the common part as it is
        out = dict(shared["common"])
        out["seat"] = seat
        out["hand"] = list(obs.hand) if seat is not None else []
        out["counts"] = list(obs.counts)
        out["news"] = _news(idx, news_from) if news_from is not None else []
        out["allowed"] = _allowed_list(allowed)
        return out
    played = shared["played"]
    if reveal:
        pile: list[int | None] = list(game.pile)
    elif shared["pile_public"]:
        pile = list(shared["pile"])
    else:
        pile = [
            _known(e["card"], int(e["player"]), seat, obs.pile[i]) for i, e in enumerate(played)
        ]
    public_discards = shared["public_discards"]
    if reveal:
        discards = [
            {"player": d.player, "card": d.card, "k": k}
            for d, (_, _, k) in zip(game.discards, obs.discards, strict=True)
        ]
    elif shared["discards_public"]:
        discards = [{"player": p, "card": c, "k": k} for p, c, k in public_discards]
    else:
        discards = [
            {"player": p, "card": _known(c, p, seat, obs.discards[i][1]), "k": k}
            for i, (p, c, k) in enumerate(public_discards)
        ]
    n = shared["n"]
    head = shared["head"]
    view: dict[str, Any] = {
        "players": head["players"],
        "seat": seat,
        "level": head["level"],
        "levels": head["levels"],
        "lives": head["lives"],
        "stars": head["stars"],
        "max_lives": head["max_lives"],
        "max_stars": head["max_stars"],
        "blind": head["blind"],
        "phase": head["phase"],
        "t": head["t"],
        "hand": list(obs.hand) if seat is not None else [],
        "counts": list(obs.counts),
        "pile": pile,
        "pile_by": list(shared["pile_by"]),
        "discards": discards,
        "n": n,
        "news": _news(idx, news_from) if news_from is not None else [],
        "allowed": _allowed_list(allowed),
        # the cards run 1 .. deck (the trace's card axis)
        "deck": head["deck"],
    }
    view.update(shared["tail"])
    if reveal:
        view["hands"] = [list(h) for h in game.hands]
        view["plans"] = {str(p): t for p, t in sorted((plans or {}).items())}
        # the lowest card in any hand: the one the rules want next (a scenario marks it)
        view["lowest"] = min((c for h in game.hands for c in h), default=None)
    return view


#: Per `LevelIndex`: the game it was built for, that game's state (`_shared`'s key)
#: and the parts of a view that every seat sees alike.
_SHARED: weakref.WeakKeyDictionary[LevelIndex, tuple[Game, tuple[Any, ...], dict[str, Any]]] = (
    weakref.WeakKeyDictionary()
)


def _shared(game: Game, idx: LevelIndex) -> dict[str, Any]:
    """`_public_part` once per change of the game (its events, its clock, its status).

    A class table builds a view for each of its seats after every change; what
    they share (the pile, who played it, the discards, the panels, the counts
    of lives and stars) is built for the first and reused by the others. (The
    game is compared by identity: `Game.__eq__` compares whole histories.)
    """
    key = (game.event_count, game.level, game.t, game.status, idx.deals, idx.n)
    cached = _SHARED.get(idx)
    if cached is not None and cached[0] is game and cached[1] == key:
        return cached[2]
    part = _public_part(game, idx)
    _SHARED[idx] = (game, key, part)
    return part


def _public_part(game: Game, idx: LevelIndex) -> dict[str, Any]:
    """What any seat may see of the table now: public events and counts only."""
    # Who played each pile card, and what anyone at the table may see of it.
    played = [idx.public(i) for i in idx.played]
    pile = [e["card"] for e in played]
    # The latest mistake, while its panel shows (no card played after it).
    shown_mistake = idx.after_play("mistake")
    # Discards in order: who, which card (None if face down), its kind: lost (by a
    # mistake) or star, the same kind as the card's point in the trace;
    # ``marked``: the places of the ones the shown mistake put aside.
    public_discards: list[tuple[int, int | None, str]] = []
    marked: list[int] = []
    for i in idx.discarding:
        e = idx.public(i)
        kind = "lost" if e["type"] == "mistake" else "star"
        start = len(public_discards)
        public_discards.extend((int(d["player"]), d["card"], kind) for d in e["discards"])
        if i == shown_mistake:
            marked = list(range(start, len(public_discards)))
    # The keys after "deck", in order. What the front end shows and would otherwise work
    # out (it derives no rule); each left out when it says nothing (a play's sync stays
    # small): the put-aside cards of the shown mistake, and that the pile's top card is
    # the one it played too early (the last card played before it);
    tail: dict[str, Any] = {}
    if shown_mistake is not None:
        tail["mistake_discards"] = marked
        if idx.played and idx.played[-1] < shown_mistake:
            tail["early"] = True
    # after a win: the banner's hint that blind mode may follow (the rules allow it once).
    if game.status == "won" and "start_blind" in game.legal_actions(0):
        tail["blind_hint"] = True
    # The panels of what just happened; left out when there is nothing to show.
    panels = {
        "vote": _last_vote(idx),
        "mistake": _last_after_play(idx, "mistake"),
        "cleared": _last_after_play(idx, "cleared"),
        "check": _last_after_play(idx, "blind_checked"),
    }
    tail.update({k: _rounded(v) for k, v in panels.items() if v is not None})
    if game.status in ("won", "lost"):
        tail["summary"] = _summary(game)
    head = {
        "players": game.players,
        "level": game.level,
        "levels": game.levels,
        "lives": game.lives,
        "stars": game.stars,
        "max_lives": game.rules.max_lives,
        "max_stars": game.rules.max_stars,
        "blind": game.blind,
        "phase": phase(game, idx),
        "t": _ms(game.t),
        "deck": game.rules.deck,
    }
    pile_by = [int(e["player"]) for e in played]
    # what every seat's view holds alike when the pile and the discards are face up (the
    # lists shared by the views: read-only): all but the seat, hand, counts, news, actions
    common = dict(head)
    common.update(
        pile=pile,
        pile_by=pile_by,
        discards=[{"player": p, "card": c, "k": k} for p, c, k in public_discards],
        n=len(idx.events),
    )
    common.update(tail)
    return {
        "common": common,
        "head": head,
        "played": played,
        "pile": pile,
        "pile_public": all(c is not None for c in pile),
        "pile_by": pile_by,
        "public_discards": public_discards,
        "discards_public": all(c is not None for _, c, _ in public_discards),
        "n": len(idx.events),
        "tail": tail,
    }


def _summary(game: Game) -> dict[str, Any]:
    """The end of a game in brief: the level reached and where lives were lost
    (each mistake's and blind check's ``lives_lost``, as the core recorded it)."""
    lost: dict[int, int] = {}
    for e in game.events:
        if e.type not in ("mistake", "blind_checked"):
            continue
        n = e.public_dict()["lives_lost"]
        if n:
            lost[e.level] = lost.get(e.level, 0) + int(n)
    return {"level": game.level, "lives_lost": [{"level": k, "lives": v} for k, v in lost.items()]}


#: Per `LevelIndex`: the level it was kept for (its ``deals``) and each event as a
#: view shows it (`_rounded`), made once for every seat's news.
_NEWS: weakref.WeakKeyDictionary[LevelIndex, tuple[int, dict[int, dict[str, Any]]]] = (
    weakref.WeakKeyDictionary()
)


def _news(idx: LevelIndex, start: int) -> list[dict[str, Any]]:
    """The level's events from ``start`` on as a view shows them (shared: read-only)."""
    cached = _NEWS.get(idx)
    if cached is None or cached[0] != idx.deals:
        cached = _NEWS[idx] = (idx.deals, {})
    made = cached[1]
    out = []
    for i in range(max(0, start), idx.n):
        event = made.get(i)
        if event is None:
            event = made[i] = _rounded(idx.public(i))
        out.append(event)
    return out


#: Each `Table.allowed` tuple seen, as a view lists it (checked once; shared: read-only).
_ALLOWED_LISTS: dict[tuple[str, ...], list[str]] = {}


def _allowed_list(allowed: Sequence[str]) -> list[str]:
    known = _ALLOWED_LISTS.get(allowed) if isinstance(allowed, tuple) else None
    if known is not None:
        return known
    unknown = sorted(set(allowed) - set(ALLOWED))
    if unknown or isinstance(allowed, str):
        raise ValueError(f"allowed must name actions among {', '.join(ALLOWED)}, not {allowed!r}.")
    out = [a for a in ALLOWED if a in allowed]
    if isinstance(allowed, tuple) and len(_ALLOWED_LISTS) < 4096:  # a few dozen in practice
        _ALLOWED_LISTS[allowed] = out
    return out


def _ms(t: float) -> float:
    """Seconds to the millisecond: what a view shows (the clock keeps exact times)."""
    return round(t, 3)


def _rounded(event: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(event)
    if isinstance(out.get("t"), float):
        out["t"] = _ms(out["t"])
    return out


def _last_after_play(idx: LevelIndex, kind: str) -> dict[str, Any] | None:
    """The last event of ``kind`` if no card was played after it (else None)."""
    i = idx.after_play(kind)
    return None if i is None else dict(idx.public(i))


def _last_vote(idx: LevelIndex) -> dict[str, Any] | None:
    """The latest throwing-star proposal since the last play, with its votes."""
    start = idx.after_play("star_proposed")
    if start is None:
        return None
    by = int(idx.public(start)["player"])
    votes: dict[str, bool] = {str(by): True}
    result = "open"
    for i in range(start + 1, idx.n):
        kind = idx.events[i].type
        if kind == "star_voted":
            e = idx.public(i)
            votes[str(e["player"])] = bool(e["agree"])
        elif kind in ("star_declined", "star_used"):
            result = "declined" if kind == "star_declined" else "used"
            break
    return {"by": by, "votes": votes, "result": result}


def trace_points(game: Game, seat: int | None, reveal: bool = False) -> list[dict[str, Any]]:
    """The live timing trace of the current level, as the seat may know it.

    Each point is ``{"k": kind, "t": seconds, "card": value or None, "player": seat}``
    with kind ``play`` (a card on the pile), ``mistake`` (a play that cost a
    life), ``lost`` (a lower card discarded by a mistake), ``star`` (a card
    discarded by a throwing star), or ``stop`` with ``"until"`` (the resume,
    None while stopped) instead of a card. Face-down cards have ``card`` None
    until the pile is turned over at the end of a blind level.
    """
    return TraceFeed(seat, reveal).update(LevelIndex().update(game)).points


class TraceFeed:
    """`trace_points` kept up to date event by event, for one view (a seat, reveal or not).

    `update` reads only the events since the last update; `take` gives the
    points that are new or changed since the last `take` (a mistake turns the
    last play into a mistake, a resume closes the open stop, the blind check
    turns the pile's cards face up): ``(from, points[from:])``.
    """

    def __init__(self, seat: int | None, reveal: bool) -> None:
        self.seat = seat
        self.reveal = reveal
        self.deals = -1
        self._index: LevelIndex | None = None
        self.points: list[dict[str, Any]] = []

    def _start(self, idx: LevelIndex) -> None:
        self.deals = idx.deals
        self._index = idx
        self.points = []
        self.at: list[int] = []  # beside each point: the level's event it came from
        self._n = 0
        self._plays: list[int] = []  # the points of cards on the pile
        self._open_stop: int | None = None
        self._from = 0
        self._fresh = True  # a new level: sent even without a point

    def update(self, idx: LevelIndex) -> TraceFeed:
        if idx is not self._index or idx.deals != self.deals:
            self._start(idx)
        for i in range(self._n, idx.n):
            before = len(self.points)
            self._add(idx, i, idx.events[i])
            self.at.extend([i] * (len(self.points) - before))
        self._n = idx.n
        return self

    def take(self) -> tuple[int, list[dict[str, Any]]] | None:
        """``(from, points[from:])`` changed since the last take; None if nothing did."""
        start = self._from
        if start >= len(self.points) and not self._fresh:
            return None
        self._from = len(self.points)
        self._fresh = False
        return start, self.points[start:]

    def _changed(self, k: int) -> None:
        self._from = min(self._from, k)

    def _private(self, who: int) -> bool:
        return self.reveal or (self.seat is not None and who == self.seat)

    def _add(self, idx: LevelIndex, i: int, e: Event) -> None:
        kind = e.type
        if kind not in (
            "played",
            "mistake",
            "star_used",
            "stopped",
            "hands_on_table",
            "ready",
            "blind_checked",
        ):
            return
        d = idx.public(i)
        points = self.points
        t = _ms(d["t"])
        if kind == "played":
            card = d["card"]
            if card is None and self._private(int(d["player"])):
                card = e.to_dict()["card"]  # the seat's own card, or reveal
            self._plays.append(len(points))
            points.append({"k": "play", "t": t, "card": card, "player": d["player"]})
        elif kind in ("mistake", "star_used"):
            if kind == "mistake" and self._plays:
                k = self._plays[-1]
                points[k]["k"] = "mistake"
                self._changed(k)
            private = e.to_dict()["discards"]
            for x, y in zip(d["discards"], private, strict=True):
                card = x["card"]
                if card is None and self._private(int(x["player"])):
                    card = y["card"]
                pk = "lost" if kind == "mistake" else "star"
                points.append({"k": pk, "t": t, "card": card, "player": x["player"]})
        elif kind in ("stopped", "hands_on_table"):
            if self._open_stop is not None:
                return  # hands already on the table (a stop after a mistake)
            self._open_stop = len(points)
            stop = {"k": "stop", "t": t, "until": None, "player": d["player"]}
            if kind == "hands_on_table" or d["why"] != "player":
                # the table stopped after a mistake or a star, or the host stopped it
                # in a seat's name (STOP_REASONS: a lost connection, the teacher, a seat)
                stop["why"] = d["why"]
            points.append(stop)
        elif kind == "ready":
            if self._open_stop is not None:
                points[self._open_stop]["until"] = t
                self._changed(self._open_stop)
                self._open_stop = None
        else:  # blind_checked: the pile is turned over, every card face up
            checked = list(d["pile"])
            for n, k in enumerate(self._plays[: len(checked)]):
                if points[k]["card"] != checked[n]:
                    points[k]["card"] = checked[n]
                    self._changed(k)
