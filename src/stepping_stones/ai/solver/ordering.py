"""Move ordering: each seat tries first the card its side would usually play, so that a yes or
a no is found early.

The moves of a position go into row ``depth`` of one buffer (``buf[depth * MAX_MOVES + j]``),
one card per run of equivalent cards (``ranks``).  The orders:

* a Win contract's leads: the declarer cashes its winners first (``winners``: above all the
  defenders' cards of the suit, in a suit neither can ruff; but not under May Trump), then its
  other cards, high first (trumps first, as their keys are higher); a defender its side suits'
  winners against the declarer first, then its other side suits, then its trumps, high first;
  under May Trump, where anyone may trump at any time, a defender leads its trumps first, low
  ones first.  Last, the suits dead for the leader: for the declarer those the defenders can
  neither follow nor ruff (its sure tricks, already in the quick tricks), for a defender those
  the declarer can neither follow nor ruff.  (Chosen by the positions searched on deals 0-9 of
  scripts/measure_solver_speed.py; the winners first on all 30 deals: Win No Trump -4.6%, Win
  Pick Trump -30%, Win Last 6 -0.6%; under May Trump the declarer's winners first took 73% more.)
* a Lose contract's leads: low, the suits the leader holds fewest cards of first, first the
  cards ``lose_leads`` picks, last the suits it marks dead;
* the second seat looks at what the third seat can play (``_second_order``): in a Win contract
  it ducks where its partner takes the trick anyway, covers with a card the last seat cannot
  beat, else takes the lead low when that is what it wants; in a Lose contract it stays under,
  highest first, sheds its highest cards where the trick is lost to the declarer's side anyway,
  and the declarer counts as safe a card the last seat must beat;
* the third seat knows the trick's outcome: cards that leave it where it pleases come first;
* in a trick that does not count (Win Last 6's first six) the leads go weakest first, and the
  second and third seats keep their orders (who takes the trick leads the next one).
* before all, the lead that decided the position before (kept in the table's entry); second,
  the killer lead of the trick and leader (``search``, ``hint_at``).
"""

from __future__ import annotations

from .bounds import forced_exit, strongest
from .jit import kernel, low, popcount, top
from .layout import (
    P_BEAT_LED,
    P_COUNTED,
    P_DECLARER,
    P_NINE_HIGH,
    P_TRUMP_MASK,
    P_TRUMP_OVER,
    P_WIN,
    R_ABOVE,
    R_ASC,
    R_DESC,
    R_PLACE,
    R_TAKERS,
)

SUIT_BITS = 511
MAX_MOVES = 16
MAX_DEPTH = 48


@kernel
def fill(buf, depth, mask, good, order, rules):
    """Row ``depth`` of ``buf``: the cards of ``mask``, those of ``good`` first, each group in the
    order of the row of ``rules`` at ``order`` (``R_ASC`` or ``R_DESC``).  Returns how many."""
    return fill_at(buf, depth, 0, mask, good, order, rules)


@kernel
def fill_late(buf, depth, mask, good, late, order, rules):
    """``fill``, but the cards of ``late`` after all the others."""
    if not mask & late:
        return fill_at(buf, depth, 0, mask, good, order, rules)
    n = fill_at(buf, depth, 0, mask & ~late, good, order, rules)
    return fill_at(buf, depth, n, mask & late, good, order, rules)


@kernel
def fill_at(buf, depth, n, mask, good, order, rules):
    """``fill`` from place ``n`` of row ``depth`` on; returns the places filled then."""
    row = depth * MAX_MOVES
    n = _fill_group(buf, row, n, mask & good, order, rules)
    return _fill_group(buf, row, n, mask & ~good, order, rules)


@kernel
def _fill_group(buf, row, n, mask, order, rules):
    """The cards of ``mask`` in the order of ``rules`` at ``order``, from ``buf[row + n]`` on:
    their places in the order as the bits of one mask, read from the lowest (a step per card,
    not per card of the deck)."""
    places = mask & 0
    while mask:
        places |= 1 << rules[order + R_PLACE + low(mask)]
        mask &= mask - 1
    while places:
        buf[row + n] = rules[order + low(places)]
        places &= places - 1
        n += 1
    return n


