"""The nginx configuration in front of ``host`` (docs/online.md), written once: ``stepping-stones
nginx`` prints it, docs/online.md shows it, and the tests and the load test run it.

One process: nginx passes everything to it, websockets included, and tells it each client's
address.  Several processes on one store: nginx hashes on the table in the websocket's path, so a
table's people all reach the process that holds it, and a newcomer's ``/ws`` (no table in its
path) reaches any of them."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["site"]

_UPGRADE = "map $http_upgrade $connection_upgrade { default upgrade; '' close; }"
_TABLE = 'map $uri $table { "~^/t/(?<id>[0-9a-f]{16})/ws$" $id; default ""; }'

_LOCATION = """\
        proxy_http_version 1.1;                          # websockets
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;                # the door checks it against --public-url
        proxy_set_header X-Forwarded-For $remote_addr;   # the client's address alone: what it sent is dropped
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 1h;                           # a seat may be quiet for long"""

_SHARDED = """\
        proxy_connect_timeout 2s;                        # a dead process: the next one in the ring"""

_SERVER = "    server {address} max_fails=1 fail_timeout=5s;"
"""One process of several.  One connection it fails (refused, or not taken in 2 s) and nginx
passes that request to the next process in the ring and skips it for 5 s: a dead process costs a
refused connection each 5 s, and a live one skipped by mistake is back at its people's next try
(30 s, and a live process skipped by mistake was every table's: 502 until it passed)."""


def site(servers: Sequence[str], *, listen: str, server_name: str | None = None) -> str:
    """The inside of nginx's ``http`` block for the ``host`` processes at ``servers`` (each
    ``ADDRESS:PORT``), listening on ``listen`` (nginx's ``listen`` parameters, e.g. ``443 ssl``)
    as ``server_name``.

    >>> print(site(["127.0.0.1:8765"], listen="127.0.0.3:8080"))  # doctest: +ELLIPSIS
    map $http_upgrade $connection_upgrade { default upgrade; '' close; }
    server {
        listen 127.0.0.3:8080;
        location / {
            proxy_pass http://127.0.0.1:8765;
    ...
    """
    if not servers:
        raise ValueError("nginx needs at least one server")
    lines = [_UPGRADE]
    if len(servers) > 1:
        lines += [
            _TABLE,
            "upstream tables {",
            "    hash $table consistent;" + " " * 30 + "# a table's websockets go to one process",
        ]
        lines += [_SERVER.format(address=address) for address in servers]
        lines.append("}")
        upstream = "tables"
    else:
        upstream = servers[0]
    lines += ["server {", f"    listen {listen};"]
    if server_name is not None:
        lines.append(f"    server_name {server_name};")
    if listen.split()[-1] == "ssl":
        lines.append("    # ssl_certificate ...; ssl_certificate_key ...;")
    lines += ["    location / {", f"        proxy_pass http://{upstream};", _LOCATION]
    if len(servers) > 1:
        lines.append(_SHARDED)
    lines += ["    }", "}"]
    return "\n".join(lines) + "\n"
