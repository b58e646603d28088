"""No English on a Dutch or German screen: every cell nbval runs in
``notebooks/nl`` and ``notebooks/de`` fails on English words in what it shows
(stream, text/plain, text/html; see ``tests/english_words.py``). The check reads
the outputs of nbval's own run, so it costs no extra execution."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from english_words import english_outputs  # noqa: E402


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    result = yield
    lang = Path(str(item.fspath)).parent.name
    outputs = getattr(item, "test_outputs", None)
    if lang in ("nl", "de") and outputs:
        found = english_outputs(outputs)
        if found:
            pytest.fail(f"English on a {lang} screen in {item.name}:\n" + "\n".join(found))
    return result
