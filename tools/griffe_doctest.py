"""A griffe extension for the API reference (mkdocs.yml, mkdocstrings): a docstring's
doctest (``>>>`` lines and their output) becomes a fenced ``pycon`` block, and a
reST literal block (a paragraph ending in ``::`` and the indented lines after it)
a fenced ``python`` block, so that Markdown shows them as code, not as quotes.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
                i += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if stripped.endswith("::") and not stripped.startswith(".."):
            out.append(line[:-1] if line.endswith("::") and not line.endswith(" ::") else line[:-3])
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            indent = len(line) - len(stripped)
            block = []
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            if block:
                cut = min(len(b) - len(b.lstrip()) for b in block if b.strip())
                pad = " " * indent
                out += ["", f"{pad}```python", *(pad + b[cut:] for b in block), f"{pad}```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence(obj.docstring.value)
