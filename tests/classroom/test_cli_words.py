"""argparse's own words in the teacher's language, through gettext as CPython documents.

argparse asks the `gettext` module for every message it prints (its how-to
"Translating the argparse output"); `mindwidget.cli` gives gettext a catalog
made from ``locales/cli/<lang>.json`` while the command reads its arguments.
The command runs here as a teacher runs it, in a process of its own, and what
it prints must hold no English.
"""

from __future__ import annotations

import argparse
import gettext
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from english_words import english_in

from mindwidget import cli
from mindwidget.bots import BOT_NAMES, TEMPOS

ROOT = Path(__file__).resolve().parents[2]
#: What stays as typed in every language: options, metavars, choices, values quoted,
#: the names of the bots and tempos a teacher types.
VALUES = "|".join(sorted({*TEMPOS, *BOT_NAMES}))
VERBATIM = re.compile(
    rf"--?[a-z][a-z-]*|\{{[^}}]*\}}|'[^']*'|\b[A-Z]{{2,}}\b|\bmindwidget\b|\b({VALUES})\b"
)
FRAME = {"nl": ("gebruik: ", "fout: "), "de": ("Aufruf: ", "Fehler: ")}


def run(*words: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG="C", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "mindwidget", *words],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize("lang", ["nl", "de"])
@pytest.mark.parametrize(
    "words",
    [
        ["class", "--help"],
        ["class", "--size", "9"],
        ["class", "--port"],
        ["class", "--bogus"],
        ["class", "--no-browser=yes"],
        ["class", "--s", "3"],
        ["class", "--seed", "x"],
        ["klas"],
    ],
    ids=" ".join,
)
def test_the_command_says_no_english(lang: str, words: list[str]) -> None:
    said = run(*words, "--lang", lang)
    usage, error = FRAME[lang]
    assert said.startswith(usage), said
    if "--help" not in words:
        assert f": {error}" in said, said
    english = english_in(VERBATIM.sub(" ", said))
    assert english == [], f"English in {words} under --lang {lang}: {english}\n{said}"


def test_argparse_plural_messages_are_translated_and_all_is_put_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    domain, language = gettext.textdomain(), os.environ.get("LANGUAGE")
    with cli._argparse_in("nl"):
        parser = argparse.ArgumentParser(prog="mindwidget")
        parser.add_argument("--pair", nargs=2)
        with pytest.raises(SystemExit):
            parser.parse_args(["--pair", "a"])
        assert gettext.ngettext("expected %s argument", "expected %s arguments", 1) == (
            "verwacht %s waarde"
        )
    assert "mindwidget: fout: argument --pair: verwacht 2 waarden" in capsys.readouterr().err
    # afterwards: gettext's domain and the environment as they were, argparse in English
    assert gettext.textdomain() == domain and os.environ.get("LANGUAGE") == language
    assert gettext.ngettext("expected %s argument", "expected %s arguments", 2) == (
        "expected %s arguments"
    )
    assert argparse.ArgumentParser().format_usage().startswith("usage: ")


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_the_catalog_gives_every_word_back_through_gettext(lang: str) -> None:
    table = json.loads((ROOT / "mindwidget" / "locales" / "cli" / f"{lang}.json").read_text())[
        "argparse"
    ]
    catalog = gettext.GNUTranslations(io.BytesIO(cli.argparse_catalog(table)))
    assert catalog.info()["plural-forms"] == cli.PLURAL_FORMS
    for message, said in table.items():
        if isinstance(said, str):
            assert catalog.gettext(message) == said
        else:
            assert [catalog.ngettext(message, message, n) for n in (1, 2)] == said
    # and the English table has every message the others translate
    if lang != "en":
        english = json.loads((ROOT / "mindwidget" / "locales" / "cli" / "en.json").read_text())
        assert set(table) == set(english["argparse"])
