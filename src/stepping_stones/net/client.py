"""A small client of the table server (aiohttp): opening a table, taking a seat, playing it.

``open_table`` asks a server for a new table and returns its invite code.  ``SeatClient`` holds
one seat: it says hello with the invite code (or the seat's secret), hands on every message from
the server, checked, and sends bids and cards with the number of the state they were made on.
When the connection drops it comes back by itself with the seat's secret, saying so through
``notice``.  With ``keep`` the seat (server, table, seat, secret) is written to a file of its own
(readable by its owner only) as soon as it is taken, so that a client killed outright comes back
to it when it starts again (``SeatClient.resume``).  ``play_randomly`` is the bot: random legal
moves as fast as the server answers (``stepping-stones table bot``, the tests, the load test).
The front ends' join (the app, plain mode, the browser) will drive the same client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from typing import Any, Final, TypeVar

import aiohttp
from pydantic import BaseModel
from yarl import URL

from ..ai import Agent, decide
from ..engine import Phase, SteppingStonesError, card_name
from .addresses import http_address
from .protocol import (
    MAX_SERVER_MESSAGE,
    VERSION,
    Act,
    ChatStatus,
    ClaimRest,
    Delta,
    ErrorMessage,
    Felt,
    Invite,
    Lobby,
    Moved,
    NewTable,
    Pong,
    ProtocolError,
    Said,
    Seen,
    StateMessage,
    TableOpened,
    Undo,
    VersionReply,
    Watched,
    Welcome,
    dump,
    parse_server,
)

LOST = "the connection to the server was lost"
"""The notice when the connection drops (``RemoteFlow`` then sends nothing until ``BACK``)."""
BACK = "back at the table"
"""The notice once a lost connection is taken up again (``RemoteFlow`` acts on it: the seat acts
again on the state it holds)."""


class Refused(SteppingStonesError):
    """The server refused, or cannot be reached: one line for a person (``code``: the protocol's
    error code, when the server sent one)."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


def server_url(text: str) -> URL:
    """The server's address as given to ``--server``.  Raises ``Refused`` for what is not one."""
    url = http_address(text)
    if url == "not a URL":
        raise Refused(f"{text!r} is not an address (for example http://127.0.0.1:8765)")
    if url == "not http":
        raise Refused(f"{text!r} is not an http:// or https:// address (for example http://127.0.0.1:8765)")
    return url.origin()


def websocket_url(server: str, table: str | None = None) -> URL:
    """The websocket of ``server``; a known ``table``'s own path (``/t/<id>/ws``), on which a proxy in
    front of several processes finds the process that holds it (docs/online.md)."""
    url = server_url(server)
    return url.with_scheme("wss" if url.scheme == "https" else "ws").with_path(f"/t/{table}/ws" if table else "/ws")


async def open_table(server: str, request: NewTable, session: aiohttp.ClientSession | None = None) -> TableOpened:
    """Open a table on ``server``; its invite code and seats.  Raises ``Refused``."""
    url = server_url(server).with_path("/tables")
    own = session is None
    session = session or aiohttp.ClientSession()
    try:
        async with session.post(
            url, data=request.model_dump_json(), headers={"Content-Type": "application/json"}
        ) as response:
            text = await response.text()
        if response.status != 200:
            with contextlib.suppress(ProtocolError):
                reply = parse_server(text)
                if isinstance(reply, ErrorMessage):
                    raise Refused(reply.message)
            raise Refused(f"the server answered {response.status}: {text.strip()[:200]}")
        return TableOpened.model_validate_json(text, strict=True)
    except (aiohttp.ClientError, OSError) as exc:
        raise Refused(f"cannot reach {server}: {exc}") from None
    finally:
        if own:
            await session.close()


def person_key(server: str) -> str | None:
    """The person's player key for ``server`` from their data folder (made there on first use), or
    None when it cannot be kept (the person then plays unrated: docs/online.md)."""
    from ..storage.player import server_key

    try:
        return server_key(str(server_url(server)))
    except (OSError, ValueError, Refused):
        return None


M = TypeVar("M", bound=BaseModel)
MAX_PLAYERS_ANSWER: Final = 256 * 1024  # the ratings (100 players) or a person's 100 games: some 20 KiB


