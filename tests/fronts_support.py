"""Helpers for the tests of the real front ends at a table: ``stepping-stones host`` in a process of
its own (killed with ``kill -9`` and started again on the same folder and port), and
``stepping-stones join CODE --plain`` through pipes, read line by line as a person would."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

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
        self.port = port or free_port()
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> str:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stepping_stones", "host", "--port", str(self.port), "--data-dir",
             str(self.folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        line = self.proc.stdout.readline()  # printed once the port is bound: the wait is on that event
        assert line.startswith("Stepping Stones table server at http://127.0.0.1:"), line + self.proc.stderr.read()
        self.url = line.split(" at ", 1)[1].strip()
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

    def __init__(self, proc: asyncio.subprocess.Process, answer: Answer) -> None:
        self.proc = proc
        self.answer = answer
        self.lines: list[str] = []
        self.typed: list[tuple[int, str]] = []  # (lines printed before it, what was typed)
        self.waiters: list[tuple[Callable[[str], bool], asyncio.Future[str]]] = []

    @classmethod
    async def start(cls, url: str, code: str, home: Path, name: str, answer: Answer) -> Plain:
        env = {**os.environ, "STEPPING_STONES_HOME": str(home)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "stepping_stones", "join", code, "--server", url, "--name", name, "--plain",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)
        return cls(proc, answer)

    def expect(self, holds: Callable[[str], bool]) -> asyncio.Future[str]:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.waiters.append((holds, future))
        return future

    async def type(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.typed.append((len(self.lines), text))
        self.proc.stdin.write(text.encode() + b"\n")
        await self.proc.stdin.drain()

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
                answer = self.answer(line[len("legal: "):].split(", "))
                if answer is not None:
                    await self.type(answer)
        err = (await self.proc.stderr.read()).decode()
        return await self.proc.wait(), err

    def since(self, n: int) -> list[str]:
        return self.lines[n:]


async def within(future: asyncio.Future[str] | asyncio.Task[object], seconds: float = WAIT) -> object:
    """A future's result; the timeout is a safety net only."""
    async with asyncio.timeout(seconds):
        return await future
