"""Hatch build hook: the lesson notebooks go into the wheel as ``mindwidget/lessons/<lang>/``.

``mindwidget lesson --lang nl`` copies them from there, so a teacher needs
nothing but ``pip install``. The notebooks live in ``notebooks/<lang>/`` (one
folder per language); a checkout that still has only ``notebooks/*.ipynb``
ships those as ``en``. Hatch's static ``force-include`` refuses a path that
does not exist, hence this hook, which includes only what is there. Editable
installs need nothing: there the command reads ``notebooks/`` of the checkout.
"""

from __future__ import annotations

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


class LessonsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        lessons = lesson_sources(Path(self.root))
        if not lessons:
            raise RuntimeError(f"no lesson notebooks under {self.root}/notebooks")
        build_data["force_include"].update(lessons)
