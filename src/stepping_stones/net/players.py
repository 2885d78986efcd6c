"""The players of a table server: player keys, ratings, the games each finished, and the codes that
carry a key to another device.

A person is a **player key** (``new_key``: 256 bits, made by their client on first use and kept
there; a key is made for one server, never sent to another).  The server keeps only its SHA-256
(``codes.digest``), as it does a seat's secret, so what it stores cannot sit anyone down.  A player
may hold several keys, one a device: a **transfer code** (``Transfers``) lets a device that holds a
key get a new key of the same player on another device; a code is ten characters of the invite
codes' alphabet (48 bits), good once, for ``TRANSFER_SECONDS``, one live code a player, kept in
memory only (a restart forgets them).

``PlayerStore`` is what the server needs of a store; ``SqlitePlayerStore`` keeps it in
``players.sqlite3`` in the server's data folder (its owner's only), and a PostgreSQL store is
another class with the same methods (docs/online.md).  A finished game is settled once
(``settle``, by its table's id): its players' ratings (``ratings``) move in one transaction, and
each person's list of games gains it.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from .codes import SECRET_BYTES, new_code, normal_code
from .ratings import COMPUTER_PREFIX, Skill, computer_id, fresh, rate, shown

KEY_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{43}")
"""A player key as ``new_key`` writes it: 43 characters of URL-safe base64 (256 bits)."""
TRANSFER_SECONDS: Final = 600.0
"""How long a transfer code is good for (ten minutes)."""
MAX_TRANSFERS: Final = 10_000
"""Transfer codes held at once, at most (past it, the oldest is dropped)."""
MAX_LISTED: Final = 100
"""Players on the ratings page, and games in a player's list, at most."""
PLAYERS_FILE: Final = "players.sqlite3"


def new_key() -> str:
    """A fresh player key (43 characters), made by a client on its first use of a server."""
    return secrets.token_urlsafe(SECRET_BYTES)


def key_problem(key: str) -> str | None:
    """Why ``key`` is not a player key, or None.

    >>> key_problem(new_key()) is None, key_problem("short")
    (True, 'a player key is 43 letters, digits, - and _')
    """
    return None if KEY_PATTERN.fullmatch(key) else "a player key is 43 letters, digits, - and _"


@dataclass(frozen=True)
class Sitter:
    """Who sat in one seat of a finished game: a person's key digest (None: a person without a
    key, or a computer), a computer's level, and the name at the table."""

    key: str | None
    level: str | None
    name: str


@dataclass(frozen=True)
class Finished:
    """A finished game to settle: its table's id (a game is settled once), its record's file name
    in ``games/``, when it ended, its seats, their places on the sheet, and whether it is rated
    (else it is counted apart: a computer stood in for a person, a person asked for a hint, or a
    person had no key)."""

    table: str
    record: str
    when: int
    seats: tuple[Sitter, ...]
    places: tuple[int, ...]
    rated: bool


@dataclass(frozen=True)
class Rated:
    """A player as the ratings page lists them."""

    name: str
    rating: int
    rated: int  # rated games
    apart: int  # games counted apart (a computer stood in, a hint, a person without a key)
    computer: bool


@dataclass(frozen=True)
class PlayedGame:
    """A game a player finished at this server: its record's file name, when, the seat and place,
    whether it was rated, and the rating after it."""

    record: str
    table: str
    when: int
    seat: int
    place: int
    rated: bool
    rating: int | None
    names: tuple[str, ...]

    @classmethod
    def of_row(cls, r: Sequence[Any]) -> PlayedGame:
        """From a row of (record, table, finished, seat, place, rated, rating, names), as both
        stores select it (``game_rows`` writes them)."""
        return cls(
            str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), bool(r[5]), r[6], tuple(str(r[7]).split("\n"))
        )


