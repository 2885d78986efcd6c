"""``stepping-stones analyse`` of whole games, process start included, in CPU time; and where
that time goes.

Plays GAMES games per contract set of three heuristic seats (seeded: their hands have mistakes
to find and to judge, as a person's do), writes each as a record in a temporary folder, then
runs ``stepping-stones analyse RECORD`` in a process of its own REPEAT times and takes the CPU
time that process used (user + system, from ``resource.getrusage`` of the children, never the
clock), the best of REPEAT.  Prints each game's CPU and, per contract set, the median and max.

With ``--phases`` it also splits one process's work per game, as ``analyse`` does it, in this
process (``time.process_time``): the exact analysis of every hand (``analyse_hand``: par, the
value after every card, the better cards of each mistake) and the judgement of each mistake on
what its player could see (``judge``: the expert's reckoning from that player's view), with the
solver positions of each; and once, the cost of loading the compiled solver.

    .venv/bin/python scripts/measure_analyse_game.py --games 3 --repeat 2 --phases
    .venv/bin/python scripts/measure_analyse_game.py --sets advanced --games 4 --phases

``--sets`` names the contract sets to play (both unless given), so that the set that misses its
target can be measured alone; the games of a set are the same with it or without it (each set's
seeds are its own).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stepping_stones.ai import make_ai
from stepping_stones.ai.analysis import analyse_hand, game_before, judge
from stepping_stones.ai.solver import Solver, say_while_loading
from stepping_stones.engine import Game, Rules
from stepping_stones.game.match import Seeds, drive
from stepping_stones.storage.records import record_from_game, write_record

CONTRACT_SETS = ("standard", "advanced")


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def analyse_cpu(record: Path) -> float:
    """The CPU seconds of one ``stepping-stones analyse RECORD`` process, start to end."""
    before = children_cpu()
    subprocess.run(
        [sys.executable, "-m", "stepping_stones", "analyse", str(record)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return children_cpu() - before


def phases(game: Game) -> tuple[float, int, float, int, int]:
    """``(analysis s, its positions, judgement s, its positions, mistakes judged)`` of a game."""
    made: list[Solver] = []
    analysis = judged = 0.0
    analysis_nodes = mistakes = 0
    judge_nodes = [0]
    original = Solver.card_values

    def counted(self: Solver, *args: object, **kwargs: object) -> dict[int, int]:
        start = self.nodes
        try:
            return original(self, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            judge_nodes[0] += self.nodes - start

    for i, hand in enumerate(game.log):
        if not hand.declared:
            continue
        cpu = time.process_time()
        found = analyse_hand(hand, watch=made.append)
        analysis += time.process_time() - cpu
        analysis_nodes += made[-1].nodes
        mistakes += len(found.mistakes)
        before = game_before(game.rules, game.players, game.log[: i + 1])
        Solver.card_values = counted  # type: ignore[method-assign]
        try:
            cpu = time.process_time()
            judge(found, before, hand, (0, 1, 2))
            judged += time.process_time() - cpu
        finally:
            Solver.card_values = original  # type: ignore[method-assign]
    return analysis, analysis_nodes, judged, judge_nodes[0], mistakes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games per contract set (default 2)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of analyse per game, the best kept (default 1)")
    parser.add_argument("--seed", default="analyse-game")
    parser.add_argument("--phases", action="store_true", help="also split each game's work in this process")
    parser.add_argument(
        "--sets",
        nargs="+",
        choices=CONTRACT_SETS,
        default=list(CONTRACT_SETS),
        help="the contract sets to play (default: both)",
    )
    args = parser.parse_args()
    if args.phases:
        cpu = time.process_time()
        say_while_loading(lambda text: print(text, file=sys.stderr))
        print(f"the compiled solver loaded in {time.process_time() - cpu:.2f} s of CPU (its imports included)")
    with tempfile.TemporaryDirectory() as folder:
        for contract_set in args.sets:
            times = []
            for number in range(args.games):
                seeds = Seeds.series(f"{args.seed}:{contract_set}", number)
                game = Game(Rules(contract_set), first_forehand=seeds.first_forehand())
                drive(game, [make_ai("heuristic")] * 3, seeds)
                record = Path(folder) / f"{contract_set}-{number}.json"
                write_record(record, record_from_game(game))
                cpu = min(analyse_cpu(record) for _ in range(args.repeat))
                times.append(cpu)
                line = f"{contract_set:9} game {number + 1:2}  analyse {cpu:6.2f} s"
                if args.phases:
                    analysis, a_nodes, judged, j_nodes, mistakes = phases(game)
                    line += (
                        f"  (analysis {analysis:5.2f} s, {a_nodes:,} positions;"
                        f" judgement of {mistakes} mistakes {judged:5.2f} s, {j_nodes:,} positions)"
                    )
                print(line, flush=True)
            median = statistics.median(times)
            print(f"{contract_set:9} games {len(times):2}  median {median:6.2f} s  max {max(times):6.2f} s")


if __name__ == "__main__":
    main()
