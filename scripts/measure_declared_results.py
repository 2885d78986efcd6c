"""What heuristic seats record in each contract when they choose the moment themselves.

Plays GAMES games of three heuristic seats in each contract set and prints, per contract, how
many hands were declared (redos left out), the mean result and its spread: the figures of
``planning.OTHERS_USUAL``, what the expert expects another seat to record in a column where it
has not recorded yet.  Win Tricks (Pick Trump) is in both sets; its figures are over both.

    .venv/bin/python scripts/measure_declared_results.py --games 150 --seed heur-usual

The smoke test (tests/test_scripts.py) runs one game of each set.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

from stepping_stones.ai import make_ai
from stepping_stones.engine import CONTRACT_SETS, Rules
from stepping_stones.lab.simulate import GameStats, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games per contract set (default 150)")
    parser.add_argument("--seed", default="heur-usual", help="seed of the games (default heur-usual)")
    args = parser.parse_args()
    results: dict[str, list[int]] = defaultdict(list)
    for set_name in CONTRACT_SETS:
        for number in range(args.games):
            seats = [make_ai("heuristic") for _ in range(3)]
            stats = GameStats.of(play_game(seats, Rules(set_name), args.seed, number))
            for cid, _declarer, result, redo in stats.declared:
                if not redo:
                    results[cid].append(result)
    print(f"{'contract':16} {'hands':>5} {'mean':>5} {'sd':>5}")
    for cid, values in results.items():
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        print(f"{cid:16} {len(values):5} {mean:5.2f} {sd:5.2f}")


if __name__ == "__main__":
    main()