class PlayerStore(Protocol):
    """What the server keeps of its players (see the module's docstring).  ``key`` is always a
    key's digest, never a key."""

    def player_of(self, key: str) -> str | None:
        """The player whose key this is, or None."""
        ...

    def join(self, key: str, name: str) -> str:
        """The player of ``key``, made (named ``name``) when there is none."""
        ...

    def add_key(self, player: str, key: str) -> None:
        """``key`` is one of ``player``'s keys too (a device more)."""
        ...

    def rating(self, player: str) -> int | None:
        """The player's shown rating, or None before their first rated game."""
        ...

    def name(self, player: str) -> str | None:
        """The name the player went by at their last table, or None for no player."""
        ...

    def record(self, player: str, table: str) -> tuple[str, int] | None:
        """The record's file name of the game ``player`` finished at ``table`` and their seat in
        it, or None."""
        ...

    def settle(self, game: Finished) -> bool:
        """Rate ``game`` (or count it apart) and list it for its people, once; whether it was
        settled now (False: it was before)."""
        ...

    def top(self, limit: int) -> list[Rated]:
        """The rated players, the highest first, at most ``limit``."""
        ...

    def games(self, player: str, limit: int) -> list[PlayedGame]:
        """The games ``player`` finished here, the newest first, at most ``limit``."""
        ...

    def close(self) -> None: ...


