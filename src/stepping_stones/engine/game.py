"""The whole game as a state machine: deal, bid, play, record, score.

Every action has three forms, after pokerkit: ``verify_x`` raises the precise
refusal, ``can_x`` answers yes or no, and ``x`` does it (after verifying).  A
refused action leaves the game exactly as it was.  The game's history is data
(``Game.log``): the deals, every bid and every card, from which a game record
is written and from which the game can be rebuilt.  ``push`` makes a move and
``pop`` takes the last one back, exactly, as python-chess's ``Board`` does.

>>> from random import Random
>>> game = Game(Rules("standard"), ("Ann", "Hana", "Kenji"), first_forehand=0)
>>> _ = game.deal_hand(Random(1))
>>> game.phase, game.bidder
(<Phase.BIDDING: 'bidding'>, 0)
>>> game.can_bid(PASS), game.can_play(0)
(True, False)
>>> game.bid(parse_bid("lose-no-trump 9"))
>>> game.phase, game.hand.declarer, game.to_act
(<Phase.PLAY: 'play'>, 0, 0)
>>> game.bid(PASS)
Traceback (most recent call last):
...
stepping_stones.engine.errors.WrongPhaseError: the bidding has ended: Ann declared Lose Tricks (No Trump), 9 high
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from random import Random
from typing import Any, Final, TypeAlias, TypeVar

from .bids import PASS, Bid, Declaration, Pass, parse_bid  # noqa: F401 (the docstrings' examples use parse_bid)
from .cards import (
    FULL_DECK,
    HAND_SIZE,
    NUM_CARDS,
    NUM_SEATS,
    RANKINGS,
    Card,
    Mask,
    Seat,
    cards_of,
    format_cards,
)
from .cards import deal as deal_cards
from .contracts import Contract, Rules
from .errors import (
    IllegalActionError,
    InvalidDealError,
    NothingToPopError,
    RulesError,
    WrongPhaseError,
)
from .hand import HandState
from .log import HandLog, Phase
from .refusals import bid_refusal, card_refusal, phase_refusal
from .view import PastHand, PlayerView, PublicView, _Scored

# The public names, re-exported by the engine's face (__init__.py).
__all__ = ["DEFAULT_PLAYERS", "Game", "Move", "next_forehand", "puddle_seat"]

DEFAULT_PLAYERS = ("You", "Hana", "Kenji")

Move: TypeAlias = tuple[Mask, Mask, Mask] | Bid | Card
"""One step of a game, as ``Game.push`` makes it and ``Game.pop`` takes it back: a deal (three
masks, which starts a hand), a bid, or a card."""


_A = TypeVar("_A")


def _allows(verify: Callable[[_A], None], action: _A) -> bool:
    """Whether ``verify`` lets ``action`` through: the yes/no form of a ``verify_*``, which catches
    only the refusals (``IllegalActionError``), so that a bug is never taken for a "no"."""
    try:
        verify(action)
    except IllegalActionError:
        return False
    return True


def puddle_seat(forehand: Seat, has_open: Sequence[bool]) -> Seat | None:
    """Who is pushed in the puddle: the forehand, or the next seat clockwise with an open contract.

    >>> puddle_seat(1, [True, False, True])
    2
    """
    for i in range(NUM_SEATS):
        seat = (forehand + i) % NUM_SEATS
        if has_open[seat]:
            return seat
    return None


def next_forehand(forehand: Seat, has_open: Sequence[bool]) -> Seat | None:
    """Where the forehand card goes after a hand: clockwise to the next seat with an open contract.

    >>> next_forehand(0, [True, False, True]), next_forehand(0, [False, False, False])
    (2, None)
    """
    for i in range(1, NUM_SEATS + 1):
        seat = (forehand + i) % NUM_SEATS
        if has_open[seat]:
            return seat
    return None


class Game(_Scored):
    """A game of Stepping Stones between three seats, 0, 1, 2 clockwise.  The sheet is scored by
    ``points``, ``totals``, ``firsts`` and ``winners``, as a seat's ``PlayerView`` scores it."""

    def __init__(
        self,
        rules: Rules | None = None,
        players: Sequence[str] = DEFAULT_PLAYERS,
        first_forehand: Seat = 0,
    ) -> None:
        if len(players) != NUM_SEATS:
            raise RulesError("Stepping Stones is played by exactly three players")
        if first_forehand not in range(NUM_SEATS) or isinstance(first_forehand, bool):
            raise RulesError("the first forehand must be seat 0, 1 or 2")
        self.rules = rules if rules is not None else Rules()
        self.players: tuple[str, str, str] = (players[0], players[1], players[2])
        self.first_forehand: Seat = first_forehand
        self.forehand: Seat = first_forehand
        self.sheet: dict[str, list[int | None]] = {c.id: [None, None, None] for c in self.rules.contracts}
        self.redo_spent: list[bool] = [False, False, False]
        self.log: list[HandLog] = []
        self.phase = Phase.DEAL
        self._history: list[PastHand] = []  # the finished hands as everyone saw them

    # --- what the table looks like ------------------------------------

    @property
    def hand(self) -> HandLog | None:
        """The hand being bid or played, or the last one played."""
        return self.log[-1] if self.log else None

    @property
    def state(self) -> HandState | None:
        """The card play of the current hand, once a contract is declared."""
        if not self.log or not self.log[-1].declared:
            return None
        return self.log[-1].state

    def name(self, seat: Seat) -> str:
        return self.players[seat]

    def open_contracts(self, seat: Seat) -> list[Contract]:
        """The contracts ``seat`` has not recorded yet."""
        return [c for c in self.rules.contracts if self.sheet[c.id][seat] is None]

    @property
    def in_puddle(self) -> bool:
        """Whether all three passed and the bidder is forced to declare."""
        return self.phase is Phase.BIDDING and len(self.log[-1].bids) >= NUM_SEATS

    @property
    def bidder(self) -> Seat | None:
        """The seat whose bid it is, or None outside the bidding."""
        if self.phase is not Phase.BIDDING:
            return None
        n = len(self.log[-1].bids)
        if n < NUM_SEATS:
            return (self.forehand + n) % NUM_SEATS
        return puddle_seat(self.forehand, [self.has_open(s) for s in range(NUM_SEATS)])

    @property
    def to_act(self) -> Seat | None:
        """The seat to bid or play now, or None (waiting for a deal, or game over)."""
        if self.phase is Phase.BIDDING:
            return self.bidder
        if self.phase is Phase.PLAY:
            return self.log[-1].state.turn
        return None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    # --- dealing --------------------------------------------------------

    def verify_deal(self, deal: Sequence[Mask]) -> None:
        """Raise ``InvalidDealError`` (or a phase error) unless ``deal`` may start the next hand."""
        if self.phase is not Phase.DEAL:
            raise self._phase_error(Phase.DEAL)
        if len(deal) != NUM_SEATS:
            raise InvalidDealError("a deal gives cards to exactly three seats")
        seen = 0
        for seat, mask in enumerate(deal):
            if not isinstance(mask, int) or mask < 0 or mask & ~FULL_DECK:
                raise InvalidDealError(f"the deal of {self.players[seat]} is not a set of cards")
            if mask.bit_count() != HAND_SIZE:
                raise InvalidDealError(f"{self.players[seat]} is dealt {mask.bit_count()} cards, not {HAND_SIZE}", seat)
            if mask & seen:
                raise InvalidDealError(f"{format_cards(mask & seen)} dealt twice", seat)
            seen |= mask

    def start_hand(self, deal: Sequence[Mask]) -> HandLog:
        """Begin the next hand with ``deal`` (three masks of 12 cards)."""
        self.verify_deal(deal)
        hand = HandLog(len(self.log) + 1, (deal[0], deal[1], deal[2]), self.forehand)
        self.log.append(hand)
        self.phase = Phase.BIDDING
        self._forced_passes()
        return hand

    def deal_hand(self, rng: Random) -> HandLog:
        """Deal the next hand from ``rng`` and begin it."""
        return self.start_hand(deal_cards(rng))

    # --- bidding --------------------------------------------------------

    def _must_pass(self, seat: Seat) -> bool:
        return not self.has_open(seat) and not self.has_redo(seat)

    def _forced_passes(self) -> None:
        """A player with nothing to declare (and no redo to spend) passes at once."""
        hand = self.log[-1]
        while len(hand.bids) < NUM_SEATS and self._must_pass((self.forehand + len(hand.bids)) % NUM_SEATS):
            hand.bids.append(PASS)

    def legal_bids(self) -> list[Bid]:
        """Every bid the bidder may make now (empty outside the bidding)."""
        seat = self.bidder
        if seat is None:
            return []
        puddle = self.in_puddle
        bids: list[Bid] = [] if puddle else [PASS]
        redo = not puddle and self.rules.redo_tokens and not self.redo_spent[seat]
        for c in self.rules.contracts:
            recorded = self.sheet[c.id][seat] is not None
            if recorded and not redo:
                continue
            trumps: Sequence[int | None] = range(4) if c.picks_trump else (None,)
            for ranking in RANKINGS:
                for trump in trumps:
                    bids.append(Declaration(c, ranking, trump, recorded))
        return bids

    def verify_bid(self, bid: Bid) -> None:
        """Raise the precise ``IllegalBidError`` (or phase error) if ``bid`` is not allowed now
        (``refusals.bid_refusal``, which a seat's view checks with too)."""
        seat = self.bidder
        if seat is None:
            raise self._phase_error(Phase.BIDDING)
        refusal = bid_refusal(bid, seat, self.players, self.rules, self.sheet, self.redo_spent, self.in_puddle)
        if refusal is not None:
            raise refusal

    def can_bid(self, bid: Bid) -> bool:
        """Whether ``bid`` is allowed now."""
        return _allows(self.verify_bid, bid)

    def bid(self, bid: Bid) -> None:
        """Make ``bid`` for the bidder.  A declaration ends the bidding and starts the play."""
        self.verify_bid(bid)
        hand = self.log[-1]
        puddle = self.in_puddle
        seat = self.bidder
        assert seat is not None  # verify_bid checked the phase
        hand.bids.append(bid)
        if isinstance(bid, Pass):
            self._forced_passes()
            return
        hand.declare(seat, bid, puddle)
        if bid.redo:
            self.redo_spent[seat] = True
        self.phase = Phase.PLAY

    # --- card play ------------------------------------------------------

    def legal_cards_mask(self) -> Mask:
        """The cards the player to act may play, as a mask (0 outside the play)."""
        if self.phase is not Phase.PLAY:
            return 0
        return self.log[-1].state.legal_mask()

    def legal_cards(self) -> list[Card]:
        return list(cards_of(self.legal_cards_mask()))

    def verify_play(self, card: Card) -> None:
        """Raise the precise ``IllegalCardError`` (or phase error) if ``card`` may not be played now
        (``refusals.card_refusal``, which a seat's view checks with too)."""
        if self.phase is not Phase.PLAY:
            raise self._phase_error(Phase.PLAY)
        state = self.log[-1].state
        if type(card) is int and 0 <= card < NUM_CARDS and state.legal_mask() >> card & 1:
            return  # a legal card, at once: the words of a refusal are worked out only for one
        seat = state.turn
        refusal = card_refusal(
            card,
            seat,
            self.players,
            state.hands[seat],
            state.current_trick(),
            state.contract,
            state.ranking,
            state.trump,
        )
        if refusal is not None:
            raise refusal

    def can_play(self, card: Card) -> bool:
        """Whether ``card`` may be played now."""
        return _allows(self.verify_play, card)

    def play(self, card: Card) -> None:
        """Play ``card`` for the player to act.  After the 36th card the result is recorded."""
        self.verify_play(card)
        state = self.log[-1].state
        state.push(card)
        if state.finished:
            self._finish_hand()

    def _finish_hand(self) -> None:
        hand = self.log[-1]
        contract = hand.contract
        seat = hand.declarer
        count = hand.result
        row = self.sheet[contract.id]
        kept = row[seat]
        if kept is None or contract.better(count, kept):
            row[seat] = count
        self._history.append(_past(hand))
        has_open = [self.has_open(s) for s in range(NUM_SEATS)]
        forehand = next_forehand(self.forehand, has_open)
        if forehand is None:
            self.phase = Phase.OVER
        else:
            self.forehand = forehand
            self.phase = Phase.DEAL

    # --- the move stack: push and pop -------------------------------------

    def push(self, move: Move) -> None:
        """Make ``move``: a deal starts the next hand (``start_hand``), a bid is bid (``bid``),
        a card is played (``play``).  Refused as those refuse it, and then nothing changes."""
        if isinstance(move, tuple):
            self.start_hand(move)
        elif isinstance(move, Pass | Declaration):
            self.bid(move)
        else:
            self.play(move)

    def verify_pop(self) -> None:
        """Raise ``NothingToPopError`` if there is nothing to take back (no hand dealt yet)."""
        if not self.log:
            raise NothingToPopError("there is nothing to take back: no hand has been dealt yet")

    def can_pop(self) -> bool:
        """Whether there is a move to take back."""
        return bool(self.log)

    def pop(self) -> Move:
        """Take back the last move and return it; the game is then exactly as it was before it.

        The last move is the last card played (a card that ended a hand takes its result off
        the sheet, and the end of the game with it), else the last bid (a declaration gives the
        bidding back, and the redo token it spent; the passes that were forced after a bid go
        with it), else the deal of the hand.  ``push`` makes the returned move again, so
        ``game.push(game.pop())`` changes nothing.

        >>> from random import Random
        >>> game = Game(Rules("standard"), ("Ann", "Hana", "Kenji"), first_forehand=0)
        >>> _ = game.deal_hand(Random(1))
        >>> game.bid(PASS)
        >>> game.bid(parse_bid("win-no-trump 9"))
        >>> card = game.legal_cards()[0]
        >>> game.play(card)
        >>> game.pop() == card, game.phase, game.to_act
        (True, <Phase.PLAY: 'play'>, 1)
        >>> str(game.pop()), game.phase, game.bidder
        ('win-no-trump 9', <Phase.BIDDING: 'bidding'>, 1)
        >>> game.pop(), game.bidder
        (Pass(), 0)
        >>> len(game.pop()), game.phase, game.log
        (3, <Phase.DEAL: 'deal'>, [])
        >>> game.pop()
        Traceback (most recent call last):
        ...
        stepping_stones.engine.errors.NothingToPopError: there is nothing to take back: no hand has been dealt yet
        """
        self.verify_pop()
        hand = self.log[-1]
        if self.phase is Phase.DEAL or self.phase is Phase.OVER:
            self._unfinish_hand()  # the last move was the card that ended the hand
        if self.phase is Phase.PLAY:
            state = hand.state
            if state.plays:
                return state.pop()
            seat = hand.declarer
            declaration = hand.undeclare()
            hand.bids.pop()
            if declaration.redo:
                self.redo_spent[seat] = False
            self.phase = Phase.BIDDING
            return declaration
        bids = hand.bids
        while bids and len(bids) <= NUM_SEATS and self._must_pass(hand.bid_seat(len(bids) - 1)):
            bids.pop()  # forced: it went with the move before it
        if bids:
            return bids.pop()
        self.log.pop()
        self.phase = Phase.DEAL
        return hand.deal

    def _unfinish_hand(self) -> None:
        """Undo ``_finish_hand``: the sheet as it was before the hand, the forehand back."""
        hand = self.log[-1]
        contract = hand.contract
        seat = hand.declarer
        best: int | None = None  # the seat's best earlier result for the contract
        for earlier in self.log[:-1]:
            if earlier.declarer == seat and earlier.contract == contract:
                result = earlier.result
                if best is None or contract.better(result, best):
                    best = result
        self.sheet[contract.id][seat] = best
        self._history.pop()
        self.forehand = hand.forehand
        self.phase = Phase.PLAY

    def _phase_error(self, wanted: Phase | None = None) -> WrongPhaseError:
        """The refusal of an action that belongs to phase ``wanted``, not to the current one."""
        hand = self.log[-1] if self.log else None
        declared = hand is not None and hand.declared
        return phase_refusal(
            self.phase,
            wanted,
            self.players,
            len(self.log),
            hand.declarer if hand is not None and declared else None,
            hand.declaration if hand is not None and declared else None,
            self.bidder,
        )

    # --- what one seat may see ------------------------------------------------

    def view(self, seat: Seat) -> PlayerView:
        """What ``seat`` may see now (a frozen ``PlayerView``): its own cards and choices, and the
        open table."""
        return self.views((seat,))[0]

    def public_view(self) -> PublicView:
        """What someone who watches the table may see now: the open table of every seat's view,
        and nobody's cards (``PublicView``)."""
        return PublicView(seat=None, **self._open_table()[2])

    def _open_table(self) -> tuple[HandLog | None, HandState | None, dict[str, Any]]:
        """The current hand (being bid or played), its play, and the fields every seat's view holds
        alike (the open table)."""
        phase = self.phase
        current = self.log[-1] if phase is Phase.BIDDING or phase is Phase.PLAY else None
        bidding = current if current is not None and not current.declared else None
        played = current if current is not None and current.declared else None
        state = played.state if played is not None else None
        winning = state.winning() if state is not None else None
        to_act = self.to_act
        table: dict[str, Any] = {
            "rules": self.rules,
            "players": self.players,
            "phase": phase,
            "hand_number": len(self.log) + (1 if current is None and phase is not Phase.OVER else 0),
            "forehand": self.forehand,
            "sheet": {k: (v[0], v[1], v[2]) for k, v in self.sheet.items()},
            "redo_spent": (self.redo_spent[0], self.redo_spent[1], self.redo_spent[2]),
            "history": tuple(self._history),
            "bids": tuple(current.bids) if current is not None else (),
            "bid_seats": tuple(current.bid_seats()) if current is not None else (),
            "bidder": self.bidder if bidding is not None else None,
            "in_puddle": self.in_puddle if bidding is not None else False,
            "declarer": state.declarer if state is not None else None,
            "declaration": played.declaration if played is not None else None,
            "puddle": played.puddle if played is not None else False,
            "plays": tuple(state.plays) if state is not None else (),
            "play_seats": tuple(state.play_seats()) if state is not None else (),
            "trick_winners": tuple(state.winners) if state is not None else (),
            "winning": winning[0] if winning else None,
            "to_act": to_act,
        }
        return current, state, table

    def views(self, seats: Sequence[Seat]) -> list[PlayerView]:
        """What each of ``seats`` may see now (``view``), the open table worked out once for all of
        them (the same objects in each view: a table server sends each seat its own)."""
        current, state, table = self._open_table()
        to_act = table["to_act"]
        # every field in the view's order: the table's filled in here, each seat's own below
        shared = dict.fromkeys(_VIEW_FIELDS)
        shared.update(table)
        views = []
        for seat in seats:
            own_cards: Mask = 0
            dealt: Mask = 0
            legal_bids: tuple[Bid, ...] = ()
            legal_cards: Mask = 0
            if current is not None:
                dealt = own_cards = current.deal[seat]
                if state is not None:
                    own_cards = state.hands[seat]
                    legal_cards = state.legal_mask() if to_act == seat else 0
                elif to_act == seat:
                    legal_bids = tuple(self.legal_bids())
            fields = shared.copy()
            fields["seat"] = seat
            fields["own_cards"] = own_cards
            fields["dealt_cards"] = dealt
            fields["legal_bids"] = legal_bids
            fields["legal_cards"] = legal_cards
            views.append(_view(fields))
        return views


_VIEW_FIELDS: Final = tuple(f.name for f in dataclasses.fields(PlayerView))
"""``PlayerView``'s fields, in the order its ``__init__`` sets them."""


def _view(fields: dict[str, Any]) -> PlayerView:
    """The ``PlayerView`` of ``fields`` (each of ``_VIEW_FIELDS``, in that order), as
    ``PlayerView(**fields)`` makes it but without its ``__init__``: a frozen dataclass's sets its
    25 fields one by one through ``object.__setattr__``, which made the three views of a table
    server's every change cost more than the rest of them.  PlayerView has no ``__post_init__``."""
    view = object.__new__(PlayerView)
    object.__setattr__(view, "__dict__", fields)
    return view


def _past(hand: HandLog) -> PastHand:
    declared = hand.declared
    return PastHand(
        number=hand.number,
        forehand=hand.forehand,
        bids=tuple(hand.bids),
        bid_seats=tuple(hand.bid_seats()),
        declarer=hand.declarer if declared else None,
        declaration=hand.declaration if declared else None,
        puddle=hand.puddle if declared else False,
        plays=hand.plays,
        play_seats=tuple(hand.play_seats()),
        trick_winners=hand.trick_winners,
        winning=None,
        result=hand.result if hand.finished else None,
    )
