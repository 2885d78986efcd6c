"""Rich text for cards, tricks and the scoresheet (no widgets here).

Suits are always shown with a letter; the symbol is extra (and replaced in
ASCII mode).  The suit colours are from the Okabe-Ito palette, which stays
distinguishable for the common kinds of colour blindness; since every card
also carries its letter, colour is never the only cue.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..engine import (
    CARD_NAMES,
    NUM_SEATS,
    SUIT_NAMES,
    SUIT_OF,
    SUITS,
    TRICKS,
    Goal,
    PastHand,
    PlayerView,
    contract_points,
)
from ..explain import Teller

SUIT_SYMBOLS = ("✿", "≈", "⌂", "∩")  # blossom, water (koi), lantern, bridge arch
SUIT_ASCII = ("*", "~", "^", "n")
SUIT_COLOURS = ("#CC79A7", "#E69F00", "#F0E442", "#56B4E9")  # Okabe-Ito


class Look:
    """How to draw: symbols or ASCII, colour or not (NO_COLOR is also applied by Textual)."""

    def __init__(self, ascii: bool = False) -> None:
        self.ascii = ascii

    @property
    def symbols(self) -> tuple[str, ...]:
        return SUIT_ASCII if self.ascii else SUIT_SYMBOLS

    @property
    def win_mark(self) -> str:
        return "+" if self.ascii else "★"  # not "*": that is the Cherry Blossoms symbol in ASCII

    @property
    def arrow(self) -> str:
        return "->" if self.ascii else "→"

    @property
    def ellipsis(self) -> str:
        return "~" if self.ascii else "…"

    @property
    def pile(self) -> str:
        return "#" if self.ascii else "▮"

    @property
    def dot(self) -> str:
        return "-" if self.ascii else "·"

    @property
    def sep(self) -> str:
        return " | " if self.ascii else " · "

    def suit(self, suit: int) -> Text:
        return Text(f"{self.symbols[suit]}{SUITS[suit]}", style=f"bold {SUIT_COLOURS[suit]}")

    def suit_name(self, suit: int) -> Text:
        return Text(f"{self.symbols[suit]} {SUIT_NAMES[suit]} ({SUITS[suit]})",
                    style=f"bold {SUIT_COLOURS[suit]}")

    def card(self, c: int, style: str = "") -> Text:
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
    text.append(view.players[hand.declarer], style="bold")
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


def sheet_table(view: PlayerView, look: Look, highlight: int | None = 0,
                names: tuple[str, ...] | None = None) -> Table:
    """The scoresheet: a row per player, a column per contract, then totals and firsts."""
    names = names or view.players
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False, header_style="bold")
    table.add_column("Player", no_wrap=True, max_width=12)
    contracts = view.rules.contracts
    for c in contracts:
        table.add_column(c.label or c.id, justify="right", no_wrap=True)
    table.add_column("Total", justify="right", no_wrap=True)
    table.add_column("1st", justify="right", no_wrap=True)
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
        table.add_row(*row)
    return table


def hand_summary(view: PlayerView, number: int, look: Look | None = None) -> Text:
    """What happened in hand ``number`` (a finished hand) and what it wrote on the sheet, in the
    person's words ("You"), with what a redo changed for whom."""
    hand = view.history[number - 1]
    teller = Teller(view.players, view.seat)
    name = teller.name
    text = Text()
    bid = hand.declaration
    declarer = hand.declarer
    if bid is None or declarer is None or hand.result is None:
        return text
    contract = bid.contract
    text.append(f"Hand {number}\n", style="bold")
    how = "from the puddle " if hand.puddle else ""
    text.append(f"{teller.subject(declarer, 'declared')} {how}{bid.describe()}.\n")
    text.append("Tricks taken: " + ", ".join(f"{name(s)} {hand.tricks_won(s)}" for s in range(NUM_SEATS)) + ".\n")
    count = hand.result
    if contract.first_counted > 1:
        text.append(f"Only tricks {contract.first_counted} to {TRICKS} count: "
                    f"{teller.subject(declarer, 'took')} {count} of them.\n")
    text.append("Written on the sheet: ", style="bold")
    text.append(f"{count} for {teller.object(declarer)} under {contract.name}")
    row = view.sheet[contract.id]
    kept = row[declarer]
    earlier = None
    if bid.redo:
        earlier = next((h.result for h in view.history[: number - 1]
                        if h.declarer == declarer and h.declaration is not None
                        and h.declaration.contract == contract and not h.declaration.redo), None)
        text.append(f" (a redo of {earlier}: the sheet keeps the better result, {kept})")
    text.append(".\n")
    text.append(f"{contract.name} is a {'Win' if contract.goal is Goal.WIN else 'Lose'} contract: "
                f"{'more' if contract.goal is Goal.WIN else 'fewer'} tricks is better.\n")
    pts = view.points(contract.id)
    if pts is not None and earlier is not None:
        before_row = [earlier if s == declarer else row[s] for s in range(NUM_SEATS)]
        before = contract_points(before_row, contract.goal)
        if before is not None:
            arrow = (look or Look()).arrow
            changes = [f"{name(s)} {before[s]:+d} {arrow} {pts[s]:+d}" for s in range(NUM_SEATS)
                       if before[s] != pts[s]]
            text.append(f"{contract.name} is scored again", style="bold")
            text.append(": " + (", ".join(changes) if changes else "the points stay as they were") + ".\n")
            return text
    if pts is not None:
        text.append(f"{contract.name} is now scored", style="bold")
        text.append(" (all three have recorded it: "
                    + ", ".join(f"{name(s)} {row[s]}" for s in range(NUM_SEATS)) + "): "
                    + ", ".join(f"{name(s)} {pts[s]:+d}" for s in range(NUM_SEATS)) + ".\n")
        if len(set(row)) < NUM_SEATS:
            text.append("Tied results share the points of the places they cover.\n")
    else:
        missing = [s for s in range(NUM_SEATS) if row[s] is None]
        who = " and ".join(teller.object(s) for s in missing)
        text.append(f"{contract.name} is scored once {who} "
                    f"{'have' if len(missing) > 1 or missing == [view.seat] else 'has'} recorded it too.\n")
    return text


def result_text(view: PlayerView) -> Text:
    """The winner(s), and how a tie on totals was broken."""
    totals = view.totals()
    firsts = view.firsts()
    winners = view.winners()
    name = view.players
    text = Text()
    if not winners:
        return text
    names = [name[s] for s in winners]
    if len(winners) == 1:
        text.append(f"{names[0]} wins with {totals[winners[0]]} points.\n", style="bold")
    else:
        text.append(f"{' and '.join(names)} share the win with {totals[winners[0]]} points each.\n",
                    style="bold")
    top = max(totals)
    tied = [s for s in range(NUM_SEATS) if totals[s] == top]
    if len(tied) > 1:
        parts = ", ".join(f"{name[s]} {firsts[s]}" for s in tied)
        text.append(f"The top total was tied, so the firsts decide (contracts placed first in: {parts}). ")
        if len(winners) == 1:
            text.append(f"{names[0]} placed first more often.\n")
        else:
            text.append("That is level too, so the win is shared.\n")
    text.append("Totals: " + ", ".join(f"{name[s]} {totals[s]}" for s in range(NUM_SEATS)) + ".\n")
    return text
