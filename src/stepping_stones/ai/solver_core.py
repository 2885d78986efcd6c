"""The exact solver's search compiled by numba: the same search as ``solver.py``'s Python core.

Only ``solver.py`` imports this module, and only when numba is installed (the ``fast`` extra).
It searches the same positions in the same order as the Python core -- the same zero-window
questions, quick tricks and sure trumps, runs of equivalent cards, move orderings, the lead that
decided a table entry before, and the horizon's quick count -- so its answers and its ``nodes``
are the Python core's, and a budget in positions makes the same choices with either core.

What differs is only how it is stored:

* a position is a recursion of one function over the three seats of a trick (``_node``: level 0
  leads, 1 and 2 reply), on the three hands as an ``int64`` array;
* the transposition table is an open-addressing hash table in two arrays (key; bounds and the
  lead hint), grown in place: the arrays are reserved at their largest size (untouched memory
  costs nothing) and only the first ``mask + 1`` slots are in use;
* the relative-rank code and the runs of equivalent cards of a suit come from one table built
  once (``_suit_tables``), indexed by the suit's three holdings spread into base-4 digits;
* the rules of play are arrays made from the engine's table (the fields of ``FOLLOW_SPECS``
  and ``trick_takers``), as the Python core takes them.

Every function is compiled with ``cache=True``: the first use on a machine compiles them (several
seconds) and writes them next to this file or, where that is read-only, to numba's cache folder
(``NUMBA_CACHE_DIR``); later processes load them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np  # type: ignore[import-not-found, unused-ignore]
from llvmlite import ir  # type: ignore[import-not-found, import-untyped, unused-ignore]
from numba import njit, types  # type: ignore[import-not-found, import-untyped, unused-ignore]
from numba.extending import intrinsic  # type: ignore[import-not-found, import-untyped, unused-ignore]

# --- the parameters of one solver, in ``par`` ------------------------------------------------
P_DECLARER = 0
P_WIN = 1
P_TRUMP_MASK = 2
P_TRUMP_SUIT = 3  # -1: no trump
P_NINE_HIGH = 4
P_BEAT_LED = 7  # the follow rule's FollowSpec
P_TRUMP_OVER = 8
P_HORIZON = 9
P_ALL_COUNT = 10  # every trick counts
P_COUNTED = 16  # 12 flags: trick t counts
P_LEFT = 28  # 13 values: counted tricks from trick t on
P_MAXER = 41  # 3 flags: the seat wants more counted tricks for the declarer
PAR_SIZE = 44

# --- the rows of ``rules`` (36 cards each) ----------------------------------------------------
R_KEY = 0  # trick_keys: strength, plus a bonus for a trump
R_ABOVE = 1  # the cards of its suit that beat it
R_TAKERS = 2  # trick_takers: the cards that take a trick from it
R_ASC = 3  # the cards in order of key, weakest first (ties by card index)
R_DESC = 4  # strongest first (ties by card index)
RULE_ROWS = 5

# --- ``meta``: the counters the caller reads and sets -----------------------------------------
M_NODES = 0
M_LIMIT = 1
M_COUNT = 2  # entries in the table
M_MASK = 3  # slots in use - 1 (a power of two - 1)
META_SIZE = 4

FIRST_SLOTS = 1 << 12
MAX_SLOTS = 1 << 25
"""The table's slots at most (reserved, untouched until used): 32M slots, 16 bytes each.  A
search that would fill more than half of them stops adding entries (answers stay exact; only
``nodes`` could then differ from the Python core's), which takes far longer than any hand."""

ABORT = 2  # a search result: the limit of positions was reached
_SUIT_BITS = 511
_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer
_MAX_MOVES = 16
_MAX_DEPTH = 48


@intrinsic
def _popcount(_typingctx, x):
    def codegen(_context, builder, _signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _top(_typingctx, x):
    """The index of the highest set bit of a nonzero mask (``bit_length() - 1``)."""

    def codegen(_context, builder, _signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return types.int64(types.int64), codegen


@intrinsic
def _low(_typingctx, x):
    """The index of the lowest set bit of a nonzero mask."""

    def codegen(_context, builder, _signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


# --- the per-suit table -----------------------------------------------------------------------


@njit(cache=True)
def _suit_tables():
    """``spread`` (9 bits to base-4 digits), and per base-4 index (0 = played, 1 + owner) of a
    suit, in one integer: its relative-rank code (``solver._suit_info``, 15 bits) and per owner
    one card per run (9 bits each, from bit 15 on).  One integer, so one memory access a suit."""
    spread = np.zeros(512, np.int64)
    for x in range(512):
        v = 0
        for r in range(9):
            if x >> r & 1:
                v |= 1 << (2 * r)
        spread[x] = v
    offset = np.zeros(10, np.int64)
    for k in range(9):
        offset[k + 1] = offset[k] + 3**k
    size = 1 << 18
    info = np.zeros(size, np.int64)
    for index in range(size):
        value = 0
        length = 0
        place = 1
        prev_owner = -1
        prev_bit = 0
        r0 = 0
        r1 = 0
        r2 = 0
        for r in range(9):
            digit = index >> (2 * r) & 3
            if digit == 0:
                continue
            owner = digit - 1
            bit = 1 << r
            value += owner * place
            place *= 3
            length += 1
            if owner == prev_owner:
                if owner == 0:
                    r0 &= ~prev_bit
                elif owner == 1:
                    r1 &= ~prev_bit
                else:
                    r2 &= ~prev_bit
            if owner == 0:
                r0 |= bit
            elif owner == 1:
                r1 |= bit
            else:
                r2 |= bit
            prev_owner = owner
            prev_bit = bit
        info[index] = offset[length] + value | r0 << 15 | r1 << 24 | r2 << 33
    return spread, info


# --- the transposition table ------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _slot(tk, mask, k):
    """The slot of key ``k``, or of the empty slot where it would go (check ``tk``)."""
    x = k * _MUL
    i = (x ^ (x >> 29)) & mask
    while True:
        kk = tk[i]
        if kk == k or kk == 0:
            return i
        i = (i + 1) & mask


@njit(cache=True, nogil=True)
def _grow(tk, tv, meta):
    """Double the slots in use, in place: every entry is put again in the larger table."""
    mask = meta[M_MASK]
    used = mask + 1
    keys = tk[:used].copy()
    vals = tv[:used].copy()
    tk[:used] = 0
    tv[:used] = 0
    mask = 2 * used - 1
    meta[M_MASK] = mask
    for j in range(used):
        k = keys[j]
        if k != 0:
            i = _slot(tk, mask, k)
            tk[i] = k
            tv[i] = vals[j]


@njit(cache=True, nogil=True)
def _store(tk, tv, meta, k, value):
    """Set the entry of ``k`` (bounds and hint, as one value), adding it if new."""
    mask = meta[M_MASK]
    i = _slot(tk, mask, k)
    if tk[i] == 0:
        if 2 * (meta[M_COUNT] + 1) > mask + 1:
            if mask + 1 >= tk.shape[0]:
                return  # full: the entry is not kept (see MAX_SLOTS)
            _grow(tk, tv, meta)
            mask = meta[M_MASK]
            i = _slot(tk, mask, k)
        tk[i] = k
        meta[M_COUNT] += 1
    tv[i] = value


@njit(cache=True, nogil=True)
def find(tk, tv, meta, k):
    """The value stored for ``k``: bounds ``lo | hi << 4`` and ``(hint + 1) << 8``; -1 if none."""
    i = _slot(tk, meta[M_MASK], k)
    if tk[i] == 0:
        return -1
    return tv[i]


# --- small helpers on masks -------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _strongest(mask, nine_high):
    return _top(mask) if nine_high else _low(mask)


@njit(cache=True, nogil=True)
def _weakest(mask, nine_high):
    return _low(mask) if nine_high else _top(mask)


@njit(cache=True, nogil=True)
def _fill(buf, depth, mask, good, order):
    """``buf[depth]``: the cards of ``mask``, those of ``good`` first, each group in ``order``
    (``solver``'s ``ordered``).  Returns how many."""
    return _fill_at(buf, depth, 0, mask, good, order)


@njit(cache=True, nogil=True)
def _fill_late(buf, depth, mask, good, late, order):
    """``_fill``, but the cards of ``late`` after all the others (``solver``'s ``ordered_late``)."""
    if not mask & late:
        return _fill_at(buf, depth, 0, mask, good, order)
    n = _fill_at(buf, depth, 0, mask & ~late, good, order)
    return _fill_at(buf, depth, n, mask & late, good, order)


@njit(cache=True, nogil=True)
def _fill_at(buf, depth, n, mask, good, order):
    """``_fill`` from place ``n`` of ``buf[depth]`` on; returns the places filled then."""
    want = n + _popcount(mask)
    first = mask & good
    if first:
        m = n + _popcount(first)
        for j in range(36):
            c = order[j]
            if first >> c & 1:
                buf[depth, n] = c
                n += 1
                if n == m:
                    break
    rest = mask & ~good
    for j in range(36):
        if n == want:
            break
        c = order[j]
        if rest >> c & 1:
            buf[depth, n] = c
            n += 1
    return n


@njit(cache=True, nogil=True)
def _fill_lose(buf, depth, mask, good, late, hand, others, order):
    """``solver``'s ``lose_order``: the suits ``hand`` holds fewest cards of first, among those
    of one length those ``others`` holds most of, each group as ``_fill`` puts it, the cards of
    ``late`` last."""
    live = mask & ~late
    n = 0
    while live:
        best = 1 << 20
        m = 0
        for s in range(4):
            suit = _SUIT_BITS << (9 * s)
            if live & suit:
                rank = _popcount(hand & suit) << 4 | 15 - _popcount(others & suit)
                if rank < best:
                    best = rank
                    m = live & suit
                elif rank == best:
                    m |= live & suit
        n = _fill_at(buf, depth, n, m, good, order)
        live &= ~m
    if mask & late:
        n = _fill_at(buf, depth, n, mask & late, good, order)
    return n


@njit(cache=True, nogil=True)
def _dead_suits(others, trump_mask):
    """``solver``'s ``dead_suits``: the suits where ``others`` holds no card and no trump."""
    late = 0
    for s in range(4):
        suit = _SUIT_BITS << (9 * s)
        if not others & (suit | trump_mask):
            late |= suit
    return late


@njit(cache=True, nogil=True)
def estimate(h, t, par, rules):
    """``solver``'s ``estimate``: the declarer's counted tricks still to come, by a quick count
    of each side's winners, suit by suit."""
    win = par[P_WIN]
    nine_high = par[P_NINE_HIGH]
    declarer = par[P_DECLARER]
    trump_mask = par[P_TRUMP_MASK]
    trump_suit = par[P_TRUMP_SUIT]
    ruffs = trump_mask != 0 and win != 0
    trump_over = par[P_TRUMP_OVER]  # anyone may trump at any time
    tl0 = _popcount(h[0] & trump_mask)
    tl1 = _popcount(h[1] & trump_mask)
    tl2 = _popcount(h[2] & trump_mask)
    rounds = 0
    mine = 0
    for s in range(4):
        suit = 511 << (9 * s)
        m0 = h[0] & suit
        m1 = h[1] & suit
        m2 = h[2] & suit
        while m0 or m1 or m2:
            best = -1
            winner = 0
            for p in range(3):
                m = m0 if p == 0 else (m1 if p == 1 else m2)
                if m:
                    c = _strongest(m, nine_high) if win else _weakest(m, nine_high)
                    if rules[R_KEY, c] > best:
                        best = rules[R_KEY, c]
                        winner = p
            if ruffs and s != trump_suit:
                for p in range(3):
                    m = m0 if p == 0 else (m1 if p == 1 else m2)
                    left = tl0 if p == 0 else (tl1 if p == 1 else tl2)
                    if (m == 0 or trump_over) and left and (p == declarer) != (winner == declarer):
                        if p == 0:
                            tl0 -= 1
                        elif p == 1:
                            tl1 -= 1
                        else:
                            tl2 -= 1
                        winner = p
                        break
            if m0:
                m0 &= ~(1 << (_strongest(m0, nine_high) if win else _weakest(m0, nine_high)))
            if m1:
                m1 &= ~(1 << (_strongest(m1, nine_high) if win else _weakest(m1, nine_high)))
            if m2:
                m2 &= ~(1 << (_strongest(m2, nine_high) if win else _weakest(m2, nine_high)))
            rounds += 1
            if winner == declarer:
                mine += 1
    if rounds == 0:
        return 0.0
    return mine * par[P_LEFT + t] / rounds


@njit(cache=True, nogil=True)
def _quick_tricks(hand, o1, o2, par, rules):
    """``solver``'s ``quick_tricks``: tricks the leader can cash in a row from the top."""
    others = o1 | o2
    nine_high = par[P_NINE_HIGH]
    trump_mask = par[P_TRUMP_MASK]
    q = 0
    trump_tops = 0
    for s in range(4):
        suit = 511 << (9 * s)
        mine = hand & suit
        if not mine:
            continue
        theirs = others & suit
        if theirs:
            tops = _popcount(mine & rules[R_ABOVE, _strongest(theirs, nine_high)])
        else:
            tops = _popcount(mine)
        if s == par[P_TRUMP_SUIT]:
            trump_tops = tops
        else:
            q += tops
    if trump_mask:
        longest = max(_popcount(o1 & trump_mask), _popcount(o2 & trump_mask))
        if trump_tops < longest:
            q = 0
        q += trump_tops
    return q


@njit(cache=True, nogil=True)
def _lose_leads(x0, x1, x2, r_leader, leader, par, rules):
    """``solver``'s ``lose_leads`` for one suit's holdings ``x0, x1, x2`` (as suit 0's cards):
    the lead to try first, and from bit 9 on the suit's nine bits when it is dead for the leader."""
    declarer = par[P_DECLARER]
    if leader == declarer:
        dead = (x0 | x1 | x2) == (x0 if leader == 0 else (x1 if leader == 1 else x2))
    else:
        dead = (x0 if declarer == 0 else (x1 if declarer == 1 else x2)) == 0
    late = _SUIT_BITS << 9 if dead else 0
    return _lose_lead(x0, x1, x2, r_leader, leader, par, rules) | late


@njit(cache=True, nogil=True)
def _lose_lead(x0, x1, x2, r_leader, leader, par, rules):
    """The lead of ``_lose_leads`` (a card's bit, or 0)."""
    mine = (x0 if leader == 0 else (x1 if leader == 1 else x2)) & r_leader
    if not mine:
        return 0
    nine_high = par[P_NINE_HIGH]
    beat_led = par[P_BEAT_LED]
    declarer = par[P_DECLARER]
    x = _weakest(mine, nine_high)
    kx = rules[R_KEY, x]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    if leader == declarer:
        for other_seat in (s2, s3):
            other = x0 if other_seat == 0 else (x1 if other_seat == 1 else x2)
            if other:
                y = _strongest(other, nine_high) if beat_led else _weakest(other, nine_high)
                if rules[R_KEY, y] > kx:
                    return 1 << x
        return 0
    ds = x0 if declarer == 0 else (x1 if declarer == 1 else x2)
    partner = s3 if s2 == declarer else s2
    ps = x0 if partner == 0 else (x1 if partner == 1 else x2)
    if not ds:
        return 0
    if not beat_led:
        low = rules[R_KEY, _weakest(ds, nine_high)]
        forced = low > kx and (not ps or low > rules[R_KEY, _weakest(ps, nine_high)])
    elif s2 == declarer:
        over = ds & rules[R_ABOVE, x]
        forced = over != 0 and (
            not ps or rules[R_KEY, _weakest(over, nine_high)] > rules[R_KEY, _strongest(ps, nine_high)]
        )
    else:
        over = ps & rules[R_ABOVE, x]
        forced = rules[R_KEY, _strongest(ds, nine_high)] > rules[R_KEY, _weakest(over, nine_high) if over else x]
    return (1 << x) if forced else 0


# --- the search -------------------------------------------------------------------------------


_I = types.int64
_V = types.Array(types.int64, 1, "C")
_M = types.Array(types.int64, 2, "C")
_NODE = _I(_I, _V, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I,
           _V, _M, _V, _V, _V, types.Array(types.int16, 1, "C"), _V, _M)
"""``_node``'s one signature.  A recursive function must call itself with these types only:
never with a bare constant, which numba types as a literal and compiles a version for (versions
that then fail to link, or take minutes to compile)."""


@njit(_NODE, cache=True, nogil=True)
def _node(level, h, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3, depth,
          par, rules, spread, info, tk, tv, meta, buf):
    """Whether the declarer takes at least ``target`` more counted tricks: 1 (yes), 0 (no), or
    ``ABORT`` (the limit of positions was reached).  ``level`` is the seat to play in the trick:
    0 leads (``solver``'s ``lead``), 1 plays second to ``c1`` (``second``), 2 plays third
    (``third``: ``best_card`` of ``best_seat`` is winning, ``beat`` are the led suit's cards above
    the best of it).  ``rep2`` and ``rep3`` are the repliers' cards that stand for their runs."""
    declarer = par[P_DECLARER]
    win = par[P_WIN]
    trump_mask = par[P_TRUMP_MASK]
    if level == 0:
        if target <= 0:
            return 1
        hand = h[leader]
        n = _popcount(hand)
        t = 12 - n
        if target > par[P_LEFT + t]:
            return 0
        meta[M_NODES] += 1
        if meta[M_NODES] > meta[M_LIMIT]:
            return ABORT
        s2 = leader + 1 if leader < 2 else 0
        s3 = s2 + 1 if s2 < 2 else 0
        if n == 1:
            # The last trick plays itself (target is 1 and it counts).
            a1 = _top(hand)
            a2 = _top(h[s2])
            first = a2 if h[s2] & rules[R_TAKERS, a1] else a1
            if h[s3] & rules[R_TAKERS, first]:
                return 1 if s3 == declarer else 0
            return 1 if (s2 if first == a2 else leader) == declarer else 0
        a = h[0]
        b = h[1]
        c = h[2]
        k = leader << 60
        # Typed int64 from the start, not as the literal 0: numba types the recursive calls
        # below from a first pass over the body, where a bare 0 here would still be a literal
        # and make it compile a second version of ``_node`` for it (twice the compile time).
        r0 = np.int64(0)
        r1 = np.int64(0)
        r2 = np.int64(0)
        for s in range(4):
            shift = 9 * s
            index = spread[a >> shift & _SUIT_BITS] + 2 * spread[b >> shift & _SUIT_BITS] \
                + 3 * spread[c >> shift & _SUIT_BITS]
            f = info[index]
            k |= (f & 32767) << (15 * s)
            r0 |= (f >> 15 & _SUIT_BITS) << shift
            r1 |= (f >> 24 & _SUIT_BITS) << shift
            r2 |= (f >> 33 & _SUIT_BITS) << shift
        if t >= par[P_HORIZON]:
            return 1 if estimate(h, t, par, rules) >= target else 0
        left = par[P_LEFT + t]
        entry = find(tk, tv, meta, k)
        hint = -1
        if entry >= 0:
            lo = entry & 15
            hi = entry >> 4 & 15
            hint = (entry >> 8) - 1
            if lo >= target:
                return 1
            if hi < target:
                return 0
        else:
            lo = 0
            hi = left
            if win:
                q = _quick_tricks(hand, h[s2], h[s3], par, rules)
                if q:
                    if q > n:
                        q = n
                    if leader == declarer:
                        lo = left - par[P_LEFT + t + q]
                    else:
                        hi = par[P_LEFT + t + q]
            if par[P_ALL_COUNT] and trump_mask:
                nine_high = par[P_NINE_HIGH]
                d = declarer + 1 if declarer < 2 else 0
                e = d + 1 if d < 2 else 0
                mine = h[declarer] & trump_mask
                d1 = h[d] & trump_mask
                d2 = h[e] & trump_mask
                if mine and (d1 or d2):
                    sure = _popcount(mine & rules[R_ABOVE, _strongest(d1 | d2, nine_high)])
                    if sure > lo:
                        lo = sure
                    top = rules[R_ABOVE, _strongest(mine, nine_high)]
                    sure = max(_popcount(d1 & top), _popcount(d2 & top))
                    if n - sure < hi:
                        hi = n - sure
                elif mine:
                    if _popcount(mine) > lo:
                        lo = _popcount(mine)
                elif d1 or d2:
                    sure = max(_popcount(d1), _popcount(d2))
                    if n - sure < hi:
                        hi = n - sure
            if lo or hi < left:
                _store(tk, tv, meta, k, lo | hi << 4)
                if lo >= target:
                    return 1
                if hi < target:
                    return 0
        mine_reps = r0 if leader == 0 else (r1 if leader == 1 else r2)
        rep2 = r0 if s2 == 0 else (r1 if s2 == 1 else r2)
        rep3 = r0 if s3 == 0 else (r1 if s3 == 1 else r2)
        cands = hand & mine_reps
        good = 0
        late = 0
        asc = 1
        single = False
        if par[P_COUNTED + t]:
            if win:
                # Last, the suits dead for the leader (``solver``'s lead).
                if leader == declarer:
                    asc = 0
                    if cands & (cands - 1):
                        late = _dead_suits(h[s2] | h[s3], trump_mask)
                    else:
                        single = True
                else:
                    if cands & (cands - 1):
                        late = _dead_suits(h[declarer], trump_mask)
                    if par[P_TRUMP_OVER]:
                        good = cands & trump_mask
                    else:
                        good = cands & ~trump_mask
                        asc = 0
            elif not cands & (cands - 1):
                single = True
            else:
                # Lead low, first the cards ``_lose_leads`` picks, last the suits it marks dead,
                # suit by suit (and the hint below before all).
                for s in range(4):
                    shift = 9 * s
                    rl = mine_reps >> shift & _SUIT_BITS
                    g = _lose_leads(a >> shift & _SUIT_BITS, b >> shift & _SUIT_BITS,
                                    c >> shift & _SUIT_BITS, rl, leader, par, rules)
                    good |= (g & _SUIT_BITS) << shift
                    late |= (g >> 9) << shift
        if single:
            buf[depth, 0] = _top(cands)
            count = 1
        elif par[P_COUNTED + t] and not win:
            count = _fill_lose(buf, depth, cands, good, late, hand, h[s2] | h[s3] if leader == declarer else 0,
                               rules[R_ASC])
        else:
            count = _fill_late(buf, depth, cands, good, late, rules[R_ASC] if asc else rules[R_DESC])
        if hint >= 0 and count > 1:
            # The lead that decided this position before (stored as suit and relative rank).
            suit = 511 << (9 * (hint >> 4))
            m = (a | b | c) & suit
            for _ in range(hint & 15):
                m &= m - 1
            m &= -m
            rep = cands & suit & ~(m - 1)
            if rep:
                first = _low(rep)
                if buf[depth, 0] != first:
                    j = 0
                    while buf[depth, j] != first:
                        j += 1
                    while j > 0:
                        buf[depth, j] = buf[depth, j - 1]
                        j -= 1
                    buf[depth, 0] = first
        mx = par[P_MAXER + leader]
        result = 1 - mx
        new_hint = -1
        for j in range(count):
            card = buf[depth, j]
            h[leader] = hand ^ (1 << card)
            r = _node(level + 1, h, leader, target, t, card, best_card, best_seat, beat, rep2, rep3, depth + 1,
                      par, rules, spread, info, tk, tv, meta, buf)
            if r == ABORT:
                h[leader] = hand
                return ABORT
            if r == mx:
                result = mx
                if count > 1:
                    below = (a | b | c) & (511 << (9 * (card // 9))) & ((1 << card) - 1)
                    new_hint = (card // 9) << 4 | _popcount(below)
                break
        h[leader] = hand
        if result:
            if target > lo:
                lo = target
        elif target - 1 < hi:
            hi = target - 1
        if new_hint < 0:
            entry = find(tk, tv, meta, k)  # the hint kept (the table may have grown meanwhile)
            new_hint = (entry >> 8) - 1 if entry >= 0 else -1
        _store(tk, tv, meta, k, lo | hi << 4 | (new_hint + 1) << 8)
        return result

    if level == 1:
        s2 = leader + 1 if leader < 2 else 0
        led = 511 << (9 * (c1 // 9))
        hand = h[s2]
        follow = hand & led
        beat = rules[R_ABOVE, c1]
        if follow:  # the engine's ``legal_reply``
            legal = follow
            if par[P_BEAT_LED] and follow & beat:
                legal = follow & beat
            if par[P_TRUMP_OVER]:
                legal |= hand & trump_mask
        else:
            legal = hand
        cands = legal & rep2
        mx = par[P_MAXER + s2]
        over = cands & rules[R_TAKERS, c1]
        if cands & (cands - 1):
            if par[P_COUNTED + t]:
                if win:
                    good = over if par[P_MAXER + leader] != mx else 0
                    count = _fill(buf, depth, cands, good, rules[R_ASC])
                else:
                    count = _fill(buf, depth, cands, cands & ~over, rules[R_DESC])
            else:
                count = _fill(buf, depth, cands, 0, rules[R_ASC])
        else:
            buf[depth, 0] = _top(cands)
            count = 1
        result = 1 - mx
        for j in range(count):
            card = buf[depth, j]
            bit = 1 << card
            h[s2] = hand ^ bit
            if bit & over:
                r = _node(level + 1, h, leader, target, t, c1, card, s2,
                          rules[R_ABOVE, card] if bit & beat else beat, rep2, rep3, depth + 1,
                          par, rules, spread, info, tk, tv, meta, buf)
            else:
                r = _node(level + 1, h, leader, target, t, c1, c1, leader, beat, rep2, rep3, depth + 1,
                          par, rules, spread, info, tk, tv, meta, buf)
            if r == ABORT:
                h[s2] = hand
                return ABORT
            if r == mx:
                result = mx
                break
        h[s2] = hand
        return result

    # level 2: the third card of the trick
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    led = 511 << (9 * (c1 // 9))
    hand = h[s3]
    follow = hand & led
    if follow:  # the engine's ``legal_reply``
        legal = follow
        if par[P_BEAT_LED] and follow & beat:
            legal = follow & beat
        if par[P_TRUMP_OVER]:
            legal |= hand & trump_mask
    else:
        legal = hand
    cands = legal & rep3
    mx = par[P_MAXER + s3]
    counted = par[P_COUNTED + t]
    over = cands & rules[R_TAKERS, best_card]
    if cands & (cands - 1):
        if counted:
            if ((best_seat == declarer) == (win != 0)) == (s3 == declarer):
                good = cands & ~over
            else:
                good = over if win else 0
            count = _fill(buf, depth, cands, good, rules[R_ASC] if win else rules[R_DESC])
        else:
            count = _fill(buf, depth, cands, 0, rules[R_ASC])
    else:
        buf[depth, 0] = _top(cands)
        count = 1
    result = 1 - mx
    target_takes = target - counted if s3 == declarer else target
    target_stays = target - counted if best_seat == declarer else target
    left = par[P_LEFT + t + 1]
    for j in range(count):
        card = buf[depth, j]
        bit = 1 << card
        if bit & over:
            if target_takes <= 0:
                r = 1
            elif target_takes > left:
                r = 0
            else:
                h[s3] = hand ^ bit
                r = _node(level - 2, h, s3, target_takes, t, c1, best_card, best_seat, beat, rep2, rep3, depth + 1,
                          par, rules, spread, info, tk, tv, meta, buf)
        elif target_stays <= 0:
            r = 1
        elif target_stays > left:
            r = 0
        else:
            h[s3] = hand ^ bit
            r = _node(level - 2, h, best_seat, target_stays, t, c1, best_card, best_seat, beat, rep2, rep3, depth + 1,
                      par, rules, spread, info, tk, tv, meta, buf)
        if r == ABORT:
            h[s3] = hand
            return ABORT
        if r == mx:
            result = mx
            break
    h[s3] = hand
    return result


@njit(cache=True, nogil=True)
def at_least(level, h, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3,
             par, rules, spread, info, tk, tv, meta):
    """``_node`` from the root of a question (its move lists in a buffer of its own)."""
    buf = np.empty((_MAX_DEPTH, _MAX_MOVES), np.int64)
    return _node(level, h, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3, 0,
                 par, rules, spread, info, tk, tv, meta, buf)


class Kernel:
    """One solver's arrays for the compiled search: its parameters and rules, its table, its
    counters.  ``search`` answers one zero-window question (1 yes, 0 no, ``ABORT``)."""

    def __init__(self, *, declarer: int, win: bool, trump: int | None, nine_high: bool,
                 beat_led: bool, trump_over: bool, horizon: int,
                 counted: Sequence[int], counted_left: Sequence[int], keys: Sequence[int],
                 above: Sequence[int], takers: Sequence[int],
                 tables: tuple[np.ndarray, np.ndarray]) -> None:
        par = np.zeros(PAR_SIZE, np.int64)
        par[P_DECLARER] = declarer
        par[P_WIN] = win
        par[P_TRUMP_MASK] = 0 if trump is None else _SUIT_BITS << (9 * trump)
        par[P_TRUMP_SUIT] = -1 if trump is None else trump
        par[P_NINE_HIGH] = nine_high
        par[P_BEAT_LED] = beat_led
        par[P_TRUMP_OVER] = trump_over
        par[P_HORIZON] = horizon
        par[P_ALL_COUNT] = counted_left[0] == len(counted)
        par[P_COUNTED : P_COUNTED + 12] = counted
        par[P_LEFT : P_LEFT + 13] = counted_left
        par[P_MAXER : P_MAXER + 3] = [(s == declarer) == win for s in range(3)]
        rules = np.zeros((RULE_ROWS, 36), np.int64)
        rules[R_KEY] = keys
        rules[R_ABOVE] = above
        rules[R_TAKERS] = takers
        rules[R_ASC] = sorted(range(36), key=lambda c: (keys[c], c))
        rules[R_DESC] = sorted(range(36), key=lambda c: (-keys[c], c))
        self._par = par
        self._rules = rules
        self._spread, self._info = tables
        self._tk, self._tv, self._meta = new_table()
        self._meta[M_LIMIT] = 1 << 62
        self._h = np.zeros(3, np.int64)

    @property
    def nodes(self) -> int:
        return int(self._meta[M_NODES])

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._meta[M_NODES] = value

    @property
    def limit(self) -> int:
        return int(self._meta[M_LIMIT])

    @limit.setter
    def limit(self, value: int) -> None:
        self._meta[M_LIMIT] = min(value, 1 << 62)

    def stored(self, k: int) -> tuple[int, int] | None:
        entry = int(find(self._tk, self._tv, self._meta, k))
        return None if entry < 0 else (entry & 15, entry >> 4 & 15)

    def estimate(self, hands: Sequence[int], t: int) -> float:
        self._h[:] = hands
        return float(estimate(self._h, t, self._par, self._rules))

    def search(self, hands: Sequence[int], level: int, leader: int, target: int, t: int, c1: int,
               best_card: int, best_seat: int, beat: int, rep2: int, rep3: int) -> int:
        self._h[:] = hands
        return int(at_least(level, self._h, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3,
                            self._par, self._rules, self._spread, self._info,
                            self._tk, self._tv, self._meta))


def suit_tables() -> tuple[np.ndarray, np.ndarray]:
    """The per-suit tables (``_suit_tables``): built by every process that uses this core."""
    spread, info = _suit_tables()
    return spread, info


def new_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tk, tv, meta)`` of an empty table: the slots are reserved, not touched (``np.zeros``
    of this size takes fresh pages from the system, which cost nothing until written)."""
    meta = np.zeros(META_SIZE, np.int64)
    meta[M_MASK] = FIRST_SLOTS - 1
    slots = MAX_SLOTS
    while True:
        try:
            return np.zeros(slots, np.int64), np.zeros(slots, np.int16), meta
        except MemoryError:
            # A system that refuses to reserve memory it has not used (strict overcommit):
            # a smaller table, which stops adding entries sooner (answers stay exact).
            if slots <= FIRST_SLOTS:
                raise
            slots //= 4


def warm_up(tables: tuple[np.ndarray, np.ndarray]) -> None:
    """Load (or, the first time on a machine, compile) every function of the search now, on a
    one-trick position, so that no solve pays for it later."""
    kernel = Kernel(declarer=0, win=True, trump=0, nine_high=True, beat_led=False, trump_over=False,
                    horizon=12, counted=[1] * 12, counted_left=list(range(12, -1, -1)),
                    keys=list(range(36)), above=[0] * 36, takers=[0] * 36, tables=tables)
    hands = (1 << 0 | 1 << 9, 1 << 1 | 1 << 10, 1 << 2 | 1 << 11)
    kernel.search(hands, 0, 0, 1, 10, 0, 0, 0, 0, 0, 0)
    kernel.estimate(hands, 10)
    kernel.stored(1)
