"""The table server (``stepping-stones host``): aiohttp, a websocket per seat, the door in front.

- ``GET /``, ``GET /t/CODE``, ``GET /web/FILE``: the server's own web page
  (``pages.py``);
- ``POST /tables``: open a table (``protocol.NewTable`` in, ``protocol.TableOpened`` out);
- ``GET /ws``: a seat's websocket, speaking ``protocol`` (docs/protocol.md).

Every request must name this server in ``Host``, and one that carries an ``Origin`` (a browser
always does) must come from a page of this server (``door.py``, as for ``serve``).  Each
connection's messages (ping frames too) are held to a size and a rate; what a connection and an
address may hold and try is ``guard.py``'s: every TCP connection counts, idle and half-sent ones
are closed, a websocket must take a seat by the hello deadline, and each address has its hellos,
wrong codes or secrets and tables held to a rate.  The server holds at most so many connections
and tables.  A refusal is one line to the client (``error``) and one escaped line in the server's
log (``log.py``); a fault of the server is never a traceback, to anyone.  Seat secrets and invite
codes are never written to the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import socket
import sqlite3
import ssl
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator, Sequence
from pathlib import Path
from typing import Any, TextIO

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.web_protocol import RequestHandler

from ..storage.safety import escape
from .door import Door, DoorError, is_loopback, listening_socket, url_host
from .guard import ACCEPTS, FILES_KEPT, QUEUED, Addresses, Held, Sockets, Unseated, address_key, more_open_files
from .journal import FileTableStore, TableStore
from .lease import Elsewhere, ElsewhereOnTheLobbysPath, Shared
from .limiter import Bucket
from .limits import DEFAULT_EMPTY_EXPIRY, DEFAULT_EXPIRY, DEFAULT_TIMEOUT, Limits
from .log import ServerLog, watch_loop
from .logos import MAX_BYTES as LOGO_BYTES
from .logos import LogoRefused, Logos, felt_logo
from .pages import add_pages
from .playerpages import PlayerPages
from .players import PLAYERS_FILE, SqlitePlayerStore, TransferCodes, Transfers
from .protocol import (
    Act,
    Again,
    Chat,
    ChatSwitch,
    ClaimRest,
    Do,
    ErrorMessage,
    Hello,
    LobbyAsk,
    LogoSent,
    Mute,
    Ping,
    Pong,
    ProtocolError,
    Resync,
    Seen,
    TableOpened,
    Undo,
    VersionMismatch,
    VersionReply,
    Watch,
    dump,
    parse_client,
    parse_new_table,
)
from .proxies import Network, Proxies
from .reviews import Reviews
from .table import Clock, TableError
from .tables import Tables
from .thinking import Thinkers

__all__ = ["Limits", "TableServer", "host"]

SWEEP_SECONDS = 1.0  # how often the server looks for seats that waited too long
LOGO_UPLOADS = 4  # logos sent or checked at once, at most (``POST /logos``)
LOGO_SECONDS = 60.0  # the most a logo's body may take to come


class _Rest:
    """The rest of a coroutine that was started by hand (``coro.send(None)``) and stopped at
    ``blocked``, a future it waits for: awaiting this goes on with it where it stopped, as
    ``await coro`` would have gone on (Python 3.12's eager tasks start a coroutine so)."""

    def __init__(self, coro: Coroutine[Any, Any, None], blocked: Any) -> None:
        self.coro = coro
        self.blocked = blocked

    def __await__(self) -> Generator[Any, None, None]:
        coro, blocked = self.coro, self.blocked
        while True:
            try:
                yield blocked
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # thrown into the task that awaits: into the coroutine with it
                try:
                    blocked = coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                blocked = coro.send(None)
            except StopIteration:
                return


class _Client:
    """One websocket as the tables see it.  A message is written to the socket within ``send``
    when nothing waits before it: no task and no queue per message (a server sends three for each
    action).  When the socket is full (a client that reads slowly), the messages wait in order and
    a task writes them, and past ``Limits.queue`` of them the client is closed: a client never
    holds up a table."""

    def __init__(self, ws: web.WebSocketResponse, limit: int, handler: RequestHandler | None = None) -> None:
        self.ws = ws
        self.limit = limit
        self.handler = handler  # its TCP connection, as aiohttp's server holds it
        self.waiting: deque[str] = deque()  # messages behind one the socket has not taken yet
        self.closing = False
        self.writer: asyncio.Task[None] | None = None  # writes ``waiting``, then closes if closing

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.writer is not None:  # messages wait: this one after them
            if len(self.waiting) < self.limit:
                self.waiting.append(text)
                return
            self.closing = True  # too slow for the table: closed, whatever waits
            self.waiting.clear()
            self.writer.cancel()
            self.writer = self._task(self._shut(self.writer))
            return
        coro = self.ws.send_str(text)
        try:
            blocked = coro.send(None)  # the frame is written now, unless the socket is full
        except StopIteration:
            return
        except Exception:  # the connection is gone (ConnectionError, RuntimeError): it closes
            self.closing = True
            self.writer = self._task(self._shut(None))
            return
        self.writer = self._task(self._write(_Rest(coro, blocked)))

    @staticmethod
    def _task(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        return asyncio.get_running_loop().create_task(coro)

    def abort(self) -> None:
        """Close at once, nothing more written or read: a flood is not read on for the close
        handshake (aiohttp's waits up to 10 s for the peer's answer, reading whatever comes)."""
        self.closing = True
        self.waiting.clear()
        if self.writer is not None:
            self.writer.cancel()
        transport = self.handler.transport if self.handler is not None else None
        if transport is not None:
            transport.abort()

    def close(self) -> None:
        if not self.closing:
            self.closing = True  # what was sent before still goes (``_write``), then the door closes
            if self.writer is None:
                self.writer = self._task(self._shut(None))

    async def _write(self, rest: _Rest) -> None:
        """Finish the message the socket did not take at once, write the ones waiting behind it;
        then close the connection if it is closing, else let ``send`` write at once again."""
        try:
            await rest
            while self.waiting:
                await self.ws.send_str(self.waiting.popleft())
        except (ConnectionError, RuntimeError):
            self.closing = True
            self.waiting.clear()
        if self.closing:
            await self._shut(None)
        else:
            self.writer = None

    async def _shut(self, before: asyncio.Task[None] | None) -> None:
        """Close the connection, once the writer ``before`` (cancelled) has stopped."""
        if before is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await before
        with contextlib.suppress(Exception):
            await self.ws.close(code=WSCloseCode.POLICY_VIOLATION if not self.ws.closed else WSCloseCode.OK)

    async def closed(self) -> None:
        """Wait until the connection is closed (after ``close``)."""
        if self.writer is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.writer


class TableServer:
    """The tables of one data folder behind the door, on one port."""

    def __init__(
        self,
        data_dir: Path,
        out: TextIO,
        err: TextIO,
        *,
        host: str = "127.0.0.1",
        port: int = 8765,
        public_url: str | None = None,
        ssl_context: ssl.SSLContext | None = None,
        limits: Limits | None = None,
        store: TableStore | None = None,
        clock: Clock = time.monotonic,
        timeout: float = DEFAULT_TIMEOUT,
        wall_clock: Clock = time.time,
        expire_after: float = DEFAULT_EXPIRY,
        expire_empty_after: float = DEFAULT_EMPTY_EXPIRY,
        trusted_proxies: Sequence[Network] = (),
        logo: tuple[bytes, str | None] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.proxies = Proxies(trusted_proxies) if trusted_proxies else None
        self.out = out
        self.log = ServerLog("host", err, clock)
        self.host = host
        self.port = port
        self.public_url = public_url
        self.ssl_context = ssl_context
        self.limits = limits or Limits()
        self.addresses = Addresses(self.limits, clock)
        self.tables = Tables(
            store or FileTableStore(data_dir / "tables"),
            data_dir,
            clock=clock,
            timeout=timeout,
            max_tables=self.limits.max_tables,
            log=self.log,
            wall_clock=wall_clock,
            expire_after=expire_after,
            expire_empty_after=expire_empty_after,
            finished_grace=self.limits.finished_grace,
            thinkers=Thinkers(self.limits.thinkers, self.limits.thinking_queue),
            chat_rate=self.limits.chat_rate,
            chat_burst=self.limits.chat_burst,
        )
        self.tables.watchers_per_table = self.limits.watchers_per_table
        self.tables.max_lobby_followers = self.limits.lobby_followers
        # the live codes that carry a player's key to another device: in the shared store, good on every process
        self.transfers: TransferCodes = store.transfers() if isinstance(store, Shared) else Transfers(clock)
        # the clubs' logos on the felt (``logos.py``): in the shared store, for every process
        self.logos = Logos(data_dir / "logos", clock, store.logos() if isinstance(store, Shared) else None)
        self.tables.logos = self.logos
        self.default_logo = logo  # ``host --logo``: checked already; kept at the start
        self._checking = asyncio.Semaphore(1)  # one logo decoded at a time: each may take a CPU second
        self._uploads = 0  # logos being sent or checked now (at most ``LOGO_UPLOADS``: each holds 5 MB)
        self.door: Door | None = None
        self.clients: set[_Client] = set()
        self.unseated: Unseated[_Client] = Unseated(self.limits, clock)
        self.held: Held[_Client] = Held(self.limits)
        self.sockets: Sockets[RequestHandler] = Sockets(self.limits, clock, self.log)
        self.sockets.spare = self._spare
        self._runner: web.AppRunner | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.saved = 0  # the tables in play that the last stop left saved
        self._sock: socket.socket | None = None

    # --- the door -------------------------------------------------------------------------------

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Every request: the Host check, the Origin check for a browser's, no traceback to anyone."""
        assert self.door is not None
        host = request.headers.get("Host")
        if not self.door.host_allowed(host):
            self.log(f"refused a request for {host or 'no host'!r}: not a name of this server")
            return web.Response(status=403, text=f"This server answers only as {self.door.shown_url}\n")
        origin = request.headers.get("Origin")
        if origin is not None and not self.door.origin_allowed(origin):
            self.log(f"refused a request from {origin!r}: not a page of this server")
            return web.Response(status=403, text="Pages of other sites may not use this server.\n")
        self.sockets.request(request.protocol)
        try:
            return await handler(request)
        except web.HTTPException as exc:
            return exc
        except (asyncio.CancelledError, ConnectionError):
            raise
        except Exception as exc:  # a fault of ours: one line here, a plain 500 there
            self.log(f"{request.method} {request.path}: {type(exc).__name__}: {exc}")
            return web.Response(status=500, text="The server could not answer this request.\n")

    def app(self) -> web.Application:
        # behind a proxy, a request from it is the address it forwards (before any limit counts it)
        middlewares = [self._guard] if self.proxies is None else [self.proxies.middleware, self._guard]
        app = web.Application(middlewares=middlewares, client_max_size=4096)
        app.add_routes(
            [
                web.post("/tables", self.handle_new_table),
                web.post("/logos", self.handle_logo),
                web.get("/logo/{name:[0-9a-z]{1,32}}.png", self.handle_logo_image),
                web.get("/ws", self.handle_ws),
                # the same websocket, with its table in the path for a proxy that hashes on it
                # (several processes, one store: docs/online.md)
                web.get("/t/{table:[0-9a-f]{16}}/ws", self.handle_ws),
            ]
        )
        reviews = Reviews(self.tables.thinkers, self.addresses, self.data_dir / "notes", self.log)
        pages = PlayerPages(
            lambda: self.tables.players, self.transfers, self.addresses, self.tables.shelf.record, self.log, reviews
        )
        app.add_routes(pages.routes())  # the players: ratings, their games, their keys
        add_pages(app, lambda: self.door)  # the web page: /, /t/CODE, /ratings, /web/FILE
        return app

    async def handle_new_table(self, request: web.Request) -> web.StreamResponse:
        remote = request.remote or "?"
        try:
            body = await request.read()
            wanted = parse_new_table(body)
            if wanted.logo is not None and not await asyncio.to_thread(self.logos.known, wanted.logo):
                raise ProtocolError("no logo of that name: send it again (POST /logos), then open the table")
            refusal = self._may_open(remote)
            if refusal is not None:
                self.log(f"refused a table from {remote}: {refusal}")
                return _json_error(429, ErrorMessage(code="too-fast", message=refusal))
            table = await self.tables.open(wanted, address_key(remote))
        except web.HTTPRequestEntityTooLarge:
            return _json_error(413, ErrorMessage(code="bad-message", message="a table request is at most 4 KiB"))
        except ProtocolError as exc:
            self.log(f"refused a table from {request.remote}: {exc}")
            return _json_error(400, ErrorMessage(code=exc.code, message=str(exc)))
        except TableError as exc:
            self.log(f"refused a table: {exc}")
            return _json_error(503, exc.reply())
        self.log(f"opened table {table.id}")
        try:
            await asyncio.to_thread(self.logos.keep, table.id, wanted.logo, wanted.club)
        except OSError as exc:  # the table plays on without its logo
            self.log(f"table {table.id}: its logo could not be kept: {exc.strerror or exc}")
        opened = TableOpened(code=table.code, table=table.id, seats=table.facts(), watch=table.watch)
        return web.Response(text=dump(opened), content_type="application/json")

    async def handle_logo(self, request: web.Request) -> web.StreamResponse:
        """``POST /logos``: a club's logo for a table about to be opened (``logos.py``): its bytes,
        at most ``logos.MAX_BYTES``, held to the address's rate of table openings' reads; checked
        and re-encoded in a thread, one at a time.  ``LogoSent`` or one refusal."""
        remote = request.remote or "?"
        refusal = self.addresses.logo(remote)
        if refusal is not None:
            self.log(f"refused a logo from {remote}: {refusal}")
            return _json_error(429, ErrorMessage(code="too-fast", message=refusal))
        too_big = f"a logo is at most {LOGO_BYTES // (1024 * 1024)} MB"
        if (request.content_length or 0) > LOGO_BYTES:
            return _json_error(413, ErrorMessage(code="bad-message", message=too_big))
        if self._uploads >= LOGO_UPLOADS:
            return _json_error(
                503, ErrorMessage(code="server", message="the server is busy with logos: try again soon")
            )
        self._uploads += 1
        try:
            data = bytearray()
            async with asyncio.timeout(LOGO_SECONDS):  # a body sent a byte at a time holds nothing for long
                while chunk := await request.content.readany():
                    data += chunk
                    if len(data) > LOGO_BYTES:
                        return _json_error(413, ErrorMessage(code="bad-message", message=too_big))
            async with self._checking:
                png = await asyncio.to_thread(felt_logo, bytes(data))
        except TimeoutError:
            return _json_error(408, ErrorMessage(code="bad-message", message="the logo came too slowly"))
        except LogoRefused as exc:
            self.log(f"refused a logo from {remote}: {exc}")
            return _json_error(400, ErrorMessage(code="bad-message", message=str(exc)))
        finally:
            self._uploads -= 1
        try:
            logo = await asyncio.to_thread(self.logos.sent, png)
        except OSError as exc:  # the shared store's
            self.log(f"a logo could not be kept: {exc.strerror or exc}")
            return _json_error(503, ErrorMessage(code="server", message="the logo could not be kept: try again soon"))
        return web.Response(text=dump(LogoSent(logo=logo)), content_type="application/json")

    async def handle_logo_image(self, request: web.Request) -> web.StreamResponse:
        """``GET /logo/NAME.png``: a logo this server keeps, as the felt shows it."""
        png = await asyncio.to_thread(self.logos.image, request.match_info["name"])
        if png is None:
            return web.Response(status=404, text="No such logo.\n")
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "max-age=3600"})

    def _may_open(self, remote: str) -> str | None:
        """Why ``remote`` may not open a table now (``POST /tables`` or ``again``), or None; an
        opening is spent when it may."""
        return self.addresses.open_table(remote, *self.tables.opened_by(address_key(remote)))

    def _spare(self) -> RequestHandler | None:
        """The TCP connection of a websocket without a seat to close for a newcomer (``guard.Sockets``
        at ``--max-connections``), or None."""
        client = self._unseated_spare()
        if client is None:
            return None
        self._no_room(client)
        return client.handler

    def _unseated_spare(self) -> _Client | None:
        """The websocket without a seat to close for room (``Unseated.spare``), passing over one
        that a hello or a watch has placed while it goes on: its deadline is met."""
        while (client := self.unseated.spare()) is not None and self.tables.placed(client):
            self.unseated.discard(client)
        return client

    def _no_room(self, client: _Client) -> None:
        """Close a websocket without a seat to make room for another."""
        self.unseated.discard(client)
        self.held.discard(client)
        client.send(dump(ErrorMessage(code="no-seat", message="the server needed room: say hello first")))
        client.close()

    # --- a seat's websocket ----------------------------------------------------------------------

    async def handle_ws(self, request: web.Request) -> web.StreamResponse:
        remote = request.remote or "?"
        if len(self.clients) >= self.limits.max_connections:
            self.log(f"turned a connection away: {self.limits.max_connections} are open")
            return web.Response(status=503, text="The server is full; try again later.\n")
        refusal = self.addresses.connect(remote)
        if refusal is not None:
            self.log(f"turned a connection from {remote} away: {refusal}")
            return web.Response(status=429, text=f"{refusal}.\n")
        refusal = self.unseated.admit(remote)
        if refusal is not None:
            self.log(f"turned a connection from {remote} away: {refusal}")
            return web.Response(status=429, text=f"{refusal}: say hello on one of them first.\n")
        refusal = self.held.admit(remote)
        if refusal is not None:
            self.log(f"turned a connection from {remote} away: {refusal}")
            return web.Response(status=429, text=f"{refusal}.\n")
        # the server answers pings itself, counting them (``_serve``); when it closes a connection
        # it writes the close frame and does not wait for the peer's answer (``timeout``), reading
        # on whatever comes meanwhile
        ws = web.WebSocketResponse(
            heartbeat=self.limits.heartbeat, max_msg_size=self.limits.max_message, autoping=False, timeout=0.0
        )
        if not ws.can_prepare(request).ok:
            return web.Response(status=400, text="This address is for the table protocol's websocket.\n")
        await ws.prepare(request)
        client = _Client(ws, self.limits.queue, request.protocol)
        if self.unseated.full():  # room for this one: the address holding the most gives up its oldest
            spare = self._unseated_spare()
            if spare is not None:
                self.log("closed a connection without a seat to let another in: the server holds its most")
                self._no_room(spare)
        self.clients.add(client)
        self.held.add(client, remote)
        self.unseated.add(client, remote)
        self.sockets.hold(request.protocol)
        try:
            await self._serve(client, ws, remote, request.match_info.get("table"))
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception as exc:  # a fault of ours: one line here, one line there
            self.log(f"a connection failed: {type(exc).__name__}: {exc}")
            client.send(dump(ErrorMessage(code="server", message="the server could not go on with this connection")))
        finally:
            self.clients.discard(client)
            self.held.discard(client)
            self.unseated.discard(client)
            self.sockets.release(request.protocol)
            await self.tables.gone(client)
            client.close()
            await client.closed()
        return ws

    async def _serve(self, client: _Client, ws: web.WebSocketResponse, remote: str, path: str | None = None) -> None:
        """Read the connection's messages until it closes.  Every frame spends from its allowance,
        control frames too (aiohttp's autoping is off: a ping is answered here, while the allowance
        lasts), but an accepted action; past ``max_held`` dropped, the connection is closed.  Its
        hello deadline is kept by ``sweep``.  ``path``: the table in the websocket's path
        (``/t/<table>/ws``), which a hello must be for."""
        limits = self.limits
        allowance = Bucket(limits.message_rate, limits.message_burst)
        dropped = 0
        warned = -1.0
        while not client.closing:
            message = await ws.receive()
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if message.type == WSMsgType.ERROR:
                exc = ws.exception()
                self.log(f"closed a connection from {remote}: {type(exc).__name__ if exc else 'error'}")
                return
            if message.type in (WSMsgType.PING, WSMsgType.PONG):
                if not allowance.take():
                    dropped += 1
                elif message.type == WSMsgType.PING:
                    await ws.pong(message.data)
            elif message.type != WSMsgType.TEXT:
                if allowance.take():
                    client.send(dump(ErrorMessage(code="bad-message", message="messages are JSON text")))
                else:
                    dropped += 1
            else:
                # Every message spends from the allowance but an accepted action, which the server
                # paces itself (a seat acts once per state that makes it its turn): so a bid or a
                # card is read even when the allowance is spent, and anything else is dropped.
                spent = not allowance.take()
                outcome = await self._handle(client, message.data, remote, only_actions=spent, path=path)
                if outcome == "accepted" and not spent:
                    allowance.refund()
                elif spent and outcome != "accepted":
                    dropped += 1
                    now = time.monotonic()
                    if now - warned >= 1.0:
                        warned = now
                        client.send(
                            dump(
                                ErrorMessage(
                                    code="too-fast",
                                    message=f"too fast: at most "
                                    f"{limits.message_rate:g} messages a second; this one was dropped",
                                )
                            )
                        )
            if dropped > limits.max_held:
                self.log(f"closed a connection from {remote}: messages far faster than a person plays")
                self.addresses.flooded(remote)
                client.abort()
                return

    async def _handle(
        self, client: _Client, data: str, remote: str, only_actions: bool = False, path: str | None = None
    ) -> str:
        """One message: ``accepted`` (an action made), ``refused``, or ``dropped`` (with
        ``only_actions``, anything but an action is not even looked at)."""
        try:
            message = parse_client(data)
        except VersionMismatch as exc:
            if only_actions:
                return "dropped"
            client.send(dump(VersionReply(message=str(exc))))
            client.close()
            return "refused"
        except ProtocolError as exc:
            if only_actions:
                return "dropped"
            client.send(dump(ErrorMessage(code=exc.code, message=str(exc))))
            return "refused"
        if only_actions and not isinstance(message, Act):
            return "dropped"
        try:
            if isinstance(message, Hello):
                refusal = self.addresses.hello(remote)
                if refusal is not None:
                    self.log(f"refused a hello from {remote}: {refusal}")
                    client.send(dump(ErrorMessage(code="too-fast", message=refusal)))
                    client.close()
                    return "refused"
                await self.tables.hello(
                    client, message.code, message.secret, message.name, message.page, message.key, path=path
                )
                self.unseated.discard(client)  # seated: the hello deadline is met
            elif isinstance(message, Watch | LobbyAsk):
                if not await self._watch(client, message, remote, path):
                    return "refused"
            elif isinstance(message, Act):
                await self.tables.act(client, message.seq, message.action())
                return "accepted"
            elif isinstance(message, ClaimRest):
                await self.tables.claim(client, message.seq, message.tricks)
                return "accepted"
            elif isinstance(message, Ping):
                client.send(dump(Pong(nonce=message.nonce)))
            elif isinstance(message, Resync):
                self.tables.resync(client)
            elif isinstance(message, Again):
                await self.tables.again(client, address_key(remote), lambda: self._may_open(remote))
            elif isinstance(message, Seen):
                await self.tables.seen(client, message.hand)
            elif isinstance(message, Undo):
                await self.tables.undo(client, message.seq)
            elif isinstance(message, Do):
                await self.tables.do(client, message)
                return "accepted"
            elif isinstance(message, Chat | ChatSwitch | Mute):
                await self._chat(client, message, remote)
            else:
                await self.tables.start(client)
        except ProtocolError as exc:
            client.send(dump(ErrorMessage(code=exc.code, message=str(exc))))
        except Elsewhere:  # closed without a word: the client connects again, as after any drop
            client.close()
        except ElsewhereOnTheLobbysPath as exc:  # its hello again on the table's own path (``lease``)
            client.send(dump(exc.reply()))
        except TableError as exc:
            client.send(dump(exc.reply()))
            if exc.code in ("unknown-code", "bad-secret"):
                # one guess per connection, so many per address; the guess itself is never logged
                self.addresses.wrong_guess(remote)
                self.log(f"refused a hello from {remote}: {exc}")
                client.close()
        return "refused"

    async def _watch(self, client: _Client, message: Watch | LobbyAsk, remote: str, path: str | None = None) -> bool:
        """Watch a table, or follow the lobby: held to the address's hello rate, as a hello is; the
        connection is then no longer one without a seat (it counts against the address's
        websockets all the same).  Whether it was let in.  Raises ``TableError``."""
        refusal = self.addresses.hello(remote)
        if refusal is not None:
            self.log(f"refused a {message.type} from {remote}: {refusal}")
            client.send(dump(ErrorMessage(code="too-fast", message=refusal)))
            client.close()
            return False
        if isinstance(message, Watch):
            await self.tables.watch(client, message.code, message.page, path)
        else:
            await self.tables.follow_lobby(client)
        self.unseated.discard(client)
        return True

    async def _chat(self, client: _Client, message: Chat | ChatSwitch | Mute, remote: str) -> None:
        """A chat message (``net/chat.py``): a line said is held to the address's rate here and
        the connection's by the tables.  Raises ``TableError``.  What is said is never logged."""
        if isinstance(message, Chat):
            refusal = self.addresses.chat(remote)
            if refusal is not None:
                raise TableError("chat-refused", refusal)
            self.tables.say(client, message.text)
        elif isinstance(message, ChatSwitch):
            await self.tables.chat_switch(client, message.on)
        else:
            await self.tables.mute(client, message.seat, message.on)

    # --- starting and stopping --------------------------------------------------------------------

    def initialize_logging(self) -> None:
        """aiohttp's and asyncio's loggers into the server's log."""
        self.log.adopt("aiohttp", "asyncio", "aiohttp_remotes")

    async def start(self) -> str:
        """Bind, resume every stored table, and serve; the address clients use.  Raises ``OSError``
        when the port cannot be had and ``DoorError`` for a public host without a public URL."""
        sock = listening_socket(self.host, self.port, QUEUED)
        try:
            port = sock.getsockname()[1]
            public_url = self.public_url
            if public_url is None and self.ssl_context is not None:
                public_url = f"https://{url_host(self.host)}:{port}"
            self.door = Door.open(self.host, port, public_url)
            self._open_players()
            if self.default_logo is not None:
                self.logos.set_default(*self.default_logo)
            resumed = await self.tables.resume()
            if resumed:
                self.log(f"resumed {resumed} {'table' if resumed == 1 else 'tables'} from {self.data_dir}")
            # a request whose client has gone is cancelled where it waits (a hint queued behind
            # another is dropped, not worked out for nobody)
            self._runner = web.AppRunner(
                self.app(), access_log=None, handle_signals=False, shutdown_timeout=2, handler_cancellation=True
            )
            await self._runner.setup()
            await _GuardedSite(self._runner, sock, self.ssl_context, self.sockets).start()
        except BaseException:
            sock.close()
            raise
        self._sock = sock
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        return self.door.shown_url

    def _open_players(self) -> None:
        """The players' store: the shared store's (every process rates a player in one row), else
        the data folder's; one that cannot be opened is said in one line, and the server plays on
        without ratings."""
        if self.tables.players is not None:
            return
        if isinstance(self.tables.store, Shared):
            self.tables.players = self.tables.store.players()
            return
        try:
            self.tables.players = SqlitePlayerStore(self.data_dir / PLAYERS_FILE)
        except (OSError, sqlite3.Error) as exc:
            self.log(f"the players cannot be kept (no ratings): {exc}")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception as exc:
                self.log(f"the sweep failed: {type(exc).__name__}: {exc}")

    async def sweep(self) -> None:
        """Close what is late by the server's clock: websockets without a seat past the hello
        deadline, connections idle or half-sent; then the tables' sweep, and flush them."""
        limits = self.limits
        for client, address in self.unseated.late():
            self.unseated.discard(client)
            if self.tables.placed(client):  # seated by a hello that goes on (saving, telling): the deadline is met
                continue
            self.log(f"closed a connection from {address}: no seat {limits.hello_seconds:g} s after it opened")
            client.send(
                dump(
                    ErrorMessage(
                        code="no-seat",
                        message=f"a connection must take a seat within "
                        f"{limits.hello_seconds:g} s of opening: say hello first",
                    )
                )
            )
            client.close()
        if self.sockets.sweep():
            self.log(f"closed connections that began no request for {limits.idle_seconds:g} s")
        await self.tables.sweep()
        await self.tables.sync()

    async def stop(self) -> None:
        """Close every connection (the clients come back to the next server), let the computers
        finish thinking (their answers are saved), and stop."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"the server is stopping")
        self.saved = await self.tables.close()
        if self.tables.players is not None:
            self.tables.players.close()
            self.tables.players = None
        self.transfers.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._sock is not None:
            self._sock.close()

    async def run(self) -> None:
        """Serve until Ctrl+C or SIGTERM, saying where."""
        stop = watch_loop(self.log)
        url = await self.start()
        print(f"Stepping Stones table server at {url}", file=self.out)
        print(f"Open a table: stepping-stones table new --server {url}", file=self.out)
        print(
            "Press Ctrl+C to stop; every table is saved after every action and resumes at the next start "
            "(one that cannot be written pauses until it can).",
            file=self.out,
            flush=True,
        )
        try:
            await stop.wait()
        finally:
            await self.stop()
            live = sum(1 for t in self.tables.tables.values() if not t.over)
            after_ctrl_c = "\n" if self.out.isatty() else ""
            saved = "saved" if self.saved == live else f"{self.saved} saved, {live - self.saved} could not be written"
            print(
                f"{after_ctrl_c}The table server has stopped ({live} {'table' if live == 1 else 'tables'} "
                f"in play, {saved}).",
                file=self.out,
                flush=True,
            )


class _Refused(asyncio.Protocol):
    """A connection past ``--max-connections`` when every one carries a websocket: closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.abort()


class _GuardedSite(web.SockSite):
    """aiohttp's site on a socket bound beforehand, every connection counted by ``sockets`` from
    the moment it is accepted until aiohttp's server hears it is lost."""

    def __init__(
        self,
        runner: web.BaseRunner,
        sock: socket.socket,
        ssl_context: ssl.SSLContext | None,
        sockets: Sockets[RequestHandler],
    ) -> None:
        super().__init__(runner, sock, ssl_context=ssl_context, backlog=ACCEPTS)
        self.sockets = sockets

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        lost = server.connection_lost

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            self.sockets.gone(handler)
            lost(handler, exc)

        server.connection_lost = connection_lost  # type: ignore[method-assign]  # every handler tells it

        def factory() -> asyncio.Protocol:
            handler = server()
            return handler if self.sockets.admit(handler) else _Refused()

        loop = asyncio.get_running_loop()
        # asyncio accepts ``backlog`` connections at one go and listens with it too: the kernel's
        # queue is set again after, to hold the many that one process's death sends at once
        self._server = await loop.create_server(factory, sock=self._sock, ssl=self._ssl_context, backlog=self._backlog)
        self._sock.listen(QUEUED)


def _shared_store(url: str, lease_seconds: float, err: TextIO) -> TableStore | None:
    """The PostgreSQL store of ``host --store``, connected and its schema up to date; None (said in
    one line, which does not repeat the URL: it may hold a password) when it cannot be had."""
    try:
        from .pgstore import PostgresTableStore
    except ImportError:
        print("host: --store needs psycopg: pip install 'stepping-stones[postgresql]'", file=err)
        return None
    store = PostgresTableStore(url, lease_seconds=lease_seconds)
    try:
        store.open()
    except OSError as exc:
        print(f"host: cannot use the store: {escape(exc.strerror or str(exc))}", file=err)
        return None
    return store


def _json_error(status: int, error: ErrorMessage) -> web.Response:
    return web.Response(status=status, text=dump(error), content_type="application/json")


def host(
    data_dir: Path,
    out: TextIO,
    err: TextIO,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    public_url: str | None = None,
    certfile: str | None = None,
    keyfile: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    limits: Limits | None = None,
    expire_after: float = DEFAULT_EXPIRY,
    expire_empty_after: float = DEFAULT_EMPTY_EXPIRY,
    trusted_proxies: Sequence[Network] = (),
    store: str | None = None,
    lease_seconds: float = 5.0,
    logo: tuple[bytes, str | None] | None = None,
) -> int:
    """``stepping-stones host``: serve tables until Ctrl+C; the exit status.  ``store``: a
    ``postgresql://`` URL to keep the tables in (``pgstore``), else the data folder.  ``logo``: the
    host's club logo (checked by ``logos.felt_logo``) and club name, for every table without its own."""
    context = None
    if certfile is not None:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(certfile, keyfile)
        except (OSError, ssl.SSLError) as exc:
            print(f"host: cannot use the certificate {escape(certfile)}: {escape(str(exc))}", file=err)
            return 2
    limits = limits or Limits()
    files = more_open_files()
    room = max(1, files - FILES_KEPT)
    if limits.max_connections > room:
        print(
            f"host: this process may open {files} files: it holds {room} connections at most, not "
            f"{limits.max_connections} (raise the open-files limit, ulimit -n, for more)",
            file=err,
        )
        limits = dataclasses.replace(limits, max_connections=room)
    tables = _shared_store(store, lease_seconds, err) if store is not None else None
    if store is not None and tables is None:
        return 2
    server = TableServer(
        data_dir,
        out,
        err,
        host=host,
        port=port,
        public_url=public_url,
        ssl_context=context,
        store=tables,
        timeout=timeout,
        limits=limits,
        expire_after=expire_after,
        expire_empty_after=expire_empty_after,
        trusted_proxies=trusted_proxies,
        logo=logo,
    )
    server.initialize_logging()
    if not is_loopback(host) and public_url is None:
        print(
            f"host: listening on {host} needs --public-url URL: the address that clients on other "
            f"machines use to reach this one (for example http://my-computer.local:{port})",
            file=err,
        )
        return 2
    try:
        asyncio.run(server.run())
    except DoorError as exc:
        print(f"host: {exc}", file=err)
        return 2
    except OSError as exc:
        print(f"host: cannot listen on {url_host(host)} port {port}: {exc.strerror or exc}", file=err)
        return 1
    return 0
