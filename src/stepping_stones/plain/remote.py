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
from ..flow.presenter import (
    CHAT_OFF,
    CHAT_ON,
    QUICK_PHRASES,
    again_line,
    chat_line,
    ratings_news,
    seat_caption,
    status_line,
    watchers_news,
)
from ..flow.state import TableState
from ..net.client import Refused, server_url
from ..net.connection import Unsent
from ..net.protocol import ChatStatus, ErrorMessage, Felt, Invite, Said, SeatFacts, StateMessage, Welcome
from ..net.remote import HINTS_OFF, UNDO_OFF, Connection, RemoteFlow, lobby_words
from ..storage.records import quote
from ..storage.safety import CHAT_LENGTH, chat_text, escape
from . import Hinter, Lines, PlainTable, Quit, expert_hint

CHAT_HELP = [
    f"say TEXT says a line to the table (at most {CHAT_LENGTH} characters); say alone lists the quick phrases, "
    "say 2 says the second.",
    "mute NAME stops you hearing that player, unmute NAME hears them again; chat off (or chat on) turns the "
    "table's chat off or on, for the table's opener.",
]

HELP = [
    "Type one of the actions after legal: to make it, for example K4, pass or win-pick-trump 9 K.",
    "sheet (or s) reads the scoresheet, trick (or t) the last finished trick, hand (or h) your cards.",
    "hint asks the computer for a suggestion, when you are the only person at the table; undo is off at a table.",
    "analysis (or a) compares the last finished hand with perfect play: its par and each player's costliest card.",
    "back takes your seat back when a computer plays it (after you did not answer in time).",
    *CHAT_HELP,
    "quit (or q) leaves the table; your seat is kept: the same join command takes it back, and a computer "
    "plays it meanwhile if you are away longer than the table waits.",
    "help (or ?) says this again.",
]

LEFT = (
    "You left the table. Your seat is kept: stepping-stones join {code} --server {server} --plain takes "
    "it back. After the table's timeout a computer plays it until you do."
)


def left(welcome: Welcome, server: str) -> str:
    """The goodbye: how the kept seat is taken back."""
    return LEFT.format(code=escape(welcome.code), server=escape(server))


