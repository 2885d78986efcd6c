"""Tables kept in PostgreSQL: ``PostgresTableStore``, the ``journal.TableStore`` of
``stepping-stones host --store postgresql://...``, which several server processes share.

Its tables (``net/migrations/``, applied in order by ``migrate``):

- ``tables``: a row per table, its snapshot (the journal's first line, as the file store's) and
  its invite code (a unique index: a code names one table across every process) and its watch
  code (an index: any process finds the table a watcher asks for), and whether it is in the lobby
  (every process shows the others' listed tables);
- ``moves``: a row per bid or card after the snapshot, one ``INSERT`` (one short transaction) each;
- ``seats``: the sha256 of every seat's secret (as the snapshot keeps it), with its table and seat,
  so that any process finds a seat by its secret;
- ``leases``: which server process holds a table, and which other process asked for it
  (``wanted``); a lease is held while its process lives:
- ``processes``: a row per server process, until when it lives, renewed every second by one
  statement (``beat``), whatever the number of its tables (their lease rows are not written);
- ``players``, ``player_keys``, ``player_games``, ``settled_games``: the players and their ratings
  (``PostgresPlayerStore``), one row a player for every process.

Every write of a table is fenced by its lease: a process that no longer holds the table (it was
taken up by another after this one stopped renewing) cannot write it, and its table pauses (the
write raises ``OSError``, as a full disk does for the file store).  A process's life goes by the
clock as each statement runs (``clock_timestamp()``, not the transaction's start, ``now()``).
Every failure of the database (gone, refusing, a constraint) is an ``OSError`` with one line, so
that the server pauses the table and tries again, as for a disk.

Commits are asynchronous (``synchronous_commit = off``): the database has a move as soon as it is
committed, a crash of the server process loses nothing, and ``sync`` (once a second) makes what was
committed survive a crash of the database's machine too, as the file store's ``fsync`` does.
"""

from __future__ import annotations

import asyncio
import builtins
import errno
import json
import os
import queue
import re
import secrets
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, Final, TypeVar

import psycopg
from psycopg.rows import dict_row

from .codes import digest, new_code, normal_code
from .players import TRANSFER_SECONDS, Finished, PlayedGame, Rated, game_rows
from .ratings import COMPUTER_PREFIX, Skill, computer_id, fresh, rate, shown

if TYPE_CHECKING:
    from ..engine import Game
    from ..storage.library import HistoryEntry, PlayerStats

_T = TypeVar("_T")

LEASE_SECONDS: Final = 5.0  # a process not renewed for this long is dead, its leases free: the time its tables wait
MIGRATIONS: Final = "migrations"
_LOCK_KEY: Final = 0x5354_4F4E  # the advisory lock that lets one process at a time migrate
_LIVE: Final = (  # whether the process that a lease row names (``{lease}.owner``) lives: its row has not lapsed
    "EXISTS (SELECT 1 FROM processes p WHERE p.owner = {lease}.owner AND p.expires > clock_timestamp())"
)
_BEAT: Final = (  # one statement a beat, one row a process, whatever the number of tables it holds
    "INSERT INTO processes (owner, expires) VALUES (%(me)s, clock_timestamp() + make_interval(secs => %(secs)s)) "
    "ON CONFLICT (owner) DO UPDATE SET expires = excluded.expires"
)
# what fails one table's snapshot and not the batch around it: a constraint, a row it waited too long
# for (``lock_timeout``: another process's transaction, or the leases' renewal, held it), a statement
# the database cancelled (``statement_timeout``)
_ONE_TABLE: Final = (psycopg.errors.IntegrityError, psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled)
MOST_BATCHED: Final = 500  # writes in one transaction of the writer thread at most
MOST_SAVES: Final = 50  # and snapshots (some eight statements each: the transaction holds their leases' rows)
_APPEND_MANY: Final = (
    "WITH batch (table_id, line, k) AS (SELECT * FROM unnest(%(t)s::text[], %(lines)s::text[], %(k)s::int[])), "
    "held AS (SELECT table_id FROM leases l WHERE owner = %(me)s AND table_id = ANY(%(t)s) AND "
    + _LIVE.format(lease="l")
    + "), "
    "base AS (SELECT h.table_id, coalesce((SELECT max(n) FROM moves m WHERE m.table_id = h.table_id), 0) AS n "
    "FROM held h) "
    "INSERT INTO moves (table_id, n, line) SELECT b.table_id, base.n + b.k, b.line "
    "FROM batch b JOIN base USING (table_id) JOIN tables t ON t.id = b.table_id RETURNING table_id"
)


@dataclass
class _Write:
    """A write handed to the writer thread, and how to tell the loop it is done."""

    how: str
    table_id: str
    text: str
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None] = field(repr=False)

    def tell(self, failure: OSError | None) -> None:
        """On the loop: the write is done (or failed with ``failure``)."""
        if not self.done.done():
            if failure is None:
                self.done.set_result(None)
            else:
                self.done.set_exception(failure)


def _finish(batch: list[_Write], failures: dict[int, OSError]) -> None:
    """Tell each loop that its writes of ``batch`` are done: one wake-up of each loop for the whole
    batch (a wake-up is a write to the loop's pipe, and a batch holds tens of writes)."""
    loops: dict[asyncio.AbstractEventLoop, list[_Write]] = {}
    for write in batch:
        loops.setdefault(write.loop, []).append(write)
    for loop, writes in loops.items():
        loop.call_soon_threadsafe(_tell_all, writes, failures)


