"""A client killed with ``kill -9`` mid-trick and started again comes back to its seat with the
secret it kept, and loses nothing: the table waited for it (no computer stood in), the trick goes
on from where it was, and the game ends with a record that replays."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from random import Random

from net_support import WAIT, new_table, running
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.storage.records import game_from_record, read_record

HELPER = Path(__file__).with_name("net_seat_process.py")


async def _seat_process(url: str, keep: Path, *code_and_name: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, str(HELPER), url, str(keep), *code_and_name, stdout=asyncio.subprocess.PIPE
    )


async def _line(proc: asyncio.subprocess.Process) -> dict | str:
    assert proc.stdout is not None
    async with asyncio.timeout(WAIT):
        text = (await proc.stdout.readline()).decode()
    assert text, "the seat's process ended early"
    return "over" if text.strip() == "over" else json.loads(text)


def test_a_client_killed_mid_trick_comes_back_with_its_secret_and_loses_nothing(tmp_path):
    keep = tmp_path / "seat.json"

    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table())
            proc = await _seat_process(url, keep, opened.code, "Cy")
            seat = (await _line(proc))["seat"]
            assert keep.stat().st_mode & 0o077 == 0  # the secret is its owner's only
            bots = [SeatClient(url, code=opened.code, name=f"Bot {i}") for i in range(2)]
            for bot in bots:
                await bot.join()
            gone = asyncio.Event()  # a bot hears that the process's seat is not connected

            def watch(state) -> None:
                if state.started and not state.seats[seat].connected:
                    assert state.seats[seat].kind == "human" and not state.seats[seat].stand_in
                    gone.set()

            playing = [
                asyncio.ensure_future(play_randomly(b, Random(i), on_state=watch if i == 0 else None))
                for i, b in enumerate(bots)
            ]
            # play until the process's seat sees a trick begun and not finished, in the first hand
            while True:
                before = await _line(proc)
                assert before != "over"
                if before.get("phase") == "play" and len(before["plays"].split()) % 3 in (1, 2):
                    break
            proc.kill()  # kill -9
            await proc.wait()
            async with asyncio.timeout(WAIT):
                await gone.wait()
            # started again, the client takes its seat back with the kept secret
            again = await _seat_process(url, keep)
            assert (await _line(again))["seat"] == seat
            first = await _line(again)
            assert first["seq"] >= before["seq"] and first["hand"] == before["hand"]
            assert first["plays"].startswith(before["plays"])  # the trick goes on from where it was
            assert set(first["own"].split()) <= set(before["own"].split())
            while await _line(again) != "over":
                pass
            assert await again.wait() == 0
            async with asyncio.timeout(WAIT):
                finals = await asyncio.gather(*playing)
            for bot in bots:
                await bot.close()
            assert finals[0].record is not None
            table_notes = next((tmp_path / "server" / "notes").glob("*.table.json"))
            assert json.loads(table_notes.read_text())["substitutions"] == []  # nobody stood in
            (path,) = (tmp_path / "server" / "games").glob("table-*[0-9a-f].json")
            assert game_from_record(read_record(path)).over

    asyncio.run(scenario())
