"""The typed face of the exact double-dummy solver: with every card in view, how many counted
tricks does the declarer take from here when all three play perfectly?

The declarer plays against the two defenders, who share the opposite goal, so this is a
two-sided game: for a Win contract the declarer wants more counted tricks and the defenders
fewer; for a Lose contract the other way round.  The answer is exact for every contract of
``engine.contracts`` (its goal, trump rule, counted tricks and follow rule are read from the
contract, never from its id), under both rankings, from any position -- between tricks or in
the middle of one.

``Solver.value`` finds the exact number by zero-window questions (``search``), walking from a
guess (MTD(f)); the search keeps its bounds in a transposition table for the whole hand
(``tables``), so one ``Solver`` answers every question about the same hand and contract faster
than fresh ones.  The solver never changes what it is given; its only state is the table,
which depends on the contract, ranking, trump and declarer and is only ever a cache of exact
bounds, so the same question always gets the same answer.  ``nodes`` counts the positions
searched: callers that must limit their work count it, never the clock.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ...engine import (
    ABOVE,
    BIT,
    FOLLOW_SPECS,
    NUM_SEATS,
    SUIT_MASK_OF,
    SUIT_MASKS,
    TRICKS,
    Contract,
    FollowSpec,
    HandState,
    legal_reply,
    trick_keys,
    trick_takers,
    trick_winner,
)
from .core import choose_core, loaded
from .jit import Core
from .kernel import Kernel, layout_of
from .ranks import run_of, run_representatives
from .search import NO_GUESS

_NEXT = (1, 2, 0)


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Setup(NamedTuple):
    """What the solvers of one hand's contract, ranking, trump, declarer, horizon and core share."""

    key: tuple[int, ...]  # the engine's trick_keys
    trump_mask: int
    spec: FollowSpec  # the rules of play, from the engine's table: what a follower may play
    takers: tuple[int, ...]  # which cards take a trick from the card winning it
    counted: tuple[int, ...]  # per trick, 1 if it counts
    counted_left: tuple[int, ...]  # counted tricks from trick t on
    core: Core
    tables: tuple[Any, Any]
    par: Any
    rules: Any


@lru_cache(maxsize=512)
def _setup(contract: Contract, ranking: int, trump: int | None, declarer: int, horizon: int, core: str) -> _Setup:
    """Made once per process for each: a fresh solver is a question of a fraction of a
    millisecond (6 tricks left), where building these again was a part to see."""
    spec = FOLLOW_SPECS[contract.follow]
    key = trick_keys(ranking, trump)
    takers = trick_takers(ranking, trump)
    counted = tuple(contract.counted_mask >> t & 1 for t in range(TRICKS))
    counted_left = tuple(sum(counted[t:]) for t in range(TRICKS + 1))
    search_core, tables = loaded(core)
    par, rules = layout_of(
        search_core,
        declarer=declarer,
        win=contract.is_win,
        trump=trump,
        nine_high=ranking == 9,
        beat_led=spec.beat_led,
        trump_over=spec.trump_over,
        horizon=horizon,
        counted=counted,
        counted_left=counted_left,
        keys=key,
        above=ABOVE[ranking],
        takers=takers,
    )
    return _Setup(
        key,
        SUIT_MASKS[trump] if trump is not None else 0,
        spec,
        takers,
        counted,
        counted_left,
        search_core,
        tables,
        par,
        rules,
    )


