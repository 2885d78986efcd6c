"""How long an AI seat takes to decide: ``decision_ms()`` for ``stepping-stones bench``.

Each level plays whole seeded games (all three seats at that level, standard
and advanced sets alternating, redo tokens on in every other game) and every
bid and card it chooses is timed -- the call to the agent, from a ready
``PlayerView`` to its answer.
"""

from __future__ import annotations

import time
from random import Random

from ..engine.contracts import Rules
from ..engine.game import Game, Phase
from . import LEVELS, make_ai

_MODES = (Rules("standard"), Rules("advanced", redo_tokens=True), Rules("advanced"), Rules("standard", redo_tokens=True))


def decision_times(level: str, games: int = 4, seed: int = 0) -> list[float]:
    """Seconds per decision over ``games`` seeded games of three ``level`` seats."""
    agent = make_ai(level)
    times = []
    clock = time.perf_counter
    for number in range(games):
        rng = Random(f"bench:{seed}:{number}")
        game = Game(_MODES[number % len(_MODES)], first_forehand=number % 3)
        while not game.over:
            if game.phase is Phase.DEAL:
                game.deal_hand(rng)
                continue
            view = game.view(game.to_act)
            if game.phase is Phase.BIDDING:
                start = clock()
                bid = agent.choose_bid(view, rng)
                times.append(clock() - start)
                game.bid(bid)
            else:
                start = clock()
                card = agent.choose_card(view, rng)
                times.append(clock() - start)
                game.play(card)
    return times


def _percentile(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def decision_ms(games: int = 4, seed: int = 0) -> dict[str, dict[str, float]]:
    """For each level: median and 95th percentile of a decision, in milliseconds."""
    result = {}
    for level in LEVELS:
        times = sorted(decision_times(level, games, seed))
        result[level] = {
            "p50": round(_percentile(times, 0.50) * 1e3, 3),
            "p95": round(_percentile(times, 0.95) * 1e3, 3),
        }
    return result
