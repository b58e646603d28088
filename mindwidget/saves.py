"""Saved games: the file format, its checks, and the names old files still use.

A saved game (`Game.to_json`, read back by `Game.from_json`) is one JSON
object: ``format`` and ``version``, the rules, the seed, the chosen start (or
null), every action, and a snapshot of the state (``"state"``) that the
replayed game must match (a tampered file is refused). Which fields a game
saves is declared with the game's state (`mindwidget.game._STATE`); this module
knows the document around them and reads it as hostile input: whatever is
wrong with a file, loading it raises `RuleError`, never another exception.

Part of the core (no clock, no I/O, no words): it imports the rules and the
checks only, and `Game` passes itself in, so the core has no import circle.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .checks import load_json
from .rules import MAX_ACTIONS, RuleError, Rules

__all__ = [
    "FORMAT",
    "OLD_ACTION_NAMES",
    "OLD_STATUS_NAMES",
    "VERSION",
    "Saved",
    "check_state",
    "document",
    "parse",
    "read",
    "renamed_action",
    "replay",
]

FORMAT = "mindwidget-game"
VERSION = 1

#: Names that saved games and scenario files made before each concept got one
#: name ("one name per concept") still use, and the names they have now. `read` (so
#: `Game.from_json`) takes both; what a game saves uses only the new names.
#: ``tools/migrate_scenarios.py`` rewrote the scenario files with the same maps.
OLD_ACTION_NAMES: dict[str, str] = {"concentrate": "ready", "vote_star": "vote"}
OLD_STATUS_NAMES: dict[str, str] = {"level_cleared": "cleared"}

_START_KEYS = frozenset({"hands", "level", "lives", "stars"})


@dataclass(frozen=True)
class Saved:
    """A saved game's parts, checked for shape (the game checks their values).

    ``start`` is None (dealt from the seed) or the keyword arguments of
    `Game.from_hands` (hands, level, lives, stars, blind); ``actions`` are under
    their current names; ``state`` is the snapshot to compare the replay with.
    """

    rules: Rules
    seed: Any
    start: dict[str, Any] | None
    actions: list[Any]
    state: dict[str, Any]


def document(top: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """The saved game: format and version, the ``top`` fields, then the state snapshot."""
    return {"format": FORMAT, "version": VERSION, **top, "state": dict(state)}


def parse(text: object) -> Any:
    """The JSON of a saved game (bounded size and nesting), else `RuleError`."""
    return load_json(text, "a saved game", error=RuleError)


def read(data: Any, top_keys: tuple[str, ...]) -> Saved:
    """Check a saved game's shape: each part where it belongs, of the right kind.

    ``top_keys`` are the fields a game saves beside its state (`Game` knows them).
    """
    if not isinstance(data, dict):
        raise RuleError("a saved game is a JSON object with rules, seed, start and actions.")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise RuleError(
            f"not a saved mindwidget game: expected format {FORMAT!r} version {VERSION}, "
            f"got {_shown(data.get('format'))} version {_shown(data.get('version'))}."
        )
    missing = [k for k in (*top_keys, "state") if k not in data]
    if missing:
        raise RuleError(f"the saved game lacks {', '.join(missing)}.")
    try:
        rules = Rules.from_dict(data["rules"])
    except (TypeError, OverflowError) as exc:
        raise RuleError(f"the saved rules are malformed: {exc}") from None
    start = data["start"]
    if start is not None and not (
        isinstance(start, dict) and set(start) - {"blind"} == _START_KEYS
    ):
        raise RuleError(
            "the saved start must be null or have hands, level, lives, stars (and blind)."
        )
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RuleError("the saved actions must be a list.")
    if len(actions) > MAX_ACTIONS:
        raise RuleError(
            f"the saved game holds {len(actions):,} actions; allowed: at most {MAX_ACTIONS:,}."
        )
    state = data["state"]
    if not isinstance(state, dict):
        raise RuleError("the saved state must be an object.")
    status = state.get("status")
    if isinstance(status, str) and status in OLD_STATUS_NAMES:
        state = {**state, "status": OLD_STATUS_NAMES[status]}
    return Saved(rules, data["seed"], start, [renamed_action(a) for a in actions], state)


def renamed_action(action: Any) -> Any:
    """A saved action under its current name (`OLD_ACTION_NAMES`); anything else as it is.

    Anything else includes what is not an action at all (``{"action": {}}``, a
    number): `Game.apply` refuses it with a `RuleError` that says what an action is.
    """
    if isinstance(action, dict):
        name = action.get("action")
        if isinstance(name, str) and name in OLD_ACTION_NAMES:
            return {**action, "action": OLD_ACTION_NAMES[name]}
    return action


def replay(apply: Callable[[Any], None], actions: list[Any]) -> None:
    """Apply each saved action in turn; the first one the rules refuse names its place."""
    for i, action in enumerate(actions):
        try:
            apply(action)
        except RuleError as exc:
            raise RuleError(
                f"saved action #{i} ({_shown(action)}) is not possible: {exc}"
            ) from None


def check_state(saved: Mapping[str, Any], replayed: Mapping[str, Any]) -> None:
    """Refuse a file whose saved state does not follow from its seed and actions."""
    for key, value in replayed.items():
        if _jsonish(saved.get(key)) != _jsonish(value):
            raise RuleError(
                f"the saved game was changed: its {key!r} does not follow from its seed "
                "and actions."
            )


def _shown(value: Any, limit: int = 80) -> str:
    """A value for a message: its repr, cut short (a hostile file may hold anything)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _jsonish(value: Any) -> Any:
    """Normalise tuples to lists so saved and replayed state compare equal."""
    return json.loads(json.dumps(value))
