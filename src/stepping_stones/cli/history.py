"""``stepping-stones history``: the games in the library, newest first."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..storage.safety import escape
from .args import EXIT_REFUSED, refuse
from .library import open_library

if TYPE_CHECKING:
    from ..storage.library import HistoryEntry


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "history",
        help="the games in the library, newest first",
        description="Every game in the library, newest first: when, the rules, the players and their points, "
        "the winner, and whether a hint or an undo was used (docs/library.md).",
    )
    p.add_argument("--json", action="store_true", help="print one JSON array")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..storage.library import LibraryError

    library = open_library("history")
    if library is None:
        return EXIT_REFUSED
    with library:
        try:
            entries = library.history()
        except LibraryError as exc:
            return refuse(f"history: {exc}")
    if args.json:
        print(json.dumps([e.to_json() for e in entries]))
    else:
        print_history(entries)
    return 0


def winner_text(entry: HistoryEntry) -> str:
    if not entry.complete:
        return "(unfinished)"
    return " and ".join(escape(entry.players[s]) for s in entry.winners)


def assisted_text(entry: HistoryEntry) -> str:
    """Whose game was helped: ``yes`` for a hint or an undo, and each person a computer played
    for at a table (``computer for Ann (hands 5-7)``)."""
    parts = ["yes"] if entry.assisted else []
    for seat, hands in enumerate(entry.stood_in):
        if hands:
            which = f"hand {hands[0]}" if len(hands) == 1 else f"hands {', '.join(map(str, hands))}"
            parts.append(f"computer for {escape(entry.players[seat])} ({which})")
    return "; ".join(parts)


def print_history(entries: list[HistoryEntry]) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    if not entries:
        console.print("The library has no games yet.", markup=False)
        return
    table = Table("played", "rules", "players", "points", "winner", "assisted")
    for e in entries:
        table.add_row(
            Text(e.played[:16]), Text(e.rules.describe()),
            Text(", ".join(escape(p) for p in e.players)),
            Text(" / ".join(f"{p:+d}" for p in e.points)),
            Text(winner_text(e)), Text(assisted_text(e)),
        )
    console.print(table)
