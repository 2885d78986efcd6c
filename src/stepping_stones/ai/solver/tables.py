"""The transposition table: per position key, a lower and an upper bound on the declarer's
counted tricks still to come, and the lead that decided it last.

An open-addressing hash table in one array, ``tt``: slot ``i`` is ``tt[2 * i]``, the key, and
``tt[2 * i + 1]``, the value ``lo | hi << 4 | (hint + 1) << 8`` (side by side, so that a probe
reads one line of memory, not one in each of two arrays: 10% less CPU on May Trump's heaviest
deals), and ``meta`` (its counters, and the search's).  It grows in place: the compiled core
reserves its array at its largest size once (untouched memory costs nothing), the Python core's
list grows (``reserve``); either way only the first ``mask + 1`` slots are in use.  One
``Solver`` keeps its table for every question about the same hand and contract.  A table
handed on from a solver that is gone (``kernel``) is cleared as it grows: only its first slots
are cleared at once, and ``grow`` clears each larger part before it uses it (``meta[M_DIRTY]``:
how far it may be written).
"""

from __future__ import annotations

from .jit import kernel, reserve

M_NODES = 0
M_LIMIT = 1
M_COUNT = 2  # entries in the table
M_MASK = 3  # slots in use - 1 (a power of two - 1)
M_CAPACITY = 4  # slots at most
M_DIRTY = 5  # how many slots from the first may still hold a former solver's entries (a reused table)
M_KILLER = 6  # 36 values, per trick and leader: its killer lead (hint + 1, 0: none; see search)
META_SIZE = 42

FIRST_SLOTS = 1 << 10
"""The least table a system that refuses to reserve memory is left with (``kernel``)."""
START_SLOTS = 1 << 6
"""The slots a table starts with (it grows as it fills): a 6-trick position stores some 30
entries (p50 of ``measure_solver_ratio.py``'s 40, 306 at most), and a fresh solver clears the
slots it starts with, 1 KB here where 1,024 slots were 16 KB (cold in the caches after other
work: docs/lab/2026-12-08-solver-cold-start.md).  The table is exact at any size (an entry is
only ever left out when the table is full, ``MAX_SLOTS``), so it changes no search."""
MAX_SLOTS = 3 << 24
"""The slots reserved: 48M, 16 bytes each in the compiled core; a table of at most 32M slots in
use, and past its end the room ``grow`` needs to set its entries aside as it doubles (a table
grows while a third of the reserve holds it twice).  A table grows when an entry would fill
more than three quarters of its slots (half made the table twice as large for the same entries,
and reading it cost 9% more CPU on May Trump's heaviest deals, from more misses of the
processor's cache).  A search that would fill more than three quarters of 32M slots stops adding
entries (answers stay exact; only ``nodes`` could then differ), which
takes far longer than any hand."""

_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


@kernel
def slot(tt, mask, k):
    """The slot of key ``k``, or of the empty slot where it would go (check ``tt[2 * slot]``).
    (In Python the product is not cut to 64 bits, but the bits the mask keeps are the same.)"""
    x = (k ^ (k >> 31)) * _MUL
    i = (x ^ (x >> 32)) & mask
    while True:
        kk = tt[2 * i]
        if kk == k or kk == 0:
            return i
        i = (i + 1) & mask


@kernel
def grow(tt, meta):
    """Double the slots in use, in place: every entry is put again in the larger table.  The
    entries are first set aside in the slots past the larger table's end (so that the search
    allocates nothing: see ``jit``), which a later table must clear (``M_DIRTY``)."""
    mask = meta[M_MASK]
    used = mask + 1
    reserve(tt, 6 * used)
    dirty = meta[M_DIRTY]
    if dirty > used:
        for j in range(2 * used, 2 * min(dirty, 2 * used)):
            tt[j] = 0
    aside = 4 * used
    for j in range(2 * used):
        tt[aside + j] = tt[j]
        tt[j] = 0
    if dirty < 3 * used:
        meta[M_DIRTY] = 3 * used
    mask = 2 * used - 1
    meta[M_MASK] = mask
    for j in range(used):
        k = tt[aside + 2 * j]
        if k != 0:
            i = slot(tt, mask, k)
            tt[2 * i] = k
            tt[2 * i + 1] = tt[aside + 2 * j + 1]


@kernel
def store(tt, meta, k, value):
    """Set the entry of ``k`` (bounds and hint, as one value), adding it if new (see
    ``MAX_SLOTS`` for when the table grows)."""
    mask = meta[M_MASK]
    i = slot(tt, mask, k)
    if tt[2 * i] == 0:
        if 4 * (meta[M_COUNT] + 1) > 3 * (mask + 1):
            if 3 * (mask + 1) > meta[M_CAPACITY]:
                return  # full: the entry is not kept (see MAX_SLOTS)
            grow(tt, meta)
            mask = meta[M_MASK]
            i = slot(tt, mask, k)
        tt[2 * i] = k
        meta[M_COUNT] += 1
    tt[2 * i + 1] = value


@kernel
def find(tt, meta, k):
    """The value stored for ``k``: bounds ``lo | hi << 4`` and ``(hint + 1) << 8``; -1 if none."""
    i = slot(tt, meta[M_MASK], k)
    if tt[2 * i] == 0:
        return -1
    return tt[2 * i + 1]