@kernel
def fill_lose(buf, depth, mask, good, late, hand, others, rules):
    """A Lose contract's leads: the suits ``hand`` holds fewest cards of first, among those of one
    length those ``others`` holds most of (0 for none: a defender leads), each group as ``fill``
    puts it (``good`` first, weakest first), the cards of ``late`` last."""
    live = mask & ~late
    n = 0
    while live:
        best = 1 << 20
        m = 0
        for s in range(4):
            suit = SUIT_BITS << (9 * s)
            if live & suit:
                rank = popcount(hand & suit) << 4 | 15 - popcount(others & suit)
                if rank < best:
                    best = rank
                    m = live & suit
                elif rank == best:
                    m |= live & suit
        n = fill_at(buf, depth, n, m, good, R_ASC, rules)
        live &= ~m
    if mask & late:
        n = fill_at(buf, depth, n, mask & late, good, R_ASC, rules)
    return n


@kernel
def winners(cands, a, b, par, rules):
    """The cards of ``cands`` that take a trick against hands ``a`` and ``b`` when led: above
    all their cards of the suit, in a suit that neither of them can ruff (out of it, with a
    trump)."""
    nine_high = par[P_NINE_HIGH]
    trump_mask = par[P_TRUMP_MASK]
    good = 0
    for s in range(4):
        suit = SUIT_BITS << (9 * s)
        if not suit & trump_mask and ((not a & suit and a & trump_mask) or (not b & suit and b & trump_mask)):
            continue
        theirs = (a | b) & suit
        if theirs:
            good |= cands & suit & rules[R_ABOVE + strongest(theirs, nine_high)]
        else:
            good |= cands & suit
    return good


@kernel
def dead_suits(others, trump_mask):
    """In a Win contract, the suits where a leader's cards cannot be beaten by a hand holding
    ``others`` (no card of the suit, no trump), as a mask of cards."""
    late = 0
    for s in range(4):
        suit = SUIT_BITS << (9 * s)
        if not others & (suit | trump_mask):
            late |= suit
    return late


@kernel
def lose_leads(x0, x1, x2, r_leader, leader, par, rules):
    """In a Lose contract, the lead of one suit to try first, from its holdings ``x0, x1, x2``
    (the cards as those of suit 0; ``r_leader`` the leader's cards that stand for their runs);
    and from bit 9 on, the suit's nine bits when it is dead for the leader, a lead to try last:
    the declarer's when both defenders are out of it (the lead is not a safe exit: a side that
    cannot follow never takes the trick), a defender's when the declarer is out of it (the
    declarer throws any card on it).  Leading a dead suit last took 6-16% fewer positions on
    deals 0-7 of the three Lose contracts."""
    declarer = par[P_DECLARER]
    if leader == declarer:
        dead = (x0 | x1 | x2) == (x0 if leader == 0 else (x1 if leader == 1 else x2))
    else:
        dead = (x0 if declarer == 0 else (x1 if declarer == 1 else x2)) == 0
    late = SUIT_BITS << 9 if dead else 0
    mine = (x0 if leader == 0 else (x1 if leader == 1 else x2)) & r_leader
    return forced_exit(x0, x1, x2, mine, leader, par, rules) | late


@kernel
def single_move(buf, depth, cands):
    """A seat with one card (of one run) to play puts it in row ``depth``: 1; else 0."""
    if not cands & (cands - 1):
        buf[depth * MAX_MOVES] = top(cands)
        return 1
    return 0


@kernel
def plain_moves(buf, depth, cands, t, par, rules):
    """Where the leader's order does not matter: a single card, or a trick that does not count
    (weakest first).  Returns how many cards it put in row ``depth``, or 0 where the leader's
    own order applies.  (The second and third seats keep their own orders in a trick that does
    not count: who takes it leads the next, and the high cards kept count later; Win Last 6's
    30 deals 2.834M -> 2.477M positions.  Leads in their own order there took 28% more.)"""
    single = single_move(buf, depth, cands)
    if single:
        return single
    if not par[P_COUNTED + t]:
        return fill(buf, depth, cands, 0, R_ASC, rules)
    return 0


