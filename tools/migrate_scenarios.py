"""Rewrite the scenario files (mindwidget/scenarios/*.json) to the current names.

Saved games and scenarios made before each concept had one name use old
action and status names; `mindwidget.saves.OLD_ACTION_NAMES` and
`mindwidget.saves.OLD_STATUS_NAMES` map them to the new ones (the same maps let
`Game.from_json` read an old save). Run ``python tools/migrate_scenarios.py``;
running it again changes nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mindwidget.saves import OLD_ACTION_NAMES, OLD_STATUS_NAMES

HERE = Path(__file__).resolve().parent.parent / "mindwidget" / "scenarios"


def migrate(data: Any) -> Any:
    """The scenario with every step's action and expected status renamed."""
    if isinstance(data, dict):
        out = {k: migrate(v) for k, v in data.items()}
        if out.get("action") in OLD_ACTION_NAMES:
            out["action"] = OLD_ACTION_NAMES[out["action"]]
        if out.get("status") in OLD_STATUS_NAMES:
            out["status"] = OLD_STATUS_NAMES[out["status"]]
        return out
    if isinstance(data, list):
        return [migrate(v) for v in data]
    return data


def main() -> int:
    changed = 0
    for path in sorted(HERE.glob("*.json")):
        if path.name.startswith("_"):
            continue  # _sources.json: quotes and their keys, no actions
        text = path.read_text(encoding="utf-8")
        new = json.dumps(migrate(json.loads(text)), indent=2, ensure_ascii=False) + "\n"
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1
    print(f"{changed} scenario file(s) rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
