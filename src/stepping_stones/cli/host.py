"""``stepping-stones host [--host H] [--port P] [--public-url URL] [--data-dir DIR] [--certfile F --keyfile F]
[--timeout S] [--expire-after S] [--expire-empty-after S] [--max-tables N] [--max-connections N]
[--idle-seconds S] [--hello-rate R] [--hello-burst N] [--guess-rate R] [--guess-burst N]
[--unseated-per-address N] [--tables-per-address N] [--tables-per-minute N]``: the table server, and the
limits it keeps (docs/protocol.md, Limits; docs/online.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..net.limits import DEFAULT_EMPTY_EXPIRY, DEFAULT_EXPIRY, DEFAULT_TIMEOUT, Limits
from .args import Subcommands, command, number, port, refuse

seconds = number(float, "a number of seconds", 1, 86400)
"""A number of seconds, 1 to a day (``--timeout``)."""


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub, "host", run,
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
    p.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help="how long a table waits for a person before a computer plays for them (default 120)")
    limits = p.add_argument_group("limits", "what the server holds, and what one client address may try "
                                  "(docs/protocol.md, Limits; behind a reverse proxy every client has the "
                                  "proxy's address: raise the per-address limits, or keep them in the proxy)")
    default = Limits()
    limits.add_argument("--expire-after", type=number(float, "a number of seconds", 60, 30 * 86400),
                        default=DEFAULT_EXPIRY, metavar="SECONDS",
                        help="close a table that was never started this long after it was opened (60 to "
                        "2592000, default 86400: a day)")
    limits.add_argument("--expire-empty-after", type=number(float, "a number of seconds", 60, 30 * 86400),
                        default=DEFAULT_EMPTY_EXPIRY, metavar="SECONDS",
                        help=f"close a table that nobody has sat at this long after it was opened (60 to "
                        f"2592000, default {DEFAULT_EMPTY_EXPIRY:g}: ten minutes; at most --expire-after)")
    limits.add_argument("--max-tables", type=number(int, "a whole number of tables", 1, 100_000),
                        default=default.max_tables, metavar="N",
                        help=f"tables in play at most (1 to 100000, default {default.max_tables})")
    limits.add_argument("--max-connections", type=number(int, "a whole number of connections", 1, 100_000),
                        default=default.max_connections, metavar="N",
                        help=f"TCP connections at most, idle ones and websockets alike; past it the oldest "
                        f"one without a websocket is closed (1 to 100000, default {default.max_connections}; "
                        "lowered to what the server's open-files limit allows)")
    limits.add_argument("--idle-seconds", type=number(float, "a number of seconds", 1, 3600),
                        default=default.idle_seconds, metavar="SECONDS",
                        help=f"close a connection without a websocket that begins no request for this long: "
                        f"idle, or sending its request a byte at a time (1 to 3600, default "
                        f"{default.idle_seconds:g})")
    limits.add_argument("--hello-rate", type=number(float, "a number of hellos a second", 0.001, 10_000),
                        default=default.hello_rate, metavar="PER_SECOND",
                        help=f"hellos a second from one address, after a burst (0.001 to 10000, default "
                        f"{default.hello_rate:g})")
    limits.add_argument("--hello-burst", type=number(int, "a whole number of hellos", 1, 1_000_000),
                        default=default.hello_burst, metavar="N",
                        help=f"that burst (1 to 1000000, default {default.hello_burst})")
    limits.add_argument("--guess-rate", type=number(float, "a number of guesses a minute", 0.001, 10_000),
                        default=default.guess_rate * 60, metavar="PER_MINUTE",
                        help=f"wrong invite codes or seat secrets a minute from one address, after a burst "
                        f"(0.001 to 10000, default {default.guess_rate * 60:g})")
    limits.add_argument("--guess-burst", type=number(int, "a whole number of guesses", 1, 1_000_000),
                        default=default.guess_burst, metavar="N",
                        help=f"that burst (1 to 1000000, default {default.guess_burst})")
    limits.add_argument("--unseated-per-address", type=number(int, "a whole number of connections", 1, 100_000),
                        default=default.unseated_per_address, metavar="N",
                        help=f"websockets without a seat that one address may hold; each must take a seat "
                        f"within {default.hello_seconds:g} s (1 to 100000, default {default.unseated_per_address})")
    limits.add_argument("--tables-per-address", type=number(int, "a whole number of tables", 1, 100_000),
                        default=default.tables_per_address, metavar="N",
                        help=f"open tables nobody has started that one address may have opened (1 to 100000, "
                        f"default {default.tables_per_address})")
    limits.add_argument("--tables-per-minute", type=number(int, "a whole number of tables", 1, 100_000),
                        default=default.tables_per_minute, metavar="N",
                        help=f"tables one address may open a minute (1 to 100000, default "
                        f"{default.tables_per_minute})")


def run(args: argparse.Namespace) -> int:
    from ..net.server import host
    from ..storage.settings import data_dir

    if args.keyfile is not None and args.certfile is None:
        return refuse("host: --keyfile goes with --certfile")
    folder = args.data_dir if args.data_dir is not None else data_dir() / "server"
    limits = Limits(max_tables=args.max_tables, max_connections=args.max_connections, idle_seconds=args.idle_seconds,
                    hello_rate=args.hello_rate, hello_burst=args.hello_burst, guess_rate=args.guess_rate / 60,
                    guess_burst=args.guess_burst, unseated_per_address=args.unseated_per_address,
                    tables_per_address=args.tables_per_address, tables_per_minute=args.tables_per_minute)
    return host(folder, sys.stdout, sys.stderr, host=args.host, port=args.port, public_url=args.public_url,
                certfile=args.certfile, keyfile=args.keyfile, timeout=args.timeout, limits=limits,
                expire_after=args.expire_after, expire_empty_after=args.expire_empty_after)
