"""Screen a bidding variant: one-against-two deal sets played in this one process, per deal set.

The same games as ``tournament --only one-vs-two`` (``play_deal_set`` with the same jobs), but
played one after another in this process, with the expert's settings given with ``--param``
(``NAME=value``, a field of ``ai.params.ExpertParams``, the value as JSON; for example
``offer_share=0.6``) for every seat of the candidate's level (expert or cheat) and no other, and
the points of each deal set are written out, so that two variants on the same deal sets can be
compared pair by pair (``--compare``).  Pin it to one core (``taskset -c 1``).

    python scripts/bid_screen.py --candidate cheat --seed tune-bid2-a --deals 64 --out base.json
    python scripts/bid_screen.py --candidate cheat --seed tune-bid2-a --deals 64 \
        --param margin=0.2 --out margin.json
    python scripts/bid_screen.py --compare base.json margin.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from fractions import Fraction

from stepping_stones.ai import Agent, ExpertParams, make_lab_ai
from stepping_stones.cli.args import json_data
from stepping_stones.engine import Rules
from stepping_stones.lab.simulate import GameStats, play_game
from stepping_stones.lab.tournament import SeatedGame, SideTally, _seatings


def params_from(settings: list[str]) -> ExpertParams | None:
    """The expert's settings of ``--param NAME=value`` (None for none); a bad one ends the script
    with one line naming it."""
    if not settings:
        return None
    try:
        return ExpertParams().with_settings(settings)
    except ValueError as error:
        raise SystemExit(f"{os.path.basename(sys.argv[0])}: {error}") from None


def candidate_seat(level: str, candidate: str, params: ExpertParams | None) -> Agent:
    """A seat of ``level``; the candidate's with the settings (refused by a level without any)."""
    try:
        return make_lab_ai(level, params if level == candidate else None)
    except ValueError as error:
        raise SystemExit(f"{os.path.basename(sys.argv[0])}: {error}") from None


BID_LOG: list[dict[str, object]] = []


def log_bids() -> None:
    """Record every bid the expert's planner weighs (``ExpertAI.reckon_bid``): the seat, the
    hand, whether it is forehand, the chance of the puddle it saw, and what it chose."""
    from stepping_stones.ai.expert import ExpertAI

    plain = ExpertAI.reckon_bid

    def logged(self: ExpertAI, view):  # type: ignore[no-untyped-def]
        r = plain(self, view)
        declare = [o for o in r.options if o.estimate is not None]
        BID_LOG.append(
            {
                "seat": view.seat,
                "n": view.hand_number,
                "forehand": r.forehand,
                "risk": r.puddle_risk,
                "pass": r.best.estimate is None,
                "legal_pass": any(o.estimate is None for o in r.options),
                "waiting": r.waiting,
                "best_declare": max((o.value for o in declare), default=None),
                "hands_left": r.hands_left,
                "open": r.open_contracts,
            }
        )
        return r

    ExpertAI.reckon_bid = logged  # type: ignore[method-assign]


def run(args: argparse.Namespace) -> dict[str, object]:
    params = params_from(args.param)
    log_bids()
    rules = Rules(args.contract_set)
    tally = SideTally("one", rules)
    per_set: list[float] = []
    hands: list[dict[str, object]] = []
    bids: list[dict[str, object]] = []
    start = time.process_time()
    for number in range(args.first, args.first + args.deals):
        games = []
        for side, levels, seats in _seatings(args.candidate, args.baseline, ("one",)):
            game = play_game(
                [candidate_seat(level, args.candidate, params) for level in levels], rules, args.seed, number
            )
            games.append(SeatedGame(side, seats, GameStats.of(game)))
            for b in BID_LOG:
                b.update({"set": number, "cand": seats[0]})
            bids.extend(BID_LOG)
            BID_LOG.clear()
            for h in game.log:
                d = h.declaration
                hands.append(
                    {
                        "set": number,
                        "cand": seats[0],
                        "n": h.number,
                        "declarer": h.declarer,
                        "level": levels[h.declarer],
                        "contract": d.contract.id,
                        "ranking": d.ranking,
                        "trump": d.trump,
                        "redo": d.redo,
                        "puddle": h.puddle,
                        "bids": len(h.bids),
                        "hand": h.deal[h.declarer],
                        "result": h.result,
                    }
                )
        tally.add(games)
        points = sum(Fraction(g.stats.totals[g.candidate_seats[0]]) for g in games) / len(games)
        per_set.append(float(points))
        print(f"{number}: {float(points):+.3f}", file=sys.stderr, flush=True)
    summary = json_data(tally.summary())
    return {
        "candidate": args.candidate,
        "seed": args.seed,
        "first": args.first,
        "deals": args.deals,
        "set": args.contract_set,
        "params": args.param,
        "cpu_s": round(time.process_time() - start, 1),
        "per_set": per_set,
        "summary": summary,
        "hands": hands,
        "bids": bids,
    }


def compare(a_path: str, b_path: str) -> None:
    with open(a_path) as f:
        a = json.load(f)
    with open(b_path) as f:
        b = json.load(f)
    diffs = [y - x for x, y in zip(a["per_set"], b["per_set"], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    print(
        f"{a_path}: {a['summary']['mean_points']:+.3f}  {b_path}: {b['summary']['mean_points']:+.3f}  "
        f"paired {mean:+.3f} ± {sd / math.sqrt(n):.3f} (sd {sd:.2f}, n {n})"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--candidate", default="expert")
    p.add_argument("--baseline", default="heuristic")
    p.add_argument("--seed")
    p.add_argument("--deals", type=int, default=16)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--set", dest="contract_set", default="standard")
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
    s = result["summary"]
    assert isinstance(s, dict)
    print(f"{args.candidate} {args.seed} {args.param}: {s['mean_points']:+.3f} {s['ci95']} cpu {result['cpu_s']} s")


if __name__ == "__main__":
    main()
