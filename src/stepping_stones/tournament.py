"""``stepping-stones tournament``: duplicate matches between two AI levels.

Each *deal set* is one game's sequence of deals (and its first forehand).
It is played six times: the candidate alone against two baselines, once in
each seat, and two candidates against one baseline, the baseline in each seat.
Luck of the cards cancels out, so fewer games tell the levels apart.

The headline figures are the candidate's, from the one-against-two games:
mean game points per game with a 95% confidence interval (over deal sets, as
their three games share their cards), win rate (a shared win counts as a
share), and per contract the results and points on each side.  The same seed
gives the same numbers; the work is spread over two processes.

``--defence HANDS`` adds a controlled table: for each contract, ``HANDS``
deals are declared by the candidate (in the seat whose hand suits the contract
best, with the ranking and trump its bidding would choose) and played twice,
against two candidate defenders and against two baseline defenders.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any

from .ai import LEVELS, make_ai
from .cli_args import add_rules_arguments, positive, rules_from_args
from .engine.cards import deal
from .engine.contracts import CONTRACTS, Goal, Rules, RulesError
from .engine.game import Bid, Game, Phase
from .simulate import GameStats, _progress, play_game

WORKERS = 2
_Z95 = 1.959964


def _seatings(candidate: str, baseline: str) -> list[tuple[str, tuple[str, str, str], int]]:
    """(match, seat levels, the odd seat) for the six games of one deal set."""
    games = []
    for odd in range(3):
        games.append(("one", tuple(candidate if s == odd else baseline for s in range(3)), odd))
    for odd in range(3):
        games.append(("two", tuple(baseline if s == odd else candidate for s in range(3)), odd))
    return games


def play_deal_set(job: tuple[str, str, Rules, int, int]) -> list[dict[str, Any]]:
    """The six games of deal set ``number``, each as plain data."""
    candidate, baseline, rules, seed, number = job
    out = []
    for match, levels, odd in _seatings(candidate, baseline):
        agents = [make_ai(level) for level in levels]
        stats = GameStats.of(play_game(agents, rules, seed, number))
        out.append({
            "match": match,
            "candidate_seats": [s for s in range(3) if levels[s] == candidate and (match == "one") == (s == odd)],
            "totals": stats.totals,
            "wins": stats.wins,
            "points": stats.points,
            "declared": stats.declared,
        })
    return out


def _mean_ci(values: list[float]) -> tuple[float, list[float]]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, [mean, mean]
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = _Z95 * math.sqrt(var / n)
    return mean, [mean - half, mean + half]


def _summarise(sets: list[list[dict[str, Any]]], match: str, rules: Rules) -> dict[str, Any]:
    games = 0
    cand_points: list[float] = []  # per game, mean over the candidate seats
    base_points: list[float] = []
    per_set: list[float] = []
    wins = 0.0
    contracts = {
        c.id: {"cand_results": [], "base_results": [], "cand_points": 0.0, "base_points": 0.0}
        for c in rules.contracts
    }
    for games_of_set in sets:
        set_points = []
        for g in games_of_set:
            if g["match"] != match:
                continue
            games += 1
            cand = g["candidate_seats"]
            base = [s for s in range(3) if s not in cand]
            cp = sum(g["totals"][s] for s in cand) / len(cand)
            bp = sum(g["totals"][s] for s in base) / len(base)
            cand_points.append(cp)
            base_points.append(bp)
            set_points.append(cp)
            wins += sum(g["wins"][s] for s in cand)
            for cid, pts in g["points"].items():
                contracts[cid]["cand_points"] += sum(pts[s] for s in cand) / len(cand)
                contracts[cid]["base_points"] += sum(pts[s] for s in base) / len(base)
            for cid, declarer, result, _redo in g["declared"]:
                key = "cand_results" if declarer in cand else "base_results"
                contracts[cid][key].append(result)
        per_set.append(sum(set_points) / len(set_points))
    mean, ci = _mean_ci(per_set)

    def avg(xs: list[int]) -> float | None:
        return round(sum(xs) / len(xs), 3) if xs else None

    per_contract = {
        cid: {
            "goal": CONTRACTS[cid].goal.value,
            "candidate_mean_result": avg(d["cand_results"]),
            "baseline_mean_result": avg(d["base_results"]),
            "candidate_declared": len(d["cand_results"]),
            "baseline_declared": len(d["base_results"]),
            "candidate_mean_points": round(d["cand_points"] / games, 3),
            "baseline_mean_points": round(d["base_points"] / games, 3),
        }
        for cid, d in contracts.items()
    }
    return {
        "games": games,
        "win_rate": round(wins / games, 4),
        "mean_points": round(mean, 3),
        "ci95": [round(ci[0], 3), round(ci[1], 3)],
        "baseline_mean_points": round(sum(base_points) / games, 3),
        "per_contract": per_contract,
    }


def _pool(jobs: list, fn, description: str, progress: bool) -> list:
    results = []
    bar = _progress(len(jobs), description)
    with bar, ProcessPoolExecutor(max_workers=WORKERS) as pool:
        task = bar.add_task(description, total=len(jobs))
        for r in pool.map(fn, jobs, chunksize=max(1, min(8, len(jobs) // (4 * WORKERS)))):
            results.append(r)
            bar.advance(task)
    return results


def tournament(candidate: str, baseline: str, deals: int, seed: int, rules: Rules,
               defence: int = 0) -> dict[str, Any]:
    """Run the duplicate match; the summary as a JSON-ready dict."""
    jobs = [(candidate, baseline, rules, seed, d) for d in range(deals)]
    sets = _pool(jobs, play_deal_set, "deal sets", True)
    result: dict[str, Any] = {
        "candidate": candidate,
        "baseline": baseline,
        "seed": seed,
        "deal_sets": deals,
        "rules": {"contract_set": rules.contract_set, "short_game": rules.short_game,
                  "omit": rules.cut, "redo_tokens": rules.redo_tokens},
        "games_played": 6 * deals,
    }
    result.update(_summarise(sets, "one", rules))
    result["two_vs_one"] = _summarise(sets, "two", rules)
    if defence:
        result["defence"] = defence_table(candidate, baseline, defence, seed, rules)
    return result


# --- the defence table ------------------------------------------------------------


def play_defence_hand(job: tuple[str, str, str, int, int]) -> tuple[int, int]:
    """One deal of ``contract_id`` declared by ``declarer_level``; its result against both defences."""
    from .ai.bidding import BidChooser

    contract_id, declarer_level, baseline, seed, number = job
    contract = CONTRACTS[contract_id]
    rng = Random(f"stepping-stones:{seed}:defence:{contract_id}:{number}")
    cards = deal(rng)
    set_name = "standard" if contract_id in Rules("standard").contract_ids else "advanced"
    rules = Rules(set_name)
    # The seat whose hand suits the contract best declares it, as it would bid it.
    best = None
    for seat in range(3):
        probe = Game(rules, first_forehand=seat)
        probe.start_hand(cards)
        value, ranking, trump = BidChooser(probe.view(seat)).best_declaration(contract)
        key = value if contract.goal is Goal.WIN else -value
        if best is None or key > best[0]:
            best = (key, seat, ranking, trump)
    _, declarer, ranking, trump = best
    results = []
    for defender_level in (declarer_level, baseline):
        agents = [make_ai(declarer_level if s == declarer else defender_level) for s in range(3)]
        seat_rngs = [Random(f"stepping-stones:{seed}:defence-seat{s}:{number}") for s in range(3)]
        game = Game(rules, first_forehand=declarer)
        game.start_hand(cards)
        game.bid(Bid(contract_id, ranking, trump))
        while game.phase is Phase.PLAY:
            seat = game.to_act
            game.play(agents[seat].choose_card(game.view(seat), seat_rngs[seat]))
        results.append(game.hand.result)
    return results[0], results[1]


def defence_table(candidate: str, baseline: str, hands: int, seed: int, rules: Rules) -> dict[str, Any]:
    contract_ids = list(CONTRACTS)
    jobs = [(cid, candidate, baseline, seed, n) for cid in contract_ids for n in range(hands)]
    results = _pool(jobs, play_defence_hand, "defence hands", True)
    table = {}
    for i, cid in enumerate(contract_ids):
        rows = results[i * hands:(i + 1) * hands]
        own = sum(r[0] for r in rows) / hands
        other = sum(r[1] for r in rows) / hands
        win = CONTRACTS[cid].goal is Goal.WIN
        table[cid] = {
            "goal": CONTRACTS[cid].goal.value,
            "hands": hands,
            "declarer_vs_candidate_defenders": round(own, 3),
            "declarer_vs_baseline_defenders": round(other, 3),
            "candidate_defence_holds_better": (own < other) if win else (own > other),
        }
    return table


# --- the command ------------------------------------------------------------------


def level_arg(text: str) -> str:
    if text not in LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {text!r} (choose {', '.join(LEVELS)})")
    return text


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tournament",
        help="duplicate matches between two AI levels",
        description="Play duplicate matches: the same deal sequences with the candidate in each seat "
        "in turn, alone against two baselines and two against one. Reports the candidate's mean game "
        "points with a 95% confidence interval, win rate and per-contract results.",
    )
    p.add_argument("--candidate", type=level_arg, required=True, help=f"level tested ({', '.join(LEVELS)})")
    p.add_argument("--baseline", type=level_arg, required=True, help="level it plays against")
    p.add_argument("--deals", type=positive, required=True,
                   help="deal sets; each is played six times (3 x 1-vs-2, 3 x 2-vs-1)")
    p.add_argument("--seed", type=int, required=True, help="seed of the deals and the AI seats")
    add_rules_arguments(p)
    p.add_argument("--defence", type=int, default=0, metavar="HANDS",
                   help="also compare the two levels' defence, HANDS deals per contract")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except RulesError as e:
        print(f"tournament: {e}", file=sys.stderr)
        return 2
    if args.defence < 0:
        print("tournament: --defence must be 0 or more", file=sys.stderr)
        return 2
    result = tournament(args.candidate, args.baseline, args.deals, args.seed, rules, args.defence)
    if args.json:
        print(json.dumps(result))
        return 0
    print_summary(result)
    return 0


def print_summary(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"[b]{result['candidate']}[/b] against [b]{result['baseline']}[/b]: {result['deal_sets']} deal sets, "
        f"{result['games_played']} games, seed {result['seed']}"
    )
    for title, part in (("one candidate against two baselines", result),
                        ("two candidates against one baseline", result["two_vs_one"])):
        lo, hi = part["ci95"]
        console.print(
            f"\n{title}: {part['games']} games, win rate {part['win_rate']:.1%}, "
            f"mean points {part['mean_points']:+.2f} (95% CI {lo:+.2f} to {hi:+.2f}), "
            f"baseline {part['baseline_mean_points']:+.2f}"
        )
        table = Table("contract", "goal", "cand. result", "base. result", "cand. pts", "base. pts")
        table.columns[0].no_wrap = True
        for cid, d in part["per_contract"].items():
            table.add_row(
                cid, d["goal"],
                "-" if d["candidate_mean_result"] is None else f"{d['candidate_mean_result']:.2f}",
                "-" if d["baseline_mean_result"] is None else f"{d['baseline_mean_result']:.2f}",
                f"{d['candidate_mean_points']:+.2f}", f"{d['baseline_mean_points']:+.2f}",
            )
        console.print(table)
    if "defence" in result:
        table = Table("contract", "goal", "hands", f"vs {result['candidate']} defenders",
                      f"vs {result['baseline']} defenders", "held better")
        table.columns[0].no_wrap = True
        for cid, d in result["defence"].items():
            table.add_row(cid, d["goal"], str(d["hands"]),
                          f"{d['declarer_vs_candidate_defenders']:.2f}",
                          f"{d['declarer_vs_baseline_defenders']:.2f}",
                          "yes" if d["candidate_defence_holds_better"] else "no")
        console.print(f"\n{result['candidate']} declaring, by defence:")
        console.print(table)
