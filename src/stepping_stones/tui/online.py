"""Play online: open a table on a table server or join one with its invite code, wait for the
others in the lobby, then play the seat on the same table screen as a local game.

``RemoteSeat`` runs the seat's ``SeatClient`` on the app's own event loop: each state the server
sends goes to the seat's ``net.remote.RemoteFlow``, whose ``TableState``s the table screen draws
(``RemoteTableScreen``, the same panels as ``TableScreen``); keys become the flow's calls, and the
bids and cards go to the server.  Hints are worked out here only when the person is the only one
at the table; undo is off (the state's refusal says so).  A dropped connection is taken up again
by the client, and the table's log says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ..engine import Phase
from ..flow import GameOver, HandSummary
from ..flow.presenter import again_line, status_line
from ..game.choices import AI_LEVELS, DEFAULT_AI_LEVEL
from ..storage.safety import escape, name_problem
from ..storage.settings import Settings
from .host import host
from .render import Look
from .screens import GameOverScreen
from .table import TableBase
from .widgets import Choice, KeyBar, TooSmall

if TYPE_CHECKING:
    from ..engine import Rules
    from ..net.client import SeatClient
    from ..net.protocol import Invite, StateMessage, Welcome
    from ..net.remote import RemoteFlow
    from .dialogs import HandSummaryScreen

DEFAULT_SERVER = "http://127.0.0.1:8765"
SEATS = [
    ("you and two people", "people"),
    ("you, a person and a computer", "one"),
    ("you and two computers", "computers"),
]


class RemoteSeat:
    """A seat at a table on a server, played on the app's event loop."""

    def __init__(self, client: SeatClient, welcome: Welcome, auto_last_card: bool = True) -> None:
        from ..net.remote import RemoteFlow

        self.client = client
        self.welcome = welcome
        self.flow: RemoteFlow = RemoteFlow(welcome, self._send, auto_last_card=auto_last_card, take_back="press b")
        self.listeners: list[Callable[[], None]] = []  # told after every message
        self.notes: list[str] = []  # the connection's notices before the table starts
        self.lost: str | None = None  # why the seat cannot be played any more
        self.invite: Invite | None = None  # a new table with the same setup, once the game is over
        self._sending: set[asyncio.Task[bool]] = set()
        self.server = client.server
        self.opener = welcome.opener  # the table's opener (chat's switch is theirs), as first welcomed

    def _send(self, move: str, seq: int) -> None:
        task = asyncio.ensure_future(self.client.act(move, seq))
        self._sending.add(task)

        def sent(task: asyncio.Task[bool]) -> None:
            self._sending.discard(task)
            if task.cancelled() or task.exception() is not None or not task.result():
                self.flow.unsent(move)  # the connection is down: nothing was sent, nor will be
                self._tell()

        task.add_done_callback(sent)

    def notice(self, line: str) -> None:
        if self.flow.started:
            self.flow.notice(line)
        else:
            self.notes.append(line)
        self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    async def read(self) -> None:
        """Hand every message of the server on, until the game is over or the seat is lost."""
        from ..net.client import Refused
        from ..net.protocol import MOVE_REFUSALS, ChatStatus, ErrorMessage, Felt, Invite, Said, StateMessage

        try:
            if self.client.state is not None:
                self.flow.receive(self.client.state)
                self._tell()
            while True:  # after the game too: an invitation to the next table may come
                message = await self.client.receive()
                if isinstance(message, StateMessage):
                    self.flow.receive(message)
                elif isinstance(message, ErrorMessage) and message.code in MOVE_REFUSALS:
                    self.flow.refused(message.message)
                elif isinstance(message, Said):
                    self.flow.said(message.seat, message.name, message.text)
                elif isinstance(message, ChatStatus):
                    self.flow.chat_status(message.on, list(message.muted))
                elif isinstance(message, ErrorMessage) and message.code == "chat-refused":
                    self.flow.chat_refused(message.message)
                elif isinstance(message, Felt) and message.club is not None:
                    self.flow.club(message.club)
                elif isinstance(message, Invite):
                    self.invite = message
                self._tell()
        except Refused as exc:
            self.notice(f"the table is lost: {exc}")

    async def start(self) -> None:
        await self.client.start()

    async def close(self) -> None:
        self.flow.close()
        await self.client.close()

    @property
    def message(self) -> StateMessage | None:
        return self.flow.message


