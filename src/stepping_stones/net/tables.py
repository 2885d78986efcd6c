"""The authoritative tables of a server, and where they are kept between actions.

``Table`` is one table, and pure logic (no network, no asyncio): the seats (open, a person, a
computer), the invite code, each person's seat secret (only its SHA-256 is kept), the engine's
``Game``, and the computers that stand in for a person who does not answer.  Every action goes
through the engine; a refusal is a ``TableError`` with one line and changes nothing.  The clock is
injected, so a test can pass the two minutes of a stand-in's timeout in no time.

``Tables`` holds every table of a server: it lets the computers think (in a thread), keeps each
table after every change through a ``TableStore`` before anyone hears of it, tells every connected
seat its new state, hands an overdue seat to a computer (``sweep``), and files each finished game
in the record format into the server's game library.  A table is kept as a journal: a snapshot
(``TableFile``, one JSON line, written atomically when the seats change) and then one short line
per bid or card (``Move``) appended after it, so an action costs one small write, not a rewrite
of the whole game.  ``FileTableStore`` keeps one journal file per table, so a server that is
killed resumes every table as it was (``Tables.resume``; a torn last line, the action in flight,
is dropped).  Another backend (PostgreSQL, Redis) is another class with the six methods of
``TableStore`` (docs/online.md).

Seat secrets are compared in constant time and never logged, stored or sent to another seat; the
invite code is only good for a seat that is still open.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..ai import Action, Agent, make_ai
from ..engine import (
    CARD_NAMES,
    NUM_SEATS,
    CardSyntaxError,
    Declaration,
    Game,
    IllegalActionError,
    Pass,
    Phase,
    SteppingStonesError,
    parse_bid,
    parse_card,
)
from ..game.match import Match, Request, Seeds
from ..storage.records import (
    MAX_BID_TEXT,
    GameRecord,
    PlayerName,
    RecordError,
    RecordRules,
    game_from_record,
    record_from_game,
    record_json,
)
from ..storage.safety import FileProblem, escape, read_small
from .limits import DEFAULT_EXPIRY, DEFAULT_TIMEOUT
from .protocol import (
    CODE_LENGTH,
    Error,
    ErrorCode,
    Level,
    NewTable,
    SeatFacts,
    State,
    StateParts,
    StateWriter,
    ViewWriter,
    Waiting,
    Welcome,
    delta_text,
    dump,
    full_text,
    legal_actions,
    view_to_json,
)

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTWXYZ23456789"
"""Invite codes are written with these 29 characters: no 0/O, 1/I/L or U/V to confuse."""
CODE_CHARS: Final = 10
"""Ten characters of 29: 48 bits, so guessing a live code takes some 10^14 tries."""
SECRET_BYTES: Final = 32  # a seat secret: 256 bits from the system's generator
STAND_IN_LEVEL: Final = "heuristic"
COMPUTER_NAMES: Final = ("Hana", "Kenji", "Aiko", "Ren", "Mika", "Sora")
MAX_TABLE_FILE: Final = 512 * 1024
TABLE_FORMAT: Final = "stepping-stones-table/1"
_ID = re.compile(r"[0-9a-f]{16}")


_dumps: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

Clock = Callable[[], float]


def new_code() -> str:
    """A fresh invite code, e.g. ``K7QX2-MRB9T``."""
    text = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_CHARS))
    return f"{text[:5]}-{text[5:]}"


def normal_code(text: str) -> str | None:
    """A code as typed (any case, spaces or dashes anywhere) in its written form, or None when it
    cannot be one."""
    letters = "".join(ch for ch in text.upper() if ch not in " -")
    if len(letters) != CODE_CHARS or any(ch not in CODE_ALPHABET for ch in letters):
        return None
    return f"{letters[:5]}-{letters[5:]}"


def digest(secret: str) -> str:
    """What the server keeps of a seat secret: its SHA-256, never the secret."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


