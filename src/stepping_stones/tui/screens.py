"""Full screens: the end of a game, the review of a saved game (the setup form is in setup.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from ..engine import (
    HAND_SIZE,
    NINE_HIGH,
    NUM_SEATS,
    Game,
    PastHand,
    Phase,
    PlayerView,
    sorted_cards,
)
from ..explain import shell_lines, short_names, simulate_command
from ..storage.safety import escape
from .host import host
from .render import NAME_WIDTH, Look, contract_line, result_text, sheet_table
from .setup import SetupScreen as SetupScreen  # it lived here once; the app imports it from .setup
from .widgets import TooSmall

if TYPE_CHECKING:  # the solver is loaded when a review first needs it
    from .hindsight import Hindsight, Stop


class GameOverScreen(Screen[None]):
    """The final sheet, the winner(s) and how a tie was broken."""

    AGAIN = "n or Enter: a new game with the same setup"  # what n does (at a table on a server: a new table)

    BINDINGS = [
        Binding("n,enter", "again", "New game", id="again", key_display="⏎/n"),
        Binding("s", "setup", "Change setup", id="setup"),
        Binding("r", "review", "Review", id="review"),
        Binding("w", "write", "Write record", id="write"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def __init__(
        self,
        view: PlayerView,
        path: Path | None,
        seed: str | None = None,
        problem: str | None = None,
        assisted: bool = False,
        retry: Callable[[], Path | None] | None = None,
        levels: tuple[str, str, str] = ("heuristic", "heuristic", "heuristic"),
        notes: tuple[str, ...] = (),
    ) -> None:
        """``notes``: lines under the result (at a table on a server: the hands a computer played
        for whom)."""
        super().__init__()
        self.view = view
        self.notes = notes
        self.levels = levels  # of seats 0 (the person's: an AI in the command), 1 and 2
        self.path = path
        self.seed = seed
        self.problem = problem
        self.assisted = assisted
        self.retry = retry  # writes the finished game again if it could not be: its path, or None

    def compose(self) -> ComposeResult:
        look = Look(host(self).settings.ascii)
        yield TooSmall(id="too-small")
        # scrolls (Up/Down, PgUp/PgDn, Home/End) where the window is too short for all of it
        with VerticalScroll(classes="body", id="gameover"):
            yield Static(Text("The game is over", style="bold"), id="gameover-title")
            yield Static(sheet_table(self.view, look), id="final-sheet")
            yield Static(result_text(self.view), id="result")
            if self.notes:
                yield Static(Text("\n".join(self.notes), style="italic"), id="gameover-notes")
            if self.assisted:
                yield Static(
                    Text(
                        "This game was assisted (an undo or a hint was used): it is counted apart in your statistics.",
                        style="italic",
                    ),
                    id="assisted",
                )
            yield Static(self._where(), id="gameover-help")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#gameover", VerticalScroll).focus()

    def _where(self) -> Text:
        keys = f"{self.AGAIN}   s: change the setup   r: review this game   q: quit"
        if self.path:
            where = f"The game record is saved as {escape(str(self.path))}."
        elif self.problem:
            where = f"The game record is not saved: {self.problem}."
            if self.retry is not None:
                where += " The finished game is kept here until it is: make room, then press w to write it."
                keys = "w: write the game record   " + keys
        else:
            where = ""
        text = Text(style="italic")
        if where:
            text.append(where + "\n")
        if self.seed:
            command = simulate_command(self.seed, self.view.rules, self.levels)
            text.append(
                f"Deal seed: {escape(self.seed)}. To deal these cards again (your seat played by the "
                f"{self.levels[0]} level):\n"
            )
            width = max(60, self.app.size.width - 8)  # the box's padding and the indent
            for line in shell_lines(escape(command), width):  # broken only before an option
                text.append(f"  {line}\n", style="bold not italic")
        text.append(keys)
        return text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "write":
            return self.path is None and self.retry is not None
        return True

    def action_write(self) -> None:
        """Try again to write the finished game (after the person made room on the disk)."""
        if self.path is not None or self.retry is None:
            return
        self.path = self.retry()
        if self.path is None:
            self.app.bell()
            session = host(self).session
            self.problem = session.problem if session is not None else self.problem
        self.query_one("#gameover-help", Static).update(self._where())
        self.refresh_bindings()

    def action_again(self) -> None:
        host(self).leave_finished(lambda: host(self).start_new_game(replace(host(self).last_setup, seed=None)))

    def action_setup(self) -> None:
        host(self).leave_finished(host(self).show_setup)

    def action_review(self) -> None:
        self.app.push_screen(ReviewScreen(self.view, title=escape(str(self.path or ""))))


@dataclass(frozen=True)
class Frame:
    """One position of the review: a hand as it stood after ``k`` of its cards."""

    hand: PastHand  # cut to the position
    full: PastHand  # the whole hand as far as it was seen
    k: int
    sheet: PlayerView  # the sheet as it stood then
    finished: bool  # a hand played to its end: everyone's cards may be shown


def _cut(hand: PastHand, k: int) -> PastHand:
    """``hand`` as it stood after its first ``k`` cards (a trick boundary, or all cards seen)."""
    if k == len(hand.plays):
        return hand
    return replace(
        hand,
        plays=hand.plays[:k],
        play_seats=hand.play_seats[:k],
        trick_winners=hand.trick_winners[: k // NUM_SEATS],
        winning=None,
        result=None,
    )


def review_frames(view: PlayerView) -> list[Frame]:
    """Every position worth looking at, from what ``view``'s seat may see: the finished hands
    (whose cards have all been seen played) at each trick, and the hand in progress as that seat
    saw it.  The sheet of each finished hand is rebuilt by replaying the finished hands, whose
    deals are known once played; no hidden card takes part."""
    first = view.history[0].forehand if view.history else view.forehand
    replica = Game(view.rules, view.players, first)
    frames: list[Frame] = []
    for past in view.history:
        before = replica.view(view.seat)
        hand = replica.start_hand(tuple(past.played_by(s) for s in range(NUM_SEATS)))
        for i, bid in enumerate(past.bids):
            if i >= len(hand.bids):  # the engine writes a player's forced passes itself, as it goes
                replica.bid(bid)
        for c in past.plays:
            replica.play(c)
        after = replica.view(view.seat)
        n = len(past.plays)
        for k in range(0, n + 1, NUM_SEATS):
            frames.append(Frame(_cut(past, k), past, k, after if k == n else before, True))
    current = view.shown_hand() if view.phase in (Phase.BIDDING, Phase.PLAY) else None
    if current is not None:
        n = len(current.plays)
        stops = [*range(0, n + 1, NUM_SEATS)]
        if n % NUM_SEATS:
            stops.append(n)
        frames += [Frame(_cut(current, k), current, k, view, False) for k in stops]
    return frames


class ReviewScreen(Screen[None]):
    """Step through a game trick by trick, as the person saw it: the hands already played face
    up, the hand in progress with only the person's own cards.  Renders from a ``PlayerView``."""

    BINDINGS = [
        Binding("right,space", "step(1)", "Next trick", id="next", key_display="→"),
        Binding("left", "step(-1)", "Previous", id="prev", key_display="←"),
        Binding("pagedown,down", "hand(1)", "Next hand", id="next_hand", key_display="↓"),
        Binding("pageup,up", "hand(-1)", "Prev hand", id="prev_hand", key_display="↑"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("escape,q", "leave", "Back", id="leave"),
    ]

    def __init__(self, view: PlayerView, title: str = "", standalone: bool = False) -> None:
        super().__init__()
        self.view = view
        self.title_text = title
        self.standalone = standalone
        self.frames = review_frames(view)
        self.index = 0

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="review"):
            yield Static(id="review-top")
            yield Static(id="review-sheet")
            yield Static(id="review-table")
            yield Static(id="review-analysis")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        look = Look(host(self).settings.ascii)
        view = self.view
        name = short_names(view.players, NAME_WIDTH, look.ellipsis)
        top = Text()
        top.append("Review", style="bold")
        if self.title_text:
            top.append(f" of {self.title_text}")
        top.append(f" ({view.rules.describe()})")
        if not self.frames:
            top.append("\nNo hand was dealt in this game yet.\n")
            self.query_one("#review-top", Static).update(top)
            self.query_one("#review-sheet", Static).update(sheet_table(view, look, highlight=None))
            self.query_one("#review-table", Static).update(Text())
            return
        frame = self.frames[self.index]
        hand, k = frame.hand, frame.k
        hands = len(view.history) + (1 if view.phase in (Phase.BIDDING, Phase.PLAY) else 0)
        t, in_trick = divmod(k, NUM_SEATS)
        top.append(f"\nHand {hand.number} of {hands}, ")
        top.append(f"trick {t + 1} in progress" if in_trick else f"after trick {t}")
        top.append(f"  (position {self.index + 1} of {len(self.frames)})\n")
        top.append_text(contract_line(frame.sheet, hand, look))
        self.query_one("#review-top", Static).update(top)
        self.query_one("#review-sheet", Static).update(sheet_table(frame.sheet, look, highlight=None))
        body = Text()
        said = [
            f"{name[seat]} " + ("passed" if b.is_pass else f"declared {b.describe()}")
            for b, seat in zip(hand.bids, hand.bid_seats, strict=True)
        ]
        body.append("; ".join(said) + "\n")
        tricks = hand.tricks()
        if tricks:
            shown = tricks[-1]
            body.append("Trick: ", style="bold")
            for seat, c in shown.cards:
                body.append(f"{name[seat]} ")
                body.append_text(look.card(c))
                if seat == shown.winner:
                    body.append(look.win_mark)
                body.append("   ")
            body.append("\n")
        if hand.declaration is not None or not frame.finished:
            ranking = hand.declaration.ranking if hand.declaration is not None else NINE_HIGH
            for seat in range(NUM_SEATS):
                played_later = frame.full.played_by(seat) & ~hand.played_by(seat)
                won = hand.tricks_won(seat)
                body.append(f"{name[seat]:<{NAME_WIDTH}} {won:>2} {'trick ' if won == 1 else 'tricks'}  ")
                if frame.finished:
                    held = played_later
                elif seat == view.seat:
                    held = view.own_cards | played_later
                else:
                    left = HAND_SIZE - bin(hand.played_by(seat)).count("1")
                    body.append(f"{left} card{'s' if left != 1 else ''} not shown\n", style="dim")
                    continue
                for c in sorted_cards(held, ranking):
                    body.append_text(look.card(c))
                    body.append(" ")
                body.append("\n")
        if view.phase is Phase.OVER and self.index == len(self.frames) - 1:
            body.append("\n")
            body.append_text(result_text(view))
        self.query_one("#review-table", Static).update(body)
        self._show_analysis(frame)

    def _show_analysis(self, frame: Frame) -> None:
        """What perfect play says of this position: a finished hand's analysis (solved in a
        worker the first time, then kept), nothing for the hand in progress."""
        from ..ai.analysis import position_lines, seen_by  # the first screen need not load the solver
        from . import hindsight

        try:
            widget = self.query_one("#review-analysis", Static)
        except NoMatches:  # the review was left while the solver worked
            return
        if not frame.finished or frame.full.declaration is None:
            widget.update(
                Text("The hand in progress is compared with perfect play once it has been played out.", style="dim")
                if frame.full.declaration is not None
                else ""
            )
            return
        answers = host(self).hindsight
        found = answers.known(frame.full, seen_by(self.view))
        if found is None:
            widget.update(Text("Against perfect play: working it out...", style="dim"))
            stop = hindsight.Stop()
            analyses = host(self).analyses
            analyses.add(stop)  # the app stops it when it quits, rather than wait for it
            self._analyse(answers, frame.full, stop, analyses)
            return
        text = Text("Analysis: ", style="bold")
        text.append(" ".join(position_lines(found, frame.k, self.view.players, self.view.seat)))
        widget.update(text)

    @work(thread=True, exclusive=True, group="analysis")
    def _analyse(self, answers: Hindsight, past: PastHand, stop: Stop, analyses: set[Callable[[], None]]) -> None:
        try:
            from ..ai.analysis import seen_by

            answers.analyse(past, stop=stop, seen=seen_by(self.view))
        finally:
            analyses.discard(stop)
        if not stop.stopped and not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._analysed, past)

    def _analysed(self, past: PastHand) -> None:
        if self.is_attached and self.frames and self.frames[self.index].full is past:
            self._show_analysis(self.frames[self.index])

    def action_step(self, step: int) -> None:
        if self.frames:
            self.index = max(0, min(len(self.frames) - 1, self.index + step))
            self.show()

    def action_hand(self, step: int) -> None:
        if not self.frames:
            return
        number = self.frames[self.index].hand.number + step
        for i, frame in enumerate(self.frames):
            if frame.hand.number == number:
                self.index = i
                self.show()
                return

    def action_jump(self, where: int) -> None:
        if self.frames:
            self.index = where % len(self.frames)
            self.show()

    def action_leave(self) -> None:
        if self.standalone:
            self.app.exit()
        else:
            self.app.pop_screen()
