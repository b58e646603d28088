"""The lesson folder: the notebooks `mindwidget lesson` copies and the JupyterLab it opens.

* which lesson notebooks this installation has, and in which languages
  (`lessons_dir`, `lesson_langs`), with the teacher's papers that go with them
  (`lesson_handouts`);
* copying them into a folder without ever overwriting a notebook the pupil has
  changed (`copy_lessons`; the folder keeps a record, `MANIFEST`, of what was
  copied), each notebook fitted with this installation's kernel metadata
  (`kernel_metadata`, `fit_notebook`);
* JupyterLab's settings for that folder only (`lab_options`): its language and
  a closed file browser, in the folder's own ``LAB_STATE``; the teacher's own
  JupyterLab settings are neither read nor changed.

The command (`mindwidget.cli`) reads the arguments and says what was done; its
words (``locales/cli``) are the ones said here too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .handouts import handouts
from .i18n import LANGS, say_in

__all__ = [
    "LAB_LOCALES",
    "LAB_STATE",
    "MANIFEST",
    "CopyReport",
    "NotAFolder",
    "copy_lessons",
    "first_notebook",
    "fit_notebook",
    "kernel_metadata",
    "lab_options",
    "lesson_handouts",
    "lesson_langs",
    "lessons_dir",
]

PACKAGE = Path(__file__).resolve().parent
#: The record of what `copy_lessons` wrote into a lesson folder (name -> sha256).
MANIFEST = ".mindwidget-lesson.json"
#: JupyterLab's locale per lesson language (the language packs of the ``lab`` extra).
LAB_LOCALES = {"nl": "nl_NL", "de": "de_DE"}
#: The lesson folder's own JupyterLab state: settings defaults and the workspace.
LAB_STATE = ".mindwidget-lab"
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"
NEWS_PLUGIN = "@jupyterlab/apputils-extension:notification"


class NotAFolder(Exception):
    """The lesson folder named is a file; the message says so in the command's words."""


def lessons_dir(lang: str) -> Path | None:
    """The folder holding the lesson notebooks in ``lang``, or None if none ship.

    An installed wheel has them in ``mindwidget/lessons/<lang>/`` (see
    hatch_build.py); a source checkout (an editable install) reads
    ``notebooks/<lang>/``, or ``notebooks/*.ipynb`` as English while the
    notebooks are not yet in language folders.
    """
    shipped = PACKAGE / "lessons" / lang
    if shipped.is_dir():
        return shipped
    source = PACKAGE.parent / "notebooks"
    if (source / lang).is_dir():
        return source / lang
    in_folders = any((source / other).is_dir() for other in LANGS)
    if lang == "en" and not in_folders and any(source.glob("*.ipynb")):
        return source
    return None


def lesson_handouts(lang: str) -> dict[str, Path]:
    """The teacher's papers that go with the notebooks of ``lang`` (the guide, the
    rules card, the worksheet and its answer key: `mindwidget.handouts`), by
    their name in the lesson folder. An installed wheel has them among the
    lesson files already (hatch_build.py), so this is empty there; a source
    checkout reads them from its ``docs/`` (those that exist)."""
    if (PACKAGE / "lessons" / lang).is_dir():
        return {}
    found = {name: PACKAGE.parent / rel for name, rel in handouts(lang).items()}
    return {name: path for name, path in found.items() if path.is_file()}


def lesson_langs() -> list[str]:
    """The languages whose lesson notebooks this installation has."""
    return [lang for lang in LANGS if lessons_dir(lang) is not None]


def _lesson_files(src: Path) -> list[Path]:
    """The files of a lesson folder (relative), hidden files and checkpoints left out."""
    files = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            files.append(rel)
    return files


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class CopyReport:
    """What `copy_lessons` did with each file (relative names)."""

    copied: list[str] = field(default_factory=list)  # new in the folder
    updated: list[str] = field(default_factory=list)  # unchanged by the pupil, newer version
    unchanged: list[str] = field(default_factory=list)  # already the same
    kept: list[str] = field(default_factory=list)  # changed by the pupil: left alone
    replaced: list[str] = field(default_factory=list)  # changed by the pupil, --force

    def lines(self, dest: Path, lang: str = "en") -> list[str]:
        out = []
        if self.copied:
            out.append(say_in("cli", "copied", lang, files=_count(self.copied, lang), dest=dest))
        if self.unchanged:
            out.append(say_in("cli", "unchanged", lang, files=_count(self.unchanged, lang)))
        if self.updated:
            out.append(say_in("cli", "updated", lang, names=", ".join(self.updated)))
        if self.replaced:
            out.append(say_in("cli", "replaced", lang, names=", ".join(self.replaced)))
        if self.kept:
            out.append(say_in("cli", "kept", lang, names=", ".join(self.kept)))
        return out


