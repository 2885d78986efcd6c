"""The transposition table: per position key, a lower and an upper bound on the declarer's
counted tricks still to come, and the lead that decided it last.

An open-addressing hash table in two arrays (``tk`` the keys, ``tv`` the values ``lo | hi << 4
| (hint + 1) << 8``) and ``meta`` (its counters, and the search's).  It grows in place: the
compiled core reserves its arrays at their largest size once (untouched memory costs nothing),
the Python core's lists grow (``reserve``); either way only the first ``mask + 1`` slots are in
use.  One ``Solver`` keeps its table for every question about the same hand and contract.
A table handed on from a solver that is gone (``kernel``) is cleared as it grows: only its first
slots are cleared at once, and ``grow`` clears each larger part before it uses it
(``meta[M_DIRTY]``: how far it may be written).
"""

from __future__ import annotations

from .jit import kernel, reserve

M_NODES = 0
M_LIMIT = 1
M_COUNT = 2  # entries in the table
M_MASK = 3  # slots in use - 1 (a power of two - 1)
M_CAPACITY = 4  # slots at most
M_DIRTY = 5  # how many slots from the first may still hold a former solver's entries (a reused table)
META_SIZE = 6

FIRST_SLOTS = 1 << 10
MAX_SLOTS = 3 << 24
"""The slots reserved: 48M, 10 bytes each in the compiled core; a table of at most 32M slots in
use, and past its end the room ``grow`` needs to set its entries aside as it doubles (a table
grows while a third of the reserve holds it twice).  A search that would fill more than half of
32M slots stops adding entries (answers stay exact; only ``nodes`` could then differ), which
takes far longer than any hand."""

_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


@kernel
def slot(tk, mask, k):
    """The slot of key ``k``, or of the empty slot where it would go (check ``tk``).  (In Python
    the product is not cut to 64 bits, but the bits the mask keeps are the same.)"""
    x = (k ^ (k >> 31)) * _MUL
    i = (x ^ (x >> 32)) & mask
    while True:
        kk = tk[i]
        if kk == k or kk == 0:
            return i
        i = (i + 1) & mask


@kernel
def grow(tk, tv, meta):
    """Double the slots in use, in place: every entry is put again in the larger table.  The
    entries are first set aside in the slots past the larger table's end (so that the search
    allocates nothing: see ``jit``), which a later table must clear (``M_DIRTY``)."""
    mask = meta[M_MASK]
    used = mask + 1
    reserve(tk, tv, 3 * used)
    dirty = meta[M_DIRTY]
    if dirty > used:
        for j in range(used, min(dirty, 2 * used)):
            tk[j] = 0
            tv[j] = 0
    aside = 2 * used
    for j in range(used):
        tk[aside + j] = tk[j]
        tv[aside + j] = tv[j]
        tk[j] = 0
        tv[j] = 0
    if dirty < aside + used:
        meta[M_DIRTY] = aside + used
    mask = 2 * used - 1
    meta[M_MASK] = mask
    for j in range(used):
        k = tk[aside + j]
        if k != 0:
            i = slot(tk, mask, k)
            tk[i] = k
            tv[i] = tv[aside + j]


@kernel
def store(tk, tv, meta, k, value):
    """Set the entry of ``k`` (bounds and hint, as one value), adding it if new."""
    mask = meta[M_MASK]
    i = slot(tk, mask, k)
    if tk[i] == 0:
        if 2 * (meta[M_COUNT] + 1) > mask + 1:
            if 3 * (mask + 1) > meta[M_CAPACITY]:
                return  # full: the entry is not kept (see MAX_SLOTS)
            grow(tk, tv, meta)
            mask = meta[M_MASK]
            i = slot(tk, mask, k)
        tk[i] = k
        meta[M_COUNT] += 1
    tv[i] = value


@kernel
def find(tk, tv, meta, k):
    """The value stored for ``k``: bounds ``lo | hi << 4`` and ``(hint + 1) << 8``; -1 if none."""
    i = slot(tk, meta[M_MASK], k)
    if tk[i] == 0:
        return -1
    return tv[i]
