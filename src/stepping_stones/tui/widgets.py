"""Small widgets shared by the screens."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual._context import active_app
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scrollbar import ScrollBarRender
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24

CARD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "=")
"""The key that picks each card of the person's hand, left to right."""


class _WholeCells(ScrollBarRender):
    """A scrollbar of whole cells only (a thumb of spaces in reverse): no block characters."""

    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8


class Scrollbars(ScrollBarRender):
    """Textual's scrollbars, except in an app drawn in ASCII only (the ``-ascii`` class): there
    the thumb's finer ends, block characters such as ``▆``, are left out (``_WholeCells``).
    ``app.py`` makes it every scrollbar's renderer."""

    @classmethod
    def render_bar(cls, *args: Any, **kwargs: Any) -> Any:
        app = active_app.get(None)
        if app is not None and app.has_class("-ascii"):
            return _WholeCells.render_bar(*args, **kwargs)
        return super().render_bar(*args, **kwargs)


class TooSmall(Static):
    """Shown instead of a screen's content when the terminal is below 80x24."""

    def on_mount(self) -> None:
        self.update_size()

    def update_size(self, size: Size | None = None) -> None:
        w, h = size or self.app.size
        self.update(
            Text.assemble(
                ("The window is too small for Stepping Stones.\n\n", "bold"),
                f"It needs at least {MIN_WIDTH} columns and {MIN_HEIGHT} rows; "
                f"this one is {w}x{h}.\n\nMake the window larger (or the font smaller) "
                "and the game comes back, exactly where it was.",
            )
        )


class SolverNotice(Static):
    """While the exact solver is being compiled (its first use after an install), a line in the
    screen's own layout (it covers nothing: the hint's lines, the cards) that says so, how long
    it has taken so far, and what is slower meanwhile; hidden otherwise.  The app shows the
    wait (``show_wait``) each second while it lasts, and ends it when compiling does."""

    def on_mount(self) -> None:
        self.show_wait(getattr(self.app, "solver_since", None))

    def show_wait(self, since: float | None, now: float | None = None) -> None:
        """Show the wait that began at ``since`` (``time.monotonic``), or hide it (None)."""
        if since is None:
            self.display = False
            return
        import time

        seconds = int((now if now is not None else time.monotonic()) - since)
        self.update(
            Text(
                f"Preparing the exact solver ({seconds} s so far; once, after an install): until it is "
                "ready, hints and the computer players take longer.",
                style="bold",
            )
        )
        self.display = True


class KeyBar(Static):
    """The keys of the screen in one line at the bottom, drawn like Textual's footer; a click on a
    key presses it.

    One widget instead of a footer of one widget per key, whose keys only appear a refresh
    after the rest of the screen: the setup screen, the first screen of the app, uses it so that
    it is drawn whole, and sooner; the table uses it because its keys change with nearly every
    card (Undo comes and goes), and Textual's footer mounts and styles a widget per key each time.
    The keys are the screen's active bindings, as in the footer: those of the focused widget, the
    screen and the app that are shown, one per action, in order, as many as fit whole (a disabled
    one dim), and the command palette's at the right where there is room for it.
    """

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keybar--key", "keybar--description"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self._spans: list[tuple[int, int, str]] = []  # (start, end, key) of each key drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda _: self.refresh())

    def _keys(self) -> tuple[list[tuple[Binding, bool]], tuple[Binding, bool] | None]:
        """The keys to show, each with whether it is drawn bright (else dim), and the palette's.
        A screen with a ``footer_key(action)`` method chooses how each key shows: True as it is,
        None dim, False not at all."""
        active = self.screen.active_bindings
        footer_key = getattr(self.screen, "footer_key", None)
        shown: dict[str, tuple[Binding, bool]] = {}
        for _, binding, enabled, _ in active.values():
            if not binding.show or binding.action in shown:
                continue
            how = footer_key(binding.action) if footer_key is not None else True
            if how is not False:
                shown[binding.action] = (binding, enabled and how is True)
        palette = active.get(self.app.COMMAND_PALETTE_BINDING) if self.app.ENABLE_COMMAND_PALETTE else None
        return list(shown.values()), (palette.binding, palette.enabled) if palette else None

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key", partial=True)
        description_style = self.get_component_rich_style("keybar--description", partial=True)
        keys, palette = self._keys()
        text = Text(no_wrap=True, overflow="crop", end="")
        spans: list[tuple[int, int, str]] = []
        width = self.size.width
        labels = [f"{self.app.get_key_display(binding)} {binding.description}" for binding, _ in keys]
        # a space after each key's words where all fit so; none where that makes room for more
        tail = " " if sum(cell_len(f" {label} ") for label in labels) <= width else ""

        def add(binding: Binding, enabled: bool, at: Text, tail: str) -> None:
            start = at.cell_len
            at.append(f" {self.app.get_key_display(binding)} ", key_style)
            at.append(binding.description + tail, description_style)
            if not enabled:
                at.stylize("dim", start)
            spans.append((start, at.cell_len, binding.key.split(",")[0]))

        for (binding, enabled), label in zip(keys, labels, strict=True):
            if text.cell_len + cell_len(f" {label}{tail}") > width:
                break  # in order, each whole: none cut in half at the edge
            add(binding, enabled, text, tail)
        if palette is not None:
            right = Text()
            add(palette[0], palette[1], right, " ")
            room = width - text.cell_len - right.cell_len
            if room > 0:
                start = text.cell_len + room
                text.append(" " * room)
                text.append_text(right)
                spans[-1] = (start + spans[-1][0], start + spans[-1][1], spans[-1][2])
            else:
                spans.pop()  # not drawn: no room for it
        self._spans = spans
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(key)
                return


