"""The analysis of one hand (``ai.analysis.analyse_hand``: par, the value after every card, the
mistakes), in CPU time, over the hands of seeded games of both contract sets.

Plays GAMES games per contract set of three heuristic seats (their hands have mistakes to
find, as a person's do), then times ``analyse_hand`` on every declared hand with
``time.process_time`` and prints, per contract set, the count, p50, p95 and max in milliseconds.
The solver is loaded (compiled, the first time) before the first hand is timed.

With ``--judged`` it times what a table server's web review works out for a finished game
(``net/reviews.py``): ``analyse_past`` with every seat's mistakes judged from its view
(``seen_by``), hand by hand, and prints each game's total too.

    .venv/bin/python scripts/measure_analysis_speed.py --games 2
    .venv/bin/python scripts/measure_analysis_speed.py --games 2 --judged
    STEPPING_STONES_SOLVER=python .venv/bin/python scripts/measure_analysis_speed.py --games 1
"""

from __future__ import annotations

import argparse
import time

from stepping_stones.ai import make_ai
from stepping_stones.ai.analysis import analyse_hand, analyse_past, seen_by
from stepping_stones.ai.solver import choose_core
from stepping_stones.engine import Game, Rules
from stepping_stones.game.match import Seeds, drive


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games per contract set (default 2)")
    parser.add_argument("--seed", default="analysis-speed")
    parser.add_argument("--hands", type=int, help="analyse only the first HANDS hands of each game")
    parser.add_argument("--judged", action="store_true", help="as the web review: analyse_past, every seat judged")
    args = parser.parse_args()
    start = time.process_time()
    print(f"core: {choose_core()} (ready in {time.process_time() - start:.2f} s of CPU)")
    for contract_set in ("standard", "advanced"):
        times = []
        games = []
        for number in range(args.games):
            seeds = Seeds.series(f"{args.seed}:{contract_set}", number)
            game = Game(Rules(contract_set), first_forehand=seeds.first_forehand())
            drive(game, [make_ai("heuristic")] * 3, seeds)
            view = game.view(0)
            seen = seen_by(view)
            start_game = len(times)
            for hand, past in list(zip(game.log, view.history, strict=False))[: args.hands]:
                if hand.declared:
                    cpu = time.process_time()
                    if args.judged:
                        analyse_past(past, seen=seen)
                    else:
                        analyse_hand(hand)
                    times.append(time.process_time() - cpu)
            games.append(sum(times[start_game:]))
        ms = [t * 1e3 for t in times]
        print(
            f"{contract_set:9} hands {len(ms):3}  p50 {percentile(ms, 0.5):8.1f} ms"
            f"  p95 {percentile(ms, 0.95):8.1f} ms  max {max(ms):8.1f} ms"
            + (f"  a game at most {max(games):6.2f} s" if args.judged else "")
        )


if __name__ == "__main__":
    main()