async def players_request(server: str, path: str, answer: type[M], body: BaseModel | None = None) -> M:
    """A players' request of ``server`` (``/players/...``: docs/protocol.md, "Players and ratings"):
    ``body`` posted as JSON (none: a GET), the answer checked by ``answer``.  Raises ``Refused``."""
    url = server_url(server).with_path(path)
    try:
        async with aiohttp.ClientSession() as session:
            if body is None:
                response = await session.get(url)
            else:
                response = await session.post(
                    url, data=body.model_dump_json(), headers={"Content-Type": "application/json"}
                )
            async with response:
                data = await response.content.read(MAX_PLAYERS_ANSWER + 1)
    except (aiohttp.ClientError, OSError) as exc:
        raise Refused(f"cannot reach {server}: {exc}") from None
    if len(data) > MAX_PLAYERS_ANSWER:
        raise Refused(f"the server's answer is larger than {MAX_PLAYERS_ANSWER:,} bytes")
    if response.status != 200:
        with contextlib.suppress(ProtocolError):
            reply = parse_server(data)
            if isinstance(reply, ErrorMessage):
                raise Refused(reply.message, reply.code)
        raise Refused(f"the server answered {response.status}: {data[:200].decode('utf-8', 'replace').strip()}")
    try:
        return answer.model_validate_json(data, strict=True)
    except ValueError:
        raise Refused("the server's answer is not one of this protocol") from None


@dataclass(frozen=True)
class Glance:
    """What a bot needs of a state, read without the models (``SeatClient(checked=False)``: the
    load test's bots, which only pick among the moves the server calls legal)."""

    seq: int
    legal: list[str]
    phase: str | None
    over: bool


Message = Welcome | StateMessage | ErrorMessage | VersionReply | Pong | Invite | Said | ChatStatus | Felt | Moved


