"""What the library answers: the history of the games and a player's statistics.

``HistoryEntry``, ``PlayerStats`` and ``ContractStats`` are what ``history``, ``stats`` and the
app's screens show (docs/library.md).  The statistics are worked out by SQLite (``GROUP BY``,
``COUNT``, ``SUM``), not by Python over every row: each query reads the checked rows only
(``SHOWN``: a game or a row that ``health`` found wrong and could not put right is left out, as it
is from the history), in one read transaction, so that its figures are of one state of the file.
A mean is the exact ``SUM`` divided by the ``COUNT`` in Python (``total / count``, as docs/library.md
promises), never SQLite's floating ``AVG``.

May import: ``health`` and ``sync`` of the library package (the checked rows, the index);
storage's ``games`` (where a game's record is); the engine's public face.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

from pydantic import Field
from typing_extensions import TypedDict  # pydantic reads its schema on Python 3.11 (scripts/json_schemas.py)

from ...engine import CONTRACTS, Rules
from ..games import games_dir
from ..rules_json import RulesJSON
from .health import GameRow, SeatRow, Snapshot
from .sync import Index


class HistoryEntryJSON(TypedDict):
    """One game as ``history --json`` prints it (the output is a list of these)."""

    played: str
    file: str
    rules: RulesJSON
    rules_text: str
    players: list[str]
    levels: list[str | None]
    points: list[int]
    winners: list[str]
    complete: bool
    assisted: bool
    stood_in: list[list[int]]  # the hands a computer played for each seat (a table's stand-in)
    seed: str | None


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
    stood_in: list[list[int]] = field(default_factory=lambda: [[], [], []])  # hands a computer played, by seat

    @property
    def path(self) -> Path:
        return games_dir() / self.file

    def to_json(self) -> HistoryEntryJSON:
        return {
            "played": self.played,
            "file": self.file,
            "rules": cast(RulesJSON, self.rules.as_dict()),
            "rules_text": self.rules.describe(),
            "players": self.players,
            "levels": self.levels,
            "points": self.points,
            "winners": [self.players[s] for s in self.winners],
            "complete": self.complete,
            "assisted": self.assisted,
            "seed": self.seed,
            "stood_in": self.stood_in,
        }


@dataclass(frozen=True)
class ContractStats:
    """A player's figures in one contract, and what ``stats --json`` prints of them."""

    games: int
    mean_count: float | None
    mean_points: float | None
    firsts: int
    # the other two players' mean result in the same games: not in the JSON (read back as None)
    others_mean_count: Annotated[float | None, Field(exclude=True, default=None)]


@dataclass(frozen=True)
class PlayerStats:
    """A player's figures over their finished games (docs/library.md), and what ``stats --json``
    prints: all but the fields marked ``exclude``."""

    player: str
    games: int
    wins: int
    shared_wins: int
    mean_points: float | None
    assisted_games: int
    per_contract: dict[str, ContractStats]
    include_assisted: Annotated[bool, Field(exclude=True)] = False
    stand_in_games: int = 0  # games in which a computer played part of the player's hands (counted apart)
    # the player's points, game by game, oldest first
    trend: Annotated[list[int], Field(exclude=True)] = field(default_factory=list)


def _mean(total: int | None, count: int) -> float | None:
    return total / count if count and total is not None else None


