"""``stepping-stones simulate``: whole games between AI seats, without a screen.

Every game is reproducible from ``(seed, game number)``: the deals come from
their own generator, so the same game number deals the same cards whoever sits
where (the tournament relies on it), and each seat decides with its own
generator.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from .ai import LEVELS, Agent, decide, make_ai
from .cli_args import add_rules_arguments, positive, rules_from_args
from .engine.contracts import Rules, RulesError
from .engine.game import Game, Phase


def play_game(
    agents: Sequence[Agent],
    rules: Rules,
    seed: int,
    number: int,
    players: Sequence[str] | None = None,
) -> Game:
    """Play game ``number`` of the series ``seed`` to its end and return it."""
    deals = Random(f"stepping-stones:{seed}:deals:{number}")
    first_forehand = deals.randrange(3)
    seat_rngs = [Random(f"stepping-stones:{seed}:seat{s}:{number}") for s in range(3)]
    names = tuple(players) if players else tuple(f"{a.name}-{s}" for s, a in enumerate(agents))
    game = Game(rules, names, first_forehand=first_forehand)
    while not game.over:
        if game.phase is Phase.DEAL:
            game.deal_hand(deals)
            continue
        seat = game.to_act
        action = decide(agents[seat], game.view(seat), seat_rngs[seat])
        if game.phase is Phase.BIDDING:
            game.bid(action)
        else:
            game.play(action)
    return game


@dataclass
class GameStats:
    """What one finished game says about each seat."""

    totals: list[int]
    wins: list[float]  # 1 for a sole winner, 1/k for k winners sharing the win
    points: dict[str, list[int]]  # contract id -> points per seat
    declared: list[tuple[str, int, int, bool]] = field(default_factory=list)
    # (contract id, declarer, result, redo) for every hand played

    @classmethod
    def of(cls, game: Game) -> GameStats:
        winners = game.winners()
        wins = [1.0 / len(winners) if s in winners else 0.0 for s in range(3)]
        points = {c.id: game.points(c.id) for c in game.rules.contracts}
        declared = [
            (h.declaration.contract, h.declarer, h.result, h.declaration.redo)
            for h in game.log
            if h.declaration is not None and h.result is not None
        ]
        return cls(game.totals(), wins, points, declared)


def _progress(total: int, description: str):
    """A rich progress bar on stderr (silent when stderr is not a terminal)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )


def simulate(
    levels: Sequence[str],
    rules: Rules,
    games: int,
    seed: int,
    records: Path | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Play ``games`` games with AI seats of ``levels``; the summary as a JSON-ready dict."""
    agents = [make_ai(level) for level in levels]
    wins = [0.0, 0.0, 0.0]
    totals = [0, 0, 0]
    per_contract: dict[str, dict[str, Any]] = {
        c.id: {"goal": c.goal.value, "results": [[], [], []], "points": [0, 0, 0]} for c in rules.contracts
    }
    hands = 0
    redos = 0
    start = time.perf_counter()
    bar = _progress(games, "games")
    with bar:
        task = bar.add_task("simulate", total=games)
        for number in range(games):
            game = play_game(agents, rules, seed, number)
            stats = GameStats.of(game)
            for s in range(3):
                wins[s] += stats.wins[s]
                totals[s] += stats.totals[s]
            for cid, pts in stats.points.items():
                for s in range(3):
                    per_contract[cid]["points"][s] += pts[s]
            for cid, declarer, result, redo in stats.declared:
                per_contract[cid]["results"][declarer].append(result)
                redos += redo
            hands += len(stats.declared)
            if records is not None:
                from .records import record_from_game, write_record

                write_record(records / f"game-{seed}-{number + 1:05d}.json", record_from_game(game))
            bar.advance(task)
    elapsed = time.perf_counter() - start
    contracts = {}
    for cid, data in per_contract.items():
        contracts[cid] = {
            "goal": data["goal"],
            "mean_result": [
                round(sum(r) / len(r), 3) if r else None for r in data["results"]
            ],
            "declared": [len(r) for r in data["results"]],
            "mean_points": [round(p / games, 3) for p in data["points"]],
        }
    return {
        "games": games,
        "seed": seed,
        "seats": list(levels),
        "rules": {
            "contract_set": rules.contract_set,
            "short_game": rules.short_game,
            "omit": rules.cut,
            "redo_tokens": rules.redo_tokens,
        },
        "win_rate": [round(w / games, 4) for w in wins],
        "mean_points": [round(t / games, 3) for t in totals],
        "hands": hands,
        "redos": redos,
        "per_contract": contracts,
        "records": str(records) if records is not None else None,
        "seconds": round(elapsed, 2),
    }


# --- the command ------------------------------------------------------------


def levels_arg(text: str) -> list[str]:
    levels = [t.strip() for t in text.split(",")]
    if len(levels) != 3:
        raise argparse.ArgumentTypeError("give exactly three levels, e.g. heuristic,random,random")
    for level in levels:
        if level not in LEVELS:
            raise argparse.ArgumentTypeError(f"unknown level {level!r} (choose {', '.join(LEVELS)})")
    return levels


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="play whole games between AI seats without a screen",
        description="Play whole games between three AI seats and report wins, points and results "
        "per contract. The same seed plays the same games.",
    )
    p.add_argument("--games", type=positive, required=True, help="number of games")
    p.add_argument("--seats", type=levels_arg, required=True, metavar="LEVEL,LEVEL,LEVEL",
                   help=f"the level of seats 0, 1 and 2 ({', '.join(LEVELS)})")
    add_rules_arguments(p)
    p.add_argument("--seed", type=int, required=True, help="seed of the deals and the AI seats")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--records", type=Path, metavar="DIR", help="write each game's record into DIR")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except RulesError as e:
        print(f"simulate: {e}", file=sys.stderr)
        return 2
    if args.records is not None:
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"simulate: cannot write records into {args.records}: {e.strerror}", file=sys.stderr)
            return 2
    result = simulate(args.seats, rules, args.games, args.seed, args.records)
    if args.json:
        print(json.dumps(result))
        return 0
    print_summary(result)
    return 0


def print_summary(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    rules = result["rules"]
    mode = rules["contract_set"] + (" short" if rules["short_game"] else "") + (" redo" if rules["redo_tokens"] else "")
    console.print(
        f"{result['games']} games ({mode}), seed {result['seed']}, "
        f"{result['hands']} hands, {result['seconds']} s"
    )
    seats = Table("seat", "level", "win rate", "mean points")
    for s, level in enumerate(result["seats"]):
        seats.add_row(str(s), level, f"{result['win_rate'][s]:.1%}", f"{result['mean_points'][s]:+.2f}")
    console.print(seats)
    table = Table("contract", "goal", "mean result, seats 0/1/2", "mean points, seats 0/1/2")
    table.columns[0].no_wrap = True
    for cid, data in result["per_contract"].items():
        table.add_row(
            cid, data["goal"],
            " / ".join("-" if r is None else f"{r:.2f}" for r in data["mean_result"]),
            " / ".join(f"{p:+.2f}" for p in data["mean_points"]),
        )
    console.print(table)
    if result["records"]:
        console.print(f"records written to {result['records']}")