def seat_lines(message: StateMessage | None, mine: int) -> Text:
    from ..net.remote import lobby_words

    text = Text()
    if message is None:
        return text
    for seat, facts in enumerate(message.seats):
        who = "you" if seat == mine else (escape(facts.name) if facts.name else "-")
        text.append(f"Seat {seat + 1}: ", style="bold")
        text.append(f"{who} ({lobby_words(facts)})\n" if facts.kind != "open" else "open: waiting for a person\n")
    return text


class OnlineScreen(Screen[None]):
    """Open a table on a server (its invite code is shown in the lobby), or join one with a code."""

    BINDINGS = [
        Binding("ctrl+o", "open_table", "Open a table", id="open_table", key_display="^O"),
        Binding("ctrl+j", "join", "Join with the code", id="join", key_display="^J"),
        Binding("ctrl+l", "listed", "Open tables", id="listed", key_display="^L"),
        Binding("escape", "back", "Back", id="back"),
    ]

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        code: str = "",
        name: str | None = None,
        join: bool = False,
        fixed: bool = False,
        rules: Rules | None = None,
        came_from: str = "",
    ) -> None:
        """``name`` None: the setup screen's; ``fixed``: ``server`` is the only server this screen
        plays on (``join --server URL``, and every tab of ``serve --server URL``): shown, not typed;
        ``rules``: a table opened here has them (the setup screen's as shown; else the last game's);
        ``came_from``: the finished table whose "again" this is (``join`` with its code finds this seat)."""
        super().__init__()
        self.came_from = came_from
        self.rules = rules
        self.server = server
        self.code = code
        self.person = name
        self.join_now = join
        self.fixed = fixed
        self.busy = False

    def compose(self) -> ComposeResult:
        name = self.person if self.person is not None else host(self).last_setup.player
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="online"):
            yield Static(
                Text.assemble(("Play online", "bold"), " - a table on a table server (stepping-stones host)"),
                id="online-title",
            )
            yield Horizontal(
                Static("Server", classes="label"),
                Input(self.server, compact=True, id="server", max_length=200, disabled=self.fixed),
                classes="row",
            )
            yield Horizontal(
                Static("Your name", classes="label"),
                Input(name, placeholder="the name the others see", compact=True, id="online-name", max_length=40),
                classes="row",
            )
            yield Static("Open a table (Ctrl+O), with the rules of the setup screen", classes="heading")
            yield Choice("Seats", SEATS, "people", id="seats")
            yield Choice("Computers", [(level, level) for level in AI_LEVELS], DEFAULT_AI_LEVEL, id="level")
            yield Static("Or join a table (Enter or Ctrl+J), or choose an open table (Ctrl+L)", classes="heading")
            yield Horizontal(
                Static("Invite code", classes="label"),
                Input(self.code, placeholder="XXXXX-XXXXX", compact=True, id="code", max_length=20),
                classes="row",
            )
            yield Static(id="online-status")
        yield KeyBar(id="online-keys")

    def on_mount(self) -> None:
        if self._offer_kept():
            pass
        elif self.fixed:
            self._say(
                "Type your name and the invite code you were sent, then Enter; or open a table "
                "on this server with Ctrl+O."
            )
            self.query_one("#code" if self.query_one("#online-name", Input).value else "#online-name", Input).focus()
        if self.join_now:
            self.action_join()

    def _offer_kept(self) -> bool:
        """The tables the person still sits at on this screen's server (kept in their data folder):
        the newest one's code is filled in, so that Enter takes the seat back."""
        from ..storage.seats import kept_seats

        if self.code or self.join_now:
            return False
        server = self.server if self.fixed else self.query_one("#server", Input).value.strip()
        kept = [k for k in kept_seats() if self.fixed is False or k.server == server]
        if not kept:
            return False
        first = kept[0]
        if not self.fixed:
            self.query_one("#server", Input).value = first.server
        self.query_one("#code", Input).value = first.code
        self.query_one("#code", Input).focus()
        others = "; ".join(f"{k.code} on {k.server}" for k in kept[1:4])
        self._say(
            f"You still sit at table {first.code} on {first.server} as {first.name}: Enter takes your seat "
            f"back." + (f" Also kept: {others}." if others else "")
        )
        return True

    def _say(self, line: str, error: bool = False) -> None:
        self.query_one("#online-status", Static).update(Text(line, style="bold red" if error else "italic"))

    def _form(self) -> tuple[str, str] | None:
        server = self.server if self.fixed else self.query_one("#server", Input).value.strip()
        name = self.query_one("#online-name", Input).value.strip()
        problem = name_problem(name)
        if problem:
            self._say(f"{problem[:1].upper()}{problem[1:]}.", error=True)
            return None
        return server, name

    def on_input_submitted(self, event: Input.Submitted) -> None:
        code = self.query_one("#code", Input)
        if event.input.id == "code" or code.value.strip():
            self.action_join()
        else:  # the name typed, the code comes next
            code.focus()
            self._say("Now the invite code you were sent (XXXXX-XXXXX), then Enter; or Ctrl+O opens a table.")

    def action_open_table(self) -> None:
        form = self._form()
        if form is None or self.busy:
            return
        level = self.query_one("#level", Choice).value
        seats = {
            "people": ["open", "open", "open"],
            "one": ["open", "open", level],
            "computers": ["open", level, level],
        }[self.query_one("#seats", Choice).value]
        self.busy = True
        self._say("Opening a table...")
        self._open(*form, seats, level)

    @work(exclusive=True, group="online", exit_on_error=False)
    async def _open(self, server: str, name: str, seats: list[str], level: str) -> None:
        from ..net.client import Refused, open_table
        from ..net.protocol import NewTable
        from ..storage.records import RecordRules

        try:
            rules = self.rules if self.rules is not None else host(self).last_setup.rules
            request = NewTable.model_validate(
                {"rules": RecordRules.of(rules).model_dump(), "seats": seats, "level": level}
            )
            opened = await open_table(server, request)
        except Refused as exc:
            self.busy = False
            self._say(str(exc), error=True)
            return
        self.query_one("#code", Input).value = opened.code
        await self._take_seat(server, opened.code, name)

    def action_join(self) -> None:
        form = self._form()
        code = self.query_one("#code", Input).value.strip()
        if form is None or self.busy:
            return
        if not code:
            self._say("Type the invite code you were sent (XXXXX-XXXXX), or open a table with Ctrl+O.", error=True)
            return
        self.busy = True
        self._say("Joining the table...")
        self._join(form[0], code, form[1])

    @work(exclusive=True, group="online", exit_on_error=False)
    async def _join(self, server: str, code: str, name: str) -> None:
        await self._take_seat(server, code, name)

    async def _take_seat(self, server: str, code: str, name: str) -> None:
        from ..net.client import Refused, SeatClient

        seat: list[RemoteSeat] = []
        try:
            client = SeatClient.at_table(
                server,
                code,
                name,
                notice=lambda line: seat[0].notice(line) if seat else None,
                came_from=self.came_from if code == self.code else "",
            )
        except Refused as exc:
            self.busy = False
            self._say(str(exc), error=True)
            return
        try:
            welcome = await client.join()
        except Refused as exc:
            await client.close()
            self.busy = False
            self._say(str(exc), error=True)
            return
        seat.append(RemoteSeat(client, welcome, host(self).settings.auto_last_card))
        host(self).last_online = (server, name)
        self.busy = False
        self.app.switch_screen(LobbyScreen(seat[0], server))

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_listed(self) -> None:
        """The server's open tables (its lobby), followed live: the one chosen, the person sits at."""
        from .listed import ListedScreen

        form = self._form()
        if form is None or self.busy:
            return
        server, name = form

        def chosen(code: str | None) -> None:
            if code is None or self.busy:
                return
            self.query_one("#code", Input).value = code
            self.busy = True
            self._say("Joining the table...")
            self._join(server, code, name)

        self.app.push_screen(ListedScreen(server), chosen)


