"""The server's open tables on Play online (Ctrl+L): the lobby, followed live, to choose from.

Each table the server lists as open to anyone (``net.client.follow_lobby``) is one line: its
invite code, then its rules, who sits there and the seats free, in the presenter's words
(``net.watching.listed_line``, as ``table list`` and the web page's lobby say it).  The list
follows the server: a table comes when it is listed and goes when it fills up, starts or expires,
and the table chosen stays chosen while it is listed.  Enter sits the person at the chosen table
(the screen ends with its code); Escape goes back without one.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..storage.safety import escape
from .widgets import KeyBar, TooSmall

__all__ = ["ListedScreen"]


class ListedScreen(Screen[str | None]):
    """The open tables of ``server``, followed live; dismissed with the chosen table's invite code,
    or None."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="back"),
    ]

    def __init__(self, server: str) -> None:
        super().__init__()
        self.server = server
        self.codes: tuple[str, ...] = ()  # the tables listed now, in the server's order (the newest first)

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="listed"):
            yield Static(Text.assemble(("Open tables", "bold"), f" at {escape(self.server)}"), id="listed-title")
            yield Static(
                "Choose a table with the arrow keys and press Enter to sit there. The list follows the "
                "server: a table leaves it when it fills up, starts or closes.",
                id="listed-how",
            )
            yield OptionList(id="listed-tables")
            yield Static(Text("Asking the server for its open tables...", style="italic"), id="listed-status")
        yield KeyBar(id="listed-keys")

    def on_mount(self) -> None:
        self.query_one("#listed-tables", OptionList).focus()
        self._follow()

    def _say(self, line: str, error: bool = False) -> None:
        self.query_one("#listed-status", Static).update(Text(line, style="bold red" if error else "italic"))

    @work(exclusive=True, exit_on_error=False)
    async def _follow(self) -> None:
        from ..flow.presenter import NO_LISTED
        from ..net.client import Refused, follow_lobby
        from ..net.watching import listed_line

        tables = self.query_one("#listed-tables", OptionList)
        try:
            async for lobby in follow_lobby(self.server):
                chosen = tables.highlighted_option.id if tables.highlighted_option is not None else None
                self.codes = tuple(t.code for t in lobby.tables)
                tables.clear_options()
                tables.add_options(
                    Option(
                        Text.assemble((t.code, "bold"), "  ", escape(listed_line(t.rules, t.seats))),
                        id=t.code,
                    )
                    for t in lobby.tables
                )
                if self.codes:
                    tables.highlighted = self.codes.index(chosen) if chosen in self.codes else 0
                self._say("Enter sits you at the table chosen." if self.codes else NO_LISTED)
        except Refused as exc:
            self._say(str(exc), error=True)
            return
        self._say("The server closed the connection: Escape, then Ctrl+L to look again.", error=True)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def action_back(self) -> None:
        self.dismiss(None)
