"""What the bidding says about the hidden hands: a weight for each sampled layout.

The card counting of ``knowledge.py`` says which layouts are *possible*; the bidding says which
are *likely*.  A declarer chose its contract, ranking and trump because its hand suited them,
and a player who passed before it had no hand it wanted to declare.  Each layout gets a weight:

* the declarer (unless it is this seat): the bidding model's estimate of its dealt hand for the
  declaration it made, against a random hand's (a strong hand for the contract weighs more), and
  against the best ranking and trump that hand could have named (a declarer names its long,
  strong suit as trump, and its good end of the ranks as high);
* every other seat that passed in this hand while it had contracts open: the better its best
  contract would have been, the less likely it was to pass.

A declarer forced from the puddle chose only among its open contracts, so its hand says less.
The weights use the same estimates as the bidding (``bidding.estimate``), so they cost a few
feature evaluations per layout and depend on nothing but the view and the layout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..engine import Contract, Goal, Mask, Pass, PlayerView, Seat
from .bidding import best_declaration, estimate
from .model import model

# Weight per spread of the declarer's estimate above a random hand's (log scale).
DECLARER_STRENGTH = 0.9
# Weight per trick by which the hand would have preferred another ranking or trump.
DECLARER_CHOICE = 0.8
# In the puddle the declarer had to declare: its hand says this much as much.
PUDDLE_FACTOR = 0.35
# Weight per spread by which a passer's best open contract beats a usual declarer's hand.
PASSER_STRENGTH = 0.6


def _sign(contract: Contract) -> int:
    return 1 if contract.goal is Goal.WIN else -1


def best_estimate(contract: Contract, hand: Mask) -> float:
    """The declarer's estimate for ``contract`` with the best ranking and trump for ``hand``,
    as a goal-signed number (higher is better for the declarer)."""
    return _sign(contract) * best_declaration(contract, hand)[0]


class BiddingEvidence:
    """The bidding of the current hand, read once from a view; ``weight(dealt)`` per layout."""

    def __init__(self, view: PlayerView) -> None:
        self.seat = view.seat
        self.declarer = view.declarer
        self.declaration = view.declaration
        self.puddle = view.puddle
        passers = []
        for s, bid in zip(view.bid_seats, view.bids, strict=True):
            if s == self.seat or s == self.declarer or not isinstance(bid, Pass):
                continue
            open_contracts = [c for c in view.rules.contracts if view.sheet[c.id][s] is None]
            if open_contracts and s not in passers:
                passers.append(s)
        self.passers = tuple(passers)
        self.open = {s: [c for c in view.rules.contracts if view.sheet[c.id][s] is None] for s in self.passers}

    @property
    def informative(self) -> bool:
        """Whether any weight can differ from 1 (else sampling is uniform)."""
        declarer_speaks = self.declaration is not None and self.declarer is not None and self.declarer != self.seat
        return declarer_speaks or bool(self.passers)

    def log_weight(self, dealt: dict[Seat, Mask]) -> float:
        """The log-weight of a layout, given the hand each other seat was *dealt* in it."""
        total = 0.0
        declaration = self.declaration
        if declaration is not None and self.declarer is not None and self.declarer != self.seat:
            contract = declaration.contract
            hand = dealt[self.declarer]
            sign = _sign(contract)
            data = model()[contract.id]
            chosen = sign * estimate(contract, hand, declaration.ranking, declaration.trump)
            best = best_estimate(contract, hand)
            strength = (chosen - sign * data.random_hand_mean) / max(data.random_hand_sd, 0.5)
            factor = PUDDLE_FACTOR if self.puddle else 1.0
            total += factor * (DECLARER_STRENGTH * strength - DECLARER_CHOICE * (best - chosen))
        for s in self.passers:
            hand = dealt[s]
            z = -math.inf
            for contract in self.open[s]:
                data = model()[contract.id]
                sign = _sign(contract)
                value = best_estimate(contract, hand)
                z = max(z, (value - sign * data.random_hand_mean) / max(data.random_hand_sd, 0.5))
            if z > 0:
                total -= PASSER_STRENGTH * z
        return total


def resample(weights: Sequence[float], count: int, offset: float) -> list[int]:
    """``count`` indices drawn in proportion to ``weights`` by systematic resampling (one random
    ``offset`` in [0, 1)): heavy layouts are drawn more than once, light ones not at all.

    >>> resample([1.0, 0.0, 3.0], 4, 0.5)
    [0, 2, 2, 2]
    """
    total = sum(weights)
    if total <= 0:
        return list(range(min(count, len(weights))))
    step = total / count
    out = []
    point = offset * step
    acc = 0.0
    i = 0
    for _ in range(count):
        while i < len(weights) - 1 and acc + weights[i] <= point:
            acc += weights[i]
            i += 1
        out.append(i)
        point += step
    return out
