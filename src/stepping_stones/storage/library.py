"""The game library: an SQLite index over the game records in ``<data dir>/games/`` (docs/library.md).

The records stay the source of truth.  ``library.sqlite3`` beside them only indexes them: who
sat where, the sheet, the points, the winners, whether the person took help.  Opening the library
brings the index up to date with the folder (a record that appeared is read, one that went away
is forgotten), so a game filed while the library could not be written, or an abandoned game the
app put away, is found at the next opening.  A database that is missing, damaged or of a schema
version or schema this program does not know is moved aside and built again from the records,
with one line saying so.  Every row read from it is checked (``_Snapshot``); a wrong one is
said in one line and its game indexed again from its record.

The database is opened in WAL mode, and every change is one transaction, so two copies of the
app and the command line can use it at once.  A copy that finds the database busy waits for the
other (``Patience``: in short slices, so a screen that closes can stop the wait) and gives up
after ``BUSY_SECONDS`` with one line saying so.  The few steps that must not run twice at once
(checking the file, moving a damaged one aside, building anew) run under a lock file,
``library.sqlite3.lock``.

A game's identity is its content: the SHA-256 of the record as this program writes it after
replaying it (``records.record_json``), so the same game is never counted twice, whatever its
file is called or how its JSON is spaced.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeVar

from filelock import FileLock, Timeout
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

from ..engine import CONTRACTS, NUM_SEATS, Game, Rules, score_results
from .files import move_aside
from .games import file_copy, games_dir
from .records import (
    MAX_RECORD_BYTES,
    PlayerName,
    RecordError,
    RecordRules,
    game_from_record,
    load_json,
    parse_record,
    quote,
    record_from_game,
    record_json,
)
from .safety import FileProblem, escape, read_small
from .settings import data_dir
from .sidecar import SIDECAR_LIMIT, SessionInfo, sidecar_of

DB_NAME: Final = "library.sqlite3"
SCHEMA_VERSION: Final = 1
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
]

_STAMP = re.compile(r"(\d{8})-(\d{6})")


class LibraryError(Exception):
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
                raise LibraryBusy(f"gave up waiting for the game library after {limit:g} s: another copy "
                                  "of Stepping Stones kept it busy; try again in a moment")


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether an error says another connection holds the database (try again), not a fault."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(exc)


# --- what a record says ------------------------------------------------------------------


@dataclass(frozen=True)
class GameFacts:
    """One game as the library keeps it."""

    hash: str
    rules: Rules
    players: tuple[str, ...]
    complete: bool
    hands: int
    totals: list[int]
    firsts: list[int]
    winners: list[int]
    sheet: dict[str, list[int | None]]
    points: dict[str, list[int] | None]
    contract_firsts: dict[str, list[bool] | None]


def content_hash(game: Game) -> str:
    """The game's identity: the SHA-256 of its record as this program writes it."""
    return hashlib.sha256(record_json(record_from_game(game)).encode("utf-8")).hexdigest()


def facts_of(game: Game) -> GameFacts:
    sheet = {cid: list(row) for cid, row in game.sheet.items()}
    points = {cid: game.points(cid) for cid in sheet}
    firsts: dict[str, list[bool] | None] = {}
    for cid, row in sheet.items():
        results = [r for r in row if r is not None]
        firsts[cid] = score_results(results, CONTRACTS[cid].goal)[1] if len(results) == NUM_SEATS else None
    return GameFacts(
        hash=content_hash(game),
        rules=game.rules,
        players=tuple(game.players),
        complete=game.over,
        hands=len(game.log),
        totals=game.totals(),
        firsts=game.firsts(),
        winners=game.winners(),
        sheet=sheet,
        points=points,
        contract_firsts=firsts,
    )


def read_game(path: Path) -> tuple[bytes, Game]:
    """The bytes of a record file and the game they replay to.  Raises ``RecordError``."""
    try:
        data = read_small(path, MAX_RECORD_BYTES)
    except FileProblem as exc:
        raise RecordError(str(exc)) from None
    return data, game_from_record(parse_record(data))


def read_sidecar(record: Path) -> SessionInfo | None:
    """The app's sidecar beside a record (seed, levels, assisted), or None if there is none usable."""
    try:
        return SessionInfo.model_validate(load_json(read_small(sidecar_of(record), SIDECAR_LIMIT)))
    except (FileProblem, RecordError, ValidationError):
        return None


