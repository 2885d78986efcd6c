"""How well one expert seat declares beside two heuristic seats, measured against par.

Plays GAMES games of one expert against two heuristic seats (the expert's seat rotates), then
solves every hand from its deal: par is the declarer's counted tricks with perfect play by all.
Per contract and per side it prints how many hands each declared, their mean result, their mean
par, how far the result was from par for the declarer's side (negative: better than par, as
against real defenders it usually is) and the share declared from the puddle.  A declarer with
higher par in a Lose contract (lower in a Win one) chose, or was forced into, worse hands; one
with the same par but a worse result played them worse.

    .venv/bin/python scripts/declarers_against_par.py --set advanced --games 30 --seed diagB

``--hands N`` keeps only the first N hands of each game, ``--limit`` bounds the positions of one
par and ``--budget`` the expert's positions per decision (``ExpertAI.node_budget``): the smoke test
(tests/test_scripts.py) runs one hand of one game with small ones.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from multiprocessing import Pool

from stepping_stones.ai import ExpertAI, make_ai
from stepping_stones.ai.expert import NODE_BUDGET
from stepping_stones.ai.solver import SearchLimit, Solver, whole_hand_value
from stepping_stones.engine import CONTRACTS, Game, HandState, Rules
from stepping_stones.game.match import Seeds, drive

LIMIT = 3_000_000  # solver positions for one hand's par; a rare hand past it is left out


Job = tuple[str, str, int, int | None, int, int]  # seed, contract set, game number, hands, limit, budget


def play(job: Job) -> list[tuple[str, bool, bool, int, int | None]]:
    """One game: (contract id, declared by the expert, from the puddle, result, par) per hand."""
    seed, contract_set, number, hands, limit, budget = job
    seeds = Seeds.series(seed, number)
    game = Game(Rules(contract_set), first_forehand=seeds.first_forehand())
    seat = number % 3
    seats = [make_ai("heuristic")] * 3
    seats[seat] = ExpertAI(node_budget=budget)
    drive(game, seats, seeds, stop=None if hands is None else lambda g: len(g.log) > hands)
    out = []
    for hand in game.log[:hands]:  # the hand dealt past ``hands`` is not played
        d = hand.declaration
        state = HandState(hand.deal, hand.declarer, d.contract, d.ranking, d.trump)
        solver = Solver(d.contract, d.ranking, d.trump, hand.declarer)
        solver.limit = limit
        try:
            par: int | None = whole_hand_value(state, solver, hand.result)
        except SearchLimit:
            par = None
        out.append((d.contract.id, hand.declarer == seat, hand.puddle, hand.result, par))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="standard", choices=("standard", "advanced"))
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", default="diag")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hands", type=int, default=None, help="hands of each game (default: all)")
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"positions of one par (default {LIMIT:,})")
    parser.add_argument(
        "--budget", type=int, default=NODE_BUDGET, help=f"the expert's positions per decision (default {NODE_BUDGET:,})"
    )
    args = parser.parse_args()
    jobs: list[Job] = [(args.seed, args.set, n, args.hands, args.limit, args.budget) for n in range(args.games)]
    with Pool(args.workers) as pool:
        games = pool.map(play, jobs)
    rows: dict[tuple[str, str], list[tuple[bool, int, int | None]]] = defaultdict(list)
    for game in games:
        for contract, expert, puddle, result, par in game:
            rows[contract, "expert" if expert else "heuristic"].append((puddle, result, par))
    print(f"{'contract':16} {'declarer':9} {'hands':>5} {'result':>6} {'par':>5} {'vs par':>6} {'puddle':>6}")
    for (contract, side), hands in sorted(rows.items()):
        sign = 1 if CONTRACTS[contract].is_win else -1
        solved = [(r, p) for _, r, p in hands if p is not None]
        result = sum(r for _, r, _ in hands) / len(hands)
        par = sum(p for _, p in solved) / len(solved) if solved else float("nan")
        off = sum(sign * (p - r) for r, p in solved) / len(solved) if solved else float("nan")
        puddle = sum(1 for p, _, _ in hands if p) / len(hands)
        print(f"{contract:16} {side:9} {len(hands):5} {result:6.2f} {par:5.2f} {off:+6.2f} {puddle:6.0%}")


if __name__ == "__main__":
    main()