@kernel
def lead_moves(buf, depth, h, leader, cands, mine_reps, t, par, rules):
    """The leads of ``leader`` (``cands``: one card per run) into row ``depth``; how many."""
    declarer = par[P_DECLARER]
    trump_mask = par[P_TRUMP_MASK]
    s2 = leader + 1 if leader < 2 else 0
    s3 = s2 + 1 if s2 < 2 else 0
    plain = plain_moves(buf, depth, cands, t, par, rules)
    if plain:
        return plain
    if par[P_WIN]:
        if leader == declarer:
            good = 0 if par[P_TRUMP_OVER] else winners(cands, h[s2], h[s3], par, rules)
            return fill_late(buf, depth, cands, good, dead_suits(h[s2] | h[s3], trump_mask), R_DESC, rules)
        late = dead_suits(h[declarer], trump_mask)
        if par[P_TRUMP_OVER]:
            return fill_late(buf, depth, cands, cands & trump_mask, late, R_ASC, rules)
        side = cands & ~trump_mask & ~late
        n = fill_at(buf, depth, 0, side, winners(side, h[declarer], 0, par, rules), R_DESC, rules)
        n = fill_at(buf, depth, n, cands & trump_mask & ~late, 0, R_DESC, rules)
        return fill_at(buf, depth, n, cands & late, cands & ~trump_mask, R_DESC, rules)
    good = 0
    late = 0
    for s in range(4):
        shift = 9 * s
        g = lose_leads(
            h[0] >> shift & SUIT_BITS,
            h[1] >> shift & SUIT_BITS,
            h[2] >> shift & SUIT_BITS,
            mine_reps >> shift & SUIT_BITS,
            leader,
            par,
            rules,
        )
        good |= (g & SUIT_BITS) << shift
        late |= (g >> 9) << shift
    others = h[s2] | h[s3] if leader == declarer else 0
    return fill_lose(buf, depth, cands, good, late, h[leader], others, rules)


@kernel
def hint_first(buf, depth, count, hint, held, cands):
    """Put first the lead that decided this position before (``hint``: its suit and its rank
    among the cards ``held`` of that suit), if it is still one of ``cands``."""
    hint_at(buf, depth, count, hint, held, cands, 0)


@kernel
def hint_at(buf, depth, count, hint, held, cands, place):
    """``hint_first``, but to ``place`` of the row (if it is later than that)."""
    suit = SUIT_BITS << (9 * (hint >> 4))
    m = held & suit
    for _ in range(hint & 15):
        m &= m - 1
    m &= -m
    rep = cands & suit & ~(m - 1)
    if not rep:
        return
    first = low(rep)
    row = depth * MAX_MOVES
    j = 0
    while buf[row + j] != first and j < count:
        j += 1
    if j <= place:
        return
    while j > place:
        buf[row + j] = buf[row + j - 1]
        j -= 1
    buf[row + place] = first


