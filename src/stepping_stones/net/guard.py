"""What a client may hold and try, so that no client can lock the others out (``host``).

- ``Sockets``: every TCP connection counts against ``Limits.max_connections``.  One that carries
  no websocket and has begun no request for ``Limits.idle_seconds`` (silent, idle after its
  answer, or sending its request a byte at a time) is closed; past the cap, the oldest such one is
  closed to let the new one in, and when every connection carries a websocket the new one is
  closed at once.
- ``Unseated``: a websocket without a seat is closed at the hello deadline
  (``Limits.hello_seconds`` after it opened), whatever it sends meanwhile, and each address may
  hold only ``Limits.unseated_per_address`` of them.
- ``Addresses``: what each address may still try: hellos, wrong invite codes or seat secrets,
  tables opened a minute, and open tables not started yet.
- ``more_open_files``: each connection is a file; the process takes all the files the system
  lets it have.

Every time is read from an injected clock, and ``sweep`` methods close what is late: the server
calls them every second, and a test calls them after moving its clock.
"""

from __future__ import annotations

import contextlib
import ipaddress
import resource
from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar

from .limiter import Bucket, Limiter
from .limits import Limits

__all__ = [
    "ACCEPTS",
    "Addresses",
    "FILES_KEPT",
    "Held",
    "QUEUED",
    "Sockets",
    "Unseated",
    "address_key",
    "more_open_files",
    "network_key",
]

Clock = Callable[[], float]

ACCEPTS = 64
"""How many connections the event loop accepts at one go, before any is counted."""
QUEUED = 4096
"""Connections the kernel holds finished but not yet accepted (the listening socket's backlog,
cut to ``net.core.somaxconn``).  They cost no open file, and when one process dies its tables'
people all come back to another at once: past a queue of ``ACCEPTS`` (64) their connections
timed out at the proxy while the other process took tables up, and nginx gave up on it too."""
FILES_KEPT = 64 + 2 * ACCEPTS
"""Open files the server keeps beside the connections it holds: its own (journals, the game
library, the listening socket), and room for two goes of accepts while the connections they
push out are closing.  ``--max-connections`` is lowered to leave them."""


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def address_key(address: str) -> str:
    """The address a client counts as, for every per-address limit: its IPv4 /24 or its IPv6 /64
    (one host, or one household or office, has any address in it; an attacker as easily).

    >>> address_key("127.0.0.2"), address_key("2001:db8::1:2:3:4"), address_key("::ffff:192.0.2.7")
    ('127.0.0.0/24', '2001:db8::/64', '192.0.2.0/24')
    """
    ip = _ip(address)
    if ip is None:
        return address
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def network_key(address: str) -> str:
    """The wider network a client's address is counted in too, for what it holds: its IPv6 /56
    (what one customer is commonly given: 256 /64s); an IPv4 address's /24.

    >>> network_key("2001:db8:0:ff::1"), network_key("192.0.2.7")
    ('2001:db8::/56', '192.0.2.0/24')
    """
    ip = _ip(address)
    if ip is None:
        return address
    if ip.version == 4:
        return address_key(address)
    return str(ipaddress.ip_network(f"{ip}/56", strict=False))


class _Tries:
    """What one address may still try."""

    def __init__(self, limits: Limits, clock: Clock) -> None:
        self.hellos = Bucket(limits.hello_rate, limits.hello_burst, clock)
        self.guesses = Bucket(limits.guess_rate, limits.guess_burst, clock)
        self.openings = Bucket(limits.tables_per_minute / 60, limits.tables_per_minute, clock)
        self.floods = Bucket(limits.flood_rate, limits.flood_burst, clock)
        self.reads = Bucket(limits.read_rate, limits.read_burst, clock)
        self.transfers = Bucket(limits.transfer_rate, limits.transfer_burst, clock)
        self.analyses = Bucket(limits.analysis_rate, limits.analysis_burst, clock)
        self.chats = Bucket(limits.chat_address_rate, limits.chat_address_burst, clock)
        self.logos = Bucket(limits.tables_per_minute / 60, limits.tables_per_minute, clock)


