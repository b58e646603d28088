"""The game core: every rule of The Mind as a deterministic, replayable engine.

A `Game` is a pure function of its rules, its seed (or chosen deal) and the
list of actions applied to it. It has no clock (every action carries its time
stamp ``t``, seconds since the level started), does no I/O, and draws every
deal from one seeded random generator. That is what makes saving
(`Game.to_json`), replaying (`Game.from_json`) and branching (`Game.copy`)
exact.

The god view (every hand) lives here; `Game.observation` gives what one player
may know, and it is all that bots and the widget's front end ever receive.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, TypeVar

from . import saves
from .checks import LANGS, choice, finite, flag, whole
from .events import (
    STOP_REASONS,
    BlindChecked,
    BlindStarted,
    Dealt,
    Discard,
    Event,
    GameLost,
    GameWon,
    HandsOnTable,
    LevelCleared,
    Mistake,
    Played,
    Ready,
    StarDeclined,
    StarProposed,
    StarUsed,
    StarVoted,
    Stopped,
    Unready,
    fast_init,
)
from .rules import MAX_DECK, MAX_PLAYERS, RuleError, Rules

__all__ = ["Game", "Observation", "Status"]

Status = Literal["playing", "cleared", "won", "lost"]

T = TypeVar("T")


@dataclass(frozen=True)
class Observation:
    """What one player may know: nothing here reveals another seat's cards.

    ``pile`` lists the cards on the pile in play order, with ``None`` for a
    card that lies face down (blind mode) and was not played by this player.
    ``discards`` lists ``(player, card, kind)`` with ``card`` ``None`` when
    it was put aside face down and ``kind`` ``"lost"`` (by a mistake) or
    ``"star"`` (by a throwing star), the kinds of the trace. ``events`` are
    the public events of this level.
    """

    player: int
    players: int
    level: int
    levels: int
    lives: int
    stars: int
    status: Status
    blind: bool
    hand: tuple[int, ...]
    counts: tuple[int, ...]
    pile: tuple[int | None, ...]
    top: int | None
    discards: tuple[tuple[int, int | None, str], ...]
    events: tuple[Mapping[str, Any], ...]
    t: float
    proposal: dict[str, Any] | None
    concentrating: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "players": self.players,
            "level": self.level,
            "levels": self.levels,
            "lives": self.lives,
            "stars": self.stars,
            "status": self.status,
            "blind": self.blind,
            "hand": list(self.hand),
            "counts": list(self.counts),
            "pile": list(self.pile),
            "top": self.top,
            "discards": [list(d) for d in self.discards],
            "events": [dict(e) for e in self.events],
            "t": self.t,
            "proposal": self.proposal,
            "concentrating": self.concentrating,
        }


def _same(value: T) -> T:
    """Copy an immutable value: share it."""
    return value


def _lists(value: list[list[int]]) -> list[list[int]]:
    return [list(v) for v in value]


def _dicts(value: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(v) for v in value]


def _dict_or_none(value: dict[int, bool] | None) -> dict[int, bool] | None:
    return None if value is None else dict(value)


def _copy_start(start: dict[str, Any] | None) -> dict[str, Any] | None:
    """The chosen start (hands, level, lives, stars, blind): only its hands nest."""
    if start is None:
        return None
    return {**start, "hands": [list(h) for h in start["hands"]]}


def _copy_rng(rng: random.Random) -> random.Random:
    other = random.Random.__new__(random.Random)  # unseeded: setstate sets it all
    other.setstate(rng.getstate())
    return other


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _fresh_cache(cache: list[Any]) -> list[Any]:
    """The public-event cache is derived: a copy rebuilds its own."""
    return [-1]


@dataclass(frozen=True)
class _Field:
    """One field of a game's state.

    ``copy`` makes an independent duplicate for `Game.copy` (sharing only
    what is immutable). ``key`` names it in a saved game, under ``"state"``
    (the snapshot a loaded game is checked against) or at the top level when
    ``top`` is true; ``dump`` turns it into plain JSON there. A field without
    a key is not saved: it follows from the others when the actions replay.
    """

    name: str
    copy: Callable[[Any], Any] = _same
    key: str | None = None
    dump: Callable[[Any], Any] = _same
    top: bool = False


#: The state of a `Game`, declared once. The order is the order of the saved
#: snapshot.
_STATE: tuple[_Field, ...] = (
    _Field("_rules", key="rules", dump=lambda r: r.to_dict(), top=True),
    _Field("_seed", key="seed", top=True),
    _Field("_start", _copy_start, key="start", dump=_copy_start, top=True),
    _Field("_actions", _dicts, key="actions", dump=_dicts, top=True),
    _Field("_level", key="level"),
    _Field("_lives", key="lives"),
    _Field("_stars", key="stars"),
    _Field("_stars_boxed", key="stars_boxed"),
    _Field("_status", key="status"),
    _Field("_blind", key="blind"),
    _Field("_blind_cleared", key="blind_levels_cleared"),
    _Field("_hands", _lists, key="hands", dump=lambda hs: [h[::-1] for h in hs]),
    _Field("_pile", list, key="pile", dump=list),
    _Field(
        "_discards",
        list,
        key="discards",
        dump=lambda ds: [[d.player, d.card, d.face_up] for d in ds],
    ),
    _Field("_t", key="t"),
    _Field(
        "_proposal", _dict_or_none, key="proposal", dump=lambda p: None if p is None else sorted(p)
    ),
    _Field("_concentrating", key="concentrating"),
    _Field("_events", list, key="events", dump=len),  # events are immutable
    _Field("_rng", _copy_rng, key="rng", dump=_rng_state),
    _Field("_pile_players", list),
    _Field("_pile_faults", list),
    _Field("_level_event_start"),
    _Field("_public_cache", _fresh_cache),
    _Field("_kinds_cache", list),
    # the language `describe()` and the repr speak: presentation only, never saved
    _Field("_lang"),
)
_TOP_KEYS = tuple(f.key for f in _STATE if f.top and f.key)


fast_init(Observation)


class Game:
    """One game of The Mind, from level 1 to a win (and blind mode) or a loss.

    >>> g = Game.from_hands([[17], [28], [55]])
    >>> g.play(0, t=1.0); g.play(1, t=2.5); g.play(2, t=5.0)
    >>> g.pile, g.status
    ((17, 28, 55), 'cleared')

    Players are numbered from 0. Every action takes an optional time stamp
    ``t`` (seconds since the level started, never decreasing within a level);
    without one, the time of the previous event of the level is used.

    Args:
        players: How many play (2, 3 or 4 by the rules table; None: 3, or what
            ``rules`` says).
        seed: Makes the shuffles repeatable: the same seed and the same actions
            give the same game. None: a fresh shuffle.
        rules: House rules or another reading of the rule texts (`Rules`).
        lang: The language of `describe` and the repr: "en", "nl" or "de".
    """

    # Every field of a game's state is declared once, in `_STATE` (above):
    # the slots, `copy()` and the saved snapshot all derive from it.
    __slots__ = tuple(f.name for f in _STATE)

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        rules: Rules | None = None,
        lang: str = "en",
    ) -> None:
        rules = _resolve_rules(players, rules)
        self._setup(rules, seed, None)
        self.lang = lang
        self._deal()

    # ------------------------------------------------------------------ setup
    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Iterable[int]] | Any,
        level: int | None = None,
        lives: int | None = None,
        stars: int | None = None,
        rules: Rules | None = None,
        seed: int | None = None,
        blind: bool = False,
        lang: str = "en",
    ) -> Game:
        """Start from a chosen deal (a scenario, a rule example).

        ``level`` defaults to the largest hand's size, ``lives`` and ``stars``
        to the starting values for that many players. Later levels are dealt
        from ``seed``. ``blind=True`` deals a level of blind mode (as after a
        win and `start_blind`), so a scenario can show its check with chosen
        cards; it is saved in the game's ``start`` only when true. ``lang``:
        the language of `describe` (as in `Game`).
        """
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
            raise RuleError("hands must be a list with one list of cards per player.")
        clean: list[list[int]] = []
        for i, hand in enumerate(hands):
            if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
                raise RuleError(f"hand {i} must be a list of cards, not {hand!r}.")
            cards: list[int] = []
            for c in hand:
                try:
                    cards.append(whole("card", c, error=RuleError))
                except RuleError:
                    raise RuleError(f"hand {i} holds {c!r}; cards are whole numbers.") from None
                if len(cards) > MAX_DECK:
                    raise RuleError(f"hand {i} holds too many cards; allowed: at most {MAX_DECK}.")
            clean.append(sorted(cards))
            if len(clean) > MAX_PLAYERS:
                raise RuleError(f"there are too many hands; allowed: at most {MAX_PLAYERS}.")
        rules = _resolve_rules(len(clean), rules)
        seen: dict[int, int] = {}
        for i, cards in enumerate(clean):
            for c in cards:
                if not 1 <= c <= rules.deck:
                    raise RuleError(f"hand {i} holds {c}; cards run from 1 to {rules.deck}.")
                if c in seen:
                    raise RuleError(f"card {c} is dealt twice (to hands {seen[c]} and {i}).")
                seen[c] = i
        if not seen:
            raise RuleError("every hand is empty; deal at least one card.")
        if level is None:
            level = max(1, max(len(h) for h in clean))
        level = whole("level", level, 1, rules.n_levels, error=RuleError)
        lives = rules.start_lives if lives is None else lives
        lives = whole("lives", lives, 1, rules.max_lives, error=RuleError)
        stars = rules.stars if stars is None else stars
        stars = whole("stars", stars, 0, rules.max_stars, error=RuleError)
        blind = flag("blind", blind, error=RuleError)
        start: dict[str, Any] = {"hands": clean, "level": level, "lives": lives, "stars": stars}
        if blind:
            start["blind"] = True
        game = cls.__new__(cls)
        game._setup(rules, seed, start)
        game.lang = lang
        game._blind = blind
        game._deal(fixed=clean)
        return game

    def _setup(self, rules: Rules, seed: int | None, start: dict[str, Any] | None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if type(seed) is not int or seed < 0:
            seed = whole("seed", seed, 0, error=RuleError)
        self._rules = rules
        self._seed = seed
        self._lang = "en"
        self._start = start
        self._rng = _seeded(seed)
        self._level = start["level"] if start else 1
        self._lives = start["lives"] if start else rules.start_lives
        self._stars = start["stars"] if start else rules.stars
        self._stars_boxed = 0
        self._blind = False
        self._blind_cleared = 0
        self._events: list[Event] = []
        self._actions: list[dict[str, Any]] = []
        self._hands: list[list[int]] = []
        self._pile: list[int] = []
        self._pile_players: list[int] = []
        self._pile_faults: list[bool] = []
        self._discards: list[Discard] = []
        self._proposal: dict[int, bool] | None = None
        self._status: Status = "playing"
        self._t = 0.0
        self._concentrating = True
        self._level_event_start = 0
        self._public_cache: list[Any] = [0]
        self._kinds_cache: list[Any] = [-1, 0]

    # R2: level n deals n cards to each player from a fresh shuffle
    def _deal(self, fixed: list[list[int]] | None = None) -> None:
        rules = self._rules
        n, k = rules.players, self._level
        # A hand is kept from high to low (its lowest card is popped from the
        # end); the Dealt event shows each from low to high.
        if fixed is None:
            cards = _sample_cards(self._rng, rules.deck, n * k)
            if k == 1:
                self._hands = [[c] for c in cards]
                shown: tuple[tuple[int, ...], ...] = tuple(zip(cards))
            else:
                hands: list[list[int]] = []
                low_to_high: list[tuple[int, ...]] = []
                for i in range(0, n * k, k):  # one pass: no comprehension frames
                    hand = sorted(cards[i : i + k])
                    low_to_high.append(tuple(hand))
                    hand.reverse()
                    hands.append(hand)
                self._hands = hands
                shown = tuple(low_to_high)
        else:
            self._hands = [sorted(h, reverse=True) for h in fixed]
            shown = tuple(tuple(sorted(h)) for h in fixed)
        self._pile = []
        self._pile_players = []
        self._pile_faults = []
        self._discards = []
        self._proposal = None
        self._status = "playing"
        self._t = 0.0
        self._concentrating = True
        self._level_event_start = len(self._events)
        self._events.append(Dealt(k, 0.0, shown, self._blind))

    # ------------------------------------------------------------- read state
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def players(self) -> int:
        return self._rules.players

    @property
    def level(self) -> int:
        return self._level

    @property
    def levels(self) -> int:
        """How many levels the team must clear to win."""
        return self._rules.n_levels

    @property
    def lives(self) -> int:
        return self._lives

    @property
    def stars(self) -> int:
        return self._stars

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Every hand, each sorted from low to high (the god view)."""
        return tuple(tuple(reversed(h)) for h in self._hands)

    @property
    def pile(self) -> tuple[int, ...]:
        """The cards played in this level, in play order."""
        return tuple(self._pile)

    @property
    def top(self) -> int | None:
        return self._pile[-1] if self._pile else None

    @property
    def discards(self) -> tuple[Discard, ...]:
        """Cards put aside in this level (by mistakes and throwing stars)."""
        return tuple(self._discards)

    @property
    def status(self) -> Status:
        return self._status

    @property
    def blind(self) -> bool:
        return self._blind

    @property
    def blind_levels_cleared(self) -> int:
        return self._blind_cleared

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def event_count(self) -> int:
        """How many events the game has (every level): cheap, unlike `events`."""
        return len(self._events)

    @property
    def level_events(self) -> tuple[Event, ...]:
        """The events of the current level, starting with its deal."""
        return tuple(self._events[self._level_event_start :])

    @property
    def actions(self) -> tuple[dict[str, Any], ...]:
        """Every accepted action, in order: the game's replayable history."""
        return tuple(dict(a) for a in self._actions)

    @property
    def action_count(self) -> int:
        """How many actions the game has accepted: cheap, unlike `actions`."""
        return len(self._actions)

    def actions_from(self, i: int) -> tuple[dict[str, Any], ...]:
        """The accepted actions from the ``i``-th on (copies): what came since."""
        return tuple(dict(a) for a in self._actions[i:])

    @property
    def t(self) -> float:
        """The time of the latest event in this level."""
        return self._t

    @property
    def proposal(self) -> dict[str, Any] | None:
        """The open throwing-star proposal: who agreed so far, or None."""
        if self._proposal is None:
            return None
        return {"votes": dict(self._proposal)}

    @property
    def concentrating(self) -> bool:
        """True while every hand is on the table: after a deal, a stop, and (by
        ``Rules.concentrate_after``) a mistake or a throwing star. `concentrate`
        or a play ends it."""
        return self._concentrating

    def lowest(self, player: int) -> int | None:
        """The lowest card in that player's hand (the only one they may play)."""
        if type(player) is not int or not 0 <= player < self._rules.players:
            player = self._check_player(player)
        hand = self._hands[player]
        return hand[-1] if hand else None

    def legal_actions(self, player: int) -> tuple[str, ...]:
        """The actions the rules allow now, for ``player``: the one source of what a seat may do.

        The names are the core's action names (the methods, and the
        ``"action"`` of `actions` and `apply`), in this order: ``play``,
        ``propose_star``, ``vote``, ``stop`` (the seat's own actions),
        ``use_star``, ``ready`` (the team's actions, without a player:
        every seat may cause them, so every seat lists them),
        ``next_level``, ``start_blind`` (between levels). An action is listed
        exactly when calling it now, at the time of the latest event, raises
        no `RuleError` (``vote`` with either answer). The rules only:
        a table may allow less (`mindwidget.table.Table.allowed`, e.g. no
        play before Ready).
        """
        player = self._check_player(player)
        # Each action's own precondition (below, "preconditions") decides:
        # an action is listed exactly when it would refuse nothing.
        during = self._refuse_playing("act") is None
        allowed = {
            "play": during and self._refuse_play(player) is None,
            "propose_star": during and self._refuse_propose_star() is None,
            "vote": during and self._refuse_vote(player) is None,
            "stop": during,
            "use_star": during and self._refuse_use_star() is None,
            "ready": during,
            "next_level": self._refuse_next_level() is None,
            "start_blind": self._refuse_start_blind() is None,
        }
        return tuple(name for name, ok in allowed.items() if ok)

    # R11: what one player may know
    def observation(self, player: int) -> Observation:
        """What ``player`` may know, and nothing more (see `Observation`)."""
        player = self._check_player(player)
        if self._blind:  # face down: only this player's own cards show
            pile: tuple[int | None, ...] = tuple(
                c if who == player else None
                for c, who in zip(self._pile, self._pile_players, strict=True)
            )
        else:
            pile = tuple(self._pile)
        discards = (
            tuple(
                (d.player, d.card if (d.face_up or d.player == player) else None, kind)
                for d, kind in self._discard_kinds()
            )
            if self._discards
            else ()
        )
        return Observation(
            player=player,
            players=self.players,
            level=self._level,
            levels=self.levels,
            lives=self._lives,
            stars=self._stars,
            status=self._status,
            blind=self._blind,
            hand=tuple(reversed(self._hands[player])),
            counts=tuple(len(h) for h in self._hands),
            pile=pile,
            top=pile[-1] if pile else None,
            discards=discards,
            events=self._public_level_events(),
            t=self._t,
            proposal=self.proposal,
            concentrating=self._concentrating,
        )

    def _public_level_events(self) -> tuple[Mapping[str, Any], ...]:
        """The public dicts of this level's events, cached: events never change."""
        cache = self._public_cache
        start = self._level_event_start
        if cache[0] != start:
            cache[:] = [start]
        for e in self._events[start + len(cache) - 1 :]:
            cache.append(MappingProxyType(e.public_dict()))
        return tuple(cache[1:])

    def _discard_kinds(self) -> list[tuple[Discard, str]]:
        """This level's discards, each with its kind: ``"lost"`` (put aside by a
        mistake) or ``"star"`` (by a throwing star), as in the trace.

        Cached like the public events: only the events since the last call are
        read, so an observation does not cost more as a level grows long.
        """
        cache = self._kinds_cache  # [level start, events read, kind of each discard...]
        if cache[0] != self._level_event_start:
            cache[:] = [self._level_event_start, self._level_event_start]
        for e in self._events[cache[1] :]:
            if isinstance(e, Mistake):
                cache.extend(["lost"] * len(e.discards))
            elif isinstance(e, StarUsed):
                cache.extend(["star"] * len(e.discards))
        cache[1] = len(self._events)
        return list(zip(self._discards, cache[2:], strict=True))

    # ---------------------------------------------------------------- actions
    # R3: a player plays their own lowest card (precondition `_refuse_play`)
    def play(self, player: int, t: float | None = None, card: int | None = None) -> int:
        """``player`` plays their lowest card; returns the card.

        ``card`` may name the card for a check: any card but the lowest is
        refused, because a player always plays their own lowest card first.
        """
        # Each check runs its full method only when its quick test fails: a
        # common play is checked in a few comparisons, with the same errors.
        if type(player) is not int or not 0 <= player < self._rules.players:
            player = self._check_player(player)
        if self._status != "playing":
            self._check_playing("play a card")
        if type(t) is not float or not self._t <= t < math.inf:
            t = self._check_t(t)
        if card is not None or self._proposal is not None or not self._hands[player]:
            # only then may its precondition refuse (the quick test saves a call)
            refused = self._refuse_play(player, card)
            if refused is not None:
                raise refused
        self._actions.append({"action": "play", "player": player, "t": t})
        return self._play(player, t)

    # R3 the pile, R5 a play while the hands are on the table, R6 a mistake and
    # its discards, R9 lost at 0 lives
    def _play(self, player: int, t: float) -> int:
        self._t = t
        if self._concentrating:
            # a card while every hand is on the table: recorded, not refused
            # (a mistake of etiquette); the play ends the concentration.
            self._concentrating = False
            self._events.append(Unready(self._level, t, player))
        hands = self._hands
        hand = hands[player]
        card = hand.pop()
        lower = False
        for h in hands:
            if h and h[-1] < card:
                lower = True
                break
        self._pile.append(card)
        self._pile_players.append(player)
        level = self._level
        if self._blind:
            self._pile_faults.append(lower)
            self._events.append(Played(level, t, player, card, False))
            if not any(hands):
                self._blind_check(t)
            return card
        self._events.append(Played(level, t, player, card, True))
        if lower:
            face_up = self._rules.mistake_discards == "face_up"
            discards: list[Discard] = []
            for q, h in enumerate(hands):
                while h and h[-1] < card:
                    discards.append(Discard(q, h.pop(), face_up))
            self._discards.extend(discards)
            self._lives -= 1  # R6: one life per mistake (the event says so: lives_lost)
            self._events.append(Mistake(level, t, player, card, tuple(discards), 1, self._lives))
            if self._lives <= 0:
                self._lose(t)
                return card
        if not any(hands):
            self._clear(t)
        elif lower and self._rules.concentrate_after != "never":
            # "dan stopt het spel meteen ... Het team concentreert zich opnieuw"
            self._hands_on_table(t, "mistake", min(discards, key=lambda d: d.card).player)
        return card

    # R6/R7: after a mistake or a star every hand goes back on the table (Rules.concentrate_after)
    def _hands_on_table(self, t: float, after: str, player: int) -> None:
        self._concentrating = True
        self._events.append(HandsOnTable(self._level, t, after, player))

    def propose_star(self, player: int, t: float | None = None) -> None:
        """``player`` raises a hand to propose a throwing star (and agrees to it)."""
        player = self._check_player(player)
        self._check_playing("propose a throwing star")
        t = self._check_t(t)
        refused = self._refuse_propose_star()
        if refused is not None:
            raise refused
        self._actions.append({"action": "propose_star", "player": player, "t": t})
        self._propose(player, t)

    def _propose(self, player: int, t: float) -> None:
        self._t = t
        self._proposal = {player: True}
        self._events.append(StarProposed(self._level, t, player))
        self._use_star_if_unanimous(t)

    def vote(self, player: int, agree: bool, t: float | None = None) -> None:
        """``player`` agrees or says no to the open proposal; one no ends it."""
        player = self._check_player(player)
        self._check_playing("vote on a throwing star")
        t = self._check_t(t)
        agree = flag("agree", agree, error=RuleError)
        refused = self._refuse_vote(player)
        if refused is not None:
            raise refused
        self._actions.append({"action": "vote", "player": player, "agree": agree, "t": t})
        self._vote(player, agree, t)

    def _vote(self, player: int, agree: bool, t: float) -> None:
        assert self._proposal is not None
        self._t = t
        self._events.append(StarVoted(self._level, t, player, agree))
        if not agree:
            self._proposal = None
            self._events.append(StarDeclined(self._level, t, player))
            return
        self._proposal[player] = True
        self._use_star_if_unanimous(t)

    def _use_star_if_unanimous(self, t: float) -> None:
        # R7: the star is used once every player agreed (a lone player's
        # proposal is already unanimous).
        if self._proposal is not None and self._rules.unanimous(len(self._proposal)):
            self._use_star(t)

    def use_star(self, t: float | None = None) -> None:
        """Use a throwing star with everyone agreeing at once."""
        self._check_playing("use a throwing star")
        t = self._check_t(t)
        refused = self._refuse_use_star()
        if refused is not None:
            raise refused
        self._actions.append({"action": "use_star", "t": t})
        self._t = t
        self._use_star(t)

    # R7: each player with cards discards their lowest card face up
    def _use_star(self, t: float) -> None:
        proposer = next(iter(self._proposal), None) if self._proposal else None
        self._proposal = None
        discards = tuple(Discard(q, h.pop(), True) for q, h in enumerate(self._hands) if h)
        self._discards.extend(discards)
        self._stars -= 1
        if self._rules.spent_stars == "box":
            self._stars_boxed += 1
        self._events.append(StarUsed(self._level, t, discards, self._stars))
        if not any(self._hands):
            if self._blind:
                self._blind_check(t)
            else:
                self._clear(t)
        elif self._rules.concentrate_after == "mistakes_and_stars":
            # "Daarna concentreert het team zich opnieuw en gaat het level verder."
            who = proposer if proposer is not None else (discards[0].player if discards else 0)
            self._hands_on_table(t, "star", who)

    # R5: stop puts every hand back on the table
    def stop(self, player: int, t: float | None = None, why: str = "player") -> None:
        """``player`` calls "stop": hands go back on the table to concentrate.

        ``why`` (`STOP_REASONS`): "player" when the seat called it; a host stops the
        level in a seat's name for another reason ("offline", "teacher", "seat")."""
        player = self._check_player(player)
        choice("why", why, STOP_REASONS, error=RuleError)
        self._check_playing("call stop")
        t = self._check_t(t)
        action: dict[str, Any] = {"action": "stop", "player": player, "t": t}
        if why != "player":
            action["why"] = why  # saves from before the reasons read the same
        self._actions.append(action)
        self._t = t
        self._concentrating = True
        self._events.append(Stopped(self._level, t, player, why))

    # R5: the hands come off the table
    def ready(self, t: float | None = None) -> None:
        """All hands come off the table: the level starts or goes on."""
        self._check_playing("ready")
        t = self._check_t(t)
        self._actions.append({"action": "ready", "t": t})
        self._t = t
        self._concentrating = False
        self._events.append(Ready(self._level, t))

    def next_level(self) -> None:
        """Deal the next level after a cleared one."""
        refused = self._refuse_next_level()
        if refused is not None:
            raise refused
        self._actions.append({"action": "next_level"})
        self._level += 1
        self._deal()

    # R10: blind mode after a win (precondition `_refuse_start_blind`)
    def start_blind(self) -> None:
        """After a win: start again at level 1, cards face down, same lives and stars."""
        refused = self._refuse_start_blind()
        if refused is not None:
            raise refused
        self._actions.append({"action": "start_blind"})
        self._blind = True
        self._level = 1
        self._events.append(BlindStarted(self._level, 0.0))
        self._deal()

    # ---------------------------------------------------------- level endings
    # R10: the blind pile is turned over and checked (Rules.blind_penalty)
    def _blind_check(self, t: float) -> None:
        penalty = self._rules.blind_penalty
        if penalty == "pile":
            # the turned-over pile: each card lower than the card before it
            pile = self._pile
            faults = tuple(pile[i] for i in range(1, len(pile)) if pile[i] < pile[i - 1])
        else:
            faults = tuple(c for c, f in zip(self._pile, self._pile_faults, strict=True) if f)
        if not faults:
            lost = 0
        elif penalty == "per_level":
            lost = 1
        else:
            lost = len(faults)
        self._lives = max(0, self._lives - lost)
        self._events.append(
            BlindChecked(self._level, t, tuple(self._pile), faults, lost, self._lives)
        )
        if self._lives <= 0:
            self._lose(t)
        else:
            self._clear(t)

    # R8 the reward (Rules.reward), R9 won after the last level
    def _clear(self, t: float) -> None:
        rules = self._rules
        reward, life, star = rules.reward(self._level, self._lives, self._stars, self._stars_boxed)
        if life:
            self._lives += 1
        if star:
            self._stars += 1
        granted: bool = life or star
        self._events.append(LevelCleared(self._level, t, reward, granted, self._lives, self._stars))
        if self._blind:
            self._blind_cleared += 1
        last = rules.levels  # the field: `n_levels` would cost a call on this hot path
        assert last is not None
        if self._level >= last:
            self._status = "won"
            self._events.append(GameWon(self._level, t, self._blind))
        else:
            self._status = "cleared"

    # R9: the last life lost ends the game at once
    def _lose(self, t: float) -> None:
        self._lives = 0
        self._status = "lost"
        self._proposal = None
        self._events.append(GameLost(self._level, t))

    # ------------------------------------------------------------- validation
    def _check_player(self, player: object) -> int:
        if type(player) is int and 0 <= player < self._rules.players:
            return player
        number = whole("player", player, error=RuleError)
        if not 0 <= number < self._rules.players:
            raise RuleError(
                f"there is no player {number}; players are numbered 0 to {self._rules.players - 1}."
            )
        return number

    def _standing(self) -> str:
        """Where the game stands, for an English developer message (`str(RuleError)`)."""
        if self._status in ("cleared", "playing"):
            return f"{self._status} at level {self._level}"
        return f"{self._status} in blind mode" if self._blind else self._status

    def _check_playing(self, what: str) -> None:
        refused = self._refuse_playing(what)
        if refused is not None:
            raise refused

    # ---------------------------------------------------------- preconditions
    # One precondition per action: the refusal the rules give now (after the
    # player and the time stamp are checked), or None when they allow it. The
    # action raises what its precondition returns, and `legal_actions` lists
    # the actions whose precondition returns None: the two cannot disagree.
    def _refuse_playing(self, what: str) -> RuleError | None:
        """Every action within a level (play, stars, stop, ready): the level is on."""
        if self._status == "playing":
            return None
        if self._status == "cleared":
            hint = "call next_level() first"
        elif self._status == "won":
            hint = "the game is won; start_blind() plays on in blind mode"
        else:
            hint = "the game is lost; start a new Game"
        return RuleError(
            f"cannot {what}: level {self._level} is over ({self._status}); {hint}.",
            self._status,
            level=self._level,
        )

    def _refuse_play(self, player: int, card: int | None = None) -> RuleError | None:
        """R3: a player with cards plays their own lowest card; not while a star is proposed."""
        hand = self._hands[player]
        if not hand:
            return RuleError(
                f"player {player} has no cards left to play.", "no_cards", player=player
            )
        if card is not None:
            if card not in hand:
                return RuleError(
                    f"player {player} does not hold {card}.", "not_held", player=player, card=card
                )
            if card != hand[-1]:
                return RuleError(
                    f"player {player} must play their lowest card, {hand[-1]}, before {card}: "
                    "you always play the lowest card of your own hand first.",
                    "lowest_first",
                    player=player,
                    lowest=hand[-1],
                    card=card,
                )
        if self._proposal is not None:
            return RuleError(
                "a throwing star has been proposed; every player votes "
                "(Game.vote) before anyone plays.",
                "vote_first",
            )
        return None

    def _refuse_propose_star(self) -> RuleError | None:
        """R7: a star is proposed while the team holds one and none is proposed yet."""
        if self._stars <= 0:
            return RuleError("the team has no throwing star left to propose.", "no_stars")
        if self._proposal is not None:
            return RuleError(
                "a throwing star is already proposed; vote on it (Game.vote) before "
                "proposing another.",
                "already_proposed",
            )
        return None

    def _refuse_vote(self, player: int) -> RuleError | None:
        """R7: a vote needs an open proposal that this player has not agreed to yet."""
        if self._proposal is None:
            return RuleError(
                "no throwing star is proposed; propose_star(player) comes first.", "no_proposal"
            )
        if player in self._proposal:
            return RuleError(
                f"player {player} has already agreed to this proposal.",
                "already_agreed",
                player=player,
            )
        return None

    def _refuse_use_star(self) -> RuleError | None:
        """R7: a star is used (everyone agreeing at once) while the team holds one."""
        if self._stars <= 0:
            return RuleError("the team has no throwing star left to use.", "no_stars")
        return None

    def _refuse_next_level(self) -> RuleError | None:
        """R9: the next level is dealt after a cleared one."""
        if self._status == "cleared":
            return None
        return RuleError(
            f"next_level() comes after a cleared level; the game is {self._standing()}.",
            self._status if self._status in ("won", "lost") else "next_level",
        )

    def _refuse_start_blind(self) -> RuleError | None:
        """R10: blind mode starts after a win, once."""
        if self._status == "won" and not self._blind:
            return None
        return RuleError(
            f"blind mode starts after a win (and only once); the game is {self._standing()}.",
            "start_blind",
        )

    # R4: no turns; time stamps never decrease within a level
    def _check_t(self, t: object) -> float:
        if t is None:
            return self._t
        if type(t) is float and self._t <= t < math.inf:
            return t
        try:
            t = finite("t", t, 0.0, error=RuleError)
        except RuleError:
            raise RuleError(f"t must be a finite number of seconds >= 0, not {t!r}.") from None
        refusal = self._refuse_time(t)
        if refusal is not None:
            raise refusal
        return t

    def refusal(self, action: str, seat: int | None = None) -> RuleError | None:
        """The rules' refusal of ``action`` ("play", "propose_star", "vote",
        "use_star", "next_level", "start_blind") by ``seat`` now, or None: the
        action's own precondition, the one its method and `legal_actions` ask. A
        table asks it before its bots catch up, so that a refused action lets no
        time pass."""
        if action in ("play", "vote"):
            player = self._check_player(seat)
            return self._refuse_play(player) if action == "play" else self._refuse_vote(player)
        checks = {
            "propose_star": self._refuse_propose_star,
            "use_star": self._refuse_use_star,
            "next_level": self._refuse_next_level,
            "start_blind": self._refuse_start_blind,
        }
        if action not in checks:
            allowed = ", ".join(("play", "vote", *checks))
            raise ValueError(f"action must be one of {allowed}, not {action!r}.")
        return checks[action]()

    def time_refusal(self, t: float) -> RuleError | None:
        """R4's refusal of an action at level time ``t``, or None (see `_refuse_time`)."""
        return self._refuse_time(t)

    def _refuse_time(self, t: float) -> RuleError | None:
        """R4's refusal of an action at level time ``t`` (a number), or None: time
        stamps never decrease within a level. The one statement of the rule; `Table`
        asks it before its bots catch up to ``t`` (as it asks `_refuse_play`)."""
        if t >= self._t:
            return None
        return RuleError(
            f"t={t:g} is earlier than the last event of this level (t={self._t:g}); "
            "time stamps never decrease within a level.",
            "too_late",
            t=round(t, 2),
            last=round(self._t, 2),
        )

    # ----------------------------------------------------- save, load, branch
    def copy(self) -> Game:
        """An independent game in the same state: the branching primitive.

        Nothing mutable is shared: playing on in the copy never changes this game.
        """
        other = Game.__new__(Game)
        for f in _STATE:
            setattr(other, f.name, f.copy(getattr(self, f.name)))
        return other

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """For pickle and `copy.copy`: every declared field, the derived cache
        of public events left out (its read-only views do not pickle)."""
        state = {f.name: getattr(self, f.name) for f in _STATE}
        state["_public_cache"] = _fresh_cache(self._public_cache)
        return None, state

    def _snapshot(self) -> dict[str, Any]:
        """The saved state that a loaded game is checked against."""
        return {f.key: f.dump(getattr(self, f.name)) for f in _STATE if f.key and not f.top}

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-able description: rules, seed, start, actions and state."""
        top = {f.key: f.dump(getattr(self, f.name)) for f in _STATE if f.key and f.top}
        return saves.document(top, self._snapshot())

    def to_json(self) -> str:
        """Save the game: `Game.from_json` gives it back exactly (`mindwidget.saves`)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load a saved game. Malformed or tampered text raises `RuleError`."""
        return cls.from_dict(saves.parse(text))

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Load a saved game's dict: its shape checked (`mindwidget.saves.read`), its
        actions replayed, the replay checked against its saved state."""
        saved = saves.read(data, _TOP_KEYS)
        if saved.start is None:
            game = cls(seed=saved.seed, rules=saved.rules)
        else:
            game = cls.from_hands(**saved.start, rules=saved.rules, seed=saved.seed)
        saves.replay(game.apply, saved.actions)
        saves.check_state(saved.state, game._snapshot())
        return game

    def apply(self, action: Any) -> None:
        """Apply one action given as a dict, as in `actions` and saved games."""
        if not isinstance(action, dict) or not isinstance(action.get("action"), str):
            raise RuleError(
                "an action is an object with an 'action' key: play, propose_star, vote, "
                "use_star, stop, ready, next_level or start_blind."
            )
        kind = action["action"]
        allowed = ACTION_FIELDS.get(kind)
        if allowed is None:
            raise RuleError(
                f"unknown action {kind!r}; allowed: {', '.join(sorted(ACTION_FIELDS))}."
            )
        extra = set(action) - {"action"} - set(allowed)
        if extra:
            raise RuleError(f"action {kind!r} takes {allowed or 'no fields'}, not {sorted(extra)}.")
        args = {k: action.get(k, _ACTION_DEFAULTS.get(k)) for k in allowed}
        getattr(self, kind)(**args)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    @property
    def lang(self) -> str:
        """The language of `describe` and the repr ("en", "nl" or "de"): a
        game shown in a Dutch lesson speaks Dutch. Not part of the game's state."""
        return str(self._lang)

    @lang.setter
    def lang(self, value: str) -> None:
        choice("lang", value, LANGS, quoted=False, error=RuleError)
        self._lang = value

    def __repr__(self) -> str:
        return self.describe()

    def describe(self, lang: str | None = None) -> str:
        """A readable text form of the whole table, for a projector.

        In ``lang`` (default: the game's `lang`); seats are counted from 1, as
        everywhere a pupil reads ("player 1" is ``hands[0]``). The words are
        `mindwidget.descriptions.describe`'s: the core says nothing in words.
        """
        return _WORDS[0](self, lang)


ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("player", "t"),
    "propose_star": ("player", "t"),
    "vote": ("player", "agree", "t"),
    "use_star": ("t",),
    "stop": ("player", "t", "why"),
    "ready": ("t",),
    "next_level": (),
    "start_blind": (),
}