class SeatClient:
    """One seat at a table on ``server``: taken with ``code`` and ``name``, or taken back with
    ``secret``.  Use ``async with``; ``join()`` first.

    It speaks version 3: after the first state of a connection the server sends what changed
    (``delta``), and the client applies it to the state before and hands on the whole state,
    checked by the models.  A delta that does not follow the state it holds (one missed, or none
    held) is dropped and the whole state asked for again (``resync``).  With ``checked=False``
    (the load test's bots) ``receive`` hands on a ``Glance`` in place of each ``StateMessage``, read
    without the models."""

    def __init__(
        self,
        server: str,
        *,
        code: str | None = None,
        name: str | None = None,
        secret: str | None = None,
        session: aiohttp.ClientSession | None = None,
        retry_seconds: float = 120.0,
        notice: Callable[[str], None] | None = None,
        keep: Path | None = None,
        checked: bool = True,
        version: int = VERSION,
        came_from: str = "",
        key: str | None = None,
        table: str | None = None,
    ) -> None:
        self.server = server
        self.key = key  # the person's player key for this server (rated as its player), if any
        self.keep = keep
        self.came_from = came_from  # the finished table this one is the "again" of (kept with the seat)
        self.url = websocket_url(server, table)
        self.code = code
        self.name = name
        self.secret = secret
        self.retry_seconds = retry_seconds
        self.notice = notice or (lambda _line: None)
        self._session = session
        self._own_session = session is None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self.welcome: Welcome | None = None
        self.state: StateMessage | None = None
        self.glance: Glance | None = None  # the last state's glance (``checked=False``)
        self.checked = checked
        self.version = version  # the protocol's (a test may say another, to be refused)
        self.received = 0  # characters of text the server sent
        self._held: Any = None  # the last state (a ``StateMessage``, or its JSON values unchecked), to apply deltas to
        self._number = 0  # its number on this connection (``n``)
        self.resyncs = 0  # how many times a whole state was asked for again
        self._ask = False
        self.connections = 0  # how many times the seat was (re)joined
        self._seated = False  # the connection has its welcome
        self.closed = False

    async def __aenter__(self) -> SeatClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        self.closed = True
        if self._ws is not None:
            await self._ws.close()
        if self._own_session and self._session is not None:
            await self._session.close()

    @property
    def seat(self) -> int:
        assert self.welcome is not None
        return self.welcome.seat

    async def _connect(self) -> Welcome:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        try:
            self._ws = await self._session.ws_connect(self.url, max_msg_size=MAX_SERVER_MESSAGE, heartbeat=20.0)
        except (aiohttp.ClientError, OSError) as exc:
            raise ConnectionError(str(exc)) from exc
        self._held = None
        self._seated = False  # until the welcome: an action sent before it would reach no seat
        hello: dict[str, Any] = {"type": "hello", "version": self.version}
        if self.secret is not None:
            hello["secret"] = self.secret
        else:
            hello["code"] = self.code
            hello["name"] = self.name
            if self.key is not None:
                hello["key"] = self.key
        await self._ws.send_str(dump_json(hello))
        message = await self._read()
        if isinstance(message, Welcome):
            if message.secret is not None:
                self.secret = message.secret
                if self.keep is not None:
                    self._keep_seat(self.keep, message)
            self.welcome = message
            self.url = websocket_url(self.server, message.table)  # a reconnection goes to the table's own path
            self.connections += 1
            self._seated = True
            return message
        await self._ws.close()
        if isinstance(message, Moved) and self.url.path == "/ws":  # behind a proxy: on the table's own path
            self.url = websocket_url(self.server, message.table)
            return await self._connect()
        if isinstance(message, ErrorMessage):
            raise Refused(message.message, message.code)
        if isinstance(message, VersionReply):
            raise Refused(message.message)
        raise Refused("the server did not welcome this seat")

    def _keep_seat(self, path: Path, welcome: Welcome) -> None:
        from ..storage.seats import KeptSeat, keep_seat

        assert welcome.secret is not None
        try:  # a temporary file (its owner's only) renamed into place: the secret is never half-written
            seat = KeptSeat(self.server, welcome.code, welcome.table, welcome.seat, welcome.name, welcome.secret)
            keep_seat(replace(seat, came_from=self.came_from), path)
        except OSError as exc:
            self.notice(f"the seat could not be kept in {path}: {exc.strerror or exc}")

    def _forget_seat(self) -> None:
        """The game is over, or the server no longer has the seat: its file goes."""
        if self.keep is not None:
            with contextlib.suppress(OSError):
                self.keep.unlink(missing_ok=True)

    @classmethod
    def resume(cls, path: Path, **kw: Any) -> SeatClient:
        """The client of the seat kept in ``path`` (``keep``), taken back with its secret by
        ``join``.  Raises ``Refused`` when the file holds no seat."""
        from ..storage.seats import read_seat

        try:
            kept = read_seat(path)
        except ValueError as exc:
            raise Refused(f"no seat is kept in {path}: {exc}") from None
        return cls(kept.server, code=kept.code, name=kept.name, secret=kept.secret, keep=path, table=kept.table, **kw)

    @classmethod
    def at_table(cls, server: str, code: str, name: str | None, **kw: Any) -> SeatClient:
        """The client of the person's seat at the table ``code``: the seat kept in their data folder
        (``storage.seats``), taken back with its secret, or else a free seat taken with the code and
        kept there as soon as it is taken."""
        from ..storage.seats import keeping, kept_seat, seat_path

        kept = kept_seat(server, code)
        return cls(
            server,
            code=kept.code if kept is not None else code,
            name=name,
            secret=kept.secret if kept is not None else None,
            keep=seat_path(server, kept.code if kept is not None else code) if keeping() else None,
            key=person_key(server) if keeping() else None,
            table=kept.table if kept is not None else None,
            **kw,
        )

    async def join(self) -> Welcome:
        """Take the seat (the kept one with its secret, when there is one).  Raises ``Refused`` (a
        wrong code or secret, a full table, another version, no server).  A kept secret the server
        no longer knows (the table is over, or gone) is forgotten, and the code tried instead."""
        try:
            try:
                return await self._connect()
            except Refused as exc:
                if exc.code != "bad-secret" or self.code is None or self.name is None:
                    raise
                self._forget_seat()
                self.secret = None
                return await self._connect()
        except ConnectionError as exc:
            raise Refused(f"cannot reach the server at {self.url}: {exc}") from None

    async def _read(self) -> Message | Glance:
        assert self._ws is not None
        while True:
            message = await self._ws.receive()
            if message.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError("the connection closed")
            self.received += len(message.data)
            try:
                parsed = self._check(message.data) if self.checked else self._take(message.data)
            except ProtocolError as exc:
                raise Refused(str(exc)) from None
            if parsed is not None:
                return parsed
            if self._ask:  # a delta that does not follow the state held: the whole state, once
                self._ask = False
                self.resyncs += 1
                with contextlib.suppress(ConnectionError):
                    await self._ws.send_str(dump_json({"type": "resync"}))

    def _check(self, data: str) -> Message | None:
        """A message of the server, checked by the models; a delta made into the whole state (None
        for one that cannot be applied: the whole state is asked for again)."""
        parsed = parse_server(data)
        if isinstance(parsed, Delta):
            held = self._follows(parsed.n)
            if held is None:
                return None
            state = parsed.applied(held)
        elif isinstance(parsed, StateMessage):
            state = parsed
        elif isinstance(parsed, Watched | Lobby):
            raise ProtocolError(f"the server sent a seat what it sends a {parsed.type} connection")
        else:
            return parsed
        self._hold(state, state.n)
        self.state = state
        return state

    def _take(self, data: str) -> Message | Glance | None:
        """A message of the server, states and deltas read without the models (``checked=False``)."""
        try:
            value = json.loads(data)
            kind = value.get("type") if isinstance(value, dict) else None
            if kind == "delta":
                held = self._follows(value["n"])
                if held is None:
                    return None
                held.update(value["state"])
                if value["view"] is not None:
                    held["view"].update(value["view"])
                self._number = value["n"]
                value = held
            elif kind == "state":
                self._hold(value, value.get("n"))
            else:
                other = parse_server(data)
                if isinstance(other, StateMessage | Delta):  # not reached: the type says which it is
                    raise ProtocolError("the server sent a state that is not one")
                if isinstance(other, Watched | Lobby):
                    raise ProtocolError(f"the server sent a seat what it sends a {other.type} connection")
                return other
            view = value["view"]
            glance = Glance(
                value["seq"], value["legal"], view["phase"] if view is not None else None, value["record"] is not None
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ProtocolError(f"the server sent what is not a state of the table protocol ({exc!r:.80})") from None
        self.glance = glance
        return glance

    def _hold(self, state: Any, number: int | None) -> None:
        self._held = state if number is not None else None  # a state without a number has no deltas after it
        self._number = number or 0

    def _follows(self, number: int) -> Any:
        """The state the delta numbered ``number`` applies to, or None when the client does not
        hold the one before it (the first time, the whole state is then asked for again)."""
        if self._held is not None and number == self._number + 1:
            return self._held
        if self._held is not None:
            self._held = None
            self._ask = True
        return None

    async def receive(self) -> Message | Glance:
        """The server's next message.  A dropped connection is taken up again with the seat's secret
        (``notice`` says so); raises ``Refused`` when the server cannot be had for
        ``retry_seconds``, or refuses the seat."""
        while True:
            try:
                message = await self._read()
            except ConnectionError:
                if self.closed or self.secret is None:
                    raise Refused("the connection to the server closed") from None
                await self._reconnect()
                continue
            if isinstance(message, ErrorMessage) and message.code in ("replaced", "expired"):
                self.closed = True
                if message.code == "expired":
                    self._forget_seat()
                raise Refused(message.message, message.code)
            if isinstance(message, StateMessage) and message.record is not None:
                self._forget_seat()
            if not isinstance(message, Welcome):
                return message

    async def come_back(self) -> None:
        """Take the seat back from the computer that plays it (the person did not answer in time):
        a ``do back`` message (docs/protocol.md); the connection stays as it is."""
        await self.send({"type": "do", "what": "back"})

    async def _reconnect(self) -> None:
        self.notice(f"{LOST}; trying again")
        give_up = time.monotonic() + self.retry_seconds
        delay = 0.05
        while True:
            try:
                await self._connect()
            except ConnectionError:
                if time.monotonic() >= give_up:
                    raise Refused(
                        f"the server at {self.url} cannot be reached; gave up after {self.retry_seconds:g} s"
                    ) from None
                await asyncio.sleep(delay)  # a retry's pause, not a wait for an event
                delay = min(delay * 2, 1.0)
                continue
            self.notice(BACK)
            return

    async def send(self, message: dict[str, Any]) -> None:
        """Send a message as it is (the tests' hostile clients use this too)."""
        assert self._ws is not None
        with contextlib.suppress(ConnectionError):
            await self._ws.send_str(dump_json(message))

    async def act(self, move: str, seq: int) -> bool:
        """A bid or a card in the record's spelling (or ``claim N``, a claim of the rest), made on
        state ``seq``; False when it could not be sent (the connection is down, or being taken up
        again): it is then not sent later either."""
        if self.checked:
            state = self.state
            bidding = state is not None and state.view is not None and state.view.phase is Phase.BIDDING
        else:
            bidding = self.glance is not None and self.glance.phase == "bidding"
        words = move.split()
        action: Act | ClaimRest | Seen | Undo
        if len(words) == 2 and words[0] == "claim" and words[1].isdigit():  # RemoteFlow's claim
            action = ClaimRest(type="claim", seq=seq, tricks=int(words[1]))
        elif move == "undo":  # RemoteFlow's undo (at a table with one person)
            action = Undo(type="undo", seq=seq)
        elif len(words) == 2 and words[0] == "seen" and words[1].isdigit():  # a summary closed
            action = Seen(type="seen", hand=int(words[1]))
        else:
            action = Act(type="action", seq=seq, bid=move if bidding else None, card=None if bidding else move)
        ws = self._ws
        if ws is None or ws.closed or not self._seated:
            return False
        try:
            await ws.send_str(dump(action))
        except ConnectionError:
            return False
        return True

    async def start(self) -> None:
        await self.send({"type": "start"})

    async def again(self) -> None:
        """At the finished table: a new table with the same setup (every seat is sent its invite)."""
        await self.send({"type": "again"})

    async def say(self, text: str) -> None:
        """Say a line to the table (``chat``); it comes back as a ``said``, or is refused."""
        await self.send({"type": "chat", "text": text})

    async def chat_switch(self, on: bool) -> None:
        """The table's opener turns its chat on or off."""
        await self.send({"type": "chat-switch", "on": on})

    async def mute(self, seat: int, on: bool) -> None:
        """Stop hearing the seat ``seat`` (the server's number), or hear it again."""
        await self.send({"type": "mute", "seat": seat, "on": on})


def dump_json(value: dict[str, Any]) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))


