"""Every script in scripts/ runs, on the smallest input that exercises it, and prints figures that
make sense.  The figures themselves (speeds, ratios) depend on the machine and are not judged:
what is checked is that each line is there, well formed, and agrees with the input and with
itself.  Each script runs in its own process, as a person runs it from the repository."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shards_support import WHY_NOT
from stepping_stones.engine import CONTRACTS

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
NUMBER = r"[0-9][0-9,]*(?:\.[0-9]+)?"
NUMBA = importlib.util.find_spec("numba") is not None


def run(*args: str, env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """A script run from the repository's folder; ``timeout`` is only a safety net."""
    command = [*args] if args[0] == "bash" else [sys.executable, str(SCRIPTS / args[0]), *args[1:]]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})}
    )
    if check:
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
    return done


def number(text: str) -> float:
    return float(text.replace(",", ""))


def test_every_script_is_run_here():
    tested = {
        "declarers_against_par.py",
        "measure_engine_ratio.py",
        "measure_first_screen.py",
        "measure_first_start.py",
        "measure_solver_ratio.py",
        "measure_solver_speed.py",
        "measure_tui_first_paint.py",
        "measure_tui_latency.py",
        "measure_tui_startup.sh",
        "load_test_tables.py",
        "measure_thinking_share.py",
        "measure_flood_close.py",
        "measure_expert_decisions.py",
        "measure_declared_results.py",
        "bid_screen.py",
        "play_screen.py",
        "measure_analysis_speed.py",
        "measure_analyse_game.py",
        "measure_ismcts_decisions.py",
        "play_logged.py",
        "measure_watch_cost.py",
        "measure_claim_cost.py",
        "measure_state_writing.py",
        "measure_logo_cost.py",
        "measure_solver_pairs.py",
        "measure_action_cpu.py",
    }
    # A whole game with three front ends draws the app for a whole game (some 30 s of CPU): the
    # suite runs the same code (fronts_support.three_fronts) up to a card after the server's kill.
    elsewhere = {
        "three_fronts_game.py": ROOT / "tests" / "test_net_fronts.py",
        "json_schemas.py": ROOT / "tests" / "test_json_schemas.py",
    }
    assert "three_fronts(" in elsewhere["three_fronts_game.py"].read_text()
    assert "json_schemas.py" in elsewhere["json_schemas.py"].read_text()
    assert {p.name for p in SCRIPTS.iterdir() if p.suffix in (".py", ".sh")} == tested | set(elsewhere)


def test_load_test_tables():
    out = run("load_test_tables.py", "--tables", "1").stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(rows) == 1, out
    row = rows[0]
    assert row["tables"] == 1 and row["think_s"] == 0
    assert row["actions"] >= 9 * 36  # a whole game: at least nine hands of 36 cards, and the bids
    assert 0 < row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"]
    assert row["server_cpu_ms_per_action"] > 0 and row["bots_cpu_ms_per_action"] > 0
    assert row["server_disk_bytes_per_action"] > 0  # the journals in the data folder
    # actions/s against the actions over the seconds as printed (rounded to 10 ms)
    assert row["actions"] / (row["seconds"] + 0.005) - 0.1 <= row["actions_per_s"]
    assert row["actions_per_s"] <= row["actions"] / max(row["seconds"] - 0.005, 0.001) + 0.1


@pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))
def test_load_test_tables_on_two_processes_one_killed_finds_every_acknowledged_move_in_the_store(postgres_dsn):
    """Ten tables on two processes behind nginx, the first killed midway: every move a bot was
    told was taken is in the store afterwards (the journals of the tables in play, the library's
    records of those filed), and the killed process held tables when it was killed, which came
    back within the 5 s left (a lease of 1 s lapses within 0.8 to 1 s)."""
    out = run(
        "load_test_tables.py",
        *("--tables", "10", "--think", "0.3", "--seconds", "10", "--processes", "2", "--kill-midway"),
        *("--store", postgres_dsn, "--lease-seconds", "1"),
    ).stdout
    (row,) = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert row["processes"] == 2 and row["tables_compared"] == 10, row
    assert row["killed_tables"] >= 1 and row["killed_tables_back"] == row["killed_tables"], row
    # the killed tables waited for the lease to lapse (at least 0.8 s of the 1 s) and their people
    # to come back: the move each was waiting for counts from when it was first sent (it counted
    # from its sending again, on the new connection: some milliseconds)
    assert row["after_kill_max_s"] >= 0.5, row
    # each killed table played again after its lease lapsed, and before the run ended
    assert 0.5 <= row["killed_back_p50_s"] <= row["killed_back_p95_s"] <= row["killed_back_max_s"] <= 5.5, row
    assert row["acked_moves"] >= row["actions"] > 0, row  # each action measured was acknowledged
    assert row["lost_moves"] == 0 and row["tables_with_loss"] == 0, row


