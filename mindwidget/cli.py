"""``mindwidget``: the teacher's console command.

.. code-block:: text

    mindwidget lesson [--lang en|nl|de] [FOLDER] [--force] [--copy-only]
                      [--no-browser] [--port N]
    mindwidget app [--lang en|nl|de] [--players 2|3|4] [--bots NAME]
                   [--tempo slow|people|quick|FACTOR] [--port N] [--no-browser]

``lesson`` copies the lesson notebooks of one language (shipped inside the
package) into a folder and opens JupyterLab there, with the file browser
closed (more room for the table on a projector) and, for ``--lang nl`` or
``de``, JupyterLab's own menus in that language (the ``lab`` extra installs
the language packs). Both are set for this folder only (`lab_options`): the
teacher's own JupyterLab settings are neither read nor changed. A notebook the pupil has
changed is never overwritten without ``--force``: the folder keeps a small
record (``.mindwidget-lesson.json``) of what was copied, so a notebook that is
still as it was copied can be brought up to date, while a changed one is kept
and named. ``app`` starts the student page (`mindwidget.app`) under Voilà on
127.0.0.1.

The command speaks the teacher's language: every line it prints, its
``--help`` and argparse's own words ("usage:", "options", its errors) come from
``mindwidget/locales/cli/<lang>.json``. ``--help`` is printed before the
arguments are read, so the language is decided from the words typed
(`cli_lang`): ``--lang`` if it is there, else the environment's ``LANG``
(``nl_NL.UTF-8`` is Dutch), else English.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .app import NOTEBOOK, PLAYERS, SETTINGS_ENV, TEMPO_RANGE, AppSettings
from .bots import BOT_NAMES, TEMPOS
from .handouts import handouts
from .i18n import LANGS, family, say_in

__all__ = [
    "CopyReport",
    "cli_lang",
    "say",
    "copy_lessons",
    "fit_notebook",
    "kernel_metadata",
    "lab_options",
    "lesson_handouts",
    "lesson_langs",
    "lessons_dir",
    "main",
]

PACKAGE = Path(__file__).resolve().parent
#: The record of what `copy_lessons` wrote into a lesson folder (name -> sha256).
MANIFEST = ".mindwidget-lesson.json"
DEFAULT_APP_PORT = 8866  # Voilà's own default
#: A closed student page leaves its kernel (about 70 MB) behind: Voilà's kernel
#: manager (a jupyter_server MappingKernelManager) shuts down a kernel that has
#: had no open page for 10 minutes, looking once a minute. A page still open is
#: never culled, however long the pupil thinks.
CULL_OPTIONS = (
    "--MappingKernelManager.cull_idle_timeout=600",
    "--MappingKernelManager.cull_interval=60",
    "--MappingKernelManager.cull_connected=False",
)
#: JupyterLab's locale per lesson language (the language packs of the ``lab`` extra).
LAB_LOCALES = {"nl": "nl_NL", "de": "de_DE"}
#: The lesson folder's own JupyterLab state: settings defaults and the workspace.
LAB_STATE = ".mindwidget-lab"
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"
NEWS_PLUGIN = "@jupyterlab/apputils-extension:notification"


class CommandError(Exception):
    """Something the command cannot do; the message says what and what to do instead."""


# ------------------------------------------------------------------ words
def _words(lang: str) -> dict[str, Any]:
    return family("cli", lang)


def say(key: str, lang: str = "en", **params: object) -> str:
    """The command's string ``key`` in ``lang`` (``locales/cli``), placeholders filled in."""
    return say_in("cli", key, lang, **params)


def cli_lang(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> str:
    """The language the command speaks: ``--lang X`` (or ``--lang=X``) among the
    words typed, else the environment's ``LANG`` (its first two letters, as in
    ``nl_NL.UTF-8``), else English."""
    words = list(sys.argv[1:] if argv is None else argv)
    for i, word in enumerate(words):
        value = None
        if word == "--lang" and i + 1 < len(words):
            value = words[i + 1]
        elif word.startswith("--lang="):
            value = word.split("=", 1)[1]
        if value in LANGS:
            return value
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):  # as gettext looks (LANGUAGE aside)
        code = (os.environ if env is None else env).get(name, "")
        if code:
            return code[:2].lower() if code[:2].lower() in LANGS else "en"
    return "en"


#: The language the command speaks while it runs (`main` sets it).
_speaking = ["en"]


#: The gettext domain of argparse's words while the command reads its arguments.
ARGPARSE_DOMAIN = "mindwidget-argparse"
#: The plural rule of each language the command speaks (en, nl, de: one, and more).
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"


