"""The rules table of The Mind: one place for every number the game uses.

Sources: the four rule texts the project follows (two Dutch, one German, one
English; see the table of rule choices in docs/rules.md):

* set-up by player count: 2 players play levels 1-12 with 2 lives, 3 players
  1-10 with 3 lives, 4 players 1-8 with 4 lives, always 1 throwing star;
* the box holds 100 number cards, 5 lives and 3 throwing stars, so a team never
  holds more than 5 lives or 3 stars;
* rewards after clearing levels 2, 3, 5, 6, 8 and 9 (star, life, star, life,
  star, life).

Where the rule texts disagree, the first reading is the default of `Rules` and
the other one is an option:

* ``mistake_discards``: ``"face_up"`` (White Goblin's rules page, the English
  page) or ``"face_down"`` (the Dutch rules explanation: "gedekt op de stapel");
* ``spent_stars``: ``"supply"`` (a spent star can be won again) or ``"box"`` (the
  Dutch rules explanation: "terug in de doos");
* ``blind_penalty``: ``"pile"`` (the pile is turned over at the end of a blind
  level, and each place where a card is lower than the card before it costs a
  life: "each mistake costs a life", read as what the turned-over pile shows),
  ``"per_card"`` (each card played while a lower card was still held costs a
  life, also when the pile looks ascending) or ``"per_level"`` (one life for a
  faulty level);
* ``concentrate_after``: ``"mistakes_and_stars"`` (the Dutch rules page: after
  a mistake "het team concentreert zich opnieuw", and after a throwing star
  "daarna concentreert het team zich opnieuw"; every hand goes back on the
  table and the level goes on when the team is ready again), ``"mistakes"``
  (after mistakes only) or ``"never"`` (the English and German texts: play
  simply continues).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Literal

from .checks import whole

__all__ = [
    "DECK_SIZE",
    "MAX_ACTIONS",
    "MAX_DECK",
    "MAX_HOUSE_LIVES",
    "MAX_HOUSE_STARS",
    "MAX_LIVES",
    "MAX_PLAYERS",
    "MAX_STARS",
    "REWARDS",
    "SETUP",
    "RuleError",
    "Rules",
]


class RuleError(ValueError):
    """An action or a setting that the rules do not allow.

    The message says what was wrong and what is allowed, in English
    (``str(error)``). A refusal that a pupil may see also carries ``key`` and
    ``params``: ``mindwidget.i18n.reason(error, lang)`` puts it into words in
    English, Dutch or German (the ``refused_<key>`` strings of the locale files).
    A refused action leaves the game exactly as it was.
    """

    def __init__(self, message: str, key: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


#: Levels to clear and lives at the start, by player count.
# R1: levels and lives by player count
SETUP: Mapping[int, tuple[int, int]] = MappingProxyType({2: (12, 2), 3: (10, 3), 4: (8, 4)})
#: Throwing stars at the start, whatever the player count.
START_STARS = 1
#: The box: number cards, life cards and throwing-star cards.
DECK_SIZE = 100
MAX_LIVES = 5
MAX_STARS = 3
#: What clearing a level earns (the symbol at the bottom right of the level card).
REWARDS: Mapping[int, Literal["life", "star"]] = MappingProxyType(
    {2: "star", 3: "life", 5: "star", 6: "life", 8: "star", 9: "life"}
)

#: The bounds of a house rule (and so of every file): a game has at most this
#: many number cards (ten boxes), players, lives or stars, and a saved game at
#: most this many actions. Beyond them a file could ask for gigabytes (the deal
#: builds the deck) without making a playable game.
MAX_DECK = 1000
MAX_PLAYERS = 10
MAX_HOUSE_LIVES = 99
MAX_HOUSE_STARS = 99
MAX_ACTIONS = 100_000

MistakeDiscards = Literal["face_up", "face_down"]
SpentStars = Literal["supply", "box"]
BlindPenalty = Literal["pile", "per_card", "per_level"]
ConcentrateAfter = Literal["mistakes_and_stars", "mistakes", "never"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "mistake_discards": ("face_up", "face_down"),
    "spent_stars": ("supply", "box"),
    "blind_penalty": ("pile", "per_card", "per_level"),
    "concentrate_after": ("mistakes_and_stars", "mistakes", "never"),
}


def _allowed_counts() -> str:
    return ", ".join(str(n) for n in SETUP)


@dataclass(frozen=True)
class Rules:
    """The settings of one game.

    ``Rules(players=3)`` takes levels and lives from the rules table. For any
    other player count, build a house rule explicitly, e.g.
    ``Rules(players=5, levels=6, lives=5)``.
    """

    players: int = 3
    levels: int | None = None
    lives: int | None = None
    stars: int = START_STARS
    max_lives: int = MAX_LIVES
    max_stars: int = MAX_STARS
    deck: int = DECK_SIZE
    rewards: Mapping[int, Literal["life", "star"]] = field(default_factory=lambda: REWARDS)
    mistake_discards: MistakeDiscards = "face_up"
    spent_stars: SpentStars = "supply"
    blind_penalty: BlindPenalty = "pile"
    concentrate_after: ConcentrateAfter = "mistakes_and_stars"

    # R1: the rules table for 2-4 players; any other count only as an explicit house rule
    def __post_init__(self) -> None:
        for name, hi in _BOUNDS.items():
            value = getattr(self, name)
            if value is not None or name not in ("levels", "lives"):
                # a plain int (numpy integers are accepted), at most its bound
                object.__setattr__(self, name, whole(name, value, hi=hi, error=RuleError))
        if self.players in SETUP:
            levels, lives = SETUP[self.players]
            if self.levels is None:
                object.__setattr__(self, "levels", levels)
            if self.lives is None:
                object.__setattr__(self, "lives", lives)
        elif self.levels is None or self.lives is None:
            raise RuleError(
                f"The Mind is for {_allowed_counts()} players, not {self.players}. "
                f"For a house rule, say how many levels and lives, e.g. "
                f"Rules(players={self.players}, levels=6, lives=5)."
            )
        levels, lives = self.n_levels, self.start_lives
        if self.players < 1:
            raise RuleError(f"players must be at least 1, not {self.players}.")
        if self.deck < 1:
            raise RuleError(f"deck must hold at least 1 card, not {self.deck}.")
        if levels < 1:
            raise RuleError(f"levels must be at least 1, not {levels}.")
        if self.players * levels > self.deck:
            raise RuleError(
                f"{self.players} players x {levels} cards in the last level need "
                f"{self.players * levels} cards, but the deck holds {self.deck}; "
                f"allowed: levels <= {self.deck // self.players}."
            )
        if self.max_lives < 1 or not 1 <= lives <= self.max_lives:
            raise RuleError(
                f"lives must be between 1 and max_lives ({self.max_lives}), not {lives}."
            )
        if not 0 <= self.stars <= self.max_stars:
            raise RuleError(
                f"stars must be between 0 and max_stars ({self.max_stars}), not {self.stars}."
            )
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RuleError(
                    f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}."
                )
        if not isinstance(self.rewards, Mapping):
            raise RuleError("rewards must map level to 'life' or 'star'.")
        rewards: dict[int, Literal["life", "star"]] = {}
        for key, reward in self.rewards.items():
            level = whole("a reward level", key, 1, MAX_DECK, error=RuleError)
            rewards[level] = reward
            if reward not in ("life", "star"):
                raise RuleError(
                    f"the reward for level {level} must be 'life' or 'star', not {reward!r}."
                )
        object.__setattr__(self, "rewards", MappingProxyType(rewards))

    # Typed views (levels and lives are always set after __post_init__).
    @property
    def n_levels(self) -> int:
        assert self.levels is not None
        return self.levels

    @property
    def start_lives(self) -> int:
        assert self.lives is not None
        return self.lives

    def reward(self, level: int, lives: Any, stars: Any, boxed: Any) -> tuple[str | None, Any, Any]:
        """R8: what clearing ``level`` earns: ``(kind, extra life, extra star)``.

        ``kind`` is ``"life"``, ``"star"`` or None (no reward for this level).
        The extra life and star are 1/True or 0/False: a reward is granted only
        while the box still holds one (at most `max_lives` lives; at most
        `max_stars` stars in hand plus those spent into the box, ``boxed``).
        ``lives``, ``stars`` and ``boxed`` may be whole numbers (`Game`) or
        NumPy arrays of many games (the fast engine, `mindwidget.sim.fast`):
        the one place the rewards are applied.
        """
        kind = self.rewards.get(level)
        if kind == "life":
            return kind, lives < self.max_lives, False
        if kind == "star":
            return kind, False, self.max_stars - stars - boxed > 0
        return kind, False, False

    def unanimous(self, agreed: Any) -> Any:
        """R7: a proposed throwing star is used once every player has agreed.

        ``agreed`` counts the players who agreed so far (a whole number, or a
        NumPy array of counts for many games); one "no" ends a proposal before
        it gets here.
        """
        return agreed == self.players

    def __reduce__(self) -> tuple[Any, ...]:
        # the rewards table is a read-only mapping proxy, which pickle cannot
        # copy: a Rules travels (e.g. to a process pool) as its plain dict.
        return (Rules.from_dict, (self.to_dict(),))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "rewards":
                value = {str(k): v for k, v in sorted(value.items())}
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise RuleError(f"rules must be an object, not {type(data).__name__}.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleError(
                f"unknown rule setting(s) {', '.join(unknown)}; "
                f"allowed: {', '.join(sorted(known))}."
            )
        kwargs = dict(data)
        if "rewards" in kwargs:
            rewards = kwargs["rewards"]
            if not isinstance(rewards, Mapping):
                raise RuleError("rewards must be an object mapping level to 'life' or 'star'.")
            try:
                kwargs["rewards"] = {int(k): v for k, v in rewards.items()}
            except (TypeError, ValueError) as exc:
                raise RuleError(f"reward levels must be whole numbers: {exc}") from None
        return cls(**kwargs)


#: The largest value of each whole-number setting.
_BOUNDS: dict[str, int] = {
    "players": MAX_PLAYERS,
    "levels": MAX_DECK,
    "lives": MAX_HOUSE_LIVES,
    "stars": MAX_HOUSE_STARS,
    "max_lives": MAX_HOUSE_LIVES,
    "max_stars": MAX_HOUSE_STARS,
    "deck": MAX_DECK,
}