class Addresses:
    """What each client address may still try: hellos (``hello_rate``), wrong invite codes or seat
    secrets (``guess_rate``), tables opened (``tables_per_minute``) and open tables not started
    (``tables_per_address``), whatever connections it opens; and once its connections were closed
    for flooding ``flood_burst`` times, no websocket until one comes back (``flood_rate``), so a
    flood cannot go on by connecting again.  Behind a reverse proxy named with
    ``--trusted-proxy``, the address is the one the proxy forwards (``proxies.py``)."""

    def __init__(self, limits: Limits, clock: Clock) -> None:
        self.limits = limits
        # at most ``max_addresses``: past them the least recently seen starts again from nothing
        self.seen: Limiter[str, _Tries] = Limiter(lambda: _Tries(limits, clock), limits.max_addresses)

    def _of(self, address: str) -> _Tries:
        return self.seen[address_key(address)]

    def hello(self, address: str) -> str | None:
        """Spend a hello of ``address``; why it may not say hello now, or None."""
        tries = self._of(address)
        if not tries.guesses.available():
            return "too many wrong invite codes or seat secrets from your address: try again in a minute"
        if not tries.hellos.take():
            return "too many hellos from your address: try again in a minute"
        return None

    def read(self, address: str) -> str | None:
        """Spend a request for the players' pages (``/players/...``) of ``address``; why it may not
        ask now, or None."""
        if not self._of(address).reads.take():
            return "too many requests from your address: try again in a minute"
        return None

    def transfer(self, address: str) -> str | None:
        """Spend a key transfer (a code made, or a code tried) of ``address``; why it may not now,
        or None.  A wrong code is a wrong guess too (``wrong_guess``)."""
        tries = self._of(address)
        if not tries.guesses.available():
            return "too many wrong codes from your address: try again in a minute"
        if not tries.transfers.take():
            return "too many key transfers from your address: try again in a minute"
        return None

    def analysis(self, address: str) -> str | None:
        """Spend a finished game's analysis (``reviews.py``: worked out once, for its first review)
        of ``address``; why it may not have one worked out now, or None."""
        if not self._of(address).analyses.take():
            return "the hand analysis of more games from your address must wait: try again in a minute"
        return None

    def chat(self, address: str) -> str | None:
        """Spend a line said at a table (``net/chat.py``) of ``address``; why it may not say one
        now, or None."""
        if not self._of(address).chats.take():
            return "too many lines said from your address: wait a little before the next"
        return None

    def logo(self, address: str) -> str | None:
        """Spend a logo sent (``POST /logos``) of ``address``: as many a minute as tables it may
        open; why it may not send one now, or None."""
        if not self._of(address).logos.take():
            return "too many logos from your address: try again in a minute"
        return None

    def wrong_guess(self, address: str) -> None:
        self._of(address).guesses.take()

    def connect(self, address: str) -> str | None:
        """Why ``address`` may not open a websocket now, or None."""
        if not self._of(address).floods.available():
            return "connections from your address sent far more than a person plays: try again in a minute"
        return None

    def flooded(self, address: str) -> None:
        """A connection of ``address`` was closed for flooding."""
        self._of(address).floods.take()

    def open_table(self, address: str, waiting: int, in_play: int) -> str | None:
        """Spend a table opening of ``address``, which opened ``waiting`` tables that are open and
        not started and ``in_play`` tables not over yet (started or not); why it may not open a
        table now, or None."""
        tries = self._of(address)
        if waiting >= self.limits.tables_per_address:
            n = self.limits.tables_per_address
            return (
                f"your address has {n} open {'table' if n == 1 else 'tables'} that nobody has started: "
                "start one, or wait until one closes"
            )
        most = self.limits.in_play_per_address()
        if in_play >= most:
            return (
                f"your address has {most} {'table' if most == 1 else 'tables'} in play, the most it may: "
                "finish one first"
            )
        if not tries.openings.take():
            return (
                f"your address opened {self.limits.tables_per_minute} tables in a minute, the most it "
                "may: try again in a minute"
            )
        return None


C = TypeVar("C", bound=Hashable)


class Unseated(Generic[C]):
    """The websockets without a seat, by address, each with its hello deadline."""

    def __init__(self, limits: Limits, clock: Clock) -> None:
        self.limits = limits
        self.clock = clock
        self.by_address: dict[str, set[C]] = {}
        self.deadlines: dict[C, tuple[float, str]] = {}  # in the order they opened

    def admit(self, address: str) -> str | None:
        """Why ``address`` may not open another websocket now, or None."""
        n = self.limits.unseated_per_address
        if len(self.by_address.get(address_key(address), ())) >= n:
            return f"your address holds {n} {'connection' if n == 1 else 'connections'} without a seat already"
        return None

    def add(self, conn: C, address: str) -> None:
        key = address_key(address)
        self.by_address.setdefault(key, set()).add(conn)
        self.deadlines[conn] = (self.clock() + self.limits.hello_seconds, key)

    def discard(self, conn: C) -> None:
        """``conn`` took a seat, or closed."""
        found = self.deadlines.pop(conn, None)
        if found is None:
            return
        held = self.by_address[found[1]]
        held.discard(conn)
        if not held:
            del self.by_address[found[1]]

    def full(self) -> bool:
        """Whether the server holds as many websockets without a seat as it may (``unseated_room``)."""
        return len(self.deadlines) >= self.limits.unseated_room()

    def spare(self) -> C | None:
        """The websocket without a seat to close to make room for another: the oldest of the
        address that holds the most of them (None when there is none).  So many addresses with a
        few each cannot keep a newcomer out: the newcomer's address holds fewest."""
        if not self.by_address:
            return None
        most = max(self.by_address.values(), key=len)
        return next(conn for conn in self.deadlines if conn in most)

    def late(self) -> list[tuple[C, str]]:
        """The connections past their deadline, with their address (they stay counted until
        ``discard``)."""
        now = self.clock()
        late = []
        for conn, (deadline, key) in self.deadlines.items():
            if deadline > now:
                break  # the rest opened later (every deadline is hello_seconds after its opening)
            late.append((conn, key))
        return late


