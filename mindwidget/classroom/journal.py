"""The class's journal: every change of a class in one SQLite file.

A class lives in one process; the journal lets it outlive that process (a
kernel restart, a crash, a laptop that slept). One file per class,
``class-<code>.sqlite3``, in a data folder (`data_dir`: the user's data folder
unless the teacher names one). Python's own `sqlite3`, in WAL mode with
``synchronous=NORMAL``: a commit is on disk when it returns, as far as a
crash of the process goes (a power cut may lose the last commits, never the
file).

* The file holds a header (the class's code, teacher token and options) and
  entries in order, each ``{"kind": ..., ...}`` with its wall-clock time
  ``at``. What the entries are is the room's business (`record.py`); here they
  are JSON objects of at most `MAX_ENTRY_CHARS`.
* Entries are appended to a buffer (`Journal.append`) and written in one
  transaction by `Journal.commit`, once per turn of the event loop, before
  the pages are sent what changed: what a page has shown is on disk.
* Nicknames and plays only: nothing else about a pupil is written (no address,
  no browser).
* A file is hostile input: a damaged, foreign or too new file raises
  `JournalError` (a `RuleError`) naming the file and what is wrong.
* Versions: the schema's version is the file's ``PRAGMA user_version``
  (`VERSION`). A journal of an older version is brought up to this one when it
  is opened to be read or resumed (`upgrade`: the steps of `UPGRADES`, each
  from one version to the next, all in one transaction: a journal is upgraded
  whole or not at all); one of a newer version is refused with a message that
  names both versions and says to upgrade mindwidget. Listing a folder
  (`classes`) reads older files as they are and changes nothing: every version
  keeps the ``header`` and ``entries`` tables it reads.
* `classes` lists a folder's classes (newest first), `forget` deletes one,
  `prune` deletes those older than `KEEP_DAYS`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..checks import load_json
from ..rules import RuleError

__all__ = [
    "KEEP_DAYS",
    "ClassInfo",
    "Journal",
    "JournalError",
    "classes",
    "data_dir",
    "forget",
    "journal_path",
    "prune",
    "read",
    "resumable",
    "upgrade",
]

FORMAT = "mindwidget-journal"
#: The schema's version (``PRAGMA user_version``). 1: the header and the entries;
#: 2: an index of the entries that `classes` counts (pupils, the end). An older file
#: is upgraded when opened (`UPGRADES`), a newer one refused.
VERSION = 2
PREFIX = "class-"
SUFFIX = ".sqlite3"
#: Days a class's journal is kept after its last change (then `prune` deletes it).
KEEP_DAYS = 30
#: The longest entry (a game's rules and deal are the longest, about 1 kB).
MAX_ENTRY_CHARS = 64 * 1024
#: The most entries one journal may hold (a lesson writes a few thousand).
MAX_ENTRIES = 2_000_000

#: One encoder for every entry (json.dumps with options makes a new one each call).
_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode

_INSERT = "INSERT INTO entries (at, kind, data) VALUES (?, ?, ?)"

#: The entries `classes` counts to list a folder: in an index of their own (version 2),
#: the listing reads a few rows per journal, not every play (a lesson writes thousands).
_LISTED = ("pupil", "end")
_LISTED_INDEX = "CREATE INDEX entries_listed ON entries (kind) WHERE " + " OR ".join(
    f"kind = '{kind}'" for kind in _LISTED
)

_SCHEMA = f"""
CREATE TABLE header (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
{_LISTED_INDEX};
"""


def _to_2(conn: sqlite3.Connection) -> None:
    """Version 1 -> 2: the index of the entries a listing counts."""
    conn.execute(_LISTED_INDEX)


#: The step that brings a journal of version n to n + 1, for every n below `VERSION`.
#: A step changes the schema (and the rows, if it must) on the connection it is given,
#: inside the upgrade's transaction; it never commits. A new version adds one step here
#: and the same change to `_SCHEMA` (tests/classroom/test_journal_upgrade.py checks that an
#: upgraded file has the schema of a new one).
UPGRADES: dict[int, Callable[[sqlite3.Connection], None]] = {1: _to_2}


class JournalError(RuleError):
    """A class journal that cannot be read: names the file and what is wrong."""

    def __init__(self, path: str | Path, problem: str) -> None:
        super().__init__(f"the class journal {path} cannot be used: {problem}")
        self.path = Path(path)
        self.problem = problem


def data_dir() -> Path:
    """The user's folder for the class journals: ``$XDG_DATA_HOME/mindwidget`` (or
    ``~/.local/share/mindwidget``) on Linux, ``~/Library/Application Support/mindwidget``
    on macOS, ``%LOCALAPPDATA%\\mindwidget`` on Windows (`platformdirs`, which every
    Jupyter installation has)."""
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - jupyter_core depends on it
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "mindwidget"
    return Path(platformdirs.user_data_dir("mindwidget", appauthor=False))


def journal_path(folder: str | Path, code: str) -> Path:
    """The journal of class ``code`` in ``folder``."""
    if not (isinstance(code, str) and code.isdigit() and len(code) <= 8):
        raise ValueError(f"a class code is up to 8 digits, not {code!r}.")
    return Path(folder) / f"{PREFIX}{code}{SUFFIX}"


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class Journal:
    """One class's journal, open for appending (`create` a new one, `open` a resumed one)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header
        self._conn = conn
        self._buffer: list[tuple[str, str]] = []  # (kind, JSON), stamped at the commit
        self.written = 0  # entries committed by this process
        self.commits = 0

    @classmethod
    def create(cls, folder: str | Path, code: str, header: Mapping[str, Any]) -> Journal:
        """A new journal for class ``code`` in ``folder`` (made if missing; only the
        user may read it). ``header``: what the class needs to come back (JSON)."""
        path = journal_path(folder, code)
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            path.parent.chmod(0o700)
        if path.exists():
            raise FileExistsError(f"{path} exists: class {code} has a journal already.")
        text = json.dumps(dict(header), separators=(",", ":"))
        conn = _connect(path)
        with contextlib.suppress(OSError):
            path.chmod(0o600)
        rows = [("format", FORMAT), ("code", code), ("created", repr(time.time())), ("class", text)]
        try:
            conn.execute("BEGIN")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.executemany("INSERT INTO header VALUES (?, ?)", rows)
            conn.execute(f"PRAGMA user_version = {VERSION}")
            conn.execute("COMMIT")
        except Exception:
            conn.close()
            raise
        return cls(path, conn, dict(header))

    @classmethod
    def open(cls, path: str | Path) -> Journal:
        """An existing journal, to append to (its entries: `read`); one of an older
        version is upgraded first (`upgrade`)."""
        path = Path(path)
        upgrade(path)
        header, conn = _read_header(path)
        conn.close()
        return cls(path, _connect(path), header)

    # ---------------------------------------------------------------- writing
    def append(self, kind: str, data: Mapping[str, Any]) -> None:
        """An entry, written at the next `commit` (``data`` JSON-able, with no "kind")."""
        text = _encode(data)
        if len(text) > MAX_ENTRY_CHARS:
            raise ValueError(f"a journal entry is at most {MAX_ENTRY_CHARS:,} characters.")
        self._buffer.append((kind, text))

    @property
    def pending(self) -> int:
        return len(self._buffer)

    def commit(self) -> int:
        """Write the buffered entries in one transaction; how many."""
        rows = self._buffer
        if not rows:
            return 0
        self._buffer = []
        conn = self._conn
        at = time.time()  # one loop turn: one time
        try:
            if len(rows) == 1:  # a statement alone is its own transaction
                conn.execute(_INSERT, (at, *rows[0]))
            else:
                conn.execute("BEGIN")
                conn.executemany(_INSERT, [(at, kind, text) for kind, text in rows])
                conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            self._buffer = rows + self._buffer
            raise
        self.written += len(rows)
        self.commits += 1
        return len(rows)

    def close(self) -> None:
        """Commit what is buffered and close the file."""
        try:
            self.commit()
        finally:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()

    def entries(self) -> list[dict[str, Any]]:
        """Every committed entry, in order (as `read` gives them)."""
        return read(self.path)[1]


