"""``stepping-stones review FILE``: step through a saved game in the app, trick by trick."""

from __future__ import annotations

import argparse

from .args import Subcommands, add_record_file, command, game_from_file


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "review",
        run,
        help="replay a saved game trick by trick in the app",
        description="Open a game record (docs/records.md) in the app and step through it trick by "
        "trick: all hands face up, the scoresheet as it stood. A record that breaks a rule is "
        "refused with exit status 2 and one line on standard error naming the hand and the action.",
    )
    add_record_file(p)


def run(args: argparse.Namespace) -> int:
    from ..storage.safety import escape

    game = game_from_file(args.file)
    from ..tui.app import SteppingStonesApp

    app = SteppingStonesApp(review=game, review_title=escape(args.file))
    app.run()
    return app.return_code or 0
