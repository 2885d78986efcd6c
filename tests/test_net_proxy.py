"""The table server behind a reverse proxy (``host --trusted-proxy``): a request from a named
proxy counts as from the address it forwards; from anyone else, as its own, whatever it says.
Then through a real nginx (Debian's ``nginx-light``) on loopback, configured as docs/online.md
says, started by the test; skipped, saying why, where nginx is missing."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest

from net_support import WAIT, new_table, running
from stepping_stones.net.nginx import site
from stepping_stones.net.proxies import proxy_network

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def _session(address: str) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=WAIT))


async def _open(session: aiohttp.ClientSession, url: str, **headers: str) -> tuple[int, dict[str, str]]:
    async with session.post(url + "/tables", data=new_table().model_dump_json(), headers=headers) as response:
        return response.status, json.loads(await response.text() or "{}") if response.status != 400 else {}


def test_only_a_named_proxy_says_whose_address_a_request_is(tmp_path):
    async def scenario() -> None:
        async with (
            running(tmp_path, trusted_proxies=[proxy_network("127.0.0.1")]) as (server, url),
            _session("127.0.0.1") as proxy,
            _session("127.0.1.1") as other,
        ):
            status, opened = await _open(proxy, url, **{"X-Forwarded-For": "198.51.100.7"})
            assert status == 200 and server.tables.tables[opened["table"]].owner == "198.51.100.0/24"
            status, opened = await _open(proxy, url, Forwarded="for=203.0.113.9;proto=http")
            assert status == 200 and server.tables.tables[opened["table"]].owner == "203.0.113.0/24"
            # anyone else is its own address, whatever it says
            status, opened = await _open(other, url, **{"X-Forwarded-For": "198.51.100.7"})
            assert status == 200 and server.tables.tables[opened["table"]].owner == "127.0.1.0/24"
            # the proxy must say for whom, once
            assert (await _open(proxy, url))[0] == 400
            assert (await _open(proxy, url, **{"X-Forwarded-For": "10.0.0.1, 198.51.100.7"}))[0] == 400

    asyncio.run(scenario())


FRONT = "127.0.0.3"  # nginx's address: apart from the server's, so that their ports cannot meet


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((FRONT, 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def _nginx(folder: Path, port: int, site: str) -> Iterator[None]:
    """nginx on ``FRONT``:``port`` with the ``site`` (an ``http`` block's inside), its files in ``folder``."""
    assert NGINX is not None
    folder.mkdir()
    conf = folder / "nginx.conf"
    conf.write_text(
        "master_process off;\ndaemon off;\nerror_log error.log warn;\npid nginx.pid;\n"
        "events { worker_connections 64; }\n"
        "http {\n access_log off;\n client_body_temp_path body;\n proxy_temp_path proxy;\n"
        " fastcgi_temp_path fastcgi;\n uwsgi_temp_path uwsgi;\n scgi_temp_path scgi;\n" + site + "}\n"
    )
    proc = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(conf)], stderr=subprocess.PIPE, text=True)
    try:
        give_up = time.monotonic() + WAIT
        while True:  # until it listens (or has failed, saying why)
            if proc.poll() is not None:
                raise AssertionError(f"nginx stopped: {proc.stderr.read() if proc.stderr else ''}")
            with socket.socket() as s:
                if s.connect_ex((FRONT, port)) == 0:
                    break
            assert time.monotonic() < give_up, "nginx did not listen"
            time.sleep(0.05)  # polls nginx's start, a process of its own
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=WAIT)


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: apt-get install nginx-light)")
def test_behind_nginx_each_client_counts_as_its_own_address(tmp_path):
    """Through nginx as docs/online.md configures it: tables and seats count against each
    client's own address, not nginx's; a header a client sends itself is replaced by nginx."""
    front = _free_port()

    async def scenario() -> None:
        public = f"http://{FRONT}:{front}"
        async with running(tmp_path / "server", public_url=public, trusted_proxies=[proxy_network("127.0.0.1")]) as (
            server,
            url,
        ):
            assert url == public and server._sock is not None  # the URL it shows is the proxy's
            upstream = server._sock.getsockname()[1]
            with _nginx(tmp_path / "nginx", front, site([f"127.0.0.1:{upstream}"], listen=f"{FRONT}:{front}")):
                async with _session("127.0.5.1") as ann, _session("127.0.6.1") as bo:
                    status, first = await _open(ann, public, **{"X-Forwarded-For": "198.51.100.7"})
                    assert status == 200, first
                    status, second = await _open(bo, public)
                    assert status == 200, second
                    owners = {server.tables.tables[t["table"]].owner for t in (first, second)}
                    assert owners == {"127.0.5.0/24", "127.0.6.0/24"}
                    async with ann.ws_connect(public.replace("http", "ws", 1) + "/ws") as ws:
                        await ws.send_str(
                            json.dumps({"type": "hello", "version": 4, "code": first["code"], "name": "Ann"})
                        )
                        assert json.loads((await ws.receive()).data)["type"] == "welcome"
                        assert list(server.held.by_key) == ["127.0.5.0/24"]

    asyncio.run(scenario())
