"""Bot teammates whose timing is modelled on human interval timing.

A bot sees only `Game.observation` for its own seat. After every public event
(a play, a mistake, a star, a stop and the resume after it) it is asked how
long, from that moment, it will wait before playing its lowest card
(`Bot.plan`); it also says whether it wants to propose a throwing star
(`Bot.wants_star`) and how it votes on one (`Bot.vote`).

The waiting time is ``seconds_per_step x gap``, where the gap is the distance
between the bot's lowest card and the top of the pile: the tip in the rule
texts ("a 5 goes quickly, with an 80 you wait a long time").

Timing models, from a clock to a person:

* `PerfectTimer`: the mean wait, exactly. It never makes a mistake.
* `ScalarTimer`: the mean wait with scalar (Weber-law) noise plus motor noise.
* `AdaptiveTimer`: a `ScalarTimer` whose tempo moves toward the tempo it
  observes in its teammates' plays.
* `HumanTimer`: waits the way people wait (a reaction floor, the people
  curve fitted to human play, a human spread), at a tempo the person sets, and
  adapts to the person; the widget's default ("human").

Every bot takes ``propose_stars`` and a `StarPolicy` (when to propose a
throwing star, how to vote on one).

The package, one job per module (each imports only the ones above it):

* argument checks: `mindwidget.checks` (a `ValueError` naming the value);
* ``stars``: `known_top`, `public_floors`, `StarPolicy`;
* ``base``: the `Bot` interface;
* ``timers``: `PerfectTimer`, `ScalarTimer`;
* ``adaptive``: `AdaptiveTimer` (and how a bot reads its teammates' plays);
* ``human``: `HumanTimer`, the human reference, tempos;
* ``team``: bot names and `make_team`;
* ``runner``: a game played by bots in virtual time (`run_game`, `run_level`,
  `plan_next`), imported as ``mindwidget.bots.runner`` (not loaded with the bots).
"""

from __future__ import annotations

from .adaptive import AdaptiveTimer
from .base import DEFAULT_SECONDS_PER_STEP, Bot, check_policy
from .human import (
    HUMAN_STAR_POLICY,
    REFERENCE,
    REFERENCE_BANDS,
    TEMPOS,
    HumanTimer,
    band_label,
    band_of,
    check_tempo,
    reference_median,
)
from .stars import StarPolicy, known_top, public_floors
from .team import BOT_NAMES, BotsLike, bot_from_name, make_team
from .timers import PerfectTimer, ScalarTimer

__all__ = [
    "BOT_NAMES",
    "DEFAULT_SECONDS_PER_STEP",
    "AdaptiveTimer",
    "HUMAN_STAR_POLICY",
    "REFERENCE",
    "REFERENCE_BANDS",
    "TEMPOS",
    "Bot",
    "BotsLike",
    "HumanTimer",
    "PerfectTimer",
    "ScalarTimer",
    "StarPolicy",
    "check_policy",
    "band_label",
    "band_of",
    "bot_from_name",
    "check_tempo",
    "known_top",
    "make_team",
    "public_floors",
    "reference_median",
]