def argparse_catalog(table: Mapping[str, str | Sequence[str]]) -> bytes:
    """argparse's words (``locales/cli/<lang>.json``, ``"argparse"``: its English
    message -> the translation, or the list of plural forms) as a GNU gettext catalog
    (a ``.mo`` file, as ``msgfmt`` writes one). A plural message is looked up by its
    singular alone, so its entry is ``singular NUL singular``."""
    import struct

    entries = {"": f"Content-Type: text/plain; charset=UTF-8\nPlural-Forms: {PLURAL_FORMS}\n"}
    for message, said in table.items():
        if isinstance(said, str):
            entries[message] = said
        else:
            entries[f"{message}\0{message}"] = "\0".join(said)
    pairs = sorted((k.encode(), v.encode()) for k, v in entries.items())
    n = len(pairs)
    originals, translations = 28, 28 + 8 * n  # after the header of 7 numbers
    data = bytearray()
    index = [bytearray(), bytearray()]
    start = 28 + 16 * n
    for column, strings in enumerate(([k for k, _ in pairs], [v for _, v in pairs])):
        for text in strings:
            index[column] += struct.pack("<2I", len(text), start + len(data))
            data += text + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, n, originals, translations, 0, 0)
    return head + bytes(index[0]) + bytes(index[1]) + bytes(data)


@contextlib.contextmanager
def _argparse_in(lang: str) -> Iterator[None]:
    """argparse's own words ("usage:", "options", its errors, its plural messages) in
    ``lang`` while the parser is built and used. argparse asks the `gettext` module
    for each (``gettext.gettext``, ``gettext.ngettext``: CPython's how-to "Translating
    the argparse output"), so here its words become a catalog (`argparse_catalog`) in
    a temporary folder, bound to `ARGPARSE_DOMAIN`, which is gettext's domain, in
    ``lang`` (``LANGUAGE``), until the parser is done; then all is as it was."""
    import gettext
    import tempfile

    spoken = _speaking[0]
    _speaking[0] = lang
    table = _words(lang).get("argparse") or {}
    try:
        if lang == "en" or not table:  # argparse's own words are English
            yield
            return
        domain, language = gettext.textdomain(), os.environ.get("LANGUAGE")
        with tempfile.TemporaryDirectory(prefix="mindwidget-argparse-") as folder:
            where = Path(folder) / lang / "LC_MESSAGES"
            where.mkdir(parents=True)
            (where / f"{ARGPARSE_DOMAIN}.mo").write_bytes(argparse_catalog(table))
            gettext.bindtextdomain(ARGPARSE_DOMAIN, folder)
            gettext.textdomain(ARGPARSE_DOMAIN)
            os.environ["LANGUAGE"] = lang
            try:
                yield
            finally:
                gettext.textdomain(domain)
                if language is None:
                    os.environ.pop("LANGUAGE", None)
                else:
                    os.environ["LANGUAGE"] = language
    finally:
        _speaking[0] = spoken


# ------------------------------------------------------------------ lessons
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
            out.append(say("copied", lang, files=_count(self.copied, lang), dest=dest))
        if self.unchanged:
            out.append(say("unchanged", lang, files=_count(self.unchanged, lang)))
        if self.updated:
            out.append(say("updated", lang, names=", ".join(self.updated)))
        if self.replaced:
            out.append(say("replaced", lang, names=", ".join(self.replaced)))
        if self.kept:
            out.append(say("kept", lang, names=", ".join(self.kept)))
        return out


def _count(names: list[str], lang: str = "en") -> str:
    return say("files_one" if len(names) == 1 else "files_other", lang, n=len(names))


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
) -> CopyReport:
    """Copy the files of ``src`` into ``dest``, never overwriting a changed one unless ``force``.

    A file counts as changed when it differs both from the file in ``src`` and
    from what this function last wrote there (recorded in ``dest/MANIFEST``);
    a file never written by this function that differs counts as changed too.
    ``kernel`` (`kernel_metadata`): written into each notebook (`fit_notebook`),
    so that a notebook nobody touched opens unmodified. ``extra``: more files,
    ``{name in dest: source}`` (`lesson_handouts`), copied on the same terms.
    """
    if dest.exists() and not dest.is_dir():
        raise CommandError(say("is_file", _speaking[0], dest=dest))
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


def _first_notebook(folder: Path) -> str | None:
    notebooks = sorted(p.name for p in folder.glob("*.ipynb"))
    return notebooks[0] if notebooks else None


