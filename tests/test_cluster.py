"""``--cluster``: the lab's work on a Dask cluster gives exactly the figures of a run without one.

The tests start a small local Dask cluster (two single-threaded worker processes on the
loopback address) and connect to it by its address, as ``--cluster tcp://HOST:PORT`` does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys

import pytest

from stepping_stones.cli import main
from stepping_stones.cli.args import json_data
from stepping_stones.engine import Rules
from stepping_stones.lab import cluster as cluster_module
from stepping_stones.lab.calibrate import fit
from stepping_stones.lab.cluster import INSTALL_HINT, ClusterError, check_address, connect
from stepping_stones.lab.simulate import in_process, simulate
from stepping_stones.lab.tournament import play_deal_set, tournament

if importlib.util.find_spec("distributed") is None:  # the cluster extra is not installed
    pytest.skip("needs dask.distributed (pip install 'stepping-stones[cluster]')", allow_module_level=True)


def local_cluster(**options):
    """A local Dask cluster on the loopback address.  ``distributed`` is imported here, not with
    the module: every test process collects this file, and the import costs each 2 s of CPU."""
    import distributed

    return distributed.LocalCluster(host="127.0.0.1", dashboard_address="127.0.0.1:0", **options)


pytestmark = pytest.mark.xdist_group("cluster")  # one process for these tests: they share the module's local cluster


@pytest.fixture(scope="module")
def scheduler():
    """The address of a local cluster: a scheduler and two worker processes (with nannies, which
    start a killed worker again, as ``dask worker`` does)."""
    with local_cluster(
        n_workers=2, threads_per_worker=1, processes=True, worker_dashboard_address="127.0.0.1:0"
    ) as local:
        yield local.scheduler_address


def test_tournament_on_a_cluster_equals_the_local_run(scheduler):
    """Both sides' games (the six of a deal set) and the defence table.  One deal set is
    enough here: the defence table's seven units come back in the order of the jobs, and the
    killed-worker test below checks that several deal sets do."""
    rules = Rules("advanced", short_game=True, redo_tokens=True)
    here = tournament("random", "heuristic", 1, "cl-t", rules, defence=1, runner=in_process)
    calls = []
    with connect(scheduler) as cluster:
        there = tournament(
            "random", "heuristic", 1, "cl-t", rules, defence=1, progress=lambda: calls.append(1), runner=cluster.map
        )
    assert here.two_vs_one is not None and here.defence is not None
    assert there.to_json() == here.to_json()
    assert len(calls) == 1 + 7  # every deal set, then every defence hand, once each


def test_simulate_and_calibrate_on_a_cluster_equal_the_local_runs(scheduler, tmp_path):
    rules = Rules("standard", short_game=True)
    here = simulate(["heuristic", "random", "random"], rules, 4, "cl-s", records=tmp_path / "here")
    with connect(scheduler) as cluster:
        there = simulate(
            ["heuristic", "random", "random"], rules, 4, "cl-s", records=tmp_path / "there", runner=cluster.map
        )
        model_there = fit(2, "cl-c", samples=2, runner=cluster.map)
    assert {**json_data(there), "seconds": 0, "records": ""} == {**json_data(here), "seconds": 0, "records": ""}
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert len(names) == 4
    for name in names:
        assert (tmp_path / "there" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()
    assert model_there.to_json() == fit(2, "cl-c", samples=2, workers=1).to_json()


def test_a_worker_killed_mid_run_changes_nothing(scheduler):
    rules = Rules(short_game=True)
    deals = 3  # two under way on the two workers when the first result comes back, and one more
    one = ("one",)  # the three one-against-two games of each deal set: as much a unit of work, at half the cost
    here = tournament("heuristic", "random", deals, "cl-kill", rules, runner=in_process, sides=one)
    with connect(scheduler) as cluster:
        pids = cluster.client.run(os.getpid)
        assert len(pids) == 2
        victim = min(pids.values())
        finished_after_the_kill = []

        def progress() -> None:
            if not finished_after_the_kill:
                os.kill(victim, signal.SIGKILL)  # a worker dies while the others' work is under way
            finished_after_the_kill.append(1)

        there = tournament(
            "heuristic", "random", deals, "cl-kill", rules, progress=progress, runner=cluster.map, sides=one
        )
        assert victim not in cluster.client.run(os.getpid).values()
    assert len(finished_after_the_kill) == deals  # the progress saw every deal set once, no more
    assert there.to_json() == here.to_json()


def test_the_cli_with_a_local_cluster_prints_what_it_prints_without(capsys):
    args = ["simulate", "--games", "2", "--seats", "random,random,random", "--seed", "cl-cli", "--json"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*args, "--cluster", "local"]) == 0
    out = capsys.readouterr()
    clustered = json.loads(out.out)
    assert {**clustered, "seconds": 0} == {**plain, "seconds": 0}


def test_an_unreachable_scheduler_is_one_line_and_exit_2_after_the_connect_timeout():
    """It gives up after ``--cluster-timeout`` (the Client's own timeout, which the line names)
    instead of waiting for a scheduler for ever; the subprocess' timeout is only a safety net."""
    assert 0 < cluster_module.CONNECT_TIMEOUT <= 30
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "stepping_stones",
            "tournament",
            "--candidate",
            "heuristic",
            "--baseline",
            "random",
            "--deals",
            "2",
            "--seed",
            "1",
            "--cluster",
            "tcp://127.0.0.1:1",
            "--cluster-timeout",
            "0.5",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("tournament: cannot reach a Dask scheduler at tcp://127.0.0.1:1 within 0.5 s")


@pytest.mark.parametrize("value", ["0", "-1", "601", "soon", "nan"])
def test_a_bad_cluster_timeout_is_refused_by_the_parser(value, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--games", "1", "--cluster", "local", "--cluster-timeout", value])
    assert exit_.value.code == 2
    assert "--cluster-timeout" in capsys.readouterr().err


def test_without_dask_cluster_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    code = main(
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
            "--cluster",
            "local",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [f"tournament: {INSTALL_HINT}"]
    assert "pip install 'stepping-stones[cluster]'" in err


@pytest.mark.parametrize(
    "address",
    [
        "tcp://127.0.0.1",
        "127.0.0.1:8786",
        "tcp://127.0.0.1:0",
        "tcp://a b:1",
        "tcp://127.0.0.1:99999",
        "locals",
        "tcp://host:80\x1b",
    ],
)
def test_a_bad_address_is_refused_by_the_parser(address, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["calibrate", "--cluster", address])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "no cluster address" in err
    assert "\x1b" not in err


def test_good_addresses():
    assert check_address("tcp://127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert check_address("tcp://[::1]:8786") == "tcp://[::1]:8786"
    assert check_address(" local ") == "local"


def test_only_functions_a_worker_can_import_by_name_are_sent(scheduler):
    def nested(job):
        return job

    with connect(scheduler) as cluster:
        for fn in (nested, lambda job: job):
            with pytest.raises(ValueError, match="module-level"):
                cluster.map([1], fn, None)  # at once, before any result is asked for
        assert list(cluster.map([], play_deal_set, None)) == []


def test_a_failing_unit_of_work_is_one_line(scheduler):
    with connect(scheduler) as cluster, pytest.raises(ClusterError) as err:
        list(cluster.map([("no-such-level", "random", Rules(), "x", 0)], play_deal_set, None))
    assert "\n" not in str(err.value)
    assert str(err.value).startswith(f"the work failed on the Dask scheduler at {scheduler}: ")


def test_without_cluster_dask_is_never_imported():
    """A whole command without ``--cluster``, through its work runner and the local pool; the
    smallest tournament does (one deal set, one side, the short game)."""
    code = (
        "import sys; from stepping_stones.cli import main; "
        "main(['tournament', '--candidate', 'heuristic', '--baseline', 'random', '--deals', '1', '--seed', '1', "
        "'--only', 'one-vs-two', '--short', '--json']); print('distributed' in sys.modules, 'dask' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert proc.stdout.splitlines()[-1] == "False False"


def test_no_worker_is_one_line(monkeypatch):
    monkeypatch.setattr(cluster_module, "WORKER_TIMEOUT", 0.5)
    with (
        local_cluster(n_workers=0) as empty,
        pytest.raises(ClusterError, match="no worker joined") as err,
        connect(empty.scheduler_address),
    ):
        pass
    assert "\n" not in str(err.value)


def test_the_cluster_takes_jobs_a_bounded_number_ahead_of_the_results(scheduler):
    from itertools import islice

    from stepping_stones.lab.tournament import t95

    taken = []

    def jobs():
        for i in range(1, 10**9):
            taken.append(i)
            yield i

    with connect(scheduler) as cluster:
        results = cluster.map(jobs(), t95, None)
        assert list(islice(results, 5)) == [t95(i) for i in range(1, 6)]
        assert len(taken) <= max(cluster_module.AHEAD_MIN, cluster_module.AHEAD_PER_WORKER * cluster.workers) + 5
        results.close()  # the rest is not wanted: what is under way is cancelled