#: A field an action may leave out, and what it then means.
_ACTION_DEFAULTS: dict[str, Any] = {"why": "player"}


def _no_words(game: Game, lang: str | None) -> str:
    raise RuntimeError("the words of a game load with mindwidget.descriptions (import mindwidget).")


#: How `Game.describe` and the repr put a game into words. The core says nothing
#: in words: `mindwidget.descriptions` (a layer above, with the locale files) sets
#: this when it loads, and ``import mindwidget`` loads it, so any game speaks.
_WORDS: list[Callable[[Game, str | None], str]] = [_no_words]


def set_words(describe: Callable[[Game, str | None], str]) -> None:
    """Give `Game.describe` and the repr their words (`mindwidget.descriptions` does)."""
    _WORDS[0] = describe


_DEFAULT_RULES: dict[int, Rules] = {}


_SET_SIZES: dict[int, int] = {}


# R2: the shuffle
def _sample_cards(rng: random.Random, deck: int, k: int) -> list[int]:
    """``rng.sample(range(1, deck + 1), k)``: the same cards in the same order.

    This is CPython's `random.Random.sample` (3.9 to 3.13) for that
    population, inlined: dealing is the hottest step of a short game. Kept
    here, a saved game deals alike whatever Python runs it; a test checks it
    against `random.Random.sample`.
    """
    getrandbits = rng.getrandbits
    result: list[int] = []
    # sample() picks from a pool list when that is smaller than a set of k picks
    setsize = _SET_SIZES.get(k)
    if setsize is None:
        setsize = _SET_SIZES[k] = 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0)
    if deck <= setsize:
        pool = list(range(1, deck + 1))
        for i in range(k):
            m = deck - i
            bits = m.bit_length()
            j = getrandbits(bits)
            while j >= m:
                j = getrandbits(bits)
            result.append(pool[j])
            pool[j] = pool[m - 1]
    else:
        bits = deck.bit_length()
        selected: set[int] = set()
        for _ in range(k):
            j = getrandbits(bits)
            while j >= deck or j in selected:
                j = getrandbits(bits)
            selected.add(j)
            result.append(j + 1)
    return result


_seed_random: Callable[[random.Random, int], None] = random.Random.__mro__[1].seed  # type: ignore[attr-defined]


def _seeded(seed: int) -> random.Random:
    """``random.Random(seed)``, seeded once: for a whole number, `Random.__init__`
    only calls this same C seed function (and clears its Gaussian cache)."""
    rng = random.Random.__new__(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


def _resolve_rules(players: int | None, rules: Rules | None) -> Rules:
    if rules is None:
        n = 3 if players is None else players
        cached = _DEFAULT_RULES.get(n) if type(n) is int else None
        if cached is None:
            cached = Rules(players=n)
            _DEFAULT_RULES[n] = cached
        return cached
    if not isinstance(rules, Rules):
        raise RuleError(f"rules must be a Rules(...), not {type(rules).__name__}.")
    if players is not None and players != rules.players:
        raise RuleError(f"players={players} disagrees with rules.players={rules.players}.")
    return rules
