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
the language packs). Both are set for this folder only (`lessons_folder.lab_options`):
the teacher's own JupyterLab settings are neither read nor changed. A notebook the pupil has
changed is never overwritten without ``--force``: the folder keeps a small
record (``.mindwidget-lesson.json``) of what was copied, so a notebook that is
still as it was copied can be brought up to date, while a changed one is kept
and named (`mindwidget.lessons_folder` does this; here the command reads its
arguments and says what was done). ``app`` starts the student page
(`mindwidget.app`) under Voilà on 127.0.0.1.

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
import importlib.util
import math
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import lessons_folder
from .app import NOTEBOOK, PLAYERS, SETTINGS_ENV, TEMPO_RANGE, AppSettings
from .bots import BOT_NAMES, TEMPOS
from .handouts import handouts
from .i18n import LANGS, family, say_in

__all__ = [
    "cli_lang",
    "say",
    "main",
]

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
def _lesson(args: argparse.Namespace) -> int:
    lang: str = args.lang
    src = lessons_folder.lessons_dir(lang)
    if src is None:
        have = ", ".join(lessons_folder.lesson_langs()) or say("none", lang)
        language = say(f"language_{lang}", lang)
        raise CommandError(say("no_lessons", lang, language=language, code=lang, have=have))
    if not args.copy_only and importlib.util.find_spec("jupyterlab") is None:
        raise CommandError(say("no_jupyterlab", lang, python=sys.executable))
    dest = Path(args.folder or f"mindwidget-lesson-{lang}").expanduser().resolve()
    try:
        report = lessons_folder.copy_lessons(
            src,
            dest,
            force=args.force,
            kernel=lessons_folder.kernel_metadata(),
            extra=lessons_folder.lesson_handouts(lang),
            lang=lang,
        )
    except lessons_folder.NotAFolder as exc:
        raise CommandError(str(exc)) from None
    for line in report.lines(dest, lang):
        print(line)
    papers = [name for name in handouts(lang) if (dest / name).is_file()]
    if papers:
        print(say("papers", lang, names=", ".join(papers)))
    if args.copy_only:
        return 0
    first = lessons_folder.first_notebook(dest)
    # No file in the URL: JupyterLab opens the folder's workspace (`lab_options`),
    # which shows the first notebook with the file browser closed.
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={dest}"]
    cmd += lessons_folder.lab_options(dest, lang, first)
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
    """Where the class listens and whom it trusts: a school's proxy (docs/school-it.md)."""
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