class LobbyScreen(Screen[None]):
    """The table before it starts: its invite code, who sits where; its opener may start it."""

    BINDINGS = [
        Binding("s", "start", "Start now (computers take the open seats)", id="start"),
        Binding("escape", "leave", "Leave", id="leave"),
    ]

    def __init__(self, seat: RemoteSeat, server: str) -> None:
        super().__init__()
        self.seat = seat
        self.server = server

    def compose(self) -> ComposeResult:
        from ..net.client import server_url

        welcome = self.seat.welcome
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="lobby"):
            yield Static(Text.assemble(("Invite code: ", "bold"), (welcome.code, "bold reverse")), id="lobby-code")
            yield Static(
                Text(
                    f"Send it to the people you play with: they join with it from the app's Play online, "
                    f"or with  stepping-stones join {welcome.code} --server {self.server}, or in a web "
                    f"browser at {server_url(self.server)}/t/{welcome.code}",
                    style="italic",
                ),
                id="lobby-how",
            )
            yield Static(id="lobby-seats")
            yield Static(id="lobby-notes")
        yield Footer()

    def on_mount(self) -> None:
        self.seat.listeners.append(self._changed)
        self.app.run_worker(self.seat.read(), group="table-client", exit_on_error=False)
        self._changed()

    def on_unmount(self) -> None:
        if self._changed in self.seat.listeners:
            self.seat.listeners.remove(self._changed)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            return self.seat.welcome.opener
        return True

    def _changed(self) -> None:
        if not self.is_attached:
            return
        if self.seat.flow.started:  # once: the table screen takes the seat's messages from now on
            self.seat.listeners.remove(self._changed)
            self.app.switch_screen(RemoteTableScreen(self.seat, host(self).settings))
            return
        self.query_one("#lobby-seats", Static).update(seat_lines(self.seat.message, self.seat.welcome.seat))
        notes = Text(
            "The table starts when every open seat is taken"
            + (", or when you start it (s)." if self.seat.welcome.opener else "."),
            style="italic",
        )
        for line in self.seat.notes[-3:]:
            notes.append(f"\n{line}")
        self.query_one("#lobby-notes", Static).update(notes)

    def action_start(self) -> None:
        if self.seat.welcome.opener:
            self.run_worker(self.seat.start(), exit_on_error=False)

    def action_leave(self) -> None:
        self.app.run_worker(self.seat.close(), exit_on_error=False)
        host(self).show_setup()


