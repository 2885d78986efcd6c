"""Several server processes, one store: which process holds which table (``Leases``).

A store that several processes share (``pgstore.PostgresTableStore``) keeps a lease per table: a
row naming the process that holds it, held while that process lives (its own row, which a thread
of it renews every second, one row whatever the number of its tables).  A process holds only the
tables it has the lease of; every write of a table is fenced by it.  A hello for a table this
process does not hold (its code or its secret is found in the store) takes the table up: at once
when its lease is free or its process's row has lapsed (it died), else after asking its holder for
it, who hands it over at its next sweep (it closes the table's connections, whose clients connect
again, and the proxy, hashing on the table in the websocket's path, brings them here).  A table
whose lease another process took (this one was not renewed in time) is let go, its connections
closed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final, Protocol, runtime_checkable

from ..storage.library import Shelf
from .batched import Batched
from .codes import digest
from .logos import SharedLogos
from .players import PlayerStore, TransferCodes
from .protocol import Moved
from .table import TableError

MOST_WAIT: Final = 8.0  # a hello waits for a table at most this long: well within the hello deadline (10 s)
HANDED_OVER_WITHIN: Final = 2.0  # the holder's next sweep hands a table over, this process's next takes it


@runtime_checkable
class Shared(Protocol):
    """What a store shared by several processes adds to ``TableStore`` (``pgstore``'s docstrings
    say what each does)."""

    owner: str
    lease_seconds: float

    def find_code(self, code: str) -> str | None: ...

    def find_watch(self, code: str) -> str | None: ...

    def in_lobby(self, most: int) -> list[tuple[str, str]]: ...

    def find_seats(self, digests: list[str]) -> dict[str, tuple[str, int]]: ...

    def take_each(self, table_ids: list[str]) -> dict[str, str | None]: ...

    def take_many(self, table_ids: list[str]) -> list[str]: ...

    def load_many(self, table_ids: list[str]) -> dict[str, str]: ...

    def renew(self) -> dict[str, str | None]: ...

    def release(self, table_ids: list[str]) -> None: ...

    def release_all(self) -> None: ...

    def orphans(self, limit: int) -> list[str]: ...

    async def write(self, how: str, table_id: str, text: str) -> None: ...

    def shelf(self) -> Shelf: ...

    def players(self) -> PlayerStore: ...

    def transfers(self) -> TransferCodes: ...

    def logos(self) -> SharedLogos: ...


class Elsewhere(TableError):
    """Another live process holds the table and did not hand it over in time: the connection is
    closed without a word, and its client connects again (through the proxy) as after any drop."""

    def __init__(self) -> None:
        super().__init__("server", "another server process holds this table: connect again")


class ElsewhereOnTheLobbysPath(Exception):
    """A hello on the lobby's path (``/ws``) for a table this process does not hold: the client is
    told the table's own path (``protocol.Moved``) and says its hello again there, where the proxy
    hashing on the table sends it to the process that holds it.  Taking the table over from the
    lobby's path, as before, sent it to whichever process ``/ws`` hashes to, and its people's
    websockets, coming back on their table's path, took it back: two handovers for each newcomer."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id

    def reply(self) -> Moved:
        return Moved(
            table=self.table_id,
            message=f"this table is held by another server process: say hello again on /t/{self.table_id}/ws",
        )


class Leases:
    """This process's side of the leases of a ``Shared`` store."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self._locks: dict[str, asyncio.Lock] = {}  # tables a hello is taking up now
        self._waiting: dict[str, asyncio.Future[None]] = {}  # tables held by another that a hello waits for
        # a dead process's people come back by the thousand: their hellos' questions go together
        self._seats = Batched(shared.find_seats)
        self._takes = Batched(shared.take_each)  # each table asked for gets an answer (None: taken)

    async def locate(self, code: str | None, secret: str | None, watch: str | None = None) -> str | None:
        """The table of an invite code (normalized), of a seat's secret or of a watch code
        (normalized), from the store; None when it has none (or cannot be asked)."""
        try:
            if secret is not None:
                found = await self._seats.get(digest(secret))
                return found[0] if found is not None else None
            if watch is not None:
                return await asyncio.to_thread(self.shared.find_watch, watch) if watch else None
            return await asyncio.to_thread(self.shared.find_code, code) if code else None
        except OSError:
            return None

    def busy(self, table_id: str) -> bool:
        """Whether a hello is taking the table up now."""
        return table_id in self._locks

    @asynccontextmanager
    async def one_at_a_time(self, table_id: str) -> AsyncIterator[None]:
        """The hellos that take up the same table, one after the other (the later ones find it held)."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked():
                self._locks.pop(table_id, None)

    async def take(self, table_id: str) -> None:
        """Take the table's lease; when another process holds it, ask for it and wait until it is
        handed over or its lease lapses (``settle``, once a second): a little longer than a lease
        lasts or than two sweeps take (a short lease's live holder still hands it over at its
        sweep), at most ``MOST_WAIT``.  Raises ``Elsewhere``."""
        try:
            holder = await self._takes.get(table_id)
        except OSError:
            holder = "the store"
        if holder is None:
            return
        waited = self._waiting.setdefault(table_id, asyncio.get_running_loop().create_future())
        try:
            wait = max(self.shared.lease_seconds, HANDED_OVER_WITHIN) + 1.0
            await asyncio.wait_for(asyncio.shield(waited), min(wait, MOST_WAIT))
        except TimeoutError:
            raise Elsewhere() from None
        finally:
            if self._waiting.get(table_id) is waited:  # nobody waits for it any more
                del self._waiting[table_id]

    async def settle(self) -> None:
        """Take, in one statement, the tables that hellos wait for and that are free now (handed
        over, or their holder's lease lapsed), and let those hellos go on.  Raises ``OSError``."""
        for table_id, waited in list(self._waiting.items()):
            if waited.done():
                del self._waiting[table_id]
        if not self._waiting:
            return
        for table_id in await asyncio.to_thread(self.shared.take_many, list(self._waiting)):
            taken = self._waiting.pop(table_id, None)
            if taken is not None and not taken.done():
                taken.set_result(None)