def is_over(state: StateMessage) -> bool:
    return state.record is not None


async def play_randomly(
    client: SeatClient,
    rng: Random,
    latencies: list[float] | None = None,
    on_state: Callable[[StateMessage], None] | None = None,
    think: float = 0.0,
) -> StateMessage:
    """Play the seat with random legal moves, each as soon as it is the seat's turn (or ``think``
    seconds later: the load test's tables that play at a person's pace), until the game is over;
    the last state.  ``latencies`` gets the seconds from each action to the state after it;
    ``on_state`` hears of every state."""
    last = await _play(client, rng, latencies, on_state, think)
    assert isinstance(last, StateMessage)
    return last


async def play_agent(client: SeatClient, agent: Agent, rng: Random) -> StateMessage:
    """Play the seat with ``agent`` (an ``ai.Agent``, such as a bot from another package) until the
    game is over; the last state.  Each decision is made from the state's view alone, in a worker
    thread so that the connection is still answered while the agent thinks."""
    acted: tuple[int, int] | None = None
    latest: Message | None = client.state
    while True:
        message = latest if latest is not None else await client.receive()
        latest = None
        if not isinstance(message, StateMessage):
            continue
        if is_over(message):
            return message
        if message.legal and message.view is not None and acted != (client.connections, message.seq):
            acted = (client.connections, message.seq)
            view = message.view
            action = await asyncio.to_thread(decide, agent, view, rng)
            move = card_name(action) if isinstance(action, int) else str(action)
            await client.act(move, message.seq)


