"""Lookups of a shared store gathered into one query (``Batched``).

When a server process dies, its tables' people all come back to another at once, and each hello
asks the store something of its own: which table a secret is for, that table's journal.  Asked one
at a time through the store's one connection, 3,000 such questions waited for each other for
seconds (docs/lab/2026-12-07-past-one-process-sixth-pass.md).  Gathered, the questions asked while
one query runs go together in the next: as many queries as round trips, not as hellos."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Batched"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Batched(Generic[K, V]):
    """``get(key)``: the value ``many`` finds for ``key`` (None when it finds none), ``many``
    being asked in a thread for every key asked since its last call, at once.  An ``OSError`` of
    ``many`` is raised to each of the keys' callers."""

    def __init__(self, many: Callable[[list[K]], dict[K, V]]) -> None:
        self._many = many
        self._asked: dict[K, asyncio.Future[V | None]] = {}
        self._running: asyncio.Task[None] | None = None

    async def get(self, key: K) -> V | None:
        found = self._asked.get(key)
        if found is None:
            found = self._asked[key] = asyncio.get_running_loop().create_future()
            if self._running is None or self._running.done():
                self._running = asyncio.get_running_loop().create_task(self._ask())
        return await asyncio.shield(found)  # a caller cancelled leaves the others their answer

    async def _ask(self) -> None:
        while self._asked:
            asked, self._asked = self._asked, {}
            try:
                found = await asyncio.to_thread(self._many, list(asked))
            except OSError as exc:
                for waiting in asked.values():
                    if not waiting.done():
                        waiting.set_exception(OSError(*exc.args))
                        waiting.exception()  # said to its caller, if one still waits: not logged as unseen
                continue
            for key, waiting in asked.items():
                if not waiting.done():
                    waiting.set_result(found.get(key))
