"""``stepping-stones bench [--json]``: the engine's and the AI seats' speed on this machine."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..ai import LEVELS
from .args import Subcommands, add_json_flag, command, level, positive, print_result

if TYPE_CHECKING:
    from ..lab.speed import BenchResult


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "bench",
        run,
        help="measure the engine's and the computer players' speed on this machine",
        description="Play random hands through the engine core and report hands per second, "
        "the cost of copying and undoing a hand state, how long each AI level takes to decide (the "
        "expert in both contract sets), how long the exact solver takes with 6, 8, 10 and 12 tricks "
        "left, and how many positions it searches per second; times in CPU time and on the wall clock.",
    )
    add_json_flag(p)
    p.add_argument("--hands", type=positive, default=20_000, help="random hands per run (default 20000)")
    p.add_argument("--repeats", type=positive, default=3, help="runs; the best one counts (default 3)")
    p.add_argument(
        "--solver-positions",
        type=positive,
        metavar="N",
        help="positions solved per number of tricks left (default 100, 50, 20 and 10 for 6, 8, 10 and 12 tricks)",
    )
    p.add_argument(
        "--decision-games",
        type=positive,
        default=4,
        metavar="N",
        help="games timed per AI level (default 4; the expert plays two at most, one per contract set)",
    )
    p.add_argument(
        "--levels",
        type=level_list,
        metavar="L,L",
        help=f"AI levels whose decisions are timed (default all: {','.join(LEVELS)})",
    )


def level_list(text: str) -> list[str]:
    """An argparse type: AI levels separated by commas."""
    return [level(t.strip()) for t in text.split(",")]


def run(args: argparse.Namespace) -> int:
    from ..lab.speed import SOLVER_TRICKS, bench
    from .args import prepare_solver

    prepare_solver("bench")
    positions = None if args.solver_positions is None else dict.fromkeys(SOLVER_TRICKS, args.solver_positions)
    levels = list(LEVELS) if args.levels is None else args.levels
    steps = 2 + len(levels) + len(SOLVER_TRICKS)  # as bench() tells them
    done = [0]

    def step(what: str) -> None:
        done[0] += 1
        print(f"bench: {done[0]} of {steps}: {what}", file=sys.stderr, flush=True)

    result = bench(args.hands, args.repeats, positions, args.decision_games, levels, step)
    return print_result(args.json, lambda: result, lambda: print_bench(result))


def print_bench(result: BenchResult) -> None:
    print(f"random hands per second : {result.random_hands_per_s:,}")
    print(f"hand state copy         : {result.state_copy_us} µs")
    print(f"push + pop of one card  : {result.push_pop_us} µs")
    print("(CPU time first: a busy machine does not inflate it; the wall clock after it)")
    for name, figures in result.ai_decision_cpu_ms.items():
        wall = result.ai_decision_ms[name]
        sets = " and ".join(result.ai_decision_sets[name])
        print(
            f"AI decision, {name:<11}: "
            + ", ".join(f"{k} {v} ms" for k, v in figures.items())
            + "  (wall "
            + ", ".join(f"{k} {v} ms" for k, v in wall.items())
            + f"; {sets} set)"
        )
    for tricks, figures in result.solver_cpu_ms.items():
        wall = result.solver_ms[tricks]
        print(
            f"exact solve, {tricks:>2} tricks : "
            + ", ".join(f"{k} {v} ms" for k, v in figures.items())
            + "  (wall "
            + ", ".join(f"{k} {v} ms" for k, v in wall.items())
            + ")"
        )
    print(f"solver positions per CPU second: {result.solver_positions_per_cpu_s:,}")
