"""What every AI seat offers: a bid and a card, chosen from a player's view.

An agent sees a :class:`~stepping_stones.engine.view.PlayerView` -- its own
cards and the open table, nothing else -- and an injected ``random.Random``.
It answers with one of the view's legal bids or one of its legal cards; it
never decides on its own what is legal.
"""

from __future__ import annotations

from random import Random
from typing import Protocol, TypeAlias, runtime_checkable

from ..engine import Bid, Card, Mask, Phase, PlayerView

Action: TypeAlias = Bid | Card
"""A bid (in the bidding) or a card (in the play)."""


@runtime_checkable
class Agent(Protocol):
    """An AI seat.  ``name`` is its level, as ``make_ai`` knows it."""

    name: str

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        """One of ``view.legal_bids``."""
        ...

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        """One of the cards in the mask ``view.legal_cards``."""
        ...


def decide(agent: Agent, view: PlayerView, rng: Random) -> Action:
    """The agent's action for ``view``: a bid in the bidding, a card in the play."""
    if view.to_act != view.seat:
        raise ValueError(f"seat {view.seat} is not to act")
    if view.phase is Phase.BIDDING:
        return agent.choose_bid(view, rng)
    if view.phase is Phase.PLAY:
        return agent.choose_card(view, rng)
    raise ValueError(f"nothing to decide in phase {view.phase.value}")


def forced_card(view: PlayerView) -> Card | None:
    """The card ``view``'s seat must play when it has one legal card, else None (it has a
    choice).  ``ValueError`` when it has no card to play."""
    legal = view.legal_cards
    if not legal:
        raise ValueError(f"seat {view.seat} has no card to play")
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    return None


def nth_card(mask: Mask, k: int) -> Card:
    """The ``k``-th card (0-based, lowest index first) of ``mask``."""
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1
