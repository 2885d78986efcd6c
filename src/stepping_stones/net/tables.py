"""Every table of a server: ``Tables``, the coordinator.

It lets the computers think (in worker processes, ``thinking.Thinkers``, while a person is at
the table), keeps each table after every change through a
``journal.TableStore`` before anyone hears of it, tells every connected seat its new state (whole,
or what changed; a page what it is shown), hands an overdue seat to a computer (``sweep``), closes the tables
never started, resumes every table of the store after a restart (``resume``), and files each
finished game in the record format into the server's game library.  One table's logic is
``table.Table``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from ..ai import Action
from ..engine import NUM_SEATS, CardSyntaxError, SteppingStonesError, parse_bid, parse_card
from ..game.match import Request
from ..storage.library import FolderShelf, Shelf
from ..storage.records import RecordError, record_from_game, record_json
from .batched import Batched
from .chat import ChatRefused, Rooms, muting
from .codes import digest, new_code, new_seed, normal_code
from .journal import TableStore, read_table
from .lease import ElsewhereOnTheLobbysPath, Leases, Shared
from .limits import DEFAULT_EMPTY_EXPIRY, DEFAULT_EXPIRY, DEFAULT_TIMEOUT
from .logos import Logos
from .pageseat import PageSeat
from .players import Finished, PlayerStore, Sitter, key_problem
from .protocol import (
    MAX_LISTED,
    ChatStatus,
    Do,
    ErrorMessage,
    Felt,
    Invite,
    NewTable,
    Said,
    StateFields,
    Welcome,
    delta_text,
    dump,
    state_text,
)
from .ratings import computer_id, places
from .remote import CLAIM_TOKEN, SEEN_TOKEN, UNDO_TOKEN
from .table import Clock, Table, TableError
from .thinking import Busy, Dropped, Thinkers
from .watching import lobby_text, watched_text

# --- every table of a server ---------------------------------------------------------------------


PAUSED: Final = "the table is paused, and goes on by itself once the server can write again"


class Connection(Protocol):
    """A client's connection as the tables see it: messages out, and a way to end it."""

    def send(self, text: str) -> None: ...

    def close(self) -> None: ...


@dataclass
class _Seated:
    """A connection's seat, and what it was sent: what changed since ``last``, the state numbered
    ``sent`` on this connection (None: the next is sent whole); a page's seat (``page``) is sent
    what it is shown instead."""

    table: Table
    seat: int
    page: PageSeat | None = None
    last: StateFields | None = None
    sent: int = 0

    def message(self, state: StateFields) -> str:
        """The message for ``state``: whole (the first of a connection, or after a ``resync``),
        or what changed."""
        self.sent += 1
        last, self.last = self.last, state
        return state_text(state, self.sent) if last is None else delta_text(self.sent, last, state)


