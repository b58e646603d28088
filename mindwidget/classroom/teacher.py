"""The teacher's side of a `Classroom`: its dashboard and its data.

It reads and commands the class's `room.Room` (never the server, `server.py`,
which delegates to it: its dashboard is a `Desk`, and the routes `teacher_routes`
adds). The class's data itself (`Classroom.plays`, `games`, `save`, ...) is
`roomdata.py`.

* In a notebook, displaying a `Classroom` shows its `Dashboard` (one widget
  per class; every display is a view of it).
* ``/teacher?token=…`` (the command's dashboard) is the same `Dashboard`
  front end (``/static/teacher.js``) through the pupil page's model shim over
  a WebSocket, ``/teacher/ws?token=…``: one `Board` per teacher's page, so the
  projector and the teacher's laptop may each show another table large, and
  only the teacher's own page reveals hands. The socket needs the teacher's
  token (a 403 without it); the page itself is an empty shell that refuses a
  wrong token and, without one, says it needs the teacher's link.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import Any

import tornado.web
import tornado.websocket

from .. import classdata
from ..checks import load_json
from ..i18n import LANGS
from . import pages, roomdata
from .dashboard import UPDATES_PER_SECOND, Board, Dashboard
from .inbox import RateLimit
from .links import read_bundle, send_bundle
from .room import Room

__all__ = ["Desk", "teacher_routes"]

log = logging.getLogger("mindwidget.classroom")
#: The largest control message the teacher's page may send (a move is ~70 bytes).
MAX_CONTROL_BYTES = 1024


class Desk:
    """The class's dashboard widget in a notebook: made on first use, one per class
    (every display is a view of it), closed when the class stops."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._dashboard: Dashboard | None = None

    @property
    def dashboard(self) -> Dashboard:
        if self._dashboard is None or self._dashboard.comm is None:
            self._dashboard = Dashboard(self.room, lang=self.room.lang)
        return self._dashboard

    def mimebundle(self, text: str, **kwargs: Any) -> Any:
        bundle = self.dashboard._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, meta = bundle  # where widgets do not render: what the class is
        return dict(data) | {"text/plain": text}, meta

    def close(self) -> None:
        """The class stops: its dashboard shows how it ended and stops following it."""
        if self._dashboard is not None:
            self._dashboard.refresh()
            self._dashboard.stop()
            self._dashboard = None


def teacher_page(lang: str) -> str:
    """The teacher's page: the dashboard's front end, fed by ``/teacher/ws``."""
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>mindwidget</title>"
        '<link rel="stylesheet" href="/static/teacher.css">'
        '<script type="module" src="/static/teacher.js"></script></head>'
        '<body data-page="teacher"><div id="dashboard"></div></body></html>\n'
    )


class _TeacherHandler(tornado.web.RequestHandler):
    def initialize(self, room: Room, bundle: dict[str, bytes], rate: tuple[float, float]) -> None:
        self.room = room
        self.bundle = bundle

    def set_default_headers(self) -> None:
        for k, v in pages.HEADERS.items():
            self.set_header(k, v)
        self.clear_header("Server")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}\n")

    def download(self, suffix: str, content_type: str, body: str | bytes) -> None:
        """Send ``body`` as a file to keep, named by the minute ("mindwidget-class-…")."""
        stamp = time.strftime("%Y-%m-%d-%H%M")
        self.set_header("Content-Type", content_type)
        self.set_header(
            "Content-Disposition", f'attachment; filename="mindwidget-class-{stamp}.{suffix}"'
        )
        self.set_header("Cache-Control", "no-store")
        self.finish(body)


def _token_ok(room: Room, token: str) -> bool:
    return secrets.compare_digest(token.encode(), room.teacher_token.encode())


