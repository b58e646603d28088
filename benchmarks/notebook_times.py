"""Run All time of every lesson notebook, per language, cell by cell.

    python benchmarks/notebook_times.py                 # notebooks/{en,nl,de}/*.ipynb
    python benchmarks/notebook_times.py notebooks/nl/03-probability.ipynb

Each notebook runs top to bottom in a fresh kernel (nbclient, this
interpreter), as "Run All" would in JupyterLab. Printed: the time from the
first cell to the last (kernel start not included), the slowest cell and its
share. These are the run times that docs/teaching*.md quote. Figures depend
on the machine: run it on a quiet machine (or compare notebooks measured in
the same run, not against figures from another day).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def _seconds(cell: nbformat.NotebookNode) -> float:
    """The kernel's own time for one cell, from nbclient's timing metadata."""
    timing = cell.get("metadata", {}).get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not start or not end:
        return 0.0
    parse = datetime.fromisoformat
    return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds()


def run_all(path: Path) -> tuple[float, list[float]]:
    """Run a notebook top to bottom; (wall seconds of the cells, seconds per code cell)."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    with client.setup_kernel():
        start = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        wall = time.perf_counter() - start
    return wall, [_seconds(c) for c in nb.cells if c.cell_type == "code"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(ROOT.glob("notebooks/*/[0-9]*.ipynb"))
    if not paths:
        print("no notebooks found", file=sys.stderr)
        return 1
    print(f"{'notebook':34s} {'Run All':>8s} {'cells':>6s} {'slowest cell':>13s}")
    for path in paths:
        wall, cells = run_all(path)
        slowest = max(range(len(cells)), key=cells.__getitem__)
        name = str(path.relative_to(ROOT)) if path.is_absolute() else str(path)
        print(f"{name:34s} {wall:7.1f}s {len(cells):6d} {cells[slowest]:6.1f}s (#{slowest + 1})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
