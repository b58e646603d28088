"""Write js/wire.schema.json (the JSON Schema of every payload on the wire) and js/wire.gen.js
(the names the front end imports) from mindwidget/wire.py.

    python tools/build_wire_schema.py          # write it
    python tools/build_wire_schema.py --check  # exit 1 if it is not up to date

The TypedDicts in `mindwidget.wire` are the one declaration; pydantic turns
them into JSON Schema (draft 2020-12). Every object is closed
(``additionalProperties: false``). The entry points are ``#/$defs/<Name>``
for each name in `ENTRIES` (State, Changes, Message, SettingUpdate, ...).
tests/core/test_wire.py checks the file is up to date; js/wire.test.js validates
the front end's fixtures against it (ajv).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "js" / "wire.schema.json"
#: The vocabulary the front end's code imports (the schema itself is for validating).
NAMES = ROOT / "js" / "wire.gen.js"
#: The payloads a schema user names (each becomes #/$defs/<name>).
ENTRIES = (
    "State",
    "Changes",
    "View",
    "Clock",
    "Notice",
    "Settings",
    "TracePoint",
    "TraceUpdate",
    "Message",
    "SettingUpdate",
    "ClassFrame",
    "ClassInfo",
    "PupilMessage",
    "TeacherFrame",
    "TeacherMessage",
    "Snapshot",
)


def _closed(node: Any) -> Any:
    """Drop pydantic's titles; close every object that declares its properties."""
    if isinstance(node, dict):
        out = {k: _closed(v) for k, v in node.items() if k != "title" or not isinstance(v, str)}
        if out.get("type") == "object" and "properties" in out:
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [_closed(v) for v in node]
    return node


def schema() -> dict[str, Any]:
    """The whole schema document, JSON-ready."""
    sys.path.insert(0, str(ROOT))
    from pydantic import TypeAdapter

    from mindwidget import wire

    if sys.version_info >= (3, 12):
        from typing import TypedDict
    else:
        from typing_extensions import TypedDict

    everything = TypedDict(  # type: ignore[misc]
        "Everything", {name: getattr(wire, name) for name in ENTRIES}
    )
    raw = TypeAdapter(everything).json_schema(ref_template="#/$defs/{model}")
    defs = dict(raw.get("$defs", {}))
    for name, prop in raw["properties"].items():
        if "$ref" not in prop or prop["$ref"] != f"#/$defs/{name}":
            defs[name] = prop  # a Union (Message) or a functional TypedDict inline
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/mindwidget/mindwidget/js/wire.schema.json",
        "description": (
            "Every payload between a mindwidget Session and its front end. Generated from "
            "mindwidget/wire.py by tools/build_wire_schema.py: do not edit."
        ),
        "$defs": _closed(dict(sorted(defs.items()))),
    }


def text() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def names() -> str:
    """js/wire.gen.js: the names the front end's code uses, from `mindwidget.wire`."""
    from mindwidget import wire

    timed = [t for t, (fields, _) in wire.fields_of(wire.Message).items() if "t" in fields]
    parts = {
        "TIMED": (
            "The notebook widget's actions that carry the level time t (wire.Message); "
            "a class page sends none (its clock.stamp is false).",
            [t for t in timed if t != "tick"],
        ),
    }
    out = [
        "// @ts-check",
        "// Generated from mindwidget/wire.py by tools/build_wire_schema.py: do not edit.",
    ]
    for name, (doc, values) in parts.items():
        items = ", ".join(json.dumps(v) for v in values)
        line = f"export const {name} = Object.freeze([{items}]);"
        if len(line) > 110:
            inner = "".join(f"  {json.dumps(v)},\n" for v in values)
            line = f"export const {name} = Object.freeze([\n{inner}]);"
        out += ["", f"/** {doc} */", line]
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check it is up to date")
    args = parser.parse_args()
    for path, new in ((OUT, text()), (NAMES, names())):
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != new:
                sys.exit(
                    f"{path.relative_to(ROOT)} is out of date: "
                    "run python tools/build_wire_schema.py"
                )
            continue
        path.write_text(new, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