def played_at(path: Path, mtime_ns: int) -> str:
    """When a game was played: the stamp in its file name (``game-20260101-120000.json``, as the
    app files them), else the file's modification time."""
    when = None
    m = _STAMP.search(path.name)
    if m:
        try:
            when = datetime.strptime(m[1] + m[2], "%Y%m%d%H%M%S")
        except ValueError:
            pass
    if when is None:
        try:
            when = datetime.fromtimestamp(mtime_ns / 1e9)
        except (OverflowError, OSError, ValueError):  # a time no calendar here holds
            when = datetime.fromtimestamp(0)
    # spelled out: strftime's %Y does not always write four digits (the year 1 is "1")
    return (f"{when.year:04d}-{when.month:02d}-{when.day:02d} "
            f"{when.hour:02d}:{when.minute:02d}:{when.second:02d}")


def _mtime_ns(st: os.stat_result) -> int:
    """A file's modification time as SQLite can keep it (a 64-bit integer)."""
    return max(-(2**63), min(st.st_mtime_ns, 2**63 - 1))


def _storable(text: str) -> str:
    """Text SQLite can keep: UTF-8, so a lone surrogate (from a JSON escape) is written out."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


# --- what the library answers -------------------------------------------------------------


@dataclass(frozen=True)
class HistoryEntry:
    """One game of the history, as ``history --json`` prints it."""

    file: str
    played: str
    rules: Rules
    players: list[str]
    points: list[int]
    winners: list[int]
    complete: bool
    assisted: bool
    seed: str | None
    levels: list[str | None]

    @property
    def path(self) -> Path:
        return games_dir() / self.file

    def to_json(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "file": self.file,
            "rules": self.rules.as_dict(),
            "rules_text": self.rules.describe(),
            "players": self.players,
            "levels": self.levels,
            "points": self.points,
            "winners": [self.players[s] for s in self.winners],
            "complete": self.complete,
            "assisted": self.assisted,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class ContractStats:
    games: int
    mean_count: float | None
    mean_points: float | None
    firsts: int
    others_mean_count: float | None  # the other two players' mean result in the same games

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "mean_count": self.mean_count, "mean_points": self.mean_points,
                "firsts": self.firsts}


@dataclass(frozen=True)
class PlayerStats:
    """A player's figures over their finished games (docs/library.md)."""

    player: str
    games: int
    wins: int
    shared_wins: int
    mean_points: float | None
    assisted_games: int
    per_contract: dict[str, ContractStats]
    include_assisted: bool = False
    trend: list[int] = field(default_factory=list)  # the player's points, game by game, oldest first

    def to_json(self) -> dict[str, Any]:
        """The shape ``stats --json`` prints."""
        return {
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "mean_points": self.mean_points,
            "assisted_games": self.assisted_games,
            "per_contract": {cid: c.to_json() for cid, c in self.per_contract.items()},
        }


@dataclass
class ImportReport:
    """What ``import_paths`` did: lines about refused files, and the three counts."""

    imported: int = 0
    already: int = 0
    refused: list[str] = field(default_factory=list)

    def line(self) -> str:
        return f"imported {self.imported}, already there {self.already}, refused {len(self.refused)}"


def _mean(values: list[int]) -> float | None:
    return sum(values) / len(values) if values else None


# --- what the database holds, checked ------------------------------------------------------
#
# SQLite checks that a file is a database, not that what the tables hold is what this program
# wrote: a row can hold text where a number belongs, rules that are not JSON, a contract set
# that does not exist.  Every row read is checked against these models (strict: no coercion);
# a wrong one is said in one line and its game indexed again from its record.

_HASH = r"^[0-9a-f]{64}$"
_FILE_NAME = r"^[^./\x00][^/\x00]{0,250}[.]json$"  # a plain name in games/, as _record_files finds them
_PLAYED = r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$"
_MAX_RULES_TEXT = 200  # {"contract_set": "advanced", "short_game": true, "omit": "lose-pick-trump", ...}
_MAX_TRICKS = 36 // NUM_SEATS  # a count on the sheet is a number of tricks of one hand
_MAX_SIDECAR_TEXT = SIDECAR_LIMIT  # a seed or a level came from a sidecar, which is at most this long


