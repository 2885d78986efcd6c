"""``stepping-stones key export|import``: carry a player key to another device with a short code."""

from __future__ import annotations

import argparse
import asyncio

from .args import Subcommands, command, refuse


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "key",
        None,
        help="carry your player key for a table server to another device (docs/online.md)",
        description="Your player key for a table server is made on first use and kept in your data "
        "folder; the server rates it. These commands carry it to another device with a short code.",
    )
    ksub = p.add_subparsers(dest="key_command", metavar="COMMAND", required=True)
    export = ksub.add_parser(
        "export",
        help="show a code (once) that gives another device your player at that server",
        description="Ask the server for a transfer code for your player key and print it as "
        "'code: CODE'. Type it on the other device within 10 minutes (stepping-stones key import, or "
        "the server's ratings page); it works once, and a new code replaces it.",
    )
    export.add_argument("--server", required=True, metavar="URL", help="the server's address")
    export.add_argument("--name", default=None, help="your name there, for a key the server has not met yet")
    export.set_defaults(run=run_export)
    take = ksub.add_parser(
        "import",
        help="play as the player of a code shown on another device",
        description="Give the server a transfer code made on another device: this machine gets a key of "
        "that player for the server (the key it had is kept aside in the keys file).",
    )
    take.add_argument("code", help="the transfer code, as shown (any case, with or without the dash)")
    take.add_argument("--server", required=True, metavar="URL", help="the server's address")
    take.set_defaults(run=run_import)


def _key(server: str) -> str:
    from ..net.client import Refused, server_url
    from ..storage.player import server_key

    try:
        return server_key(str(server_url(server)))
    except (OSError, ValueError) as exc:
        raise Refused(f"your player key cannot be kept: {exc}") from None


def run_export(args: argparse.Namespace) -> int:
    import sys

    from ..net.client import Refused, players_request
    from ..net.protocol import KeyRequest, TransferCode
    from ..storage.safety import name_problem, normal_name

    name = normal_name(args.name) if args.name is not None else None
    if name is not None and (problem := name_problem(name)):
        return refuse(f"key export: --name: {problem}")
    try:
        body = KeyRequest(key=_key(args.server), name=name)
        code = asyncio.run(players_request(args.server, "/players/export", TransferCode, body))
    except Refused as exc:
        return refuse(f"key export: {exc}")
    print(f"code: {code.code}")
    print(
        f"Type it on the other device within {code.seconds // 60} minutes: stepping-stones key import "
        f"{code.code} --server {args.server}, or on the server's ratings page. It works once; it is not shown again.",
        file=sys.stderr,
    )
    return 0


def run_import(args: argparse.Namespace) -> int:
    from ..net.client import Refused, players_request, server_url
    from ..net.protocol import ImportRequest, NewKey
    from ..storage.player import keys_path, replace_key

    if len(args.code) > 20:
        return refuse("key import: a transfer code is 10 letters and digits, as the other device shows it")
    try:
        server = str(server_url(args.server))
        key = asyncio.run(players_request(args.server, "/players/import", NewKey, ImportRequest(code=args.code)))
    except Refused as exc:
        return refuse(f"key import: {exc}")
    try:
        old = replace_key(server, key.key)
    except (OSError, ValueError) as exc:
        return refuse(f"key import: the new key cannot be kept: {exc}")
    print(f"This machine now plays as that player at {server}.")
    if old is not None:
        print(f"The key it had there is kept aside in {keys_path()} ('before').")
    return 0
