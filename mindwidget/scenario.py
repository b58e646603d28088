"""Scenarios: a chosen deal and a script of actions, told step by step.

A `Scenario` is a deal (hands, level, lives, stars, rule options) plus a
script of actions (plays with their times, stops, star proposals and votes),
with a title and, for every step, a narration that says what happened, in
English, Dutch and German, and what the step shows: a rule of the game (with
its source text, quoted from the rule texts the project follows) or a tip for
playing well. Tips are not rules, and the board labels them differently.

Cell by cell::

    s = Scenario.load("mistake")   # the library: Scenario.names()
    s.step()                       # the next action; shows the narration and the table
    s.back(); s.reset(); s.goto(3)
    s.state                        # the Game after the steps taken (a copy)
    s.branch()                     # a Game to play on from here, by hand or with bots
    s.trace()                      # the timing trace so far (mindwidget.trace)

Write your own with ``Scenario(hands=[...], script=[...], title=...,
narration=[...])`` and keep it with `Scenario.save` / `Scenario.load`. The
constructor plays the whole script once, so a scenario that exists is one
that works: a card dealt twice, a card outside 1-100, or a step that is not
possible at that point raises `mindwidget.RuleError` naming the step and why.

A script step is an action exactly as in `Game.actions`, e.g.
``{"action": "play", "player": 0, "t": 1.5}``, with two optional extras:
``"card"`` on a play names the card for a check (it must be that player's
lowest card), and ``"refused": true`` marks a step that the rules refuse (a
common mistake shown as what goes wrong): the game must refuse it, the state
stays as it was, and `Scenario.refusal` holds the game's reason.
``expect`` (one dict or None per step) states what the table looks like after
the step (``lives``, ``stars``, ``hands``, ``pile``, ``discards``, ...); the
constructor checks it, so a narration's claims are checked too.

In a scenario file every step is an object: the action's fields, ``"say"``
(the narration), then ``"rule"`` or ``"tip"`` (the point the step shows, in
the three languages) with ``"source"`` (a key of ``scenarios/_sources.json``,
where each rule's source text is quoted; required for a rule), and
``"expect"``. The library is the folder ``mindwidget/scenarios/``: data only.

Steps are numbered from 1: ``s.position == k`` means the first k steps are
done, and ``s.state`` is the start game with the first k actions applied.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import textwrap
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import pandas as pd

from .checks import MAX_JSON_CHARS, choice, load_json
from .descriptions import describe
from .game import ACTION_FIELDS, Game
from .i18n import LANGS, reason, translate
from .rules import RuleError, Rules
from .traces import trace

__all__ = ["EXPECT_KEYS", "LANGS", "LIBRARY", "Scenario", "reachable", "sources"]

#: The languages of the library's titles and narrations.
FORMAT = "mindwidget-scenario"
VERSION = 1

#: The library in teaching order (each is ``library/<name>.json``).
LIBRARY = (
    "clean_level",
    "lowest_first",
    "consecutive",
    "mistake",
    "three_lower",
    "mistake_clears_level",
    "same_moment",
    "four_players",
    "star_information",
    "star_declined",
    "star_ends_level",
    "star_one_hand_left",
    "reward_after_mistake",
    "cap_lives",
    "cap_stars",
    "last_life",
    "blind_check",
    "blind_last_life",
    "blind_win",
    "common_skip_concentration",
    "common_redeal",
    "common_life_per_card",
    "common_high_card_first",
    "common_twelve_levels",
    "common_star_too_long",
)
#: Kinds of point a step can show: a rule of the game, or a tip for playing well.
POINT_KINDS = ("rule", "tip")

#: What a step's ``expect`` may state about the table after that step.
EXPECT_KEYS = (
    "level",
    "lives",
    "stars",
    "status",
    "hands",
    "pile",
    "discards",
    "blind",
    "concentrating",
)

_TOP_KEYS = (
    "format",
    "version",
    "name",
    "title",
    "intro",
    "rules",
    "hands",
    "level",
    "lives",
    "stars",
    "seed",
    "blind",
    "steps",
)
_STEP_EXTRAS = ("card", "refused")
_STEP_TEXT = ("say", "rule", "tip", "source", "expect")


@cache
def _sources() -> dict[str, Any]:
    path = resources.files("mindwidget") / "scenarios" / "_sources.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


#: The language a board falls back to when no rule text in its own language says the same.
_FALLBACK = {"en": ("en", "nl", "de"), "nl": ("nl", "en", "de"), "de": ("de", "en", "nl")}


def sources(lang: str = "en") -> dict[str, dict[str, str]]:
    """The rule texts' own words behind each rule and tip the library shows.

    ``{key: {"doc": ..., "title": ..., "quote": ..., "lang": ...}}``: ``quote``
    is the sentence as it stands in the rule text ``title`` (``doc`` names it),
    in ``lang`` where a rule text in that language says the same thing, else in
    another language (``lang`` of the result says which; the title names it).
    """
    choice("lang", lang, tuple(_FALLBACK), quoted=False, error=RuleError)
    data = _sources()
    out = {}
    for key, quotes in data["sources"].items():
        said = next(q for q in _FALLBACK[lang] if q in quotes)
        src = quotes[said]
        out[key] = {
            "doc": src["doc"],
            "title": data["docs"][src["doc"]],
            "quote": src["quote"],
            "lang": said,
        }
    return out


def all_quotes() -> list[tuple[str, str, str]]:
    """Every quote of every source in every language: ``(key, lang, quote)``."""
    return [
        (key, lang, src["quote"])
        for key, quotes in _sources()["sources"].items()
        for lang, src in quotes.items()
    ]


def reachable(rules: Rules, level: int, lives: int, stars: int, blind: bool = False) -> str | None:
    """Why a team cannot hold ``lives`` and ``stars`` at ``level``, or None if it can.

    A team starts with the player count's lives and stars and gains only the
    rewards of the levels it cleared before (up to the caps). In blind mode it
    starts from what it had after the whole game, plus the blind levels' rewards.
    """
    before = range(1, rules.n_levels + 1) if blind else range(1, level)
    extra = range(1, level) if blind else range(0)
    most_lives, most_stars = rules.start_lives, rules.stars
    for cleared in [*before, *extra]:  # R8: every reward earned, by the core's own rule
        _, life, star = rules.reward(cleared, most_lives, most_stars, 0)
        most_lives += int(life)
        most_stars += int(star)
    mode = "blind " if blind else ""
    if lives > most_lives:
        return (
            f"{rules.players} players reach {mode}level {level} with at most {most_lives} "
            f"lives ({rules.start_lives} at the start plus the rewards before it), not {lives}."
        )
    if stars > most_stars:
        return (
            f"{rules.players} players reach {mode}level {level} with at most {most_stars} "
            f"throwing stars ({rules.stars} at the start plus the rewards before it), "
            f"not {stars}."
        )
    return None


Text = str | Mapping[str, str]


class Scenario:
    """A deal plus a narrated script that a class can step through.

    ``hands`` is one list of cards per player. ``script`` lists the actions
    (see the module docstring) and ``narration`` one text per action: a plain
    string (taken as English) or ``{"en": ..., "nl": ..., "de": ...}``.
    ``intro`` is the text shown before the first step. ``level``, ``lives``,
    ``stars``, ``rules`` and ``seed`` go to `Game.from_hands` (``seed``
    deals any later level); ``blind=True`` deals a level of blind mode.
    ``rules`` is a `Rules` or a dict for `Rules.from_dict` (``players``
    defaults to the number of hands). ``points`` gives, per step, None or
    ``{"kind": "rule" | "tip", "text": ..., "source": key}`` (what the step
    shows; a rule names its ``source`` in `sources`).
    """

    def __init__(
        self,
        hands: Sequence[Sequence[int]],
        script: Sequence[Mapping[str, Any]],
        *,
        title: Text,
        narration: Sequence[Text],
        points: Sequence[Mapping[str, Any] | None] | None = None,
        intro: Text | None = None,
        expect: Sequence[Mapping[str, Any] | None] | None = None,
        level: int | None = None,
        lives: int | None = None,
        stars: int | None = None,
        rules: Rules | Mapping[str, Any] | None = None,
        seed: int = 0,
        blind: bool = False,
        name: str | None = None,
        lang: str = "en",
    ) -> None:
        if name is not None and (not isinstance(name, str) or not name):
            raise RuleError(f"a scenario's name must be a non-empty string, not {name!r}.")
        self._name = name
        self._title = _text(title, "title", self._where())
        self._intro = None if intro is None else _text(intro, "intro", self._where())
        self._rules = _rules(rules, hands, self._where())
        try:
            start = Game.from_hands(
                hands,
                level=level,
                lives=lives,
                stars=stars,
                rules=self._rules,
                seed=seed,
                blind=blind,
            )
        except RuleError as exc:
            raise RuleError(f"{self._where()}the deal is not possible: {exc}") from None
        self._start = start
        self._script = _script(script, self._where())
        n = len(self._script)
        if isinstance(narration, (str, bytes)) or not isinstance(narration, Sequence):
            raise RuleError(f"{self._where()}narration must be a list with one text per step.")
        if len(narration) != n:
            raise RuleError(
                f"{self._where()}the script has {n} step(s) but the narration has "
                f"{len(narration)} text(s); give one narration per step."
            )
        self._narration = [
            _text(t, f"the narration of step {i}", self._where())
            for i, t in enumerate(narration, 1)
        ]
        points = [None] * n if points is None else points
        if isinstance(points, (str, bytes)) or not isinstance(points, Sequence):  # type: ignore[unreachable]
            raise RuleError(f"{self._where()}points must be a list with one entry per step.")
        if len(points) != n:
            raise RuleError(
                f"{self._where()}the script has {n} step(s) but points has {len(points)} "
                "entries; give one per step (null where the step shows no rule or tip)."
            )
        self._points = [_point(p, i, self._where()) for i, p in enumerate(points, 1)]
        expect = [None] * n if expect is None else expect
        if not isinstance(expect, Sequence) or isinstance(expect, (str, bytes)):  # type: ignore[unreachable]
            raise RuleError(f"{self._where()}expect must be a list with one entry per step.")
        if len(expect) != n:
            raise RuleError(
                f"{self._where()}the script has {n} step(s) but expect has {len(expect)} "
                "entries; give one per step (null where nothing is checked)."
            )
        self._expect = [_expect(e, i, self._where()) for i, e in enumerate(expect, 1)]
        self.lang = lang
        # Play the whole script once: every step must be possible (or, when
        # marked refused, be refused) and reach what its expect says.
        game = start.copy()
        self._refusals: list[RuleError | None] = []
        for i, step in enumerate(self._script, 1):
            self._refusals.append(self._run(game, i, step))
            self._check(game, i)
        self._game = start.copy()
        self._pos = 0

    # ------------------------------------------------------------ library
    @staticmethod
    def names() -> list[str]:
        """The names of the library's scenarios, in teaching order."""
        return list(LIBRARY)

    @classmethod
    def load(cls, name: str | os.PathLike[str], lang: str = "en") -> Scenario:
        """A library scenario by name, or a scenario file (a path ending in .json).

        A loaded scenario is checked to be one that can happen: its lives and
        stars are reachable at its level with its number of players (`reachable`).
        """
        if isinstance(name, os.PathLike) or (
            isinstance(name, str) and (name.endswith(".json") or "/" in name or os.sep in name)
        ):
            with open(name, encoding="utf-8") as f:
                text = f.read(MAX_JSON_CHARS + 1)  # load_json refuses a longer file
            s = cls.from_json(text)
        else:
            if name not in LIBRARY:
                close = difflib.get_close_matches(str(name), LIBRARY, n=1)
                hint = f" Did you mean {close[0]!r}?" if close else ""
                raise RuleError(
                    f"no scenario named {name!r} in the library.{hint} "
                    f"Scenario.names() lists them: {', '.join(LIBRARY)}."
                )
            path = resources.files("mindwidget") / "scenarios" / f"{name}.json"
            s = cls.from_json(path.read_text(encoding="utf-8"))
        start = s._start
        why = reachable(s._rules, start.level, start.lives, start.stars, start.blind)
        if why:
            raise RuleError(f"{s._where()}this scenario cannot happen: {why}")
        s.lang = lang
        return s

    # ----------------------------------------------------------- stepping
    def step(self) -> Scenario:
        """Take the next step of the script (returns the scenario, to show it)."""
        if self._pos >= len(self._script):
            raise RuleError(
                f"{self._where()}the scenario is at its end (step {self._pos} of "
                f"{len(self._script)}); back(), reset() or branch() to play on."
            )
        step = self._script[self._pos]
        if step.get("refused"):
            with contextlib.suppress(RuleError):
                _apply(self._game, step)
        else:
            _apply(self._game, step)
        self._pos += 1
        return self

    def back(self) -> Scenario:
        """Undo the last step: replay the script from the start up to the step before."""
        if self._pos == 0:
            raise RuleError(f"{self._where()}the scenario is at its start; step() goes forward.")
        return self.goto(self._pos - 1)

    def reset(self) -> Scenario:
        """Back to the deal, before the first step."""
        return self.goto(0)

    def goto(self, position: int) -> Scenario:
        """The state after the first ``position`` steps (0 is the deal)."""
        n = len(self._script)
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= n:
            raise RuleError(f"position must be a whole number from 0 to {n}, not {position!r}.")
        self._game = self._start.copy()
        self._pos = 0
        while self._pos < position:
            self.step()
        return self

    @property
    def position(self) -> int:
        """How many steps are done (0 before the first)."""
        return self._pos

    @property
    def at_end(self) -> bool:
        return self._pos == len(self._script)

    def __len__(self) -> int:
        """The number of steps in the script."""
        return len(self._script)

    @property
    def state(self) -> Game:
        """The game after the steps taken so far (a copy: changing it leaves the scenario).
        It speaks the scenario's `lang` when printed."""
        return self._copy()

    def branch(self) -> Game:
        """A game to play on from here, by hand or with bots (the scenario stays as it is).
        It speaks the scenario's `lang` when printed."""
        return self._copy()

    def _copy(self) -> Game:
        game = self._game.copy()
        game.lang = self._lang
        return game

    def trace(self) -> pd.DataFrame:
        """The timing trace of the steps taken so far (see `mindwidget.traces.trace`)."""
        return trace(self._game)

    # --------------------------------------------------------------- text
    @property
    def name(self) -> str | None:
        return self._name

    @property
    def lang(self) -> str:
        """The language of `title`, `text` and the printed form: en, nl or de."""
        return self._lang

    @lang.setter
    def lang(self, value: str) -> None:
        self._lang = choice("lang", value, LANGS, quoted=False, error=RuleError)

    @property
    def title(self) -> str:
        return _pick(self._title, self._lang)

    @property
    def text(self) -> str:
        """The narration of the step just taken (the intro before the first step)."""
        if self._pos == 0:
            return _pick(self._intro, self._lang) if self._intro else self.title
        return _pick(self._narration[self._pos - 1], self._lang)

    @property
    def point(self) -> dict[str, Any] | None:
        """What the step just taken shows, in `lang`: ``{"kind": "rule" | "tip",
        "text": ..., "source": {"doc", "title", "quote"} or None}``, or None."""
        point = self._points[self._pos - 1] if self._pos else None
        if point is None:
            return None
        src = point.get("source")
        return {
            "kind": point["kind"],
            "text": _pick(point["text"], self._lang),
            "source": None if src is None else sources(self._lang)[src],
        }

    @property
    def points(self) -> list[dict[str, Any] | None]:
        """Every step's point (rule or tip) in every language, with its source key."""
        return [None if p is None else {**p, "text": dict(p["text"])} for p in self._points]

    @property
    def refusal(self) -> str | None:
        """Why the game refused the step just taken, if it was a refused step."""
        why = self._refusals[self._pos - 1] if self._pos else None
        return None if why is None else str(why)

    @property
    def refusal_text(self) -> str | None:
        """`refusal` in `lang` (what the board and the printed form show)."""
        why = self._refusals[self._pos - 1] if self._pos else None
        return None if why is None else reason(why, self._lang)

    @property
    def titles(self) -> dict[str, str]:
        """The title in every language it exists in."""
        return dict(self._title)

    @property
    def narrations(self) -> list[dict[str, str]]:
        """Every step's narration in every language it exists in."""
        return [dict(t) for t in self._narration]

    @property
    def intro(self) -> dict[str, str] | None:
        return None if self._intro is None else dict(self._intro)

    @property
    def script(self) -> list[dict[str, Any]]:
        return [dict(s) for s in self._script]

    @property
    def expectations(self) -> list[dict[str, Any] | None]:
        return [None if e is None else dict(e) for e in self._expect]

    def __repr__(self) -> str:
        lang = self._lang
        n = len(self._script)
        where = (
            translate("scenario_where_start", lang)
            if self._pos == 0
            else translate("scenario_where_step", lang, k=self._pos, n=n)
        )
        lines = [f"{self.title} ({where})", "", *textwrap.wrap(self.text, 78)]
        point = self.point
        if point is not None:
            label = translate(f"scenario_{point['kind']}", lang)
            lines += textwrap.wrap(f"{label}: {point['text']}", 78)
        why = self.refusal_text
        if why:
            lines += textwrap.wrap(f"{translate('scenario_refused', lang)} {why}", 78)
        lines += ["", describe(self._game, lang)]
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------- save and load
    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-able description (what `to_json` writes)."""
        start = self._start.to_dict()["start"]
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self._name is not None:
            out["name"] = self._name
        out["title"] = dict(self._title)
        if self._intro is not None:
            out["intro"] = dict(self._intro)
        out["rules"] = self._rules.to_dict()
        out["hands"] = [list(h) for h in start["hands"]]
        out["level"] = start["level"]
        out["lives"] = start["lives"]
        out["stars"] = start["stars"]
        out["seed"] = self._start.seed
        out["blind"] = bool(start.get("blind", False))
        steps = []
        for action, say, point, expect in zip(
            self._script, self._narration, self._points, self._expect, strict=True
        ):
            step: dict[str, Any] = dict(action)
            step["say"] = dict(say)
            if point is not None:
                step[point["kind"]] = dict(point["text"])
                if point.get("source") is not None:
                    step["source"] = point["source"]
            if expect is not None:
                step["expect"] = dict(expect)
            steps.append(step)
        out["steps"] = steps
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the scenario as JSON; `Scenario.load(path)` reads it back."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json() + "\n")

    @classmethod
    def from_json(cls, text: str | bytes) -> Scenario:
        return cls.from_dict(load_json(text, "a scenario file", error=RuleError))

    @classmethod
    def from_dict(cls, data: Any) -> Scenario:
        """Build a scenario from its JSON form, checking every part of it."""
        if not isinstance(data, dict):
            raise RuleError("a scenario is a JSON object with hands, title and steps.")
        name = data.get("name")
        where = f"scenario {name!r}: " if isinstance(name, str) else ""
        if "format" in data and data["format"] != FORMAT:
            raise RuleError(f"{where}format must be {FORMAT!r}, not {data['format']!r}.")
        if "version" in data and data["version"] != VERSION:
            raise RuleError(f"{where}version {data['version']!r} is unknown; allowed: {VERSION}.")
        unknown = sorted(set(data) - set(_TOP_KEYS))
        if unknown:
            raise RuleError(
                f"{where}unknown key(s) {', '.join(unknown)}; allowed: {', '.join(_TOP_KEYS)}."
            )
        missing = [k for k in ("hands", "title", "steps") if k not in data]
        if missing:
            raise RuleError(f"{where}the scenario lacks {', '.join(missing)}.")
        steps = data["steps"]
        if not isinstance(steps, list):
            raise RuleError(f"{where}steps must be a list.")
        script: list[dict[str, Any]] = []
        narration: list[Any] = []
        points: list[Any] = []
        expect: list[Any] = []
        for i, step in enumerate(steps, 1):
            if not isinstance(step, dict):
                raise RuleError(f"{where}step {i} must be an object, not {step!r}.")
            if "say" not in step:
                raise RuleError(f"{where}step {i} has no narration ('say').")
            script.append({k: v for k, v in step.items() if k not in _STEP_TEXT})
            narration.append(step["say"])
            kinds = [k for k in POINT_KINDS if k in step]
            if len(kinds) > 1:
                raise RuleError(f"{where}step {i} has both a rule and a tip; give one of them.")
            if kinds:
                points.append(
                    {"kind": kinds[0], "text": step[kinds[0]], "source": step.get("source")}
                )
            elif "source" in step:
                raise RuleError(f"{where}step {i} has a source but no rule or tip.")
            else:
                points.append(None)
            expect.append(step.get("expect"))
        kwargs: dict[str, Any] = {
            k: data[k] for k in ("level", "lives", "stars", "seed", "blind") if k in data
        }
        return cls(
            data["hands"],
            script,
            title=data["title"],
            narration=narration,
            points=points,
            intro=data.get("intro"),
            expect=expect,
            rules=data.get("rules"),
            name=name,
            **kwargs,
        )

    # ------------------------------------------------------------ checks
    def _where(self) -> str:
        return f"scenario {self._name!r}: " if self._name else ""

    def _run(self, game: Game, i: int, step: dict[str, Any]) -> RuleError | None:
        """Apply step ``i`` during the first play-through; return a refusal."""
        try:
            _apply(game, step)
        except RuleError as exc:
            if step.get("refused"):
                return exc
            raise RuleError(
                f"{self._where()}step {i} ({_show(step)}) is not possible: {exc}"
            ) from None
        if step.get("refused"):
            raise RuleError(
                f"{self._where()}step {i} ({_show(step)}) is marked refused, but the game "
                "accepts it; remove 'refused' or change the step."
            )
        return None

    def _check(self, game: Game, i: int) -> None:
        expect = self._expect[i - 1]
        if not expect:
            return
        got = _observed(game)
        for key, want in expect.items():
            if got[key] != want:
                raise RuleError(
                    f"{self._where()}after step {i} ({_show(self._script[i - 1])}) the "
                    f"scenario expects {key} {want!r}, but the game has {got[key]!r}."
                )


# ---------------------------------------------------------------- helpers
def _text(value: Any, what: str, where: str) -> dict[str, str]:
    if isinstance(value, str):
        if not value.strip():
            raise RuleError(f"{where}{what} is empty.")
        return {"en": value}
    if not isinstance(value, Mapping) or not value:
        raise RuleError(
            f"{where}{what} must be a text or an object with one text per language "
            f"({', '.join(LANGS)}), not {value!r}."
        )
    out: dict[str, str] = {}
    for lang, text in value.items():
        if lang not in LANGS:
            raise RuleError(
                f"{where}{what} has a text in {lang!r}; allowed languages: {', '.join(LANGS)}."
            )
        if not isinstance(text, str) or not text.strip():
            raise RuleError(f"{where}{what} in {lang!r} must be a non-empty text, not {text!r}.")
        out[lang] = text
    return out


def _pick(texts: Mapping[str, str] | None, lang: str) -> str:
    if not texts:
        return ""
    return texts.get(lang) or texts.get("en") or next(iter(texts.values()))


def _rules(rules: Any, hands: Any, where: str) -> Rules:
    if isinstance(rules, Rules):
        return rules
    players = len(hands) if isinstance(hands, Sequence) and not isinstance(hands, str) else 3
    if rules is None:
        rules = {}
    if not isinstance(rules, Mapping):
        raise RuleError(f"{where}rules must be a Rules or an object of settings, not {rules!r}.")
    settings = {"players": players, **rules}
    try:
        return Rules.from_dict(settings)
    except (RuleError, TypeError) as exc:
        raise RuleError(f"{where}the rules are not possible: {exc}") from None


def _script(script: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(script, (str, bytes)) or not isinstance(script, Sequence):
        raise RuleError(f"{where}script must be a list of actions.")
    out: list[dict[str, Any]] = []
    kinds = ", ".join(sorted(ACTION_FIELDS))
    for i, step in enumerate(script, 1):
        if not isinstance(step, Mapping):
            raise RuleError(f"{where}step {i} must be an action object, not {step!r}.")
        kind = step.get("action")
        if not isinstance(kind, str) or kind not in ACTION_FIELDS:
            raise RuleError(f"{where}step {i} has action {kind!r}; allowed: {kinds}.")
        allowed = ("action", *ACTION_FIELDS[kind], *_STEP_EXTRAS)
        extra = sorted(set(step) - set(allowed))
        if extra:
            raise RuleError(
                f"{where}step {i} ({kind}) has unknown field(s) {', '.join(map(str, extra))}; "
                f"allowed: {', '.join(allowed)}."
            )
        if "card" in step and kind != "play":
            raise RuleError(f"{where}step {i}: only a play can name a card, not a {kind}.")
        if "refused" in step and not isinstance(step["refused"], bool):
            raise RuleError(
                f"{where}step {i}: refused must be true or false, not {step['refused']!r}."
            )
        out.append(dict(step))
    return out


def _point(value: Any, i: int, where: str) -> dict[str, Any] | None:
    if value is None:
        return None
    what = f"the rule or tip of step {i}"
    if not isinstance(value, Mapping) or set(value) - {"kind", "text", "source"}:
        raise RuleError(
            f"{where}{what} must be null or an object with kind, text and source, not {value!r}."
        )
    kind = value.get("kind")
    if kind not in POINT_KINDS:
        raise RuleError(f"{where}{what}: kind must be 'rule' or 'tip', not {kind!r}.")
    source = value.get("source")
    known = _sources()["sources"]
    if source is None and kind == "rule":
        raise RuleError(
            f"{where}step {i} shows a rule without its source; give 'source', one of: "
            f"{', '.join(sorted(known))}."
        )
    if source is not None and (not isinstance(source, str) or source not in known):
        raise RuleError(
            f"{where}step {i} names source {source!r}; allowed: {', '.join(sorted(known))}."
        )
    return {"kind": kind, "text": _text(value.get("text"), what, where), "source": source}


def _expect(value: Any, i: int, where: str) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RuleError(f"{where}expect of step {i} must be an object or null, not {value!r}.")
    unknown = sorted(set(value) - set(EXPECT_KEYS))
    if unknown:
        raise RuleError(
            f"{where}expect of step {i} has unknown key(s) {', '.join(map(str, unknown))}; "
            f"allowed: {', '.join(EXPECT_KEYS)}."
        )
    out = dict(value)
    try:
        if "hands" in out:
            out["hands"] = [sorted(h) for h in out["hands"]]
        if "discards" in out:
            out["discards"] = sorted(out["discards"])
        if "pile" in out:
            out["pile"] = list(out["pile"])
    except TypeError:
        raise RuleError(
            f"{where}expect of step {i}: hands is a list of card lists, pile and discards "
            "lists of cards."
        ) from None
    return out


def _observed(game: Game) -> dict[str, Any]:
    """The table in the terms of ``expect``."""
    return {
        "level": game.level,
        "lives": game.lives,
        "stars": game.stars,
        "status": game.status,
        "hands": [list(h) for h in game.hands],
        "pile": list(game.pile),
        "discards": sorted(d.card for d in game.discards),
        "blind": game.blind,
        "concentrating": game.concentrating,
    }


def _apply(game: Game, step: Mapping[str, Any]) -> None:
    action = {k: v for k, v in step.items() if k not in _STEP_EXTRAS}
    if "card" in step:
        game.play(action.get("player"), t=action.get("t"), card=step["card"])  # type: ignore[arg-type]
    else:
        game.apply(action)


def _show(step: Mapping[str, Any]) -> str:
    """A step in words for an error message, e.g. ``play by player 2 of 34 at t=2.5``."""
    parts = [str(step.get("action"))]
    if "player" in step:
        parts.append(f"by player {step['player']}")
    if "card" in step:
        parts.append(f"of {step['card']}")
    if "agree" in step:
        parts.append("agreeing" if step["agree"] else "saying no")
    if step.get("t") is not None:
        parts.append(f"at t={step['t']}")
    return " ".join(parts)
