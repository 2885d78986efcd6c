"""Whole games between AI seats, without a screen: ``simulate()`` and its typed result.

Game ``number`` of the series ``seed`` is played from ``Seeds.series(seed,
number)``: its deals depend on nothing but the seed and the hand number, so the
same game number deals the same cards whoever sits where (the tournament
relies on it), and the first game of a series is the app's game of that seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from ..ai import Agent, make_lab_ai
from ..engine import NUM_SEATS, Game, Rules, Seat
from ..game.match import Match, Seeds, drive
from ..storage.files import atomic_write
from ..storage.records import record_from_game, record_json
from ..storage.rules_json import RulesField

Progress = Callable[[], None]
"""Called once for every unit of work done (a game, a deal set, a hand)."""

J = TypeVar("J")
R = TypeVar("R")


class Runner(Protocol):
    """Where the units of work run: ``fn`` over ``jobs``, the results yielded in the order of the
    jobs (whatever order they finished in), ``progress`` called once per job as it finishes.
    Both sides are lazy: the jobs are taken from their iterable only a bounded number ahead of
    the results handed over, so neither the jobs nor the results of a long run are ever all in
    memory.  ``fn`` is a module-level function and each job plain data, so that the work can be
    shipped to another process or machine (``lab/cluster.py``)."""

    def __call__(self, jobs: Iterable[J], fn: Callable[[J], R], progress: Progress | None, /) -> Iterator[R]: ...


def in_process(jobs: Iterable[J], fn: Callable[[J], R], progress: Progress | None) -> Iterator[R]:
    """The plain ``Runner``: one job after the other, in this process."""
    for job in jobs:
        result = fn(job)
        if progress is not None:
            progress()
        yield result


def play_game(
    agents: Sequence[Agent],
    rules: Rules,
    seed: str | int,
    number: int,
    players: Sequence[str] | None = None,
) -> Game:
    """Play game ``number`` of the series ``seed`` to its end and return it."""
    seeds = Seeds.series(seed, number)
    match = Match.new(rules, agents, seeds, players)
    return drive(match.game, agents, seeds)


@dataclass
class GameStats:
    """What one finished game says about each seat."""

    totals: list[int]
    wins: list[float]  # 1 for a sole winner, 1/k for k winners sharing the win
    points: dict[str, list[int]]  # contract id -> points per seat
    declared: list[tuple[str, Seat, int, bool]] = field(default_factory=list)
    # (contract id, declarer, result, redo) for every hand played

    @classmethod
    def of(cls, game: Game) -> GameStats:
        winners = game.winners()
        wins = [1.0 / len(winners) if s in winners else 0.0 for s in range(NUM_SEATS)]
        points = {}
        for c in game.rules.contracts:
            pts = game.points(c.id)
            if pts is None:
                raise ValueError(f"the game is not finished: {c.name} is not scored")
            points[c.id] = pts
        declared = [(h.contract.id, h.declarer, h.result, h.declaration.redo) for h in game.log if h.finished]
        return cls(game.totals(), wins, points, declared)


@dataclass(frozen=True)
class ContractFigures:
    """One contract over a simulation, per seat."""

    goal: str
    mean_result: list[float | None]  # mean count when that seat declared it
    declared: list[int]  # how often that seat declared it
    mean_points: list[float]  # points per game


@dataclass(frozen=True)
class SimulationResult:
    """The figures of a simulation, and what ``simulate --json`` prints."""

    games: int
    seed: str
    seats: list[str]
    rules: RulesField
    win_rate: list[float]
    mean_points: list[float]
    hands: int
    redos: int
    per_contract: dict[str, ContractFigures]
    records: Path | None
    seconds: float


SimulationJob = tuple[tuple[str, ...], Rules, str, int, bool]
"""One game of a simulation: the seats' levels, the rules, the seed, the game number, and
whether its record is wanted."""


@dataclass(frozen=True)
class SimulatedGame:
    stats: GameStats
    record: str | None  # the game record's JSON text, when asked for


def play_simulated(job: SimulationJob) -> SimulatedGame:
    """One game of a simulation, as plain data: the unit of work of ``simulate``."""
    levels, rules, seed, number, want_record = job
    game = play_game([make_lab_ai(level) for level in levels], rules, seed, number)
    return SimulatedGame(GameStats.of(game), record_json(record_from_game(game)) if want_record else None)


def simulate(
    levels: Sequence[str],
    rules: Rules,
    games: int,
    seed: str,
    records: Path | None = None,
    progress: Progress | None = None,
    runner: Runner | None = None,
) -> SimulationResult:
    """Play ``games`` games with AI seats of ``levels``, writing each record into ``records``.

    The games run through ``runner`` (by default one after the other in this process); the
    figures are added up in the order of the games, so they do not depend on where the games
    ran or in which order they finished."""
    import time

    wins = [0.0, 0.0, 0.0]
    totals = [0, 0, 0]
    # per contract and declaring seat: the sum of the results and how many there were
    result_sums: dict[str, list[int]] = {c.id: [0, 0, 0] for c in rules.contracts}
    declared: dict[str, list[int]] = {c.id: [0, 0, 0] for c in rules.contracts}
    points: dict[str, list[int]] = {c.id: [0, 0, 0] for c in rules.contracts}
    hands = 0
    redos = 0
    start = time.perf_counter()
    # Lazily: the jobs are made as the runner takes them, the results added up as they come.
    jobs = ((tuple(levels), rules, seed, number, records is not None) for number in range(games))
    played = (runner or in_process)(jobs, play_simulated, progress)
    for number, one in enumerate(played):
        stats = one.stats
        for s in range(NUM_SEATS):
            wins[s] += stats.wins[s]
            totals[s] += stats.totals[s]
        for cid, pts in stats.points.items():
            for s in range(NUM_SEATS):
                points[cid][s] += pts[s]
        for cid, declarer, result, redo in stats.declared:
            result_sums[cid][declarer] += result
            declared[cid][declarer] += 1
            redos += redo
        hands += len(stats.declared)
        if records is not None and one.record is not None:
            atomic_write(records / f"game-{seed}-{number + 1:05d}.json", one.record)
    elapsed = time.perf_counter() - start
    per_contract = {
        c.id: ContractFigures(
            goal=c.goal.value,
            mean_result=[
                round(total / n, 3) if n else None for total, n in zip(result_sums[c.id], declared[c.id], strict=True)
            ],
            declared=list(declared[c.id]),
            mean_points=[round(p / games, 3) for p in points[c.id]],
        )
        for c in rules.contracts
    }
    return SimulationResult(
        games=games,
        seed=seed,
        seats=list(levels),
        rules=rules,
        win_rate=[round(w / games, 4) for w in wins],
        mean_points=[round(t / games, 3) for t in totals],
        hands=hands,
        redos=redos,
        per_contract=per_contract,
        records=records,
        seconds=round(elapsed, 2),
    )
