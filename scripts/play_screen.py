"""Screen a card-play variant, paired: the same declared hands played by one seat under test.

Each deal of ``--seed`` is declared as ``tournament --defence`` declares it (the seat whose hand
suits the contract best, with the ranking and trump the heuristic's model picks), and played out
once per role with one seat of ``--candidate`` and two of ``--baseline``: as ``declarer`` the
candidate declares; as ``defender`` it sits after the declarer (even deals) or before it (odd
deals).  The declarer's count of each hand is written out, so two variants (the expert's settings
given with ``--param NAME=value``, a field of ``ai.params.ExpertParams``, the value as JSON, for
the candidate's seat only) on the same hands can be compared hand by hand (``--compare``): in a
Lose contract the candidate wants fewer tricks as declarer and more as defender.  Pin it to one core (``taskset -c 1``).

    python scripts/play_screen.py --seed tune-lose-a --deals 60 --out now.json
    python scripts/play_screen.py --seed tune-lose-a --deals 60 --param lose_exact_tricks=12 \
        --param lose_lookahead=1 --out whole.json
    python scripts/play_screen.py --compare whole.json now.json

``--candidate cheat`` (the lab's seat that sees every hand) and ``--candidate heuristic`` work too;
``--contracts must-beat`` screens the advanced set's Lose contract.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter

# the script beside this one: python puts its folder first on the path
from bid_screen import candidate_seat, params_from

from stepping_stones.ai import ExpertParams, make_lab_ai
from stepping_stones.ai.bidding import points_by_count
from stepping_stones.engine import CONTRACTS, NUM_SEATS, Game, Goal, Phase
from stepping_stones.game.match import Seeds, drive
from stepping_stones.lab.tournament import declared_deal

ROLES = ("declarer", "defender")
DECISIONS: Counter[tuple[str, int, bool]] = Counter()  # (contract, trick, exact) of the expert's searches


def count_decisions() -> None:
    """Count the expert's searched decisions by contract, trick and whether it solved exactly."""
    from stepping_stones.ai.expert import ExpertAI

    plain = ExpertAI.reckon_card

    def counted(self, view, rng, known=None, solver=None):  # type: ignore[no-untyped-def]
        r = plain(self, view, rng, known, solver)
        if known is None:
            assert view.declaration is not None
            DECISIONS[(view.declaration.contract.id, len(view.trick_winners), r.exact)] += 1
        return r

    ExpertAI.reckon_card = counted  # type: ignore[method-assign]


def declared(contract_id: str, seed: str, number: int, role: str) -> tuple[Game, Seeds, int]:
    """Deal ``number`` of ``contract_id`` declared as ``tournament --defence`` declares it,
    ready for the first card; and the seat of the candidate in ``role``."""
    seeds = Seeds(f"{seed}:play:{contract_id}:{number}")
    game, declarer = declared_deal(contract_id, seeds)
    seat = declarer if role == "declarer" else (declarer + 1 + number % 2) % NUM_SEATS
    return game, seeds, seat


def play_hand(
    contract_id: str,
    seed: str,
    number: int,
    role: str,
    candidate: str,
    baseline: str,
    params: ExpertParams | None = None,
) -> int:
    """The declarer's count of deal ``number`` of ``contract_id`` with the candidate in ``role``
    (with ``params``, the expert's settings, if given)."""
    game, seeds, seat = declared(contract_id, seed, number, role)
    agents = [
        candidate_seat(candidate, candidate, params) if s == seat else make_lab_ai(baseline) for s in range(NUM_SEATS)
    ]
    drive(game, agents, seeds, stop=lambda g: g.phase is not Phase.PLAY)
    return game.log[-1].result


def points_of(key: str, seed: str, number: int, count: int) -> float:
    """The sheet points the declarer's ``count`` brings the candidate in role ``key``, as the
    expert reckons them at the first card (``bidding.points_by_count``; the sheet is empty)."""
    contract_id, _, role = key.partition("/")
    game, _, seat = declared(contract_id, seed, number, role)
    return points_by_count(game.view(seat), seat)[count]


def run(args: argparse.Namespace) -> dict[str, object]:
    params = params_from(args.param)
    count_decisions()
    results: dict[str, list[int]] = {}
    start = time.process_time()
    for contract_id in args.contracts.split(","):
        for role in args.roles.split(","):
            key = f"{contract_id}/{role}"
            results[key] = []
            for number in range(args.first, args.first + args.deals):
                results[key].append(
                    play_hand(contract_id, args.seed, number, role, args.candidate, args.baseline, params)
                )
            mean = sum(results[key]) / len(results[key])
            print(f"{key}: {mean:.3f}  cpu {time.process_time() - start:.0f} s", file=sys.stderr, flush=True)
    return {
        "candidate": args.candidate,
        "seed": args.seed,
        "first": args.first,
        "deals": args.deals,
        "params": args.param,
        "cpu_s": round(time.process_time() - start, 1),
        "results": results,
        "decisions": [[c, t, e, n] for (c, t, e), n in sorted(DECISIONS.items())],
    }


def candidate_gain(key: str, diff: float) -> float:
    """A change of the declarer's count as a gain for the candidate in role ``key``."""
    contract_id, _, role = key.partition("/")
    win = CONTRACTS[contract_id].goal is Goal.WIN
    return diff if (role == "declarer") == win else -diff


def compare(a_path: str, b_path: str) -> None:
    with open(a_path) as f:
        a = json.load(f)
    with open(b_path) as f:
        b = json.load(f)
    total: list[float] = []
    total_points: list[float] = []
    for key, xs in a["results"].items():
        ys = b["results"].get(key)
        if ys is None:
            continue
        n = min(len(xs), len(ys))
        first = a["first"]
        diffs = [candidate_gain(key, y - x) for x, y in zip(xs[:n], ys[:n], strict=True)]
        gains = [
            points_of(key, a["seed"], first + i, y) - points_of(key, a["seed"], first + i, x)
            for i, (x, y) in enumerate(zip(xs[:n], ys[:n], strict=True))
        ]
        total.extend(diffs)
        total_points.extend(gains)
        changed = sum(1 for d in diffs if d)
        print(
            f"{key:28} {sum(xs[:n]) / n:.3f} -> {sum(ys[:n]) / n:.3f}  gain {mean_se(diffs)} tricks,"
            f" {mean_se(gains)} points  ({changed} of {n} hands differ)"
        )
    print(
        f"{'all':28} gain {mean_se(total)} tricks, {mean_se(total_points)} points per hand for the candidate"
        f" (n {len(total)})"
    )


def mean_se(xs: list[float]) -> str:
    """The mean of ``xs`` and its standard error."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return f"{mean:+.3f} ± {sd / math.sqrt(n):.3f}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--candidate", default="expert")
    p.add_argument("--baseline", default="heuristic")
    p.add_argument("--seed")
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--contracts", default="lose-no-trump,lose-pick-trump")
    p.add_argument("--roles", default=",".join(ROLES))
    p.add_argument("--param", action="append", default=[])
    p.add_argument("--out")
    p.add_argument("--compare", nargs=2)
    args = p.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    result = run(args)
    text = json.dumps(result, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    print(f"{args.candidate} {args.seed} {args.param}: cpu {result['cpu_s']} s")


if __name__ == "__main__":
    main()
