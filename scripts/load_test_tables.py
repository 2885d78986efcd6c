"""Load test of the table server: N tables of three bot clients each, over loopback.

Starts ``stepping-stones host`` in its own process (a temporary data folder), opens N tables
(short games, every seat open), seats three bots at each, and lets them all play their game to the
end, each bot acting as soon as the server says it is its turn.  A separate client pings the
server every 0.2 s throughout, to show whether a real client still gets answers.  Reports, per N:

- the server's CPU time per action (user + system of the server's process, from ``/proc``, over
  the play only), the primary figure: on a shared machine the wall clock says as much about the
  other processes as about the server;
- the bots' CPU time per action (this process), apart from the server's;
- actions per second, the latency of an action (from sending it to the state after it) at
  p50/p95/p99, the ping's p95 and worst, the server's memory per table (its peak resident memory
  over its memory before the tables, divided by N), and the load average before and after;
- the bytes the server processes wrote to the disk per action (``/proc/<pid>/io``: the data folder's
  journals; with ``--store`` the database's write-ahead log is counted instead);
- from the CPU per action, what one core of the server's own could do (actions a second), and the
  latency N tables acting flat out would see there (N x the CPU per action: each action waits
  behind one of every other table's).

    python scripts/load_test_tables.py --tables 1 10 100 300
    python scripts/load_test_tables.py --tables 100 --think 0.5   # each bot waits 0.25-0.75 s before acting

With ``--store postgresql://...`` the server keeps its tables in that PostgreSQL database (emptied
before each run: give it a database of its own), and the figures add the database's side: the CPU
of the server's database connections (their backend processes, from ``/proc``: run it on the
database's machine), its commits and its write-ahead log per action.  With ``--processes K``
(and ``--store``), K servers share it behind nginx, which hashes on the table in the websocket's
path (``stepping-stones nginx``'s configuration), the bots connecting to ``/t/<table>/ws``;
``--kill-midway`` kills one of them with ``kill -9`` halfway through ``--seconds`` and reports
how many tables it held, how long after the kill each of them played again
(``killed_back_p50_s``, ``_p95_s``, ``_max_s``, to a tenth of a second; -1 when none did) and
how long its tables' next actions took.  With ``--store``, after the run every move a bot saw
acknowledged (a state past the one it was made on came back) is looked up in the store, table
by table (the journal of a table in play, the library's record of one filed): ``acked_moves``,
``lost_moves`` (each printed to stderr, and the exit status is 1) and ``tables_with_loss``.
``--seconds S`` stops the play after S seconds (at a person's pace a game lasts many minutes):

    python scripts/load_test_tables.py --tables 1000 --think 2 --seconds 120 --store postgresql:///load
    python scripts/load_test_tables.py --tables 2000 --think 2 --seconds 120 --store postgresql:///load \
        --processes 2 --kill-midway

The bots run in this process, the server in its own: on a machine of two cores each has one, when
the machine is otherwise idle.  They speak the protocol's current version (deltas) and read each state
without the models (``SeatClient(checked=False)``: a ``Glance`` of its number, its legal moves and
whether the game is over), so that they cost less than the server they measure; they play only
moves the server calls legal.  ``bytes_per_action`` is what the server sent them per action.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from random import Random

import aiohttp
from yarl import URL

from stepping_stones.net.client import Refused, SeatClient, open_table, play_glances
from stepping_stones.net.protocol import VERSION, NewTable
from stepping_stones.storage.records import GameRecord, RecordRules, parse_record


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process ``pid`` so far (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _disk_bytes(pid: int) -> int:
    """The bytes the process ``pid`` has caused to be written to the disk so far (``/proc/<pid>/io``:
    its journals' pages as they are dirtied, not its sockets)."""
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            if line.startswith("write_bytes:"):
                return int(line.split()[1])
    return 0


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _address(table: int) -> str:
    """A loopback address in a /24 of its own: the server counts an address by its /24."""
    return f"127.{1 + table // 250}.{table % 250}.2"


def _load() -> float:
    return os.getloadavg()[0]


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Servers:
    """The server processes of a run, and the database of ``--store``: their CPU time and memory."""

    def __init__(self, procs: list[subprocess.Popen[str]], store: str | None) -> None:
        self.procs = procs
        self.store = store
        self.gone_cpu = 0.0  # the CPU of the processes killed so far, at their kill
        self.gone_disk = 0  # and the bytes they wrote to the disk
        self.db_cpu: dict[int, float] = {}  # each database connection's CPU when last seen (a killed one's ends)
        self.sharded = len(procs) > 1

    def alive(self) -> list[int]:
        return [p.pid for p in self.procs if p.poll() is None]

    def cpu(self) -> float:
        return self.gone_cpu + sum(_cpu_seconds(pid) for pid in self.alive())

    def disk(self) -> int:
        return self.gone_disk + sum(_disk_bytes(pid) for pid in self.alive())

    def rss_kib(self) -> int:
        return sum(_rss_kib(pid) for pid in self.alive())

    def kill_one(self) -> list[str]:
        """``kill -9`` of the first server; the tables it held then."""
        import psycopg

        proc = self.procs[0]
        assert self.store is not None
        with psycopg.connect(self.store, autocommit=True) as conn:  # a lease names its process's id
            held = [
                row[0]
                for row in conn.execute(
                    "SELECT table_id FROM leases WHERE split_part(owner, ':', 2) = %s", (str(proc.pid),)
                )
            ]
        self.gone_cpu += _cpu_seconds(proc.pid)
        self.gone_disk += _disk_bytes(proc.pid)
        self.database()  # its database connections' CPU, before they end with it
        proc.kill()
        proc.wait()
        return held

    def database(self) -> tuple[float, int, int]:
        """The CPU seconds of the servers' database connections (those gone since, as last seen:
        a killed server's end with it), the database's commits and the bytes of its write-ahead
        log so far (zeros without ``--store``)."""
        if self.store is None:
            return 0.0, 0, 0
        import psycopg

        with psycopg.connect(self.store, autocommit=True) as conn:
            pids = [
                r[0]
                for r in conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = 'stepping-stones host'"
                )
            ]
            row = conn.execute(
                "SELECT xact_commit, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint "
                "FROM pg_stat_database WHERE datname = current_database()"
            ).fetchone()
        for pid in pids:
            try:
                self.db_cpu[pid] = _cpu_seconds(pid)
            except OSError:  # another machine's, or gone
                pass
        assert row is not None
        return sum(self.db_cpu.values()), int(row[0]), int(row[1])


