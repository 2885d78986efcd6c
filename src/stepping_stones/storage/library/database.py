"""The library's SQLite file: opening it, waiting for another copy, its schema, checking it.

* ``connect``: WAL mode, SQLite's busy timeout one slice (``BUSY_SLICE``).
* ``Patience``: a wait for another copy that holds the database or its lock file, in slices, so
  that whoever asked can stop it (``LibraryCancelled``); it gives up after ``BUSY_SECONDS``
  (``LibraryBusy``).  ``LibraryError`` and its kinds, one line each.
* ``MIGRATIONS``: the schema, one list of statements per version step (``PRAGMA user_version``);
  ``expected_schema`` builds a version in memory to compare a file with.
* ``checked``: a connection to a sound database of this schema (migrated if older), or the file
  moved aside (``library.sqlite3.bad-DATE``, with its ``-wal``/``-shm``) and made anew, with the
  line that says so.

The bottom of the library package: it imports nothing of the package, and from storage only
``files.move_aside`` (the one file it renames is its own damaged database), ``files.private_folder``
and ``files.private_file`` (the library is its owner's alone) and ``safety``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

from filelock import FileLock, Timeout

from ...engine import SteppingStonesError
from ..files import PRIVATE_FILE, move_aside, private_file, private_folder
from ..safety import escape

DB_NAME: Final = "library.sqlite3"
SCHEMA_VERSION: Final = 2
BUSY_SECONDS = 10.0
"""How long the library waits, in all, for another copy's transaction before giving up."""
BUSY_SLICE = 0.1
"""SQLite's own busy timeout: one slice of a wait.  Between slices a cancelled wait stops."""
LOCK_SECONDS = 30.0
"""How long opening waits for another copy that is checking or building the library."""

# Each entry brings the schema from version i to i + 1 (PRAGMA user_version).  A later version
# appends its steps here; a database of a version past the end is not ours to read, and is
# moved aside and built again from the records.
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE files (
            name TEXT PRIMARY KEY,          -- a record's file name in games/
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            hash TEXT,                      -- the game it holds, or NULL when refused
            problem TEXT                    -- why it was refused (one line)
        )""",
        """CREATE TABLE games (
            hash TEXT PRIMARY KEY,          -- SHA-256 of the record as this program writes it
            file TEXT NOT NULL,             -- one file in games/ that holds it
            played TEXT NOT NULL,           -- 'YYYY-MM-DD HH:MM:SS', local time
            rules TEXT NOT NULL,            -- the record's rules object, as JSON
            complete INTEGER NOT NULL,
            hands INTEGER NOT NULL,
            assisted INTEGER NOT NULL,      -- the person used a hint or an undo (sidecar)
            seed TEXT                       -- the deal seed (sidecar), if known
        )""",
        """CREATE TABLE seats (
            hash TEXT NOT NULL REFERENCES games(hash) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            level TEXT,                     -- the AI level (sidecar); NULL for the person or unknown
            total INTEGER NOT NULL,
            firsts INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            PRIMARY KEY (hash, seat)
        )""",
        "CREATE INDEX seats_by_name ON seats(name)",
        """CREATE TABLE results (
            hash TEXT NOT NULL REFERENCES games(hash) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            contract TEXT NOT NULL,
            count INTEGER,                  -- the kept result on the sheet (NULL: not recorded)
            points INTEGER,                 -- NULL until all three recorded it
            first INTEGER,                  -- placed first, a shared first included (NULL: not scored)
            PRIMARY KEY (hash, seat, contract)
        )""",
    ],
    # 2: the hands a computer played for a person at a table on a server (sidecar), e.g. "5 6 7"
    ["ALTER TABLE seats ADD COLUMN stood_in TEXT"],
]


class LibraryError(SteppingStonesError):
    """The library cannot be used (a folder that cannot be written, a lock never released).
    ``str()`` is one line, safe to print."""


class LibraryBusy(LibraryError):
    """Another copy kept the library busy longer than the library waits."""


class LibraryCancelled(LibraryError):
    """The wait for the library was stopped by whoever asked for it (a screen that closed)."""


_T = TypeVar("_T")


def _never() -> bool:
    return False


@dataclass
class Patience:
    """How the library waits for another copy that holds the database or its lock file.

    Each attempt waits at most ``BUSY_SLICE`` (SQLite's busy timeout, or the lock file's
    timeout); between attempts a ``cancelled()`` wait stops (``LibraryCancelled``), and after
    ``seconds`` (default ``BUSY_SECONDS``) it gives up (``LibraryBusy``).  ``on_wait`` is told,
    from the waiting thread, each time a wait begins (a screen says it is waiting)."""

    seconds: float | None = None
    cancelled: Callable[[], bool] = _never
    on_wait: Callable[[], None] | None = None

    def check(self) -> None:
        if self.cancelled():
            raise LibraryCancelled("the wait for the game library was stopped")

    def run(self, attempt: Callable[[], _T], seconds: float | None = None) -> _T:
        """``attempt()``, tried again while it finds the library busy."""
        limit = seconds if seconds is not None else self.seconds if self.seconds is not None else BUSY_SECONDS
        started: float | None = None
        while True:
            self.check()
            try:
                return attempt()
            except (sqlite3.OperationalError, Timeout) as exc:
                if isinstance(exc, sqlite3.OperationalError) and not _busy(exc):
                    raise
            now = time.monotonic()
            if started is None:
                started = now
                if self.on_wait is not None:
                    self.on_wait()
            if now - started >= limit:
                raise LibraryBusy(
                    f"gave up waiting for the game library after {limit:g} s: another copy "
                    "of Stepping Stones kept it busy; try again in a moment"
                )


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether an error says another connection holds the database (try again), not a fault."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(exc)


def library_lock(folder: Path) -> FileLock:
    """The lock of the library of ``folder`` (an owner-only file), the folder made (owner-only)
    if it is not there."""
    private_folder(folder)
    return FileLock(str(folder / DB_NAME) + ".lock", mode=PRIVATE_FILE)


def _connect(path: Path) -> sqlite3.Connection:
    # SQLite waits one slice for a busy database; ``Patience`` tries again slice by slice.
    # The file is made owner-only first: SQLite gives its -wal and -shm the same mode.
    private_file(path)
    for beside in (f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(FileNotFoundError):
            if os.stat(beside).st_mode & 0o077:
                os.chmod(beside, PRIVATE_FILE)
    conn = sqlite3.connect(path, timeout=BUSY_SLICE, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SLICE * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether an error says the file is not a (sound) database, rather than busy or unwritable."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "not a database" in text or "malformed" in text


def _version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def _sound(conn: sqlite3.Connection) -> bool:
    rows = conn.execute("PRAGMA quick_check").fetchall()
    return rows == [("ok",)]


def _schema(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """The tables, indexes, views and triggers of a database (not SQLite's own), as created."""
    rows = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
        "ORDER BY type, name"
    ).fetchall()
    return [(kind, name, table, " ".join(str(sql or "").split())) for kind, name, table, sql in rows]


