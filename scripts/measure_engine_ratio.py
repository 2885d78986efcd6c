"""The engine core's speed against a plain bitmask loop, timed side by side in one process.

The plain loop is what a first version without an engine would write: shuffle a list, three
masks, standard follow (led suit if held), ``rng.choice`` among the legal cards, the winner by a
comparison per card.  The engine side is ``stepping-stones bench``'s ``random_hands`` (all seven
contracts, both rankings).  Runs alternate, best of five each, so a busy machine hurts both alike.

Run from the repository: ``python scripts/measure_engine_ratio.py``.
"""

import argparse
import time
from random import Random

from stepping_stones.lab.speed import random_hands

SUIT = [0x1FF << (9 * s) for s in range(4)]


def plain_hands(hands: int, seed: int) -> float:
    rng = Random(seed)
    deck = list(range(36))
    start = time.perf_counter()
    for i in range(hands):
        rng.shuffle(deck)
        held = [0, 0, 0]
        for k, c in enumerate(deck):
            held[k // 12] |= 1 << c
        leader = i % 3
        for _ in range(12):
            led = -1
            best = -1
            winner = leader
            for k in range(3):
                seat = (leader + k) % 3
                hand = held[seat]
                legal = hand & SUIT[led] if led >= 0 and hand & SUIT[led] else hand
                card = rng.choice([c for c in range(36) if legal >> c & 1])
                held[seat] ^= 1 << card
                if led < 0:
                    led = card // 9
                if card // 9 == led and card > best:
                    best, winner = card, seat
            leader = winner
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per run (default 5000)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each; the best counts (default 5)")
    args = parser.parse_args()
    n = args.hands
    engine, plain = [], []
    for r in range(args.runs):
        engine.append(random_hands(n, seed=r).seconds)
        plain.append(plain_hands(n, seed=r))
    e, p = n / min(engine), n / min(plain)
    print(f"engine {e:,.0f} hands/s, plain loop {p:,.0f} hands/s, ratio {e / p:.2f}")


if __name__ == "__main__":
    main()
