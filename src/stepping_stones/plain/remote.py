"""Plain mode at a table on a server (``stepping-stones join CODE --server URL --plain``).

The same sentences, the same ``legal:`` line before every read and the same commands as a game on
this machine (``PlainTable``), told from the ``TableState``s of a ``net.remote.RemoteFlow``: the
server's states go in, the person's bids and cards go out.  Before the table starts it says who
sits where; while others play it waits for the server.  Hints are there only when the person is
the only one at the table, undo never (it says so); at the end the finished game is kept in the
person's own games folder and library, and ``record: PATH`` says where.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from ..engine import NUM_SEATS, PlayerView
from ..flow import GameOver, HandSummary, PersonTurn
from ..net.client import Refused, server_url
from ..net.protocol import Error, SeatFacts, State, Welcome
from ..net.remote import HINTS_OFF, UNDO_OFF, Connection, RemoteFlow, seat_words
from ..storage.safety import escape
from . import Hinter, Lines, PlainTable, Quit, expert_hint

HELP = [
    "Type one of the actions after legal: to make it, for example K4, pass or win-pick-trump 9 K.",
    "sheet (or s) reads the scoresheet, trick (or t) the last finished trick, hand (or h) your cards.",
    "hint asks the computer for a suggestion, when you are the only person at the table; undo is off at a table.",
    "analysis (or a) compares the last finished hand with perfect play: its par and each player's costliest card.",
    "quit (or q) leaves the table; the server keeps your seat, and a computer plays it if you do not come back.",
    "help (or ?) says this again.",
]

LEFT = ("You left the table. The server keeps your seat for a while; after its timeout a computer "
        "plays it.")

LOBBY_HELP = [
    "start starts the table now: computers take the seats still open.",
    "Or wait: the table starts by itself when every open seat is taken.",
    "quit (or q) leaves the table; the server keeps your seat, and a computer plays it if you do not come back.",
]


class _Typed(str):
    """The word in the connection's inbox that the person has typed a line (``Typing`` holds it)."""


TYPED = _Typed("typed")


class Typing:
    """The person's lines, read in a thread of their own so that the lobby can wait for the server
    and the keyboard at once: ``ask()`` starts reading one line (once), and ``wake`` is called when
    it has come; ``readline()`` gives that line, or reads the next one as ``Lines`` does (the table,
    after the lobby, reads through it)."""

    def __init__(self, inp: Lines, wake: Callable[[], None]) -> None:
        self.inp = inp
        self.wake = wake
        self.lines: queue.Queue[str] = queue.Queue(maxsize=1)
        self.pending = False

    def ask(self) -> None:
        if not self.pending:
            self.pending = True
            threading.Thread(target=self._read, name="plain-input", daemon=True).start()

    def _read(self) -> None:
        try:
            line = self.inp.readline()
        except (OSError, ValueError):  # the input went away: as its end
            line = ""
        self.lines.put(line)
        self.wake()

    def typed(self) -> str | None:
        """The line read, if it has come (without waiting)."""
        try:
            line = self.lines.get_nowait()
        except queue.Empty:
            return None
        self.pending = False
        return line

    def readline(self) -> str:
        if self.pending:
            self.pending = False
            return self.lines.get()
        return self.inp.readline()


def seats_line(seats: list[SeatFacts], mine: int) -> str:
    """Who sits where, in one sentence."""
    parts = []
    for seat, facts in enumerate(seats):
        who = "you" if seat == mine else (escape(facts.name) if facts.name else "nobody yet")
        parts.append(f"seat {seat + 1}: {who} ({seat_words(facts)})" if facts.kind != "open"
                     else f"seat {seat + 1}: open")
    return "Seats: " + "; ".join(parts) + "."


class RemotePlain(PlainTable):
    """A seat at a table on a server, told and played in plain lines."""

    def __init__(self, flow: RemoteFlow, connection: Connection, inp: Lines, out: TextIO,
                 hinter: Hinter | None = None) -> None:
        super().__init__(flow, inp, out, hinter)
        self.remote = flow
        self.connection = connection
        self.say(*(event.text for event in flow.state.log))  # the table as it started

    def command(self, word: str, view: PlayerView) -> bool:
        if word in ("help", "?", "h?"):
            self.say(*HELP)
            return True
        if word in ("undo", "u"):
            self.say(UNDO_OFF)
            return True
        return super().command(word, view)

    def hint(self) -> None:
        if not self.remote.help:
            self.say(HINTS_OFF)
            return
        super().hint()

    def wait(self) -> bool:
        """Take the next thing from the server: False when the connection ended for good."""
        item = self.connection.get()
        if isinstance(item, State):
            self.remote.receive(item)
        elif isinstance(item, Error):
            self.remote.refused(item.message)
        elif isinstance(item, Refused):
            self.say(f"The table is lost: {item}.")
            return False
        elif isinstance(item, _Typed):
            pass  # a line typed while the lobby waited: the next read takes it
        else:
            self.remote.notice(item)
        return True

    def filed(self, path: Path | None) -> int:
        if path is None:
            self.say(f"The finished game could not be kept: {self.remote.problem}.")
            return 1
        self.say(f"record: {escape(str(path))}")
        return 0

    def play(self) -> int:
        flow = self.remote
        try:
            while True:
                step = flow.next_step()
                if isinstance(step, HandSummary):
                    flow.summary_seen()
                elif isinstance(step, GameOver):
                    return self.filed(step.path)
                elif isinstance(step, PersonTurn):
                    self.ask(step.view)
                elif not self.wait():
                    return 1
        except (Quit, KeyboardInterrupt):
            self.say(LEFT)
            return 0
        finally:
            self.out.flush()


