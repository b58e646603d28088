"""JupyterLab and Chromium for the browser tests and for benchmarks/widget.py.

One place for: starting JupyterLab on 127.0.0.1 (its own config, data and
runtime dirs, no token), Debian's Chromium for Playwright, the lab settings the
tests need, writing a notebook, opening it until its kernel is idle, running a
cell. Every wait here is on what the server or the page shows, never a sleep.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, Playwright, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: serving.py
from serving import ServerError, free_port, jupyter_env, server_process, status_ok  # noqa: E402, F401

CHROMIUM = os.environ.get("MINDWIDGET_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_TIMEOUT_S = 120.0


LabError = ServerError  # JupyterLab or Chromium did not start


def launch_chromium(pw: Playwright) -> Browser:
    """Headless Debian Chromium (Playwright cannot download its own here)."""
    if not os.access(CHROMIUM, os.X_OK):
        raise LabError(f"{CHROMIUM} not found: apt-get install -y chromium")
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@contextlib.contextmanager
def running_lab(root: Path, state: Path) -> Iterator[str]:
    """JupyterLab serving ``root`` on a free loopback port; yields its base URL.

    Config, data, runtime, workspaces and settings live under ``state``, away
    from the user's ~/.jupyter; what is installed in sys.prefix stays visible,
    so the "python3" kernel is this interpreter's ipykernel. The server and
    its kernels (one process group) are stopped on exit.
    """
    state.mkdir(parents=True, exist_ok=True)
    env = jupyter_env(state, IPYTHONDIR=str(state / "ipython"), PYTHONUNBUFFERED="1")
    port = free_port()
    cmd = [
        sys.executable, "-m", "jupyter", "lab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--PasswordIdentityProvider.hashed_password=",
        f"--ServerApp.root_dir={root}",
        "--ServerApp.disable_check_xsrf=True",
        "--ServerApp.allow_root=True",  # CI runs as root
        f"--LabApp.workspaces_dir={state / 'workspaces'}",
        f"--LabApp.user_settings_dir={state / 'user-settings'}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=None",
    ]  # fmt: skip
    base = f"http://127.0.0.1:{port}/"
    with server_process(
        cmd,
        state / "jupyterlab.log",
        up=lambda: status_ok(base + "api/status"),
        what="JupyterLab",
        timeout=SERVER_START_TIMEOUT_S,
        env=env,
        cwd=root,
        error=LabError,
    ):
        yield base  # on exit SIGTERM: the server shuts its kernels down


def put_setting(lab_url: str, plugin: str, values: dict[str, object]) -> None:
    """Set a JupyterLab plugin's user settings through the settings API."""
    body = json.dumps({"raw": json.dumps(values)}).encode()
    req = urllib.request.Request(
        f"{lab_url}lab/api/settings/{plugin}",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        if resp.status not in (200, 204):
            raise LabError(f"PUT settings {plugin}: HTTP {resp.status}")


def shutdown_sessions(lab_url: str) -> int:
    """Shut down every notebook session (and its kernel) the server has; returns how many.

    Tests share one server: without this, each test's kernel keeps running
    (with its widgets' comms) while the later tests run.
    """
    with urllib.request.urlopen(f"{lab_url}api/sessions", timeout=30) as resp:
        sessions = json.load(resp)
    for session in sessions:
        req = urllib.request.Request(f"{lab_url}api/sessions/{session['id']}", method="DELETE")
        with urllib.request.urlopen(req, timeout=60) as resp:
            if resp.status not in (200, 204):
                raise LabError(f"DELETE session {session['id']}: HTTP {resp.status}")
    return len(sessions)


def quiet_lab(lab_url: str) -> None:
    """No "which kernel?" dialog (start the preferred one) and no news pop-up."""
    put_setting(lab_url, "@jupyterlab/notebook-extension:tracker", {"autoStartDefaultKernel": True})
    put_setting(lab_url, "@jupyterlab/apputils-extension:notification", {"fetchNews": "false"})


def write_notebook(path: Path, *sources: str) -> Path:
    """A minimal nbformat-4 notebook with one code cell per source."""
    nb: dict[str, Any] = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
        "cells": [
            {
                "cell_type": "code",
                "id": f"cell-{i}",
                "metadata": {},
                "execution_count": None,
                "outputs": [],
                "source": src,
            }
            for i, src in enumerate(sources)
        ],
    }
    path.write_text(json.dumps(nb, indent=1))
    return path


def notebook_panel(page: Page) -> Locator:
    return page.locator(".jp-NotebookPanel").filter(has=page.locator(".jp-Notebook"))


def wait_kernel_idle(panel: Locator) -> None:
    """Wait until the notebook's kernel is connected and idle.

    The indicator says "idle" also while there is no kernel yet, and a cell
    run then is dropped: so wait for the kernel's name first, then for idle.
    """
    expect(panel.locator(".jp-KernelName")).to_have_text(re.compile(r"Python"))
    expect(panel.locator(".jp-Notebook-ExecutionIndicator")).to_have_attribute(
        "data-status", "idle"
    )


def open_notebook(page: Page, lab_url: str, name: str, ui: str = "lab") -> Locator:
    """Open a notebook in JupyterLab (``ui="notebook"``: Notebook 7) until its kernel is idle."""
    page.goto(f"{lab_url}lab/tree/{name}?reset" if ui == "lab" else f"{lab_url}notebooks/{name}")
    panel = notebook_panel(page)
    wait_kernel_idle(panel)
    return panel


def run_cell(page: Page, panel: Locator, index: int) -> None:
    """Run one code cell and wait until the kernel has taken it ("[*]" or "[n]")."""
    cell = panel.locator(".jp-CodeCell").nth(index)
    cell.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    expect(cell.locator(".jp-InputArea-prompt")).to_have_text(re.compile(r"\[(\*|\d+)\]:"))


def tid(scope: Locator | Page, testid: str) -> Locator:
    return scope.locator(f'[data-testid="{testid}"]')
