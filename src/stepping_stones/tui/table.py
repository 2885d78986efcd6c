"""The table: where a game is bid and played.

The game's flow (deals, the AI seats' turns and pace, summaries, saving, undo)
is ``flow.GameFlow``, shared with the other front ends; this screen shows it
and turns keys and clicks into the person's bids and cards.  Every panel draws
from one ``TableState``, a snapshot of the person's ``PlayerView``.  AI seats
think in a thread worker on a frozen request, so the screen keeps answering
keys; the game itself is only changed on the UI thread.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ..ai import Action
from ..engine import CONTRACTS, NINE_HIGH, PASS, Bid, Declaration, Game, IllegalActionError, Phase, PlayerView
from ..explain import short_names
from ..flow import AiTurn, Event, GameFlow, GameOver, HandSummary, PersonTurn
from ..game.match import Request
from ..storage.session import HUMAN, Session
from ..storage.settings import Settings
from .host import host
from .panels import (
    HandPanel,
    HistoryPanel,
    LogPanel,
    NoticePanel,
    SheetPanel,
    TablePanel,
    TableState,
    TargetPanel,
    TopBar,
    TrackerPanel,
)
from .render import NAME_WIDTH, Look
from .widgets import CARD_KEYS, Clickable, TooSmall

_KEY_NAMES = {"-": "minus", "=": "equals_sign"}


class TableScreen(Screen[None]):
    """One game in progress."""

    BINDINGS = [
        Binding("left", "cursor(-1)", "Move", id="cursor_left", key_display="←→"),
        Binding("right", "cursor(1)", "Move", id="cursor_right", show=False),
        Binding("up", "bid_cursor(-1)", "Bid", id="bid_up", key_display="↑↓"),
        Binding("down", "bid_cursor(1)", "Contract", id="bid_down", show=False),
        Binding("enter", "confirm", "OK", id="confirm", key_display="⏎"),
        *[
            Binding(_KEY_NAMES.get(k, k), f"digit({i})", f"Card {k}", id=f"card_{i + 1}", show=False)
            for i, k in enumerate(CARD_KEYS)
        ],
        *[Binding(s.lower(), f"trump({i})", "Trump", id=f"trump_{s}", show=False) for i, s in enumerate("CKLB")],
        Binding("p", "pass_bid", "Pass", id="pass"),
        Binding("u", "undo", "Undo", id="undo"),
        Binding("u", "nothing_to_undo", "Undo", id="nothing_to_undo", show=False),
        Binding("i", "hint", "Hint", id="hint"),
        Binding("space", "continue", "Go on", id="continue", show=False),
        Binding("t", "last_trick", "Last trick", id="last_trick"),
        Binding("o", "tracker", "Cards out", id="tracker"),
        Binding("h", "history", "Tricks", id="history"),
        Binding("f1,question_mark", "help", "Help", id="help", key_display="?"),
        Binding("f", "pace", "Pace", id="pace"),
        Binding("n", "new_game", "New", id="new_game"),
    ]

    def __init__(self, session: Session, settings: Settings) -> None:
        super().__init__()
        self.session = session
        self.flow = GameFlow(session, settings, listener=self._on_event)
        self.cursor = 0  # index into the person's sorted hand
        self.bid_index = 0
        self.ranking = NINE_HIGH
        self.trump: int | None = None
        self.events: list[str] = []  # what happened, newest last
        self.refusal: str | None = None  # the person's last refused try, until they act again
        self.hint: str | None = None  # the hint asked for this turn (or that one is being worked out)
        self.hint_brief: str | None = None  # the same in a line or two, for a small window
        self._hint_for: tuple[int, int, int] | None = None  # the position the hint is for
        self._hint_full: str | None = None  # the hint that came for that position
        self.thinking = False  # an AI decision is being computed or waited for
        self._gen = 0  # bumped when the game moves on without them, so late AI answers are dropped
        self._pending: tuple[Request, Action, int] | None = None
        self._timer: Timer | None = None
        self._bindings_key: tuple[object, ...] | None = None
        if session.game.log:
            self.events.append("Game resumed where it stopped.")

    # --- layout ------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def look(self) -> Look:
        return Look(host(self).settings.ascii)

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(classes="body"):
            yield TopBar(id="topbar")
            yield SheetPanel(id="sheet")
            yield TargetPanel(id="target")
            with Horizontal(id="main"):
                with Vertical(id="centre"):
                    yield TablePanel(id="table")
                    with Vertical(id="bidpanel"):
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
                with Vertical(id="sidebar"):
                    yield TrackerPanel(id="tracker")
                    yield HistoryPanel(id="history")
            yield NoticePanel(id="save-notice")
            yield LogPanel(id="log")
            yield HandPanel(id="hand")
        yield Footer()

    def on_mount(self) -> None:
        self.render_all()
        self.call_after_refresh(self.advance)

    def on_unmount(self) -> None:
        self._gen += 1
        if self._timer:
            self._timer.stop()
        self.session.release()  # another copy of the app may open this game now

    # --- what the person sees ---------------------------------------------------

    def view(self) -> PlayerView:
        return self.flow.view()

    def state(self) -> TableState:
        """The snapshot every panel draws from."""
        view = self.view()
        playing = view.phase is Phase.PLAY and view.to_act == HUMAN
        return TableState(
            view=view,
            names=short_names(view.players, NAME_WIDTH, self.look.ellipsis),
            look=self.look,
            cursor=self.cursor if playing else None,
            events=tuple(self.events),
            refusal=self.refusal,
            hint=self.hint,
            hint_brief=self.hint_brief,
            problem=self.flow.problem,
            pace=host(self).settings.pace,
            assisted=self.flow.assisted,
            sort_ranking=self.ranking,
        )

    def my_cards(self) -> list[int]:
        return self.state().my_cards

    def my_turn(self) -> bool:
        return self.game.to_act == HUMAN and not self.thinking

    def bid_options(self) -> list[tuple[str | None, bool]]:
        """(contract id or None for pass, redo) for the person's bid turn."""
        opts: list[tuple[str | None, bool]] = []
        seen = set()
        for bid in self.view().legal_bids:
            key = (bid.contract.id, bid.redo) if isinstance(bid, Declaration) else (None, False)
            if key not in seen:
                seen.add(key)
                opts.append(key)
        return opts

    # --- drawing -------------------------------------------------------------

    def render_all(self) -> None:
        if not self.is_attached or not self.children:
            return  # the table is being taken down: nothing to draw on
        state = self.state()
        view = state.view
        for panel_id in ("#topbar", "#sheet", "#target", "#table", "#log", "#tracker", "#history"):
            self.query_one(panel_id).show(state)  # type: ignore[attr-defined]
        human_bids = view.phase is Phase.BIDDING and view.bidder == HUMAN
        centre = self.query_one("#centre")
        if centre.has_class("-bidding") != human_bids:
            centre.set_class(human_bids, "-bidding")  # the bids in place of the table (app.tcss)
        if human_bids:
            self._render_bidding(state)
        self.query_one("#hand", HandPanel).show(state)
        notice = self.query_one("#save-notice", NoticePanel)
        if notice.display != bool(state.problem):
            notice.display = bool(state.problem)
        notice.show(state)
        # The footer is rebuilt whenever the bindings are refreshed (costly), so only
        # when the phase changes; whose turn it is is checked inside the actions.
        key = (view.phase, view.in_puddle, self.flow.undo_point() is not None, view.hand_number)
        if key != self._bindings_key:
            self._bindings_key = key
            self.refresh_bindings()

    def _render_bidding(self, state: TableState) -> None:
        look = state.look
        view = state.view
        opts = self.bid_options()
        self.bid_index = min(self.bid_index, len(opts) - 1)
        hand = state.hand
        log = Text()
        if hand is not None:
            for i, (bid, seat) in enumerate(zip(hand.bids, hand.bid_seats, strict=True)):
                log.append(state.teller.bid(seat, bid, puddle=i >= 3) + "\n")
        if view.in_puddle:
            log.append("You are in the puddle: you must declare one of your open contracts.",
                       style="bold reverse")
        else:
            log.append("Your bid: declare a contract, or pass.", style="bold")
        self.query_one("#bidlog", Static).update(log)
        widgets = list(self.query(".bidopt").results(Clickable))
        for i, w in enumerate(widgets):
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
                marker = ">" if i == self.bid_index else " "
                w.update(Text(f"{marker} {label}"))
                w.set_class(i == self.bid_index, "-selected")
            else:
                w.display = False
        cid, _ = opts[self.bid_index] if opts else (None, False)
        picks = cid is not None and CONTRACTS[cid].picks_trump
        for w in self.query(".chip").results(Clickable):
            chosen = w.index == (self.ranking if w.kind == "rank" else self.trump)
            mark = ("(*)" if look.ascii else "◉") if chosen else ("( )" if look.ascii else "○")
            if w.kind == "rank":
                w.update(Text(f"{mark} {w.index} high"))
            else:
                w.update(Text.assemble(f"{mark} ", look.suit(w.index)))
            w.set_class(chosen, "-selected")
        self.query_one("#trumpchips").display = picks
        self.query_one("#trumplabel").display = picks
        hint = Text()
        enter = "Enter" if look.ascii else "⏎"
        if cid is None:
            hint.append(f"{enter} or p: pass")
        else:
            picked = self._chosen_bid()
            if picked is None:
                hint.append(f"{CONTRACTS[cid].name} needs a trump suit: press c, k, l or b.", style="bold")
            else:
                hint.append(f"{enter}: declare ")
                hint.append(picked.describe(), style="bold")
                hint.append(f"  ({CONTRACTS[cid].summary})", style="italic")
        self.query_one("#bidhint", Static).update(hint)

    # --- the flow of the game -------------------------------------------------

    def _on_event(self, event: Event) -> None:
        self.events.append(event.text)
        del self.events[:-40]

    def advance(self) -> None:
        """Ask the flow what happens next, and show it; called after every change."""
        if self.thinking or not self.is_attached:
            return
        step = self.flow.next_step()
        if isinstance(step, HandSummary):
            from .dialogs import HandSummaryScreen

            self.render_all()
            self.app.push_screen(HandSummaryScreen(step.view, step.number), self._summary_closed)
            return
        if isinstance(step, GameOver):
            self._gen += 1
            from .screens import GameOverScreen

            self.app.switch_screen(GameOverScreen(step.view, step.path, self.session.info.seed,
                                                  self.flow.problem, assisted=self.flow.assisted,
                                                  retry=self.flow.file, levels=self._levels()))
            return
        if isinstance(step, PersonTurn):
            view = step.view
            if view.phase is Phase.BIDDING and not self.bid_options():
                return
            if view.phase is Phase.PLAY:
                # start the person's turn on a card they may play
                cards = self.my_cards()
                legal = view.legal_cards
                if cards and not legal >> cards[min(self.cursor, len(cards) - 1)] & 1:
                    self.cursor = next(i for i, c in enumerate(cards) if legal >> c & 1)
            else:
                self.cursor = 0
            self.render_all()
            return
        assert isinstance(step, AiTurn)
        self.thinking = True
        self.render_all()
        self._think(step.request, self._gen, time.monotonic() + step.delay)

    def _levels(self) -> tuple[str, str, str]:
        """The levels of the three seats for ``simulate``: the person's seat played by the default."""
        from ..game.choices import DEFAULT_AI_LEVEL

        one, two = (self.session.level(s) or DEFAULT_AI_LEVEL for s in (1, 2))
        return (DEFAULT_AI_LEVEL, one, two)

    def _summary_closed(self, _result: object) -> None:
        self.flow.summary_seen()
        self.hint = self.hint_brief = None
        self.cursor = 0
        self.bid_index = 0
        self.ranking = NINE_HIGH
        self.trump = None
        self.advance()

    @work(thread=True, exclusive=True, group="ai", exit_on_error=True)
    def _think(self, request: Request, gen: int, not_before: float) -> None:
        """In a worker thread: ask the AI, then hand its choice back to the UI thread."""
        action = request.answer()
        self.app.call_from_thread(self._ai_ready, request, action, gen, not_before)

    def _ai_ready(self, request: Request, action: Action, gen: int, not_before: float) -> None:
        if gen != self._gen:
            return
        wait = not_before - time.monotonic()
        self._pending = (request, action, gen)
        if wait > 0.005:
            self._timer = self.set_timer(wait, self._apply_pending)
        else:
            self._apply_pending()

    def _apply_pending(self) -> None:
        if self._timer:
            self._timer.stop()
            self._timer = None
        pending, self._pending = self._pending, None
        if pending is None:
            return
        request, action, gen = pending
        if gen != self._gen:
            return
        self.thinking = False
        self.flow.ai_answered(request, action)
        self._after_card()
        self.render_all()
        self.advance()

    def _after_card(self) -> None:
        n = len(self.my_cards())
        if self.cursor >= n:
            self.cursor = max(0, n - 1)

    # --- the person's actions ----------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footer hints by phase: card keys while cards are played, bid keys while bidding."""
        g = self.game
        if action in ("cursor", "digit"):
            return g.phase is Phase.PLAY or (action == "digit" and g.phase is Phase.BIDDING)
        if action in ("bid_cursor", "trump"):
            return g.phase is Phase.BIDDING
        if action == "pass_bid":
            return g.phase is Phase.BIDDING and not g.in_puddle
        if action in ("undo", "nothing_to_undo"):
            # "Undo" is shown only when there is something to take back (so the footer fits 80
            # columns); otherwise u says why not
            return (self.flow.undo_point() is not None) == (action == "undo")
        if action == "tracker":
            return self.has_class("-narrow")  # beside the table from 120 columns
        return True  # the tricks are beside the table too, but only the newest that fit

    def on_resize(self) -> None:
        # The breakpoints (app.py) may have changed the screen's classes: the keys shown with them.
        self.refresh_bindings()

    def action_cursor(self, step: int) -> None:
        if not (self.game.phase is Phase.PLAY and self.my_turn()):
            return
        n = len(self.my_cards())
        if n:
            self.cursor = (self.cursor + step) % n
            self.query_one("#hand", HandPanel).show(self.state())

    def action_digit(self, index: int) -> None:
        g = self.game
        if not self.my_turn():
            return
        if g.phase is Phase.BIDDING:
            # While bidding, 9 and 1 choose the ranking (the digits pick cards during play).
            if CARD_KEYS[index] in ("1", "9"):
                self.ranking = int(CARD_KEYS[index])
                self.render_all()  # the hand re-sorts in the ranking being chosen
            return
        if index < len(self.my_cards()):
            self.cursor = index
            self.query_one("#hand", HandPanel).show(self.state())

    def action_confirm(self) -> None:
        if self.thinking:
            self.action_continue()
            return
        g = self.game
        if g.phase is Phase.PLAY and g.to_act == HUMAN:
            cards = self.my_cards()
            if cards:
                self.try_card(cards[self.cursor])
        elif g.phase is Phase.BIDDING and g.bidder == HUMAN:
            opts = self.bid_options()
            cid, _ = opts[self.bid_index]
            if cid is None:
                self.try_bid(PASS)
                return
            bid = self._chosen_bid()
            if bid is None:
                self.app.bell()  # the hint under the choices already says a trump is missing
                return
            self.try_bid(bid)

    def _chosen_bid(self) -> Bid | None:
        opts = self.bid_options()
        if not opts:
            return None
        cid, redo = opts[self.bid_index]
        if cid is None:
            return PASS
        contract = CONTRACTS[cid]
        if contract.picks_trump:
            if self.trump is None:
                return None
            return Declaration(contract, self.ranking, self.trump, redo)
        return Declaration(contract, self.ranking, None, redo)

    def try_card(self, card: int) -> None:
        try:
            self.flow.play(card)
        except IllegalActionError as exc:
            self.refusal = self.flow.refusal(exc)
            self.render_all()
            self.app.bell()
            return
        self.refusal = None
        self.hint = self.hint_brief = None
        self._after_card()
        self.render_all()
        self.advance()

    def try_bid(self, bid: Bid) -> None:
        try:
            self.flow.bid(bid)
        except IllegalActionError as exc:
            self.refusal = self.flow.refusal(exc)
            self.render_all()
            return
        self.refusal = None
        self.hint = self.hint_brief = None
        self.render_all()
        self.advance()

    def action_nothing_to_undo(self) -> None:
        self.refusal = "Nothing to take back: an undo only reaches back to your last move of this trick."
        self.render_all()

    def action_undo(self) -> None:
        """Take back the person's last bid or card, and the AI moves after it."""
        if self.flow.undo_point() is None:
            self.action_nothing_to_undo()
            return
        self._gen += 1  # an AI answer still on its way is for a position that is gone
        self.thinking = False
        self._pending = None
        if self._timer:
            self._timer.stop()
            self._timer = None
        self.flow.undo()
        self.refusal = None
        self.hint = self.hint_brief = None
        self._after_card()
        self.render_all()
        self.advance()

    # --- hints ---------------------------------------------------------------------

    def _position(self) -> tuple[int, int, int]:
        view = self.view()
        return (view.hand_number, len(view.bids), len(view.plays))

    def action_hint(self) -> None:
        """The expert's suggestion for the person's turn, with its reason, worked out in a thread;
        the cursor then rests on it, so Enter does it.  The game is marked as assisted."""
        if not self.my_turn():
            self.refusal = "A hint is for your own turn to bid or play."
            self.render_all()
            return
        if self._hint_for == self._position() and self.hint:
            if self._hint_full is not None:  # asked again: all of it, in a box
                from .dialogs import NoticeScreen

                self.app.push_screen(NoticeScreen("Hint", self._hint_full))
            return  # already there (or on its way)
        self._hint_for = self._position()
        self._hint_full = None
        self.refusal = None
        self.hint = "Hint: thinking it over..."
        self.render_all()
        self._work_out_hint(self.view(), self._hint_for)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _work_out_hint(self, view: PlayerView, position: tuple[int, int, int]) -> None:
        from ..ai.hints import hint_for

        try:
            found = hint_for(view)
        except ValueError:
            found = None
        self.app.call_from_thread(self._hint_ready, found, position)

    def _hint_ready(self, found: object, position: tuple[int, int, int]) -> None:
        from ..ai.hints import Hint

        if not self.is_attached or position != self._position() or self._hint_for != position:
            return  # the person has moved on
        if not isinstance(found, Hint):
            self.hint = "There is no hint for this position."
            self.render_all()
            return
        self.flow.mark_assisted()
        self.hint = f"Hint: {found.text}"
        self.hint_brief = f"Hint: {found.brief} (i: all of it)"
        self._hint_full = found.text
        action = found.action
        if isinstance(action, int):
            cards = self.my_cards()
            if action in cards:
                self.cursor = cards.index(action)
        else:
            key = (action.contract.id, action.redo) if isinstance(action, Declaration) else (None, False)
            opts = self.bid_options()
            if key in opts:
                self.bid_index = opts.index(key)
            if isinstance(action, Declaration):
                self.ranking = action.ranking
                self.trump = action.trump
        self.render_all()

    def action_bid_cursor(self, step: int) -> None:
        if not self.my_turn():
            return
        opts = self.bid_options()
        if opts:
            self.bid_index = (self.bid_index + step) % len(opts)
            self._render_bidding(self.state())

    def action_trump(self, suit: int) -> None:
        if not (self.game.phase is Phase.BIDDING and self.my_turn()):
            return
        self.trump = suit
        self._render_bidding(self.state())

    def action_pass_bid(self) -> None:
        if self.game.bidder == HUMAN and self.my_turn() and not self.game.in_puddle:
            self.try_bid(PASS)

    def action_continue(self) -> None:
        if self._pending is not None:
            self._apply_pending()

    def on_clickable_clicked(self, message: Clickable.Clicked) -> None:
        g = self.game
        if message.kind == "card":
            if g.phase is Phase.PLAY and self.my_turn():
                cards = self.my_cards()
                if message.index < len(cards):
                    self.cursor = message.index
                    self.try_card(cards[message.index])
        elif g.phase is Phase.BIDDING and self.my_turn():
            if message.kind == "bid":
                if message.index == self.bid_index:
                    self.action_confirm()
                    return
                self.bid_index = message.index
            elif message.kind == "rank":
                self.ranking = message.index
            elif message.kind == "trump":
                self.trump = message.index
            self.render_all()

    def on_click(self) -> None:
        # A click anywhere on the table skips the pause after a finished trick.
        self.action_continue()

    def action_last_trick(self) -> None:
        from .dialogs import LastTrickScreen

        self.app.push_screen(LastTrickScreen(self.view(), self.look))

    def action_tracker(self) -> None:
        from .dialogs import PanelScreen

        self.app.push_screen(PanelScreen(TrackerPanel, self.state(), "tracker"))

    def action_history(self) -> None:
        from .dialogs import PanelScreen

        self.app.push_screen(PanelScreen(HistoryPanel, self.state(), "history"))

    def action_help(self) -> None:
        host(self).action_help()

    def action_pace(self) -> None:
        host(self).action_cycle_pace()

    def action_new_game(self) -> None:
        host(self).action_new_game()

    def leave(self) -> None:
        """Stop reacting to AI answers (the game is being abandoned)."""
        self._gen += 1
        self.thinking = False
        if self._timer:
            self._timer.stop()

