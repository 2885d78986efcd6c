"""The double-dummy solver equals a plain brute-force minimax, for every contract and both rankings.

The brute force below shares no search code with the solver: it plays every legal card on the
engine's own ``HandState`` (so the rules come from the engine, which ``test_rules`` checks) and
takes the best result for the side to play, with no pruning and no table.
"""

from __future__ import annotations

import random

import pytest

from conftest import cards
from stepping_stones.ai.solver import Solver, position, run_of, run_representatives, solve, whole_hand_value
from stepping_stones.engine import CONTRACTS, NINE_HIGH, ONE_HIGH, TRICKS, HandState, cards_of, deal


def brute_force(state: HandState) -> int:
    """The declarer's counted tricks for the whole hand with best play from ``state``."""
    if state.finished:
        return state.count()
    declarer_side = state.turn == state.declarer
    wants_more = declarer_side == state.contract.is_win
    results = []
    for c in cards_of(state.legal_mask()):
        state.push(c)
        results.append(brute_force(state))
        state.pop()
    return max(results) if wants_more else min(results)


def random_endgame(rng: random.Random, contract_id: str, tricks_left: int) -> HandState:
    """A random deal of ``contract_id`` played with random legal cards until ``tricks_left`` tricks
    remain, then 0-2 more cards into the next trick."""
    contract = CONTRACTS[contract_id]
    ranking = rng.choice((NINE_HIGH, ONE_HIGH))
    trump = rng.randrange(4) if contract.picks_trump else None
    state = HandState(deal(rng), rng.randrange(3), contract, ranking, trump)
    plays = 3 * (TRICKS - tricks_left) + rng.randrange(3)
    while len(state.plays) < plays:
        state.push(rng.choice(list(cards_of(state.legal_mask()))))
    return state


ENDGAMES_PER_CONTRACT = 80  # 7 contracts: 560 endgames


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_solver_equals_brute_force(contract_id):
    rng = random.Random(f"solver:{contract_id}")
    seen_rankings = set()
    for i in range(ENDGAMES_PER_CONTRACT):
        state = random_endgame(rng, contract_id, 1 + i % 4)
        seen_rankings.add(state.ranking)
        expected = brute_force(state)
        assert whole_hand_value(state) == expected, (contract_id, i)
        # The same answer from the bare API, and the state is untouched.
        hands, leader, trick = position(state)
        before = (list(state.hands), list(state.plays))
        assert state.count() + solve(hands, leader, trick, state.contract, state.ranking, state.trump,
                                     state.declarer) == expected
        assert (list(state.hands), list(state.plays)) == before
    assert seen_rankings == {NINE_HIGH, ONE_HIGH}


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_card_values_equal_brute_force(contract_id):
    """The value after each legal card, as the AI and the analysis use it."""
    rng = random.Random(f"card-values:{contract_id}")
    for i in range(12):
        state = random_endgame(rng, contract_id, 2 + i % 3)
        hands, leader, trick = position(state)
        values = Solver(state.contract, state.ranking, state.trump, state.declarer).card_values(hands, leader, trick)
        legal = list(cards_of(state.legal_mask()))
        assert sorted(values) == legal
        for c in legal:
            state.push(c)
            expected = brute_force(state)
            state.pop()
            assert state.count() + values[c] == expected, (contract_id, i, c)


def test_longer_endgames_with_one_table_for_the_whole_hand():
    """Five-trick endgames, each solved after every card with one solver: the table carried from
    position to position never changes an answer."""
    rng = random.Random("whole-hand-table")
    for contract_id in CONTRACTS:
        state = random_endgame(rng, contract_id, 5)
        solver = Solver(state.contract, state.ranking, state.trump, state.declarer)
        while not state.finished:
            assert whole_hand_value(state, solver) == brute_force(state)
            state.push(rng.choice(list(cards_of(state.legal_mask()))))


def test_runs_of_equivalent_cards():
    hand = cards("K4 K5 K7 K8 C1 C2")
    in_play = hand | cards("K6 C5")
    assert run_representatives(hand, in_play) == cards("K5 K8 C2")
    assert run_of(cards("K4").bit_length() - 1, hand, in_play) == cards("K4 K5")
    # A card played in an earlier trick separates nothing.
    assert run_of(cards("K4").bit_length() - 1, hand, hand) == cards("K4 K5 K7 K8")


def test_a_known_position():
    """Win Tricks (No Trump), 9 high, seat 0 declares and leads with the top of two suits."""
    hands = (cards("C9 C8 K9"), cards("C1 C2 K1"), cards("C3 K2 K3"))
    solver = Solver(CONTRACTS["win-no-trump"], NINE_HIGH, None, 0)
    assert solver.value(hands, 0) == 3
    # With 1 high the same cards are the lowest: the declarer wins nothing.
    assert Solver(CONTRACTS["win-no-trump"], ONE_HIGH, None, 0).value(hands, 0) == 0
    # Lose Tricks: the declarer must take all three, whatever it leads.
    assert Solver(CONTRACTS["lose-no-trump"], NINE_HIGH, None, 0).value(hands, 0) == 3


def test_bad_positions_are_refused():
    solver = Solver(CONTRACTS["win-no-trump"], NINE_HIGH, None, 0)
    with pytest.raises(ValueError, match="as many cards"):
        solver.value((cards("C9 C8"), cards("C1"), cards("C2")), 0)
    with pytest.raises(ValueError, match="two hands"):
        solver.value((cards("C9"), cards("C9"), cards("C2")), 0)
    with pytest.raises(ValueError, match="finished trick"):
        solver.value((0, 0, 0), 0, (0, 1, 2))
