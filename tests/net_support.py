"""Helpers for the table server's tests: a server on a free port in a temporary folder, tables,
raw clients."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from random import Random
from typing import Any, TypeVar

import aiohttp

from stepping_stones.net.client import SeatClient
from stepping_stones.net.protocol import NewTable, StateMessage, parse_server
from stepping_stones.net.server import Limits, TableServer
from stepping_stones.storage.records import RecordRules

WAIT = 60.0  # a safety net only: every wait below ends on an event long before


def rules(short: bool = True) -> RecordRules:
    return RecordRules(contract_set="standard", short_game=short, redo_tokens=False)


def new_table(seats: tuple[str, str, str] = ("open", "open", "open"), **kw: Any) -> NewTable:
    return NewTable(rules=rules(), seats=list(seats), **kw)  # type: ignore[arg-type]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def running(
    folder: Path,
    *,
    clock: Callable[[], float] | None = None,
    limits: Limits | None = None,
    timeout: float = 120.0,
    **more: Any,
) -> AsyncIterator[tuple[TableServer, str]]:
    """A server on a free port; ``more`` goes to ``TableServer`` (``wall_clock``, ``expire_after``)."""
    err = io.StringIO()
    kwargs: dict[str, Any] = {"clock": clock, **more} if clock is not None else more
    server = TableServer(folder, io.StringIO(), err, port=0, limits=limits, timeout=timeout, **kwargs)
    url = await server.start()
    try:
        yield server, url
    finally:
        await server.stop()


async def next_state(client: SeatClient, until: Callable[[StateMessage], bool] = lambda _s: True) -> StateMessage:
    """The client's next state for which ``until`` holds (other messages are passed over)."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, StateMessage) and until(message):
                return message


T = TypeVar("T")


async def three_bots(url: str, code: str, play: Callable[[SeatClient, Random], Awaitable[T]], **client: Any) -> list[T]:
    """Three bots take the table's seats and ``play`` it to the end (``Random(i)`` for the i-th);
    what each ``play`` returned.  ``client`` goes to each ``SeatClient``."""
    clients = [SeatClient(url, code=code, name=f"Bot {i}", **client) for i in range(3)]
    try:
        for one in clients:
            await one.join()
        async with asyncio.timeout(WAIT):
            return await asyncio.gather(*(play(c, Random(i)) for i, c in enumerate(clients)))
    finally:
        for one in clients:
            await one.close()


class Raw:
    """A websocket that sends whatever it is given and reads every message as it comes."""

    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.session = session
        self.ws = ws

    @classmethod
    @asynccontextmanager
    async def to(cls, url: str, **kw: Any) -> AsyncIterator[Raw]:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(url.replace("http", "ws", 1) + "/ws", **kw)
            try:
                yield cls(session, ws)
            finally:
                await ws.close()

    async def send(self, value: Any) -> None:
        await self.ws.send_str(value if isinstance(value, str) else json.dumps(value))

    async def text(self) -> str | None:
        """The next text message, or None when the connection closed."""
        async with asyncio.timeout(WAIT):
            message = await self.ws.receive()
        return message.data if message.type == aiohttp.WSMsgType.TEXT else None

    async def reply(self) -> Any:
        text = await self.text()
        return parse_server(text) if text is not None else None
