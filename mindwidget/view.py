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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .game import Game

__all__ = ["ALLOWED", "phase", "table_view", "trace_points"]

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
ALLOWED = (
    "ready",
    "play",
    "stop",
    "propose_star",
    "vote",
    "wait",
    "next_level",
    "start_blind",
    "new_game",
)


def _public_events(game: Game) -> list[dict[str, Any]]:
    return [e.public_dict() for e in game.level_events]


def _started(events: list[dict[str, Any]]) -> bool:
    return any(e["type"] == "concentrated" for e in events)


def phase(game: Game) -> str:
    """What the table is waiting for, in one word the front end understands.

    ``ready``: hands on the table before the level starts; ``stopped``: hands on
    the table after a stop; ``vote``: a throwing star is proposed; ``play``: the
    level runs; ``cleared``, ``won``, ``lost``: the level or game is over.
    """
    if game.status == "level_cleared":
        return "cleared"
    if game.status in ("won", "lost"):
        return game.status
    if game.proposal is not None:
        return "vote"
    if game.concentrating:
        return "stopped" if _started(_public_events(game)) else "ready"
    return "play"


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
) -> dict[str, Any]:
    """The table as ``seat`` sees it (``seat=None``: an onlooker).

    ``plans`` (each bot's planned time of its next play) is included only with
    ``reveal``. ``news_from`` is the index in this level's events from which
    the events are "news" (for the screen-reader live region); by default none.
    ``allowed`` becomes ``view["allowed"]`` (see `ALLOWED`): decided by the
    table, not here, because it depends on more than the game (the mode, the
    bots' plans).
    """
    events = _public_events(game)
    obs = game.observation(seat if seat is not None else 0)
    # Who played each pile card, and what anyone at the table may see of it.
    played = [e for e in events if e["type"] == "played"]
    pile_by = [int(e["player"]) for e in played]
    if reveal:
        pile: list[int | None] = list(game.pile)
    else:
        pile = [
            _known(e["card"], int(e["player"]), seat, obs.pile[i]) for i, e in enumerate(played)
        ]
    # Discards in order: who, which card (None if face down), by a mistake or a star.
    public_discards: list[tuple[int, int | None, str]] = []
    for e in events:
        if e["type"] in ("mistake", "star_used"):
            kind = "mistake" if e["type"] == "mistake" else "star"
            public_discards.extend((int(d["player"]), d["card"], kind) for d in e["discards"])
    if reveal:
        discards = [
            {"player": d.player, "card": d.card, "k": k}
            for d, (_, _, k) in zip(game.discards, obs.discards, strict=True)
        ]
    else:
        discards = [
            {"player": p, "card": _known(c, p, seat, obs.discards[i][1]), "k": k}
            for i, (p, c, k) in enumerate(public_discards)
        ]
    view: dict[str, Any] = {
        "players": game.players,
        "seat": seat,
        "level": game.level,
        "levels": game.levels,
        "lives": game.lives,
        "stars": game.stars,
        "max_lives": game.rules.max_lives,
        "max_stars": game.rules.max_stars,
        "blind": game.blind,
        "phase": phase(game),
        "t": _ms(game.t),
        "hand": list(obs.hand) if seat is not None else [],
        "counts": list(obs.hand_counts),
        "pile": pile,
        "pile_by": pile_by,
        "discards": discards,
        "n": len(events),
        "news": [_rounded(e) for e in events[news_from:]] if news_from is not None else [],
        "allowed": _allowed_list(allowed),
    }
    # The panels of what just happened; left out when there is nothing to show.
    panels = {
        "vote": _last_vote(events),
        "mistake": _last_after_play(events, "mistake"),
        "cleared": _last_after_play(events, "level_cleared"),
        "check": _last_after_play(events, "blind_checked"),
    }
    view.update({k: _rounded(v) for k, v in panels.items() if v is not None})
    if game.status in ("won", "lost"):
        view["summary"] = _summary(game)
    if reveal:
        view["hands"] = [list(h) for h in game.hands]
        view["plans"] = {str(p): t for p, t in sorted((plans or {}).items())}
    return view


