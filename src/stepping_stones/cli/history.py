"""``stepping-stones history``: the games in the library, newest first."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..storage.safety import escape
from .args import Subcommands, add_json_flag, add_library_source, command, print_result, shelf_work

if TYPE_CHECKING:
    from ..storage.library import HistoryEntry


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "history",
        run,
        help="the games in the library, newest first",
        description="Every game in the library, newest first: when, the rules, the players and their points, "
        "the winner, and whether a hint or an undo was used (docs/library.md).",
    )
    add_library_source(p)
    add_json_flag(p, "print one JSON array")


def run(args: argparse.Namespace) -> int:
    with shelf_work("history", args) as library:
        entries = library.history()
    return print_result(args.json, lambda: [e.to_json() for e in entries], lambda: print_history(entries))


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
    """The games as a table that fits 80 columns: each game in a line or two, the rules in brief
    ("Advanced set, short, redo"), each player with their points, and a winner (or
    "(unfinished)") never cut."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    if not entries:
        console.print("The library has no games yet.", markup=False)
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("played", no_wrap=True)
    table.add_column("rules", min_width=len("Standard set,"))
    table.add_column("players, points", min_width=len("Kenji +12,"))
    table.add_column("winner", min_width=len("(unfinished)"))
    table.add_column("assisted")
    for e in entries:
        table.add_row(
            Text(e.played[:16]),
            Text(e.rules.describe(brief=True)),
            Text(", ".join(f"{escape(p)} {points:+d}" for p, points in zip(e.players, e.points, strict=True))),
            Text(winner_text(e)),
            Text(assisted_text(e)),
        )
    console.print(table)
