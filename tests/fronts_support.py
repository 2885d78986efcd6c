"""Helpers for the tests of the real front ends at a table: ``stepping-stones host`` in a process of
its own (killed with ``kill -9`` and started again on the same folder and port), and
``stepping-stones join CODE --plain`` through pipes, read line by line as a person would."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net_support import WAIT

Answer = Callable[[list[str]], str | None]
"""Given a ``legal:`` line's actions, what the person types (None: the test answers itself)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Host:
    """``stepping-stones host`` on a port and folder of its own."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or 0  # 0: the server takes a free one (no other process can take it first), kept for restarts
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> str:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stepping_stones", "host", "--port", str(self.port), "--data-dir", str(self.folder)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        line = self.proc.stdout.readline()  # printed once the port is bound: the wait is on that event
        assert line.startswith("Stepping Stones table server at http://127.0.0.1:"), line + self.proc.stderr.read()
        self.url = line.split(" at ", 1)[1].strip()
        self.port = int(self.url.rsplit(":", 1)[1].split("/", 1)[0])
        return self.url

    def kill(self) -> None:
        """``kill -9``: nothing of the server's own runs after it."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> tuple[str, str]:
        """Ctrl+C; what it printed."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(2)
        out, err = self.proc.communicate(timeout=WAIT)
        return out, err


class Plain:
    """``join CODE --server URL --plain`` through pipes.  ``run()`` reads every line; each
    ``legal:`` line is answered by ``answer`` (or, when it says None, by the test with ``type``);
    ``expect(holds)`` is a future of the next line for which ``holds`` is true, so a test waits on
    the client's own words, never on the clock."""

    def __init__(self, proc: asyncio.subprocess.Process, answer: Answer, terminal: int | None = None) -> None:
        self.proc = proc
        self.answer = answer
        self.terminal = terminal  # a pty's master end, when the input is a terminal
        self.lines: list[str] = []
        self.typed: list[tuple[int, str]] = []  # (lines printed before it, what was typed)
        self.waiters: list[tuple[Callable[[str], bool], asyncio.Future[str]]] = []

    @classmethod
    async def start(cls, url: str, code: str, home: Path, name: str, answer: Answer, terminal: bool = False) -> Plain:
        """With ``terminal`` its input is a terminal (a pty, without echo), as a person's is: the
        end of the game then offers "again"."""
        env = {**os.environ, "STEPPING_STONES_HOME": str(home)}
        master = slave = None
        if terminal:
            import pty
            import termios

            master, slave = pty.openpty()
            modes = termios.tcgetattr(slave)
            modes[3] &= ~termios.ECHO  # what is typed is not written back to the master end
            termios.tcsetattr(slave, termios.TCSANOW, modes)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "stepping_stones",
            "join",
            code,
            "--server",
            url,
            "--name",
            name,
            "--plain",
            stdin=asyncio.subprocess.PIPE if slave is None else slave,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
        if slave is not None:
            os.close(slave)
        return cls(proc, answer, master)

    def expect(self, holds: Callable[[str], bool]) -> asyncio.Future[str]:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.waiters.append((holds, future))
        return future

    async def type(self, text: str) -> None:
        self.typed.append((len(self.lines), text))
        if self.terminal is not None:
            os.write(self.terminal, text.encode() + b"\n")
            return
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode() + b"\n")
        await self.proc.stdin.drain()

    def end_input(self) -> None:
        """The end of its input: Ctrl+D at a terminal, else its pipe closed."""
        if self.proc.returncode is not None:
            return
        if self.terminal is not None:
            os.write(self.terminal, b"\x04")
        elif self.proc.stdin is not None:
            self.proc.stdin.close()

    async def run(self) -> tuple[int, str]:
        """Read to the end; the exit status and what went to stderr."""
        assert self.proc.stdout is not None and self.proc.stderr is not None
        while raw := await self.proc.stdout.readline():
            line = raw.decode().rstrip("\n")
            self.lines.append(line)
            for holds, future in list(self.waiters):
                if not future.done() and holds(line):
                    future.set_result(line)
                    self.waiters.remove((holds, future))
            if line.startswith("legal: "):
                answer = self.answer(line[len("legal: ") :].split(", "))
                if answer is not None:
                    await self.type(answer)
        err = (await self.proc.stderr.read()).decode()
        status = await self.proc.wait()
        if self.terminal is not None:
            os.close(self.terminal)
            self.terminal = None
        return status, err

    def since(self, n: int) -> list[str]:
        return self.lines[n:]


async def within(future: asyncio.Future[str] | asyncio.Task[object], seconds: float = WAIT) -> object:
    """A future's result; the timeout is a safety net only."""
    async with asyncio.timeout(seconds):
        return await future


@dataclass
class Fronts:
    """What the three front ends of ``three_fronts`` said."""

    plain_lines: list[str]
    status: int  # plain mode's exit status
    err: str  # and its stderr
    app_events: list[str]  # every event the app's table told, in order
    records: list[Path]  # the finished game, as each kept it: plain mode, the app, the server


