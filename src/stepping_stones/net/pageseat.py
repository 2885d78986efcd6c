"""A web page's seat: the server runs the seat's flow and sends what the person is shown.

The terminal clients run a ``RemoteFlow`` on their own machine and draw its states through the
presenter (``flow.presenter``).  A page (``Hello.page``) is given the same: the server keeps a
``RemoteFlow`` for the seat, fed the very states a terminal client would be sent, and sends the
page the presentation of each (``Shown``).  The page draws it, and sends back what the person did
in the presentation's own words (``Do``): a card, a bid, a claim, a summary closed, a hint, the
seat taken back.  So the page words nothing and decides no rule: the turn, the clock, the
refusals, the summaries and the stand-ins are the ones the app and plain mode show.

The flow's actions (what it would send to a server) are held in ``outbox`` for the tables to make
(``Tables.do``).  Everything here is a pure function of the seat's states, which hold only what the
seat may see.

May import: the flow, the engine's face, the explain package, the AI's analysis, and this
package's protocol and remote flow.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Final

from pydantic import TypeAdapter

from ..engine import Phase
from ..flow.presenter import Presentation, again_line, chat_words, present
from .protocol import Felt, Invite, Said, StateMessage, Welcome
from .remote import RemoteFlow, lobby_words

TAKE_BACK: Final = 'tap "Take my seat back"'
_ADAPTER: Final = TypeAdapter(Presentation)
CHAT_KEPT: Final = 30
"""The lines said at the table that a page's chat panel shows (the newest last)."""


class PageSeat:
    """One page's seat at a table (see the module's docstring)."""

    def __init__(self, welcome: Welcome, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.outbox: list[tuple[str, int]] = []
        self.flow = RemoteFlow(
            welcome, self._queue, file_games=False, auto_last_card=True, take_back=TAKE_BACK, clock=clock
        )
        self.invite: Invite | None = None
        self.asked_again = False
        self.analysis: tuple[str, ...] = ()
        self._last: str | None = None
        self.chat_on = True  # the table's chat, as this seat has it (``chat_status``)
        self.chat_opener = welcome.opener  # the seat may turn the table's chat on or off
        self.chat_lines: deque[str] = deque(maxlen=CHAT_KEPT)  # what was said, in the flow's words
        self.felt: Felt | None = None  # the club and its logo on the felt (``net/logos.py``)

    def reconnected(self) -> None:
        """A new connection for the seat (a reload, a drop): it is sent what it is shown whole,
        and its flow, with the events told so far and their numbers, goes on."""
        self._last = None
        self.outbox.clear()
        if self.flow.started:
            self.flow.rejoined()

    def _queue(self, token: str, seq: int) -> None:
        self.outbox.append((token, seq))

    def take(self) -> list[tuple[str, int]]:
        """The actions the flow made since last asked, to be made at the table."""
        out, self.outbox = self.outbox, []
        return out

    def receive(self, state: StateMessage) -> None:
        """The seat's state, as a terminal client would be sent it."""
        self.flow.receive(state)
        self.step()

    def step(self) -> None:
        """Let the flow move on: a summary to show, the end of the game, the last card of a hand."""
        if self.flow.started:
            self.flow.next_step()

    def presentation(self) -> Presentation | None:
        if not self.flow.started:
            return None
        shown = present(self.flow.state)
        if self.invite is not None and shown.over:
            shown = replace(shown, result=(*shown.result, again_line(self.invite.by, self.asked_again)))
        return shown

    def lobby(self) -> dict[str, object] | None:
        """The table before it starts: each seat in a line, and what the person may do."""
        message = self.flow.message
        if message is None or message.started:
            return None
        mine = self.flow.seat
        lines = []
        for seat, facts in enumerate(message.seats):
            who = "you" if seat == mine else (facts.name or "open")
            lines.append(f"Seat {seat + 1}: {who} ({lobby_words(facts)})")
        free = sum(1 for f in message.seats if f.kind == "open")
        return {
            "seats": lines,
            "start": self.flow.welcome.opener and free > 0,
            "note": "The game starts when every seat is taken." if free else "Everyone is here: the game starts.",
        }

    def said(self, said: Said) -> None:
        """A line said at the table: told by the flow, as a terminal client's flow tells it, and
        kept for the chat panel."""
        line = self.flow.said(said.seat, said.name, said.text)
        self.chat_lines.append(line)

    def chat_status(self, on: bool, muted: list[int], opener: bool) -> None:
        self.flow.chat_status(on, muted)
        self.chat_on = on
        self.chat_opener = opener

    def chat(self) -> dict[str, object]:
        """The chat panel: its words (``presenter.chat_words``), the lines said, and the other seats
        that may be muted or heard again."""
        words = chat_words(self.chat_on, self.chat_opener)
        words["lines"] = list(self.chat_lines)
        words["seats"] = self.flow.mute_choices()
        return words

    def shown_text(self, force: bool = False) -> str | None:
        """The ``shown`` message for the seat now, or None when it says what the last one said."""
        shown = self.presentation()
        body = "null" if shown is None else _ADAPTER.dump_json(shown).decode()
        extra = {
            "again": self.invite.code if self.invite is not None else None,
            "analysis": list(self.analysis),
            "lobby": self.lobby(),
            "chat": self.chat(),
            "felt": self.felt.model_dump(exclude={"type"}) if self.felt is not None else None,
        }
        text = f'{{"type":"shown","shown":{body},"page":{json.dumps(extra, separators=(",", ":"))}}}'
        if text == self._last and not force:
            return None
        self._last = text
        return text

    @property
    def playing(self) -> bool:
        view = self.flow.state.view if self.flow.started else None
        return view is not None and view.phase is Phase.PLAY
