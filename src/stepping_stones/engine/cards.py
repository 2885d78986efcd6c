"""Cards as small ints, sets of cards as int bitmasks.

A card is an ``int`` from 0 to 35: ``suit * 9 + (rank - 1)``.  A set of cards
(a hand, the cards of a suit, the legal cards) is an ``int`` whose bit ``c`` is
set when card ``c`` is in the set.  Everything here is plain data and
functions: no classes in the hot path.

The ints have names for the reader and for mypy, as python-chess names its
``Square`` and ``Bitboard``: ``Card`` (0-35), ``Seat`` (0, 1, 2 clockwise) and
``Mask`` (a set of cards).  They are aliases of ``int``, not ``NewType``s: they
cost nothing at run time, in the hot loops least of all, and an ``int`` is
accepted where they are asked for.  A rank, a suit, a count or a trick number
stays a plain ``int``, and so does a set of tricks (bit ``t`` for trick ``t``).

>>> k7 = parse_card("K7")
>>> k7, card_name(k7), SUIT_NAMES[SUIT_OF[k7]]
(15, 'K7', 'Koi')
>>> hand = mask_of([parse_card("K4"), parse_card("K8"), parse_card("C1")])
>>> format_cards(hand)
'C1, K4, K8'
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from operator import itemgetter
from random import Random
from typing import TypeAlias

from .errors import CardSyntaxError

# The public names, re-exported by the engine's face (__init__.py).
__all__ = [
    "ABOVE",
    "BIT",
    "CARD_NAMES",
    "FULL_DECK",
    "HAND_SIZE",
    "NINE_HIGH",
    "NUM_CARDS",
    "NUM_SEATS",
    "NUM_SUITS",
    "ONE_HIGH",
    "RANK_OF",
    "RANKINGS",
    "STRENGTH",
    "SUIT_MASK_OF",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "SUIT_OF",
    "SUIT_SIZE",
    "SUITS",
    "TRICKS",
    "Card",
    "Mask",
    "Seat",
    "card",
    "card_name",
    "cards_of",
    "deal",
    "format_cards",
    "mask_of",
    "parse_card",
    "parse_suit",
    "record_cards",
    "sorted_cards",
    "strength",
]

Card: TypeAlias = int
"""A card: ``suit * 9 + (rank - 1)``, from 0 (C1) to 35 (B9)."""
Seat: TypeAlias = int
"""A seat at the table: 0, 1 or 2, clockwise."""
Mask: TypeAlias = int
"""A set of cards: bit ``c`` is set when card ``c`` is in it."""

SUITS = "CKLB"
"""Suit letters in suit-index order."""

SUIT_NAMES = ("Cherry Blossoms", "Koi", "Stone Lanterns", "Bridges")
NUM_SUITS = 4
SUIT_SIZE = 9
"""Cards in a suit: the ranks 1 to 9."""
NUM_CARDS = NUM_SUITS * SUIT_SIZE
NUM_SEATS = 3
HAND_SIZE = NUM_CARDS // NUM_SEATS
"""Cards dealt to each seat, which is also the number of tricks in a hand."""
TRICKS = HAND_SIZE

NINE_HIGH = 9
ONE_HIGH = 1
RANKINGS = (NINE_HIGH, ONE_HIGH)

FULL_DECK: Mask = (1 << NUM_CARDS) - 1
SUIT_MASKS: tuple[Mask, ...] = tuple(((1 << SUIT_SIZE) - 1) << (SUIT_SIZE * s) for s in range(NUM_SUITS))

BIT: tuple[Mask, ...] = tuple(1 << c for c in range(NUM_CARDS))
SUIT_OF = tuple(c // SUIT_SIZE for c in range(NUM_CARDS))
RANK_OF = tuple(c % SUIT_SIZE + 1 for c in range(NUM_CARDS))
SUIT_MASK_OF: tuple[Mask, ...] = tuple(SUIT_MASKS[c // SUIT_SIZE] for c in range(NUM_CARDS))


def card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0-3) and ``rank`` (1-9).

    >>> card_name(card(1, 7))
    'K7'
    """
    return suit * SUIT_SIZE + rank - 1


def _strength_table(ranking: int) -> tuple[int, ...]:
    if ranking == NINE_HIGH:
        return RANK_OF
    return tuple(SUIT_SIZE + 1 - r for r in RANK_OF)


STRENGTH = {r: _strength_table(r) for r in RANKINGS}
"""``STRENGTH[ranking][c]``: the strength of ``c`` inside its suit (1 weakest, 9 strongest)."""


