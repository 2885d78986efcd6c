"""Cards as small ints, sets of cards as int bitmasks.

A card is an ``int`` from 0 to 35: ``suit * 9 + (rank - 1)``.  A set of cards
(a hand, the cards of a suit, the legal cards) is an ``int`` whose bit ``c`` is
set when card ``c`` is in the set.  Everything here is plain data and
functions: no classes in the hot path.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from operator import itemgetter
from random import Random

SUITS = "CKLB"
"""Suit letters in suit-index order."""

SUIT_NAMES = ("Cherry Blossoms", "Koi", "Stone Lanterns", "Bridges")
RANKS = range(1, 10)
NUM_CARDS = 36
HAND_SIZE = 12

NINE_HIGH = 9
ONE_HIGH = 1
RANKINGS = (NINE_HIGH, ONE_HIGH)

FULL_DECK = (1 << NUM_CARDS) - 1
SUIT_MASKS = tuple(0x1FF << (9 * s) for s in range(4))

BIT = tuple(1 << c for c in range(NUM_CARDS))
SUIT_OF = tuple(c // 9 for c in range(NUM_CARDS))
RANK_OF = tuple(c % 9 + 1 for c in range(NUM_CARDS))
SUIT_MASK_OF = tuple(SUIT_MASKS[c // 9] for c in range(NUM_CARDS))


def card(suit: int, rank: int) -> int:
    """The card of ``suit`` (0-3) and ``rank`` (1-9)."""
    return suit * 9 + rank - 1


def strength(ranking: int) -> tuple[int, ...]:
    """Per card, its strength inside its suit under ``ranking`` (1 weakest, 9 strongest)."""
    return STRENGTH[ranking]


def _strength_table(ranking: int) -> tuple[int, ...]:
    if ranking == NINE_HIGH:
        return RANK_OF
    return tuple(10 - r for r in RANK_OF)


STRENGTH = {r: _strength_table(r) for r in RANKINGS}


def _above_table(ranking: int) -> tuple[int, ...]:
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
"""``ABOVE[ranking][c]``: the cards of ``c``'s suit that beat ``c`` under ``ranking``."""


def card_name(c: int) -> str:
    """``'K7'`` for the 7 of Koi."""
    return SUITS[c // 9] + str(c % 9 + 1)


CARD_NAMES = tuple(card_name(c) for c in range(NUM_CARDS))
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}


class CardSyntaxError(ValueError):
    """A card written in a way that names no card."""


def parse_card(text: str) -> int:
    """The card written as ``text`` (suit letter then rank, e.g. ``'L1'``)."""
    try:
        return _CARD_BY_NAME[text]
    except (KeyError, TypeError):
        raise CardSyntaxError(
            f"{text!r} is not a card (a suit letter C, K, L or B, then a rank 1-9, e.g. K7)"
        ) from None


def parse_suit(text: str) -> int:
    if len(text) == 1 and text in SUITS:
        return SUITS.index(text)
    raise CardSyntaxError(f"{text!r} is not a suit (C, K, L or B)")


def cards_of(mask: int) -> Iterator[int]:
    """The cards in ``mask``, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def sorted_cards(mask: int, ranking: int = NINE_HIGH) -> list[int]:
    """The cards of ``mask`` by suit, strongest first within each suit."""
    key = STRENGTH[ranking]
    return sorted(cards_of(mask), key=lambda c: (c // 9, -key[c]))


def format_cards(mask: int) -> str:
    """``'K4, K8'`` -- the cards of ``mask`` for a message to a player, by suit and rank."""
    return ", ".join(CARD_NAMES[c] for c in cards_of(mask))


def record_cards(cards: Iterable[int]) -> str:
    """Cards as a game record writes them: names separated by single spaces."""
    return " ".join(CARD_NAMES[c] for c in cards)


_KEYS = struct.Struct("<36Q")


def deal(rng: Random) -> tuple[int, int, int]:
    """Deal the 36 cards, 12 to each seat, from the injected ``rng``.

    Each card gets a random 64-bit key and the deck is sorted by key: a
    uniform shuffle (ties have probability about 1e-17) that costs one call to
    the generator instead of 35.  The same seed always deals the same cards.
    """
    keys = _KEYS.unpack(rng.randbytes(288))
    order = sorted(range(NUM_CARDS), key=keys.__getitem__)
    first = sum(itemgetter(*order[:12])(BIT))
    second = sum(itemgetter(*order[12:24])(BIT))
    return first, second, FULL_DECK ^ first ^ second