async def play_glances(
    client: SeatClient,
    rng: Random,
    latencies: list[float] | None = None,
    think: float = 0.0,
    moves: dict[int, str] | None = None,
) -> Glance:
    """``play_randomly`` for a client of ``checked=False`` (the load test's bots): the last glance.  Each action
    waits ``think`` seconds on average, drawn between half and one and a half times it.  With ``moves``, each
    move of the seat that the server acknowledged (a state past the one it was made on came: a table's state
    number counts its deals, bids and cards) is kept there by that state's number, the first one for a
    number (a move made again on a number after a server lost the first is not kept over it)."""
    last = await _play(client, rng, latencies, None, think, moves)
    assert isinstance(last, Glance)
    return last


async def _play(
    client: SeatClient,
    rng: Random,
    latencies: list[float] | None,
    on_state: Callable[[StateMessage], None] | None,
    think: float,
    moves: dict[int, str] | None = None,
) -> StateMessage | Glance:
    acted: tuple[int, int] | None = None  # (connection, seq) of the last action
    sent = 0.0
    pending: dict[int, str] = {}  # with ``moves``: the moves sent, not yet acknowledged, by their seq
    latest: Message | Glance | None = client.state if client.checked else client.glance  # already read
    while True:
        message = latest if latest is not None else await client.receive()
        latest = None
        if isinstance(message, StateMessage):
            if on_state is not None:
                on_state(message)
            over = is_over(message)
        elif isinstance(message, Glance):
            over = message.over
        else:
            continue
        if latencies is not None and acted is not None and sent and message.seq > acted[1]:
            latencies.append(time.perf_counter() - sent)
            sent = 0.0
        if moves is not None:
            for made in [seq for seq in pending if seq < message.seq]:
                moves.setdefault(made, pending.pop(made))
        if over:
            return message
        if message.legal and acted != (client.connections, message.seq):
            # the same turn on a connection made again: the move went with the last one (or never
            # left), and is sent again at once, its latency running on from its first sending (the
            # server's outage included)
            again = acted is not None and acted[1] == message.seq and sent
            acted = (client.connections, message.seq)
            if think and not again:  # a pace, not a wait for an event: people at a thousand tables do not act in step
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if not again:
                sent = time.perf_counter()
            move = rng.choice(message.legal)
            if moves is not None:
                pending[message.seq] = move
            await client.act(move, message.seq)


