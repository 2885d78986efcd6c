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


@runtime_checkable
class SeesEveryHand(Agent, Protocol):
    """A seat that is shown every hand: only the lab's ``cheat`` seat (``cheat.py``), never a level
    of the app.  The match driver gives it the cards each seat holds as it asks for a card."""

    sees_every_hand: bool

    def choose_card_seeing(self, view: PlayerView, hands: tuple[Mask, Mask, Mask], rng: Random) -> Card:
        """One of the cards in ``view.legal_cards``, knowing ``hands``."""
        ...


def sees_every_hand(agent: Agent) -> bool:
    """Whether the match driver shows ``agent`` every hand (the lab's ``cheat`` seat only)."""
    return getattr(agent, "sees_every_hand", False) is True


def decide(agent: Agent, view: PlayerView, rng: Random, hands: tuple[Mask, Mask, Mask] | None = None) -> Action:
    """The agent's action for ``view``: a bid in the bidding, a card in the play.  ``hands`` (what
    every seat holds) goes only to a seat that sees every hand, and such a seat needs it."""
    if view.to_act != view.seat:
        raise ValueError(f"seat {view.seat} is not to act")
    if view.phase is Phase.BIDDING:
        return agent.choose_bid(view, rng)
    if view.phase is Phase.PLAY:
        if isinstance(agent, SeesEveryHand) and sees_every_hand(agent):
            if hands is None:
                raise ValueError(f"seat {view.seat} ({agent.name}) plays only where it is shown every hand")
            return agent.choose_card_seeing(view, hands, rng)
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
