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
leads in order (``ordering``: the table's lead first, then the *killer lead* second, below);
after trying them it stores what it proved.  The third seat
answers the trivial targets after the trick without a call.  It returns 1 (yes), 0 (no) or
``ABORT`` (the limit of positions was reached).

The arguments they share: ``h`` the three hands (changed and restored as cards are tried),
``leader`` the seat that led the trick, ``target``, ``t`` the trick (0-based), ``c1`` the card
led, ``best_card`` of ``best_seat`` the card winning the trick after two cards, ``beat`` the led
suit's cards above the best of it, ``rep2`` and ``rep3`` the repliers' cards that stand for their
runs, ``depth`` the row of ``buf`` for the moves; then the solver's ``par`` and ``rules``, the
rank tables ``spread`` and ``info``, the table ``tt`` with ``meta``, and ``buf``.

The killer lead (``meta[M_KILLER + 3 * t + leader]``): per trick and leader, the last lead that
decided a position where the first lead tried did not, kept as the table's leads are (suit and
rank among the cards held) and tried second in the positions of that trick and leader.  The
other positions of a trick often fall to the same surprise (a suit the order did not favour).
Kept only where the first lead failed: kept at every decision it took 2% more positions.  On
the 30-deal sets of ``scripts/measure_solver_speed.py`` 20.22M -> 19.09M positions (-5.6%; May
Trump -7.6%, Win Last 6 -10%), CPU -7 to -26% in four alternating runs; tried first where the
table has no lead, Win Last 6 -27% but May Trump +20%
(docs/lab/2026-12-07-solver-killer-leads.md).

