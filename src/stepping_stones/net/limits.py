"""What a table server holds and what one client may cost: its defaults, in a module that
imports nothing heavy (the command line builds ``host``'s flags from it without loading aiohttp)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DEFAULT_TIMEOUT: Final = 120.0
"""Seconds the table waits for a person's bid or card before a computer plays for them."""
DEFAULT_EXPIRY: Final = 24 * 3600.0
"""Seconds a table that never starts is kept before it is closed (a day)."""
DEFAULT_EMPTY_EXPIRY: Final = 600.0
"""Seconds a table that nobody has sat at is kept before it is closed (ten minutes)."""


@dataclass(frozen=True)
class Limits:
    """What one client may cost."""

    max_message: int = 64 * 1024  # past this aiohttp closes the websocket (1009); past 4 KiB it is refused
    message_rate: float = 20.0  # messages a second, after a burst of
    message_burst: int = 40  # (an accepted action costs nothing: the server paces those itself)
    max_held: int = 400  # messages dropped for going too fast before the connection is closed
    max_connections: int = 2048  # TCP connections at most, websockets or not (``guard.Sockets``)
    idle_seconds: float = 20.0  # a connection without a websocket that begins no request for this is closed
    max_tables: int = 1000
    hello_seconds: float = 10.0  # a websocket without a seat is closed this long after it opened
    unseated_per_address: int = 8  # websockets without a seat that one address may hold
    heartbeat: float = 20.0  # a peer that answers no ping for this long is gone
    queue: int = 512  # messages waiting for a client that does not read; past it, it is closed
    hello_rate: float = 1.0  # hellos a second from one address (whatever its connections), after a burst of
    hello_burst: int = 30
    guess_rate: float = 1 / 60  # wrong invite codes or seat secrets a second from one address, after
    guess_burst: int = 10
    tables_per_minute: int = 10  # tables one address may open a minute (a burst of as many, then one every 6 s)
    tables_per_address: int = 5  # open tables not started yet that one address may have opened
    flood_rate: float = 1 / 60  # connections closed for flooding a second from one address, after a burst of
    flood_burst: int = 3  # (past them, its websockets are refused until one comes back)
    max_addresses: int = 10_000  # addresses whose hellos are counted (past it, the least recently seen are forgotten)
    connections_per_address: int = 32  # websockets, seated or not, that one address (its /24 or /64) may hold
    connections_per_network: int = 128  # ... and one IPv6 /56 (the wider bound: one customer's networks)
    tables_in_play_per_address: int = 10  # tables not over yet, started or not, that one address opened
    finished_grace: float = 120.0  # seconds the connections at a finished table stay open (its result, "again")
    thinkers: int = 2  # worker processes for the computers' decisions and the claims' checks (``net/thinking.py``)
    thinking_queue: int = 1000  # decisions and claims waiting for a worker at most, in all
    read_rate: float = 2.0  # requests for the players' pages a second from one address (ratings, games), after
    read_burst: int = 20
    transfer_rate: float = 1 / 60  # key transfer codes made or tried a second from one address, after
    transfer_burst: int = 5
    analysis_rate: float = 1 / 60  # finished games one address may have analysed a second (a review's), after
    analysis_burst: int = 5  # (a game analysed once is kept: its reviews after that cost nothing)
    watchers_per_table: int = 100  # connections that may watch one table (``Watch``)
    lobby_followers: int = 512  # connections that may follow the lobby, in all (``LobbyAsk``)
    chat_rate: float = 0.25  # lines one connection may say a second (15 a minute), after a burst of
    chat_burst: int = 5
    chat_address_rate: float = 1.0  # lines one address may say a second, whatever its connections, after
    chat_address_burst: int = 20

    def held_per_address(self) -> int:
        """Websockets one address may hold: ``connections_per_address``, and never more than a
        quarter of ``max_connections``, so that one address cannot fill the server."""
        return max(1, min(self.connections_per_address, self.max_connections // 4))

    def held_per_network(self) -> int:
        """Websockets one IPv6 /56 may hold: ``connections_per_network``, at most half of
        ``max_connections``."""
        return max(self.held_per_address(), min(self.connections_per_network, self.max_connections // 2))

    def unseated_room(self) -> int:
        """Websockets without a seat the whole server holds: half of ``max_connections``; past it,
        the address holding the most of them gives up its oldest, so that room stays for clients that
        take a seat."""
        return max(1, self.max_connections // 2)

    def in_play_per_address(self) -> int:
        """Tables in play one address may have opened: ``tables_in_play_per_address``, and never
        more than a quarter of ``max_tables``."""
        return max(1, min(self.tables_in_play_per_address, self.max_tables // 4))
