"""The games folder, ``<data dir>/games/``: the one module that writes into it.

Every finished or abandoned game is filed there as a record with its sidecar, and the library
indexes what it holds (docs/library.md).  Nothing there is ever deleted or rewritten: a save is
moved in under a name of its own (``file_save``: ``game-DATE.json``, ``unfinished-DATE.json``), and
an imported record is copied in (``file_copy``: ``imported-DATE-HASH.json``).  Each new entry is
flushed to disk with its folder.  The save slots (``session``) and the library call these; neither
writes into the folder itself (import-linter keeps the library away from ``files``' write helpers).

May import: ``files`` (the writes), ``settings`` (where the data folder is) and ``sidecar`` (a
record's sidecar file name).
"""

from __future__ import annotations

import os
from pathlib import Path

from .files import atomic_write, free_name, fsync_folder, owner_only
from .settings import data_dir
from .sidecar import sidecar_of


def games_dir() -> Path:
    """The games folder of the data folder."""
    return data_dir() / "games"


def own_games_folder() -> Path:
    """The games folder, and the data folder above it, made if missing and their owner's only."""
    owner_only(data_dir())
    return owner_only(games_dir())


def file_save(save: Path, stem: str) -> Path:
    """Move the save ``save`` and its sidecar (if there is one) into the games folder, as
    ``stem.json`` (or ``stem-2.json``... when that name is taken); return where it went.  Never
    deletes anything.  Raises ``OSError`` when it cannot."""
    folder = own_games_folder()
    target = free_name(folder, stem, ".json")
    os.replace(save, target)
    try:
        os.replace(sidecar_of(save), sidecar_of(target))
    except OSError:
        pass
    fsync_folder(folder)
    return target


def file_copy(folder: Path, name: str, record: str, sidecar: str | None) -> Path:
    """Write a copy of a record (and the text of its sidecar, if any) into the games folder
    ``folder`` as ``name``, each atomically, the sidecar first so that the record never appears
    without it; return the record's path.  Raises ``OSError`` when it cannot."""
    if folder == games_dir():  # the game's own (a front end may have made it open to others)
        own_games_folder()
    target = folder / name
    if sidecar is not None:
        atomic_write(sidecar_of(target), sidecar)
    atomic_write(target, record)
    fsync_folder(folder)
    return target


def file_table_game(folder: Path, table_id: str, record: str, sidecar: str, notes: str) -> Path:
    """File a game finished at table ``table_id`` of a server whose data folder is ``folder``: its
    record and sidecar in ``folder/games/`` (``table-DATE-ID.json``), and beside them in
    ``folder/notes/`` the table's file ``notes`` (who was human, what computers played for whom).
    Once: a game of that table filed already (before a crash that came before its table left the
    store) is not filed again, only its notes written.  The record's path; raises ``OSError``."""
    from .files import private_folder, stamp

    games = private_folder(folder / "games")
    filed = sorted(games.glob(f"table-*-{table_id}.json"))
    if filed:
        path = filed[0]
    else:
        path = file_copy(games, free_name(games, f"table-{stamp()}-{table_id}", ".json").name, record, sidecar)
    atomic_write(folder / "notes" / f"{path.stem}.table.json", notes)
    return path
