"""No client can lock the others out of the table server: raw hostile clients on loopback (any
of 127.0.0.0/8 is this machine, so 127.0.1.2, in another /24, is another address).  The server's clock is the
test's own: a deadline passes when the test moves it and sweeps."""

from __future__ import annotations

import asyncio
import json
import resource
import selectors
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import aiohttp
import pytest

from net_support import WAIT, Clock, new_table, running
from stepping_stones.net.client import SeatClient, open_table
from stepping_stones.net.server import Limits


@asynccontextmanager
async def _session(address: str) -> AsyncIterator[aiohttp.ClientSession]:
    """A client session whose connections come from ``address``."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=WAIT)) as session:
        yield session


def _ws(url: str) -> str:
    return url.replace("http", "ws", 1) + "/ws"


async def _post_table(
    session: aiohttp.ClientSession,
    url: str,
    seats: tuple[str, str, str] = ("open", "open", "open"),
) -> tuple[int, dict[str, object]]:
    async with session.post(url + "/tables", data=new_table(seats).model_dump_json()) as response:
        return response.status, json.loads(await response.text())


def test_connections_without_a_seat_are_few_per_address_and_closed_at_the_hello_deadline(tmp_path):
    """One address opens twenty websockets and sends pings on them, never a hello: it holds only
    a few, and those are closed at the hello deadline, pings or not.  Meanwhile another address
    opens a table and sits, and stays seated."""
    clock = Clock()
    limits = Limits(max_connections=16, unseated_per_address=3, hello_seconds=10.0)

    async def scenario() -> None:
        async with (
            running(tmp_path, clock=clock, limits=limits) as (server, url),
            _session("127.0.0.1") as flooder,
            _session("127.0.1.2") as person,
        ):
            held: list[aiohttp.ClientWebSocketResponse] = []
            refused: list[int] = []
            for nonce in range(20):
                try:
                    ws = await flooder.ws_connect(_ws(url))
                except aiohttp.WSServerHandshakeError as exc:
                    refused.append(exc.status)
                    continue
                held.append(ws)
                await ws.send_str(json.dumps({"type": "ping", "nonce": nonce}))
                assert json.loads((await ws.receive()).data)["type"] == "pong"
            assert len(held) == 3 and refused == [429] * 17
            # the other address is not held back: it opens a table and sits
            status, opened = await _post_table(person, url)
            assert status == 200
            seated = await person.ws_connect(_ws(url))
            await seated.send_str(json.dumps({"type": "hello", "version": 4, "code": opened["code"], "name": "Ann"}))
            assert json.loads((await seated.receive()).data)["type"] == "welcome"
            # a ping just before the deadline changes nothing: at the deadline they are closed
            clock.now += 9.0
            for ws in held:
                await ws.send_str(json.dumps({"type": "ping", "nonce": 99}))
                assert json.loads((await ws.receive()).data)["type"] == "pong"
            await server.sweep()
            assert all(not ws.closed for ws in held)
            clock.now += 1.0
            await server.sweep()
            for ws in held:
                async with asyncio.timeout(WAIT):
                    error = json.loads((await ws.receive()).data)
                    assert error["type"] == "error" and error["code"] == "no-seat", error
                    assert (await ws.receive()).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                await ws.close()
            # the seated one stays; and the first address may try again
            await seated.send_str(json.dumps({"type": "ping", "nonce": 7}))
            async with asyncio.timeout(WAIT):
                while (reply := json.loads((await seated.receive()).data))["type"] != "pong":
                    pass
            assert reply["nonce"] == 7
            again = await flooder.ws_connect(_ws(url))
            await again.close()
            await seated.close()
            assert "no seat 10 s after it opened" in server.log.err.getvalue()

    asyncio.run(scenario())


def test_table_openings_are_held_per_address(tmp_path):
    """An address may have so many open tables nobody has started, and open so many a minute;
    another address is not held back, and a started table frees its place."""
    clock = Clock()
    limits = Limits(tables_per_address=2, tables_per_minute=3)

    async def scenario() -> None:
        async with (
            running(tmp_path, clock=clock, limits=limits) as (server, url),
            _session("127.0.0.1") as burst,
            _session("127.0.1.2") as other,
        ):
            solo = ("open", "random", "random")  # starts once one person sits
            replies = [await _post_table(burst, url, solo) for _ in range(4)]
            assert [status for status, _reply in replies] == [200, 200, 429, 429]
            refusal = replies[-1][1]
            assert refusal["code"] == "too-fast" and "nobody has started" in refusal["message"]
            assert len(server.tables.tables) == 2
            assert (await _post_table(other, url, solo))[0] == 200  # another address is not held back
            # a table one sits at starts: its place is free again
            async with SeatClient(url, code=str(replies[0][1]["code"]), name="Ann") as ann:
                await ann.join()
                assert server.tables.tables[str(replies[0][1]["table"])].started
                assert (await _post_table(burst, url, solo))[0] == 200  # the third opening this minute
                async with SeatClient(url, code=str(replies[1][1]["code"]), name="Bo") as bo:
                    await bo.join()
                    status, refusal = await _post_table(burst, url, solo)  # a fourth: too many a minute
                    assert status == 429 and "in a minute" in refusal["message"], refusal
                    clock.now += 20.0  # a third of a minute: one opening comes back
                    assert (await _post_table(burst, url, solo))[0] == 200
            log = server.log.err.getvalue()
            assert "refused a table from 127.0.0.1" in log and "127.0.1.2" not in log

    asyncio.run(scenario())


def test_a_hello_that_seated_its_connection_meets_the_deadline_while_it_goes_on(tmp_path):
    """A hello sends its welcome, then saves the table and tells everyone; the hello deadline was
    met only once all of that was done.  A sweep meanwhile closed the person just seated as "no
    seat 10 s after it opened" (under load the test below saw it: a ``no-seat`` error, then its
    ping unanswered).  Now a connection with a seat has met it, whatever its hello still does."""
    clock = Clock()
    limits = Limits(hello_seconds=10.0)

    async def scenario() -> None:
        async with running(tmp_path, clock=clock, limits=limits) as (server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            tables = server.tables
            changed, welcomed, go_on = tables._changed, asyncio.Event(), asyncio.Event()

            async def held(table, save=True, actor=None):  # the hello's tail, after the welcome, held
                welcomed.set()
                await go_on.wait()
                return await changed(table, save, actor)

            tables._changed = held
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                joining = asyncio.ensure_future(ann.join())
                async with asyncio.timeout(WAIT):
                    await welcomed.wait()
                clock.now += 11.0  # past the hello deadline while the hello goes on
                await server.sweep()
                tables._changed = changed
                go_on.set()
                async with asyncio.timeout(WAIT):
                    await joining
                    await ann.send({"type": "ping", "nonce": 1})
                    while (message := await ann.receive()).type != "pong":
                        assert message.type != "error", message
            assert "no seat" not in server.log.err.getvalue()

    asyncio.run(scenario())


def test_idle_and_half_sent_connections_are_closed_and_counted(tmp_path):
    """Silent TCP connections and ones that send half a request are closed once they began no
    request for ``idle_seconds``; a seated websocket stays.  Past ``max_connections`` the oldest
    connection without a websocket makes room, so a real client still gets in."""
    clock = Clock()
    limits = Limits(max_connections=12, idle_seconds=20.0)

    async def scenario() -> None:
        async with running(tmp_path, clock=clock, limits=limits) as (server, url):
            port = int(url.rsplit(":", 1)[1])
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                async with asyncio.timeout(WAIT):  # the table's opening closed its connection: Ann's alone
                    while len(server.sockets) > 1:
                        await asyncio.sleep(0)
                sockets = [await asyncio.open_connection("127.0.0.1", port) for _ in range(8)]
                for _reader, writer in sockets[4:]:  # half a request, a byte now and then (slowloris)
                    writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-a: ".encode())
                    await writer.drain()
                await _settled(server, 9)
                clock.now += 19.0
                for _reader, writer in sockets[4:]:
                    writer.write(b"b")
                    await writer.drain()
                await server.sweep()
                assert len(server.sockets) >= 9  # not yet
                clock.now += 1.0
                await server.sweep()
                for reader, _writer in sockets:
                    async with asyncio.timeout(WAIT):
                        assert await reader.read() == b""  # closed by the server
                # past the cap: the oldest silent ones make room, and a real client gets in
                more = [await asyncio.open_connection("127.0.0.1", port) for _ in range(30)]
                await _settled(server, limits.max_connections)
                async with (
                    aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT)) as session,
                    session.get(url + "/") as response,
                ):
                    assert response.status == 200
                assert len(server.sockets) <= limits.max_connections
                await ann.send({"type": "ping", "nonce": 3})
                async with asyncio.timeout(WAIT):
                    while (await ann.receive()).type != "pong":
                        pass
                for _reader, writer in sockets + more:
                    writer.close()
            log = server.log.err.getvalue()
            assert log.count("closed the oldest connection") <= 3  # a flood is said once

    asyncio.run(scenario())


async def _settled(server: object, n: int) -> None:
    """Until the server has accepted ``n`` connections or more (each accept is one turn of the loop)."""
    async with asyncio.timeout(WAIT):
        while len(server.sockets.since) < n:  # type: ignore[attr-defined]
            await asyncio.sleep(0)


def test_ping_frames_count_against_the_allowance(tmp_path):
    """A flood of websocket ping frames is answered while the allowance lasts, then dropped, and
    the connection closed as for any flood; flooding again on new connections works three times,
    then the address's websockets are refused for a while.  A seated client is answered throughout,
    and another address is not held back."""
    clock = Clock()
    limits = Limits(message_rate=5.0, message_burst=10, max_held=50, flood_rate=1 / 60, flood_burst=3)

    async def scenario() -> None:
        async with running(tmp_path, clock=clock, limits=limits) as (_server, url), _session("127.0.0.1") as flooder:
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                for _ in range(3):
                    async with flooder.ws_connect(_ws(url), autoping=False) as ws:
                        assert 10 <= await _flood(ws) <= 30 and ws.close_code == 1006  # aborted: no close frame
                for _ in range(2):  # refused before the upgrade, until a flood comes back
                    try:
                        await flooder.ws_connect(_ws(url))
                    except aiohttp.WSServerHandshakeError as exc:
                        assert exc.status == 429
                    else:
                        raise AssertionError("a flooding address was let in again")
                async with _session("127.0.1.2") as other, other.ws_connect(_ws(url)) as ws:
                    await ws.send_str(json.dumps({"type": "ping", "nonce": 4}))
                    assert json.loads((await ws.receive()).data)["nonce"] == 4
                clock.now += 60.0
                async with flooder.ws_connect(_ws(url)) as ws:
                    await ws.send_str(json.dumps({"type": "ping", "nonce": 5}))
                    assert json.loads((await ws.receive()).data)["nonce"] == 5
                await ann.send({"type": "ping", "nonce": 2})
                async with asyncio.timeout(WAIT):
                    while (await ann.receive()).type != "pong":
                        pass

    asyncio.run(scenario())


async def _flood(ws: aiohttp.ClientWebSocketResponse) -> int:
    """Send 300 ping frames and then a ping message; how many pongs came before the server closed
    the connection (the message's answer would mean the flood was let be)."""
    for _ in range(300):
        await ws.ping(b"x")
    await ws.send_str(json.dumps({"type": "ping", "nonce": 1}))
    pongs = 0
    async with asyncio.timeout(WAIT):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.PONG:
                pongs += 1
            elif message.type == aiohttp.WSMsgType.TEXT:
                assert json.loads(message.data)["type"] != "pong", f"after {pongs} pongs"
            else:
                return pongs


def test_a_flooding_connection_is_cut_at_once_not_read_on_for_the_close_handshake(tmp_path):
    """Past its allowance a flooding connection is cut: the server writes nothing more and reads
    nothing more, so the flood's frames sent after it cost it nothing.  (aiohttp's close handshake
    waited 10 s for the peer's answer, reading every frame meanwhile: an audit counted 3 million
    frames and 5.7 s of the server's CPU per flooding connection.)"""
    limits = Limits(message_rate=5.0, message_burst=10, max_held=50)

    async def scenario() -> None:
        async with running(tmp_path, limits=limits) as (server, url), _session("127.0.0.1") as flooder:
            async with flooder.ws_connect(_ws(url), autoping=False, autoclose=False) as ws:
                for _ in range(100):
                    await ws.ping(b"x")
                # well within aiohttp's 10 s of close handshake: the end comes at once, unanswered
                async with asyncio.timeout(5.0):
                    while (message := await ws.receive()).type == aiohttp.WSMsgType.PONG:
                        pass
                assert message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR), message
            assert not server.clients
            assert "messages far faster than a person plays" in server.log.err.getvalue()

    asyncio.run(scenario())