class TableError(Exception):
    """A refusal: ``code`` for programs (``protocol.Error.code``), the text for people, one line."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code: ErrorCode = code
        super().__init__(message)

    def reply(self) -> Error:
        return Error(code=self.code, message=escape(str(self))[:300])


# --- what is kept of a table ------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class SeatFile(_Strict):
    kind: Literal["open", "human", "computer"]
    name: PlayerName | None
    level: Level | None
    digest: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None
    stand_in: bool = False


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


class Move(_Strict):
    """One line of a table's journal: the bid or card that ``seat`` made on state ``seq`` (a
    computer's for a person who did not answer, with ``stand_in``).  Replayed through the engine
    on top of the snapshot, in order; ``seq`` must be the table's at that point."""

    seq: Annotated[int, Field(ge=0, le=10**6)]
    seat: Annotated[int, Field(ge=0, le=2)]
    bid: Annotated[str, Field(max_length=MAX_BID_TEXT)] | None = None
    card: Annotated[str, Field(max_length=3)] | None = None
    stand_in: bool = False


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


# --- one table ------------------------------------------------------------------------------------


@dataclass
class Seat:
    kind: Literal["open", "human", "computer"]
    name: str | None = None
    level: Level | None = None
    digest: str | None = None
    stand_in: bool = False  # a computer plays for this person now
    connected: bool = False  # the person's client is connected (not kept on disk)

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or self.stand_in


