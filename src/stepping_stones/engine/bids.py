"""Bids: a ``Pass`` or a ``Declaration`` (contract, ranking, trump, redo).

``str(bid)`` and ``parse_bid`` use the game record's notation:
``"pass"``, ``"lose-no-trump 1"``, ``"may-trump 9 B"``, ``"win-last-6 9 redo"``.

>>> bid = parse_bid("win-pick-trump 9 K")
>>> bid.contract.name, bid.ranking, SUITS[bid.trump], bid.redo
('Win Tricks (Pick Trump)', 9, 'K', False)
>>> str(bid), bid.describe()
('win-pick-trump 9 K', 'Win Tricks (Pick Trump), 9 high, Koi trump')
>>> parse_bid("pass") is PASS
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from .cards import SUIT_NAMES, SUITS
from .contracts import CONTRACTS, Contract
from .errors import BidSyntaxError, UnknownContractError

# The public names, re-exported by the engine's face (__init__.py).
__all__ = ["PASS", "Bid", "Declaration", "Pass", "declare", "parse_bid"]


@dataclass(frozen=True, slots=True)
class Pass:
    """Passing: the bidder declares nothing this time."""

    @property
    def is_pass(self) -> Literal[True]:
        return True

    def __str__(self) -> str:
        return "pass"

    def describe(self) -> str:
        return "pass"


PASS: Final = Pass()


@dataclass(frozen=True, slots=True)
class Declaration:
    """Declaring ``contract`` with a ranking (9 or 1 high), a trump suit if it picks one, and
    whether a redo token is spent.  The engine checks it against the game when it is bid."""

    contract: Contract
    ranking: int
    trump: int | None = None
    redo: bool = False

    @property
    def is_pass(self) -> Literal[False]:
        return False

    @property
    def contract_id(self) -> str:
        return self.contract.id

    def __str__(self) -> str:
        text = f"{self.contract.id} {self.ranking}"
        if self.trump is not None:
            text += " " + SUITS[self.trump]
        if self.redo:
            text += " redo"
        return text

    def describe(self) -> str:
        """For people: ``'Win Tricks (Pick Trump), 9 high, Koi trump (redo)'``."""
        text = f"{self.contract.name}, {self.ranking} high"
        if self.trump is not None:
            text += f", {SUIT_NAMES[self.trump]} trump"
        if self.redo:
            text += " (redo)"
        return text


Bid: TypeAlias = Pass | Declaration
"""A bidding action."""


def declare(contract_id: str, ranking: int, trump: int | None = None, redo: bool = False) -> Declaration:
    """The declaration of the contract called ``contract_id``.

    >>> str(declare("may-trump", 1, 3, redo=True))
    'may-trump 1 B redo'
    """
    try:
        contract = CONTRACTS[contract_id]
    except KeyError:
        raise UnknownContractError(f"there is no contract called {contract_id!r}") from None
    return Declaration(contract, ranking, trump, redo)


def parse_bid(text: str) -> Bid:
    """Read a bid in record notation.  Raises ``BidSyntaxError`` or ``UnknownContractError``.

    >>> parse_bid("lose-no-trump 5")
    Traceback (most recent call last):
    ...
    stepping_stones.engine.errors.BidSyntaxError: 'lose-no-trump 5': the ranking must be 9 (9 high) or 1 (1 high)
    """
    if not isinstance(text, str):
        raise BidSyntaxError(f"a bid is written as text, not {type(text).__name__}")
    if text == "pass":
        return PASS
    parts = text.split(" ")
    if len(parts) < 2 or "" in parts:
        raise BidSyntaxError(f"{text!r} is not a bid (write 'pass' or '<contract> <9|1>[ <suit>][ redo]')")
    contract = CONTRACTS.get(parts[0])
    if contract is None:
        raise UnknownContractError(f"there is no contract called {parts[0]!r}")
    if parts[1] not in ("9", "1"):
        raise BidSyntaxError(f"{text!r}: the ranking must be 9 (9 high) or 1 (1 high)")
    ranking = int(parts[1])
    rest = parts[2:]
    trump = None
    if rest and rest[0] != "redo":
        if len(rest[0]) != 1 or rest[0] not in SUITS:
            raise BidSyntaxError(f"{text!r}: {rest[0]!r} is not a suit (C, K, L or B)")
        trump = SUITS.index(rest[0])
        rest = rest[1:]
    redo = False
    if rest and rest[0] == "redo":
        redo = True
        rest = rest[1:]
    if rest:
        raise BidSyntaxError(f"{text!r}: unexpected {' '.join(rest)!r} at the end")
    return Declaration(contract, ranking, trump, redo)