class Held(Generic[C]):
    """Every websocket, seated or not, by address (``address_key``) and by wider network
    (``network_key``): one address, or one network, may hold only so many
    (``Limits.held_per_address``, ``held_per_network``), so that it cannot fill the server."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_key: dict[str, set[C]] = {}
        self.keys: dict[C, tuple[str, str]] = {}

    def admit(self, address: str) -> str | None:
        """Why ``address`` may not open another websocket now, or None."""
        narrow, wide = address_key(address), network_key(address)
        n = self.limits.held_per_address()
        if len(self.by_key.get(narrow, ())) >= n:
            return f"your address holds {n} connections already, the most it may"
        if wide != narrow and len(self.by_key.get(wide, ())) >= self.limits.held_per_network():
            return f"your network holds {self.limits.held_per_network()} connections already, the most it may"
        return None

    def add(self, conn: C, address: str) -> None:
        keys = (address_key(address), network_key(address))
        self.keys[conn] = keys
        for key in set(keys):
            self.by_key.setdefault(key, set()).add(conn)

    def discard(self, conn: C) -> None:
        keys = self.keys.pop(conn, None)
        if keys is None:
            return
        for key in set(keys):
            held = self.by_key[key]
            held.discard(conn)
            if not held:
                del self.by_key[key]


class Connection(Protocol):
    """A TCP connection as aiohttp's server holds it (``web_protocol.RequestHandler``)."""

    def force_close(self) -> None: ...


H = TypeVar("H", bound=Connection)


class Sockets(Generic[H]):
    """Every TCP connection from its accept (``admit``) until it is gone (``gone``): when it last
    began a request, and whether it carries a websocket."""

    def __init__(self, limits: Limits, clock: Clock, log: Callable[[str], None] = lambda _line: None) -> None:
        self.limits = limits
        self.clock = clock
        self.log = log
        self.since: dict[H, float] = {}  # oldest first
        self.held: set[H] = set()  # carrying a websocket
        self.spare: Callable[[], H | None] = lambda: None  # a websocket without a seat to close for room

    def admit(self, conn: H) -> bool:
        """Count the connection just accepted; whether it may stay.  At the cap, the oldest one
        without a websocket is closed to make room, else a websocket without a seat (``spare``: the
        oldest of the address that holds the most); when there is none, the new one may not stay."""
        cap = self.limits.max_connections
        if len(self.since) >= cap:
            oldest = next((c for c in self.since if c not in self.held), None)
            if oldest is None:
                oldest = self.spare()
            if oldest is None:
                self.log(f"turned a connection away: all {cap} open ones carry a websocket (--max-connections)")
                return False
            self.log(
                f"closed the oldest connection without a websocket or a seat to let another in: {cap} are "
                "open (--max-connections)"
            )
            self._close(oldest)
        self.since[conn] = self.clock()
        return True

    def gone(self, conn: H) -> None:
        self.since.pop(conn, None)
        self.held.discard(conn)

    def request(self, conn: H) -> None:
        """``conn`` began a request: its idle time starts again."""
        if conn in self.since:
            self.since[conn] = self.clock()

    def hold(self, conn: H) -> None:
        """``conn`` carries a websocket now: the heartbeat and the hello deadline keep it."""
        self.held.add(conn)

    def release(self, conn: H) -> None:
        self.held.discard(conn)

    def _close(self, conn: H) -> None:
        self.gone(conn)  # no longer counted: its file is closed at the next turn of the loop
        conn.force_close()

    def sweep(self) -> int:
        """Close every connection without a websocket that began no request for ``idle_seconds``;
        how many."""
        cutoff = self.clock() - self.limits.idle_seconds
        late = [c for c, since in self.since.items() if since <= cutoff and c not in self.held]
        for conn in late:
            self._close(conn)
        return len(late)

    def __len__(self) -> int:
        return len(self.since)


def more_open_files() -> int:
    """Raise this process's limit on open files to what the system allows it (at most 65536):
    each connection is one, and a pile of idle ones must not stop the server from taking another.
    The soft limit after that (``RLIM_INFINITY`` as 65536)."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = min(hard if hard != resource.RLIM_INFINITY else 65536, 65536)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 65536 if soft == resource.RLIM_INFINITY else soft
