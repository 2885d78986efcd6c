"""Who may come in: the names the server answers to, the one origin whose pages may open a game,
and the headers that keep the page from being framed or from loading anything from elsewhere.

A web page on another site can make the person's browser send requests to 127.0.0.1; it can even
open a websocket there, since browsers do not hold websockets to the same-origin rule.  So:

- every request must name this server in its ``Host`` header (one of the names in ``Door.hosts``),
  which defeats DNS rebinding, where ``evil.example`` is made to resolve to 127.0.0.1;
- a websocket is accepted only with an ``Origin`` that is the page's own origin (``Door.origins``):
  a browser always sends it, and a page cannot forge it.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from yarl import URL

from ..engine import SteppingStonesError
from .addresses import http_address

__all__ = ["Door", "DoorError", "is_loopback", "LOOPBACK_NAMES", "page_headers", "public_address", "url_host"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


class DoorError(SteppingStonesError, ValueError):
    """The server cannot be opened as asked (a public host without a public URL, a bad URL)."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` can only be reached from this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """``host`` as it stands in a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _address(scheme: str, host: str, port: int) -> tuple[str, str, int]:
    return scheme, host.strip("[]").lower().rstrip("."), port


def _parse_host_header(value: str, scheme: str) -> tuple[str, str, int] | None:
    """``Host: name[:port]`` as (scheme, name, port), or None when it is not a host at all."""
    if not value or len(value) > 300 or any(c in value for c in "/?#@\\ \t"):
        return None
    try:
        url = URL(f"{scheme}://{value}")
    except ValueError:
        return None
    if not url.host or url.port is None or url.path not in ("", "/") or url.query_string:
        return None
    return _address(scheme, url.host, url.port)


@dataclass(frozen=True)
class Door:
    """The addresses this server answers as, from where it listens and its public URL.

    >>> door = Door.open("127.0.0.1", 8000)
    >>> door.host_allowed("127.0.0.1:8000"), door.host_allowed("localhost:8000")
    (True, True)
    >>> door.host_allowed("evil.example:8000"), door.host_allowed("127.0.0.1:9000")
    (False, False)
    >>> door.origin_allowed("http://localhost:8000"), door.origin_allowed("http://evil.example")
    (True, False)
    >>> door.origin_allowed("null"), door.origin_allowed(None)
    (False, False)
    """

    scheme: str
    addresses: frozenset[tuple[str, str, int]]  # (scheme, host, port) that pages are served as
    public_url: str | None  # the address browsers use, when given; else the request's own host
    shown_url: str  # the address to print for people to open

    @classmethod
    def open(cls, host: str, port: int, public_url: str | None = None) -> Door:
        """The door of a server listening on ``host``:``port``.  A host other than loopback needs
        ``public_url``: the page must name the address browsers reach it by, and ``0.0.0.0`` is
        not one."""
        addresses: set[tuple[str, str, int]] = set()
        scheme = "http"
        if public_url is not None:
            url = public_address(public_url)
            scheme = url.scheme
            assert url.host is not None and url.port is not None  # checked by public_address
            addresses.add(_address(url.scheme, url.host, url.port))
            public_url = str(url.origin())
        elif not is_loopback(host):
            raise DoorError(
                f"listening on {host} needs --public-url URL: the address that browsers "
                f"on other machines use to reach this one (for example "
                f"http://my-computer.local:{port})"
            )
        if is_loopback(host):
            names = LOOPBACK_NAMES if host.lower() in LOOPBACK_NAMES else (*LOOPBACK_NAMES, host)
            addresses.update(_address("http", name, port) for name in names)
        shown = public_url or f"http://{url_host(host)}:{port}"
        return cls(scheme, frozenset(addresses), public_url, shown)

    def host_allowed(self, host_header: str | None) -> bool:
        """Whether a request's ``Host`` header names this server."""
        if host_header is None:
            return False
        return any(
            _parse_host_header(host_header, scheme) in self.addresses for scheme in {a[0] for a in self.addresses}
        )

    def origin_allowed(self, origin: str | None) -> bool:
        """Whether a websocket's ``Origin`` is a page of this server (never ``null``, never none)."""
        if origin is None or origin == "null" or len(origin) > 300:
            return False
        try:
            url = URL(origin)
        except ValueError:
            return False
        if url.scheme not in ("http", "https") or not url.host or url.port is None:
            return False
        if url.path not in ("", "/") or url.query_string or url.user or url.password:
            return False
        return _address(url.scheme, url.host, url.port) in self.addresses

    def base_url(self, request_host: str) -> str:
        """Where the page's links point: the public URL, or the (checked) host the browser asked."""
        return self.public_url or f"{self.scheme}://{request_host}"


def public_address(text: str) -> URL:
    """``--public-url``: the address clients use, a scheme, a host and a port.  Raises ``DoorError``."""
    url = http_address(text)
    if url == "not a URL":
        raise DoorError(f"--public-url {text!r} is not a URL")
    if url == "not http":
        raise DoorError(
            f"--public-url {text!r} must be an http:// or https:// address with a host "
            "(for example http://my-computer.local:8000)"
        )
    if url.path not in ("", "/") or url.query_string or url.fragment or url.user:
        raise DoorError(
            f"--public-url {text!r} must be only a scheme, a host and a port "
            "(the game is served at the root of the address)"
        )
    return url


def security_headers(websocket_url: str) -> dict[str, str]:
    """Headers for every answer: nothing but this server's own files and websocket, no framing by
    any site, no guessing of types, no referrer leaking the address."""
    policy = "; ".join(
        [
            "default-src 'none'",
            "script-src 'self' 'unsafe-inline'",  # textual-serve's page has inline handlers
            "style-src 'self' 'unsafe-inline'",  # and inline styles; xterm.js sets styles too
            "img-src 'self' data:",
            "font-src 'self'",
            f"connect-src 'self' {websocket_url}",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )
    return {
        "Content-Security-Policy": policy,
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
    }


def page_headers(websocket_url: str) -> dict[str, str]:
    """``security_headers`` for the table server's own page (``net/pages.py``): its files and its
    websocket only, and nothing inline at all (it has no inline script or style)."""
    policy = "; ".join(
        [
            "default-src 'self'",
            "img-src 'self' data:",
            f"connect-src 'self' {websocket_url}".rstrip(),
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "object-src 'none'",
        ]
    )
    return {**security_headers(websocket_url), "Content-Security-Policy": policy}


def listening_socket(host: str, port: int, backlog: int) -> socket.socket:
    """A non-blocking socket listening on ``host``:``port`` (0: a free port), for either server;
    ``OSError`` when it cannot be had."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock
