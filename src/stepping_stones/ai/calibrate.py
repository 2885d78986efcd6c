"""Fit the bidding model: ``python -m stepping_stones.ai.calibrate [--hands N] [--seed S]``.

For every contract it deals ``N`` hands, makes a random seat declare it with a
random ranking (and trump), lets three heuristic seats play it out, and
records the declarer's features (``features.py``) and result.  A least-squares
fit per contract gives the weights and the spread of the error; the module
``model_data.py`` is rewritten with them.  The same seed gives the same model (the contracts are shared out over two
processes, each with its own generator).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from random import Random

from ..engine.cards import RANKINGS, deal
from ..engine.contracts import CONTRACT_SETS, CONTRACTS, Rules
from ..engine.game import Bid, Game, Phase
from .features import FEATURE_NAMES, features
from .play import CardChooser


def play_forced(contract_id: str, rng: Random, samples: int = 24) -> tuple[list[float], int]:
    """Deal one hand, declare ``contract_id`` for a random seat, play it out; features and result."""
    contract = CONTRACTS[contract_id]
    set_name = next(s for s, ids in CONTRACT_SETS.items() if contract_id in ids)
    declarer = rng.randrange(3)
    game = Game(Rules(set_name), first_forehand=declarer)
    cards = deal(rng)
    game.start_hand(cards)
    ranking = rng.choice(RANKINGS)
    trump = rng.randrange(4) if contract.picks_trump else None
    game.bid(Bid(contract_id, ranking, trump))
    while game.phase is Phase.PLAY:
        view = game.view(game.to_act)
        game.play(CardChooser(view, rng, samples).choose())
    return features(cards[declarer], ranking, trump), game.hand.result


def least_squares(rows: list[list[float]], ys: list[float], ridge: float = 1e-3) -> list[float]:
    """Weights minimising the squared error (plus a small ridge), by Gauss-Jordan elimination."""
    n = len(rows[0])
    a = [[0.0] * (n + 1) for _ in range(n)]
    for x, y in zip(rows, ys):
        for i in range(n):
            xi = x[i]
            if xi:
                row = a[i]
                for j in range(n):
                    row[j] += xi * x[j]
                row[n] += xi * y
    for i in range(n):
        a[i][i] += ridge * len(rows)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        if abs(p) < 1e-12:
            continue
        inv = 1.0 / p
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col])]
    return [a[i][n] for i in range(n)]


def _contract_data(job: tuple[str, int, int, int]) -> tuple[list[list[float]], list[float]]:
    cid, hands, seed, samples = job
    rng = Random(f"{seed}-{cid}")
    rows, ys = [], []
    for _ in range(hands):
        x, y = play_forced(cid, rng, samples)
        rows.append(x)
        ys.append(float(y))
    return rows, ys


def fit(hands: int, seed: int, samples: int = 24, workers: int = 2) -> dict[str, dict]:
    """Play ``hands`` hands per contract (over ``workers`` processes) and fit each contract's weights."""
    from concurrent.futures import ProcessPoolExecutor

    jobs = [(cid, hands, seed, samples) for cid in CONTRACTS]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        data = list(pool.map(_contract_data, jobs))
    model = {}
    for cid, (rows, ys) in zip(CONTRACTS, data):
        w = least_squares(rows, ys)
        errors = [y - sum(a * b for a, b in zip(w, x)) for x, y in zip(rows, ys)]
        sigma = math.sqrt(sum(e * e for e in errors) / len(errors))
        mean = sum(ys) / len(ys)
        sd = math.sqrt(sum((y - mean) ** 2 for y in ys) / len(ys))
        model[cid] = {
            "weights": [round(v, 4) for v in w],
            "sigma": round(sigma, 3),
            "random_hand_mean": round(mean, 3),
            "random_hand_sd": round(sd, 3),
            "hands": hands,
        }
        print(f"{cid:16} mean {mean:5.2f} sd {sd:4.2f}  fit error {sigma:4.2f}", flush=True)
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stepping_stones.ai.calibrate")
    parser.add_argument("--hands", type=int, default=700)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=24,
                        help="layouts the card play samples per decision (the heuristic's own setting)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--output", type=Path, default=Path(__file__).with_name("model_data.py"))
    args = parser.parse_args(argv)
    model = fit(args.hands, args.seed, args.samples, args.workers)
    payload = {"features": list(FEATURE_NAMES), "seed": args.seed, "samples": args.samples,
               "contracts": model}
    args.output.write_text(
        '"""Bidding model weights, written by ``python -m stepping_stones.ai.calibrate`` '
        f'(--hands {args.hands} --seed {args.seed} --samples {args.samples}); do not edit by hand."""\n\n'
        f"MODEL = {json.dumps(payload, indent=1)}\n"
    )
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