def expected_schema(version: int) -> list[tuple[str, str, str, str]]:
    """The schema ``MIGRATIONS`` make at ``version``, built in memory to compare a file with."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for step in MIGRATIONS[:version]:
            for statement in step:
                conn.execute(statement)
        return _schema(conn)
    finally:
        conn.close()


def _migrate(conn: sqlite3.Connection, start: int, patience: Patience) -> None:
    """Bring the schema from version ``start`` to ``SCHEMA_VERSION``, one step per transaction."""
    for version in range(start, SCHEMA_VERSION):
        patience.run(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def _move_aside(path: Path) -> Path:
    """Rename a database that cannot be used (and its WAL files), keeping it for a look."""
    target = move_aside(path)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            os.replace(extra, target.with_name(target.name + suffix))
    return target


def _any_records(folder: Path) -> bool:
    try:
        return any(True for _ in folder.glob("*.json"))
    except OSError:
        return False


def _inspect(path: Path) -> tuple[sqlite3.Connection | None, int, str]:
    """A connection to the database at ``path`` if it is sound and of a schema this program
    knows, and its version; else None and why not."""
    conn = _connect(path)
    try:
        version = _version(conn)
        if version > SCHEMA_VERSION:
            why = f"it has schema version {version}, which this version does not know"
        elif version < 0 or _schema(conn) != expected_schema(version):
            why = f"its tables are not those of schema version {version}"
        elif not _sound(conn):
            why = "it was damaged"
        else:
            return conn, version, ""
    except BaseException:
        conn.close()
        raise
    conn.close()
    return None, version, why


def checked(path: Path, patience: Patience) -> tuple[sqlite3.Connection, str | None]:
    """A connection to a sound database of this schema (migrated if older), and None; anything
    else (damaged, a version or tables this program does not know) is moved aside and the
    database made anew, with the line that says so.  Runs under the library's lock."""
    if not path.exists():
        if not _any_records(path.parent / "games"):
            fresh = patience.run(lambda: _connect(path))  # a first start: a new, empty library is no news
            try:
                _migrate(fresh, 0, patience)
            except BaseException:
                fresh.close()
                raise
            return fresh, None
        why = "its database was missing"
    else:
        try:
            conn, version, why = patience.run(lambda: _inspect(path))
        except sqlite3.DatabaseError as exc:
            if not _damaged(exc):
                raise
            conn, version, why = None, 0, "it was damaged"
        if conn is not None:
            try:
                _migrate(conn, version, patience)
            except BaseException:
                conn.close()
                raise
            return conn, None
        aside = _move_aside(path)
        why += f"; the old file is kept as {escape(aside.name)}"
    conn = patience.run(lambda: _connect(path))
    try:
        _migrate(conn, 0, patience)
    except BaseException:
        conn.close()
        raise
    return conn, f"The game library was built again from the game records ({why})."


def why(exc: OSError | sqlite3.Error) -> str:
    if isinstance(exc, OSError):
        return escape(exc.strerror or str(exc))
    return escape(" ".join(str(exc).split()))
