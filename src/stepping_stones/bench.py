"""``stepping-stones bench``: how fast the engine core runs on this machine.

``random_hands_per_s``: deal, then twelve tricks of uniformly random legal
cards through the engine's own ``legal_mask`` and ``push``, cycling through
every contract and both rankings, in one process.  It also measures what the
AI's search pays most often: copying a hand state, and a push/pop pair.
"""

from __future__ import annotations

import time
from random import Random
from typing import Any

from .engine.cards import NINE_HIGH, ONE_HIGH, deal
from .engine.contracts import CONTRACTS
from .engine.hand import HandState


def _configurations() -> list[tuple[Any, int, int | None]]:
    """Every contract with both rankings; contracts that pick trump cycle through the suits."""
    configs = []
    for i, contract in enumerate(CONTRACTS.values()):
        for ranking in (NINE_HIGH, ONE_HIGH):
            trump = (i + ranking) % 4 if contract.picks_trump else None
            configs.append((contract, ranking, trump))
    return configs


def random_hands(hands: int, seed: int = 0) -> float:
    """Play ``hands`` random hands; return the seconds taken."""
    rng = Random(seed)
    rand = rng.random
    configs = _configurations()
    n_configs = len(configs)
    start = time.perf_counter()
    for i in range(hands):
        contract, ranking, trump = configs[i % n_configs]
        state = HandState(deal(rng), i % 3, contract, ranking, trump)
        legal_mask = state.legal_mask
        push = state.push
        for _ in range(36):
            mask = legal_mask()
            k = int(rand() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            push((mask & -mask).bit_length() - 1)
    return time.perf_counter() - start


def _midgame_state(seed: int) -> HandState:
    rng = Random(seed)
    state = HandState(deal(rng), 0, CONTRACTS["may-trump"], ONE_HIGH, 1)
    for _ in range(17):  # part-way through trick 6, one card into the trick
        legal = state.legal_mask()
        state.push((legal & -legal).bit_length() - 1)
    return state


def copy_cost_us(repeats: int = 200_000) -> float:
    state = _midgame_state(1)
    copy = state.copy
    start = time.perf_counter()
    for _ in range(repeats):
        copy()
    return (time.perf_counter() - start) / repeats * 1e6


def push_pop_cost_us(repeats: int = 200_000) -> float:
    state = _midgame_state(2)
    legal = state.legal_mask()
    card = (legal & -legal).bit_length() - 1
    push, pop = state.push, state.pop
    start = time.perf_counter()
    for _ in range(repeats):
        push(card)
        pop()
    return (time.perf_counter() - start) / repeats * 1e6


def run(hands: int = 20_000, repeats: int = 3) -> dict[str, Any]:
    """Best of ``repeats`` runs, as is usual for throughput on a shared machine."""
    best = min(random_hands(hands, seed=r) for r in range(repeats))
    return {
        "random_hands_per_s": round(hands / best),
        "hands": hands,
        "state_copy_us": round(min(copy_cost_us() for _ in range(repeats)), 3),
        "push_pop_us": round(min(push_pop_cost_us() for _ in range(repeats)), 3),
        "ai_decision_ms": _ai_decision_ms(),
    }


def _ai_decision_ms() -> dict[str, dict[str, float]]:
    from .ai.bench import decision_ms

    return decision_ms()
