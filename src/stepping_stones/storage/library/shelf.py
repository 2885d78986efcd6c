"""A table server's shared library of finished games: ``Shelf``, the one contract of both its
stores, and ``FolderShelf``, the data folder's.

A server files each finished game on its shelf (``file``: the record, its sidecar and the table's
notes, once per table), and ``history`` and ``stats`` read the shelf (``history``, ``person``,
``stats``, as ``Library`` answers them; ``record`` gives a filed record back by its name).  The
data folder's shelf is the folder's ``games/`` and its library (``library.sqlite3``); the
PostgreSQL store's (``net.pgstore.PostgresShelf``) keeps the records and the same index in the
database, so that every process on the store files into one library.

The top of the library package: it may import ``core`` and everything below it, and storage's
``games`` (the one writer of ``games/``) and ``safety``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ...engine import Game
from ..games import file_table_game
from ..records import MAX_RECORD_BYTES, RecordError, game_from_record, parse_record
from ..safety import FileProblem, read_small
from ..sidecar import SessionInfo
from .core import Library, file_game
from .database import Patience
from .facts import facts_of, played_at
from .stats import HistoryEntry, PlayerStats
from .sync import IndexRows, index_rows


class Shelf(Protocol):
    """Where a server's finished games are filed, and read back (see the module's docstring)."""

    def file(
        self, table_id: str, record: str, sidecar: str, notes: str, game: Game | None = None
    ) -> tuple[str, str | None]:
        """File the game finished at ``table_id`` (its record's JSON, its sidecar's, the table's
        notes), once: a table filed before keeps its first record.  ``game``: the game the record
        was written from, which the index takes instead of replaying the record.  The record's
        name, and a line when it is kept but not indexed yet (the next reading indexes it).  Raises
        ``OSError`` when the record cannot be kept."""
        ...

    def history(self) -> list[HistoryEntry]:
        """Every game filed, newest first.  Raises ``LibraryError``."""
        ...

    def person(self) -> str | None:
        """Seat 0's name in the newest game, or None when there is none.  Raises ``LibraryError``."""
        ...

    def stats(self, player: str, include_assisted: bool = False) -> PlayerStats:
        """``player``'s figures over the finished games.  Raises ``LibraryError``."""
        ...

    def record(self, name: str) -> str:
        """The record filed as ``name`` (``HistoryEntry.file``).  Raises ``KeyError``, or ``OSError``
        when the store cannot be read."""
        ...

    def close(self) -> None:
        """Let go of what the shelf holds open."""
        ...


class FolderShelf:
    """The shelf of a data folder ``folder``: ``folder/games/``, ``folder/notes/`` and the folder's
    library (docs/library.md)."""

    def __init__(self, folder: Path, patience: Patience | None = None) -> None:
        self.folder = folder
        self.patience = patience

    def file(
        self, table_id: str, record: str, sidecar: str, notes: str, game: Game | None = None
    ) -> tuple[str, str | None]:
        path = file_table_game(self.folder, table_id, record, sidecar, notes)
        # a table filed before keeps its first record: the game stands for the file's only if it holds this one
        return path.name, file_game(path, (record.encode("utf-8"), game) if game is not None else None)

    def close(self) -> None:
        pass  # a library is opened for each answer

    def _open(self) -> Library:
        return Library.open(self.folder, patience=self.patience)

    def history(self) -> list[HistoryEntry]:
        with self._open() as library:
            return library.history()

    def person(self) -> str | None:
        with self._open() as library:
            return library.person()

    def stats(self, player: str, include_assisted: bool = False) -> PlayerStats:
        with self._open() as library:
            return library.stats(player, include_assisted)

    def record(self, name: str) -> str:
        if Path(name).name != name or not name.endswith(".json") or name.endswith(".session.json"):
            raise KeyError(name)
        try:
            return read_small(self.folder / "games" / name, MAX_RECORD_BYTES).decode("utf-8")
        except (FileProblem, UnicodeDecodeError) as exc:
            raise KeyError(name) from exc


def rows_to_file(name: str, record: str, sidecar: str | None, game: Game | None = None) -> IndexRows:
    """The index's rows of the game ``record`` about to be filed as ``name`` (``table-DATE-ID.json``:
    played at DATE), with its ``sidecar``: what another store of the library writes.  The record is
    replayed through the engine, unless ``game``, the game it was written from, is given.  Raises
    ``RecordError``."""
    if game is None:
        game = game_from_record(parse_record(record.encode("utf-8")))
    try:
        info = SessionInfo.model_validate_json(sidecar) if sidecar is not None else None
    except ValueError as exc:
        raise RecordError(f"the sidecar: {exc}") from None
    return index_rows(facts_of(game), name, played_at(Path(name), 0), info)