async def _settled(servers: Servers, idle: float = 0.05, most: float = 120.0) -> None:
    """Wait until the servers (and their database) have done the seating's work: what they save
    of a thousand tables seated at once can take seconds to write, and the first moves would wait
    behind it, which measures the seating, not the play.  Settled is half a second in which they
    used less than ``idle`` of a core."""
    begun = time.perf_counter()
    while time.perf_counter() - begun < most:
        before = servers.cpu() + servers.database()[0]
        await asyncio.sleep(0.5)  # a benchmark's pace: a rate of the servers' CPU
        if servers.cpu() + servers.database()[0] - before < idle * 0.5:
            return


async def _run(
    url: str, servers: Servers, n: int, think: float, version: int = VERSION, seconds: float = 0.0, kill: bool = False
) -> dict[str, float]:
    rules = RecordRules(contract_set="standard", short_game=True, redo_tokens=False)
    limit = aiohttp.TCPConnector(limit=0)
    # each table is opened and played from an address of its own, in a /24 of its own (all of 127.0.0.0/8 is this
    # machine), as people at different tables do: the server limits the hellos and the tables of one
    # address
    tables = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(_address(i), 0))) for i in range(n)]
    async with aiohttp.ClientSession(connector=limit) as session:
        base = servers.rss_kib()
        opened = [await open_table(url, NewTable(rules=rules), tables[i]) for i in range(n)]
        clients = [
            SeatClient(url, code=table.code, name=f"Bot {k}", session=tables[i], checked=False, version=version)
            for i, table in enumerate(opened)
            for k in range(3)
        ]
        for i, client in enumerate(clients):
            if servers.sharded:  # as a client that keeps its table: the proxy hashes on it
                client.url = URL(client.url).with_path(f"/t/{opened[i // 3].table}/ws")
            client.retry_seconds = 60.0
        room = asyncio.Semaphore(100)  # tables seated at once (a table opened by another server waits for it)

        async def seat(i: int) -> None:
            async with room:
                for client in clients[3 * i : 3 * i + 3]:
                    for attempt in range(3):  # as a page connects again after a drop
                        try:
                            await client.join()
                            break
                        except Refused:
                            if attempt == 2:
                                raise

        await asyncio.gather(*(seat(i) for i in range(n)))
        await _settled(servers)
        latencies: list[float] = []
        pings: list[float] = []
        peak = base
        done = asyncio.Event()

        async def measure_memory() -> None:  # the servers' peak memory, every half second (a benchmark's pace)
            nonlocal peak
            while not done.is_set():
                peak = max(peak, servers.rss_kib())  # of every server process alive, the killed one's until its kill
                try:
                    await asyncio.wait_for(done.wait(), 0.5)
                except TimeoutError:
                    pass

        async def watch() -> None:
            # a connection must take a seat within 10 s: the watcher sits alone at a table of its own
            watched = await open_table(url, NewTable(rules=rules), session)
            async with session.ws_connect(url.replace("http", "ws", 1) + "/ws") as ws:
                await ws.send_str(
                    json.dumps({"type": "hello", "version": version, "code": watched.code, "name": "Watcher"})
                )
                nonce = 0
                while not done.is_set():
                    nonce += 1
                    start = time.perf_counter()
                    await ws.send_str(json.dumps({"type": "ping", "nonce": nonce}))
                    while json.loads((await ws.receive()).data).get("nonce") != nonce:
                        pass  # its welcome and its state, before the first pong
                    pings.append(time.perf_counter() - start)
                    try:
                        await asyncio.wait_for(done.wait(), 0.2)
                    except TimeoutError:
                        pass

        watcher = None if servers.sharded else asyncio.ensure_future(watch())  # the watcher's table has no id
        memory = asyncio.ensure_future(measure_memory())
        load_before = _load()
        server_cpu = servers.cpu()
        disk = servers.disk()
        db_cpu, commits, wal = servers.database()
        own_cpu = _own_cpu_seconds()
        start = time.perf_counter()
        acked: list[dict[int, str]] = [{} for _ in clients]  # each bot's moves the server acknowledged
        bots = [
            asyncio.ensure_future(play_glances(c, Random(i), latencies, think=think, moves=acked[i]))
            for i, c in enumerate(clients)
        ]
        killed_at = 0
        killed: dict[str, int] = {}  # the killed process's tables: the moves acknowledged at them then
        back: list[float] = []  # how long after the kill each of them had a move acknowledged
        back_task = None
        index = {one.table: i for i, one in enumerate(opened)}
        if kill:
            await asyncio.sleep(seconds / 2)  # the load's own pace: halfway through the play
            killed_at = len(latencies)
            for held in servers.kill_one():
                killed[held] = sum(len(moves) for moves in acked[3 * index[held] : 3 * index[held] + 3])
            back_task = asyncio.ensure_future(_back(killed, index, acked, back, done))
        _done, pending = await asyncio.wait(bots, timeout=(seconds - (seconds / 2 if kill else 0)) or None)
        for bot in pending:
            bot.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        wall = time.perf_counter() - start
        db = servers.database()
        db_cpu, commits, wal = db[0] - db_cpu, db[1] - commits, db[2] - wal
        server_cpu = servers.cpu() - server_cpu
        disk = servers.disk() - disk
        own_cpu = _own_cpu_seconds() - own_cpu
        received = sum(c.received for c in clients)
        load_after = _load()
        done.set()
        await memory
        if back_task is not None:
            await back_task
        if watcher is not None:
            await watcher
        for client in clients:
            await client.close()
    for table in tables:
        await table.close()
    actions = len(latencies)
    after_kill = latencies[killed_at:] if kill else []
    row = {
        "tables": n,
        "think_s": think,
        "protocol": version,
        "actions": actions,
        "seconds": round(wall, 2),
        "server_cpu_ms_per_action": round(server_cpu / actions * 1000, 3),
        "bots_cpu_ms_per_action": round(own_cpu / actions * 1000, 3),
        "server_cpu_share": round(server_cpu / wall, 2),
        # what one core of the server's own could do, and the latency N tables acting flat out would
        # then see (each action waits behind the other tables' one: N x the CPU per action)
        "capacity_per_core": round(actions / server_cpu),
        "flat_out_latency_on_a_core_ms": round(n * server_cpu / actions * 1000, 1),
        "actions_per_s": round(actions / wall, 1),
        "p50_ms": round(_percentile(latencies, 50) * 1000, 2),
        "p95_ms": round(_percentile(latencies, 95) * 1000, 2),
        "p99_ms": round(_percentile(latencies, 99) * 1000, 2),
        "ping_p95_ms": round(_percentile(pings, 95) * 1000, 2) if pings else 0.0,
        "ping_max_ms": round(max(pings) * 1000, 2) if pings else 0.0,
        "kib_per_table": round((peak - base) / n, 1),
        "bytes_per_action": round(received / actions),  # what the bots were sent, all messages
        "server_disk_bytes_per_action": round(disk / actions),  # the journals (the data folder's store)
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2),
        "load_before": round(load_before, 2),
        "load_after": round(load_after, 2),
        "max_ms": round(max(latencies) * 1000, 1),
    }
    if servers.store is not None:
        row |= {
            "processes": len(servers.procs),
            "db_cpu_ms_per_action": round(db_cpu / actions * 1000, 3),
            "db_commits_per_action": round(commits / actions, 2),
            "db_wal_bytes_per_action": round(wal / actions),
        }
    if kill:  # the actions after the kill: those of the killed process's tables waited for it
        row |= {
            "killed_tables": len(killed),  # the tables the killed process held
            "killed_tables_back": sum(  # and those of them that played again before the end
                1
                for held, before in killed.items()
                if sum(len(moves) for moves in acked[3 * index[held] : 3 * index[held] + 3]) > before
            ),
            # the time from the kill to each table's first move acknowledged after it (to 0.1 s)
            "killed_back_p50_s": round(_percentile(back, 50), 1) if back else -1.0,
            "killed_back_p95_s": round(_percentile(back, 95), 1) if back else -1.0,
            "killed_back_max_s": round(max(back), 1) if back else -1.0,
            "after_kill_over_1s": sum(1 for x in after_kill if x > 1.0),
            "after_kill_max_s": round(max(after_kill, default=0.0), 2),
        }
    if servers.store is not None:  # every move a bot saw acknowledged, against what the store keeps
        table_ids = [one.table for one in opened]
        by_table = {table_id: acked[3 * i : 3 * i + 3] for i, table_id in enumerate(table_ids)}
        losses = unkept(by_table, kept_moves(servers.store, table_ids))
        for loss in losses[:10]:
            print(loss, file=sys.stderr)
        row |= {
            "tables_compared": n,
            "acked_moves": sum(len(moves) for moves in acked),
            "lost_moves": len(losses),
            "tables_with_loss": len({loss.split(":", 1)[0] for loss in losses}),
        }
    return row


