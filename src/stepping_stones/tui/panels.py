"""The panels of the table, each a widget that draws from the flow's one immutable ``TableState``.

The table screen holds the state as one reactive (``TableScreen.state``) and the look (symbols
or ASCII) as another; each panel is bound to both (``data_bind``) and draws itself again when
either changes, or when its size does.  A panel draws a ``Scene``: the state with the look and
the players' names cut to fit, through the pure functions of ``tui.drawing``.  No panel reads
the game, and none keeps anything of its own but what it drew.  The panels of text are here;
the person's cards are ``tui.hand_panel``, the person's bid ``tui.bid_panel``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..engine import PastHand
from ..flow import TableState
from .drawing import Scene, history_text, log_text, table_canvas, target_text, top_bar_text, tracker_text
from .render import Look, sheet_table
from .widgets import Shown


class Bound(Widget):
    """A part of the table bound to the screen's state and look (``data_bind``).  It comes after
    the widget class in a panel's bases: Textual's CSS follows the first base (``Static``, ...)."""

    state: reactive[TableState | None] = reactive(None, repaint=False)
    look: reactive[Look] = reactive(Look, repaint=False)

    rests_when_hidden = False
    """A panel of the side column (hidden in a narrow window) draws nothing while it is not on
    the screen, once it has been drawn: Textual sends a widget that comes into view a ``Resize``,
    and it is drawn then, from the state of that moment."""
    _drawn_once = False

    def watch_state(self) -> None:
        self.redraw()

    def watch_look(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        if self.state is None or (self.rests_when_hidden and self._drawn_once and not self.region):
            return
        self._drawn_once = True
        self.draw_scene(Scene(self.state, self.look))

    def draw_scene(self, scene: Scene) -> None:
        raise NotImplementedError


class Panel(Shown, Bound):
    """A part of the table drawn as one piece of text."""

    def draw_scene(self, scene: Scene) -> None:
        self.show(self.draw(scene))

    def draw(self, state: Scene) -> RenderableType:
        raise NotImplementedError


class TopBar(Panel):
    def draw(self, state: Scene) -> RenderableType:
        return top_bar_text(state)


class SheetPanel(Panel):
    """The scoresheet, a rich ``Table``: drawn again only when what it shows changed (at the end
    of a hand), since a table, unlike a text, cannot be compared with the one on screen."""

    shows: tuple[object, ...] | None = None

    def draw_scene(self, scene: Scene) -> None:
        view = scene.view
        shows = (view.rules, tuple(view.sheet.items()), view.redone(), scene.names, scene.look)
        if shows != self.shows:
            self.shows = shows
            self.show(self.draw(scene))

    def draw(self, state: Scene) -> RenderableType:
        return sheet_table(state.view, state.look, names=state.names)


class TargetPanel(Panel):
    def draw(self, state: Scene) -> RenderableType:
        return target_text(state)


class TablePanel(Panel):
    """The card table: the opponents on their sides, the person at the bottom, each card of the
    trick in front of the one who played it, the leader and the winning card marked, and why the
    last trick was won."""

    def draw(self, state: Scene) -> RenderableType:
        width = max(40, self.size.width or 76)
        height = max(9, self.size.height or 11)
        return table_canvas(state, width, height)


class LogPanel(Panel):
    """What happened, newest last, as many events as the panel has rows (app.tcss sets its height
    by the window's); a refused action of the person's, or the hint they asked for, on top until
    they act.  A hint too long for the rows there are is given in brief (the whole of it is one
    more press of i away)."""

    def draw(self, state: Scene) -> RenderableType:
        height = max(1, self.size.height or 2)
        width = max(20, self.size.width or 78)
        return log_text(state, width, height, self.app.console)


class NoticePanel(Panel):
    def draw(self, state: Scene) -> RenderableType:
        if not state.table.problem:
            return Text("")
        return Text(
            f"This game is not being saved: {state.table.problem}. It goes on, but it is lost when you quit.",
            style="bold",
        )


class TrackerPanel(Panel):
    rests_when_hidden = True

    def draw_scene(self, scene: Scene) -> None:
        self.show(self.draw(scene), layout=True)  # its height follows its lines (a long "Shown out" wraps)

    def draw(self, state: Scene) -> RenderableType:
        return tracker_text(state)


@dataclass(frozen=True)
class PastScene(Scene):
    """A scene whose hand is a finished one (a hand's summary shows its tricks)."""

    past: PastHand | None = None

    @cached_property
    def hand(self) -> PastHand | None:
        return self.past


class HistoryPanel(Panel):
    rests_when_hidden = True
    fit = True  # show the newest tricks that fit the panel (False: all of them, in a scrolling box)
    past: PastHand | None = None  # a finished hand to show rather than the table's (from its summary)

    def draw_scene(self, scene: Scene) -> None:
        self.show(self.draw(scene if self.past is None else PastScene(scene.table, scene.look, self.past)))

    def draw(self, state: Scene) -> RenderableType:
        width = max(30, self.size.width or 60)
        height = max(3, self.size.height) if self.fit and self.size.height else None
        return history_text(state, width, height, self.app.console)
