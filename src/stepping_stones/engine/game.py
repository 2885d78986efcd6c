"""The whole game as a state machine: deal, bid, play, record, score.

Every action has three forms, after pokerkit: ``verify_x`` raises the precise
refusal, ``can_x`` answers yes or no, and ``x`` does it (after verifying).  A
refused action leaves the game exactly as it was.  The game's history is data
(``Game.log``): the deals, every bid and every card, from which a game record
is written and from which the game can be rebuilt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from random import Random

from . import cards as _cards
from .cards import (
    BIT,
    CARD_NAMES,
    FULL_DECK,
    RANKINGS,
    SUIT_MASK_OF,
    SUIT_NAMES,
    SUITS,
    format_cards,
)
from .contracts import CONTRACTS, Contract, FollowRule, Rules
from .errors import (
    BidSyntaxError,
    CardNotHeldError,
    ContractNotInPlayError,
    ContractRecordedError,
    GameOverError,
    IllegalCardError,
    InvalidDealError,
    MustBeatError,
    MustDeclareError,
    MustFollowError,
    RedoError,
    TrumpError,
    UnknownContractError,
    WrongPhaseError,
)
from .hand import HandState
from .scoring import score_results
from .scoring import winners as _winners

DEFAULT_PLAYERS = ("You", "Hana", "Kenji")


@dataclass(frozen=True, slots=True)
class Bid:
    """A bidding action: a pass, or a declaration (contract, ranking, trump, redo).

    ``str(bid)`` and ``Bid.parse`` use the game record's notation:
    ``"pass"``, ``"lose-no-trump 1"``, ``"may-trump 9 B"``, ``"win-last-6 9 redo"``.
    """

    contract: str | None = None
    ranking: int | None = None
    trump: int | None = None
    redo: bool = False

    @property
    def is_pass(self) -> bool:
        return self.contract is None

    def __str__(self) -> str:
        if self.contract is None:
            return "pass"
        text = f"{self.contract} {self.ranking}"
        if self.trump is not None:
            text += " " + SUITS[self.trump]
        if self.redo:
            text += " redo"
        return text

    def describe(self) -> str:
        """For people: ``'Win Tricks (Pick Trump), 9 high, Koi trump (redo)'``."""
        if self.contract is None:
            return "pass"
        c = CONTRACTS.get(self.contract)
        text = f"{c.name if c else self.contract}, {self.ranking} high"
        if self.trump is not None:
            text += f", {SUIT_NAMES[self.trump]} trump"
        if self.redo:
            text += " (redo)"
        return text

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read a bid in record notation.  Raises ``BidSyntaxError`` or ``UnknownContractError``."""
        if not isinstance(text, str):
            raise BidSyntaxError(f"a bid is written as text, not {type(text).__name__}")
        if text == "pass":
            return PASS
        parts = text.split(" ")
        if len(parts) < 2 or "" in parts:
            raise BidSyntaxError(
                f"{text!r} is not a bid (write 'pass' or '<contract> <9|1>[ <suit>][ redo]')"
            )
        contract = parts[0]
        if contract not in CONTRACTS:
            raise UnknownContractError(f"there is no contract called {contract!r}")
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
        return cls(contract, ranking, trump, redo)


PASS = Bid()


class Phase(Enum):
    DEAL = "deal"  # waiting for the next hand to be dealt
    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"


@dataclass
class HandLog:
    """One hand of the game as it happened."""

    number: int  # 1-based
    deal: tuple[int, int, int]
    forehand: int
    bids: list[Bid] = field(default_factory=list)
    declarer: int | None = None
    declaration: Bid | None = None
    puddle: bool = False
    state: HandState | None = None
    result: int | None = None  # the declarer's count, once the hand is finished

    @property
    def contract(self) -> Contract | None:
        return CONTRACTS[self.declaration.contract] if self.declaration else None

    @property
    def plays(self) -> list[int]:
        return self.state.plays if self.state else []

    @property
    def finished(self) -> bool:
        return self.result is not None


def puddle_seat(forehand: int, has_open: Sequence[bool]) -> int | None:
    """Who is pushed in the puddle: the forehand, or the next seat clockwise with an open contract."""
    for i in range(3):
        seat = (forehand + i) % 3
        if has_open[seat]:
            return seat
    return None


def next_forehand(forehand: int, has_open: Sequence[bool]) -> int | None:
    """Where the forehand card goes after a hand: clockwise to the next seat with an open contract."""
    for i in (1, 2, 3):
        seat = (forehand + i) % 3
        if has_open[seat]:
            return seat
    return None


