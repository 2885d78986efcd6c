"""What the database holds, checked.

SQLite checks that a file is a database, not that what the tables hold is what this program
wrote: a row can hold text where a number belongs, rules that are not JSON, a contract set that
does not exist.  Every row read is checked against these models (strict: no coercion), and across
rows (``Snapshot.check``: three seats per game, one result per seat and contract, every game held
by a file); a wrong one is said in one line, and its game's rows are dropped (``drop_wrong``) so
that the library indexes it again from its record.

May import: ``database`` of the library package (nothing above it); storage's ``records``,
``sidecar`` and ``safety``; the engine's public face.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

from ...engine import CONTRACTS, NUM_SEATS, Rules
from ..records import MAX_RECORD_BYTES, PlayerName, RecordRules, SeatNumber, quote
from ..safety import escape
from ..sidecar import SIDECAR_LIMIT

_HASH = r"^[0-9a-f]{64}$"
_FILE_NAME = r"^[^./\x00][^/\x00]{0,250}[.]json$"  # a plain name in games/, as _record_files finds them
_PLAYED = r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$"
_MAX_RULES_TEXT = 200  # {"contract_set": "advanced", "short_game": true, "omit": "lose-pick-trump", ...}
_MAX_TRICKS = 36 // NUM_SEATS  # a count on the sheet is a number of tricks of one hand
_MAX_SIDECAR_TEXT = SIDECAR_LIMIT  # a seed or a level came from a sidecar, which is at most this long


def _rules_of(value: object) -> Rules:
    """The rules column: the record's rules object as JSON, options that make a game."""
    if not isinstance(value, str) or len(value) > _MAX_RULES_TEXT:
        raise ValueError(f"not the JSON of a rules object ({quote(value)})")
    try:
        return RecordRules.model_validate_json(value).to_rules()
    except ValidationError as exc:
        raise ValueError(_first_error(exc)) from None


Hash = Annotated[str, Field(pattern=_HASH)]
FileName = Annotated[str, Field(pattern=_FILE_NAME)]
Flag = Literal[0, 1]
SidecarText = Annotated[str, Field(max_length=_MAX_SIDECAR_TEXT)]


class _Row(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, arbitrary_types_allowed=True)


class FileRow(_Row):
    name: FileName
    size: Annotated[int, Field(ge=0, le=MAX_RECORD_BYTES * 64)]
    mtime_ns: int
    hash: Hash | None
    problem: Annotated[str, Field(max_length=1000)] | None


class GameRow(_Row):
    hash: Hash
    file: FileName
    played: Annotated[str, Field(pattern=_PLAYED)]
    rules: Annotated[Rules, PlainValidator(_rules_of)]
    complete: Flag
    hands: Annotated[int, Field(ge=0, le=1000)]
    assisted: Flag
    seed: SidecarText | None


class SeatRow(_Row):
    hash: Hash
    seat: SeatNumber
    name: PlayerName
    level: SidecarText | None
    total: Annotated[int, Field(ge=-10_000, le=10_000)]
    firsts: Annotated[int, Field(ge=0, le=100)]
    winner: Flag
    stood_in: Annotated[str, Field(pattern=r"^[1-9][0-9]?( [1-9][0-9]?){0,63}$")] | None  # hands a computer played


class ResultRow(_Row):
    hash: Hash
    seat: SeatNumber
    contract: Literal[tuple(CONTRACTS)]  # type: ignore[valid-type]
    count: Annotated[int, Field(ge=0, le=_MAX_TRICKS)] | None
    points: Annotated[int, Field(ge=-1000, le=1000)] | None
    first: Flag | None


_TABLES: Final[tuple[tuple[str, type[_Row]], ...]] = (
    ("files", FileRow),
    ("games", GameRow),
    ("seats", SeatRow),
    ("results", ResultRow),
)


def _first_error(exc: ValidationError) -> str:
    """The first thing wrong, in one short line: the column, what is wrong, the value."""
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(x) for x in err["loc"])
    if err["type"] == "string_pattern_mismatch":
        msg = f"not in the form this program writes ({quote(err['input'])})"
    elif err["type"] == "value_error":
        msg = str(err["msg"]).removeprefix("Value error, ")
    else:
        msg = f"{err['msg']} ({quote(err['input'])})"
    return f"{where}: {msg}" if where else msg


