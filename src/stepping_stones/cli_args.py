"""Command-line argument types and options shared by several subcommands."""

from __future__ import annotations

import argparse

from .engine.contracts import CONTRACT_SETS, Rules


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    """``--set``, ``--short`` and ``--redo``: the options of the games a command plays."""
    p.add_argument("--set", dest="contract_set", choices=tuple(CONTRACT_SETS), default="standard",
                   help="contract set (default standard)")
    p.add_argument("--short", action="store_true", help="short game: one contract left out")
    p.add_argument("--redo", action="store_true", help="play with redo tokens")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The ``Rules`` named by ``add_rules_arguments``' options (raises ``RulesError``)."""
    return Rules(args.contract_set, short_game=args.short, redo_tokens=args.redo)