# The rows an answer may read: the games, seats and results that passed ``health``'s checks.
# ``:wrong_hashes`` and ``:wrong_games``/``seats``/``results`` are JSON arrays
# (``Snapshot.left_out``): the games found wrong, and the rowids of wrong rows.  ``mine`` is
# the player's seats in finished games, ``counted`` those the figures count (assisted games, and
# those in which a computer stood in for the player, only when ``:include``); ``winners`` is how
# many won that game.  A store that keeps the same rows elsewhere (``net.pgstore``'s PostgreSQL,
# whose schema holds the same checks) answers with its own ``g``, ``s`` and ``r`` before ``MINE``
# and the same ``QUERIES`` after it.
CHECKED = """
WITH g AS (SELECT * FROM games
           WHERE hash NOT IN (SELECT value FROM json_each(:wrong_hashes))
             AND rowid NOT IN (SELECT value FROM json_each(:wrong_games))),
     s AS (SELECT * FROM seats
           WHERE hash IN (SELECT hash FROM g) AND rowid NOT IN (SELECT value FROM json_each(:wrong_seats))),
     r AS (SELECT * FROM results
           WHERE hash IN (SELECT hash FROM g) AND rowid NOT IN (SELECT value FROM json_each(:wrong_results))),
"""
MINE = """
     mine AS (SELECT g.hash, g.played, g.file, g.assisted, s.seat, s.total, s.winner, s.stood_in,
                     (SELECT SUM(x.winner) FROM s AS x WHERE x.hash = g.hash) AS winners
              FROM g JOIN s ON s.hash = g.hash
              WHERE g.complete = 1 AND s.name = :player),
     counted AS (SELECT * FROM mine WHERE :include OR (assisted = 0 AND stood_in IS NULL))
"""
SHOWN = CHECKED + MINE

_FIGURES = """
SELECT (SELECT COUNT(*) FROM mine WHERE assisted = 1),
       (SELECT COUNT(*) FROM mine WHERE stood_in IS NOT NULL),
       COUNT(*),
       COUNT(*) FILTER (WHERE winner = 1),
       COUNT(*) FILTER (WHERE winner = 1 AND winners > 1),
       SUM(total)
FROM counted
"""

_TREND = "SELECT total FROM counted ORDER BY played, file, seat"

# Per contract: the player's own results (the games it was in play, the kept counts and the
# points where recorded, the firsts), and beside them the other seats' counts in the same games.
_PER_CONTRACT = """
SELECT r.contract,
       COUNT(*) FILTER (WHERE r.seat = c.seat),
       COUNT(r.count) FILTER (WHERE r.seat = c.seat),
       SUM(r.count) FILTER (WHERE r.seat = c.seat),
       COUNT(r.points) FILTER (WHERE r.seat = c.seat),
       SUM(r.points) FILTER (WHERE r.seat = c.seat),
       COUNT(*) FILTER (WHERE r.seat = c.seat AND r.first = 1),
       COUNT(r.count) FILTER (WHERE r.seat <> c.seat),
       SUM(r.count) FILTER (WHERE r.seat <> c.seat)
FROM counted AS c JOIN r ON r.hash = c.hash
GROUP BY r.contract
"""

_NAMES = "SELECT name FROM s GROUP BY name ORDER BY COUNT(*) DESC, name"

_PERSON = "SELECT s.name FROM g JOIN s ON s.hash = g.hash AND s.seat = 0 ORDER BY g.played DESC, g.file DESC LIMIT 1"

# what each answer asks, after the rows it may read (``SHOWN``, or another store's)
QUERIES = {"figures": _FIGURES, "per_contract": _PER_CONTRACT, "trend": _TREND, "names": _NAMES, "person": _PERSON}

_T = TypeVar("_T")


def _one_read(index: Index, snap: Snapshot, work: Callable[[Callable[..., list[Any]]], _T], **params: Any) -> _T:
    """``work(query)`` in one read transaction, where ``query(sql)`` is the rows of one of the
    queries above; waiting (``Patience``) while another copy holds the database."""
    bound = {"player": None, "include": 0, **snap.left_out(), **params}

    def attempt() -> _T:
        conn = index.conn
        conn.execute("BEGIN")
        try:
            return work(lambda sql: conn.execute(SHOWN + sql, bound).fetchall())
        finally:
            conn.execute("COMMIT")

    return index.patience.run(attempt)


