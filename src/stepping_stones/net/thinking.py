"""The computers' thinking at a table server: their decisions, the referee's judging of claims,
and a page's hints and analyses, in worker processes apart from the event loop that serves the
sockets.

Before, every decision ran in one thread pool of the server's own process: an address with ten
expert tables took the GIL from the loop, and another table's heuristic computers went from 5 to
668 ms a move, pings from 10 to 235 ms (issue 42).  Now:

- ``Thinkers`` hands each job to a pool of ``workers`` processes (``spawn``: nothing of the server
  is copied into them), started at the first job, each at a lower priority (``nice``) than the
  server, so that the loop gets a core first;
- the jobs wait in the server's own queue, one line per address (the table's opener,
  ``guard.address_key``), served in turn, and an address never has more than ``workers - 1`` of
  them running at once (when there are two workers or more): another address always finds a worker;
- the queue is bounded, in all and per table: past it a job is refused (``Busy``), and a
  decision is asked again by the next sweep;
- a job whose asker has gone (``alive()`` says no: a table nobody is connected to, a claim whose
  connection closed) is dropped when its turn comes (``Dropped``), unrun.

A worker is given only what the job needs: a computer's decision, the seat's level, its view
(``game.view(seat)``) and its generator; a claim, the referee's copy of the hand (the real
cards: what judging needs) and the claim.  Nothing of a job is logged: a failure is said by its
kind only.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from random import Random
from typing import Any, Final

from ..ai import Action, decide, make_ai
from ..ai.analysis import HandAnalysis, Seen, analyse_past
from ..ai.claims import ClaimRequest, Verdict, judge
from ..ai.hints import Hint
from ..engine import PastHand, PlayerView, SteppingStonesError
from ..flow import HintRequest
from ..game.match import Request

__all__ = ["Busy", "Dropped", "Thinkers"]

NICE: Final = 10
"""How much lower a worker's priority is than the server's (``os.nice``)."""


class Busy(SteppingStonesError):
    """The queue of thinking is full: the job was not taken."""


class Dropped(SteppingStonesError):
    """The job's asker had gone when its turn came: it was not run."""


PR_SET_PDEATHSIG: Final = 1
"""Linux's ``prctl`` option: the signal a process gets when the thread that started it ends."""


def _start_worker(server: int) -> None:
    """In each worker: a lower priority than the server's, and Ctrl+C is the server's to handle.
    A worker ends with the server (process ``server``), a ``kill -9`` of it included: it waits on
    the pool's queue, whose writing end it holds too, so it would wait for ever otherwise (a
    killed server left its workers behind).  On Linux the kernel sends it SIGTERM then; the pool
    is started on the server's loop, whose thread lives as long as the server."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):  # no prctl to be found: the worker outlives a killed server
            pass
    if os.getppid() != server:  # the server ended before the worker could ask
        os._exit(0)
    try:
        os.nice(NICE)
    except OSError:  # a system that will not lower it: the worker runs as it is
        pass


def _decide(level: str, view: PlayerView, rng: Random) -> Action:
    """A computer's decision, in a worker: the agent of ``level`` made there, from the seat's view."""
    return decide(make_ai(level), view, rng, None)


def _hint(view: PlayerView) -> Hint | None:
    """A person's hint, in a worker: worked out from their view alone."""
    return HintRequest(view).answer()


def _analyse(past: PastHand, seen: Seen) -> HandAnalysis | None:
    """A finished hand's analysis, in a worker: its deal is public once it is played out."""
    return analyse_past(past, seen=seen)


@dataclass
class _Job:
    run: Callable[..., Any]
    args: tuple[Any, ...]
    owner: str
    key: str
    alive: Callable[[], bool]
    done: asyncio.Future[Any] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


def _call_soon(
    loop: asyncio.AbstractEventLoop, call: Callable[[_Job, Future[Any]], None], job: _Job, future: Future[Any]
) -> None:
    """``call(job, future)`` on ``loop`` (from the executor's thread), unless the loop has closed."""
    try:
        loop.call_soon_threadsafe(call, job, future)
    except RuntimeError:  # the loop closed: nobody waits for the answer
        pass


