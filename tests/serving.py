"""A server as a subprocess for a test: start it on a free port, wait until it answers, stop it.

One place for what `mindwidget lesson`, `mindwidget app`, JupyterLab and Voilà
tests all do: the server runs in its own process group (its kernels go with
it), its output goes to a log, the wait for it is a bounded poll on a
condition (never a fixed sleep), and when it does not come up the error ends
with the log's tail. No Playwright here: tests/classroom/test_cli.py uses it too.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HTTP_ERRORS = (urllib.error.URLError, ConnectionError, TimeoutError)


class ServerError(RuntimeError):
    """A server did not start; the message ends with the tail of its log."""


def alone(run: Callable[..., Any], *args: Any) -> Any:
    """``run(*args)`` in a thread of its own, its result or its exception.

    Playwright keeps an event loop running in pytest's main thread once a browser
    test has run, so ``asyncio.run`` (a test's own loop, or the class command's)
    cannot start there later in the same process.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run, *args).result()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    """Something accepts connections on 127.0.0.1:``port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def answers(url: str) -> bool:
    """``url`` gives an HTTP answer (an error status counts: the server is up)."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except HTTP_ERRORS:
        return False


def status_ok(url: str) -> bool:
    """``url`` answers 200 with JSON (JupyterLab's api/status)."""
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            json.load(resp)
            return bool(resp.status == 200)
    except (*HTTP_ERRORS, ValueError):
        return False


def tail(path: Path, n: int = 60) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "<no log>"


def jupyter_env(state: Path, *, allow_root: bool = False, **more: str) -> dict[str, str]:
    """This environment with Jupyter's config, data and runtime dirs under ``state``
    (away from the user's ~/.jupyter) and ``more`` set; ``allow_root``: a config there
    lets the server run as root (CI does)."""
    env = dict(os.environ)
    for name in ("CONFIG", "DATA", "RUNTIME"):
        env[f"JUPYTER_{name}_DIR"] = str(state / name.lower())
    if allow_root:
        config = state / "config"
        config.mkdir(parents=True, exist_ok=True)
        (config / "jupyter_server_config.json").write_text('{"ServerApp": {"allow_root": true}}')
    env.update(more)
    return env


def with_path(env: dict[str, str], root: Path) -> dict[str, str]:
    """``env`` with ``root`` first on PYTHONPATH (the tree under test, also for kernels)."""
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    return env


def stop_process(proc: subprocess.Popen[Any], how: int = signal.SIGTERM) -> None:
    """Stop ``proc`` with ``how`` (SIGINT for Voilà), then kill what is left of its group."""
    if proc.poll() is None:
        proc.send_signal(how)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # stray kernels


@contextlib.contextmanager
def server_process(
    cmd: Sequence[str],
    log_path: Path,
    *,
    up: Callable[[], Any],
    what: str,
    timeout: float,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    stop: int = signal.SIGTERM,
    error: type[Exception] = ServerError,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``cmd`` (its output to ``log_path``) until ``up()`` is true, then yield it;
    stop it (``stop``, then SIGKILL to its group) on exit. ``error`` (its message
    ending with the log's tail) when it exits first or is not up within ``timeout`` s."""
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            list(cmd),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
            start_new_session=True,  # own process group: its kernels go with it
        )
    try:
        deadline = time.monotonic() + timeout
        while not up():
            if proc.poll() is not None:
                raise error(f"{what} exited with {proc.returncode}:\n{tail(log_path)}")
            if time.monotonic() > deadline:
                raise error(f"{what} not up after {timeout:g}s:\n{tail(log_path)}")
            # a bounded poll interval, not a fixed wait for readiness
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.25)
        yield proc
    finally:
        stop_process(proc, stop)
