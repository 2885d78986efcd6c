"""What the table shows, as one immutable value: ``TableState``.

``GameFlow`` builds one after every change (from the person's ``PlayerView``,
built once for it) and hands it to its subscribers.  Every front end draws from
it and from nothing else: the terminal table's panels, the plain mode's
sentences.  It is plain data: a state goes through JSON (pydantic's ``TypeAdapter``
at a boundary, never on a hot path) and comes back equal, which the tests check.

A state holds the person's view and the facts of the table around it: the card
the cursor is on, the bid being put together, the last refusal, the hint, the
AI seat that is thinking, the log of what happened, and whether a hand's
summary or the end of the game is on show.  What can be worked out from those
(the person's cards in order, the bid options, the chosen bid) are properties,
so a state rebuilt from JSON is the same state.

May import: the engine's public face and the hints' ``Hint`` value.  Never Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ai.hints import Hint
from ..engine import CONTRACTS, NINE_HIGH, PASS, Bid, Declaration, Phase, PlayerView, Trick, sorted_cards
from ..game.choices import HUMAN

LOG_KEPT = 40
"""Events the state's log keeps (newest last): more than any panel shows."""


@dataclass(frozen=True)
class Event:
    """Something that happened at the table, and the sentence that tells it."""

    kind: str  # "deal", "bid", "puddle", "card", "trick", "undo", "save", "resume"
    text: str
    seat: int | None = None
    trick: Trick | None = None


@dataclass(frozen=True)
class BidChoice:
    """The bid the person is putting together: which of the options, the ranking, the trump."""

    index: int = 0
    ranking: int = NINE_HIGH
    trump: int | None = None


BidOption = tuple[str | None, bool]
"""A line of the bid list: a contract id (None for a pass) and whether it spends the redo token."""


def bid_options(view: PlayerView) -> tuple[BidOption, ...]:
    """The person's bid list, one line per contract (and redo), from the view's legal bids."""
    opts: list[BidOption] = []
    for bid in view.legal_bids:
        key = (bid.contract.id, bid.redo) if isinstance(bid, Declaration) else (None, False)
        if key not in opts:
            opts.append(key)
    return tuple(opts)


@dataclass(frozen=True)
class Clock:
    """The table's clock (at a table on a server, which owns it): the seat it waits for and the
    seconds left, when the state was built, before a computer plays for that person."""

    seat: int
    seconds: int
    reading: bool = False  # it waits for the person to close the last hand's summary


@dataclass(frozen=True)
class TableState:
    """Everything a front end may show of a person's game, at one moment."""

    view: PlayerView  # what the person may see: every screen draws from this, never from the game
    cursor: int = 0  # the chosen card of the person's hand (an index into ``my_cards``)
    bid: BidChoice = BidChoice()
    refusal: str | None = None  # why the person's last try was refused (until their next action)
    hint_note: str | None = None  # "working it out", or that there is none (until their next action)
    hint: Hint | None = None  # the hint that came for this turn (until their next action)
    thinking: int | None = None  # the AI seat whose answer is being worked out or waited for
    log: tuple[Event, ...] = ()  # what happened, newest last (the last ``LOG_KEPT``)
    told: int = 0  # how many events have been told since the flow started (the log's last is number ``told``)
    summary: int | None = None  # the number of the hand whose summary is on show
    over: bool = False  # the game is over and its result is on show
    filed: str | None = None  # where the finished game was filed
    problem: str | None = None  # why the game is not being saved
    pace: str = "normal"
    assisted: bool = False  # the person took help (a hint, an undo)
    can_undo: bool = False
    # --- at a table on a server (net.remote); empty in a game on this machine ---
    seats: tuple[str, ...] = ()  # each seat in a few words: "person", "computer (expert)", "away"
    ratings: tuple[int | None, ...] = ()  # each seat's player's rating at the table server (None: none)
    waiting: str | None = None  # whom the table waits for, when it has no clock for them
    clock: Clock | None = None  # the table's clock, when it waits for a person
    stand_in: str | None = None  # a computer plays the person's seat: how to take it back
    stood: tuple[str, ...] = ()  # which hands a computer played for whom (for the result)
    hints_off: str | None = None  # why hints are off here
    undo_off: str | None = None  # why undo is off here
    watchers: int = 0  # how many watch the table (``net``'s watch link)

    @classmethod
    def of(cls, view: PlayerView, **facts: Any) -> TableState:
        """A state from a view alone, with any facts of the table given by name (a client that
        was sent a view builds its screen so)."""
        return cls(view=view, **facts)

    # --- worked out from the fields -------------------------------------------------

    @property
    def playing(self) -> bool:
        """The person is to play a card (and no AI seat is thinking)."""
        return self.view.phase is Phase.PLAY and self.view.to_act == HUMAN

    @property
    def bidding(self) -> bool:
        """The person is to bid."""
        return self.view.phase is Phase.BIDDING and self.view.bidder == HUMAN

    @property
    def my_turn(self) -> bool:
        return (self.playing or self.bidding) and self.thinking is None

    @property
    def my_cards(self) -> list[int]:
        """The person's cards in order: by the ranking in play, or while bidding by the ranking
        they are choosing."""
        return sorted_cards(self.view.own_cards, self.view.ranking or self.bid.ranking)

    @property
    def chosen_card(self) -> int | None:
        cards = self.my_cards
        return cards[self.cursor] if self.playing and 0 <= self.cursor < len(cards) else None

    @property
    def bid_options(self) -> tuple[BidOption, ...]:
        return bid_options(self.view) if self.bidding else ()

    @property
    def chosen_bid(self) -> Bid | None:
        """The bid the choices make, or None while it needs a trump suit (or it is no bid time)."""
        opts = self.bid_options
        if not opts:
            return None
        cid, redo = opts[min(self.bid.index, len(opts) - 1)]
        if cid is None:
            return PASS
        contract = CONTRACTS[cid]
        if contract.picks_trump:
            if self.bid.trump is None:
                return None
            return Declaration(contract, self.bid.ranking, self.bid.trump, redo)
        return Declaration(contract, self.bid.ranking, None, redo)

    @property
    def hints_allowed(self) -> bool:
        return self.hints_off is None

    @property
    def online(self) -> bool:
        """The game is played at a table on a server (the seats' words are known)."""
        return bool(self.seats)

    @property
    def message(self) -> str | None:
        """The line over the log: a refusal, else the hint (or the note about it)."""
        if self.refusal:
            return self.refusal
        if self.hint is not None:
            return f"Hint: {self.hint.text}"
        return self.hint_note
