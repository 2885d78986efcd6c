"""The search: zero-window questions, one trick per call.

The core only answers yes/no questions: "does the declarer take at least ``target`` counted
tricks from here?"  A yes/no search prunes far more than a search for the exact number; the
exact number is found at the root by a few such questions (``value_of``).

``node`` plays one trick, its three seats as loops one inside the other, and calls itself for
the next trick (one recursive function: numba caches a self-recursive function, not mutually
recursive ones; and a call passes some seventy machine words, so a call per trick instead of
one per card took 15% less CPU on May Trump's heaviest deals, the same positions searched).
Between tricks (``open_lead``) it counts the position (``meta[M_NODES]``, against the limit),
keys it on its rank codes, answers from the table's bounds or the first bounds, else puts the
leads in order (``ordering``); after trying them it stores what it proved.  The third seat
answers the trivial targets after the trick without a call.  It returns 1 (yes), 0 (no) or
``ABORT`` (the limit of positions was reached).

The arguments they share: ``h`` the three hands (changed and restored as cards are tried),
``leader`` the seat that led the trick, ``target``, ``t`` the trick (0-based), ``c1`` the card
led, ``best_card`` of ``best_seat`` the card winning the trick after two cards, ``beat`` the led
suit's cards above the best of it, ``rep2`` and ``rep3`` the repliers' cards that stand for their
runs, ``depth`` the row of ``buf`` for the moves; then the solver's ``par`` and ``rules``, the
rank tables ``spread`` and ``info``, the table ``tt`` with ``meta``, and ``buf``.
"""

from __future__ import annotations

from .bounds import estimate, first_bounds, strongest, weakest
from .jit import kernel, one_signature, popcount, top
from .layout import (
    P_BEAT_LED,
    P_COUNTED,
    P_DECLARER,
    P_HORIZON,
    P_LEFT,
    P_MAXER,
    P_NINE_HIGH,
    R_ABOVE,
    R_TAKERS,
)
from .ordering import (
    MAX_MOVES,
    hint_first,
    hint_of,
    lead_moves,
    legal_replies,
    second_moves,
    third_moves,
)
from .ranks import SUIT_BITS, position_shape, run_around
from .tables import M_LIMIT, M_NODES, M_WR, encode, find, probe, put, store

ABORT = 2  # a search result: the limit of positions was reached

_SIGNATURE = "IIVIIIIIIIIIIVVVVVVVV"


