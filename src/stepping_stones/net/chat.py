"""Chat at a table: who muted whom, and the checks of a line said.

A person at a table says a line (``protocol.Chat``: a quick phrase or up to ``CHAT_LENGTH``
characters of their own); the server cleans it (``storage.safety.chat_text``: no control, format
or bidirectional character reaches anyone), holds each connection and each address to a rate, and
sends it (``protocol.Said``) to every seat at the table but those that muted the speaker.  The
table's opener may turn chat off for the table (``protocol.ChatSwitch``: ``Table.chat_off``); a
person may mute another seat (``protocol.Mute``: ``TableSeat.muted``), and the muted person is not
told.  The switch and the mutes are written in the table's journal with the seats, so that they
outlast a reload, a reconnection and a restart, and go with the table.

What is said is kept in memory only: it is never written to a table's journal, its game record or
the server's log.

May import: the flow's presenter (the words), storage's safety and this package's limiter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..engine import NUM_SEATS, SteppingStonesError
from ..flow.presenter import CHAT_OFF
from ..storage.safety import CHAT_LENGTH, chat_text
from .limiter import Bucket

__all__ = ["CHAT_LENGTH", "ChatRefused", "Rooms", "muting", "said_text"]

EMPTY: Final = "say something: the line is empty once its control and invisible characters are taken out"
TOO_FAST: Final = "too fast: at most {rate} lines a minute at a table; this one was not said"


class ChatRefused(SteppingStonesError, ValueError):
    """A line that is not said, or a switch not made, in one line."""


def said_text(text: str) -> str:
    """``text`` as it is said: clean (``chat_text``), at most ``CHAT_LENGTH`` characters.
    Raises ``ChatRefused`` when nothing is left.

    >>> said_text(" Good \\x1b game ")
    'Good game'
    """
    clean = chat_text(text)[:CHAT_LENGTH]
    if not clean:
        raise ChatRefused(EMPTY)
    return clean


def muting(muted: tuple[int, ...], listener: int, speaker: int, on: bool) -> tuple[int, ...]:
    """The seats ``listener`` mutes once it mutes ``speaker`` (``on``) or hears it again, from those
    it muted (``muted``), in order.  Raises ``ChatRefused`` for no other seat of the table.

    >>> muting((), 1, 0, True), muting((0, 2), 1, 0, False)
    ((0,), (2,))
    """
    if not 0 <= speaker < NUM_SEATS or speaker == listener:
        raise ChatRefused("a seat mutes another seat of the table, not itself")
    return tuple(sorted(set(muted) | {speaker} if on else set(muted) - {speaker}))


class Rooms:
    """Each connection's allowance of lines said."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate  # lines a second one connection may say, after a burst of
        self.burst = burst
        self.clock = clock
        self.allowances: dict[object, Bucket] = {}

    def check(self, conn: object, on: bool, text: str) -> str:
        """The line ``conn`` says at a table whose chat is ``on`` (or off), clean.  Raises
        ``ChatRefused``: chat is off, the line is empty, or the connection says too much."""
        if not on:
            raise ChatRefused(CHAT_OFF)
        clean = said_text(text)
        allowance = self.allowances.get(conn)
        if allowance is None:
            allowance = self.allowances[conn] = Bucket(self.rate, self.burst, self.clock)
        if not allowance.take():
            raise ChatRefused(TOO_FAST.format(rate=f"{self.rate * 60:g}"))
        return clean

    def gone(self, conn: object) -> None:
        self.allowances.pop(conn, None)