@dataclass
class Table:
    """One table; see the module's docstring."""

    id: str
    code: str
    rules: RecordRules
    level: Level
    seed: str
    seats: list[Seat]
    clock: Clock = time.monotonic
    timeout: float = DEFAULT_TIMEOUT
    opener: int | None = None
    game: Game | None = None
    substitutions: list[Substitution] = field(default_factory=list)
    waiting_since: float = 0.0
    thinking: bool = False  # a computer is deciding for the seat to act
    filed: bool = False  # the finished game is in the library
    opened: float = 0.0  # when the table was opened, by the wall clock (seconds since 1970)
    resave: bool = True  # the seats changed since the last snapshot: the next keep is a snapshot
    unsaved: list[str] = field(default_factory=list)  # journal lines (moves) not yet kept
    writer: ViewWriter = field(default_factory=ViewWriter)  # the views' JSON, finished hands once
    state_writer: StateWriter = field(default_factory=StateWriter)  # the states' JSON around them
    record_text: str | None = None  # the finished game's record as JSON, once it is over
    _finished_seq: tuple[int, int] = (-1, 0)  # (hands, their deals, bids and cards) for ``seq``
    _facts_text: tuple[tuple[object, ...], str] | None = None  # the seats' facts as JSON, by what they say
    _waiting_texts: dict[tuple[object, ...], str] = field(default_factory=dict)  # ``waiting`` as JSON, by what it says

    @classmethod
    def new(cls, request: NewTable, clock: Clock = time.monotonic, timeout: float = DEFAULT_TIMEOUT,
            opened: float = 0.0) -> Table:
        taken = {n for n in request.names if n is not None}
        pool = iter(n for n in COMPUTER_NAMES if n not in taken)
        seats = []
        for kind, name in zip(request.seats, request.names, strict=True):
            if kind == "open":
                seats.append(Seat("open"))
            else:
                seats.append(Seat("computer", name or next(pool), kind))
        return cls(id=secrets.token_hex(8), code=new_code(), rules=request.rules, level=request.level,
                   seed=request.seed or secrets.token_hex(8), seats=seats, clock=clock, timeout=timeout,
                   opened=opened)

    # --- facts ---------------------------------------------------------------------------------

    @property
    def seeds(self) -> Seeds:
        return Seeds(self.seed)

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    @property
    def seq(self) -> int:
        """The number of the table's state: how many deals, bids and cards it has seen.  It is
        derived from the game, so it is the same after a restart."""
        game = self.game
        if game is None:
            return 0
        log = game.log
        done, count = self._finished_seq
        if done != len(log) - 1:  # the hands before the last one, counted once
            done, count = len(log) - 1, sum(1 + len(h.bids) + len(h.plays) for h in log[:-1])
            self._finished_seq = (done, count)
        last = log[-1] if log else None
        return count + (1 + len(last.bids) + len(last.plays) if last is not None else 0)

    @property
    def humans(self) -> int:
        return sum(1 for s in self.seats if s.kind == "human")

    def facts(self) -> list[SeatFacts]:
        return [SeatFacts(name=s.name, kind=s.kind,
                          level=s.level if s.kind == "computer" else (STAND_IN_LEVEL if s.stand_in else None),
                          connected=s.connected or s.kind == "computer", stand_in=s.stand_in)
                for s in self.seats]

    def waiting(self) -> Waiting | None:
        game = self.game
        if game is None or game.to_act is None:
            return None
        seat = self.seats[game.to_act]
        return Waiting(seat=game.to_act, name=game.players[game.to_act],
                       connected=seat.connected or seat.kind == "computer", computer=seat.computer_plays)

    def _facts(self) -> list[dict[str, object]]:
        return [{"name": s.name, "kind": s.kind,
                 "level": s.level if s.kind == "computer" else (STAND_IN_LEVEL if s.stand_in else None),
                 "connected": s.connected or s.kind == "computer", "stand_in": s.stand_in}
                for s in self.seats]

    def _facts_json(self) -> str:
        key = tuple((s.kind, s.name, s.level, s.connected, s.stand_in) for s in self.seats)
        if self._facts_text is None or self._facts_text[0] != key:
            self._facts_text = (key, _dumps(self._facts()))
        return self._facts_text[1]

    def _waiting_json(self) -> str | None:
        """``waiting()``'s JSON (None for nobody), written again only when it says something else."""
        game = self.game
        to_act = game.to_act if game is not None else None
        if game is None or to_act is None:
            return None
        seat = self.seats[to_act]
        key = (to_act, game.players[to_act], seat.connected or seat.kind == "computer", seat.computer_plays)
        text = self._waiting_texts.get(key)
        if text is None:
            if len(self._waiting_texts) >= 4 * NUM_SEATS:  # a name changed: only at a start, but let it be
                self._waiting_texts.clear()
            text = self._waiting_texts[key] = _dumps({"seat": key[0], "name": key[1], "connected": key[2],
                                                      "computer": key[3]})
        return text

    def states(self, seats: list[int]) -> list[str]:
        """What each of ``seats`` may see now, as the protocol sends it whole (version 1):
        ``state_for(seat).dump()``, byte for byte, written without the models."""
        return [full_text(parts) for parts in self.parts(seats)]

    def parts(self, seats: list[int]) -> list[StateParts]:
        """What each of ``seats`` may see now, as the JSON of each field of its state and view
        (``protocol.full_text`` writes it whole, ``protocol.delta_text`` what changed): the parts
        every seat sees alike are written once, from one seat's view, and each seat's own from
        what of its view is its own (``Game.own``)."""
        if not seats:
            return []
        game = self.game
        seq, facts, people = self.seq, self._facts_json(), self.humans <= 1
        waiting_text = self._waiting_json()
        if game is None:
            return self.state_writer.parts(seq=seq, started=False, seats=facts, help=people, waiting=waiting_text,
                                           record=None, count=len(seats))
        if game.over and self.record_text is None:
            self.record_text = record_from_game(game).model_dump_json()
        record = self.record_text if game.over else None
        views = self.writer.seat_fields(game.view(seats[0]), [(seat, game.own(seat)) for seat in seats])
        return self.state_writer.parts(seq=seq, started=True, seats=facts, help=people, waiting=waiting_text,
                                       record=record, views=views)

    def state_for(self, seat: int) -> State:
        """What ``seat`` may see now: the table's facts and its own view of the game."""
        game = self.game
        view = game.view(seat) if game is not None else None
        return State(
            seq=self.seq, started=game is not None, seats=self.facts(), help=self.humans <= 1,
            view=view_to_json(view) if view is not None else None,
            legal=legal_actions(view) if view is not None else [], waiting=self.waiting(),
            record=record_from_game(game) if game is not None and game.over else None,
        )

    def welcome(self, seat: int, secret: str | None, version: int = 1) -> Welcome:
        name = self.seats[seat].name
        assert name is not None
        return Welcome(version=version, table=self.id, code=self.code, seat=seat, name=name, secret=secret,
                       opener=self.opener == seat and not self.started, timeout=self.timeout)

    # --- seats ---------------------------------------------------------------------------------

    def _free_name(self, wanted: str) -> str:
        names = {s.name.casefold() for s in self.seats if s.name is not None}
        if wanted.casefold() not in names:
            return wanted
        for n in range(2, 10):
            candidate = f"{wanted[:37]} {n}"
            if candidate.casefold() not in names:
                return candidate
        raise TableError("name-taken", "that name is taken at this table: choose another")

    def claim(self, name: str) -> tuple[int, str]:
        """Take the first open seat for the person called ``name``: the seat and its secret (given
        out this once).  The first person to sit is the table's opener.  With every seat taken the
        table starts."""
        if self.started:
            raise TableError("table-full", "this table has started: every seat is taken")
        seat = next((i for i, s in enumerate(self.seats) if s.kind == "open"), None)
        if seat is None:
            raise TableError("table-full", "every seat at this table is taken")
        secret = secrets.token_urlsafe(SECRET_BYTES)
        self.seats[seat] = Seat("human", self._free_name(name), None, digest(secret))
        self.resave = True
        if self.opener is None:
            self.opener = seat
        if all(s.kind != "open" for s in self.seats):
            self.start(None)
        return seat, secret

    def seat_of(self, secret: str) -> int | None:
        """The seat whose secret this is, or None.  Every seat's digest is compared, in constant
        time, whatever matches."""
        given = digest(secret)
        found = None
        for i, s in enumerate(self.seats):
            if s.digest is not None and hmac.compare_digest(given, s.digest):
                found = i
        return found

    def start(self, by: int | None) -> None:
        """Start the game: ``by`` the opener, or (``None``) because every seat is taken.  Seats still
        open get the table's computer level."""
        if self.started:
            raise TableError("started", "the table has already started")
        if by is not None and by != self.opener:
            raise TableError("not-opener", "only the person who opened the table can start it early")
        taken = {s.name for s in self.seats if s.name is not None}
        pool = iter(n for n in COMPUTER_NAMES if n not in taken)
        for i, s in enumerate(self.seats):
            if s.kind == "open":
                self.seats[i] = Seat("computer", next(pool), self.level)
        names = [s.name or "" for s in self.seats]
        self.game = Game(self.rules.to_rules(), names, self.seeds.first_forehand())
        self.resave = True
        self._advance()

    def come_back(self, seat: int) -> None:
        """The person of ``seat`` is back: no computer plays for them any more, and the table's
        wait for them starts again."""
        if self.seats[seat].stand_in:
            self.seats[seat].stand_in = False
            self.resave = True
            self.waiting_since = self.clock()

    def stand_in(self, seat: int) -> None:
        """A computer plays for the person of ``seat`` until they come back."""
        self.seats[seat].stand_in = True
        self.resave = True

    # --- the game -------------------------------------------------------------------------------

    def _agents(self) -> list[Agent | None]:
        return [make_ai(s.level or STAND_IN_LEVEL) if s.computer_plays else None for s in self.seats]

    def _advance(self) -> None:
        """Deal every hand that is due, and start the wait for the seat to act."""
        game = self.game
        assert game is not None
        while game.phase is Phase.DEAL:
            Match(game, [None] * NUM_SEATS, self.seeds).deal()
        self.waiting_since = self.clock()

    def act(self, seat: int, seq: int, action: Action) -> None:
        """``seat``'s bid or card, made on the state ``seq``.  Raises ``TableError``."""
        game = self.game
        if game is None:
            raise TableError("not-started", "the table has not started yet")
        if game.over:
            raise TableError("over", "the game is over")
        if seq != self.seq:
            raise TableError("stale", f"that action was made on state {seq}; the table is at state {self.seq}")
        if game.to_act != seat:
            who = game.players[game.to_act] if game.to_act is not None else "nobody"
            raise TableError("not-your-turn", f"it is {who}'s turn, not yours")
        is_bid = isinstance(action, Pass | Declaration)
        if game.phase is Phase.BIDDING and not is_bid:
            raise TableError("illegal", "it is the bidding: bid, or pass")
        if game.phase is Phase.PLAY and is_bid:
            raise TableError("illegal", "the bidding is over: play a card")
        before = self.seq
        try:
            Match(game, [None] * NUM_SEATS, self.seeds).apply(action)
        except IllegalActionError as exc:
            raise TableError("illegal", str(exc)) from None
        except SteppingStonesError as exc:
            raise TableError("illegal", str(exc)) from None
        self._journal(before, seat, action, stand_in=False)
        self._advance()

    def _journal(self, seq: int, seat: int, action: Action, stand_in: bool) -> None:
        """Note the move just made for the journal (``keep``)."""
        what = f'"bid":"{action}"' if isinstance(action, Pass | Declaration) else f'"card":"{CARD_NAMES[action]}"'
        more = ',"stand_in":true' if stand_in else ""
        self.unsaved.append(f'{{"seq":{seq},"seat":{seat},{what}{more}}}')

    def computer_request(self) -> Request | None:
        """What a computer needs to decide for the seat to act, when a computer plays it."""
        game = self.game
        if game is None or game.over or game.to_act is None or self.thinking:
            return None
        if not self.seats[game.to_act].computer_plays:
            return None
        return Match(game, self._agents(), self.seeds).request()

    def answer(self, request: Request, action: Action) -> bool:
        """Make a computer's answer to ``request``, if the table is still where it asked and a
        computer still plays that seat.  Whether it was made."""
        game = self.game
        assert game is not None and game.hand is not None
        if game.to_act != request.seat or not self.seats[request.seat].computer_plays:
            return False
        hand = game.hand
        before = self.seq
        bidding = game.phase is Phase.BIDDING
        made = len(hand.bids) if bidding else len(hand.plays)
        Match(game, self._agents(), self.seeds, strict=False).answer(request, action)
        # what was made: the answer, or the first legal action in place of one the rules refuse
        made_action: Action = hand.bids[made] if bidding else hand.plays[made]
        stand_in = self.seats[request.seat].kind == "human"
        if stand_in:
            self._substituted(bidding, made, request.seat)
        self._journal(before, request.seat, made_action, stand_in)
        self._advance()
        return True

    def _substituted(self, bidding: bool, made: int, seat: int) -> None:
        assert self.game is not None
        where = f"bid {made + 1}" if bidding else f"play {made + 1}"
        self.substitutions.append(Substitution(hand=len(self.game.log), action=where, seat=seat))

    def overdue(self) -> int | None:
        """The person's seat the table has waited on for longer than its timeout, if any."""
        game = self.game
        if game is None or game.over or game.to_act is None:
            return None
        seat = self.seats[game.to_act]
        if seat.kind != "human" or seat.stand_in:
            return None
        return game.to_act if self.clock() - self.waiting_since >= self.timeout else None

    # --- keeping --------------------------------------------------------------------------------

    def keep(self) -> tuple[Literal["save", "append"], str]:
        """What to write to the table's journal now: a whole snapshot (``save``) when the seats
        changed since the last one, else the moves made since (``append``, possibly none)."""
        if self.resave:
            self.resave = False
            self.unsaved.clear()
            return "save", self.to_file().model_dump_json() + "\n"
        lines = "".join(line + "\n" for line in self.unsaved)
        self.unsaved.clear()
        return "append", lines

    def to_file(self) -> TableFile:
        return TableFile(
            format=TABLE_FORMAT, id=self.id, code=self.code, rules=self.rules, level=self.level, seed=self.seed,
            opener=self.opener,
            seats=[SeatFile(kind=s.kind, name=s.name, level=s.level, digest=s.digest, stand_in=s.stand_in)
                   for s in self.seats],
            record=record_from_game(self.game) if self.game is not None else None,
            substitutions=list(self.substitutions), opened=int(self.opened),
        )

    @classmethod
    def from_file(cls, data: TableFile, clock: Clock = time.monotonic, timeout: float = DEFAULT_TIMEOUT,
                  moves: tuple[Move, ...] = (), now: float = 0.0) -> Table:
        """The table a snapshot holds, every action of its game replayed through the engine, then
        the ``moves`` of its journal after it (a table of a file that does not say when it was opened
        counts as opened ``now``).  Raises ``RecordError`` for a game the rules refuse or a move
        that does not follow."""
        game = game_from_record(data.record) if data.record is not None else None
        seats = [Seat(s.kind, s.name, s.level, s.digest, s.stand_in) for s in data.seats]
        if game is not None and list(game.players) != [s.name for s in seats]:
            raise RecordError("the table's seats and its game name different players")
        table = cls(id=data.id, code=data.code, rules=data.rules, level=data.level, seed=data.seed, seats=seats,
                    clock=clock, timeout=timeout, opener=data.opener, game=game,
                    substitutions=list(data.substitutions), waiting_since=clock(), resave=False,
                    opened=data.opened if data.opened is not None else now)
        if game is not None and game.phase is Phase.DEAL:
            table._advance()  # killed between the last card of a hand and the next deal
        for number, move in enumerate(moves, 1):
            table._replay(move, number)
        return table

    def _replay(self, move: Move, number: int) -> None:
        game = self.game
        if game is None or game.over or move.seq != self.seq or game.to_act != move.seat:
            raise RecordError(f"table journal: move {number} does not follow the table")
        try:
            action: Action = parse_bid(move.bid) if move.bid is not None else parse_card(move.card or "")
            hand = game.hand
            assert hand is not None
            bidding = game.phase is Phase.BIDDING
            made = len(hand.bids) if bidding else len(hand.plays)
            Match(game, [None] * NUM_SEATS, self.seeds).apply(action)
        except (SteppingStonesError, CardSyntaxError) as exc:
            raise RecordError(f"table journal: move {number}: {exc}") from None
        if move.stand_in:
            self._substituted(bidding, made, move.seat)
        self._advance()


