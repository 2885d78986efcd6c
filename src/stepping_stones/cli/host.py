"""``stepping-stones host [--host H] [--port P] [--public-url URL] [--data-dir DIR] [--certfile F --keyfile F]``:
the table server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .serve import port


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, 1 to a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 1 <= value <= 86400:
        raise argparse.ArgumentTypeError("choose 1 to 86400 seconds")
    return value


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "host",
        help="run a table server: people join its tables from their own machines (docs/online.md)",
        description="Run a table server. People open tables on it (stepping-stones table new) and join "
        "them with the table's invite code; computer players take the seats nobody takes. It keeps its "
        "tables in its own data folder after every action, so a server that stops resumes them, and "
        "files every finished game in its game library. It listens on 127.0.0.1 (this machine only) "
        "unless --host says otherwise. Ctrl+C stops it.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1; another needs --public-url)")
    p.add_argument("--port", type=port, default=8765, help="the port to listen on (default 8765)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address clients use to reach the server (e.g. http://my-computer.local:8765); "
                   "needed with a --host other than this machine")
    p.add_argument("--data-dir", type=Path, metavar="DIR",
                   help="where the server keeps its tables and games (default: a 'server' folder in the "
                   "game's data folder)")
    p.add_argument("--certfile", metavar="FILE", help="serve https and wss with this certificate (PEM)")
    p.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM)")
    p.add_argument("--timeout", type=seconds, default=120.0, metavar="SECONDS",
                   help="how long a table waits for a person before a computer plays for them (default 120)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..net.server import host
    from ..storage.settings import data_dir

    if args.keyfile is not None and args.certfile is None:
        print("host: --keyfile goes with --certfile", file=sys.stderr)
        return 2
    folder = args.data_dir if args.data_dir is not None else data_dir() / "server"
    return host(folder, sys.stdout, sys.stderr, host=args.host, port=args.port, public_url=args.public_url,
                certfile=args.certfile, keyfile=args.keyfile, timeout=args.timeout)