def _rules_of(value: object) -> Rules:
    """The rules column: the record's rules object as JSON, options that make a game."""
    if not isinstance(value, str) or len(value) > _MAX_RULES_TEXT:
        raise ValueError(f"not the JSON of a rules object ({quote(value)})")
    try:
        return RecordRules.model_validate_json(value).to_rules()
    except ValidationError as exc:
        raise ValueError(_first_error(exc)) from None


Hash = Annotated[str, Field(pattern=_HASH)]
FileName = Annotated[str, Field(pattern=_FILE_NAME)]
Seat = Annotated[int, Field(ge=0, lt=NUM_SEATS)]
Flag = Literal[0, 1]
SidecarText = Annotated[str, Field(max_length=_MAX_SIDECAR_TEXT)]


class _Row(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, arbitrary_types_allowed=True)


class FileRow(_Row):
    name: FileName
    size: Annotated[int, Field(ge=0, le=MAX_RECORD_BYTES * 64)]
    mtime_ns: int
    hash: Hash | None
    problem: Annotated[str, Field(max_length=1000)] | None


class GameRow(_Row):
    hash: Hash
    file: FileName
    played: Annotated[str, Field(pattern=_PLAYED)]
    rules: Annotated[Rules, PlainValidator(_rules_of)]
    complete: Flag
    hands: Annotated[int, Field(ge=0, le=1000)]
    assisted: Flag
    seed: SidecarText | None


class SeatRow(_Row):
    hash: Hash
    seat: Seat
    name: PlayerName
    level: SidecarText | None
    total: Annotated[int, Field(ge=-10_000, le=10_000)]
    firsts: Annotated[int, Field(ge=0, le=100)]
    winner: Flag


class ResultRow(_Row):
    hash: Hash
    seat: Seat
    contract: Literal[tuple(CONTRACTS)]  # type: ignore[valid-type]
    count: Annotated[int, Field(ge=0, le=_MAX_TRICKS)] | None
    points: Annotated[int, Field(ge=-1000, le=1000)] | None
    first: Flag | None


_TABLES: Final[tuple[tuple[str, type[_Row]], ...]] = (
    ("files", FileRow), ("games", GameRow), ("seats", SeatRow), ("results", ResultRow))


def _first_error(exc: ValidationError) -> str:
    """The first thing wrong, in one short line: the column, what is wrong, the value."""
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(x) for x in err["loc"])
    if err["type"] == "string_pattern_mismatch":
        msg = f"not in the form this program writes ({quote(err['input'])})"
    elif err["type"] == "value_error":
        msg = str(err["msg"]).removeprefix("Value error, ")
    else:
        msg = f"{err['msg']} ({quote(err['input'])})"
    return f"{where}: {msg}" if where else msg


@dataclass
class _Snapshot:
    """Every row of the library, checked: the rows that are right, and what is wrong."""

    files: list[FileRow] = field(default_factory=list)
    games: dict[str, GameRow] = field(default_factory=dict)
    seats: dict[str, list[SeatRow]] = field(default_factory=dict)  # by game, in seat order
    results: dict[str, list[ResultRow]] = field(default_factory=dict)  # by game
    bad_rows: dict[str, list[int]] = field(default_factory=dict)  # table: rowids of wrong rows
    bad_games: set[str] = field(default_factory=set)  # games whose rows are wrong, to index again
    bad_files: set[str] = field(default_factory=set)  # records to read again (the files of those games)
    problems: list[str] = field(default_factory=list)  # the first few, one line each
    count: int = 0  # how many things are wrong

    @property
    def sound(self) -> bool:
        return self.count == 0

    def wrong(self, table: str, rowid: int | None, digest: object, why: str, file: object = None) -> None:
        self.count += 1
        if rowid is not None:
            self.bad_rows.setdefault(table, []).append(rowid)
        if isinstance(digest, str):
            self.bad_games.add(digest)
        if isinstance(file, str):
            self.bad_files.add(file)
        if len(self.problems) < 3:
            self.problems.append(f"{table} {escape(why)}")

    def check(self) -> None:
        """What no single row shows: every game has its three seats and its sheet, every seat and
        result belongs to a game, every game is held by a file and every file's game is there."""
        held = {f.hash for f in self.files if f.hash is not None}
        known_bad = set(self.bad_games)  # a game already found wrong is not counted again
        for digest, game in self.games.items():
            if digest in known_bad:
                continue
            seats = [s.seat for s in self.seats.get(digest, [])]
            cells = sorted((r.seat, r.contract) for r in self.results.get(digest, []))
            expected = sorted((seat, c.id) for seat in range(NUM_SEATS) for c in game.rules.contracts)
            if seats != list(range(NUM_SEATS)):
                self.wrong("seats", None, digest, f"of {game.file}: seats {seats}, not one row for each of {NUM_SEATS}",
                           game.file)
            elif cells != expected:
                self.wrong("results", None, digest, f"of {game.file}: not one row for each seat and contract",
                           game.file)
            elif digest not in held:
                self.wrong("games", None, digest, f"{game.file}: no file in games/ holds it", game.file)
        for table, rows in (("seats", self.seats), ("results", self.results)):
            for digest in rows:
                if digest not in self.games and digest not in known_bad:
                    self.wrong(table, None, digest, f"of a game that is not in the library ({digest[:12]})")
        for f in self.files:
            if f.hash is not None and f.hash not in self.games and f.hash not in known_bad:
                self.wrong("files", None, None, f"{f.name}: its game is not in the library")