def read_table(text: str) -> tuple[TableFile, tuple[Move, ...]]:
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
        moves = tuple(Move.model_validate(load_json(line), strict=True) for line in lines[1:])
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RecordError(f"table file: {'.'.join(str(p) for p in err['loc'])}: {err['msg']}") from None
    for move in moves:
        if (move.bid is None) == (move.card is None):
            raise RecordError("table file: a move is a bid or a card")
    return snapshot, moves


# --- every table of a server ---------------------------------------------------------------------


class Connection(Protocol):
    """A client's connection as the tables see it: messages out, and a way to end it."""

    def send(self, text: str) -> None: ...

    def close(self) -> None: ...


@dataclass
class _Seated:
    """A connection's seat, and what it was sent: version 2 sends what changed since ``last``,
    the state numbered ``sent`` on this connection (None: the next is sent whole)."""

    table: Table
    seat: int
    version: int = 1
    last: StateParts | None = None
    sent: int = 0

    def message(self, parts: StateParts) -> str:
        """The state message for ``parts``: whole (version 1, or the first of a connection, or after
        a ``resync``), or what changed (version 2)."""
        if self.version == 1:
            return full_text(parts)
        self.sent += 1
        last, self.last = self.last, parts
        return full_text(parts, self.sent) if last is None else delta_text(self.sent, last, parts)


