"""The lesson notebooks and rules cards are generated, and up to date, in every language.

``notebooks/{en,nl,de}/*.ipynb`` and ``docs/rules-card/*.html`` are written by
``tools/build_notebooks.py`` from ``notebooks/src/*.cells`` and the text files
``mindwidget/locales/lesson/*.json``. If a test here fails after an edit, run
``python tools/build_notebooks.py`` (and do not edit the generated files).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mindwidget import lesson
from mindwidget.i18n import LANGS

ROOT = Path(__file__).resolve().parents[2]
NAMES = [
    "01-play",
    "02-rules",
    "03-probability",
    "04-scenarios",
    "05-cooperation",
    "06-class",
    "07-experiment",
]


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_notebooks", ROOT / "tools" / "build_notebooks.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_notebooks"] = module
    spec.loader.exec_module(module)
    return module


build = _builder()


def test_every_generated_file_is_up_to_date() -> None:
    stale = [
        str(path.relative_to(ROOT))
        for path, content in build.outputs().items()
        if not path.exists() or path.read_text(encoding="utf-8") != content
    ]
    assert not stale, f"run `python tools/build_notebooks.py`: out of date: {stale}"


def test_every_language_has_every_notebook_and_no_old_top_level_ones() -> None:
    for lang in LANGS:
        found = sorted(p.stem for p in (ROOT / "notebooks" / lang).glob("*.ipynb"))
        assert found == NAMES, lang
    assert not list((ROOT / "notebooks").glob("*.ipynb"))
    assert [p.stem for p in build.sources()] == NAMES


def test_every_language_has_every_text_key_with_the_same_placeholders() -> None:
    en = lesson.flat("en")
    for lang in LANGS:
        other = lesson.flat(lang)
        assert set(other) == set(en), (lang, set(en) ^ set(other))
        for key, value in en.items():
            assert set(re.findall(r"\{(\w+)\}", other[key])) == set(
                re.findall(r"\{(\w+)\}", value)
            ), (lang, key)
            assert other[key].strip(), (lang, key)


def test_every_key_a_source_names_exists_and_every_notebook_text_is_used() -> None:
    for path in build.sources():
        section = path.stem
        used = set()
        for cell in build.parse(path):
            if cell["kind"] == "md":
                used |= set(cell["keys"])
            else:
                used |= set(re.findall(r"\{T:([\w-]+)\}", "\n".join(cell["lines"])))
        available = set(lesson.texts("en")[section])
        assert used <= available, (section, used - available)
        # bet_* texts are the questions that mindwidget.lesson's Bet shows itself
        unused = {k for k in available - used if not k.startswith("bet_")}
        assert not unused, (section, unused)


@pytest.mark.parametrize("lang", LANGS)
def test_notebooks_speak_their_language(lang: str) -> None:
    for name in NAMES:
        nb = json.loads((ROOT / "notebooks" / lang / f"{name}.ipynb").read_text(encoding="utf-8"))
        assert nb["metadata"]["mindwidget"]["lang"] == lang
        code = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "code")
        assert "{LANG}" not in code and "{T:" not in code
        # every call that takes a language gets this one
        for call in re.findall(r'lesson\.\w+\([^)]*"(en|nl|de)"', code):
            assert call == lang, (name, call)
        assert f'"{lang}"' in code, name
        md = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")
        assert md.startswith("# ")
        teacher = lesson.text("ui.teacher", lang)
        assert f"> **{teacher}**" in md or name == "04-scenarios", name


def test_no_helper_code_in_the_projector_notebooks() -> None:
    """No def, class or import beyond `from mindwidget import lesson`; helper cells collapsed."""
    for lang in LANGS:
        for name in ("01-play", "02-rules", "03-probability", "05-cooperation"):
            nb = json.loads(
                (ROOT / "notebooks" / lang / f"{name}.ipynb").read_text(encoding="utf-8")
            )
            for cell in nb["cells"]:
                if cell["cell_type"] != "code":
                    continue
                src = cell["source"]
                assert "def " not in src and "class " not in src, (name, src)
                imports = [line for line in src.splitlines() if "import" in line]
                assert imports in ([], ["from mindwidget import lesson"]), (name, imports)
                assert len(src.splitlines()) <= 5, (name, src)
            meta = [c["metadata"] for c in nb["cells"] if c["cell_type"] == "code"]
            assert any(m.get("jupyter", {}).get("source_hidden") for m in meta), name


def test_the_rules_notebook_has_no_visible_code_and_one_scenario_per_rule() -> None:
    nb = json.loads((ROOT / "notebooks" / "nl" / "02-rules.ipynb").read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c["metadata"]["jupyter"]["source_hidden"] for c in code)
    # JupyterLab shows the first line of a hidden cell: a label, not code
    assert all(c["source"].startswith("# Code voor de docent\n") for c in code)
    scenarios = [c for c in code if "lesson.scenario(" in c["source"]]
    assert len(scenarios) >= 10
    assert not any("print" in c["source"] for c in code)


def test_a_source_error_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "09-bad.cells"
    bad.write_text("# %% md title\nstray text\n", encoding="utf-8")
    with pytest.raises(ValueError, match="09-bad.cells:2"):
        build.parse(bad)
    bad.write_text("# %% markdown title\n", encoding="utf-8")
    with pytest.raises(ValueError, match="09-bad.cells:1"):
        build.parse(bad)