LOBBY_HELP = [
    "start starts the table now: computers take the seats still open.",
    *CHAT_HELP,
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
        parts.append(
            f"seat {seat + 1}: {who} ({lobby_words(facts)})" if facts.kind != "open" else f"seat {seat + 1}: open"
        )
    return "Seats: " + "; ".join(parts) + "."


def chat_command(text: str, flow: RemoteFlow, connection: Connection) -> list[str] | None:
    """Do a chat command typed (``say``, ``mute``, ``unmute``, ``chat on|off``; ``text`` as typed,
    its case kept): the lines to say now (the line said comes back from the server, as everyone
    hears it), or None for a line that is no chat command."""
    words = text.split(maxsplit=1)
    if not words:
        return None
    word, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    if word == "say":
        if not rest:
            phrases = ", ".join(f"{i} {p}" for i, p in enumerate(QUICK_PHRASES, 1))
            return [f"Quick phrases: {phrases}. Type say and a number, or say and your own words."]
        if rest.isdigit():
            if not 1 <= int(rest) <= len(QUICK_PHRASES):
                return [f"The quick phrases are numbered 1 to {len(QUICK_PHRASES)}: type say alone to list them."]
            rest = QUICK_PHRASES[int(rest) - 1]
        if len(rest) > CHAT_LENGTH:
            return [f"That is {len(rest)} characters: a line said is at most {CHAT_LENGTH}. Nothing was said."]
        if not chat_text(rest):
            return ["Say something: that line has nothing to show. Nothing was said."]
        connection.chat("say", rest)
        return []
    if word in ("mute", "unmute"):
        seat = flow.seat_named(rest)
        if seat is None:
            names = ", ".join(str(c["name"]) for c in flow.mute_choices()) or "nobody"
            return [f"Type {word} and the name of another person at the table: {escape(names)}."]
        connection.chat("mute", seat, word == "mute")
        return []
    if word == "chat" and rest.lower() in ("on", "off"):
        connection.chat("chat_switch", rest.lower() == "on")
        return []
    return None


def chat_heard(item: Said | ChatStatus | ErrorMessage, flow: RemoteFlow, started: bool) -> list[str]:
    """What came from the server about chat: told by the flow once the table has started (its
    states say it), said at once before."""
    if isinstance(item, ErrorMessage):
        return [escape(item.message[:1].upper() + item.message[1:] + ".")]
    if isinstance(item, Said):
        if started:
            flow.said(item.seat, item.name, item.text)
            return []
        text, name = chat_text(item.text)[:CHAT_LENGTH], chat_text(item.name)[:40] or "?"
        return [escape(chat_line(name, text, item.seat == flow.seat))]
    was = flow.chat_on
    flow.chat_status(item.on, list(item.muted))
    return [] if started or was == item.on else [CHAT_ON if item.on else CHAT_OFF]


class _Lost(Exception):
    """The connection ended for good (it was said)."""


STALE = "{line} came after the table had moved on, so nothing was sent. The table as it is now:"
NOT_YOUR_TURN = "It is not your turn, so {line} was not sent."
BACK_WORDS = ("back", "b")


class RemotePlain(PlainTable):
    """A seat at a table on a server, told and played in plain lines.

    The person's lines are read in a thread of their own (``Typing``) while the server's states
    are told as they come, so a computer taking the seat, or giving it back, is said at once.  A
    line is weighed against the table as it is when it comes: one typed at a position the table
    has since left is answered once, with the position as it is now, and nothing is sent."""

    def __init__(
        self,
        flow: RemoteFlow,
        connection: Connection,
        typing: Typing,
        out: TextIO,
        hinter: Hinter | None = None,
        offer_again: bool = False,
    ) -> None:
        super().__init__(flow, typing, out, hinter)
        self.remote = flow
        self.connection = connection
        self.typing = typing
        self.offer_again = offer_again  # at the end: again, at a new table with the same setup
        self.invite: Invite | None = None
        self.asked = False  # this person asked for the new table
        self.placed = False  # whom the table waits for has been said (``others``)
        self.next_code: str | None = None  # the new table's code, to sit at once this one is left
        self.say(*(event.text for event in flow.state.log))  # the table as it started

    def command(self, word: str, view: PlayerView) -> bool:
        if word in ("help", "?", "h?"):
            self.say(*HELP)
            return True
        if word in ("undo", "u"):
            self.say(UNDO_OFF)
            return True
        if word in BACK_WORDS:
            self.take_back()
            return True
        return super().command(word, view)

    def handle(self, line: str, view: PlayerView) -> bool:
        if line and self._chat(line):
            return False
        return super().handle(line, view)

    def _chat(self, line: str) -> bool:
        """A chat command typed: done (``chat_command``), whatever the table's turn."""
        said = chat_command(" ".join(line.split()), self.remote, self.connection)
        if said is None:
            return False
        self.say(*said)
        self.out.flush()
        return True

    def take_back(self) -> None:
        if self.remote.stood_in:
            self.say("Taking your seat back from the computer.")
            self.connection.come_back()
        else:
            self.say("You play your own seat: no computer plays it.")

    def hint(self) -> None:
        if not self.remote.help:
            self.say(HINTS_OFF)
            return
        super().hint()

    def _take(self, item: object) -> None:
        """Hand one thing from the server to the flow (the flow's states tell it).  Raises
        ``_Lost`` when the connection ended for good."""
        if isinstance(item, StateMessage):
            self.remote.receive(item)
        elif isinstance(item, Said | ChatStatus) or (isinstance(item, ErrorMessage) and item.code == "chat-refused"):
            self.say(*chat_heard(item, self.remote, True))
        elif isinstance(item, Felt) and item.club is not None:
            self.remote.club(item.club)
        elif isinstance(item, ErrorMessage):
            self.remote.refused(item.message)
        elif isinstance(item, Refused):
            self.say(f"The table is lost: {item}.")
            raise _Lost
        elif isinstance(item, Unsent):
            self.remote.unsent(item.token)
        elif isinstance(item, Invite):
            if self.invite is None and not self.asked:
                self.say(f"{again_line(escape(item.by), False)} Type again to sit at it.")
            self.invite = item
        elif isinstance(item, str) and not isinstance(item, _Typed):
            self.remote.notice(item)
        self.out.flush()

    def _drain(self) -> None:
        """Take everything the server has sent already, without waiting."""
        while True:
            try:
                item = self.connection.inbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Typed):
                continue  # the line waits in ``typing``: ``_line`` takes it
            self._take(item)

    def _line(self, seq: int | None) -> str | None:
        """The next line typed, told what came from the server meanwhile; None as soon as the
        position ``seq`` prompted for is left before a line comes (without ``seq``: as soon as
        anything comes from the server), or something was said after the prompt (the prompt is
        then said again: the last line is always what may be typed)."""
        while True:
            self.typing.ask()
            line = self.typing.typed()
            if line is not None:
                self._drain()  # what came with the line is told before the line is weighed
                return line
            item = self.connection.get()
            if isinstance(item, _Typed):
                continue  # its line is taken above
            before = self.said
            self._take(item)
            if seq is None or self._moved(seq) or self.said != before:
                return None

    def _moved(self, seq: int) -> bool:
        message = self.remote.message
        return message is None or message.seq != seq or not self.remote.my_turn

    def ask(self, view: PlayerView) -> None:
        message = self.remote.message
        assert message is not None
        seq = message.seq
        self.describe_turn(view)
        self._said = None  # a new turn: its list is given in full
        while True:
            self.prompt(view)
            line = self._line(seq)
            if line is None:
                if not self._moved(seq):
                    continue  # something was said after the prompt: the prompt again
                return  # the table moved on: the loop asks again on the position as it is now
            if self._moved(seq):
                self._late(line)
                return
            if self.handle(line, view):
                return

    def _late(self, line: str) -> None:
        """A line that came after the table left the position it was typed on: commands are done
        on the table as it is; anything else is answered once, and nothing is sent."""
        if not line:
            raise Quit("end of input")
        text = " ".join(line.split())
        if not text or self._chat(text) or self.command(text.lower(), self.remote.state.view):
            return
        self.say(STALE.format(line=quote(text)))
        self._where()

    def _where(self) -> None:
        """Where the table is, in a line: whose turn, and the table's clock (``status_line``)."""
        if (status := status_line(self.remote.state)) != "":
            self.say(status)

    def tell(self, state: TableState) -> None:
        """What changed, and when the table starts to wait for another person (or for them to read
        a summary, or the person takes their seat back while it waits), whom and for how long (once
        a wait: the prompt says the person's own seconds)."""
        old = self.shown
        super().tell(state)
        clock = state.clock
        back = old.stand_in is not None and state.stand_in is None  # the seat taken back: where the table is
        new = (
            old.clock is None or (old.clock.seat, old.clock.reading) != (clock.seat, clock.reading) if clock else False
        )
        if clock is not None and clock.seat != 0 and (back or new):
            self.say(status_line(state))
        if (news := watchers_news(old.watchers, state.watchers)) is not None:  # "2 people are watching."
            self.say(news)
        if (news := ratings_news(old, state)) is not None:  # the finished game, rated by the server
            self.say(escape(news))

    def describe_turn(self, view: PlayerView) -> None:
        super().describe_turn(view)
        if self.remote.state.clock is not None:
            self.say(status_line(self.remote.state))  # "Your turn: 87 s left."

    def wait(self) -> bool:
        """Take the next thing from the server, or a line the person typed out of turn: False when
        the connection ended for good."""
        try:
            line = self._line(None)
        except _Lost:
            return False
        if line is None:
            return True
        if not line:
            raise Quit("end of input")
        text = " ".join(line.split())
        if text and not self._chat(text) and not self.command(text.lower(), self.remote.state.view):
            self.say(NOT_YOUR_TURN.format(line=quote(text)))
            self._where()
        self.out.flush()
        return True

    def again(self) -> str | None:
        """After the game: the code of the new table to sit at (asked for by this person or another
        one), or None to leave."""
        self.say(
            "Type again to play again at a new table with the same setup (the others are asked to sit "
            "with you), or quit to leave."
        )
        prompted = -1  # what had been said when the prompt was said last
        while True:
            if self.invite is not None and self.asked:
                return self.invite.code
            if self.said != prompted:  # something said since: the prompt again, as the last line
                self.prompt_words(["again", "quit"])
                prompted = self.said
            try:
                line = self._line(None)
            except _Lost:
                return None
            if line is None:
                continue
            word = line.strip().lower()
            if not line or word in ("quit", "q", "exit"):
                return None
            if word == "again":
                if self.invite is not None:
                    return self.invite.code
                self.asked = True
                self.say("Asking the server for a new table with the same setup.")
                self.connection.again()
            elif word:
                self.say("Type again to play again at a new table, or quit to leave.")

    def prompt_words(self, words: list[str]) -> None:
        self.say("legal: " + ", ".join(words))
        self.out.flush()

    def filed(self, path: Path | None) -> int:
        if path is None:
            self.say(f"The finished game could not be kept: {self.remote.problem}.")
            return 1
        self.say(f"record: {escape(str(path))}")
        return 0

    def play(self) -> int:
        """``PlainTable``'s loop, which ends with status 1 if the connection ends for good."""
        try:
            return super().play()
        except _Lost:
            return 1

    def others(self, step: object) -> None:
        """The others' turn (or the table's): wait for the server, answering lines meanwhile.  The
        first time, where the table is: whom it waits for, as a change of whom would say."""
        if not self.placed:
            self.placed = True
            clock = self.remote.state.clock
            if clock is not None and clock.seat != 0:
                self._where()
        if not self.wait():
            raise _Lost

    def game_over(self, path: Path | None) -> int:
        self.say(*self.remote.stand_in_lines())
        status = self.filed(path)
        if self.offer_again:
            self.next_code = self.again()
        return status

    def stopped(self, why: Quit | KeyboardInterrupt) -> int:
        """The seat is kept on the server: say how to take it back."""
        self.say(left(self.remote.welcome, self.connection.server))
        return 0


