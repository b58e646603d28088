"""The student page (`mindwidget app`, served by Voilà) in headless Chromium.

A student plays a level on the page; the page offers no way to run code; and
nothing the browser receives carries another seat's card before it is played.

The deal is fixed for the test only (``MINDWIDGET_APP_SEED``), so the test
knows every hand from ``Game(seed=...)`` on its own side, and checks every
kernel message the page receives against it: a card of a bot is "hidden"
until a view has shown it on the pile or among the discards, and no card
field (``card``, ``cards``, ``hand``, ``hands``, ``pile``) of any message may
carry a hidden card. The reveal-only keys (``hands``, ``plans``) must never
appear at all.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lab import tid
from playwright.sync_api import Page, WebSocket, expect

from mindwidget import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from serving import free_port, jupyter_env, listening, server_process, with_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 73  # level 1: you hold 36, Bot 2 holds 16, Bot 3 holds 65
PLAYERS = 3
START_TIMEOUT_S = 90.0
CARD_KEYS = {"card", "cards", "hand", "hands", "pile"}
REVEAL_ONLY_KEYS = {"hands", "plans"}


@contextlib.contextmanager
def student_app(state: Path) -> Iterator[tuple[str, Path]]:
    """``mindwidget app`` on a free loopback port; yields its URL and its log."""
    state.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = with_path(
        jupyter_env(state, IPYTHONDIR=str(state / "ipython"), MINDWIDGET_APP_SEED=str(SEED)), ROOT
    )
    cmd = [
        sys.executable, "-m", "mindwidget.cli", "app",
        "--no-browser", "--port", str(port),
        "--players", str(PLAYERS), "--bots", "perfect", "--tempo", "0.3", "--lang", "en",
    ]  # fmt: skip
    log_path = state / "voila.log"
    with server_process(
        cmd,
        log_path,
        up=lambda: listening(port),
        what="mindwidget app",
        timeout=START_TIMEOUT_S,
        env=env,
        cwd=state,
        stop=signal.SIGINT,  # Voilà stops on Ctrl+C and shuts its kernels down
    ):
        yield f"http://127.0.0.1:{port}/", log_path


# ------------------------------------------------------- the kernel messages
def decode_frame(payload: str | bytes) -> dict[str, Any] | None:
    """A kernel message from a websocket frame: JSON (protocol v0) or the binary
    ``v1.kernel.websocket.jupyter.org`` layout (offsets, then channel, header,
    parent header, metadata, content, buffers)."""
    if isinstance(payload, str):
        msg = json.loads(payload)
        return msg if isinstance(msg, dict) else None
    n = int.from_bytes(payload[:8], "little")
    offsets = [int.from_bytes(payload[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(n)]
    offsets.append(len(payload))
    parts = [payload[offsets[i] : offsets[i + 1]] for i in range(min(n, 5))]
    if len(parts) < 5:
        return None
    names = ("header", "parent_header", "metadata", "content")
    msg = {name: json.loads(part) for name, part in zip(names, parts[1:5], strict=True)}
    msg["channel"] = parts[0].decode()
    return msg


def card_values(obj: Any, key: str | None = None) -> Iterator[tuple[str, int]]:
    """Every (key, int) under a card key, anywhere in a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from card_values(v, k)
    elif isinstance(obj, list):
        for v in obj:
            yield from card_values(v, key)
    elif key in CARD_KEYS and isinstance(obj, int) and not isinstance(obj, bool):
        yield key, obj


def all_keys(obj: Any) -> Iterator[str]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from all_keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from all_keys(v)


def views_in(msg: dict[str, Any]) -> list[dict[str, Any]]:
    """The widget ``view`` states a message carries (comm_open, update, update_states)."""
    found: list[dict[str, Any]] = []

    def walk(obj: Any) -> None:
        if isinstance(obj, dict):
            view = obj.get("view")
            if isinstance(view, dict) and "pile" in view and "hand" in view:
                found.append(view)
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    walk(msg.get("content"))
    return found


def check_no_hidden_cards(messages: list[dict[str, Any]], hands: list[list[int]]) -> int:
    """Fail on any message that carries a bot's card before it was public; returns
    how many widget views were checked."""
    mine = set(hands[0])
    theirs = {c for h in hands[1:] for c in h}
    public: set[int] = set()
    views = 0
    for i, msg in enumerate(messages):
        content = msg.get("content")
        leaked_keys = REVEAL_ONLY_KEYS & set(all_keys(content))
        assert not leaked_keys, f"message {i} carries {leaked_keys}: {json.dumps(content)[:400]}"
        for view in views_in(msg):
            views += 1
            assert set(view["hand"]) <= mine, f"message {i}: hand {view['hand']} is not seat 0's"
            public.update(c for c in view["pile"] if c is not None)
            public.update(d["card"] for d in view["discards"] if d.get("card") is not None)
        for key, value in card_values(content):
            assert value not in theirs - public, (
                f"message {i} carries a bot's card {value} ({key!r}) before it was played: "
                f"{json.dumps(content)[:400]}"
            )
    return views


