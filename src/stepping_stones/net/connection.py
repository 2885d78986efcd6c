"""A ``SeatClient`` on an event loop of its own thread, for a front end that blocks on its input
(plain mode); the app runs the client on its own loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import threading
from dataclasses import dataclass

from .client import Refused, SeatClient
from .protocol import MOVE_REFUSALS, ChatStatus, ErrorMessage, Felt, Invite, Said, StateMessage, Welcome

# --- a connection for a front end that blocks on its input -------------------------------------------


@dataclass(frozen=True)
class Unsent:
    """The person's bid or card (``token``) could not be sent: the connection was down."""

    token: str


Incoming = StateMessage | ErrorMessage | str | Refused | Unsent | Invite | Said | ChatStatus | Felt
"""What a ``Connection`` hands on: a state, the server's refusal of an action, a line about the
connection, or why it ended."""


class Connection:
    """A ``SeatClient`` on an event loop of its own thread.  ``join()`` takes the seat; ``get()``
    blocks for the next state, notice or end; ``send`` sends a bid or card (any thread)."""

    def __init__(
        self, server: str, code: str, name: str | None, retry_seconds: float = 120.0, came_from: str = ""
    ) -> None:
        self.came_from = came_from
        self.server = server
        self.code = code
        self.name = name
        self.retry_seconds = retry_seconds
        self.inbox: queue.Queue[Incoming] = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="table-client", daemon=True)
        self._client: SeatClient | None = None
        self._reader: asyncio.Future[None] | None = None

    def join(self) -> Welcome:
        """Take a seat.  Raises ``Refused`` with one line."""
        self._thread.start()
        return asyncio.run_coroutine_threadsafe(self._join(), self._loop).result()

    async def _join(self) -> Welcome:
        client = SeatClient.at_table(
            self.server,
            self.code,
            self.name,
            retry_seconds=self.retry_seconds,
            notice=self.inbox.put,
            came_from=self.came_from,
        )
        try:
            welcome = await client.join()
        except BaseException:
            await client.close()
            raise
        self._client = client
        self._reader = asyncio.ensure_future(self._read(client))
        return welcome

    async def _read(self, client: SeatClient) -> None:
        try:
            if client.state is not None:
                self.inbox.put(client.state)
            while True:
                message = await client.receive()
                if isinstance(message, StateMessage | Invite | Said | ChatStatus | Felt) or (
                    isinstance(message, ErrorMessage) and message.code in (*MOVE_REFUSALS, "chat-refused")
                ):
                    self.inbox.put(message)
        except Refused as exc:
            self.inbox.put(exc)
        except asyncio.CancelledError:
            pass

    def get(self, timeout: float | None = None) -> Incoming:
        return self.inbox.get(timeout=timeout)

    def send(self, move: str, seq: int) -> None:
        """Send a bid or card; if it cannot be sent (the connection is down), ``Unsent`` comes in."""
        client = self._client
        if client is None:
            self.inbox.put(Unsent(move))
            return

        def sent(future: concurrent.futures.Future[bool]) -> None:
            if future.cancelled() or future.exception() is not None or not future.result():
                self.inbox.put(Unsent(move))

        asyncio.run_coroutine_threadsafe(client.act(move, seq), self._loop).add_done_callback(sent)

    def come_back(self) -> None:
        """Take the seat back from the computer that plays it."""
        client = self._client
        if client is not None:
            asyncio.run_coroutine_threadsafe(client.come_back(), self._loop)

    def again(self) -> None:
        """At the finished table: ask for a new table with the same setup (its ``Invite`` comes in)."""
        client = self._client
        if client is not None:
            asyncio.run_coroutine_threadsafe(client.again(), self._loop)

    def start(self) -> None:
        """Start the table before every seat is taken (its opener only: the server refuses others)."""
        client = self._client
        if client is not None:
            asyncio.run_coroutine_threadsafe(client.start(), self._loop)

    def chat(self, kind: str, *args: object) -> None:
        """A chat message (``say``, ``chat_switch`` or ``mute`` of ``SeatClient``), sent from any thread."""
        client = self._client
        if client is not None:
            asyncio.run_coroutine_threadsafe(getattr(client, kind)(*args), self._loop)

    def close(self) -> None:
        """Leave the table: the connection is closed and the loop's thread ends."""
        if not self._thread.is_alive():
            return

        async def stop() -> None:
            if self._reader is not None:
                self._reader.cancel()
            if self._client is not None:
                await self._client.close()

        try:
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(timeout=5)
        except (TimeoutError, RuntimeError):
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
