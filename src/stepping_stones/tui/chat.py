"""The chat dialog at a table on a server (m): a quick phrase by its number, or the person's own
words, said to the table; a button for each other person to mute them or hear them again; for the
table's opener, the switch that turns the table's chat off or on.

Every word shown comes from the presenter (``flow.presenter``: the quick phrases, the limit, the
switch's words) or the flow (``RemoteFlow.mute_choices``); the lines said are told in the table's
log as the flow's events, drawn as plain text (never markup).  What the person types is sent as it
is: the server cleans it (``net/chat.py``) and the flow cleans what comes back again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.app import ComposeResult
from textual.widgets import Button, Input, Static

from ..flow.presenter import QUICK_PHRASES, chat_words
from ..storage.safety import CHAT_LENGTH
from .dialogs import Dialog

if TYPE_CHECKING:
    from ..net.client import SeatClient
    from ..net.protocol import Welcome
    from ..net.remote import RemoteFlow


class RemoteSeat(Protocol):
    """The seat the dialog speaks for (``online.RemoteSeat``)."""

    flow: RemoteFlow
    client: SeatClient
    welcome: Welcome
    opener: bool


def chat_request(typed: str) -> str | None:
    """What typing ``typed`` in the dialog says: a quick phrase for its number, else the words
    themselves; None for nothing.

    >>> chat_request(" 2 "), chat_request("gg all"), chat_request("  "), chat_request("99")
    ('Well played', 'gg all', None, '99')
    """
    text = typed.strip()
    if text.isdigit() and 1 <= int(text) <= len(QUICK_PHRASES):
        return QUICK_PHRASES[int(text) - 1]
    return text or None


class ChatScreen(Dialog[None]):
    """Say something to the table (see the module's docstring)."""

    def __init__(self, seat: RemoteSeat) -> None:
        super().__init__()
        self.seat = seat

    def body(self) -> ComposeResult:
        flow = self.seat.flow
        words = chat_words(flow.chat_on, self.seat.welcome.opener or self.seat.opener)
        phrases = "  ".join(f"{i} {p}" for i, p in enumerate(QUICK_PHRASES, 1))
        yield Static("Say to the table", classes="title")
        yield Static(str(words["note"]) or f"Type a number for a quick phrase, or your own words: {phrases}")
        yield Input(max_length=CHAT_LENGTH, placeholder="1-7 or your words, Enter says it", id="chat-input")
        for choice in flow.mute_choices():
            yield Button(str(choice["label"]), id=f"mute-{choice['seat']}")
        if words["switch"]:
            yield Button(str(words["switch"]), id="chat-switch")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = chat_request(event.value)
        if text is not None:
            self.app.run_worker(self.seat.client.say(text), exit_on_error=False)
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        flow = self.seat.flow
        name = event.button.id or ""
        if name == "chat-switch":
            self.app.run_worker(self.seat.client.chat_switch(not flow.chat_on), exit_on_error=False)
        elif name.startswith("mute-"):
            seat = int(name.removeprefix("mute-"))
            self.app.run_worker(self.seat.client.mute(seat, seat not in flow.muted), exit_on_error=False)
        self.dismiss(None)
