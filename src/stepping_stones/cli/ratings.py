"""``stepping-stones ratings --server URL``: a table server's rated players, the highest first."""

from __future__ import annotations

import argparse
import asyncio

from .args import Subcommands, add_json_flag, command, print_result, refuse


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "ratings",
        run,
        help="a table server's ratings: its players and computer levels, the highest first",
        description="Ask a table server for its ratings (OpenSkill, from the places of each finished "
        "game; docs/online.md, 'Players, and ratings') and print them, the highest first (at most 100).",
    )
    p.add_argument("--server", required=True, metavar="URL", help="the server's address")
    add_json_flag(p, "print the server's answer as one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..net.client import Refused, players_request
    from ..net.protocol import RatingsJSON
    from ..storage.safety import escape

    try:
        ratings = asyncio.run(players_request(args.server, "/players/ratings", RatingsJSON))
    except Refused as exc:
        return refuse(f"ratings: {exc}")

    def lines() -> None:
        if not ratings.players:
            print("Nobody is rated at this server yet.")
            return
        print(f"{'':>4} {'rating':>6}  {'rated':>5} {'apart':>5}  player")
        for place, player in enumerate(ratings.players, 1):
            print(f"{place:>4} {player.rating:>6}  {player.rated:>5} {player.apart:>5}  {escape(player.name)}")

    return print_result(args.json, lambda: ratings, lines)
