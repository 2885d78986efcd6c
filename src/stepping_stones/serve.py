"""The game in a browser (``stepping-stones serve``), through textual-serve.

Every browser tab that opens the page starts its own copy of the terminal app
on this machine, drawn in the page; so every tab is its own game, saved as the
app saves (after every action, in the same folder).  A tab opened while
another tab has a game open is offered a new game in another slot, as a second
terminal would be.

The server binds to 127.0.0.1 unless told otherwise.  On Ctrl+C it tells every
open tab's app to quit (each game is already saved) and then stops.
"""

from __future__ import annotations

import asyncio
import ipaddress
import shlex
import sys
from typing import TextIO

from aiohttp import web
from textual_serve.server import Server

TITLE = "Stepping Stones"


def is_loopback(host: str) -> bool:
    """Whether ``host`` can only be reached from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(resume: bool = False) -> str:
    """The shell command that starts the app for one tab: this Python, this package."""
    command = f"{shlex.quote(sys.executable)} -m stepping_stones"
    return command + " --resume" if resume else command


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class GameServer(Server):
    """textual-serve's server, with the game's title and messages, and a shutdown that closes
    the open tabs' apps at once instead of waiting for them."""

    def __init__(self, host: str, port: int, out: TextIO) -> None:
        super().__init__(app_command(), host=host, port=port, title=TITLE,
                         public_url=f"http://{url_host(host)}:{port}")
        self.out = out
        self._tabs: set[asyncio.Task[object]] = set()

    def initialize_logging(self) -> None:
        """textual-serve logs every connection in colour; the messages here are enough."""

    async def on_startup(self, app: web.Application) -> None:
        print(f"{TITLE} is served at {self.public_url}/ : open it in a web browser; "
              "every tab is its own game.", file=self.out)
        print("Press Ctrl+C to stop the server; the games are saved as they are played.", file=self.out)
        self.out.flush()

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's page, with the game's name as its title (the tab and the bookmarks show
        it) and the page's language."""
        response = await super().handle_index(request)
        assert isinstance(response, web.Response)  # the rendered template
        page = response.text or ""
        page = page.replace("<html>", '<html lang="en">', 1)
        page = page.replace("<head>", f"<head>\n    <title>{TITLE}</title>", 1)
        response.text = page
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        task = asyncio.current_task()
        assert task is not None
        self._tabs.add(task)
        try:
            return await super().handle_websocket(request)
        finally:
            self._tabs.discard(task)

    async def on_shutdown(self, app: web.Application) -> None:
        open_tabs = list(self._tabs)
        for task in open_tabs:
            task.cancel()  # the tab's app is told to quit and waited for
        if open_tabs:
            await asyncio.gather(*open_tabs, return_exceptions=True)
        games = f" ({len(open_tabs)} open {'game' if len(open_tabs) == 1 else 'games'} saved)" if open_tabs else ""
        after_ctrl_c = "\n" if self.out.isatty() else ""  # the terminal has echoed ^C on the last line
        print(f"{after_ctrl_c}The server has stopped{games}.", file=self.out)
        self.out.flush()


def serve(host: str, port: int, out: TextIO, err: TextIO) -> int:
    """Serve the game until Ctrl+C; the exit status."""
    if not is_loopback(host):
        print(f"Warning: serving on {host}, not on this machine alone: anyone who can reach port "
              f"{port} there can open the page and play, and their games are saved in your folder.",
              file=err)
    server = GameServer(host, port, out)
    try:
        server.serve()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        print(f"serve: cannot listen on {host} port {port}: {reason}.", file=err)
        return 1
    return 0
