"""Bounds without search: the quick count of each side's winners (the horizon's estimate and the
root's first guess), the leader's quick tricks, the leader's exits in a Lose contract, and sure
trump tricks.

* **Quick tricks**: a leader holding the top cards of suits can cash them one after the other;
  in a Win contract that bounds the result before any card is searched.
* **Exits** (a Lose contract): a declarer on lead with a card some defender must beat loses this
  trick; with none it takes it (the defenders duck), or every trick left if no defender holds a
  card above it; a defender with a card the declarer must beat under its partner gives the
  declarer this trick.
* **Sure trumps**: where every trick counts, a trump above every other trump out wins the trick
  it is played to, whatever the goal.
"""

from __future__ import annotations

from .jit import kernel, low, popcount, top
from .layout import (
    P_ALL_COUNT,
    P_BEAT_LED,
    P_COUNTED,
    P_DECLARER,
    P_LEFT,
    P_NINE_HIGH,
    P_TRUMP_MASK,
    P_TRUMP_OVER,
    P_TRUMP_SUIT,
    P_WIN,
    R_ABOVE,
    R_KEY,
)


@kernel
def strongest(mask, nine_high):
    """The strongest card of a one-suit mask under the ranking."""
    return top(mask) if nine_high else low(mask)


@kernel
def weakest(mask, nine_high):
    """The weakest card of a one-suit mask under the ranking."""
    return low(mask) if nine_high else top(mask)


@kernel
def estimate(h, t, par, rules):
    """The declarer's counted tricks still to come, judged without search: every suit played out
    round by round -- in a Win contract each player plays its highest card left in the suit (a
    player out of the suit -- any player, where anyone may trump at any time -- ruffs if it can
    and the round is not its side's), in a Lose contract its lowest, and the highest card takes
    the round -- and the declarer's share of the rounds applied to the counted tricks left."""
    win = par[P_WIN]
    nine_high = par[P_NINE_HIGH]
    trump_mask = par[P_TRUMP_MASK]
    ruffs = trump_mask != 0 and win != 0
    tl0 = popcount(h[0] & trump_mask)
    tl1 = popcount(h[1] & trump_mask)
    tl2 = popcount(h[2] & trump_mask)
    rounds = 0
    mine = 0
    for s in range(4):
        suit = 511 << (9 * s)
        m0 = h[0] & suit
        m1 = h[1] & suit
        m2 = h[2] & suit
        while m0 or m1 or m2:
            winner = _round_winner(m0, m1, m2, par, rules)
            if ruffs and s != par[P_TRUMP_SUIT]:
                ruffer = _ruffer(m0, m1, m2, tl0, tl1, tl2, winner, par)
                if ruffer >= 0:
                    winner = ruffer
                    if ruffer == 0:
                        tl0 -= 1
                    elif ruffer == 1:
                        tl1 -= 1
                    else:
                        tl2 -= 1
            if m0:
                m0 &= ~(1 << (strongest(m0, nine_high) if win else weakest(m0, nine_high)))
            if m1:
                m1 &= ~(1 << (strongest(m1, nine_high) if win else weakest(m1, nine_high)))
            if m2:
                m2 &= ~(1 << (strongest(m2, nine_high) if win else weakest(m2, nine_high)))
            rounds += 1
            if winner == par[P_DECLARER]:
                mine += 1
    if rounds == 0:
        return 0.0
    return mine * par[P_LEFT + t] / rounds


@kernel
def _round_winner(m0, m1, m2, par, rules):
    """The seat whose card takes one round of ``estimate`` (before ruffs)."""
    win = par[P_WIN]
    nine_high = par[P_NINE_HIGH]
    best = -1
    winner = 0
    for p in range(3):
        m = m0 if p == 0 else (m1 if p == 1 else m2)
        if m:
            c = strongest(m, nine_high) if win else weakest(m, nine_high)
            if rules[R_KEY + c] > best:
                best = rules[R_KEY + c]
                winner = p
    return winner


@kernel
def _ruffer(m0, m1, m2, tl0, tl1, tl2, winner, par):
    """The first seat that ruffs a round of ``estimate`` won by ``winner`` (-1: none): out of the
    suit (or anyone, under May Trump), with a trump left, and not of the winner's side."""
    declarer = par[P_DECLARER]
    for p in range(3):
        m = m0 if p == 0 else (m1 if p == 1 else m2)
        left = tl0 if p == 0 else (tl1 if p == 1 else tl2)
        if (m == 0 or par[P_TRUMP_OVER]) and left and (p == declarer) != (winner == declarer):
            return p
    return -1


