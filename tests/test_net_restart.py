"""The table server as a person runs it: ``host`` in a process, ``table new`` and bots as commands,
and ``kill -9`` of the server mid-hand, after which a new server resumes the table from disk and
the bots come back by themselves."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from random import Random

from net_support import WAIT
from stepping_stones.engine import record_cards
from stepping_stones.net.client import SeatClient, play_randomly
from stepping_stones.net.protocol import StateMessage
from stepping_stones.storage.records import game_from_record, read_record


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _host(folder, port: int, store: str | None = None) -> tuple[subprocess.Popen[str], str]:
    """``host`` on ``port``, its tables in ``folder`` or in the PostgreSQL ``store`` (a killed
    process's hold on them lasts a second)."""
    shared = ["--store", store, "--lease-seconds", "1"] if store is not None else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "stepping_stones", "host", "--port", str(port), "--data-dir", str(folder), *shared],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # printed once the port is bound: the wait is on that event
    assert line.startswith("Stepping Stones table server at http://127.0.0.1:"), line + proc.stderr.read()
    return proc, line.split(" at ", 1)[1].strip()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stepping_stones", *args], capture_output=True, text=True, timeout=WAIT
    )


def test_kill_9_mid_hand_and_the_table_resumes_from_disk(tmp_path, stores):
    """With either store: the data folder, or PostgreSQL (the new process takes the table up when
    the bots come back, once the killed one's hold on it has lapsed)."""
    port = _free_port()
    store = stores.dsn(tmp_path)
    server, url = _host(tmp_path, port, store)
    try:
        made = _cli("table", "new", "--server", url, "--short", "--json")
        assert made.returncode == 0, made.stderr
        code = json.loads(made.stdout)["code"]
        plain = _cli("table", "new", "--server", url)
        assert plain.returncode == 0 and plain.stdout.startswith("code: ") and len(plain.stdout.split()) == 2

        async def play() -> tuple[list[StateMessage], StateMessage]:
            nonlocal server
            seen: list[StateMessage] = []
            mid_hand = asyncio.Event()
            notices: list[str] = []

            def watch(state: StateMessage) -> None:
                seen.append(state)
                if state.view is not None and len(state.view.plays) >= 10 and state.view.hand_number == 1:
                    mid_hand.set()

            clients = [
                SeatClient(url, code=code, name=f"Bot {i}", notice=notices.append, retry_seconds=WAIT) for i in range(3)
            ]
            for client in clients:
                await client.join()
            bots = [
                asyncio.ensure_future(play_randomly(c, Random(i), on_state=watch if i == 0 else None))
                for i, c in enumerate(clients)
            ]
            async with asyncio.timeout(WAIT):
                await mid_hand.wait()
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            before = seen[-1]
            server, _again = _host(tmp_path, port, store)
            async with asyncio.timeout(WAIT):
                finals = await asyncio.gather(*bots)
            for client in clients:
                await client.close()
            assert any("lost" in n for n in notices) and any("back" in n for n in notices)
            return finals, before

        finals, before = asyncio.run(play())
        record = finals[0].record
        assert record is not None
        # nothing the bots were told before the kill is lost: the first hand goes on from there
        assert record.hands[0].play.startswith(record_cards(before.view.plays))
        (entry,) = stores.shelf(tmp_path).history()  # filed on the server's shelf: its folder's, or its store's
        assert entry.complete
        path = tmp_path / "filed.json"
        path.write_text(stores.shelf(tmp_path).record(entry.file))
        assert game_from_record(read_record(path)).over
        assert json.loads(path.read_text()) == json.loads(record.model_dump_json())
        replay = _cli("replay", str(path))
        assert replay.returncode == 0, replay.stderr
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=WAIT)
    assert "The table server has stopped" in out
    assert "Traceback" not in err
