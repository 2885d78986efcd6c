"""The table server's own web page (``host`` at ``/``, an invite link at ``/t/CODE``).

The page (``web/``: plain HTML, CSS and JavaScript, no build step) speaks the table protocol over
``/ws`` with ``page`` in its hello: the server runs the seat's flow and sends what the person is
shown (``pageseat``, ``Shown``), which the page draws; it words nothing itself.

``add_pages(app, door)`` adds the routes and the headers (``door.page_headers``: the page's
content security policy, ``default-src 'self'``, and no framing) to the server's app; the
server's own middleware keeps the Host and Origin checks in front of them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from aiohttp import web

from .door import Door, page_headers

__all__ = ["add_pages"]

WEB: Final = Path(__file__).with_name("web")
FILES: Final = {
    "app.js": "text/javascript",
    "player.js": "text/javascript",
    "ratings.js": "text/javascript",
    "cards.js": "text/javascript",
    "watch.js": "text/javascript",
    "life.js": "text/javascript",
    "app.css": "text/css",
    "icon.svg": "image/svg+xml",
    "icon-turn.svg": "image/svg+xml",
}
"""The page's files besides ``index.html``, by name, with their types."""
_CODE: Final = re.compile(r"[A-Za-z0-9-]{1,20}")


class _Pages:
    """The page's handlers."""

    def __init__(self, door: Callable[[], Door | None]) -> None:
        self.door = door

    async def page(self, request: web.Request) -> web.StreamResponse:
        code = request.match_info.get("code")
        if code is not None and not _CODE.fullmatch(code):
            return web.Response(
                status=404, text="An invite link is /t/ and the table's code; a watch link, /w/ and its watch code.\n"
            )
        page = "ratings.html" if request.path == "/ratings" else "index.html"
        return web.Response(
            body=(WEB / page).read_bytes(),
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    async def file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        kind = FILES.get(name)
        if kind is None:
            return web.Response(status=404, text="No such file.\n")
        return web.Response(
            body=(WEB / name).read_bytes(),
            content_type=kind,
            charset="utf-8" if kind.startswith("text/") else None,
            headers={"Cache-Control": "no-cache"},
        )

    async def headers(self, request: web.Request, response: web.StreamResponse) -> None:
        door = self.door()
        host = request.headers.get("Host", "")
        base = door.base_url(host) if door is not None and door.host_allowed(host) else ""
        # the websocket of this server, any path: /ws, and /t/<table>/ws once the table is known
        socket = base.replace("https://", "wss://", 1).replace("http://", "ws://", 1) if base else ""
        for key, value in page_headers(socket).items():
            response.headers.setdefault(key, value)


def add_pages(app: web.Application, door: Callable[[], Door | None]) -> None:
    """The page's routes (``/``, ``/t/CODE``, ``/w/CODE``, ``/ratings``, ``/web/FILE``) and its headers
    on every answer of ``app``."""
    pages = _Pages(door)
    handlers: list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]] = [
        ("GET", "/", pages.page),
        ("GET", "/t/{code}", pages.page),
        ("GET", "/w/{code}", pages.page),
        ("GET", "/ratings", pages.page),
        ("GET", "/web/{name}", pages.file),
    ]
    for method, path, handler in handlers:
        app.router.add_route(method, path, handler)
    app.on_response_prepare.append(pages.headers)
