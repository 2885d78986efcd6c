"""The double-dummy solver equals a plain brute-force minimax, for every contract and both rankings.

The brute force below shares no search code with the solver: it plays every legal card on the
engine's own ``HandState`` (so the rules come from the engine, which ``test_rules`` checks) and
takes the best result for the side to play, with no pruning and no table.

Every test that solves runs with both cores (the ``core`` fixture): the search compiled by numba
and the same code run as Python (``ai/solver/jit.py``).  Where numba cannot run the compiled
core's tests are skipped, with the reason.
"""

from __future__ import annotations

import random
import threading

import pytest

from conftest import cards
from game_support import brute_force
from stepping_stones.ai.solver import (
    CORE_VARIABLE,
    SearchLimit,
    Solver,
    choose_core,
    compiled_core_problem,
    keeping_cards,
    keeps,
    position,
    run_of,
    run_representatives,
    solve,
    whole_hand_value,
)
from stepping_stones.ai.solver.bounds import beaten, first_bounds
from stepping_stones.ai.solver.solver import _setup
from stepping_stones.ai.solver.tables import FIRST_SLOTS, M_CAPACITY, M_COUNT, M_MASK
from stepping_stones.engine import CONTRACTS, NINE_HIGH, ONE_HIGH, TRICKS, HandState, cards_of, deal


def need_the_compiled_core() -> None:
    """Skip the test, saying why, where the compiled core cannot run.  Asked when a test runs,
    not when the file is collected: the first process to ask on a fresh install compiles the
    core (some 15 s), and the others wait for it, so asking while every test process collects
    would hold them all up before any test starts."""
    problem = compiled_core_problem()
    if problem is not None:
        pytest.skip(f"the compiled core cannot run here: {problem}")


@pytest.fixture(params=["python", "numba"])
def core(request, monkeypatch):
    """The solver's core for the test: every ``Solver`` made meanwhile uses it."""
    if request.param == "numba":
        need_the_compiled_core()
    monkeypatch.setenv(CORE_VARIABLE, request.param)
    return request.param


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
def test_solver_equals_brute_force(contract_id, core):
    rng = random.Random(f"solver:{contract_id}")
    seen_rankings = set()
    for i in range(ENDGAMES_PER_CONTRACT):
        state = random_endgame(rng, contract_id, 1 + i % 4)
        seen_rankings.add(state.ranking)
        expected = brute_force(state)
        assert whole_hand_value(state) == expected, (contract_id, i)
        assert solver_core_of(state) == core
        # The same answer from the bare API, and the state is untouched.
        hands, leader, trick = position(state)
        before = (list(state.hands), list(state.plays))
        assert (
            state.count() + solve(hands, leader, trick, state.contract, state.ranking, state.trump, state.declarer)
            == expected
        )
        assert (list(state.hands), list(state.plays)) == before
    assert seen_rankings == {NINE_HIGH, ONE_HIGH}


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_card_values_equal_brute_force(contract_id, core):
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


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_the_cards_that_keep_the_value_are_those_brute_force_values_at_it(contract_id, core):
    """``keeps`` and ``keeping_cards`` (one question a card or run, for the analysis and the
    claims' line) name the cards whose exact value is the position's, lowest first."""
    rng = random.Random(f"keeping:{contract_id}")
    for i in range(12):
        state = random_endgame(rng, contract_id, 2 + i % 3)
        total = brute_force(state)
        high = (state.turn == state.declarer) == state.contract.is_win
        solver = Solver(state.contract, state.ranking, state.trump, state.declarer)
        expected = []
        for c in cards_of(state.legal_mask()):
            state.push(c)
            value = brute_force(state)
            assert keeps(state, total, high, solver) == (value == total), (contract_id, i, c)
            state.pop()
            if value == total:
                expected.append(c)
        before = (list(state.hands), list(state.plays))
        assert list(keeping_cards(state, total, solver)) == expected, (contract_id, i)
        assert (list(state.hands), list(state.plays)) == before


