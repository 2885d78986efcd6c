"""``stepping-stones tournament``: duplicate matches between two AI levels."""

from __future__ import annotations

import argparse

from ..engine import CONTRACTS
from ..lab.tournament import Side, TournamentResult, tournament
from .args import (
    MAX_COUNT,
    Subcommands,
    add_cluster_argument,
    add_json_flag,
    add_rules_arguments,
    check_count,
    command,
    command_rules,
    lab_level,
    lab_levels_words,
    not_negative,
    positive,
    print_result,
    refuse,
    run_work,
    seed,
)


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "tournament",
        run,
        help="duplicate matches between two AI levels",
        description="Play duplicate matches: the same deal sequences with the candidate in each seat "
        "in turn, alone against two baselines and two against one. Reports the candidate's mean game "
        "points with a 95% confidence interval, win rate and per-contract results.",
    )
    p.add_argument(
        "--candidate",
        type=lab_level,
        required=True,
        help=f"level tested ({lab_levels_words(', the ceiling of card play')})",
    )
    p.add_argument("--baseline", type=lab_level, required=True, help="level it plays against")
    p.add_argument(
        "--deals",
        type=positive,
        required=True,
        help="deal sets; each is played six times (3 x 1-vs-2, 3 x 2-vs-1), three with --only "
        f"(at most {MAX_COUNT:,}; progress on standard error)",
    )
    p.add_argument("--seed", type=seed, required=True, help="seed of the deals and the AI seats")
    add_rules_arguments(p)
    p.add_argument(
        "--defence",
        type=not_negative,
        default=0,
        metavar="HANDS",
        help=f"also compare the two levels' defence, HANDS deals per contract (at most {MAX_COUNT:,})",
    )
    p.add_argument(
        "--only",
        choices=("one-vs-two",),
        help="play only the one-against-two games (the JSON's two_vs_one is then null)",
    )
    add_json_flag(p)
    add_cluster_argument(p, "deal set")


def run(args: argparse.Namespace) -> int:
    rules = command_rules(args, "tournament")
    if args.candidate == args.baseline:
        return refuse(
            f"tournament: --candidate and --baseline are both {args.candidate}: a level against itself measures nothing"
        )
    check_count("tournament", "--deals", args.deals)
    check_count("tournament", "--defence", args.defence)
    sides: tuple[Side, ...] = ("one",) if args.only == "one-vs-two" else ("one", "two")
    result = run_work(
        "tournament",
        args.deals + args.defence * len(CONTRACTS),
        "deal sets",
        args.cluster,
        lambda runner, advance: tournament(
            args.candidate, args.baseline, args.deals, args.seed, rules, args.defence, advance, runner, sides
        ),
        timeout=args.cluster_timeout,
    )
    return print_result(args.json, result.to_json, lambda: print_summary(result))


def print_summary(result: TournamentResult) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"[b]{result.candidate}[/b] against [b]{result.baseline}[/b]: {result.deal_sets} deal sets, "
        f"{result.games_played} games, seed {result.seed}, {result.rules.describe()}",
        highlight=False,
    )
    for title, part in (
        ("one candidate against two baselines", result.one_vs_two),
        ("two candidates against one baseline", result.two_vs_one),
    ):
        if part is None:
            continue
        lo, hi = part.ci95
        win_lo, win_hi = part.win_rate_ci95
        console.print(
            f"\n{title}: {part.games} games, win rate {part.win_rate:.1%} ({win_lo:.1%} to {win_hi:.1%}), "
            f"mean points {part.mean_points:+.2f} (95% CI {lo:+.2f} to {hi:+.2f}), "
            f"baseline {part.baseline_mean_points:+.2f}"
        )
        table = Table("contract", "goal", "cand. result", "base. result", "cand. pts", "base. pts")
        table.columns[0].no_wrap = True
        for cid, d in part.per_contract.items():
            table.add_row(
                cid,
                d.goal,
                "-" if d.candidate_mean_result is None else f"{d.candidate_mean_result:.2f}",
                "-" if d.baseline_mean_result is None else f"{d.baseline_mean_result:.2f}",
                f"{d.candidate_mean_points:+.2f}",
                f"{d.baseline_mean_points:+.2f}",
            )
        console.print(table)
    if result.defence is not None:
        table = Table(
            "contract",
            "goal",
            "hands",
            f"vs {result.candidate} defenders",
            f"vs {result.baseline} defenders",
            "held better",
        )
        table.columns[0].no_wrap = True
        for cid, row in result.defence.items():
            table.add_row(
                cid,
                row.goal,
                str(row.hands),
                f"{row.declarer_vs_candidate_defenders:.2f}",
                f"{row.declarer_vs_baseline_defenders:.2f}",
                "yes" if row.candidate_defence_holds_better else "no",
            )
        console.print(f"\n{result.candidate} declaring, by defence:")
        console.print(table)