def _count(names: list[str], lang: str = "en") -> str:
    return say_in("cli", "files_one" if len(names) == 1 else "files_other", lang, n=len(names))


def kernel_metadata() -> dict[str, object] | None:
    """The notebook metadata JupyterLab writes when this Python's kernel starts:
    ``kernelspec`` (of the "python3" kernel) and ``language_info`` (ipykernel's,
    with this Python's version). None when either is not installed."""
    try:
        from ipykernel.ipkernel import IPythonKernel
        from jupyter_client.kernelspec import KernelSpecManager

        spec = KernelSpecManager().get_kernel_spec("python3")
    except Exception:  # no Jupyter here (--copy-only), or no python3 kernel
        return None
    return {
        "kernelspec": {"name": "python3", "display_name": spec.display_name, "language": "python"},
        "language_info": dict(IPythonKernel.language_info),
    }


def fit_notebook(data: bytes, kernel: dict[str, object]) -> bytes:
    """A lesson notebook with the kernel metadata of this installation.

    JupyterLab 4 writes the kernel's ``kernelspec`` and ``language_info`` into a
    notebook's metadata as soon as its kernel starts; when they differ (the
    display name "Python 3 (ipykernel)", the Python version) the notebook is
    marked modified although nobody touched it, autosave rewrites it, and
    `copy_lessons` then keeps it as "changed". Written as the build writes
    notebooks (``tools/build_notebooks.py``: indent 1, UTF-8).
    """
    nb = json.loads(data.decode("utf-8"))
    nb.setdefault("metadata", {}).update(kernel)
    return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def copy_lessons(
    src: Path,
    dest: Path,
    force: bool = False,
    kernel: dict[str, object] | None = None,
    extra: Mapping[str, Path] | None = None,
    lang: str = "en",
) -> CopyReport:
    """Copy the files of ``src`` into ``dest``, never overwriting a changed one unless ``force``.

    A file counts as changed when it differs both from the file in ``src`` and
    from what this function last wrote there (recorded in ``dest/MANIFEST``);
    a file never written by this function that differs counts as changed too.
    ``kernel`` (`kernel_metadata`): written into each notebook (`fit_notebook`),
    so that a notebook nobody touched opens unmodified. ``extra``: more files,
    ``{name in dest: source}`` (`lesson_handouts`), copied on the same terms.
    ``lang``: the language of the `NotAFolder` refusal (``dest`` is a file).
    """
    if dest.exists() and not dest.is_dir():
        raise NotAFolder(say_in("cli", "is_file", lang, dest=dest))
    dest.mkdir(parents=True, exist_ok=True)
    record_path = dest / MANIFEST
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))["files"]
        if not isinstance(record, dict):
            record = {}
    except (OSError, ValueError, KeyError, TypeError):
        record = {}
    report = CopyReport()
    files = [(rel.as_posix(), src / rel) for rel in _lesson_files(src)]
    files += sorted((extra or {}).items())
    for name, source in files:
        rel, target = Path(name), dest / name
        content = source.read_bytes()
        if kernel is not None and rel.suffix == ".ipynb":
            content = fit_notebook(content, kernel)
        new_hash = hashlib.sha256(content).hexdigest()
        if not target.exists():
            report.copied.append(name)
        else:
            old_hash = _sha256(target)
            if old_hash == new_hash:
                report.unchanged.append(name)
                record[name] = new_hash
                continue
            if record.get(name) == old_hash:
                report.updated.append(name)
            elif force:
                report.replaced.append(name)
            else:
                report.kept.append(name)
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        record[name] = new_hash
    record_path.write_text(json.dumps({"files": record}, indent=1) + "\n", encoding="utf-8")
    return report