def test_longer_endgames_with_one_table_for_the_whole_hand(core):
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


def test_a_known_position(core):
    """Win Tricks (No Trump), 9 high, seat 0 declares and leads with the top of two suits."""
    hands = (cards("C9 C8 K9"), cards("C1 C2 K1"), cards("C3 K2 K3"))
    solver = Solver(CONTRACTS["win-no-trump"], NINE_HIGH, None, 0)
    assert solver.value(hands, 0) == 3
    # With 1 high the same cards are the lowest: the declarer wins nothing.
    assert Solver(CONTRACTS["win-no-trump"], ONE_HIGH, None, 0).value(hands, 0) == 0
    # Lose Tricks: the declarer must take all three, whatever it leads.
    assert Solver(CONTRACTS["lose-no-trump"], NINE_HIGH, None, 0).value(hands, 0) == 3


def test_bad_positions_are_refused(core):
    solver = Solver(CONTRACTS["win-no-trump"], NINE_HIGH, None, 0)
    with pytest.raises(ValueError, match="as many cards"):
        solver.value((cards("C9 C8"), cards("C1"), cards("C2")), 0)
    with pytest.raises(ValueError, match="two hands"):
        solver.value((cards("C9"), cards("C9"), cards("C2")), 0)
    with pytest.raises(ValueError, match="finished trick"):
        solver.value((0, 0, 0), 0, (0, 1, 2))


def solver_core_of(state: HandState) -> str:
    return Solver(state.contract, state.ranking, state.trump, state.declarer).core


def test_the_cores_search_the_same_positions_in_the_same_order():
    """Both cores count the same positions for every question, so a budget in positions (the
    expert's, the analysis's) makes the same choices with either; at a horizon too."""
    need_the_compiled_core()
    rng = random.Random("cores")
    for contract_id in CONTRACTS:
        for i in range(4):
            state = random_endgame(rng, contract_id, 6 + i % 2)
            hands, leader, trick = position(state)
            horizon = TRICKS if i < 2 else len(state.winners) + 2
            seen = []
            for core in ("python", "numba"):
                solver = Solver(state.contract, state.ranking, state.trump, state.declarer, horizon, core=core)
                assert solver.core == core
                found = [solver.value(hands, leader, trick), solver.nodes]
                found += [solver.card_values(hands, leader, trick), solver.nodes]
                seen.append(found)
            assert seen[0] == seen[1], (contract_id, i)


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_the_first_bounds_hold_the_brute_force_value(contract_id):
    """``bounds.first_bounds`` between tricks: ``lo`` and ``hi`` hold the value a brute force
    finds, on random endgames of 1 to 4 tricks; and they decide some of them in every contract
    (the Lose contracts and Must Beat by the leader's exits: ``bounds._lose_bounds``)."""
    rng = random.Random(f"first-bounds:{contract_id}")
    decided = 0
    for i in range(120):
        state = random_endgame(rng, contract_id, 1 + i % 4)
        while state.current_trick():
            state.push(rng.choice(list(cards_of(state.legal_mask()))))
        if state.finished:
            continue
        t = len(state.plays) // 3
        setup = _setup(state.contract, state.ranking, state.trump, state.declarer, TRICKS, "python")
        lo, hi = first_bounds(list(state.hands), state.leader, TRICKS - t, t, setup.par, setup.rules)
        value = brute_force(state) - state.count()
        assert lo <= value <= hi, (contract_id, i, lo, value, hi)
        decided += lo > 0 or hi < setup.counted_left[t]
    assert decided >= 10, decided