# --- the database ---------------------------------------------------------------------------


def _connect(path: Path) -> sqlite3.Connection:
    # SQLite waits one slice for a busy database; ``Patience`` tries again slice by slice.
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


def _checked(path: Path, patience: Patience) -> tuple[sqlite3.Connection, str | None]:
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


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _why(exc: OSError | sqlite3.Error) -> str:
    if isinstance(exc, OSError):
        return escape(exc.strerror or str(exc))
    return escape(" ".join(str(exc).split()))


class Library:
    """The library of the games in one data folder.  Use ``Library.open()``, as a context manager."""

    def __init__(self, conn: sqlite3.Connection, folder: Path, patience: Patience | None = None) -> None:
        self.conn = conn
        self.folder = folder
        self.patience = patience if patience is not None else Patience()
        self.notices: list[str] = []  # one line each: the database was rebuilt, and why
        self._snap: _Snapshot | None = None  # every row, checked; read again after a change

    @property
    def games_folder(self) -> Path:
        return self.folder / "games"

    # --- opening -----------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path | None = None, sync: bool = True, patience: Patience | None = None) -> Library:
        """Open (or build) the library of ``folder`` (default: the data folder), check what it
        holds and bring it up to date with the records in its ``games/``.  Raises
        ``LibraryError`` (``LibraryBusy`` when another copy kept it busy too long,
        ``LibraryCancelled`` when ``patience`` was cancelled)."""
        patience = patience if patience is not None else Patience()
        folder = folder if folder is not None else data_dir()
        path = folder / DB_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lock = FileLock(str(path) + ".lock")
            patience.run(lambda: lock.acquire(timeout=BUSY_SLICE), seconds=LOCK_SECONDS)
            try:
                conn, notice = _checked(path, patience)
                library = cls(conn, folder, patience)
                try:
                    if notice:
                        library.notices.append(notice)
                    if sync:
                        library.verify()
                        library.sync()
                except BaseException:
                    conn.close()
                    raise
            finally:
                lock.release()
        except (OSError, sqlite3.Error) as exc:
            raise LibraryError(f"the library {escape(str(path))} cannot be used: {_why(exc)}") from None
        return library

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- checking what it holds -----------------------------------------------------------

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return self.patience.run(lambda: self.conn.execute(sql, params).fetchall())

    def _read_tables(self) -> _Snapshot:
        """Every row of the four tables, checked, in one read transaction (one state of the file)."""
        snap = _Snapshot()
        self.conn.execute("BEGIN")
        try:
            for table, model in _TABLES:
                columns = list(model.model_fields)
                for rowid, *values in self.conn.execute(f"SELECT rowid, {', '.join(columns)} FROM {table}"):
                    try:
                        row = model.model_validate(dict(zip(columns, values, strict=True)))
                    except ValidationError as exc:
                        label = next((v for v in values[:2] if isinstance(v, str) and v.endswith(".json")), None)
                        where = f"row {rowid}" + (f" ({label[:80]})" if label else "")
                        snap.wrong(table, rowid, values[0] if table != "files" else None,
                                   f"{where}: {_first_error(exc)}", values[1] if table == "games" else None)
                        continue
                    if isinstance(row, FileRow):
                        snap.files.append(row)
                    elif isinstance(row, GameRow):
                        snap.games[row.hash] = row
                    elif isinstance(row, SeatRow):
                        snap.seats.setdefault(row.hash, []).append(row)
                    elif isinstance(row, ResultRow):
                        snap.results.setdefault(row.hash, []).append(row)
        finally:
            self.conn.execute("COMMIT")
        for seats in snap.seats.values():
            seats.sort(key=lambda s: s.seat)
        snap.check()
        for digest in snap.bad_games:  # what is left of a wrong game is not shown
            snap.games.pop(digest, None)
            snap.seats.pop(digest, None)
            snap.results.pop(digest, None)
        return snap

    def _snapshot(self) -> _Snapshot:
        """Every row, checked; wrong ones said in one line and their games indexed again from their
        records."""
        if self._snap is not None:
            return self._snap
        snap = self.patience.run(self._read_tables)
        if not snap.sound:
            self._rebuild(snap)
            again = self.patience.run(self._read_tables)
            n = snap.count
            line = (f"The game library had {n} wrong {'entry' if n == 1 else 'entries'} "
                    f"({'; '.join(snap.problems[:1])}); ")
            if again.sound:
                line += ("its game was indexed again from its record in games/." if n == 1 else
                         "their games were indexed again from their records in games/.")
            else:
                line += (f"{again.count} could not be put right and are left out "
                         f"({'; '.join(again.problems[:1])}).")
            self.notices.append(_one_line(line))
            snap = again
        self._snap = snap
        return snap

    def verify(self) -> None:
        """Check every row of the library now (``open`` does), putting wrong ones right."""
        self._snap = None
        self._snapshot()

    def _rebuild(self, snap: _Snapshot) -> None:
        """Drop the wrong rows and every row of their games, and index those games again from
        the records in ``games/``."""
        with self._transaction():
            for table, rowids in snap.bad_rows.items():
                self.conn.executemany(f"DELETE FROM {table} WHERE rowid = ?", [(r,) for r in rowids])
            for digest in snap.bad_games:
                for table in ("results", "seats", "games", "files"):  # files: its record is read again
                    self.conn.execute(f"DELETE FROM {table} WHERE hash = ?", (digest,))
            self.conn.executemany("DELETE FROM files WHERE name = ?", [(name,) for name in snap.bad_files])
            # a file whose game is not there is read again; rows of no game go
            self.conn.execute("DELETE FROM files WHERE hash IS NOT NULL AND hash NOT IN (SELECT hash FROM games)")
            for table in ("seats", "results"):
                self.conn.execute(f"DELETE FROM {table} WHERE hash NOT IN (SELECT hash FROM games)")
            self._sync_now()

    # --- indexing -----------------------------------------------------------------------

    def _record_files(self) -> dict[str, os.stat_result]:
        found = {}
        try:
            entries = list(os.scandir(self.games_folder))
        except FileNotFoundError:
            return {}
        for entry in entries:
            name = entry.name
            if not name.endswith(".json") or name.endswith(".session.json") or name.startswith("."):
                continue
            if name != _storable(name):
                continue  # a name that is not UTF-8 cannot be kept in the index: left where it is
            try:
                if entry.is_file(follow_symlinks=False):
                    found[name] = entry.stat(follow_symlinks=False)
            except OSError:
                continue
        return found

    def _differences(self) -> tuple[dict[str, os.stat_result], list[str], list[str]]:
        """The record files in ``games/``, those new or changed since they were indexed, and the
        names of those that went away."""
        on_disk = self._record_files()
        known = {name: (size, mtime) for name, size, mtime in self._read("SELECT name, size, mtime_ns FROM files")}
        changed = [name for name, st in on_disk.items() if known.get(name) != (st.st_size, _mtime_ns(st))]
        gone = [name for name in known if name not in on_disk]
        return on_disk, changed, gone

    def sync(self) -> None:
        """Bring the index up to date with the records in ``games/``: read new and changed files,
        forget the ones that went away (their games too, unless another file holds them)."""
        _on_disk, changed, gone = self._differences()
        if not changed and not gone:
            return  # nothing to write: no need to wait for a copy that is writing
        with self._transaction():
            self._sync_now()

    def _sync_now(self) -> None:
        """``sync``'s work, inside a write transaction (the differences read again under it)."""
        on_disk, changed, gone = self._differences()
        for name in gone:
            self.conn.execute("DELETE FROM files WHERE name = ?", (name,))
        for name in sorted(changed):
            self._index(self.games_folder / name, on_disk[name])
        self._forget_orphans()

    def _forget_orphans(self) -> None:
        """Games whose file went away: point them at another file with the same game, or drop them."""
        self.conn.execute("DELETE FROM games WHERE hash NOT IN (SELECT hash FROM files WHERE hash IS NOT NULL)")
        self.conn.execute(
            "UPDATE games SET file = (SELECT name FROM files WHERE files.hash = games.hash ORDER BY name LIMIT 1) "
            "WHERE file NOT IN (SELECT name FROM files WHERE files.hash = games.hash)"
        )

    def _index(self, path: Path, st: os.stat_result) -> str | None:
        """Index one record file of ``games/`` (inside a transaction): the game's hash, or None if
        the record is refused (the refusal is kept, so it is not read again until it changes)."""
        try:
            _data, game = read_game(path)
        except RecordError as exc:
            self.conn.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, NULL, ?)",
                              (path.name, st.st_size, _mtime_ns(st), exc.line()))
            return None
        facts = facts_of(game)
        self.conn.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, NULL)",
                          (path.name, st.st_size, _mtime_ns(st), facts.hash))
        exists = self.conn.execute("SELECT 1 FROM games WHERE hash = ?", (facts.hash,)).fetchone()
        if exists is None:
            self._insert(facts, path, _mtime_ns(st), read_sidecar(path))
        return facts.hash

    def _insert(self, f: GameFacts, path: Path, mtime_ns: int, info: SessionInfo | None) -> None:
        self.conn.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (f.hash, path.name, played_at(path, mtime_ns), json.dumps(f.rules.as_dict()), int(f.complete),
             f.hands, int(info.assisted) if info is not None else 0,
             _storable(info.seed) if info is not None else None),
        )
        for seat in range(NUM_SEATS):
            level = info.levels[seat] if info is not None else None
            level = _storable(level) if level is not None else None
            self.conn.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (f.hash, seat, f.players[seat], level, f.totals[seat], f.firsts[seat],
                               int(seat in f.winners)))
            for cid, row in f.sheet.items():
                pts = f.points[cid]
                firsts = f.contract_firsts[cid]
                self.conn.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)",
                                  (f.hash, seat, cid, row[seat], pts[seat] if pts is not None else None,
                                   int(firsts[seat]) if firsts is not None else None))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``), so that two writers wait
        for each other (``Patience``) instead of failing half-way."""
        self.patience.run(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        self._snap = None  # what was read before is read again after the change
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def add(self, path: Path) -> str | None:
        """Index one record file of ``games/`` now (a game the app just filed).  Its hash, or None
        if it was refused."""
        st = path.stat()
        with self._transaction():
            return self._index(path, st)

    # --- importing ------------------------------------------------------------------------

    def import_paths(self, paths: Iterable[Path]) -> ImportReport:
        """Check each record (files, or the ``.json`` records in folders) with the engine, copy
        the good ones that are not in the library yet into ``games/`` and index them."""
        report = ImportReport()
        for path in _record_paths(paths, report):
            shown = escape(str(path))
            try:
                data, game = read_game(path)
                st = path.stat()
            except RecordError as exc:
                report.refused.append(f"{shown}: {exc.line()}")
                continue
            except OSError as exc:
                report.refused.append(f"{shown}: {_why(exc)}")
                continue
            digest = content_hash(game)
            info = read_sidecar(path)
            # Checking and copying in one write transaction: two imports at once never both copy a game.
            with self._transaction():
                if self.conn.execute("SELECT 1 FROM games WHERE hash = ?", (digest,)).fetchone():
                    report.already += 1
                    continue
                stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(st.st_mtime))
                target = file_copy(self.games_folder, f"imported-{stamp}-{digest[:12]}.json", data.decode("utf-8"),
                                   info.text() if info is not None else None)
                self._index(target, target.stat())
            report.imported += 1
        return report

    # --- reading ----------------------------------------------------------------------------

    def history(self) -> list[HistoryEntry]:
        """Every game in the library, newest first."""
        snap = self._snapshot()
        out = []
        for game in sorted(snap.games.values(), key=lambda g: (g.played, g.file), reverse=True):
            seats = snap.seats[game.hash]
            out.append(HistoryEntry(
                file=game.file, played=game.played, rules=game.rules,
                players=[s.name for s in seats], points=[s.total for s in seats],
                winners=[s.seat for s in seats if s.winner], complete=bool(game.complete),
                assisted=bool(game.assisted), seed=game.seed, levels=[s.level for s in seats],
            ))
        return out

    def person(self) -> str | None:
        """The person's name: seat 0 of the most recent game (the app seats the person there)."""
        snap = self._snapshot()
        if not snap.games:
            return None
        latest = max(snap.games.values(), key=lambda g: (g.played, g.file))
        return snap.seats[latest.hash][0].name

    def names(self) -> list[str]:
        """Every player name in the library, most games first."""
        counts = Counter(s.name for seats in self._snapshot().seats.values() for s in seats)
        return sorted(counts, key=lambda name: (-counts[name], name))

    def stats(self, player: str, include_assisted: bool = False) -> PlayerStats:
        """``player``'s figures over their finished games (assisted ones apart, unless included)."""
        snap = self._snapshot()
        games = [(g, s) for g in sorted(snap.games.values(), key=lambda g: (g.played, g.file)) if g.complete
                 for s in snap.seats[g.hash] if s.name == player]
        assisted_games = sum(1 for g, _ in games if g.assisted)
        counted = [(g, s) for g, s in games if include_assisted or not g.assisted]
        wins = sum(1 for _, s in counted if s.winner)
        shared = sum(1 for g, s in counted if s.winner and sum(x.winner for x in snap.seats[g.hash]) > 1)
        mine: dict[str, list[ResultRow]] = {}
        others: dict[str, list[int]] = {}
        for g, s in counted:
            for r in snap.results[g.hash]:
                if r.seat == s.seat:
                    mine.setdefault(r.contract, []).append(r)
                elif r.count is not None:
                    others.setdefault(r.contract, []).append(r.count)
        per_contract = {}
        for cid in CONTRACTS:
            rows = mine.get(cid)
            if not rows:
                continue
            per_contract[cid] = ContractStats(
                games=len(rows), mean_count=_mean([r.count for r in rows if r.count is not None]),
                mean_points=_mean([r.points for r in rows if r.points is not None]),
                firsts=sum(1 for r in rows if r.first), others_mean_count=_mean(others.get(cid, [])),
            )
        trend = [s.total for _, s in counted]
        return PlayerStats(
            player=player, games=len(counted), wins=wins, shared_wins=shared, mean_points=_mean(trend),
            assisted_games=assisted_games, per_contract=per_contract, include_assisted=include_assisted,
            trend=trend,
        )


def _record_paths(paths: Iterable[Path], report: ImportReport) -> Iterator[Path]:
    """The record files named: files as given, folders searched for ``*.json`` (not sidecars)."""
    for path in paths:
        if path.is_dir():
            try:
                found = sorted(p for p in path.rglob("*.json")
                               if not p.name.endswith(".session.json") and p.is_file())
            except OSError as exc:
                report.refused.append(f"{escape(str(path))}: {_why(exc)}")
                continue
            yield from found
        else:
            yield path


def file_game(path: Path | None) -> str | None:
    """Put a game the app just filed into the library.  Never raises: None when it went in, else
    one line for the person (the record is safe in ``games/``, and the next opening of the
    library indexes it)."""
    if path is None:
        return None
    try:
        with Library.open(path.parent.parent, sync=False) as library:
            library.add(path)
    except (LibraryError, OSError, sqlite3.Error) as exc:
        why = escape(" ".join(str(exc).split()))
        return f"The game is not in the library yet ({why}); it goes in the next time the library opens."
    except Exception as exc:  # the library is a convenience: it must never end a game
        return f"The game was not added to the library ({type(exc).__name__})."
    return None
