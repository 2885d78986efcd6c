"""``stepping-stones replay FILE [--json]``: check a game record and show its result."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine import CONTRACTS, Game
from ..storage.records import summary
from .args import Subcommands, add_json_flag, add_record_file, command, game_from_file, print_result


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "replay",
        run,
        help="check a game record against the rules and show its scoresheet",
        description="Replay a game record (docs/records.md), checking every bid and card. "
        "A record that breaks a rule is refused with exit status 2 and one line on "
        "standard error naming the hand and the action.",
    )
    add_record_file(p)
    add_json_flag(p, "print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    game = game_from_file(args.file)
    facts = summary(game)
    return print_result(args.json, lambda: facts, lambda: print(render_text(game, facts)))


def render_text(game: Game, facts: dict[str, Any]) -> str:
    """The replay's facts for people: the hands, the scoresheet, then the result."""
    from ..explain import plural

    names = game.players
    lines = []
    lines.append(f"Stepping Stones: {', '.join(names)} ({game.rules.describe()})")
    lines.append("")
    for hand, fact in zip((h for h in game.log if h.declared), facts["hands"], strict=True):
        who = names[fact["declarer"]]
        how = " in the puddle" if fact["puddle"] else ""
        count = "unfinished" if fact["count"] is None else plural(fact["count"], "counted trick")
        lines.append(f"Hand {hand.number:>2}: {who}{how} declared {hand.declaration.describe()}: {count}")
    if facts["hands"]:
        lines.append("")

    contracts = [CONTRACTS[cid] for cid in facts["sheet"]]
    name_w = max(6, *(len(n) for n in names))
    col_w = max(9, *(len(c.label) for c in contracts))
    header = "Player".ljust(name_w) + "".join(c.label.rjust(col_w + 2) for c in contracts)
    header += "Total".rjust(7) + "Firsts".rjust(8)
    lines.append(header)
    lines.append("-" * len(header))
    redone = {(h.contract.id, h.declarer) for h in game.log if h.declared and h.declaration.redo}
    for seat, name in enumerate(names):
        row = name.ljust(name_w)
        for c in contracts:
            value = facts["sheet"][c.id][seat]
            points = facts["points"][c.id]
            cell = "-" if value is None else str(value)
            if (c.id, seat) in redone:
                cell += "r"
            if points is not None:
                cell += f" ({points[seat]:+d})"
            row += cell.rjust(col_w + 2)
        row += str(facts["totals"][seat]).rjust(7) + str(facts["firsts"][seat]).rjust(8)
        lines.append(row)
    if redone:
        lines.append("r: played again with a redo token; the better result is kept")
    lines.append("")
    if facts["complete"]:
        winners = [names[s] for s in facts["winners"]]
        if len(winners) == 1:
            lines.append(f"{winners[0]} wins.")
        else:
            lines.append(f"Shared win: {' and '.join(winners)}.")
    else:
        lines.append(f"Game in progress: {len(game.log)} hands so far.")
    return "\n".join(lines)
