"""Write js/wire.schema.json (the JSON Schema of every payload on the wire) and js/wire.gen.js
(the names the front end imports and the JSDoc types of the payloads it reads) from
mindwidget/wire.py.

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
import textwrap
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


#: The payloads the front end's code names as JSDoc types (each with the TypedDicts it holds).
TYPEDEFS = ("View", "Clock", "TraceUpdate")


def _comments(cls: type) -> dict[str, str]:
    """The comments on a TypedDict's fields in wire.py: the ``#:`` lines above a field and a
    comment after it on its line (not a ``# fmt:`` or ``# type:`` directive)."""
    import ast
    import inspect

    from mindwidget import wire

    source = inspect.getsource(wire)
    lines = source.splitlines()
    out: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.ClassDef) and node.name == cls.__name__):
            continue
        for item in node.body:
            if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
                continue
            said: list[str] = []
            above = item.lineno - 2
            while above >= 0 and lines[above].strip().startswith("#:"):
                said.insert(0, lines[above].strip()[2:].strip())
                above -= 1
            end = lines[(item.end_lineno or item.lineno) - 1]
            if "#" in end and not end.split("#", 1)[1].strip().startswith(("fmt:", "type:")):
                said.append(end.split("#", 1)[1].strip())
            if said:
                out[item.target.id] = " ".join(said).replace("``", "`")
    return out


def _js_type(hint: Any, seen: list[type]) -> str:
    """A Python type hint of wire.py as a JSDoc (TypeScript) type; a TypedDict by its name
    (added to ``seen``, so that it gets a typedef of its own)."""
    from types import NoneType, UnionType
    from typing import Literal, Union, get_args, get_origin

    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return "|".join(json.dumps(a) for a in args)
    if origin in (Union, UnionType):
        return "|".join(_js_type(a, seen) for a in args)
    if origin is list:
        inner = _js_type(args[0], seen)
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if origin is dict:
        return f"Record<string, {_js_type(args[1], seen)}>"
    if isinstance(hint, type) and hasattr(hint, "__total__"):  # a TypedDict
        if hint not in seen:
            seen.append(hint)
        return hint.__name__
    simple = {str: "string", int: "number", float: "number", bool: "boolean", NoneType: "null"}
    if hint in simple:
        return simple[hint]
    raise TypeError(f"no JSDoc type for {hint!r} in mindwidget/wire.py")


def _typedef(cls: type, seen: list[type]) -> list[str]:
    """One TypedDict as a JSDoc ``@typedef {object}`` with an ``@property`` per field
    (``[name]``: it may be absent)."""
    from typing import NotRequired, Required, get_args, get_origin, get_type_hints

    doc = " ".join((cls.__doc__ or "").split()).replace("``", "`") if "__doc__" in vars(cls) else ""
    said = _comments(cls)
    out = ["/**"]
    if doc:
        out += [f" * {line}" for line in textwrap.wrap(doc, 100)]
    out.append(f" * @typedef {{object}} {cls.__name__}")
    for name, hint in get_type_hints(cls, include_extras=True).items():
        wrapper = get_origin(hint)
        if wrapper in (Required, NotRequired):
            hint = get_args(hint)[0]
        required = wrapper is Required or (cls.__total__ and wrapper is not NotRequired)  # type: ignore[attr-defined]
        field = name if required else f"[{name}]"
        line = f" * @property {{{_js_type(hint, seen)}}} {field}"
        if name in said:
            line += f"  {said[name]}"
        out.append(line)
    out.append(" */")
    return out


def names() -> str:
    """js/wire.gen.js: the names and JSDoc types the front end uses, from `mindwidget.wire`."""
    from mindwidget import wire

    timed = [t for t, (fields, _) in wire.fields_of(wire.Message).items() if "t" in fields]
    table = wire.types_of(wire.Message) + wire.types_of(wire.SetMessage)
    table += wire.types_of(wire.AnswerMessage)
    parts = {
        "TIMED": (
            "The notebook widget's actions that carry the level time t (wire.Message); "
            "a class page sends none (its clock.stamp is false).",
            [t for t in timed if t != "tick"],
        ),
        "TABLE_SENDS": (
            "What a page sends its table (wire.Message, a pupil's SetMessage and "
            "AnswerMessage): a class page never keeps one for later.",
            list(table),
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
    seen: list[type] = [getattr(wire, name) for name in TYPEDEFS]
    done = 0
    while done < len(seen):  # seen grows with the TypedDicts each one holds
        out += ["", *_typedef(seen[done], seen)]
        done += 1
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
