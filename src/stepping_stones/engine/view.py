"""What one player may see: ``Game.view(seat)`` for the AI seats and the table.

A view holds the player's own cards, everything that was played or said in
the open (bids, cards, tricks, the sheet), and nothing else: the other two
hands appear only as counts.  It is a frozen snapshot, so an AI can think
about it while the game goes on.  Who made each bid and who played each card
are part of it (``bid_seats``, ``play_seats``), so no reader works them out
again.

The view also checks the seat's own bid or card (``verify_bid``, ``verify_play``) as the game
does, from what it shows alone (``refusals``): a seat that holds only its view -- a client of a
table server -- words a refusal exactly as the game would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bids import Bid, Declaration
from .cards import FULL_DECK, HAND_SIZE, NUM_CARDS, NUM_SEATS, TRICKS, Card, Mask, Seat
from .contracts import CONTRACTS, Contract, Rules
from .errors import WrongPhaseError
from .hand import HandState, Trick
from .log import HandLog, Phase
from .refusals import bid_refusal, card_refusal, phase_refusal, turn_refusal
from .scoring import Sheet, contract_points, sheet_firsts, sheet_totals, winners

# The public names, re-exported by the engine's face (__init__.py).
__all__ = ["PastHand", "PlayerView", "PublicView"]


class _Scored:
    """The scoring of the sheet, for the game and for what one seat sees of it: both hold the
    same sheet, rules and phase, and score them alike."""

    sheet: Sheet
    rules: Rules
    phase: Phase
    redo_spent: Sequence[bool]

    def has_open(self, seat: Seat) -> bool:
        """Whether ``seat`` has a contract it has not recorded yet."""
        return any(self.sheet[c.id][seat] is None for c in self.rules.contracts)

    def has_redo(self, seat: Seat) -> bool:
        """Whether ``seat`` still holds a redo token it could spend on some contract."""
        return (
            self.rules.redo_tokens
            and not self.redo_spent[seat]
            and any(self.sheet[c.id][seat] is not None for c in self.rules.contracts)
        )

    def points(self, contract_id: str) -> list[int] | None:
        """The three seats' points for a contract once all three recorded it, else None."""
        return contract_points(self.sheet[contract_id], CONTRACTS[contract_id].goal)

    def totals(self) -> list[int]:
        """Each seat's points over the scored contracts."""
        return sheet_totals(self.sheet, self.rules.contracts)

    def firsts(self) -> list[int]:
        """How many scored contracts each seat placed first in (a shared first counts)."""
        return sheet_firsts(self.sheet, self.rules.contracts)

    def winners(self) -> list[Seat]:
        """The winning seat(s) once the game is over, else ``[]``."""
        return winners(self.totals(), self.firsts()) if self.phase is Phase.OVER else []


class _OpenPlay:
    """The cards of one hand as everyone at the table saw them."""

    plays: tuple[Card, ...]
    play_seats: tuple[Seat, ...]
    trick_winners: tuple[Seat, ...]
    winning: Seat | None
    declarer: Seat | None
    declaration: Declaration | None

    @property
    def contract(self) -> Contract | None:
        return self.declaration.contract if self.declaration is not None else None

    @property
    def ranking(self) -> int | None:
        return self.declaration.ranking if self.declaration is not None else None

    @property
    def trump(self) -> int | None:
        return self.declaration.trump if self.declaration is not None else None

    @property
    def played_mask(self) -> Mask:
        mask = 0
        for c in self.plays:
            mask |= 1 << c
        return mask

    @property
    def all_played(self) -> bool:
        """Whether all twelve tricks of the hand have been played."""
        return len(self.trick_winners) == TRICKS

    def tricks_won(self, seat: Seat) -> int:
        return sum(1 for w in self.trick_winners if w == seat)

    def count(self) -> int:
        """The declarer's counted tricks so far (0 before a declaration)."""
        contract = self.contract
        if contract is None:
            return 0
        mask = contract.counted_mask
        return sum(1 for t, w in enumerate(self.trick_winners) if w == self.declarer and mask >> t & 1)

    def played_by(self, seat: Seat) -> Mask:
        """The cards ``seat`` has played in this hand, as a mask."""
        mask = 0
        for s, c in zip(self.play_seats, self.plays, strict=True):
            if s == seat:
                mask |= 1 << c
        return mask

    def tricks(self) -> list[Trick]:
        """Every trick so far, the unfinished one last (its ``winner`` is the seat winning it)."""
        out = []
        for start in range(0, len(self.plays), NUM_SEATS):
            t = start // NUM_SEATS
            end = start + NUM_SEATS
            cards = tuple(zip(self.play_seats[start:end], self.plays[start:end], strict=True))
            if t < len(self.trick_winners):
                out.append(Trick(t + 1, cards[0][0], cards, self.trick_winners[t], True))
            else:
                winner = self.winning if self.winning is not None else cards[0][0]
                out.append(Trick(t + 1, cards[0][0], cards, winner, False))
        return out

    def current_trick(self) -> list[tuple[Seat, Card]]:
        """``(seat, card)`` for the cards of the unfinished trick, in play order."""
        n = len(self.plays) % NUM_SEATS
        if not n:
            return []
        return list(zip(self.play_seats[-n:], self.plays[-n:], strict=True))


