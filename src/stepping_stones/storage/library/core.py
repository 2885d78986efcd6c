"""``Library``: the library of the games in one data folder, opened, checked and kept in step.

``Library.open()`` takes the lock file (``library.sqlite3.lock``) for the steps that must not run
twice at once (checking the file, moving a damaged one aside, building anew), checks every row
(``health``) and brings the index up to date with ``games/`` (``sync``).  Its answers come from
``stats``, its imports from ``importing``.  ``file_game`` puts a game the app just filed into the
library, never raising.

The top of the library package: it may import every module of the package, and storage's
``settings`` and ``safety``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from ...engine import Game
from ..safety import escape
from ..settings import data_dir
from . import stats as answers
from .database import BUSY_SLICE, DB_NAME, LOCK_SECONDS, LibraryError, Patience, checked, library_lock, why
from .health import Snapshot, drop_wrong, put_right_line, read_tables
from .importing import ImportReport, import_paths
from .stats import HistoryEntry, PlayerStats
from .sync import Index


class Library(Index):
    """The library of the games in one data folder.  Use ``Library.open()``, as a context manager."""

    def __init__(self, conn: sqlite3.Connection, folder: Path, patience: Patience | None = None) -> None:
        super().__init__(conn, folder, patience)
        self.notices: list[str] = []  # one line each: the database was rebuilt, and why
        self._snap: Snapshot | None = None  # every row, checked; read again after a change

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
            lock = library_lock(folder)
            patience.run(lambda: lock.acquire(timeout=BUSY_SLICE), seconds=LOCK_SECONDS)
            try:
                conn, notice = checked(path, patience)
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
            raise LibraryError(f"the library {escape(str(path))} cannot be used: {why(exc)}") from None
        return library

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- checking what it holds -----------------------------------------------------------

    def changed(self) -> None:
        self._snap = None  # what was read before is read again after the change

    def _snapshot(self) -> Snapshot:
        """Every row, checked; wrong ones said in one line and their games indexed again from their
        records."""
        if self._snap is not None:
            return self._snap
        snap = self.patience.run(lambda: read_tables(self.conn))
        if not snap.sound:
            self._rebuild(snap)
            again = self.patience.run(lambda: read_tables(self.conn))
            self.notices.append(put_right_line(snap, again))
            snap = again
        self._snap = snap
        return snap

    def verify(self) -> None:
        """Check every row of the library now (``open`` does), putting wrong ones right."""
        self._snap = None
        self._snapshot()

    def _rebuild(self, snap: Snapshot) -> None:
        """Drop the wrong rows and every row of their games, and index those games again from
        the records in ``games/``."""
        with self.transaction():
            drop_wrong(self.conn, snap)
            self.sync_now()

    # --- importing ------------------------------------------------------------------------

    def import_paths(self, paths: Iterable[Path]) -> ImportReport:
        """Check each record (files, or the ``.json`` records in folders) with the engine, copy
        the good ones that are not in the library yet into ``games/`` and index them."""
        return import_paths(self, paths)

    # --- reading ----------------------------------------------------------------------------

    def history(self) -> list[HistoryEntry]:
        """Every game in the library, newest first."""
        return answers.history(self._snapshot())

    def person(self) -> str | None:
        """The person's name: seat 0 of the most recent game (the app seats the person there)."""
        return answers.person(self, self._snapshot())

    def names(self) -> list[str]:
        """Every player name in the library, most games first."""
        return answers.names(self, self._snapshot())

    def stats(self, player: str, include_assisted: bool = False) -> PlayerStats:
        """``player``'s figures over their finished games (assisted ones apart, unless included)."""
        return answers.player_stats(self, self._snapshot(), player, include_assisted)


def file_game(path: Path | None, written: tuple[bytes, Game] | None = None) -> str | None:
    """Put a game the app just filed into the library (``written``: the record written to
    ``path`` and the game it was written from, which the library then takes without replaying the
    record).  Never raises: None when it went in, else one line for the person (the record is safe
    in ``games/``, and the next opening of the library indexes it)."""
    if path is None:
        return None
    try:
        with Library.open(path.parent.parent, sync=False) as library:
            library.add(path, written)
    except (LibraryError, OSError, sqlite3.Error) as exc:
        why_not = escape(" ".join(str(exc).split()))
        return f"The game is not in the library yet ({why_not}); it goes in the next time the library opens."
    except Exception as exc:  # the library is a convenience: it must never end a game
        return f"The game was not added to the library ({type(exc).__name__})."
    return None