def record_moves(record: GameRecord | None, moves: dict[int, str]) -> int:
    """Put each bid and card of ``record`` in ``moves`` by the state number it was made on (a
    table's state number counts its deals, bids and cards: ``Table.seq``); the number after it."""
    seq = 0
    for hand in record.hands if record is not None else ():
        seq += 1  # the deal
        for move in [*hand.bids, *hand.play.split()]:
            moves[seq] = move
            seq += 1
    return seq


def kept_moves(store: str, tables: list[str]) -> dict[str, dict[int, str]]:
    """Each table's moves as ``store`` keeps them, by the state they were made on: its journal (the
    snapshot's game, then the moves after it) while it is in play, its record in the library once
    it is over and filed."""
    import psycopg

    from stepping_stones.net.journal import read_table
    from stepping_stones.net.pgstore import PostgresTableStore

    kept: dict[str, dict[int, str]] = {table: {} for table in tables}
    journals = PostgresTableStore(store)
    try:
        for table, text in journals.load_many(tables).items():
            snapshot, after = read_table(text)
            record_moves(snapshot.record, kept[table])
            for move in after:
                kept[table][move.seq] = move.bid if move.bid is not None else str(move.card)
    finally:
        journals.close()
    with psycopg.connect(store) as conn:
        for table, text in conn.execute(
            "SELECT table_id, record FROM library_games WHERE table_id = ANY(%s)", (tables,)
        ):
            record_moves(parse_record(text), kept[table])
    return kept