async def _drive_app(app: Any, pilot: Any, changed: asyncio.Event, stop: Callable[[], bool]) -> None:
    """Play the app's seat by key presses, each when its turn comes, and pass each hand's summary
    on, until the game is over or ``stop()``.  Waits are on the seat's messages (``changed``) and
    the app's own queue (``pilot.pause``), never on the clock."""
    from stepping_stones.tui.dialogs import HandSummaryScreen
    from stepping_stones.tui.online import RemoteTableScreen
    from stepping_stones.tui.screens import GameOverScreen

    table: RemoteTableScreen | None = None
    tries = 0
    while not stop():
        changed.clear()
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return
        if isinstance(screen, RemoteTableScreen):
            table = screen
        if isinstance(screen, HandSummaryScreen):
            await pilot.press("enter")
            continue
        if table is not None and screen is table and table.state.my_turn:
            state = table.state
            if state.bidding and state.view.in_puddle:
                keys = ["enter"] if tries % 2 == 0 else ["c", "enter"]  # a contract, or one with its trump
            elif state.bidding:
                keys = ["p"]
            else:
                keys = ["enter"] if tries == 0 else ["right", "enter"]  # the cursor starts on a legal card
            await pilot.press(*keys)
            await pilot.pause()
            tries = tries + 1 if table.state.my_turn else 0  # refused: other keys next time
            continue
        await within(asyncio.ensure_future(changed.wait()))


async def three_fronts(folder: Path, host: Host, *, kill_at: str, whole: bool) -> Fronts:
    """A table of ``host`` with three front ends: plain mode (Ann, who sits first), a bot client and
    the app under Pilot (Cy; its games go to ``STEPPING_STONES_HOME``, set by the caller).  When
    plain mode prints a line starting with ``kill_at`` the server is killed with ``kill -9`` and
    started again on its folder and port.  With ``whole`` the game is played to its end; otherwise
    until the app and plain mode have each played a card after they were back, when plain mode
    quits."""
    from random import Random

    from net_support import new_table
    from stepping_stones.net.client import SeatClient, open_table, play_randomly
    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.app import SteppingStonesApp
    from stepping_stones.tui.online import LobbyScreen, RemoteTableScreen

    card = re.compile(r"(Trick \d+\. )?You (lead|play) \w+\.")
    opened = await open_table(host.url, new_table())
    rng = Random(11)
    after_back = {"plain": False, "app": False}  # each has played a card since it was back

    def answer(actions: list[str]) -> str | None:
        if actions == ["start"]:
            return None  # the opener waits for the others
        return "quit" if not whole and all(after_back.values()) else rng.choice(actions)

    plain = await Plain.start(host.url, opened.code, folder / "plain-home", "Ann", answer)
    reading = asyncio.ensure_future(plain.run())
    await within(plain.expect(lambda line: line == "legal: start"))  # Ann sat first: the opener
    bot = SeatClient(host.url, code=opened.code, name="Bot", retry_seconds=WAIT)
    await bot.join()
    app = SteppingStonesApp(settings=Settings(pace="instant", trick_pause=False), join=(host.url, opened.code, "Cy"))
    changed = asyncio.Event()
    events: list[str] = []

    async def kill_and_restart() -> None:
        await within(plain.expect(lambda line: line.startswith(kill_at)))
        lost = plain.expect(lambda line: "connection to the server was lost" in line)
        back = plain.expect(lambda line: line.startswith("Back at the table"))
        host.kill()
        await within(lost)
        await asyncio.to_thread(host.start)
        await within(back)
        await within(plain.expect(lambda line: card.fullmatch(line) is not None))
        after_back["plain"] = True

    async with app.run_test(size=(120, 40)) as pilot:
        while not isinstance(app.screen, LobbyScreen | RemoteTableScreen):
            await pilot.pause()
        seat = app.screen.seat
        seat.listeners.append(changed.set)
        told = [0]

        def tape(state: Any) -> None:
            new = min(state.told - told[0], len(state.log))
            told[0] = state.told
            for event in state.log[len(state.log) - new :] if new > 0 else ():
                events.append(event.text)
                if event.text.startswith("Back at the table"):
                    after_back["app"] = False
                elif card.fullmatch(event.text) and any("Back at the table" in e for e in events):
                    after_back["app"] = True

        seat.flow.subscribe(tape)
        playing = asyncio.ensure_future(play_randomly(bot, Random(4)))
        killing = asyncio.ensure_future(kill_and_restart())
        reading.add_done_callback(lambda _done: changed.set())
        # the app plays on until plain mode has quit (at its first prompt once both were back)
        stop = (lambda: False) if whole else reading.done  # whole: until the app's game-over screen
        await within(asyncio.ensure_future(_drive_app(app, pilot, changed, stop)), 10 * WAIT)
        await within(killing)
        if whole:
            await within(playing)
        status, err = await within(reading)  # type: ignore[misc]
        playing.cancel()
        await bot.close()
    records = []
    if plain.lines and plain.lines[-1].startswith("record: "):
        records.append(Path(plain.lines[-1][len("record: ") :]))
    home = Path(os.environ["STEPPING_STONES_HOME"])
    records += sorted((home / "data" / "games").glob("online-*.json"))
    records += sorted((host.folder / "games").glob("table-*[0-9a-f].json"))
    return Fronts(plain.lines, status, err, events, records)
