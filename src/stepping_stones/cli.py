"""The ``stepping-stones`` command.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and a
``run(args) -> int`` function; this file only wires them together, and keeps
imports lazy so that ``stepping-stones replay`` never loads the TUI.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__

# subcommand name -> module (relative to this package) that defines it
SUBCOMMANDS = {
    "replay": ".replay",
    "bench": ".bench_cli",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stepping-stones",
        description="Stepping Stones: a three-player compendium trick-taking card game.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS.values():
        importlib.import_module(module, __package__).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    return args.run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
