"""``stepping-stones join [CODE] --server URL``: take a seat at a table on a table server and play it
(without a code: the app's Play online screen at that server alone, where the code is typed)."""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO

from .args import Subcommands, command, refuse


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "join",
        run,
        help="take a free seat at a table on a table server and play it (docs/online.md)",
        description="Take a free seat at a table with its invite code and play it: in the app, "
        "or with --plain line by line, as in 'play --plain' (every prompt ends with a line "
        "'legal: ...'). At the end the finished game is kept in your own game library. "
        "Without a code the app opens on its Play online screen for that server alone, "
        "where you type the code (or open a table); this is what every tab of "
        "'serve --server URL' runs.",
    )
    p.add_argument("code", nargs="?", help="the table's invite code (as 'table new' printed it)")
    p.add_argument("--server", required=True, metavar="URL", help="the server's address, as 'host' printed it")
    p.add_argument(
        "--name",
        help="your name at the table (default You; without a code, the setup "
        "screen's name, and '' leaves it to be typed)",
    )
    p.add_argument("--plain", action="store_true", help="line by line: no screen drawing, for screen readers")


def run(args: argparse.Namespace) -> int:
    from ..net.client import Refused, server_url
    from ..storage.safety import name_problem

    name = args.name.strip() if args.name is not None else ("You" if args.code is not None else None)
    problem = name_problem(name) if name is not None and (name or args.code is not None) else None
    if problem:
        return refuse(f"join: {problem}")
    try:
        server = str(server_url(args.server))
    except Refused as exc:
        return refuse(f"join: {exc}")
    if args.code is None:
        if args.plain:
            return refuse("join: --plain needs the table's invite code (join CODE --server URL --plain)")
        from ..tui.app import run as app

        return app(online=(server, name))
    if args.plain:
        from ..plain import ByteLines
        from ..plain.remote import run as plain

        # unbuffered: plain mode reads a line in a thread of its own while the server's states are told,
        # and a buffered reader's lock held by that thread at the exit would abort the interpreter
        try:
            stdin: BinaryIO = open(sys.stdin.fileno(), "rb", buffering=0, closefd=False)  # noqa: SIM115
        except (OSError, ValueError):  # no file descriptor (a test's stand-in for standard input)
            stdin = sys.stdin.buffer
        # a person at a terminal is offered a new table at the end; a script's game ends at 'record:'
        return plain(server, args.code, name or "You", ByteLines(stdin), sys.stdout, sys.stderr, again=stdin.isatty())
    from ..tui.app import run as app

    return app(join=(server, args.code, name or "You"))
