"""The person's bid, in place of the card table while they bid: the bids so far, the bid list,
the ranking and trump chips, and what Enter does (the words from ``tui.drawing``)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ..engine import CONTRACTS
from ..game.choices import HUMAN
from .drawing import Scene, bid_hint_text, bid_log_text
from .panels import Bound
from .widgets import Clickable


class BidPanel(Vertical, Bound):
    """The person's bid, in place of the card table while they bid: the bids so far, the bid
    list (a click chooses, a second click declares), the ranking and trump chips, and what
    Enter does."""

    def compose(self) -> ComposeResult:
        yield Static(id="bidlog")
        with Horizontal(id="bidrow"):
            with Vertical(id="bidopts"):
                for i in range(5):
                    yield Clickable("bid", i, classes="bidopt")
            with Vertical(id="bidchoices"):
                yield Static("Ranking (keys 9, 1)", classes="choicelabel")
                with Horizontal(classes="chips"):
                    yield Clickable("rank", 9, classes="chip")
                    yield Clickable("rank", 1, classes="chip")
                yield Static("Trump (keys c, k, l, b)", id="trumplabel", classes="choicelabel")
                with Horizontal(classes="chips", id="trumpchips"):
                    for s in range(4):
                        yield Clickable("trump", s, classes="chip")
        yield Static(id="bidhint")

    def draw_scene(self, scene: Scene) -> None:
        table = scene.table
        if not table.bidding or not self.children:
            return
        look, view = scene.look, scene.view
        opts = table.bid_options
        chosen = table.bid
        self.query_one("#bidlog", Static).update(bid_log_text(scene))
        for i, w in enumerate(self.query(".bidopt").results(Clickable)):
            if i < len(opts):
                cid, redo = opts[i]
                w.display = True
                if cid is None:
                    label = "Pass"
                else:
                    c = CONTRACTS[cid]
                    label = c.name
                    if redo:
                        label = f"Redo {c.name} (sheet: {view.sheet[cid][HUMAN]})"
                marker = ">" if i == chosen.index else " "
                w.show(Text(f"{marker} {label}"))  # one line in a column of fixed width: no layout
                w.set_class(i == chosen.index, "-selected")
            else:
                w.display = False
        cid, _ = opts[chosen.index] if opts else (None, False)
        picks = cid is not None and CONTRACTS[cid].picks_trump
        for w in self.query(".chip").results(Clickable):
            on = w.index == (chosen.ranking if w.kind == "rank" else chosen.trump)
            mark = ("(*)" if look.ascii else "◉") if on else ("( )" if look.ascii else "○")
            if w.kind == "rank":
                w.show(Text(f"{mark} {w.index} high"))  # marked or not, the same width: no layout
            else:
                w.show(Text.assemble(f"{mark} ", look.suit(w.index)))
            w.set_class(on, "-selected")
        self.query_one("#trumpchips").display = picks
        self.query_one("#trumplabel").display = picks
        self.query_one("#bidhint", Static).update(bid_hint_text(scene, cid))
