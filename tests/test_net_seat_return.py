"""A person's seat stays theirs: ``join CODE --server URL --plain`` killed with ``kill -9`` mid-game
and started again with the same command and data folder takes its seat back (kept in the data
folder, owner-only), and the game finishes; the kept seat is forgotten once it is over."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from pathlib import Path
from random import Random

from net_support import WAIT, new_table, running
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.storage import seats


class Plain:
    """``join --plain`` in a process of its own, read line by line."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []

    @classmethod
    async def start(cls, url: str, code: str, home: Path) -> Plain:
        env = {**os.environ, "STEPPING_STONES_HOME": str(home)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "stepping_stones",
            "join",
            code,
            "--server",
            url,
            "--name",
            "Ann",
            "--plain",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
        return cls(proc)

    async def line(self) -> str | None:
        assert self.proc.stdout is not None
        raw = await self.proc.stdout.readline()
        if not raw:
            return None
        self.lines.append(raw.decode().rstrip("\n"))
        return self.lines[-1]

    async def answer(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode() + b"\n")
        await self.proc.stdin.drain()

    async def play(self, rng: Random, reads: int | None = None) -> None:
        """Answer each ``legal:`` line with one of its actions: ``reads`` of them, or to the end."""
        while reads is None or reads > 0:
            line = await self.line()
            if line is None:
                return
            if line.startswith("legal: "):
                await self.answer(rng.choice(line[len("legal: ") :].split(", ")))
                if reads is not None:
                    reads -= 1


def test_a_plain_client_killed_mid_game_takes_its_seat_back_and_the_game_finishes(tmp_path):
    home = tmp_path / "home"

    async def scenario() -> tuple[Plain, Plain, int]:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "open")))
            async with SeatClient(url, code=opened.code, name="Bot") as bot:
                await bot.join()
                async with asyncio.timeout(WAIT):
                    first = await Plain.start(url, opened.code, home)
                    playing = asyncio.ensure_future(play_randomly(bot, Random(2)))
                    await first.play(Random(5), reads=6)  # into the first hand's tricks
                    kept = list((home / "data" / "seats").glob("*.json"))
                    assert len(kept) == 1
                    assert stat.S_IMODE(kept[0].stat().st_mode) == 0o600
                    assert stat.S_IMODE(kept[0].parent.stat().st_mode) == 0o700
                    first.proc.kill()  # kill -9
                    await first.proc.wait()
                    again = await Plain.start(url, opened.code, home)
                    await again.play(Random(6))
                    status = await again.proc.wait()
                    await playing
                    return first, again, status

    first, again, status = asyncio.run(scenario())
    text = "\n".join(again.lines)
    assert first.lines[0].startswith("You sit in seat ")
    assert status == 0, text
    assert again.lines[0].startswith("You are back in your seat, seat "), text
    assert "every seat is taken" not in text
    assert "The game is over." in again.lines and again.lines[-1].startswith("record: ")
    assert not list((home / "data" / "seats").glob("*.json"))  # over: the seat is forgotten


def test_kept_seats_are_found_by_server_and_code_in_any_spelling(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path))
    seat = seats.KeptSeat("http://127.0.0.1:8765", "K7QX2-MRB9T", "t1", 2, "Ann", "s3cret", since=5.0)
    path = seats.keep_seat(seat)
    assert seats.kept_seat("http://127.0.0.1:8765", "k7qx2mrb9t") == seat
    assert seats.kept_seat("http://127.0.0.1:9999", "K7QX2-MRB9T") is None
    seats.keep_seat(seats.KeptSeat("http://h:1", "AAAAA-AAAAA", "t2", 0, "Ann", "x", since=9.0))
    assert [s.table for s in seats.kept_seats()] == ["t2", "t1"]  # the newest first
    path.write_text("{not json")
    assert seats.kept_seat("http://127.0.0.1:8765", "K7QX2-MRB9T") is None
    assert [s.table for s in seats.kept_seats()] == ["t2"]
    seats.seat_path("http://h:1", "aaaaa-aaaaa").unlink()  # the same file, in the other spelling
    assert seats.kept_seats() == []


