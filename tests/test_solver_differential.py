"""The solver against a plain memoised minimax on longer positions: 4 and 5 tricks left.

``test_solver`` compares it with a brute force on endgames of 1 to 4 tricks.  Its search orders
leads and replies by heuristics, cuts by bounds and skips equivalent cards; those matter most
when each seat holds several suits, so here every contract gets positions of 4 and 5 tricks (a
third of them in the middle of a trick), both rankings, and every value must be exact.  The
minimax below shares no code with the solver: it plays every legal card on the engine's
``HandState`` and remembers each position's value, with no pruning and no bounds.  Both of the
solver's cores are checked on every position, against one minimax of it.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from stepping_stones.ai.solver import CORE_VARIABLE, Solver, compiled_core_problem, position
from stepping_stones.engine import CONTRACTS, NINE_HIGH, ONE_HIGH, TRICKS, Contract, HandState, cards_of, deal


def memoised_minimax(state: HandState) -> int:
    """The declarer's counted tricks from ``state`` to the end (the current trick included)."""
    declarer = state.declarer
    counted = state.contract.counted_mask
    memo: dict[tuple[int, int, int, int, tuple[int, ...]], int] = {}

    def future() -> int:
        if state.finished:
            return 0
        trick = tuple(c for _, c in state.current_trick())
        key = (state.hands[0], state.hands[1], state.hands[2], state.leader, trick)
        known = memo.get(key)
        if known is not None:
            return known
        maximise = (state.turn == declarer) == state.contract.is_win
        results = []
        number = len(state.winners)
        for card in cards_of(state.legal_mask()):
            state.push(card)
            won = len(state.winners) > number and state.winners[-1] == declarer and counted >> number & 1
            results.append(int(won) + future())
            state.pop()
        memo[key] = best = max(results) if maximise else min(results)
        return best

    return future()


def random_position(
    rng: random.Random, contract_id: str, tricks_left: int, ranking: int, contract: Contract | None = None
) -> HandState:
    contract = contract or CONTRACTS[contract_id]
    trump = rng.randrange(4) if contract.picks_trump else None
    state = HandState(deal(rng), rng.randrange(3), contract, ranking, trump)
    plays = 3 * (TRICKS - tricks_left) + (rng.randrange(3) if rng.random() < 1 / 3 else 0)
    while len(state.plays) < plays:
        state.push(rng.choice(list(cards_of(state.legal_mask()))))
    return state


POSITIONS_PER_CONTRACT = 24  # 7 contracts: 168 positions, half of them of 5 tricks


def cores_here() -> list[str]:
    """The cores checked here (``test_solver`` says, as a skipped test, why the compiled one is
    missing); asked when a test runs, not when the file is collected (``need_the_compiled_core``
    in ``test_solver`` says why)."""
    return ["python"] + (["numba"] if compiled_core_problem() is None else [])


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_solver_equals_memoised_minimax_on_longer_positions(contract_id, monkeypatch):
    """Each position's minimax is worked out once, and every core's solver must give it."""
    rng = random.Random(f"solver-differential:{contract_id}")
    for i in range(POSITIONS_PER_CONTRACT):
        ranking = NINE_HIGH if i % 2 == 0 else ONE_HIGH
        state = random_position(rng, contract_id, 4 + i % 2, ranking)
        hands, leader, trick = position(state)
        value = memoised_minimax(state)
        after: dict[int, int] = {}
        if i % 6 == 0:
            # The value after each legal card, from the same solver (its table carried along).
            for card in cards_of(state.legal_mask()):
                number = len(state.winners)
                state.push(card)
                won = len(state.winners) > number and state.winners[-1] == state.declarer
                after[card] = int(won and state.contract.counted_mask >> number & 1) + memoised_minimax(state)
                state.pop()
        for core in cores_here():
            monkeypatch.setenv(CORE_VARIABLE, core)
            solver = Solver(state.contract, state.ranking, state.trump, state.declarer)
            assert solver.core == core
            assert solver.value(hands, leader, trick) == value, (contract_id, i, core)
            if after:
                assert solver.card_values(hands, leader, trick) == after, (contract_id, i, core)


def test_tricks_that_do_not_count_where_the_table_alone_proves_a_lead(monkeypatch):
    """In a trick that does not count the search first looks for a lead that the table's
    entries alone prove (``search.etc_lead``).  Win Last 6 has such tricks only with 7 or more
    left, too many for the minimax; so here a Win contract of the same rules whose last 3 tricks
    count, on positions of 6 tricks left: the first three of them do not count."""
    last_three = dataclasses.replace(CONTRACTS["win-last-6"], first_counted=TRICKS - 2)
    rng = random.Random("solver-differential:last-three")
    for i in range(8):
        state = random_position(rng, "", 6, NINE_HIGH if i % 2 == 0 else ONE_HIGH, last_three)
        hands, leader, trick = position(state)
        value = memoised_minimax(state)
        for core in cores_here():
            monkeypatch.setenv(CORE_VARIABLE, core)
            solver = Solver(state.contract, state.ranking, state.trump, state.declarer)
            assert solver.value(hands, leader, trick) == value, (i, core)