class Thinkers:
    """The worker processes and the queue in front of them (see the module's docstring)."""

    def __init__(self, workers: int = 2, queue: int = 1000, per_key: int = 2) -> None:
        self.workers = max(1, workers)
        self.queue = queue  # jobs waiting at most, in all
        self.per_key = per_key  # jobs waiting or running at most for one key (a table)
        self.per_owner = max(1, self.workers - 1)  # jobs running at most for one address
        self._pool: ProcessPoolExecutor | None = None
        self._lines: dict[str, deque[_Job]] = {}  # by address, in the order they are served
        self._waiting = 0
        self._running: dict[str, int] = {}  # by address
        self._by_key: dict[str, int] = {}  # waiting or running, by key

    # --- what the tables ask ------------------------------------------------------------------

    async def decision(self, request: Request, level: str, owner: str, key: str, alive: Callable[[], bool]) -> Action:
        """A computer's decision for ``request`` (its seat's view and generator) at the ``level``.
        Raises ``Busy`` or ``Dropped``, or what the agent raised."""
        if request.hands is not None:  # the lab's seat that sees every hand: never a table's
            raise ValueError("a table's computer decides from its seat's view alone")
        result: Action = await self._run(_decide, (level, request.view, request.rng), owner, key, alive)
        return result

    async def claim(self, request: ClaimRequest, owner: str, key: str, alive: Callable[[], bool]) -> Verdict:
        """The referee's verdict on a claim.  Raises ``Busy`` or ``Dropped``."""
        result: Verdict = await self._run(judge, (request.position, request.claim), owner, key, alive)
        return result

    async def hint(self, view: PlayerView, owner: str, key: str, alive: Callable[[], bool]) -> Hint | None:
        """The expert's hint for a page's seat, from that seat's view.  Raises ``Busy`` or
        ``Dropped``."""
        result: Hint | None = await self._run(_hint, (view,), owner, key, alive)
        return result

    async def analysis(self, past: PastHand, seen: Seen, owner: str, key: str, alive: Callable[[], bool]) -> Any:
        """A finished hand against perfect play (``ai.analysis.analyse_past``), judged as ``seen``
        says.  Raises ``Busy`` or ``Dropped``."""
        return await self._run(_analyse, (past, seen), owner, key, alive)

    # --- the queue ------------------------------------------------------------------------------

    async def _run(
        self, run: Callable[..., Any], args: tuple[Any, ...], owner: str, key: str, alive: Callable[[], bool]
    ) -> Any:
        if self._waiting >= self.queue or self._by_key.get(key, 0) >= self.per_key:
            raise Busy("the server's computers have too much to think about: try again shortly")
        job = _Job(run, args, owner, key, alive)
        self._lines.setdefault(owner, deque()).append(job)
        self._waiting += 1
        self._by_key[key] = self._by_key.get(key, 0) + 1
        self._dispatch()
        try:
            return await job.done
        finally:
            left = self._by_key[key] - 1
            if left:
                self._by_key[key] = left
            else:
                del self._by_key[key]

    def _next(self) -> _Job | None:
        """The next job to run: the first line in turn whose address runs fewer than its share;
        that line goes to the back."""
        for owner in list(self._lines):
            if self._running.get(owner, 0) >= self.per_owner:
                continue
            line = self._lines.pop(owner)
            job = line.popleft()
            if line:
                self._lines[owner] = line  # at the back: the others come first
            self._waiting -= 1
            return job
        return None

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while sum(self._running.values()) < self.workers:
            job = self._next()
            if job is None:
                return
            if job.done.done():  # its asker was cancelled
                continue
            if not job.alive():
                job.done.set_exception(Dropped("its asker has gone"))
                continue
            try:
                future = self._executor().submit(job.run, *job.args)
            except Exception as exc:  # a worker died, or none could start: a new pool next time, the job told
                self._pool = None
                job.done.set_exception(exc)
                continue
            self._running[job.owner] = self._running.get(job.owner, 0) + 1
            future.add_done_callback(functools.partial(_call_soon, loop, self._finished, job))

    def _finished(self, job: _Job, future: Future[Any]) -> None:
        left = self._running[job.owner] - 1
        if left:
            self._running[job.owner] = left
        else:
            del self._running[job.owner]
        if future.cancelled():
            if not job.done.done():
                job.done.set_exception(Dropped("the server is stopping"))
        elif not job.done.done():
            exc = future.exception()
            if isinstance(exc, BrokenProcessPool):  # a worker died (killed, out of memory): a new pool next time
                self._pool = None
            if exc is not None:
                job.done.set_exception(exc)
            else:
                job.done.set_result(future.result())
        self._dispatch()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        """Stop the workers (what they are thinking is lost: the tables ask again at their next start)."""
        for line in self._lines.values():
            for job in line:
                if not job.done.done():
                    job.done.set_exception(Dropped("the server is stopping"))
        self._lines.clear()
        self._waiting = 0
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
