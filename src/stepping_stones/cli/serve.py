"""``stepping-stones serve [--host H] [--port P] [--public-url URL] [--max-tabs N] [--server URL]``: the game in a
web browser; with ``--server``, a page that joins the tables of that table server."""

from __future__ import annotations

import argparse
import sys

from .args import Subcommands, command, number, port, refuse

tabs = number(
    int, "a whole number", 1, 64, lambda value: f"{value} tabs: choose 1 to 64 (each is an app process of about 55 MiB)"
)
"""An argparse type: how many tabs may play at once, 1-64."""


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "serve",
        run,
        help="play in a web browser: serve the game on a local web page",
        description="Serve the game as a web page (textual-serve). Every browser tab that opens it "
        "plays its own game, saved where the terminal app saves. It listens on 127.0.0.1 (this "
        "machine only) unless --host says otherwise. Ctrl+C stops it.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1; 0.0.0.0 lets anyone who can "
        "reach this machine play, and needs --public-url)",
    )
    p.add_argument("--port", type=port, default=8000, help="the port to listen on (default 8000)")
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use to reach the server (e.g. http://my-computer.local:8000); "
        "needed with a --host other than this machine, and the only name the server then answers to",
    )
    p.add_argument(
        "--max-tabs",
        type=tabs,
        default=4,
        metavar="N",
        help="how many tabs may play at once, each running its own copy of the app (default 4, at most 64)",
    )
    p.add_argument(
        "--server",
        metavar="URL",
        help="a table server's address, as 'host' printed it: every tab then opens on Play online "
        "at that server (and no other), where the person types their name and invite code",
    )


def run(args: argparse.Namespace) -> int:
    from ..serve import serve

    table_server = None
    if args.server is not None:
        from ..net.client import Refused, server_url

        try:
            table_server = str(server_url(args.server))
        except Refused as exc:
            return refuse(f"serve: --server: {exc}")
    return serve(
        args.host,
        args.port,
        sys.stdout,
        sys.stderr,
        public_url=args.public_url,
        max_tabs=args.max_tabs,
        table_server=table_server,
    )