class Tables:
    """Every table of one server (see the module's docstring)."""

    def __init__(
        self,
        store: TableStore,
        data_dir: Path,
        *,
        clock: Clock = time.monotonic,
        timeout: float = DEFAULT_TIMEOUT,
        max_tables: int = 1000,
        log: Callable[[str], None] = lambda _line: None,
        wall_clock: Clock = time.time,
        expire_after: float = DEFAULT_EXPIRY,
        expire_empty_after: float = DEFAULT_EMPTY_EXPIRY,
        new_seed: Callable[[], str] = new_seed,
        finished_grace: float = 120.0,
        thinkers: Thinkers | None = None,
        chat_rate: float = 0.25,
        chat_burst: int = 5,
    ) -> None:
        self.store = store
        # a store several processes share: this one holds only the tables it has the lease of (``lease``)
        self.leases = Leases(store) if isinstance(store, Shared) else None
        self._journals: Batched[str, str] | None = None  # the tables hellos take up (``_load``)
        # where finished games are filed: the store's shared library, else the data folder's
        self.shelf: Shelf = store.shelf() if isinstance(store, Shared) else FolderShelf(data_dir)
        self.chat = Rooms(chat_rate, chat_burst, clock)  # each connection's lines said (``chat.py``)
        self.logos: Logos | None = None  # the clubs' logos on the felt (``logos.py``), given by the server
        self.new_seed = new_seed  # where each table's deals come from: the server's secret until the game ends
        self.unwritable = ""  # why the last table that could not be written could not be
        self.data_dir = data_dir
        self.clock = clock
        self.wall_clock = wall_clock  # a table's age survives a restart: it is kept by the wall clock
        self.expire_after = expire_after
        self.expire_empty_after = min(expire_empty_after, expire_after)  # a table nobody has sat at
        self.timeout = timeout
        self.max_tables = max_tables
        self.log = log
        self.tables: dict[str, Table] = {}
        self.by_code: dict[str, Table] = {}
        self.seated: dict[Connection, _Seated] = {}
        self.holders: dict[tuple[str, int], Connection] = {}
        self.pages: dict[tuple[str, int], PageSeat] = {}  # a page's seat, kept while its table lives
        self._tasks: set[asyncio.Task[None]] = set()
        self.thinkers = thinkers or Thinkers()  # the computers' decisions and the claims' checks
        self.finished_grace = finished_grace  # seconds a finished table's connections stay open
        self.finished: deque[tuple[float, Table]] = deque()  # filed tables whose connections close, by when
        self.players: PlayerStore | None = None  # the players and their ratings (none: nobody is rated)
        self._writing: dict[str, int] = {}  # tables with changes being written (a shared store's writer)
        # those who watch a table (``watch``), and those who follow the lobby (``follow_lobby``)
        self.by_watch: dict[str, Table] = {}
        # each seat secret's digest: the table it is at (a hello with a secret finds its table at
        # once; looking through every table's seats cost a process with 2,000 tables some ms a
        # hello, and a dead process's 3,000 people coming back, tens of seconds; a lookup by the
        # SHA-256 tells a client nothing of any secret)
        self.by_secret: dict[str, Table] = {}
        self.watching: dict[Connection, tuple[Table, bool]] = {}  # a watcher's table, and whether it is a page
        self.lobby_followers: set[Connection] = set()
        self.lobby_last = ""  # the lobby as last sent
        self.lobby_elsewhere: tuple[Table, ...] = ()  # with a shared store: the other processes' listed tables
        self.watchers_per_table = 100
        self.max_lobby_followers = 512

    # --- opening and resuming ----------------------------------------------------------------------

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_code[table.code] = table
        while table.watch in self.by_watch or table.watch in self.by_code:
            table.watch = new_code()
            table.resave = True
        self.by_watch[table.watch] = table
        self._index_secrets(table)

    def _index_secrets(self, table: Table) -> None:
        for seat in table.seats:
            if seat.digest is not None:
                self.by_secret[seat.digest] = table

    def _remove(self, table: Table) -> None:
        """Forget ``table`` here: its codes and its secrets find it no more."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self.by_code.get(table.code) is table:
            del self.by_code[table.code]
        if self.by_watch.get(table.watch) is table:
            del self.by_watch[table.watch]
        for seat in table.seats:
            if seat.digest is not None and self.by_secret.get(seat.digest) is table:
                del self.by_secret[seat.digest]

    def _with_secret(self, secret: str) -> tuple[Table, int] | None:
        """The table and seat whose secret this is, or None."""
        table = self.by_secret.get(digest(secret))
        seat = None if table is None else table.seat_of(secret)
        return None if table is None or seat is None else (table, seat)

    async def open(self, request: NewTable, owner: str = "") -> Table:
        """A new table, opened by the address ``owner``.  Raises ``TableError`` when the server
        holds its most tables already."""
        live = sum(1 for t in self.tables.values() if not t.over)
        if live >= self.max_tables:
            raise TableError("server", f"this server holds its most tables ({self.max_tables}); try again later")
        table = Table.new(request, self.clock, self.timeout, opened=self.wall_clock(), seed=self.new_seed())
        table.owner = owner
        while table.code in self.by_code:
            table.code = new_code()
        if not await self._keep(table):  # a table that cannot be written is not handed out
            raise TableError("server", f"this server cannot save a table now ({self.unwritable}); try again later")
        self._add(table)
        await self._changed(table, save=False)
        return table

    async def resume(self) -> int:
        """Every table in the store, as it was; how many.  A table that cannot be read is said in one
        line and left where it is."""
        count = 0
        try:
            stored = await asyncio.to_thread(self.store.list) if self.leases is None else await self._orphans()
        except OSError as exc:  # a file where the folder should be, a folder that cannot be read
            self.log(f"no table can be resumed: the tables cannot be listed ({exc.strerror or exc})")
            return 0
        for table_id in stored:
            try:
                text = await asyncio.to_thread(self.store.load, table_id)
                snapshot, moves = read_table(text)
                table = Table.from_file(snapshot, self.clock, self.timeout, moves, now=self.wall_clock())
            except (KeyError, RecordError, OSError) as exc:
                self.log(f"table {table_id} cannot be resumed: {exc}")
                continue
            self._add(table)
            count += 1
            if moves or not text.endswith("\n") or table.resave:
                # one snapshot in place of the journal: a torn last line must not stay in front of
                # the lines appended next
                table.resave = True
                await self._keep(table)
            await self._go_on(table)
        return count

    # --- several processes, one store (``lease``) ---------------------------------------------------

    async def _orphans(self) -> list[str]:
        """The tables of the shared store that no live process holds, each taken by this one."""
        assert self.leases is not None
        shared = self.leases.shared
        orphans = await asyncio.to_thread(shared.orphans, self.max_tables)
        # not those held, nor those a hello is taking up
        wanted = [t for t in orphans if t not in self.tables and not self.leases.busy(t)]
        return await asyncio.to_thread(shared.take_many, wanted)

    async def _take_up(
        self, code: str | None, secret: str | None, path: str | None = None, watch: str | None = None
    ) -> None:
        """Before a hello looks for its table: the table of ``code``, ``secret`` or ``watch`` (a
        watcher's code) from the shared store, when this process does not hold it, taken over from
        its holder and loaded.  A hello
        on another table's path (``/t/<path>/ws``) is refused before anything moves: behind the
        hashing proxy it would take the table to the process of that path, its people's websockets
        would come back to their own path, and the table would go back (a client could keep a table
        going to and fro); one on the lobby's path (``/ws``) is told the table's own path.  Raises
        ``lease.Elsewhere``, ``lease.ElsewhereOnTheLobbysPath``, ``TableError``."""
        assert self.leases is not None
        found = None if secret is None else self._with_secret(secret)
        held = [] if found is None else [found[0].id]
        if code is not None and code in self.by_code:
            held.append(self.by_code[code].id)
        if watch is not None and watch in self.by_watch:
            held.append(self.by_watch[watch].id)
        table_id = held[0] if held else await self.leases.locate(code, secret, watch)
        if table_id is None:
            return
        if path is not None and table_id != path:
            raise TableError("bad-message", "this websocket's path names another table: connect to /ws")
        if held:
            return
        if path is None:  # the lobby's path: the table's own path reaches the process that holds it
            raise ElsewhereOnTheLobbysPath(table_id)
        async with self.leases.one_at_a_time(table_id):
            if table_id in self.tables:
                return
            await self.leases.take(table_id)
            if not await self._load(table_id):
                return
        await self._go_on(self.tables[table_id])

    async def _load(self, table_id: str) -> bool:
        """Load a table whose lease this process has just taken, with its logo, the hellos that
        load tables at the same time in one query (``Batched``); whether it is held now."""
        if self._journals is None:
            self._journals = Batched(self._journals_of)
        try:
            text = await self._journals.get(table_id)
            if text is None:
                raise KeyError(table_id)
            snapshot, moves = read_table(text)
        except (KeyError, RecordError, OSError) as exc:
            self.log(f"table {table_id} cannot be taken up: {exc}")
            return False
        if table_id not in self.tables:  # not taken up meanwhile by a hello
            self._add(Table.from_file(snapshot, self.clock, self.timeout, moves, now=self.wall_clock()))
        return True

    def _journals_of(self, table_ids: list[str]) -> dict[str, str]:
        """In a thread: the journals of tables being taken up, and their logos read (``Logos.read``:
        their people are shown them from memory, not from a query on the server's loop)."""
        assert self.leases is not None
        texts = self.leases.shared.load_many(table_ids)
        if self.logos is not None:
            with contextlib.suppress(OSError):  # read again at the first hello
                self.logos.read(list(texts))
        return texts

    async def _renew(self) -> None:
        """Renew this process's leases; let go of the tables another process took or asked for
        (their connections closed: their clients connect again, and reach it through the proxy);
        take up the tables no live process holds."""
        assert self.leases is not None
        shared = self.leases.shared
        # the tables the answer is about: one a hello takes up while the question is out is held,
        # though the answer, from before, does not name it
        asked = list(self.tables.values())
        try:
            held = await asyncio.to_thread(shared.renew)
            await self.leases.settle()
        except OSError as exc:
            self.log(f"the tables' leases could not be renewed: {exc.strerror or exc}")
            return
        handed = []
        for table in asked:
            if self.tables.get(table.id) is not table:  # let go, or closed, meanwhile
                continue
            wanted = table.id in held and held[table.id] is not None
            if table.id in held and not wanted:
                continue
            if wanted and (table.thinking or table.judging or self._writing.get(table.id)):
                continue  # handed over once what it holds is written
            if wanted and (table.paused or table.resave or table.unsaved) and not await self._keep(table):
                continue
            self._let_go(table)
            if wanted:
                handed.append(table.id)
            else:
                self.log(f"table {table.id}: taken up by another server process")
        if handed:
            with contextlib.suppress(OSError):
                await asyncio.to_thread(shared.release, handed)
            self.log(f"handed {len(handed)} {'table' if len(handed) == 1 else 'tables'} over to other server processes")
        try:  # in one query: a dead process's tables come back at once
            texts = await asyncio.to_thread(self._journals_of, await self._orphans())
        except OSError as exc:
            self.log(f"the tables no process holds could not be taken up: {exc.strerror or exc}")
            return
        taken = []
        for table_id, text in texts.items():
            if table_id in self.tables:  # taken up meanwhile by a hello
                continue
            try:
                snapshot, moves = read_table(text)
            except RecordError as exc:
                self.log(f"table {table_id} cannot be taken up: {exc}")
                continue
            taken.append(Table.from_file(snapshot, self.clock, self.timeout, moves, now=self.wall_clock()))
            self._add(taken[-1])
        if taken:
            self.log(f"took up {len(taken)} {'table' if len(taken) == 1 else 'tables'} no live server process held")
        for table in taken:
            await self._go_on(table)

    def _let_go(self, table: Table) -> None:
        """Forget a table another process holds now: its connections close without a word."""
        self._remove(table)  # its watchers too find it at the other process
        self._forget_pages(table, gone=False)
        self._close_seats(table, None)

    def opened_by(self, owner: str) -> tuple[int, int]:
        """Of the tables the address ``owner`` opened: how many are open and not started, and how
        many are not over (started or not)."""
        waiting = in_play = 0
        for table in self.tables.values():
            if table.owner == owner and not table.over:
                in_play += 1
                waiting += not table.started
        return waiting, in_play

    # --- what clients ask -----------------------------------------------------------------------------

    def _take(self, conn: Connection, table: Table, seat: int, page: Welcome | None) -> None:
        old = self.holders.get((table.id, seat))
        if old is not None and old is not conn:
            old.send(dump(ErrorMessage(code="replaced", message="this seat was taken back from another connection")))
            self.seated.pop(old, None)
            old.close()
        self.holders[(table.id, seat)] = conn
        kept = None
        if page is not None:  # a page that comes back goes on with its seat's flow: its events' numbers go on
            kept = self.pages.get((table.id, seat))
            if kept is None or kept.flow.seat != seat:
                kept = self.pages[(table.id, seat)] = PageSeat(page, self.clock)
            kept.reconnected()
        self.seated[conn] = _Seated(table, seat, kept)
        table.seats[seat].connected = True

    async def hello(
        self,
        conn: Connection,
        code: str | None,
        secret: str | None,
        name: str | None,
        page: bool = False,
        key: str | None = None,
        path: str | None = None,
    ) -> None:
        """Seat ``conn``: on a free seat with the invite ``code`` (rated as the player of ``key``, if
        given), or back on its own with ``secret``; a ``page`` is sent what it is shown
        (``pageseat``) instead of states.  ``path``: the table the websocket's path names
        (``/t/<table>/ws``), which a shared store's hello must be for.  Raises ``TableError``; on
        success the client is sent its welcome and state."""
        if conn in self.seated:
            raise TableError("bad-message", "this connection already has a seat")
        if conn in self.watching or conn in self.lobby_followers:
            raise TableError(
                "bad-message", "this connection watches a table or follows the lobby: a seat needs one of its own"
            )
        if key is not None and (problem := key_problem(key)) is not None:
            raise TableError("bad-message", problem)
        if self.leases is not None:
            await self._take_up(normal_code(code or "") if secret is None else None, secret, path)
        if secret is not None:
            found = self._with_secret(secret)
            if found is None:
                raise TableError("bad-secret", "no seat has that secret")
            table, seat = found
            welcome = table.welcome(seat, None)
            self._take(conn, table, seat, welcome if page else None)
            table.come_back(seat)
            conn.send(dump(welcome))
            if table.paused:  # the state as it was last written, and the pause: once, not every second
                if not await self._changed(table, actor=conn):
                    self._tell_written(conn, table, seat)
                return
        else:
            normal = normal_code(code or "")
            table_or_none = self.by_code.get(normal) if normal else None
            if table_or_none is None:
                raise TableError("unknown-code", "no table has that invite code")
            table = table_or_none
            if name is None:
                raise TableError("bad-message", "a hello with an invite code needs a name")
            if table.paused:
                raise TableError("server", PAUSED)
            seat, new_secret = table.claim(name, digest(key) if key is not None else None)
            self._index_secrets(table)
            welcome = table.welcome(seat, new_secret)
            self._take(conn, table, seat, welcome if page else None)
            conn.send(dump(welcome))
        await self._changed(table)
        self._chat_hello(conn)

    def placed(self, conn: Connection) -> bool:
        """Whether ``conn`` has a seat, watches a table or follows the lobby: from the moment it
        does, though the hello or watch that placed it may still be going on (a seat's hello
        saves the table and tells everyone after the welcome)."""
        return conn in self.seated or conn in self.watching or conn in self.lobby_followers

    def _seat(self, conn: Connection) -> _Seated:
        seated = self.seated.get(conn)
        if seated is None:
            raise TableError("no-seat", "say hello first: this connection has no seat")
        return seated

    async def act(self, conn: Connection, seq: int, action: Action) -> None:
        """``conn``'s seat's bid or card.  Raises ``TableError``: a refusal, or the move made but
        not written (the table pauses; the move stands once it is written)."""
        seated = self._seat(conn)
        table = seated.table
        if table.paused:
            raise TableError("server", PAUSED)
        back = table.seats[seated.seat].stand_in
        table.come_back(seated.seat)  # any action of theirs says the person is there
        try:
            table.act(seated.seat, seq, action)
        except TableError:
            if back:
                await self._changed(table)
            raise
        if not await self._changed(table, actor=conn):
            raise TableError("server", f"the server could not save your move ({self.unwritable}): {PAUSED}")

    async def claim(self, conn: Connection, seq: int, tricks: int) -> None:
        """``conn``'s seat claims ``tricks`` of the rest of the hand (``ai/claims.py``), judged by
        the exact solver on the table's real cards in a thread, one claim of a table at a time.
        Raises ``TableError``: a refusal (``claim-refused`` says why in words that tell nothing of
        the unseen cards), or the hand played out but not written."""
        seated = self._seat(conn)
        table = seated.table
        if table.paused:
            raise TableError("server", PAUSED)
        if table.judging:
            raise TableError("too-fast", "a claim at this table is being checked: wait for its answer")
        request = table.claim_request(seated.seat, seq, tricks)
        back = table.seats[seated.seat].stand_in
        table.come_back(seated.seat)  # a claim says the person is there
        table.judging = True
        try:
            verdict = await self.thinkers.claim(
                request, table.owner, table.id, lambda: self.seated.get(conn) is seated and table.game is not None
            )
        except Busy as exc:
            raise TableError("too-fast", str(exc)) from None
        except Dropped:
            raise TableError("stale", "the claim was dropped: its connection had closed") from None
        except Exception as exc:  # a fault of the referee: said by its kind only (the real cards are in it)
            self.log(f"table {table.id}: a claim could not be checked ({type(exc).__name__})")
            raise TableError("server", "the claim could not be checked: play on") from None
        finally:
            table.judging = False
        try:
            table.settle_claim(seq, request, verdict)
        except TableError:
            if back:  # the others hear that the person is back, as after a refused action
                await self._changed(table)
            raise
        if not await self._changed(table, actor=conn):
            raise TableError("server", f"the server could not save the claimed hand ({self.unwritable}): {PAUSED}")

    def resync(self, conn: Connection) -> None:
        """Send the seat its whole state again (its client could not apply a delta), or a page
        what it is shown."""
        seated = self._seat(conn)
        if seated.page is not None:
            self._show(conn, seated.page, force=True)
            return
        seated.last = None
        conn.send(seated.message(seated.table.states([seated.seat])[0]))

    async def again(self, conn: Connection, owner: str = "", admit: Callable[[], str | None] = lambda: None) -> None:
        """A new table with the finished table's setup (its rules; its computers; its people's seats
        open), once: every connection still seated at the old one is sent its ``Invite``, and the
        old table points to it (a second ``again`` is sent the same invitation).  The new table is
        opened by the address ``owner``, and only when ``admit()`` says nothing against it (the
        limits of ``POST /tables``).  Raises ``TableError``."""
        seated = self._seat(conn)
        table = seated.table
        if not table.over:
            raise TableError("not-over", "the game is not over: a new table comes after it")
        if table.again is None:
            refusal = admit()
            if refusal is not None:
                raise TableError("too-fast", refusal)
            request = NewTable(
                rules=table.rules,
                level=table.level,
                seats=[s.level if s.kind == "computer" and s.level else "open" for s in table.seats],
                names=[s.name if s.kind == "computer" else None for s in table.seats],
            )
            table.again = ((await self.open(request, owner)).code, table.seats[seated.seat].name or "someone")
            invited = [c for c, s in self.seated.items() if s.table is table]
        else:
            invited = [conn]
        invite = Invite(code=table.again[0], by=table.again[1])
        text = dump(invite)
        for one in invited:
            page = self.seated[one].page if one in self.seated else None
            if page is None:
                one.send(text)
                continue
            page.invite = invite
            page.asked_again = page.asked_again or one is conn
            self._show(one, page)

    async def start(self, conn: Connection) -> None:
        seated = self._seat(conn)
        if seated.table.paused:
            raise TableError("server", PAUSED)
        seated.table.start(seated.seat)
        if not await self._changed(seated.table, actor=conn):
            raise TableError("server", f"the server could not save the start ({self.unwritable}): {PAUSED}")

    async def gone(self, conn: Connection) -> None:
        """The connection closed: its seat waits for its person (or it watched, or followed the lobby)."""
        self.lobby_followers.discard(conn)
        watched = self.watching.pop(conn, None)
        if watched is not None:
            watched[0].watchers -= 1
            await self._changed(watched[0], save=False)
        self.chat.gone(conn)
        seated = self.seated.pop(conn, None)
        if seated is None:
            return
        table = seated.table
        if self.holders.get((table.id, seated.seat)) is conn:
            del self.holders[(table.id, seated.seat)]
            table.seats[seated.seat].connected = False
            await self._changed(table, save=False)

    async def sync(self) -> bool:
        """Flush the tables saved since the last time to the disk; whether it worked."""
        try:
            await asyncio.to_thread(self.store.sync)
        except OSError as exc:
            self.log(f"the tables could not be flushed to the disk: {exc.strerror or exc}")
            return False
        return True

    async def sweep(self) -> None:
        """Hand every seat its table has waited on for too long to a computer, and close the tables
        that were never started within ``expire_after``, or that nobody sat at within
        ``expire_empty_after``."""
        self._close_finished()
        if self.leases is not None:
            await self._renew()
            if self.lobby_followers:  # the other processes' listed tables, as they are now
                await self._lobby_elsewhere()
                self._tell_lobby()
        now = self.wall_clock()
        for table in list(self.tables.values()):
            if table.paused:  # try again to write it: it goes on by itself once it can
                if await self._changed(table):
                    self.log(f"table {table.id}: written again, it goes on")
                continue
            if table.over:
                await self._finish(table)  # a game whose filing failed is filed again
                continue
            empty = table.opener is None
            if not table.started and now - table.opened >= (self.expire_empty_after if empty else self.expire_after):
                await self._expire(table, empty)
                continue
            self._kick(table)  # a computer whose decision failed decides again
            seat = table.overdue()
            if seat is not None:
                table.stand_in(seat)
                self.log(
                    f"table {table.id}: a computer plays for {table.seats[seat].name} "
                    f"after {table.timeout:g} s without an answer"
                )
                await self._changed(table)

    async def _expire(self, table: Table, empty: bool = False) -> None:
        """Close a table that never started (``empty``: nobody sat at it): its people are told so,
        its code and secrets are good for nothing any more, and it leaves the store."""
        self._remove(table)
        self._forget_pages(table)
        self._tell_lobby()
        hours = self.expire_after / 3600
        message = dump(
            ErrorMessage(
                code="expired",
                message=f"this table was not started within {hours:g} hours and has closed: open a new one",
            )
        )
        self._close_seats(table, message)
        if empty:
            self.log(f"table {table.id} closed: nobody sat at it within {self.expire_empty_after / 60:g} minutes")
        else:
            self.log(f"table {table.id} closed: not started within {hours:g} hours")
        try:
            await asyncio.to_thread(self.store.delete, table.id)
        except OSError as exc:
            self.log(f"table {table.id} could not be removed: {exc.strerror or exc}")

    # --- after every change ---------------------------------------------------------------------------

    async def _changed(self, table: Table, save: bool = True, actor: Connection | None = None) -> bool:
        """Save the table, then tell every connected seat its state; let a computer act; file a
        finished game.  Whether the change was written: when it was not, nobody hears of it (but
        that the table is paused, each seat but ``actor``, whose action is refused), and the table
        waits until it can be written (``sweep`` tries again)."""
        if save or table.paused:
            if self.leases is None:  # a local store writes on the loop at once: no other change comes between
                kept = await self._keep(table)
            else:
                self._writing[table.id] = self._writing.get(table.id, 0) + 1
                try:
                    kept = await self._keep(table)
                finally:
                    self._writing[table.id] -= 1
                    if not self._writing[table.id]:
                        del self._writing[table.id]
            if not kept:
                self._tell_paused(table, actor)
                return False
        if table.id in self._writing:  # a later change is being written: the seats hear of both once it is
            return True
        await self._rate_seats(table)
        if table.id in self._writing:  # one came while the ratings were looked up: told once it is written
            return True
        # the seats held by a connection, those of a page apart (one pass: a change of every table)
        held: list[tuple[int, Connection]] = []
        pages: list[tuple[int, Connection]] = []
        holders, seated = self.holders, self.seated
        for seat in range(NUM_SEATS):
            conn = holders.get((table.id, seat))
            if conn is not None:
                (held if seated[conn].page is None else pages).append((seat, conn))
        messages = [
            (seat, conn, seated[conn].message(state))
            for (seat, conn), state in zip(held, table.states([seat for seat, _ in held]), strict=True)
        ]
        for seat, conn, message in messages:
            if holders.get((table.id, seat)) is conn:  # not replaced or gone meanwhile
                conn.send(message)
        for seat, conn in pages:
            page = seated[conn].page
            assert page is not None
            page.receive(table.state_for(seat))
            self._show(conn, page)
        if table.watchers:
            self._tell_watchers(table)
        if table.listed:
            self._tell_lobby()
        if table.over:  # ``_go_on``, written out: a change of every table
            await self._finish(table)
        else:
            self._kick(table)
        for _seat, conn in pages:
            await self._page_acts(conn)
        return True

    # --- those who watch, and the lobby (``watching``) ---------------------------------------------------

    async def watch(self, conn: Connection, code: str, page: bool = False, path: str | None = None) -> None:
        """Let ``conn`` watch the table of the watch ``code``: it is sent the table's club and logo
        (``Felt``), if it has them, and what everyone sees (``Watched``) now and after every
        change, and takes no seat.  With a shared store, a table another process holds is found
        as a hello's is (``_take_up``; ``path``, the table of the websocket's path).  Raises
        ``TableError``, ``lease.Elsewhere``, ``lease.ElsewhereOnTheLobbysPath``."""
        if self.placed(conn):
            raise TableError("bad-message", "this connection already has a seat, a table it watches or the lobby")
        normal = normal_code(code)
        if self.leases is not None and normal:
            await self._take_up(None, None, path, watch=normal)
        table = self.by_watch.get(normal) if normal else None
        if table is None:
            raise TableError("unknown-code", "no table has that watch code")
        if table.watchers >= self.watchers_per_table:
            raise TableError(
                "table-full", f"{self.watchers_per_table} people watch this table already: the most it lets"
            )
        self.watching[conn] = (table, page)
        table.watchers += 1
        felt = self._felt(table)
        if felt.club is not None or felt.logo is not None:  # everyone sees the club's logo, watchers too
            conn.send(dump(felt))
        await self._changed(table, save=False)  # the players see one more watching; the watcher, the table

    def _tell_watchers(self, table: Table) -> None:
        """Send everyone who watches ``table`` what they see now (the public state made once)."""
        if not table.watchers:
            return
        watched = table.watched()
        texts: dict[bool, str] = {}
        for conn, (watched_table, page) in list(self.watching.items()):
            if watched_table is table:
                if page not in texts:
                    texts[page] = watched_text(watched, page)
                conn.send(texts[page])

    async def follow_lobby(self, conn: Connection) -> None:
        """Send ``conn`` the lobby now and at each change.  Raises ``TableError``."""
        if self.placed(conn):
            raise TableError("bad-message", "this connection already has a seat, a table it watches or the lobby")
        if len(self.lobby_followers) >= self.max_lobby_followers:
            raise TableError("server", "the lobby has as many followers as this server lets: try again later")
        # the other processes' part as it is now, for each newcomer: the last reading (the last
        # sweep's, or the first follower's) may miss a table opened elsewhere since, or show one
        # started since (one statement, off the loop; the followers are counted and rate-limited)
        await self._lobby_elsewhere()
        self.lobby_followers.add(conn)
        self.lobby_last = lobby_text(self._in_lobby())
        conn.send(self.lobby_last)

    def _in_lobby(self) -> list[Table]:
        """The tables the lobby may show: this process's, and with a shared store the others'
        (``_lobby_elsewhere``) that this one does not hold."""
        return [*self.tables.values(), *(t for t in self.lobby_elsewhere if t.id not in self.tables)]

    async def _lobby_elsewhere(self) -> None:
        """With a shared store, read the listed tables every process holds (``Shared.in_lobby``):
        behind the proxy the lobby's websocket reaches one process, and a listed table is held by
        the process its people's websockets hash to.  A store that cannot be read leaves the last."""
        if self.leases is None:
            return
        try:
            rows = await asyncio.to_thread(self.leases.shared.in_lobby, MAX_LISTED)
        except OSError:
            return
        tables = []
        for table_id, snapshot in rows:
            if table_id in self.tables:
                continue
            try:
                tables.append(Table.from_file(read_table(snapshot + "\n")[0], self.clock, self.timeout))
            except RecordError as exc:
                self.log(f"table {table_id} cannot be shown in the lobby: {type(exc).__name__}")
        self.lobby_elsewhere = tuple(tables)

    def _tell_lobby(self) -> None:
        """Send the lobby to its followers, if it changed."""
        if not self.lobby_followers:
            return
        text = lobby_text(self._in_lobby())
        if text == self.lobby_last:
            return
        self.lobby_last = text
        for conn in list(self.lobby_followers):
            conn.send(text)

    # --- chat (``chat.py``): what is said is never kept, never logged -------------------------------

    def _chat_status(self, conn: Connection, always: bool = True) -> None:
        """Tell ``conn`` its table's chat as its seat has it (a page: in what it is shown);
        without ``always``, only when it is not as a table starts (on, nobody muted)."""
        seated = self.seated.get(conn)
        if seated is None:
            return
        table = seated.table
        on = not table.chat_off
        muted = list(table.seats[seated.seat].muted)
        if seated.page is not None:
            seated.page.chat_status(on, muted, table.opener == seated.seat)
            self._show(conn, seated.page)
        elif always or not on or muted:
            conn.send(dump(ChatStatus(on=on, muted=muted)))

    def _chat_hello(self, conn: Connection) -> None:
        """A seat's hello: its table's chat, when it is not as a table starts, and its club and
        logo, when it has one (``logos.py``)."""
        self._chat_status(conn, always=False)
        seated = self.seated.get(conn)
        if seated is None:
            return
        felt = self._felt(seated.table)
        if seated.page is not None:
            seated.page.felt = felt
            self._show(conn, seated.page)
        elif felt.club is not None or felt.logo is not None:
            conn.send(dump(felt))

    def _felt(self, table: Table) -> Felt:
        """The club whose table it is and the address of its logo, if it has them (``logos.py``)."""
        digest, club = self.logos.of(table.id) if self.logos is not None else (None, None)
        return Felt(club=club, logo=f"/logo/{digest}.png" if digest is not None else None)

    def say(self, conn: Connection, text: str) -> None:
        """``conn``'s seat says ``text`` at its table (``chat.Rooms.check`` cleans it), to every
        seat that has not muted it, the speaker's own too.  Raises ``TableError``."""
        seated = self._seat(conn)
        table = seated.table
        try:
            clean = self.chat.check(conn, not table.chat_off, text)
        except ChatRefused as exc:
            raise TableError("chat-refused", str(exc)) from None
        said = Said(seat=seated.seat, name=table.seats[seated.seat].name or "?", text=clean)
        message = dump(said)
        for seat in range(NUM_SEATS):
            other = self.holders.get((table.id, seat))
            held = self.seated.get(other) if other is not None else None
            if other is None or held is None or seated.seat in table.seats[seat].muted:
                continue
            if held.page is not None:
                held.page.said(said)
                self._show(other, held.page)
            else:
                other.send(message)

    async def chat_switch(self, conn: Connection, on: bool) -> None:
        """The table's opener turns its chat on or off, kept with the table (in its journal); every
        seat is told.  Raises ``TableError``."""
        seated = self._seat(conn)
        table = seated.table
        if table.opener != seated.seat:
            raise TableError("chat-refused", "only the table's opener may turn chat on or off")
        if table.chat_off != on:
            self._chat_status(conn)
            return
        table.chat_off = not on
        table.resave = True  # the next keep is a snapshot
        if not table.over:
            await self._keep(table)
        for seat in range(NUM_SEATS):
            other = self.holders.get((table.id, seat))
            if other is not None:
                self._chat_status(other)

    async def mute(self, conn: Connection, seat: int, on: bool) -> None:
        """``conn``'s seat stops hearing ``seat`` (``on``), or hears it again; only it is told.  The
        mute is kept with the seat, in the table's journal (a reload, a reconnection or a restart
        keeps it).  Raises ``TableError``."""
        seated = self._seat(conn)
        table = seated.table
        mine = table.seats[seated.seat]
        try:
            muted = muting(mine.muted, seated.seat, seat, on)
        except ChatRefused as exc:
            raise TableError("chat-refused", str(exc)) from None
        if muted != mine.muted:
            mine.muted = muted
            table.resave = True  # the seats changed: the next keep is a snapshot
            if not table.over:
                await self._keep(table)
        self._chat_status(conn)

    # --- a page's seat (``pageseat``) -----------------------------------------------------------------

    def _show(self, conn: Connection, page: PageSeat, force: bool = False) -> None:
        text = page.shown_text(force)
        if text is not None:
            conn.send(text)

    async def _page_acts(self, conn: Connection) -> None:
        """Make at the table what a page's flow did (a card, a bid, a claim, a summary closed);
        a refusal goes back to the flow, which words it."""
        seated = self.seated.get(conn)
        page = seated.page if seated is not None else None
        if seated is None or page is None:
            return
        for token, seq in page.take():
            words = token.split()
            try:
                if words[0] == SEEN_TOKEN:
                    await self._seen(seated, int(words[1]))
                elif words[0] == UNDO_TOKEN:
                    await self.undo(conn, seq)
                elif words[0] == CLAIM_TOKEN:
                    await self.claim(conn, seq, int(words[1]))
                elif page.playing:
                    await self.act(conn, seq, parse_card(token))
                else:
                    await self.act(conn, seq, parse_bid(token))
            except (TableError, SteppingStonesError, CardSyntaxError) as exc:
                page.flow.refused(str(exc)[:1].upper() + str(exc)[1:] + ("" if str(exc).endswith(".") else "."))
            if self.seated.get(conn) is seated:
                self._show(conn, page)

    async def _seen(self, seated: _Seated, hand: int) -> None:
        table = seated.table
        before = table.deadline()
        table.seen(seated.seat, hand)
        if table.deadline() != before:
            await self._changed(table, save=False)  # everyone's clock line says it

    async def undo(self, conn: Connection, seq: int) -> None:
        """``conn``'s person takes back their last move at a table where they are the only person
        (``Table.undo``).  Raises ``TableError``."""
        seated = self._seat(conn)
        table = seated.table
        if table.paused:
            raise TableError("server", PAUSED)
        table.undo(seated.seat, seq)
        if not await self._changed(table, actor=conn):
            raise TableError("server", f"the server could not save the move taken back ({self.unwritable}): {PAUSED}")

    async def seen(self, conn: Connection, hand: int) -> None:
        """``conn``'s person closed the summary of hand ``hand``: their clock starts."""
        await self._seen(self._seat(conn), hand)

    async def back(self, conn: Connection) -> None:
        """``conn``'s person takes their seat back from the computer that plays it."""
        seated = self._seat(conn)
        if seated.table.seats[seated.seat].stand_in:
            seated.table.come_back(seated.seat)
            await self._changed(seated.table)

    async def do(self, conn: Connection, do: Do) -> None:
        """A request in the words of what the seat was shown (``protocol.Do``).  Raises
        ``TableError``."""
        seated = self._seat(conn)
        if do.what == "back":
            await self.back(conn)
            return
        if do.what == "seen" and seated.page is None:
            await self.seen(conn, do.count or 0)
            return
        page = seated.page
        if page is None:
            raise TableError("bad-message", f"a do {do.what} is a page's: this connection said hello without page")
        if do.what == "again":
            await self.again(conn)
            return
        if do.what == "start":
            await self.start(conn)
            return
        flow = page.flow
        try:  # what is no card or bid at all is refused in one line; a move the rules refuse, by the flow
            card = parse_card(do.card or "") if do.what == "play" else None
            bid = parse_bid(do.bid or "") if do.what == "bid" else None
        except (SteppingStonesError, CardSyntaxError) as exc:
            raise TableError("illegal", str(exc)) from None
        with contextlib.suppress(SteppingStonesError):  # the flow's state says why
            if card is not None:
                flow.play(card)
            elif bid is not None:
                flow.bid(bid)
            elif do.what == "claim":
                flow.claim(do.count or 0)
            elif do.what == "seen":
                if flow.state.summary is not None:
                    flow.summary_seen()
                    page.step()
            elif do.what == "hint":
                await self._page_hint(conn, page)
            elif do.what == "undo":
                flow.undo()
            elif do.what == "analysis":
                page.analysis = await self._page_analysis(conn, page, do.count or 0)
        self._show(conn, page)
        await self._page_acts(conn)

    async def _page_hint(self, conn: Connection, page: PageSeat) -> None:
        """A page's hint, worked out in a worker from the seat's view; dropped if the page has gone."""
        request = page.flow.ask_hint()
        if request is None:
            return
        seated = self.seated[conn]
        if not seated.table.seats[seated.seat].assisted:  # an assisted game: counted apart, not rated
            seated.table.seats[seated.seat].assisted = True
            seated.table.resave = True
        try:
            hint = await self.thinkers.hint(
                request.view, seated.table.owner, f"hint {id(conn)}", lambda: self.seated.get(conn) is seated
            )
        except (Busy, Dropped):
            hint = None
        page.flow.hint_came(request, hint)

    async def _page_analysis(self, conn: Connection, page: PageSeat, number: int) -> tuple[str, ...]:
        from ..ai.analysis import analysis_lines, seen_by

        view = page.flow.state.view
        if not 1 <= number <= len(view.history):
            return (f"Hand {number} is not finished yet.",)
        seated = self.seated[conn]
        try:  # every seat judged from its own view, as the app and analyse judge it
            found = await self.thinkers.analysis(
                view.history[number - 1],
                seen_by(view),
                seated.table.owner,
                f"analysis {id(conn)}",
                lambda: self.seated.get(conn) is seated,
            )
        except Busy as exc:
            return (str(exc)[:1].upper() + str(exc)[1:] + ".",)
        except Dropped:
            return ()
        if found is None:
            return (f"Hand {number} was not played out.",)
        return (f"Hand {number} against perfect play:", *analysis_lines(found, view.players, view.seat))

    def _tell_paused(self, table: Table, actor: Connection | None) -> None:
        """Tell each seat but ``actor`` (whose action is refused) that the table is paused: once a
        connection, not at every try to write it again."""
        message = dump(
            ErrorMessage(code="server", message=f"the server cannot save this table ({self.unwritable}): {PAUSED}")
        )
        for seat in range(NUM_SEATS):
            conn = self.holders.get((table.id, seat))
            if conn is not None and conn is not actor and conn not in table.told_paused:
                table.told_paused.add(conn)
                conn.send(message)

    def _tell_written(self, conn: Connection, table: Table, seat: int) -> None:
        """A seat back at a paused table: its state as the table was last written (what the others
        last heard: the change the table holds is not told before it is written), then that the
        table is paused.  When even that cannot be read, the pause alone."""
        try:
            snapshot, moves = read_table(self.store.load(table.id))
            written = Table.from_file(snapshot, self.clock, self.timeout, moves, now=self.wall_clock())
        except (OSError, KeyError, RecordError) as exc:
            self.log(f"table {table.id}: its last written state cannot be read: {type(exc).__name__}")
        else:
            for kept, live in zip(written.seats, table.seats, strict=True):
                kept.connected = live.connected
            page = self.seated[conn].page
            if page is not None:
                page.receive(written.state_for(seat))
                self._show(conn, page)
            else:
                conn.send(self.seated[conn].message(written.states([seat])[0]))
        self._tell_paused(table, None)

    async def _keep(self, table: Table) -> bool:
        """Write what changed to the table's journal; whether it was written (else the table is
        paused, and the next keep writes it whole).  On the loop itself, in the order of the
        changes: appending a line to a file takes some 0.05 ms, less than handing it to a thread.
        A shared store's writes go to its writer thread, in order, while the loop goes on
        (``_changed`` tells the seats once the last change of a table is written)."""
        how, text = table.keep()
        if text:
            try:
                if self.leases is not None:
                    await self.leases.shared.write(how, table.id, text)
                elif how == "save":
                    self.store.save(table.id, text)
                else:
                    self.store.append(table.id, text)
            except OSError as exc:
                table.resave = True  # the next keep writes the whole table again
                self.unwritable = exc.strerror or str(exc) or type(exc).__name__
                if not table.paused:
                    self.log(f"table {table.id} could not be saved, and waits until it can: {self.unwritable}")
                table.paused = True
                return False
        table.paused = False
        table.told_paused.clear()
        return True

    async def _go_on(self, table: Table) -> None:
        """After a change: a finished game is filed (``_finish``), else a computer to act starts
        thinking (``_kick``)."""
        if table.over:
            await self._finish(table)
        else:
            self._kick(table)

    def _kick(self, table: Table) -> None:
        """Let the computer to act think, in a worker process, while a person is connected to the
        table (nobody there: the table waits for them)."""
        if not table.attended:
            return
        request = table.computer_request()
        if request is None:
            return
        table.thinking = True
        task = asyncio.get_running_loop().create_task(self._think(table, request))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _think(self, table: Table, request: Request) -> None:
        try:
            action = await self.thinkers.decision(
                request, table.level_of(request.seat), table.owner, table.id, lambda: table.attended
            )
        except (Busy, Dropped):  # the queue is full, or nobody is at the table: the next sweep or hello asks again
            return
        except Exception as exc:  # out of processes or descriptors, a fault of the AI: the next sweep asks again
            self.log(f"table {table.id}: a computer failed to decide ({type(exc).__name__}); it tries again")
            return
        finally:
            table.thinking = False
        if table.answer(request, action):
            await self._changed(table)
        else:
            self._kick(table)

    async def _finish(self, table: Table) -> None:
        """File the finished game on the server's shelf (``storage.library.Shelf``): its record in
        the library (the data folder's ``games/`` and ``library.sqlite3``, or a shared store's),
        with the table's file (who was human, what computers played for them)."""
        if table.filed:
            return
        table.filed = True
        try:
            line, record = await asyncio.to_thread(self._file, table)
        except OSError as exc:
            table.filed = False
            self.log(f"table {table.id}: the finished game could not be written: {exc.strerror or exc}")
            return
        if line:
            self.log(f"table {table.id}: {line}")
        settled = await self._settle(table, record)
        await asyncio.to_thread(self.store.delete, table.id)
        self._drop(table)
        if settled:  # everyone at the table sees the ratings the game made
            table.rated_for = None
            await self._changed(table, save=False)

    async def _rate_seats(self, table: Table) -> None:
        """Each seat's shown rating (``TableSeat.rating``), looked up again whenever who sits where
        changed: in a thread, since the players' store may be a database across the network (a
        lookup is one indexed read of it)."""
        players = self.players
        if players is None:
            return
        sitting = tuple((s.kind, s.key, s.level) for s in table.seats)
        if table.rated_for == sitting:
            return
        table.rated_for = sitting

        def look_up() -> list[int | None]:
            ratings: list[int | None] = []
            for kind, key, level in sitting:
                player = None
                if kind == "computer" and level is not None:
                    player = computer_id(level)
                elif kind == "human" and key is not None:
                    player = players.player_of(key)
                ratings.append(players.rating(player) if player is not None else None)
            return ratings

        try:
            ratings = await asyncio.to_thread(look_up)
        except Exception as exc:  # the store failed (sqlite3.Error, OSError): the table plays on unrated
            self.log(f"table {table.id}: the ratings could not be read ({type(exc).__name__})")
            return
        if table.rated_for == sitting:  # nobody sat or left meanwhile (else that change looks them up)
            for seat, rating in zip(table.seats, ratings, strict=True):
                seat.rating = rating

    async def _settle(self, table: Table, record: str) -> bool:
        """Rate the finished game (or count it apart: a computer stood in, a hint was asked, a person
        had no key, a key sat twice) in the players' store, once; whether it was settled now."""
        players = self.players
        game = table.game
        if players is None or game is None:
            return False
        stood = any(table.stood_in())
        keys = [s.key for s in table.seats if s.kind == "human"]
        finished = Finished(
            table=table.id,
            record=record,
            when=int(self.wall_clock()),
            seats=tuple(
                Sitter(s.key if s.kind == "human" else None, s.level if s.kind == "computer" else None, s.name or "")
                for s in table.seats
            ),
            places=tuple(places(game.totals(), game.firsts())),
            # a person without a key, or one key in two seats (one player playing against
            # themselves), rates nobody either
            rated=not stood
            and not any(s.assisted for s in table.seats)
            and None not in keys
            and len(set(keys)) == len(keys),
        )
        try:
            return await asyncio.to_thread(players.settle, finished)
        except Exception as exc:  # the store failed: the game stays filed, unrated
            self.log(f"table {table.id}: the game could not be rated ({type(exc).__name__}: {exc})")
            return False

    def _drop(self, table: Table) -> None:
        """Forget a filed table: its code and secrets are good for nothing any more, and its memory
        goes with the last connection that still shows its final state."""
        self._remove(table)
        self._forget_pages(table)
        self._tell_lobby()
        self.finished.append((self.clock() + self.finished_grace, table))

    def _forget_pages(self, table: Table, gone: bool = True) -> None:
        """What this process keeps of the table beside it: its pages, and its logo (kept in a
        shared store unless the table is ``gone``, not just held by another process now)."""
        if self.logos is not None and not gone:
            self.logos.drop(table.id)
        elif self.logos is not None:  # a file, or a query of the database: off the server's loop
            task = asyncio.get_running_loop().create_task(self._forget_logo(self.logos, table.id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        for seat in range(NUM_SEATS):
            self.pages.pop((table.id, seat), None)

    async def _forget_logo(self, logos: Logos, table_id: str) -> None:
        try:
            await asyncio.to_thread(logos.forget, table_id)
        except OSError as exc:
            self.log(f"table {table_id}: its logo could not be removed: {exc.strerror or exc}")

    def _close_finished(self) -> None:
        """Close the connections of the tables filed ``finished_grace`` ago: each has had its
        result, and the time to ask for another table (``again``); a finished table holds no
        connection for ever."""
        message = dump(ErrorMessage(code="expired", message="this game is over and its table has closed"))
        now = self.clock()
        while self.finished and self.finished[0][0] <= now:
            self._close_seats(self.finished.popleft()[1], message)

    def _close_seats(self, table: Table, message: str | None) -> None:
        """Tell every connection seated at ``table``, and every one watching it, the ``message`` (if
        any) and close it."""
        for watcher in [c for c, (t, _page) in self.watching.items() if t is table]:
            del self.watching[watcher]
            table.watchers -= 1
            if message is not None:
                watcher.send(message)
            watcher.close()
        for seat in range(NUM_SEATS):
            conn = self.holders.pop((table.id, seat), None)
            if conn is not None:
                self.seated.pop(conn, None)
                if message is not None:
                    conn.send(message)
                conn.close()

    def _file(self, table: Table) -> tuple[str | None, str]:
        """File the finished game on the shelf: the line to log (None: nothing to say), and the
        record's name."""
        game = table.game
        assert game is not None
        record = record_json(record_from_game(game))
        # the game the record is written from: the library indexes it without replaying the record
        name, line = self.shelf.file(table.id, record, table.sidecar(), table.to_file().model_dump_json(indent=2), game)
        return line, name

    async def close(self) -> int:
        """Wait for the computers that are thinking (their answers are saved), write what is still
        to be written, and flush; how many tables in play are saved (the rest could not be written)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        live = [t for t in self.tables.values() if not t.over]
        for table in live:
            if table.paused or table.resave or table.unsaved:
                await self._keep(table)
        flushed = await self.sync()
        if self.leases is not None:  # another process takes them up at once
            with contextlib.suppress(OSError):
                await asyncio.to_thread(self.leases.shared.release_all)
        self.thinkers.close()
        self.shelf.close()
        return sum(1 for t in live if not t.paused) if flushed else 0
