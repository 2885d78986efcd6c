"""``stepping-stones web [--port P] [--data-dir DIR] [--no-browser]``: a table server on this
machine only (127.0.0.1), with its page opened in the default web browser (docs/online.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from .args import Subcommands, command, port


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "web",
        run,
        help="play in a web browser: a table server on this machine, its page opened (docs/online.md)",
        description="Start a table server on 127.0.0.1 (this machine only) and open its page in the default "
        "web browser: a game against two computers, or a table for friends on this machine, with nothing else "
        "to install. The same server as 'stepping-stones host' (its tables are kept and resume). Ctrl+C stops it.",
    )
    p.add_argument("--port", type=port, default=8765, help="the port to listen on (default 8765)")
    p.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="where the server keeps its tables and games (default: the 'server' folder of host)",
    )
    p.add_argument("--no-browser", action="store_true", help="only print the address; open no browser")


def run(args: argparse.Namespace) -> int:
    import webbrowser

    from ..net.server import TableServer
    from ..storage.settings import data_dir

    class Opening(TableServer):
        """The table server, opening its page once the port is bound."""

        async def start(self) -> str:
            url = await super().start()
            page = url + "/"
            if args.no_browser:
                print(f"The page: {page}", file=sys.stdout, flush=True)
            else:  # a browser may take a moment to start: off the server's loop
                opened = asyncio.get_running_loop().run_in_executor(None, webbrowser.open, page)
                opened.add_done_callback(lambda done: said(done, page))
            return url

    def said(done: asyncio.Future[bool], page: str) -> None:
        try:
            found = done.result()
        except webbrowser.Error:
            found = False
        print(
            f"Opened the page in your web browser: {page}"
            if found
            else f"No web browser was found here: open {page} in one",
            flush=True,
        )

    folder = args.data_dir if args.data_dir is not None else data_dir() / "server"
    server = Opening(folder, sys.stdout, sys.stderr, host="127.0.0.1", port=args.port)
    server.initialize_logging()
    try:
        asyncio.run(server.run())
    except OSError as exc:
        print(
            f"web: cannot listen on 127.0.0.1 port {args.port}: {exc.strerror or exc} (another port: --port P; "
            "or open the page of the server that runs there)",
            file=sys.stderr,
        )
        return 1
    return 0