def _lesson(args: argparse.Namespace) -> int:
    lang: str = args.lang
    src = lessons_dir(lang)
    if src is None:
        have = ", ".join(lesson_langs()) or say("none", lang)
        language = say(f"language_{lang}", lang)
        raise CommandError(say("no_lessons", lang, language=language, code=lang, have=have))
    if not args.copy_only and importlib.util.find_spec("jupyterlab") is None:
        raise CommandError(say("no_jupyterlab", lang, python=sys.executable))
    dest = Path(args.folder or f"mindwidget-lesson-{lang}").expanduser().resolve()
    report = copy_lessons(
        src, dest, force=args.force, kernel=kernel_metadata(), extra=lesson_handouts(lang)
    )
    for line in report.lines(dest, lang):
        print(line)
    papers = [name for name in handouts(lang) if (dest / name).is_file()]
    if papers:
        print(say("papers", lang, names=", ".join(papers)))
    if args.copy_only:
        return 0
    first = _first_notebook(dest)
    # No file in the URL: JupyterLab opens the folder's workspace (`lab_options`),
    # which shows the first notebook with the file browser closed.
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={dest}"]
    cmd += lab_options(dest, lang, first)
    if args.no_browser:
        cmd.append("--no-browser")
    if args.port is not None:
        cmd += [f"--ServerApp.port={args.port}", "--ServerApp.port_retries=0"]
    print(say("opening_lab", lang, dest=dest), flush=True)
    return _run(cmd, cwd=dest, env=dict(os.environ))


# ---------------------------------------------------------------------- app
def _app(args: argparse.Namespace) -> int:
    try:
        settings = AppSettings(
            players=args.players, bots=args.bots, tempo=args.tempo, lang=args.lang
        )
    except ValueError as exc:  # argparse has checked each value; this is a last guard
        raise CommandError(str(exc)) from None
    if importlib.util.find_spec("voila") is None:
        raise CommandError(say("no_voila", settings.lang, python=sys.executable))
    env = dict(os.environ)
    env[SETTINGS_ENV] = settings.to_json()
    cmd = [
        sys.executable,
        "-m",
        "voila",
        str(NOTEBOOK),
        "--Voila.ip=127.0.0.1",
        f"--port={args.port}",
        "--Voila.port_retries=0",
        "--theme=light",
        *CULL_OPTIONS,
    ]
    if args.no_browser:
        cmd.append("--no-browser")
    print(
        say(
            "student_page",
            settings.lang,
            url=f"http://127.0.0.1:{args.port}/",
            players=settings.players,
            bots=settings.bots,
            tempo=settings.tempo,
            language=say(f"language_{settings.lang}", settings.lang),
        ),
        flush=True,
    )
    return _run(cmd, cwd=NOTEBOOK.parent, env=env)


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> int:
    """Run a server in the foreground: on POSIX it takes this process's place, so
    Ctrl+C and a terminate go straight to it."""
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.chdir(cwd)
        os.execve(sys.executable, cmd, env)
    proc = subprocess.Popen(cmd, cwd=cwd, env=env)
    try:
        return proc.wait()
    except KeyboardInterrupt:  # Ctrl+C reached the server too: let it shut down
        return proc.wait()


# ---------------------------------------------------------------- arguments
def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(say("bad_port", _speaking[0], value=repr(value)))
    return port


def _players(value: str) -> int:
    allowed = ", ".join(map(str, PLAYERS))
    try:
        players = int(value)
    except ValueError:
        players = -1
    if players not in PLAYERS:
        raise argparse.ArgumentTypeError(
            say("bad_choice", _speaking[0], allowed=allowed, value=repr(value))
        )
    return players


def _tempo(value: str) -> float | str:
    low, high = TEMPO_RANGE
    if value in TEMPOS:
        return value
    try:
        tempo = float(value)
    except ValueError:
        tempo = math.nan
    if not (math.isfinite(tempo) and low <= tempo <= high):
        names = ", ".join(TEMPOS)
        raise argparse.ArgumentTypeError(
            say("bad_tempo", _speaking[0], names=names, low=low, high=high, value=repr(value))
        )
    return tempo


