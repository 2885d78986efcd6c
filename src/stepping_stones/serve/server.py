"""The game in a browser (``stepping-stones serve``), on top of textual-serve.

Every browser tab that opens the page starts its own copy of the terminal app on this machine,
drawn in the page; so every tab is its own game, saved as the app saves (after every action, in
the same folder).

textual-serve gives the page, the websocket protocol and the app process.  What this module adds,
and why (docs/architecture.md says the same for maintainers):

- **the door** (``net/door.py``, shared with ``stepping-stones host``): requests must name this
  server in ``Host`` (no DNS rebinding), a websocket must come from the page's own ``Origin`` (no
  other site can play the person's game), and every answer forbids framing and loading from
  elsewhere (a Content-Security-Policy);
- **limits** (``tabs.py``): a cap on live app processes, checked messages with sizes clamped, a
  rate for input, a stop that always ends the app, a cap on open connections that drops the
  oldest idle one so a real browser still gets in;
- **true messages**: the address is printed only once the port is bound, a failed bind prints
  only the failure, and the shutdown counts the games that were open in a tab;
- **one line per refusal** in the server's log, never a traceback, and none to a client;
- **offline**: the page uses the fonts textual-serve ships, not a font server, and lists no folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.server import Server

from ..net.door import Door, DoorError, is_loopback, listening_socket, security_headers, url_host
from ..net.guard import more_open_files
from ..net.limiter import Bucket
from ..net.log import ServerLog, watch_loop
from ..storage.seats import SHARED_ENV
from .tabs import BadMessage, Limits, TabService, clamp_size, parse_message

__all__ = ["GameServer", "Limits", "TITLE", "app_argv", "serve"]

TITLE = "Stepping Stones"
MAX_CONNECTIONS = 256  # open HTTP connections; past it the oldest idle one is closed
IDLE_SECONDS = 20.0  # a connection that sends no request for this long is closed
HEARTBEAT = 15.0  # a tab whose page answers no websocket ping for this long is gone

_FONTS = """    <style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("STATIC/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
        font-weight: 100 700;
        font-style: normal;
      }
      @font-face {
        font-family: "Roboto Mono";
        src: url("STATIC/fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype");
        font-weight: 100 700;
        font-style: italic;
      }
    </style>
