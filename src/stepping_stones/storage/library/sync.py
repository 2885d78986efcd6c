"""Keeping the index in step with the games folder: ``Index``, a connection to the library's
database and the folder it indexes.

Opening the library brings the index up to date (``sync``): a record that appeared in ``games/``
is read and indexed, one that changed is read again, one that went away is forgotten (its game
too, unless another file holds it).  A record the rules refuse is remembered as refused, and not
read again until it changes.  Every change is one ``BEGIN IMMEDIATE`` transaction, so that two
writers wait for each other (``Patience``) instead of failing half-way.  The index only reads the
folder: what is written into it is written by ``storage.games``.

May import: ``health``, ``facts`` and ``database`` of the library package; storage's ``records``
and ``sidecar``; the engine's public face.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...engine import NUM_SEATS, Game
from ..records import RecordError
from ..sidecar import SessionInfo
from .database import Patience
from .facts import GameFacts, facts_of, mtime_ns, played_at, read_game, read_sidecar, storable


@dataclass(frozen=True)
class IndexRows:
    """One game's rows in the index, in the columns' order: its ``games`` row, a ``seats`` row
    per seat, a ``results`` row per seat and contract.  Another store that keeps the index (the
    table server's PostgreSQL) writes the very same rows."""

    game: tuple[Any, ...]
    seats: list[tuple[Any, ...]]
    results: list[tuple[Any, ...]]


def index_rows(f: GameFacts, name: str, played: str, info: SessionInfo | None) -> IndexRows:
    """The rows of the game ``f`` filed as ``name``, played at ``played``, with its sidecar ``info``."""
    game = (
        f.hash,
        name,
        played,
        json.dumps(f.rules.as_dict()),
        int(f.complete),
        f.hands,
        int(info.assisted) if info is not None else 0,
        storable(info.seed) if info is not None else None,
    )
    seats: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []
    for seat in range(NUM_SEATS):
        level = info.levels[seat] if info is not None else None
        level = storable(level) if level is not None else None
        stood_in = " ".join(map(str, info.stood_in[seat])) if info is not None else ""
        seats.append(
            (
                f.hash,
                seat,
                f.players[seat],
                level,
                f.totals[seat],
                f.firsts[seat],
                int(seat in f.winners),
                stood_in or None,
            )
        )
        for cid, row in f.sheet.items():
            pts = f.points[cid]
            firsts = f.contract_firsts[cid]
            results.append(
                (
                    f.hash,
                    seat,
                    cid,
                    row[seat],
                    pts[seat] if pts is not None else None,
                    int(firsts[seat]) if firsts is not None else None,
                )
            )
    return IndexRows(game, seats, results)


class Index:
    """The index of the records in ``folder/games``, in the database ``conn``."""

    def __init__(self, conn: sqlite3.Connection, folder: Path, patience: Patience | None = None) -> None:
        self.conn = conn
        self.folder = folder
        self.patience = patience if patience is not None else Patience()

    @property
    def games_folder(self) -> Path:
        return self.folder / "games"

    def read(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """The rows of one query, waiting (``Patience``) while another copy holds the database."""
        return self.patience.run(lambda: self.conn.execute(sql, params).fetchall())

    def changed(self) -> None:
        """Told at the start of every write: what was read before is to be read again."""

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``), so that two writers wait
        for each other (``Patience``) instead of failing half-way."""
        self.patience.run(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        self.changed()
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # --- the folder -------------------------------------------------------------------------

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
            if name != storable(name):
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
        known = {name: (size, mtime) for name, size, mtime in self.read("SELECT name, size, mtime_ns FROM files")}
        changed = [name for name, st in on_disk.items() if known.get(name) != (st.st_size, mtime_ns(st))]
        gone = [name for name in known if name not in on_disk]
        return on_disk, changed, gone

    def sync(self) -> None:
        """Bring the index up to date with the records in ``games/``: read new and changed files,
        forget the ones that went away (their games too, unless another file holds them)."""
        _on_disk, changed, gone = self._differences()
        if not changed and not gone:
            return  # nothing to write: no need to wait for a copy that is writing
        with self.transaction():
            self.sync_now()

    def sync_now(self) -> None:
        """``sync``'s work, inside a write transaction (the differences read again under it)."""
        on_disk, changed, gone = self._differences()
        for name in gone:
            self.conn.execute("DELETE FROM files WHERE name = ?", (name,))
        for name in sorted(changed):
            self.index(self.games_folder / name, on_disk[name])
        self._forget_orphans()

    def _forget_orphans(self) -> None:
        """Games whose file went away: point them at another file with the same game, or drop them."""
        self.conn.execute("DELETE FROM games WHERE hash NOT IN (SELECT hash FROM files WHERE hash IS NOT NULL)")
        self.conn.execute(
            "UPDATE games SET file = (SELECT name FROM files WHERE files.hash = games.hash ORDER BY name LIMIT 1) "
            "WHERE file NOT IN (SELECT name FROM files WHERE files.hash = games.hash)"
        )

    # --- one record ---------------------------------------------------------------------------

    def index(self, path: Path, st: os.stat_result, written: tuple[bytes, Game] | None = None) -> str | None:
        """Index one record file of ``games/`` (inside a transaction): the game's hash, or None if
        the record is refused (the refusal is kept, so it is not read again until it changes).
        ``written``: the record just written there and its game (``read_game``)."""
        try:
            _data, game = read_game(path, written)
        except RecordError as exc:
            self.conn.execute(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, NULL, ?)",
                (path.name, st.st_size, mtime_ns(st), exc.line()),
            )
            return None
        facts = facts_of(game)
        self.conn.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, NULL)", (path.name, st.st_size, mtime_ns(st), facts.hash)
        )
        if not self.holds(facts.hash):
            self._insert(facts, path, mtime_ns(st), read_sidecar(path))
        return facts.hash

    def holds(self, digest: str) -> bool:
        """Whether the game ``digest`` is in the index."""
        return self.conn.execute("SELECT 1 FROM games WHERE hash = ?", (digest,)).fetchone() is not None

    def _insert(self, f: GameFacts, path: Path, mtime: int, info: SessionInfo | None) -> None:
        rows = index_rows(f, path.name, played_at(path, mtime), info)
        self.conn.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows.game)
        self.conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows.seats)
        self.conn.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)", rows.results)

    def add(self, path: Path, written: tuple[bytes, Game] | None = None) -> str | None:
        """Index one record file of ``games/`` now (a game the app just filed; ``written``: the
        record it wrote there and the game it was written from, not replayed again when the file
        holds it).  Its hash, or None if it was refused."""
        st = path.stat()
        with self.transaction():
            return self.index(path, st, written)