def strength(ranking: int) -> tuple[int, ...]:
    """Per card, its strength inside its suit under ``ranking`` (1 weakest, 9 strongest).

    >>> strength(ONE_HIGH)[parse_card("K1")], strength(NINE_HIGH)[parse_card("K1")]
    (9, 1)
    """
    return STRENGTH[ranking]


def _above_table(ranking: int) -> tuple[Mask, ...]:
    table = []
    key = STRENGTH[ranking]
    for c in range(NUM_CARDS):
        mask = 0
        for d in range(NUM_CARDS):
            if SUIT_OF[d] == SUIT_OF[c] and key[d] > key[c]:
                mask |= 1 << d
        table.append(mask)
    return tuple(table)


ABOVE = {r: _above_table(r) for r in RANKINGS}
"""``ABOVE[ranking][c]``: the cards of ``c``'s suit that beat ``c`` under ``ranking``.

>>> format_cards(ABOVE[NINE_HIGH][parse_card("K6")])
'K7, K8, K9'
>>> format_cards(ABOVE[ONE_HIGH][parse_card("K3")])
'K1, K2'
"""


def card_name(c: Card) -> str:
    """``'K7'`` for the 7 of Koi."""
    return SUITS[c // SUIT_SIZE] + str(c % SUIT_SIZE + 1)


CARD_NAMES = tuple(card_name(c) for c in range(NUM_CARDS))
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}


def parse_card(text: str) -> Card:
    """The card written as ``text`` (suit letter then rank, e.g. ``'L1'``).

    >>> parse_card("L1")
    18
    >>> parse_card("X9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stepping_stones.engine.errors.CardSyntaxError: 'X9' is not a card (a suit letter C, K, L or B, ...
    """
    try:
        return _CARD_BY_NAME[text]
    except (KeyError, TypeError):
        raise CardSyntaxError(
            f"{text!r} is not a card (a suit letter C, K, L or B, then a rank 1-9, e.g. K7)"
        ) from None


def parse_suit(text: str) -> int:
    """The suit written as its letter.

    >>> parse_suit("B")
    3
    """
    if len(text) == 1 and text in SUITS:
        return SUITS.index(text)
    raise CardSyntaxError(f"{text!r} is not a suit (C, K, L or B)")


def cards_of(mask: Mask) -> Iterator[Card]:
    """The cards in ``mask``, lowest index first.

    >>> [card_name(c) for c in cards_of(mask_of([parse_card("B2"), parse_card("C9")]))]
    ['C9', 'B2']
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> Mask:
    """The set of ``cards`` as a mask."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def sorted_cards(mask: Mask, ranking: int = NINE_HIGH) -> list[Card]:
    """The cards of ``mask`` by suit, strongest first within each suit.

    >>> hand = mask_of(parse_card(t) for t in "K1 K9 C5".split())
    >>> [card_name(c) for c in sorted_cards(hand, ONE_HIGH)]
    ['C5', 'K1', 'K9']
    """
    key = STRENGTH[ranking]
    return sorted(cards_of(mask), key=lambda c: (SUIT_OF[c], -key[c]))


def format_cards(mask: Mask) -> str:
    """``'K4, K8'`` -- the cards of ``mask`` for a message to a player, by suit and rank."""
    return ", ".join(CARD_NAMES[c] for c in cards_of(mask))


def record_cards(cards: Iterable[Card]) -> str:
    """Cards as a game record writes them: names separated by single spaces.

    >>> record_cards([parse_card("K9"), parse_card("K1")])
    'K9 K1'
    """
    return " ".join([CARD_NAMES[c] for c in cards])  # a list: join makes one of a generator first


_KEYS = struct.Struct(f"<{NUM_CARDS}Q")


def deal(rng: Random) -> tuple[Mask, Mask, Mask]:
    """Deal the 36 cards, 12 to each seat, from the injected ``rng``.

    Each card gets a random 64-bit key and the deck is sorted by key: a
    uniform shuffle (ties have probability about 1e-17) that costs one call to
    the generator instead of 35.  The same seed always deals the same cards.

    >>> hands = deal(Random(7))
    >>> [h.bit_count() for h in hands], hands[0] | hands[1] | hands[2] == FULL_DECK
    ([12, 12, 12], True)
    >>> hands == deal(Random(7))
    True
    """
    keys = _KEYS.unpack(rng.randbytes(_KEYS.size))
    order = sorted(range(NUM_CARDS), key=keys.__getitem__)
    first = sum(itemgetter(*order[:HAND_SIZE])(BIT))
    second = sum(itemgetter(*order[HAND_SIZE : 2 * HAND_SIZE])(BIT))
    return first, second, FULL_DECK ^ first ^ second
