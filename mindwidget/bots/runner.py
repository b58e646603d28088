"""Play a game with bots in virtual time.

The next action is whichever bot's planned moment comes first; ties are broken
by the seeded generator. Every action carries its time, so the game's events
give the timing trace. Same seed, same game, same times.

`plan_next` is the one scheduling step, shared by the runner (virtual time)
and the widget (the browser's clock): the widget asks it for the next bot
action and lets the front end wait until that moment.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..events import Played, StarDeclined
from ..game import Game, Observation
from .base import Bot
from .team import BotsLike, make_team

__all__ = [
    "BotError",
    "Planned",
    "apply_planned",
    "plan_next",
    "ready_at",
    "resolve_votes",
    "run_game",
    "run_level",
]


class BotError(ValueError):
    """A bot broke its contract; the message names the bot and the event."""


@dataclass(frozen=True)
class Planned:
    """The next bot action: at level time ``t``, ``player`` does ``action``."""

    t: float
    player: int
    action: Literal["play", "propose_star", "ready"]


def _last_event(game: Game) -> str:
    e = game.level_events[-1]
    return f"{e.type} at t={e.t:g} in level {e.level}"


def _declined_since_last_play(game: Game) -> bool:
    for e in reversed(game.level_events):
        if isinstance(e, Played):
            return False
        if isinstance(e, StarDeclined):
            return True
    return False


def plan_next(
    game: Game,
    team: list[Bot],
    rng: np.random.Generator,
    skip: tuple[int, ...] = (),
    declined: bool | None = None,
) -> Planned | None:
    """Ask every bot (except the seats in ``skip``) for its plan; return the first.

    Returns None when no bot will act: the level is over, the team is
    concentrating, a star vote is open, or every bot's hand is empty.
    ``declined`` (whether a throwing star was declined since the last card:
    then no bot proposes one) is looked up in the level's events if not given;
    a table that indexes the events gives it (`mindwidget.table.LevelIndex`).
    """
    if game.status != "playing" or game.concentrating or game.proposal is not None:
        return None
    best: list[Planned] = []
    may_propose = game.stars > 0 and not (
        _declined_since_last_play(game) if declined is None else declined
    )
    for p, bot in enumerate(team):
        if p in skip or not game.hands[p]:
            continue
        obs = game.observation(p)
        if may_propose and bot.propose_stars and _ask(bot, "wants_star", obs, rng, game, p):
            delay = _seconds(bot, "star_delay", obs, rng, game, p)
            cand = Planned(obs.t + delay, p, "propose_star")
        else:
            cand = Planned(obs.t + _seconds(bot, "plan", obs, rng, game, p), p, "play")
        if not best or cand.t < best[0].t:
            best = [cand]
        elif cand.t == best[0].t:
            best.append(cand)
    if not best:
        return None
    if len(best) == 1:
        return best[0]
    return best[int(rng.integers(len(best)))]


def _seconds(
    bot: Bot, method: str, obs: Observation, rng: np.random.Generator, game: Game, p: int
) -> float:
    """A number of seconds from a bot (a wait or a delay), checked."""
    wait = _call(bot, method, obs, rng, game, p)
    if isinstance(wait, bool) or not isinstance(wait, (int, float, np.integer, np.floating)):
        raise BotError(
            f"bot {bot!r} in seat {p} returned wait={wait!r} after {_last_event(game)}; "
            f"{method}() must return a number of seconds >= 0."
        )
    if not math.isfinite(wait) or wait < 0:
        raise BotError(
            f"bot {bot!r} in seat {p} returned wait={wait} after {_last_event(game)}; "
            "allowed: a finite number of seconds >= 0."
        )
    return float(wait)


def _call(
    bot: Bot, method: str, obs: Observation, rng: np.random.Generator, game: Game, p: int
) -> object:
    """Call a bot's method; any exception is re-raised naming the bot and the event."""
    try:
        answer: object = getattr(bot, method)(obs, rng)
    except BotError:
        raise
    except Exception as exc:
        raise BotError(
            f"bot {bot!r} in seat {p} failed in {method}() after {_last_event(game)}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    return answer


def _ask(
    bot: Bot, method: str, obs: Observation, rng: np.random.Generator, game: Game, p: int
) -> bool:
    answer = _call(bot, method, obs, rng, game, p)
    if not isinstance(answer, (bool, np.bool_)):
        raise BotError(
            f"bot {bot!r} in seat {p} answered {method}()={answer!r} after {_last_event(game)}; "
            "allowed: True or False."
        )
    return bool(answer)


def resolve_votes(
    game: Game, team: list[Bot], rng: np.random.Generator, skip: tuple[int, ...] = ()
) -> None:
    """Let every bot (except ``skip``) vote on the open proposal, in seat order."""
    for p, bot in enumerate(team):
        proposal = game.proposal
        if proposal is None:
            return
        if p in skip or p in proposal["votes"]:
            continue
        agree = _ask(bot, "vote", game.observation(p), rng, game, p)
        game.vote(p, agree)


def apply_planned(
    game: Game,
    team: list[Bot],
    planned: Planned,
    rng: np.random.Generator,
    skip: tuple[int, ...] = (),
) -> None:
    """Carry out a planned bot action (and, for a proposal, the votes of the bots
    that are not in ``skip``: a person's seat votes for itself)."""
    if planned.action == "play":
        game.play(planned.player, t=planned.t)
    elif planned.action == "ready":  # a team of bots only: hands off the table again
        game.ready(t=planned.t)
    else:
        game.propose_star(planned.player, t=planned.t)
        resolve_votes(game, team, rng, skip=skip)


def ready_at(
    game: Game, team: list[Bot], rng: np.random.Generator, skip: tuple[int, ...] = ()
) -> float:
    """The level time at which every bot (except ``skip``) is ready again after the
    hands went back on the table: the latest `Bot.ready_delay` after now (each bot
    asked once, in seat order; bots that are ready at once draw nothing)."""
    delays = [
        _seconds(bot, "ready_delay", game.observation(p), rng, game, p)
        for p, bot in enumerate(team)
        if p not in skip
    ]
    return game.t + max(delays, default=0.0)


def _ready(game: Game, team: list[Bot], rng: np.random.Generator) -> None:
    """Hands off the table when every bot is ready: at once at the deal, after a
    human-like pause (`ready_at`) once the level has started (a stop, and with
    the rules that say so, a mistake or a star)."""
    if game.status != "playing" or not game.concentrating:
        return
    started = any(e.type == "ready" for e in game.level_events)
    game.ready(t=ready_at(game, team, rng) if started else game.t)


def run_level(game: Game, bots: BotsLike | list[Bot], seed: int | None = None) -> Game:
    """Play the current level to its end with bots in every seat (in place)."""
    team = _team(bots, game)
    rng = np.random.default_rng(seed)
    play_out_level(game, team, rng)
    return game


def _team(bots: BotsLike | list[Bot], game: Game) -> list[Bot]:
    """A seated team (from `make_team`) is used as it is, so what its bots
    learned carries over from level to level; anything else is seated afresh."""
    if (
        isinstance(bots, list)
        and len(bots) == game.players
        and all(isinstance(b, Bot) and b.player == p for p, b in enumerate(bots))
    ):
        return bots
    return make_team(bots, game.players)


def play_out_level(game: Game, team: list[Bot], rng: np.random.Generator) -> None:
    """Play the current level out with ``team`` in virtual time (`run_level`, `run_game`)."""
    if game.status != "playing":
        return
    if game.proposal is not None:
        resolve_votes(game, team, rng)  # the star may end the level
    while game.status == "playing":
        # hands on the table (the deal, a stop, or after a mistake or a star):
        # ready again at once at the deal, else after each bot's ready_delay
        _ready(game, team, rng)
        planned = plan_next(game, team, rng)
        if planned is None:
            raise BotError(f"no bot will act after {_last_event(game)}, but cards remain.")
        apply_planned(game, team, planned, rng)


def run_game(
    game: Game, bots: BotsLike | list[Bot], seed: int | None = None, blind: bool = False
) -> Game:
    """Play on from the current state to a win or a loss (in place).

    With ``blind=True`` a won game goes on in blind mode to its end.
    """
    team = _team(bots, game)
    rng = np.random.default_rng(seed)
    while True:
        play_out_level(game, team, rng)
        if game.status == "cleared":
            game.next_level()
        elif game.status == "won" and blind and not game.blind:
            game.start_blind()
        else:
            return game
