"""Browser-test infrastructure: a JupyterLab server and headless Chromium.

Every test collected from this directory is marked ``browser`` (deselect with
``-m "not browser"``).  The server is started by the tests themselves, so CI
needs nothing running beforehand; Chromium is Debian's ``/usr/bin/chromium``
(override with ``MINDWIDGET_CHROMIUM``), since Playwright cannot download its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

HERE = Path(__file__).resolve().parent
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
# Default timeout for Playwright actions / expect() (ms).  A cold kernel start
# on a 2-core CI machine can take several seconds.
PW_TIMEOUT_MS = 60_000
expect.set_options(timeout=PW_TIMEOUT_MS)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _status_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            json.load(resp)
            return bool(resp.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return False


def _tail(path: Path, n: int = 60) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "<no log>"


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's root_dir: tests copy notebooks here."""
    return tmp_path_factory.mktemp("lab_root")


@pytest.fixture(scope="session")
def lab_url(lab_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start JupyterLab on a free loopback port; yield its base URL ('http://127.0.0.1:N/')."""
    state = tmp_path_factory.mktemp("lab_state")
    env = dict(os.environ)
    # Isolate from the user's ~/.jupyter and ~/.local/share/jupyter (config,
    # kernelspecs, workspaces); what is installed in sys.prefix stays visible,
    # so the "python3" kernel is this interpreter's ipykernel.
    env.update(
        JUPYTER_CONFIG_DIR=str(state / "config"),
        JUPYTER_DATA_DIR=str(state / "data"),
        JUPYTER_RUNTIME_DIR=str(state / "runtime"),
        IPYTHONDIR=str(state / "ipython"),
        PYTHONUNBUFFERED="1",
    )
    port = _free_port()
    cmd = [
        sys.executable, "-m", "jupyter", "lab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--PasswordIdentityProvider.hashed_password=",
        f"--ServerApp.root_dir={lab_root}",
        "--ServerApp.disable_check_xsrf=True",
        "--ServerApp.allow_root=True",  # CI runs as root
        f"--LabApp.workspaces_dir={state / 'workspaces'}",
        f"--LabApp.user_settings_dir={state / 'user-settings'}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=None",
    ]  # fmt: skip
    log_path = state / "jupyterlab.log"
    base = f"http://127.0.0.1:{port}/"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=lab_root,
            start_new_session=True,  # own process group: kernels die with it
        )
        try:
            deadline = time.monotonic() + SERVER_START_TIMEOUT_S
            while not _status_ok(base + "api/status"):
                if proc.poll() is not None:
                    pytest.fail(f"JupyterLab exited with {proc.returncode}:\n{_tail(log_path)}")
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"JupyterLab not up after {SERVER_START_TIMEOUT_S}s:\n{_tail(log_path)}"
                    )
                # Bounded poll interval, not a fixed wait for readiness.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=0.25)
            yield base
        finally:
            if proc.poll() is None:
                proc.terminate()  # SIGTERM: server shuts its kernels down
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=10)
            # Kill anything left in the server's process group (stray kernels).
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """Headless Debian Chromium driven by Playwright."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: apt-get install -y chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium: Browser) -> Iterator[Page]:
    """A fresh browser context and page per test, with generous default timeouts."""
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(PW_TIMEOUT_MS)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


NotebookFactory = Callable[..., Path]


@pytest.fixture
def make_notebook(lab_root: Path) -> NotebookFactory:
    """``make_notebook("name.ipynb", "src1", "src2")`` writes a notebook into lab_root."""
    return lambda name, *sources: _write_notebook(lab_root / name, *sources)


def _write_notebook(path: Path, *sources: str) -> Path:
    """Write a minimal nbformat-4 notebook with one code cell per source."""
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