@kernel
def hint_of(card, held):
    """How a decisive lead is kept in the table: its suit and its rank among the cards held."""
    below = held & (SUIT_BITS << (9 * (card // 9))) & ((1 << card) - 1)
    return (card // 9) << 4 | popcount(below)


@kernel
def legal_replies(hand, c1, beat, par):
    """The cards a seat holding ``hand`` may play to a trick led with ``c1``, where ``beat`` are
    the led suit's cards above the best of it (the engine's ``legal_reply``)."""
    follow = hand & (SUIT_BITS << (9 * (c1 // 9)))
    if not follow:
        return hand
    legal = follow
    if par[P_BEAT_LED] and follow & beat:
        legal = follow & beat
    if par[P_TRUMP_OVER]:
        legal |= hand & par[P_TRUMP_MASK]
    return legal


@kernel
def second_moves(buf, depth, cands, over, leader, s2, hand3, c1, beat1, par, rules):
    """The second seat's cards (``over``: those that take the lead in the trick), knowing what
    the third seat (``hand3``) can play to the card led ``c1``; how many.  (Its order is a
    kernel of its own, ``_second_order``: written out here, it made ``search.node``'s machine
    code slower, 10% on May Trump's deals with the same positions.)"""
    plain = single_move(buf, depth, cands)
    if plain:
        return plain
    return _second_order(buf, depth, cands, over, leader, s2, hand3, c1, beat1, par, rules)


@kernel
def _second_order(buf, depth, cands, over, leader, s2, hand3, c1, beat1, par, rules):
    """The second seat's order by what the third seat can do (DDS's second hand: cover where the
    last seat cannot beat the cover, duck where the trick is settled without it), each row the
    first cards tried, then the rest:

    * Win, the declarer leads: a defender's cards that do not take the lead, low first, where
      its partner can take the card led (its partner wins the trick); else its cards that take
      it, low first.  Under May Trump, low first where its partner can take it.
    * Win, a defender leads to the declarer: the cards that take the lead and that the last seat
      cannot beat, low first, then the other cards that take it, low first (under May Trump,
      where the last seat may trump at any time, only the cards that take it, low first).
    * Win, a defender leads to its partner: low first.
    * Lose, the declarer leads: a defender's cards that stay under the card led, highest first;
      where its partner cannot stay under (the declarer loses the trick anyway), its highest
      cards first.
    * Lose, a defender leads to the declarer: highest first, the cards that leave the trick to
      another: under the card led, or a card the last seat must beat.
    * Lose, a defender leads to its partner: its cards under the card led, highest first, then
      the others low first (the lower the card to beat, the fewer cards the declarer ducks with).

    On the 30-deal sets of scripts/measure_solver_speed.py, 18.46M -> 16.83M positions (-8.8%);
    docs/lab/2026-12-07-solver-tenth-pass.md has each row's own figures."""
    declarer = par[P_DECLARER]
    replies3 = legal_replies(hand3, c1, beat1, par)
    if par[P_WIN]:
        if leader == declarer:
            partner_takes = replies3 & rules[R_TAKERS + c1]
            if par[P_TRUMP_OVER] and partner_takes:
                return fill(buf, depth, cands, 0, R_ASC, rules)
            if partner_takes:
                return fill(buf, depth, cands, cands & ~over, R_ASC, rules)
            return fill(buf, depth, cands, over, R_ASC, rules)
        if s2 != declarer:
            return fill(buf, depth, cands, 0, R_ASC, rules)
        if par[P_TRUMP_OVER]:
            return fill(buf, depth, cands, over, R_ASC, rules)
        sure = over & 0
        m = over
        while m:
            c = low(m)
            m &= m - 1
            if not replies3 & rules[R_TAKERS + c]:
                sure |= 1 << c
        n = fill_at(buf, depth, 0, sure, 0, R_ASC, rules)
        return fill_at(buf, depth, n, cands & ~sure, over, R_ASC, rules)
    if leader == declarer:
        if not replies3 & ~rules[R_TAKERS + c1]:
            return fill(buf, depth, cands, 0, R_DESC, rules)
        return fill(buf, depth, cands, cands & ~over, R_DESC, rules)
    if s2 == declarer:
        safe = cands & ~over
        m = over
        while m:
            c = low(m)
            m &= m - 1
            beat = rules[R_ABOVE + c] if (1 << c) & beat1 else beat1
            if not legal_replies(hand3, c1, beat, par) & ~rules[R_TAKERS + c]:
                safe |= 1 << c
        return fill(buf, depth, cands, safe, R_DESC, rules)
    n = fill_at(buf, depth, 0, cands & ~over, 0, R_DESC, rules)
    return fill_at(buf, depth, n, cands & over, 0, R_ASC, rules)


@kernel
def third_moves(buf, depth, cands, over, best_seat, s3, par, rules):
    """The third seat's cards: taking the trick pleases its side in a Win contract (its own
    trick, or one the declarer does not get) and never in a Lose contract; the cards that leave
    the trick where it pleases come first: low ones in a Win contract, high ones (shedding
    danger) in a Lose contract."""
    plain = single_move(buf, depth, cands)
    if plain:
        return plain
    declarer = par[P_DECLARER]
    win = par[P_WIN]
    if ((best_seat == declarer) == (win != 0)) == (s3 == declarer):
        good = cands & ~over
    else:
        good = over if win else 0
    return fill(buf, depth, cands, good, R_ASC if win else R_DESC, rules)