class RemoteTableScreen(TableBase):
    """A seat at a table on a server: the same table as a local game, drawn from the states the
    server sends.  The top bar says when it is the person's turn and how long the table still waits
    before a computer takes the seat; the terminal's bell rings when the turn comes (unless the
    ``bell`` setting is off); b takes the seat back from a computer."""

    flow: RemoteFlow
    BINDINGS = [
        Binding("b", "take_back", "Take your seat back", id="take_back", show=False),
        Binding("m", "chat", "Chat", id="chat"),
    ]

    def __init__(self, seat: RemoteSeat, settings: Settings) -> None:
        super().__init__()
        self.seat = seat
        self.flow = seat.flow
        self.settings = settings
        self.set_reactive(TableBase.state, self.flow.state)
        self.set_reactive(TableBase.look, Look(settings.ascii))
        self.flow.subscribe(self._publish)
        self.flow.subscribe(self._ring)
        self._summary: HandSummaryScreen | None = None  # the summary on show, told of the table's changes
        self._turn = False  # the person's turn as last told (the bell rings when it comes)
        self._handed = False  # the seat went on to the final screen, which closes it
        seat.listeners.append(self.advance)

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self.flow.tick)  # the seconds left, in the top bar
        self._ring(self.flow.state)

    def _ring(self, state: object) -> None:
        turn = self.flow.my_turn
        if turn and not self._turn and self.settings.bell and self.is_attached:
            self.app.bell()
        if self._turn != turn:
            self._turn = turn
            if self.is_attached:
                self.refresh_bindings()

    def action_take_back(self) -> None:
        """b: the seat back from a computer, when one plays it; else, while bidding, Bridges as
        trump, the table's own b (this screen's binding of b would otherwise hide it, at times)."""
        if self.flow.stood_in:
            self._come_back()
        elif self.state.view.phase is Phase.BIDDING:
            self.action_trump(3)

    def _come_back(self) -> None:
        """The seat back from the computer that plays it (the summary's b too)."""
        if self.flow.stood_in:
            self.run_worker(self.seat.client.come_back(), exit_on_error=False)

    def action_chat(self) -> None:
        """m: say something to the table, mute a person, or (the opener) turn chat off or on."""
        from .chat import ChatScreen

        self.app.push_screen(ChatScreen(self.seat))

    def on_unmount(self) -> None:
        if self.advance in self.seat.listeners:
            self.seat.listeners.remove(self.advance)
        if not self._handed:
            self.app.run_worker(self.seat.close(), exit_on_error=False)

    def advance(self) -> None:
        summary = self._summary
        if summary is not None:
            summary.show_status()  # the table moved on while the summary is open: its status line
            if self.app.screen is summary and summary.number < len(self.flow.state.view.history):
                # later hands ended while it was open (a computer played them for the person): the
                # last one's summary takes its place, as the flow tells the ones between
                self._summary = None
                self.app.pop_screen()
        if not self.is_attached or self._summary is not None:
            return
        step = self.flow.next_step()
        if isinstance(step, HandSummary):
            from .dialogs import HandSummaryScreen

            line = "Press Enter to see the next hand: it is dealt already."
            summary = HandSummaryScreen(
                step.view, step.number, line, lambda: status_line(self.flow.state), take_back=self._come_back
            )
            self._summary = summary
            self.app.push_screen(summary, self._summary_closed)
        elif isinstance(step, GameOver):
            self._handed = True
            self.app.switch_screen(
                RemoteGameOverScreen(
                    self.seat,
                    step.view,
                    step.path,
                    None,
                    self.flow.problem,
                    assisted=self.flow.state.assisted,
                    retry=self.flow.file,
                    notes=tuple(self.flow.stand_in_lines()),
                )
            )

    def _summary_closed(self, _result: object) -> None:
        self._summary = None
        self.flow.summary_seen()
        self.advance()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pace":
            return False  # the table goes at the pace of its players
        if action == "hint":
            return self.flow.help  # off where more than one person sits at the table
        if action == "take_back":
            return self.flow.stood_in or self.state.view.phase is Phase.BIDDING
        return super().check_action(action, parameters)

    def action_new_game(self) -> None:
        from .dialogs import ConfirmScreen

        def answer(yes: bool | None) -> None:
            if yes:
                host(self).show_setup()

        self.app.push_screen(
            ConfirmScreen(
                "Leave the table and set up a new game?\n(The server keeps your seat "
                "for a while; then a computer plays it.)"
            ),
            answer,
        )


