"""End-to-end smoke test: JupyterLab + kernel + headless Chromium.

Opens a one-cell notebook (``1+1``), runs it, and checks that ``2`` is shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect


def test_run_cell_shows_output(
    lab_url: str, page: Page, make_notebook: Callable[..., Path]
) -> None:
    make_notebook("smoke.ipynb", "1+1")

    # ?reset: start from a clean workspace (no restored layout/dialogs).
    page.goto(f"{lab_url}lab/tree/smoke.ipynb?reset")

    panel = page.locator(".jp-NotebookPanel").filter(has=page.locator(".jp-Notebook"))
    expect(panel).to_be_visible()
    # Wait until the kernel is connected and idle. NB: the toolbar's
    # .jp-Notebook-ExecutionIndicator[data-status=idle] shows up while the status
    # bar still says "No Kernel | Initializing"; a cell run then is silently dropped.
    statusbar = page.get_by_role("contentinfo")
    expect(
        statusbar.get_by_role("button", name=re.compile(r"^Python 3 \(ipykernel\) \| Idle$"))
    ).to_be_visible()

    cell = panel.locator(".jp-CodeCell").first
    expect(cell.locator(".cm-content")).to_have_text("1+1")
    cell.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")

    expect(cell.locator(".jp-InputArea-prompt")).to_have_text("[1]:")
    expect(cell.locator(".jp-OutputArea-output")).to_have_text("2")
