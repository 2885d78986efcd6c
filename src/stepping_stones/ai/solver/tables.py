"""The transposition table, with winning-rank entries: a bound on the declarer's counted tricks
still to come, proved for a whole class of positions, and the lead that decided it last.

A search that proves a bound at a position also finds which cards' ranks decided it (the
*winning ranks*, as DDS calls them: ``search``).  In each suit, the cards held at or above the
lowest of those are the suit's *significant* cards; the others are *small*: the bound holds in
every position with the same leader, the same number of cards of each suit in each hand, and the
significant cards of each suit held by the same seats -- whatever the small cards are.  So one
entry answers positions that differ only in low cards, reached through different tricks and
different layouts.

The table is open addressing in one array, ``tt``, ``SLOT_WORDS`` words a slot: the *bucket*
(the leader and the suit lengths per hand, ``ranks.position_shape``), the pattern of owners of
the significant cards (``s01`` and ``s23``, the owner strings masked to them), and the value
``lo | hi << 4 | (hint + 1) << 8 | kpack << 16``, where ``kpack`` holds per suit how many
significant cards (4 bits a suit).  The entries of one bucket lie next to each other (linear
probing from the bucket's home slot): a probe reads them in a row and takes the best bound of
those whose pattern the position has.  An entry of the same bucket and pattern takes a new bound
of the same class (the two bounds merged); any other class is a new entry.

``meta`` holds its counters, and the search's.  It grows in place: the compiled core reserves
its array at its largest size once (untouched memory costs nothing), the Python core's list
grows (``reserve``); either way only the first ``mask + 1`` slots are in use.  One ``Solver``
keeps its table for every question about the same hand and contract.  A table handed on from a
solver that is gone (``kernel``) is cleared as it grows: only its first slots are cleared at
once, and ``grow`` clears each larger part before it uses it (``meta[M_DIRTY]``: how far it may
be written).
"""

from __future__ import annotations

from .jit import kernel, reserve

M_NODES = 0
M_LIMIT = 1
M_WR = 2  # the winning ranks of the last search's answer (cards), handed from a call to its caller
# Per table (``EXACT`` for ``tt``, ``CLASSES`` for ``wt``), from its base in ``meta``:
COUNT = 0  # entries in the table
MASK = 1  # slots in use - 1 (a power of two - 1)
CAPACITY = 2  # slots at most
DIRTY = 3  # how many slots from the first may still hold a former solver's entries (a reused table)
EXACT = 3
CLASSES = 7
M_COUNT = EXACT + COUNT
M_MASK = EXACT + MASK
M_CAPACITY = EXACT + CAPACITY
M_DIRTY = EXACT + DIRTY
META_SIZE = 11

EXACT_WORDS = 2  # key, value
CLASS_WORDS = 4  # bucket, p01, p23, value
FIRST_SLOTS = 1 << 10
MAX_SLOTS = 3 << 24
"""The slots reserved for each table: 48M, a table of at most 32M slots in use, and past its end
the room ``grow`` needs to set its entries aside as it doubles (a table grows while a third of
the reserve holds it twice).  A table grows when an entry would fill more than three quarters
of its slots (half made the table twice as large for the same entries, and reading it cost 9%
more CPU on May Trump's heaviest deals, from more misses of the processor's cache).  A search
that would fill more than three quarters of 32M slots stops adding entries (answers stay exact;
only ``nodes`` could then differ), which takes far longer than any hand."""

_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


@kernel
def home(mask, k):
    """The first slot of key ``k`` (a hash that mixes every bit of it).  (In Python the product
    is not cut to 64 bits, but the bits the mask keeps are the same.)"""
    x = (k ^ (k >> 31)) * _MUL
    return (x ^ (x >> 32)) & mask


@kernel
def slot(tt, mask, k):
    """The slot of key ``k`` in the exact table, or of the empty slot where it would go (check
    ``tt[2 * slot]``)."""
    i = home(mask, k)
    while True:
        kk = tt[2 * i]
        if kk == k or kk == 0:
            return i
        i = (i + 1) & mask


@kernel
def find(tt, meta, k):
    """The value stored for exact key ``k`` (``encode``), or -1 if none."""
    i = slot(tt, meta[M_MASK], k)
    if tt[2 * i] == 0:
        return -1
    return tt[2 * i + 1]


@kernel
def encode(lo, hi, hint, klo, khi):
    """An exact entry's value: its bounds, its lead hint (-1: none), and per bound the class it
    was proved for (``kpack``: the significant cards per suit)."""
    return lo | hi << 4 | (hint + 1) << 8 | klo << 16 | khi << 32


@kernel
def store(tt, meta, k, value):
    """Set the exact entry of ``k``, adding it if new (see ``MAX_SLOTS`` for when the table
    grows)."""
    mask = meta[M_MASK]
    i = slot(tt, mask, k)
    if tt[2 * i] == 0:
        if not room(tt, meta, EXACT, EXACT_WORDS):
            return  # full: the entry is not kept (see MAX_SLOTS)
        mask = meta[M_MASK]
        i = slot(tt, mask, k)
        tt[2 * i] = k
        meta[M_COUNT] += 1
    tt[2 * i + 1] = value


