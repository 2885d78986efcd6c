"""``stepping-stones simulate``: whole games between AI seats, without a screen."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..lab.simulate import SimulationResult, simulate
from ..storage.safety import escape
from .args import (
    MAX_COUNT,
    Subcommands,
    add_cluster_argument,
    add_json_flag,
    add_rules_arguments,
    check_count,
    command,
    command_rules,
    lab_levels_words,
    positive,
    print_result,
    refuse,
    run_work,
    seed,
    three_lab_levels,
)


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "simulate",
        run,
        help="play whole games between AI seats without a screen",
        description="Play whole games between three AI seats and report wins, points and results "
        "per contract. The same seed plays the same games, and the first game of a seed deals "
        "the cards of the app's game with that seed.",
    )
    p.add_argument(
        "--games",
        type=positive,
        required=True,
        help=f"number of games (at most {MAX_COUNT:,}; progress on standard error)",
    )
    p.add_argument(
        "--seats",
        type=three_lab_levels,
        required=True,
        metavar="LEVEL,LEVEL,LEVEL",
        help=f"the level of seats 0, 1 and 2 ({lab_levels_words()})",
    )
    add_rules_arguments(p)
    p.add_argument(
        "--seed",
        type=seed,
        required=True,
        help="seed of the deals and the AI seats (any text; the app shows its game's seed)",
    )
    add_json_flag(p)
    p.add_argument("--records", type=Path, metavar="DIR", help="write each game's record into DIR")
    add_cluster_argument(p, "game")


def run(args: argparse.Namespace) -> int:
    rules = command_rules(args, "simulate")
    check_count("simulate", "--games", args.games)
    if args.records is not None:
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return refuse(f"simulate: cannot write records into {escape(str(args.records))}: {e.strerror}")
    result = run_work(
        "simulate",
        args.games,
        "games",
        args.cluster,
        lambda runner, advance: simulate(args.seats, rules, args.games, args.seed, args.records, advance, runner),
        timeout=args.cluster_timeout,
    )
    return print_result(args.json, lambda: result, lambda: print_summary(result))


def print_summary(result: SimulationResult) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"{result.games} games ({result.rules.describe()}), seed {result.seed}, "
        f"{result.hands} hands, {result.seconds} s",
        markup=False,
    )
    seats = Table("seat", "level", "win rate", "mean points")
    for s, level in enumerate(result.seats):
        seats.add_row(str(s), level, f"{result.win_rate[s]:.1%}", f"{result.mean_points[s]:+.2f}")
    console.print(seats)
    table = Table("contract", "goal", "mean result, seats 0/1/2", "mean points, seats 0/1/2")
    table.columns[0].no_wrap = True
    for cid, data in result.per_contract.items():
        table.add_row(
            cid,
            data.goal,
            " / ".join("-" if r is None else f"{r:.2f}" for r in data.mean_result),
            " / ".join(f"{p:+.2f}" for p in data.mean_points),
        )
    console.print(table)
    if result.records is not None:
        console.print(f"records written to {result.records}", markup=False)
