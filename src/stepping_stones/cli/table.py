"""``stepping-stones table new|list|bot``: open a table on a table server, list its lobby, or seat a
bot at one."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from ..ai import LAB_REASONS, LEVELS, lab_seat
from ..engine import RulesError
from .args import (
    Subcommands,
    add_json_flag,
    add_rules_arguments,
    command,
    outside_level,
    positive,
    refuse,
    rules_from_args,
    seed,
)


def bot_level(text: str) -> str:
    """An argparse type: the level of the bots ``table bot`` seats: an AI level, OpenSpiel's
    ``ismcts``, or a bot from another package (docs/bots.md); never the lab's ``cheat``."""
    if text in LEVELS:
        return text
    seat = lab_seat(text)
    if seat == "cheat":
        raise argparse.ArgumentTypeError(f"{text!r} {LAB_REASONS[seat]}: a table shows it only its own cards")
    return text if seat is not None else outside_level(text)


def seats(text: str) -> list[str]:
    """An argparse type: three seats, each ``open`` or a computer's level."""
    parts = [t.strip() for t in text.split(",")]
    if len(parts) != 3 or any(p != "open" and p not in LEVELS for p in parts):
        raise argparse.ArgumentTypeError(
            f"give three seats, each 'open' or a level ({', '.join(LEVELS)}), e.g. open,open,expert"
        )
    if "open" not in parts:
        raise argparse.ArgumentTypeError("at least one seat must be open, for a person")
    return parts


def names(text: str) -> list[str | None]:
    """An argparse type: three names for the seats, any left empty (``Ann,,Bo``)."""
    parts = [t.strip() for t in text.split(",")]
    if len(parts) != 3:
        raise argparse.ArgumentTypeError("give three names separated by commas (an empty one: the default)")
    return [p or None for p in parts]


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "table",
        None,
        help="open a table on a table server, or seat a bot at one (docs/online.md)",
        description="Tables on a table server (stepping-stones host).",
    )
    tsub = p.add_subparsers(dest="table_command", metavar="COMMAND", required=True)
    new = tsub.add_parser(
        "new",
        help="open a table and print its invite code",
        description="Open a table on the server and print its invite code as 'code: CODE' "
        "(or JSON with --json). Send the code to the people who play; the table starts "
        "when every open seat is taken, or when the first person to sit starts it.",
    )
    new.add_argument("--server", required=True, metavar="URL", help="the server's address, as 'host' printed it")
    add_rules_arguments(new)
    new.add_argument(
        "--seats",
        type=seats,
        default=["open", "open", "open"],
        metavar="SEAT,SEAT,SEAT",
        help="each seat 'open' (for a person) or a computer's level (default open,open,open)",
    )
    new.add_argument(
        "--level",
        choices=tuple(LEVELS),
        default="heuristic",
        help="the level of the computers that take the seats still open when the table starts early",
    )
    new.add_argument(
        "--names",
        type=names,
        default=[None, None, None],
        metavar="NAME,NAME,NAME",
        help="the computer seats' names (people name themselves when they join)",
    )
    new.add_argument("--seed", help=argparse.SUPPRESS)  # refused with the reason: the server deals
    new.add_argument(
        "--listed",
        action="store_true",
        help="list the table in the server's lobby, open to anyone, until it fills up or starts (default: private)",
    )
    add_json_flag(new, "print the table as JSON")
    new.set_defaults(run=run_new)
    listing = tsub.add_parser(
        "list",
        help="the server's lobby: its listed tables with a free seat",
        description="Print the tables the server lists as open to anyone, with a free seat: each "
        "table's invite code, then its rules and who sits there. Sit down with "
        "stepping-stones join CODE --server URL.",
    )
    listing.add_argument("--server", required=True, metavar="URL", help="the server's address")
    listing.set_defaults(run=run_list)
    bot = tsub.add_parser(
        "bot",
        help="seat bots at a table: random legal moves, an AI level, or your own bot",
        description="Take seats at a table with bots that play until the game is over: "
        "random legal moves as fast as the server answers, or with --level an AI level "
        "or a bot from another package (docs/bots.md).",
    )
    bot.add_argument("code", help="the table's invite code")
    bot.add_argument("--server", required=True, metavar="URL", help="the server's address")
    bot.add_argument("--name", default="Bot", help="the bots' name (default Bot; the server numbers repeats)")
    bot.add_argument("--count", type=positive, default=1, help="how many seats to take (default 1)")
    bot.add_argument("--seed", type=seed, help="the bots' random seed")
    bot.add_argument(
        "--level",
        type=bot_level,
        metavar="LEVEL",
        help=f"play as this AI ({', '.join(LEVELS)}, ismcts) or as a bot from another package: an "
        "installed stepping_stones.agents entry point or module:factory (default: random legal moves)",
    )
    bot.set_defaults(run=run_bot)


