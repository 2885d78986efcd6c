"""``stepping-stones library import PATH...``: put game records into the game library."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .args import EXIT_REFUSED, Subcommands, command, open_library, refuse

REFUSAL_LINE = 300
"""The longest line ``library import`` prints about one refused record."""


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "library",
        None,
        help="the game library: import game records (see also stats and history)",
        description="The game library indexes the game records in the data folder's games/ in an SQLite "
        "database (docs/library.md).",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    imp = actions.add_parser(
        "import",
        help="check game records and copy the good ones into the library",
        description="Check each record with the rules engine (as replay does), copy the good ones into the "
        "library's games/ folder and index them. A folder is searched for .json records. A game already in "
        "the library (the same record content) is skipped; a bad record is reported in one line and the "
        "others go on. Ends with one line: imported, already there, refused. Exit status 2 if any record "
        "was refused.",
    )
    imp.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="a record file or a folder of records")
    imp.set_defaults(run=run_import)


def run_import(args: argparse.Namespace) -> int:
    library = open_library("library import")
    from ..storage.library import LibraryError
    from ..storage.safety import one_line

    with library:
        try:
            report = library.import_paths(args.paths)
        except LibraryError as exc:
            return refuse(one_line(f"library import: {exc}", REFUSAL_LINE))
    for line in report.refused:
        # A deep path and a long reason together: one line of at most REFUSAL_LINE characters,
        # keeping the start of the path and the end of the reason.
        print(one_line(f"refused {line}", REFUSAL_LINE), file=sys.stderr)
    print(report.line())
    return EXIT_REFUSED if report.refused else 0
