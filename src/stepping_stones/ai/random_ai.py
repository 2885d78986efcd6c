"""The ``random`` level: a uniformly random legal action.  The baseline for tests."""

from __future__ import annotations

from random import Random

from ..engine import Bid, Card, PlayerView
from .base import nth_card


class RandomAI:
    """Picks uniformly among the legal bids, or among the legal cards."""

    name = "random"

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        bids = view.legal_bids
        if not bids:
            raise ValueError(f"seat {view.seat} has no bid to make")
        return bids[rng.randrange(len(bids))]

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        legal = view.legal_cards
        if not legal:
            raise ValueError(f"seat {view.seat} has no card to play")
        return nth_card(legal, rng.randrange(legal.bit_count()))
