"""Time whole-hand (12-trick) exact solves on a fixed set of seeded deals, per contract, in CPU time.

Deal ``i`` of contract ``c`` is ``engine.deal(Seeds(SEED).deal(i + 1))``; the declarer is seat
``i % 3`` and leads trick 1, the ranking alternates 9 high (even ``i``) and 1 high (odd ``i``), and
a contract that picks a trump takes suit ``i % 4``.  Every run of the script solves the same
positions, so figures from two versions of the solver compare like with like.  Each solve gets a
fresh ``Solver`` (an empty table) and is timed with ``time.process_time`` (CPU time: a busy,
shared machine slows the wall clock, not this).  ``positions`` is the solver's ``nodes`` summed
over the contract's deals (an exact count: the same on every machine and run), ``p95 pos`` the
95th percentile of one solve's, and ``positions/s`` the positions over the CPU seconds.

    .venv/bin/python scripts/measure_solver_speed.py                       # 30 deals x 7 contracts
    .venv/bin/python scripts/measure_solver_speed.py --deals 6 --contracts must-beat,lose-no-trump
    .venv/bin/python scripts/measure_solver_speed.py --save /tmp/values.json   # keep each value
    .venv/bin/python scripts/measure_solver_speed.py --compare /tmp/values.json  # and check them
    .venv/bin/python scripts/measure_solver_speed.py --core python    # the pure-Python core

``--core`` picks the solver's core (``python`` or ``numba``; by default the solver's own choice,
see ``STEPPING_STONES_SOLVER``).  The compiled core is loaded (and compiled, the first time on a
machine) before the first solve is timed; the time that took is printed on its own line.

``--limit N`` stops a solve after N positions (``Solver.limit``): it is then reported as over the
budget, its time counts as a lower bound in the percentiles, and its value is not compared.
``--compare`` fails if any value differs from the saved one (values from an earlier solver, or
from the same solver before a change: the solver is exact, so they must be equal).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from stepping_stones.ai.solver import SearchLimit, Solver, choose_core
from stepping_stones.engine import CONTRACTS, NINE_HIGH, ONE_HIGH, deal
from stepping_stones.game.match import Seeds

SEED = "solver-speed"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def position_of(contract_id: str, i: int) -> tuple[tuple[int, int, int], int, int, int | None]:
    """(hands, declarer, ranking, trump) of deal ``i`` of ``contract_id``."""
    hands = deal(Seeds(SEED).deal(i + 1))
    ranking = NINE_HIGH if i % 2 == 0 else ONE_HIGH
    trump = i % 4 if CONTRACTS[contract_id].picks_trump else None
    return hands, i % 3, ranking, trump


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30, help="deals per contract (default 30)")
    parser.add_argument("--first", type=int, default=0, help="index of the first deal (default 0)")
    parser.add_argument("--contracts", default=",".join(CONTRACTS), help="comma-separated contract ids")
    parser.add_argument("--limit", type=int, default=0, help="positions per solve before giving up (0: none)")
    parser.add_argument("--save", help="write every value to this JSON file")
    parser.add_argument("--compare", help="check every value against this JSON file")
    parser.add_argument("--verbose", action="store_true", help="one line per solve")
    parser.add_argument("--core", choices=("python", "numba"), help="the solver's core (default: its own choice)")
    args = parser.parse_args()
    start = time.process_time()
    core = choose_core(args.core)
    print(f"core: {core} (ready in {time.process_time() - start:.2f} s of CPU)")
    expected = json.loads(Path(args.compare).read_text()) if args.compare else {}
    values: dict[str, int] = {}
    mismatches = []
    all_times: list[float] = []
    print(
        f"{'contract':16} {'deals':>5} {'p50 s':>8} {'p95 s':>8} {'max s':>8} {'positions':>11}"
        f" {'p95 pos':>9} {'positions/s':>12} {'over':>5}"
    )
    for contract_id in args.contracts.split(","):
        contract = CONTRACTS[contract_id]
        times = []
        counts = []
        over = 0
        for i in range(args.first, args.first + args.deals):
            hands, declarer, ranking, trump = position_of(contract_id, i)
            solver = Solver(contract, ranking, trump, declarer, core=core)
            if args.limit:
                solver.limit = args.limit
            start = time.process_time()
            try:
                value: int | None = solver.value(hands, declarer)
            except SearchLimit:
                value = None
                over += 1
            spent = time.process_time() - start
            times.append(spent)
            counts.append(solver.nodes)
            name = f"{contract_id}:{i}"
            if value is not None:
                values[name] = value
                if name in expected and expected[name] != value:
                    mismatches.append((name, expected[name], value))
            if args.verbose:
                print(f"  {name:20} value {value}  {spent:8.3f} s  {solver.nodes:9} positions", flush=True)
        all_times += times
        total = sum(times)
        nodes = sum(counts)
        print(
            f"{contract_id:16} {len(times):5} {percentile(times, 0.5):8.3f} {percentile(times, 0.95):8.3f}"
            f" {max(times):8.3f} {nodes:11,} {percentile(counts, 0.95):9,} {nodes / total if total else 0:12,.0f}"
            f" {over:5}",
            flush=True,
        )
    if len(args.contracts.split(",")) > 1:
        print(
            f"{'all':16} {len(all_times):5} {percentile(all_times, 0.5):8.3f} {percentile(all_times, 0.95):8.3f}"
            f" {max(all_times):8.3f}"
        )
    if args.save:
        Path(args.save).write_text(json.dumps(values, indent=0, sort_keys=True))
    if args.compare:
        compared = sum(1 for name in values if name in expected)
        if mismatches:
            raise SystemExit(f"{len(mismatches)} values differ from {args.compare}: {mismatches[:10]}")
        print(f"{compared} values equal to {args.compare}")


if __name__ == "__main__":
    main()
