"""No address can fill the table server: what one address (its IPv4 /24, its IPv6 /64, and its /56)
may hold, seated or not; connections at a finished table close; so many addresses with a few
connections each cannot keep a newcomer out; tables in play, and 'again', count against the
address that opens them.  Raw clients on loopback (127.0.0.0/8 is this machine: 127.0.1.1 is
another /24 than 127.0.0.1); the server's clock is the test's own."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from random import Random

import aiohttp
import pytest

from net_support import WAIT, Clock, new_table, running
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.guard import Held, address_key, network_key
from stepping_stones.net.protocol import ErrorMessage, Invite
from stepping_stones.net.server import Limits


@asynccontextmanager
async def _session(address: str) -> AsyncIterator[aiohttp.ClientSession]:
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=WAIT)) as session:
        yield session


def _ws(url: str) -> str:
    return url.replace("http", "ws", 1) + "/ws"


async def _post(session: aiohttp.ClientSession, url: str, seats: tuple[str, str, str]) -> tuple[int, dict[str, str]]:
    async with session.post(url + "/tables", data=new_table(seats).model_dump_json()) as response:
        return response.status, json.loads(await response.text())


async def _sit(session: aiohttp.ClientSession, url: str, code: str, name: str) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(_ws(url))
    await ws.send_str(json.dumps({"type": "hello", "version": 4, "code": code, "name": name}))
    reply = json.loads((await ws.receive()).data)
    assert reply["type"] == "welcome", reply
    return ws


def test_addresses_count_by_their_network():
    assert address_key("127.0.0.1") == address_key("127.0.0.200") != address_key("127.0.1.1")
    assert address_key("2001:db8:0:1::5") == address_key("2001:db8:0:1:ffff::1") != address_key("2001:db8:0:2::1")
    assert network_key("2001:db8:0:1::5") == network_key("2001:db8:0:ff::1") != network_key("2001:db8:0:100::1")
    held: Held[int] = Held(Limits(max_connections=1000, connections_per_address=4, connections_per_network=6))
    for n in range(4):
        assert held.admit(f"2001:db8:0:1::{n + 1}") is None
        held.add(n, f"2001:db8:0:1::{n + 1}")
    assert "your address" in (held.admit("2001:db8:0:1::99") or "")
    assert held.admit("2001:db8:0:2::1") is None  # another /64 of the same /56
    held.add(4, "2001:db8:0:2::1")
    held.add(5, "2001:db8:0:3::1")
    assert "your network" in (held.admit("2001:db8:0:4::1") or "")  # the /56 holds its most
    assert held.admit("2001:db8:1::1") is None  # another /56
    held.discard(0)
    assert held.admit("2001:db8:0:4::1") is None


def test_one_address_cannot_fill_the_server_with_seated_websockets(tmp_path):
    """One address opens tables and seats three connections at each: it holds a quarter of
    --max-connections at most, and another address still opens a table and sits (with the audit's
    --max-connections 48, the one address held all 48)."""
    limits = Limits(max_connections=16, tables_per_minute=100, tables_per_address=100)

    async def scenario() -> None:
        async with (
            running(tmp_path, limits=limits) as (server, url),
            _session("127.0.0.1") as hog,
            _session("127.0.1.1") as person,
        ):
            held: list[aiohttp.ClientWebSocketResponse] = []
            refused = 0
            for table in range(4):
                status, opened = await _post(hog, url, ("open", "open", "open"))
                assert status == 200, opened
                for seat in range(3):
                    try:
                        held.append(await _sit(hog, url, opened["code"], f"P{table}{seat}"))
                    except aiohttp.WSServerHandshakeError as exc:
                        assert exc.status == 429
                        refused += 1
            assert len(held) == limits.held_per_address() == 4 and refused == 8
            status, opened = await _post(person, url, ("open", "random", "random"))
            assert status == 200
            ws = await _sit(person, url, opened["code"], "Ann")
            await ws.close()
            for one in held:
                await one.close()
            assert "holds 4 connections already" in server.log.err.getvalue()

    asyncio.run(scenario())


def test_the_connections_at_a_finished_table_close_after_the_grace(tmp_path):
    """A game played to its end: its seat stays connected for the grace (its result, 'again'),
    then the server closes it, saying the table has closed."""
    clock = Clock()
    limits = Limits(finished_grace=60.0)

    async def scenario() -> None:
        async with running(tmp_path, clock=clock, limits=limits) as (server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                async with asyncio.timeout(WAIT):
                    await play_randomly(ann, Random(1))
                    while server.tables.tables:  # filed: the table leaves the server's tables
                        await asyncio.sleep(0.01)  # polls the filing thread's end, not a clock
                clock.now += 59.0
                await server.sweep()
                assert len(server.tables.seated) == 1
                clock.now += 1.0
                await server.sweep()
                assert not server.tables.seated
                with pytest.raises(Exception, match="its table has closed"):
                    async with asyncio.timeout(WAIT):
                        while True:
                            await ann.receive()

    asyncio.run(scenario())


def test_many_addresses_with_a_few_connections_each_cannot_keep_a_newcomer_out(tmp_path):
    """Five addresses hold three websockets without a seat each, more than the server holds: each
    one past the room closes the oldest of the address holding the most, and a newcomer from a
    sixth address opens a table and sits."""
    limits = Limits(max_connections=12, unseated_per_address=3)

    async def scenario() -> None:
        async with running(tmp_path, limits=limits) as (server, url):
            sessions = [
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.{i}.1", 0)))
                for i in range(1, 6)
            ]
            try:
                held = []
                for session in sessions:
                    for _ in range(3):
                        held.append(await session.ws_connect(_ws(url)))
                assert len(server.unseated.deadlines) <= limits.unseated_room()
                async with _session("127.0.9.1") as newcomer:
                    status, opened = await _post(newcomer, url, ("open", "random", "random"))
                    assert status == 200
                    ws = await _sit(newcomer, url, opened["code"], "Ann")
                    await ws.close()
                for ws in held:
                    await ws.close()
            finally:
                for session in sessions:
                    await session.close()

    asyncio.run(scenario())


def test_one_address_cannot_fill_the_tables_in_play(tmp_path):
    """Tables that start at once (one person, two computers) are not 'open and not started': an
    address may still have only a quarter of --max-tables in play; another address is not held back."""
    limits = Limits(max_tables=8, tables_per_minute=100)

    async def scenario() -> None:
        async with (
            running(tmp_path, limits=limits) as (server, url),
            _session("127.0.0.1") as hog,
            _session("127.0.1.1") as other,
        ):
            seated = []
            for n in range(2):
                status, opened = await _post(hog, url, ("open", "random", "random"))
                assert status == 200
                seated.append(await _sit(hog, url, opened["code"], f"P{n}"))
            status, refusal = await _post(hog, url, ("open", "random", "random"))
            assert status == 429 and "2 tables in play" in refusal["message"], refusal
            assert (await _post(other, url, ("open", "random", "random")))[0] == 200
            for ws in seated:
                await ws.close()
            assert len(server.tables.tables) == 3

    asyncio.run(scenario())


def test_again_obeys_the_limits_of_the_address_that_asks(tmp_path):
    """An address whose table openings are spent gets no new table through 'again' either."""
    limits = Limits(tables_per_minute=1)

    async def scenario() -> None:
        async with running(tmp_path, limits=limits) as (server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                async with asyncio.timeout(WAIT):
                    await play_randomly(ann, Random(2))
                    await ann.again()
                    while not isinstance(reply := await ann.receive(), ErrorMessage | Invite):
                        pass
                assert isinstance(reply, ErrorMessage) and reply.code == "too-fast", reply
                assert "in a minute" in reply.message
                assert all(t.over for t in server.tables.tables.values())

    asyncio.run(scenario())
