"""Play game 0 of a seed as ``simulate --games 1`` does, printing each hand as it ends.

For runs too slow to wait for (the expert against two ISMCTS seats at 1 s a decision on a
shared machine): what was played is known even if the run is cut short.  Each line: the hand,
its declarer's seat and level, the declaration, the count, the columns scored so far, and the
process's CPU time; at the end, the totals (the same game and totals as ``simulate``).

    python scripts/play_logged.py --seed os34-second --seats expert,ismcts-75,ismcts-75
"""

from __future__ import annotations

import argparse
import time

from stepping_stones.ai import make_lab_ai
from stepping_stones.engine import Game, Rules
from stepping_stones.game.match import Match, Seeds, drive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", required=True)
    parser.add_argument("--seats", required=True, help="three levels, as simulate --seats")
    args = parser.parse_args()
    levels = [t.strip() for t in args.seats.split(",")]
    agents = [make_lab_ai(level) for level in levels]
    seeds = Seeds.series(args.seed, 0)
    told = [0]

    def tell(game: Game) -> bool:
        """Print the hand that has just ended, if one has; never stops the game."""
        finished = [h for h in game.log if h.declared and h.finished]
        if len(finished) <= told[0]:
            return False
        told[0] = len(finished)
        hand = finished[-1]
        scored = {c.id: game.points(c.id) for c in game.rules.contracts if game.points(c.id) is not None}
        print(
            f"hand {hand.number}: seat {hand.declarer} ({levels[hand.declarer]}) declared "
            f"{hand.declaration}: {hand.result}; scored {scored}; cpu {time.process_time():.0f} s",
            flush=True,
        )
        return False

    match = Match.new(Rules("standard"), agents, seeds)
    game = drive(match.game, agents, seeds, stop=tell)
    tell(game)
    print(f"totals {game.totals()} for {levels}; cpu {time.process_time():.0f} s", flush=True)


if __name__ == "__main__":
    main()
