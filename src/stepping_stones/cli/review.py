"""``stepping-stones review FILE``: step through a saved game in the app, trick by trick."""

from __future__ import annotations

import argparse

from .args import refuse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "review",
        help="replay a saved game trick by trick in the app",
        description="Open a game record (docs/records.md) in the app and step through it trick by "
        "trick: all hands face up, the scoresheet as it stood. A record that breaks a rule is "
        "refused with exit status 2 and one line on standard error naming the hand and the action.",
    )
    p.add_argument("file", metavar="FILE", help="the game record (JSON)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..storage.records import RecordError, load_game
    from ..storage.safety import escape

    try:
        game = load_game(args.file)
    except RecordError as exc:
        return refuse(exc.line())
    from ..tui.app import SteppingStonesApp

    app = SteppingStonesApp(review=game, review_title=escape(args.file))
    app.run()
    return app.return_code or 0