@dataclass(frozen=True)
class PastHand(_OpenPlay):
    """A finished hand as everyone saw it: no deals."""

    number: int
    forehand: Seat
    bids: tuple[Bid, ...]
    bid_seats: tuple[Seat, ...]
    declarer: Seat | None
    declaration: Declaration | None
    puddle: bool
    plays: tuple[Card, ...]
    play_seats: tuple[Seat, ...]
    trick_winners: tuple[Seat, ...]
    winning: Seat | None
    result: int | None

    def replayed(self) -> HandLog | None:
        """The hand's log rebuilt from what everyone saw, for a hand played to its end: then all
        36 cards are public, each seat's hand being the cards it played.  None for a hand that
        was not played out (a game record can end part-way)."""
        if self.declarer is None or self.declaration is None or len(self.plays) != NUM_CARDS:
            return None
        deal: list[Mask] = [0] * NUM_SEATS
        for seat, card in zip(self.play_seats, self.plays, strict=True):
            deal[seat] |= 1 << card
        log = HandLog(self.number, (deal[0], deal[1], deal[2]), self.forehand)
        log.bids.extend(self.bids)
        state = log.declare(self.declarer, self.declaration, self.puddle)
        for card in self.plays:
            state.push(card)
        return log


class _OpenTable(_OpenPlay, _Scored):
    """What everyone at the table, and anyone watching it, sees alike: the sheet, the hands before
    this one, the bids and the cards played of this one, whose turn it is."""

    players: tuple[str, str, str]
    hand_number: int
    forehand: Seat
    redo_spent: tuple[bool, bool, bool]
    history: tuple[PastHand, ...]
    bids: tuple[Bid, ...]
    bid_seats: tuple[Seat, ...]
    bidder: Seat | None
    in_puddle: bool
    puddle: bool
    to_act: Seat | None

    def redone(self) -> set[tuple[str, Seat]]:
        """(contract id, seat) for every contract played again with a redo token."""
        hands: list[_OpenPlay] = [*self.history, self]
        return {
            (h.declaration.contract.id, h.declarer)
            for h in hands
            if h.declaration is not None and h.declaration.redo and h.declarer is not None
        }

    def shown_hand(self) -> PastHand | None:
        """The hand on the table: the one being bid or played, or between hands the last one
        played -- as everyone sees it (this seat's own cards are ``own_cards``)."""
        if self.phase is Phase.BIDDING or self.phase is Phase.PLAY:
            return PastHand(
                number=self.hand_number,
                forehand=self.forehand,
                bids=self.bids,
                bid_seats=self.bid_seats,
                declarer=self.declarer,
                declaration=self.declaration,
                puddle=self.puddle,
                plays=self.plays,
                play_seats=self.play_seats,
                trick_winners=self.trick_winners,
                winning=self.winning,
                result=None,
            )
        return self.history[-1] if self.history else None

    def cards_left(self, seat: Seat) -> int:
        """How many cards ``seat`` still holds."""
        return HAND_SIZE - sum(1 for s in self.play_seats if s == seat)


