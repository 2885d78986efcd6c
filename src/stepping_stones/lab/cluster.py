"""Running the lab's units of work on a Dask cluster (``--cluster ADDRESS``, docs/cluster.md).

``connect(address)`` opens a Dask client -- to a running scheduler at ``tcp://HOST:PORT``, or
to a local cluster it starts itself (``local``: one single-threaded worker process per core) --
and gives a ``Cluster`` whose ``map`` is a ``Runner`` (``lab/simulate.py``): the same contract
as the local pools, so ``tournament``, ``simulate`` and ``calibrate`` take it unchanged.

What is shipped: the function of a unit of work goes by *name* (a module-level function of
this package, which every worker has installed) and each job is plain data (levels, rules,
a seed, a number).  Nothing else of the caller is pickled.  The results come back as they
finish and feed the progress callback, but are handed over in the order of the jobs, so the
figures a command prints never depend on where or in which order the work ran.  A unit of
work lost with a dying worker is computed again by the scheduler; one that raises is tried
``RETRIES`` more times.

Dask is an optional extra (``pip install 'stepping-stones[cluster]'``): this module imports
it only inside ``connect``, and the commands import this module only for ``--cluster``.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from ..engine import SteppingStonesError
from ..storage.safety import escape
from .simulate import Progress

if TYPE_CHECKING:
    from distributed import Client

J = TypeVar("J")
R = TypeVar("R")

INSTALL_HINT = "--cluster needs Dask: pip install 'stepping-stones[cluster]' (on this machine and every worker)"
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the scheduler to answer before giving up with one line (the default of
``--cluster-timeout``)."""
WORKER_TIMEOUT = 60.0
"""Seconds to wait for the first worker to join a scheduler that has none."""
RETRIES = 3
"""How often a unit of work that raised is tried again (work lost with a worker is always redone)."""
AHEAD_PER_WORKER = 4
"""How many units of work per worker are sent to the cluster ahead of the results taken from it
(at least ``AHEAD_MIN``): enough to keep every worker busy, few enough that a run of any length
holds only these in memory, here and on the scheduler."""
AHEAD_MIN = 16

LOCAL = "local"
_ADDRESS = re.compile(r"tcp://(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>[0-9]{1,5})")


class ClusterError(SteppingStonesError):
    """The cluster cannot be used: no Dask, no scheduler, no worker, or the work failed there.
    ``str()`` is one line, safe to print."""


def check_address(text: str) -> str:
    """``text`` if it names a cluster (``local`` or ``tcp://HOST:PORT``); else ``ValueError``.

    >>> check_address("tcp://127.0.0.1:8786"), check_address("local")
    ('tcp://127.0.0.1:8786', 'local')
    """
    text = text.strip()
    if text == LOCAL:
        return text
    m = _ADDRESS.fullmatch(text)
    if m is None or not 0 < int(m["port"]) < 65536:
        raise ValueError(f"'{escape(text)}' is no cluster address: give tcp://HOST:PORT (a Dask scheduler) or local")
    return text


def _by_name(fn: Callable[[J], R]) -> Callable[[J], R]:
    """``fn`` itself if a worker can import it by its name (a module-level function of an
    installed module); anything else would have to be pickled whole, and is refused."""
    module = getattr(fn, "__module__", None)
    name = getattr(fn, "__qualname__", "")
    if not module or module == "__main__" or "." in name or "<" in name:
        raise ValueError(f"{fn!r} is not a module-level function a worker can import")
    found: object = getattr(importlib.import_module(module), name, None)
    if found is not fn:
        raise ValueError(f"{module}.{name} is not importable by that name")
    return fn


