"""Smoke tests of ``stepping-stones simulate`` and ``tournament`` with tiny numbers."""

from __future__ import annotations

import json

import pytest

from stepping_stones.cli import main
from stepping_stones.storage.records import load_game, read_record


def run_json(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_and_records(capsys, tmp_path):
    out = run_json(
        capsys,
        "simulate",
        "--games",
        "2",
        "--seats",
        "heuristic,random,heuristic",
        "--set",
        "advanced",
        "--short",
        "--redo",
        "--seed",
        "4",
        "--json",
        "--records",
        str(tmp_path),
    )
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
    argv = ("tournament", "--candidate", "heuristic", "--baseline", "random", "--deals", "1", "--seed", "3", "--json")
    out = run_json(capsys, *argv)
    for key in ("games", "win_rate", "mean_points", "ci95", "baseline_mean_points", "per_contract"):
        assert key in out
    assert out["games"] == 3 and out["games_played"] == 6
    lo, hi = out["ci95"]
    assert lo <= out["mean_points"] <= hi
    assert set(out["per_contract"]) == {"win-no-trump", "win-pick-trump", "lose-no-trump", "lose-pick-trump"}
    assert out["two_vs_one"]["games"] == 3
    # Points per game: 12 in the standard set, shared among one candidate and two baselines.
    assert abs(out["mean_points"] + 2 * out["baseline_mean_points"] - 12) < 0.003  # both rounded to 0.001
    again = run_json(capsys, *argv)
    assert again == out


def test_tournament_defence_table(capsys):
    out = run_json(
        capsys,
        "tournament",
        "--candidate",
        "heuristic",
        "--baseline",
        "random",
        "--deals",
        "1",
        "--seed",
        "2",
        "--defence",
        "1",
        "--json",
    )
    assert set(out["defence"]) == {
        "win-no-trump",
        "win-pick-trump",
        "lose-no-trump",
        "lose-pick-trump",
        "win-last-6",
        "may-trump",
        "must-beat",
    }
    row = out["defence"]["must-beat"]
    assert 0 <= row["declarer_vs_candidate_defenders"] <= 12


# --- counts of any size: refused past the bound, lazy below it, progress shown -----------


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "1000000000000", "--seats", "random,random,random", "--seed", "1"],
        ["tournament", "--deals", "1000000000000", "--candidate", "random", "--baseline", "heuristic", "--seed", "1"],
        [
            "tournament",
            "--deals",
            "1",
            "--defence",
            "1000001",
            "--candidate",
            "random",
            "--baseline",
            "heuristic",
            "--seed",
            "1",
            "--json",
        ],
    ],
)
def test_counts_past_the_bound_are_refused_in_one_line(capsys, argv):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "is more than one run plays (at most 1,000,000" in err, err


def test_simulate_and_tournament_make_their_work_lazily():
    """A run of two million games (or deal sets) stopped after its first few jobs: the jobs are
    made as the runner takes them, so the memory of the whole run stays small.  Before, the whole
    list of jobs was made first (and a trillion never finished being made).  The runner here
    takes three jobs and stops, playing none: what is measured is the making of the jobs."""
    import tracemalloc

    from stepping_stones.engine import Rules
    from stepping_stones.lab.simulate import simulate
    from stepping_stones.lab.tournament import tournament

    class Enough(Exception):
        pass

    taken = []

    def three_jobs(jobs, fn, progress):
        for job in jobs:
            taken.append(job)
            if len(taken) == 3:
                raise Enough
        yield from ()

    for start in (
        lambda: simulate(["random"] * 3, Rules(short_game=True), 2_000_000, "lazy", runner=three_jobs),
        lambda: tournament("random", "heuristic", 2_000_000, "lazy", Rules(), runner=three_jobs, sides=("one",)),
    ):
        taken.clear()
        tracemalloc.start()
        try:
            with pytest.raises(Enough):
                start()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert len(taken) == 3
        assert peak < 30 * 1024 * 1024, peak


def test_the_local_pool_takes_jobs_a_few_ahead_of_the_results():
    from itertools import islice

    from stepping_stones.lab import tournament as lab

    taken = []

    def jobs():
        for i in range(1, 10**9):
            taken.append(i)
            yield i

    results = lab.run_pool(jobs(), lab.t95, None)
    assert list(islice(results, 5)) == [lab.t95(i) for i in range(1, 6)]
    assert len(taken) <= lab.AHEAD + 5
    results.close()


def test_progress_is_a_line_per_percent_when_standard_error_is_no_terminal(capsys):
    from stepping_stones.cli.args import percent_lines

    advance = percent_lines(250, "games", "simulate")
    for _ in range(250):
        advance()
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 100
    assert lines[0] == "simulate: 3 of 250 games (1%)"
    assert lines[-1] == "simulate: 250 of 250 games (100%)"
    short = percent_lines(99, "games", "simulate")
    for _ in range(99):
        short()
    assert capsys.readouterr().err == ""  # a short run stays quiet
