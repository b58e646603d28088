"""The class's options, declared once (`ClassOptions`) and checked once (`check`).

`Classroom(**options)`, `serve(**options)` (`mindwidget class`, whose flags name the
same options) and `Room(timers, **options)` take them as keywords, typed with
``Unpack``: a type checker and an editor know each one. The room's part
(`RoomOptions`) is what a class's journal keeps and gives back on resume.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from ..checks import choice, whole
from ..i18n import LANGS
from ..table import Table

if sys.version_info >= (3, 12):
    from typing import TypedDict, Unpack
else:  # (typing has Unpack for keywords from 3.12: PEP 692)
    from typing_extensions import TypedDict, Unpack

__all__ = [
    "BOTS",
    "GRACE_S",
    "PER_ADDRESS",
    "TABLE_SIZES",
    "ClassOptions",
    "RoomOptions",
    "Unpack",
    "check",
    "pick",
]

#: Seats at a class table (`TABLE_SIZES`; `session.SIZES` are the screen sizes), and
#: who fills an empty seat.
TABLE_SIZES = (2, 3, 4)
BOTS = ("human", "adaptive", "scalar", "none")
#: Seconds a pupil may be away before their table stops for them ("offline"),
#: counted from their last sign of life.
GRACE_S = 15.0
#: Sockets one address may hold (a class of 60 behind one school router, and more).
PER_ADDRESS = 100


class RoomOptions(TypedDict, total=False):
    """The class's own options: its tables and pupils (`Room`; the journal keeps them)."""

    size: int  # seats at each table, 2 to 4
    bots: str  # who fills an empty seat: "human", "adaptive", "scalar"; "none": close up
    tempo: float | str  # the bots' tempo: "slow", "people", "quick" or a factor
    lang: str  # the class's language: "en", "nl" or "de"
    same_deal: bool  # every table gets the same cards
    seed: int | None  # the seed of every table's deals (None: a new one)
    grace: float  # seconds a pupil may be away before their table stops


class ClassOptions(RoomOptions, total=False):
    """A `Classroom`'s options: the room's, its journal's and how it is served."""

    lan: bool  # serve the school network too (default: this computer only)
    port: int | None  # the port (None: 8765 or the resumed class's; 0: any free one)
    open_browser: bool  # open the teacher's page
    per_address: int  # sockets one address may hold
    rate: tuple[float, float]  # each socket's messages per second, and burst
    host: str | None  # the interface to listen on (an IPv4 address; behind a proxy)
    public_url: str | None  # the address pupils use, behind a school's reverse proxy
    trust_proxy: str | list[str] | None  # the proxy whose X-Forwarded-For names the pupil
    data: str | Path | bool | None  # the journal's folder (None: the user's; False: none)
    resume: bool | str  # bring back the latest class in ``data`` (or the class of a code)


ROOM_DEFAULTS: RoomOptions = {
    "size": 3,
    "bots": "human",
    "tempo": "people",
    "lang": "en",
    "same_deal": False,
    "seed": None,
    "grace": GRACE_S,
}
CLASS_DEFAULTS: ClassOptions = {
    **ROOM_DEFAULTS,
    "lan": False,
    "port": None,
    "open_browser": False,
    "per_address": PER_ADDRESS,
    "rate": (20.0, 40.0),
    "host": None,
    "public_url": None,
    "trust_proxy": None,
    "data": None,
    "resume": False,
}


def check(given: Mapping[str, Any], room: bool = False) -> dict[str, Any]:
    """Every option of ``given`` checked, the rest at their defaults: a `Room`'s
    (``room``), else a `Classroom`'s. An unknown name is a TypeError that lists
    the options; a bad value a ValueError that says what is allowed. The serving
    options that `network` reads (``host``, ``public_url``, ``trust_proxy``) and
    ``data`` and ``resume`` (`keep.Keeper`) are checked where they are read."""
    defaults: Mapping[str, Any] = ROOM_DEFAULTS if room else CLASS_DEFAULTS
    unknown = [name for name in given if name not in defaults]
    if unknown:
        who = "Room" if room else "Classroom"
        raise TypeError(
            f"{who}() has no option {unknown[0]!r}; its options: {', '.join(defaults)}."
        )
    out = {**defaults, **given}
    if not room:
        if out["port"] is not None:
            out["port"] = whole("port", out["port"], 0, 65535, none=True)
        out["per_address"] = int(out["per_address"])
        out["rate"] = (float(out["rate"][0]), float(out["rate"][1]))
        return out
    size = out["size"] = whole("size", out["size"], min(TABLE_SIZES), max(TABLE_SIZES))
    choice("bots", out["bots"], BOTS, quoted=False)
    choice("lang", out["lang"], LANGS, quoted=False)
    if out["seed"] is not None:
        out["seed"] = whole("seed", out["seed"], none=True)
    # the bots' name and tempo are checked by the table they will fill
    Table(players=size, seats=tuple(range(size)), bots=bot_name(out["bots"]), tempo=out["tempo"])
    out["same_deal"] = bool(out["same_deal"])
    out["grace"] = float(out["grace"])
    return out


def pick(given: Mapping[str, Any]) -> ClassOptions:
    """The class's options among ``given`` (e.g. the command's parsed flags)."""
    return cast(ClassOptions, {k: v for k, v in given.items() if k in CLASS_DEFAULTS})


def bot_name(bots: str) -> str:
    """The bots that fill a table's empty seats ("none": the table's name for people)."""
    return "human" if bots == "none" else bots
