"""``stepping-stones host [--host H] [--port P] [--public-url URL] [--data-dir DIR] [--certfile F --keyfile F]
[--timeout S] [--expire-after S] [--expire-empty-after S] [--max-tables N] [--max-connections N]
[--idle-seconds S] [--hello-rate R] [--hello-burst N] [--guess-rate R] [--guess-burst N]
[--unseated-per-address N] [--tables-per-address N] [--tables-per-minute N] [--connections-per-address N]
[--connections-per-network N] [--tables-in-play-per-address N] [--finished-grace S] [--thinkers N]
[--trusted-proxy ADDRESS]
[--store URL [--lease-seconds S]]``: the table server, and the limits it keeps (docs/protocol.md, Limits;
docs/online.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..net.limits import DEFAULT_EMPTY_EXPIRY, DEFAULT_EXPIRY, DEFAULT_TIMEOUT, Limits
from .args import Subcommands, any_port, command, number, refuse, store_url

seconds = number(float, "a number of seconds", 1, 86400)
"""A number of seconds, 1 to a day (``--timeout``)."""


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "host",
        run,
        help="run a table server: people join its tables from their own machines (docs/online.md)",
        description="Run a table server. People open tables on it (stepping-stones table new) and join "
        "them with the table's invite code; computer players take the seats nobody takes. It keeps its "
        "tables in its own data folder after every action, so a server that stops resumes them, and "
        "files every finished game in its game library. It listens on 127.0.0.1 (this machine only) "
        "unless --host says otherwise. Ctrl+C stops it.",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1; another needs --public-url)"
    )
    p.add_argument(
        "--port",
        type=any_port,
        default=8765,
        help="the port to listen on (default 8765; 0 takes any free port, and the first line says which)",
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the address clients use to reach the server (e.g. http://my-computer.local:8765); "
        "needed with a --host other than this machine",
    )
    p.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="where the server keeps its tables and games (default: a 'server' folder in the game's data folder)",
    )
    p.add_argument(
        "--store",
        type=store_url,
        metavar="URL",
        help="keep the tables in PostgreSQL (postgresql://USER@HOST/DATABASE, libpq's URL) rather than in the "
        "data folder: several servers on one store share its tables, each holding some (docs/online.md); "
        "needs pip install 'stepping-stones[postgresql]'",
    )
    p.add_argument(
        "--lease-seconds",
        type=number(float, "a number of seconds", 1, 600),
        default=5.0,
        metavar="SECONDS",
        help="with --store: how long a server's hold on a table lasts unless it renews it (every second); "
        "the tables of a server that died wait this long for another (1 to 600, default 5)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        type=_proxy,
        metavar="ADDRESS",
        help="a reverse proxy in front of the server (an address or a network; may be given again): a "
        "request from it counts as from the address it names in X-Forwarded-For or Forwarded (docs/online.md)",
    )
    p.add_argument(
        "--logo",
        metavar="FILE",
        help="a club's logo (PNG, JPEG or WebP, at most 5 MB) on the felt of every table that has none of its own",
    )
    p.add_argument(
        "--club", metavar="NAME", help="the club's name, which the terminal clients show (with --logo or not)"
    )
    p.add_argument("--certfile", metavar="FILE", help="serve https and wss with this certificate (PEM)")
    p.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM)")
    p.add_argument(
        "--timeout",
        type=seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="how long a table waits for a person before a computer plays for them (default 120)",
    )
    limits = p.add_argument_group(
        "limits",
        "what the server holds, and what one client address may try "
        "(docs/protocol.md, Limits; behind a reverse proxy every client has the "
        "proxy's address: raise the per-address limits, or keep them in the proxy)",
    )
    default = Limits()
    _limit(
        limits,
        "--expire-after",
        float,
        "a number of seconds",
        60,
        30 * 86400,
        DEFAULT_EXPIRY,
        "SECONDS",
        "close a table that was never started this long after it was opened",
        ": a day",
    )
    _limit(
        limits,
        "--expire-empty-after",
        float,
        "a number of seconds",
        60,
        30 * 86400,
        DEFAULT_EMPTY_EXPIRY,
        "SECONDS",
        "close a table that nobody has sat at this long after it was opened",
        ": ten minutes; at most --expire-after",
    )
    _limit(
        limits,
        "--max-tables",
        int,
        "a whole number of tables",
        1,
        100_000,
        default.max_tables,
        "N",
        "tables in play at most",
    )
    _limit(
        limits,
        "--max-connections",
        int,
        "a whole number of connections",
        1,
        100_000,
        default.max_connections,
        "N",
        "TCP connections at most, idle ones and websockets alike; past it the oldest one without a websocket is closed",
        "; lowered to what the server's open-files limit allows",
    )
    _limit(
        limits,
        "--idle-seconds",
        float,
        "a number of seconds",
        1,
        3600,
        default.idle_seconds,
        "SECONDS",
        "close a connection without a websocket that begins no request for this long: idle, or sending its "
        "request a byte at a time",
    )
    _limit(
        limits,
        "--hello-rate",
        float,
        "a number of hellos a second",
        0.001,
        10_000,
        default.hello_rate,
        "PER_SECOND",
        "hellos a second from one address, after a burst",
    )
    _limit(
        limits, "--hello-burst", int, "a whole number of hellos", 1, 1_000_000, default.hello_burst, "N", "that burst"
    )
    _limit(
        limits,
        "--guess-rate",
        float,
        "a number of guesses a minute",
        0.001,
        10_000,
        default.guess_rate * 60,
        "PER_MINUTE",
        "wrong invite codes or seat secrets a minute from one address, after a burst",
    )
    _limit(
        limits, "--guess-burst", int, "a whole number of guesses", 1, 1_000_000, default.guess_burst, "N", "that burst"
    )
    _limit(
        limits,
        "--unseated-per-address",
        int,
        "a whole number of connections",
        1,
        100_000,
        default.unseated_per_address,
        "N",
        "websockets without a seat that one address may hold; each must "
        f"take a seat within {default.hello_seconds:g} s",
    )
    _limit(
        limits,
        "--tables-per-address",
        int,
        "a whole number of tables",
        1,
        100_000,
        default.tables_per_address,
        "N",
        "open tables nobody has started that one address may have opened",
    )
    _limit(
        limits,
        "--tables-per-minute",
        int,
        "a whole number of tables",
        1,
        100_000,
        default.tables_per_minute,
        "N",
        "tables one address may open a minute",
    )
    _limit(
        limits,
        "--connections-per-address",
        int,
        "a whole number of connections",
        1,
        100_000,
        default.connections_per_address,
        "N",
        "websockets, seated or not, that one address (its IPv4 /24, its IPv6 /64) may hold",
        ", and never more than a quarter of --max-connections",
    )
    _limit(
        limits,
        "--connections-per-network",
        int,
        "a whole number of connections",
        1,
        100_000,
        default.connections_per_network,
        "N",
        "websockets that one IPv6 /56 may hold",
        ", and never more than half of --max-connections",
    )
    _limit(
        limits,
        "--tables-in-play-per-address",
        int,
        "a whole number of tables",
        1,
        100_000,
        default.tables_in_play_per_address,
        "N",
        "tables not over yet, started or not, that one address may have opened",
        ", and never more than a quarter of --max-tables",
    )
    _limit(
        limits,
        "--finished-grace",
        float,
        "a number of seconds",
        1,
        86400,
        default.finished_grace,
        "SECONDS",
        "how long the connections at a finished table stay open (its result, and 'again')",
    )
    _limit(
        limits,
        "--thinkers",
        int,
        "a whole number of processes",
        1,
        256,
        default.thinkers,
        "N",
        "worker processes for the computers' decisions and the claims' checks (one address uses all but one)",
    )


def _proxy(text: str) -> object:
    from ..net.proxies import proxy_network

    try:
        return proxy_network(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an IP address or network") from None


def _figure(value: float) -> str:
    """A limit's figure as the help says it: a whole number in full (``1000000``, not ``1e+06``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _limit(
    group: argparse._ArgumentGroup,
    flag: str,
    kind: type[int] | type[float],
    what: str,
    low: float,
    high: float,
    default: float,
    metavar: str,
    help: str,
    note: str = "",
) -> None:
    """One of the server's limits: a number of ``kind`` (``what``, for its refusal) from ``low`` to
    ``high``; the range and the default, written once here, end its help (``note`` after the default)."""
    group.add_argument(
        flag,
        type=number(kind, what, low, high),
        default=default,
        metavar=metavar,
        help=f"{help} ({_figure(low)} to {_figure(high)}, default {_figure(default)}{note})",
    )