def run_new(args: argparse.Namespace) -> int:
    from ..net.client import Refused, open_table, server_url
    from ..net.protocol import CHOSEN_SEED, NewTable
    from ..storage.records import RecordRules

    if args.seed is not None:
        return refuse(f"table new: --seed: {CHOSEN_SEED}")
    try:
        rules = rules_from_args(args)
        request = NewTable(
            rules=RecordRules.of(rules), seats=args.seats, level=args.level, names=args.names, listed=args.listed
        )
    except (RulesError, ValueError) as exc:
        return refuse(f"table new: {' '.join(str(exc).split())[:300]}")
    try:
        opened = asyncio.run(open_table(args.server, request))
    except Refused as exc:
        print(f"table new: {exc}", file=sys.stderr)
        return 1
    link = f"{server_url(args.server)}/t/{opened.code}"  # the server's own web page sits at it (docs/online.md)
    if args.json:
        print(
            json.dumps(
                {
                    "code": opened.code,
                    "table": opened.table,
                    "server": args.server,
                    "link": link,
                    "seats": [s.kind if s.kind == "open" else s.level for s in opened.seats],
                }
            )
        )
    else:
        print(f"code: {opened.code}")
        print(f"link: {link}", file=sys.stderr)
        if opened.watch is not None:
            print(f"watch: {server_url(args.server)}/w/{opened.watch}", file=sys.stderr)
        print(
            f"Send the code or the link to the players; each joins with it (the link in a web browser). A bot: "
            f"stepping-stones table bot {opened.code} --server {args.server}",
            file=sys.stderr,
        )
    return 0


def run_list(args: argparse.Namespace) -> int:
    from ..flow.presenter import NO_LISTED
    from ..net.client import Refused, lobby_now
    from ..net.watching import listed_line
    from ..storage.safety import escape

    try:
        lobby = asyncio.run(lobby_now(args.server))
    except Refused as exc:
        return refuse(f"table list: {exc}")
    if not lobby.tables:
        print(f"{NO_LISTED} (stepping-stones table new --listed)")
        return 0
    for table in lobby.tables:  # the presenter's words, from the facts (and nothing the server worded)
        print(f"{escape(table.code)}  {escape(listed_line(table.rules, table.seats))}")
    print(f"Sit down: stepping-stones join CODE --server {args.server}", file=sys.stderr)
    return 0


def run_bot(args: argparse.Namespace) -> int:
    from random import Random

    from ..ai import Agent, make_lab_ai
    from ..engine import SteppingStonesError
    from ..net.client import Refused, SeatClient, play_agent, play_randomly

    def say(line: str) -> None:
        print(f"table bot: {line}", file=sys.stderr, flush=True)

    async def one(i: int) -> None:
        name = args.name if args.count == 1 else f"{args.name} {i + 1}"
        async with SeatClient(args.server, code=args.code, name=name, notice=say) as client:
            welcome = await client.join()
            say(f"{welcome.name} sits in seat {welcome.seat}")
            rng = Random(f"{args.seed}:{i}" if args.seed else None)
            if args.level is None:
                final = await play_randomly(client, rng)
            else:
                final = await play_agent(client, agents[i], rng)
            if i == 0 and final.view is not None:  # the game is over: say the result once
                view = final.view
                print(
                    "game over: "
                    + ", ".join(f"{name} {total:+d}" for name, total in zip(view.players, view.totals(), strict=True))
                )

    try:
        agents: list[Agent] = [] if args.level is None else [make_lab_ai(args.level) for _ in range(args.count)]
    except SteppingStonesError as exc:
        say(str(exc))
        return 2

    async def all_bots() -> None:
        await asyncio.gather(*(one(i) for i in range(args.count)))

    try:
        asyncio.run(all_bots())
    except Refused as exc:
        say(str(exc))
        return 1
    return 0
