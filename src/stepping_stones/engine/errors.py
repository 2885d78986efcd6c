"""One exception class per way an action can be refused.

Every refusal leaves the game exactly as it was.  Messages name the player,
the card or bid and the rule, in words a player understands; the fields let a
user interface say the same thing its own way.

The fields' seats, cards and sets of cards are written ``int`` here, not ``Seat``, ``Card``
and ``Mask``: ``cards.py`` imports this module, and this one imports nothing back.
"""

from __future__ import annotations

# The public names, re-exported by the engine's face (__init__.py).
__all__ = [
    "BidSyntaxError",
    "CardNotHeldError",
    "CardSyntaxError",
    "ContractNotInPlayError",
    "ContractRecordedError",
    "GameOverError",
    "IllegalActionError",
    "IllegalBidError",
    "IllegalCardError",
    "InvalidDealError",
    "MustBeatError",
    "MustDeclareError",
    "MustFollowError",
    "NothingToPopError",
    "RedoError",
    "RulesError",
    "SteppingStonesError",
    "TrumpError",
    "UnknownContractError",
    "WrongPhaseError",
]


class SteppingStonesError(Exception):
    """Base class of everything Stepping Stones refuses: bad actions, bad options, bad input.

    A caller that shows problems to a person catches this one class.  The refusals of the rest of
    the package derive from it too (a record, a file, the library, the cluster, a hint, a page's
    message); the few exceptions that only carry control flow (a search cut at its limit, the
    person quitting the plain game) stay apart, each saying why.  ``tests/test_errors.py`` checks.
    """


class CardSyntaxError(SteppingStonesError, ValueError):
    """A card or suit written in a way that names no card or suit."""


class RulesError(SteppingStonesError, ValueError):
    """A combination of game options that does not make a game."""


class NothingToPopError(SteppingStonesError, IndexError):
    """``Game.pop`` on a game with nothing to take back: no hand has been dealt."""


class IllegalActionError(SteppingStonesError, ValueError):
    """An action the rules do not allow now.  ``seat`` is the player it was made for."""

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class WrongPhaseError(IllegalActionError):
    """The action belongs to another part of the hand (a bid while cards are played, ...)."""


class GameOverError(WrongPhaseError):
    """The game has ended: no more hands, bids or cards."""


class InvalidDealError(IllegalActionError):
    """A deal that is not the 36 cards, 12 to each seat."""


# --- bids -------------------------------------------------------------------


class IllegalBidError(IllegalActionError):
    """A bid the bidder may not make."""


class BidSyntaxError(IllegalBidError):
    """A bid written in a way that names no bid."""


class UnknownContractError(IllegalBidError):
    """No contract has that id."""


class ContractNotInPlayError(IllegalBidError):
    """The contract exists but is not part of this game (other set, or cut from a short game)."""


class ContractRecordedError(IllegalBidError):
    """The bidder already recorded that contract and is not spending a redo token."""


class TrumpError(IllegalBidError):
    """A trump suit missing for a contract that picks one, or given for one that does not."""


class MustDeclareError(IllegalBidError):
    """The bidder is in the puddle and may not pass."""


class RedoError(IllegalBidError):
    """A redo that is not allowed: tokens off, token spent, contract not recorded, or in the puddle."""


# --- cards ------------------------------------------------------------------


class IllegalCardError(IllegalActionError):
    """A card the player to act may not play.  ``card`` is the card."""

    def __init__(self, message: str, seat: int | None = None, card: int | None = None) -> None:
        super().__init__(message, seat)
        self.card = card


class CardNotHeldError(IllegalCardError):
    """The player to act does not hold the card."""


class MustFollowError(IllegalCardError):
    """The player holds the led suit and must play it.  ``suit`` is the led suit, ``holding`` the cards."""

    def __init__(self, message: str, seat: int, card: int, suit: int, holding: int) -> None:
        super().__init__(message, seat, card)
        self.suit = suit
        self.holding = holding


class MustBeatError(IllegalCardError):
    """Must Beat: the player holds a card of the led suit that beats the best one played."""

    def __init__(self, message: str, seat: int, card: int, best: int, holding: int) -> None:
        super().__init__(message, seat, card)
        self.best = best
        self.holding = holding
