"""Importing records: ``stepping-stones library import PATH...``.

Each record named (a file, or the ``*.json`` records of a folder and its subfolders, sidecars
left out) is read with the limits of every record and replayed through the rules engine.  A good
one that is not in the library yet is copied into ``games/`` (by ``storage.games``, the folder's
one writer) as ``imported-DATE-HASH.json``, with its sidecar if it has a usable one, and indexed;
one already there is counted; a bad one is refused in one line.

May import: ``sync``, ``facts`` and ``database`` of the library package; storage's ``games``,
``records`` and ``safety``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..games import file_copy
from ..records import RecordError
from ..safety import escape
from .database import why
from .facts import content_hash, read_game, read_sidecar
from .sync import Index


@dataclass
class ImportReport:
    """What ``import_paths`` did: lines about refused files, and the three counts."""

    imported: int = 0
    already: int = 0
    refused: list[str] = field(default_factory=list)

    def line(self) -> str:
        return f"imported {self.imported}, already there {self.already}, refused {len(self.refused)}"


def import_paths(index: Index, paths: Iterable[Path]) -> ImportReport:
    """Check each record (files, or the ``.json`` records in folders) with the engine, copy the
    good ones that are not in the library yet into ``games/`` and index them."""
    report = ImportReport()
    for path in _record_paths(paths, report):
        shown = escape(str(path))
        try:
            data, game = read_game(path)
            st = path.stat()
        except RecordError as exc:
            report.refused.append(exc.line(path))
            continue
        except OSError as exc:
            report.refused.append(f"{shown}: {why(exc)}")
            continue
        digest = content_hash(game)
        info = read_sidecar(path)
        # Checking and copying in one write transaction: two imports at once never both copy a game.
        with index.transaction():
            if index.holds(digest):
                report.already += 1
                continue
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(st.st_mtime))
            target = file_copy(
                index.games_folder,
                f"imported-{stamp}-{digest[:12]}.json",
                data.decode("utf-8"),
                info.text() if info is not None else None,
            )
            index.index(target, target.stat())
        report.imported += 1
    return report


def _record_paths(paths: Iterable[Path], report: ImportReport) -> Iterator[Path]:
    """The record files named: files as given, folders searched for ``*.json`` (not sidecars)."""
    for path in paths:
        if path.is_dir():
            try:
                found = sorted(p for p in path.rglob("*.json") if not p.name.endswith(".session.json") and p.is_file())
            except OSError as exc:
                report.refused.append(f"{escape(str(path))}: {why(exc)}")
                continue
            yield from found
        else:
            yield path