# --- the lobby, and watching a table (docs/online.md, "The lobby", "Watching") ---------------------------


async def _follow(server: str, hello: dict[str, Any]) -> AsyncGenerator[Watched | Lobby | Felt, None]:
    """Each ``watched``, ``lobby`` or ``felt`` message of a connection that said ``hello``, until the server
    closes it; told that another server process holds the table (``moved``), the same hello on the
    table's own path.  Raises ``Refused`` (a refusal, or a server that cannot be reached)."""
    table: str | None = None
    try:
        async with aiohttp.ClientSession() as session:
            while True:
                moved = None
                async with session.ws_connect(
                    websocket_url(server, table), max_msg_size=MAX_SERVER_MESSAGE, heartbeat=20.0
                ) as ws:
                    await ws.send_str(dump_json(hello))
                    async for message in ws:
                        if message.type != aiohttp.WSMsgType.TEXT:
                            break
                        try:
                            parsed = parse_server(message.data)
                        except ProtocolError as exc:
                            raise Refused(str(exc)) from None
                        if isinstance(parsed, ErrorMessage):
                            raise Refused(parsed.message, parsed.code)
                        if isinstance(parsed, VersionReply):
                            raise Refused(parsed.message)
                        if isinstance(parsed, Moved) and table is None:
                            moved = parsed.table
                            break
                        if isinstance(parsed, Watched | Lobby | Felt):
                            yield parsed
                if moved is None:
                    return
                table = moved
    except (aiohttp.ClientError, OSError) as exc:
        raise Refused(f"cannot reach {server}: {exc}") from None


async def lobby_now(server: str) -> Lobby:
    """The server's lobby: its listed tables with a free seat.  Raises ``Refused``."""
    async with contextlib.aclosing(_follow(server, {"type": "lobby", "version": VERSION})) as messages:
        async for message in messages:  # the first is the lobby: the connection is closed with it
            if isinstance(message, Lobby):
                return message
    raise Refused("the server closed the connection before it sent its lobby")


async def follow_lobby(server: str) -> AsyncIterator[Lobby]:
    """The server's lobby, and again after every change of it (a table listed, filled, started or
    gone), until the server closes the connection.  Raises ``Refused``."""
    async with contextlib.aclosing(_follow(server, {"type": "lobby", "version": VERSION})) as messages:
        async for message in messages:
            if isinstance(message, Lobby):
                yield message


async def watch_table(server: str, code: str) -> AsyncIterator[Watched | Felt]:
    """What a watcher of the table of the watch ``code`` is sent: its club and logo first
    (``Felt``), if it has them, then what everyone sees, after every change, until the table
    closes.  Raises ``Refused``."""
    async with contextlib.aclosing(_follow(server, {"type": "watch", "version": VERSION, "code": code})) as messages:
        async for message in messages:
            if isinstance(message, Watched | Felt):
                yield message
