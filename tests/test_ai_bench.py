"""``bench`` reports the AI's decision times (the figures themselves are read by people)."""

from __future__ import annotations

from stepping_stones.lab.speed import decision_ms, decision_times


def test_decision_ms_has_both_levels_with_ordered_percentiles():
    result = decision_ms(games=1, seed=3)
    assert set(result) == {"random", "heuristic"}
    for figures in result.values():
        assert set(figures) == {"p50", "p95"}
        assert 0 <= figures["p50"] <= figures["p95"]


def test_every_decision_of_a_game_is_timed():
    times = decision_times("random", games=1, seed=1)
    assert len(times) >= 12 * 36  # at least every card of twelve hands