def _load_test_module():
    spec = importlib.util.spec_from_file_location("load_test_tables", SCRIPTS / "load_test_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_load_test_numbers_the_moves_as_the_table_does_and_reports_each_one_lost():
    """The load test finds a bot's move in the store by the table's state number it was made on:
    its numbering of a record's moves is the table's own (``Table.seq``), and a move the store does
    not have, or has otherwise, is one line each."""
    from random import Random

    from net_support import new_table
    from stepping_stones.engine import parse_bid, parse_card
    from stepping_stones.net.table import Table
    from stepping_stones.net.wire import legal_actions
    from stepping_stones.storage.records import record_from_game

    load = _load_test_module()
    table = Table.new(new_table(), clock=lambda: 0.0)
    for name in ("Ann", "Bo", "Cy"):
        table.claim(name)
    made: dict[int, str] = {}
    rng = Random(5)
    while (game := table.game) is not None and len(game.log) < 2:  # into the second hand
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        move = rng.choice(legal_actions(view))
        made[table.seq] = move
        table.act(seat, table.seq, parse_bid(move) if view.legal_bids else parse_card(move))
    assert table.game is not None
    kept: dict[int, str] = {}
    assert load.record_moves(record_from_game(table.game), kept) == table.seq
    assert kept == made
    acked = {"t1": [{seq: move for seq, move in made.items() if seq % 3 == k} for k in range(3)]}
    assert load.unkept(acked, {"t1": kept}) == []
    first, last = min(made), max(made)
    held = {seq: move for seq, move in kept.items() if seq != last} | {first: "not-" + made[first]}
    assert load.unkept(acked, {"t1": held}) == [
        f"t1: state {first}: a bot was told {made[first]!r} was taken; the store has {'not-' + made[first]!r}",
        f"t1: state {last}: a bot was told {made[last]!r} was taken; the store has nothing",
    ]


def test_measure_thinking_share():
    out = run("measure_thinking_share.py", "--games", "1", "--level", "random", "--after", "0.1").stdout
    rows = {row["phase"]: row for row in map(json.loads, out.splitlines())}
    assert set(rows) == {"baseline", "beside", "after"}, out
    assert rows["beside"]["attacker_tables"] >= 1 and rows["baseline"]["attacker_tables"] == 0
    for phase in ("baseline", "beside"):
        row = rows[phase]
        assert row["victim_computer_moves"] >= 9 * 24  # a short game: two computers' cards at least
        assert 0 < row["move_p50_ms"] <= row["move_p95_ms"] and row["server_cpu_s"] > 0


def test_measure_flood_close():
    out = run("measure_flood_close.py", "--floods", "1", "--after", "0.5").stdout
    baseline, flood = map(json.loads, out.splitlines())
    assert baseline["phase"] == "baseline" and 0 < baseline["ping_p50_ms"] <= baseline["ping_p95_ms"]
    assert flood["phase"] == "flood" and flood["floods"] == 1
    assert flood["frames_after_close"] >= 0 and flood["open_after_close_s_max"] <= 0.5 + 1.0


def test_measure_watch_cost():
    lines = run("measure_watch_cost.py", "--repeat", "2").stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        found = re.fullmatch(
            rf"hands +(\d+): seat state ({NUMBER}) ms; watcher raw ({NUMBER}) ms \((\d+) B\), page ({NUMBER}) ms "
            rf"\((\d+) B\); lobby of 50 tables ({NUMBER}) ms \((\d+) B\)",
            line,
        )
        assert found, line
        assert int(found[4]) > 500 and int(found[6]) > 500 and int(found[8]) > 50 * 200
    hands = [int(line.split(":")[0].split()[1]) for line in lines]
    assert hands == sorted(hands) and hands[0] < hands[-1]  # the game goes on from line to line


def test_declarers_against_par(tmp_path):
    out = run(
        "declarers_against_par.py",
        "--games",
        "1",
        "--hands",
        "1",
        "--workers",
        "1",
        "--seed",
        "b",
        "--limit",
        "200000",
        "--budget",
        "2000",
    ).stdout
    header, *rows = out.splitlines()
    assert header.split() == ["contract", "declarer", "hands", "result", "par", "vs", "par", "puddle"]
    assert len(rows) == 1  # one hand of one game: one contract, declared by one side
    contract, side, hands, result, par, off, puddle = rows[0].split()
    assert side in ("expert", "heuristic") and hands == "1" and puddle in ("0%", "100%")
    sign = 1 if CONTRACTS[contract].is_win else -1
    assert 0 <= float(result) <= 12 and 0 <= float(par) <= 12  # (this seed's par is found within the limit)
    assert float(off) == sign * (float(par) - float(result))


def test_measure_declared_results():
    out = run("measure_declared_results.py", "--games", "1", "--seed", "d").stdout
    header, *rows = out.splitlines()
    assert header.split() == ["contract", "hands", "mean", "sd"]
    assert {row.split()[0] for row in rows} == set(CONTRACTS)  # one game of each set: every contract
    for row in rows:
        contract, hands, mean, sd = row.split()
        assert int(hands) >= 3 and 0 <= float(mean) <= CONTRACTS[contract].tricks_counted and float(sd) >= 0


def test_measure_expert_decisions():
    out = run(
        "measure_expert_decisions.py",
        "--games",
        "1",
        "--hands",
        "1",
        "--sets",
        "standard",
        "--budget",
        "3000",
        "--json",
    ).stdout
    data = json.loads(out)
    figures = data["figures"]
    assert data["games_per_set"] == 1 and data["core"] in ("numba", "python")
    assert "bidding" in figures and figures["all cards"]["decisions"] >= 12  # a hand: 12 cards of the expert
    cards = [f for name, f in figures.items() if name != "bidding"]
    assert all(0 <= f["p50_ms"] <= f["p95_ms"] <= f["max_ms"] for f in cards)
    assert all(f["nodes_max"] <= 3 * 3000 + 2 * 3000 + 10_000 for f in cards)  # hard limits, and the rest of a layout
    assert figures["first trick (all contracts)"]["decisions"] == 1


def test_measure_engine_ratio():
    out = run("measure_engine_ratio.py", "--hands", "200", "--runs", "1").stdout
    found = re.fullmatch(rf"engine ({NUMBER}) hands/s, plain loop ({NUMBER}) hands/s, ratio ({NUMBER})\n", out)
    assert found, out
    engine, plain, ratio = (number(g) for g in found.groups())
    assert engine > 0 and plain > 0
    assert abs(ratio - engine / plain) <= 0.01 + 0.01 * ratio  # the ratio of the two rounded speeds


def test_measure_solver_ratio():
    out = run("measure_solver_ratio.py", "--tricks", "3", "--positions", "3").stdout
    solver = re.search(rf"solver p50\s*: ({NUMBER}) ms", out)
    plain = re.search(rf"plain minimax p50\s*: ({NUMBER}) ms", out)
    ratio = re.search(r"ratio of the medians: ([0-9]+)x", out)
    alone = re.search(rf"solver p50, own loop: ({NUMBER}) ms \(ratio ([0-9]+)x\)", out)
    assert solver and plain and ratio and alone, out


def test_measure_analysis_speed():
    out = run("measure_analysis_speed.py", "--games", "1", "--hands", "1").stdout
    assert out.startswith("core: ")
    for contract_set in ("standard", "advanced"):
        assert re.search(rf"{contract_set} +hands +1  p50 +{NUMBER} ms  p95 +{NUMBER} ms  max +{NUMBER} ms", out), out
    judged = run("measure_analysis_speed.py", "--games", "1", "--hands", "1", "--judged").stdout
    for contract_set in ("standard", "advanced"):
        assert re.search(rf"{contract_set} +hands +1  .* max +{NUMBER} ms  a game at most +{NUMBER} s", judged), judged


@pytest.mark.parametrize(("contract_set", "other"), [("standard", "advanced"), ("advanced", "standard")])
def test_measure_analyse_game_plays_only_the_sets_named(contract_set, other):
    """Each set's game with its phases, one set a run: the lines of the set named, and nothing of
    the other (a run of both sets, and one of the advanced set alone, analysed its game twice)."""
    out = run("measure_analyse_game.py", "--games", "1", "--phases", "--sets", contract_set).stdout
    assert re.search(rf"the compiled solver loaded in {NUMBER} s of CPU", out) or not NUMBA, out
    game = re.search(
        rf"{contract_set} +game +1  analyse +({NUMBER}) s  \(analysis +{NUMBER} s, ({NUMBER}) positions;"
        rf" judgement of (\d+) mistakes +{NUMBER} s, ({NUMBER}) positions\)",
        out,
    )
    assert game and number(game[1]) > 0 and number(game[2]) > 0, out
    assert (number(game[4]) > 0) == (int(game[3]) > 0), out  # a mistake judged is a search made
    whole = re.search(rf"{contract_set} +games +1  median +({NUMBER}) s  max +({NUMBER}) s", out)
    assert whole and number(whole[1]) == number(whole[2]) == number(game[1]), out
    assert other not in out, out


PAIRS = ("measure_solver_pairs.py", "--first", "1", "--deals", "1", "--contracts", "win-no-trump", "--core", "python")


def test_measure_solver_pairs_runs_two_trees_in_turn_and_sums_them_up():
    out = run(PAIRS[0], ".", ".", "--pairs", "2", *PAIRS[1:]).stdout
    lines = out.splitlines()
    assert len(lines) == 6, out
    for k, line in enumerate(lines[:2], 1):
        pair = re.fullmatch(
            rf"pair {k}  base ({NUMBER}) s  new ({NUMBER}) s  \(win-no-trump ({NUMBER}) -> ({NUMBER})\)  load \S+", line
        )
        assert pair and pair[1] == pair[3] and pair[2] == pair[4], line
    medians = re.fullmatch(
        rf"medians  base ({NUMBER}) s  new ({NUMBER}) s  \(new/base {NUMBER}\)  new faster in ([012]) of 2 pairs",
        lines[2],
    )
    assert medians, lines[2]
    counts = set()
    for name, line in zip(("base", "new "), lines[3:5], strict=True):
        found = re.fullmatch(rf"positions {name}  ({NUMBER})  win-no-trump ({NUMBER})", line)
        assert found and found[1] == found[2], line
        counts.add(number(found[1]))
    assert len(counts) == 1 and counts.pop() > 0, lines[3:5]  # one tree: the same positions, some
    assert lines[5] == "values: the same from both"


def test_measure_solver_pairs_refuses_a_tree_whose_values_differ(tmp_path):
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    search = tmp_path / "src" / "stepping_stones" / "ai" / "solver" / "search.py"
    text = search.read_text()
    assert text.count("\n    return lo\n") == 1  # value_of's answer, one more than the truth below
    search.write_text(text.replace("\n    return lo\n", "\n    return lo + 1\n"))
    done = run(PAIRS[0], ".", str(tmp_path), "--pairs", "1", *PAIRS[1:], check=False)
    assert done.returncode == 1, done.stdout
    assert "the two trees give other values: win-no-trump:1" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_measure_solver_speed_saves_and_compares_the_values(tmp_path):
    contracts = ["win-no-trump", "lose-pick-trump"]
    values = tmp_path / "values.json"
    args = ("measure_solver_speed.py", "--first", "1", "--deals", "1", "--contracts", ",".join(contracts))
    out = run(*args, "--core", "python", "--save", str(values)).stdout
    core_line, header, *rows = out.splitlines()
    assert re.fullmatch(rf"core: python \(ready in {NUMBER} s of CPU\)", core_line), core_line
    assert header.split() == [
        "contract",
        "deals",
        "p50",
        "s",
        "p95",
        "s",
        "max",
        "s",
        "positions",
        "p95",
        "pos",
        "positions/s",
        "over",
    ]
    assert [row.split()[0] for row in rows] == [*contracts, "all"]
    positions = []
    for row in rows[:-1]:
        _, deals, p50, p95, most, searched, p95_searched, speed, over = row.split()
        assert deals == "1" and over == "0" and p50 == p95 == most and number(speed) > 0
        assert searched == p95_searched and number(searched) > 0  # one solve: its own p95
        positions.append(searched)
    saved = json.loads(values.read_text())
    assert set(saved) == {f"{c}:1" for c in contracts} and all(0 <= v <= 12 for v in saved.values())

    assert run(*args, "--compare", str(values)).stdout.endswith(f"2 values equal to {values}\n")
    if NUMBA:  # the compiled core finds the same values
        out = run(*args, "--core", "numba", "--compare", str(values)).stdout
        assert out.startswith("core: numba") and out.endswith(f"2 values equal to {values}\n")
        # ... by searching the same positions
        assert [row.split()[5] for row in out.splitlines()[2:-2]] == positions, out
    values.write_text(json.dumps({name: value + 1 for name, value in saved.items()}))
    refused = run(*args, "--compare", str(values), check=False)
    assert refused.returncode == 1 and refused.stderr.startswith(f"2 values differ from {values}")


def test_measure_tui_first_paint():
    out = run("measure_tui_first_paint.py").stdout
    found = re.fullmatch(rf"import ({NUMBER})  init ({NUMBER})  run->painted ({NUMBER})  total ({NUMBER})\n", out)
    assert found, out
    parts, total = [number(g) for g in found.groups()[:3]], number(found.group(4))
    assert all(p >= 0 for p in parts) and abs(sum(parts) - total) <= 0.002  # three rounded parts of the total


def test_measure_tui_latency():
    out = run("measure_tui_latency.py", "--spin", "0.1", "--keys", "2").stdout
    found = re.fullmatch(rf"key answered while an AI thinks: n=2 median ({NUMBER}) ms, max ({NUMBER}) ms\n", out)
    assert found, out
    median, most = (number(g) for g in found.groups())
    assert 0 < median <= most


needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="the script draws the app in tmux")


