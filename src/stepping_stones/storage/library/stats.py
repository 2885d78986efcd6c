"""What the library answers: the history of the games and a player's statistics.

``HistoryEntry``, ``PlayerStats`` and ``ContractStats`` are what ``history``, ``stats`` and the
app's screens show (docs/library.md); the functions here work them out from the checked rows.

May import: ``health`` and ``sync`` of the library package (the checked rows, the index);
storage's ``games`` (where a game's record is); the engine's public face.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine import CONTRACTS, Rules
from ..games import games_dir
from .health import ResultRow, Snapshot


@dataclass(frozen=True)
class HistoryEntry:
    """One game of the history, as ``history --json`` prints it."""

    file: str
    played: str
    rules: Rules
    players: list[str]
    points: list[int]
    winners: list[int]
    complete: bool
    assisted: bool
    seed: str | None
    levels: list[str | None]

    @property
    def path(self) -> Path:
        return games_dir() / self.file

    def to_json(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "file": self.file,
            "rules": self.rules.as_dict(),
            "rules_text": self.rules.describe(),
            "players": self.players,
            "levels": self.levels,
            "points": self.points,
            "winners": [self.players[s] for s in self.winners],
            "complete": self.complete,
            "assisted": self.assisted,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class ContractStats:
    games: int
    mean_count: float | None
    mean_points: float | None
    firsts: int
    others_mean_count: float | None  # the other two players' mean result in the same games

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "mean_count": self.mean_count, "mean_points": self.mean_points,
                "firsts": self.firsts}


@dataclass(frozen=True)
class PlayerStats:
    """A player's figures over their finished games (docs/library.md)."""

    player: str
    games: int
    wins: int
    shared_wins: int
    mean_points: float | None
    assisted_games: int
    per_contract: dict[str, ContractStats]
    include_assisted: bool = False
    trend: list[int] = field(default_factory=list)  # the player's points, game by game, oldest first

    def to_json(self) -> dict[str, Any]:
        """The shape ``stats --json`` prints."""
        return {
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "mean_points": self.mean_points,
            "assisted_games": self.assisted_games,
            "per_contract": {cid: c.to_json() for cid, c in self.per_contract.items()},
        }


def _mean(values: list[int]) -> float | None:
    return sum(values) / len(values) if values else None

def history(snap: Snapshot) -> list[HistoryEntry]:
    """Every game in the library, newest first."""
    out = []
    for game in sorted(snap.games.values(), key=lambda g: (g.played, g.file), reverse=True):
        seats = snap.seats[game.hash]
        out.append(HistoryEntry(
            file=game.file, played=game.played, rules=game.rules,
            players=[s.name for s in seats], points=[s.total for s in seats],
            winners=[s.seat for s in seats if s.winner], complete=bool(game.complete),
            assisted=bool(game.assisted), seed=game.seed, levels=[s.level for s in seats],
        ))
    return out


def person(snap: Snapshot) -> str | None:
    """The person's name: seat 0 of the most recent game (the app seats the person there)."""
    if not snap.games:
        return None
    latest = max(snap.games.values(), key=lambda g: (g.played, g.file))
    return snap.seats[latest.hash][0].name


def names(snap: Snapshot) -> list[str]:
    """Every player name in the library, most games first."""
    counts = Counter(s.name for seats in snap.seats.values() for s in seats)
    return sorted(counts, key=lambda name: (-counts[name], name))


def player_stats(snap: Snapshot, player: str, include_assisted: bool = False) -> PlayerStats:
    """``player``'s figures over their finished games (assisted ones apart, unless included)."""
    games = [(g, s) for g in sorted(snap.games.values(), key=lambda g: (g.played, g.file)) if g.complete
             for s in snap.seats[g.hash] if s.name == player]
    assisted_games = sum(1 for g, _ in games if g.assisted)
    counted = [(g, s) for g, s in games if include_assisted or not g.assisted]
    wins = sum(1 for _, s in counted if s.winner)
    shared = sum(1 for g, s in counted if s.winner and sum(x.winner for x in snap.seats[g.hash]) > 1)
    mine: dict[str, list[ResultRow]] = {}
    others: dict[str, list[int]] = {}
    for g, s in counted:
        for r in snap.results[g.hash]:
            if r.seat == s.seat:
                mine.setdefault(r.contract, []).append(r)
            elif r.count is not None:
                others.setdefault(r.contract, []).append(r.count)
    per_contract = {}
    for cid in CONTRACTS:
        rows = mine.get(cid)
        if not rows:
            continue
        per_contract[cid] = ContractStats(
            games=len(rows), mean_count=_mean([r.count for r in rows if r.count is not None]),
            mean_points=_mean([r.points for r in rows if r.points is not None]),
            firsts=sum(1 for r in rows if r.first), others_mean_count=_mean(others.get(cid, [])),
        )
    trend = [s.total for _, s in counted]
    return PlayerStats(
        player=player, games=len(counted), wins=wins, shared_wins=shared, mean_points=_mean(trend),
        assisted_games=assisted_games, per_contract=per_contract, include_assisted=include_assisted,
        trend=trend,
    )
