"""``bench`` reports the AI's decision times (the figures themselves are read by people)."""

from __future__ import annotations

from stepping_stones.lab.speed import decision_ms, decision_times


def test_decision_ms_has_the_levels_asked_with_ordered_percentiles():
    result = decision_ms(games=1, seed=3, levels=["random", "heuristic"])
    assert set(result) == {"random", "heuristic"}
    for figures in result.values():
        assert set(figures) == {"p50", "p95", "max"}
        assert 0 <= figures["p50"] <= figures["p95"] <= figures["max"]


def test_every_decision_of_a_game_is_timed():
    times = decision_times("random", games=1, seed=1)
    assert len(times) >= 12 * 36  # at least every card of twelve hands


def test_solver_positions_are_drawn_as_the_bench_says():
    import random

    from stepping_stones.engine import TRICKS
    from stepping_stones.lab.speed import solver_position

    rng = random.Random(1)
    contracts = set()
    for tricks_left in (12, 8, 6):
        for _ in range(20):
            state = solver_position(rng, tricks_left)
            contracts.add(state.contract.id)
            assert len(state.winners) == TRICKS - tricks_left and state.in_trick == 0
            assert all(h.bit_count() == tricks_left for h in state.hands)
            assert (state.trump is not None) == state.contract.picks_trump
    assert len(contracts) == 7
