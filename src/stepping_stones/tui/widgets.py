"""Small widgets shared by the screens."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24

CARD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "=")
"""The key that picks each card of the person's hand, left to right."""


_PLAIN = {"holds": "hold", "leads": "lead", "is": "are", "has": "have", "wins": "win"}


def verb(name: str, third_person: str) -> str:
    """``'holds'``, or ``'hold'`` when the player is called "You"."""
    return _PLAIN.get(third_person, third_person) if name == "You" else third_person


class TooSmall(Static):
    """Shown instead of a screen's content when the terminal is below 80x24."""

    def on_mount(self) -> None:
        self.update_size()

    def update_size(self, size=None) -> None:
        w, h = size or self.app.size
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


CARD_WIDTH = 6  # five columns per card and one between


class HandView(Static):
    """The person's cards in one row, each with the key that picks it underneath.

    Legal cards are underlined, cards that may not be played
    are dimmed, and the chosen card is reversed with its key in brackets, so
    nothing depends on colour alone.
    """

    def show(self, cards: list[int], legal: int, cursor: int | None, playing: bool, look) -> None:
        self.count = len(cards)
        top = Text()
        bottom = Text()
        for i, c in enumerate(cards):
            ok = not playing or bool(legal >> c & 1)
            if playing and i == cursor:
                style = "reverse bold underline" if ok else "reverse dim"
            elif playing and not ok:
                style = "dim"
            elif playing:
                style = "underline"  # playable: underlined, a cue that needs no colour
            else:
                style = ""
            label = look.card(c)
            label.stylize(style)
            top.append(" ", style=style)
            top.append_text(label)
            top.append(" ", style=style)
            top.append(" ")
            key = f"[{CARD_KEYS[i]}]" if playing and i == cursor else f" {CARD_KEYS[i]} "
            bottom.append(f" {key}  ", style="bold" if playing and i == cursor else "dim")
        self.update(Text.assemble(top, "\n", bottom), layout=False)

    def on_click(self, event: events.Click) -> None:
        index = event.x // CARD_WIDTH
        if 0 <= index < getattr(self, "count", 0) and event.x % CARD_WIDTH != CARD_WIDTH - 1:
            event.stop()
            self.post_message(Clickable.Clicked("card", index))


class Choice(Static, can_focus=True):
    """A one-line choice among a few values: Left/Right (or a click) moves through them.

    Much lighter than a Select (which builds an overlay of several widgets), so
    the setup screen appears quickly.
    """

    BINDINGS = [
        ("left", "move(-1)", "Previous"),
        ("right,space", "move(1)", "Next"),
    ]

    class Changed(Message):
        def __init__(self, choice: Choice, value: str) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(self, options: list[tuple[str, str]], value: str, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.options = list(options)
        self.index = next((i for i, (_, v) in enumerate(self.options) if v == value), 0)

    @property
    def value(self) -> str:
        return self.options[self.index][1]

    @value.setter
    def value(self, value: str) -> None:
        self.index = next((i for i, (_, v) in enumerate(self.options) if v == value), 0)
        self._show()

    def set_options(self, options: list[tuple[str, str]], value: str) -> None:
        self.options = list(options)
        self.value = value

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        label = self.options[self.index][0]
        self.update(Text.assemble(("<", "dim"), label, (">", "dim")))

    def action_move(self, step: int) -> None:
        if self.disabled:
            return
        self.index = (self.index + step) % len(self.options)
        self._show()
        self.post_message(self.Changed(self, self.value))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.action_move(-1 if event.x <= 1 else 1)
