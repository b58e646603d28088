"""Write the wiskunde A worksheet and its answer key as A4 PDFs, in every language.

    python tools/build_worksheets.py          # writes docs/worksheet/<lang>/*.pdf
    python tools/build_worksheets.py --check  # exit 1 if a written file is out of date
    python tools/build_worksheets.py --typ    # also writes the Typst sources beside them

Source: the words of ``mindwidget/locales/worksheet/<lang>.json`` and the numbers
the lesson's code computes (``mindwidget/lesson/worksheet.py``). Needs Typst's
Python package (``pip install typst``, in the ``test`` extra). The PDFs are
committed: the wheel ships them (``hatch_build.py``) and ``mindwidget lesson``
copies them into the lesson folder, so a teacher needs no Typst.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mindwidget.i18n import LANGS  # noqa: E402
from mindwidget.lesson import worksheet  # noqa: E402

OUT = ROOT / "docs" / "worksheet"


def outputs() -> dict[Path, tuple[str, bool]]:
    """``{path: (lang, answers)}`` for every PDF this tool writes."""
    out = {}
    for lang in LANGS:
        sheet, key = worksheet.FILES[lang]
        out[OUT / lang / sheet] = (lang, False)
        out[OUT / lang / key] = (lang, True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    parser.add_argument("--typ", action="store_true", help="write the Typst sources too")
    args = parser.parse_args(argv)
    stale = []
    for path, (lang, answers) in outputs().items():
        data = worksheet.pdf(lang, answers)
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(path.relative_to(ROOT))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        if args.typ:
            path.with_suffix(".typ").write_text(worksheet.source(lang, answers), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({len(data) // 1024} KB)")
    if stale:
        print("out of date (run python tools/build_worksheets.py):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
