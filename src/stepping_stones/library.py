"""The game library: an SQLite index over the game records in ``<data dir>/games/`` (docs/library.md).

The records stay the source of truth.  ``library.sqlite3`` beside them only indexes them: who
sat where, the sheet, the points, the winners, whether the person took help.  Opening the library
brings the index up to date with the folder (a record that appeared is read, one that went away
is forgotten), so a game filed while the library could not be written, or an abandoned game the
app put away, is found at the next opening.  A database that is missing, damaged or of a schema
version this program does not know is moved aside and built again from the records, with one
line saying so.

The database is opened in WAL mode with a busy timeout, and every change is one transaction, so
two copies of the app and the command line can use it at once.  The few steps that must not run
twice at once (checking the file, moving a damaged one aside, building anew) run under a lock
file, ``library.sqlite3.lock``.

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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from filelock import FileLock, Timeout
from pydantic import ValidationError

from .engine import CONTRACTS, NUM_SEATS, Game, Rules, score_results
from .files import atomic_write, fsync_folder
from .records import (
    MAX_RECORD_BYTES,
    RecordError,
    game_from_record,
    load_json,
    parse_record,
    record_from_game,
    record_json,
)
from .safety import FileProblem, escape, read_small
from .session import SIDECAR_LIMIT, SessionInfo, games_dir, move_aside, sidecar_of
from .settings import data_dir

DB_NAME: Final = "library.sqlite3"
SCHEMA_VERSION: Final = 1
BUSY_SECONDS = 10.0
"""How long a write waits for another copy's transaction before giving up."""
LOCK_SECONDS = 30.0

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


def library_path() -> Path:
    return data_dir() / DB_NAME


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
    m = _STAMP.search(path.name)
    if m:
        try:
            return datetime.strptime(m[1] + m[2], "%Y%m%d%H%M%S").strftime("%Y-%m-%d %H:%M:%S")
        except ValueError:
            pass
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(mtime_ns / 1e9))


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


# --- the database ---------------------------------------------------------------------------


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
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


def _migrate(conn: sqlite3.Connection, start: int) -> None:
    """Bring the schema from version ``start`` to ``SCHEMA_VERSION``, one step per transaction."""
    for version in range(start, SCHEMA_VERSION):
        conn.execute("BEGIN IMMEDIATE")
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