# -------------------------------------------------------------------- versions
def upgrade(path: str | Path) -> int:
    """Bring the journal at ``path`` to `VERSION`, applying the steps of `UPGRADES`
    from its version on, in one transaction: when one fails, the file stays exactly
    as it was (and the failure is a `JournalError`). The version it had.

    A journal of this version is left untouched (no write); a newer one, or a file
    that is not a journal, raises `JournalError`."""
    path = Path(path)
    _read_header(path, older=True)[1].close()  # a journal, of a version we know
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    except sqlite3.Error as exc:
        raise JournalError(path, f"SQLite cannot open it ({exc}).") from None
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == VERSION:
            return int(version)
        conn.execute("BEGIN IMMEDIATE")  # no other writer until the commit
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > VERSION:  # another process upgraded it meanwhile, further
            raise _newer(path, version)
        try:
            for step in range(version, VERSION):
                UPGRADES[step](conn)
            conn.execute(f"PRAGMA user_version = {VERSION}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise JournalError(
                path, f"upgrading it from version {version} to {VERSION} failed ({exc})."
            ) from None
        return int(version)
    except sqlite3.Error as exc:
        raise JournalError(path, f"SQLite cannot upgrade it ({exc}).") from None
    finally:
        with contextlib.suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        conn.close()


