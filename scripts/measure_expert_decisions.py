"""Every decision of one expert seat, in CPU time, by contract, over seeded games of both sets.

Plays GAMES games per contract set (standard and advanced) of one expert against two heuristic
seats (the expert's seat rotates), times each of its bids and cards with ``time.process_time``
and prints, per contract (bids under ``bidding``), the count, p50, p95 and max in milliseconds,
the solver positions of its card decisions (p50 and max), how many of them solved the whole
hand exactly (the rest searched to a horizon), and the opening leads and first-trick decisions
alone (the most expensive ones: twelve tricks to solve).

    .venv/bin/python scripts/measure_expert_decisions.py --games 2
    STEPPING_STONES_SOLVER=python .venv/bin/python scripts/measure_expert_decisions.py --games 1

``--json`` prints the figures as JSON; ``--budget`` sets the expert's positions per decision and
``--sets standard`` (or ``advanced``) plays one contract set only, ``--hands N`` the first N hands of
each game (the smoke test in tests/test_scripts.py).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from random import Random

from stepping_stones.ai import ExpertAI, make_ai
from stepping_stones.ai.base import forced_card
from stepping_stones.ai.expert import NODE_BUDGET
from stepping_stones.ai.solver import choose_core
from stepping_stones.engine import TRICKS, Bid, Card, PlayerView, Rules
from stepping_stones.game.match import Match, Seeds, drive

Row = tuple[str, str, int, float, int, bool]  # set, contract or "bidding", tricks left, CPU s, nodes, exact


class TimedExpert:
    """An expert seat whose every decision is timed (CPU) and described into ``rows``."""

    name = "expert"

    def __init__(self, expert: ExpertAI, contract_set: str, rows: list[Row]) -> None:
        self.expert = expert
        self.contract_set = contract_set
        self.rows = rows

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        cpu = time.process_time()
        bid = self.expert.choose_bid(view, rng)
        self.rows.append((self.contract_set, "bidding", TRICKS, time.process_time() - cpu, 0, False))
        return bid

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        cpu = time.process_time()
        forced = forced_card(view)
        if forced is not None:
            card, nodes, exact = forced, 0, True
        else:
            reckoning = self.expert.reckon_card(view, rng)
            card, nodes, exact = reckoning.chosen, reckoning.nodes, reckoning.exact
        spent = time.process_time() - cpu
        assert view.declaration is not None
        left = TRICKS - len(view.trick_winners)
        self.rows.append((self.contract_set, view.declaration.contract.id, left, spent, nodes, exact))
        return card


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def play(
    games: int, seed: str, budget: int, sets: tuple[str, ...] = ("standard", "advanced"), hands: int | None = None
) -> list[Row]:
    rows: list[Row] = []
    for number in range(games):
        for contract_set in sets:
            seeds = Seeds.series(f"{seed}:{contract_set}", number)
            seats: list[object] = [make_ai("heuristic") for _ in range(3)]
            seats[number % 3] = TimedExpert(ExpertAI(node_budget=budget), contract_set, rows)
            match = Match.new(Rules(contract_set), seats, seeds)  # type: ignore[arg-type]
            drive(match.game, match.seats, seeds, stop=None if hands is None else lambda g: len(g.log) > hands)
    return rows


def figures(rows: list[Row]) -> dict[str, dict[str, float]]:
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row[1]].append(row)
        if row[1] != "bidding":
            groups["all cards"].append(row)
            if row[2] == TRICKS:
                groups["first trick (all contracts)"].append(row)
                if row[1] == "may-trump":
                    groups["may-trump first trick"].append(row)
    out = {}
    for name, group in sorted(groups.items()):
        cpu = [r[3] * 1e3 for r in group]
        nodes = [r[4] for r in group]
        out[name] = {
            "decisions": len(group),
            "p50_ms": round(_q(cpu, 0.5), 1),
            "p95_ms": round(_q(cpu, 0.95), 1),
            "max_ms": round(max(cpu), 1),
            "nodes_p50": _q(nodes, 0.5),
            "nodes_max": max(nodes),
            "exact_share": round(sum(r[5] for r in group) / len(group), 3),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per contract set (default 2)")
    parser.add_argument("--seed", default="expert-decisions")
    parser.add_argument(
        "--budget", type=int, default=NODE_BUDGET, help=f"the expert's positions per decision (default {NODE_BUDGET:,})"
    )
    parser.add_argument("--sets", default="standard,advanced", help="contract sets (default both)")
    parser.add_argument("--hands", type=int, help="play only the first HANDS hands of each game")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = play(args.games, args.seed, args.budget, tuple(args.sets.split(",")), args.hands)
    table = figures(rows)
    if args.json:
        print(json.dumps({"core": choose_core(), "games_per_set": args.games, "figures": table}, indent=1))
        return
    print(f"core {choose_core()}, {args.games} game(s) per set, budget {args.budget:,} positions")
    print(
        f"{'contract':30} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'nodes p50':>10} "
        f"{'nodes max':>10} {'exact':>6}"
    )
    for name, f in table.items():
        print(
            f"{name:30} {f['decisions']:5} {f['p50_ms']:8.1f} {f['p95_ms']:8.1f} {f['max_ms']:8.1f} "
            f"{f['nodes_p50']:10,} {f['nodes_max']:10,} {f['exact_share']:6.0%}"
        )


if __name__ == "__main__":
    main()
