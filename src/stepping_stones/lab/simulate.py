"""Whole games between AI seats, without a screen: ``simulate()`` and its typed result.

Game ``number`` of the series ``seed`` is played from ``Seeds.series(seed,
number)``: its deals depend on nothing but the seed and the hand number, so the
same game number deals the same cards whoever sits where (the tournament
relies on it), and the first game of a series is the app's game of that seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai import Agent, make_ai
from ..engine import NUM_SEATS, Game, Rules
from ..match import Match, Seeds, drive
from ..records import record_from_game, write_record

Progress = Callable[[], None]
"""Called once for every unit of work done (a game, a deal set, a hand)."""


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
    declared: list[tuple[str, int, int, bool]] = field(default_factory=list)
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
        declared = [
            (h.contract.id, h.declarer, h.result, h.declaration.redo) for h in game.log if h.finished
        ]
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
    games: int
    seed: str
    seats: list[str]
    rules: Rules
    win_rate: list[float]
    mean_points: list[float]
    hands: int
    redos: int
    per_contract: dict[str, ContractFigures]
    records: Path | None
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The result as ``simulate --json`` prints it."""
        return {
            "games": self.games,
            "seed": self.seed,
            "seats": self.seats,
            "rules": self.rules.as_dict(),
            "win_rate": self.win_rate,
            "mean_points": self.mean_points,
            "hands": self.hands,
            "redos": self.redos,
            "per_contract": {
                cid: {
                    "goal": f.goal,
                    "mean_result": f.mean_result,
                    "declared": f.declared,
                    "mean_points": f.mean_points,
                }
                for cid, f in self.per_contract.items()
            },
            "records": str(self.records) if self.records is not None else None,
            "seconds": self.seconds,
        }


def simulate(
    levels: Sequence[str],
    rules: Rules,
    games: int,
    seed: str,
    records: Path | None = None,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``games`` games with AI seats of ``levels``, writing each record into ``records``."""
    import time

    agents = [make_ai(level) for level in levels]
    wins = [0.0, 0.0, 0.0]
    totals = [0, 0, 0]
    results: dict[str, list[list[int]]] = {c.id: [[], [], []] for c in rules.contracts}
    points: dict[str, list[int]] = {c.id: [0, 0, 0] for c in rules.contracts}
    hands = 0
    redos = 0
    start = time.perf_counter()
    for number in range(games):
        game = play_game(agents, rules, seed, number)
        stats = GameStats.of(game)
        for s in range(NUM_SEATS):
            wins[s] += stats.wins[s]
            totals[s] += stats.totals[s]
        for cid, pts in stats.points.items():
            for s in range(NUM_SEATS):
                points[cid][s] += pts[s]
        for cid, declarer, result, redo in stats.declared:
            results[cid][declarer].append(result)
            redos += redo
        hands += len(stats.declared)
        if records is not None:
            write_record(records / f"game-{seed}-{number + 1:05d}.json", record_from_game(game))
        if progress is not None:
            progress()
    elapsed = time.perf_counter() - start
    per_contract = {
        c.id: ContractFigures(
            goal=c.goal.value,
            mean_result=[round(sum(r) / len(r), 3) if r else None for r in results[c.id]],
            declared=[len(r) for r in results[c.id]],
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