def run(args: argparse.Namespace) -> int:
    from ..net.server import host
    from ..storage.settings import data_dir

    if args.keyfile is not None and args.certfile is None:
        return refuse("host: --keyfile goes with --certfile")
    folder = args.data_dir if args.data_dir is not None else data_dir() / "server"
    logo = _logo(args.logo, args.club)
    if isinstance(logo, str):
        return refuse(logo)
    limits = Limits(
        max_tables=args.max_tables,
        max_connections=args.max_connections,
        idle_seconds=args.idle_seconds,
        hello_rate=args.hello_rate,
        hello_burst=args.hello_burst,
        guess_rate=args.guess_rate / 60,
        guess_burst=args.guess_burst,
        unseated_per_address=args.unseated_per_address,
        tables_per_address=args.tables_per_address,
        tables_per_minute=args.tables_per_minute,
        connections_per_address=args.connections_per_address,
        connections_per_network=args.connections_per_network,
        tables_in_play_per_address=args.tables_in_play_per_address,
        finished_grace=args.finished_grace,
        thinkers=args.thinkers,
    )
    return host(
        folder,
        sys.stdout,
        sys.stderr,
        host=args.host,
        port=args.port,
        public_url=args.public_url,
        certfile=args.certfile,
        keyfile=args.keyfile,
        timeout=args.timeout,
        limits=limits,
        expire_after=args.expire_after,
        expire_empty_after=args.expire_empty_after,
        trusted_proxies=args.trusted_proxy,
        store=args.store,
        lease_seconds=args.lease_seconds,
        logo=logo,
    )


def _logo(path: str | None, club: str | None) -> tuple[bytes, str | None] | str | None:
    """``--logo`` checked and made ready for the felt, with ``--club``; or the refusal's line."""
    from ..net.logos import MAX_BYTES, LogoRefused, felt_logo
    from ..storage.safety import FileProblem, escape, name_problem, read_small

    if club is not None and (problem := name_problem(club)) is not None:
        return f"host: --club {escape(club)[:60]}: {problem}"
    if path is None:
        return (b"", club) if club is not None else None
    try:
        return felt_logo(read_small(path, MAX_BYTES)), club
    except FileProblem as exc:
        return f"host: --logo: {exc}"
    except LogoRefused as exc:
        return f"host: --logo {escape(path)}: {exc}"
