"""The game's history as data: the phase of play, and each hand as it happened.

A ``HandLog`` is filled in by ``Game`` as the hand goes on.  What exists only
after the bidding (the declarer, the declaration, the card play) is reached
through accessors that raise ``WrongPhaseError`` while the hand is still being
bid, so no caller mistakes "not yet" for a value.  Who made each bid and who
played each card follow from the rules; they are answered here, once.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

from .bids import Bid, Declaration
from .cards import NUM_SEATS, Card, Mask, Seat
from .contracts import Contract
from .errors import WrongPhaseError
from .hand import HandState, Trick

# The public names, re-exported by the engine's face (__init__.py).
__all__ = ["HandLog", "Phase", "bid_seat"]

_T = TypeVar("_T")


class Phase(Enum):
    DEAL = "deal"  # waiting for the next hand to be dealt
    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"


def bid_seat(forehand: Seat, i: int, declarer: Seat | None) -> Seat:
    """Who made bid ``i`` (0-based) of a hand: the forehand first, then clockwise; a bid after
    three passes is the puddle declaration, made by the declarer.

    >>> [bid_seat(2, i, 1) for i in range(4)]
    [2, 0, 1, 1]
    """
    if i < NUM_SEATS:
        return (forehand + i) % NUM_SEATS
    if declarer is None:
        raise WrongPhaseError("nobody has declared from the puddle yet")
    return declarer


class HandLog:
    """One hand of the game as it happened.

    ``number`` (1-based), ``deal`` (three masks), ``forehand`` and ``bids`` are
    there from the deal on; the rest once a contract is declared.
    """

    __slots__ = ("number", "deal", "forehand", "bids", "_declarer", "_declaration", "_puddle", "_state")

    def __init__(self, number: int, deal: tuple[Mask, Mask, Mask], forehand: Seat) -> None:
        self.number = number
        self.deal = deal
        self.forehand = forehand
        self.bids: list[Bid] = []
        self._declarer: Seat | None = None
        self._declaration: Declaration | None = None
        self._puddle = False
        self._state: HandState | None = None

    def declare(self, seat: Seat, declaration: Declaration, puddle: bool) -> HandState:
        """Record ``seat``'s declaration and start the card play (the engine calls this)."""
        self._declarer = seat
        self._declaration = declaration
        self._puddle = puddle
        self._state = HandState(self.deal, seat, declaration.contract, declaration.ranking, declaration.trump)
        return self._state

    def undeclare(self) -> Declaration:
        """Take back the declaration before any card is played (the engine calls this): the hand
        is being bid again.  Returns the declaration; the caller takes the bid off ``bids``."""
        declaration = self.declaration
        if self._state is not None and self._state.plays:
            raise WrongPhaseError(f"hand {self.number} has cards played: take them back first")
        self._declarer = None
        self._declaration = None
        self._puddle = False
        self._state = None
        return declaration

    def _once_declared(self, value: _T | None) -> _T:
        """``value``, a field that exists once a contract is declared; before: ``WrongPhaseError``."""
        if value is None:
            raise WrongPhaseError(f"hand {self.number} is still being bid: nobody has declared yet")
        return value

    # --- after the bidding --------------------------------------------------

    @property
    def declared(self) -> bool:
        """Whether a contract has been declared (the bidding is over)."""
        return self._declaration is not None

    @property
    def declarer(self) -> Seat:
        return self._once_declared(self._declarer)

    @property
    def declaration(self) -> Declaration:
        return self._once_declared(self._declaration)

    @property
    def contract(self) -> Contract:
        return self.declaration.contract

    @property
    def puddle(self) -> bool:
        """Whether the declarer was forced to declare from the puddle."""
        self._once_declared(self._declaration)
        return self._puddle

    @property
    def state(self) -> HandState:
        """The card play (``HandState``)."""
        return self._once_declared(self._state)

    @property
    def plays(self) -> tuple[Card, ...]:
        """The cards played so far, in order (none before the declaration)."""
        return tuple(self._state.plays) if self._state is not None else ()

    @property
    def trick_winners(self) -> tuple[Seat, ...]:
        return tuple(self._state.winners) if self._state is not None else ()

    @property
    def finished(self) -> bool:
        """Whether all twelve tricks have been played."""
        return self._state is not None and self._state.finished

    @property
    def result(self) -> int:
        """The declarer's count for this hand, as the sheet counts it."""
        if self._state is None or not self._state.finished:
            raise WrongPhaseError(f"hand {self.number} is not finished: it has no result yet")
        return self._state.count()

    # --- who did what -------------------------------------------------------------

    def bid_seat(self, i: int) -> Seat:
        """Who made bid ``i`` (0-based)."""
        return bid_seat(self.forehand, i, self._declarer)

    def bid_seats(self) -> list[Seat]:
        return [self.bid_seat(i) for i in range(len(self.bids))]

    def play_seat(self, k: int) -> Seat:
        """Who played card ``k`` (0-based) of the hand."""
        return self.state.seat_of(k)

    def play_seats(self) -> list[Seat]:
        return self._state.play_seats() if self._state is not None else []

    def tricks(self) -> list[Trick]:
        """Every trick played so far, the unfinished one last."""
        return self._state.tricks() if self._state is not None else []