def _checked(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """A connection to a sound database of this schema version (migrated if older), and None;
    anything else is moved aside and the database made anew, with the line that says so.
    Runs under the library's lock."""
    if not path.exists():
        if not _any_records(path.parent / "games"):
            conn = _connect(path)  # a first start: a new, empty library is no news
            _migrate(conn, 0)
            return conn, None
        why = "its database was missing"
    else:
        try:
            conn = _connect(path)
            try:
                version = _version(conn)
                if version > SCHEMA_VERSION:
                    why = f"it has schema version {version}, which this version does not know"
                elif not _sound(conn):
                    why = "it was damaged"
                else:
                    if version < SCHEMA_VERSION:
                        _migrate(conn, version)
                    return conn, None
            except BaseException:
                conn.close()
                raise
            conn.close()
        except sqlite3.DatabaseError as exc:
            if not _damaged(exc):
                raise
            why = "it was damaged"
        aside = _move_aside(path)
        why += f"; the old file is kept as {escape(aside.name)}"
    conn = _connect(path)
    _migrate(conn, 0)
    return conn, f"The game library was built again from the game records ({why})."


def _why(exc: OSError | sqlite3.Error) -> str:
    if isinstance(exc, OSError):
        return escape(exc.strerror or str(exc))
    return escape(" ".join(str(exc).split()))


class Library:
    """The library of the games in one data folder.  Use ``Library.open()``, as a context manager."""

    def __init__(self, conn: sqlite3.Connection, folder: Path) -> None:
        self.conn = conn
        self.folder = folder
        self.notices: list[str] = []  # one line each: the database was rebuilt, and why

    @property
    def games_folder(self) -> Path:
        return self.folder / "games"

    # --- opening -----------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path | None = None, sync: bool = True) -> Library:
        """Open (or build) the library of ``folder`` (default: the data folder) and bring it up
        to date with the records in its ``games/``.  Raises ``LibraryError``."""
        folder = folder if folder is not None else data_dir()
        path = folder / DB_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lock = FileLock(str(path) + ".lock", timeout=LOCK_SECONDS)
            with lock:
                conn, notice = _checked(path)
                library = cls(conn, folder)
                if notice:
                    library.notices.append(notice)
                if sync:
                    library.sync()
        except Timeout:
            raise LibraryError(f"the library {escape(str(path))} stayed locked by another copy for "
                               f"{LOCK_SECONDS:g} s") from None
        except (OSError, sqlite3.Error) as exc:
            raise LibraryError(f"the library {escape(str(path))} cannot be used: {_why(exc)}") from None
        return library

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
            try:
                if entry.is_file(follow_symlinks=False):
                    found[name] = entry.stat(follow_symlinks=False)
            except OSError:
                continue
        return found

    def sync(self) -> None:
        """Bring the index up to date with the records in ``games/``: read new and changed files,
        forget the ones that went away (their games too, unless another file holds them)."""
        on_disk = self._record_files()
        known = {name: (size, mtime) for name, size, mtime in
                 self.conn.execute("SELECT name, size, mtime_ns FROM files")}
        changed = [name for name, st in on_disk.items() if known.get(name) != (st.st_size, st.st_mtime_ns)]
        gone = [name for name in known if name not in on_disk]
        if not changed and not gone:
            return
        with self._transaction():
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
                              (path.name, st.st_size, st.st_mtime_ns, exc.line()))
            return None
        facts = facts_of(game)
        self.conn.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, NULL)",
                          (path.name, st.st_size, st.st_mtime_ns, facts.hash))
        exists = self.conn.execute("SELECT 1 FROM games WHERE hash = ?", (facts.hash,)).fetchone()
        if exists is None:
            self._insert(facts, path, st.st_mtime_ns, read_sidecar(path))
        return facts.hash

    def _insert(self, f: GameFacts, path: Path, mtime_ns: int, info: SessionInfo | None) -> None:
        self.conn.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (f.hash, path.name, played_at(path, mtime_ns), json.dumps(f.rules.as_dict()), int(f.complete),
             f.hands, int(info.assisted) if info is not None else 0, info.seed if info is not None else None),
        )
        for seat in range(NUM_SEATS):
            level = info.levels[seat] if info is not None else None
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
        for each other (the busy timeout) instead of failing half-way."""
        self.conn.execute("BEGIN IMMEDIATE")
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
                target = self.games_folder / f"imported-{stamp}-{digest[:12]}.json"
                if info is not None:
                    atomic_write(sidecar_of(target), info.model_dump_json(indent=2) + "\n")
                atomic_write(target, data.decode("utf-8"))
                fsync_folder(self.games_folder)
                self._index(target, target.stat())
            report.imported += 1
        return report

    # --- reading ----------------------------------------------------------------------------

    def history(self) -> list[HistoryEntry]:
        """Every game in the library, newest first."""
        rows = self.conn.execute(
            "SELECT hash, file, played, rules, complete, assisted, seed FROM games ORDER BY played DESC, file DESC"
        ).fetchall()
        seats = self._seats([r[0] for r in rows])
        out = []
        for digest, file, played, rules, complete, assisted, seed in rows:
            s = seats[digest]
            out.append(HistoryEntry(
                file=file, played=played, rules=Rules(**json.loads(rules)),
                players=[x[0] for x in s], points=[x[1] for x in s],
                winners=[i for i, x in enumerate(s) if x[2]], complete=bool(complete), assisted=bool(assisted),
                seed=seed, levels=[x[3] for x in s],
            ))
        return out

    def _seats(self, hashes: list[str]) -> dict[str, list[tuple[str, int, bool, str | None]]]:
        seats: dict[str, list[tuple[str, int, bool, str | None]]] = {h: [] for h in hashes}
        for digest, name, total, winner, level in self.conn.execute(
            "SELECT hash, name, total, winner, level FROM seats ORDER BY hash, seat"
        ):
            if digest in seats:
                seats[digest].append((name, total, bool(winner), level))
        return seats

    def person(self) -> str | None:
        """The person's name: seat 0 of the most recent game (the app seats the person there)."""
        row = self.conn.execute(
            "SELECT name FROM seats JOIN games USING (hash) WHERE seat = 0 ORDER BY played DESC, file DESC LIMIT 1"
        ).fetchone()
        return None if row is None else str(row[0])

    def names(self) -> list[str]:
        """Every player name in the library, most games first."""
        return [r[0] for r in self.conn.execute(
            "SELECT name FROM seats GROUP BY name ORDER BY COUNT(*) DESC, name")]

    def stats(self, player: str, include_assisted: bool = False) -> PlayerStats:
        """``player``'s figures over their finished games (assisted ones apart, unless included)."""
        games = self.conn.execute(
            "SELECT hash, seat, total, winner, assisted, played, file FROM seats JOIN games USING (hash) "
            "WHERE name = ? AND complete = 1 ORDER BY played, file",
            (player,),
        ).fetchall()
        assisted_games = sum(1 for g in games if g[4])
        counted = [g for g in games if include_assisted or not g[4]]
        seat_of = {g[0]: g[1] for g in counted}
        winners_of: dict[str, int] = {}
        for digest, n in self.conn.execute("SELECT hash, SUM(winner) FROM seats GROUP BY hash"):
            winners_of[digest] = int(n)
        wins = sum(1 for g in counted if g[3])
        shared = sum(1 for g in counted if g[3] and winners_of.get(g[0], 1) > 1)
        mine: dict[str, list[tuple[int | None, int | None, int | None]]] = {}
        others: dict[str, list[int]] = {}
        for digest, seat, cid, count, points, first in self.conn.execute(
            "SELECT hash, seat, contract, count, points, first FROM results ORDER BY hash, contract, seat"
        ):
            if digest not in seat_of:
                continue
            if seat == seat_of[digest]:
                mine.setdefault(cid, []).append((count, points, first))
            elif count is not None:
                others.setdefault(cid, []).append(count)
        per_contract = {}
        for cid in CONTRACTS:
            rows = mine.get(cid)
            if not rows:
                continue
            counts = [c for c, _, _ in rows if c is not None]
            points = [p for _, p, _ in rows if p is not None]
            per_contract[cid] = ContractStats(
                games=len(rows), mean_count=_mean(counts), mean_points=_mean(points),
                firsts=sum(1 for _, _, f in rows if f), others_mean_count=_mean(others.get(cid, [])),
            )
        return PlayerStats(
            player=player, games=len(counted), wins=wins, shared_wins=shared,
            mean_points=_mean([g[2] for g in counted]), assisted_games=assisted_games,
            per_contract=per_contract, include_assisted=include_assisted, trend=[g[2] for g in counted],
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
