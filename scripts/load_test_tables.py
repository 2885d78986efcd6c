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
- from the CPU per action, what one core of the server's own could do (actions a second), and the
  latency N tables acting flat out would see there (N x the CPU per action: each action waits
  behind one of every other table's).

    python scripts/load_test_tables.py --tables 1 10 100 300
    python scripts/load_test_tables.py --tables 100 --think 0.5   # each bot waits 0.5 s before acting

The bots run in this process, the server in its own: on a machine of two cores each has one, when
the machine is otherwise idle.  They speak the protocol's current version (deltas) and read each state
without the models (``SeatClient(checked=False)``: a ``Glance`` of its number, its legal moves and
whether the game is over), so that they cost less than the server they measure; they play only
moves the server calls legal.  ``bytes_per_action`` is what the server sent them per action.
"""

from __future__ import annotations

import argparse
import asyncio
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

from stepping_stones.net.client import SeatClient, open_table, play_glances
from stepping_stones.net.protocol import VERSION, NewTable
from stepping_stones.storage.records import RecordRules


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


async def _run(url: str, pid: int, n: int, think: float, version: int = VERSION) -> dict[str, float]:
    rules = RecordRules(contract_set="standard", short_game=True, redo_tokens=False)
    limit = aiohttp.TCPConnector(limit=0)
    # each table is opened and played from an address of its own, in a /24 of its own (all of 127.0.0.0/8 is this
    # machine), as people at different tables do: the server limits the hellos and the tables of one
    # address
    tables = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(_address(i), 0))) for i in range(n)]
    async with aiohttp.ClientSession(connector=limit) as session:
        base = _rss_kib(pid)
        codes = [(await open_table(url, NewTable(rules=rules), tables[i])).code for i in range(n)]
        clients = [
            SeatClient(url, code=code, name=f"Bot {k}", session=tables[i], checked=False, version=version)
            for i, code in enumerate(codes)
            for k in range(3)
        ]
        for client in clients:
            await client.join()
        latencies: list[float] = []
        pings: list[float] = []
        peak = base
        done = asyncio.Event()

        async def watch() -> None:
            nonlocal peak
            # a connection must take a seat within 10 s: the watcher sits alone at a table of its own
            watched = await open_table(url, NewTable(rules=rules), session)
            async with session.ws_connect(url.replace("http", "ws", 1) + "/ws") as ws:
                await ws.send_str(
                    json.dumps({"type": "hello", "version": version, "code": watched.code, "name": "Watcher"})
                )
                nonce = 0
                while not done.is_set():
                    peak = max(peak, _rss_kib(pid))
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

        watcher = asyncio.ensure_future(watch())
        load_before = _load()
        server_cpu = _cpu_seconds(pid)
        own_cpu = _own_cpu_seconds()
        start = time.perf_counter()
        await asyncio.gather(*(play_glances(c, Random(i), latencies, think=think) for i, c in enumerate(clients)))
        wall = time.perf_counter() - start
        server_cpu = _cpu_seconds(pid) - server_cpu
        own_cpu = _own_cpu_seconds() - own_cpu
        received = sum(c.received for c in clients)
        load_after = _load()
        done.set()
        await watcher
        for client in clients:
            await client.close()
    for table in tables:
        await table.close()
    actions = len(latencies)
    return {
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
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2),
        "load_before": round(load_before, 2),
        "load_after": round(load_after, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="each bot waits this long before each action (default 0: as fast as the server answers)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="keep the server on the first core and the bots on the second (os.sched_setaffinity), "
        "so that they never take each other's",
    )
    args = parser.parse_args()
    for n in args.tables:
        with tempfile.TemporaryDirectory() as folder:
            proc = subprocess.Popen(
                [sys.executable, "-m", "stepping_stones", "host", "--port", str(_free_port()), "--data-dir", folder],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            if args.pin:
                os.sched_setaffinity(proc.pid, {0})
                os.sched_setaffinity(0, {1})
            try:
                assert proc.stdout is not None
                line = proc.stdout.readline()
                url = line.split(" at ", 1)[1].strip()
                print(json.dumps(asyncio.run(_run(url, proc.pid, n, args.think))), flush=True)
            finally:
                proc.terminate()
                proc.wait(timeout=30)
    print(f"cpu cores: {os.cpu_count()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