def _summary(game: Game) -> dict[str, Any]:
    """The end of a game in brief: the level reached and where lives were lost."""
    lost: dict[int, int] = {}
    for e in game.events:
        d = e.public_dict()
        n = (
            1
            if d["type"] == "mistake"
            else d.get("lives_lost", 0)
            if d["type"] == "blind_checked"
            else 0
        )
        if n:
            lost[e.level] = lost.get(e.level, 0) + int(n)
    return {"level": game.level, "lives_lost": [{"level": k, "lives": v} for k, v in lost.items()]}


def _allowed_list(allowed: Sequence[str]) -> list[str]:
    unknown = sorted(set(allowed) - set(ALLOWED))
    if unknown or isinstance(allowed, str):
        raise ValueError(f"allowed must name actions among {', '.join(ALLOWED)}, not {allowed!r}.")
    return [a for a in ALLOWED if a in allowed]


def _ms(t: float) -> float:
    """Seconds to the millisecond: what a view shows (the clock keeps exact times)."""
    return round(t, 3)


def _rounded(event: dict[str, Any]) -> dict[str, Any]:
    out = dict(event)
    if isinstance(out.get("t"), float):
        out["t"] = _ms(out["t"])
    return out


def _last_after_play(events: list[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    """The last event of ``kind`` if no card was played after it (else None)."""
    for e in reversed(events):
        if e["type"] == kind:
            return dict(e)
        if e["type"] == "played":
            return None
    return None


def _last_vote(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The latest throwing-star proposal since the last play, with its votes."""
    start = None
    for i in range(len(events) - 1, -1, -1):
        if events[i]["type"] == "star_proposed":
            start = i
            break
        if events[i]["type"] == "played":
            return None
    if start is None:
        return None
    by = int(events[start]["player"])
    votes: dict[str, bool] = {str(by): True}
    result = "open"
    for e in events[start + 1 :]:
        if e["type"] == "star_voted":
            votes[str(e["player"])] = bool(e["agree"])
        elif e["type"] == "star_declined":
            result = "declined"
        elif e["type"] == "star_used":
            result = "used"
        if e["type"] in ("star_declined", "star_used"):
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
    events = game.level_events
    own = game.observation(seat).pile if seat is not None else ()
    checked: list[int] = []
    for e in events:
        if e.type == "blind_checked":
            checked = list(e.public_dict()["pile"])
    points: list[dict[str, Any]] = []
    n_played = 0
    for e in events:
        d = e.public_dict()
        kind = d["type"]
        if kind == "played":
            card = d["card"]
            if card is None:
                if reveal:
                    card = e.to_dict()["card"]
                elif n_played < len(checked):
                    card = checked[n_played]
                elif n_played < len(own):
                    card = own[n_played]
            n_played += 1
            points.append({"k": "play", "t": _ms(d["t"]), "card": card, "player": d["player"]})
        elif kind == "mistake":
            for q in range(len(points) - 1, -1, -1):
                if points[q]["k"] == "play":
                    points[q]["k"] = "mistake"
                    break
            for x in d["discards"]:
                card = x["card"]
                points.append({"k": "lost", "t": _ms(d["t"]), "card": card, "player": x["player"]})
        elif kind == "star_used":
            for x in d["discards"]:
                points.append(
                    {"k": "star", "t": _ms(d["t"]), "card": x["card"], "player": x["player"]}
                )
        elif kind == "stopped":
            points.append({"k": "stop", "t": _ms(d["t"]), "until": None, "player": d["player"]})
        elif kind == "concentrated":
            for pt in reversed(points):
                if pt["k"] == "stop" and pt["until"] is None:
                    pt["until"] = _ms(d["t"])
                    break
    _fill_own_discards(points, game, seat, reveal)
    return points


def _fill_own_discards(
    points: list[dict[str, Any]], game: Game, seat: int | None, reveal: bool
) -> None:
    """Face-down discards: their holder (and reveal mode) knows the value."""
    if seat is None and not reveal:
        return
    known = [d.card for d in game.discards] if reveal else None
    obs = game.observation(seat) if seat is not None else None
    i = 0
    for pt in points:
        if pt["k"] not in ("lost", "star"):
            continue
        if pt["card"] is None:
            if known is not None:
                pt["card"] = known[i]
            elif obs is not None and pt["player"] == seat:
                pt["card"] = obs.discards[i][1]
        i += 1
