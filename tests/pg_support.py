"""A real PostgreSQL for the tests, started by them: ``initdb`` and ``pg_ctl`` of Debian's
``postgresql`` package into a temporary folder, as a user who is not root (the ``postgres`` user
when the tests run as root, as CI's do), listening on a unix socket in that folder only (no
port at all).  One server per test process (``postgres_server``, session-scoped), and a new
empty database per test (``postgres_dsn``).  Skipped, saying why, where the binaries are missing."""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _bindir() -> Path | None:
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(found) / "initdb").exists() and (Path(found) / "pg_ctl").exists():
            return Path(found)
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


BINDIR = _bindir()


def why_not() -> str | None:
    """Why no PostgreSQL can be started here, or None."""
    if BINDIR is None:
        return "PostgreSQL's server is not installed (Debian: apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "the tests run as root and there is no postgres user to run PostgreSQL as"
    return None


def _as_user(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Postgres:
    """A PostgreSQL server in ``folder``, its socket there too."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"

    def start(self) -> None:
        assert BINDIR is not None
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        subprocess.run(
            _as_user([str(BINDIR / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"]),
            check=True,
            capture_output=True,
        )
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        log = str(self.folder / "log")
        subprocess.run(
            _as_user([str(BINDIR / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", log, "-w", "start"]),
            check=True,
            capture_output=True,
        )

    def stop(self) -> None:
        assert BINDIR is not None
        subprocess.run(
            _as_user([str(BINDIR / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]), capture_output=True
        )

    def dsn(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@/{dbname}?host={self.folder}"

    def new_database(self) -> str:
        """A new empty database; its connection string."""
        import psycopg

        name = f"t_{secrets.token_hex(6)}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    # not under pytest's own temporary folder: that is root's only, and the server runs as postgres
    server = Postgres(Path(tempfile.mkdtemp(prefix="ss-pg-")))
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def postgres_dsn(postgres_server: Postgres) -> str:
    return postgres_server.new_database()


class Stores:
    """The store of one kind for a server's data folder: the folder's own (``file``), or a
    PostgreSQL database of its own (``postgresql``); the same store again for the same folder."""

    def __init__(self, kind: str, server: Postgres | None) -> None:
        self.kind = kind
        self.server = server
        self._dsns: dict[Path, str] = {}
        self.made: list[object] = []

    def dsn(self, folder: Path) -> str | None:
        """The ``--store`` of the folder's server (None: its data folder)."""
        if self.server is None:
            return None
        if folder not in self._dsns:
            self._dsns[folder] = self.server.new_database()
        return self._dsns[folder]

    def __call__(self, folder: Path, **kw: object):  # type: ignore[no-untyped-def]
        from stepping_stones.net.journal import FileTableStore

        dsn = self.dsn(folder)
        if dsn is None:
            return FileTableStore(folder / "tables")
        from stepping_stones.net.pgstore import PostgresTableStore

        store = PostgresTableStore(dsn, **kw)  # type: ignore[arg-type]
        self.made.append(store)
        return store

    def shelf(self, folder: Path):  # type: ignore[no-untyped-def]
        """The shelf of finished games of the folder's server: its data folder's, or its store's."""
        from stepping_stones.storage.library import FolderShelf

        dsn = self.dsn(folder)
        if dsn is None:
            return FolderShelf(folder)
        from stepping_stones.net.pgstore import PostgresShelf

        shelf = PostgresShelf(dsn)
        self.made.append(shelf)
        return shelf

    def close(self) -> None:
        for store in self.made:
            store.close()  # type: ignore[attr-defined]


@pytest.fixture(params=["file", "postgresql"])
def stores(request: pytest.FixtureRequest) -> Iterator[Stores]:
    """Each test that asks for it runs twice: with the file store, then with PostgreSQL."""
    server = request.getfixturevalue("postgres_server") if request.param == "postgresql" else None
    made = Stores(request.param, server)
    try:
        yield made
    finally:
        made.close()