class TeacherPage(_TeacherHandler):
    """The page: a shell that holds nothing of the class (all of it comes over the
    socket, which checks the token). Its script takes the token off the address
    bar at once and keeps it for the tab, so a reload comes here without it."""

    def get(self) -> None:
        token = self.get_query_argument("token", "")
        if token and not _token_ok(self.room, token):
            raise tornado.web.HTTPError(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(teacher_page(self.room.lang))


class TeacherBundle(_TeacherHandler):
    def get(self, name: str) -> None:
        send_bundle(self, self.bundle, name)


class TeacherData(_TeacherHandler):
    """The class's data as a file (what `save` writes: `classdata.to_json`), for the
    dashboard's download button. The token comes in a header (``X-Teacher-Token``),
    never in the address: a link's address shows on the projector."""

    def get(self) -> None:
        if not _token_ok(self.room, self.request.headers.get("X-Teacher-Token", "")):
            raise tornado.web.HTTPError(403)
        self.download("json", "application/json; charset=utf-8", roomdata.to_json(self.room))


class TeacherPlaysCsv(_TeacherHandler):
    """The class's plays as a CSV file for a spreadsheet (`classdata.to_csv`, in the
    ``lang`` asked for, else the class's; UTF-8 with a byte-order mark, as Excel needs),
    for the dashboard's second download button; the token in a header, as `TeacherData`."""

    def get(self) -> None:
        if not _token_ok(self.room, self.request.headers.get("X-Teacher-Token", "")):
            raise tornado.web.HTTPError(403)
        lang = self.get_query_argument("lang", "")
        text = classdata.to_csv(
            roomdata.plays(self.room), lang if lang in LANGS else self.room.lang
        )
        self.download("csv", "text/csv; charset=utf-8", text.encode(classdata.CSV_ENCODING))


class TeacherSocket(tornado.websocket.WebSocketHandler):
    """One teacher's page: its own `Board`, updated at most `UPDATES_PER_SECOND` a second.

    Sends ``{"type": "update", "state": {...}}`` first (room, table, settings,
    notice), then ``{"type": "update", "changes": {...}}`` with only the
    changed parts; takes the dashboard's control messages (checked by `Board`).
    Tornado's origin check applies (the page must come from this server), or the
    origin is the class's address (its public URL behind a proxy: `network`).
    """

    def initialize(self, room: Room, bundle: dict[str, bytes], rate: tuple[float, float]) -> None:
        self.room = room
        self.board: Board | None = None
        self.limit = RateLimit(*rate)
        self._timer: Any = None
        self._busy: Any = None

    def check_origin(self, origin: str) -> bool:
        at_address = bool(self.room.address) and origin.lower().rstrip("/") == self.room.address
        return at_address or bool(super().check_origin(origin))

    async def get(self, *args: Any, **kwargs: Any) -> None:
        if not _token_ok(self.room, self.get_query_argument("token", "")):
            self.set_status(403)
            self.finish("403\n")
            return
        await super().get(*args, **kwargs)

    def open(self, *args: Any, **kwargs: Any) -> None:
        lang = self.get_query_argument("lang", "")
        self.board = Board(self.room, lang=lang if lang in LANGS else self.room.lang)
        self._send({"type": "update", "state": self.board.state()})
        self._schedule()

    def _schedule(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(1.0 / UPDATES_PER_SECOND, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if self.ws_connection is None or self.board is None:
            return
        try:
            # a page still taking the last update gets the next one later
            if self._busy is None or self._busy.done():
                self._update()
        except Exception:  # the dashboard must never take the server down
            log.exception("teacher update failed")
        self._schedule()

    def _update(self) -> None:
        assert self.board is not None
        changes = self.board.changes()
        if changes:
            self._send({"type": "update", "changes": changes})

    def _send(self, msg: dict[str, Any]) -> None:
        self.room.before_send()  # the journal first: what the teacher sees is kept
        try:
            self._busy = self.write_message(json.dumps(msg, separators=(",", ":")))
        except tornado.websocket.WebSocketClosedError:
            self._busy = None

    def on_message(self, raw: str | bytes) -> None:
        if self.board is None or not self.limit.take():
            return
        if len(raw) > MAX_CONTROL_BYTES:
            message: object = None
        else:
            try:
                message = load_json(raw, "a control message")
            except ValueError:
                message = None
        try:
            self.board.receive(message)
            self._update()
        except Exception:
            log.exception("teacher control failed")

    def on_close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.board is not None:
            self.board.close()
        self.board = None


def teacher_routes(room: Room, rate: tuple[float, float]) -> list[tuple[str, type, dict[str, Any]]]:
    """The teacher's routes of the class server (before its other routes); ``rate``:
    each socket's messages per second and burst."""
    args = {"room": room, "bundle": read_bundle("teacher.js", "teacher.css"), "rate": rate}
    return [
        (r"/teacher", TeacherPage, args),
        (r"/teacher/ws", TeacherSocket, args),
        (r"/teacher/data", TeacherData, args),
        (r"/teacher/plays\.csv", TeacherPlaysCsv, args),
        (r"/static/(teacher\.js|teacher\.css)", TeacherBundle, args),
    ]
