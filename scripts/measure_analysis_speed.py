"""The analysis of one hand (``ai.analysis.analyse_hand``: par, the value after every card, the
mistakes), in CPU time, over the hands of seeded games of both contract sets.

Plays GAMES games per contract set of three heuristic seats (their hands have mistakes to
find, as a person's do), then times ``analyse_hand`` on every declared hand with
``time.process_time`` and prints, per contract set, the count, p50, p95 and max in milliseconds.
The solver is loaded (compiled, the first time) before the first hand is timed.

    .venv/bin/python scripts/measure_analysis_speed.py --games 2
    STEPPING_STONES_SOLVER=python .venv/bin/python scripts/measure_analysis_speed.py --games 1
"""

from __future__ import annotations

import argparse
import time

from stepping_stones.ai import make_ai
from stepping_stones.ai.analysis import analyse_hand
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
    args = parser.parse_args()
    start = time.process_time()
    print(f"core: {choose_core()} (ready in {time.process_time() - start:.2f} s of CPU)")
    for contract_set in ("standard", "advanced"):
        times = []
        for number in range(args.games):
            seeds = Seeds.series(f"{args.seed}:{contract_set}", number)
            game = Game(Rules(contract_set), first_forehand=seeds.first_forehand())
            drive(game, [make_ai("heuristic")] * 3, seeds)
            for hand in game.log[: args.hands]:
                if hand.declared:
                    cpu = time.process_time()
                    analyse_hand(hand)
                    times.append(time.process_time() - cpu)
        ms = [t * 1e3 for t in times]
        print(
            f"{contract_set:9} hands {len(ms):3}  p50 {percentile(ms, 0.5):8.1f} ms"
            f"  p95 {percentile(ms, 0.95):8.1f} ms  max {max(ms):8.1f} ms"
        )


if __name__ == "__main__":
    main()
