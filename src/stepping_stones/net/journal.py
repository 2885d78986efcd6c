"""What is kept of a table, and where: its journal.

A table is kept as a journal: a snapshot (``TableFile``, one JSON line, written atomically when the
seats change) and then one short line per bid or card (``JournalMove``) appended after it, so an
action costs one small write, not a rewrite of the whole game.  ``FileTableStore`` keeps one journal
file per table, so a server that is killed resumes every table as it was (``read_table``; a torn
last line, the action in flight, is dropped).  Another backend (PostgreSQL, Redis) is another class
with the six methods of ``TableStore`` (docs/online.md).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..storage.records import MAX_BID_TEXT, GameRecord, PlayerName, RecordError, RecordRules
from ..storage.safety import FileProblem, read_small
from .protocol import CODE_LENGTH, Level

MAX_TABLE_FILE: Final = 512 * 1024
TABLE_FORMAT: Final = "stepping-stones-table/1"
_ID = re.compile(r"[0-9a-f]{16}")


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class SeatFile(_Strict):
    kind: Literal["open", "human", "computer"]
    name: PlayerName | None
    level: Level | None
    digest: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None
    stand_in: bool = False
    key: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None  # the digest of the person's player key
    assisted: bool = False  # the person asked the server for a hint or took a move back (the game is counted apart)
    # the seats this person muted (chat: ``chat.py``), kept so that a mute outlasts a reload or a restart
    muted: Annotated[list[Annotated[int, Field(ge=0, le=2)]], Field(max_length=2)] = []


class Substitution(_Strict):
    """An action a computer made for a person who did not answer: which hand, which action (as a
    record's refusal names it: ``bid 2``, ``play 14``) and whose seat."""

    hand: Annotated[int, Field(ge=1, le=64)]
    action: Annotated[str, Field(pattern=r"^(bid|play) [0-9]{1,2}$")]
    seat: Annotated[int, Field(ge=0, le=2)]


class TableFile(_Strict):
    """A table as its store keeps it: everything needed to go on after a restart.  Once the game
    is over, the same file beside its record says who was human and what the computers played
    for them (the record format has no place for it)."""

    format: Literal["stepping-stones-table/1"]
    id: Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]
    code: Annotated[str, Field(max_length=CODE_LENGTH)]
    rules: RecordRules
    level: Level
    seed: Annotated[str, Field(min_length=1, max_length=100)]
    opener: Annotated[int, Field(ge=0, le=2)] | None
    seats: Annotated[list[SeatFile], Field(min_length=3, max_length=3)]
    record: GameRecord | None
    substitutions: Annotated[list[Substitution], Field(max_length=2000)] = []
    opened: Annotated[int, Field(ge=0, le=2**40)] | None = None  # when it was opened (whole seconds since 1970)
    taken_back: Annotated[int, Field(ge=0, le=10**6)] = 0  # moves its one person took back (undo)
    watch: Annotated[str, Field(max_length=CODE_LENGTH)] | None = None  # the watch code (a new one if none)
    listed: bool = False  # in the lobby while a seat is free and it has not started
    chat_off: bool = False  # the opener turned the table's chat off (``chat.py``)


_MAX_SEQ: Final = 10**6  # ``JournalMove.seq``'s bound (``move_line`` keeps to it too)


class JournalMove(_Strict):
    """One line of a table's journal: the bid or card that ``seat`` made on state ``seq`` (a
    computer's for a person who did not answer, with ``stand_in``).  Replayed through the engine
    on top of the snapshot, in order; ``seq`` must be the table's at that point."""

    seq: Annotated[int, Field(ge=0, le=_MAX_SEQ)]
    seat: Annotated[int, Field(ge=0, le=2)]
    bid: Annotated[str, Field(max_length=MAX_BID_TEXT)] | None = None
    card: Annotated[str, Field(max_length=3)] | None = None
    stand_in: bool = False

    def line(self) -> str:
        """The move as its journal line: compact JSON without the fields at their defaults
        (``{"seq":4,"seat":1,"card":"K9"}``)."""
        return self.model_dump_json(exclude_defaults=True)


_text: Final = json.encoder.encode_basestring  # a JSON string as pydantic writes it (``ensure_ascii`` off)


def move_line(seq: int, seat: int, bid: str | None, card: str | None, stand_in: bool) -> str:
    """``JournalMove(...).line()``, byte for byte, written directly when the values are within
    the model's bounds (the server's own, a line an action), else by the model (which refuses
    them as before): validating and dumping the model cost some 6 µs a move, this about 1."""
    if (
        type(seq) is int
        and 0 <= seq <= _MAX_SEQ
        and type(seat) is int
        and 0 <= seat <= 2
        and (bid is None or (type(bid) is str and len(bid) <= MAX_BID_TEXT))
        and (card is None or (type(card) is str and len(card) <= 3))
        and type(stand_in) is bool
    ):
        line = f'{{"seq":{seq},"seat":{seat}'
        if bid is not None:
            line += f',"bid":{_text(bid)}'
        if card is not None:
            line += f',"card":{_text(card)}'
        return line + (',"stand_in":true}' if stand_in else "}")
    return JournalMove(seq=seq, seat=seat, bid=bid, card=card, stand_in=stand_in).line()


