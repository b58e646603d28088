"""Hatch build hook: the lesson notebooks go into the wheel as ``mindwidget/lessons/<lang>/``.

``mindwidget lesson --lang nl`` copies them from there, so a teacher needs
nothing but ``pip install``. The notebooks live in ``notebooks/<lang>/`` (one
folder per language); a checkout that still has only ``notebooks/*.ipynb``
ships those as ``en``. Hatch's static ``force-include`` refuses a path that
does not exist, hence this hook, which includes only what is there. Editable
installs need nothing: there the command reads ``notebooks/`` of the checkout.

With the notebooks go the teacher's papers of each language (the guide, the
rules card, the worksheet and its answer key; ``mindwidget/handouts.py``
names them, read here by its path so that the build imports no package): a
wheel without one of them is refused.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LANGS = ("en", "nl", "de")


def lesson_sources(root: Path) -> dict[str, str]:
    """``{source path: path in the wheel}`` for every lesson file in ``root/notebooks``."""
    notebooks = root / "notebooks"
    found: dict[str, str] = {}
    for lang in LANGS:
        folder = notebooks / lang
        if folder.is_dir():
            for path in sorted(folder.rglob("*")):
                rel = path.relative_to(folder)
                if path.is_file() and not any(p.startswith(".") for p in rel.parts):
                    found[str(path)] = f"mindwidget/lessons/{lang}/{rel.as_posix()}"
    if not found:  # the layout before the language folders: English only
        for path in sorted(notebooks.glob("*.ipynb")):
            found[str(path)] = f"mindwidget/lessons/en/{path.name}"
    return found


def handout_sources(root: Path) -> dict[str, str]:
    """``{source path: path in the wheel}`` for the teacher's papers of every language
    (``mindwidget/handouts.py``); raises naming the first one missing."""
    spec = importlib.util.spec_from_file_location("_handouts", root / "mindwidget" / "handouts.py")
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot read {root}/mindwidget/handouts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found: dict[str, str] = {}
    for lang, papers in module.HANDOUTS.items():
        for name, rel in papers.items():
            path = root / rel
            if not path.is_file():
                raise RuntimeError(
                    f"{rel} is missing: python tools/build_notebooks.py writes the rules "
                    "cards, python tools/build_worksheets.py the worksheets"
                )
            found[str(path)] = f"mindwidget/lessons/{lang}/{name}"
    return found


class LessonsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        lessons = lesson_sources(Path(self.root))
        if not lessons:
            raise RuntimeError(f"no lesson notebooks under {self.root}/notebooks")
        build_data["force_include"].update(lessons)
        build_data["force_include"].update(handout_sources(Path(self.root)))
