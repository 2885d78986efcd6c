"""A whole game at one table with three front ends over loopback, through a ``kill -9`` of the server.

Starts ``stepping-stones host`` in a process of its own (a temporary folder), opens a short-game
table, and seats plain mode (``join --plain`` through pipes, answering every ``legal:`` line with a
random action), a bot client, and the app under Textual's Pilot (key presses at its turns, each
hand's summary passed on).  When the second hand is dealt the server is killed with ``kill -9`` and
started again on its folder and port; the clients come back by themselves.  At the end plain mode
and the app each keep the finished game, the server files its own, and all three must replay under
``replay`` and be the same game.  Reports the CPU time of this process (the app and the bot) and of
the others (the server, plain mode), and the wall time.

    python scripts/three_fronts_game.py

This is the suite's ``test_the_app_and_plain_mode_lose_a_killed_server_come_back_and_play_on``
played to the end; the app's drawing of a whole game costs too much CPU for the suite.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fronts_support import Host, three_fronts


def main() -> int:
    from stepping_stones.cli import main as cli

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        os.environ["STEPPING_STONES_HOME"] = str(tmp / "app-home")
        host = Host(tmp / "server")
        host.start()
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            result = asyncio.run(three_fronts(tmp, host, kill_at="Hand 2 is dealt", whole=True))
        finally:
            _out, server_err = host.stop()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        plain, app = result.plain_lines, result.app_events
        problems = []
        if result.status != 0 or result.err:
            problems.append(f"plain mode ended with {result.status}: {result.err.strip()}")
        for who, told in (("plain mode", plain), ("the app", app)):
            if not any("connection to the server was lost" in line for line in told):
                problems.append(f"{who} never said it lost the server")
            if not any(line.startswith("Back at the table") for line in told):
                problems.append(f"{who} never said it was back")
        if len(result.records) != 3:
            problems.append(f"{len(result.records)} records kept, not 3: {result.records}")
        for record in result.records:
            if cli(["replay", str(record)]) != 0:
                problems.append(f"{record} does not replay")
        if len({json.dumps(json.loads(r.read_text())["hands"]) for r in result.records}) != 1:
            problems.append("the records are not one game")
        if "Traceback" in server_err:
            problems.append("the server printed a traceback")
        print(
            f"\nhands played: {len(json.loads(result.records[0].read_text())['hands']) if result.records else 0}; "
            f"records: {', '.join(r.name for r in result.records)}"
        )
        print(
            f"CPU: this process (the app under Pilot, the bot) {cpu:.1f} s; the server and plain mode "
            f"{children.ru_utime + children.ru_stime:.1f} s; wall {wall:.1f} s"
        )
        for problem in problems:
            print(f"PROBLEM: {problem}")
        print("ok" if not problems else "FAILED")
        return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
