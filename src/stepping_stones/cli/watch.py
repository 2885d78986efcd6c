"""``stepping-stones watch CODE --server URL [--plain]``: watch a table by its watch code, in the
terminal app or in plain lines."""

from __future__ import annotations

import argparse
import asyncio

from .args import Subcommands, command, refuse


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "watch",
        run,
        help="watch a table on a table server by its watch code (docs/online.md)",
        description="Watch a table by its watch code (the watch link's /w/CODE; not the invite code): "
        "what everyone sees, the bids, the cards played, each hand's summary and deal once it is over, "
        "until the table closes, in the terminal app or with --plain in plain lines. Nobody's cards "
        "are shown, and a watcher takes no seat.",
    )
    p.add_argument("code", help="the table's watch code")
    p.add_argument("--server", required=True, metavar="URL", help="the server's address")
    p.add_argument("--plain", action="store_true", help="plain lines, for screen readers and scripts")


def run(args: argparse.Namespace) -> int:
    if not args.plain:
        from ..net.client import Refused, server_url
        from ..tui.watching import WatchApp

        try:
            server_url(args.server)
        except Refused as exc:
            return refuse(f"watch: {exc}")
        WatchApp(args.server, args.code).run()
        return 0
    return _plain(args)


def _plain(args: argparse.Namespace) -> int:
    from ..net.client import Refused, watch_table
    from ..net.protocol import Felt
    from ..net.remote import club_line
    from ..net.watching import watch_presentation
    from ..storage.safety import escape

    said: set[tuple[str, str]] = set()
    last = {"status": "", "watching": ""}

    def say(line: str) -> None:
        print(escape(line), flush=True)

    async def go() -> None:
        async for watched in watch_table(args.server, args.code):
            if isinstance(watched, Felt):  # a club's table: its line, once, as the seats' clients say it
                if watched.club is not None:
                    say(club_line(watched.club))
                continue
            shown = watch_presentation(watched)
            hand = shown.title
            trick = shown.trick
            new = [
                f"{shown.title}. {shown.contract}".rstrip(". ") + "." if shown.contract else "",
                *shown.bids,
                *(t.text for t in shown.tricks if t.text),
                *shown.summary,
                *(line for deal in shown.deals[-1:] for line in deal),
                *shown.result,
            ]
            for line in new:
                if line and (hand, line) not in said:
                    said.add((hand, line))
                    say(line)
            if trick is not None and trick.cards:
                line = f"Trick {trick.number}: " + ", ".join(f"{who} {card}" for who, card, _words in trick.cards) + "."
                if (hand, line) not in said:
                    said.add((hand, line))
                    say(line)
            for key, line in (("status", shown.status), ("watching", shown.watching or "")):
                if line and line != last[key]:
                    say(line)
                last[key] = line

    try:
        asyncio.run(go())
    except Refused as exc:
        return refuse(f"watch: {exc}")
    except KeyboardInterrupt:
        return 130
    say("The table has closed.")
    return 0
