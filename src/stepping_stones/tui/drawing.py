"""The table drawn as text: pure functions from a ``Scene`` (a ``TableState`` with the look and
the names cut to fit) to rich ``Text``, for the panels (``tui.panels``, ``tui.hand_panel``,
``tui.bid_panel``) and the dialogs.  Nothing here is a widget or keeps anything: the same scene
and size give the same text, so the tests draw them without an app.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rich.console import Console
from rich.text import Text

from ..engine import (
    CARD_NAMES,
    CONTRACTS,
    HAND_SIZE,
    NUM_SEATS,
    SUIT_OF,
    SUITS,
    PastHand,
    Phase,
    PlayerView,
    Trick,
    parse_card,
)
from ..explain import Teller, plural, short_names
from ..flow import TableState
from ..flow.presenter import (
    Presentation,
    present,
    seat_caption,
    status_line,
    table_line,
    tracker,
    trick_lines,
    turn_prompt,
    watchers_line,
)
from ..game.choices import HUMAN
from .render import NAME_WIDTH, SUIT_COLOURS, Look
from .widgets import CARD_KEYS

POINTER = " (i: all of it)"
"""Ends a hint given in brief: the key that shows the whole of it."""


@dataclass(frozen=True)
class Scene:
    """A ``TableState`` as the panels draw it: with the look, and the names short enough for
    the panels (still told apart).  Made for each drawing; nothing is kept in it."""

    table: TableState
    look: Look

    @property
    def view(self) -> PlayerView:
        return self.table.view

    @cached_property
    def hand(self) -> PastHand | None:
        return self.view.shown_hand()

    @cached_property
    def presented(self) -> Presentation:
        """What the presenter shows the person (``flow.presenter.present``): the panels draw it."""
        return present(self.table)

    @cached_property
    def names(self) -> tuple[str, ...]:
        return short_names(self.view.players, NAME_WIDTH, self.look.ellipsis)

    @property
    def teller(self) -> Teller:
        return Teller(self.names, HUMAN)

    @cached_property
    def my_cards(self) -> list[int]:
        return self.table.my_cards

    @property
    def playing(self) -> bool:
        return self.table.playing

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(event.text for event in self.table.log)

    @property
    def hint_brief(self) -> str | None:
        """The hint in a line or two, for a log too small for all of it."""
        hint = self.table.hint
        return None if hint is None else f"Hint: {hint.brief}{POINTER}"


# --- small cards ---------------------------------------------------------------------


def box(look: Look) -> tuple[str, str, str, str, str, str]:
    """Corners and lines: top-left, top-right, bottom-left, bottom-right, horizontal, vertical."""
    return ("+", "+", "+", "+", "-", "|") if look.ascii else ("╭", "╮", "╰", "╯", "─", "│")


def card_face(c: int, look: Look, rows: int, inner: int) -> list[str]:
    """The face of card ``c`` in ``rows`` lines (1, 2, 3 or 5) of ``inner`` columns: its suit
    letter and rank in the corners, its symbol (with its name, where there is room) in the middle."""
    suit = SUIT_OF[c]
    rank = str(c % 9 + 1)
    letter = SUITS[suit]
    symbol = look.symbols[suit]
    if rows == 1:
        return [f"{symbol}{letter}{rank}"[:inner].ljust(inner)]
    top = f"{letter}{' ' * (inner - 2)}{rank}"
    if rows == 2:
        return [top, f" {symbol}".ljust(inner)]
    bottom = f"{rank}{' ' * (inner - 2)}{letter}"
    if rows == 3:
        middle = symbol if inner < 6 else f"{symbol}{letter}{rank}"
        return [top, middle.center(inner), bottom]
    blank = " " * inner
    return [top, blank, f"{symbol} {letter}{rank}".center(inner), blank, bottom]


CARD_SIZES = ((1, 3), (3, 5), (5, 9))
"""The cards on the table: (face rows, inner columns), small to large."""


def card_lines(c: int | None, look: Look, size: int, style: str = "") -> list[Text]:
    """A card as a box of lines (``CARD_SIZES[size]`` inside a border); None draws an empty place."""
    tl, tr, bl, br, h, v = box(look)
    rows, inner = CARD_SIZES[size]
    if c is None:  # an empty place: one faint row of dots in the middle
        blank = Text(" " * (inner + 2))
        dots = Text(" " + look.dot * inner + " ", style="dim")
        half = (rows + 1) // 2
        return [blank] * half + [dots] + [blank] * (rows + 1 - half)
    colour = f"bold {SUIT_COLOURS[SUIT_OF[c]]} {style}".strip()
    out = [Text(tl + h * inner + tr, style=style)]
    for row in card_face(c, look, rows, inner):
        line = Text(v, style=style)
        line.append(row, style=colour)
        line.append(v, style=style)
        out.append(line)
    out.append(Text(bl + h * inner + br, style=style))
    return out


class Canvas:
    """Lines of text on which pieces are placed at a row and a column."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.lines = [Text(" " * width) for _ in range(height)]

    def put(self, row: int, col: int, text: Text) -> None:
        if not 0 <= row < len(self.lines) or col >= self.width:
            return
        col = max(0, col)
        text = text[: self.width - col]
        line = self.lines[row]
        self.lines[row] = Text.assemble(line[:col], text, line[col + len(text) :])

    def block(self, row: int, col: int, lines: list[Text]) -> None:
        for i, line in enumerate(lines):
            self.put(row + i, col, line)

    def centred(self, row: int, lines: list[Text]) -> None:
        """``lines`` from ``row`` down, each in the middle of the width."""
        for i, line in enumerate(lines):
            self.put(row + i, max(0, (self.width - len(line)) // 2), line)

    def text(self) -> Text:
        lines = []
        for line in self.lines:
            line = line.copy()
            line.rstrip()
            lines.append(line)
        return Text("\n").join(lines)


# --- the table's parts ---------------------------------------------------------------


def top_bar_text(state: Scene) -> Text:
    """The line on top, the most needed first (a narrow terminal cuts the end): the hand, whose
    turn it is (with the table's clock on a server: ``flow.presenter.status_line``, the names cut
    so that the seconds stay), the rules, whether hints were taken, the forehand, and the pace of
    a game on this machine."""
    look = state.look
    view = state.view
    rules = view.rules
    hand = state.hand
    t = Text()
    t.append(state.presented.title, style="bold")  # "Hand 3 of 12", as every front end says it
    status = status_line(state.table, state.names)  # whose turn, the table's clock on a server (flow.presenter)
    if status:
        t.append(f"{look.sep}{status}", style="bold" if state.table.my_turn or state.table.stand_in else "italic")
    t.append(f"{look.sep}{rules.describe(brief=True)}")
    if state.table.assisted:
        t.append(f"{look.sep}assisted", style="italic")
    if hand is not None:
        t.append(f"{look.sep}Forehand: {state.names[hand.forehand]}")
    if not state.table.online:
        t.append(f"{look.sep}Pace: {state.table.pace}")
    if watching := watchers_line(state.table.watchers):  # at a table on a server that someone watches
        t.append(f"{look.sep}{watching}", style="italic")
    return t


def target_text(state: Scene) -> Text:
    """The declarer's target, as the presenter words it (``Presentation.contract`` and
    ``progress``): the contract, the count so far, and what the others already made of it; while
    bidding, the hand and who holds the forehand card."""
    shown = state.presented
    t = Text()
    if state.hand is None:
        return t
    if state.view.phase is Phase.BIDDING:
        t.append(f"{shown.title}: {shown.contract}", style="bold")
    else:
        t.append(shown.contract, style="bold")
    if shown.progress:
        dash = " - " if state.look.ascii else " — "
        t.append(f"{dash if shown.contract else ''}{shown.progress}")
    return t


def _seat_lines(state: Scene, seat: int) -> list[Text]:
    """A seat as the presenter tells it (``flow.presenter.SeatLine``): its name cut to fit, what
    it is, whether it is to act; an opponent's hand as card backs and their number; its tricks
    once a contract is declared; forehand, declarer."""
    line, look = state.presented.seats[seat], state.look
    name = Text(state.names[seat], style="bold")
    if state.table.seats:  # at a table on a server: who is a person, a computer, away
        name.append(f" ({seat_caption(state.table, seat)})", style="italic")
    if line.acting is not None:
        arrow = "<" if look.ascii else "◀"
        name.append(" ")
        name.append(f"{arrow} {line.acting}", style="bold reverse")
    info = []
    backs = Text()
    hand = state.hand
    if hand is not None:
        if seat != HUMAN:  # an opponent's hand: a card back for each card still held, then their number
            backs.append(("#" if look.ascii else "▮") * line.cards, style="dim")
            info.append(f" {line.cards}" if line.cards else plural(0, "card"))
        if hand.declaration is not None:
            info.append(plural(line.tricks, "trick"))
    info += [tag for tag in ("forehand", "declarer") if tag in line.tags]
    return [name, backs + Text(look.sep.join(info))]


LEFT, RIGHT = 1, 2
"""The opponents' seats: on the left and on the right of the table (the person sits at the bottom)."""


def table_canvas(state: Scene, width: int, height: int) -> Text:
    """The card table in ``width`` x ``height``: the opponents in the top corners, the person at
    the bottom, and between them one of two scenes, the bidding (the bids so far) or the play
    (the trick's cards in front of those who played them)."""
    hand = state.hand
    canvas = Canvas(width, height)
    for i, (left, right) in enumerate(zip(_seat_lines(state, LEFT), _seat_lines(state, RIGHT), strict=True)):
        if len(left) + len(right) + 2 > width:  # long names or captions: each keeps its half, cut with an ellipsis
            half = (width - 2) // 2
            dots = state.look.ellipsis
            left, right = (
                _cut(left, max(half, width - 2 - len(right)), dots),
                _cut(right, max(half, width - 2 - len(left)), dots),
            )
        canvas.put(i, 0, left)
        canvas.put(i, width - len(right), right)
    if hand is None or state.view.phase is Phase.BIDDING:
        _bidding_scene(canvas, state, hand)
    else:
        _trick_scene(canvas, state, hand)
    return canvas.text()


def _cut(text: Text, width: int, ellipsis: str) -> Text:
    """``text`` in at most ``width`` columns, ending in ``ellipsis`` where it was cut."""
    if len(text) <= width:
        return text
    cut = text.copy()
    cut.truncate(max(0, width - len(ellipsis)))
    cut.append(ellipsis)
    return cut


def _bidding_scene(canvas: Canvas, state: Scene, hand: PastHand | None) -> None:
    """The bids said so far in the middle, the latest that fit (and who is thinking), and the
    person at the bottom."""
    width, height = canvas.width, canvas.height
    if hand is not None:
        for i, sentence in enumerate(state.presented.said[-(height - 5) :]):  # the presenter's sentences
            canvas.put(3 + i, max(0, (width - len(sentence)) // 2), Text(sentence))
    canvas.centred(height - 2, _seat_lines(state, HUMAN))


def _trick_scene(canvas: Canvas, state: Scene, hand: PastHand) -> None:
    """The trick in the middle of the table, as large as the cards fit, each card in front of the
    one who played it (the person's a little lower), the person below, and the trick's line at
    the bottom."""
    width, height = canvas.width, canvas.height
    size = 2 if height >= 22 and width >= 60 else 1 if height >= 15 else 0  # the largest cards that fit
    tricks = hand.tricks()
    trick = tricks[-1] if tricks else None
    card_h = CARD_SIZES[size][0] + 2
    card_w = CARD_SIZES[size][1] + 2
    below = card_h - size - 1  # the person's card sits this much lower than the others'
    top = max(2, (height - below - card_h - 3) // 2)  # the trick in the middle of the table
    spots = {
        LEFT: (top, width // 4 - card_w // 2),
        RIGHT: (top, width - width // 4 - card_w // 2),
        HUMAN: (top + below, (width - card_w) // 2),
    }
    for seat in range(NUM_SEATS):
        row, col = spots[seat]
        _place_card(canvas, state.look, trick, seat, row, col, size)
    canvas.centred(spots[HUMAN][0] + card_h, _seat_lines(state, HUMAN))
    canvas.put(height - 1, 0, _trick_line(state, hand, width))


def _place_card(canvas: Canvas, look: Look, trick: Trick | None, seat: int, row: int, col: int, size: int) -> None:
    """``seat``'s card of the trick (or its empty place) at ``row``, ``col``, marked toward the
    middle of the table if it led or wins the trick."""
    cards = dict(trick.cards) if trick is not None else {}
    card_h = CARD_SIZES[size][0] + 2
    card_w = CARD_SIZES[size][1] + 2
    style = ""
    if trick is not None and seat == trick.winner and seat in cards:
        style = "bold"
    canvas.block(row, col, card_lines(cards.get(seat), look, size, style))
    marks = []
    if trick is not None and seat == trick.leader:
        marks.append("led")
    if trick is not None and seat == trick.winner and seat in cards:
        marks.append(f"{look.win_mark} {'won' if trick.finished else 'winning'}")
    if marks:
        mark = Text(" ".join(marks), style="bold" if "won" in marks[-1] or "winning" in marks[-1] else "dim")
        at = col - len(mark) - 1 if seat == RIGHT else col + card_w + 1  # toward the middle
        canvas.put(row + card_h // 2, at, mark)


def _trick_line(state: Scene, hand: PastHand, width: int) -> Text:
    """The table's last line, as the presenter says it (``table_line``), cut to ``width``."""
    return Text(fit_words(table_line(state.view, hand), width, state.look.ellipsis), style="bold")


def fit_words(text: str, width: int, ellipsis: str) -> str:
    """``text`` in ``width`` columns: its last clauses (after ``', '`` or ``'; '``) left out
    until it fits, then, if it still does not, cut with an ellipsis.

    >>> fit_words("You win it. L5 wins: the only Stone Lanterns, the others could not follow.", 50, "~")
    'You win it. L5 wins: the only Stone Lanterns.'
    >>> fit_words("Kenji wins trick 4 (C8 wins: the highest trump, over C2, C1).", 50, "~")
    'Kenji wins trick 4 (C8 wins: the highest trump).'
    """
    while len(text) > width:
        cut = max(text.rfind(", "), text.rfind("; "))
        if cut <= 0:
            return text[: max(0, width - len(ellipsis))] + ellipsis
        kept = text[:cut]
        text = kept + (")." if kept.count("(") > kept.count(")") else ".")
    return text


HAND_SIZES = ((5, 9), (3, 6), (2, 4), (1, 3))
"""The cards of the hand: (face rows, inner columns), large to small; the hand panel draws the
largest that fits its height and twelve cards across its width."""


def hand_text(state: Scene, width: int, height: int) -> tuple[Text, int]:
    """The person's cards as a row of cards in ``width`` x ``height``, each with the key that
    picks it, and the columns each card takes (for a click).

    Playable cards are underlined, cards that may not be played are dimmed, and the chosen one is
    reversed with its key in brackets, so nothing depends on colour alone."""
    cards = state.my_cards
    playing = state.playing
    legal = {line.card for line in state.presented.hand if line.legal}  # the presenter's word on each card
    look = state.look
    rows, inner = next(
        ((r, i) for r, i in HAND_SIZES if r + 2 <= height and HAND_SIZE * (i + 1) + 1 <= width), HAND_SIZES[-1]
    )
    tl, tr, bl, br, h, v = box(look)
    join_top, join_bottom = ("+", "+") if look.ascii else ("┬", "┴")
    if not cards:
        return Text(""), inner + 1
    top = Text(tl)
    lines = [Text(v) for _ in range(rows)]
    bottom = Text(bl)
    for i, c in enumerate(cards):
        ok = not playing or CARD_NAMES[c] in legal
        chosen = playing and i == state.table.cursor
        if chosen:
            style = "reverse bold underline" if ok else "reverse dim"
        elif playing and not ok:
            style = "dim"
        elif playing:
            style = "underline"
        else:
            style = ""
        colour = f"bold {SUIT_COLOURS[SUIT_OF[c]]} {style}".strip()
        last = i == len(cards) - 1
        for line, face in zip(lines, card_face(c, look, rows, inner), strict=True):
            line.append(face, style=colour)
            line.append(v)
        top.append(h * inner + (tr if last else join_top))
        key = CARD_KEYS[i]
        label = f"[{key}]" if chosen else (f" {key} " if key == h else f"{h}{key}{h}")
        label = label.center(inner, h)
        bottom.append(label, style="bold" if chosen else "dim")
        bottom.append(br if last else join_bottom)
    return Text("\n").join([top, *lines, bottom]), inner + 1


def bid_log_text(state: Scene) -> Text:
    """Above the person's bid list: the bids so far, then what the person is to do."""
    log = Text()
    for sentence in state.presented.said:  # the presenter's sentences: the bids so far
        log.append(sentence + "\n")
    prompt = state.presented.prompt or turn_prompt(state.view)  # the presenter's words, as every front end says it
    log.append(prompt, style="bold reverse" if state.view.in_puddle else "bold")
    return log


def bid_hint_text(state: Scene, cid: str | None) -> Text:
    """Below the person's bid list: what Enter does with the bid chosen (``cid``, None for a pass)."""
    look = state.look
    hint = Text()
    enter = "Enter" if look.ascii else "⏎"
    if cid is None:
        hint.append(f"{enter} or p: pass")
    else:
        picked = state.table.chosen_bid
        if picked is None:
            hint.append(f"{CONTRACTS[cid].name} needs a trump suit: press c, k, l or b.", style="bold")
        else:
            hint.append(f"{enter}: declare ")
            hint.append(picked.describe(), style="bold")
            hint.append(f"  ({CONTRACTS[cid].summary})", style="italic")
    return hint


def log_text(state: Scene, width: int, height: int, console: Console) -> Text:
    """The log's lines for a panel of ``width`` x ``height``: the message wrapped (in brief if the
    whole of it does not fit, cut with an ellipsis but keeping the key that shows it all), then
    the latest events, each wrapped whole, newest last (an event too long for the rows left is
    cut with an ellipsis)."""
    lines: list[Text] = []
    ellipsis = state.look.ellipsis
    message = state.table.message
    if message:
        style = "bold red" if state.table.refusal else "bold"
        room = height if height <= 3 else height - 1  # a tall log keeps a line for the events
        wrapped = list(Text(message, style=style).wrap(console, width))
        brief = state.hint_brief
        if len(wrapped) > room and not state.table.refusal and brief:
            wrapped = list(Text(brief, style=style).wrap(console, width))
            if len(wrapped) > room:  # cut the brief itself, and keep its pointer
                wrapped = list(Text(brief.removesuffix(POINTER), style=style).wrap(console, width))[:room]
                wrapped[-1].truncate(width - len(POINTER) - 1)
                wrapped[-1].append(ellipsis + POINTER, style=style)
        if len(wrapped) > room:
            wrapped = wrapped[:room]
            wrapped[-1].truncate(width - 1)
            wrapped[-1].append(ellipsis)
        lines.extend(wrapped)
    rows = height - len(lines)
    told: list[Text] = []
    for event in reversed(state.events):
        if rows <= 0:
            break
        event_lines = list(Text(event).wrap(console, width))
        if len(event_lines) > rows:
            if told:
                break  # an older event that no longer fits whole is left out
            event_lines = event_lines[:rows]
            event_lines[-1].truncate(width - 1)
            event_lines[-1].append(ellipsis)
        told = event_lines + told
        rows -= len(event_lines)
    lines.extend(told)
    return Text("\n").join(lines)


def tracker_text(state: Scene) -> Text:
    """The cards still unseen by the person, per suit, strongest first in the ranking in play,
    and the suits each player has shown out of (``flow.presenter.tracker``)."""
    told, look = tracker(state.view), state.look
    t = Text("Cards still out", style="bold")
    t.append(f" ({told.ranking} high)\n" if told.ranking else "\n")
    for suit, ranks in told.out:
        t.append_text(look.suit(suit))
        t.append("  " + (ranks or look.dot) + "\n")
    parts = []
    for who, suits in told.shown_out:
        part = Text(f"{who}: ")
        for i, suit in enumerate(suits):
            if i:
                part.append(" ")
            part.append_text(look.suit(suit))
        parts.append(part)
    t.append("Shown out: ", style="bold")
    if parts:
        t.append_text(Text("; ").join(parts))
    else:
        t.append("nobody yet", style="dim")
    return t


def history_text(state: Scene, width: int, height: int | None, console: Console) -> Text:
    """Every finished trick of the hand as the presenter tells it (``flow.presenter.trick_lines``):
    the three cards in the order played with the winner's marked, then who won and why, a trick's
    lines indented under its number.  With a ``height``, the newest tricks that fit it (the newest
    always in view), and the title says how many of them are shown."""
    hand, look = state.hand, state.look
    title = Text("Tricks of this hand", style="bold")
    if hand is None or hand.declaration is None:
        return Text.assemble(title, "\n", ("No trick played yet.", "dim"))
    finished = [trick for trick in trick_lines(state.view, hand) if trick.winner is not None]
    if not finished:
        return Text.assemble(title, "\n", ("No trick finished yet.", "dim"))
    # the names as short as the three cards of a trick need to fit one line (and still different)
    labels = [line.label for line in sorted(state.presented.seats, key=lambda line: line.seat)]
    short = dict(
        zip(labels, short_names(labels, max(5, min(12, (width - 3 - 3 * 6) // 3)), look.ellipsis), strict=True)
    )
    blocks: list[list[Text]] = []
    for trick in finished:
        line = Text()
        for i, (who, card, _words) in enumerate(trick.cards):
            if i:
                line.append(" ")
            line.append(f"{short.get(who, who)} ")
            line.append_text(look.card(parse_card(card)))
            if who == trick.winner:
                line.append(look.win_mark, style="bold")
        reason = Text(trick.text or "", style="italic")
        block = []
        for i, part in enumerate([*line.wrap(console, width - 3), *reason.wrap(console, width - 3)]):
            lead = Text(f"{trick.number:>2} " if i == 0 else "   ", style="bold")
            block.append(Text.assemble(lead, part))
        blocks.append(block)
    shown = blocks
    if height is not None:
        room = height - 1
        shown = []
        for block in reversed(blocks):
            if sum(map(len, shown)) + len(block) > room and shown:
                break
            shown.insert(0, block)
        if len(shown) < len(blocks):
            first = len(blocks) - len(shown) + 1
            title.append(
                f" ({first}-{len(blocks)}; h: all)" if first < len(blocks) else f" ({first}; h: all)", style="dim"
            )
    lines = [title, *(line for block in shown for line in block)]
    return Text("\n").join(lines)
