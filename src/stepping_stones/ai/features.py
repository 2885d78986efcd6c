"""A hand's shape and strength for one contract, ranking and trump, as named numbers.

The bidding estimates a declarer's result as a weighted sum of these features
(weights per contract and per feature name in ``model.json``, fitted by
``stepping-stones calibrate`` on hands the heuristic seats played).  Every
feature reads the hand under the ranking that would be announced, so the 1
counts as the top card with 1 high.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from ..engine import NUM_SUITS, STRENGTH, SUIT_SIZE, Mask

HIGH_STRENGTH = 8  # strength 8-9: the two top cards of a suit
LOW_STRENGTH = 2  # strength 1-2: the two bottom cards of a suit
LONG_SUIT = 4  # cards of a side suit beyond this many count as length
TRUMPS_FOR_RUFFING = 3  # short side suits help only beside at least this many trumps
SUIT_BITS = (1 << SUIT_SIZE) - 1  # a suit's cards, as bits of a hand shifted to its first card


class Features(NamedTuple):
    bias: float = 1.0
    side_tops: float = 0.0  # side-suit cards that win once the higher cards out are drawn
    side_lows: float = 0.0  # side-suit cards that others cannot duck under for long
    side_strength: float = 0.0  # sum of side-suit strengths, 1-9 each
    side_high: float = 0.0  # side-suit cards of strength 8-9
    side_low: float = 0.0  # side-suit cards of strength 1-2
    voids: float = 0.0  # side suits held by no card
    singletons: float = 0.0
    side_length: float = 0.0  # side-suit cards beyond four in a suit
    trumps: float = 0.0  # number of trumps
    trump_tops: float = 0.0
    trump_lows: float = 0.0
    trump_strength: float = 0.0
    short_with_trumps: float = 0.0  # voids and singletons beside three or more trumps


FEATURE_NAMES: tuple[str, ...] = Features._fields


def features(hand: Mask, ranking: int, trump: int | None) -> Features:
    """The features of ``hand`` declared with ``ranking`` and ``trump``.

    >>> from stepping_stones.engine import mask_of, parse_card
    >>> f = features(mask_of(parse_card(t) for t in "K9 K8 K7 K6 C1 C2 C3 L1 L2 L3 B1 B2".split()), 9, 1)
    >>> f.trumps, f.trump_tops, f.voids
    (4, 4, 0.0)
    """
    return Features(*trump_features(hand, ranking)[0 if trump is None else trump + 1])


@lru_cache(maxsize=256)
def trump_features(hand: Mask, ranking: int) -> tuple[tuple[float, ...], ...]:
    """The items of ``features(hand, ranking, trump)`` for every trump, as plain tuples (a
    ``Features`` costs a call to make): no trump first, then trumps 0 to 3.  The bidding's
    weighing of layouts asks for each hand that passed once for every contract still open to it,
    and for a declarer's for every trump: the hand's four suits are looked up once for them all,
    and a hand met again (the next contract) is not worked out again.  The side suits' figures
    are the four suits' sums less the trump suit's; the trump suit's are its own, as ints, and
    the short side suits count beside three trumps or more."""
    figures = [suit_figures(hand >> (SUIT_SIZE * s) & SUIT_BITS, ranking) for s in range(NUM_SUITS)]
    tops = lows = strength = high = low = voids = singletons = length = 0
    for n, t, w, st, hi, lo in figures:
        tops += t
        lows += w
        strength += st
        high += hi
        low += lo
        if n == 0:
            voids += 1
        elif n == 1:
            singletons += 1
        length += max(0, n - LONG_SUIT)
    out = [
        (
            1.0,
            float(tops),
            float(lows),
            float(strength),
            float(high),
            float(low),
            float(voids),
            float(singletons),
            float(length),
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
        )
    ]
    for n, t, w, st, hi, lo in figures:
        v = voids - (n == 0)
        one = singletons - (n == 1)
        out.append(
            (
                1.0,
                float(tops - t),
                float(lows - w),
                float(strength - st),
                float(high - hi),
                float(low - lo),
                float(v),
                float(one),
                float(length - max(0, n - LONG_SUIT)),
                n,
                t,
                w,
                st,
                v + one if n >= TRUMPS_FOR_RUFFING else 0.0,
            )
        )
    return tuple(out)


@cache
def suit_figures(ranks: int, ranking: int) -> tuple[int, int, int, int, int, int]:
    """What a hand holding the ranks ``ranks`` of a suit (bit ``i``: the suit's card ``i``, the
    other players the rest) has in it under ``ranking``: (cards, tops, lows, strength, cards of
    strength 8-9, cards of strength 1-2).  It depends on these two only, so each of the 1,024
    answers is worked out once (the bidding weighs thousands of hands a decision)."""
    key = STRENGTH[ranking]
    mine = sorted((key[c] for c in range(SUIT_SIZE) if ranks >> c & 1), reverse=True)
    theirs = [key[c] for c in range(SUIT_SIZE) if not ranks >> c & 1]
    tops = 0
    for i, k in enumerate(mine):
        if sum(1 for t in theirs if t > k) <= i:
            tops += 1
    lows = 0
    for i, k in enumerate(reversed(mine)):
        if sum(1 for t in theirs if t < k) <= i:
            lows += 1
    high = sum(1 for k in mine if k >= HIGH_STRENGTH)
    low = sum(1 for k in mine if k <= LOW_STRENGTH)
    return len(mine), tops, lows, sum(mine), high, low