def lobby(connection: Connection, welcome: Welcome, flow: RemoteFlow, out: TextIO,
          typing: Typing | None = None) -> bool:
    """Wait for the table to start, saying who sits where as seats are taken; False if the
    connection ended first.  The opener (with ``typing``) may start it early: ``legal: start`` is
    the last line whenever it waits, and ``start`` typed back starts it.  Raises ``Quit`` when the
    opener leaves (``quit``, or the input's end)."""
    said = ""
    link = f"{server_url(connection.server)}/t/{welcome.code}"
    print(f"You sit in seat {welcome.seat + 1} of table {escape(welcome.code)} as {escape(welcome.name)}. "
          f"The table's link, for a web browser: {escape(link)}", file=out)
    if typing is not None:
        print("The table starts when every open seat is taken, or when you start it: type start to start it "
              "now, with computers in the open seats.", file=out, flush=True)
    else:
        print("The table starts when every open seat is taken, or when its first person starts it.", file=out,
              flush=True)
    prompted = False
    while not flow.started:
        if typing is not None and not prompted:
            typing.ask()
            print("legal: start", file=out, flush=True)
            prompted = True
        item = connection.get()
        if isinstance(item, Refused):
            print(f"The table is lost: {item}.", file=out)
            return False
        if isinstance(item, _Typed):
            line = typing.typed() if typing is not None else None
            if line is None:
                continue
            prompted = False
            if typing is not None and not _lobby_word(line, connection, out):
                typing = None  # started: nothing more to ask until the table comes
            continue
        if isinstance(item, str):
            print(item[:1].upper() + item[1:] + ".", file=out, flush=True)
            prompted = False
            continue
        if not isinstance(item, State):
            continue
        line = seats_line(item.seats, welcome.seat)
        if line != said and item.view is None:
            said = line
            print(line, file=out, flush=True)
            prompted = False
        flow.receive(item)
    return True


def _lobby_word(line: str, connection: Connection, out: TextIO) -> bool:
    """Do what the opener typed in the lobby; False once they have started the table."""
    if not line:
        raise Quit
    word = line.strip().lower()
    if word == "start":
        connection.start()
        print("Starting the table: computers take the seats still open.", file=out, flush=True)
        return False
    if word in ("quit", "q"):
        raise Quit
    if word in ("help", "?", "h?"):
        print(*LOBBY_HELP, sep="\n", file=out)
    elif word:
        shown = escape(word if len(word) <= 60 else word[:57] + "...")
        print(f"{shown} is not something to do before the table starts: type start to start it now, "
              "or wait for the others.", file=out)
    return True


def introduce(flow: RemoteFlow, out: TextIO) -> None:
    view = flow.state.view
    others = [f"{escape(view.players[s])} ({flow.state.seats[s]})" for s in range(1, NUM_SEATS)]
    print(f"Stepping Stones at a table on a server: {view.rules.describe()}, {view.rules.hands} hands.", file=out)
    print(f"You play as {escape(view.players[0])} against {' and '.join(others)}. "
          "Type help at any prompt for the commands.", file=out)


def run(server: str, code: str, name: str | None, inp: Lines, out: TextIO, err: TextIO,
        retry_seconds: float = 120.0) -> int:
    """Take a seat at the table ``code`` on ``server`` and play it in plain lines; the exit status."""
    connection = Connection(server, code, name, retry_seconds=retry_seconds)
    try:
        try:
            welcome = connection.join()
        except Refused as exc:
            print(f"join: {exc}", file=err)
            return 1
        flow = RemoteFlow(welcome, connection.send)
        typing = Typing(inp, lambda: connection.inbox.put(TYPED)) if welcome.opener else None
        try:
            if not lobby(connection, welcome, flow, out, typing):
                return 1
        except (Quit, KeyboardInterrupt):
            print(LEFT, file=out)
            return 0
        introduce(flow, out)
        return RemotePlain(flow, connection, typing or inp, out, expert_hint).play()
    finally:
        out.flush()
        connection.close()