def test_trumps_the_other_side_can_beat_each_with_a_higher_one():
    """``bounds.beaten``: the most of one side's trumps (one suit's 9 bits) that the other's can
    beat, each with a higher trump of its own (9 high: bit 8 is the 9; 1 high: bit 0 is the 1)."""
    low_five = 0b000011111  # 1-5
    assert beaten(low_five, 0b110000000, True) == 2  # the 8 and the 9 beat two of them
    assert beaten(0b110000000, low_five, True) == 0  # nothing beats the 8 and 9
    assert beaten(0b110000000, low_five, False) == 2  # 1 high: the 1-5 beat both
    assert beaten(0b000100100, 0b001000000, True) == 1  # the 7 beats the 6 or the 3, not both
    assert beaten(0b000001001, 0b000000010, True) == 1  # the 2 beats the 1 only
    assert beaten(0, 0b111111111, True) == 0


def test_a_table_handed_on_from_a_solver_that_is_gone_starts_empty():
    """The compiled core hands a gone solver's arrays to the next solver (``kernel._SPARE``),
    which clears its table as it grows.  Here the gone solver solved the same cards under the
    other ranking (the same keys, other bounds): every answer and position count of the next one
    stays that of the Python core, whose solvers start with new lists."""
    need_the_compiled_core()
    rng = random.Random("spare")
    for contract_id in ("lose-no-trump", "must-beat", "may-trump"):
        state = random_endgame(rng, contract_id, 10)
        hands, leader, trick = position(state)
        other = NINE_HIGH + ONE_HIGH - state.ranking
        gone = Solver(state.contract, other, state.trump, state.declarer, core="numba")
        gone.card_values(hands, leader, trick)
        written = gone._search._tt
        assert int(gone._search._meta[3]) + 1 > FIRST_SLOTS  # its table grew past its first slots
        del gone
        seen = []
        for core in ("numba", "python"):
            solver = Solver(state.contract, state.ranking, state.trump, state.declarer, core=core)
            seen.append(
                (
                    solver.value(hands, leader, trick),
                    solver.nodes,
                    solver.card_values(hands, leader, trick),
                    solver.nodes,
                )
            )
            if core == "numba":
                table = solver._search
                assert table._tt is written  # the gone solver's table, holding its own entries only
                keys = list(table._tt[: 2 * (int(table._meta[3]) + 1) : 2])
                assert sum(1 for key in keys if key) == int(table._meta[2])
        assert seen[0] == seen[1], contract_id


def test_a_full_table_keeps_every_answer_exact(core):
    """A table that may not grow (``meta[M_CAPACITY]``, as on a system that reserves less
    memory) stops adding entries once three quarters full: the search goes on without them,
    slower, with the same value and card values as a solver whose table grows."""
    state = random_endgame(random.Random("full table"), "may-trump", 9)
    hands, leader, trick = position(state)
    free = Solver(state.contract, state.ranking, state.trump, state.declarer)
    expected = (free.value(hands, leader, trick), free.card_values(hands, leader, trick))
    cramped = Solver(state.contract, state.ranking, state.trump, state.declarer)
    meta = cramped._search._meta
    meta[M_CAPACITY] = 2 * FIRST_SLOTS  # too little room to double: FIRST_SLOTS slots at most
    assert (cramped.value(hands, leader, trick), cramped.card_values(hands, leader, trick)) == expected
    assert int(meta[M_MASK]) + 1 == FIRST_SLOTS
    assert int(meta[M_COUNT]) == 3 * FIRST_SLOTS // 4  # it filled, and kept no entry past that
    assert cramped.nodes > 2 * free.nodes  # and searched again what it could not keep


@pytest.mark.parametrize("limit", [0, 1, 57, 400])
def test_a_limit_stops_both_cores_at_the_same_position(limit):
    need_the_compiled_core()
    rng = random.Random(f"limit:{limit}")
    for contract_id in CONTRACTS:
        state = random_endgame(rng, contract_id, 7)
        hands, leader, trick = position(state)
        outcomes = []
        for core in ("python", "numba"):
            solver = Solver(state.contract, state.ranking, state.trump, state.declarer, core=core)
            solver.limit = limit
            try:
                outcome: object = solver.value(hands, leader, trick)
            except SearchLimit:
                outcome = "stopped"
            stopped_at = solver.nodes
            # What was proved before stopping stays in the table: the solver goes on exactly.
            solver.limit = 1 << 40
            outcomes.append((outcome, stopped_at, solver.value(hands, leader, trick), solver.nodes))
        assert outcomes[0] == outcomes[1], contract_id
        assert outcomes[0][1] <= limit + 1


