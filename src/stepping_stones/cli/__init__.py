"""The ``stepping-stones`` command: argument parsing and printing only.

Each subcommand lives in its own module of this package with
``add_parser(subparsers)`` and a ``run(args) -> int`` function; the work itself
is done by the library (``records``, ``lab``, ``tui``).  This file only wires
the commands together, and keeps imports lazy so that ``stepping-stones
replay`` never loads the app.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable

from .. import __version__

# subcommand name -> module (relative to this package) that defines it
SUBCOMMANDS = {
    "play": ".play",
    "serve": ".serve",
    "host": ".host",
    "nginx": ".nginx",
    "web": ".web",
    "table": ".table",
    "join": ".join",
    "watch": ".watch",
    "replay": ".replay",
    "review": ".review",
    "simulate": ".simulate",
    "tournament": ".tournament",
    "bench": ".bench",
    "calibrate": ".calibrate",
    "hint": ".hint",
    "analyse": ".analyse",
    "library": ".library",
    "stats": ".stats",
    "history": ".history",
    "ratings": ".ratings",
    "key": ".key",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with ``only`` (a name of ``SUBCOMMANDS``) of that one alone:
    then only its module is imported, not the other commands' (0.1-0.2 s of CPU that every command
    paid, asyncio for ``web`` among them: docs/lab/2026-12-07-analyse-game-time.md)."""
    parser = argparse.ArgumentParser(
        prog="stepping-stones",
        description="Stepping Stones: a three-player compendium trick-taking card game. "
        "Without a command it opens the game in the terminal (docs/tui.md).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--resume", action="store_true", help="without a command: resume the unfinished game at once")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in SUBCOMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module, __package__).add_parser(sub)
    return parser


def _play(resume: bool) -> int:
    """Without a command: open the app (imported only now, so other commands stay light)."""
    from ..tui.app import run

    return _interruptible(lambda: run(resume=resume))


def _interruptible(command: Callable[[], int]) -> int:
    """Run ``command`` with Ctrl+C raising ``KeyboardInterrupt``, which the commands handle (the
    plain game saves and stops; ``main`` says one line), whatever the entry point made of Ctrl+C
    before (``entry.py``: end at once during imports and shutdown); put that back afterwards."""
    if threading.current_thread() is not threading.main_thread():
        return command()
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return command()
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)


def main(argv: list[str] | None = None) -> int:
    """Run the command; its exit status.  A reader that goes away (``replay FILE | head -1``) or
    Ctrl+C ends the command quietly, without a traceback (exit status 130 for Ctrl+C; the console
    script's ``entry.run`` covers the moments before and after this function too)."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # Nothing more can be written; point stdout at nowhere so that Python's own flush at exit
        # does not complain either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("stepping-stones: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv in ([], ["--resume"]):
        return _play(resume=bool(argv))  # fast path: no subcommand modules to import
    # A command named first needs its own parser only (the top-level options come before it).
    parser = build_parser(argv[0] if argv[0] in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    if args.command is None:
        return _play(resume=args.resume)
    run: Callable[[argparse.Namespace], int] = args.run
    from .args import CommandRefused, refuse

    try:
        return _interruptible(lambda: run(args))
    except CommandRefused as exc:
        return refuse(str(exc))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
