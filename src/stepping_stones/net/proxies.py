"""A table server behind a reverse proxy (``host --trusted-proxy ADDRESS``): whose address a
request is.

Behind a proxy every connection comes from the proxy, so every per-address limit would count all
the clients as one.  A request whose peer is one of the proxies named is taken to come from the
address the proxy says (``X-Forwarded-For``, or ``Forwarded`` when the request has one), read by
aiohttp-remotes' strict parsers (a kept library, not a parser of ours): exactly one hop, the
proxy's; a request from a named proxy that says nothing, or says more than one hop, is refused
(400).  A request from any other peer is its own address, whatever headers it carries: a client
cannot choose the address it counts as.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Sequence

from aiohttp import hdrs, web
from aiohttp_remotes import ForwardedStrict, XForwardedStrict

__all__ = ["Proxies", "proxy_network"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def proxy_network(text: str) -> Network:
    """A proxy's address or network as ``--trusted-proxy`` gives it.  Raises ``ValueError``.

    >>> proxy_network("127.0.0.1"), proxy_network("fd00::/64")
    (IPv4Network('127.0.0.1/32'), IPv6Network('fd00::/64'))
    """
    return ipaddress.ip_network(text.strip(), strict=False)


class Proxies:
    """The proxies a server trusts, and the middleware that reads the address they forward."""

    def __init__(self, networks: Sequence[Network]) -> None:
        self.networks = tuple(networks)
        hop = [str(n) for n in self.networks]
        self._x_forwarded = XForwardedStrict([hop])
        self._forwarded = ForwardedStrict([hop])

    def trusts(self, peer: str | None) -> bool:
        if peer is None:
            return False
        try:
            ip = ipaddress.ip_address(peer.split("%")[0])
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        peer = request.transport.get_extra_info("peername") if request.transport is not None else None
        if not self.trusts(peer[0] if peer else None):
            return await handler(request)  # not a proxy of ours: its own address
        if hdrs.FORWARDED in request.headers:
            return await self._forwarded.middleware(request, handler)
        return await self._x_forwarded.middleware(request, handler)
