"""``stepping-stones nginx --public-url URL ADDRESS:PORT...``: the nginx configuration in front of
one ``host`` process or several (docs/online.md)."""

from __future__ import annotations

import argparse

from .args import Subcommands, command, refuse


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "nginx",
        run,
        help="print the nginx configuration in front of one table server or several (docs/online.md)",
        description="Print what goes in nginx's http block to put the table servers at ADDRESS:PORT "
        "behind the public URL: websockets passed on, each client's own address told to the server, and "
        "with several servers on one --store, each table's people sent to the server that holds it. "
        "Start each server with the same --public-url and --trusted-proxy with nginx's address.",
    )
    p.add_argument(
        "servers",
        nargs="+",
        type=_server,
        metavar="ADDRESS:PORT",
        help="where a table server listens (its --host and --port), e.g. 127.0.0.1:8765",
    )
    p.add_argument(
        "--public-url",
        required=True,
        metavar="URL",
        help="the address people use, e.g. https://tables.example.org (an https:// one listens with TLS)",
    )


_NOT_IN_AN_ADDRESS = " ;{}#'\"\\"
"""What would end or break nginx's ``server`` line."""


def _server(text: str) -> str:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535 or set(text) & set(_NOT_IN_AN_ADDRESS):
        raise argparse.ArgumentTypeError(f"{text!r} is not ADDRESS:PORT (for example 127.0.0.1:8765)")
    return text


def run(args: argparse.Namespace) -> int:
    from ..net.door import DoorError, public_address
    from ..net.nginx import site

    try:
        url = public_address(args.public_url)
    except DoorError as exc:
        return refuse(f"nginx: {exc}")
    assert url.host is not None and url.port is not None  # an http(s) address has both
    listen = f"{url.port} ssl" if url.scheme == "https" else str(url.port)
    print(site(args.servers, listen=listen, server_name=url.host), end="")
    return 0
