"""``stepping-stones host``'s flags for its limits and the expiry of a table never started: each
reaches the server, and a value out of bounds is refused in one line naming the flag."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys

import aiohttp
import pytest

from net_support import WAIT, new_table
from stepping_stones.cli import build_parser
from stepping_stones.net.limits import DEFAULT_EMPTY_EXPIRY, DEFAULT_EXPIRY, DEFAULT_TIMEOUT, Limits


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _args(*flags: str):
    return build_parser().parse_args(["host", *flags])


def test_the_flags_reach_the_server_s_limits(monkeypatch):
    from stepping_stones.cli import host as command

    heard: dict[str, object] = {}

    def host(folder, out, err, **kw):  # the server itself, as the command calls it
        heard.update(kw, folder=folder)
        return 0

    monkeypatch.setattr("stepping_stones.net.server.host", host)
    args = _args(
        "--data-dir",
        "/tmp/x",
        "--timeout",
        "30",
        "--expire-after",
        "3600",
        "--expire-empty-after",
        "120",
        "--max-tables",
        "7",
        "--max-connections",
        "50",
        "--hello-rate",
        "5",
        "--hello-burst",
        "100",
        "--guess-rate",
        "3",
        "--guess-burst",
        "20",
        "--idle-seconds",
        "5",
        "--unseated-per-address",
        "2",
        "--tables-per-address",
        "3",
        "--tables-per-minute",
        "4",
        "--connections-per-address",
        "6",
        "--connections-per-network",
        "9",
        "--tables-in-play-per-address",
        "2",
        "--finished-grace",
        "30",
    )
    assert command.run(args) == 0
    assert heard["timeout"] == 30 and heard["expire_after"] == 3600 and heard["expire_empty_after"] == 120
    assert heard["limits"] == Limits(
        max_tables=7,
        max_connections=50,
        hello_rate=5,
        hello_burst=100,
        guess_rate=3 / 60,
        guess_burst=20,
        idle_seconds=5,
        unseated_per_address=2,
        tables_per_address=3,
        tables_per_minute=4,
        connections_per_address=6,
        connections_per_network=9,
        tables_in_play_per_address=2,
        finished_grace=30,
    )
    heard.clear()
    assert command.run(_args()) == 0  # the defaults are the server's own
    assert heard["limits"] == Limits()
    assert heard["expire_after"] == DEFAULT_EXPIRY and heard["timeout"] == DEFAULT_TIMEOUT
    assert heard["expire_empty_after"] == DEFAULT_EMPTY_EXPIRY


@pytest.mark.parametrize(
    "flag,value,says",
    [
        ("--max-tables", "0", "choose 1 to 100000"),
        ("--max-tables", "2.5", "is not a whole number of tables"),
        ("--max-connections", "-3", "choose 1 to 100000"),
        ("--hello-rate", "nan", "choose 0.001 to 10000"),
        ("--hello-rate", "fast", "is not a number of hellos a second"),
        ("--hello-burst", "10000000", "choose 1 to 1e+06"),
        ("--guess-rate", "0", "choose 0.001 to 10000"),
        ("--guess-burst", "0", "choose 1 to 1e+06"),
        ("--expire-after", "59", "choose 60 to 2.592e+06"),
        ("--expire-after", "inf", "choose 60 to 2.592e+06"),
        ("--expire-empty-after", "10", "choose 60 to 2.592e+06"),
        ("--timeout", "0", "choose 1 to 86400"),
        ("--idle-seconds", "0.5", "choose 1 to 3600"),
        ("--unseated-per-address", "0", "choose 1 to 100000"),
        ("--tables-per-address", "x", "is not a whole number of tables"),
        ("--tables-per-minute", "0", "choose 1 to 100000"),
        ("--connections-per-address", "0", "choose 1 to 100000"),
        ("--tables-in-play-per-address", "many", "is not a whole number of tables"),
        ("--finished-grace", "0", "choose 1 to 86400"),
        ("--trusted-proxy", "my-proxy", "is not an IP address or network"),
    ],
)
def test_a_value_out_of_bounds_is_one_line_naming_the_flag(capsys, flag, value, says):
    with pytest.raises(SystemExit) as exited:
        _args(flag, value)
    assert exited.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith(f"stepping-stones host: error: argument {flag}: ") and says in last
    assert "Traceback" not in last


def test_a_server_started_with_the_flags_keeps_them(tmp_path):
    """A real ``host`` process: with ``--max-tables 1`` the second table is refused (503), and with
    ``--guess-burst 1`` an address's second wrong code is not even looked at."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "stepping_stones",
            "host",
            "--port",
            str(_free_port()),
            "--data-dir",
            str(tmp_path),
            "--max-tables",
            "1",
            "--guess-burst",
            "1",
            "--guess-rate",
            "0.001",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the port is bound
        assert " at http://127.0.0.1:" in line, line
        url = line.split(" at ", 1)[1].strip()

        async def probe() -> tuple[list[int], list[dict[str, object]]]:
            statuses, replies = [], []
            timeout = aiohttp.ClientTimeout(total=WAIT)
            async with aiohttp.ClientSession(timeout=timeout) as session:
                for address in ("127.0.0.1", "127.0.1.1"):  # two addresses: one may hold a quarter of the tables
                    connector = aiohttp.TCPConnector(local_addr=(address, 0))
                    async with (
                        aiohttp.ClientSession(timeout=timeout, connector=connector) as one,
                        one.post(url + "/tables", data=new_table().model_dump_json()) as response,
                    ):
                        statuses.append(response.status)
                for _ in range(2):
                    async with session.ws_connect(url.replace("http", "ws", 1) + "/ws") as ws:
                        await ws.send_str(
                            json.dumps({"type": "hello", "version": 4, "code": "ZZZZZ-ZZZZZ", "name": "Eve"})
                        )
                        replies.append(json.loads((await ws.receive()).data))
            return statuses, replies

        statuses, replies = asyncio.run(probe())
        assert statuses == [200, 503]
        assert [r["code"] for r in replies] == ["unknown-code", "too-fast"]
    finally:
        proc.terminate()
        proc.wait(timeout=WAIT)