async def _back(
    killed: dict[str, int], index: dict[str, int], acked: list[dict[int, str]], back: list[float], done: asyncio.Event
) -> None:
    """Until ``done``: each tenth of a second, the killed tables that had a move acknowledged since
    the kill, each with the time it took (in ``back``)."""
    start = time.perf_counter()
    waiting = dict(killed)
    while waiting and not done.is_set():
        for held, before in list(waiting.items()):
            if sum(len(moves) for moves in acked[3 * index[held] : 3 * index[held] + 3]) > before:
                back.append(time.perf_counter() - start)
                del waiting[held]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 0.1)


def unkept(acked: dict[str, list[dict[int, str]]], kept: dict[str, dict[int, str]]) -> list[str]:
    """Each move acknowledged to a bot (``acked``: each table's bots' moves by the state they were made
    on) that the store does not keep as it was made: ``table: state N: ...``, one line each."""
    losses = []
    for table, bots in acked.items():
        for moves in bots:
            for seq, move in sorted(moves.items()):
                there = kept.get(table, {}).get(seq)
                if there != move:
                    what = "nothing" if there is None else repr(there)
                    losses.append(f"{table}: state {seq}: a bot was told {move!r} was taken; the store has {what}")
    return losses


def _empty(store: str) -> None:
    """Empty the tables of the store's schema (when it has them already)."""
    import psycopg

    with psycopg.connect(store, autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('tables')").fetchone() != (None,):
            conn.execute("TRUNCATE tables, moves, seats, leases")


NGINX_CONF = """master_process off;
daemon off;
error_log {error_log} warn;
pid nginx.pid;
worker_rlimit_nofile 20000;
events {{ worker_connections 19000; }}
http {{
 access_log off;
 client_body_temp_path body; proxy_temp_path proxy; fastcgi_temp_path fastcgi; uwsgi_temp_path uwsgi;
 scgi_temp_path scgi;
{site}}}
"""


def _nginx(folder: str, front: int, ports: list[int], error_log: str) -> subprocess.Popen[str]:
    """nginx on 127.0.0.1:``front`` in front of the servers on ``ports``, as ``stepping-stones nginx``
    configures it, its warnings and errors in ``error_log``."""
    import shutil

    from stepping_stones.net.nginx import site

    conf = os.path.join(folder, "nginx.conf")
    with open(conf, "w") as f:
        servers = [f"127.0.0.1:{port}" for port in ports]
        f.write(
            NGINX_CONF.format(site=site(servers, listen=f"127.0.0.1:{front}"), error_log=os.path.abspath(error_log))
        )
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    proc = subprocess.Popen([binary, "-p", folder, "-c", conf], stderr=subprocess.DEVNULL, text=True)
    give_up = time.monotonic() + 30
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", front)) == 0:
                return proc
        if proc.poll() is not None or time.monotonic() > give_up:
            raise SystemExit("nginx did not start")
        time.sleep(0.05)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="each bot waits this long before each action on average, drawn between half and one and a half times it,"
        " as people do not act in step (default 0: as fast as the server answers)",
    )
    parser.add_argument(
        "--seconds", type=float, default=0.0, help="stop the play after this long (default: the games' end)"
    )
    parser.add_argument("--store", metavar="URL", help="the servers' PostgreSQL (postgresql://...), emptied first")
    parser.add_argument("--processes", type=int, default=1, help="servers on the --store, behind nginx (default 1)")
    parser.add_argument(
        "--logs", metavar="DIR", help="write each server's log to DIR/host-N-PORT.log, and nginx's to DIR/nginx-N.log"
    )
    parser.add_argument("--kill-midway", action="store_true", help="kill -9 one server halfway through --seconds")
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=5.0,
        help="the servers' --lease-seconds with --store: how long a killed server's tables wait (default 5)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="keep the server on the first core and the bots on the second (os.sched_setaffinity), "
        "so that they never take each other's",
    )
    args = parser.parse_args()
    if (args.processes > 1 or args.kill_midway) and args.store is None:
        parser.error("--processes and --kill-midway need --store")
    if args.kill_midway and (args.processes < 2 or not args.seconds):
        parser.error("--kill-midway needs --processes 2 or more and --seconds")
    lost = False
    for n in args.tables:
        if args.store is not None:
            _empty(args.store)
        with tempfile.TemporaryDirectory() as folder:
            front = _free_port() if args.processes > 1 else None
            public = ["--public-url", f"http://127.0.0.1:{front}", "--trusted-proxy", "127.0.0.1"] if front else []
            ports = [_free_port() for _ in range(args.processes)]
            procs = [
                subprocess.Popen(
                    [sys.executable, "-m", "stepping_stones", "host", "--port", str(port)]
                    + ["--data-dir", f"{folder}/{port}", "--max-tables", "100000", "--max-connections", "19000"]
                    # no computer stands in while the other tables are being seated (minutes, at 2,000)
                    + ["--timeout", "600"]
                    + (["--store", args.store, "--lease-seconds", str(args.lease_seconds)] if args.store else [])
                    + public,
                    stdout=subprocess.PIPE,
                    stderr=open(f"{args.logs}/host-{n}-{port}.log", "w") if args.logs else subprocess.DEVNULL,  # noqa: SIM115
                    text=True,
                )
                for port in ports
            ]
            if args.pin:
                for proc in procs:
                    os.sched_setaffinity(proc.pid, {0})
                os.sched_setaffinity(0, {1})
            nginx = None
            try:
                for proc in procs:
                    assert proc.stdout is not None
                    line = proc.stdout.readline()
                    url = line.split(" at ", 1)[1].strip()
                if front is not None:
                    error_log = f"{args.logs}/nginx-{n}.log" if args.logs else f"{folder}/nginx-error.log"
                    nginx = _nginx(folder, front, ports, error_log)
                servers = Servers(procs, args.store)
                row = asyncio.run(_run(url, servers, n, args.think, seconds=args.seconds, kill=args.kill_midway))
                print(json.dumps(row), flush=True)
                lost = lost or bool(row.get("lost_moves"))
            finally:
                for proc in procs:
                    proc.terminate()
                    proc.wait(timeout=30)
                if nginx is not None:
                    nginx.terminate()
                    nginx.wait(timeout=30)
    print(f"cpu cores: {os.cpu_count()}", file=sys.stderr)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