@one_signature(_SIGNATURE)
def node(
    level,
    h,
    leader,
    target,
    t,
    c1,
    best_card,
    best_seat,
    beat,
    rep2,
    rep3,
    depth,
    par,
    rules,
    spread,
    info,
    tt,
    wt,
    meta,
    buf,
):
    """Whether the declarer takes at least ``target`` more counted tricks, from the seat of
    ``level`` on in the trick (0 leads, 1 plays second to ``c1``, 2 plays third).  The seats of
    one trick are loops of this one call, one inside the other (a call per trick, not per card:
    a call passes some seventy machine words); the next trick is the recursive call.  The
    winning ranks of the answer (``tables``) are left in ``meta[M_WR]``."""
    declarer = par[P_DECLARER]
    beat_led = par[P_BEAT_LED]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    zero = leader & 0  # int64 from the start (see ``ranks.position_shape``)
    key = zero
    entry = zero
    bucket = zero
    s01 = zero
    s23 = zero
    lens = zero
    held = zero
    leads = zero + 1
    if level == 0:
        verdict, t, key, bucket, s01, s23, lens, leads, rep2, rep3, held, entry = open_lead(
            h, leader, target, depth, par, rules, spread, info, tt, wt, meta, buf
        )
        if verdict >= 0:
            return verdict
    # The targets after the trick, whoever takes it; a lead answers the trivial ones without
    # counting a position, so they are answered here without the call.
    counted = par[P_COUNTED + t]
    target_takes = target - counted if s3 == declarer else target
    target_stays = target - counted if best_seat == declarer else target
    left = par[P_LEFT + t + 1]
    hand0 = h[leader]
    hand1 = h[s2]
    hand2 = h[s3]
    mx0 = par[P_MAXER + leader]
    mx1 = par[P_MAXER + s2]
    mx2 = par[P_MAXER + s3]
    result0 = 1 - mx0
    new_hint = -1
    replies = zero + 1
    over1 = zero
    beat1 = beat
    c2 = best_card
    led_best = best_card if level == 2 and best_card // 9 == c1 // 9 else c1
    # The winning ranks (``tables``): per seat, of the cards tried so far (where no card has
    # answered yet, every card must fail, and each one's ranks count).
    w0 = zero
    w1 = zero
    w2 = zero
    for j0 in range(leads):
        if level == 0:
            c1 = buf[depth * MAX_MOVES + j0]
            h[leader] = hand0 ^ (1 << c1)
        if level <= 1:
            beat1 = rules[R_ABOVE + c1]
            cands = legal_replies(hand1, c1, beat1, par) & rep2
            over1 = cands & rules[R_TAKERS + c1]
            replies = second_moves(buf, depth + 1, cands, over1, leader, s2, t, par, rules)
        result1 = 1 - mx1
        w1 = zero
        for j1 in range(replies):
            if level <= 1:
                card = buf[(depth + 1) * MAX_MOVES + j1]
                bit = 1 << card
                c2 = card
                h[s2] = hand1 ^ bit
                if bit & over1:
                    best_card = card
                    best_seat = s2
                    beat = rules[R_ABOVE + card] if bit & beat1 else beat1
                else:
                    best_card = c1
                    best_seat = leader
                    beat = beat1
                led_best = card if bit & beat1 else c1
                target_stays = target - counted if best_seat == declarer else target
            cands = legal_replies(hand2, c1, beat, par) & rep3
            over = cands & rules[R_TAKERS + best_card]
            # The trick's winning ranks (``_trick_ranks``), worked out once for the third seat's
            # cards: a card that takes the trick beat the best card (a card of its suit, unless
            # it ruffs a trick that holds no trump); the best card that keeps it beat a card of
            # its suit if one was played.
            best_suit = SUIT_BITS << (9 * (best_card // 9))
            best_beat = (1 << best_card) if popcount(((1 << c1) | (1 << c2)) & best_suit) > 1 else zero
            count = third_moves(buf, depth + 2, cands, over, best_seat, s3, t, par, rules)
            result2 = 1 - mx2
            w2 = zero
            for j2 in range(count):
                card = buf[(depth + 2) * MAX_MOVES + j2]
                bit = 1 << card
                takes = bit & over
                after = target_takes if takes else target_stays
                if after <= 0:
                    r = 1
                    w = zero
                elif after > left:
                    r = 0
                    w = zero
                else:
                    h[s3] = hand2 ^ bit
                    r = node(
                        zero,  # not a literal 0: see ``jit.one_signature``
                        h,
                        s3 if takes else best_seat,
                        after,
                        t,
                        c1,
                        best_card,
                        best_seat,
                        beat,
                        rep2,
                        rep3,
                        depth + 3,
                        par,
                        rules,
                        spread,
                        info,
                        tt,
                        wt,
                        meta,
                        buf,
                    )
                    h[s3] = hand2
                    if r == ABORT:
                        h[s2] = hand1
                        h[leader] = hand0
                        return ABORT
                    w = meta[M_WR]
                if takes:
                    if bit & best_suit:
                        w |= bit
                elif best_beat or bit & best_suit:
                    w |= 1 << best_card
                if r == mx2:
                    result2 = mx2
                    w2 = w
                    break
                w2 |= _with_run(w, card, hand2, held)
            if beat_led and hand2 & (SUIT_BITS << (9 * (c1 // 9))):
                w2 |= 1 << led_best  # what it had to beat decided its cards
            if level == 2:
                meta[M_WR] = w2
                return result2
            if beat_led and hand1 & (SUIT_BITS << (9 * (c1 // 9))):
                w2 |= 1 << c1
            if result2 == mx1:
                result1 = mx1
                w1 = w2
                break
            w1 |= _with_run(w2, c2, hand1, held)
        h[s2] = hand1
        if level == 1:
            meta[M_WR] = w1
            return result1
        if result1 == mx0:
            result0 = mx0
            w0 = w1
            if leads > 1:
                new_hint = hint_of(c1, held)
            break
        w0 |= _with_run(w1, c1, hand0, held)
    h[leader] = hand0
    _remember(tt, wt, meta, key, entry, bucket, s01, s23, lens, result0, target, t, w0, held, new_hint, par, rules)
    meta[M_WR] = w0
    return result0


@kernel
def _trick_ranks(c1, c2, c3, winner):
    """The winning ranks of one trick: its winning card, if it beat a card of its own suit (a
    trick taken by a ruff, or by the only card of its suit, was taken whatever the ranks)."""
    suit = winner // 9
    n = (c1 // 9 == suit) + (c2 // 9 == suit) + (c3 // 9 == suit)
    return (1 << winner) if n > 1 else (c1 & 0)


@kernel
def _with_run(w, card, hand, held):
    """``w`` for a card that stood for its run of ``hand`` (``ranks``) and failed: the others of
    the run failed too, so if the ranks that decided it touch the run, the whole run's ranks
    count (a position where the run is split must be searched)."""
    suit = SUIT_BITS << (9 * (card // 9))
    if not w & hand & suit:
        return w
    run = run_around(card, hand, held)
    return w | run if w & run else w


@kernel
def open_lead(h, leader, target, depth, par, rules, spread, info, tt, wt, meta, buf):
    """A position between tricks: counted against the limit, then answered from the tables'
    bounds or the first bounds where they can (``verdict``: 1, 0 or ``ABORT``, with its winning
    ranks in ``meta[M_WR]``; -1 to search on), else its leads put in order.  Returns
    ``(verdict, t, key, bucket, s01, s23, lens, leads, rep2, rep3, held, entry)``: the trick,
    what the tables key the position on (``ranks.position_shape``), how many leads, the
    repliers' cards that stand for their runs, the cards still held, and what the exact table
    holds for it (``tables.encode``).

    The exact table answers a position met before; a position met for the first time takes
    the bounds of the classes it belongs to (``tables.probe``) and the first bounds, kept in
    the exact table from then on."""
    hand = h[leader]
    n = popcount(hand)
    t = 12 - n
    zero = hand & 0
    meta[M_WR] = zero
    if target <= 0:
        return 1, t, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero
    if target > par[P_LEFT + t]:
        return 0, t, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero
    meta[M_NODES] += 1
    if meta[M_NODES] > meta[M_LIMIT]:
        return ABORT, t, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero
    held = h[0] | h[1] | h[2]
    if n == 1:
        r, w = _last_trick(h, leader, par, rules)
        meta[M_WR] = w
        return r, t, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero
    if t >= par[P_HORIZON]:
        meta[M_WR] = held
        r = 1 if estimate(h, t, par, rules) >= target else 0
        return r, t, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero
    key, bucket, s01, s23, lens, r0, r1, r2 = position_shape(h, leader, spread, info)
    nine_high = par[P_NINE_HIGH]
    left = par[P_LEFT + t]
    entry = find(tt, meta, key)
    if entry >= 0:
        lo = entry & 15
        hi = entry >> 4 & 15
        hint = (entry >> 8 & 255) - 1
        klo = entry >> 16 & 65535
        khi = entry >> 32 & 65535
    else:
        lo, hi, hint, klo, khi = probe(wt, meta, bucket, s01, s23, lens, nine_high, left)
        flo, fhi, wlo, whi = first_bounds(h, leader, n, t, par, rules)
        if flo > lo:
            lo = flo
            klo = _kpack(wlo, held, nine_high, rules)
        if fhi < hi:
            hi = fhi
            khi = _kpack(whi, held, nine_high, rules)
        if lo or hi < left or hint >= 0:
            store(tt, meta, key, encode(lo, hi, hint, klo, khi))
    if lo >= target:
        meta[M_WR] = _significant(klo, held, nine_high)
        return 1, t, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero
    if hi < target:
        meta[M_WR] = _significant(khi, held, nine_high)
        return 0, t, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    mine_reps = r0 if leader == 0 else (r1 if leader == 1 else r2)
    rep2 = r0 if s2 == 0 else (r1 if s2 == 1 else r2)
    rep3 = r0 if s3 == 0 else (r1 if s3 == 1 else r2)
    cands = hand & mine_reps
    count = lead_moves(buf, depth, h, leader, cands, mine_reps, t, par, rules)
    if hint >= 0 and count > 1:
        hint_first(buf, depth, count, hint, held, cands)
    return -1, t, key, bucket, s01, s23, lens, count, rep2, rep3, held, encode(lo, hi, hint, klo, khi)


@kernel
def _significant(kpack, held, nine_high):
    """The winning ranks of an entry's class at a position holding ``held``: per suit the
    weakest of its ``kpack`` significant cards (the strongest cards held), which stands for them
    all."""
    w = held & 0
    for s in range(4):
        k = kpack >> (4 * s) & 15
        if k:
            m = held & (SUIT_BITS << (9 * s))
            for _ in range(k - 1):
                m &= ~(1 << strongest(m, nine_high))
            w |= 1 << strongest(m, nine_high)
    return w


@kernel
def _kpack(w, held, nine_high, rules):
    """Per suit (4 bits each) how many cards held are significant for winning ranks ``w``: those
    at or above the weakest card of ``w`` in the suit."""
    kpack = w & 0
    for s in range(4):
        ws = w & (SUIT_BITS << (9 * s))
        if ws:
            low_card = weakest(ws, nine_high)
            kpack |= popcount(held & (rules[R_ABOVE + low_card] | 1 << low_card)) << (4 * s)
    return kpack


@kernel
def _last_trick(h, leader, par, rules):
    """The last trick plays itself (the target is 1 and it counts): ``(r, wr)``, 1 if the
    declarer takes it, and its winning ranks."""
    declarer = par[P_DECLARER]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    a1 = top(h[leader])
    a2 = top(h[s2])
    a3 = top(h[s3])
    first = a2 if h[s2] & rules[R_TAKERS + a1] else a1
    if h[s3] & rules[R_TAKERS + first]:
        return (1 if s3 == declarer else 0), _trick_ranks(a1, a2, a3, a3)
    return (1 if (s2 if first == a2 else leader) == declarer else 0), _trick_ranks(a1, a2, a3, first)


@kernel
def _remember(tt, wt, meta, key, entry, bucket, s01, s23, lens, result, target, t, w, held, new_hint, par, rules):
    """Store what a search of a position proved, with the lead that decided it (or the hint kept
    before, if none did): in its exact entry (``entry`` before the search: no other search
    changes it meanwhile), with the class of positions its winning ranks ``w`` decide; and, where
    that class is larger than the position, in the table of classes (``tables``)."""
    nine_high = par[P_NINE_HIGH]
    kpack = _kpack(w, held, nine_high, rules)
    lo = entry & 15
    hi = entry >> 4 & 15
    klo = entry >> 16 & 65535
    khi = entry >> 32 & 65535
    if new_hint < 0:
        new_hint = (entry >> 8 & 255) - 1
    if result:
        if target > lo:
            lo = target
            klo = kpack
    elif target - 1 < hi:
        hi = target - 1
        khi = kpack
    store(tt, meta, key, encode(lo, hi, new_hint, klo, khi))
    if kpack != lens:
        if result:
            put(wt, meta, bucket, s01, s23, lens, nine_high, kpack, target, par[P_LEFT + t], new_hint)
        else:
            put(wt, meta, bucket, s01, s23, lens, nine_high, kpack, w & 0, target - 1, new_hint)


NO_GUESS = -(1 << 40)
"""``value_of``'s guess when there is none (a guess may be below 0: it is only a start)."""


@kernel
def at_least(
    level, h, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3, par, rules, spread, info, tt, wt, meta, buf
):
    """One question from its root: ``level`` is the seat to play in the trick (0 leads); the
    claims' referee asks it (``Solver.at_least``) where it needs a yes or no, not the value."""
    return node(
        level,
        h,
        leader,
        target,
        t,
        c1,
        best_card,
        best_seat,
        beat,
        rep2,
        rep3,
        level & 0,
        par,
        rules,
        spread,
        info,
        tt,
        wt,
        meta,
        buf,
    )


@kernel
def value_of(
    level, h, leader, t, c1, best_card, best_seat, beat, rep2, rep3, guess, par, rules, spread, info, tt, wt, meta, buf
):
    """The declarer's counted tricks from a position (``level`` and the trick as for ``node``;
    ``t`` the trick), or -1 if the limit of positions was reached.  Zero-window questions: the
    first at ``guess`` (without one: the middle of the range in a trick, else the quick count of
    winners, ``estimate``, rounded half to even), each later one next to the last answer (one
    more after a yes, the same count after a no), walking to the value one step at a time
    (MTD(f)).  Far from the value a question is cheap (its answer is clear); halving the range
    instead asked fewer questions but more of them near the value, where they cost most: 4-10%
    more positions on the 30-deal sets of scripts/measure_solver_speed.py.  All in one call, so
    that a small position costs one call from Python, not one per question."""
    lo = leader & 0
    hi = lo + par[P_LEFT + t]
    if level == 0 and lo < hi:
        entry = find(tt, meta, position_shape(h, leader, spread, info)[0])
        if entry >= 0:
            lo = entry & 15
            hi = entry >> 4 & 15
    if guess != NO_GUESS:
        g = guess
    elif level:
        g = (lo + hi + 1) // 2
    else:
        g = _rounded(estimate(h, t, par, rules))
    target = min(max(g, lo + 1), hi)
    while lo < hi:
        r = node(
            level,
            h,
            leader,
            target,
            t,
            c1,
            best_card,
            best_seat,
            beat,
            rep2,
            rep3,
            lo & 0,
            par,
            rules,
            spread,
            info,
            tt,
            wt,
            meta,
            buf,
        )
        if r == ABORT:
            return -1
        if r:
            lo = target
            target += 1
        else:
            hi = target - 1
            target = hi
    return lo


@kernel
def _rounded(x):
    """``round(x)`` of Python for ``x >= 0``: to the nearest integer, a half to the even one."""
    n = int(x)
    rest = x - n
    if rest > 0.5 or (rest == 0.5 and n % 2 == 1):
        n += 1
    return n