@kernel
def quick_tricks(hand, o1, o2, ruffers, par, rules):
    """Tricks the leader's side can cash in a row from the leader's top cards, whatever the others
    do: only ``ruffers`` (the trumps of the other side) can stop a side suit's top card."""
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
            tops = popcount(mine & rules[R_ABOVE + strongest(theirs, nine_high)])
        else:
            tops = popcount(mine)
        if s == par[P_TRUMP_SUIT]:
            trump_tops = tops
        else:
            q += tops
    if trump_mask:
        if trump_tops < ruffers:
            q = 0  # the side suits could be ruffed
        q += trump_tops
    return q


@kernel
def first_bounds(h, leader, n, t, par, rules):
    """``(lo, hi)`` for a position met for the first time, from quick tricks (a Win contract),
    the leader's exits (a Lose contract) and sure trumps (every trick counts, a trump suit)."""
    declarer = par[P_DECLARER]
    trump_mask = par[P_TRUMP_MASK]
    left = par[P_LEFT + t]
    lo = 0
    hi = left
    if par[P_WIN]:
        s2 = leader + 1 if leader < 2 else 0
        s3 = s2 + 1 if s2 < 2 else 0
        if leader == declarer:
            ruffers = max(popcount(h[s2] & trump_mask), popcount(h[s3] & trump_mask))
        else:
            ruffers = popcount(h[declarer] & trump_mask)
        q = quick_tricks(h[leader], h[s2], h[s3], ruffers, par, rules)
        if q:
            if q > n:
                q = n
            if leader == declarer:
                lo = left - par[P_LEFT + t + q]
            else:
                hi = par[P_LEFT + t + q]
    else:
        lo, hi = _lose_bounds(h, leader, t, par, rules)
    if par[P_ALL_COUNT] and trump_mask:
        lo, hi = _trump_bounds(h, n, lo, hi, par)
    return lo, hi


@kernel
def _lose_bounds(h, leader, t, par, rules):
    """``(lo, hi)`` in a Lose contract from the leader's cards.  The declarer on lead: with no
    card that a defender can beat (and no defender's trump to ruff with), it takes every trick
    left (it stays on lead, and its cards stay above the defenders'); with a forced exit
    (``forced_exit``), or a card of a suit where a defender holds only trumps, it loses this
    trick; without one, the defenders can duck every lead and it takes this trick.  A defender
    on lead with a forced exit gives the declarer this trick (unless, in a trump contract, its
    partner out of the suit holds only trumps: it would have to ruff).  They decide the targets
    at the ends (all the tricks left, or one): 1-2% fewer positions in the Lose contracts
    (docs/lab/2026-12-07-solver-bounds-ordering.md).  (``ordering.lose_leads`` tries the same
    exits first.)"""
    declarer = par[P_DECLARER]
    trump_mask = par[P_TRUMP_MASK]
    nine_high = par[P_NINE_HIGH]
    left = par[P_LEFT + t]
    counted = par[P_COUNTED + t]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    mine = h[leader]
    lo = 0
    hi = left
    if leader == declarer:
        others = h[s2] | h[s3]
        beatable = (others & trump_mask) != 0
        for s in range(4):
            suit = 511 << (9 * s)
            m = mine & suit
            if not m:
                continue
            a = h[s2] & suit
            b = h[s3] & suit
            if (a | b) & rules[R_ABOVE + weakest(m, nine_high)]:
                beatable = True
            forced = forced_exit(h[0] & suit, h[1] & suit, h[2] & suit, m, leader, par, rules) != 0
            if not forced and trump_mask and not suit & trump_mask:
                forced = (not a and not h[s2] & ~trump_mask) or (not b and not h[s3] & ~trump_mask)
            if forced:
                return lo, left - counted
        return (counted if beatable else left), hi
    partner = s3 if s2 == declarer else s2
    ps_all = h[partner]
    for s in range(4):
        suit = 511 << (9 * s)
        m = mine & suit
        if not m:
            continue
        if not ps_all & suit and trump_mask and not ps_all & ~trump_mask and not suit & trump_mask:
            continue  # the partner could only ruff
        if forced_exit(h[0] & suit, h[1] & suit, h[2] & suit, m, leader, par, rules):
            return counted, hi
    return lo, hi


