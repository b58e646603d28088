"""Run All time of every lesson notebook, per language, cell by cell.

    python benchmarks/notebook_times.py                 # notebooks/{en,nl,de}/*.ipynb
    python benchmarks/notebook_times.py notebooks/nl/03-probability.ipynb

Each notebook runs top to bottom in a fresh kernel (nbclient, this
interpreter), as "Run All" would in JupyterLab. Printed per notebook: the wall
time from the first cell to the last (kernel start not included), the
kernel's CPU time over the same cells (``time.process_time`` read by a cell
added before the first and after the last), and the slowest cell. Wall time
grows when other work loads the machine; CPU time hardly does, so it is the
figure to compare between runs and the one docs/teaching*.md quote (on an idle
machine Run All takes about that long).
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


_CPU_START = "import time as _bench_time\n_bench_cpu = _bench_time.process_time()"
_CPU_END = "print(_bench_time.process_time() - _bench_cpu)"


def run_all(path: Path) -> tuple[float, float, list[float]]:
    """Run a notebook top to bottom: (wall seconds, kernel CPU seconds, seconds per code cell)."""
    nb = nbformat.read(path, as_version=4)
    cells = list(nb.cells)
    nb.cells = [nbformat.v4.new_code_cell(_CPU_START), *cells, nbformat.v4.new_code_cell(_CPU_END)]
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    with client.setup_kernel():
        client.execute_cell(nb.cells[0], 0)
        start = time.perf_counter()
        for index, cell in enumerate(cells, 1):
            client.execute_cell(cell, index)
        wall = time.perf_counter() - start
        last = client.execute_cell(nb.cells[-1], len(nb.cells) - 1)
    cpu = float(last.outputs[0]["text"])
    return wall, cpu, [_seconds(c) for c in cells if c.cell_type == "code"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(ROOT.glob("notebooks/*/[0-9]*.ipynb"))
    if not paths:
        print("no notebooks found", file=sys.stderr)
        return 1
    print(f"{'notebook':34s} {'wall':>7s} {'CPU':>7s} {'cells':>6s}  slowest cell (wall)")
    for path in paths:
        wall, cpu, cells = run_all(path)
        slowest = max(range(len(cells)), key=cells.__getitem__)
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        print(
            f"{name:34s} {wall:6.1f}s {cpu:6.1f}s {len(cells):6d}  "
            f"{cells[slowest]:.1f}s (#{slowest + 1})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
