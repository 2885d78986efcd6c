"""CPU time per decision of the lab's ismcts seat, over whole games against two heuristic seats.

The budget of ``ismcts`` counts simulations; this finds how many take about a second of CPU per
decision on this machine (docs/lab/2026-12-03-openspiel-ismcts.md).  Only decisions with a
choice are timed (a single legal bid or card is played at once).  Game ``n`` puts the ismcts
seat in seat ``n % 3``; its deals come from the seed ``SEED-n``.

    python scripts/measure_ismcts_decisions.py --simulations 20 --games 1
"""

from __future__ import annotations

import argparse
import time

from stepping_stones.ai import decide, make_ai, make_lab_ai
from stepping_stones.engine import Game, Phase, PlayerView, Rules
from stepping_stones.game.match import Seeds


def has_choice(view: PlayerView) -> bool:
    if view.phase is Phase.BIDDING:
        return len(view.legal_bids) > 1
    return bool(view.legal_cards & (view.legal_cards - 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", default="ostime", help="the seeds of the games: SEED-0, SEED-1, ...")
    args = parser.parse_args()
    times: list[float] = []
    for n in range(args.games):
        seeds = Seeds(f"{args.seed}-{n}")
        game = Game(Rules("standard"), first_forehand=seeds.first_forehand())
        agent, others = make_lab_ai(f"ismcts-{args.simulations}"), make_ai("heuristic")
        while not game.over:
            if game.phase is Phase.DEAL:
                game.deal_hand(seeds.deal(len(game.log) + 1))
                continue
            seat = game.to_act
            assert seat is not None
            view, rng = game.view(seat), seeds.decision(game, seat)
            if seat != n % 3:
                game.push(decide(others, view, rng))
                continue
            start = time.process_time()
            action = decide(agent, view, rng)
            if has_choice(view):
                times.append(time.process_time() - start)
            game.push(action)
        print(f"game {n}: ismcts in seat {n % 3}, totals {game.totals()}", flush=True)
    print(
        f"{args.simulations} simulations: {len(times)} decisions, mean {sum(times) / len(times):.3f} s "
        f"of CPU, max {max(times):.3f} s"
    )


if __name__ == "__main__":
    main()