class Tables:
    """Every table of one server (see the module's docstring)."""

    def __init__(self, store: TableStore, data_dir: Path, *, clock: Clock = time.monotonic,
                 timeout: float = DEFAULT_TIMEOUT, max_tables: int = 1000,
                 log: Callable[[str], None] = lambda _line: None, wall_clock: Clock = time.time,
                 expire_after: float = DEFAULT_EXPIRY) -> None:
        self.store = store
        self.data_dir = data_dir
        self.clock = clock
        self.wall_clock = wall_clock  # a table's age survives a restart: it is kept by the wall clock
        self.expire_after = expire_after
        self.timeout = timeout
        self.max_tables = max_tables
        self.log = log
        self.tables: dict[str, Table] = {}
        self.by_code: dict[str, Table] = {}
        self.seated: dict[Connection, _Seated] = {}
        self.holders: dict[tuple[str, int], Connection] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # --- opening and resuming ----------------------------------------------------------------------

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_code[table.code] = table

    async def open(self, request: NewTable) -> Table:
        """A new table.  Raises ``TableError`` when the server holds its most tables already."""
        live = sum(1 for t in self.tables.values() if not t.over)
        if live >= self.max_tables:
            raise TableError("server", f"this server holds its most tables ({self.max_tables}); try again later")
        table = Table.new(request, self.clock, self.timeout, opened=self.wall_clock())
        while table.code in self.by_code:
            table.code = new_code()
        self._add(table)
        await self._changed(table)
        return table

    async def resume(self) -> int:
        """Every table in the store, as it was; how many.  A table that cannot be read is said in one
        line and left where it is."""
        count = 0
        for table_id in await asyncio.to_thread(self.store.list):
            try:
                text = await asyncio.to_thread(self.store.load, table_id)
                snapshot, moves = read_table(text)
                table = Table.from_file(snapshot, self.clock, self.timeout, moves, now=self.wall_clock())
            except (KeyError, RecordError) as exc:
                self.log(f"table {table_id} cannot be resumed: {exc}")
                continue
            self._add(table)
            count += 1
            if moves or not text.endswith("\n"):
                # one snapshot in place of the journal: a torn last line must not stay in front of
                # the lines appended next
                table.resave = True
                self._keep(table)
            if table.over:
                await self._finish(table)
            else:
                self._kick(table)
        return count

    # --- what clients ask -----------------------------------------------------------------------------

    def _take(self, conn: Connection, table: Table, seat: int, version: int) -> None:
        old = self.holders.get((table.id, seat))
        if old is not None and old is not conn:
            old.send(dump(Error(code="replaced", message="this seat was taken back from another connection")))
            self.seated.pop(old, None)
            old.close()
        self.holders[(table.id, seat)] = conn
        self.seated[conn] = _Seated(table, seat, version)
        table.seats[seat].connected = True

    async def hello(self, conn: Connection, code: str | None, secret: str | None, name: str | None,
                    version: int = 1) -> None:
        """Seat ``conn``: on a free seat with the invite ``code``, or back on its own with ``secret``,
        speaking the protocol's ``version``.  Raises ``TableError``; on success the client is sent
        its welcome and state."""
        if conn in self.seated:
            raise TableError("bad-message", "this connection already has a seat")
        if secret is not None:
            found = None
            for table in self.tables.values():
                seat = table.seat_of(secret)
                if seat is not None:
                    found = (table, seat)
            if found is None:
                raise TableError("bad-secret", "no seat has that secret")
            table, seat = found
            self._take(conn, table, seat, version)
            table.come_back(seat)
            conn.send(dump(table.welcome(seat, None, version)))
        else:
            normal = normal_code(code or "")
            table_or_none = self.by_code.get(normal) if normal else None
            if table_or_none is None:
                raise TableError("unknown-code", "no table has that invite code")
            table = table_or_none
            if name is None:
                raise TableError("bad-message", "a hello with an invite code needs a name")
            seat, new_secret = table.claim(name)
            self._take(conn, table, seat, version)
            conn.send(dump(table.welcome(seat, new_secret, version)))
        await self._changed(table)

    def _seat(self, conn: Connection) -> _Seated:
        seated = self.seated.get(conn)
        if seated is None:
            raise TableError("no-seat", "say hello first: this connection has no seat")
        return seated

    async def act(self, conn: Connection, seq: int, action: Action) -> None:
        seated = self._seat(conn)
        table = seated.table
        back = table.seats[seated.seat].stand_in
        table.come_back(seated.seat)  # any action of theirs says the person is there
        try:
            table.act(seated.seat, seq, action)
        except TableError:
            if back:
                await self._changed(table)
            raise
        await self._changed(table)

    def resync(self, conn: Connection) -> None:
        """Send the seat its whole state again (version 2: its client could not apply a delta)."""
        seated = self._seat(conn)
        seated.last = None
        conn.send(seated.message(seated.table.parts([seated.seat])[0]))

    async def start(self, conn: Connection) -> None:
        seated = self._seat(conn)
        seated.table.start(seated.seat)
        await self._changed(seated.table)

    async def gone(self, conn: Connection) -> None:
        """The connection closed: its seat waits for its person."""
        seated = self.seated.pop(conn, None)
        if seated is None:
            return
        table = seated.table
        if self.holders.get((table.id, seated.seat)) is conn:
            del self.holders[(table.id, seated.seat)]
            table.seats[seated.seat].connected = False
            await self._changed(table, save=False)

    async def sync(self) -> None:
        """Flush the tables saved since the last time to the disk."""
        try:
            await asyncio.to_thread(self.store.sync)
        except OSError as exc:
            self.log(f"the tables could not be flushed to the disk: {exc.strerror or exc}")

    async def sweep(self) -> None:
        """Hand every seat its table has waited on for too long to a computer, and close the tables
        that were never started within ``expire_after``."""
        now = self.wall_clock()
        for table in list(self.tables.values()):
            if not table.started and now - table.opened >= self.expire_after:
                await self._expire(table)
                continue
            seat = table.overdue()
            if seat is not None:
                table.stand_in(seat)
                self.log(f"table {table.id}: a computer plays for {table.seats[seat].name} "
                         f"after {table.timeout:g} s without an answer")
                await self._changed(table)

    async def _expire(self, table: Table) -> None:
        """Close a table that never started: its people are told so, its code and secrets are
        good for nothing any more, and it leaves the store."""
        del self.tables[table.id]
        self.by_code.pop(table.code, None)
        hours = self.expire_after / 3600
        message = dump(Error(code="expired", message=f"this table was not started within {hours:g} hours "
                                                     "and has closed: open a new one"))
        for seat in range(NUM_SEATS):
            conn = self.holders.pop((table.id, seat), None)
            if conn is not None:
                self.seated.pop(conn, None)
                conn.send(message)
                conn.close()
        self.log(f"table {table.id} closed: not started within {hours:g} hours")
        try:
            await asyncio.to_thread(self.store.delete, table.id)
        except OSError as exc:
            self.log(f"table {table.id} could not be removed: {exc.strerror or exc}")

    # --- after every change ---------------------------------------------------------------------------

    async def _changed(self, table: Table, save: bool = True) -> None:
        """Save the table, then tell every connected seat its state; let a computer act; file a
        finished game.  The states are made now, so they are the table as it was saved."""
        held = [(seat, conn) for seat in range(NUM_SEATS)
                if (conn := self.holders.get((table.id, seat))) is not None]
        messages = [(seat, conn, self.seated[conn].message(parts))
                    for (seat, conn), parts in zip(held, table.parts([seat for seat, _ in held]), strict=True)]
        if save:
            self._keep(table)
        for seat, conn, message in messages:
            if self.holders.get((table.id, seat)) is conn:  # not replaced or gone meanwhile
                conn.send(message)
        if table.over:
            await self._finish(table)
        else:
            self._kick(table)

    def _keep(self, table: Table) -> None:
        """Write what changed to the table's journal.  On the loop itself, in the order of the
        changes: appending a line takes some 0.05 ms, less than handing it to a thread."""
        how, text = table.keep()
        if not text:
            return
        try:
            if how == "save":
                self.store.save(table.id, text)
            else:
                self.store.append(table.id, text)
        except OSError as exc:
            table.resave = True  # the next change writes the whole table again
            self.log(f"table {table.id} could not be saved: {exc.strerror or exc}")

    def _kick(self, table: Table) -> None:
        request = table.computer_request()
        if request is None:
            return
        table.thinking = True
        task = asyncio.get_running_loop().create_task(self._think(table, request))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _think(self, table: Table, request: Request) -> None:
        try:
            action = await asyncio.to_thread(request.answer)
        except Exception as exc:  # a fault of the AI must not stop the table: the random player answers
            self.log(f"table {table.id}: a computer failed to decide ({type(exc).__name__}); a random one did")
            action = Request(request.seat, make_ai("random"), request.view, request.rng).answer()
        finally:
            table.thinking = False
        if table.answer(request, action):
            await self._changed(table)
        else:
            self._kick(table)

    async def _finish(self, table: Table) -> None:
        """File the finished game: its record in the server's ``games/`` and library, the table's
        file (who was human, what computers played for them) in ``notes/``."""
        if table.filed:
            return
        table.filed = True
        try:
            line = await asyncio.to_thread(self._file, table)
        except OSError as exc:
            table.filed = False
            self.log(f"table {table.id}: the finished game could not be written: {exc.strerror or exc}")
            return
        if line:
            self.log(f"table {table.id}: {line}")
        await asyncio.to_thread(self.store.delete, table.id)

    def _file(self, table: Table) -> str | None:
        from ..storage.files import atomic_write, free_name, stamp
        from ..storage.games import file_copy
        from ..storage.library import file_game

        assert table.game is not None
        folder = self.data_dir / "games"
        folder.mkdir(parents=True, exist_ok=True)
        filed = sorted(folder.glob(f"table-*-{table.id}.json"))
        if filed:  # filed before a crash that came before the table left the store: not twice
            path = filed[0]
        else:
            name = free_name(folder, f"table-{stamp()}-{table.id}", ".json").name
            path = file_copy(folder, name, record_json(record_from_game(table.game)), None)  # games/' one writer
        atomic_write(self.data_dir / "notes" / f"{path.stem}.table.json", table.to_file().model_dump_json(indent=2))
        return file_game(path)

    async def close(self) -> None:
        """Wait for the computers that are thinking (their answers are saved), and flush."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await self.sync()