class Solver:
    """Exact double-dummy answers for one hand's contract, ranking, trump and declarer.

    ``value(hands, leader, trick)`` is the declarer's counted tricks from the position on
    (the current trick included); ``card_values`` gives it after each legal card of the seat
    to play.  Keep one solver for all questions about the same hand: its table of bounds is
    valid for every position of it.
    """

    def __init__(
        self,
        contract: Contract,
        ranking: int,
        trump: int | None,
        declarer: int,
        horizon: int = TRICKS,
        core: str | None = None,
    ) -> None:
        self.contract = contract
        self.horizon = horizon
        """Trick number (0-based) at which the search stops and counts winners instead
        (``estimate``); at the default, 12, it never stops and every answer is exact."""
        self.ranking = ranking
        self.trump = trump
        self.declarer = declarer
        self.core = choose_core(core)
        """``"numba"`` or ``"python"``: the core that searches (see ``choose_core``).  Both run the
        same code, so answers and ``nodes`` do not depend on it."""
        setup = _setup(contract, ranking, trump, declarer, horizon, self.core)
        self._key = setup.key
        self._trump_mask = setup.trump_mask
        self._spec = setup.spec
        self._takers = setup.takers
        self._counted = setup.counted
        self._counted_left = setup.counted_left
        self._search = Kernel(setup.core, setup.tables, setup.par, setup.rules)

    def counted_from(self, trick: int) -> int:
        """The tricks that count from trick ``trick`` (0-based) to the end."""
        return self._counted_left[trick]

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
        # The questions themselves (walked from the guess, MTD(f)) run in the core, in one call:
        # see ``search.value_of``.
        if not trick:  # between tricks (most questions): nothing of a trick to work out
            return self._search.value(hands, 0, leader, t, 0, 0, 0, 0, 0, 0, NO_GUESS if guess is None else guess)
        return self._search.value(
            hands, len(trick), leader, t, *self._trick_state(hands, leader, trick), NO_GUESS if guess is None else guess
        )

    def at_least(self, hands: Sequence[int], leader: int, trick: Sequence[int], target: int) -> bool:
        """Whether the declarer takes at least ``target`` counted tricks from this position: one
        zero-window question (the claims' referee needs no more than that)."""
        if len(trick) > NUM_SEATS - 1:
            raise ValueError("a finished trick is not a position: play on from its winner")
        t = self._trick_index(hands, leader, trick)
        return self._search.search(hands, len(trick), leader, target, t, *self._trick_state(hands, leader, trick))

    def _trick_state(
        self, hands: Sequence[int], leader: int, trick: Sequence[int], reps: tuple[int, int] | None = None
    ) -> tuple[int, int, int, int, int, int]:
        """``(c1, best_card, best_seat, beat, rep2, rep3)`` of the current trick, as ``search``
        takes them: the card led, the card winning after two cards and its seat, the led suit's
        cards above the best of it, and the repliers' cards that stand for their runs
        (``reps``, if the caller has them: ``_reps``)."""
        n = len(trick)
        if n == 0:
            return 0, 0, 0, 0, 0, 0
        rep2, rep3 = self._reps(hands, leader, trick) if reps is None else reps
        if n == 1:
            return trick[0], 0, 0, 0, rep2, rep3
        c1, c2 = trick
        best = trick_winner(trick, self._takers)
        beat = ABOVE[self.ranking][c1]
        if BIT[c2] & beat:
            beat = ABOVE[self.ranking][c2]
        return c1, trick[best], (_NEXT[leader] if best else leader), beat, 0, rep3

    def _reps(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> tuple[int, int]:
        """``(rep2, rep3)``: the cards that stand for their runs in the hands of the seats still to
        play to a trick of one card (both) or two (the third seat's; rep2 0)."""
        in_play = hands[0] | hands[1] | hands[2]
        for c in trick:
            in_play |= BIT[c]
        s2 = _NEXT[leader]
        rep3 = run_representatives(hands[_NEXT[s2]], in_play)
        return (run_representatives(hands[s2], in_play) if len(trick) == 1 else 0), rep3

    def card_values(self, hands: Sequence[int], leader: int, trick: Sequence[int] = ()) -> dict[int, int]:
        """For each legal card of the seat to play: the declarer's counted tricks from here to
        the end (the current trick included) if it plays that card and all play perfectly.

        The position is checked once (``_trick_index``), and the repliers' runs are worked out
        once: a card played moves from its hand to the trick, so what is in play, and the other
        hands, are the same after every card (the same questions as ``value`` asks of each)."""
        if len(trick) > NUM_SEATS - 1:
            raise ValueError("a finished trick is not a position: play on from its winner")
        t = self._trick_index(hands, leader, trick)
        seat = (leader + len(trick)) % NUM_SEATS
        hand = hands[seat]
        legal = self.legal(hand, trick)
        in_play = hands[0] | hands[1] | hands[2]
        for c in trick:
            in_play |= BIT[c]
        values: dict[int, int] = {}
        guess: int | None = None
        reps: tuple[int, int] | None = None
        for card in _cards(run_representatives(legal, in_play) & legal):
            after = list(hands)
            after[seat] = hand ^ BIT[card]
            played = [*trick, card]
            if len(played) < NUM_SEATS:
                if reps is None:
                    reps = self._reps(after, leader, played)
                state = self._trick_state(after, leader, played, reps)
                v = self._search.value(after, len(played), leader, t, *state, NO_GUESS if guess is None else guess)
            else:
                winner = self.trick_winner(leader, played)
                won = self._counted[t] if winner == self.declarer else 0
                rest = 0
                if t + 1 < TRICKS:
                    g = NO_GUESS if guess is None else guess - won
                    rest = self._search.value(after, 0, winner, t + 1, 0, 0, 0, 0, 0, 0, g)
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
        n = len(trick)
        h0, h1, h2 = hands[0], hands[1], hands[2]
        counts = (h0.bit_count(), h1.bit_count(), h2.bit_count())
        held = counts[(leader + n) % NUM_SEATS]
        if held == 0 or held > TRICKS:
            raise ValueError("the seat to play holds no card: the hand is over")
        if n == 0:  # between tricks: every seat holds as many (one test, not three)
            if counts[0] != held or counts[1] != held or counts[2] != held:
                raise ValueError("the hands do not hold as many cards as the trick says")
            if h0 & h1 or h0 & h2 or h1 & h2:
                raise ValueError("a card is in two hands")
            return TRICKS - held
        for i in range(NUM_SEATS):
            if counts[(leader + i) % NUM_SEATS] != (held - 1 if i < n else held):
                raise ValueError("the hands do not hold as many cards as the trick says")
        if h0 & h1 or h0 & h2 or h1 & h2:
            raise ValueError("a card is in two hands")
        return TRICKS - held


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


def reaches(state: HandState, total: int, solver: Solver) -> bool:
    """Whether the declarer's whole-hand count reaches ``total`` from ``state`` with perfect play:
    one zero-window question, where the value (``whole_hand_value``) asks two or more.  The
    claims' perfect line asks it of each card that may keep a value known, and the analysis of
    each position before a card, whether its side had a better card than the one played."""
    needed = total - state.count()
    if needed <= 0:
        return True
    if state.finished or needed > solver.counted_from(state.trick_number):
        return False
    hands, leader, trick = position(state)
    return solver.at_least(hands, leader, trick, needed)


def keeps(state: HandState, total: int, high: bool, solver: Solver) -> bool:
    """Whether the card just played into ``state`` kept ``total``, the declarer's whole-hand count
    with perfect play before it, for a side that wants the count ``high`` (the declarer of a Win
    contract, the defenders of a Lose one) or low.  No card of that side does better than
    ``total``, so the card kept it if the count still reaches it (``high``), or cannot go above
    it: one zero-window question, where the value after the card asks two or more."""
    return reaches(state, total, solver) if high else not reaches(state, total + 1, solver)


def keeping_cards(state: HandState, total: int, solver: Solver) -> Iterator[int]:
    """The legal cards of the seat to play in ``state`` that keep ``total``, the declarer's
    whole-hand count with perfect play from ``state`` (``keeps``), lowest first (by number: C,
    K, L, B, then 1 to 9): one question for each run of equivalent cards, asked of its lowest
    card, where the value of each (``card_values``) asks two or more.  ``state`` is played on and
    back."""
    high = (state.turn == state.declarer) == state.contract.is_win
    legal, hand = state.legal_mask(), state.hands[state.turn]
    in_play = state.hands[0] | state.hands[1] | state.hands[2]
    for _, c in state.current_trick():
        in_play |= BIT[c]
    asked = 0
    for card in _cards(legal):
        if asked >> card & 1:
            continue  # a card of a run already asked about
        run = run_of(card, hand, in_play) & legal
        asked |= run
        state.push(card)
        kept = keeps(state, total, high, solver)
        state.pop()
        if kept:
            yield from _cards(run)


def whole_hand_value(state: HandState, solver: Solver | None = None, guess: int | None = None) -> int:
    """The declarer's counted tricks for the whole hand -- those already taken plus perfect play
    from ``state`` on.  ``guess`` (a whole-hand count) only changes how long it takes."""
    taken = state.count()
    if state.finished:
        return taken
    solver = solver or solver_for(state)
    hands, leader, trick = position(state)
    return taken + solver.value(hands, leader, trick, None if guess is None else guess - taken)