def _merge_json(path: Path, values: dict[str, object]) -> None:
    """Write ``values`` into the JSON object in ``path`` (one level deep per key)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    for key, value in values.items():
        old = data.get(key)
        data[key] = {**old, **value} if isinstance(old, dict) and isinstance(value, dict) else value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _lab_app_dir() -> Path | None:
    try:
        from jupyterlab.commands import get_app_dir  # type: ignore[import-untyped]
    except ImportError:  # only the notebooks are copied (--copy-only)
        return None
    return Path(get_app_dir())


def lab_options(dest: Path, lang: str, first: str | None) -> list[str]:
    """JupyterLab options for a lesson folder: its language and a closed file browser.

    JupyterLab 4 takes the default of every setting from the ``overrides.json``
    in its ``app_settings_dir``; the teacher's own choices (the user settings)
    still win over it. So this folder gets its own ``app_settings_dir``
    (``LAB_STATE/settings``): a copy of the installation's (page_config and
    overrides) with the locale of ``lang`` added as a default (English: none,
    JupyterLab's own default) and no news pop-up, and its own ``workspaces_dir``
    (``LAB_STATE/workspaces``), whose default workspace opens ``first`` with
    the left sidebar collapsed. The teacher's settings and workspaces are not
    touched; the folder's workspace keeps the teacher's layout between lessons,
    except that the file browser starts closed each time.
    """
    state = dest / LAB_STATE
    settings = state / "settings"
    app_dir = _lab_app_dir()
    installed = app_dir / "settings" if app_dir is not None else None
    if settings.exists():
        shutil.rmtree(settings)
    settings.mkdir(parents=True)
    if installed is not None and installed.is_dir():
        for name in ("page_config.json", "page_config.json5", "overrides.json", "overrides.json5"):
            if (installed / name).is_file():
                shutil.copyfile(installed / name, settings / name)
        if (installed / "overrides.d").is_dir():
            shutil.copytree(installed / "overrides.d", settings / "overrides.d")
    if app_dir is not None and (app_dir / "static").is_dir() and not (state / "static").exists():
        # JupyterLab reads the built extensions' metadata beside app_settings_dir
        # (without it only a source extension's "disabledExtensions" is not read)
        with contextlib.suppress(OSError):
            (state / "static").symlink_to(app_dir / "static", target_is_directory=True)
    # no "Would you like to get notified about Jupyter news?" in front of a class
    _merge_json(settings / "overrides.json", {NEWS_PLUGIN: {"fetchNews": "false"}})
    if lang in LAB_LOCALES:
        _merge_json(
            settings / "overrides.json", {TRANSLATION_PLUGIN: {"locale": LAB_LOCALES[lang]}}
        )
    workspaces = state / "workspaces"
    _lab_workspace(workspaces, first)
    return [f"--LabApp.app_settings_dir={settings}", f"--LabApp.workspaces_dir={workspaces}"]


def _lab_workspace(folder: Path, first: str | None) -> None:
    """The folder's default workspace: the left sidebar collapsed; ``first`` open
    the first time (afterwards what the teacher last had open)."""
    from jupyterlab_server.workspaces_handler import WorkspacesManager

    manager = WorkspacesManager(str(folder))
    try:
        data = manager.load("default").get("data")
        if not isinstance(data, dict):
            raise TypeError
    except (OSError, ValueError, TypeError):
        data = {}
    if not data and first is not None:
        widget = f"notebook:{first}"
        data[widget] = {"data": {"path": first, "factory": "Notebook"}}
        data["layout-restorer:data"] = {
            "main": {
                "dock": {"type": "tab-area", "currentIndex": 0, "widgets": [widget]},
                "current": widget,
            }
        }
    layout = data.setdefault("layout-restorer:data", {})
    left = layout.get("left") if isinstance(layout.get("left"), dict) else {}
    layout["left"] = {**left, "collapsed": True}
    manager.save("default", json.dumps({"data": data, "metadata": {"id": "default"}}, indent=1))


def first_notebook(folder: Path) -> str | None:
    notebooks = sorted(p.name for p in folder.glob("*.ipynb"))
    return notebooks[0] if notebooks else None
