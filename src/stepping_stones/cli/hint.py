"""``stepping-stones hint FILE [--json]``: the expert's suggestion for the next action of a record."""

from __future__ import annotations

import argparse

from .args import Subcommands, add_json_flag, add_record_file, command, game_from_file, print_result, refuse


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "hint",
        run,
        help="suggest the next bid or card of an unfinished game record, with a reason",
        description="Read an unfinished game record (docs/records.md) and print what the expert "
        "computer player would bid or play next in the place of the player to act, with the reason "
        "in players' words. It decides from that player's view only: the other hands stay hidden. "
        "A record that breaks a rule, or one with no action to take (the game is over, or the next "
        "hand is not dealt), is refused with exit status 2 and one line on standard error.",
    )
    add_record_file(p)
    add_json_flag(p)


def run(args: argparse.Namespace) -> int:
    from ..ai.analysis import NothingToHint, hint_for_game
    from ..storage.safety import escape
    from .args import prepare_solver

    game = game_from_file(args.file)
    try:
        found = hint_for_game(game, lambda: prepare_solver("hint"))
    except NothingToHint as exc:
        return refuse(f"hint: {escape(str(args.file))}: {exc}")
    return print_result(
        args.json,
        found.to_json,
        lambda: print(
            f"Hand {found.hand}, {escape(found.player)} to {'bid' if found.phase == 'bidding' else 'play'}: "
            f"{found.hint.text}"
        ),
    )