# -------------------------------------------------------------------- reading
def _newer(path: Path, version: object) -> JournalError:
    return JournalError(
        path,
        f"it was written by a newer mindwidget (journal version {version}); this "
        f"mindwidget reads versions 1 to {VERSION}. Upgrade mindwidget "
        "(pip install --upgrade mindwidget) to resume this class.",
    )


def _read_header(path: Path, older: bool = False) -> tuple[dict[str, Any], sqlite3.Connection]:
    """The header and a read-only connection; a file of another version than
    `VERSION` is refused (``older``: an older one is read as it is)."""
    if not path.is_file():
        raise JournalError(path, "there is no such file.")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise JournalError(path, f"SQLite cannot open it ({exc}).") from None
    try:
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            rows = dict(conn.execute("SELECT key, value FROM header").fetchall())
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # a damaged text is not UTF-8
            raise JournalError(path, f"it is not a class journal ({exc}).") from None
        if rows.get("format") != FORMAT:
            raise JournalError(path, f"it is not a class journal (format {FORMAT!r} expected).")
        if not isinstance(version, int) or version < 1:
            raise JournalError(path, f"its version {version!r} is not a journal's.")
        if version > VERSION:
            raise _newer(path, version)
        if version < VERSION and not older:
            raise JournalError(
                path, f"its version is {version}; it must be upgraded to {VERSION} first."
            )
        header = load_json(rows.get("class"), f"{path}'s header", error=_bad(path))
        if not isinstance(header, dict):
            raise JournalError(path, "its header is not an object.")
        code = rows.get("code")
        if not isinstance(code, str) or header.get("code", code) != code:
            raise JournalError(path, "its class code is missing or does not match its header.")
        header.setdefault("code", code)
        created = _number(rows.get("created"))
        if created is None:
            raise JournalError(path, "its creation time is missing.")
        header.setdefault("created", created)
    except BaseException:
        conn.close()
        raise
    return header, conn


def _bad(path: Path) -> type[JournalError]:
    class Bad(JournalError):
        def __init__(self, problem: str) -> None:
            super().__init__(path, problem)

    return Bad


def _number(text: object) -> float | None:
    try:
        value = float(str(text))
    except ValueError:
        return None
    return value if value == value and abs(value) < 1e12 else None


