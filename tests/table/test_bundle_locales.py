"""The bundles leave out the locale strings their front end never shows (js/build.mjs).

The widget's bundle must stay <= 60 kB (tests/table/test_widget.py), so js/build.mjs
drops the keys with Python-only prefixes (and the scenario view's, from the
widget's bundle). These tests fail if the JS starts to ask for such a key.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for p in (ROOT / "js").glob("*.js") if not p.name.endswith(".test.js"))


def dropped(bundle: str) -> list[str]:
    """The prefixes js/build.mjs leaves out of ``bundle`` ("widget" or "scenario")."""
    build = (ROOT / "js" / "build.mjs").read_text(encoding="utf-8")
    python_only = re.findall(r'"(\w+_)"', re.search(r"PYTHON_ONLY = \[(.*?)\]", build)[1])  # type: ignore[index]
    assert python_only, "js/build.mjs names no Python-only prefixes"
    return python_only + (["scenario_"] if bundle == "widget" else [])


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_no_front_end_asks_for_a_key_its_bundle_leaves_out(source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    bundle = "scenario" if source.name.startswith("scenario") else "widget"
    for prefix in dropped(bundle):
        # a key in a string or template literal: "plot_x", `timing_${k}`
        assert not re.search(rf"[\"'`]{prefix}", text), f"{source.name} uses a {prefix}* key"


def test_the_widget_bundle_has_the_widget_strings_and_not_the_plots() -> None:
    bundle = ROOT / "mindwidget" / "static" / "widget.js"
    assert bundle.exists(), "build the front end first: npm install && npm run build"
    text = bundle.read_text(encoding="utf-8")
    assert "tempo_quick" in text and "refused_bad_speed" in text
    assert "timing_title" not in text and "plot_title" not in text
    assert "scenario_btn_next" not in text


def test_the_class_pages_words_stay_out_of_the_notebook_widget_only() -> None:
    """A class page's lost connection and the teacher's view of a class table are said by
    the class page and the dashboard, never by a notebook's game: only its bundle drops them."""
    static = ROOT / "mindwidget" / "static"
    lost = "Verbinding verbroken: de tafel staat voor jou stil"  # phase_offline in nl
    playing = "De tafel speelt."  # phase_play_class in nl
    widget = (static / "widget.js").read_text(encoding="utf-8")
    assert lost not in widget and playing not in widget
    assert "terug naar het notebook" in widget  # keys_leave: how to leave the board stays
    assert lost in (static / "class.js").read_text(encoding="utf-8")
    assert lost in (static / "teacher.js").read_text(encoding="utf-8")
    assert playing in (static / "dashboard.js").read_text(encoding="utf-8")
