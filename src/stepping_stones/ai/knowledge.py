"""Card counting: what a seat can deduce from its view of the hand.

Everything here is read from a ``PlayerView`` -- the cards played, who played
them -- and the rules' consequences:

* a follower who did not follow the led suit has none of it left (in May Trump
  a trump played over a side-suit lead proves nothing: it was a free choice);
* in Must Beat, a follower who played a card of the led suit that does not beat
  the best one so far holds no card of that suit that would have beaten it;
* the cards still out are the ones neither held by this seat nor played.

``sample_layout`` deals the cards still out to the other two seats at random
(from the injected generator) so that every deduction above holds; the AI
searches those layouts with the engine's own ``HandState``.
"""

from __future__ import annotations

from collections.abc import Iterable
from random import Random

from ..engine import (
    ABOVE,
    NUM_SEATS,
    STRENGTH,
    SUIT_MASK_OF,
    SUIT_MASKS,
    Card,
    Declaration,
    FollowRule,
    Mask,
    PlayerView,
    Seat,
    Trick,
    cards_of,
)


def deductions(tricks: Iterable[Trick], declaration: Declaration) -> tuple[list[Mask], list[Mask]]:
    """From the tricks of a hand played under ``declaration``: per seat, the suits (a mask) it
    has shown out of, and the cards it is known not to hold (the rules above)."""
    void: list[Mask] = [0, 0, 0]  # suit masks each seat has shown out of
    cannot: list[Mask] = [0, 0, 0]  # cards each seat is known not to hold
    trump = declaration.trump
    follow = declaration.contract.follow
    strength = STRENGTH[declaration.ranking]
    above = ABOVE[declaration.ranking]
    trump_mask = SUIT_MASKS[trump] if trump is not None else 0
    for trick in tricks:
        led = trick.cards[0][1]
        led_suit = SUIT_MASK_OF[led]
        best = led  # best card of the led suit so far
        for s, c in trick.cards[1:]:
            bit = 1 << c
            if not bit & led_suit:
                if follow == FollowRule.MAY_TRUMP and bit & trump_mask and not led_suit & trump_mask:
                    continue  # a free trump: proves nothing
                void[s] |= led_suit
                cannot[s] |= led_suit
                continue
            if follow == FollowRule.MUST_BEAT and strength[c] < strength[best]:
                # It would have had to beat ``best`` with any card above it.
                cannot[s] |= above[best]
            if strength[c] > strength[best]:
                best = c
    return void, cannot


class Knowledge:
    """The seat's deductions about the current hand (play phase)."""

    __slots__ = ("seat", "others", "out", "cannot", "void", "counts", "ranking", "trump")

    def __init__(self, view: PlayerView) -> None:
        self.seat = seat = view.seat
        self.others = ((seat + 1) % NUM_SEATS, (seat + 2) % NUM_SEATS)
        self.out = view.unseen_cards
        self.counts = [view.cards_left(s) for s in range(NUM_SEATS)]
        declaration = view.declaration
        if declaration is None:
            raise ValueError("nothing to count before a contract is declared")
        self.ranking = declaration.ranking
        self.trump = declaration.trump
        self.void, self.cannot = deductions(view.tricks(), declaration)

    def is_boss(self, card: Card) -> bool:
        """Whether no card still out beats ``card`` in its suit."""
        return not ABOVE[self.ranking][card] & self.out

    def sample_layout(self, rng: Random) -> dict[Seat, Mask]:
        """The cards still out, dealt to the other two seats consistently with what is known."""
        a, b = self.others
        na = self.counts[a]
        out = self.out
        only_a = out & self.cannot[b] & ~self.cannot[a]
        only_b = out & self.cannot[a] & ~self.cannot[b]
        free = out & ~only_a & ~only_b
        need = na - only_a.bit_count()
        if need < 0 or need > free.bit_count():
            # The deductions contradict the counts (cannot happen with a legal
            # history); fall back to an unconstrained deal.
            only_a, free, need = 0, out, na
        cards = list(cards_of(free))
        chosen = rng.sample(cards, need) if need else []
        mask_a = only_a
        for c in chosen:
            mask_a |= 1 << c
        return {a: mask_a, b: out & ~mask_a}