def history(snap: Snapshot) -> list[HistoryEntry]:
    """Every game in the library, newest first (every row is shown: ``snap`` holds them checked)."""
    out = []
    for game in sorted(snap.games.values(), key=lambda g: (g.played, g.file), reverse=True):
        seats = snap.seats[game.hash]
        out.append(
            HistoryEntry(
                file=game.file,
                played=game.played,
                rules=game.rules,
                players=[s.name for s in seats],
                points=[s.total for s in seats],
                winners=[s.seat for s in seats if s.winner],
                complete=bool(game.complete),
                assisted=bool(game.assisted),
                seed=game.seed,
                levels=[s.level for s in seats],
                stood_in=[[int(h) for h in s.stood_in.split()] if s.stood_in else [] for s in seats],
            )
        )
    return out


def person(index: Index, snap: Snapshot) -> str | None:
    """The person's name: seat 0 of the most recent game (the app seats the person there)."""
    rows = _one_read(index, snap, lambda query: query(_PERSON))
    return str(rows[0][0]) if rows else None


def names(index: Index, snap: Snapshot) -> list[str]:
    """Every player name in the library, most games first."""
    return [str(name) for (name,) in _one_read(index, snap, lambda query: query(_NAMES))]


def player_stats(index: Index, snap: Snapshot, player: str, include_assisted: bool = False) -> PlayerStats:
    """``player``'s figures over their finished games (assisted ones apart, unless included)."""

    def work(query: Callable[[str], list[Any]]) -> tuple[list[Any], list[Any], list[Any]]:
        return query(_FIGURES), query(_PER_CONTRACT), query(_TREND)

    figures, contracts, trend = _one_read(index, snap, work, player=player, include=int(include_assisted))
    return stats_of(player, include_assisted, figures, contracts, trend)


def stats_of(
    player: str, include_assisted: bool, figures: list[Any], contracts: list[Any], trend: list[Any]
) -> PlayerStats:
    """``PlayerStats`` from the rows of ``QUERIES``' figures, per_contract and trend."""
    ((assisted_games, stand_in_games, games, wins, shared, points),) = figures
    by_contract = {row[0]: row[1:] for row in contracts}
    per_contract = {}
    for cid in CONTRACTS:  # in the order of the rules
        if cid not in by_contract:
            continue
        n, n_count, sum_count, n_points, sum_points, firsts, n_others, sum_others = by_contract[cid]
        if not n:
            continue  # the others played it, the player did not
        per_contract[cid] = ContractStats(
            games=n,
            mean_count=_mean(sum_count, n_count),
            mean_points=_mean(sum_points, n_points),
            firsts=firsts,
            others_mean_count=_mean(sum_others, n_others),
        )
    return PlayerStats(
        player=player,
        games=games,
        wins=wins,
        shared_wins=shared,
        mean_points=_mean(points, games),
        assisted_games=assisted_games,
        per_contract=per_contract,
        include_assisted=include_assisted,
        stand_in_games=stand_in_games,
        trend=[total for (total,) in trend],
    )


# --- the same answers from another store of the same rows ---------------------------------------


def answers_elsewhere(ask: Callable[[str], list[Any]], player: str, include_assisted: bool) -> PlayerStats:
    """``player``'s figures from another store of the index's rows: ``ask(body)`` is the rows of
    one of ``QUERIES`` run after that store's own ``g``, ``s``, ``r`` and ``MINE``, with
    ``player`` and ``include`` bound (in one read of one state, as ``_one_read`` does)."""
    return stats_of(player, include_assisted, ask(_FIGURES), ask(_PER_CONTRACT), ask(_TREND))


def history_elsewhere(games: list[dict[str, Any]], seats: list[dict[str, Any]]) -> list[HistoryEntry]:
    """The history from another store's ``games`` and ``seats`` rows (each a dict by column), each
    checked as this library's own rows are (``health``).  Raises ``ValueError`` (pydantic's) for a
    wrong row."""
    snap = Snapshot()
    for row in games:
        game = GameRow.model_validate(row)
        snap.games[game.hash] = game
    for row in seats:
        seat = SeatRow.model_validate(row)
        snap.seats.setdefault(seat.hash, []).append(seat)
    for held in snap.seats.values():
        held.sort(key=lambda s: s.seat)
    return history(snap)
