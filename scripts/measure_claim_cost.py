"""What a claim's check costs (``ai.claims.judge``: the exact value, and for a claim that holds the
perfect line played out), in CPU time, on fresh random deals of every contract.

The script of docs/lab/2026-12-03-claim-cost.md, kept here: deal ``k`` of a run is drawn from
``random.Random(SEED)``, its contract goes round all seven in turn, and it gets a claim that
always holds (none in a Win contract, all in a Lose one), so the figure is the solve plus the
whole line.  Claims are made after 0, 3 and 6 random tricks.  The compiled core is loaded before
the first claim is timed (the time that took is printed on its own line).

    .venv/bin/python scripts/measure_claim_cost.py
    .venv/bin/python scripts/measure_claim_cost.py --deals 140 --seed 1207
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from stepping_stones.ai.claims import Claim, counted_left, judge
from stepping_stones.ai.solver import choose_core
from stepping_stones.engine import CONTRACTS, HandState, cards_of, deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=70, help="claims per row (default 70)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals (default 2026, the 3 Dec note's)")
    args = parser.parse_args()
    start = time.process_time()
    print(f"core: {choose_core()} (ready in {time.process_time() - start:.2f} s of CPU)")
    names = sorted(CONTRACTS)
    for tricks_done in (0, 3, 6):
        rng = random.Random(args.seed)
        times = []
        for k in range(args.deals):
            contract = CONTRACTS[names[k % len(names)]]
            hands, declarer, ranking = deal(rng), rng.randrange(3), rng.choice((1, 9))
            trump = rng.randrange(4) if contract.picks_trump else None
            state = HandState(hands, declarer, contract, ranking, trump)
            while len(state.winners) < tricks_done:
                state.push(rng.choice(list(cards_of(state.legal_mask()))))
            cpu = time.process_time()
            judge(state, Claim(state.turn, 0 if contract.is_win else counted_left(state)))
            times.append((time.process_time() - cpu, f"{contract.id}:{k}"))
        times.sort()
        ms = [t * 1e3 for t, _ in times]
        print(
            f"after {tricks_done} tricks: median {statistics.median(ms):7.1f} ms  "
            f"p90 {ms[round(0.9 * (len(ms) - 1))]:7.1f} ms  worst {ms[-1]:7.1f} ms ({times[-1][1]})"
        )


if __name__ == "__main__":
    main()
