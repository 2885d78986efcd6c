"""Smoke tests of ``stepping-stones simulate`` and ``tournament`` with tiny numbers."""

from __future__ import annotations

import json

import pytest

from stepping_stones.cli import main
from stepping_stones.records import load_game, read_record


def run_json(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_and_records(capsys, tmp_path):
    out = run_json(capsys, "simulate", "--games", "2", "--seats", "heuristic,random,heuristic",
                   "--set", "advanced", "--short", "--redo", "--seed", "4", "--json",
                   "--records", str(tmp_path))
    assert out["games"] == 2 and out["seats"] == ["heuristic", "random", "heuristic"]
    assert abs(sum(out["win_rate"]) - 1) < 1e-6
    assert abs(sum(out["mean_points"]) - 9) < 1e-6  # three contracts, 3 points each
    assert set(out["per_contract"]) == {"win-last-6", "may-trump", "must-beat"}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    record = read_record(files[0])
    assert record.rules.contract_set == "advanced" and record.rules.short_game
    replayed = load_game(files[0])  # the record replays through the engine to a finished game
    assert replayed.over and sum(replayed.totals()) == 9


def test_simulate_same_seed_same_numbers(capsys):
    argv = ("simulate", "--games", "2", "--seats", "random,heuristic,random", "--seed", "8", "--json")
    a = run_json(capsys, *argv)
    b = run_json(capsys, *argv)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_simulate_table(capsys):
    assert main(["simulate", "--games", "1", "--seats", "random,random,random", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "win rate" in text and "lose-pick-trump" in text


@pytest.mark.parametrize("bad", [["--seats", "heuristic,random"], ["--seats", "a,b,c"], ["--games", "0"]])
def test_simulate_refuses_bad_arguments(capsys, bad):
    argv = ["simulate", "--games", "1", "--seats", "random,random,random", "--seed", "1"]
    for i in range(0, len(bad), 2):
        argv[argv.index(bad[i]) + 1] = bad[i + 1]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2


def test_tournament_json(capsys):
    argv = ("tournament", "--candidate", "heuristic", "--baseline", "random", "--deals", "2",
            "--seed", "3", "--json")
    out = run_json(capsys, *argv)
    for key in ("games", "win_rate", "mean_points", "ci95", "baseline_mean_points", "per_contract"):
        assert key in out
    assert out["games"] == 6 and out["games_played"] == 12
    lo, hi = out["ci95"]
    assert lo <= out["mean_points"] <= hi
    assert set(out["per_contract"]) == {"win-no-trump", "win-pick-trump", "lose-no-trump", "lose-pick-trump"}
    assert out["two_vs_one"]["games"] == 6
    # Points per game: 12 in the standard set, shared among one candidate and two baselines.
    assert abs(out["mean_points"] + 2 * out["baseline_mean_points"] - 12) < 0.003  # both rounded to 0.001
    again = run_json(capsys, *argv)
    assert again == out


def test_tournament_defence_table(capsys):
    out = run_json(capsys, "tournament", "--candidate", "heuristic", "--baseline", "random",
                   "--deals", "1", "--seed", "2", "--defence", "1", "--json")
    assert set(out["defence"]) == {"win-no-trump", "win-pick-trump", "lose-no-trump", "lose-pick-trump",
                                   "win-last-6", "may-trump", "must-beat"}
    row = out["defence"]["must-beat"]
    assert 0 <= row["declarer_vs_candidate_defenders"] <= 12