@pytest.mark.skipif(not NUMBA, reason="it loads numba's compiled core")
def test_measure_first_start():
    """Run on the suite's own install, the cache kept (deleting it would make the other tests
    compile the core again) and the compile alone: the load of the cached core, timed."""
    out = run("measure_first_start.py", "--keep-cache", "--alone").stdout
    lines = out.splitlines()
    assert re.fullmatch(rf"load average before: {NUMBER} \(1 min\), \d+ cores", lines[0]), out
    assert lines[1] in ("compile needed: False", "compile needed: True"), out
    found = re.fullmatch(
        rf"compiling done: ({NUMBER}) s wall, ({NUMBER}) s CPU of the process since it began", lines[2]
    )
    assert found and number(found.group(1)) >= 0, out
    assert re.fullmatch(rf"load average after: {NUMBER} \(1 min\)", lines[3]), out


@needs_tmux
def test_measure_first_screen(tmp_path):
    app = f"{sys.executable} -m stepping_stones"
    out = run("measure_first_screen.py", "1", app, env={"TMUX_TMPDIR": str(tmp_path)}).stdout
    found = re.fullmatch(
        rf"stepping-stones ({NUMBER}) s, minimal Textual app ({NUMBER}) s \(medians of 1\), "
        rf"ratio ({NUMBER})\n",
        out,
    )
    assert found, out
    ours, theirs, ratio = (number(g) for g in found.groups())
    assert ours > 0 and theirs > 0 and abs(ratio - ours / theirs) <= 0.01 + 0.01 * ratio


