"""The fast core: the play of one hand, on int bitmasks.

``HandState`` holds the three hands, the current trick and the tricks won.
``legal_mask()`` gives the cards the player to act may play; ``push(card)``
plays one without checking it (callers check first, or take it from
``legal_mask()``); ``pop()`` takes the last card back.  ``copy()`` is cheap.
The game state machine, the AI's search and the benchmark all use this one
class.  The follow rules and the trick winner are read from ``contracts`` (``FOLLOW_SPECS``,
``legal_reply``, ``trick_takers``), as the AI's solver reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import (
    ABOVE,
    BIT,
    NUM_CARDS,
    NUM_SEATS,
    STRENGTH,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    TRICKS,
    Card,
    Mask,
    Seat,
)
from .contracts import FOLLOW_SPECS, Contract, trick_takers

# The public names, re-exported by the engine's face (__init__.py).
__all__ = ["NEXT", "HandState", "Trick", "play_seats", "trick_keys"]

NEXT: tuple[Seat, Seat, Seat] = (1, 2, 0)
"""The seat after each seat, clockwise."""

_TRUMP_BONUS = 10  # above every plain strength (1-9)
_NO_TRUMP = 4
# _KEYS[ranking][trump]: per card its strength, plus _TRUMP_BONUS for a trump, so
# one integer comparison decides between a led-suit card and a trump.  Index
# _NO_TRUMP is "no trump".
_KEYS = {
    r: tuple(
        tuple(STRENGTH[r][c] + (_TRUMP_BONUS if SUIT_OF[c] == t else 0) for c in range(NUM_CARDS))
        for t in range(_NO_TRUMP + 1)
    )
    for r in STRENGTH
}


def trick_keys(ranking: int, trump: int | None) -> tuple[int, ...]:
    """Per card, what decides a trick between the cards that may win it (those of the suit led,
    and trumps): its strength under ``ranking``, plus a bonus above every plain strength for a
    trump.  The AI's searches and hints compare cards with these, as the engine does.

    >>> keys = trick_keys(9, trump=1)  # 9 high, Koi trump
    >>> from stepping_stones.engine import parse_card
    >>> keys[parse_card("K1")] > keys[parse_card("C9")] > keys[parse_card("C8")]
    True
    """
    return _KEYS[ranking][_NO_TRUMP if trump is None else trump]


class Trick(NamedTuple):
    """One trick of a hand: ``number`` (1-based), who led, the ``(seat, card)`` pairs in play
    order, and the seat that won it (or is winning it, while ``finished`` is false)."""

    number: int
    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat
    finished: bool


def play_seats(leader: Seat, winners: Sequence[Seat], plays: int) -> list[Seat]:
    """Who played each of the first ``plays`` cards of a hand led by ``leader`` whose tricks
    were won by ``winners``: the leader of a trick is the winner of the one before.

    >>> play_seats(2, [0, 0], 7)
    [2, 0, 1, 0, 1, 2, 0]
    """
    seats: list[Seat] = []
    first = leader
    for t in range((plays + NUM_SEATS - 1) // NUM_SEATS):
        if t:
            first = winners[t - 1]
        seats += _ROTATION[first]
    del seats[plays:]
    return seats


_ROTATION = tuple(tuple((s + i) % NUM_SEATS for i in range(NUM_SEATS)) for s in range(NUM_SEATS))
"""The seats in playing order from each leader."""


class HandState:
    """One hand's card play.  Seats are 0, 1, 2 clockwise.

    Public read-only fields: ``hands`` (three masks of cards still held),
    ``declarer``, ``ranking`` (9 or 1), ``trump`` (suit index or None),
    ``contract``, ``turn`` (seat to play), ``plays`` (cards in play order),
    ``winners`` (seat that won each finished trick), ``won`` (per seat, a
    mask of the tricks it won, bit t for trick t).
    """

    __slots__ = (
        "hands",
        "declarer",
        "ranking",
        "trump",
        "contract",
        "follow",
        "turn",
        "in_trick",
        "led",
        "best_key",
        "best_seat",
        "beat",
        "plays",
        "winners",
        "won",
        "_undo",
        "_key",
        "_above",
        "_trump_mask",
        "_takers",
        "_over",
        "_beat_led",
        "_trump_over",
    )

    def __init__(
        self,
        hands: tuple[Mask, Mask, Mask] | list[Mask],
        declarer: Seat,
        contract: Contract,
        ranking: int,
        trump: int | None = None,
    ) -> None:
        self.hands: list[Mask] = list(hands)
        self.declarer: Seat = declarer
        self.contract = contract
        self.ranking = ranking
        self.trump = trump
        self.follow = int(contract.follow)
        self._key = _KEYS[ranking][_NO_TRUMP if trump is None else trump]
        self._above = ABOVE[ranking]
        self._trump_mask: Mask = 0 if trump is None else SUIT_MASKS[trump]
        self._takers = trick_takers(ranking, trump)
        spec = FOLLOW_SPECS[contract.follow]
        self._beat_led = spec.beat_led
        self._trump_over = spec.trump_over
        self.turn: Seat = declarer
        self.in_trick = 0  # cards already in the current trick
        self.led: Mask = 0  # mask of the led suit (0 between tricks)
        self.best_key = -1  # strength key of the card winning the current trick so far
        self.best_seat: Seat = -1  # the seat that played it
        self.beat: Mask = 0  # led-suit cards that beat the best led-suit card so far
        self._over: Mask = 0  # the cards that would take the trick from the card winning it
        self.plays: list[Card] = []
        self.winners: list[Seat] = []
        self.won = [0, 0, 0]  # per seat, a set of tricks (bit t for trick t)
        # For every card played after the first of its trick, the trick's fields as they were
        # before it (led, beat, _over, best_key, best_seat): ``pop`` puts them back as they were.
        self._undo: list[tuple[Mask, Mask, Mask, int, Seat]] = []

    # --- the hot path ---------------------------------------------------

    def legal_mask(self) -> Mask:
        """The cards the player to act may play, as a mask."""
        hand = self.hands[self.turn]
        if self.in_trick:
            follow = hand & self.led
            if follow:  # ``legal_reply``, written out on the hot path
                if self._beat_led:
                    follow = (follow & self.beat) or follow
                if self._trump_over:
                    follow |= hand & self._trump_mask
                return follow
        return hand

    def push(self, card: Card) -> None:
        """Play ``card`` for the player to act.  Not checked: see ``legal_mask``."""
        seat = self.turn
        bit = BIT[card]
        self.hands[seat] ^= bit
        self.plays.append(card)
        n = self.in_trick
        if n:
            self._undo.append((self.led, self.beat, self._over, self.best_key, self.best_seat))
            if bit & self.beat:
                self.beat = self._above[card]
            if bit & self._over:
                self.best_key = self._key[card]
                self.best_seat = seat
                self._over = self._takers[card]
            if n == 1:
                self.in_trick = 2
                self.turn = NEXT[seat]
                return
            winner = self.best_seat
            self.won[winner] |= 1 << len(self.winners)
            self.winners.append(winner)
            self.in_trick = 0
            self.turn = winner
            # Between tricks the trick's fields are as at the start of the hand, so that a
            # position is the same object state however it was reached (``pop`` relies on it).
            self.led = self.beat = self._over = 0
            self.best_key = self.best_seat = -1
            return
        self.led = SUIT_MASK_OF[card]
        self._over = self._takers[card]
        self.best_key = self._key[card]
        self.best_seat = seat
        self.beat = self._above[card]
        self.in_trick = 1
        self.turn = NEXT[seat]

    def pop(self) -> Card:
        """Take back the last card played and return it."""
        card = self.plays.pop()
        n = self.in_trick
        if not n:  # the card finished a trick
            winner = self.winners.pop()
            self.won[winner] ^= 1 << len(self.winners)
            n = NUM_SEATS
        n -= 1  # cards of this trick played before ``card``
        leader = self.winners[-1] if self.winners else self.declarer
        seat = (leader + n) % NUM_SEATS
        self.hands[seat] |= BIT[card]
        self.turn = seat
        self.in_trick = n
        if n:
            self.led, self.beat, self._over, self.best_key, self.best_seat = self._undo.pop()
        else:
            self.led = self.beat = self._over = 0
            self.best_key = self.best_seat = -1
        return card

    def copy(self) -> HandState:
        other = HandState.__new__(HandState)
        other.hands = self.hands[:]
        other.declarer = self.declarer
        other.contract = self.contract
        other.ranking = self.ranking
        other.trump = self.trump
        other.follow = self.follow
        other.turn = self.turn
        other.in_trick = self.in_trick
        other.led = self.led
        other.best_key = self.best_key
        other.best_seat = self.best_seat
        other.beat = self.beat
        other.plays = self.plays[:]
        other.winners = self.winners[:]
        other.won = self.won[:]
        other._undo = self._undo[:]
        other._key = self._key
        other._above = self._above
        other._trump_mask = self._trump_mask
        other._takers = self._takers
        other._over = self._over
        other._beat_led = self._beat_led
        other._trump_over = self._trump_over
        return other

    __copy__ = copy

    # --- questions ------------------------------------------------------

    @property
    def trick_number(self) -> int:
        """0-based number of the trick being played (12 when the hand is over)."""
        return len(self.winners)

    @property
    def finished(self) -> bool:
        return len(self.winners) == TRICKS

    @property
    def leader(self) -> Seat:
        """The seat that led (or will lead) the current trick."""
        return self.winners[-1] if self.winners else self.declarer

    def current_trick(self) -> list[tuple[Seat, Card]]:
        """``(seat, card)`` for the cards of the unfinished trick, in play order."""
        n = self.in_trick
        if not n:
            return []
        leader = self.leader
        return [((leader + i) % NUM_SEATS, c) for i, c in enumerate(self.plays[-n:])]

    def trick(self, t: int) -> list[tuple[Seat, Card]]:
        """``(seat, card)`` for trick ``t`` (0-based), finished or in progress."""
        leader = self.winners[t - 1] if t else self.declarer
        cards = self.plays[NUM_SEATS * t : NUM_SEATS * t + NUM_SEATS]
        return [((leader + i) % NUM_SEATS, c) for i, c in enumerate(cards)]

    def seat_of(self, k: int) -> Seat:
        """The seat that played card ``k`` (0-based) of the hand, or is to play it."""
        t, i = divmod(k, NUM_SEATS)
        leader = self.winners[t - 1] if t else self.declarer
        return (leader + i) % NUM_SEATS

    def play_seats(self) -> list[Seat]:
        """Who played each card of ``plays``, in order."""
        return play_seats(self.declarer, self.winners, len(self.plays))

    def tricks(self) -> list[Trick]:
        """Every trick so far, the unfinished one last."""
        out = []
        for t in range((len(self.plays) + NUM_SEATS - 1) // NUM_SEATS):
            cards = tuple(self.trick(t))
            if t < len(self.winners):
                out.append(Trick(t + 1, cards[0][0], cards, self.winners[t], True))
            else:
                winning = self.winning()
                assert winning is not None
                out.append(Trick(t + 1, cards[0][0], cards, winning[0], False))
        return out

    def tricks_won(self, seat: Seat) -> int:
        return self.won[seat].bit_count()

    def count(self) -> int:
        """The declarer's result as the sheet counts it (only counted tricks)."""
        return (self.won[self.declarer] & self.contract.counted_mask).bit_count()

    def winning(self) -> tuple[Seat, Card] | None:
        """``(seat, card)`` currently winning the unfinished trick, or None."""
        n = self.in_trick
        if not n:
            return None
        leader = self.leader
        seat = self.best_seat
        return seat, self.plays[-n + (seat - leader) % NUM_SEATS]
