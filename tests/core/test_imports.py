"""Imports match the layers: the core loads no widget, plot or table library.

`mindwidget/__init__.py` exports every name lazily (PEP 562), so a script that
only plays games (``from mindwidget import Game``) starts fast and runs where
IPython, matplotlib, pandas and anywidget are not even installed. Each check
runs in a fresh interpreter, because this test process has them all loaded.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mindwidget

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("IPython", "matplotlib", "pandas", "anywidget", "ipywidgets", "traitlets")


def loaded_after(code: str) -> list[str]:
    """The heavy modules loaded by running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    modules = json.loads(out.stdout.splitlines()[-1])
    return sorted({m.split(".")[0] for m in modules} & set(HEAVY))


@pytest.mark.parametrize(
    "code",
    [
        "import mindwidget",
        "import mindwidget.game",
        "from mindwidget import Game, Rules, RuleError",
        "from mindwidget.game import Game; Game(seed=1).play(0, t=1.0)",
        "import mindwidget; mindwidget.__version__",
    ],
)
def test_the_core_loads_no_widget_plot_or_table_library(code: str) -> None:
    assert loaded_after(code) == []


def test_the_probe_sees_heavy_imports() -> None:
    # the test above can fail: asking for a widget loads anywidget
    assert "anywidget" in loaded_after("from mindwidget import MindWidget")
    assert "matplotlib" in loaded_after("from mindwidget import plot_trace")


def _type_checking_names() -> dict[str, str]:
    tree = ast.parse((ROOT / "mindwidget" / "__init__.py").read_text("utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    )
    return {
        alias.name: "." + (node.module or "")
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_lazy_map_the_type_checkers_view_and_all_agree() -> None:
    exports = mindwidget._EXPORTS
    assert sorted(mindwidget.__all__) == sorted(exports)
    assert _type_checking_names() == exports
    for name, module in exports.items():
        value = getattr(mindwidget, name)
        assert value.__module__.startswith("mindwidget" + module), name
    # a submodule that defines an export does not hide it once loaded
    module = importlib.import_module("mindwidget.traces")
    assert mindwidget.trace is module.trace
    # because no export is named like a submodule (loading one would set it on the package)
    package = ROOT / "mindwidget"
    clashes = [n for n in exports if (package / f"{n}.py").exists() or (package / n).is_dir()]
    assert clashes == []
    with pytest.raises(AttributeError, match="has no attribute 'Gmae'"):
        mindwidget.Gmae  # noqa: B018


def test_the_version_is_the_one_in_pyproject() -> None:
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert mindwidget.__version__ == pyproject["project"]["version"]
    # and it is written nowhere else in the package
    source = (ROOT / "mindwidget" / "__init__.py").read_text("utf-8")
    constants = {n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)}
    assert mindwidget.__version__ not in constants


@pytest.mark.parametrize(
    "code",
    [
        "import mindwidget.classdata",
        "import mindwidget.scenario",
        "import mindwidget.classroom.server",
        "import mindwidget.traces, mindwidget.timing",
    ],
)
def test_the_data_and_the_class_server_load_no_matplotlib(code: str) -> None:
    # the figures live in mindwidget/plots.py: the class server starts without
    # matplotlib, so it writes no font cache (issue 25), and the DataFrames of
    # a scenario or a class need none
    assert "matplotlib" not in loaded_after(code)


def test_the_package_finds_the_figures_in_plots() -> None:
    plots = importlib.import_module("mindwidget.plots")
    assert mindwidget.plot_trace is plots.plot_trace
    with pytest.raises(AttributeError, match="no attribute 'plot_traec'"):
        importlib.import_module("mindwidget.traces").plot_traec  # noqa: B018


def test_a_game_speaks_however_the_core_was_imported() -> None:
    # the core says nothing in words; mindwidget/descriptions.py gives it its words
    # when the package loads, so the repr speaks even with only the core imported
    probe = (
        "from mindwidget.game import Game\n"
        "g = Game.from_hands([[10], [20]], lang='nl')\n"
        "print(repr(g))\n"
        "import sys; print('mindwidget.descriptions' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    ).stdout
    assert "Speler 1:" in out and "Speler 2:" in out and out.splitlines()[-1] == "True"
