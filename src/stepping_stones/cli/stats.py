"""``stepping-stones stats``: a player's figures over their finished games in the library."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..storage.safety import escape
from .args import CommandRefused, Subcommands, add_json_flag, add_library_source, command, print_result, shelf_work

if TYPE_CHECKING:
    from ..storage.library import PlayerStats


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "stats",
        run,
        help="a player's statistics over the finished games in the library",
        description="Games, wins, mean points and per-contract figures of one player over the finished games "
        "in the library (docs/library.md). Without --player: the person of the most recent game (seat 0, "
        "where the app seats you). Games where a hint or an undo was used, and games at a table where a "
        "computer played for the player, are counted apart.",
    )
    p.add_argument("--player", metavar="NAME", help="the player's name as in the records (default: yours)")
    p.add_argument(
        "--include-assisted",
        action="store_true",
        help="count games where a hint or an undo was used, or a computer played for the player, like the others",
    )
    add_library_source(p)
    add_json_flag(p)


def run(args: argparse.Namespace) -> int:
    with shelf_work("stats", args) as library:
        player = args.player if args.player is not None else library.person()
        if player is None:
            raise CommandRefused(
                "stats: the library has no games yet: play one, or import records with "
                "`stepping-stones library import PATH`"
            )
        stats = library.stats(player, include_assisted=args.include_assisted)
    return print_result(args.json, lambda: stats, lambda: print_stats(stats))


def _num(x: float | None, sign: bool = False) -> str:
    if x is None:
        return "-"
    return f"{x:+.2f}" if sign else f"{x:.2f}"


def print_stats(stats: PlayerStats) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    name = escape(stats.player)
    apart = "included" if stats.include_assisted else "counted apart"
    console.print(
        Text(
            f"{name}: {stats.games} finished games, {stats.wins} won ({stats.shared_wins} shared), "
            f"mean points {_num(stats.mean_points, sign=True)}; {stats.assisted_games} assisted games ({apart})"
            + (f"; {stats.stand_in_games} with a computer standing in ({apart})" if stats.stand_in_games else "")
        )
    )
    if not stats.per_contract:
        return
    table = Table("contract", "games", "mean result", "others' mean", "mean points", "firsts")
    table.columns[0].no_wrap = True
    for cid, c in stats.per_contract.items():
        table.add_row(
            cid,
            str(c.games),
            _num(c.mean_count),
            _num(c.others_mean_count),
            _num(c.mean_points, sign=True),
            str(c.firsts),
        )
    console.print(table)