def _version() -> str:
    from . import __version__

    return __version__


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command's arguments, their help in ``lang`` (argparse's own words too,
    when built and used inside `_argparse_in`)."""

    def w(key: str) -> str:
        return say(key, lang)

    parser = argparse.ArgumentParser(
        prog="mindwidget", description=w("description"), epilog=w("language_note")
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {_version()}", help=w("version_help")
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{lesson,app,class}")
    lesson = commands.add_parser(
        "lesson", help=w("lesson_help"), description=w("lesson_description")
    )
    lesson.add_argument("folder", nargs="?", metavar=w("folder_metavar"), help=w("folder_help"))
    lesson.add_argument("--lang", choices=LANGS, default="en", help=w("lesson_lang_help"))
    lesson.add_argument("--force", action="store_true", help=w("force_help"))
    lesson.add_argument("--copy-only", action="store_true", help=w("copy_only_help"))
    lesson.add_argument("--no-browser", action="store_true", help=w("lab_no_browser_help"))
    lesson.add_argument("--port", type=_port, default=None, metavar="N", help=w("lab_port_help"))
    app = commands.add_parser("app", help=w("app_help"), description=w("app_description"))
    app.add_argument("--lang", choices=LANGS, default="en", help=w("app_lang_help"))
    app.add_argument(
        "--players", type=_players, default=3, metavar="{2,3,4}", help=w("players_help")
    )
    app.add_argument("--bots", choices=BOT_NAMES, default="human", help=w("bots_help"))
    app.add_argument(
        "--tempo", type=_tempo, default="people", metavar="TEMPO", help=w("tempo_help")
    )
    app.add_argument(
        "--port", type=_port, default=DEFAULT_APP_PORT, metavar="N", help=w("default_help")
    )
    app.add_argument("--no-browser", action="store_true", help=w("app_no_browser_help"))
    _class_parser(commands, lang)
    return parser


# ------------------------------------------------------------------- class
def _class_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = "en"
) -> None:
    def w(key: str) -> str:
        return say(key, lang)

    room = commands.add_parser("class", help=w("class_help"), description=w("class_description"))
    room.add_argument("--lan", action="store_true", help=w("lan_help"))
    room.add_argument("--port", type=_port, default=None, metavar="N", help=w("class_port_help"))
    room.add_argument("--size", type=_players, default=3, metavar="{2,3,4}", help=w("size_help"))
    room.add_argument(
        "--bots",
        choices=("human", "adaptive", "scalar", "none"),
        default="human",
        help=w("class_bots_help"),
    )
    room.add_argument(
        "--tempo", type=_tempo, default="people", metavar="TEMPO", help=w("class_tempo_help")
    )
    room.add_argument("--lang", choices=LANGS, default="en", help=w("class_lang_help"))
    room.add_argument("--same-deal", action="store_true", help=w("same_deal_help"))
    room.add_argument("--seed", type=int, default=None, metavar="N", help=w("seed_help"))
    room.add_argument("--no-browser", action="store_true", help=w("class_no_browser_help"))
    room.add_argument("--data", default=None, metavar="DIR", help=w("data_help"))
    room.add_argument(
        "--resume", nargs="?", const=True, default=False, metavar="CODE", help=w("resume_help")
    )
    room.add_argument("--forget", metavar="CODE", help=w("forget_help"))
    room.add_argument("--save", metavar="FILE", help=w("save_help"))
    _network_arguments(room, w)


def _network_arguments(room: argparse.ArgumentParser, w: Callable[[str], str]) -> None:
    """Behind a school's reverse proxy (docs/school-it.md; issue 25)."""
    net = room.add_argument_group(w("network_group"))
    net.add_argument("--host", default=None, metavar="IP", help=w("host_help"))
    net.add_argument("--public-url", default=None, metavar="URL", help=w("public_url_help"))
    net.add_argument("--trust-proxy", default=None, metavar="IP", help=w("trust_proxy_help"))


def _class(args: argparse.Namespace) -> int:
    import asyncio

    from .classroom import serve
    from .classroom.options import pick

    if args.forget is not None:
        from .classroom import keep

        try:
            print(say("deleted", args.lang, path=keep.forget(args.forget, args.data)))
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        return 0
    options = pick(vars(args))  # the flags name the class's options (`ClassOptions`)
    options["open_browser"] = not args.no_browser
    try:
        asyncio.run(serve(args.save, **options))
    except KeyboardInterrupt:
        print(say("class_ended", args.lang))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:  # the port is taken (another class, another server)
            port = args.port if args.port is not None else 8765
            raise CommandError(say("port_in_use", args.lang, port=port)) from None
        raise CommandError(str(exc)) from None
    except ValueError as exc:
        text = getattr(exc, "text", None)
        raise CommandError(text(args.lang) if callable(text) else str(exc)) from None
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    lang = cli_lang(words)
    with _argparse_in(lang):
        args = build_parser(lang).parse_args(words)
        try:
            if args.command == "lesson":
                return _lesson(args)
            if args.command == "class":
                return _class(args)
            return _app(args)
        except CommandError as exc:
            print(say("failed", lang, command=args.command, error=exc), file=sys.stderr)
            return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