# ------------------------------------------------------------------- the test
def test_student_page(page: Page, tmp_path: Path) -> None:
    hands = [list(h) for h in Game(players=PLAYERS, seed=SEED).hands]
    assert hands == [[36], [16], [65]]  # what the moves below expect

    received: list[str | bytes] = []
    kernel_ws: list[str] = []

    def on_websocket(ws: WebSocket) -> None:
        if "/api/kernels/" in ws.url:
            kernel_ws.append(ws.url)
            ws.on("framereceived", lambda payload: received.append(payload))

    page.on("websocket", on_websocket)
    marker = tmp_path / "executed.txt"

    with student_app(tmp_path / "voila") as (url, log_path):
        response = page.goto(url)
        assert response is not None and response.ok
        html = response.text()
        assert page.title() == "The Mind"
        w = tid(page, "mindwidget")
        phase = tid(w, "phase")
        expect(phase).to_have_attribute("data-phase", "ready")
        expect(tid(w, "level")).to_have_text("Level 1 of 10")
        expect(tid(w, "lowest-card")).to_have_attribute("data-card", "36")
        expect(tid(w, "count-1")).to_have_text("1 card")
        expect(tid(w, "count-2")).to_have_text("1 card")

        # No code on the page: Voilà strips the cell's source, and there is no editor.
        assert "student_widget" not in html
        assert "student_widget" not in page.content()
        for selector in (".jp-InputArea", ".jp-CodeMirrorEditor", ".cm-editor", "textarea"):
            expect(page.locator(selector)).to_have_count(0)

        # Play the level: Ready (button), Bot 2 plays 16, then Space plays 36, Bot 3 plays 65.
        tid(w, "btn-ready").click()
        expect(phase).to_have_attribute("data-phase", "play")
        expect(tid(w, "pile-top")).to_have_attribute("data-card", "16", timeout=30_000)
        w.focus()
        page.keyboard.press("Space")
        expect(tid(w, "pile-top")).to_have_attribute("data-card", "36")
        expect(phase).to_have_attribute("data-phase", "cleared", timeout=30_000)
        expect(tid(w, "cleared")).to_contain_text("Level 1 cleared!")
        expect(tid(w, "lives")).to_have_attribute("data-count", "3")

        # The kernel refuses code: an execute_request over the page's own kernel
        # websocket is dropped by Voilà. A kernel_info_request sent after it on the
        # same shell channel is answered; the kernel handles shell requests in
        # order, so had the code run, its reply would have come first.
        assert kernel_ws, "the page opened no kernel websocket"
        replies = page.evaluate(
            """async ([url, code]) => {
                const ws = new WebSocket(url.replace(/session_id=[^&]*/, "session_id=probe"));
                const got = [];
                const msg = (type, content) => ({
                    header: { msg_id: type + "-probe", msg_type: type, username: "student",
                              session: "probe", date: new Date().toISOString(), version: "5.3" },
                    parent_header: {}, metadata: {}, content, channel: "shell", buffers: [],
                });
                await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
                const done = new Promise((ok) => {
                    ws.onmessage = (e) => {
                        const m = JSON.parse(e.data);
                        got.push([m.parent_header.msg_id || "", m.msg_type]);
                        if (m.msg_type === "kernel_info_reply") ok();
                    };
                });
                ws.send(JSON.stringify(msg("execute_request", {
                    code, silent: false, store_history: false, user_expressions: {},
                    allow_stdin: false, stop_on_error: true })));
                ws.send(JSON.stringify(msg("kernel_info_request", {})));
                await done;
                ws.close();
                return got;
            }""",
            [kernel_ws[0], f"open({str(marker)!r}, 'w').write('ran')"],
        )
        assert ["kernel_info_request-probe", "kernel_info_reply"] in replies
        assert not [r for r in replies if r[0] == "execute_request-probe"], replies
        assert not marker.exists()
        # and Voilà's log says it dropped it
        assert re.search(r"execute_request.{0,40}not allowed", log_path.read_text(errors="replace"))

    messages = [m for m in map(decode_frame, received) if m is not None]
    views = check_no_hidden_cards(messages, hands)
    assert views >= 4  # the deal, Bot 2's play, yours, Bot 3's (the check did run)


def test_the_check_finds_a_leak() -> None:
    """The check above fails on a view that shows a bot's hand (as ``reveal=True`` would)."""
    hands = [[36], [16], [65]]
    view = {"hand": [36], "pile": [], "discards": [], "counts": [1, 1, 1]}
    fine = {"content": {"data": {"state": {"view": view}}}}
    assert check_no_hidden_cards([fine], hands) == 1
    leaky_point = {"content": {"data": {"content": {"points": [{"k": "play", "card": 65}]}}}}
    with pytest.raises(AssertionError, match="65"):
        check_no_hidden_cards([fine, leaky_point], hands)
    revealed = {"content": {"data": {"state": {"view": {**view, "hands": [[36], [16], [65]]}}}}}
    with pytest.raises(AssertionError, match="hands"):
        check_no_hidden_cards([revealed], hands)