def test_stop_from_another_thread(core):
    """``stop()`` from another thread (as the app's analysis does when it quits) stops the
    solver's search at its next position; given a new limit, the solver goes on exactly."""
    state = random_endgame(random.Random("stop"), "must-beat", 6)
    solver = Solver(state.contract, state.ranking, state.trump, state.declarer)
    stopper = threading.Thread(target=solver.stop)
    stopper.start()
    stopper.join()
    with pytest.raises(SearchLimit):
        solver.value(*position(state))
    assert (solver.limit, solver.nodes) == (-1, 1)
    solver.limit = 1 << 40
    assert solver.value(*position(state)) == whole_hand_value(state) - state.count()


def test_the_core_is_chosen_by_argument_or_environment(monkeypatch):
    monkeypatch.setenv(CORE_VARIABLE, "python")
    assert choose_core() == "python"
    assert Solver(CONTRACTS["win-no-trump"], NINE_HIGH, None, 0).core == "python"
    monkeypatch.setenv(CORE_VARIABLE, "fortran")
    with pytest.raises(ValueError, match="unknown solver core"):
        choose_core()
    monkeypatch.delenv(CORE_VARIABLE)
    problem = compiled_core_problem()
    assert choose_core() == ("python" if problem else "numba")
    if problem is not None:
        with pytest.raises(RuntimeError, match="numba"):
            choose_core("numba")


def test_one_process_at_a_time_compiles_the_core_and_a_long_wait_goes_on_without_the_lock(tmp_path, monkeypatch):
    """The first use of the compiled core on a fresh install compiles it; processes starting
    meanwhile (serve's tabs, the test processes) wait on a lock for it, then load numba's cache."""
    from filelock import FileLock, Timeout

    from stepping_stones.ai.solver import core as solver

    source = str(tmp_path / "solver_core.py")
    path = solver.compile_lock_path(source)
    assert path != solver.compile_lock_path(str(tmp_path / "other" / "solver_core.py"))  # one per installation
    with solver._compiling(source):
        with pytest.raises(Timeout):
            FileLock(path, timeout=0).acquire()  # held while compiling: another process waits here
        monkeypatch.setattr(solver, "COMPILE_WAIT", 0.01)
        entered = []

        def other() -> None:
            with solver._compiling(source):  # gives up waiting and goes on (compiling again itself)
                entered.append(True)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert entered == [True]
    with FileLock(path, timeout=0):  # released afterwards
        pass


def test_a_process_with_another_cache_folder_does_not_wait_for_the_lock(tmp_path):
    """The lock is one per cache folder too: a process that compiles into a cache folder of its
    own (``NUMBA_CACHE_DIR``, as the compile test does) holds up no process that loads another
    cache, and waits for none (it could not use their cache)."""
    from filelock import FileLock, Timeout

    from stepping_stones.ai.solver import core as solver

    source = str(tmp_path / "solver_core.py")
    mine = str(tmp_path / "cache")
    assert solver.compile_lock_path(source, mine) != solver.compile_lock_path(source)
    assert solver.compile_lock_path(source, mine) != solver.compile_lock_path(source, str(tmp_path / "other"))
    with solver._compiling(source, mine):
        with pytest.raises(Timeout):
            FileLock(solver.compile_lock_path(source, mine), timeout=0).acquire()  # this cache's own lock is held
        with solver._compiling(source), pytest.raises(Timeout):  # the package's own cache: entered at once
            FileLock(solver.compile_lock_path(source), timeout=0).acquire()  # ... and held, not given up on