def _text_key(text: Text) -> tuple[object, ...]:
    """All that a rich ``Text`` draws (its ``==`` compares the characters and spans only)."""
    return (text.plain, text.spans, text.style, text.justify, text.overflow, text.no_wrap, text.end)


class Shown(Static):
    """Text that is put on the screen only when it changed: most changes of the state change a
    panel or two, and every ``update`` makes Textual draw the panel again.

    ``show(drawn, layout=True)`` is for a widget whose height follows its text: the screen is
    laid out again only when the new text needs another height than the widget has.  A layout
    costs about as much as drawing the whole screen, and most new texts (the card tracker after
    every card, say) keep their height.  A widget not on the screen (in a hidden side panel, or
    not laid out yet) is measured by the layout that shows it."""

    drawn: RenderableType | None = None

    def show(self, drawn: RenderableType, layout: bool = False) -> None:
        if isinstance(drawn, Text) and isinstance(self.drawn, Text) and _text_key(drawn) == _text_key(self.drawn):
            return
        self.drawn = drawn
        self.update(drawn, layout=False)
        if layout and self._height_changed():
            self.refresh(layout=True)

    def _height_changed(self) -> bool:
        if not self.region:
            return False
        size = self.content_size
        return self.get_content_height(size, self.app.size, size.width) != size.height


class Clickable(Shown):
    """A piece of text that reports a click with its ``index`` and ``kind``."""

    class Clicked(Message):
        def __init__(self, kind: str, index: int) -> None:
            super().__init__()
            self.kind = kind
            self.index = index

    def __init__(self, kind: str, index: int, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.kind = kind
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.kind, self.index))


class Choice(Static, can_focus=True):
    """A labelled one-line choice among a few values: Left/Right (or a click) moves through them.

    The label is drawn by the choice itself, so a row of the setup screen is one widget: much
    lighter than a Select (an overlay of several widgets), or a label and a choice in a row, so
    the setup screen appears quickly.  A click on ``<`` goes back, a click on the value forward,
    a click on the label only moves the focus here.
    """

    BINDINGS = [
        ("left", "move(-1)", "Previous"),
        ("right,space", "move(1)", "Next"),
    ]
    COMPONENT_CLASSES = {"choice--value"}

    class Changed(Message):
        def __init__(self, choice: Choice, value: str) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(
        self, label: str, options: list[tuple[str, str]], value: str, *, label_width: int = 13, **kwargs: Any
    ) -> None:
        super().__init__("", **kwargs)
        self.label = label
        self.label_width = max(label_width, len(label) + 1)
        self.options = list(options)
        self.index = next((i for i, (_, v) in enumerate(self.options) if v == value), 0)

    @property
    def value(self) -> str:
        return self.options[self.index][1]

    @value.setter
    def value(self, value: str) -> None:
        self.index = next((i for i, (_, v) in enumerate(self.options) if v == value), 0)
        self.refresh()

    def set_options(self, options: list[tuple[str, str]], value: str) -> None:
        self.options = list(options)
        self.value = value

    def render(self) -> Text:
        shown = Text.assemble(("<", "dim"), self.options[self.index][0], (">", "dim"))
        shown.pad_right(self.size.width - self.label_width - shown.cell_len)  # the highlight spans the row
        shown.stylize(self.get_component_rich_style("choice--value", partial=True))
        return Text.assemble(self.label.ljust(self.label_width), shown, no_wrap=True, end="")

    def action_move(self, step: int) -> None:
        if self.disabled:
            return
        self.index = (self.index + step) % len(self.options)
        self.refresh()
        self.post_message(self.Changed(self, self.value))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        if event.x >= self.label_width:
            self.action_move(-1 if event.x <= self.label_width + 1 else 1)
