"""The student page: one `MindWidget` on a page served by Voilà.

In a notebook the student owns the kernel: ``w.game.hands`` shows every hand.
On this page there is no cell to type into and Voilà's kernel websocket passes
only widget messages (``comm_*``, ``kernel_info_request``), never an
``execute_request``; the browser receives what the widget syncs, which is the
person's own hand and what the whole table may see.

``mindwidget app`` starts Voilà on ``student.ipynb`` (beside this file), whose
one cell calls `student_widget`. The teacher's choices travel to the kernel in
the environment variable ``MINDWIDGET_APP`` (JSON, see `AppSettings`); every
page opened gets its own kernel, so its own game, dealt without a seed.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from ..bots import (
    BOT_NAMES,
    DEFAULT_SECONDS_PER_STEP,
    TEMPOS,
    AdaptiveTimer,
    Bot,
    HumanTimer,
    PerfectTimer,
    ScalarTimer,
    check_tempo,
)
from ..i18n import LANGS
from ..rules import SETUP
from ..widget import MindWidget

__all__ = ["NOTEBOOK", "SEED_ENV", "SETTINGS_ENV", "AppSettings", "student_widget"]

#: The notebook Voilà serves (its one cell: ``student_widget()``).
NOTEBOOK = Path(__file__).resolve().parent / "student.ipynb"
#: The teacher's settings, as JSON.
SETTINGS_ENV = "MINDWIDGET_APP"
#: A fixed deal, for tests only (the page is otherwise dealt without a seed).
SEED_ENV = "MINDWIDGET_APP_SEED"
#: The bots' tempo as a factor on their usual pace (a name of `TEMPOS` or a
#: number in this range): 0.5 plays twice as fast, 2 twice as slow.
TEMPO_RANGE = (0.25, 4.0)
PLAYERS = tuple(sorted(SETUP))


@dataclass(frozen=True)
class AppSettings:
    """What the teacher chooses for every student's table."""

    players: int = 3
    bots: str = "human"
    tempo: float | str = "people"
    lang: str = "en"

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in PLAYERS:
            allowed = ", ".join(map(str, PLAYERS))
            raise ValueError(f"players must be one of {allowed}, not {self.players!r}.")
        if self.bots not in BOT_NAMES:
            raise ValueError(f"bots must be one of {', '.join(BOT_NAMES)}, not {self.bots!r}.")
        low, high = TEMPO_RANGE
        tempo = self.tempo
        if not (
            tempo in TEMPOS
            or (
                not isinstance(tempo, (bool, str))
                and isinstance(tempo, (int, float))
                and math.isfinite(tempo)
                and low <= tempo <= high
            )
        ):
            names = ", ".join(TEMPOS)
            raise ValueError(
                f"tempo must be one of {names} or a number from {low} to {high}, not {tempo!r}."
            )
        if self.lang not in LANGS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {self.lang!r}.")

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> AppSettings:
        """The settings in ``environ[SETTINGS_ENV]`` (the defaults if it is not set)."""
        raw = environ.get(SETTINGS_ENV)
        if not raw:
            return cls()
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise ValueError(f"{SETTINGS_ENV} must be JSON, not {raw[:80]!r}.") from exc
        fields = ("players", "bots", "tempo", "lang")
        if not isinstance(data, dict) or not set(data) <= set(fields):
            raise ValueError(f"{SETTINGS_ENV} must be a JSON object with the keys {fields}.")
        return cls(**data)

    def team_bot(self) -> Bot:
        """The bot every other seat plays, at the chosen tempo (one meaning for
        every kind: a factor on the bot's usual pace)."""
        factor = check_tempo(self.tempo)
        if self.bots == "human":
            return HumanTimer(tempo=self.tempo)
        kinds: dict[str, type[PerfectTimer] | type[ScalarTimer] | type[AdaptiveTimer]] = {
            "perfect": PerfectTimer,
            "scalar": ScalarTimer,
            "adaptive": AdaptiveTimer,
        }
        return kinds[self.bots](seconds_per_step=DEFAULT_SECONDS_PER_STEP * factor)


def _seed(environ: Mapping[str, str]) -> int | None:
    raw = environ.get(SEED_ENV)
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError as exc:
        raise ValueError(f"{SEED_ENV} must be a whole number, not {raw!r}.") from exc


def student_widget(environ: Mapping[str, str] | None = None) -> MindWidget:
    """The student's table: seat 0, the teacher's bots, tempo and language, hands hidden."""
    env = os.environ if environ is None else environ
    settings = AppSettings.from_env(env)
    return MindWidget(
        players=settings.players,
        seat=0,
        bots=settings.team_bot(),
        seed=_seed(env),
        lang=settings.lang,
        reveal=False,
    )
