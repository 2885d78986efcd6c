"""Limits per client address, over loopback with raw clients: so many wrong invite codes or seat
secrets, then no hello at all (even a right one) until the allowance comes back; so many hellos a
minute, whatever connections they come on.  Another address is not held back.  The clock is the
test's own: nothing waits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from net_support import Clock, Raw, new_table, running
from stepping_stones.net.client import open_table
from stepping_stones.net.server import Limits


@asynccontextmanager
async def _from(url: str, address: str) -> AsyncIterator[Raw]:
    """A raw client whose connection comes from ``address`` (any of 127.0.0.0/8 is this machine)."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0))) as session:
        ws = await session.ws_connect(url.replace("http", "ws", 1) + "/ws")
        try:
            yield Raw(session, ws)
        finally:
            await ws.close()


async def _hello(url: str, hello: dict[str, Any], address: str = "127.0.0.1") -> tuple[Any, bool]:
    """The first reply to a hello, and whether the server closed the connection after it."""
    async with _from(url, address) as raw:
        await raw.send({"type": "hello", "version": 4, **hello})
        reply = await raw.reply()
        if reply.type == "welcome":
            return reply, False
        return reply, await raw.text() is None


def test_wrong_guesses_from_one_address_stop_its_hellos_for_a_while(tmp_path):
    clock = Clock()

    async def scenario() -> None:
        limits = Limits(guess_rate=1 / 60, guess_burst=3)
        async with running(tmp_path, clock=clock, limits=limits) as (server, url):
            opened = await open_table(url, new_table())
            guesses = [
                {"code": "ABCDE-FGHJK", "name": "Eve"},
                {"secret": "x" * 43},
                {"code": "ZZZZZ-ZZZZZ", "name": "Eve"},
            ]
            for hello in guesses:
                reply, closed = await _hello(url, hello)
                assert reply.code in ("unknown-code", "bad-secret") and closed
            # the allowance is spent: even the right code is not looked at
            reply, closed = await _hello(url, {"code": opened.code, "name": "Ann"})
            assert reply.code == "too-fast" and "wrong invite codes" in reply.message and closed
            assert all(s.kind == "open" for s in server.tables.tables[opened.table].seats)
            # another address is not held back
            reply, _closed = await _hello(url, {"code": opened.code, "name": "Bo"}, address="127.0.1.2")
            assert reply.type == "welcome"
            clock.now += 60  # a minute: one guess comes back
            reply, _closed = await _hello(url, {"code": opened.code, "name": "Ann"})
            assert reply.type == "welcome" and reply.name == "Ann"
            log = server.log.err.getvalue()
            assert "too many wrong invite codes" in log and "ABCDE" not in log and opened.code not in log

    asyncio.run(scenario())


def test_hellos_from_one_address_are_limited_whatever_connections_they_come_on(tmp_path):
    clock = Clock()

    async def scenario() -> None:
        async with running(tmp_path, clock=clock, limits=Limits(hello_rate=1 / 60, hello_burst=3)) as (_server, url):
            opened = await open_table(url, new_table())
            welcome, _closed = await _hello(url, {"code": opened.code, "name": "Ann"})
            secret = welcome.secret
            for _ in range(2):  # Ann comes back twice: three hellos in all
                reply, _closed = await _hello(url, {"secret": secret})
                assert reply.type == "welcome"
            reply, closed = await _hello(url, {"secret": secret})
            assert reply.code == "too-fast" and "too many hellos" in reply.message and closed
            clock.now += 60
            reply, _closed = await _hello(url, {"secret": secret})
            assert reply.type == "welcome" and reply.seat == welcome.seat

    asyncio.run(scenario())


def test_an_ipv6_host_counts_by_its_network():
    from stepping_stones.net.guard import Addresses

    clock = Clock()
    addresses = Addresses(Limits(guess_rate=1 / 60, guess_burst=2), clock)
    addresses.wrong_guess("2001:db8:1:2::1")
    addresses.wrong_guess("2001:db8:1:2:ffff::9")  # another address of the same /64
    assert addresses.hello("2001:db8:1:2::77") is not None
    assert addresses.hello("2001:db8:1:3::1") is None  # another network
    assert addresses.hello("192.0.2.1") is None and addresses.hello("fe80::1%eth0") is None


def test_the_addresses_remembered_are_bounded_and_the_least_recently_seen_go_first():
    """An address that keeps trying stays held back however many new addresses come; only the
    quietest one is forgotten (the server forgot the oldest half at once, busy or not)."""
    from stepping_stones.net.guard import Addresses

    clock = Clock()
    addresses = Addresses(Limits(guess_rate=1 / 60, guess_burst=1, max_addresses=3), clock)
    for address in ("192.0.2.1", "198.51.100.1", "203.0.113.1"):
        addresses.wrong_guess(address)  # each held back now
    assert addresses.hello("192.0.2.1") is not None  # the first, seen again: the most recent now
    assert addresses.hello("192.0.3.1") is None  # a fourth address: the least recently seen goes
    assert len(addresses.seen) == 3 and "198.51.100.0/24" not in addresses.seen
    assert addresses.hello("192.0.2.1") is not None  # still held back
    assert addresses.hello("198.51.100.1") is None  # forgotten: a full allowance again
