"""One schema on the wire: js/wire.schema.json is generated from mindwidget/wire.py, and
every payload of whole random games (and every message the games send) fits it."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mindwidget import wire
from mindwidget.session import HostClock, Session
from mindwidget.table import Table
from mindwidget.view import ALLOWED

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "js" / "wire.schema.json"


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_wire_schema", ROOT / "tools" / "build_wire_schema.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_wire_schema"] = module
    spec.loader.exec_module(module)
    return module


SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
Draft202012Validator.check_schema(SCHEMA)


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": SCHEMA["$defs"]})


STATE, CHANGES, MESSAGE, SETTING = (
    validator(n) for n in ("State", "Changes", "Message", "SettingUpdate")
)


def test_the_schema_is_generated_from_wire_py_and_up_to_date() -> None:
    assert _builder().text() == SCHEMA_PATH.read_text(encoding="utf-8"), (
        "js/wire.schema.json is out of date: run python tools/build_wire_schema.py"
    )


def test_the_names_the_js_imports_are_generated_from_wire_py_and_up_to_date() -> None:
    assert _builder().names() == (ROOT / "js" / "wire.gen.js").read_text(encoding="utf-8"), (
        "js/wire.gen.js is out of date: run python tools/build_wire_schema.py"
    )


def test_the_class_servers_fields_are_read_from_the_wire() -> None:
    from mindwidget.classroom.inbox import FIELDS, REQUIRED
    from mindwidget.session import MESSAGE_TYPES

    assert set(FIELDS) == set(wire.types_of(wire.PupilMessage))
    assert all("t" not in fields for fields in FIELDS.values())  # the server keeps the time
    assert REQUIRED["join"] == {"code", "name"} and REQUIRED["nickname"] == frozenset()
    assert MESSAGE_TYPES.split(" | ") == list(wire.MESSAGE_TYPES)


def test_the_dashboards_controls_are_the_teachers_messages_on_the_wire() -> None:
    from mindwidget.classroom.dashboard import CONTROLS

    declared = wire.fields_of(wire.TeacherMessage)
    assert {kind: tuple(fields) for kind, (fields, _) in declared.items()} == CONTROLS
    assert all(required == set(fields) for fields, required in declared.values())


def test_the_actions_on_the_wire_are_the_views_vocabulary() -> None:
    assert wire.ACTIONS == ALLOWED


def test_the_schema_refuses_what_is_not_declared() -> None:
    state = Session(Table(3, (0,), "perfect", seed=1), 0).state()
    STATE.validate(state)
    for broken in (
        {**state, "extra": 1},
        {**state, "view": {**state["view"], "phase": "flying"}},
        {**state, "view": {**state["view"], "player": 0}},  # payloads.js once promised it
        {**state, "clock": {**state["clock"], "speed": 3}},
        {**state, "live_trace": {**state["live_trace"], "points": [{"k": "play", "t": 1}]}},
    ):
        assert not STATE.is_valid(broken)
    assert not MESSAGE.is_valid({"type": "fly"})
    assert not MESSAGE.is_valid({"type": "vote", "t": 1.0})
    assert not SETTING.is_valid({"view": {}})


def play_randomly(data: st.DataObject, seat: int | None, reveal: bool, host: bool) -> int:
    """A whole random game at one session; every payload and message is checked. How many."""
    bots = data.draw(st.sampled_from(["perfect", "scalar"]))
    table = Table(3, () if seat is None else (seat,), bots, seed=data.draw(st.integers(0, 999)))
    now = [0.0]
    clock = HostClock(table, lambda: now[0]) if host else None
    s = Session(table, seat, reveal=reveal, clock="host" if host else "browser", host=clock)
    checked = 0

    def check(payload: dict[str, Any], v: Draft202012Validator) -> None:
        nonlocal checked
        errors = sorted(v.iter_errors(json.loads(json.dumps(payload))), key=str)
        assert not errors, (errors[0].json_path, errors[0].message)
        checked += 1

    check(s.state(), STATE)
    for _ in range(400):
        if table.game.status in ("won", "lost"):
            break  # (a new game would be dealt from fresh entropy: not replayable)
        view = s.state()["view"]
        t = table.now + data.draw(st.sampled_from([0.0, 0.1, 0.7, 3.0]))
        now[0] += t - table.now
        options = [a for a in view["allowed"] if a != "new_game"] + ["tick", "setting"]
        kind = data.draw(st.sampled_from(options))
        msg: dict[str, Any]
        if kind == "setting":
            name = data.draw(st.sampled_from(["lang", "size", "tempo", "speed"]))
            value = {"lang": "nl", "size": "projector", "tempo": "quick", "speed": 2}[name]
            check({name: value}, SETTING)
            s.set(name, value)
        else:
            if kind == "tick":
                msg = {"type": "tick", "t": t, "seq": table.seq}
            elif kind == "vote":
                msg = {"type": "vote", "agree": data.draw(st.booleans()), "t": t}
            elif kind in ("ready", "play", "stop", "propose_star"):
                msg = {"type": kind, "t": t}
            else:
                msg = {"type": kind}
            check(msg, MESSAGE)
            s.receive(msg)
            if clock is not None:
                clock.tick()
        check(s.changes(), CHANGES)
    check(s.state(), STATE)
    return checked


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seat=st.sampled_from([0, 2, None]),
    reveal=st.booleans(),
    host=st.booleans(),
)
def test_every_payload_of_whole_random_games_fits_the_schema(
    data: st.DataObject, seat: int | None, reveal: bool, host: bool
) -> None:
    assert play_randomly(data, seat, reveal, host) > 2


@pytest.mark.parametrize("name", ["State", "Changes", "Message", "SettingUpdate", "TracePoint"])
def test_each_entry_point_is_in_the_schema(name: str) -> None:
    assert name in SCHEMA["$defs"]
