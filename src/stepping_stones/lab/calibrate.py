"""Fit the bidding model (``stepping-stones calibrate``).

For every contract it deals ``hands`` hands, makes a random seat declare it
with a random ranking (and trump), lets three heuristic seats play it out
through the match driver, and records the declarer's features
(``ai/features.py``) and result.  With ``declarer="expert"`` the declarer's
seat is an expert and the two defenders heuristic seats: that fits the model
the expert values its *own* hands with (``ai/expert_model.json``), since it
plays a hand much better than the heuristic does.  A least-squares fit per contract gives a
weight for each named feature and the spread of the error.  Hand ``i`` of
contract ``c`` is played from its own seeds, so the same seed gives the same
model however the contracts are shared out over processes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..ai import Agent, HeuristicAI, make_ai
from ..ai.features import Features, features
from ..ai.model import ContractModel, Model
from ..engine import CONTRACT_SETS, CONTRACTS, NUM_SEATS, NUM_SUITS, RANKINGS, Declaration, Game, Phase, Rules
from ..game.match import Seeds, drive
from .simulate import Progress, Runner

DECLARERS = ("heuristic", "expert")  # who plays the declarer's seat (the defenders are heuristic)


def play_forced(
    contract_id: str, seeds: Seeds, samples: int, declarer_level: str = "heuristic"
) -> tuple[Features, int]:
    """Deal one hand, declare ``contract_id`` for a random seat, play it out with a seat of
    ``declarer_level`` declaring against two heuristic seats; features and result."""
    contract = CONTRACTS[contract_id]
    set_name = next(s for s, ids in CONTRACT_SETS.items() if contract_id in ids)
    choice = seeds.stream("declaration")
    declarer = choice.randrange(NUM_SEATS)
    ranking = choice.choice(RANKINGS)
    trump = choice.randrange(NUM_SUITS) if contract.picks_trump else None
    game = Game(Rules(set_name), first_forehand=declarer)
    hand = game.deal_hand(seeds.deal(1))
    game.bid(Declaration(contract, ranking, trump))
    seat = HeuristicAI(samples=samples)
    seats: list[Agent] = [seat] * NUM_SEATS
    if declarer_level != "heuristic":
        seats[declarer] = make_ai(declarer_level)
    drive(game, seats, seeds, stop=lambda g: g.phase is not Phase.PLAY)
    return features(hand.deal[declarer], ranking, trump), hand.result


def least_squares(rows: Sequence[Sequence[float]], ys: Sequence[float], ridge: float = 1e-3) -> list[float]:
    """Weights minimising the squared error (plus a small ridge), by Gauss-Jordan elimination.

    >>> [round(w, 6) for w in least_squares([[1, 0], [1, 1], [1, 2]], [1, 3, 5], ridge=0)]
    [1.0, 2.0]
    """
    n = len(rows[0])
    a = [[0.0] * (n + 1) for _ in range(n)]
    for x, y in zip(rows, ys, strict=True):
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
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
    return [a[i][n] for i in range(n)]


def contract_data(job: tuple[Any, ...]) -> tuple[list[Features], list[float]]:
    """Features and results of ``hands`` forced declarations of one contract:
    ``(contract id, hands, seed, samples[, declarer level])``."""
    cid, hands, seed, samples = job[:4]
    declarer_level = job[4] if len(job) > 4 else "heuristic"
    rows, ys = [], []
    for i in range(hands):
        x, y = play_forced(cid, Seeds(f"{seed}:calibrate:{cid}:{i}"), samples, declarer_level)
        rows.append(x)
        ys.append(float(y))
    return rows, ys


def fit(
    hands: int,
    seed: str,
    samples: int = 24,
    workers: int = 2,
    progress: Progress | None = None,
    runner: Runner | None = None,
    declarer: str = "heuristic",
) -> Model:
    """Play ``hands`` hands per contract and fit each contract's weights.  A contract's hands
    are one unit of work, run through ``runner`` (by default over ``workers`` local processes).
    ``declarer`` is the level of the declarer's seat (``DECLARERS``)."""
    if declarer not in DECLARERS:
        raise ValueError(f"unknown declarer level {declarer!r} (choose {', '.join(DECLARERS)})")
    jobs: list[tuple[Any, ...]] = [
        (cid, hands, seed, samples) if declarer == "heuristic" else (cid, hands, seed, samples, declarer)
        for cid in CONTRACTS
    ]
    data: list[tuple[list[Features], list[float]]] = []
    if runner is not None:
        data = list(runner(jobs, contract_data, progress))  # one result per contract
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(contract_data, jobs):
                data.append(result)
                if progress is not None:
                    progress()
    return fit_rows(data, hands, seed, samples, declarer)


def fit_rows(
    data: Sequence[tuple[Sequence[Features], Sequence[float]]],
    hands: int,
    seed: str,
    samples: int,
    declarer: str = "heuristic",
) -> Model:
    """The model fitted from ``contract_data``'s rows, one entry per contract of ``CONTRACTS``."""
    contracts = {}
    for cid, (rows, ys) in zip(CONTRACTS, data, strict=True):
        w = least_squares(rows, ys)
        weights = Features(*(round(v, 4) for v in w))
        errors = [y - sum(a * b for a, b in zip(w, x, strict=True)) for x, y in zip(rows, ys, strict=True)]
        sigma = math.sqrt(sum(e * e for e in errors) / len(errors))
        mean = sum(ys) / len(ys)
        sd = math.sqrt(sum((y - mean) ** 2 for y in ys) / len(ys))
        contracts[cid] = ContractModel(weights, round(sigma, 3), round(mean, 3), round(sd, 3), hands)
    command = f"calibrate --hands {hands} --seed {seed} --samples {samples}"
    if declarer != "heuristic":
        command += f" --declarer {declarer}"
    meta: dict[str, Any] = {
        "command": command,
        "seed": seed,
        "samples": samples,
    }
    return Model(contracts, meta)