_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,            -- a person's: 16 hex digits; a computer level's: computer-LEVEL
    name TEXT NOT NULL,             -- the name at the person's last table
    mu REAL, sigma REAL,            -- OpenSkill's rating (NULL before the first rated game)
    rated INTEGER NOT NULL DEFAULT 0,
    apart INTEGER NOT NULL DEFAULT 0,
    since INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS keys (
    digest TEXT PRIMARY KEY,        -- SHA-256 of a player key: never the key
    player TEXT NOT NULL REFERENCES players(id)
);
CREATE TABLE IF NOT EXISTS games (
    player TEXT NOT NULL REFERENCES players(id),
    tab TEXT NOT NULL,              -- the table's id
    record TEXT NOT NULL,           -- the record's file name in games/
    finished INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    place INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    rating INTEGER,                 -- the shown rating after this game (rated games)
    names TEXT NOT NULL,            -- the three names, one a line
    PRIMARY KEY (player, tab, seat)
);
CREATE INDEX IF NOT EXISTS games_by_player ON games (player, finished DESC);
CREATE TABLE IF NOT EXISTS settled (tab TEXT PRIMARY KEY);
"""


def game_rows(game: Finished, ids: list[str | None], rated: bool, after: dict[str, Skill]) -> list[tuple[Any, ...]]:
    """A settled game's rows of each person's games (not a computer's): the person, the table,
    the record, when, the seat, the place, whether rated, the rating shown after it, the names."""
    names = "\n".join(s.name for s in game.seats)
    return [
        (
            person,
            game.table,
            game.record,
            game.when,
            seat,
            place,
            int(rated),
            shown(after[person]) if rated else None,
            names,
        )
        for seat, (person, place) in enumerate(zip(ids, game.places, strict=True))
        if person is not None and not person.startswith(COMPUTER_PREFIX)
    ]


class SqlitePlayerStore:
    """``PlayerStore`` in one SQLite file (``players.sqlite3``, its owner's only), used from the
    server's loop (a key looked up at a hello) and its threads (a game settled), one call at a
    time."""

    def __init__(self, path: Path) -> None:
        from ..storage.files import private_folder

        private_folder(path.parent)
        with contextlib.suppress(FileExistsError):
            path.touch(0o600, exist_ok=False)  # made its owner's only before SQLite opens it
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def player_of(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT player FROM keys WHERE digest = ?", (key,)).fetchone()
        return str(row[0]) if row is not None else None

    def _join(self, key: str, name: str) -> str:
        row = self._db.execute("SELECT player FROM keys WHERE digest = ?", (key,)).fetchone()
        if row is not None:
            self._db.execute("UPDATE players SET name = ? WHERE id = ?", (name, row[0]))
            return str(row[0])
        player = secrets.token_hex(8)
        self._db.execute("INSERT INTO players (id, name, since) VALUES (?, ?, ?)", (player, name, int(time.time())))
        self._db.execute("INSERT INTO keys (digest, player) VALUES (?, ?)", (key, player))
        return player

    def join(self, key: str, name: str) -> str:
        with self._lock, self._transaction():
            return self._join(key, name)

    def add_key(self, player: str, key: str) -> None:
        with self._lock, self._transaction():
            self._db.execute("INSERT OR REPLACE INTO keys (digest, player) VALUES (?, ?)", (key, player))

    def rating(self, player: str) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT mu, sigma FROM players WHERE id = ?", (player,)).fetchone()
        if row is None or row[0] is None:
            return None
        return shown(Skill(row[0], row[1]))

    def name(self, player: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()
        return str(row[0]) if row is not None else None

    def record(self, player: str, table: str) -> tuple[str, int] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT record, seat FROM games WHERE player = ? AND tab = ? ORDER BY seat LIMIT 1", (player, table)
            ).fetchone()
        return (str(row[0]), int(row[1])) if row is not None else None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _skill(self, player: str) -> Skill:
        row = self._db.execute("SELECT mu, sigma FROM players WHERE id = ?", (player,)).fetchone()
        return fresh() if row is None or row[0] is None else Skill(row[0], row[1])

    def settle(self, game: Finished) -> bool:
        with self._lock, self._transaction():
            if self._db.execute("SELECT 1 FROM settled WHERE tab = ?", (game.table,)).fetchone():
                return False
            self._db.execute("INSERT INTO settled (tab) VALUES (?)", (game.table,))
            ids: list[str | None] = []
            for sitter in game.seats:
                if sitter.level is not None:
                    player = computer_id(sitter.level)
                    self._db.execute(
                        "INSERT OR IGNORE INTO players (id, name, since) VALUES (?, ?, ?)",
                        (player, f"Computer ({sitter.level})", game.when),
                    )
                    ids.append(player)
                else:
                    ids.append(self._join(sitter.key, sitter.name) if sitter.key is not None else None)
            known = [p for p in ids if p is not None]
            rated = game.rated and len(known) == len(ids)
            after: dict[str, Skill] = {}
            if rated:
                after = rate(known, {p: self._skill(p) for p in known}, game.places)
                for player, skill in after.items():
                    self._db.execute(
                        "UPDATE players SET mu = ?, sigma = ?, rated = rated + 1 WHERE id = ?",
                        (skill.mu, skill.sigma, player),
                    )
            else:
                for player in set(known):
                    self._db.execute("UPDATE players SET apart = apart + 1 WHERE id = ?", (player,))
            for row in game_rows(game, ids, rated, after):
                self._db.execute("INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            return True

    def top(self, limit: int) -> list[Rated]:
        with self._lock:
            rows = self._db.execute(  # the shown rating is mu - 3 sigma, scaled: the order is the same
                "SELECT name, mu, sigma, rated, apart, id FROM players WHERE mu IS NOT NULL "
                "ORDER BY mu - 3 * sigma DESC, name LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            Rated(str(name), shown(Skill(mu, sigma)), int(rated), int(apart), str(pid).startswith(COMPUTER_PREFIX))
            for name, mu, sigma, rated, apart, pid in rows
        ]

    def games(self, player: str, limit: int) -> list[PlayedGame]:
        with self._lock:
            rows = self._db.execute(
                "SELECT record, tab, finished, seat, place, rated, rating, names FROM games "
                "WHERE player = ? ORDER BY finished DESC, tab LIMIT ?",
                (player, limit),
            ).fetchall()
        return [PlayedGame.of_row(r) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class TransferCodes(Protocol):
    """The live transfer codes: in this process's memory (``Transfers``), or in the store that
    several processes share (``pgstore.PostgresTransfers``).  Their calls may block: the server
    makes them off its loop."""

    seconds: float

    def new(self, player: str) -> str: ...

    def use(self, typed: str) -> str | None: ...

    def close(self) -> None: ...


class Transfers:
    """The live transfer codes (see the module's docstring): ``code -> (player, expiry)``, one a
    player, in memory, by the server's clock."""

    def __init__(self, clock: Callable[[], float], seconds: float = TRANSFER_SECONDS) -> None:
        self.clock = clock
        self.seconds = seconds
        self.codes: dict[str, tuple[str, float]] = {}

    def _sweep(self) -> None:
        now = self.clock()
        for code in [c for c, (_, until) in self.codes.items() if until <= now]:
            del self.codes[code]

    def new(self, player: str) -> str:
        """A fresh code for ``player``; an earlier live code of theirs is good no more."""
        self._sweep()
        for code in [c for c, (p, _) in self.codes.items() if p == player]:
            del self.codes[code]
        while len(self.codes) >= MAX_TRANSFERS:
            del self.codes[next(iter(self.codes))]
        code = new_code()
        self.codes[code] = (player, self.clock() + self.seconds)
        return code

    def use(self, typed: str) -> str | None:
        """The player of the code ``typed`` (any case, with or without the dash), which is spent;
        None when it is no live code."""
        self._sweep()
        code = normal_code(typed)
        if code is None:
            return None
        found = self.codes.pop(code, None)
        return found[0] if found is not None else None

    def close(self) -> None:
        """Nothing to close: the codes die with the process."""