@needs_tmux
@pytest.mark.skipif(shutil.which("bc") is None, reason="the script subtracts the times with bc")
def test_measure_tui_startup(tmp_path):
    out = run(
        "bash",
        str(SCRIPTS / "measure_tui_startup.sh"),
        env={
            "TMUX_TMPDIR": str(tmp_path),  # a tmux server of its own, not the person's
            "STEPPING_STONES_BIN": f"{sys.executable} -m stepping_stones",
        },
    ).stdout
    found = re.fullmatch(r"startup: ([0-9]*\.[0-9]+) s\n", out)
    assert found, out
    assert float(found.group(1)) > 0


def test_bid_screen(tmp_path):
    """Two runs on the same deal sets: each deal set's points, every hand declared, and the
    paired difference; the expert's settings are refused for a seat that takes none."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    common = [
        "bid_screen.py",
        "--candidate",
        "heuristic",
        "--baseline",
        "random",
        "--seed",
        "test-screen",
        "--deals",
        "2",
    ]
    run(*common, "--out", str(a))
    run(*common, "--first", "0", "--out", str(b))
    first, second = json.loads(a.read_text()), json.loads(b.read_text())
    assert second["params"] == [] and second["per_set"] == first["per_set"]
    for data in (first, second):
        assert len(data["per_set"]) == 2
        assert len(data["hands"]) == 2 * 3 * 12  # two deal sets of three games of 12 hands
        assert sum(data["per_set"]) / 2 == pytest.approx(data["summary"]["mean_points"], abs=1e-3)
    out = run("bid_screen.py", "--compare", str(a), str(a)).stdout
    assert "paired +0.000" in out
    refused = run(*common, "--param", "margin=0.5", check=False)
    assert refused.returncode != 0 and "the heuristic seat takes no expert settings" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_play_screen(tmp_path):
    """The same declared hands played with the candidate in each role: the declarer's count of
    every hand, the candidate's searches counted, and the paired difference of two runs."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    common = ["play_screen.py", "--seed", "test-play", "--deals", "1", "--contracts", "lose-pick-trump"]
    run(*common, "--out", str(a))
    run(*common, "--param", "lose_exact_tricks=8", "--out", str(b))
    first, second = json.loads(a.read_text()), json.loads(b.read_text())
    assert second["params"] == ["lose_exact_tricks=8"]
    for data in (first, second):
        assert set(data["results"]) == {"lose-pick-trump/declarer", "lose-pick-trump/defender"}
        assert all(len(r) == 1 and 0 <= r[0] <= 12 for r in data["results"].values())
        assert sum(n for *_, n in data["decisions"]) > 0
    out = run("play_screen.py", "--compare", str(a), str(a)).stdout
    assert "gain +0.000 ± 0.000 tricks, +0.000 ± 0.000 points per hand" in out
    refused = run(*common, "--param", "no_such=1", check=False)
    assert refused.returncode != 0 and "the expert has no setting 'no_such'" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_measure_ismcts_decisions():
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    out = run("measure_ismcts_decisions.py", "--simulations", "2", "--games", "1", "--seed", "scripts-test").stdout
    assert re.search(r"2 simulations: \d+ decisions, mean [\d.]+ s of CPU, max [\d.]+ s", out), out