def lobby(
    connection: Connection, welcome: Welcome, flow: RemoteFlow, out: TextIO, typing: Typing | None = None
) -> bool:
    """Wait for the table to start, saying who sits where as seats are taken; False if the
    connection ended first.  The opener (with ``typing``) may start it early: ``legal: start`` is
    the last line whenever it waits, and ``start`` typed back starts it.  Raises ``Quit`` when the
    opener leaves (``quit``, or the input's end)."""
    said = ""
    if welcome.secret is None:  # the seat kept in the data folder, taken back with its secret
        print(
            f"You are back in your seat, seat {welcome.seat + 1} of table {escape(welcome.code)}, as "
            f"{escape(welcome.name)}.",
            file=out,
            flush=True,
        )
    else:
        link = f"{server_url(connection.server)}/t/{welcome.code}"
        print(
            f"You sit in seat {welcome.seat + 1} of table {escape(welcome.code)} as {escape(welcome.name)}. "
            f"The table's link, for a web browser: {escape(link)}",
            file=out,
        )
    if welcome.secret is None:
        pass  # back at a table: its first state says whether it has started
    elif typing is not None:
        print(
            "The table starts when every open seat is taken, or when you start it: type start to start it "
            "now, with computers in the open seats.",
            file=out,
            flush=True,
        )
    else:
        print(
            "The table starts when every open seat is taken, or when its first person starts it.", file=out, flush=True
        )
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
            chat = chat_command(" ".join(line.split()), flow, connection) if line else None
            if chat is not None:
                print(*chat, sep="\n", file=out, flush=True)
                continue
            if typing is not None and not _lobby_word(line, connection, out):
                typing = None  # started: nothing more to ask until the table comes
            continue
        if isinstance(item, str):
            print(item[:1].upper() + item[1:] + ".", file=out, flush=True)
            prompted = False
            continue
        if isinstance(item, Felt):
            if item.club is not None:  # said now; the table's log has it too
                print(escape(flow.club(item.club)), file=out, flush=True)
            continue
        if isinstance(item, Said | ChatStatus) or (isinstance(item, ErrorMessage) and item.code == "chat-refused"):
            lines = chat_heard(item, flow, False)
            if lines:
                print(*lines, sep="\n", file=out, flush=True)
                prompted = False
            continue
        if not isinstance(item, StateMessage):
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
        print(
            f"{shown} is not something to do before the table starts: type start to start it now, "
            "or wait for the others.",
            file=out,
        )
    return True