class RemoteGameOverScreen(GameOverScreen):
    """The end of a game at a table on a server: n (or Enter) asks the server for a new table with
    the same setup, and everyone who sat here is asked to sit at it with one key (y); whoever asked
    sits first, and may start it with computers in the seats of those who decline."""

    AGAIN = "n or Enter: again, at a new table with the same setup (the others are asked)"

    def __init__(self, seat: RemoteSeat, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.seat = seat
        self.asked = False  # this person asked for the new table
        self.answered: str | None = None  # the invitation answered (its code)

    def on_mount(self) -> None:
        self.seat.listeners.append(self._invited)
        self._invited()

    def on_unmount(self) -> None:
        if self._invited in self.seat.listeners:
            self.seat.listeners.remove(self._invited)
        self.app.run_worker(self.seat.close(), exit_on_error=False)

    def action_again(self) -> None:
        if self.seat.invite is not None:
            self._sit(self.seat.invite.code)
            return
        self.asked = True
        self.notify("Opening a new table with the same setup...")
        self.run_worker(self.seat.client.again(), exit_on_error=False)

    def _invited(self) -> None:
        invite = self.seat.invite
        if invite is None or invite.code == self.answered or not self.is_attached:
            return
        self.answered = invite.code
        if self.asked:
            self._sit(invite.code)
            return
        from .dialogs import ConfirmScreen

        def answer(yes: bool | None) -> None:
            if yes:
                self._sit(invite.code)

        self.app.push_screen(
            ConfirmScreen(f"{again_line(escape(invite.by), False)}\nSit at it?"),
            answer,
        )

    def _sit(self, code: str) -> None:
        self.app.switch_screen(
            OnlineScreen(self.seat.server, code, self.seat.welcome.name, join=True, came_from=self.seat.welcome.code)
        )
