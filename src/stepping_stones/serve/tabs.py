"""One browser tab's game: the app process it drives, and what a tab may send it.

textual-serve's ``AppService`` starts the app and carries bytes both ways.  On top of it:

- the app runs with ``exec`` (no shell between), in a session of its own, and is killed with the
  server (``PR_SET_PDEATHSIG`` on Linux), so no app outlives the server even after ``kill -9``;
- when the tab goes the app is asked to quit, then sent SIGTERM, then SIGKILL, each after a grace
  period; its output is read to the end meanwhile, so it is never left blocked on a full pipe;
- every message from the page is checked (``parse_message``): its shape, its size, sizes clamped
  to what a terminal can be; how fast input comes is held by ``net.limiter.Bucket``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

__all__ = [
    "BadMessage",
    "Limits",
    "Message",
    "TabService",
    "parse_message",
    "clamp_size",
    "GAME_META",
]

from ..engine import SteppingStonesError
from ..storage.session import SERVED_GAME_META as GAME_META  # what the app says of its game as it closes


@dataclass(frozen=True)
class Limits:
    """What one tab may cost.  The defaults fit a person at a keyboard and a mouse with room to
    spare: typing sends a few bytes a key, moving the mouse about 12 bytes a cell crossed."""

    max_tabs: int = 4  # app processes alive at once
    max_message: int = 8 * 1024  # bytes in one websocket message, as sent
    max_input: int = 4 * 1024  # characters of keyboard or mouse input in one message
    input_rate: float = 1024.0  # characters a second, sustained...
    input_burst: float = 8192.0  # ...after a burst of this many
    message_rate: float = 100.0  # messages a second, sustained...
    message_burst: float = 500.0  # ...after a burst of this many
    max_held: float = 8.0  # seconds a tab's input may be held back lately before the tab is closed
    quit_grace: float = 3.0  # seconds an app has to quit when asked, before SIGTERM
    term_grace: float = 2.0  # seconds after SIGTERM, before SIGKILL
    max_width: int = 500  # a terminal's columns...
    max_height: int = 200  # ...and rows, at most


class BadMessage(SteppingStonesError, ValueError):
    """A message from the page that no page of ours sends; the tab is closed."""


@dataclass(frozen=True)
class Message:
    kind: str  # stdin, resize, ping, focus, blur, or ignored (a kind this server does not know)
    text: str = ""
    width: int = 0
    height: int = 0


def clamp_size(width: int, height: int, limits: Limits) -> tuple[int, int]:
    """A terminal size the app can be given: at least 1×1, at most ``max_width``×``max_height``."""
    return max(1, min(width, limits.max_width)), max(1, min(height, limits.max_height))


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMessage(f"a {what} that is not a whole number")
    return value


def parse_message(raw: str, limits: Limits) -> Message:
    """One message from textual-serve's page, checked.

    >>> parse_message('["stdin", "a"]', Limits())
    Message(kind='stdin', text='a', width=0, height=0)
    >>> parse_message('["resize", {"width": 5000, "height": 2000}]', Limits())
    Message(kind='resize', text='', width=500, height=200)
    >>> parse_message('["resize", {"width": "x", "height": 1}]', Limits())
    Traceback (most recent call last):
    ...
    stepping_stones.serve.tabs.BadMessage: a width that is not a whole number
    """
    if len(raw) > limits.max_message:
        raise BadMessage(f"a message of {len(raw)} characters (at most {limits.max_message})")
    try:
        envelope = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadMessage("a message that is not JSON") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise BadMessage("a message that is not a list starting with its kind")
    kind, args = envelope[0], envelope[1:]
    if kind == "stdin":
        if len(args) != 1 or not isinstance(args[0], str):
            raise BadMessage("input that is not text")
        if len(args[0]) > limits.max_input:
            raise BadMessage(f"{len(args[0])} characters of input at once (at most {limits.max_input})")
        return Message("stdin", text=args[0])
    if kind == "resize":
        if len(args) != 1 or not isinstance(args[0], dict):
            raise BadMessage("a resize without a size")
        width, height = clamp_size(_int(args[0].get("width"), "width"), _int(args[0].get("height"), "height"), limits)
        return Message("resize", width=width, height=height)
    if kind == "ping":
        if len(args) != 1 or not isinstance(args[0], str) or len(args[0]) > 64:
            raise BadMessage("a ping that is not a short text")
        return Message("ping", text=args[0])
    if kind in ("focus", "blur"):
        return Message(kind)
    return Message("ignored")  # a newer page may send kinds this server does not know


def _die_with_parent() -> Callable[[], None] | None:
    """A function for the child, before it runs the app, that asks Linux to kill it when the
    server dies; None elsewhere.  Resolved here, as the child may not import after fork."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def child() -> None:
        prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)

    return child


class TabService(AppService):
    """textual-serve's ``AppService`` for one tab, with the app started without a shell, output
    drained to the end, and a stop that cannot hang (quit, then SIGTERM, then SIGKILL)."""

    def __init__(
        self,
        argv: list[str],
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
        limits: Limits,
        on_game: Callable[[bool], None] | None = None,
        environment: dict[str, str] | None = None,
    ) -> None:
        super().__init__(
            " ".join(argv), write_bytes=write_bytes, write_str=write_str, close=close, download_manager=download_manager
        )
        self.argv = argv
        self.limits = limits
        self.on_game = on_game
        self.extra_environment = environment or {}
        self.game_open = False  # a game in progress is open in this tab's app (it says so)
        self.closed = False  # the page has gone: output is read and dropped

    @property
    def process(self) -> asyncio.subprocess.Process | None:
        return self._process

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment.update(self.extra_environment)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,  # Ctrl+C at the server's terminal is the server's to handle
            preexec_fn=_die_with_parent(),
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def on_data(self, payload: bytes) -> None:
        if not self.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.remote_write_bytes(payload)

    async def on_meta(self, data: bytes) -> None:
        try:
            meta: Any = json.loads(data)
        except ValueError:
            return
        if isinstance(meta, dict) and meta.get("type") == GAME_META:
            self.game_open = meta.get("open") is True
            if self.on_game is not None:
                self.on_game(self.game_open)
            return
        if self.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await super().on_meta(data)

    async def stop(self) -> None:
        """End the app: ask it to quit, then SIGTERM, then SIGKILL; return once it has exited."""
        self.closed = True
        task, self._task = self._task, None
        process = self._process
        if process is None:
            return
        with contextlib.suppress(Exception):
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if process.returncode is None:
            await self.send_meta({"type": "quit"})
        for grace, then in ((self.limits.quit_grace, signal.SIGTERM), (self.limits.term_grace, signal.SIGKILL)):
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), grace)
                break
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, then)  # the app and anything it started
        await process.wait()
        if task is not None:
            # The app has gone, so its output ends soon; a grandchild holding the pipe is not
            # waited for.
            try:
                await asyncio.wait_for(task, self.limits.term_grace)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
