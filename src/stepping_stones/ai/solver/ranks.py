"""Rank codes: a position keyed on the *relative* ranks per suit, and the runs of equivalent cards.

Only the order of the cards still held matters, not which cards were played, so positions reached
through different tricks share one entry of the transposition table.  The code of one suit is
the string of owners (0, 1, 2) of its cards still held, lowest index first, read as a base-3
number, plus an offset per length so that lengths do not collide (15 bits: the sum of ``3**k``
for k in 0..9 is 29,524).  A position's key is its four suits' codes and the leader
(``position_key``).

Two cards of one suit in one hand with nothing still in play between them win and lose exactly
the same tricks, so the search tries one card per run (its highest-index card).  The cards of
the trick being played count as in play until the trick ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .jit import kernel

SUIT_BITS = 511
CODE_BITS = 15
SEAT_SHIFT = 60  # four suits of CODE_BITS


SPREAD_SIZE = 512
INFO_SIZE = 1 << 18


def suit_tables(ints: Callable[[int], Any], fill: Callable[..., Any]) -> tuple[Any, Any]:
    """``(spread, info)``, made by ``ints`` (a core's ``n`` zeros) and filled by ``fill`` (its
    ``fill_suit_tables``): the arrays are made outside the search, so that no compiled kernel
    needs numba's allocator (its runtime, and its array code, loaded with the first one)."""
    spread = ints(SPREAD_SIZE)
    info = ints(INFO_SIZE)
    fill(spread, ints(10), info)
    return spread, info


@kernel
def fill_suit_tables(spread, offset, info):
    """Fill ``spread``, which turns a suit's 9 bits into base-4 digits, and ``info``: per base-4
    index of a suit (a digit per rank: 0 played, 1 + its owner) it holds, in one integer, the
    suit's code (15 bits) and per owner one card per run (9 bits each, from bit 15 on): one
    memory access per suit.  ``offset`` (10 zeros) is room for the codes' offsets per length."""
    for x in range(SPREAD_SIZE):
        v = 0
        for r in range(9):
            if x >> r & 1:
                v |= 1 << (2 * r)
        spread[x] = v
    for k in range(9):
        offset[k + 1] = offset[k] + 3**k
    for index in range(INFO_SIZE):
        info[index] = _suit_info(index, offset)


@kernel
def _suit_info(index, offset):
    """``info``'s entry for one base-4 index (see ``fill_suit_tables``)."""
    value = 0
    length = 0
    place = 1
    prev_owner = -1
    prev_bit = 0
    reps = 0  # per owner 9 bits
    for r in range(9):
        digit = index >> (2 * r) & 3
        if digit == 0:
            continue  # played in an earlier trick: it separates nothing
        owner = digit - 1
        bit = 1 << (r + 9 * owner)
        value += owner * place
        place *= 3
        length += 1
        if owner == prev_owner:
            reps &= ~prev_bit  # a run is represented by its highest card
        reps |= bit
        prev_owner = owner
        prev_bit = bit
    return offset[length] + value | reps << 15


@kernel
def position_key(h, leader, spread, info):
    """``(key, r0, r1, r2)``: the table key of the position where ``leader`` leads from hands
    ``h``, and per seat the cards that stand for their runs."""
    a = h[0]
    b = h[1]
    c = h[2]
    k = leader << SEAT_SHIFT
    r0 = a & 0  # an int64 from the start, as the compiled core's recursion needs
    r1 = r0
    r2 = r0
    for s in range(4):
        shift = 9 * s
        f = info[
            spread[a >> shift & SUIT_BITS] + 2 * spread[b >> shift & SUIT_BITS] + 3 * spread[c >> shift & SUIT_BITS]
        ]
        k |= (f & 32767) << (CODE_BITS * s)
        r0 |= (f >> 15 & SUIT_BITS) << shift
        r1 |= (f >> 24 & SUIT_BITS) << shift
        r2 |= (f >> 33 & SUIT_BITS) << shift
    return k, r0, r1, r2


def run_representatives(hand: int, in_play: int) -> int:
    """One card of each run of ``hand``'s cards that no other card of ``in_play`` separates
    (its highest-index card): the cards of a run are interchangeable for the rest of the hand.

    A card of ``hand`` stands for its run unless the next card in play above it in its suit is
    ``hand``'s too.  All the suits at once, in bits: ``owned`` is every card of ``hand`` and every
    card out of play whose next card in play above it is ``hand``'s, filled down through the
    cards out of play 1, 2, 4 and 8 steps at a time (Python only: the search reads the runs from
    the rank codes, ``position_key``).

    >>> from stepping_stones.engine import format_cards, mask_of, parse_card
    >>> hand = mask_of(parse_card(t) for t in "K4 K5 K7 C1".split())
    >>> format_cards(run_representatives(hand, hand | mask_of([parse_card("K6")])))
    'C1, K5, K7'
    >>> format_cards(run_representatives(hand, hand))
    'C1, K7'
    """
    through = ~(hand | in_play) & _BELOW_TOP  # out of play, with a card of its suit above it
    owned = hand
    for step in (1, 2, 4, 8):
        owned |= owned >> step & through
        through &= through >> step
    return hand & ~(owned >> 1 & _BELOW_TOP)


_BELOW_TOP = sum(SUIT_BITS >> 1 << 9 * s for s in range(4))
"""Every card but the highest-index card of its suit."""


def run_of(card: int, hand: int, in_play: int) -> int:
    """The run of ``hand`` that ``card`` belongs to (see ``run_representatives``), as a mask."""
    run = 1 << card
    first = card - card % 9
    for step in (1, -1):
        c = card + step
        while first <= c < first + 9:
            bit = 1 << c
            if hand & bit:
                run |= bit
            elif in_play & bit:
                break
            c += step
    return run
