"""``stepping-stones analyse FILE [--json]``: par, the exact value after every card and the
mistakes of each hand of a game record."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .args import Subcommands, add_json_flag, add_record_file, command, game_from_file, print_result, progress_bar

if TYPE_CHECKING:
    from ..ai.analysis import HandAnalysis
    from ..engine import Game


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "analyse",
        run,
        help="analyse every hand of a game record with the exact solver: par and mistakes",
        description="For each declared hand of a game record (docs/records.md): its par (the "
        "declarer's counted tricks with perfect play from the deal, every card in view), the result, "
        "the exact value after every card, and each seat's mistakes -- the cards that cost their "
        "side tricks, with the cards that would have kept them; a card that was best on what its "
        "player could see (the hint's choice, or as good) is listed apart, not as a mistake. A "
        "record that breaks a rule is refused with exit status 2 and one line on standard error. "
        "Hard hands take seconds each.",
    )
    add_record_file(p)
    add_json_flag(p, 'print {"hands": [{"declarer", "contract", "count", "par", "dd_after", "mistakes"}]}')


def run(args: argparse.Namespace) -> int:
    from ..ai.analysis import analyse_game, analysis_json
    from .args import prepare_solver

    game = game_from_file(args.file)
    prepare_solver("analyse")
    bar, advance = progress_bar(sum(1 for h in game.log if h.declared), "hands", "analyse")
    with bar:
        analyses = analyse_game(game, advance)
    return print_result(args.json, lambda: analysis_json(analyses), lambda: print(render_text(game, analyses)))


def render_text(game: Game, analyses: list[HandAnalysis]) -> str:
    """The analysis for people, in the words of the app's hand summary and plain mode
    (``analysis_lines``: one wording, one numbering, "trick 5, card 2"), with up to three
    mistakes of each seat where the summary names its costliest."""
    from ..ai.analysis import analysis_lines, record_teller
    from ..storage.safety import escape

    names = [escape(n) for n in game.players]
    teller = record_teller(names)
    lines = []
    for a in analyses:
        hand = game.log[a.number - 1]
        declared = f"{teller.subject(a.declarer, 'declared')} {hand.declaration.describe()}"
        lines.append(f"Hand {a.number} against perfect play ({declared}):")
        lines.extend(f"  {line}" for line in analysis_lines(a, names, None, most=3))
    if not analyses:
        lines.append("No hand of this record has been declared yet.")
    return "\n".join(lines)