@dataclass
class Snapshot:
    """Every row of the library, checked: the rows that are right, and what is wrong."""

    files: list[FileRow] = field(default_factory=list)
    games: dict[str, GameRow] = field(default_factory=dict)
    seats: dict[str, list[SeatRow]] = field(default_factory=dict)  # by game, in seat order
    results: dict[str, list[ResultRow]] = field(default_factory=dict)  # by game
    bad_rows: dict[str, list[int]] = field(default_factory=dict)  # table: rowids of wrong rows
    bad_games: set[str] = field(default_factory=set)  # games whose rows are wrong, to index again
    bad_files: set[str] = field(default_factory=set)  # records to read again (the files of those games)
    problems: list[str] = field(default_factory=list)  # the first few, one line each
    count: int = 0  # how many things are wrong

    @property
    def sound(self) -> bool:
        return self.count == 0

    def wrong(self, table: str, rowid: int | None, digest: object, why: str, file: object = None) -> None:
        self.count += 1
        if rowid is not None:
            self.bad_rows.setdefault(table, []).append(rowid)
        if isinstance(digest, str):
            self.bad_games.add(digest)
        if isinstance(file, str):
            self.bad_files.add(file)
        if len(self.problems) < 3:
            self.problems.append(f"{table} {escape(why)}")

    def left_out(self) -> dict[str, str]:
        """What answers read with SQL leave out, as the JSON arrays ``stats.SHOWN`` takes: the
        games found wrong, and the rowids of wrong rows (those that could not be put right)."""
        return {
            "wrong_hashes": json.dumps(sorted(self.bad_games)),
            **{
                f"wrong_{table}": json.dumps(sorted(self.bad_rows.get(table, [])))
                for table in ("games", "seats", "results")
            },
        }

    def check(self) -> None:
        """What no single row shows: every game has its three seats and its sheet, every seat and
        result belongs to a game, every game is held by a file and every file's game is there."""
        held = {f.hash for f in self.files if f.hash is not None}
        known_bad = set(self.bad_games)  # a game already found wrong is not counted again
        for digest, game in self.games.items():
            if digest in known_bad:
                continue
            seats = [s.seat for s in self.seats.get(digest, [])]
            cells = sorted((r.seat, r.contract) for r in self.results.get(digest, []))
            expected = sorted((seat, c.id) for seat in range(NUM_SEATS) for c in game.rules.contracts)
            if seats != list(range(NUM_SEATS)):
                self.wrong(
                    "seats",
                    None,
                    digest,
                    f"of {game.file}: seats {seats}, not one row for each of {NUM_SEATS}",
                    game.file,
                )
            elif cells != expected:
                self.wrong(
                    "results", None, digest, f"of {game.file}: not one row for each seat and contract", game.file
                )
            elif digest not in held:
                self.wrong("games", None, digest, f"{game.file}: no file in games/ holds it", game.file)
        for table, rows in (("seats", self.seats), ("results", self.results)):
            for digest in rows:
                if digest not in self.games and digest not in known_bad:
                    self.wrong(table, None, digest, f"of a game that is not in the library ({digest[:12]})")
        for f in self.files:
            if f.hash is not None and f.hash not in self.games and f.hash not in known_bad:
                self.wrong("files", None, None, f"{f.name}: its game is not in the library")


def read_tables(conn: sqlite3.Connection) -> Snapshot:
    """Every row of the four tables, checked, in one read transaction (one state of the file)."""
    snap = Snapshot()
    conn.execute("BEGIN")
    try:
        for table, model in _TABLES:
            columns = list(model.model_fields)
            for rowid, *values in conn.execute(f"SELECT rowid, {', '.join(columns)} FROM {table}"):
                try:
                    row = model.model_validate(dict(zip(columns, values, strict=True)))
                except ValidationError as exc:
                    label = next((v for v in values[:2] if isinstance(v, str) and v.endswith(".json")), None)
                    where = f"row {rowid}" + (f" ({label[:80]})" if label else "")
                    snap.wrong(
                        table,
                        rowid,
                        values[0] if table != "files" else None,
                        f"{where}: {_first_error(exc)}",
                        values[1] if table == "games" else None,
                    )
                    continue
                if isinstance(row, FileRow):
                    snap.files.append(row)
                elif isinstance(row, GameRow):
                    snap.games[row.hash] = row
                elif isinstance(row, SeatRow):
                    snap.seats.setdefault(row.hash, []).append(row)
                elif isinstance(row, ResultRow):
                    snap.results.setdefault(row.hash, []).append(row)
    finally:
        conn.execute("COMMIT")
    for seats in snap.seats.values():
        seats.sort(key=lambda s: s.seat)
    snap.check()
    for digest in snap.bad_games:  # what is left of a wrong game is not shown
        snap.games.pop(digest, None)
        snap.seats.pop(digest, None)
        snap.results.pop(digest, None)
    return snap


def drop_wrong(conn: sqlite3.Connection, snap: Snapshot) -> None:
    """Inside a write transaction: drop the wrong rows and every row of their games, and the files
    rows of their records, so that indexing the folder again reads those records anew."""
    for table, rowids in snap.bad_rows.items():
        conn.executemany(f"DELETE FROM {table} WHERE rowid = ?", [(r,) for r in rowids])
    for digest in snap.bad_games:
        for table in ("results", "seats", "games", "files"):  # files: its record is read again
            conn.execute(f"DELETE FROM {table} WHERE hash = ?", (digest,))
    conn.executemany("DELETE FROM files WHERE name = ?", [(name,) for name in snap.bad_files])
    # a file whose game is not there is read again; rows of no game go
    conn.execute("DELETE FROM files WHERE hash IS NOT NULL AND hash NOT IN (SELECT hash FROM games)")
    for table in ("seats", "results"):
        conn.execute(f"DELETE FROM {table} WHERE hash NOT IN (SELECT hash FROM games)")


def put_right_line(before: Snapshot, after: Snapshot) -> str:
    """The one line that says what was wrong (``before``) and whether indexing again put it right."""
    n = before.count
    line = f"The game library had {n} wrong {'entry' if n == 1 else 'entries'} ({'; '.join(before.problems[:1])}); "
    if after.sound:
        line += (
            "its game was indexed again from its record in games/."
            if n == 1
            else "their games were indexed again from their records in games/."
        )
    else:
        line += f"{after.count} could not be put right and are left out ({'; '.join(after.problems[:1])})."
    return _one_line(line)


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
