"""A game in words: the table as text for a projector, one line per event.

The game core says nothing in words (it imports no locale file): this module
is the layer above it that does. ``describe(game)`` is the text that
``Game.describe()`` and ``repr(game)`` show, in the game's language
(``Game(lang="nl")``) or the one asked for; ``describe_event`` words one event.
Seats are counted from 1, as everywhere a pupil reads ("player 1" is
``hands[0]``): the ``{player}`` placeholder does it (`mindwidget.i18n`).

When it loads, this module gives the core its words (`mindwidget.game.set_words`),
and ``import mindwidget`` (so any ``import mindwidget.game``) loads it first:
``Game.describe()`` and the repr speak wherever a game is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import events as ev
from .game import Game, set_words
from .i18n import LANGS, decimal, translate
from .rules import RuleError

__all__ = ["describe", "describe_event", "status_text"]


def describe(game: Game, lang: str | None = None) -> str:
    """A readable text form of the whole table, for a projector.

    In ``lang`` (default: the game's `Game.lang`); seats are counted from 1.
    """
    lang = game.lang if lang is None else lang
    if lang not in LANGS:
        raise RuleError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}.")

    def say(key: str, **params: Any) -> str:
        return translate(key, lang, **params)

    width = max(len(say(k)) for k in ("game_pile", "game_discards", "game_last"))
    width = max(width, *(len(say("game_player", player=p)) for p in range(game.players)))

    def row(label: str, text: str) -> str:
        return f"  {(label + ':').ljust(width + 2)}{text}"

    head = say(
        "game_head",
        mode=say("game_blind") if game.blind else "",
        players=game.players,
        level=game.level,
        levels=game.levels,
        lives=game.lives,
        stars=game.stars,
        status=status_text(game, lang),
    )
    lines = [
        head,
        row(say("game_pile"), " ".join(str(c) for c in game.pile) or say("game_empty")),
    ]
    for p, hand in enumerate(game.hands):
        lines.append(row(say("game_player", player=p), " ".join(str(c) for c in hand) or "-"))
    if game.discards:
        lines.append(row(say("game_discards"), _gone(game.discards, lang)))
    events = game.level_events  # the latest event is always in the current level
    last = describe_event(events[-1], lang)
    if isinstance(events[-1], ev.HandsOnTable):
        last = say("ev_hands_back", last=describe_event(events[-2], lang))
    lines.append(row(say("game_last"), last))
    return "\n".join(lines)


def status_text(game: Game, lang: str = "en") -> str:
    """Where the game stands, in ``lang``: "playing level 3", "won (blind mode)", ..."""
    status = game.status
    if status == "cleared":
        return translate("game_status_cleared", lang, level=game.level)
    if status == "won":
        return translate("game_status_won_blind" if game.blind else "game_status_won", lang)
    if status == "lost":
        return translate("game_status_lost", lang)
    return translate("game_status_playing", lang, level=game.level)


def _gone(discards: Iterable[ev.Discard], lang: str) -> str:
    return ", ".join(
        translate("game_card_of", lang, card=d.card, player=d.player) for d in discards
    )


def describe_event(e: ev.Event, lang: str = "en") -> str:
    """One line about an event (the god view), in ``lang``; seats counted from 1."""

    def say(key: str, **params: Any) -> str:
        return translate(key, lang, **params)

    at = say("game_at", t=decimal(e.t, lang, 2)) if e.t else ""
    if isinstance(e, ev.Played):
        side = "" if e.face_up else say("game_face_down")
        return say("ev_played", player=e.player, card=e.card, side=side, at=at)
    if isinstance(e, ev.Mistake):
        return say("ev_mistake", at=at, card=e.card, gone=_gone(e.discards, lang))
    if isinstance(e, ev.StarUsed):
        return say("ev_star_used", at=at, gone=_gone(e.discards, lang))
    if isinstance(e, ev.StarProposed):
        return say("ev_star_proposed", player=e.player, at=at)
    if isinstance(e, ev.StarVoted):
        return say("ev_star_voted_yes" if e.agree else "ev_star_voted_no", player=e.player, at=at)
    if isinstance(e, ev.StarDeclined):
        return say("ev_star_declined", player=e.player, at=at)
    if isinstance(e, ev.Stopped):
        key = "ev_stopped" if e.why == "player" else f"ev_stopped_{e.why}"
        return say(key, player=e.player, at=at)
    if isinstance(e, ev.Ready):
        return say("ev_ready", at=at)
    if isinstance(e, ev.HandsOnTable):
        return say("ev_hands_on_table", after=say(f"ev_after_{e.why}"), at=at)
    if isinstance(e, ev.Unready):
        return say("ev_unready", player=e.player, at=at)
    if isinstance(e, ev.Dealt):
        return say("ev_dealt", level=e.level)
    if isinstance(e, ev.LevelCleared):
        got = ""
        if e.reward and e.granted:
            got = say("ev_reward", reward=say(f"reward_word_{e.reward}"))
        return say("ev_cleared", level=e.level, got=got)
    if isinstance(e, ev.BlindChecked):
        if e.faults:
            return say("ev_blind_faults", n=len(e.faults), lost=e.lives_lost)
        return say("ev_blind_ok")
    if isinstance(e, ev.GameWon):
        return say("ev_won_blind" if e.blind else "ev_won")
    if isinstance(e, ev.GameLost):
        return say("ev_lost")
    if isinstance(e, ev.BlindStarted):
        return say("ev_blind_started")
    return e.type


set_words(describe)