"""


def app_argv(resume: bool = False, table_server: str | None = None) -> list[str]:
    """The command that starts the app for one tab: this Python, this package; with a table server,
    its Play online screen at that server alone, the name left for the person to type (every tab
    shares this machine's settings, so the setup's name is the server owner's, not theirs)."""
    if table_server is not None:
        return [sys.executable, "-m", "stepping_stones", "join", "--server", table_server, "--name", ""]
    return [sys.executable, "-m", "stepping_stones", *(["--resume"] if resume else [])]


def _page(page: str, static_url: str) -> str:
    """textual-serve's page with the game's title, its language, and the bundled font in place of
    the font server's (the page must load nothing from elsewhere, and must work offline)."""
    page = page.replace("<html>", '<html lang="en">', 1)
    page = page.replace("<head>", f"<head>\n    <title>{TITLE}</title>", 1)
    start = page.find('<link\n      rel="stylesheet"\n      href="https://fonts.googleapis.com')
    if start == -1:
        start = page.find("https://fonts.googleapis.com")
        start = page.rfind("<link", 0, start) if start != -1 else -1
    if start != -1:
        end = page.find("/>", start) + 2
        page = page[:start] + _FONTS.replace("STATIC", static_url.rstrip("/")).strip() + page[end:]
    return page


class _GuardedSite(web.SockSite):
    """aiohttp's site on a socket bound beforehand, with a cap on open connections: past it the
    oldest connection with no request in progress is closed, so a pile of idle connections cannot
    keep a real browser out."""

    def __init__(
        self, runner: web.BaseRunner, sock: socket.socket, busy: set[object], cap: int = MAX_CONNECTIONS
    ) -> None:
        super().__init__(runner, sock)
        self.busy = busy
        self.cap = cap

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None

        def factory() -> Any:
            connections = server.connections
            if len(connections) >= self.cap:
                idle = [c for c in connections if c not in self.busy]
                for handler in idle[: len(connections) - self.cap + 1]:
                    handler.force_close()
            return server()

        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(factory, sock=self._sock, backlog=self._backlog)


class GameServer(Server):
    """textual-serve's server with the door, the limits and the messages above."""

    def __init__(
        self,
        host: str,
        port: int,
        out: TextIO,
        err: TextIO,
        *,
        public_url: str | None = None,
        limits: Limits | None = None,
        argv: list[str] | None = None,
        environment: dict[str, str] | None = None,
        table_server: str | None = None,
    ) -> None:
        self.door = Door.open(host, port, public_url)
        self.table_server = table_server
        argv = argv or app_argv(table_server=table_server)
        super().__init__(" ".join(argv), host=host, port=port, title=TITLE, public_url=self.door.shown_url)
        self.argv = argv
        # every tab's app shares this machine's data folder: none keeps a seat there (storage.seats)
        self.environment = {SHARED_ENV: "1", **(environment or {})}
        self.out = out
        self.log = ServerLog("serve", err)
        self.limits = limits or Limits()
        self.tabs: set[TabService] = set()
        self._tasks: set[asyncio.Task[object]] = set()
        self._busy: set[object] = set()  # connections with a request in progress
        self._stopping = False

    # --- logging -------------------------------------------------------------------------------

    def initialize_logging(self) -> None:
        """One line per event from the libraries too (textual-serve logs in colour, with
        tracebacks, by default)."""
        self.log.adopt("aiohttp", "textual-serve", "asyncio")

    # --- the application -----------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        """textual-serve's routes, with the guard in front and no folder listing for ``/static``."""
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_tab, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Every request: the Host check, the security headers, and no traceback to a client."""
        host = request.headers.get("Host")
        if not self.door.host_allowed(host):
            self.log(f"refused a request for {host or 'no host'!r}: not a name of this server")
            return web.Response(status=403, text=f"This server answers only as {self.door.shown_url}\n")
        protocol = request.protocol
        self._busy.add(protocol)
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            response = exc
        except (asyncio.CancelledError, ConnectionError):
            raise
        except Exception as exc:  # a fault of ours: one line here, a plain 500 there
            self.log(f"{request.method} {request.path}: {type(exc).__name__}: {exc}")
            response = web.Response(status=500, text="The server could not answer this request.\n")
        finally:
            self._busy.discard(protocol)
        if not response.prepared:
            response.headers.update(self._headers(request))
        return response

    def _base(self, request: web.Request) -> str:
        return self.door.base_url(request.host)

    def _websocket_url(self, request: web.Request) -> str:
        base = self._base(request)
        return ("wss" if base.startswith("https") else "ws") + base[base.index(":") :] + "/ws"

    def _headers(self, request: web.Request) -> dict[str, str]:
        return security_headers(self._websocket_url(request))

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's page (its template), its URLs built from the page's own address."""
        base = self._base(request)
        static = f"{base}/static/"
        context = {
            "font_size": max(6, min(_query_int(request, "fontsize", 16), 64)),
            "app_websocket_url": self._websocket_url(request),
            "config": {"static": {"url": static}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.text = _page(response.text or "", static)
        return response

    # --- the tabs ------------------------------------------------------------------------------

    async def handle_tab(self, request: web.Request) -> web.StreamResponse:
        """The websocket of one tab: the Origin check, then a game (textual-serve's
        ``handle_websocket``, with the checks and limits)."""
        origin = request.headers.get("Origin")
        if not self.door.origin_allowed(origin):
            self.log(f"refused a websocket from {origin or 'no origin'!r}: not a page of this server")
            return web.Response(status=403, text="Open the game from its own page.\n")
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=self.limits.max_message)
        if not websocket.can_prepare(request).ok:
            return web.Response(status=400, text="This address is for the game's page to connect to.\n")
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await websocket.prepare(request)
            if self._stopping:
                await websocket.close(code=WSCloseCode.GOING_AWAY)
            elif len(self.tabs) >= self.limits.max_tabs:
                await self._turn_away(websocket)
            else:
                await self._play(request, websocket)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await websocket.close(code=WSCloseCode.GOING_AWAY)
        except ConnectionError:
            pass
        finally:
            self._tasks.discard(task)
        return websocket

    async def _turn_away(self, websocket: web.WebSocketResponse) -> None:
        """More tabs than the server runs at once: say so in the page, and close."""
        n = self.limits.max_tabs
        self.log(
            f"turned a tab away: {n} {'game is' if n == 1 else 'games are'} already open "
            "(serve --max-tabs raises the limit)"
        )
        text = (
            f"\r\n  {TITLE}: {n} {'tab is' if n == 1 else 'tabs are'} already playing on this "
            "server, the most it runs at once.\r\n  Close one of them, then reload this page."
            "\r\n  (Whoever runs the server can allow more with --max-tabs.)\r\n"
        )
        await websocket.send_bytes(text.encode())
        with contextlib.suppress(TimeoutError):
            # keep the words on screen a while (the page shows "Session ended" over them once
            # closed); what the page sends meanwhile is read and dropped
            async with asyncio.timeout(60):
                async for _ in websocket:
                    pass
        await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER)

    async def _play(self, request: web.Request, websocket: web.WebSocketResponse) -> None:
        width, height = clamp_size(_query_int(request, "width", 80), _query_int(request, "height", 24), self.limits)

        async def close() -> None:
            await websocket.close()

        tab = TabService(
            self.argv,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            limits=self.limits,
            environment=self.environment,
        )
        self.tabs.add(tab)
        try:
            await tab.start(width, height)
            reason = await self._pump(websocket, tab, request.remote)
            if reason:
                self.log(f"closed a tab from {request.remote}: it sent {reason}")
                if not websocket.closed:
                    await websocket.send_bytes(
                        b"\r\n  This page sent what a person at a keyboard does not; the game is "
                        b"saved.\r\n  Reload the page to go on.\r\n"
                    )
                    await websocket.close(code=WSCloseCode.POLICY_VIOLATION)
        finally:
            try:
                await tab.stop()
            finally:
                self.tabs.discard(tab)

    async def _pump(self, websocket: web.WebSocketResponse, tab: TabService, remote: str | None) -> str | None:
        """Carry the page's messages to the app until the page goes; why the tab must be closed,
        or None when it just went (a page that answers no heartbeat is gone, and said so)."""
        limits = self.limits
        characters = Bucket(limits.input_rate, limits.input_burst)
        messages = Bucket(limits.message_rate, limits.message_burst)
        async for message in websocket:
            if message.type == WSMsgType.ERROR:
                exc = websocket.exception()
                if getattr(exc, "code", None) == WSCloseCode.MESSAGE_TOO_BIG:
                    return f"a message larger than {limits.max_message} bytes"
                if isinstance(exc, TimeoutError):  # aiohttp's heartbeat: no pong came back in time
                    self.log(
                        f"closed a tab from {remote}: it answered no heartbeat for {HEARTBEAT:g} s "
                        "(the page or its network is gone)"
                    )
                    return None
                return f"a message the server could not read ({type(exc).__name__ if exc else 'error'})"
            if message.type != WSMsgType.TEXT:
                return "a message that is not text"
            try:
                parsed = parse_message(message.data, limits)
            except BadMessage as exc:
                return str(exc)
            wait = max(messages.delay(1), characters.delay(len(parsed.text)) if parsed.kind == "stdin" else 0.0)
            if max(messages.held, characters.held) > limits.max_held:
                return "input faster than a person types, for too long"
            if wait > 0:
                await asyncio.sleep(wait)
            if parsed.kind == "stdin":
                await tab.send_bytes(parsed.text.encode("utf-8", "replace"))
            elif parsed.kind == "resize":
                await tab.set_terminal_size(parsed.width, parsed.height)
            elif parsed.kind == "ping":
                await websocket.send_json(["pong", parsed.text])
            elif parsed.kind == "focus":
                await tab.focus()
            elif parsed.kind == "blur":
                await tab.blur()
        if websocket.close_code == WSCloseCode.MESSAGE_TOO_BIG:
            return f"a message larger than {limits.max_message} bytes"
        return None

    # --- starting and stopping -----------------------------------------------------------------

    async def on_shutdown(self, app: web.Application) -> None:
        """Every open tab's app is ended (asked to quit, then made to), and the games that were
        open in them are counted: each is saved after every action."""
        self._stopping = True
        tabs = list(self.tabs)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        leftover = list(self.tabs)
        if leftover:
            await asyncio.gather(*(tab.stop() for tab in leftover), return_exceptions=True)
        open_games = sum(1 for tab in tabs if tab.game_open)  # each app said so as it closed
        games = f" ({open_games} open {'game' if open_games == 1 else 'games'} saved)" if open_games else ""
        after_ctrl_c = "\n" if self.out.isatty() else ""  # the terminal has echoed ^C on the last line
        print(f"{after_ctrl_c}The server has stopped{games}.", file=self.out)
        self.out.flush()

    def serve(self, debug: bool = False) -> None:
        """Bind the port (an ``OSError`` if it cannot), say where the game is, and serve until
        Ctrl+C or SIGTERM.  (``debug`` is textual-serve's; its apps never run with devtools here.)"""
        self.debug = debug
        self.initialize_logging()
        more_open_files()
        sock = listening_socket(self.host, self.port, 128)
        try:
            asyncio.run(self._run(sock))
        finally:
            sock.close()

    async def _run(self, sock: socket.socket) -> None:
        stop = watch_loop(self.log)
        runner = web.AppRunner(
            await self._make_app(),
            access_log=None,
            keepalive_timeout=IDLE_SECONDS,
            handle_signals=False,
            shutdown_timeout=5,
        )
        await runner.setup()
        try:
            await _GuardedSite(runner, sock, self._busy).start()
            if self.table_server is None:
                print(
                    f"{TITLE} is served at {self.public_url}/ : open it in a web browser; every tab is its own game.",
                    file=self.out,
                )
            else:
                print(
                    f"{TITLE} is served at {self.public_url}/ : open it in a web browser; every tab "
                    f"joins a table of the table server {self.table_server} with its invite code.",
                    file=self.out,
                )
            print("Press Ctrl+C to stop the server; the games are saved as they are played.", file=self.out)
            self.out.flush()
            await stop.wait()
        finally:
            await runner.cleanup()


def _query_int(request: web.Request, name: str, default: int) -> int:
    try:
        return int(request.query.get(name, default))
    except ValueError:
        return default


def serve(
    host: str,
    port: int,
    out: TextIO,
    err: TextIO,
    *,
    public_url: str | None = None,
    max_tabs: int = Limits.max_tabs,
    table_server: str | None = None,
) -> int:
    """Serve the game until Ctrl+C (with ``table_server``, a page that joins that server's tables);
    the exit status."""
    try:
        server = GameServer(
            host, port, out, err, public_url=public_url, limits=Limits(max_tabs=max_tabs), table_server=table_server
        )
    except DoorError as exc:
        print(f"serve: {exc}.", file=err)
        return 2
    if not is_loopback(host):
        print(
            f"Warning: serving on {host}, not on this machine alone: anyone who can reach port "
            f"{port} there can open {server.door.shown_url}/ and play, and their games are saved "
            "in your folder.",
            file=err,
        )
    try:
        server.serve()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        print(f"serve: cannot listen on {url_host(host)} port {port}: {reason}.", file=err)
        return 1
    return 0
