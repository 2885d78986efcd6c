"""Small widgets shared by the screens."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


_PLAIN = {"holds": "hold", "leads": "lead", "is": "are", "has": "have", "wins": "win"}


def verb(name: str, third_person: str) -> str:
    """``'holds'``, or ``'hold'`` when the player is called "You"."""
    return _PLAIN.get(third_person, third_person) if name == "You" else third_person


class TooSmall(Static):
    """Shown instead of a screen's content when the terminal is below 80x24."""

    def on_mount(self) -> None:
        self.update_size()

    def update_size(self) -> None:
        w, h = self.app.size
        self.update(
            Text.assemble(
                ("The window is too small for Stepping Stones.\n\n", "bold"),
                f"It needs at least {MIN_WIDTH} columns and {MIN_HEIGHT} rows; "
                f"this one is {w} x {h}.\n\nMake the window larger (or the font smaller) "
                "and the game comes back, exactly where it was.",
            )
        )


class Clickable(Static):
    """A piece of text that reports a click with its ``index`` and ``kind``."""

    class Clicked(Message):
        def __init__(self, kind: str, index: int) -> None:
            super().__init__()
            self.kind = kind
            self.index = index

    def __init__(self, kind: str, index: int, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.kind = kind
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.kind, self.index))