@kernel
def forced_exit(x0, x1, x2, mine, leader, par, rules):
    """In a Lose contract, the leader's weakest card of ``mine`` (cards of one suit, of which
    ``x0, x1, x2`` are the seats' holdings) as a card's bit if its lead forces the other side to
    take the trick, else 0 (only the cards of the suit are looked at: who ruffs is the caller's).

    * The declarer leads: some defender must go over it -- all the defender's cards of the suit
      are higher; under Must Beat, any is.
    * A defender leads: the declarer must take the trick if the partner plays along -- with the
      standard rule, the declarer's lowest card is above both defenders' lowest; under Must
      Beat, the declarer must go over the lead and the partner cannot go over the declarer, or
      (the partner playing second) the declarer must go over the partner's lowest card that
      beats the lead.

    The one place this is written: ``_lose_bounds`` takes the trick's result from it,
    ``ordering.lose_leads`` leads it first."""
    if not mine:
        return 0
    nine_high = par[P_NINE_HIGH]
    beat_led = par[P_BEAT_LED]
    declarer = par[P_DECLARER]
    x = weakest(mine, nine_high)
    kx = rules[R_KEY + x]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    if leader == declarer:
        for other_seat in (s2, s3):
            other = x0 if other_seat == 0 else (x1 if other_seat == 1 else x2)
            if other:
                y = strongest(other, nine_high) if beat_led else weakest(other, nine_high)
                if rules[R_KEY + y] > kx:
                    return 1 << x
        return 0
    ds = x0 if declarer == 0 else (x1 if declarer == 1 else x2)
    partner = s3 if s2 == declarer else s2
    ps = x0 if partner == 0 else (x1 if partner == 1 else x2)
    if not ds:
        return 0
    if not beat_led:
        lowest = rules[R_KEY + weakest(ds, nine_high)]
        forced = lowest > kx and (not ps or lowest > rules[R_KEY + weakest(ps, nine_high)])
    elif s2 == declarer:
        over = ds & rules[R_ABOVE + x]
        forced = over != 0 and (
            not ps or rules[R_KEY + weakest(over, nine_high)] > rules[R_KEY + strongest(ps, nine_high)]
        )
    else:
        over = ps & rules[R_ABOVE + x]
        forced = rules[R_KEY + strongest(ds, nine_high)] > rules[R_KEY + (weakest(over, nine_high) if over else x)]
    return (1 << x) if forced else 0


@kernel
def _trump_bounds(h, n, lo, hi, par):
    """``first_bounds`` narrowed by the trumps, where every trick counts: a trick holds one card of
    each seat, and a trump loses only to a higher trump, so of the declarer's trumps all but
    those the defenders' trumps can beat, each with a higher one of its own, win a trick each;
    and so do those of one defender's trumps that the declarer's cannot beat (a trick where its
    partner's trump goes over it is the defenders' too)."""
    declarer = par[P_DECLARER]
    trump_mask = par[P_TRUMP_MASK]
    nine_high = par[P_NINE_HIGH]
    d = declarer + 1 if declarer < 2 else 0
    e = d + 1 if d < 2 else 0
    shift = 9 * par[P_TRUMP_SUIT]
    mine = (h[declarer] & trump_mask) >> shift
    d1 = (h[d] & trump_mask) >> shift
    d2 = (h[e] & trump_mask) >> shift
    sure = popcount(mine) - beaten(mine, d1 | d2, nine_high)
    if sure > lo:
        lo = sure
    theirs = max(popcount(d1) - beaten(d1, mine, nine_high), popcount(d2) - beaten(d2, mine, nine_high))
    if n - theirs < hi:
        hi = n - theirs
    return lo, hi


@kernel
def beaten(a, b, nine_high):
    """The most cards of ``a`` that cards of ``b`` can beat, each with a higher card of its own
    (``a`` and ``b``: one suit's 9 bits): from the weakest rank up, each card of ``b`` takes one
    of the cards of ``a`` below it still unbeaten, if any (the greedy matching is the largest)."""
    below = 0
    count = 0
    for j in range(9):
        bit = 1 << (j if nine_high else 8 - j)
        if b & bit and below:
            below -= 1
            count += 1
        if a & bit:
            below += 1
    return count
