"""The ``mindwidget`` command: copying lessons without losing a pupil's work,
clear errors for bad arguments, and the student page's settings."""

from __future__ import annotations

import contextlib
import json
import platform
import urllib.request
from functools import partial
from pathlib import Path

import pytest
from serving import alone, answers, free_port, jupyter_env, server_process, with_path

from mindwidget import Game, HumanTimer, cli, lessons_folder
from mindwidget.app import SEED_ENV, SETTINGS_ENV, AppSettings, student_widget
from mindwidget.cli import main
from mindwidget.lessons_folder import MANIFEST, NotAFolder, copy_lessons

TREE = Path(cli.__file__).parents[1]  # the tree under test, first on the servers' PYTHONPATH


def lesson_source(root: Path, **files: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / f"{name}.ipynb").write_text(text)
    return root


def test_copy_fresh_then_again(tmp_path: Path) -> None:
    src = lesson_source(tmp_path / "src", a="A1", b="B1")
    (src / ".ipynb_checkpoints").mkdir()
    (src / ".ipynb_checkpoints" / "a-checkpoint.ipynb").write_text("old")
    dest = tmp_path / "class"
    report = copy_lessons(src, dest)
    assert report.copied == ["a.ipynb", "b.ipynb"]
    assert (dest / "a.ipynb").read_text() == "A1"
    assert not (dest / ".ipynb_checkpoints").exists()
    again = copy_lessons(src, dest)
    assert again.unchanged == ["a.ipynb", "b.ipynb"] and not again.copied


def test_a_changed_notebook_is_kept_unless_forced(tmp_path: Path) -> None:
    src = lesson_source(tmp_path / "src", a="A1", b="B1")
    dest = tmp_path / "class"
    copy_lessons(src, dest)
    (dest / "a.ipynb").write_text("A1 and my answers")
    report = copy_lessons(src, dest)
    assert report.kept == ["a.ipynb"]
    assert (dest / "a.ipynb").read_text() == "A1 and my answers"
    assert any("--force" in line for line in report.lines(dest))
    # and still kept on the next run: the record does not forget the original
    assert copy_lessons(src, dest).kept == ["a.ipynb"]
    forced = copy_lessons(src, dest, force=True)
    assert forced.replaced == ["a.ipynb"]
    assert (dest / "a.ipynb").read_text() == "A1"


def test_an_unchanged_notebook_is_brought_up_to_date(tmp_path: Path) -> None:
    src = lesson_source(tmp_path / "src", a="A1", b="B1")
    dest = tmp_path / "class"
    copy_lessons(src, dest)
    (dest / "b.ipynb").write_text("B1 and my answers")
    lesson_source(src, a="A2", b="B2")  # a newer mindwidget ships new versions
    report = copy_lessons(src, dest)
    assert report.updated == ["a.ipynb"]
    assert report.kept == ["b.ipynb"]
    assert (dest / "a.ipynb").read_text() == "A2"
    assert (dest / "b.ipynb").read_text() == "B1 and my answers"


def test_a_notebook_that_was_there_before_counts_as_changed(tmp_path: Path) -> None:
    src = lesson_source(tmp_path / "src", a="A1")
    dest = lesson_source(tmp_path / "class", a="someone's own notebook")
    assert copy_lessons(src, dest).kept == ["a.ipynb"]
    (dest / MANIFEST).write_text("not json")  # a damaged record is no record
    assert copy_lessons(src, dest).kept == ["a.ipynb"]


def test_destination_is_a_file(tmp_path: Path) -> None:
    src = lesson_source(tmp_path / "src", a="A1")
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotAFolder, match="is a file, not a folder"):
        copy_lessons(src, tmp_path / "file")


