"""How fast the engine core and the AI seats run on this machine (``stepping-stones bench``).

``random_hands``: deal, then twelve tricks of uniformly random legal cards
through the engine's own ``legal_mask`` and ``push``, cycling through every
contract and both rankings, in one process.  It also measures what the AI's
search pays most often: copying a hand state, and a push/pop pair.

``decision_times``: each AI level plays whole seeded games through the match
driver (all three seats at that level, standard and advanced sets
alternating, redo tokens on in every other game), and every bid and card it
chooses is timed -- the call to the agent, from a ready ``PlayerView`` to its
answer -- in CPU time (``time.process_time``, which a busy machine does not inflate) and on the
wall clock.  The expert, which thinks far longer, plays two such games: one of each contract set.

``solver_ms``: the exact double-dummy solver (``ai/solver.py``) timed on
positions with 6, 8, 10 and 12 tricks left, drawn as ``solver_position``
says: a random deal, a contract drawn uniformly from all seven, a random
ranking, a random trump where the contract picks one, the declarer leading
trick 1, then uniformly random legal cards up to that trick.  Each position is
solved with a fresh solver (an empty table), timed in CPU time and on the wall clock; the
positions it searched over the CPU time give ``solver_positions_per_cpu_s``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

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
    Card,
    Contract,
    HandState,
    PlayerView,
    Rules,
    cards_of,
    deal,
)
from ..game.match import Match, Seeds, drive

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


@dataclass(frozen=True)
class Timing:
    """One decision (or solve): the contract set of its game, seconds on the wall clock and of CPU."""

    contract_set: str
    wall: float
    cpu: float


class _Timed:
    """An agent whose every decision is timed into ``times``."""

    def __init__(self, agent: Agent, times: list[Timing], contract_set: str = "") -> None:
        self.agent = agent
        self.name = agent.name
        self.times = times
        self.contract_set = contract_set

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        wall, cpu = time.perf_counter(), time.process_time()
        bid = self.agent.choose_bid(view, rng)
        self.times.append(Timing(self.contract_set, time.perf_counter() - wall, time.process_time() - cpu))
        return bid

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        wall, cpu = time.perf_counter(), time.process_time()
        card = self.agent.choose_card(view, rng)
        self.times.append(Timing(self.contract_set, time.perf_counter() - wall, time.process_time() - cpu))
        return card


def decision_times(level: str, games: int = 4, seed: int = 0) -> list[Timing]:
    """Each decision over ``games`` seeded games of three ``level`` seats (the contract sets
    alternate, so two games time both)."""
    times: list[Timing] = []
    seat = _Timed(make_ai(level), times)
    for number in range(games):
        seeds = Seeds.series(f"bench:{seed}", number)
        rules = _MODES[number % len(_MODES)]
        seat.contract_set = rules.contract_set
        match = Match.new(rules, [seat] * NUM_SEATS, seeds)
        drive(match.game, match.seats, seeds)
    return times


def _percentile(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


GAMES_AT_MOST = {"expert": 2}
"""Levels that think long play at most this many games in ``decision_ms`` (one expert game is
about 450 timed decisions): two, so that both contract sets are timed."""


def _figures(seconds: list[float], slowest: bool = True) -> dict[str, float]:
    ordered = sorted(seconds)
    figures = {"p50": round(_percentile(ordered, 0.50) * 1e3, 3), "p95": round(_percentile(ordered, 0.95) * 1e3, 3)}
    if slowest:
        figures["max"] = round(ordered[-1] * 1e3, 3)
    return figures


@dataclass(frozen=True)
class DecisionFigures:
    wall_ms: dict[str, dict[str, float]]  # per level: p50, p95, max on the wall clock
    cpu_ms: dict[str, dict[str, float]]  # the same in CPU time
    sets: dict[str, list[str]]  # per level: the contract sets its games were played in


def decisions(
    games: int = 4, seed: int = 0, levels: Sequence[str] | None = None, step: Callable[[str], None] | None = None
) -> DecisionFigures:
    """For each level (all by default): median, 95th percentile and slowest decision, in ms, on
    the wall clock and in CPU time.  ``step`` is told what starts (for a progress line)."""
    wall, cpu, sets = {}, {}, {}
    for level in LEVELS if levels is None else levels:
        count = min(games, GAMES_AT_MOST.get(level, games))
        if step is not None:
            step(f"the {level} level's decisions ({count} game{'s' if count != 1 else ''})")
        times = decision_times(level, count, seed)
        wall[level] = _figures([t.wall for t in times])
        cpu[level] = _figures([t.cpu for t in times])
        sets[level] = sorted({t.contract_set for t in times})
    return DecisionFigures(wall, cpu, sets)


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


@dataclass(frozen=True)
class Solve:
    wall: float
    cpu: float
    positions: int  # the positions the search visited (``Solver.nodes``)


def solver_times(tricks_left: int, count: int, seed: int = 0) -> list[Solve]:
    """Each of ``count`` exact solves of positions with ``tricks_left`` tricks left."""
    rng = Random(f"solver-bench:{seed}:{tricks_left}")
    times = []
    for _ in range(count):
        state = solver_position(rng, tricks_left)
        hands, leader, trick = position(state)
        solver = Solver(state.contract, state.ranking, state.trump, state.declarer)
        wall, cpu = time.perf_counter(), time.process_time()
        solver.value(hands, leader, trick)
        times.append(Solve(time.perf_counter() - wall, time.process_time() - cpu, solver.nodes))
    return times


@dataclass(frozen=True)
class SolverFigures:
    wall_ms: dict[str, dict[str, float]]  # per number of tricks left: p50 and p95 on the wall clock
    cpu_ms: dict[str, dict[str, float]]  # the same in CPU time
    positions_per_cpu_s: int  # positions searched per CPU second, over every solve


def solver_figures(
    positions: dict[int, int] | None = None, seed: int = 0, step: Callable[[str], None] | None = None
) -> SolverFigures:
    """Per number of tricks left ("6", "8", "10", "12"): median and 95th percentile of an exact
    solve, in milliseconds, on the wall clock and in CPU time; and the search's speed.  ``step``
    is told what starts."""
    counts = SOLVER_POSITIONS if positions is None else positions
    wall, cpu = {}, {}
    searched, spent = 0, 0.0
    for tricks_left in SOLVER_TRICKS:
        if step is not None:
            n = counts[tricks_left]
            step(f"exact solves with {tricks_left} tricks left ({n} position{'s' if n != 1 else ''})")
        times = solver_times(tricks_left, counts[tricks_left], seed)
        wall[str(tricks_left)] = _figures([t.wall for t in times], slowest=False)
        cpu[str(tricks_left)] = _figures([t.cpu for t in times], slowest=False)
        searched += sum(t.positions for t in times)
        spent += sum(t.cpu for t in times)
    return SolverFigures(wall, cpu, round(searched / spent) if spent > 0 else 0)


@dataclass(frozen=True)
class BenchResult:
    """The figures of ``bench``, and what ``bench --json`` prints."""

    random_hands_per_s: int
    hands: int
    state_copy_us: float
    push_pop_us: float
    ai_decision_ms: dict[str, dict[str, float]]  # ``DecisionFigures.wall_ms``
    ai_decision_cpu_ms: dict[str, dict[str, float]]
    ai_decision_sets: dict[str, list[str]]
    solver_ms: dict[str, dict[str, float]]  # ``SolverFigures.wall_ms``
    solver_cpu_ms: dict[str, dict[str, float]]
    solver_positions_per_cpu_s: int


def bench(
    hands: int = 20_000,
    repeats: int = 3,
    solver_positions: dict[int, int] | None = None,
    decision_games: int = 4,
    levels: Sequence[str] | None = None,
    step: Callable[[str], None] | None = None,
) -> BenchResult:
    """Best of ``repeats`` runs, as is usual for throughput on a shared machine; the decision and
    solver timings as their functions say.  ``step`` is told each part as it starts (``bench``
    says it on standard error: the whole takes minutes)."""
    say = step or (lambda _: None)
    say(f"random hands ({repeats} run{'s' if repeats != 1 else ''} of {hands:,})")
    best = min(random_hands(hands, seed=r).seconds for r in range(repeats))
    say("copying and undoing a hand state")
    copy_us = round(min(copy_cost_us() for _ in range(repeats)), 3)
    push_pop_us = round(min(push_pop_cost_us() for _ in range(repeats)), 3)
    ai = decisions(decision_games, levels=levels, step=step)
    solver = solver_figures(solver_positions, step=step)
    return BenchResult(
        round(hands / best),
        hands,
        copy_us,
        push_pop_us,
        ai.wall_ms,
        ai.cpu_ms,
        ai.sets,
        solver.wall_ms,
        solver.cpu_ms,
        solver.positions_per_cpu_s,
    )
