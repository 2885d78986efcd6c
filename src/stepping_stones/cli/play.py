"""``stepping-stones play``: a game with the options as flags, in the app or in plain lines."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..ai import LEVELS
from .args import Subcommands, add_rules_arguments, command, command_rules, level, refuse, rules_given, seed


def two(kind: str, check: Callable[[str], str]) -> Callable[[str], tuple[str, str]]:
    """An argparse type: two values separated by a comma, each checked by ``check``."""

    def parse(text: str) -> tuple[str, str]:
        parts = [t.strip() for t in text.split(",")]
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"give two {kind} separated by a comma")
        return check(parts[0]), check(parts[1])

    return parse


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "play",
        run,
        help="play a game: in the app, or with --plain line by line (for screen readers and scripts)",
        description="Play a game against two computer players. With --plain the game is told line "
        "by line in whole sentences, and every prompt ends with a line 'legal: ...' listing what "
        "may be typed (docs/accessibility.md). Without --plain the app opens with these choices.",
    )
    p.add_argument("--plain", action="store_true", help="line by line: no screen drawing, for screen readers")
    add_rules_arguments(p, kept=True)
    p.add_argument("--seed", type=seed, help="deal seed (default: a fresh one)")
    p.add_argument("--name", help="your name (default: the one chosen last, at first You)")
    p.add_argument(
        "--opponents",
        type=two("names", str),
        metavar="NAME,NAME",
        help="the names of seats 1 and 2 (default: those chosen last, at first Hana,Kenji)",
    )
    p.add_argument(
        "--levels",
        type=two("levels", level),
        metavar="LEVEL,LEVEL",
        help=f"the levels of seats 1 and 2 ({', '.join(LEVELS)}; default: those chosen last, at first heuristic)",
    )
    p.add_argument("--resume", action="store_true", help="carry on the unfinished game instead")


def run(args: argparse.Namespace) -> int:
    from ..game.choices import Setup
    from ..storage.safety import names_problem
    from ..storage.settings import load_settings

    # what the command line leaves out, as the setup screen chose it last (the settings)
    kept = load_settings().setup()
    rules = command_rules(args, "play") if rules_given(args) else kept.rules
    player = args.name if args.name is not None else kept.player
    opponents = args.opponents if args.opponents is not None else kept.names
    names = (player.strip(), *(n.strip() for n in opponents))
    problem = names_problem(names)
    if problem:
        return refuse(f"play: {problem}")
    levels = tuple(args.levels) if args.levels is not None else kept.levels
    setup = Setup(rules=rules, player=names[0], names=(names[1], names[2]), levels=levels, seed=args.seed)
    if args.plain:
        from ..ai.solver import PREPARING, compile_needed, load_in_background
        from ..plain import ByteLines, Options
        from ..plain import run as plain

        # As the app does: the exact solver loads (the first time, compiles) beside the game.
        if compile_needed():
            print(f"play: {PREPARING}; meanwhile the computer players think slower", file=sys.stderr, flush=True)
        load_in_background()

        # Bytes, decoded line by line: a line that is not UTF-8 costs only itself.
        return plain(Options(setup, resume=args.resume), ByteLines(sys.stdin.buffer), sys.stdout)
    from ..tui.app import run as app

    return app(resume=args.resume, setup=setup)