def test_lessons_from_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Source layouts: notebooks/*.ipynb is English until language folders exist."""
    pkg = tmp_path / "mindwidget"
    pkg.mkdir()
    monkeypatch.setattr(lessons_folder, "PACKAGE", pkg)
    assert lessons_folder.lesson_langs() == []
    lesson_source(tmp_path / "notebooks", play="en")
    assert lessons_folder.lessons_dir("en") == tmp_path / "notebooks"
    assert lessons_folder.lesson_langs() == ["en"]
    lesson_source(tmp_path / "notebooks" / "nl", spelen="nl")
    assert lessons_folder.lesson_langs() == ["nl"]  # the folders win once they exist
    lesson_source(pkg / "lessons" / "de", spielen="de")  # an installed wheel
    assert lessons_folder.lessons_dir("de") == pkg / "lessons" / "de"


def test_lesson_copy_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "class"
    assert main(["lesson", str(dest), "--copy-only"]) == 0
    src = lessons_folder.lessons_dir("en")
    assert src is not None
    names = sorted(p.name for p in dest.glob("*.ipynb"))
    assert names == sorted(p.name for p in src.glob("*.ipynb"))
    assert any(name.startswith("01-") for name in names)
    assert f"to {dest}" in capsys.readouterr().out


def test_a_lesson_folder_gets_the_guide_the_rules_card_and_the_worksheets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the notebooks go the teacher's papers, under names in the class's language."""
    from mindwidget.handouts import handouts

    dest = tmp_path / "klas"
    assert main(["lesson", str(dest), "--lang", "nl", "--copy-only"]) == 0
    papers = handouts("nl")
    assert sorted(papers) == [
        "docentenhandleiding.md",
        "spelregelkaart.html",
        "werkblad-antwoorden.pdf",
        "werkblad.pdf",
    ]
    for name, rel in papers.items():
        assert (dest / name).read_bytes() == (TREE / rel).read_bytes(), name
    assert (dest / "werkblad.pdf").read_bytes().startswith(b"%PDF-")
    said = capsys.readouterr().out
    assert "Voor de docent: docentenhandleiding.md, spelregelkaart.html, werkblad.pdf" in said
    # a teacher's notes in the guide are kept like a pupil's notebook
    (dest / "docentenhandleiding.md").write_text("mijn aantekeningen", encoding="utf-8")
    report = copy_lessons(
        lessons_folder.lessons_dir("nl"), dest, extra=lessons_folder.lesson_handouts("nl")
    )
    assert report.kept == ["docentenhandleiding.md"]
    assert "werkblad.pdf" in report.unchanged


def test_an_installed_wheel_has_the_papers_among_its_lessons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wheel carries them in lessons/<lang>/ (hatch_build.py); nothing comes from docs/."""
    import hatch_build

    pkg = tmp_path / "mindwidget"
    lesson_source(pkg / "lessons" / "de", spielen="de")
    monkeypatch.setattr(lessons_folder, "PACKAGE", pkg)
    assert lessons_folder.lesson_handouts("de") == {}
    shipped = hatch_build.handout_sources(TREE)
    assert shipped[str(TREE / "docs" / "teaching.de.md")] == (
        "mindwidget/lessons/de/lehrerhandreichung.md"
    )
    assert shipped[str(TREE / "docs" / "worksheet" / "de" / "arbeitsblatt-loesungen.pdf")] == (
        "mindwidget/lessons/de/arbeitsblatt-loesungen.pdf"
    )
    assert len(shipped) == 12
    (tmp_path / "mindwidget").mkdir(exist_ok=True)
    (tmp_path / "mindwidget" / "handouts.py").write_bytes(
        (TREE / "mindwidget" / "handouts.py").read_bytes()
    )
    with pytest.raises(RuntimeError, match="docs/teaching.md is missing"):
        hatch_build.handout_sources(tmp_path)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["lesson", "--lang", "fr"], "invalid choice: 'fr' (choose from 'en', 'nl', 'de')"),
        (["lesson", "--port", "0"], "--port: must be a whole number from 1 to 65535, not '0'"),
        (["app", "--players", "5"], "--players: must be one of 2, 3, 4, not '5'"),
        (["app", "--bots", "clever"], "invalid choice: 'clever' (choose from 'perfect'"),
        (
            ["app", "--tempo", "nan"],
            "--tempo: must be one of slow, people, quick or a number from 0.25 to 4.0, not 'nan'",
        ),
        (["app", "--lang", "EN"], "invalid choice: 'EN'"),
        (["teach"], "invalid choice: 'teach' (choose from 'lesson', 'app', 'class')"),
    ],
)
def test_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import mindwidget

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"mindwidget {mindwidget.__version__}"


def test_missing_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        lessons_folder, "lessons_dir", lambda lang: Path("/x") if lang == "en" else None
    )
    assert main(["lesson", "--lang", "de", "--copy-only"]) == 1
    # the command speaks the language of --lang (issue 24): German here
    assert "keine Lektions-Notebooks auf Deutsch (--lang de); sie hat: en." in (
        capsys.readouterr().err
    )


# ---------------------------------------------------------- the student page
def test_app_settings_travel_through_the_environment() -> None:
    settings = AppSettings(players=4, bots="scalar", tempo=2, lang="de")
    env = {SETTINGS_ENV: settings.to_json(), SEED_ENV: "5"}
    assert AppSettings.from_env(env) == settings
    w = student_widget(env)
    assert (w.game.players, w.seat, w.lang, w.reveal) == (4, 0, "de", False)
    assert w.game.hands == Game(players=4, seed=5).hands
    bot = settings.team_bot()
    assert (bot.name, bot.seconds_per_step) == ("scalar", 0.6)  # twice the usual 0.3 s
    assert "hands" not in w.view


def test_app_defaults_and_unseeded() -> None:
    assert AppSettings.from_env({}) == AppSettings()
    # no seed given: each page draws its own (two equal draws: about 1 in 4 billion)
    assert student_widget({}).game.seed != student_widget({}).game.seed


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{", "MINDWIDGET_APP must be JSON"),
        ('{"reveal": true}', "a JSON object with the keys"),
        ('{"players": 5}', "players must be one of 2, 3, 4, not 5"),
        (
            '{"tempo": 0}',
            "tempo must be one of slow, people, quick or a number from 0.25 to 4.0, not 0",
        ),
        ('{"lang": "fr"}', "lang must be one of en, nl, de, not 'fr'"),
        (
            '{"bots": "clever"}',
            "bots must be one of perfect, scalar, adaptive, human, not 'clever'",
        ),
    ],
)
def test_bad_app_settings(raw: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        AppSettings.from_env({SETTINGS_ENV: raw})


def test_bad_seed() -> None:
    with pytest.raises(ValueError, match="MINDWIDGET_APP_SEED must be a whole number"):
        student_widget({SEED_ENV: "1.5"})


def test_student_notebook_calls_the_widget() -> None:
    from mindwidget.app import NOTEBOOK

    nb = json.loads(NOTEBOOK.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) == 1
    assert "student_widget()" in "".join(code[0]["source"])


# ------------------------------------------------------------ JupyterLab starts
def test_lesson_opens_jupyterlab_in_the_folder(tmp_path: Path) -> None:
    """``mindwidget lesson --no-browser --port N`` serves the copied folder."""
    import sys

    port = free_port()
    env = with_path(jupyter_env(tmp_path / "jupyter", allow_root=True), TREE)
    folder = tmp_path / "class"
    cmd = [sys.executable, "-m", "mindwidget.cli", "lesson", str(folder)]
    cmd += ["--no-browser", "--port", str(port)]
    log = tmp_path / "lab.log"
    # any answer (200, or 403 without the token) says the server is up
    up = partial(answers, f"http://127.0.0.1:{port}/api/status")
    with server_process(cmd, log, up=up, what="JupyterLab", timeout=120, env=env):
        text = log.read_text(errors="replace")
        copied = [p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
        assert any(p.suffix == ".pdf" for p in copied)  # the worksheets go with the notebooks
        assert f"Copied {len(copied)} files to {folder}." in text
        assert f"Opening JupyterLab in {folder}" in text
        assert f"Serving notebooks from local directory: {folder}" in text
        assert f":{port}/lab" in text


def test_app_tempo_means_the_same_for_every_bot_kind() -> None:
    # the default page plays the human-like bots at the people's tempo
    assert AppSettings().team_bot().name == "human"
    slow = AppSettings(bots="human", tempo="slow").team_bot()
    quick = AppSettings(bots="human", tempo="quick").team_bot()
    assert isinstance(slow, HumanTimer) and isinstance(quick, HumanTimer)
    assert slow.tempo > quick.tempo


# ------------------------------------------------------------ JupyterLab for a lesson folder
def test_a_copied_notebook_carries_this_installations_kernel_metadata(tmp_path: Path) -> None:
    """Issue 21: JupyterLab marked a notebook nobody touched as modified, because
    the kernel's display name and Python version differed from its metadata."""
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"mindwidget": {"lang": "nl"}}}
    src = lesson_source(tmp_path / "src", a=json.dumps(nb))
    kernel = lessons_folder.kernel_metadata()
    assert kernel is not None
    assert kernel["language_info"]["version"] == platform.python_version()  # type: ignore[index]
    dest = tmp_path / "class"
    assert copy_lessons(src, dest, kernel=kernel).copied == ["a.ipynb"]
    copied = json.loads((dest / "a.ipynb").read_text())
    assert copied["metadata"]["kernelspec"]["display_name"] == kernel["kernelspec"]["display_name"]  # type: ignore[index]
    assert copied["metadata"]["mindwidget"] == {"lang": "nl"}
    again = copy_lessons(src, dest, kernel=kernel)
    assert again.unchanged == ["a.ipynb"]  # the fitted copy counts as unchanged


def test_a_lesson_folder_gets_its_own_language_and_a_closed_file_browser(tmp_path: Path) -> None:
    from jupyterlab_server.workspaces_handler import WorkspacesManager

    dest = tmp_path / "klas"
    dest.mkdir()
    options = lessons_folder.lab_options(dest, "nl", "01-play.ipynb")
    state = dest / lessons_folder.LAB_STATE
    assert options == [
        f"--LabApp.app_settings_dir={state / 'settings'}",
        f"--LabApp.workspaces_dir={state / 'workspaces'}",
    ]
    overrides = json.loads((state / "settings" / "overrides.json").read_text())
    assert overrides[lessons_folder.TRANSLATION_PLUGIN] == {"locale": "nl_NL"}
    workspace = WorkspacesManager(str(state / "workspaces")).load("default")["data"]
    assert workspace["layout-restorer:data"]["left"] == {"collapsed": True}
    assert workspace["notebook:01-play.ipynb"]["data"]["path"] == "01-play.ipynb"
    # the teacher opened the sidebar and another notebook; next time: sidebar closed again
    manager = WorkspacesManager(str(state / "workspaces"))
    workspace["layout-restorer:data"]["left"] = {"collapsed": False, "current": "filebrowser"}
    workspace["notebook:02-rules.ipynb"] = {"data": {"path": "02-rules.ipynb"}}
    manager.save("default", json.dumps({"data": workspace, "metadata": {"id": "default"}}))
    lessons_folder.lab_options(dest, "en", "01-play.ipynb")
    again = manager.load("default")["data"]
    assert again["layout-restorer:data"]["left"] == {"collapsed": True, "current": "filebrowser"}
    assert "notebook:02-rules.ipynb" in again
    english = json.loads((state / "settings" / "overrides.json").read_text())
    assert lessons_folder.TRANSLATION_PLUGIN not in english  # English: JupyterLab's own default


def test_the_lab_extra_brings_the_dutch_and_german_language_packs() -> None:
    import tomllib

    lab = tomllib.loads((Path(cli.__file__).parents[1] / "pyproject.toml").read_text())
    extra = lab["project"]["optional-dependencies"]["lab"]
    assert "jupyterlab-language-pack-nl-nl" in extra
    assert "jupyterlab-language-pack-de-de" in extra


def test_the_student_page_culls_the_kernels_of_closed_tabs(tmp_path: Path) -> None:
    """Issue 21: closed student-page tabs left their kernels running (about 70 MB
    each). Voilà's kernel manager now culls a kernel without a page after 10
    minutes: it says so once the first page has started a kernel."""
    import sys

    port = free_port()
    env = with_path(jupyter_env(tmp_path / "jupyter"), TREE)
    log = tmp_path / "voila.log"
    cmd = [sys.executable, "-m", "mindwidget.cli", "app", "--no-browser", "--port", str(port)]

    def culling() -> bool:
        if "Culling kernels with idle durations > 600 seconds" in log.read_text():
            return True
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60),
        ):
            pass  # the page starts a kernel, and with it the culler
        return False

    with server_process(cmd, log, up=culling, what="a culling Voilà", timeout=180, env=env):
        assert "at 60 second intervals" in log.read_text()


def test_the_command_speaks_the_language_of_lang_else_of_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert cli.cli_lang(["class", "--lang", "nl"], env={}) == "nl"
    assert cli.cli_lang(["class", "--lang=de"], env={"LANG": "nl_NL.UTF-8"}) == "de"
    assert cli.cli_lang(["class"], env={"LANG": "nl_NL.UTF-8"}) == "nl"
    assert cli.cli_lang(["class"], env={"LC_ALL": "de_DE.UTF-8", "LANG": "nl_NL"}) == "de"
    assert cli.cli_lang(["class", "--lang", "fr"], env={"LANG": "fr_FR.UTF-8"}) == "en"
    assert cli.cli_lang([], env={}) == "en"


@pytest.mark.parametrize("command", ["class", "lesson", "app"])
def test_help_in_dutch_has_no_english_left(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--help` with --lang nl: the command's words and argparse's own ("usage:",
    "options", "show this help message and exit") in Dutch."""
    monkeypatch.setenv("LANG", "C")
    with pytest.raises(SystemExit):
        main([command, "--lang", "nl", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("gebruik: mindwidget " + command)
    assert "opties:" in out and "deze hulptekst tonen en stoppen" in out
    english = ("usage", "options:", "show this help", "default:", "the ", " a ", "seats", "pupils")
    assert [w for w in english if w in out] == []


def test_an_error_of_argparse_in_the_environments_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    with pytest.raises(SystemExit):
        main(["class", "--size", "9"])
    err = capsys.readouterr().err
    assert "fout: argument --size: moet een van 2, 3, 4 zijn, niet '9'" in err
    with pytest.raises(SystemExit):
        main(["class", "--lang", "nl", "--bots", "gpt"])
    assert "ongeldige keuze: 'gpt' (kies uit 'human', 'adaptive', 'scalar', 'none')" in (
        capsys.readouterr().err
    )
    # and argparse is left as it was: English for the next parser
    import argparse

    assert argparse.ArgumentParser(prog="x").format_usage() == "usage: x [-h]\n"


def test_a_port_in_use_is_said_in_the_class_language(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = alone(main, ["class", "--lang", "nl", "--no-browser", "--port", str(port)])
    assert code == 1
    err = capsys.readouterr().err
    assert f"mindwidget class: poort {port} is al in gebruik" in err and "--port N" in err
