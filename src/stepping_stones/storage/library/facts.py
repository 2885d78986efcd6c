"""What a record says, as the library keeps it: the game's identity (the SHA-256 of its record as
this program writes it), its facts (seats, sheet, points, winners), its sidecar, when it was
played, and text and times in the forms SQLite keeps.

May import: storage's ``records``, ``sidecar`` and ``safety``, and the engine's public face;
nothing else of the library package.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from ...engine import CONTRACTS, NUM_SEATS, Game, Rules, score_results
from ..records import (
    MAX_RECORD_BYTES,
    RecordError,
    game_from_record,
    load_json,
    parse_record,
    record_from_game,
    record_json,
)
from ..safety import FileProblem, read_small
from ..sidecar import SIDECAR_LIMIT, SessionInfo, sidecar_of

_STAMP = re.compile(r"(\d{8})-(\d{6})")


@dataclass(frozen=True)
class GameFacts:
    """One game as the library keeps it."""

    hash: str
    rules: Rules
    players: tuple[str, ...]
    complete: bool
    hands: int
    totals: list[int]
    firsts: list[int]
    winners: list[int]
    sheet: dict[str, list[int | None]]
    points: dict[str, list[int] | None]
    contract_firsts: dict[str, list[bool] | None]


def content_hash(game: Game) -> str:
    """The game's identity: the SHA-256 of its record as this program writes it."""
    return hashlib.sha256(record_json(record_from_game(game)).encode("utf-8")).hexdigest()


def facts_of(game: Game) -> GameFacts:
    sheet = {cid: list(row) for cid, row in game.sheet.items()}
    points = {cid: game.points(cid) for cid in sheet}
    firsts: dict[str, list[bool] | None] = {}
    for cid, row in sheet.items():
        results = [r for r in row if r is not None]
        firsts[cid] = score_results(results, CONTRACTS[cid].goal)[1] if len(results) == NUM_SEATS else None
    return GameFacts(
        hash=content_hash(game),
        rules=game.rules,
        players=tuple(game.players),
        complete=game.over,
        hands=len(game.log),
        totals=game.totals(),
        firsts=game.firsts(),
        winners=game.winners(),
        sheet=sheet,
        points=points,
        contract_firsts=firsts,
    )


def read_game(path: Path, written: tuple[bytes, Game] | None = None) -> tuple[bytes, Game]:
    """The bytes of a record file and the game they replay to.  ``written``: the record that was
    just written there and the game it was written from (a table server files each game it
    finished), which stands for the replay when the file holds those very bytes.  Raises
    ``RecordError``."""
    try:
        data = read_small(path, MAX_RECORD_BYTES)
    except FileProblem as exc:
        raise RecordError(exc.reason) from None
    if written is not None and data == written[0]:
        return data, written[1]
    return data, game_from_record(parse_record(data))


def read_sidecar(record: Path) -> SessionInfo | None:
    """The app's sidecar beside a record (seed, levels, assisted), or None if there is none usable."""
    try:
        return SessionInfo.model_validate(load_json(read_small(sidecar_of(record), SIDECAR_LIMIT)))
    except (FileProblem, RecordError, ValidationError):
        return None


def played_at(path: Path, modified_ns: int) -> str:
    """When a game was played: the stamp in its file name (``game-20260101-120000.json``, as the
    app files them), else the file's modification time."""
    when = None
    m = _STAMP.search(path.name)
    if m:
        try:
            when = datetime.strptime(m[1] + m[2], "%Y%m%d%H%M%S")
        except ValueError:
            pass
    if when is None:
        try:
            when = datetime.fromtimestamp(modified_ns / 1e9)
        except (OverflowError, OSError, ValueError):  # a time no calendar here holds
            when = datetime.fromtimestamp(0)
    # spelled out: strftime's %Y does not always write four digits (the year 1 is "1")
    return f"{when.year:04d}-{when.month:02d}-{when.day:02d} {when.hour:02d}:{when.minute:02d}:{when.second:02d}"


def mtime_ns(st: os.stat_result) -> int:
    """A file's modification time as SQLite can keep it (a 64-bit integer)."""
    return max(-(2**63), min(st.st_mtime_ns, 2**63 - 1))


def storable(text: str) -> str:
    """Text SQLite can keep: UTF-8, so a lone surrogate (from a JSON escape) is written out."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text