@contextmanager
def _host(folder: Path, files: tuple[int, int], *flags: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A real ``host`` process started at an open-files limit of ``files`` (soft, hard); it and
    its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "stepping_stones", "host", "--port", str(port), "--data-dir", str(folder), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, files),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the port is bound
        assert " at http://127.0.0.1:" in line, line
        yield proc, line.split(" at ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=WAIT)


def _soft_open_files(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-files limit")


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads /proc/PID/limits")
def test_host_raises_its_open_files_limit(tmp_path):
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    hard = 1024 if hard == resource.RLIM_INFINITY else min(hard, 1024)
    with _host(tmp_path, (150, hard)) as (proc, _url):
        assert _soft_open_files(proc.pid) == hard


def test_silent_sockets_at_a_low_open_files_limit_lock_nobody_out(tmp_path):
    """At 400 open files (which the host cannot raise), 250 silent sockets: the host holds as many
    connections as its files allow, the oldest silent ones make room, a real client opens a table
    and sits, and the log says so in a few lines, not one per accept."""
    with _host(tmp_path, (400, 400)) as (proc, url):
        port = int(url.rsplit(":", 1)[1])

        async def probe() -> str:
            silent = []
            try:
                for _ in range(250):
                    silent.append(socket.create_connection(("127.0.0.1", port)))
                async with _session("127.0.1.2") as person:
                    status, opened = await _post_table(person, url)
                    assert status == 200, opened
                    async with person.ws_connect(_ws(url)) as ws:
                        await ws.send_str(
                            json.dumps({"type": "hello", "version": 4, "code": opened["code"], "name": "Ann"})
                        )
                        return json.loads((await ws.receive()).data)["type"]
            finally:
                for sock in silent:
                    sock.close()

        assert asyncio.run(asyncio.wait_for(probe(), 30)) == "welcome"
        proc.terminate()
        _out, err = proc.communicate(timeout=WAIT)
    lines = err.splitlines()
    assert "it holds 208 connections at most" in lines[0], lines
    assert 2 <= len(lines) <= 8, lines
    assert all(line.startswith("host: ") and "Traceback" not in line for line in lines)


def test_a_burst_of_connections_waits_for_a_busy_host_rather_than_timing_out(tmp_path):
    """When one process dies, its tables' people all come back to another at once, which is busy
    taking the tables up: 500 connections to a host that accepts none for now (stopped) are all
    finished by the kernel and wait in its queue, past the 64 the host accepts at one go.  (Behind
    nginx, a connection that timed out there made nginx give up on the live process too: every
    table's people were turned away, 502, for the next 30 s.)  Once it goes on, it serves."""
    with _host(tmp_path, (4096, 4096)) as (proc, url):
        port = int(url.rsplit(":", 1)[1])
        burst: list[socket.socket] = []
        proc.send_signal(signal.SIGSTOP)
        try:
            with selectors.DefaultSelector() as waiting:
                for _ in range(500):
                    sock = socket.socket()
                    burst.append(sock)
                    sock.setblocking(False)
                    sock.connect_ex(("127.0.0.1", port))
                    waiting.register(sock, selectors.EVENT_WRITE)
                finished = 0
                while finished < len(burst):
                    ready = waiting.select(WAIT)
                    assert ready, f"{len(burst) - finished} of {len(burst)} connections never finished"
                    for key, _ in ready:
                        sock = key.fileobj
                        assert isinstance(sock, socket.socket)
                        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
                        waiting.unregister(sock)
                        finished += 1
        finally:
            proc.send_signal(signal.SIGCONT)
            for sock in burst:
                sock.close()

        async def open_one() -> int:
            async with _session("127.0.1.2") as person:
                status, _opened = await _post_table(person, url)
                return status

        assert asyncio.run(asyncio.wait_for(open_one(), WAIT)) == 200
