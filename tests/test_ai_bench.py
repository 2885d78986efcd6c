"""``bench`` reports the AI's decision times and the solver's speed.  The figures themselves are
read by people; what is checked here is what they are figures of: every decision of the games
played, each in CPU time and on the wall clock, in milliseconds, and the solver's positions over
its CPU seconds.  ``step_clock`` makes every timed call last exactly one step of each clock."""

from __future__ import annotations

import random

import pytest

from conftest import StepClock
from stepping_stones.ai import make_ai
from stepping_stones.engine import TRICKS
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.lab.speed import (
    _MODES,
    GAMES_AT_MOST,
    SOLVER_TRICKS,
    decision_times,
    decisions,
    solver_figures,
    solver_position,
)


@pytest.mark.usefixtures("step_clock")
def test_decisions_are_cpu_and_wall_milliseconds_of_each_level_asked():
    result = decisions(games=2, seed=3, levels=["random", "heuristic"])
    cpu_ms, wall_ms = round(StepClock.CPU * 1e3, 3), round(StepClock.WALL * 1e3, 3)
    assert result.cpu_ms == {level: {"p50": cpu_ms, "p95": cpu_ms, "max": cpu_ms} for level in ("random", "heuristic")}
    assert result.wall_ms == {
        level: {"p50": wall_ms, "p95": wall_ms, "max": wall_ms} for level in ("random", "heuristic")
    }
    assert result.sets == {"random": ["advanced", "standard"], "heuristic": ["advanced", "standard"]}


@pytest.mark.usefixtures("step_clock")
def test_every_decision_of_the_games_played_is_timed_once():
    times = decision_times("random", games=2, seed=1)
    # the same two games, played again untimed: every step in which an AI seat acted (a bid or
    # a card; the engine makes the forced passes itself)
    asked = 0
    for number in range(2):
        seeds = Seeds.series("bench:1", number)
        match = Match.new(_MODES[number], [make_ai("random")] * 3, seeds)
        while (step := match.step()) is not Step.OVER:
            asked += step is Step.AI
    assert len(times) == asked > 2 * 12 * 36
    assert all((t.cpu, t.wall) == (StepClock.CPU, StepClock.WALL) for t in times)
    assert [t.contract_set for t in times].count("standard") > 12 * 36  # the first game's, in its set


def test_the_expert_is_timed_in_both_contract_sets():
    # two games at most, and the first two games of the bench are one of each set
    assert GAMES_AT_MOST["expert"] == 2
    times = decision_times("random", games=GAMES_AT_MOST["expert"], seed=1)
    assert {t.contract_set for t in times} == {"standard", "advanced"}


def test_solver_positions_are_drawn_as_the_bench_says():
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


@pytest.mark.usefixtures("step_clock")
def test_the_solvers_speed_is_its_positions_over_its_cpu_seconds(recorded_solves):
    solves = recorded_solves
    counts = {6: 3, 8: 2, 10: 1, 12: 1}
    figures = solver_figures(counts, seed=2)  # (seed 2: a 12-trick position solved in a blink)
    assert len(solves) == 7 and all(solve.positions > 0 for solve in solves)
    assert figures.positions_per_cpu_s == round(sum(solve.positions for solve in solves) / (7 * StepClock.CPU))
    cpu_ms, wall_ms = round(StepClock.CPU * 1e3, 3), round(StepClock.WALL * 1e3, 3)
    assert figures.cpu_ms == {str(t): {"p50": cpu_ms, "p95": cpu_ms} for t in SOLVER_TRICKS}
    assert figures.wall_ms == {str(t): {"p50": wall_ms, "p95": wall_ms} for t in SOLVER_TRICKS}
