"""Rank codes: a position keyed on the *relative* ranks per suit, and the runs of equivalent cards.

Only the order of the cards still held matters, not which cards were played, so positions reached
through different tricks share one entry of the transposition table.  The code of one suit is
the string of owners (0, 1, 2) of its cards still held, lowest index first, read as a base-3
number, plus an offset per length so that lengths do not collide (15 bits: the sum of ``3**k``
for k in 0..9 is 29,524).  A position's key is its four suits' codes and the leader
(``position_shape``, with what the table of classes keys it on).

Two cards of one suit in one hand with nothing still in play between them win and lose exactly
the same tricks, so the search tries one card per run (its highest-index card).  The cards of
the trick being played count as in play until the trick ends.
"""

from __future__ import annotations

from .jit import allocates, kernel, popcount, zeros

SUIT_BITS = 511
CODE_BITS = 15
SEAT_SHIFT = 60  # four suits of CODE_BITS
OWNERS_SHIFT = 42  # in ``info``: the owners of the suit's cards held, 2 bits each, lowest index first
OWNERS_BITS = (1 << 18) - 1


@allocates
def suit_tables():
    """``(spread, info)``: ``spread`` turns a suit's 9 bits into base-4 digits; per base-4 index
    of a suit (a digit per rank: 0 played, 1 + its owner) ``info`` holds, in one integer, the
    suit's code (15 bits), per owner one card per run (9 bits each, from bit 15 on) and the
    string of owners of the cards held (2 bits a card, lowest index first, from bit 42 on: the
    winning-rank table's pattern, ``position_shape``): one memory access per suit."""
    spread = zeros(512)
    for x in range(512):
        v = 0
        for r in range(9):
            if x >> r & 1:
                v |= 1 << (2 * r)
        spread[x] = v
    offset = zeros(10)
    for k in range(9):
        offset[k + 1] = offset[k] + 3**k
    size = 1 << 18
    info = zeros(size)
    for index in range(size):
        info[index] = _suit_info(index, offset)
    return spread, info


@kernel
def _suit_info(index, offset):
    """``info``'s entry for one base-4 index (see ``suit_tables``)."""
    value = 0
    length = 0
    place = 1
    prev_owner = -1
    prev_bit = 0
    reps = 0  # per owner 9 bits
    owners = 0  # 2 bits per card held, lowest index first
    for r in range(9):
        digit = index >> (2 * r) & 3
        if digit == 0:
            continue  # played in an earlier trick: it separates nothing
        owner = digit - 1
        bit = 1 << (r + 9 * owner)
        value += owner * place
        place *= 3
        owners |= owner << (2 * length)
        length += 1
        if owner == prev_owner:
            reps &= ~prev_bit  # a run is represented by its highest card
        reps |= bit
        prev_owner = owner
        prev_bit = bit
    return offset[length] + value | reps << 15 | owners << OWNERS_SHIFT


def run_representatives(hand: int, in_play: int) -> int:
    """One card of each run of ``hand``'s cards that no other card of ``in_play`` separates
    (its highest-index card): the cards of a run are interchangeable for the rest of the hand.

    >>> from stepping_stones.engine import format_cards, mask_of, parse_card
    >>> hand = mask_of(parse_card(t) for t in "K4 K5 K7 C1".split())
    >>> format_cards(run_representatives(hand, hand | mask_of([parse_card("K6")])))
    'C1, K5, K7'
    >>> format_cards(run_representatives(hand, hand))
    'C1, K7'
    """
    reps = hand
    for s in range(4):
        last_mine = 0
        for c in range(s * 9, s * 9 + 9):
            bit = 1 << c
            if hand & bit:
                reps &= ~last_mine
                last_mine = bit
            elif in_play & bit:
                last_mine = 0
    return reps


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


@kernel
def position_shape(h, leader, spread, info):
    """``(key, bucket, s01, s23, lens, r0, r1, r2)``: what the tables (``tables``) key a position
    on when ``leader`` leads from hands ``h``.  ``key``: the exact table's, the four suits' codes
    and the leader; ``bucket``: the class table's, the leader and how many cards
    of each suit each seat holds (never 0); ``s01`` and ``s23``: per suit the string of owners of
    its cards held (2 bits a card, lowest index first; suits 0 and 2 in the low 18 bits, 1 and 3
    from bit 18 on); ``lens``: each suit's cards held (4 bits a suit); and per seat the cards
    that stand for their runs."""
    a = h[0]
    b = h[1]
    c = h[2]
    key = leader << SEAT_SHIFT
    bucket = 1 | leader << 1
    s01 = a & 0  # an int64 from the start, as the compiled core's recursion needs
    s23 = s01
    lens = s01
    r0 = s01
    r1 = s01
    r2 = s01
    for s in range(4):
        shift = 9 * s
        x = a >> shift & SUIT_BITS
        y = b >> shift & SUIT_BITS
        z = c >> shift & SUIT_BITS
        f = info[spread[x] + 2 * spread[y] + 3 * spread[z]]
        key |= (f & 32767) << (CODE_BITS * s)
        nx = popcount(x)
        ny = popcount(y)
        nz = popcount(z)
        bucket |= (nx | ny << 4 | nz << 8) << (3 + 12 * s)
        lens |= (nx + ny + nz) << (4 * s)
        owners = f >> OWNERS_SHIFT & OWNERS_BITS
        if s < 2:
            s01 |= owners << (18 * s)
        else:
            s23 |= owners << (18 * (s - 2))
        r0 |= (f >> 15 & SUIT_BITS) << shift
        r1 |= (f >> 24 & SUIT_BITS) << shift
        r2 |= (f >> 33 & SUIT_BITS) << shift
    return key, bucket, s01, s23, lens, r0, r1, r2


@kernel
def run_around(card, hand, held):
    """The run of ``hand`` that ``card`` (one of its cards) belongs to, as a mask: the cards of
    ``hand`` next to it in its suit with no other card of ``held`` between (``run_of``, in the
    search)."""
    first = card - card % 9
    run = (hand & 0) | 1 << card
    c = card + 1
    while c < first + 9:
        bit = 1 << c
        if hand & bit:
            run |= bit
        elif held & bit:
            break
        c += 1
    c = card - 1
    while c >= first:
        bit = 1 << c
        if hand & bit:
            run |= bit
        elif held & bit:
            break
        c -= 1
    return run
