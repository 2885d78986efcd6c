"""The servers' log (``host`` and ``serve``): one escaped line per event on stderr, at most 300
characters, never a traceback, and a flood said once.

It is the standard library's ``logging``: each server has a logger of its own, not registered in
``logging``'s tree (two servers in one process, as in the tests, keep apart), whose one handler
writes to the server's stderr through ``OneLineFormatter``; ``Repeats`` on that handler holds back
a line said more than three times in a minute.  ``ServerLog.adopt`` sends the libraries' loggers (aiohttp,
asyncio, textual-serve) to the same handler, from WARNING up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable
from typing import TextIO

from ..storage.safety import one_line

__all__ = ["OneLineFormatter", "Repeats", "ServerLog", "watch_loop"]

LINE = 300  # characters at most in a line of the log, its prefix included
WINDOW = 60.0  # seconds in which the same line is written once


class OneLineFormatter(logging.Formatter):
    """``prefix: message`` on one line: the server's own messages whole (line breaks as spaces,
    control characters escaped), a library's first line only, with the name of its exception in
    place of the traceback."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.name != self.prefix:  # a library's: its first line, never the traceback
            message = (message.splitlines() or [record.levelname])[0]
            if record.exc_info and record.exc_info[1] is not None:
                message += f" ({type(record.exc_info[1]).__name__})"
        repeated = getattr(record, "repeated", 0)
        if repeated:
            message += f" (and {repeated} more like it in the {WINDOW:g} s before)"
        return f"{self.prefix}: {one_line(message, LINE - len(self.prefix) - 2)}"


class Repeats(logging.Filter):
    """A flood is written once: a line is written at most ``burst`` times in ``window`` seconds;
    past that it is counted, not written, and the first time it is written after the window says
    how many were held back.  At most ``keep`` lines are remembered (past that, the ones whose
    window has passed go)."""

    def __init__(
        self, window: float = WINDOW, burst: int = 3, clock: Callable[[], float] = time.monotonic, keep: int = 1000
    ) -> None:
        super().__init__()
        self.window = window
        self.burst = burst
        self.clock = clock
        self.keep = keep
        self.seen: dict[str, tuple[float, int, int]] = {}  # a line: its window's start, written, held back

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}\0{record.getMessage()}"
        now = self.clock()
        start, written, held = self.seen.get(key, (now, 0, 0))
        if now - start >= self.window:
            if held:
                record.repeated = held
            start, written, held = now, 0, 0
        elif written >= self.burst:
            self.seen[key] = (start, written, held + 1)
            return False
        if key not in self.seen and len(self.seen) >= self.keep:
            self.seen = {k: v for k, v in self.seen.items() if now - v[0] < self.window}
            if len(self.seen) >= self.keep:
                self.seen.clear()
        self.seen[key] = (start, written + 1, held)
        return True


class _Stream(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler that never prints a traceback of its own (a closed stderr is let be)."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass


class ServerLog:
    """The log of one server, called with a line: ``log("refused ...")``.  ``err`` is where it
    writes (a test reads it back)."""

    def __init__(self, prefix: str, err: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.err = err
        self.handler = _Stream(err)
        self.handler.setLevel(logging.WARNING)
        self.handler.setFormatter(OneLineFormatter(prefix))
        self.handler.addFilter(Repeats(clock=clock))
        self.logger = logging.Logger(prefix, logging.WARNING)
        self.logger.addHandler(self.handler)

    def __call__(self, text: str) -> None:
        self.logger.warning("%s", text)

    def adopt(self, *names: str) -> None:
        """The libraries' loggers ``names`` write here, from WARNING up, and nowhere else; the
        access log is off."""
        for name in names:
            logger = logging.getLogger(name)
            logger.handlers[:] = [self.handler]
            logger.propagate = False
            logger.setLevel(logging.WARNING)
        logging.getLogger("aiohttp.access").disabled = True


def watch_loop(log: Callable[[str], None]) -> asyncio.Event:
    """The running loop's unhandled faults said in ``log`` (a line each, never a traceback), and
    the event that Ctrl+C or SIGTERM sets: what a server (``host``, ``serve``) waits on to stop."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: log(str(context.get("message", "fault"))))
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    return stop
