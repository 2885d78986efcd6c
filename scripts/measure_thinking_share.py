"""What one address's computers cost another table: the audit of issue 42, item 2, as a script.

Starts ``stepping-stones host`` in its own process (a temporary data folder, its default limits)
and, over loopback:

0. a game as below, not measured: the server loads the AI (and starts its workers);
1. **baseline**: a victim (an address of its own) plays ``--games`` short games against two ``heuristic``
   computers, its bot answering at once, while a pinger (another address, seated alone at a table
   of its own) pings every 0.1 s;
2. **beside**: the same again, while an attacker (a third address) opens as many tables as the
   server lets it, each with two ``expert`` computers (``--level``), and plays them all at once;
3. **after**: every client leaves; the server's CPU over the next ``--after`` seconds (what
   abandoned tables go on costing).

Per phase: the victim's computers' moves (from the state that gave a computer the turn to the
next state) at p50 and p95, the ping's p50 and p95, and the CPU time of the server's whole
process tree (its worker processes too) from ``/proc``.

    python scripts/measure_thinking_share.py
    python scripts/measure_thinking_share.py --level expert --after 10

Run it against another version of the code with ``PYTHONPATH`` set to that version's ``src``
(the server is started with the same interpreter and environment).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

import aiohttp


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _tree_cpu(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and every descendant still running (``/proc``)."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        child = int(entry.name)
        children.setdefault(int(fields[1]), []).append(child)
        times[child] = (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / tick
    total, todo = 0.0, [pid]
    while todo:
        one = todo.pop()
        total += times.get(one, 0.0)
        todo.extend(children.get(one, []))
    return total


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _session(address: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0), limit=0))


async def _open(session: aiohttp.ClientSession, url: str, seats: list[str]) -> dict[str, Any] | None:
    body = {"rules": {"contract_set": "standard", "short_game": True, "redo_tokens": False}, "seats": seats}
    async with session.post(url + "/tables", json=body) as response:
        return await response.json() if response.status == 200 else None


async def _play(
    session: aiohttp.ClientSession, url: str, code: str, rng: Random, moves: list[float] | None, stop: asyncio.Event
) -> None:
    """Sit at the table and play random legal moves at once until the game ends or ``stop``; with
    ``moves``, the time of each computer's move (from the state giving it the turn to the next)."""
    async with session.ws_connect(url.replace("http", "ws", 1) + "/ws", max_msg_size=0) as ws:
        await ws.send_str(json.dumps({"type": "hello", "version": 4, "code": code, "name": "Bot"}))
        computer_since: float | None = None
        last_seq = -1
        held: dict[str, Any] | None = None  # the state as last sent whole or made by a delta
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.receive(), 1.0)
            except TimeoutError:
                continue
            if message.type != aiohttp.WSMsgType.TEXT:
                return
            data = json.loads(message.data)
            if data.get("type") == "delta" and held is not None:  # what changed: applied to the state before
                view = {**held["view"], **data["view"]} if data.get("view") else held["view"]
                data = {**held, **data["state"], "view": view, "type": "state"}
            if data.get("type") != "state":
                continue
            held = data
            if data["seq"] <= last_seq:
                continue
            now = time.perf_counter()
            last_seq = data["seq"]
            if computer_since is not None and moves is not None:
                moves.append(now - computer_since)
            waiting = data.get("waiting")
            computer_since = now if waiting and waiting.get("computer") else None
            if data.get("record") is not None:
                return
            if data["legal"]:
                kind = "bid" if data["view"]["phase"] == "bidding" else "card"
                move = rng.choice(data["legal"])
                await ws.send_str(json.dumps({"type": "action", "seq": data["seq"], kind: move}))


async def _pinger(session: aiohttp.ClientSession, url: str, pings: list[float], stop: asyncio.Event) -> None:
    opened = await _open(session, url, ["open", "open", "open"])  # seated alone: it never starts
    assert opened is not None
    async with session.ws_connect(url.replace("http", "ws", 1) + "/ws") as ws:
        await ws.send_str(json.dumps({"type": "hello", "version": 4, "code": opened["code"], "name": "Pinger"}))
        nonce = 0
        while not stop.is_set():
            nonce += 1
            start = time.perf_counter()
            await ws.send_str(json.dumps({"type": "ping", "nonce": nonce}))
            while json.loads((await ws.receive()).data).get("nonce") != nonce:
                pass
            pings.append(time.perf_counter() - start)
            try:
                await asyncio.wait_for(stop.wait(), 0.1)
            except TimeoutError:
                pass


async def _phase(url: str, pid: int, attack_level: str | None, games: int) -> dict[str, Any]:
    moves: list[float] = []
    pings: list[float] = []
    stop = asyncio.Event()
    async with _session("127.0.1.1") as victim, _session("127.0.2.1") as watcher, _session("127.0.3.1") as attacker:
        pinger = asyncio.ensure_future(_pinger(watcher, url, pings, stop))
        attackers: list[asyncio.Future[None]] = []
        tables = 0
        if attack_level is not None:
            while (opened := await _open(attacker, url, ["open", attack_level, attack_level])) is not None:
                tables += 1
                attackers.append(
                    asyncio.ensure_future(_play(attacker, url, opened["code"], Random(tables), None, stop))
                )
        cpu = _tree_cpu(pid)
        start = time.perf_counter()
        for game in range(games):
            opened = await _open(victim, url, ["open", "heuristic", "heuristic"])
            assert opened is not None
            await _play(victim, url, opened["code"], Random(game), moves, asyncio.Event())
        wall = time.perf_counter() - start
        cpu = _tree_cpu(pid) - cpu
        stop.set()
        await asyncio.gather(pinger, *attackers, return_exceptions=True)
    return {
        "phase": "beside" if attack_level else "baseline",
        "attacker_tables": tables,
        "attacker_level": attack_level,
        "victim_computer_moves": len(moves),
        "move_p50_ms": round(_percentile(moves, 50) * 1000, 1),
        "move_p95_ms": round(_percentile(moves, 95) * 1000, 1),
        "pings": len(pings),
        "ping_p50_ms": round(_percentile(pings, 50) * 1000, 1),
        "ping_p95_ms": round(_percentile(pings, 95) * 1000, 1),
        "seconds": round(wall, 1),
        "server_cpu_s": round(cpu, 2),
        "load": round(os.getloadavg()[0], 2),
    }


async def _measure(url: str, pid: int, level: str, after: float, games: int) -> list[dict[str, Any]]:
    await _phase(url, pid, None, 1)  # warming up: the server's first game loads the AI (and starts its workers)
    results = [await _phase(url, pid, None, games), await _phase(url, pid, level, games)]
    cpu = _tree_cpu(pid)
    await asyncio.sleep(after)  # the server alone: what the abandoned tables cost it
    results.append({"phase": "after", "seconds": after, "server_cpu_s": round(_tree_cpu(pid) - cpu, 2)})
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", help="the attacker's computers' level (default expert)")
    parser.add_argument("--games", type=int, default=3, help="the victim's games per phase (default 3)")
    parser.add_argument("--after", type=float, default=10.0, help="seconds measured after everyone left (default 10)")
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
            for result in asyncio.run(
                _measure(f"http://127.0.0.1:{port}", server.pid, args.level, args.after, args.games)
            ):
                print(json.dumps(result), flush=True)
        finally:
            server.terminate()
            server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
