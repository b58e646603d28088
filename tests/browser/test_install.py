"""Install from the wheel, as a teacher would, on a machine without Node.

The wheel is the one ``make dist`` built (``python -m build``: the sdist, then
the wheel from it, as PyPI gets them), named by ``MINDWIDGET_WHEEL``; run alone,
the test builds one from this checkout (Node may build the bundle here; the
bundle is a build artifact that the wheel carries). It is installed into a
fresh virtual environment (no system site-packages) whose PATH holds that
environment's ``bin`` only, so there is no ``node``, ``npm`` or ``make``;
pip fetches the dependencies as usual. Then, from that environment only:
``mindwidget lesson --copy-only`` copies the lesson notebooks, and the copied
play notebook runs in Chromium, in JupyterLab from the test's environment with
a kernel from the fresh environment (its ``python -E``: PYTHONPATH ignored, so
it imports the wheel's mindwidget, not this checkout's).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from mindwidget.handouts import HANDOUTS

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "nl", "de")
#: Far above today's wheel (about 170 kB): catches a build that packs node_modules or data.
MAX_WHEEL_BYTES = 2_000_000
pytestmark = pytest.mark.timeout(600)


def run(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    proc = subprocess.run(
        cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


@dataclass(frozen=True)
class Venv:
    root: Path
    env: dict[str, str]

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def python(self) -> str:
        return str(self.bin / "python")

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Run a program of the environment (by default in its folder: `python -c`
        imports from the working directory first, and this checkout must not be it)."""
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            env=self.env,
            cwd=cwd or self.root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make dist``'s wheel (``MINDWIDGET_WHEEL``), or one built here when the test runs alone."""
    given = os.environ.get("MINDWIDGET_WHEEL", "").strip()
    if given:
        built = Path(given)
        if not (
            built.is_file() and built.name.startswith("mindwidget-") and built.suffix == ".whl"
        ):
            pytest.fail(
                f"MINDWIDGET_WHEEL={given!r} is not a mindwidget wheel (make dist builds one)"
            )
        return built
    dist = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-w", str(dist)])
    (built,) = dist.glob("mindwidget-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    root = tmp_path_factory.mktemp("fresh") / "venv"
    run([sys.executable, "-m", "venv", str(root)])
    # (PYTHONDONTWRITEBYTECODE off: each import is compiled once, not on every run)
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = str(root / "bin")  # nothing else: no node, npm or make
    env["HOME"] = os.environ.get("HOME", str(root))
    for tool in ("node", "npm", "make"):
        assert shutil.which(tool, path=env["PATH"]) is None, tool
    # ipykernel: for the browser test's kernel (JupyterLab itself is not installed here)
    run(
        [
            str(root / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--no-compile",
            str(wheel),
            "ipykernel",
        ],
        env=env,
    )
    return Venv(root, env)


@pytest.fixture(scope="module")
def lesson(venv: Venv, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """``mindwidget lesson --copy-only`` from the fresh environment: (folder, its output)."""
    cwd = tmp_path_factory.mktemp("teacher")
    proc = venv.run("mindwidget", "lesson", "--copy-only", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    yield cwd / "mindwidget-lesson-en", proc.stdout


def shipped_lessons() -> dict[str, list[str]]:
    """The lesson notebooks this checkout has, by language (what the wheel must carry)."""
    notebooks = ROOT / "notebooks"
    found = {
        lang: sorted(p.name for p in (notebooks / lang).glob("*.ipynb"))
        for lang in LANGS
        if (notebooks / lang).is_dir()
    }
    return found or {"en": sorted(p.name for p in notebooks.glob("*.ipynb"))}


def test_the_wheel_carries_the_bundle_and_the_lessons(wheel: Path) -> None:
    size = wheel.stat().st_size
    print(f"\nwheel: {wheel.name}, {size:,} bytes")
    assert size < MAX_WHEEL_BYTES
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "mindwidget = mindwidget.cli:main" in zf.read(entry_points).decode()
    expected = {
        "mindwidget/static/widget.js",
        "mindwidget/static/widget.css",
        "mindwidget/static/scenario.js",
        "mindwidget/static/scenario.css",
        "mindwidget/seats.json",
        "mindwidget/app/student.ipynb",
        *(f"mindwidget/locales/{lang}.json" for lang in LANGS),
        *(
            f"mindwidget/lessons/{lang}/{name}"
            for lang, notebooks in shipped_lessons().items()
            for name in notebooks
        ),
        # the teacher's papers: guide, rules card, worksheet and answer key
        *(f"mindwidget/lessons/{lang}/{name}" for lang in LANGS for name in HANDOUTS[lang]),
    }
    assert expected - names == set()
    assert not [n for n in names if "node_modules" in n or n.startswith("js/")]


def test_the_wheel_describes_itself_as_pypi_shows_it(wheel: Path) -> None:
    """The package page: the README in Markdown (its links made absolute, since PyPI
    shows no file beside it), the licence, the audience, the languages, the links."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    head, _, body = meta.partition("\n\n")
    fields = [line.split(": ", 1) for line in head.splitlines() if ": " in line]
    assert ["Description-Content-Type", "text/markdown"] in fields
    assert ["License-Expression", "MIT"] in fields
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert body.splitlines()[0] == readme.splitlines()[0] == "# mindwidget"
    assert len(body) > len(readme) * 0.9
    relative = re.findall(r"\]\((?!https?://|#)([^)]*)\)", body)
    assert relative == [], f"links PyPI cannot follow: {relative}"
    classifiers = {value for key, value in fields if key == "Classifier"}
    for wanted in (
        "Intended Audience :: Education",
        "Natural Language :: Dutch",
        "Natural Language :: German",
        "Natural Language :: English",
    ):
        assert wanted in classifiers
    urls = {value.split(", ")[0] for key, value in fields if key == "Project-URL"}
    assert {"Documentation", "Changelog", "Source"} <= urls


def test_installed_without_node(venv: Venv, lesson: tuple[Path, str], tmp_path: Path) -> None:
    # the fresh environment, not this checkout; and no node to be found
    out = venv.run(
        "python",
        "-c",
        "import shutil, sys, mindwidget\n"
        "from mindwidget import MindWidget\n"
        "assert shutil.which('node') is None and shutil.which('npm') is None\n"
        "assert sys.prefix != sys.base_prefix\n"
        "esm = str(MindWidget._esm)\n"
        "assert 'bundle is missing' not in esm and len(esm) > 10_000, esm[:200]\n"
        "print(mindwidget.__file__)",
    )
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).is_relative_to(venv.root)

    folder, said = lesson
    assert f"to {folder}" in said
    en = shipped_lessons()["en"]
    assert sorted(p.name for p in folder.glob("*.ipynb")) == en
    source = ROOT / "notebooks" / ("en" if (ROOT / "notebooks" / "en").is_dir() else "")
    # the cells as shipped; the metadata gains the installed kernel's (so that
    # JupyterLab does not mark an untouched lesson modified: lessons_folder.fit_notebook)
    copied = json.loads((folder / en[0]).read_text(encoding="utf-8"))
    shipped = json.loads((source / en[0]).read_text(encoding="utf-8"))
    assert copied["cells"] == shipped["cells"]
    assert copied["metadata"]["kernelspec"]["name"] == "python3"
    assert "version" in copied["metadata"]["language_info"]

    # JupyterLab and Voilà are extras: without them the command says what to install
    no_lab = venv.run("mindwidget", "lesson", str(tmp_path / "x"))
    assert no_lab.returncode == 1
    assert "JupyterLab is not installed" in no_lab.stderr
    assert "pip install 'mindwidget[lab]'" in no_lab.stderr
    no_voila = venv.run("mindwidget", "app", "--no-browser")
    assert no_voila.returncode == 1
    assert "pip install 'mindwidget[app]'" in no_voila.stderr


@pytest.mark.browser
def test_the_copied_play_notebook_runs(
    venv: Venv,
    lesson: tuple[Path, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    chromium: Browser,
) -> None:
    # Chromium is the session's (tests/browser/conftest.py): a second Playwright
    # in one process refuses to start beside it
    from lab import (
        LabError,
        open_notebook,
        quiet_lab,
        running_lab,
        tid,
    )
    from playwright.sync_api import expect

    folder, _ = lesson
    play = next(p.name for p in sorted(folder.glob("*.ipynb")) if "play" in p.name)
    # the kernel JupyterLab starts for "python3": the fresh environment's Python
    # (JUPYTER_PATH comes before the kernels of JupyterLab's own environment)
    state = tmp_path / "lab"
    spec = tmp_path / "kernels" / "kernels" / "python3"
    spec.mkdir(parents=True)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "kernels"))
    display = "Python 3 (mindwidget wheel)"
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [venv.python, "-E", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": display,
                "language": "python",
                "env": {"PATH": str(venv.bin)},
            }
        )
    )
    cells = json.loads((folder / play).read_text())["cells"]
    # the play notebook's first code cell makes its widget (the lesson's helper)
    first = next(c for c in cells if c["cell_type"] == "code")
    assert "lesson.play(" in "".join(first["source"])

    expect.set_options(timeout=60_000)
    try:
        with running_lab(folder, state) as url:
            quiet_lab(url)
            context = chromium.new_context(viewport={"width": 1400, "height": 900})
            try:
                page = context.new_page()
                page.set_default_timeout(60_000)
                panel = open_notebook(page, url, play)
                expect(panel.locator(".jp-KernelName")).to_have_text(display)
                # as a teacher would: Run -> Run All Cells (the code is collapsed)
                page.get_by_role("menuitem", name="Run", exact=True).click()
                page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
                # (a collapsed cell shows no prompt: the widget's output is the sign)
                expect(tid(panel, "mindwidget").first).to_be_visible()
                w = tid(panel, "mindwidget").first
                expect(tid(w, "phase")).to_have_attribute("data-phase", "ready")
                expect(tid(w, "lowest-card")).to_have_attribute("data-card", re.compile(r"\d+"))
                tid(w, "btn-ready").click()
                expect(tid(w, "phase")).to_have_attribute("data-phase", "play")
            finally:
                context.close()
    except LabError as exc:
        pytest.fail(str(exc))