In a trick that does not count (Win Last 6's first six), a position about to be searched first
looks for a lead that the table alone proves (``etc_lead``, an *enhanced transposition
cut-off*): there the target does not move with the trick's winner, so the positions after a
trick transpose into each other and are often in the table already.  Win Last 6's 30 deals
2.22M -> 1.60M positions, CPU -20% in eight alternating pairs.  In the tricks that count the
probes cost what they save: at every searched position of the first 3, 4, 6 or 9 tricks of every
contract 4-35% fewer positions but no CPU gained in alternating pairs (new/base 0.87-0.99, within
the noise), May Trump slower (docs/lab/2026-12-07-solver-eighth-pass.md).
"""

from __future__ import annotations

from .bounds import estimate, first_bounds
from .jit import kernel, low, one_signature, popcount, top
from .layout import P_COUNTED, P_DECLARER, P_HORIZON, P_LEFT, P_MAXER, R_ABOVE, R_TAKERS
from .ordering import (
    MAX_MOVES,
    hint_at,
    hint_first,
    hint_of,
    lead_moves,
    legal_replies,
    second_moves,
    third_moves,
)
from .ranks import position_key
from .tables import M_KILLER, M_LIMIT, M_NODES, find, store

ABORT = 2  # a search result: the limit of positions was reached

_SIGNATURE = "IIVIIIIIIIIIIVVVVVVV"


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
    meta,
    buf,
):
    """Whether the declarer takes at least ``target`` more counted tricks, from the seat of
    ``level`` on in the trick (0 leads, 1 plays second to ``c1``, 2 plays third).  The seats of
    one trick are loops of this one call, one inside the other (a call per trick, not per card:
    a call passes some seventy machine words); the next trick is the recursive call."""
    declarer = par[P_DECLARER]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    zero = leader & 0  # int64 from the start (see ``ranks.position_key``)
    k = zero
    lo = zero
    hi = zero
    held = zero
    leads = zero + 1
    if level == 0:
        verdict, t, k, lo, hi, leads, rep2, rep3, held = open_lead(
            h, leader, target, depth, par, rules, spread, info, tt, meta, buf
        )
        if verdict >= 0:
            return verdict
        if not par[P_COUNTED + t] and leads > 1:
            proven = etc_lead(h, leader, target, t, leads, depth, rep2, rep3, par, rules, spread, info, tt, meta, buf)
            if proven:
                result = par[P_MAXER + leader]
                _remember(tt, meta, k, result, target, lo, hi, hint_of(buf[depth * MAX_MOVES + proven - 1], held))
                return result
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
    for j0 in range(leads):
        if level == 0:
            c1 = buf[depth * MAX_MOVES + j0]
            h[leader] = hand0 ^ (1 << c1)
        if level <= 1:
            beat1 = rules[R_ABOVE + c1]
            cands = legal_replies(hand1, c1, beat1, par) & rep2
            over1 = cands & rules[R_TAKERS + c1]
            replies = second_moves(buf, depth + 1, cands, over1, leader, s2, hand2, c1, beat1, par, rules)
        result1 = 1 - mx1
        for j1 in range(replies):
            if level <= 1:
                card = buf[(depth + 1) * MAX_MOVES + j1]
                bit = 1 << card
                h[s2] = hand1 ^ bit
                if bit & over1:
                    best_card = card
                    best_seat = s2
                    beat = rules[R_ABOVE + card] if bit & beat1 else beat1
                else:
                    best_card = c1
                    best_seat = leader
                    beat = beat1
                target_stays = target - counted if best_seat == declarer else target
            cands = legal_replies(hand2, c1, beat, par) & rep3
            over = cands & rules[R_TAKERS + best_card]
            count = third_moves(buf, depth + 2, cands, over, best_seat, s3, par, rules)
            result2 = 1 - mx2
            for j2 in range(count):
                card = buf[(depth + 2) * MAX_MOVES + j2]
                bit = 1 << card
                after = target_takes if bit & over else target_stays
                if after <= 0:
                    r = 1
                elif after > left:
                    r = 0
                else:
                    h[s3] = hand2 ^ bit
                    r = node(
                        zero,  # not a literal 0: see ``jit.one_signature``
                        h,
                        s3 if bit & over else best_seat,
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
                        meta,
                        buf,
                    )
                    h[s3] = hand2
                    if r == ABORT:
                        h[s2] = hand1
                        h[leader] = hand0
                        return ABORT
                if r == mx2:
                    result2 = mx2
                    break
            if level == 2:
                return result2
            if result2 == mx1:
                result1 = mx1
                break
        h[s2] = hand1
        if level == 1:
            return result1
        if result1 == mx0:
            result0 = mx0
            if leads > 1:
                new_hint = hint_of(c1, held)
                if j0 > 0:
                    meta[M_KILLER + 3 * t + leader] = new_hint + 1
            break
    h[leader] = hand0
    _remember(tt, meta, k, result0, target, lo, hi, new_hint)
    return result0


@kernel
def open_lead(h, leader, target, depth, par, rules, spread, info, tt, meta, buf):
    """A position between tricks: counted against the limit, then answered from the table's
    bounds or the first bounds where they can (``verdict``: 1, 0 or ``ABORT``; -1 to search on),
    else its leads put in order.  Returns ``(verdict, t, key, lo, hi, leads, rep2, rep3, held)``:
    the trick, the table key and bounds, how many leads, the repliers' cards that stand for their
    runs, and the cards still held."""
    hand = h[leader]
    n = popcount(hand)
    t = 12 - n
    zero = hand & 0
    if target <= 0:
        return 1, t, zero, zero, zero, zero, zero, zero, zero
    if target > par[P_LEFT + t]:
        return 0, t, zero, zero, zero, zero, zero, zero, zero
    meta[M_NODES] += 1
    if meta[M_NODES] > meta[M_LIMIT]:
        return ABORT, t, zero, zero, zero, zero, zero, zero, zero
    if n == 1:
        return _last_trick(h, leader, par, rules), t, zero, zero, zero, zero, zero, zero, zero
    k, r0, r1, r2 = position_key(h, leader, spread, info)
    if t >= par[P_HORIZON]:
        return (1 if estimate(h, t, par, rules) >= target else 0), t, zero, zero, zero, zero, zero, zero, zero
    entry = find(tt, meta, k)
    hint = -1
    if entry >= 0:
        lo = entry & 15
        hi = entry >> 4 & 15
        hint = (entry >> 8) - 1
    else:
        lo, hi = first_bounds(h, leader, n, t, par, rules)
        if lo or hi < par[P_LEFT + t]:
            store(tt, meta, k, lo | hi << 4)
    if lo >= target:
        return 1, t, zero, zero, zero, zero, zero, zero, zero
    if hi < target:
        return 0, t, zero, zero, zero, zero, zero, zero, zero
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    mine_reps = r0 if leader == 0 else (r1 if leader == 1 else r2)
    rep2 = r0 if s2 == 0 else (r1 if s2 == 1 else r2)
    rep3 = r0 if s3 == 0 else (r1 if s3 == 1 else r2)
    cands = hand & mine_reps
    held = h[0] | h[1] | h[2]
    count = lead_moves(buf, depth, h, leader, cands, mine_reps, t, par, rules)
    if hint >= 0 and count > 1:
        hint_first(buf, depth, count, hint, held, cands)
    if count > 2 and meta[M_KILLER + 3 * t + leader]:
        hint_at(buf, depth, count, meta[M_KILLER + 3 * t + leader] - 1, held, cands, 1)
    return -1, t, k, lo, hi, count, rep2, rep3, held


@kernel
def etc_lead(h, leader, target, t, leads, depth, rep2, rep3, par, rules, spread, info, tt, meta, buf):
    """Enhanced transposition cut-off, in a trick that does not count: the tricks of the leads
    after the first (row ``depth`` of ``buf``), each played out against the table alone, no
    search.  Returns ``j0 + 1`` if lead ``j0`` is proven to decide the position for the leader's
    side (every answer of the other side, some answer of its own, leads to a position whose
    bounds in the table settle it), else 0.  A lead is given up at the first trick the table does
    not settle its way; the first lead is left to the search, which meets the same entries."""
    declarer = par[P_DECLARER]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    counted = par[P_COUNTED + t]
    left = par[P_LEFT + t + 1]
    mx0 = par[P_MAXER + leader]
    ally1 = par[P_MAXER + s2] == mx0
    ally2 = par[P_MAXER + s3] == mx0
    hand0 = h[leader]
    hand1 = h[s2]
    hand2 = h[s3]
    target_takes = target - counted if s3 == declarer else target
    for j0 in range(1, leads):
        c1 = buf[depth * MAX_MOVES + j0]
        h[leader] = hand0 ^ (1 << c1)
        beat1 = rules[R_ABOVE + c1]
        m1 = legal_replies(hand1, c1, beat1, par) & rep2
        over1 = m1 & rules[R_TAKERS + c1]
        ok1 = not ally1  # an ally needs one reply that decides, an opponent every reply
        while m1:
            card = low(m1)
            m1 &= m1 - 1
            bit = 1 << card
            h[s2] = hand1 ^ bit
            if bit & over1:
                best_card = card
                best_seat = s2
                beat = rules[R_ABOVE + card] if bit & beat1 else beat1
            else:
                best_card = c1
                best_seat = leader
                beat = beat1
            target_stays = target - counted if best_seat == declarer else target
            m2 = legal_replies(hand2, c1, beat, par) & rep3
            over = m2 & rules[R_TAKERS + best_card]
            ok2 = not ally2
            while m2:
                card2 = low(m2)
                m2 &= m2 - 1
                bit2 = 1 << card2
                after = target_takes if bit2 & over else target_stays
                if after <= 0:
                    r = 1
                elif after > left:
                    r = 0
                else:
                    h[s3] = hand2 ^ bit2
                    r = _probe(h, s3 if bit2 & over else best_seat, after, t + 1, par, spread, info, tt, meta)
                    h[s3] = hand2
                if (r == mx0) == ally2:
                    ok2 = ally2
                    break
            h[s2] = hand1
            if ok2 == ally1:
                ok1 = ally1
                break
        h[leader] = hand0
        if ok1:
            return j0 + 1
    return 0


@kernel
def _probe(h, leader, target, t, par, spread, info, tt, meta):
    """What the table says of the position between tricks where ``leader`` leads trick ``t``:
    1 (the declarer reaches ``target``), 0 (it does not), or -1 (no entry settles it)."""
    if t >= par[P_HORIZON]:
        return -1
    entry = find(tt, meta, position_key(h, leader, spread, info)[0])
    if entry < 0:
        return -1
    if (entry & 15) >= target:
        return 1
    if (entry >> 4 & 15) < target:
        return 0
    return -1


@kernel
def _last_trick(h, leader, par, rules):
    """The last trick plays itself (the target is 1 and it counts): 1 if the declarer takes it."""
    declarer = par[P_DECLARER]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    a1 = top(h[leader])
    a2 = top(h[s2])
    first = a2 if h[s2] & rules[R_TAKERS + a1] else a1
    if h[s3] & rules[R_TAKERS + first]:
        return 1 if s3 == declarer else 0
    return 1 if (s2 if first == a2 else leader) == declarer else 0


@kernel
def _remember(tt, meta, k, result, target, lo, hi, new_hint):
    """Store what a search of position ``k`` proved, with the lead that decided it (or the hint
    kept before, if none did: the table may have grown meanwhile, so it is read again)."""
    if result:
        if target > lo:
            lo = target
    elif target - 1 < hi:
        hi = target - 1
    if new_hint < 0:
        entry = find(tt, meta, k)
        new_hint = (entry >> 8) - 1 if entry >= 0 else -1
    store(tt, meta, k, lo | hi << 4 | (new_hint + 1) << 8)


NO_GUESS = -(1 << 40)
"""``value_of``'s guess when there is none (a guess may be below 0: it is only a start)."""


@kernel
def at_least(
    level, h, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3, par, rules, spread, info, tt, meta, buf
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
        meta,
        buf,
    )


@kernel
def value_of(
    level, h, leader, t, c1, best_card, best_seat, beat, rep2, rep3, guess, par, rules, spread, info, tt, meta, buf
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
        entry = find(tt, meta, position_key(h, leader, spread, info)[0])
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
