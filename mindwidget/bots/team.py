"""Teams: one fresh bot per seat from a bot, a name or a list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .adaptive import AdaptiveTimer
from .base import Bot
from .human import HumanTimer
from .timers import PerfectTimer, ScalarTimer

__all__ = ["BOT_NAMES", "BotsLike", "bot_from_name", "make_team"]

#: The names that ``bots=`` accepts anywhere in the API.
BOT_NAMES = ("perfect", "scalar", "adaptive", "human")


def bot_from_name(name: str) -> Bot:
    """A default bot for a name in `BOT_NAMES`."""
    if name == "perfect":
        return PerfectTimer()
    if name == "scalar":
        return ScalarTimer()
    if name == "adaptive":
        return AdaptiveTimer()
    if name == "human":
        return HumanTimer()
    raise ValueError(f"bots: unknown bot name {name!r}; allowed: {', '.join(BOT_NAMES)}.")


BotsLike = Bot | str | Sequence[Bot | str] | Mapping[str, Bot]


def make_team(bots: BotsLike, players: int) -> list[Bot]:
    """One fresh bot per seat from one bot, a name, or a list with one per seat (or a
    mapping of names to bots, one per seat, in its order: a class's clocks,
    `mindwidget.classmodel.Clocks`)."""
    if isinstance(bots, Mapping):
        if len(bots) != players:
            raise ValueError(
                f"bots: a mapping needs one bot per seat ({players}), but has {len(bots)}: "
                f"{', '.join(map(str, bots))}; pick a team, e.g. clocks.team([...])."
            )
        bots = list(bots.values())
    if isinstance(bots, (Bot, str)):
        proto = bot_from_name(bots) if isinstance(bots, str) else bots
        return [proto.seat(p) for p in range(players)]
    if not isinstance(bots, Sequence):
        raise ValueError(
            f"bots must be a bot, a name ({', '.join(BOT_NAMES)}) or a list with one per "
            f"seat, not {bots!r}."
        )
    if len(bots) != players:
        raise ValueError(
            f"bots: a list needs one bot per seat ({players}), but has {len(bots)}: {bots!r}."
        )
    team: list[Bot] = []
    for p, b in enumerate(bots):
        if isinstance(b, str):
            b = bot_from_name(b)
        if not isinstance(b, Bot):
            raise ValueError(f"bots[{p}] must be a Bot or a bot name, not {b!r}.")
        team.append(b.seat(p))
    return team
