"""The bidding model: per contract, a weight for each named feature and the spread of results.

It lives in ``model.json`` beside this file, keyed by contract id and feature
name, and is written by ``stepping-stones calibrate``; nothing depends on the
order of the features in the file.  That model is fitted from hands heuristic
seats played, and is what every seat expects *another* player to make.  The
expert plays its own hands much better, so it values them with a second model
of the same form, ``expert_model.json``, fitted from hands an expert declared
against two heuristic seats (``calibrate --declarer expert``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from operator import mul
from pathlib import Path
from typing import Any

from ..engine import CONTRACTS
from .features import FEATURE_NAMES, Features

MODEL_FORMAT = "stepping-stones-bidding-model/1"
MODEL_FILE = "model.json"
EXPERT_MODEL_FILE = "expert_model.json"
MODEL_FILES = {"heuristic": MODEL_FILE, "expert": EXPERT_MODEL_FILE}  # by the declarer's level


@dataclass(frozen=True)
class ContractModel:
    """What the model knows of one contract."""

    weights: Features  # one weight per feature, by name
    sigma: float  # spread of the fit's error, in tricks
    random_hand_mean: float  # mean result of a random hand declaring it
    random_hand_sd: float
    hands: int  # hands the fit was made on

    def estimate(self, values: Sequence[float]) -> float:
        """The weighted sum of ``values`` (a ``Features``, or its items as ``trump_features`` gives
        them: of the weights' length; ``map`` adds the same products in the same order as a loop
        would, in half its time)."""
        total: float = sum(map(mul, self.weights, values))
        return total


@dataclass(frozen=True)
class Model:
    contracts: dict[str, ContractModel]
    meta: dict[str, Any]  # how it was fitted: the command, seed, samples

    def __getitem__(self, contract_id: str) -> ContractModel:
        return self.contracts[contract_id]

    def to_json(self) -> str:
        data: dict[str, Any] = {"format": MODEL_FORMAT, **self.meta, "contracts": {}}
        for cid, m in self.contracts.items():
            data["contracts"][cid] = {
                "weights": m.weights._asdict(),
                "sigma": m.sigma,
                "random_hand_mean": m.random_hand_mean,
                "random_hand_sd": m.random_hand_sd,
                "hands": m.hands,
            }
        return json.dumps(data, indent=1) + "\n"


def parse_model(text: str) -> Model:
    """Read a model file; every contract must give a weight for exactly the known features."""
    data = json.loads(text)
    if data.get("format") != MODEL_FORMAT:
        raise ValueError(f"not a bidding model ({MODEL_FORMAT})")
    contracts = {}
    for cid, entry in data["contracts"].items():
        weights = entry["weights"]
        if cid not in CONTRACTS or set(weights) != set(FEATURE_NAMES):
            raise ValueError(f"the model's entry for {cid!r} does not match the features")
        contracts[cid] = ContractModel(
            Features(**{name: float(weights[name]) for name in FEATURE_NAMES}),
            float(entry["sigma"]),
            float(entry["random_hand_mean"]),
            float(entry["random_hand_sd"]),
            int(entry["hands"]),
        )
    meta = {k: v for k, v in data.items() if k not in ("format", "contracts")}
    return Model(contracts, meta)


def _shipped(name: str) -> Model:
    return parse_model(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@cache
def model() -> Model:
    """The model shipped with the package (read once): what a heuristic declarer makes."""
    return _shipped(MODEL_FILE)


@cache
def expert_model() -> Model:
    """The model of what the expert makes as declarer against two heuristic seats (read once)."""
    return _shipped(EXPERT_MODEL_FILE)


def fitted_model(declarer: str) -> Model:
    """The shipped model of what a declarer of level ``declarer`` (``MODEL_FILES``) makes."""
    if declarer not in MODEL_FILES:
        raise ValueError(f"no bidding model for a {declarer!r} declarer (choose {', '.join(MODEL_FILES)})")
    return expert_model() if declarer == "expert" else model()


def model_path(declarer: str = "heuristic") -> Path:
    """Where ``calibrate`` writes a new model by default: the package's own file for a
    declarer of that level."""
    return Path(__file__).with_name(MODEL_FILES[declarer])
