"""Watching a table in the terminal: ``stepping-stones watch WATCHCODE --server URL``.

A small app of its own: it follows the table by its watch code (``net.client.watch_table``) and
draws, after every change, what the presenter shows a watcher (``flow.presenter.watch``, through
``net.watching.watch_presentation``): whose turn, the seats, the bids, the trick, the finished
tricks with why each was won, each finished hand's deal, the last summary, the sheet, the result.
It words nothing itself but its headings; it holds nobody's cards, having none.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ..flow.presenter import WatchPresentation

if TYPE_CHECKING:
    from ..net.protocol import Watched


def watch_text(shown: WatchPresentation, club: str = "") -> Text:
    """What a watcher is shown, as the terminal draws it: the presenter's lines under headings,
    under the club's line (``net.remote.club_line``) at a club's table."""
    text = Text()
    if club:
        text.append(f"{club}\n", style="bold")
    text.append(f"{shown.title}", style="bold")
    if shown.contract:
        text.append(f"  {shown.contract}")
    text.append(f"\n{shown.status}\n", style="italic")
    if shown.watching:
        text.append(f"{shown.watching}\n", style="dim")
    text.append("\n")
    for seat in shown.seats:
        rating = "" if seat.rating is None else f", rated {seat.rating}"
        tags = "".join(f", {tag}" for tag in seat.tags)
        acting = f"  <- {seat.acting}" if seat.acting else ""
        text.append(f"{seat.label}", style="bold")
        text.append(f" ({seat.words}{rating}{tags}): {seat.cards} cards, {seat.tricks} tricks{acting}\n")
    sections = (
        ("Bids", shown.bids),
        ("Trick", (" ".join(f"{who} {card}" for who, card, _ in shown.trick.cards),) if shown.trick else ()),
        ("Tricks", tuple(t.text for t in shown.tricks if t.text)),
        ("Last hand", shown.summary),
        ("Result", shown.result),
        ("Sheet", shown.sheet),
        ("Deals of the hands played", tuple(line for deal in shown.deals for line in deal)),
    )
    for heading, lines in sections:
        if lines:
            text.append(f"\n{heading}\n", style="bold underline")
            for line in lines:
                text.append(f"{line}\n")
    return text


class WatchApp(App[int]):
    """The table of one watch code, redrawn at every change until it closes."""

    TITLE = "Stepping Stones: watching a table"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, server: str, code: str, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.server = server
        self.code = code
        self.clock = clock
        self.shown: WatchPresentation | None = None
        self.club = ""  # the club's line, at a club's table
        self.watched: Watched | None = None  # the last what-everyone-sees, and when it came
        self.came = 0.0

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("Connecting...", style="italic"), id="watched")
        yield Footer()

    def on_mount(self) -> None:
        self._follow()
        self.set_interval(1.0, self.tick)  # the clock of the person waited for, counting down

    def tick(self) -> None:
        """Draw the table again with the seconds left on its clock now: the server's seconds, less
        the time since they came (as the players' clients count them down)."""
        from ..net.watching import watch_presentation

        watched = self.watched
        waiting = watched.waiting if watched is not None else None
        if watched is None or waiting is None or waiting.seconds is None:
            return
        left = max(0.0, waiting.seconds - (self.clock() - self.came))
        now = watched.model_copy(update={"waiting": waiting.model_copy(update={"seconds": left})})
        shown = watch_presentation(now)
        if shown != self.shown:
            self.shown = shown
            self.query_one("#watched", Static).update(watch_text(shown, self.club))

    @work(exclusive=True, exit_on_error=False)
    async def _follow(self) -> None:
        from ..net.client import Refused, watch_table
        from ..net.protocol import Felt
        from ..net.remote import club_line
        from ..net.watching import watch_presentation

        view = self.query_one("#watched", Static)
        try:
            async for watched in watch_table(self.server, self.code):
                if isinstance(watched, Felt):
                    self.club = club_line(watched.club) if watched.club is not None else ""
                    continue
                self.watched, self.came = watched, self.clock()
                self.shown = watch_presentation(watched)
                view.update(watch_text(self.shown, self.club))
        except Refused as exc:
            view.update(Text(str(exc), style="bold red"))
            return
        view.update(
            Text.assemble(watch_text(self.shown, self.club) if self.shown else "", ("\nThe table has closed.", "bold"))
        )
