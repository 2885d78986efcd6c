"""``bench`` reports the AI's decision times (the figures themselves are read by people)."""

from __future__ import annotations

from stepping_stones.lab.speed import GAMES_AT_MOST, decision_times, decisions


def test_decisions_have_the_levels_asked_with_ordered_percentiles_in_cpu_and_wall_time():
    result = decisions(games=2, seed=3, levels=["random", "heuristic"])
    for figures_by_level in (result.cpu_ms, result.wall_ms):
        assert set(figures_by_level) == {"random", "heuristic"}
        for figures in figures_by_level.values():
            assert set(figures) == {"p50", "p95", "max"}
            assert 0 <= figures["p50"] <= figures["p95"] <= figures["max"]
    assert result.sets == {"random": ["advanced", "standard"], "heuristic": ["advanced", "standard"]}


def test_every_decision_of_a_game_is_timed():
    times = decision_times("random", games=1, seed=1)
    assert len(times) >= 12 * 36  # at least every card of twelve hands
    assert {t.contract_set for t in times} == {"standard"}


def test_the_expert_is_timed_in_both_contract_sets():
    # two games at most, and the first two games of the bench are one of each set
    assert GAMES_AT_MOST["expert"] == 2
    times = decision_times("random", games=GAMES_AT_MOST["expert"], seed=1)
    assert {t.contract_set for t in times} == {"standard", "advanced"}


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