@kernel
def room(t, meta, base, w):
    """Whether a table (``t``, its fields from ``meta[base]``, ``w`` words a slot) may take one
    entry more, growing it first if that entry would fill more than three quarters of it."""
    mask = meta[base + MASK]
    if 4 * (meta[base + COUNT] + 1) > 3 * (mask + 1):
        if 3 * (mask + 1) > meta[base + CAPACITY]:
            return False
        grow(t, meta, base, w)
    return True


@kernel
def suit_masks(kpack, lens, nine_high):
    """``(m01, m23)``: the bits of the owner strings (``ranks.position_shape``) that hold the
    significant cards, ``kpack``'s count per suit from the strongest down (the highest indexes
    with 9 high, the lowest with 1 high), in suits of ``lens`` cards."""
    m01 = kpack & 0
    m23 = m01
    for s in range(4):
        k = kpack >> (4 * s) & 15
        if k:
            m = (1 << (2 * k)) - 1
            if nine_high:
                m <<= 2 * ((lens >> (4 * s) & 15) - k)
            if s < 2:
                m01 |= m << (18 * s)
            else:
                m23 |= m << (18 * (s - 2))
    return m01, m23


@kernel
def probe(wt, meta, bucket, s01, s23, lens, nine_high, left):
    """``(lo, hi, hint, klo, khi)``: the best bounds of the class entries of ``bucket`` whose
    pattern the position (owner strings ``s01``, ``s23``) has, the classes (``kpack``) of the
    entries that gave them, and a lead hint (-1: none)."""
    mask = meta[CLASSES + MASK]
    i = home(mask, bucket)
    lo = bucket & 0
    hi = lo + left
    hint = lo - 1
    klo = lo
    khi = lo
    while True:
        at = CLASS_WORDS * i
        b = wt[at]
        if b == 0:
            break
        if b == bucket:
            v = wt[at + 3]
            kp = v >> 16 & 65535
            m01, m23 = suit_masks(kp, lens, nine_high)
            if s01 & m01 == wt[at + 1] and s23 & m23 == wt[at + 2]:
                e = v & 15
                if e > lo:
                    lo = e
                    klo = kp
                e = v >> 4 & 15
                if e < hi:
                    hi = e
                    khi = kp
                if hint < 0:
                    hint = (v >> 8 & 255) - 1
        i = (i + 1) & mask
    return lo, hi, hint, klo, khi


@kernel
def put(wt, meta, bucket, s01, s23, lens, nine_high, kpack, lo, hi, hint):
    """Keep the bounds ``lo`` and ``hi`` for the class of positions of ``bucket`` whose
    ``kpack`` significant cards per suit are held as in ``s01``, ``s23``, with a lead hint (-1:
    none, or keep the entry's).  An entry of that class takes them (merged); else a new entry is
    added (see ``MAX_SLOTS`` for when the table grows)."""
    m01, m23 = suit_masks(kpack, lens, nine_high)
    p01 = s01 & m01
    p23 = s23 & m23
    mask = meta[CLASSES + MASK]
    i = home(mask, bucket)
    while True:
        at = CLASS_WORDS * i
        b = wt[at]
        if b == 0:
            break
        if b == bucket and wt[at + 1] == p01 and wt[at + 2] == p23 and (wt[at + 3] >> 16 & 65535) == kpack:
            v = wt[at + 3]
            if (v & 15) > lo:
                lo = v & 15
            if (v >> 4 & 15) < hi:
                hi = v >> 4 & 15
            if hint < 0:
                hint = (v >> 8 & 255) - 1
            wt[at + 3] = lo | hi << 4 | (hint + 1) << 8 | kpack << 16
            return
        i = (i + 1) & mask
    if not room(wt, meta, CLASSES, CLASS_WORDS):
        return  # full: the entry is not kept (see MAX_SLOTS)
    mask = meta[CLASSES + MASK]
    i = home(mask, bucket)
    while wt[CLASS_WORDS * i] != 0:
        i = (i + 1) & mask
    at = CLASS_WORDS * i
    wt[at] = bucket
    wt[at + 1] = p01
    wt[at + 2] = p23
    wt[at + 3] = lo | hi << 4 | (hint + 1) << 8 | kpack << 16
    meta[CLASSES + COUNT] += 1


@kernel
def grow(t, meta, base, w):
    """Double the slots in use of a table (``room``), in place: every entry is put again in the
    larger table.  The entries are first set aside in the slots past the larger table's end (so
    that the search allocates nothing: see ``jit``), which a later table must clear (``DIRTY``)."""
    mask = meta[base + MASK]
    used = mask + 1
    reserve(t, 3 * w * used)
    dirty = meta[base + DIRTY]
    if dirty > used:
        for j in range(w * used, w * min(dirty, 2 * used)):
            t[j] = 0
    aside = 2 * w * used
    for j in range(w * used):
        t[aside + j] = t[j]
        t[j] = 0
    if dirty < 3 * used:
        meta[base + DIRTY] = 3 * used
    mask = 2 * used - 1
    meta[base + MASK] = mask
    for j in range(used):
        k = t[aside + w * j]
        if k != 0:
            i = home(mask, k)
            while t[w * i] != 0:
                i = (i + 1) & mask
            for x in range(w):
                t[w * i + x] = t[aside + w * j + x]
