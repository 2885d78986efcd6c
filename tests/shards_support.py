"""Two table servers on one PostgreSQL store behind a real nginx that hashes on the table in the
websocket's path (docs/online.md, "Past one process"), all on loopback and started by the tests:
``Shards`` (the processes, which holds a table, ``kill -9`` of one and its start again on its
folder and port) and ``proxied``, one such set-up shared by the tests of a test process that ask
for it (it is left as it was found: both processes alive).  Skipped, saying why, where nginx or
PostgreSQL's server is missing."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest

from net_support import WAIT
from pg_support import Postgres, why_not
from stepping_stones.net.nginx import site
from test_net_proxy import FRONT, NGINX, _nginx

WHY_NOT = "nginx is not installed (Debian: apt-get install nginx-light)" if NGINX is None else why_not()
"""Why two servers behind nginx cannot be had here, or None."""

# the tests of a whole test process share one set-up, and all their clients come from 127.0.0.1:
# what one address may do is raised far past what they do (the limits' own tests are elsewhere)
ROOMY = (
    *("--hello-burst", "100000", "--guess-burst", "100000", "--tables-per-address", "100000"),
    *("--tables-per-minute", "100000", "--unseated-per-address", "1000", "--tables-in-play-per-address", "250"),
    *("--connections-per-address", "500", "--thinkers", "1"),
    # and no computer stands in at the tables the tests leave (they would play them out meanwhile)
    *("--timeout", "3600"),
)


def free_port(address: str) -> int:
    with socket.socket() as s:
        s.bind((address, 0))
        port: int = s.getsockname()[1]
        return port


def start_host(folder: Path, port: int, store: str, public: str, *more: str) -> subprocess.Popen[str]:
    """``stepping-stones host`` on ``port`` and ``store``, behind the proxy at ``public``; returns once
    it listens (its first line: the wait is on that event)."""
    shared = ["--store", store, "--lease-seconds", "1", "--public-url", public, "--trusted-proxy", "127.0.0.1"]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "stepping_stones",
            "host",
            "--port",
            str(port),
            "--data-dir",
            str(folder),
            *shared,
            *more,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith(f"Stepping Stones table server at {public}"), line + (proc.stderr.read() or "")  # type: ignore[union-attr]
    return proc


class Shards:
    """Two ``host`` processes on the PostgreSQL ``dsn`` behind nginx at ``public``; use ``with``."""

    def __init__(self, folder: Path, dsn: str, *more: str) -> None:
        self.folder = folder
        self.dsn = dsn
        self.more = more
        self.front = free_port(FRONT)
        self.public = f"http://{FRONT}:{self.front}"
        self.ports = [free_port("127.0.0.1"), free_port("127.0.0.1")]
        self.servers: dict[int, subprocess.Popen[str]] = {}
        self.said: list[str] = []  # what each process printed when it stopped (or was killed)
        self._stack = ExitStack()  # nginx
        self._fronts = 0  # how many times nginx started

    def __enter__(self) -> Shards:
        for port in self.ports:
            self.start(port)
        self._open_front()
        return self

    def __exit__(self, *_exc: object) -> None:
        try:
            self._stack.close()
        finally:
            self.stop()

    def _open_front(self) -> None:
        conf = site([f"127.0.0.1:{port}" for port in self.ports], listen=f"{FRONT}:{self.front}")
        self._fronts += 1
        self._stack.enter_context(_nginx(self.folder / f"nginx-{self._fronts}", self.front, conf))

    def start(self, port: int) -> None:
        """The process of ``port`` (again, on its folder and port, after a kill: nginx then starts
        again too, for it counts the killed process down for 5 s, ``fail_timeout``, sending its
        tables to the other meanwhile, and the next test's table would move under its feet)."""
        again = port in self.servers
        self.servers[port] = start_host(self.folder / str(port), port, self.dsn, self.public, *self.more)
        if again:
            self._stack.close()
            self._open_front()

    def holder(self, table: str) -> int:
        """The port of the process that holds ``table`` (its lease names its process)."""
        with psycopg.connect(self.dsn) as conn:
            row = conn.execute("SELECT owner FROM leases WHERE table_id = %s", (table,)).fetchone()
        assert row is not None, f"no process holds table {table}"
        pid = int(row[0].split(":")[1])
        return next(port for port, proc in self.servers.items() if proc.pid == pid)

    def journal(self, table: str) -> str:
        """What the store keeps of ``table``: its journal, as a process loads it."""
        from stepping_stones.net.pgstore import PostgresTableStore

        store = PostgresTableStore(self.dsn)
        try:
            return store.load(table)
        finally:
            store.close()

    def tables(self) -> set[str]:
        """The tables the store keeps."""
        with psycopg.connect(self.dsn) as conn:
            return {row[0] for row in conn.execute("SELECT id FROM tables")}

    def kill(self, port: int) -> None:
        """``kill -9`` of the process of ``port``: nothing of its own runs after it."""
        proc = self.servers[port]
        proc.kill()
        out, err = proc.communicate(timeout=WAIT)
        self.said.append(out + err)

    def stop(self) -> None:
        """Ctrl+C for each process still running; each must say it stopped, with no traceback."""
        for proc in self.servers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                out, err = proc.communicate(timeout=WAIT)
                self.said.append(out + err)
                assert "The table server has stopped" in out and "Traceback" not in err, err


@pytest.fixture(scope="session")
def proxied(postgres_server: Postgres, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shards]:
    """One ``Shards`` for the tests of this test process that ask for it, with roomy limits (``ROOMY``):
    a test that kills a process starts it again before it ends."""
    if WHY_NOT is not None:
        pytest.skip(WHY_NOT)
    with Shards(tmp_path_factory.mktemp("shards"), postgres_server.new_database(), *ROOMY) as shards:
        yield shards
