"""The person's cards on the table: a row of cards, with the key that picks each one, that a
click plays (drawn by ``tui.drawing.hand_text``)."""

from __future__ import annotations

from textual import events

from .drawing import Scene, hand_text
from .panels import Bound
from .widgets import Clickable, Shown


class HandPanel(Shown, Bound):
    """The person's cards as a row of cards, with the key that picks each one.

    Playable cards are underlined, cards that may not be played are dimmed, and the chosen one is
    reversed with its key in brackets, so nothing depends on colour alone.  A click plays a card.
    The cards are as large as the panel's height allows (app.tcss sets it by the window's height).
    """

    count = 0  # what was drawn: how many cards, and the columns of each (for a click)
    cell = 4

    def draw_scene(self, state: Scene) -> None:
        height = self.size.height or 3
        width = self.size.width or 78
        self.count = len(state.my_cards)
        text, self.cell = hand_text(state, width, height)
        self.show(text)

    def offset_of(self, index: int) -> tuple[int, int]:
        """Where to click for the card at ``index`` (for the tests, and the docs)."""
        return 1 + index * self.cell + 1, 1

    def on_click(self, event: events.Click) -> None:
        index = (event.x - 1) // self.cell
        if 0 <= index < self.count and (event.x - 1) % self.cell != self.cell - 1:
            event.stop()
            self.post_message(Clickable.Clicked("card", index))
