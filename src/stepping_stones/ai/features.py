"""A hand's shape and strength for one contract, ranking and trump, as numbers.

The bidding estimates a declarer's result as a weighted sum of these features
(weights per contract in ``model_data.py``, fitted by ``calibrate.py`` on hands the
heuristic seats played).  Every feature reads the hand under the ranking that
would be announced, so the 1 counts as the top card with 1 high.
"""

from __future__ import annotations

from ..engine.cards import FULL_DECK, STRENGTH

FEATURE_NAMES = (
    "bias",
    "side_tops",  # side-suit cards that win once the higher cards out are drawn
    "side_lows",  # side-suit cards that others cannot duck under for long
    "side_strength",  # sum of side-suit strengths, 1-9 each
    "side_high",  # side-suit cards of strength 8-9
    "side_low",  # side-suit cards of strength 1-2
    "voids",  # side suits held by no card
    "singletons",
    "side_length",  # side-suit cards beyond four in a suit
    "trumps",  # number of trumps
    "trump_tops",
    "trump_lows",
    "trump_strength",
    "short_with_trumps",  # voids and singletons beside three or more trumps
)


def features(hand: int, ranking: int, trump: int | None) -> list[float]:
    key = STRENGTH[ranking]
    out = FULL_DECK & ~hand
    f = [1.0] + [0.0] * (len(FEATURE_NAMES) - 1)
    short = 0
    for s in range(4):
        mine = sorted((key[c] for c in range(9 * s, 9 * s + 9) if hand >> c & 1), reverse=True)
        theirs = [key[c] for c in range(9 * s, 9 * s + 9) if out >> c & 1]
        n = len(mine)
        tops = 0
        for i, k in enumerate(mine):
            if sum(1 for t in theirs if t > k) <= i:
                tops += 1
        lows = 0
        for i, k in enumerate(reversed(mine)):
            if sum(1 for t in theirs if t < k) <= i:
                lows += 1
        strength = sum(mine)
        if s == trump:
            f[9] = n
            f[10] = tops
            f[11] = lows
            f[12] = strength
            continue
        f[1] += tops
        f[2] += lows
        f[3] += strength
        f[4] += sum(1 for k in mine if k >= 8)
        f[5] += sum(1 for k in mine if k <= 2)
        if n == 0:
            f[6] += 1
            short += 1
        elif n == 1:
            f[7] += 1
            short += 1
        f[8] += max(0, n - 4)
    if trump is not None and f[9] >= 3:
        f[13] = short
    return f