def _tell_all(writes: list[_Write], failures: dict[int, OSError]) -> None:
    for write in writes:
        write.tell(failures.get(id(write)))


def new_owner() -> str:
    """This process's name as a lease holder: host, process id and a random part (a process that
    starts again with the same id is another holder)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def migrations() -> list[tuple[int, str, str]]:
    """The schema's steps, in order: (number, file name, SQL) of ``net/migrations/NNNN_*.sql``."""
    found = []
    for entry in resources.files(__package__).joinpath(MIGRATIONS).iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conn: psycopg.Connection[Any]) -> list[str]:
    """Apply the steps the database has not had yet, each in its own transaction, one process at a
    time (an advisory lock); the names of those applied."""
    applied: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL)")
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        done = int(row[0]) if row else 0
        for number, name, sql in migrations():
            if number > done:
                conn.execute(sql.encode("utf-8"))
                conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (number, name))
                applied.append(name)
    return applied


def beat(conn: psycopg.Connection[Any], owner: str, lease_seconds: float) -> None:
    """Renew the process ``owner`` for ``lease_seconds`` from now, and so every lease it holds: one
    statement, one row, whatever the number of its tables (their lease rows are not written)."""
    conn.execute(_BEAT, {"me": owner, "secs": lease_seconds})


def failure(exc: psycopg.Error) -> OSError:
    """A database's failure as the server reads a disk's: an ``OSError`` with one line."""
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return OSError(errno.EIO, f"the database: {first}")