def test_plain_mode_says_at_once_when_a_computer_takes_its_seat_and_answers_a_stale_line_once(tmp_path):
    from net_support import Clock
    from stepping_stones.net.protocol import StateMessage

    home = tmp_path / "home"
    clock = Clock()

    async def bot_plays(bot: SeatClient, go: asyncio.Event, held: asyncio.Event) -> None:
        rng = Random(3)
        while True:
            message = await bot.receive()
            if not isinstance(message, StateMessage):
                continue
            if message.record is not None:
                return
            if message.legal:
                if not go.is_set():
                    held.set()  # the table waits for the bot
                    await go.wait()
                await bot.act(rng.choice(message.legal), message.seq)

    async def scenario(server, url) -> tuple[Plain, int]:
        opened = await open_table(url, new_table(("open", "random", "open")))
        async with SeatClient(url, code=opened.code, name="Bot") as bot:
            await bot.join()
            go, held = asyncio.Event(), asyncio.Event()
            go.set()
            plain = await Plain.start(url, opened.code, home)
            try:
                return await steps(server, plain, bot, go, held)
            finally:
                (tmp_path / "transcript.txt").write_text("\n".join(plain.lines))

    async def steps(server, plain: Plain, bot: SeatClient, go: asyncio.Event, held: asyncio.Event) -> tuple[Plain, int]:
        async with asyncio.timeout(WAIT):
            playing = asyncio.ensure_future(bot_plays(bot, go, held))
            await plain.play(Random(5), reads=4)
            while not (line := await plain.line()).startswith("legal: "):
                pass
            old = line[len("legal: ") :].split(", ")[0]  # the prompt left unanswered
            go.clear()
            clock.now += 121.0
            await server.tables.sweep()  # a computer plays for Ann
            while "a computer plays your seat" not in (line := await plain.line()):
                assert not line.startswith("legal: ")
            while "The computer (for you) " not in (await plain.line() or ""):
                pass
            await held.wait()
            await plain.answer(old)  # typed at the old prompt, read only now
            while "was not sent" not in (line := await plain.line()):
                pass
            await plain.answer("back")
            while (line := await plain.line()) != "You play your own seat again.":
                assert line is not None
            go.set()
            await plain.play(Random(6))
            status = await plain.proc.wait()
            await playing
            return plain, status

    async def run() -> tuple[Plain, int]:
        async with running(tmp_path / "server", clock=clock) as (server, url):
            return await scenario(server, url)

    plain, status = asyncio.run(run())
    text = "\n".join(plain.lines)
    assert status == 0, text
    assert "made on state" not in text
    assert text.count("was not sent") == 1
    assert "A computer played for you in hand 1: this result is not all yours." in plain.lines  # the final lines
    assert "The game is over." in plain.lines


def test_an_app_that_shares_its_data_folder_keeps_no_seat_and_offers_none(tmp_path, monkeypatch):
    """``serve``'s tabs share the data folder of whoever runs it: a seat kept there would be
    another person's to take, so none is kept or offered."""
    from stepping_stones.serve.server import GameServer

    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path))
    seats.keep_seat(seats.KeptSeat("http://h:1", "AAAAA-AAAAA", "t", 0, "Ann", "s3cret"))
    assert seats.kept_seat("http://h:1", "AAAAA-AAAAA") is not None
    client = SeatClient.at_table("http://h:1", "AAAAA-AAAAA", "Bo")
    assert client.secret == "s3cret" and client.keep is not None
    monkeypatch.setenv(seats.SHARED_ENV, "1")
    assert seats.kept_seats() == [] and seats.kept_seat("http://h:1", "AAAAA-AAAAA") is None
    client = SeatClient.at_table("http://h:1", "AAAAA-AAAAA", "Bo")
    assert client.secret is None and client.keep is None
    server = GameServer("127.0.0.1", 0, None, None, table_server="http://h:1")  # type: ignore[arg-type]
    assert server.environment[seats.SHARED_ENV] == "1"
