"""How fast the engine core and the AI seats run on this machine (``stepping-stones bench``).

``random_hands``: deal, then twelve tricks of uniformly random legal cards
through the engine's own ``legal_mask`` and ``push``, cycling through every
contract and both rankings, in one process.  It also measures what the AI's
search pays most often: copying a hand state, and a push/pop pair.

``decision_times``: each AI level plays whole seeded games through the match
driver (all three seats at that level, standard and advanced sets
alternating, redo tokens on in every other game), and every bid and card it
chooses is timed -- the call to the agent, from a ready ``PlayerView`` to its
answer.  The expert, which thinks far longer, plays one such game.

``solver_ms``: the exact double-dummy solver (``ai/solver.py``) timed on
positions with 6, 8, 10 and 12 tricks left, drawn as ``solver_position``
says: a random deal, a contract drawn uniformly from all seven, a random
ranking, a random trump where the contract picks one, the declarer leading
trick 1, then uniformly random legal cards up to that trick.  Each position is
solved with a fresh solver (an empty table).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ..ai import LEVELS, Agent, make_ai
from ..ai.solver import Solver, position
from ..engine import (
    CONTRACTS,
    NINE_HIGH,
    NUM_CARDS,
    NUM_SEATS,
    ONE_HIGH,
    TRICKS,
    Bid,
    Contract,
    HandState,
    PlayerView,
    Rules,
    cards_of,
    deal,
)
from ..match import Match, Seeds, drive

_MODES = (
    Rules("standard"),
    Rules("advanced", redo_tokens=True),
    Rules("advanced"),
    Rules("standard", redo_tokens=True),
)
_CHECKSUM_MODULUS = (1 << 61) - 1


def _configurations() -> list[tuple[Contract, int, int | None]]:
    """Every contract with both rankings; contracts that pick trump cycle through the suits."""
    configs = []
    for i, contract in enumerate(CONTRACTS.values()):
        for ranking in (NINE_HIGH, ONE_HIGH):
            trump = (i + ranking) % 4 if contract.picks_trump else None
            configs.append((contract, ranking, trump))
    return configs


@dataclass(frozen=True)
class RandomHands:
    seconds: float
    checksum: int  # of every hand's trick winners: the same seed plays the same hands


def random_hands(hands: int, seed: int = 0) -> RandomHands:
    """Play ``hands`` random hands; the time taken and a checksum of what was played."""
    rng = Random(seed)
    rand = rng.random
    configs = _configurations()
    n_configs = len(configs)
    checksum = 0
    start = time.perf_counter()
    for i in range(hands):
        contract, ranking, trump = configs[i % n_configs]
        state = HandState(deal(rng), i % NUM_SEATS, contract, ranking, trump)
        legal_mask = state.legal_mask
        push = state.push
        for _ in range(NUM_CARDS):
            mask = legal_mask()
            k = int(rand() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            push((mask & -mask).bit_length() - 1)
        won = state.won
        checksum = (checksum * 1_000_003 + (won[0] | won[1] << TRICKS | won[2] << 2 * TRICKS)) % _CHECKSUM_MODULUS
    return RandomHands(time.perf_counter() - start, checksum)


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


class _Timed:
    """An agent whose every decision is timed into ``times``."""

    def __init__(self, agent: Agent, times: list[float]) -> None:
        self.agent = agent
        self.name = agent.name
        self.times = times

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        start = time.perf_counter()
        bid = self.agent.choose_bid(view, rng)
        self.times.append(time.perf_counter() - start)
        return bid

    def choose_card(self, view: PlayerView, rng: Random) -> int:
        start = time.perf_counter()
        card = self.agent.choose_card(view, rng)
        self.times.append(time.perf_counter() - start)
        return card


def decision_times(level: str, games: int = 4, seed: int = 0) -> list[float]:
    """Seconds per decision over ``games`` seeded games of three ``level`` seats."""
    times: list[float] = []
    seat = _Timed(make_ai(level), times)
    for number in range(games):
        seeds = Seeds.series(f"bench:{seed}", number)
        match = Match.new(_MODES[number % len(_MODES)], [seat] * NUM_SEATS, seeds)
        drive(match.game, match.seats, seeds)
    return times


def _percentile(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


GAMES_AT_MOST = {"expert": 1}
"""Levels that think long play at most this many games in ``decision_ms`` (one expert game is
about 450 timed decisions)."""


def decision_ms(games: int = 4, seed: int = 0, levels: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
    """For each level (all by default): median, 95th percentile and slowest decision, in ms."""
    result = {}
    for level in LEVELS if levels is None else levels:
        times = sorted(decision_times(level, min(games, GAMES_AT_MOST.get(level, games)), seed))
        result[level] = {
            "p50": round(_percentile(times, 0.50) * 1e3, 3),
            "p95": round(_percentile(times, 0.95) * 1e3, 3),
            "max": round(times[-1] * 1e3, 3),
        }
    return result


SOLVER_TRICKS = (6, 8, 10, 12)
SOLVER_POSITIONS = {6: 100, 8: 50, 10: 20, 12: 10}
"""Positions timed per number of tricks left, by default (about half a minute in all here)."""


def solver_position(rng: Random, tricks_left: int) -> HandState:
    """A position with ``tricks_left`` tricks to play, drawn as the issue of the solver says: a
    random deal and declarer, a contract drawn uniformly from all seven, a random ranking, a
    random trump where the contract picks one; the declarer leads trick 1, then uniformly
    random legal cards are played up to that trick."""
    hands = deal(rng)
    contract = rng.choice(list(CONTRACTS.values()))
    ranking = rng.choice((NINE_HIGH, ONE_HIGH))
    trump = rng.randrange(4) if contract.picks_trump else None
    state = HandState(hands, rng.randrange(NUM_SEATS), contract, ranking, trump)
    for _ in range(NUM_SEATS * (TRICKS - tricks_left)):
        state.push(rng.choice(list(cards_of(state.legal_mask()))))
    return state


def solver_times(tricks_left: int, count: int, seed: int = 0) -> list[float]:
    """Seconds to solve exactly each of ``count`` positions with ``tricks_left`` tricks left."""
    rng = Random(f"solver-bench:{seed}:{tricks_left}")
    times = []
    for _ in range(count):
        state = solver_position(rng, tricks_left)
        hands, leader, trick = position(state)
        start = time.perf_counter()
        Solver(state.contract, state.ranking, state.trump, state.declarer).value(hands, leader, trick)
        times.append(time.perf_counter() - start)
    return times


def solver_ms(positions: dict[int, int] | None = None, seed: int = 0) -> dict[str, dict[str, float]]:
    """Per number of tricks left ("6", "8", "10", "12"): median and 95th percentile of an exact
    solve, in milliseconds."""
    counts = SOLVER_POSITIONS if positions is None else positions
    result = {}
    for tricks_left in SOLVER_TRICKS:
        times = sorted(solver_times(tricks_left, counts[tricks_left], seed))
        result[str(tricks_left)] = {
            "p50": round(_percentile(times, 0.50) * 1e3, 3),
            "p95": round(_percentile(times, 0.95) * 1e3, 3),
        }
    return result


@dataclass(frozen=True)
class BenchResult:
    random_hands_per_s: int
    hands: int
    state_copy_us: float
    push_pop_us: float
    ai_decision_ms: dict[str, dict[str, float]]
    solver_ms: dict[str, dict[str, float]]

    def to_json(self) -> dict[str, Any]:
        return {
            "random_hands_per_s": self.random_hands_per_s,
            "hands": self.hands,
            "state_copy_us": self.state_copy_us,
            "push_pop_us": self.push_pop_us,
            "ai_decision_ms": self.ai_decision_ms,
            "solver_ms": self.solver_ms,
        }


def bench(
    hands: int = 20_000,
    repeats: int = 3,
    solver_positions: dict[int, int] | None = None,
    decision_games: int = 4,
    levels: Sequence[str] | None = None,
) -> BenchResult:
    """Best of ``repeats`` runs, as is usual for throughput on a shared machine; the decision and
    solver timings as their functions say."""
    best = min(random_hands(hands, seed=r).seconds for r in range(repeats))
    return BenchResult(
        random_hands_per_s=round(hands / best),
        hands=hands,
        state_copy_us=round(min(copy_cost_us() for _ in range(repeats)), 3),
        push_pop_us=round(min(push_pop_cost_us() for _ in range(repeats)), 3),
        ai_decision_ms=decision_ms(decision_games, levels=levels),
        solver_ms=solver_ms(solver_positions),
    )