class PostgresTableStore:
    """A ``TableStore`` in PostgreSQL, shared by server processes (see the module's docstring).
    ``dsn`` is a libpq connection string or ``postgresql://`` URL; ``owner`` names this process
    as a lease holder."""

    def __init__(self, dsn: str, *, owner: str | None = None, lease_seconds: float = LEASE_SECONDS) -> None:
        self.dsn = dsn
        self.owner = owner or new_owner()
        self.lease_seconds = lease_seconds
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()  # one connection: the loop writes, threads load, list and sync
        self._unsynced = False
        self._queue: queue.SimpleQueue[_Write] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._broken: set[str] = set()  # tables whose write failed: no line after it until a snapshot
        self._heart: threading.Thread | None = None  # renews the leases while the process lives
        self._stop = threading.Event()

    # --- the connection --------------------------------------------------------------------------

    def _connect(self, migrated: bool = False) -> psycopg.Connection[Any]:
        conn = psycopg.connect(
            self.dsn,
            autocommit=True,
            connect_timeout=5,
            # a database that hangs must not hold the server for ever: its write fails, the table pauses
            options="-c synchronous_commit=off -c statement_timeout=5000 -c lock_timeout=2000",
            application_name="stepping-stones host",
        )
        if not migrated:
            migrate(conn)
        return conn

    def open(self) -> list[str]:
        """Connect now (and bring the schema up to date); the migrations applied.  Raises
        ``OSError`` with one line when the database cannot be had."""
        with self._lock:
            try:
                conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=5)
                try:
                    applied = migrate(conn)
                finally:
                    conn.close()
                self._conn = self._connect()
                # the rows of processes long gone (each start is a new one): their leases are free already
                self._conn.execute("DELETE FROM processes WHERE expires < clock_timestamp() - interval '1 day'")
            except psycopg.Error as exc:
                raise failure(exc) from None
        return applied

    @contextmanager
    def _db(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection (made again after a failure), with the lock held; a database's failure
        raises ``OSError``."""
        with self._lock:
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = self._connect()
                yield self._conn
            except psycopg.Error as exc:
                conn, self._conn = self._conn, None
                if conn is not None and not isinstance(exc, psycopg.errors.IntegrityError):
                    conn.close()  # broken, or in a state not worth finding out: a new one next time
                elif conn is not None:
                    self._conn = conn
                raise failure(exc) from None

    def _beat(self) -> None:
        """Start renewing this process (its row in ``processes``, and so all its leases) in a
        thread of its own, on a connection of its own, every fifth of a lease: a loop slowed down
        by its load does not let its tables go.  The first beat is made before the first lease is
        taken, here: a lease counts only while its process's row has not lapsed."""
        if self._heart is None or not self._heart.is_alive():
            self._stop.clear()
            conn: psycopg.Connection[Any] | None = None
            try:
                conn = self._connect(migrated=True)
                beat(conn, self.owner, self.lease_seconds)
            except psycopg.Error:
                if conn is not None:
                    conn.close()
                conn = None  # the thread tries again at its first beat
            self._heart = threading.Thread(target=self._beat_on, args=(conn,), name="pgstore leases", daemon=True)
            self._heart.start()

    def _beat_on(self, conn: psycopg.Connection[Any] | None) -> None:
        try:
            while not self._stop.wait(min(1.0, self.lease_seconds / 5)):
                try:
                    if conn is None or conn.closed:
                        conn = self._connect(migrated=True)
                    beat(conn, self.owner, self.lease_seconds)
                except psycopg.Error:
                    if conn is not None:
                        conn.close()
                    conn = None  # again at the next beat
        finally:
            if conn is not None:
                conn.close()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def shelf(self) -> PostgresShelf:
        """The library of finished games in the same database (``PostgresShelf``)."""
        return PostgresShelf(self.dsn)

    def players(self) -> PostgresPlayerStore:
        """The players and their ratings in the same database, one row a player for every process
        (``PostgresPlayerStore``)."""
        return PostgresPlayerStore(self.dsn)

    def transfers(self) -> PostgresTransfers:
        """The live transfer codes in the same database, good on every process
        (``PostgresTransfers``)."""
        return PostgresTransfers(self.dsn)

    def logos(self) -> PostgresLogos:
        """The clubs' logos and the tables' choice of them in the same database, for every
        process (``PostgresLogos``)."""
        return PostgresLogos(self.dsn)

    # --- the six methods of TableStore -----------------------------------------------------------

    def _take(self, conn: psycopg.Connection[Any], table_id: str) -> str | None:
        """Take the table's lease if it is free, expired or this process's own; else ask its holder
        for it, and return the holder."""
        return self._take_each(conn, [table_id])[table_id]

    def _take_each(self, conn: psycopg.Connection[Any], table_ids: builtins.list[str]) -> dict[str, str | None]:
        """``_take`` of each table, in two statements whatever their number."""
        taken = set(self._take_free(conn, table_ids))
        rest = sorted(set(table_ids) - taken)
        held: dict[str, str] = {}
        if rest:
            rows = conn.execute(
                "UPDATE leases SET wanted = %s WHERE table_id = ANY(%s) AND owner <> %s RETURNING table_id, owner",
                (self.owner, rest, self.owner),
            ).fetchall()
            held = {str(r[0]): str(r[1]) for r in rows}
        return {t: None if t in taken else held.get(t, "another process") for t in table_ids}

    def _take_free(self, conn: psycopg.Connection[Any], table_ids: builtins.list[str]) -> builtins.list[str]:
        """Take the leases of those tables that are free, lapsed or this process's own, in one
        statement (in the order of their ids: two processes lock them alike); the tables taken."""
        self._beat()
        rows = conn.execute(
            "INSERT INTO leases (table_id, owner) SELECT t, %s FROM unnest(%s::text[]) AS t "
            "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, wanted = NULL "
            "WHERE leases.owner = excluded.owner OR NOT " + _LIVE.format(lease="leases") + " RETURNING table_id",
            (self.owner, sorted(set(table_ids))),
        ).fetchall()
        return [str(r[0]) for r in rows]

    def save(self, table_id: str, text: str) -> None:
        """Replace the table's journal with ``text`` (a snapshot, maybe moves after it), in one
        transaction that takes or renews its lease.  Raises ``OSError``."""
        with self._db() as conn, conn.transaction():
            self._save(conn, table_id, text)
        self._unsynced = True

    def _save(self, conn: psycopg.Connection[Any], table_id: str, text: str) -> None:
        first, *rest = [line for line in text.split("\n") if line]
        data = json.loads(first)
        code = str(data.get("code", ""))
        watch = data.get("watch") or None
        seats = data.get("seats", [])
        lobby = bool(data.get("listed")) and data.get("record") is None and any(s.get("kind") == "open" for s in seats)
        digests = [(s["digest"], seat) for seat, s in enumerate(data.get("seats", [])) if s.get("digest")]
        holder = self._take(conn, table_id)
        if holder is not None:
            raise OSError(errno.EBUSY, f"another server process holds table {table_id}")
        conn.execute(
            "INSERT INTO tables (id, code, watch, lobby, opened, snapshot) VALUES (%s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (id) DO UPDATE SET code = excluded.code, watch = excluded.watch, lobby = excluded.lobby, "
            "opened = excluded.opened, snapshot = excluded.snapshot, updated = now()",
            (table_id, code, watch, lobby, data.get("opened"), first),
        )
        conn.execute("DELETE FROM moves WHERE table_id = %s", (table_id,))
        conn.execute("DELETE FROM seats WHERE table_id = %s", (table_id,))
        with conn.cursor() as cur:
            if digests:
                cur.executemany(
                    "INSERT INTO seats (digest, table_id, seat) VALUES (%s, %s, %s)",
                    [(d, table_id, seat) for d, seat in digests],
                )
            if rest:
                cur.executemany(
                    "INSERT INTO moves (table_id, n, line) VALUES (%s, %s, %s)",
                    [(table_id, n, line) for n, line in enumerate(rest, 1)],
                )

    def append(self, table_id: str, lines: str) -> None:
        """Add ``lines`` (each ending in a newline) after the journal: one statement, fenced by the
        lease.  Raises ``OSError`` (``FileNotFoundError`` for a table never saved)."""
        moves = lines.split("\n")[:-1]
        if not moves:
            return
        with self._db() as conn:
            cur = conn.execute(
                "INSERT INTO moves (table_id, n, line) SELECT %(t)s, m.base + o.i, o.line "
                "FROM (SELECT coalesce(max(n), 0) AS base FROM moves WHERE table_id = %(t)s) m, "
                "unnest(%(lines)s::text[]) WITH ORDINALITY AS o(line, i) "
                "WHERE EXISTS (SELECT 1 FROM leases l WHERE table_id = %(t)s AND owner = %(me)s AND "
                + _LIVE.format(lease="l")
                + ")",
                {"t": table_id, "lines": moves, "me": self.owner},
            )
            if cur.rowcount != len(moves):
                if conn.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone() is None:
                    raise FileNotFoundError(errno.ENOENT, f"no table {table_id}")
                raise OSError(errno.EBUSY, f"this process no longer holds table {table_id}")
        self._unsynced = True

    # --- the server's writes, off its loop ---------------------------------------------------------

    async def write(self, how: str, table_id: str, text: str) -> None:
        """``save`` (``how`` is ``save``) or ``append`` in the writer thread, which writes what
        waits in one transaction (the appends in one statement): the loop does not wait for the
        database, and a busy server makes one round trip for many moves.  In the order they were
        handed; after a table's write fails, its appends fail too until a snapshot is written.
        Raises ``OSError``."""
        loop = asyncio.get_running_loop()
        write = _Write(how, table_id, text, loop, loop.create_future())
        if self._writer is None or not self._writer.is_alive():
            self._writer = threading.Thread(target=self._write_on, name="pgstore writer", daemon=True)
            self._writer.start()
        self._queue.put(write)
        await write.done

    def _write_on(self) -> None:
        while True:
            batch = [self._queue.get()]
            saves = int(batch[0].how == "save")
            while len(batch) < MOST_BATCHED and saves < MOST_SAVES:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
                saves += batch[-1].how == "save"
            try:
                failures = self._write_batch(batch)
            except OSError as exc:  # the database failed: nothing of the batch was written
                self._broken.update(w.table_id for w in batch)
                failures = {id(w): exc for w in batch}
            _finish(batch, failures)

    def _write_batch(self, batch: builtins.list[_Write]) -> dict[int, OSError]:
        """Write ``batch`` in one transaction: each snapshot in a savepoint of its own, each run of
        appends between them in one statement; the writes that failed, and why."""
        failures: dict[int, OSError] = {}
        run: builtins.list[_Write] = []

        def failed(write: _Write, exc: OSError) -> None:
            failures[id(write)] = exc
            self._broken.add(write.table_id)

        def flush(conn: psycopg.Connection[Any]) -> None:
            ids, lines, ks = [], [], []
            counts: dict[str, int] = {}
            for write in run:
                if write.table_id in self._broken:
                    failed(write, OSError(errno.EIO, "an earlier write of this table failed"))
                    continue
                for line in write.text.split("\n")[:-1]:
                    counts[write.table_id] = counts.get(write.table_id, 0) + 1
                    ids.append(write.table_id)
                    lines.append(line)
                    ks.append(counts[write.table_id])
            written: set[str] = set()
            if ids:
                found = conn.execute(_APPEND_MANY, {"t": ids, "lines": lines, "k": ks, "me": self.owner})
                written = {str(r[0]) for r in found}
            for write in run:
                if id(write) not in failures and write.table_id not in written and write.text:
                    failed(write, OSError(errno.EBUSY, f"this process no longer holds table {write.table_id}"))
            run.clear()

        if all(write.how != "save" for write in batch):  # moves only, the usual batch: one statement,
            with self._db() as conn:  # its own transaction, one round trip (no BEGIN and COMMIT around it)
                run.extend(batch)
                flush(conn)
            self._unsynced = True
            return failures
        with self._db() as conn, conn.transaction():
            for write in batch:
                if write.how != "save":
                    run.append(write)
                    continue
                flush(conn)
                try:
                    with conn.transaction():  # a savepoint: a snapshot refused leaves the others
                        self._save(conn, write.table_id, write.text)
                except OSError as exc:
                    failed(write, exc)
                except _ONE_TABLE as exc:  # refused, or it waited too long for a row: this table pauses alone
                    failed(write, failure(exc))
                else:
                    self._broken.discard(write.table_id)
            flush(conn)
        self._unsynced = True
        return failures

    def load(self, table_id: str) -> str:
        """The table's journal as the file store's reads: the snapshot, then a line per move.
        Raises ``KeyError`` for a table it does not hold, ``OSError`` when the database fails."""
        with self._db() as conn:
            row = conn.execute(
                "SELECT snapshot, array(SELECT line FROM moves WHERE table_id = t.id ORDER BY n) "
                "FROM tables t WHERE id = %s",
                (table_id,),
            ).fetchone()
        if row is None:
            raise KeyError(table_id)
        return "".join(line + "\n" for line in [row[0], *row[1]])

    def load_many(self, table_ids: builtins.list[str]) -> dict[str, str]:
        """The journals of those tables the store holds, by id, in one query (``load``'s each)."""
        with self._db() as conn:
            rows = conn.execute(
                "SELECT id, snapshot, array(SELECT line FROM moves WHERE table_id = t.id ORDER BY n) "
                "FROM tables t WHERE id = ANY(%s)",
                (table_ids,),
            ).fetchall()
        return {str(r[0]): "".join(line + "\n" for line in [r[1], *r[2]]) for r in rows}

    def list(self) -> list[str]:
        with self._db() as conn:
            return [str(r[0]) for r in conn.execute("SELECT id FROM tables ORDER BY id")]

    def delete(self, table_id: str) -> None:
        with self._db() as conn, conn.transaction():
            conn.execute("DELETE FROM tables WHERE id = %s", (table_id,))
            conn.execute("DELETE FROM leases WHERE table_id = %s AND owner = %s", (table_id, self.owner))

    def sync(self) -> None:
        """Make every commit so far durable: one statement, a transaction that commits
        synchronously (a transaction id makes it a writing one, whose commit waits for the log up
        to it)."""
        if not self._unsynced:
            return
        self._unsynced = False
        with self._db() as conn:  # one statement, one round trip: the setting lasts its own transaction
            conn.execute("SELECT set_config('synchronous_commit', 'on', true), txid_current()")

    # --- several processes: finding tables, and their leases -------------------------------------

    def in_lobby(self, most: int) -> builtins.list[tuple[str, str]]:
        """The tables in the lobby (listed, not started, a seat free), the newest ``most``: their
        ids and snapshots, whichever process holds them."""
        with self._db() as conn:
            rows = conn.execute(
                "SELECT id, snapshot FROM tables WHERE lobby ORDER BY opened DESC NULLS LAST LIMIT %s", (most,)
            ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def find_watch(self, code: str) -> str | None:
        """The table whose watch code is ``code`` (normalized), or None."""
        with self._db() as conn:
            row = conn.execute(
                "SELECT id FROM tables WHERE watch = %s ORDER BY updated DESC LIMIT 1", (code,)
            ).fetchone()
        return str(row[0]) if row is not None else None

    def find_code(self, code: str) -> str | None:
        """The table whose invite code is ``code`` (normalized), or None."""
        with self._db() as conn:
            row = conn.execute("SELECT id FROM tables WHERE code = %s", (code,)).fetchone()
        return str(row[0]) if row is not None else None

    def find_seats(self, digests: builtins.list[str]) -> dict[str, tuple[str, int]]:
        """The table and seat of each secret whose sha256 is one of ``digests`` (those the store
        has), in one statement."""
        with self._db() as conn:
            rows = conn.execute(
                "SELECT digest, table_id, seat FROM seats WHERE digest = ANY(%s)", (digests,)
            ).fetchall()
        return {str(r[0]): (str(r[1]), int(r[2])) for r in rows}

    def take(self, table_id: str) -> str | None:
        """Take the table's lease: None when this process holds it now, else the live holder (who
        is asked for it, and hands it over at its next renewal)."""
        with self._db() as conn, conn.transaction():
            return self._take(conn, table_id)

    def take_each(self, table_ids: builtins.list[str]) -> dict[str, str | None]:
        """``take`` of each table (the holder of each that is not free, asked for it, or None), in
        one transaction of two statements."""
        with self._db() as conn, conn.transaction():
            return self._take_each(conn, table_ids)

    def take_many(self, table_ids: builtins.list[str]) -> builtins.list[str]:
        """Take the leases of those tables that are free, lapsed or this process's own, in one
        statement (the others are left to their holders); the tables taken."""
        if not table_ids:
            return []
        with self._db() as conn:
            return self._take_free(conn, table_ids)

    def renew(self) -> dict[str, str | None]:
        """The tables this process holds (held while its row in ``processes`` is renewed by a
        thread of its own), each with the process that asked for it (or None).  A table held
        before and missing now was taken up by another."""
        self._beat()
        with self._db() as conn:
            rows = conn.execute("SELECT table_id, wanted FROM leases WHERE owner = %s", (self.owner,)).fetchall()
        return {str(r[0]): (str(r[1]) if r[1] is not None else None) for r in rows}

    def release(self, table_ids: builtins.list[str]) -> None:
        """Give the tables up: each to the process that asked for it, else to whoever takes it next."""
        with self._db() as conn, conn.transaction():
            conn.execute(
                "UPDATE leases SET owner = wanted, wanted = NULL "
                "WHERE table_id = ANY(%s) AND owner = %s AND wanted IS NOT NULL",
                (table_ids, self.owner),
            )
            conn.execute("DELETE FROM leases WHERE table_id = ANY(%s) AND owner = %s", (table_ids, self.owner))

    def release_all(self) -> None:
        """Give up every lease of this process (it stops): another takes its tables at once."""
        with self._db() as conn:
            conn.execute(
                "UPDATE leases SET owner = wanted, wanted = NULL WHERE owner = %s AND wanted IS NOT NULL", (self.owner,)
            )
            conn.execute("DELETE FROM leases WHERE owner = %s", (self.owner,))
            conn.execute("DELETE FROM processes WHERE owner = %s", (self.owner,))

    def orphans(self, limit: int = 100) -> builtins.list[str]:
        """Tables that no live process holds (their holder died, or stopped) or this one holds,
        oldest change first."""
        with self._db() as conn:
            rows = conn.execute(
                "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id "
                "WHERE l.table_id IS NULL OR l.owner = %s OR NOT "
                + _LIVE.format(lease="l")
                + " ORDER BY t.updated LIMIT %s",
                (self.owner, limit),
            ).fetchall()
        return [str(r[0]) for r in rows]


# --- the shared library of finished games ------------------------------------------------------

_PG_ROWS: Final = (  # the rows ``stats``' queries read, as the data folder's library names them
    "WITH g AS (SELECT hash, file, played, rules, complete, hands, assisted, seed FROM library_games), "
    "s AS (SELECT * FROM library_seats), r AS (SELECT * FROM library_results),"
)


def _pg(sql: str) -> str:
    """SQLite's named parameters (``:player``) as psycopg's (``%(player)s``)."""
    return re.sub(r"(?<![:\w]):([a-z_]+)", r"%(\1)s", sql)


class _Connected:
    """One connection to the store, shared by the loop and by threads under a lock: made (and the
    schema brought up to date) at the first use, and made again after a failure of the database,
    which is ``OSError`` in one line (``failure``)."""

    NAME = "stepping-stones"
    """The connection's ``application_name`` (what ``pg_stat_activity`` shows of it)."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn  # a libpq connection string or ``postgresql://`` URL
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()

    @contextmanager
    def _db(self) -> Iterator[psycopg.Connection[Any]]:
        with self._lock:
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = psycopg.connect(
                        self.dsn, autocommit=True, connect_timeout=5, application_name=self.NAME
                    )
                    migrate(self._conn)
                yield self._conn
            except psycopg.Error as exc:
                broken, self._conn = self._conn, None
                if broken is not None:
                    broken.close()
                raise failure(exc) from None

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


class PostgresShelf(_Connected):
    """The finished games of every server process on the store, in the database (``library_*``,
    ``migrations/0002_library.sql``): ``storage.library.Shelf``, the same contract as the data
    folder's ``FolderShelf``.  A record, its sidecar and notes and the library's index rows of it
    are filed in one transaction, once per table; ``stats`` and ``history`` ask the data folder's
    library's own queries (``storage.library.QUERIES``) of these rows, in one read."""

    NAME = "stepping-stones library"

    def file(
        self, table_id: str, record: str, sidecar: str, notes: str, game: Game | None = None
    ) -> tuple[str, str | None]:
        from ..storage.files import stamp
        from ..storage.library import rows_to_file
        from ..storage.records import RecordError

        name = f"table-{stamp()}-{table_id}.json"
        try:
            rows = rows_to_file(name, record, sidecar, game)
        except RecordError as exc:  # a record the server made and the engine refuses: kept all the same
            raise OSError(errno.EINVAL, f"the record of table {table_id}: {exc.line()}") from None
        with self._db() as conn, conn.transaction():
            filed = conn.execute(
                "INSERT INTO library_games (hash, file, played, rules, complete, hands, assisted, seed, "
                "table_id, record, sidecar, notes) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING RETURNING file",
                (*rows.game, table_id, record, sidecar, notes),
            ).fetchone()
            if filed is None:  # filed before (a crash after the filing, before the table left the store)
                row = conn.execute(
                    "UPDATE library_games SET notes = %s WHERE table_id = %s OR hash = %s RETURNING file",
                    (notes, table_id, rows.game[0]),
                ).fetchone()
                return (str(row[0]) if row is not None else name), None
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO library_seats VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", rows.seats)
                cur.executemany("INSERT INTO library_results VALUES (%s, %s, %s, %s, %s, %s)", rows.results)
        return name, None

    def _read(self, work: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """``work`` in one read-only transaction of one state (``REPEATABLE READ``); a failure of
        the database, or a row that is not the library's, is ``LibraryError``."""
        from ..storage.library import LibraryError

        try:
            with self._db() as conn:
                conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                try:
                    return work(conn)
                finally:
                    conn.execute("COMMIT")
        except OSError as exc:
            raise LibraryError(f"the library in the store cannot be read: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise LibraryError(f"the library in the store holds a wrong row: {exc}") from None

    def history(self) -> builtins.list[HistoryEntry]:
        from ..storage.library import history_elsewhere

        def work(conn: psycopg.Connection[Any]) -> builtins.list[HistoryEntry]:
            with conn.cursor(row_factory=dict_row) as cur:
                games = cur.execute(
                    "SELECT hash, file, played, rules, complete, hands, assisted, seed FROM library_games"
                ).fetchall()
                seats = cur.execute("SELECT * FROM library_seats").fetchall()
            return history_elsewhere(games, seats)

        return self._read(work)

    def _ask(self, player: str | None, include: bool) -> Callable[[psycopg.Connection[Any]], Callable[[str], Any]]:
        from ..storage.library import MINE

        def bind(conn: psycopg.Connection[Any]) -> Callable[[str], Any]:
            return lambda body: conn.execute(
                _pg(_PG_ROWS + MINE + body).encode("utf-8"), {"player": player, "include": include}
            ).fetchall()

        return bind

    def person(self) -> str | None:
        from ..storage.library import QUERIES

        rows = self._read(lambda conn: self._ask(None, False)(conn)(QUERIES["person"]))
        return str(rows[0][0]) if rows else None

    def stats(self, player: str, include_assisted: bool = False) -> PlayerStats:
        from ..storage.library import answers_elsewhere

        return self._read(
            lambda conn: answers_elsewhere(self._ask(player, include_assisted)(conn), player, include_assisted)
        )

    def record(self, name: str) -> str:
        with self._db() as conn:
            row = conn.execute("SELECT record FROM library_games WHERE file = %s", (name,)).fetchone()
        if row is None:
            raise KeyError(name)
        return str(row[0])


# --- the players and their ratings, shared by every process -------------------------------------
#
# The players of every server process on one PostgreSQL store: ``PostgresPlayerStore``, the
# ``players.PlayerStore`` of ``stepping-stones host --store postgresql://...``.
#
# The same rows as the data folder's ``players.sqlite3`` (``migrations/0003_players.sql``), so that
# two processes behind the proxy rate one player in one row, and a player's keys, games and rating
# are the same whichever process a hello or a page reaches.  A finished game is settled in two
# steps:
#
# 1. its people are found or made (``join``: a short transaction each, one key at a time, by a
#    transaction-level advisory lock on the key's digest, so that two processes never make two
#    players of one key) and its computer levels made, each in a statement of its own;
# 2. one transaction marks the table settled (a table is settled once: a second process that
#    settles it waits for the first's commit and finds it done), locks its players' rows
#    (``SELECT ... FOR UPDATE``, in the order of their ids: no two settlements wait for each other
#    in a circle), rates them from what it read under the lock, and writes them.
#
# So two processes settling two games of one player at once each rate from the other's result:
# no rating is lost (``tests/test_ratings.py`` holds the row and lets both wait on it).


class PostgresPlayerStore(_Connected):
    """``PlayerStore`` in PostgreSQL (the comment above).  ``dsn`` is a libpq connection
    string or ``postgresql://`` URL.  A failure of the database is ``OSError`` with one line (the
    server then plays on unrated, as when the data folder's file fails)."""

    NAME = "stepping-stones players"

    def player_of(self, key: str) -> str | None:
        with self._db() as conn:
            row = conn.execute("SELECT player FROM player_keys WHERE digest = %s", (key,)).fetchone()
        return str(row[0]) if row is not None else None

    @staticmethod
    def _join(conn: psycopg.Connection[Any], key: str, name: str, when: int) -> str:
        with conn.transaction():  # one key at a time across processes: one player a key
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            row = conn.execute("SELECT player FROM player_keys WHERE digest = %s", (key,)).fetchone()
            if row is not None:
                conn.execute("UPDATE players SET name = %s WHERE id = %s AND name <> %s", (name, row[0], name))
                return str(row[0])
            player = secrets.token_hex(8)
            conn.execute("INSERT INTO players (id, name, since) VALUES (%s, %s, %s)", (player, name, when))
            conn.execute("INSERT INTO player_keys (digest, player) VALUES (%s, %s)", (key, player))
            return player

    def join(self, key: str, name: str) -> str:
        import time

        with self._db() as conn:
            return self._join(conn, key, name, int(time.time()))

    def add_key(self, player: str, key: str) -> None:
        with self._db() as conn:
            conn.execute(
                "INSERT INTO player_keys (digest, player) VALUES (%s, %s) "
                "ON CONFLICT (digest) DO UPDATE SET player = excluded.player",
                (key, player),
            )

    def rating(self, player: str) -> int | None:
        with self._db() as conn:
            row = conn.execute("SELECT mu, sigma FROM players WHERE id = %s", (player,)).fetchone()
        if row is None or row[0] is None:
            return None
        return shown(Skill(float(row[0]), float(row[1])))

    def name(self, player: str) -> str | None:
        with self._db() as conn:
            row = conn.execute("SELECT name FROM players WHERE id = %s", (player,)).fetchone()
        return str(row[0]) if row is not None else None

    def record(self, player: str, table: str) -> tuple[str, int] | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT record, seat FROM player_games WHERE player = %s AND tab = %s ORDER BY seat LIMIT 1",
                (player, table),
            ).fetchone()
        return (str(row[0]), int(row[1])) if row is not None else None

    def settle(self, game: Finished) -> bool:
        with self._db() as conn:
            if conn.execute("SELECT 1 FROM settled_games WHERE tab = %s", (game.table,)).fetchone():
                return False
            # 1. its people and computers, each found or made in a short transaction of its own
            ids: list[str | None] = []
            for sitter in game.seats:
                if sitter.level is not None:
                    player = computer_id(sitter.level)
                    conn.execute(
                        "INSERT INTO players (id, name, since) VALUES (%s, %s, %s) ON CONFLICT (id) DO NOTHING",
                        (player, f"Computer ({sitter.level})", game.when),
                    )
                    ids.append(player)
                else:
                    ids.append(self._join(conn, sitter.key, sitter.name, game.when) if sitter.key else None)
            known = [p for p in ids if p is not None]
            rated = game.rated and len(known) == len(ids)
            # 2. settled once; its players' rows locked, in order, and rated from what is read under the lock
            with conn.transaction():
                if (
                    conn.execute(
                        "INSERT INTO settled_games (tab) VALUES (%s) ON CONFLICT DO NOTHING RETURNING tab",
                        (game.table,),
                    ).fetchone()
                    is None
                ):
                    return False
                rows = conn.execute(
                    "SELECT id, mu, sigma FROM players WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                    (sorted(set(known)),),
                ).fetchall()
                skills = {str(r[0]): fresh() if r[1] is None else Skill(float(r[1]), float(r[2])) for r in rows}
                after: dict[str, Skill] = {}
                if rated:
                    after = rate(known, skills, game.places)
                    for player, skill in sorted(after.items()):
                        conn.execute(
                            "UPDATE players SET mu = %s, sigma = %s, rated = rated + 1 WHERE id = %s",
                            (skill.mu, skill.sigma, player),
                        )
                else:
                    for player in sorted(set(known)):
                        conn.execute("UPDATE players SET apart = apart + 1 WHERE id = %s", (player,))
                for row in game_rows(game, ids, rated, after):
                    conn.execute(
                        "INSERT INTO player_games VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                        row,
                    )
            return True

    def top(self, limit: int) -> list[Rated]:
        with self._db() as conn:
            rows = conn.execute(  # the shown rating is mu - 3 sigma, scaled: the order is the same
                "SELECT name, mu, sigma, rated, apart, id FROM players WHERE mu IS NOT NULL "
                'ORDER BY mu - 3 * sigma DESC, name COLLATE "C" LIMIT %s',
                (limit,),
            ).fetchall()
        return [
            Rated(
                str(name),
                shown(Skill(float(mu), float(sigma))),
                int(rated),
                int(apart),
                str(pid).startswith(COMPUTER_PREFIX),
            )
            for name, mu, sigma, rated, apart, pid in rows
        ]

    def games(self, player: str, limit: int) -> list[PlayedGame]:
        with self._db() as conn:
            rows = conn.execute(
                "SELECT record, tab, finished, seat, place, rated, rating, names FROM player_games "
                "WHERE player = %s ORDER BY finished DESC, tab LIMIT %s",
                (player, limit),
            ).fetchall()
        return [PlayedGame.of_row(r) for r in rows]


class PostgresTransfers(_Connected):
    """``players.Transfers`` in PostgreSQL (``migrations/0007_transfers.sql``): a code made by one
    process is good on every other, for ``seconds`` by the database's clock, and only its sha256
    is kept.  A failure of the database is ``OSError`` in one line."""

    NAME = "stepping-stones transfers"

    def __init__(self, dsn: str, seconds: float = TRANSFER_SECONDS) -> None:
        super().__init__(dsn)
        self.seconds = seconds

    def new(self, player: str) -> str:
        """A fresh code for ``player``; an earlier live code of theirs is good no more."""
        code = new_code()
        with self._db() as conn, conn.transaction():
            conn.execute("DELETE FROM player_transfers WHERE player = %s OR expires <= now()", (player,))
            conn.execute(
                "INSERT INTO player_transfers (digest, player, expires) "
                "VALUES (%s, %s, now() + make_interval(secs => %s))",
                (digest(code), player, self.seconds),
            )
        return code

    def use(self, typed: str) -> str | None:
        """The player of the code ``typed`` (any case, with or without the dash), which is spent
        whichever process made it; None when it is no live code."""
        code = normal_code(typed)
        if code is None:
            return None
        with self._db() as conn:
            row = conn.execute(
                "DELETE FROM player_transfers WHERE digest = %s RETURNING player, expires > now()", (digest(code),)
            ).fetchone()
        return str(row[0]) if row is not None and row[1] else None


class PostgresLogos(_Connected):
    """The clubs' logos in PostgreSQL (``migrations/0008_logos.sql``), behind ``logos.Logos`` of a
    process on a shared store: a logo sent to one process is there for a table opened on another,
    a table's logo and club are there for the process that takes it up, and any process serves the
    image.  A failure of the database is ``OSError`` in one line."""

    NAME = "stepping-stones logos"

    def put(self, digest: str, png: bytes) -> None:
        """A checked logo (its digest, its PNG), for any process."""
        with self._db() as conn:
            conn.execute(
                "INSERT INTO logos (digest, png) VALUES (%s, %s) ON CONFLICT (digest) DO UPDATE SET sent = now()",
                (digest, png),
            )

    def image(self, digest: str) -> bytes | None:
        with self._db() as conn:
            row = conn.execute("SELECT png FROM logos WHERE digest = %s", (digest,)).fetchone()
        return bytes(row[0]) if row is not None else None

    def known(self, digest: str) -> bool:
        with self._db() as conn:
            return conn.execute("SELECT 1 FROM logos WHERE digest = %s", (digest,)).fetchone() is not None

    def keep(self, table: str, digest: str | None, club: str | None) -> None:
        with self._db() as conn:
            conn.execute(
                "INSERT INTO table_logos (table_id, digest, club) VALUES (%s, %s, %s) "
                "ON CONFLICT (table_id) DO UPDATE SET digest = excluded.digest, club = excluded.club",
                (table, digest, club),
            )

    def of_many(self, tables: list[str]) -> dict[str, tuple[str | None, str | None]]:
        with self._db() as conn:
            rows = conn.execute(
                "SELECT table_id, digest, club FROM table_logos WHERE table_id = ANY(%s)", (tables,)
            ).fetchall()
        return {str(r[0]): (r[1], r[2]) for r in rows}

    def forget(self, table: str, unnamed_seconds: float) -> None:
        """The table is gone: its row goes, and every logo that no table shows and that was sent
        more than ``unnamed_seconds`` ago."""
        with self._db() as conn, conn.transaction():
            conn.execute("DELETE FROM table_logos WHERE table_id = %s", (table,))
            conn.execute(
                "DELETE FROM logos l WHERE sent < now() - make_interval(secs => %s) "
                "AND NOT EXISTS (SELECT 1 FROM table_logos t WHERE t.digest = l.digest)",
                (unnamed_seconds,),
            )