def introduce(flow: RemoteFlow, out: TextIO) -> None:
    view = flow.state.view
    others = [f"{escape(view.players[s])} ({seat_caption(flow.state, s)})" for s in range(1, NUM_SEATS)]
    print(f"Stepping Stones at a table on a server: {view.rules.describe()}, {view.rules.hands} hands.", file=out)
    print(
        f"You play as {escape(view.players[0])} against {' and '.join(others)}. "
        "Type help at any prompt for the commands.",
        file=out,
    )


def run(
    server: str,
    code: str,
    name: str | None,
    inp: Lines,
    out: TextIO,
    err: TextIO,
    retry_seconds: float = 120.0,
    again: bool = False,
) -> int:
    """Take a seat at the table ``code`` on ``server`` and play it in plain lines; the exit status.
    With ``again`` (a person at a terminal, not a script) the end offers a new table with the same
    setup, and the person sits at the one they or another player asked for."""
    current: list[Connection] = []
    typing = Typing(inp, lambda: current[-1].inbox.put(TYPED))
    came_from = ""
    while True:
        status, next_code = _one_table(server, code, name, typing, out, err, retry_seconds, again, current, came_from)
        if next_code is None:
            return status
        came_from, code = code, next_code


def _one_table(
    server: str,
    code: str,
    name: str | None,
    typing: Typing,
    out: TextIO,
    err: TextIO,
    retry_seconds: float,
    again: bool,
    current: list[Connection],
    came_from: str = "",
) -> tuple[int, str | None]:
    connection = Connection(server, code, name, retry_seconds=retry_seconds, came_from=came_from)
    current.append(connection)
    try:
        try:
            welcome = connection.join()
        except Refused as exc:
            print(f"join: {exc}", file=err)
            return 1, None
        from ..storage.settings import load_settings

        flow = RemoteFlow(welcome, connection.send, auto_last_card=load_settings().auto_last_card)
        try:
            if not lobby(connection, welcome, flow, out, typing if welcome.opener else None):
                return 1, None
        except (Quit, KeyboardInterrupt):
            print(left(welcome, server), file=out)
            return 0, None
        introduce(flow, out)
        table = RemotePlain(flow, connection, typing, out, expert_hint, offer_again=again)
        return table.play(), table.next_code
    finally:
        out.flush()
        connection.close()
