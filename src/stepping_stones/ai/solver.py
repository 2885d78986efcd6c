"""An exact double-dummy solver: with every card in view, how many counted tricks does the
declarer take from here when all three play perfectly?

The declarer plays against the two defenders, who share the opposite goal, so this is a
two-sided game: for a Win contract the declarer wants more counted tricks and the defenders
fewer; for a Lose contract the other way round.  The answer is exact for every contract of
``engine.contracts`` (its goal, trump rule, counted tricks and follow rule are read from the
contract, never from its id), under both rankings, from any position -- between tricks or in
the middle of one.

How it is fast (the ideas of bridge double-dummy solvers, adapted to three hands):

* **Zero-window search.**  The core only answers yes/no questions: "does the declarer take at
  least ``target`` counted tricks from here?"  A yes/no search prunes far more than a search
  for the exact number.  The exact number is found at the root by a few such questions.
* **Transposition table for the whole hand**, at trick boundaries.  A position is keyed on the
  *relative* ranks per suit: only the order of the cards still held matters, not which cards
  were played, so positions reached through different tricks share one entry.  An entry holds
  a lower and an upper bound on the counted tricks still to come.  One ``Solver`` keeps its
  table for every question about the same hand and contract, so solving after each card of a
  hand, or for each card a seat might play, reuses what was found before.
* **One card per run of equivalent cards**: two cards of one suit in one hand with nothing
  still in play between them win and lose exactly the same tricks, so only one is tried.
  (Cards of the trick being played count as in play until the trick ends.)
* **Quick tricks**: a leader holding the top cards of suits can cash them one after the other;
  in a Win contract that bounds the result before any card is searched.
* **Move ordering**: each seat tries first the card its side would usually play (cheapest
  winner, highest card that ducks, a low lead from a short suit in a Lose contract, a suit the
  other side can neither follow nor ruff last), so a yes or a no is found early.

The rules of play come from the engine's table: what a follower may play (``FOLLOW_SPECS``,
``legal_reply``) and which card takes a trick (``trick_takers``), never from a contract's id.

**Two cores search the same way.**  ``_PythonSearch`` below is pure Python; ``solver_core`` is
the same search compiled by numba (``pip install 'stepping-stones[fast]'``), about ten times
faster.  Both search the same positions in the same order, so their answers and their ``nodes``
are equal and a budget in positions makes the same choices with either.  A solver uses the
compiled core when numba is installed and loads (``choose_core``); ``Solver(core="python")`` or
``STEPPING_STONES_SOLVER=python`` forces the Python one.

Everything works on the engine's bitmasks: a hand is an ``int``, a suit a mask.  The solver
never changes what it is given; its only state is the table, which depends on the contract,
ranking, trump and declarer and is only ever a cache of exact bounds, so the same question
always gets the same answer.  ``nodes`` counts the positions searched: callers that must
limit their work count it, never the clock.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from types import ModuleType

from filelock import FileLock, Timeout

from ..engine import (
    ABOVE,
    BIT,
    FOLLOW_SPECS,
    NUM_SEATS,
    NUM_SUITS,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_SIZE,
    TRICKS,
    Contract,
    HandState,
    legal_reply,
    trick_keys,
    trick_takers,
    trick_winner,
)

_NEXT = (1, 2, 0)
_SUIT_BITS = (1 << SUIT_SIZE) - 1

# --- per suit: the relative-rank code of a holding and its runs of equivalent cards ---------

# The code of one suit is the string of owners (0, 1, 2) of its cards still held, lowest index
# first, read as a base-3 number, plus an offset per length so that lengths do not collide.
_OFFSET = [0]
for _k in range(SUIT_SIZE):
    _OFFSET.append(_OFFSET[-1] + 3**_k)
_CODE_BITS = 15  # sum(3**k for k in 0..9) = 29,524 < 2**15
_SEAT_SHIFT = NUM_SUITS * _CODE_BITS

_SUIT_INFO: dict[int, tuple[int, int, int, int]] = {}
"""(a << 18 | b << 9 | c) for three disjoint 9-bit holdings of one suit -> (code, and per
holding the mask of one card per run of equivalent cards).  Filled as holdings are met and
shared by all solvers: it depends on neither the ranking nor the trump."""


def _suit_info(index: int) -> tuple[int, int, int, int]:
    holdings = (index >> 18, (index >> 9) & _SUIT_BITS, index & _SUIT_BITS)
    value = 0
    length = 0
    place = 1
    reps = [0, 0, 0]
    prev_owner = -1
    prev_bit = 0
    for r in range(SUIT_SIZE):
        bit = 1 << r
        for owner in range(NUM_SEATS):
            if holdings[owner] & bit:
                break
        else:
            continue  # played in an earlier trick: it separates nothing
        value += owner * place
        place *= 3
        length += 1
        if owner == prev_owner:
            reps[owner] &= ~prev_bit  # a run is represented by its highest card
        reps[owner] |= bit
        prev_owner = owner
        prev_bit = bit
    info = (_OFFSET[length] + value, reps[0], reps[1], reps[2])
    _SUIT_INFO[index] = info
    return info


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
    for s in range(NUM_SUITS):
        last_mine = 0
        for c in range(s * SUIT_SIZE, s * SUIT_SIZE + SUIT_SIZE):
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
    first = card - card % SUIT_SIZE
    for step in (1, -1):
        c = card + step
        while first <= c < first + SUIT_SIZE:
            bit = 1 << c
            if hand & bit:
                run |= bit
            elif in_play & bit:
                break
            c += step
    return run


CORE_VARIABLE = "STEPPING_STONES_SOLVER"
"""The environment variable that picks the solver's core for a process: ``python`` or ``numba``
(unset or empty: ``DEFAULT_CORE``, or Python where numba is missing)."""
CORES = ("numba", "python")
DEFAULT_CORE = "numba"
"""The core a solver uses unless told otherwise, when numba is installed (``docs/ai.md``)."""


@cache
def _compiled() -> tuple[ModuleType, tuple[object, ...]] | str:
    """The compiled core's module and its per-suit table; or why it cannot be used (a sentence).
    Tried once per process: whether numba loads does not change while it runs."""
    with _compiling(os.path.join(os.path.dirname(__file__), "solver_core.py")):
        try:
            from . import solver_core  # compiles (or loads) the search's signature-typed functions
        except ImportError as error:
            return f"numba is not installed ({error}); install stepping-stones[fast] for the compiled core"
        except Exception as error:  # numba present but unusable (e.g. no writable cache folder)
            return f"numba could not load the compiled core: {error}"
        try:
            tables = solver_core.suit_tables()
            solver_core.warm_up(tables)
        except Exception as error:
            return f"numba could not compile the solver: {error}"
    return solver_core, tables


COMPILE_WAIT = 600.0
"""Seconds a process waits for another one that is compiling the core on this machine, before it
compiles it itself."""


def compile_lock_path(source: str) -> str:
    """The lock file of compiling the core at ``source``: one per user and installation."""
    name = hashlib.sha256(os.path.realpath(source).encode()).hexdigest()[:16]
    user = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(tempfile.gettempdir(), f"stepping-stones-{user}-{name}.lock")


@contextmanager
def _compiling(source: str) -> Iterator[None]:
    """Hold the machine's lock on compiling the core at ``source``: the first process to load it
    on a fresh install compiles it (some 10 s of CPU) and writes numba's cache; others that start
    meanwhile (the tabs of ``serve``, test processes) wait, then load that cache instead of
    compiling it again each.  Where no lock can be made, or the wait is too long, it goes on
    without one (numba's cache stays correct either way; only the work is repeated)."""
    lock = FileLock(compile_lock_path(source), timeout=COMPILE_WAIT)
    try:
        lock.acquire()
    except (OSError, Timeout):
        yield
        return
    try:
        yield
    finally:
        lock.release()


def compiled_core_problem() -> str | None:
    """Why the compiled core cannot be used in this process (None: it can)."""
    found = _compiled()
    return found if isinstance(found, str) else None


def choose_core(core: str | None = None) -> str:
    """The core a solver uses: ``core`` if given, else the ``STEPPING_STONES_SOLVER`` variable,
    else ``DEFAULT_CORE``.  Asked for by name, ``numba`` must be usable (``RuntimeError``
    otherwise); by default a machine without numba uses the Python core."""
    asked = core or os.environ.get(CORE_VARIABLE, "")
    if asked and asked not in CORES:
        raise ValueError(f"unknown solver core {asked!r} (choose {' or '.join(CORES)})")
    name = asked or DEFAULT_CORE
    if name == "numba":
        problem = compiled_core_problem()
        if problem is not None:
            if asked:
                raise RuntimeError(problem)
            return "python"
    return name


class SearchLimit(Exception):
    """A search was stopped because it reached the solver's ``limit`` of positions.  The table
    keeps only what was proved before, so the solver stays usable."""


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Solver:
    """Exact double-dummy answers for one hand's contract, ranking, trump and declarer.

    ``value(hands, leader, trick)`` is the declarer's counted tricks from the position on
    (the current trick included); ``card_values`` gives it after each legal card of the seat
    to play.  Keep one solver for all questions about the same hand: its table of bounds is
    valid for every position of it.
    """

    def __init__(
        self, contract: Contract, ranking: int, trump: int | None, declarer: int, horizon: int = TRICKS,
        core: str | None = None,
    ) -> None:
        self.contract = contract
        self.horizon = horizon
        """Trick number (0-based) at which the search stops and counts winners instead
        (``estimate``); at the default, 12, it never stops and every answer is exact."""
        self.ranking = ranking
        self.trump = trump
        self.declarer = declarer
        trump_mask = SUIT_MASKS[trump] if trump is not None else 0
        self._key = trick_keys(ranking, trump)
        self._trump_mask = trump_mask
        # The rules of play, from the engine's table: what a follower may play (``legal_reply``)
        # and which cards take a trick from the card winning it.
        self._spec = FOLLOW_SPECS[contract.follow]
        self._takers = trick_takers(ranking, trump)
        counted = tuple(contract.counted_mask >> t & 1 for t in range(TRICKS))
        self._counted = counted
        self._counted_left = tuple(sum(counted[t:]) for t in range(TRICKS + 1))
        self.core = choose_core(core)
        """``"numba"`` or ``"python"``: the core that searches (see ``choose_core``).  Both search
        the same positions in the same order: answers and ``nodes`` do not depend on it."""
        self._search: _PythonSearch | _CompiledSearch = (
            _CompiledSearch(self) if self.core == "numba" else _PythonSearch(self)
        )

    @property
    def nodes(self) -> int:
        """The positions searched so far (trick boundaries reached), over every question."""
        return self._search.nodes

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._search.nodes = value

    @property
    def limit(self) -> int:
        """Positions (``nodes``) after which a search raises ``SearchLimit``; callers that must
        bound their work set it, so that the same question always takes the same path."""
        return self._search.limit

    @limit.setter
    def limit(self, value: int) -> None:
        self._search.limit = value

    def stop(self) -> None:
        """Stop the search in progress from another thread: its next position raises
        ``SearchLimit`` (the one check the search already makes, so nothing is slower)."""
        self._search.limit = -1

    # --- the public questions ---------------------------------------------------------

    def value(self, hands: Sequence[int], leader: int, trick: Sequence[int] = (), guess: int | None = None) -> int:
        """The declarer's counted tricks from this position to the end of the hand with best
        play by everyone, the current trick included (tricks already won are not).

        ``hands``: the cards each seat holds now (the cards of ``trick`` already taken out);
        ``leader``: the seat that led the current trick (or leads the next one);
        ``trick``: the cards played to the current trick so far, in order (0 to 2 of them).
        ``guess`` (optional) is where the search starts; it changes the time, never the answer.
        """
        if len(trick) > NUM_SEATS - 1:
            raise ValueError("a finished trick is not a position: play on from its winner")
        t = self._trick_index(hands, leader, trick)
        lo, hi = 0, self._counted_left[t]
        if len(trick) == 0 and lo < hi:
            entry = self._search.stored(self._key_of(hands, leader))
            if entry is not None:
                lo, hi = entry
        if guess is not None:
            g = guess
        elif trick:
            g = (lo + hi + 1) // 2
        else:
            # No guess given: the quick count of each side's winners (the horizon's estimate).
            g = round(self._search.estimate(hands, t))
        target = min(max(g, lo + 1), hi)
        while lo < hi:
            # Zero-window questions: "at least target?"  The first one asks at the guess, each
            # later one next to the last answer (one more after a yes, the same count after a
            # no), so the search walks from the guess to the value one step at a time (MTD(f)).
            # Far from the value a question is cheap (its answer is clear); halving the range
            # instead asked fewer questions but more of them near the value, where they cost
            # most: 4-10% more positions on the 30-deal sets of measure_solver_speed.py.
            yes = self.at_least(hands, leader, trick, target)
            if yes:
                lo = target
                target += 1
            else:
                hi = target - 1
                target = hi
        return lo

    def at_least(self, hands: Sequence[int], leader: int, trick: Sequence[int], target: int) -> bool:
        """Whether the declarer takes at least ``target`` counted tricks from this position."""
        n = len(trick)
        if n == 0:
            return self._search.search(hands, 0, leader, target, 0, 0, 0, 0, 0, 0, 0)
        in_play = hands[0] | hands[1] | hands[2]
        for c in trick:
            in_play |= BIT[c]
        t = self._trick_index(hands, leader, trick)
        s2 = _NEXT[leader]
        s3 = _NEXT[s2]
        rep3 = run_representatives(hands[s3], in_play)
        if n == 1:
            rep2 = run_representatives(hands[s2], in_play)
            return self._search.search(hands, 1, leader, target, t, trick[0], 0, 0, 0, rep2, rep3)
        c1, c2 = trick
        best = trick_winner(trick, self._takers)
        best_card, best_seat = trick[best], (s2 if best else leader)
        beat = ABOVE[self.ranking][c1]
        if BIT[c2] & beat:
            beat = ABOVE[self.ranking][c2]
        return self._search.search(hands, 2, leader, target, t, c1, best_card, best_seat, beat, 0, rep3)

    def card_values(self, hands: Sequence[int], leader: int, trick: Sequence[int] = ()) -> dict[int, int]:
        """For each legal card of the seat to play: the declarer's counted tricks from here to
        the end (the current trick included) if it plays that card and all play perfectly."""
        seat = (leader + len(trick)) % NUM_SEATS
        hand = hands[seat]
        legal = self.legal(hand, trick)
        in_play = hands[0] | hands[1] | hands[2]
        for c in trick:
            in_play |= BIT[c]
        values: dict[int, int] = {}
        guess: int | None = None
        for card in _cards(run_representatives(legal, in_play) & legal):
            after = list(hands)
            after[seat] = hand ^ BIT[card]
            played = [*trick, card]
            if len(played) < NUM_SEATS:
                v = self.value(after, leader, played, guess)
            else:
                winner = self.trick_winner(leader, played)
                t = self._trick_index(hands, leader, trick)
                won = self._counted[t] if winner == self.declarer else 0
                rest = 0
                if t + 1 < TRICKS:
                    rest = self.value(after, winner, (), None if guess is None else guess - won)
                v = won + rest
            guess = v
            for c in _cards(run_of(card, hand, in_play) & legal):
                values[c] = v
        return values

    def legal(self, hand: int, trick: Sequence[int]) -> int:
        """The legal cards of a seat holding ``hand`` when ``trick`` has been played so far."""
        if not trick:
            return hand
        above = ABOVE[self.ranking]
        beat = above[trick[0]]
        for c in trick[1:]:
            if BIT[c] & beat:
                beat = above[c]
        return legal_reply(hand, SUIT_MASK_OF[trick[0]], beat, self._trump_mask, self._spec)

    def trick_winner(self, leader: int, cards: Sequence[int]) -> int:
        """The seat that wins (or is winning) a trick led by ``leader`` with ``cards``."""
        return (leader + trick_winner(cards, self._takers)) % NUM_SEATS

    # --- helpers --------------------------------------------------------------------------

    def _trick_index(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> int:
        to_play = (leader + len(trick)) % NUM_SEATS
        held = hands[to_play].bit_count()
        if held == 0 or held > TRICKS:
            raise ValueError("the seat to play holds no card: the hand is over")
        for i in range(NUM_SEATS):
            seat = (leader + i) % NUM_SEATS
            expected = held - 1 if i < len(trick) else held
            if hands[seat].bit_count() != expected:
                raise ValueError("the hands do not hold as many cards as the trick says")
        if hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2]:
            raise ValueError("a card is in two hands")
        return TRICKS - held

    @staticmethod
    def _key_of(hands: Sequence[int], leader: int) -> int:
        a, b, c = hands
        key = leader << _SEAT_SHIFT
        for s in range(NUM_SUITS):
            shift = SUIT_SIZE * s
            index = ((a >> shift) & _SUIT_BITS) << 18 | ((b >> shift) & _SUIT_BITS) << 9 | ((c >> shift) & _SUIT_BITS)
            info = _SUIT_INFO.get(index) or _suit_info(index)
            key |= info[0] << (_CODE_BITS * s)
        return key



class _PythonSearch:
    """The search in pure Python: closures over one solver's tables (the names they read are
    local variables, the fastest lookups Python has)."""

    def __init__(self, of: Solver) -> None:
        self.table: dict[int, int] = {}  # per key: the bounds lo | hi << 4
        self.best_lead: dict[int, int] = {}  # per table key: the lead that decided it last
        self.nodes = 0
        self.limit = 1 << 62
        self._h = h = [0, 0, 0]
        table = self.table
        declarer = of.declarer
        key = of._key
        above = ABOVE[of.ranking]
        trump_mask = of._trump_mask
        beat_led = of._spec.beat_led  # the follow rule: see ``legal_reply``
        trump_over = of._spec.trump_over
        win = of.contract.is_win
        maxer = tuple((s == declarer) == win for s in range(NUM_SEATS))
        counted = of._counted
        counted_left = of._counted_left
        suit_info = _SUIT_INFO
        info_get = suit_info.get
        make_info = _suit_info
        suit_mask_of = SUIT_MASK_OF
        bit_of = BIT
        nxt = _NEXT
        suits = SUIT_MASKS
        trump_suit = of.trump
        nine_high = of.ranking == 9
        solver = self
        # The cards that take a trick from the card winning it (the engine's trick winner).
        takers = of._takers

        def strongest(mask: int) -> int:
            """The strongest card of a one-suit mask under the ranking."""
            if nine_high:
                return mask.bit_length() - 1
            return (mask & -mask).bit_length() - 1

        def weakest(mask: int) -> int:
            """The weakest card of a one-suit mask under the ranking."""
            if nine_high:
                return (mask & -mask).bit_length() - 1
            return mask.bit_length() - 1

        orders: dict[int, list[int]] = {}

        def ordered(mask: int, good: int, ascending: bool) -> list[int]:
            """The cards of ``mask``: those in ``good`` first, each group by key (remembered:
            the same few masks come back again and again).  Callers must not change the list."""
            index = mask | (mask & good) << 36 | ascending << 72
            found = orders.get(index)
            if found is not None:
                return found
            first = _cards(mask & good)
            rest = _cards(mask & ~good)
            if len(first) > 1:
                first.sort(key=key.__getitem__, reverse=not ascending)
            if len(rest) > 1:
                rest.sort(key=key.__getitem__, reverse=not ascending)
            found = orders[index] = first + rest if first else rest
            return found

        def ordered_late(mask: int, good: int, late: int, ascending: bool) -> list[int]:
            """``ordered``, but the cards of ``late`` after all the others (remembered)."""
            index = mask | (mask & good) << 36 | ascending << 72 | (mask & late) << 73 | 1 << 109
            found = orders.get(index)
            if found is None:
                found = orders[index] = ordered(mask & ~late, good, ascending) + ordered(mask & late, good, ascending)
            return found

        def lose_order(cands: int, good: int, late: int, hand: int, others: int) -> list[int]:
            """A Lose contract's leads: the suits the leader holds fewest cards of first, and
            among those of one length the suits ``others`` holds most cards of (0 for none: a
            defender leads), each group as ``ordered`` puts it (``good`` first, weakest first);
            the ``late`` ones last."""
            live = cands & ~late
            tiers = []
            for suit in suits:
                m = live & suit
                if m:
                    tiers.append(((hand & suit).bit_count() << 4 | 15 - (others & suit).bit_count(), m))
            if len(tiers) > 1:
                tiers.sort()
                moves: list[int] = []
                m = 0
                rank = tiers[0][0]
                for tier, mask in tiers:
                    if tier != rank:
                        moves += ordered(m, good, True)
                        m = 0
                        rank = tier
                    m |= mask
                moves += ordered(m, good, True)
            else:
                moves = list(ordered(live, good, True))
            if cands & late:
                moves += ordered(cands & late, good, True)
            return moves

        suit0, suit1, suit2, suit3 = suits

        def dead_suits(others: int) -> int:
            """In a Win contract, the suits where a leader's cards cannot be beaten by a hand
            holding ``others`` (no card of the suit, no trump), as a mask of cards."""
            if others & trump_mask:
                return 0  # any suit could be ruffed
            late = 0
            if not others & suit0:
                late = suit0
            if not others & suit1:
                late |= suit1
            if not others & suit2:
                late |= suit2
            if not others & suit3:
                late |= suit3
            return late

        lose_good: dict[int, int] = {}
        lose_get = lose_good.get

        def lose_leads(index: int, leader: int) -> int:
            """In a Lose contract, the leads of one suit to try first, from its holdings
            ``index`` (as ``_suit_info`` takes them; the cards as those of suit 0): remembered.

            The declarer's lowest card when a defender must go over it (all the defender's cards
            of the suit are higher; under Must Beat, any is): a safe exit.  A defender's lowest
            card when the declarer must take the trick if the partner plays along: with the
            standard rule, the declarer's lowest card is above both defenders' lowest; under
            Must Beat, the declarer must go over the lead and the partner cannot go over the
            declarer, or (the partner playing second) the declarer must go over the partner's
            lowest card that beats the lead.

            From bit 9 on, the suit's nine bits when it is dead for the leader, a lead to try
            last: the declarer's when both defenders are out of it (the lead is not a safe exit:
            a side that cannot follow never takes the trick), a defender's when the declarer is
            out of it (the declarer throws any card on it).  Leading a dead suit last took 6-16%
            fewer positions on deals 0-7 of the three Lose contracts."""
            held = (index >> 18, index >> 9 & _SUIT_BITS, index & _SUIT_BITS)
            mine = held[leader] & (info_get(index) or make_info(index))[1 + leader]
            good = 0
            if mine:
                x = weakest(mine)
                s2 = nxt[leader]
                s3 = nxt[s2]
                if leader == declarer:
                    for other in (held[s2], held[s3]):
                        if other and key[strongest(other) if beat_led else weakest(other)] > key[x]:
                            good = bit_of[x]
                            break
                else:
                    ds = held[declarer]
                    ps = held[s3] if s2 == declarer else held[s2]
                    if ds:
                        if not beat_led:
                            low = key[weakest(ds)]
                            forced = low > key[x] and (not ps or low > key[weakest(ps)])
                        elif s2 == declarer:
                            over = ds & above[x]
                            forced = bool(over) and (not ps or key[weakest(over)] > key[strongest(ps)])
                        else:
                            over = ps & above[x]
                            forced = key[strongest(ds)] > key[weakest(over) if over else x]
                        if forced:
                            good = bit_of[x]
            if leader == declarer:
                dead = not held[nxt[leader]] and not held[nxt[nxt[leader]]]
            else:
                dead = not held[declarer]
            if dead:
                good |= _SUIT_BITS << 9
            lose_good[index | leader << 27] = good
            return good

        def quick_tricks(hand: int, others_held: tuple[int, int]) -> int:
            """Tricks the leader can cash in a row from the top, whatever the others do."""
            others = others_held[0] | others_held[1]
            q = 0
            trump_tops = 0
            for s in range(NUM_SUITS):
                mine = hand & suits[s]
                if not mine:
                    continue
                theirs = others & suits[s]
                tops = (mine & above[strongest(theirs)]).bit_count() if theirs else mine.bit_count()
                if s == trump_suit:
                    trump_tops = tops
                else:
                    q += tops
            if trump_mask:
                longest = max((others_held[0] & trump_mask).bit_count(), (others_held[1] & trump_mask).bit_count())
                if trump_tops < longest:
                    q = 0  # the side suits could be ruffed
                q += trump_tops
            return q

        horizon = of.horizon
        estimates: dict[int, float] = {}
        best_lead = self.best_lead
        all_trumps_count = counted_left[0] == TRICKS

        def estimate(t: int) -> float:
            """The declarer's counted tricks still to come, judged without search: every suit
            played out round by round -- in a Win contract each player plays its highest card
            left in the suit (a player out of the suit -- any player, where anyone may trump at
            any time -- ruffs if it can and the round is not its side's), in a Lose contract
            its lowest, and the highest card takes the round --
            and the declarer's share of the rounds applied to the counted tricks left."""
            rounds = 0
            mine = 0
            trumps_left = [(x & trump_mask).bit_count() for x in h] if trump_mask and win else None
            for s in range(NUM_SUITS):
                held = [_cards(h[p] & suits[s]) for p in range(NUM_SEATS)]
                longest = 0
                for cards in held:
                    if len(cards) > 1:
                        cards.sort(key=key.__getitem__, reverse=win)
                    longest = max(longest, len(cards))
                for r in range(longest):
                    best = -1
                    winner = 0
                    for p in range(NUM_SEATS):
                        cards = held[p]
                        if r < len(cards) and key[cards[r]] > best:
                            best = key[cards[r]]
                            winner = p
                    if trumps_left is not None and s != trump_suit:
                        for p in range(NUM_SEATS):
                            if ((r >= len(held[p]) or trump_over) and trumps_left[p]
                                    and (p == declarer) != (winner == declarer)):
                                trumps_left[p] -= 1
                                winner = p
                                break
                    rounds += 1
                    if winner == declarer:
                        mine += 1
            return mine * counted_left[t] / rounds if rounds else 0.0

        def lead(leader: int, target: int) -> bool:
            """At a trick boundary: does the declarer take ``target`` more counted tricks?"""
            if target <= 0:
                return True
            a, b, c = h
            n = h[leader].bit_count()
            t = TRICKS - n
            if target > counted_left[t]:
                return False
            solver.nodes += 1
            if solver.nodes > solver.limit:
                raise SearchLimit
            if n == 1:
                # The last trick plays itself (target is 1 and it counts).
                s2 = nxt[leader]
                c1 = h[leader].bit_length() - 1
                c2 = h[s2].bit_length() - 1
                if h[nxt[s2]] & takers[c2 if h[s2] & takers[c1] else c1]:
                    return nxt[s2] == declarer
                return (s2 if h[s2] & takers[c1] else leader) == declarer
            i0 = (a & 511) << 18 | (b & 511) << 9 | (c & 511)
            i1 = (a >> 9 & 511) << 18 | (b >> 9 & 511) << 9 | (c >> 9 & 511)
            i2 = (a >> 18 & 511) << 18 | (b >> 18 & 511) << 9 | (c >> 18 & 511)
            i3 = (a >> 27) << 18 | (b >> 27) << 9 | (c >> 27)
            f0 = info_get(i0) or make_info(i0)
            f1 = info_get(i1) or make_info(i1)
            f2 = info_get(i2) or make_info(i2)
            f3 = info_get(i3) or make_info(i3)
            k = f0[0] | f1[0] << 15 | f2[0] << 30 | f3[0] << 45 | leader << 60
            if t >= horizon:
                guess = estimates.get(k)
                if guess is None:
                    guess = estimates[k] = estimate(t)
                return guess >= target
            entry = table.get(k)
            if entry is not None:
                lo = entry & 15
                hi = entry >> 4
                if lo >= target:
                    return True
                if hi < target:
                    return False
            else:
                lo = 0
                hi = counted_left[t]
                if win:
                    s2 = nxt[leader]
                    q = quick_tricks(h[leader], (h[s2], h[nxt[s2]]))
                    if q:
                        if q > n:
                            q = n
                        if leader == declarer:
                            lo = counted_left[t] - counted_left[t + q]
                        else:
                            hi = counted_left[t + q]
                if all_trumps_count and trump_mask:
                    # Every card is played by the end, and a trump above every other trump
                    # out wins the trick it is played to: sure tricks, whatever the goal.
                    mine = h[declarer] & trump_mask
                    d1 = h[nxt[declarer]] & trump_mask
                    d2 = h[nxt[nxt[declarer]]] & trump_mask
                    if mine and (d1 or d2):
                        top = above[strongest(d1 | d2)]
                        sure = (mine & top).bit_count()
                        if sure > lo:
                            lo = sure
                        top = above[strongest(mine)]
                        sure = max((d1 & top).bit_count(), (d2 & top).bit_count())
                        if n - sure < hi:
                            hi = n - sure
                    elif mine:
                        if mine.bit_count() > lo:
                            lo = mine.bit_count()
                    elif d1 or d2:
                        sure = max(d1.bit_count(), d2.bit_count())
                        if n - sure < hi:
                            hi = n - sure
                if lo or hi < counted_left[t]:
                    table[k] = lo | hi << 4
                    if lo >= target:
                        return True
                    if hi < target:
                        return False
            reps = (
                f0[1] | f1[1] << 9 | f2[1] << 18 | f3[1] << 27,
                f0[2] | f1[2] << 9 | f2[2] << 18 | f3[2] << 27,
                f0[3] | f1[3] << 9 | f2[3] << 18 | f3[3] << 27,
            )
            s2 = nxt[leader]
            s3 = nxt[s2]
            hand = h[leader]
            cands = hand & reps[leader]
            if counted[t]:
                if win:
                    # The declarer cashes its high cards first (trumps first, as their keys
                    # are higher).  A defender too, but its side suits before its trumps; under
                    # May Trump, where anyone may trump at any time, it leads its trumps first,
                    # low ones first.  (Chosen by the positions searched on deals 0-9 of
                    # scripts/measure_solver_speed.py.)  Last, the suits dead for the leader:
                    # for the declarer those the defenders can neither follow nor ruff (its
                    # sure tricks, already in the quick tricks), for a defender those the
                    # declarer can neither follow nor ruff.
                    if leader == declarer:
                        if cands & (cands - 1):
                            late = dead_suits(h[s2] | h[s3])
                            if cands & late:
                                moves = ordered_late(cands, 0, late, False)
                            else:
                                moves = ordered(cands, 0, False)
                        else:
                            moves = [cands.bit_length() - 1]
                    else:
                        late = dead_suits(h[declarer]) if cands & (cands - 1) else 0
                        if trump_over:
                            good, ascending = cands & trump_mask, True
                        else:
                            good, ascending = cands & ~trump_mask, False
                        if cands & late:
                            moves = ordered_late(cands, good, late, ascending)
                        else:
                            moves = ordered(cands, good, ascending)
                elif not cands & (cands - 1):
                    moves = [cands.bit_length() - 1]
                else:
                    # Lead low, first the cards ``lose_leads`` picks, last the suits it marks
                    # dead, suit by suit (and the hint below before all).
                    k0 = leader << 27
                    g = lose_get(i0 | k0)
                    if g is None:
                        g = lose_leads(i0, leader)
                    good = g & 511
                    late = g >> 9
                    g = lose_get(i1 | k0)
                    if g is None:
                        g = lose_leads(i1, leader)
                    good |= (g & 511) << 9
                    late |= g >> 9 << 9
                    g = lose_get(i2 | k0)
                    if g is None:
                        g = lose_leads(i2, leader)
                    good |= (g & 511) << 18
                    late |= g >> 9 << 18
                    g = lose_get(i3 | k0)
                    if g is None:
                        g = lose_leads(i3, leader)
                    good |= (g & 511) << 27
                    late |= g >> 9 << 27
                    moves = lose_order(cands, good, late, hand, h[s2] | h[s3] if leader == declarer else 0)
            else:
                moves = ordered(cands, 0, True)
            hint = best_lead.get(k)
            if hint is not None and len(moves) > 1:
                moves = list(moves)
                # The lead that decided this position before (stored as suit and relative rank).
                m = (a | b | c) & suits[hint >> 4]
                for _ in range(hint & 15):
                    m &= m - 1
                m &= -m
                rep = cands & suits[hint >> 4] & ~(m - 1)
                if rep:
                    first = (rep & -rep).bit_length() - 1
                    if moves[0] != first:
                        moves.remove(first)
                        moves.insert(0, first)
            mx = maxer[leader]
            result = not mx
            rep2 = reps[s2]
            rep3 = reps[s3]
            for card in moves:
                h[leader] = hand ^ bit_of[card]
                if second(leader, card, rep2, rep3, target, t) == mx:
                    result = mx
                    if len(moves) > 1:
                        suit = suits[card // SUIT_SIZE]
                        below = (a | b | c) & suit & (bit_of[card] - 1)
                        best_lead[k] = (card // SUIT_SIZE) << 4 | below.bit_count()
                    break
            h[leader] = hand
            if result:
                if target > lo:
                    lo = target
            elif target - 1 < hi:
                hi = target - 1
            table[k] = lo | hi << 4
            return result

        def second(leader: int, c1: int, rep2: int, rep3: int, target: int, t: int) -> bool:
            s2 = nxt[leader]
            led = suit_mask_of[c1]
            hand = h[s2]
            follow = hand & led
            beat = above[c1]
            if follow:  # ``legal_reply``
                legal = follow
                if beat_led:
                    legal = (follow & beat) or follow
                if trump_over:
                    legal |= hand & trump_mask
            else:
                legal = hand
            cands = legal & rep2
            mx = maxer[s2]
            over = cands & takers[c1]
            if cands & (cands - 1):
                # Cards that take the lead in the trick, when that is what this seat wants.
                if counted[t]:
                    # Win: take over unless the partner leads the trick; Lose: stay under.
                    if win:
                        good = over if maxer[leader] != mx else 0
                        moves = ordered(cands, good, True)
                    else:
                        moves = ordered(cands, cands & ~over, False)
                else:
                    moves = ordered(cands, 0, True)
            else:
                moves = [cands.bit_length() - 1]
            result = not mx
            for card in moves:
                bit = bit_of[card]
                h[s2] = hand ^ bit
                if bit & over:
                    r = third(leader, led, card, s2, above[card] if bit & beat else beat, rep3, target, t)
                else:
                    r = third(leader, led, c1, leader, beat, rep3, target, t)
                if r == mx:
                    result = mx
                    break
            h[s2] = hand
            return result

        def third(leader: int, led: int, best_card: int, best_seat: int, beat: int, rep3: int,
                  target: int, t: int) -> bool:
            s3 = nxt[nxt[leader]]
            hand = h[s3]
            follow = hand & led
            if follow:  # ``legal_reply``
                legal = follow
                if beat_led:
                    legal = (follow & beat) or follow
                if trump_over:
                    legal |= hand & trump_mask
            else:
                legal = hand
            cands = legal & rep3
            mx = maxer[s3]
            count = counted[t]
            over = cands & takers[best_card]
            if cands & (cands - 1):
                if count:
                    # The trick's outcome is known.  Taking it pleases this seat's side in a Win
                    # contract (its own trick, or one the declarer does not get) and never in a
                    # Lose contract.  Cards that leave it where it pleases come first: low ones
                    # in a Win contract, high ones (shedding danger) in a Lose contract.
                    if ((best_seat == declarer) == win) == (s3 == declarer):
                        good = cands & ~over
                    else:
                        good = over if win else 0
                    moves = ordered(cands, good, win)
                else:
                    moves = ordered(cands, 0, True)
            else:
                moves = [cands.bit_length() - 1]
            result = not mx
            declarer_wins_now = best_seat == declarer
            declarer_takes = s3 == declarer
            # The targets after the trick, whoever takes it; ``lead`` answers the trivial ones
            # without counting a position, so they are answered here without the call.
            target_takes = target - count if declarer_takes else target
            target_stays = target - count if declarer_wins_now else target
            left = counted_left[t + 1]
            for card in moves:
                bit = bit_of[card]
                if bit & over:
                    if target_takes <= 0:
                        r = True
                    elif target_takes > left:
                        r = False
                    else:
                        h[s3] = hand ^ bit
                        r = lead(s3, target_takes)
                elif target_stays <= 0:
                    r = True
                elif target_stays > left:
                    r = False
                else:
                    h[s3] = hand ^ bit
                    r = lead(best_seat, target_stays)
                if r == mx:
                    result = mx
                    break
            h[s3] = hand
            return result

        self._lead = lead
        self._estimate = estimate
        self._second = second
        self._third = third

    def stored(self, k: int) -> tuple[int, int] | None:
        """The bounds ``(lo, hi)`` kept for the position of table key ``k``, if any."""
        entry = self.table.get(k)
        return None if entry is None else (entry & 15, entry >> 4)

    def estimate(self, hands: Sequence[int], t: int) -> float:
        h = self._h
        h[0], h[1], h[2] = hands
        return self._estimate(t)

    def search(self, hands: Sequence[int], level: int, leader: int, target: int, t: int, c1: int,
               best_card: int, best_seat: int, beat: int, rep2: int, rep3: int) -> bool:
        """Whether the declarer takes ``target`` more counted tricks; ``level`` is the seat to
        play in the trick (0 leads; see ``solver_core._node`` for the other arguments)."""
        h = self._h
        h[0], h[1], h[2] = hands
        if level == 0:
            return self._lead(leader, target)
        if level == 1:
            return self._second(leader, c1, rep2, rep3, target, t)
        return self._third(leader, SUIT_MASK_OF[c1], best_card, best_seat, beat, rep3, target, t)


class _CompiledSearch:
    """The search compiled by numba (``solver_core``), behind the Python core's interface."""

    def __init__(self, of: Solver) -> None:
        found = _compiled()
        assert not isinstance(found, str), found  # choose_core checked it
        module, tables = found
        self._abort = module.ABORT
        self._kernel = module.Kernel(
            declarer=of.declarer, win=of.contract.is_win, trump=of.trump, nine_high=of.ranking == 9,
            beat_led=of._spec.beat_led, trump_over=of._spec.trump_over, horizon=of.horizon,
            counted=of._counted, counted_left=of._counted_left, keys=of._key, above=ABOVE[of.ranking],
            takers=of._takers, tables=tables,
        )

    @property
    def nodes(self) -> int:
        return int(self._kernel.nodes)

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._kernel.nodes = value

    @property
    def limit(self) -> int:
        return int(self._kernel.limit)

    @limit.setter
    def limit(self, value: int) -> None:
        self._kernel.limit = value

    def stored(self, k: int) -> tuple[int, int] | None:
        found: tuple[int, int] | None = self._kernel.stored(k)
        return found

    def estimate(self, hands: Sequence[int], t: int) -> float:
        return float(self._kernel.estimate(hands, t))

    def search(self, hands: Sequence[int], level: int, leader: int, target: int, t: int, c1: int,
               best_card: int, best_seat: int, beat: int, rep2: int, rep3: int) -> bool:
        result = self._kernel.search(hands, level, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3)
        if result == self._abort:
            raise SearchLimit
        return bool(result)


def solve(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    contract: Contract,
    ranking: int,
    trump: int | None,
    declarer: int,
) -> int:
    """The declarer's counted tricks from this position to the end with best play by all
    (the current trick included), with a fresh solver: see ``Solver.value``."""
    return Solver(contract, ranking, trump, declarer).value(hands, leader, trick)


def solver_for(state: HandState) -> Solver:
    """A solver for the hand of ``state`` (its contract, ranking, trump and declarer)."""
    return Solver(state.contract, state.ranking, state.trump, state.declarer)


def position(state: HandState) -> tuple[tuple[int, int, int], int, tuple[int, ...]]:
    """``(hands, leader, trick)`` of a hand state, as the solver takes them."""
    hands = state.hands
    trick = tuple(c for _, c in state.current_trick())
    return (hands[0], hands[1], hands[2]), state.leader, trick


def whole_hand_value(state: HandState, solver: Solver | None = None, guess: int | None = None) -> int:
    """The declarer's counted tricks for the whole hand -- those already taken plus perfect play
    from ``state`` on.  ``guess`` (a whole-hand count) only changes how long it takes."""
    taken = state.count()
    if state.finished:
        return taken
    solver = solver or solver_for(state)
    hands, leader, trick = position(state)
    return taken + solver.value(hands, leader, trick, None if guess is None else guess - taken)
