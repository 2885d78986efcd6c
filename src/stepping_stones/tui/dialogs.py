"""Dialogs over the table: hand summary, last trick, questions, help."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from ..ai.analysis import analysis_lines, seen_by
from ..ai.claims import claim_confirmed
from ..engine import (
    CONTRACTS,
    NINE_HIGH,
    NUM_SEATS,
    SUIT_OF,
    TRICKS,
    FollowRule,
    Goal,
    PastHand,
    Phase,
    PlayerView,
    Rules,
    sorted_cards,
)
from ..explain import short_names
from ..flow import TableState
from ..flow.presenter import NO_TRICK_YET, last_trick
from . import hindsight
from .host import host
from .panels import HistoryPanel, Panel
from .render import Look, hand_summary, sheet_table
from .widgets import TooSmall

_Answer = TypeVar("_Answer")
"""What a dialog answers when it closes (None when it is only closed)."""


class Dialog(ModalScreen[_Answer]):
    """A box in the middle of the screen; Escape closes it."""

    BINDINGS = [Binding("escape", "close", "Close", id="close")]

    def body(self) -> ComposeResult:
        yield from ()

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(classes="body dialog"):
            yield from self.body()
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class HandSummaryScreen(Dialog[None]):
    """After a hand: what was written on the sheet, and why."""

    BINDINGS = [
        Binding("enter,space", "next_hand", "Next hand", id="next_hand", key_display="⏎"),
        Binding("enter,space", "final_result", "Final result", id="final_result", key_display="⏎"),
        Binding("d", "deal", "The deal", id="deal"),
        Binding("h", "tricks", "Tricks", id="tricks"),
        Binding("escape", "close", "Go on", show=False),
        Binding("b", "take_back", "Take your seat back", id="take_back", show=False),
    ]

    ROWS_AROUND = 4
    """The window's rows the summary's scrolling part leaves: the line of keys, the box's top and
    bottom, and the line under it."""

    def action_tricks(self) -> None:
        """Every trick of the hand with why it was won, as h shows them at the table."""
        from ..flow import TableState

        look = Look(host(self).settings.ascii)
        past = self.view.history[self.number - 1]
        self.app.push_screen(PanelScreen(HistoryPanel, TableState.of(self.view), look, "history", past=past))

    def action_deal(self) -> None:
        """All three hands as they were dealt: every card has been played, so all are known."""
        self.app.push_screen(
            DealScreen(
                self.view.history[self.number - 1], self.view.players, self.view.seat, Look(host(self).settings.ascii)
            )
        )

    def __init__(
        self,
        view: PlayerView,
        number: int,
        next_line: str | None = None,
        status: Callable[[], str] | None = None,
        take_back: Callable[[], None] | None = None,
    ) -> None:
        """``next_line``: what Enter leads to, where it is not the deal of the next hand (at a
        table on a server the next hand is dealt already).  ``status``: the table's status line as
        it is now (``flow.presenter.status_line``: whom the table waits for, with their seconds;
        a next hand that waits for the person's bid says that their clock starts on closing this),
        shown under the summary and counted down while it is open.  ``take_back``: what b does
        here, as at the table (on a server: the seat back from a computer that plays it, which the
        status line offers)."""
        super().__init__()
        self.view = view
        self.number = number
        self.next_line = next_line
        self.status = status
        self.take_back = take_back

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer names what Enter does: the next hand, or after the last one the result."""
        last = self.view.phase is Phase.OVER
        if action == "next_hand":
            return not last
        if action == "final_result":
            return last
        if action == "take_back":
            return self.take_back is not None
        return True

    def action_take_back(self) -> None:
        if self.take_back is not None:
            self.take_back()

    def action_next_hand(self) -> None:
        self.dismiss(None)

    def action_final_result(self) -> None:
        self.dismiss(None)

    def body(self) -> ComposeResult:
        look = Look(host(self).settings.ascii)
        with VerticalScroll(id="summary-scroll"):  # Up/Down scroll it in a small window
            yield Static(hand_summary(self.view, self.number, look), id="summary-text")
            if (claimed := self._claim_line()) is not None:
                yield Static(claimed, id="summary-claim")
            yield Static(sheet_table(self.view, look), id="summary-sheet")
            yield Static(Text("Against perfect play: working it out...", style="dim"), id="summary-analysis")
        yield Static(self._go_on(False), id="summary-go-on")
        if self.status is not None:
            yield Static(Text(self.status(), style="bold"), id="summary-status")

    def show_status(self) -> None:
        """The table's status line again (a change at the table, or a second gone)."""
        if self.status is None or not self.is_attached:
            return
        try:
            self.query_one("#summary-status", Static).update(Text(self.status(), style="bold"))
        except NoMatches:
            return

    def _claim_line(self) -> str | None:
        """ "You claimed, and it held: ..." when a claim ended this hand, the last one played."""
        if self.next_line is not None:  # a table on a server tells its claims itself
            return None
        told = host(self).claim_told()
        if told is None or self.number != len(self.view.history):
            return None
        seat, text = told
        claimer = "You" if seat == self.view.seat or seat is None else self.view.players[seat]
        return claim_confirmed(text, claimer)

    def _go_on(self, more: bool) -> Text:
        """The line under the summary: what Enter does, and when the box holds more than it
        shows, that it does and which keys scroll it."""
        last = self.view.phase is Phase.OVER
        line = "Press Enter for the final result." if last else (self.next_line or "Press Enter to deal the next hand.")
        text = Text(line, style="italic")
        if more:
            text.append(f"  {Look(host(self).settings.ascii).down} more: Down or PgDn", style="bold")
        return text

    def _show_more(self) -> None:
        """Say "more" while the box can still scroll down (it is cut at the bottom)."""
        try:
            scroll = self.query_one("#summary-scroll", VerticalScroll)
            line = self.query_one("#summary-go-on", Static)
        except NoMatches:
            return
        line.update(self._go_on(scroll.scroll_offset.y < scroll.max_scroll_y))

    def _show_more_later(self) -> None:
        self.call_after_refresh(self._show_more)

    def on_resize(self) -> None:
        self._fit()
        self.call_after_refresh(self._show_more)

    def _fit(self) -> None:
        """A summary taller than the window takes all its rows (and scrolls), none left empty."""
        around = self.ROWS_AROUND + (self.status is not None)  # the status line takes a row of its own
        try:
            scroll = self.query_one("#summary-scroll", VerticalScroll)
        except NoMatches:  # taken off the screen before it was mounted (see on_mount)
            return
        scroll.styles.max_height = max(3, self.app.size.height - around)

    def on_mount(self) -> None:
        try:
            scroll = self.query_one("#summary-scroll", VerticalScroll)
        except NoMatches:
            # Taken off the screen before it was mounted: at a table on a server, while a computer
            # plays the person's seat, a later hand's summary takes its place at once.
            return
        self._fit()
        if self.status is not None:
            self.set_interval(1.0, self.show_status)  # the seconds count down while it is open
        scroll.focus()  # Up/Down and PgUp/PgDn scroll it
        # after the refresh: while the box scrolls, the value watched is not yet the one shown
        self.watch(scroll, "scroll_y", self._show_more_later, init=False)
        self.watch(scroll, "virtual_size", self._show_more_later, init=False)
        self.call_after_refresh(self._show_more)
        past = self.view.history[self.number - 1]
        answers = host(self).hindsight
        found = answers.known(past, seen_by(self.view))
        if found is not None:
            self._show_analysis(found)
        else:
            stop = hindsight.Stop()
            analyses = host(self).analyses
            analyses.add(stop)  # the app stops it when it quits, rather than wait for it
            self._analyse(answers, past, stop, analyses)

    @work(thread=True, exclusive=True, group="analysis")
    def _analyse(
        self, answers: hindsight.Hindsight, past: PastHand, stop: hindsight.Stop, analyses: set[Callable[[], None]]
    ) -> None:
        """The solver works in a thread (a hand can take a few seconds); the summary is usable
        meanwhile, and the answer is kept for the review even if the summary has gone."""
        try:
            found = answers.analyse(past, stop=stop, seen=seen_by(self.view))
        finally:
            analyses.discard(stop)
        if not stop.stopped and not get_current_worker().is_cancelled and self.is_attached:
            self.app.call_from_thread(self._show_analysis, found)

    def _show_analysis(self, found: hindsight.Outcome) -> None:
        try:
            widget = self.query_one("#summary-analysis", Static)
        except NoMatches:  # the summary was closed while the solver worked
            return
        if found is None:
            widget.update("")
            return
        lines = analysis_lines(found, self.view.players, self.view.seat)
        text = Text.assemble(("Against perfect play", "bold"), "\n", "\n".join(lines))
        widget.update(text)
        self.call_after_refresh(self._show_more)


class DealScreen(Dialog[None]):
    """A finished hand's deal: each player's twelve cards as dealt, by suit, strongest first in
    the hand's ranking (from the hand as everyone saw it: each seat's cards are those it played)."""

    BINDINGS = [Binding("escape,enter,space,d", "close", "Close", id="close", key_display="Esc")]

    def __init__(self, past: PastHand, players: tuple[str, str, str], you: int, look: Look) -> None:
        super().__init__()
        self.past = past
        self.players = players
        self.you = you
        self.look = look

    def body(self) -> ComposeResult:
        yield Static(self._text(), id="deal-text")

    def _text(self) -> Text:
        past, look = self.past, self.look
        names = short_names(self.players, 16, look.ellipsis)
        ranking = past.declaration.ranking if past.declaration is not None else NINE_HIGH
        t = Text(f"Hand {past.number} as it was dealt\n\n", style="bold")
        for seat in range(NUM_SEATS):
            name = "You" if seat == self.you else names[seat]
            t.append(f"{name:<16} ", style="bold" if seat == past.declarer else "")
            for suit_cards in _by_suit(past.played_by(seat), ranking):
                for c in suit_cards:
                    t.append_text(look.card(c))
                    t.append(" ")
                t.append(" ")
            t.append("\n")
        if past.declarer is not None and past.declaration is not None:
            t.append(
                f"\n{'You' if past.declarer == self.you else names[past.declarer]} declared "
                f"{past.declaration.describe()}.",
                style="italic",
            )
        return t


def _by_suit(mask: int, ranking: int) -> list[list[int]]:
    """The cards of ``mask`` by suit, strongest first in ``ranking``."""
    cards = sorted_cards(mask, ranking)
    return [[c for c in cards if SUIT_OF[c] == suit] for suit in range(4) if any(SUIT_OF[c] == suit for c in cards)]


class PanelScreen(Dialog[None]):
    """One of the table's side panels (the card tracker, the tricks of the hand) in a box, for
    windows too small to show it beside the table."""

    def __init__(
        self, panel: type[Panel], state: TableState, look: Look, name: str, past: PastHand | None = None
    ) -> None:
        """``past``: the tricks panel shows that finished hand (from its summary) rather than the
        table's."""
        super().__init__()
        self.panel = panel
        self.table_state = state
        self.look = look
        self.panel_name = name
        self.past = past

    BINDINGS = [Binding("escape,enter,space,o,h", "close", "Close", id="close", key_display="Esc")]

    def body(self) -> ComposeResult:
        panel = self.panel(id=f"{self.panel_name}-box")
        if isinstance(panel, HistoryPanel):
            panel.past = self.past
            panel.fit = False  # all the tricks, in a box that scrolls (Up/Down), the newest in view
            with VerticalScroll(id="history-scroll"):
                yield panel
        else:
            yield panel

    def on_mount(self) -> None:
        panel = self.query_one(f"#{self.panel_name}-box", Panel)
        panel.look = self.look
        panel.state = self.table_state
        for scroll in self.query("#history-scroll"):
            scroll.focus()
            self.call_after_refresh(scroll.scroll_end, animate=False, immediate=True)


class LastTrickScreen(Dialog[None]):
    """The most recent finished trick, again."""

    BINDINGS = [Binding("escape,t,enter,space", "close", "Close", id="close", key_display="Esc")]

    def __init__(self, view: PlayerView, look: Look) -> None:
        super().__init__()
        self.view = view
        self.look = look

    def body(self) -> ComposeResult:
        yield Static(self._text(), id="last-trick")

    def _text(self) -> Text:
        view = self.view
        look = self.look
        name = short_names(view.players, 16, look.ellipsis)
        t = Text()
        last = last_trick(view)
        if last is None:
            t.append(NO_TRICK_YET)
            return t
        trick = last.trick
        t.append(f"Hand {last.hand}, trick {trick.number} of {TRICKS}\n\n", style="bold")
        for seat, c in trick.cards:
            t.append(f"  {name[seat]:<16} ")
            t.append_text(look.card(c))
            if seat == trick.winner:
                t.append(f"  {look.win_mark} won the trick", style="bold")
            t.append("\n")
        t.append(f"\n{last.text}")
        return t


class ConfirmScreen(Dialog[bool]):
    """A yes/no question."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="yes"),
        Binding("n,escape", "answer(False)", "No", id="no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def body(self) -> ComposeResult:
        yield Static(Text(self.question))
        yield Static(Text("y: yes    n: no", style="bold"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ResumeScreen(Dialog[str]):
    """At start-up: an unfinished game was found."""

    BINDINGS = [
        Binding("enter,r", "answer('resume')", "Resume", id="resume", key_display="⏎/r"),
        Binding("n", "answer('new')", "New game", id="new"),
        Binding("escape", "answer('new')", "New game", show=False),
    ]

    def __init__(self, description: str) -> None:
        super().__init__()
        self.description = description

    def body(self) -> ComposeResult:
        yield Static(
            Text.assemble(
                ("An unfinished game was saved.\n\n", "bold"),
                f"It stopped at {self.description}.\n\n",
                "Enter or r: resume it where it stopped.\n",
                "n: start a new game instead (the unfinished one is kept in the games folder).",
            ),
            id="resume-text",
        )

    def action_answer(self, what: str) -> None:
        self.dismiss(what)


class OpenElsewhereScreen(Dialog[str]):
    """At start-up: the unfinished game is open in another copy of the app."""

    BINDINGS = [
        Binding("r", "answer('review')", "Review it", id="review"),
        Binding("n,enter,escape", "answer('new')", "New game here", id="new", key_display="⏎/n"),
    ]

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def body(self) -> ComposeResult:
        yield Static(
            Text.assemble(
                ("The unfinished game is open in another window.\n\n", "bold"),
                f"Another copy of Stepping Stones is playing it ({self.where}), so this "
                "one leaves it alone: it never writes a game open elsewhere.\n\n",
                "r: look at it here (read only, as you have seen it).\n",
                "n or Enter: set up a new game here; it is saved in a slot of its own.",
            ),
            id="open-elsewhere-text",
        )

    def action_answer(self, what: str) -> None:
        self.dismiss(what)


class NoticeScreen(Dialog[None]):
    """A message to acknowledge (e.g. a save that could not be used)."""

    BINDINGS = [Binding("enter,escape,space", "close", "OK", id="ok", key_display="⏎")]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def body(self) -> ComposeResult:
        yield Static(
            Text.assemble((self.title_text + "\n\n", "bold"), self.message, ("\n\nPress Enter to go on.", "italic")),
            id="notice",
        )


class KeysScreen(Dialog[None]):
    """The keys of a screen, each with what it does (the command palette's Keys): a box over the
    screen, in the app's characters (ASCII in ASCII mode), closed with Escape."""

    BINDINGS = [Binding("escape,enter,space,q", "close", "Close", id="close", key_display="Esc")]

    def __init__(self, of: Screen[Any]) -> None:
        super().__init__()
        self.keys = screen_keys(of)

    def body(self) -> ComposeResult:
        text = Text()
        text.append("Keys of this screen\n\n", style="bold")
        width = max((cell_len(keys) for keys, _ in self.keys), default=0)
        for keys, what in self.keys:
            text.append(keys.ljust(width + 2), style="bold")
            text.append(what + "\n")
        text.append("\nEscape closes this box.", style="italic")
        yield VerticalScroll(Static(text, id="keys-text"), id="keys-scroll")

    def on_mount(self) -> None:
        self.query_one("#keys-scroll").focus()


def screen_keys(screen: Screen[Any]) -> list[tuple[str, str]]:
    """The keys that work on ``screen`` now, as the app shows keys (words in ASCII mode), with
    what they do: the keys of one description together ("1/2/.../= Choose a card")."""
    app = screen.app
    found: dict[str, list[str]] = {}
    for key, (_, binding, enabled, _) in screen.active_bindings.items():
        if not enabled or not binding.description:
            continue
        shown = app.get_key_display(replace(binding, key=key, key_display=None))
        keys = found.setdefault(binding.description, [])
        if shown not in keys:
            keys.append(shown)
    return [("/".join(keys), what) for what, keys in found.items()]


# --- help ------------------------------------------------------------------------

_FOLLOW = {
    FollowRule.STANDARD: "Follow the led suit if you can; otherwise play anything. You never have to beat.",
    FollowRule.MAY_TRUMP: "Follow the led suit, except that you may always play a trump instead "
    "(when trump is led, follow trump if you can).",
    FollowRule.MUST_BEAT: "If you can beat the best card of the led suit so far, you must; "
    "if you only have lower cards of that suit, play one of them; "
    "void in the suit, play anything.",
}


def help_text(rules: Rules, look: Look) -> Group:
    t = Text()

    def h(heading: str) -> None:  # a heading, in the text being written (``t`` at the time)
        t.append(heading + "\n", style="bold underline")

    in_play = rules.contracts
    h("Stepping Stones in one minute")
    t.append(
        "Three players, 36 cards (four suits of 1 to 9), 12 cards each and 12 tricks every hand. "
        "Each of you must declare every contract below once; when all three have played a contract, "
        "it is scored. The best total at the end wins.\n\n"
    )
    t.append("Suits: ")
    for s in range(4):  # two to a line: one line of four is cut, leaving a symbol or "(B)" alone
        t.append_text(look.suit_name(s))
        t.append(("  ", "\n       ", "  ", "\n\n")[s])
    h(f"Contracts of this game ({rules.describe()})")
    parts: list[RenderableType] = [t]
    for c in in_play:
        head = Text()
        head.append(f"{c.name}", style="bold")
        head.append(f"  ({c.label} on the sheet)")
        goal = "Win: the more tricks the better" if c.goal is Goal.WIN else "Lose: the fewer tricks the better"
        trump = "the declarer picks a trump suit" if c.picks_trump else "no trump"
        what = f"{goal}; {trump}"
        if c.first_counted > 1:
            what += f"; only tricks {c.first_counted} to {TRICKS} count"
        parts.append(head)
        parts.append(Padding(Text(what + ".\n" + _FOLLOW[c.follow]), (0, 0, 0, 2)))
    t = Text()
    parts.append(t)
    if rules.omit:
        t.append(f"Left out of this short game: {CONTRACTS[rules.omit].name}.\n")
    t.append("\n")
    h("Bidding")
    t.append(
        "The holder of the forehand card speaks first, then the others clockwise, once each. "
        "The first player to declare is the declarer: they name a contract they have not yet "
        "played, 9 high or 1 high, and a trump suit if the contract has one. Nobody can outbid. "
        "If everybody passes, the forehand (or, if they have nothing left, the next player who has) "
        "is 'in the puddle' and has to declare. Someone with "
        "nothing left to declare (and no redo token to spend) passes automatically. After each "
        "hand the forehand card moves on clockwise, skipping players who have declared everything.\n"
    )
    if rules.redo_tokens:
        t.append(
            "Redo token: once per game, at your bid, you may play again a contract you already "
            "recorded. The sheet keeps the better of the two results (and rescores it). A redo is "
            "never forced, and it is not allowed from the puddle.\n"
        )
    t.append("\n")
    h("Playing")
    t.append(
        "The declarer leads the first trick; whoever wins a trick leads the next. With 9 high, 9 is "
        "the best card of a suit; with 1 high the order turns round and 1 is best. A trick goes to "
        "the best trump in it, otherwise to the best card of the suit that was led.\n\n"
    )
    h("Scoring")
    t.append(
        "Only the declarer's tricks are written down (in their box for that contract). Once all "
        "three have a number for a contract, they are ranked: best +3, next +1, last -1. Ties "
        "share: two tied best get 2 each, two tied last 0 each, all three tied 1 each. Equal "
        "totals at the end go to the player who came first (alone or shared) in more contracts; "
        "if that is equal too, they share the win.\n\n"
    )
    h("Keys at the table")
    t.append(
        "Left/Right or the keys 1-9, 0, -, = choose a card (the small label under each card); "
        "Enter plays it. A click on a card plays it too. Cards you may play are underlined, the "
        "others dimmed. Your last card plays itself (a setting).\n"
        "Bidding: Up/Down choose a contract, 9 or 1 the ranking (your hand sorts itself that "
        "way), c k l b the trump suit, Enter declares, p passes.\n"
        "i gives a hint: the bid or card the expert would choose, with its reason (the cursor then "
        "rests on it; i again shows all of it). A game with a hint is marked as assisted and "
        "counted apart.\n"
        "u takes back your last bid or card, and what the computer players did after it, until "
        "the next trick starts; a game with an undo is marked as assisted and counted apart.\n"
        "c, on your turn to play, claims the rest: type all, none or how many of the tricks left that "
        "count your side takes (you as declarer, or you and the other defender; at least that many in a "
        "Win contract, at most in a Lose one). The computer checks it with all the cards in view: if it holds "
        "whatever the others play, the hand ends, played out; if not, it is refused and you play on.\n"
        "t shows the last trick again, o the cards still out and the suits each player has shown "
        "out of, h every trick of this hand with why it was won (in a large window both stay "
        "beside the table). Space or Enter skips the pause after a trick. f makes the computer "
        "players faster (after instant it starts again at slow). n starts a new game. Under 120 "
        "columns the line of keys at the bottom leaves out f and n, to keep room for the others. "
        "Ctrl+P opens the command palette (its Keys lists the keys of the screen). Ctrl+Q quits; "
        "the game is saved after every move.\n"
        "After a hand, its summary shows what was written on the sheet and why, and how the play "
        "compares with perfect play; d shows the deal (all three hands as they were dealt), h "
        "its tricks with why each was won, Enter deals the next hand.\n"
    )
    t.append(
        "\nOn the scoresheet, 'r' marks a contract played again with a redo token; the "
        "signed number after a result is its points once the contract is scored.\n"
    )
    return Group(*parts)


class HelpScreen(Dialog[None]):
    BINDINGS = [Binding("escape,f1,question_mark,q", "close", "Close", id="close", key_display="Esc")]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def body(self) -> ComposeResult:
        yield VerticalScroll(
            Static(help_text(self.rules, Look(host(self).settings.ascii)), id="help-text"), id="help-scroll"
        )

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()
