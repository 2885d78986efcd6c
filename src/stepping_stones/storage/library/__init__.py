"""The game library: an SQLite index over the game records in ``<data dir>/games/`` (docs/library.md).

The records stay the source of truth.  ``library.sqlite3`` beside them only indexes them: who
sat where, the sheet, the points, the winners, whether the person took help.  Opening the library
brings the index up to date with the folder (a record that appeared is read, one that went away
is forgotten), so a game filed while the library could not be written, or an abandoned game the
app put away, is found at the next opening.  A database that is missing, damaged or of a schema
version or schema this program does not know is moved aside and built again from the records,
with one line saying so.  Every row read from it is checked; a wrong one is said in one line and
its game indexed again from its record.

The database is opened in WAL mode, and every change is one transaction, so two copies of the
app and the command line can use it at once.  A copy that finds the database busy waits for the
other (``Patience``: in short slices, so a screen that closes can stop the wait) and gives up
after ``BUSY_SECONDS`` with one line saying so.

A game's identity is its content: the SHA-256 of the record as this program writes it after
replaying it (``records.record_json``), so the same game is never counted twice, whatever its
file is called or how its JSON is spaced.

The modules, by job, each importing only those listed below it (import-linter holds this):

* ``shelf``: ``Shelf``, a table server's library of finished games, the one contract of its stores
  (``FolderShelf``, the data folder's; ``net.pgstore``'s in PostgreSQL), and ``rows_to_file``;
* ``core``: ``Library`` (opening, the lock file, checking, keeping in step) and ``file_game``;
* ``importing`` (``library import``) | ``stats`` (the history and the statistics, in SQL);
* ``sync``: ``Index``, the index kept in step with ``games/``, and indexing one record;
* ``health`` (every row checked, wrong ones dropped to be indexed again) | ``facts`` (what a
  record says: its identity, seats, sheet, sidecar, when it was played);
* ``database``: the SQLite file, its schema and migrations, ``Patience`` and the errors.

It writes nothing into ``games/`` itself: an imported record goes in through ``storage.games``.
This package is storage's top layer: it may import every other module of storage, ``game``,
``explain`` and the engine's public face.  The names below are its public face; the front ends
and the commands use them, not its modules.
"""

from .core import Library, file_game
from .database import (
    BUSY_SECONDS,
    DB_NAME,
    MIGRATIONS,
    SCHEMA_VERSION,
    LibraryBusy,
    LibraryCancelled,
    LibraryError,
    Patience,
)
from .importing import ImportReport
from .shelf import FolderShelf, Shelf, rows_to_file
from .stats import MINE, QUERIES, ContractStats, HistoryEntry, PlayerStats, answers_elsewhere, history_elsewhere
from .sync import IndexRows

__all__ = [
    "Library",
    "file_game",
    "LibraryError",
    "LibraryBusy",
    "LibraryCancelled",
    "Patience",
    "HistoryEntry",
    "PlayerStats",
    "ContractStats",
    "ImportReport",
    "Shelf",
    "FolderShelf",
    "rows_to_file",
    "IndexRows",
    "MINE",
    "QUERIES",
    "answers_elsewhere",
    "history_elsewhere",
    "DB_NAME",
    "SCHEMA_VERSION",
    "MIGRATIONS",
    "BUSY_SECONDS",
]
