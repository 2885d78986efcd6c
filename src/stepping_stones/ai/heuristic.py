"""The ``heuristic`` level: the default opponent.  See ``bidding.py`` and ``play.py``."""

from __future__ import annotations

from random import Random

from ..engine import Bid, Card, PlayerView
from .base import forced_card
from .bidding import BAR_SCALE, BidChooser
from .play import CardChooser


class HeuristicAI:
    """Bids by the points it expects from this hand; plays by counting cards and sampling layouts."""

    name = "heuristic"

    def __init__(self, samples: int = 24, bar_scale: float = BAR_SCALE) -> None:
        self.samples = samples
        self.bar_scale = bar_scale

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        if not view.legal_bids:
            raise ValueError(f"seat {view.seat} has no bid to make")
        return BidChooser(view, self.bar_scale).choose()

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        forced = forced_card(view)
        if forced is not None:
            return forced
        return CardChooser(view, rng, self.samples).choose()
