"""Two versions of the exact solver side by side, in alternating runs, in CPU time.

A change to the search that keeps its positions (or changes them a little) is judged by CPU
time, and on a shared machine one run of each version proves nothing: the load moves between
them.  So the base and the new version run in turn, ``--pairs`` times, each in a process of its
own, one right after the other.  A version is a source tree, as ``git archive REV src scripts |
tar -x -C DIR`` unpacks it, and ``.`` is the repository itself; a process runs with
``PYTHONPATH=TREE/src``.  Each process solves the deals of ``scripts/measure_solver_speed.py``
(the same fixed deals, a fresh ``Solver`` each), every deal ``--reps`` times, and keeps the best
time of each deal (``time.process_time``), summed per contract.

It prints each pair (the base's CPU and the new one's, in all and per contract, and the load
average), then the medians, the ratio of the medians and in how many pairs the new version was
the faster, and the positions each searched (exact: the same in every run).  It fails, naming
the deals, if the two give any value that differs: the solver is exact, so they must be equal.

    git archive HEAD src scripts | tar -x -C /tmp/base      # the code before the change
    .venv/bin/python scripts/measure_solver_pairs.py /tmp/base . --pairs 6
    .venv/bin/python scripts/measure_solver_pairs.py /tmp/base . --contracts may-trump --reps 2 --pairs 8

``--core`` picks the solver's core in both (``python`` or ``numba``; by default its own
choice).  Each tree keeps its own compiled code: the first run of a tree compiles it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent


def worker(args: argparse.Namespace) -> None:
    """One process of one version: the best CPU of each deal, summed per contract, as JSON."""
    sys.path.insert(0, str(SCRIPTS))
    from measure_solver_speed import position_of

    from stepping_stones.ai.solver import Solver, choose_core
    from stepping_stones.engine import CONTRACTS

    core = choose_core(args.core)
    cpu: dict[str, float] = {}
    positions: dict[str, int] = {}
    values: dict[str, int] = {}
    for contract_id in args.contracts.split(","):
        cpu[contract_id] = 0.0
        positions[contract_id] = 0
        for i in range(args.first, args.first + args.deals):
            hands, declarer, ranking, trump = position_of(contract_id, i)
            best = float("inf")
            for _ in range(args.reps):
                solver = Solver(CONTRACTS[contract_id], ranking, trump, declarer, core=core)
                start = time.process_time()
                value = solver.value(hands, declarer)
                best = min(best, time.process_time() - start)
            cpu[contract_id] += best
            positions[contract_id] += solver.nodes
            values[f"{contract_id}:{i}"] = value
    print(json.dumps({"core": core, "cpu": cpu, "positions": positions, "values": values}))


def run_tree(tree: Path, args: argparse.Namespace) -> dict[str, object]:
    """One process of the version in ``tree``; its figures."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(tree)]
    command += ["--contracts", args.contracts, "--deals", str(args.deals), "--first", str(args.first)]
    command += ["--reps", str(args.reps)] + (["--core", args.core] if args.core else [])
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"the solver of {tree} failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", nargs="?", type=Path, help="the tree of the code before")
    parser.add_argument("new", nargs="?", type=Path, help="the tree of the code after")
    parser.add_argument("--pairs", type=int, default=6, help="alternating pairs of runs (default 6)")
    parser.add_argument("--reps", type=int, default=1, help="solves of each deal, the best kept (default 1)")
    parser.add_argument("--deals", type=int, default=30, help="deals per contract (default 30)")
    parser.add_argument("--first", type=int, default=0, help="index of the first deal (default 0)")
    parser.add_argument("--contracts", default="", help="comma-separated contract ids (default: all)")
    parser.add_argument("--core", choices=("python", "numba"), help="the solver's core (default: its own choice)")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args)
        return
    if args.base is None or args.new is None:
        parser.error("name the two trees: BASE NEW")
    for tree in (args.base, args.new):
        if not (tree / "src" / "stepping_stones").is_dir():
            parser.error(f"{tree} holds no src/stepping_stones (unpack one with: git archive REV src scripts)")
    if args.pairs < 1 or args.reps < 1 or args.deals < 1:
        parser.error("--pairs, --reps and --deals must be at least 1")
    if not args.contracts:
        from stepping_stones.engine import CONTRACTS

        args.contracts = ",".join(CONTRACTS)
    totals: dict[str, list[float]] = {"base": [], "new": []}
    positions: dict[str, object] = {}
    for pair in range(1, args.pairs + 1):
        base, new = run_tree(args.base, args), run_tree(args.new, args)
        if base["values"] != new["values"]:
            values_b, values_n = base["values"], new["values"]
            assert isinstance(values_b, dict) and isinstance(values_n, dict)
            differ = [deal for deal in values_b if values_b[deal] != values_n.get(deal)]
            sys.exit(f"the two trees give other values: {', '.join(differ)}")
        row = []
        for name, result in (("base", base), ("new", new)):
            cpu = result["cpu"]
            assert isinstance(cpu, dict)
            totals[name].append(sum(cpu.values()))
            positions[name] = result["positions"]
            row.append(cpu)
        each = "  ".join(f"{c} {row[0][c]:.3f} -> {row[1][c]:.3f}" for c in row[0])
        print(
            f"pair {pair}  base {totals['base'][-1]:.3f} s  new {totals['new'][-1]:.3f} s  ({each})  load {load()}",
            flush=True,
        )
    median_base = statistics.median(totals["base"])
    median_new = statistics.median(totals["new"])
    faster = sum(n < b for b, n in zip(totals["base"], totals["new"], strict=True))
    print(
        f"medians  base {median_base:.3f} s  new {median_new:.3f} s  (new/base {median_new / median_base:.3f})"
        f"  new faster in {faster} of {args.pairs} pairs"
    )
    for name in ("base", "new"):
        counts = positions[name]
        assert isinstance(counts, dict)
        print(f"positions {name:4}  {sum(counts.values()):,}  " + "  ".join(f"{c} {n:,}" for c, n in counts.items()))
    print("values: the same from both")


if __name__ == "__main__":
    main()
