"""Full screens: the setup form, the end of a game, the review of a saved game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Static

from ..choices import Setup
from ..engine import (
    CONTRACT_SETS,
    CONTRACTS,
    DEFAULT_CUT,
    HAND_SIZE,
    NINE_HIGH,
    NUM_SEATS,
    Game,
    PastHand,
    Phase,
    PlayerView,
    Rules,
    sorted_cards,
)
from ..safety import escape, names_problem
from ..settings import PACES, as_colour, as_pace, save_settings
from .host import host
from .render import Look, contract_line, result_text, sheet_table
from .seats import DEFAULT_LEVEL, levels
from .widgets import Choice, TooSmall


def _YES_NO(what: str) -> list[tuple[str, str]]:
    return [("no", "no"), (f"yes, {what}", "yes")]


def _yn(flag: bool) -> str:
    return "yes" if flag else "no"


def _row(label: str, widget) -> Horizontal:
    return Horizontal(Static(label, classes="label"), widget, classes="row")


class SetupScreen(Screen):
    """Choose the rules and the opponents; Enter starts with what is shown."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", id="start", key_display="⏎/^S"),
        Binding("enter", "start", "Start game", show=False),
        Binding("f1", "help", "Rules", id="help"),
        Binding("f2", "app.history", "History", id="history"),
        Binding("f3", "app.stats", "Statistics", id="stats"),
    ]

    def __init__(self, setup: Setup | None = None) -> None:
        super().__init__()
        self.setup = setup or Setup()

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    def _set_rules(self, **changes: Any) -> None:
        self.setup = replace(self.setup, rules=replace(self.setup.rules, **changes))

    def compose(self) -> ComposeResult:
        s = self.setup
        r = s.rules
        settings = host(self).settings
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="setup"):
            yield Static(Text.assemble(("Stepping Stones", "bold"),
                                       " - a new game for three: you and two computer players"),
                         id="setup-title")
            with Horizontal(id="setup-columns"):
                with VerticalScroll(id="setup-rules", can_focus=False):
                    yield Static("Rules", classes="heading")
                    yield _row("Contract set", Choice([("Standard", "standard"), ("Advanced", "advanced")],
                                                      r.contract_set, id="contract_set"))
                    yield _row("Short game", Choice(_YES_NO("9 hands"), _yn(r.short_game), id="short_game"))
                    yield _row("Left out", Choice(self._cut_options(r.contract_set),
                                                  r.omit or DEFAULT_CUT[r.contract_set], id="omit",
                                                  disabled=not r.short_game))
                    yield _row("Redo tokens", Choice(_YES_NO("one each"), _yn(r.redo_tokens), id="redo_tokens"))
                    yield _row("Deal seed", Input(s.seed or "", placeholder="random", compact=True, id="seed"))
                    yield Static("Display", classes="heading")
                    yield _row("AI pace", Choice([(p, p) for p in PACES], settings.pace, id="pace"))
                    yield _row("Colours", Choice([("automatic", "auto"), ("colour", "colour"),
                                                  ("monochrome", "mono")], settings.colour, id="colour"))
                    yield _row("Symbols", Choice([("suit symbols", "no"), ("ASCII only", "yes")], _yn(settings.ascii),
                                                 id="ascii"))
                with VerticalScroll(id="setup-seats", can_focus=False):
                    yield Static("Players", classes="heading")
                    yield _row("Your name", Input(s.player, max_length=40, compact=True, id="player"))
                    level_opts = [(lv, lv) for lv in levels()]
                    for i in range(2):  # seats 1 and 2, as in the game records (you are seat 0)
                        yield _row(f"Seat {i + 1} name", Input(s.names[i], max_length=40, compact=True,
                                                                id=f"name{i}"))
                        value = s.levels[i] if s.levels[i] in levels() else DEFAULT_LEVEL
                        if value not in levels():
                            value = levels()[-1]
                        yield _row(f"Seat {i + 1} level", Choice(level_opts, value, id=f"level{i}"))
                    yield Static(id="setup-error")
            yield Static(self._describe(), id="setup-summary")
            with Horizontal(id="setup-buttons"):
                yield Button("Start game", id="start-button", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#start-button").focus()

    @staticmethod
    def _cut_options(contract_set: str) -> list[tuple[str, str]]:
        usual = DEFAULT_CUT[contract_set]
        return [(CONTRACTS[c].label + (" (usual)" if c == usual else ""), c) for c in CONTRACT_SETS[contract_set]]

    def _describe(self) -> Text:
        rules = self.rules
        return Text(f"{rules.describe()}: {rules.hands} hands. Enter starts.", style="italic")

    def on_choice_changed(self, event: Choice.Changed) -> None:
        sid = event.choice.id
        rules = self.rules
        omit_choice = self.query_one("#omit", Choice)
        if sid == "contract_set" and event.value != rules.contract_set:
            omit_choice.set_options(self._cut_options(event.value), DEFAULT_CUT[event.value])
            self._set_rules(contract_set=event.value, omit=None)
        elif sid == "omit" and rules.short_game:
            self._set_rules(omit=event.value)
        elif sid == "short_game":
            short = event.value == "yes"
            self._set_rules(short_game=short, omit=omit_choice.value if short else None)
            omit_choice.disabled = not short
        elif sid == "redo_tokens":
            self._set_rules(redo_tokens=event.value == "yes")
        elif sid == "ascii":  # the display choices take effect now, and are kept once a game starts
            host(self).settings.ascii = event.value == "yes"
            self.app.set_class(host(self).settings.ascii, "-ascii")
        elif sid == "pace":
            host(self).settings.pace = as_pace(event.value)
        elif sid == "colour" and event.value != host(self).settings.colour:
            host(self).settings.colour = as_colour(event.value)
            host(self).apply_colour_mode()
        self.query_one("#setup-summary", Static).update(self._describe())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.action_start()

    def read_form(self) -> Setup | None:
        names = [self.query_one(f"#{wid}", Input).value.strip() for wid in ("player", "name0", "name1")]
        problem = names_problem(names)  # the same rule as for the names in a game record
        if problem:
            self.query_one("#setup-error", Static).update(Text(f"{problem[0].upper()}{problem[1:]}.",
                                                               style="bold red"))
            return None
        self.setup = replace(
            self.setup,
            player=names[0],
            names=(names[1], names[2]),
            levels=(self.query_one("#level0", Choice).value, self.query_one("#level1", Choice).value),
            seed=self.query_one("#seed", Input).value.strip() or None,
        )
        return self.setup

    def action_start(self) -> None:
        setup = self.read_form()
        if setup is not None:
            save_settings(host(self).settings)
            host(self).start_new_game(setup)

    def action_help(self) -> None:
        host(self).action_help(self.rules)


class GameOverScreen(Screen):
    """The final sheet, the winner(s) and how a tie was broken."""

    BINDINGS = [
        Binding("n,enter", "again", "New game", id="again", key_display="⏎/n"),
        Binding("s", "setup", "Change setup", id="setup"),
        Binding("r", "review", "Review", id="review"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def __init__(self, view: PlayerView, path: Path | None, seed: str | None = None,
                 problem: str | None = None, assisted: bool = False) -> None:
        super().__init__()
        self.view = view
        self.path = path
        self.seed = seed
        self.problem = problem
        self.assisted = assisted

    def compose(self) -> ComposeResult:
        look = Look(host(self).settings.ascii)
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="gameover"):
            yield Static(Text("The game is over", style="bold"), id="gameover-title")
            yield Static(sheet_table(self.view, look), id="final-sheet")
            yield Static(result_text(self.view), id="result")
            if self.assisted:
                yield Static(Text("This game was assisted (an undo or a hint was used): it is counted apart "
                                  "in your statistics.", style="italic"), id="assisted")
            if self.path:
                where = f"The game record is saved as {escape(str(self.path))}."
            elif self.problem:
                where = f"The game record was not saved: {self.problem}."
            else:
                where = ""
            if self.seed:
                where += (f"\nDeal seed: {self.seed} (stepping-stones simulate --seed {self.seed} "
                          "deals these cards again).")
            yield Static(Text(where + "\nn or Enter: a new game with the same setup   s: change the setup   "
                              "r: review this game   q: quit", style="italic"), id="gameover-help")
        yield Footer()

    def action_again(self) -> None:
        host(self).start_new_game(replace(host(self).last_setup, seed=None))

    def action_setup(self) -> None:
        host(self).show_setup()

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
    return replace(hand, plays=hand.plays[:k], play_seats=hand.play_seats[:k],
                   trick_winners=hand.trick_winners[: k // NUM_SEATS], winning=None, result=None)


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


class ReviewScreen(Screen):
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
        name = view.players
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
        said = [f"{name[seat]} " + ("passed" if b.is_pass else f"declared {b.describe()}")
                for b, seat in zip(hand.bids, hand.bid_seats, strict=True)]
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
                body.append(f"{name[seat][:12]:<12} {hand.tricks_won(seat):>2} tricks  ")
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
        from ..ai.analysis import position_lines  # the first screen need not load the solver
        from . import hindsight

        widget = self.query_one("#review-analysis", Static)
        if not frame.finished or frame.full.declaration is None:
            widget.update(Text("The hand in progress is compared with perfect play once it has been played out.",
                               style="dim") if frame.full.declaration is not None else "")
            return
        found = hindsight.known(frame.full)
        if found is None:
            widget.update(Text("Against perfect play: working it out...", style="dim"))
            self._analyse(frame.full)
            return
        text = Text("Analysis: ", style="bold")
        text.append(" ".join(position_lines(found, frame.k, self.view.players, self.view.seat)))
        widget.update(text)

    @work(thread=True, exclusive=True, group="analysis")
    def _analyse(self, past: PastHand) -> None:
        from . import hindsight

        hindsight.analyse(past)
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
