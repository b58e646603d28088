"""Write the lesson notebooks and the rules card in every language from one source.

    python tools/build_notebooks.py          # writes notebooks/{en,nl,de}/ and docs/rules-card/
    python tools/build_notebooks.py --check  # exit 1 if a written file is out of date

Source: the cells of ``notebooks/src/NN-name.cells`` (the same in every language)
and the texts of ``mindwidget/locales/lesson/<lang>.json``. The format of a
source file is in ``notebooks/src/README.md``: ``# %% md key ...`` is a
Markdown cell made of those texts (a key starting with ``teacher`` becomes a
quote that starts "For the teacher:"), ``# %% code`` a code cell (``hidden``:
collapsed in JupyterLab, its first line a comment "Code for the teacher") with
``{LANG}`` replaced by the language and ``{T:key}`` by that text as a Python
string.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mindwidget import lesson  # noqa: E402
from mindwidget.i18n import LANGS  # noqa: E402

SRC = ROOT / "notebooks" / "src"
_TEXT_KEY = re.compile(r"\{T:([\w-]+)\}")
KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}


def sources() -> list[Path]:
    """The notebooks' source files, in order."""
    return sorted(SRC.glob("[0-9][0-9]-*.cells"))


def parse(path: Path) -> list[dict[str, Any]]:
    """The cells of a source file: ``{"kind": "md", "keys": [...]}`` or ``{"kind": "code"}``."""
    cells: list[dict[str, Any]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("# %%"):
            words = line[4:].split()
            if not words or words[0] not in ("md", "code"):
                raise ValueError(f"{path.name}:{n}: a cell is '# %% md key ...' or '# %% code'")
            if words[0] == "md":
                if not words[1:]:
                    raise ValueError(f"{path.name}:{n}: a Markdown cell names at least one key")
                cells.append({"kind": "md", "keys": words[1:]})
            else:
                cells.append({"kind": "code", "hidden": words[1:] == ["hidden"], "lines": []})
        elif not cells or cells[-1]["kind"] != "code":
            if line.strip():
                raise ValueError(f"{path.name}:{n}: text outside a code cell")
        else:
            cells[-1]["lines"].append(line)
    return cells


def _markdown(section: str, keys: list[str], lang: str) -> str:
    parts = []
    for key in keys:
        body = lesson.text(f"{section}.{key}", lang)
        if key.startswith("teacher"):
            label = lesson.text("ui.teacher", lang)
            quoted = "\n".join("> " + line if line else ">" for line in body.splitlines())
            body = f"> **{label}** {quoted[2:]}"
        parts.append(body)
    return "\n\n".join(parts)


def _code(section: str, lines: list[str], lang: str) -> str:
    source = "\n".join(lines).strip("\n").replace("{LANG}", lang)
    return _TEXT_KEY.sub(
        lambda m: json.dumps(lesson.text(f"{section}.{m.group(1)}", lang), ensure_ascii=False),
        source,
    )


def notebook(path: Path, lang: str) -> str:
    """One notebook in one language, as the text of its .ipynb file."""
    section = path.stem
    cells = []
    for i, cell in enumerate(parse(path)):
        common = {"id": f"{section[:2]}-{i:02d}"}
        if cell["kind"] == "md":
            cells.append(
                {**common, "cell_type": "markdown", "metadata": {},
                 "source": _markdown(section, cell["keys"], lang)}
            )  # fmt: skip
        else:
            # JupyterLab 4 deletes no lesson cell ("deletable"), and edits no hidden
            # one, the cells that hold the tables and charts ("editable"; its code
            # is collapsed too). The visible code of 01 and 04 stays editable, to
            # try things. The teacher notes say how to undo (the cell's metadata).
            meta: dict[str, Any] = {"deletable": False}
            if cell["hidden"]:
                meta.update(editable=False, jupyter={"source_hidden": True})
            source = _code(section, cell["lines"], lang)
            if cell["hidden"]:  # JupyterLab shows a hidden cell's first line: a label, not code
                source = f"{lesson.text('ui.hidden_code', lang)}\n{source}"
            cells.append(
                {**common, "cell_type": "code", "execution_count": None, "metadata": meta,
                 "outputs": [], "source": source}
            )  # fmt: skip
    nb = {
        "cells": cells,
        "metadata": {
            "kernelspec": KERNEL,
            "language_info": {"name": "python"},
            "mindwidget": {
                "lang": lang,
                "generated": lesson.text("ui.generated", lang, name=section, language=lang),
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def outputs() -> dict[Path, str]:
    """Every generated file and its text."""
    out: dict[Path, str] = {}
    for lang in LANGS:
        for path in sources():
            out[ROOT / "notebooks" / lang / f"{path.stem}.ipynb"] = notebook(path, lang)
        out[ROOT / "docs" / "rules-card" / f"{lang}.html"] = lesson.rules_card(lang)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; write nothing")
    args = parser.parse_args(argv)
    stale = []
    for path, content in outputs().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == content:
            continue
        stale.append(path.relative_to(ROOT))
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
    verb = "out of date" if args.check else "written"
    for p in stale:
        print(f"{verb}: {p}")
    if not stale:
        print("all generated files are up to date")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