class Game:
    """A game of Stepping Stones between three seats, 0, 1, 2 clockwise."""

    def __init__(
        self,
        rules: Rules | None = None,
        players: Sequence[str] = DEFAULT_PLAYERS,
        first_forehand: int = 0,
    ) -> None:
        if len(players) != 3:
            raise ValueError("Stepping Stones is played by exactly three players")
        if first_forehand not in (0, 1, 2) or isinstance(first_forehand, bool):
            raise ValueError("the first forehand must be seat 0, 1 or 2")
        self.rules = rules if rules is not None else Rules()
        self.players = tuple(players)
        self.first_forehand = first_forehand
        self.forehand = first_forehand
        self.sheet: dict[str, list[int | None]] = {c.id: [None, None, None] for c in self.rules.contracts}
        self.redo_spent = [False, False, False]
        self.log: list[HandLog] = []
        self.phase = Phase.DEAL

    # --- what the table looks like ------------------------------------

    @property
    def hand(self) -> HandLog | None:
        """The hand being bid or played, or the last one played."""
        return self.log[-1] if self.log else None

    @property
    def state(self) -> HandState | None:
        """The card play of the current hand, once a contract is declared."""
        return self.log[-1].state if self.log else None

    def name(self, seat: int) -> str:
        return self.players[seat]

    def open_contracts(self, seat: int) -> list[Contract]:
        """The contracts ``seat`` has not recorded yet."""
        return [c for c in self.rules.contracts if self.sheet[c.id][seat] is None]

    def has_open(self, seat: int) -> bool:
        return any(self.sheet[c.id][seat] is None for c in self.rules.contracts)

    def recorded_contracts(self, seat: int) -> list[Contract]:
        return [c for c in self.rules.contracts if self.sheet[c.id][seat] is not None]

    def has_redo(self, seat: int) -> bool:
        """Whether ``seat`` still holds a redo token it could spend on some contract."""
        return (
            self.rules.redo_tokens
            and not self.redo_spent[seat]
            and any(self.sheet[c.id][seat] is not None for c in self.rules.contracts)
        )

    @property
    def in_puddle(self) -> bool:
        """Whether all three passed and the bidder is forced to declare."""
        return self.phase is Phase.BIDDING and len(self.log[-1].bids) >= 3

    @property
    def bidder(self) -> int | None:
        """The seat whose bid it is, or None outside the bidding."""
        if self.phase is not Phase.BIDDING:
            return None
        n = len(self.log[-1].bids)
        if n < 3:
            return (self.forehand + n) % 3
        return puddle_seat(self.forehand, [self.has_open(s) for s in range(3)])

    @property
    def to_act(self) -> int | None:
        """The seat to bid or play now, or None (waiting for a deal, or game over)."""
        if self.phase is Phase.BIDDING:
            return self.bidder
        if self.phase is Phase.PLAY:
            return self.log[-1].state.turn
        return None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def view(self, seat: int):
        """What ``seat`` may see now (a frozen ``PlayerView``): its own cards and the open table."""
        from .view import make_view

        return make_view(self, seat)

    # --- dealing --------------------------------------------------------

    def verify_deal(self, deal: Sequence[int]) -> None:
        if self.phase is Phase.OVER:
            raise GameOverError("the game is over: every player has recorded every contract")
        if self.phase is not Phase.DEAL:
            raise WrongPhaseError(f"hand {len(self.log)} is not finished yet")
        if len(deal) != 3:
            raise InvalidDealError("a deal gives cards to exactly three seats")
        seen = 0
        for seat, mask in enumerate(deal):
            if not isinstance(mask, int) or mask < 0 or mask & ~FULL_DECK:
                raise InvalidDealError(f"the deal of {self.players[seat]} is not a set of cards")
            if mask.bit_count() != 12:
                raise InvalidDealError(
                    f"{self.players[seat]} is dealt {mask.bit_count()} cards, not 12", seat
                )
            if mask & seen:
                raise InvalidDealError(f"{format_cards(mask & seen)} dealt twice", seat)
            seen |= mask

    def start_hand(self, deal: Sequence[int]) -> HandLog:
        """Begin the next hand with ``deal`` (three masks of 12 cards)."""
        self.verify_deal(deal)
        hand = HandLog(len(self.log) + 1, (deal[0], deal[1], deal[2]), self.forehand)
        self.log.append(hand)
        self.phase = Phase.BIDDING
        self._forced_passes()
        return hand

    def deal_hand(self, rng: Random) -> HandLog:
        """Deal the next hand from ``rng`` and begin it."""
        return self.start_hand(_cards.deal(rng))

    # --- bidding --------------------------------------------------------

    def _must_pass(self, seat: int) -> bool:
        return not self.has_open(seat) and not self.has_redo(seat)

    def _forced_passes(self) -> None:
        """A player with nothing to declare (and no redo to spend) passes at once."""
        hand = self.log[-1]
        while len(hand.bids) < 3 and self._must_pass((self.forehand + len(hand.bids)) % 3):
            hand.bids.append(PASS)

    def legal_bids(self) -> list[Bid]:
        """Every bid the bidder may make now (empty outside the bidding)."""
        seat = self.bidder
        if seat is None:
            return []
        puddle = self.in_puddle
        bids = [] if puddle else [PASS]
        redo = not puddle and self.rules.redo_tokens and not self.redo_spent[seat]
        for c in self.rules.contracts:
            recorded = self.sheet[c.id][seat] is not None
            if recorded and not redo:
                continue
            trumps = range(4) if c.picks_trump else (None,)
            for ranking in RANKINGS:
                for trump in trumps:
                    bids.append(Bid(c.id, ranking, trump, recorded))
        return bids

    def verify_bid(self, bid: Bid) -> None:
        """Raise the precise ``IllegalBidError`` (or phase error) if ``bid`` is not allowed now."""
        self._verify_phase(Phase.BIDDING)
        seat = self.bidder
        name = self.players[seat]
        if not isinstance(bid, Bid):
            raise BidSyntaxError(f"{bid!r} is not a bid", seat)
        if bid.is_pass:
            if self.in_puddle:
                raise MustDeclareError(
                    f"{name} is in the puddle and must declare one of their open contracts", seat
                )
            if bid.ranking is not None or bid.trump is not None or bid.redo:
                raise BidSyntaxError("a pass names no ranking, trump or redo", seat)
            return
        contract = CONTRACTS.get(bid.contract)
        if contract is None:
            raise UnknownContractError(f"there is no contract called {bid.contract!r}", seat)
        if bid.contract not in self.sheet:
            if self.rules.cut == bid.contract:
                raise ContractNotInPlayError(f"{contract.name} is left out of this short game", seat)
            raise ContractNotInPlayError(
                f"{contract.name} is not in the {self.rules.contract_set} set", seat
            )
        if bid.ranking not in RANKINGS or isinstance(bid.ranking, bool):
            raise BidSyntaxError("the ranking must be 9 (9 high) or 1 (1 high)", seat)
        if contract.picks_trump and bid.trump is None:
            raise TrumpError(f"{contract.name} needs a trump suit", seat)
        if not contract.picks_trump and bid.trump is not None:
            raise TrumpError(f"{contract.name} has no trump suit", seat)
        if bid.trump is not None and (bid.trump not in range(4) or isinstance(bid.trump, bool)):
            raise BidSyntaxError("the trump must be a suit", seat)
        recorded = self.sheet[bid.contract][seat] is not None
        if bid.redo:
            if not self.rules.redo_tokens:
                raise RedoError("redo tokens are not in use in this game", seat)
            if self.redo_spent[seat]:
                raise RedoError(f"{name} has already spent their redo token", seat)
            if self.in_puddle:
                raise RedoError(
                    f"{name} is in the puddle and must declare an open contract, not a redo", seat
                )
            if not recorded:
                raise RedoError(
                    f"{name} has not recorded {contract.name} yet, so it cannot be redone", seat
                )
        elif recorded:
            hint = " (only a redo token allows it again)" if self.has_redo(seat) else ""
            raise ContractRecordedError(f"{name} has already recorded {contract.name}{hint}", seat)

    def can_bid(self, bid: Bid) -> bool:
        try:
            self.verify_bid(bid)
        except ValueError:
            return False
        return True

    def bid(self, bid: Bid) -> None:
        """Make ``bid`` for the bidder.  A declaration ends the bidding and starts the play."""
        self.verify_bid(bid)
        hand = self.log[-1]
        seat = self.bidder
        puddle = self.in_puddle
        hand.bids.append(bid)
        if bid.is_pass:
            self._forced_passes()
            return
        contract = CONTRACTS[bid.contract]
        hand.declarer = seat
        hand.declaration = bid
        hand.puddle = puddle
        hand.state = HandState(hand.deal, seat, contract, bid.ranking, bid.trump)
        if bid.redo:
            self.redo_spent[seat] = True
        self.phase = Phase.PLAY

    # --- card play ------------------------------------------------------

    def legal_cards_mask(self) -> int:
        """The cards the player to act may play, as a mask (0 outside the play)."""
        if self.phase is not Phase.PLAY:
            return 0
        return self.log[-1].state.legal_mask()

    def legal_cards(self) -> list[int]:
        return list(_cards.cards_of(self.legal_cards_mask()))

    def verify_play(self, card: int) -> None:
        """Raise the precise ``IllegalCardError`` (or phase error) if ``card`` may not be played now."""
        self._verify_phase(Phase.PLAY)
        state = self.log[-1].state
        seat = state.turn
        name = self.players[seat]
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 36:
            raise IllegalCardError(f"{card!r} is not a card", seat)
        bit = BIT[card]
        hand = state.hands[seat]
        if not hand & bit:
            raise CardNotHeldError(f"{name} does not hold {CARD_NAMES[card]}", seat, card)
        if state.legal_mask() & bit:
            return
        led_suit = state.current_trick()[0][1] // 9
        holding = hand & SUIT_MASK_OF[state.plays[-state.in_trick]]
        rule = state.contract.follow
        if rule is FollowRule.MUST_BEAT and holding & state.beat:
            best = max(
                (c for _, c in state.current_trick() if c // 9 == led_suit),
                key=_cards.STRENGTH[state.ranking].__getitem__,
            )
            raise MustBeatError(
                f"{name} must beat {CARD_NAMES[best]} "
                f"(holds {format_cards(holding & state.beat)})",
                seat, card, best, holding & state.beat,
            )
        if rule is FollowRule.MAY_TRUMP and state.trump is not None and led_suit != state.trump:
            raise MustFollowError(
                f"{name} must follow {SUIT_NAMES[led_suit]} or play a trump "
                f"(holds {format_cards(holding)})",
                seat, card, led_suit, holding,
            )
        raise MustFollowError(
            f"{name} must follow {SUIT_NAMES[led_suit]} (holds {format_cards(holding)})",
            seat, card, led_suit, holding,
        )

    def can_play(self, card: int) -> bool:
        try:
            self.verify_play(card)
        except ValueError:
            return False
        return True

    def play(self, card: int) -> None:
        """Play ``card`` for the player to act.  After the 36th card the result is recorded."""
        self.verify_play(card)
        state = self.log[-1].state
        state.push(card)
        if state.finished:
            self._finish_hand()

    def _finish_hand(self) -> None:
        hand = self.log[-1]
        state = hand.state
        contract = state.contract
        seat = hand.declarer
        count = state.count()
        hand.result = count
        row = self.sheet[contract.id]
        if row[seat] is None or contract.better(count, row[seat]):
            row[seat] = count
        has_open = [self.has_open(s) for s in range(3)]
        forehand = next_forehand(self.forehand, has_open)
        if forehand is None:
            self.phase = Phase.OVER
        else:
            self.forehand = forehand
            self.phase = Phase.DEAL

    def _verify_phase(self, wanted: Phase) -> None:
        if self.phase is wanted:
            return
        if self.phase is Phase.OVER:
            raise GameOverError("the game is over: every player has recorded every contract")
        if self.phase is Phase.DEAL:
            raise WrongPhaseError("no hand is in progress: the next hand has not been dealt")
        if self.phase is Phase.PLAY:
            hand = self.log[-1]
            raise WrongPhaseError(
                f"the bidding has ended: {self.players[hand.declarer]} declared "
                f"{hand.declaration.describe()}"
            )
        raise WrongPhaseError(
            f"the bidding is not over: {self.players[self.bidder]} is to bid"
        )

    # --- the sheet --------------------------------------------------------

    def points(self, contract_id: str) -> list[int] | None:
        """The three seats' points for a contract once all three recorded it, else None."""
        row = self.sheet[contract_id]
        if None in row:
            return None
        return score_results(row, CONTRACTS[contract_id].goal)[0]

    def totals(self) -> list[int]:
        totals = [0, 0, 0]
        for c in self.rules.contracts:
            pts = self.points(c.id)
            if pts:
                for s in range(3):
                    totals[s] += pts[s]
        return totals

    def firsts(self) -> list[int]:
        """How many scored contracts each seat placed first in (a shared first counts)."""
        firsts = [0, 0, 0]
        for c in self.rules.contracts:
            row = self.sheet[c.id]
            if None not in row:
                for s, first in enumerate(score_results(row, c.goal)[1]):
                    firsts[s] += first
        return firsts

    def winners(self) -> list[int]:
        """The winning seat(s) once the game is over, else ``[]``."""
        if self.phase is not Phase.OVER:
            return []
        return _winners(self.totals(), self.firsts())
