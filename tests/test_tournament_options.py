"""The tournament's interval (Student's t), its win-rate interval, ``--only one-vs-two`` and the
refusal of a level matched against itself."""

from __future__ import annotations

import json
import math

import pytest

from stepping_stones.cli import main
from stepping_stones.cli.args import json_data
from stepping_stones.engine import Rules
from stepping_stones.lab.tournament import mean_ci95, t95, tournament


def test_students_t_is_wider_than_the_normal_for_few_deal_sets():
    assert t95(1) == pytest.approx(12.7062, abs=1e-4)
    assert t95(4) == pytest.approx(2.7764, abs=1e-4)
    assert t95(30) == pytest.approx(2.0423, abs=1e-4)
    # Beyond the table the expansion joins it smoothly and tends to the normal quantile.
    assert t95(31) == pytest.approx(2.0395, abs=2e-4)
    assert t95(100) == pytest.approx(1.9840, abs=2e-4)
    assert t95(10**7) == pytest.approx(1.96, abs=1e-3)
    assert all(t95(df) > t95(df + 1) for df in range(1, 200))
    values = [3.0, 5.0, 4.0, 6.0, 2.0]
    mean, (lo, hi) = mean_ci95(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 4)
    assert hi - mean == pytest.approx(t95(4) * sd / math.sqrt(5))
    assert mean - lo == pytest.approx(hi - mean)


def test_a_level_against_itself_is_refused(capsys):
    assert (
        main(["tournament", "--candidate", "heuristic", "--baseline", "heuristic", "--deals", "1", "--seed", "1"]) == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "measures nothing" in err
    with pytest.raises(ValueError, match="measures nothing"):
        tournament("random", "random", 1, "1", Rules())


def test_only_one_vs_two(capsys):
    assert (
        main(
            [
                "tournament",
                "--candidate",
                "heuristic",
                "--baseline",
                "random",
                "--deals",
                "1",
                "--seed",
                "5",
                "--only",
                "one-vs-two",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["two_vs_one"] is None
    assert out["games"] == 3 and out["games_played"] == 3  # one deal set: the candidate in each seat
    lo, hi = out["win_rate_ci95"]
    assert 0.0 <= lo <= out["win_rate"] <= hi <= 1.0
    # The same one-against-two games as a full tournament of the same seed.
    full = tournament("heuristic", "random", 1, "5", Rules())
    assert json_data(full.one_vs_two) == {k: v for k, v in out.items() if k in json_data(full.one_vs_two)}
    assert full.two_vs_one is not None and full.to_json()["two_vs_one"]["games"] == 3


def test_only_refuses_other_values(capsys):
    with pytest.raises(SystemExit) as e:
        main(
            [
                "tournament",
                "--candidate",
                "heuristic",
                "--baseline",
                "random",
                "--deals",
                "1",
                "--seed",
                "1",
                "--only",
                "two-vs-one",
            ]
        )
    assert e.value.code == 2
