"""Rich text for cards, tricks and the scoresheet (no widgets here).

Suits are always shown with a letter; the symbol is extra (and replaced in
ASCII mode).  The suit colours are from the Okabe-Ito palette, which stays
distinguishable for the common kinds of colour blindness; since every card
also carries its letter, colour is never the only cue.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from rich.table import Table
from rich.text import Text

from ..engine import (
    CARD_NAMES,
    NUM_SEATS,
    SUIT_NAMES,
    SUIT_OF,
    SUITS,
    TRICKS,
    Card,
    PastHand,
    PlayerView,
    Seat,
)
from ..explain import result_lines, short_names, summary_lines

SUIT_SYMBOLS = ("✿", "≈", "⌂", "∩")  # blossom, water (koi), lantern, bridge arch
SUIT_ASCII = ("*", "~", "^", "n")
SUIT_COLOURS = ("#CC79A7", "#E69F00", "#F0E442", "#56B4E9")  # Okabe-Ito
NAME_WIDTH = 12  # the players' names on the table and the sheets (``explain.short_names``)


class Marks(NamedTuple):
    """The marks a screen draws with, in one alphabet: symbols, or ASCII."""

    symbols: tuple[str, ...]  # the suits'
    win_mark: str
    arrow: str
    ellipsis: str
    down: str  # the mark of a box with more below
    dot: str
    sep: str


SYMBOL_MARKS: Final = Marks(SUIT_SYMBOLS, "★", "→", "…", "↓", "·", " · ")
# the win mark is "+", not "*": that is the Cherry Blossoms symbol in ASCII
ASCII_MARKS: Final = Marks(SUIT_ASCII, "+", "->", "~", "v", "-", " | ")


class Look:
    """How to draw: symbols or ASCII, colour or not (NO_COLOR is also applied by Textual).  Its
    marks (``Marks``) are ``look.arrow``, ``look.sep`` and so on."""

    def __init__(self, ascii: bool = False) -> None:
        self.ascii = ascii
        marks = ASCII_MARKS if ascii else SYMBOL_MARKS
        self.symbols, self.win_mark, self.arrow, self.ellipsis, self.down, self.dot, self.sep = marks

    def suit(self, suit: int) -> Text:
        return Text(f"{self.symbols[suit]}{SUITS[suit]}", style=f"bold {SUIT_COLOURS[suit]}")

    def suit_name(self, suit: int) -> Text:
        return Text(f"{self.symbols[suit]} {SUIT_NAMES[suit]} ({SUITS[suit]})", style=f"bold {SUIT_COLOURS[suit]}")

    def card(self, c: Card, style: str = "") -> Text:
        """``✿C7``: symbol, letter and rank."""
        suit = SUIT_OF[c]
        return Text(f"{self.symbols[suit]}{CARD_NAMES[c]}", style=f"bold {SUIT_COLOURS[suit]} {style}".strip())


def contract_line(view: PlayerView, hand: PastHand | None, look: Look) -> Text:
    """The declared contract of ``hand`` (the hand on the table), for the table's header."""
    text = Text()
    if hand is None:
        return text
    bid = hand.declaration
    if bid is None or hand.declarer is None:
        text.append(f"Hand {hand.number}: bidding", style="bold")
        return text
    contract = bid.contract
    # a header line has room for longer names than the sheet's column, told apart the same way
    text.append(short_names(view.players, 2 * NAME_WIDTH, look.ellipsis)[hand.declarer], style="bold")
    text.append(" declared ")
    text.append(contract.name, style="bold")
    if bid.redo:
        text.append(" (redo)")
    if hand.puddle:
        text.append(" from the puddle")
    text.append(f"\n{bid.ranking} high")
    if bid.trump is not None:
        text.append(look.sep + "trump ")
        text.append_text(look.suit(bid.trump))
    else:
        text.append(look.sep + "no trump")
    if not hand.all_played:
        text.append(f"{look.sep}trick {len(hand.trick_winners) + 1} of {TRICKS}")
    else:
        text.append(f"{look.sep}all {TRICKS} tricks played")
    return text


def sheet_table(
    view: PlayerView, look: Look, highlight: Seat | None = 0, names: tuple[str, ...] | None = None
) -> Table:
    """The scoresheet: a row per player, a column per contract, then totals and firsts.  Long
    names are shortened as on the table (``short_names``), so that they stay different."""
    names = names or short_names(view.players, NAME_WIDTH, look.ellipsis)
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False, header_style="bold")
    table.add_column("Player", no_wrap=True, max_width=NAME_WIDTH)
    contracts = view.rules.contracts
    for c in contracts:
        table.add_column(c.label or c.id, justify="right", no_wrap=True)
    table.add_column("Total", justify="right", no_wrap=True)
    table.add_column("1st", justify="right", no_wrap=True)
    tokens = view.rules.redo_tokens
    if tokens:
        table.add_column("Redo", no_wrap=True)  # who still holds a redo token
    redo = view.redone()
    totals = view.totals()
    firsts = view.firsts()
    for seat in range(NUM_SEATS):
        row: list[Text] = [Text(names[seat], style="bold" if seat == highlight else "")]
        for c in contracts:
            value = view.sheet[c.id][seat]
            cell = Text()
            if value is None:
                cell.append(look.dot, style="dim")
            else:
                cell.append(str(value), style="bold")
                if (c.id, seat) in redo:
                    cell.append("r", style="italic")
                pts = view.points(c.id)
                if pts is not None:
                    cell.append(f" {pts[seat]:+d}", style="italic")
            row.append(cell)
        row.append(Text(str(totals[seat]), style="bold"))
        row.append(Text(str(firsts[seat])))
        if tokens:
            row.append(Text("used", style="dim") if view.redo_spent[seat] else Text("held"))
        table.add_row(*row)
    return table


def hand_summary(view: PlayerView, number: int, look: Look | None = None) -> Text:
    """What happened in hand ``number`` and what it wrote on the sheet (``explain.summary_lines``),
    its title in bold."""
    lines = summary_lines(view, number, (look or Look()).arrow)
    text = Text()
    for i, line in enumerate(lines):
        text.append(line + "\n", style="bold" if i == 0 else "")
    return text


def result_text(view: PlayerView) -> Text:
    """The winner(s), how a tie on totals was broken, and the totals (``explain.result_lines``)."""
    text = Text()
    for i, line in enumerate(result_lines(view)):
        text.append(("\n" if i else "") + line, style="bold" if i == 0 else "")
    return text
