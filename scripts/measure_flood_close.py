"""What a flooding websocket costs the table server once it has decided to close it (issue 42,
item 3), as a script.

Starts ``stepping-stones host`` in its own process (a temporary data folder) and, over loopback,
a seated client (an address of its own) that pings every 0.05 s.  First a baseline without a
flood; then ``--floods`` connections, each from an address of its own, send websocket ping frames
as fast as they can and go on sending for ``--after`` seconds after the server has closed them
(they never answer its close frame).  Reports the seated client's ping p50/p95 in each phase, the
frames the flooders sent after the close, and the server's CPU time (its process tree, from
``/proc``) over the flood.

    python scripts/measure_flood_close.py
    python scripts/measure_flood_close.py --floods 8 --after 10

Run it against another version of the code with ``PYTHONPATH`` set to that version's ``src``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import aiohttp
from measure_thinking_share import _free_port, _percentile, _session, _tree_cpu


async def _pinger(url: str, pings: list[float], stop: asyncio.Event) -> None:
    async with _session("127.0.2.1") as session:
        body = {"rules": {"contract_set": "standard", "short_game": True, "redo_tokens": False}, "seats": ["open"] * 3}
        async with session.post(url + "/tables", json=body) as response:
            code = (await response.json())["code"]
        async with session.ws_connect(url.replace("http", "ws", 1) + "/ws") as ws:
            await ws.send_str(json.dumps({"type": "hello", "version": 4, "code": code, "name": "Pinger"}))
            nonce = 0
            while not stop.is_set():
                nonce += 1
                start = time.perf_counter()
                await ws.send_str(json.dumps({"type": "ping", "nonce": nonce}))
                while json.loads((await ws.receive()).data).get("nonce") != nonce:
                    pass
                pings.append(time.perf_counter() - start)
                try:
                    await asyncio.wait_for(stop.wait(), 0.05)
                except TimeoutError:
                    pass


async def _flood(url: str, address: str, after: float) -> dict[str, float]:
    """Ping frames as fast as they go, until ``after`` seconds past the server's close or until
    the connection is cut; the frames sent after the close, and how long the server's end took."""
    sent_after = 0
    closed_at: float | None = None
    cut_at: float | None = None
    async with _session(address) as session:
        ws = await session.ws_connect(url.replace("http", "ws", 1) + "/ws", autoclose=False, autoping=False)

        async def read() -> None:
            nonlocal closed_at
            while True:
                message = await ws.receive()
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    closed_at = time.perf_counter()  # the server's close frame, or its end of the connection
                    return

        reader = asyncio.ensure_future(read())
        try:
            while closed_at is None or time.perf_counter() - closed_at < after:
                try:
                    await ws.ping(b"x")
                except (ConnectionError, RuntimeError):
                    cut_at = time.perf_counter()  # the server's end: nothing more can be sent
                    break
                if closed_at is not None:
                    sent_after += 1
                if sent_after % 64 == 0:
                    await asyncio.sleep(0)  # let the reader see the close (a turn of the loop)
        finally:
            reader.cancel()
            await ws.close()
    open_after = (cut_at or time.perf_counter()) - (closed_at or time.perf_counter())
    return {"frames_after_close": sent_after, "open_after_close_s": round(open_after, 2)}


async def _measure(url: str, pid: int, floods: int, after: float) -> list[dict[str, Any]]:
    stop = asyncio.Event()
    baseline: list[float] = []
    pinger = asyncio.ensure_future(_pinger(url, baseline, stop))
    await asyncio.sleep(3.0)  # the baseline: three seconds of pings with no flood
    stop.set()
    await pinger
    stop = asyncio.Event()
    pings: list[float] = []
    pinger = asyncio.ensure_future(_pinger(url, pings, stop))
    cpu = _tree_cpu(pid)
    start = time.perf_counter()
    results = await asyncio.gather(*(_flood(url, f"127.0.{10 + i}.1", after) for i in range(floods)))
    wall = time.perf_counter() - start
    cpu = _tree_cpu(pid) - cpu
    stop.set()
    await pinger
    return [
        {
            "phase": "baseline",
            "ping_p50_ms": round(_percentile(baseline, 50) * 1000, 1),
            "ping_p95_ms": round(_percentile(baseline, 95) * 1000, 1),
        },
        {
            "phase": "flood",
            "floods": floods,
            "seconds": round(wall, 1),
            "server_cpu_s": round(cpu, 2),
            "frames_after_close": sum(r["frames_after_close"] for r in results),
            "open_after_close_s_max": max(r["open_after_close_s"] for r in results),
            "ping_p50_ms": round(_percentile(pings, 50) * 1000, 1),
            "ping_p95_ms": round(_percentile(pings, 95) * 1000, 1),
            "load": round(os.getloadavg()[0], 2),
        },
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floods", type=int, default=2, help="flooding connections (default 2)")
    parser.add_argument("--after", type=float, default=10.0, help="seconds each floods on after the close")
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "stepping_stones", "host", "--port", str(port), "--data-dir", folder],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert server.stdout is not None
            server.stdout.readline()  # printed once the port is bound
            for result in asyncio.run(_measure(f"http://127.0.0.1:{port}", server.pid, args.floods, args.after)):
                print(json.dumps(result), flush=True)
        finally:
            server.terminate()
            server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
