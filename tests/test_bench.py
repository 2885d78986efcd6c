"""The bench command runs and reports what it promises: the figures are read by people; what they
are figures of is checked here, with a clock that moves one step per reading (``step_clock``)."""

from __future__ import annotations

import json

import pytest

from conftest import StepClock
from stepping_stones.cli import main
from stepping_stones.lab.speed import random_hands


@pytest.mark.usefixtures("step_clock")
def test_bench_json_reports_the_engine_figures(capsys, recorded_solves):
    """Every figure is what it says it is: with a clock that moves one step per reading, each
    one can be worked out exactly from the steps and the work done."""
    solves = recorded_solves
    assert (
        main(
            [
                "bench",
                "--json",
                "--hands",
                "200",
                "--repeats",
                "1",
                "--levels",
                "random",
                "--decision-games",
                "2",
                "--solver-positions",
                "1",
            ]
        )
        == 0
    )
    printed = capsys.readouterr()
    facts = json.loads(printed.out)
    # issue 43, item 12: each part is said on standard error as it starts (it ran 122 s silent)
    assert printed.err.splitlines() == [
        "bench: 1 of 7: random hands (1 run of 200)",
        "bench: 2 of 7: copying and undoing a hand state",
        "bench: 3 of 7: the random level's decisions (2 games)",
        *(
            f"bench: {3 + i} of 7: exact solves with {t} tricks left (1 position)"
            for i, t in enumerate((6, 8, 10, 12), 1)
        ),
    ]
    wall, cpu = StepClock.WALL, StepClock.CPU
    assert facts["hands"] == 200
    assert facts["random_hands_per_s"] == round(200 / wall)  # a run lasts one step
    assert facts["state_copy_us"] == round(wall / 200_000 * 1e6, 3)  # one step over 200,000 copies
    assert facts["push_pop_us"] == round(wall / 200_000 * 1e6, 3)
    assert facts["ai_decision_ms"] == {"random": dict.fromkeys(("p50", "p95", "max"), round(wall * 1e3, 3))}
    assert facts["ai_decision_cpu_ms"] == {"random": dict.fromkeys(("p50", "p95", "max"), round(cpu * 1e3, 3))}
    assert facts["ai_decision_sets"] == {"random": ["advanced", "standard"]}  # 2 games: both sets
    sizes = ("6", "8", "10", "12")  # tricks left
    assert facts["solver_ms"] == {t: dict.fromkeys(("p50", "p95"), round(wall * 1e3, 3)) for t in sizes}
    assert facts["solver_cpu_ms"] == {t: dict.fromkeys(("p50", "p95"), round(cpu * 1e3, 3)) for t in sizes}
    assert len(solves) == 4  # one position of each size
    assert facts["solver_positions_per_cpu_s"] == round(sum(solve.positions for solve in solves) / (4 * cpu))


def test_random_hands_are_reproducible():
    first = random_hands(50, seed=1)
    assert first.seconds > 0
    assert random_hands(50, seed=1).checksum == first.checksum  # the same hands, trick for trick
    assert random_hands(50, seed=2).checksum != first.checksum
    assert random_hands(51, seed=1).checksum != first.checksum


def test_bench_refuses_nonsense(capsys):
    try:
        main(["bench", "--hands", "0"])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("bench accepted --hands 0")
    assert "--hands" in capsys.readouterr().err
