"""The bench command runs and reports what it promises (figures are checked by people, not tests)."""

from __future__ import annotations

import json

from stepping_stones.cli import main
from stepping_stones.lab.speed import random_hands


def test_bench_json_reports_the_engine_figures(capsys):
    assert main(["bench", "--json", "--hands", "200", "--repeats", "1", "--levels", "random",
                 "--solver-positions", "1"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["hands"] == 200
    assert facts["random_hands_per_s"] > 0
    assert facts["state_copy_us"] > 0 and facts["push_pop_us"] > 0
    assert set(facts["ai_decision_ms"]) == set(facts["ai_decision_cpu_ms"]) == {"random"}
    assert facts["ai_decision_sets"] == {"random": ["advanced", "standard"]}  # 4 games: both sets
    for key in ("solver_ms", "solver_cpu_ms"):
        assert set(facts[key]) == {"6", "8", "10", "12"}
        for figures in facts[key].values():
            assert set(figures) == {"p50", "p95"} and 0 <= figures["p50"] <= figures["p95"]
    assert facts["solver_positions_per_cpu_s"] > 0


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