def read(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A journal's header and its entries in order, each ``{"kind", "at", ...}``.

    A damaged, foreign or too new file raises `JournalError`; one of an older version
    is upgraded first (`upgrade`)."""
    path = Path(path)
    upgrade(path)
    header, conn = _read_header(path)
    out: list[dict[str, Any]] = []
    bad = _bad(path)
    try:
        try:
            rows = conn.execute("SELECT seq, at, kind, data FROM entries ORDER BY seq")
            for seq, at, kind, data in rows:
                if len(out) >= MAX_ENTRIES:
                    raise JournalError(path, f"it holds more than {MAX_ENTRIES:,} entries.")
                if not isinstance(kind, str) or not isinstance(at, (int, float)):
                    raise JournalError(path, f"entry #{seq} has no kind or time.")
                if not isinstance(data, str) or len(data) > MAX_ENTRY_CHARS:
                    raise JournalError(path, f"entry #{seq} is not JSON text of a bounded size.")
                entry = load_json(data, f"entry #{seq}", error=bad)
                if not isinstance(entry, dict) or "kind" in entry:
                    raise JournalError(path, f"entry #{seq} is not an object.")
                entry["kind"] = kind
                entry["at"] = float(at)
                out.append(entry)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise JournalError(path, f"SQLite cannot read its entries ({exc}).") from None
    finally:
        conn.close()
    return header, out


@dataclass(frozen=True)
class ClassInfo:
    """A class in a data folder: its code, file, when it started and last changed,
    how many pupils joined, and whether it ended (the teacher's end or stop)."""

    code: str
    path: Path
    created: float
    modified: float
    pupils: int = 0
    ended: bool = False

    def age(self, now: float | None = None) -> float:
        """Seconds since the last change."""
        return (time.time() if now is None else now) - self.modified


def _files(folder: Path) -> Iterator[Path]:
    if folder.is_dir():
        yield from folder.glob(f"{PREFIX}*{SUFFIX}")


def _modified(path: Path) -> float:
    """When the journal last changed: its file, or its WAL while that holds commits
    (a reader leaves an empty WAL behind)."""
    times = []
    for p in (path, Path(f"{path}-wal")):
        with contextlib.suppress(OSError):
            stat = p.stat()
            if p is path or stat.st_size > 0:
                times.append(stat.st_mtime)
    return max(times, default=0.0)


def classes(folder: str | Path) -> list[ClassInfo]:
    """The classes with a journal in ``folder``, the latest change first (files that
    are not journals are left out)."""
    out = []
    for path in _files(Path(folder)):
        code = path.name[len(PREFIX) : -len(SUFFIX)]
        if not (code.isdigit() and len(code) <= 8):
            continue
        try:
            header, conn = _read_header(path, older=True)
            try:  # literal kinds: the index of version 2 answers (a bound one it may not)
                count = "SELECT count(*) FROM entries WHERE kind = '{}'"
                pupils = conn.execute(count.format("pupil")).fetchone()[0]
                ended = conn.execute(count.format("end")).fetchone()[0] > 0
            except sqlite3.Error:
                continue
            finally:
                conn.close()
        except JournalError:
            continue
        modified = _modified(path)
        out.append(ClassInfo(code, path, float(header["created"]), modified, pupils, ended))
    return sorted(out, key=lambda c: c.modified, reverse=True)


def resumable(folder: str | Path) -> ClassInfo | None:
    """The class that ``resume`` brings back: the latest with a pupil (None: none)."""
    return next((c for c in classes(folder) if c.pupils), None)


def codes(folder: str | Path) -> set[str]:
    """The codes of every journal file in ``folder`` (a new class takes another)."""
    return {p.name[len(PREFIX) : -len(SUFFIX)] for p in _files(Path(folder))}


def forget(folder: str | Path, code: str) -> Path:
    """Delete class ``code``'s journal from ``folder`` (its WAL files too); the path."""
    path = journal_path(folder, code)
    if not path.exists():
        known = ", ".join(c.code for c in classes(folder)) or "none"
        raise ValueError(f"{folder} has no class {code} (classes there: {known}).")
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
    return path


def prune(folder: str | Path, days: float = KEEP_DAYS, now: float | None = None) -> list[str]:
    """Delete the journals of ``folder`` not changed for ``days``; their codes."""
    now = time.time() if now is None else now
    gone = []
    for path in list(_files(Path(folder))):
        if now - _modified(path) > days * 86400:
            code = path.name[len(PREFIX) : -len(SUFFIX)]
            with contextlib.suppress(ValueError, OSError):
                forget(folder, code)
                gone.append(code)
    return gone