class TableStore(Protocol):
    """Where tables live between actions: a table's journal by its id, one line per entry (a
    snapshot, then moves).  ``save`` replaces the whole journal with one snapshot at once (a
    reader sees the old journal or the new one); ``append`` adds lines after it (a crash of the
    server process loses at most a torn last line, which ``load``'s reader drops); ``sync`` makes
    what was written survive a crash of the machine too (the server calls it once a second and
    when it stops); ``load`` raises ``KeyError`` for a table it does not hold."""

    def save(self, table_id: str, text: str) -> None: ...

    def append(self, table_id: str, lines: str) -> None: ...

    def load(self, table_id: str) -> str: ...

    def list(self) -> list[str]: ...

    def delete(self, table_id: str) -> None: ...

    def sync(self) -> None: ...


class FileTableStore:
    """One journal file per table, ``<folder>/<id>.jsonl``: replaced atomically by ``save``
    (``storage.files.atomic_write``), grown by ``append`` (one ``write`` to a file opened for
    appending, and kept open for the next: the busiest ``MAX_OPEN`` stay open), and flushed to the
    disk in one batch by ``sync``: a flush costs some 15 ms here, and a busy server keeps hundreds
    of actions a second."""

    MAX_OPEN = 256

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._unsynced: set[str] = set()
        self._open: OrderedDict[str, int] = OrderedDict()  # journals open for appending, oldest first
        self._lock = threading.Lock()  # ``delete`` and ``sync`` may run on another thread

    def _close(self, table_id: str) -> None:
        with self._lock:
            fd = self._open.pop(table_id, None)
            if fd is not None:
                os.close(fd)

    def _path(self, table_id: str) -> Path:
        if not _ID.fullmatch(table_id):
            raise KeyError(table_id)
        return self.folder / f"{table_id}.jsonl"

    def save(self, table_id: str, text: str) -> None:
        from ..storage.files import atomic_write

        self._close(table_id)  # the file open for appending is about to be the old one
        atomic_write(self._path(table_id), text if text.endswith("\n") else text + "\n", flush=False)
        self._unsynced.add(table_id)

    def append(self, table_id: str, lines: str) -> None:
        """Add ``lines`` (each ending in a newline) after the journal.  Raises ``OSError`` (and
        ``FileNotFoundError`` for a journal never saved)."""
        data = lines.encode("utf-8")
        with self._lock:
            fd = self._open.pop(table_id, None)
            if fd is None:
                fd = os.open(self._path(table_id), os.O_WRONLY | os.O_APPEND)
                if len(self._open) >= self.MAX_OPEN:
                    os.close(self._open.popitem(last=False)[1])
            self._open[table_id] = fd  # the most recent last
            try:
                if os.write(fd, data) != len(data):  # a disk that is full: a snapshot rewrites it all
                    raise OSError(errno.ENOSPC, "the journal was written only in part")
            except OSError:
                del self._open[table_id]
                os.close(fd)
                raise
        self._unsynced.add(table_id)

    def sync(self) -> None:
        from ..storage.files import fsync_folder

        ids, self._unsynced = self._unsynced, set()
        for table_id in ids:
            try:
                fd = os.open(self._path(table_id), os.O_RDONLY)
            except OSError:
                continue  # deleted since
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        if ids:
            fsync_folder(self.folder)

    def load(self, table_id: str) -> str:
        try:
            return read_small(self._path(table_id), MAX_TABLE_FILE).decode("utf-8")
        except (FileProblem, UnicodeDecodeError) as exc:
            raise KeyError(table_id) from exc

    def list(self) -> list[str]:
        try:
            names = sorted(os.listdir(self.folder))
        except FileNotFoundError:
            return []
        return [n[:-6] for n in names if n.endswith(".jsonl") and _ID.fullmatch(n[:-6])]

    def delete(self, table_id: str) -> None:
        self._close(table_id)
        with contextlib.suppress(FileNotFoundError):
            self._path(table_id).unlink()


def read_table(text: str) -> tuple[TableFile, tuple[JournalMove, ...]]:
    """A table's journal, checked: its snapshot and the moves after it.  A last line without its
    newline is a write that a crash cut short (the action in flight) and is dropped.  Raises
    ``RecordError`` with one line."""
    from ..storage.records import load_json

    lines = text.split("\n")
    lines.pop()  # "" after the last newline, or a torn last line
    if not lines:
        raise RecordError("table file: it is empty")
    data = load_json(lines[0])
    try:
        snapshot = TableFile.model_validate(data, strict=True)
        moves = tuple(JournalMove.model_validate(load_json(line), strict=True) for line in lines[1:])
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RecordError(f"table file: {'.'.join(str(p) for p in err['loc'])}: {err['msg']}") from None
    for move in moves:
        if (move.bid is None) == (move.card is None):
            raise RecordError("table file: a move is a bid or a card")
    return snapshot, moves
