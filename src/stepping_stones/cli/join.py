"""``stepping-stones join CODE --server URL``: take a seat at a table on a table server and play it."""

from __future__ import annotations

import argparse
import sys


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("join", help="take a free seat at a table on a table server and play it (docs/online.md)",
                       description="Take a free seat at a table with its invite code and play it: in the app, "
                       "or with --plain line by line, as in 'play --plain' (every prompt ends with a line "
                       "'legal: ...'). At the end the finished game is kept in your own game library.")
    p.add_argument("code", help="the table's invite code (as 'table new' printed it)")
    p.add_argument("--server", required=True, metavar="URL", help="the server's address, as 'host' printed it")
    p.add_argument("--name", default="You", help="your name at the table (default You)")
    p.add_argument("--plain", action="store_true", help="line by line: no screen drawing, for screen readers")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..net.client import Refused, server_url
    from ..storage.safety import name_problem

    name = args.name.strip()
    problem = name_problem(name)
    if problem:
        print(f"join: {problem}", file=sys.stderr)
        return 2
    try:
        server_url(args.server)
    except Refused as exc:
        print(f"join: {exc}", file=sys.stderr)
        return 2
    if args.plain:
        from ..plain import ByteLines
        from ..plain.remote import run as plain

        return plain(args.server, args.code, name, ByteLines(sys.stdin.buffer), sys.stdout, sys.stderr)
    from ..tui.app import run as app

    return app(join=(args.server, args.code, name))