def test_play_logged():
    out = run("play_logged.py", "--seed", "scripts-test", "--seats", "random,random,random").stdout
    assert out.count("\nhand ") + out.startswith("hand ") == 12, out  # each of the 12 hands, as it ends
    assert "totals [" in out


def test_measure_claim_cost():
    out = run("measure_claim_cost.py", "--deals", "1").stdout
    rows = re.findall(rf"after (\d+) tricks: median\s+({NUMBER}) ms\s+p90\s+({NUMBER}) ms\s+worst\s+({NUMBER}) ms", out)
    assert [r[0] for r in rows] == ["0", "3", "6"], out
    assert all(float(median) <= float(worst) for _, median, _p90, worst in rows)


def test_measure_state_writing():
    out = run("measure_state_writing.py", "--games", "1").stdout
    found = re.search(
        rf"one wire schema: ({NUMBER}) us of CPU per change \(three seats\), ({NUMBER}) bytes, (\d+) changes", out
    )
    assert found is not None, out
    assert float(found[1]) > 0 and int(found[2].replace(",", "")) > 100 and int(found[3]) > 100


def test_measure_logo_cost():
    out = run("measure_logo_cost.py", "--only", "PNG 1000x500", "--only", "bomb PNG 30000x30000").stdout
    lines = {line.split("  ")[0]: line for line in out.splitlines() if " MB in, " in line}
    assert "refused" in lines["bomb PNG 30000x30000"] and "bytes out" in lines["PNG 1000x500"], out
    assert all(
        re.search(rf"({NUMBER}) s CPU, peak \+({NUMBER}) MiB: (refused|[0-9,]+ bytes out)", line)
        for line in lines.values()
    )


def test_measure_action_cpu():
    out = run("measure_action_cpu.py", "--tables", "2", "--runs", "1", "--stages").stdout
    found = re.search(rf"run 0: ({NUMBER}) µs an action, (\d+) actions, (\d+) bytes an action sent", out)
    assert found is not None, out
    assert float(found[1]) > 0 and int(found[2]) >= 2 * 9 * 36 and int(found[3]) > 100
    stages = dict(re.findall(rf"^\s+([\w.]+)\s+({NUMBER}) µs an action", out, re.MULTILINE))
    assert {"Table.act", "Tables._changed", "protocol.parse_client"} <= set(stages), out
