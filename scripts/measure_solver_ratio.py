"""Time the exact solver beside a plain memoised minimax on the same positions.

The positions are drawn as ``stepping-stones bench`` draws them (``lab.speed.solver_position``:
a random deal, contract, ranking and trump, then random legal cards up to the trick).  The
plain minimax plays every legal card on the engine's ``HandState`` and remembers the value of
each position it has finished (the hands, the leader and the cards of the current trick): no
pruning, no bounds, no equivalent cards.  Both must give the same number for every position;
the script reports the median CPU time (``time.process_time``) of each and the ratio of the
medians.  The solver's core is loaded (compiled, the first time) before the first position.

Each position's solver is made fresh and timed right after the minimax of the one before, so
its figure includes making the solver with the processor's caches cold from half a second of
the minimax (docs/lab/2026-12-08-solver-cold-start.md: most of it).  The script then solves
the same positions again, a fresh solver each, in a loop of solves alone (as a caller that
makes many solves does; the setup each contract shares is made by then), and prints that
median and its ratio too ("own loop").

    .venv/bin/python scripts/measure_solver_ratio.py            # 40 positions, 6 tricks left
    .venv/bin/python scripts/measure_solver_ratio.py --tricks 5 --positions 100
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random

from stepping_stones.ai.solver import Solver, choose_core, position
from stepping_stones.engine import HandState, cards_of
from stepping_stones.lab.speed import solver_position


def plain_memoised_minimax(state: HandState) -> int:
    """The declarer's counted tricks from ``state`` to the end, with best play by all."""
    declarer = state.declarer
    wants_more = {s: (s == declarer) == state.contract.is_win for s in range(3)}
    counted = state.contract.counted_mask
    memo: dict[tuple[int, int, int, int, tuple[int, ...]], int] = {}

    def future() -> int:
        if state.finished:
            return 0
        trick = tuple(c for _, c in state.current_trick())
        key = (state.hands[0], state.hands[1], state.hands[2], state.leader, trick)
        known = memo.get(key)
        if known is not None:
            return known
        maximise = wants_more[state.turn]
        best = -1 if maximise else 99
        number = len(state.winners)
        for card in cards_of(state.legal_mask()):
            state.push(card)
            won = 1 if len(state.winners) > number and state.winners[-1] == declarer and counted >> number & 1 else 0
            value = won + future()
            state.pop()
            best = max(best, value) if maximise else min(best, value)
        memo[key] = best
        return best

    return future()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tricks", type=int, default=6, help="tricks left in each position (default 6)")
    parser.add_argument("--positions", type=int, default=40, help="positions timed (default 40)")
    parser.add_argument("--seed", default="ratio", help="seed of the positions")
    args = parser.parse_args()
    print(f"core: {choose_core()}")
    rng = Random(f"solver-ratio:{args.seed}:{args.tricks}")
    solver_times = []
    plain_times = []
    positions = []
    for _ in range(args.positions):
        state = solver_position(rng, args.tricks)
        hands, leader, trick = position(state)
        start = time.process_time()
        fast = Solver(state.contract, state.ranking, state.trump, state.declarer).value(hands, leader, trick)
        solver_times.append(time.process_time() - start)
        start = time.process_time()
        slow = plain_memoised_minimax(state)
        plain_times.append(time.process_time() - start)
        if fast != slow:
            raise SystemExit(f"the solver says {fast}, the minimax {slow}: {state.contract.id}, {hands}, {leader}")
        positions.append((state, hands, leader, trick, fast))
    alone_times = []
    for state, hands, leader, trick, fast in positions:
        start = time.process_time()
        again = Solver(state.contract, state.ranking, state.trump, state.declarer).value(hands, leader, trick)
        alone_times.append(time.process_time() - start)
        if again != fast:
            raise SystemExit(f"the solver says {fast}, then {again}: {state.contract.id}, {hands}, {leader}")
    fast_ms = statistics.median(solver_times) * 1e3
    alone_ms = statistics.median(alone_times) * 1e3
    slow_ms = statistics.median(plain_times) * 1e3
    print(f"{args.positions} positions, {args.tricks} tricks left; the same value from both every time")
    print(f"solver p50          : {fast_ms:.3f} ms")
    print(f"plain minimax p50   : {slow_ms:.1f} ms")
    print(f"ratio of the medians: {slow_ms / fast_ms:.0f}x")
    print(f"solver p50, own loop: {alone_ms:.3f} ms (ratio {slow_ms / alone_ms:.0f}x)")


if __name__ == "__main__":
    main()
