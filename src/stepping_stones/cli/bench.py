"""``stepping-stones bench [--json]``: the engine's and the AI seats' speed on this machine."""

from __future__ import annotations

import argparse
import json

from .args import positive


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bench",
        help="measure the engine's and the computer players' speed on this machine",
        description="Play random hands through the engine core and report hands per second, "
        "the cost of copying and undoing a hand state, and how long each AI level takes to decide.",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--hands", type=positive, default=20_000, help="random hands per run (default 20000)")
    p.add_argument("--repeats", type=positive, default=3, help="runs; the best one counts (default 3)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..lab.speed import bench

    result = bench(args.hands, args.repeats)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"random hands per second : {result.random_hands_per_s:,}")
    print(f"hand state copy         : {result.state_copy_us} µs")
    print(f"push + pop of one card  : {result.push_pop_us} µs")
    for level, figures in result.ai_decision_ms.items():
        print(f"AI decision, {level:<11}: " + ", ".join(f"{k} {v} ms" for k, v in figures.items()))
    return 0