@dataclass(frozen=True)
class PlayerView(_OpenTable):
    seat: Seat
    rules: Rules
    players: tuple[str, str, str]
    phase: Phase
    hand_number: int  # 1-based number of the current hand (0 before the first deal)
    forehand: Seat
    sheet: dict[str, tuple[int | None, int | None, int | None]]
    redo_spent: tuple[bool, bool, bool]
    history: tuple[PastHand, ...]  # the hands before the current one
    # --- the current hand (empty before a deal) ---
    own_cards: Mask  # the cards this player still holds
    dealt_cards: Mask  # the 12 cards this player was dealt this hand
    bids: tuple[Bid, ...]
    bid_seats: tuple[Seat, ...]  # who made each of them
    bidder: Seat | None
    in_puddle: bool
    declarer: Seat | None
    declaration: Declaration | None
    puddle: bool
    plays: tuple[Card, ...]  # cards played this hand, in order
    play_seats: tuple[Seat, ...]  # who played each of them
    trick_winners: tuple[Seat, ...]
    winning: Seat | None  # the seat winning the unfinished trick so far
    to_act: Seat | None
    legal_bids: tuple[Bid, ...]  # this player's, when it is their bid
    legal_cards: Mask  # this player's legal cards, when it is their card

    def undo_point(self) -> tuple[int, int] | None:
        """(bids, cards) of the current hand to go back to if this seat took back its last move
        now, or None: its last bid or card of this hand, as long as no later trick has started
        since (and not a pass that was forced on it).  The rule of undo, for a game on this machine
        and at a table with one person alike."""
        if self.phase is not Phase.BIDDING and self.phase is not Phase.PLAY:
            return None
        seat = self.seat
        for k in range(len(self.plays) - 1, -1, -1):
            if self.play_seats[k] == seat:
                if len(self.plays) > (k // NUM_SEATS + 1) * NUM_SEATS:
                    return None  # a later trick has begun
                return len(self.bids), k
        if self.plays:
            return None  # the seat has not played in this hand yet, and a trick has begun
        if not self.has_open(seat) and not self.has_redo(seat):
            return None  # the seat's pass was forced: nothing to take back
        mine = [i for i, s in enumerate(self.bid_seats) if s == seat]
        return (mine[-1], 0) if mine else None

    def verify_bid(self, bid: Bid) -> None:
        """Raise the refusal ``Game.verify_bid`` would raise for this seat's ``bid`` now, from
        the view alone (the sheet, the redo tokens spent, the puddle); nothing if it is allowed."""
        if self.phase is not Phase.BIDDING:
            raise self._phase_refusal(Phase.BIDDING)
        refusal = turn_refusal(self.seat, self.bidder, self.players, self.phase) or bid_refusal(
            bid, self.seat, self.players, self.rules, self.sheet, self.redo_spent, self.in_puddle
        )
        if refusal is not None:
            raise refusal

    def verify_play(self, card: Card) -> None:
        """Raise the refusal ``Game.verify_play`` would raise for this seat's ``card`` now, from
        the view alone (its own cards, the trick on the table, the declaration): the other seats'
        cards play no part in it.  Nothing if the card may be played."""
        declaration = self.declaration
        if self.phase is not Phase.PLAY or declaration is None:
            raise self._phase_refusal(Phase.PLAY)
        refusal = turn_refusal(self.seat, self.to_act, self.players, self.phase) or card_refusal(
            card,
            self.seat,
            self.players,
            self.own_cards,
            self.current_trick(),
            declaration.contract,
            declaration.ranking,
            declaration.trump,
        )
        if refusal is not None:
            raise refusal

    def _phase_refusal(self, wanted: Phase) -> WrongPhaseError:
        return phase_refusal(
            self.phase, wanted, self.players, self.hand_number, self.declarer, self.declaration, self.bidder
        )

    @property
    def unseen_cards(self) -> Mask:
        """Cards held by the other two players: not ours, not yet played."""
        return FULL_DECK & ~self.dealt_cards & ~self.played_mask

    def state_with(self, hidden: dict[Seat, Mask]) -> HandState:
        """The hand's card play as it would be if the other seats held ``hidden`` now.

        ``hidden`` maps each other seat to the mask of cards it holds now;
        together with this player's cards and the cards played, they must make
        up the deck.  The AI samples such layouts and searches them.
        """
        declaration = self.declaration
        if declaration is None or self.declarer is None:
            raise WrongPhaseError("no contract has been declared yet")
        start: list[Mask] = [0, 0, 0]
        start[self.seat] = self.dealt_cards
        for seat, mask in hidden.items():
            start[seat] = mask
        for seat, c in zip(self.play_seats, self.plays, strict=True):
            if seat != self.seat:
                start[seat] |= 1 << c
        state = HandState(start, self.declarer, declaration.contract, declaration.ranking, declaration.trump)
        for c in self.plays:
            state.push(c)
        return state


@dataclass(frozen=True)
class PublicView(_OpenTable):
    """What someone who watches the table may see (``Game.public_view``): a ``PlayerView`` without
    a seat -- no cards of anyone's but those played, no choices.  The deals of the hands before
    this one are public (each was played out: ``PastHand.replayed``); this hand's are not."""

    seat: None  # nobody's seat: the words about it say no "you"
    rules: Rules
    players: tuple[str, str, str]
    phase: Phase
    hand_number: int
    forehand: Seat
    sheet: dict[str, tuple[int | None, int | None, int | None]]
    redo_spent: tuple[bool, bool, bool]
    history: tuple[PastHand, ...]
    bids: tuple[Bid, ...]
    bid_seats: tuple[Seat, ...]
    bidder: Seat | None
    in_puddle: bool
    declarer: Seat | None
    declaration: Declaration | None
    puddle: bool
    plays: tuple[Card, ...]
    play_seats: tuple[Seat, ...]
    trick_winners: tuple[Seat, ...]
    winning: Seat | None
    to_act: Seat | None