class Cluster:
    """A connected Dask client; ``map`` runs units of work on its workers."""

    def __init__(self, client: Client, address: str) -> None:
        self.client = client
        self.address = address

    @property
    def workers(self) -> int:
        """The number of workers connected now."""
        return len(self.client.scheduler_info(n_workers=-1).get("workers", {}))

    def map(self, jobs: Iterable[J], fn: Callable[[J], R], progress: Progress | None) -> Iterator[R]:
        """``fn`` over ``jobs`` on the cluster: results yielded in the order of the jobs,
        ``progress`` called once for each job as it finishes (in whatever order that is).  The
        jobs are taken lazily, a bounded number ahead of the results handed over.  A function a
        worker cannot import by name is refused at once (``ValueError``)."""
        return self._map(iter(jobs), _by_name(fn), progress)

    def _map(self, jobs: Iterator[J], fn: Callable[[J], R], progress: Progress | None) -> Iterator[R]:
        from distributed import as_completed

        ahead = max(AHEAD_MIN, AHEAD_PER_WORKER * self.workers)
        running = as_completed(with_results=True)
        index: dict[object, int] = {}  # the key of each unit under way -> its place among the jobs
        futures: dict[int, Any] = {}
        results: dict[int, R] = {}  # finished, waiting for the ones before them
        sent = handed = 0
        end = object()

        def send() -> None:
            nonlocal sent
            while sent - handed < ahead:
                job = next(jobs, end)
                if job is end:
                    return
                future = self.client.submit(fn, job, pure=False, retries=RETRIES)
                index[future.key] = sent
                futures[sent] = future
                running.add(future)
                sent += 1

        try:
            send()
            for future, result in running:
                i = index.pop(future.key, None)
                if i is None:
                    continue  # a unit done twice (its first result lost with a worker) counts once
                results[i] = result
                del futures[i]
                future.release()  # the cluster may forget it now
                if progress is not None:
                    progress()
                while handed in results:
                    yield results.pop(handed)
                    handed += 1
                send()
        except Exception as exc:
            self.client.cancel(list(futures.values()))
            raise ClusterError(f"the work failed on {self.address}: {_describe(exc)}") from exc
        finally:
            if futures:  # the caller stopped early: the rest of the work is not wanted
                self.client.cancel(list(futures.values()))


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no message"
    text = escape(f"{type(exc).__name__}: {text}")
    return text if len(text) <= 200 else text[:197] + "..."


@contextmanager
def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Iterator[Cluster]:
    """A ``Cluster`` at ``address`` (``local`` starts one here; it is shut down afterwards).
    Raises ``ClusterError`` -- one line -- when Dask is missing or the scheduler cannot be
    reached within ``timeout`` seconds (``--cluster-timeout``), or no worker joins it within ``WORKER_TIMEOUT``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(INSTALL_HINT) from None
    address = check_address(address)
    local = None
    try:
        if address == LOCAL:
            local = LocalCluster(
                n_workers=os.cpu_count() or 1,
                threads_per_worker=1,  # the work is pure Python: one thread per process
                processes=True,
                host="127.0.0.1",  # every port of a local cluster on the loopback address only
                dashboard_address="127.0.0.1:0",
                worker_dashboard_address="127.0.0.1:0",
            )
            client = Client(local, timeout=timeout)
            shown = f"a local cluster ({local.scheduler_address})"
        else:
            client = Client(address, timeout=timeout)
            shown = f"the Dask scheduler at {address}"
    except (OSError, TimeoutError) as exc:
        if local is not None:
            local.close()
        if address == LOCAL:
            raise ClusterError(f"cannot start a local Dask cluster: {_describe(exc)}") from None
        raise ClusterError(
            f"cannot reach a Dask scheduler at {escape(address)} within {timeout:g} s "
            "(start one with `dask scheduler`, and workers with `dask worker ADDRESS`)"
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except (OSError, TimeoutError):
            hint = "" if local is not None else f" (start workers with `dask worker {address}`)"
            raise ClusterError(f"no worker joined {shown} within {WORKER_TIMEOUT:g} s{hint}") from None
        yield Cluster(client, shown)
    finally:
        client.close()
        if local is not None:
            local.close()
