"""The table: where a game is bid and played.

The game's flow (deals, the AI seats' turns and pace, summaries, saving, undo, the cursor,
refusals, hints) is ``flow.GameFlow``, shared with the other front ends.  State flows one way:
the flow publishes an immutable ``TableState`` after every change, the screen holds it as one
reactive (``state``), and every panel is bound to it and draws itself from it.  The screen turns
keys and clicks into calls on the flow, and keeps no game state of its own.

AI seats and hints are worked out in Textual thread workers (groups ``ai`` and ``hint``, each
exclusive), on the flow's frozen requests; their answers come back as messages, which the screen
hands to the flow, which drops any whose request is no longer the one it waits for.  The game
itself is only changed on the UI thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen

from ..ai import Action
from ..ai.claims import ClaimError, ClaimRequest, Verdict
from ..ai.hints import Hint
from ..engine import PASS, Game, IllegalActionError, Phase
from ..flow import AiTurn, GameFlow, GameOver, HandSummary, HintRequest, TableFlow, TableState
from ..game.match import Request
from ..storage.session import Session
from ..storage.settings import Settings
from .bid_panel import BidPanel
from .hand_panel import HandPanel
from .host import host
from .panels import (
    HistoryPanel,
    LogPanel,
    NoticePanel,
    SheetPanel,
    TablePanel,
    TargetPanel,
    TopBar,
    TrackerPanel,
)
from .render import Look
from .widgets import CARD_KEYS, Clickable, KeyBar, SolverNotice, TooSmall

_KEY_NAMES = {"-": "minus", "=": "equals_sign"}


def _footer_key(state: TableState) -> tuple[object, ...]:
    """What the keys at the bottom depend on (only when this changes are they looked up again)."""
    view = state.view
    return (view.phase, view.in_puddle, state.can_undo, view.hand_number)


def _unset() -> TableState:
    raise RuntimeError("the table's state is set as the screen is made")


class TableBase(Screen[None]):
    """A table on show: the panels, bound to the flow's latest state, and the keys, which become
    calls on the flow (``TableFlow``).  ``TableScreen`` plays a game on this machine;
    ``tui.online.RemoteTableScreen`` a seat at a table on a server."""

    flow: TableFlow

    # In the order the line of keys shows them, as many as fit: those of the phase first (Claim
    # while cards are played), then Help and the panels; Pace and New only from 120 columns
    # (``footer_key``), so that no key comes and goes as the game goes on.
    BINDINGS = [
        Binding("left", "cursor(-1)", "Move", id="cursor_left", key_display="←→"),
        Binding("right", "cursor(1)", "Move", id="cursor_right", show=False),
        Binding("up", "bid_cursor(-1)", "Bid", id="bid_up", key_display="↑↓"),
        Binding("down", "bid_cursor(1)", "Bid", id="bid_down", show=False),
        Binding("enter", "confirm", "OK", id="confirm", key_display="⏎"),
        *[
            Binding(_KEY_NAMES.get(k, k), f"digit({i})", "Choose a card", id=f"card_{i + 1}", show=False)
            for i, k in enumerate(CARD_KEYS)
        ],
        *[Binding(s.lower(), f"trump({i})", "Trump", id=f"trump_{s}", show=False) for i, s in enumerate("CKLB")],
        Binding("p", "pass_bid", "Pass", id="pass"),
        Binding("u", "undo", "Undo", id="undo"),
        Binding("u", "nothing_to_undo", "Undo", id="nothing_to_undo"),  # shown dim: u says why not
        Binding("i", "hint", "Hint", id="hint"),
        Binding("c", "claim", "Claim", id="claim"),  # while cards are played (while bidding, c is a trump suit)
        Binding("f1,question_mark", "help", "Help", id="help", key_display="?"),
        Binding("space", "continue", "Go on", id="continue", show=False),
        Binding("t", "last_trick", "Last trick", id="last_trick"),
        Binding("o", "tracker", "Cards out", id="tracker"),
        Binding("h", "history", "Tricks", id="history"),
        Binding("f", "pace", "Pace", id="pace"),
        Binding("n", "new_game", "New", id="new_game"),
    ]

    state: reactive[TableState] = reactive(_unset, init=False, repaint=False)
    """What the table shows: the flow's latest state (every panel is bound to it).  A new state
    does not repaint the screen itself: each panel repaints what it draws if that changed, so
    one card played redraws the few lines that show it, not the whole screen."""
    look: reactive[Look] = reactive(Look, init=False, repaint=False)
    """How it is drawn: symbols or ASCII."""

    class HintCame(Message):
        """A hint worked out in a worker (None: there is none)."""

        def __init__(self, request: HintRequest, hint: Hint | None) -> None:
            super().__init__()
            self.request = request
            self.hint = hint

    def _publish(self, state: TableState) -> None:
        self.state = state

    # --- layout ------------------------------------------------------------

    def compose(self) -> ComposeResult:
        bound = (TableBase.state, TableBase.look)
        yield TooSmall(id="too-small")
        with Vertical(classes="body"):
            yield TopBar(id="topbar").data_bind(*bound)
            yield SheetPanel(id="sheet").data_bind(*bound)
            yield TargetPanel(id="target").data_bind(*bound)
            with Horizontal(id="main"):
                with Vertical(id="centre"):
                    yield TablePanel(id="table").data_bind(*bound)
                    yield BidPanel(id="bidpanel").data_bind(*bound)
                with Vertical(id="sidebar"):
                    yield TrackerPanel(id="tracker").data_bind(*bound)
                    yield HistoryPanel(id="history").data_bind(*bound)
            yield NoticePanel(id="save-notice").data_bind(*bound)
            yield SolverNotice(id="solver-notice")
            yield LogPanel(id="log").data_bind(*bound)
            yield HandPanel(id="hand").data_bind(*bound)
        # One widget for the keys, drawn again when they change (Undo comes and goes with every
        # card): Textual's Footer mounts a widget per key each time, which was some 40% of the
        # table's drawing in a game.
        yield KeyBar(id="table-keys")

    def on_mount(self) -> None:
        self._arrange(self.state)
        self.call_after_refresh(self.advance)

    def watch_state(self, old: TableState, new: TableState) -> None:
        """The panels draw themselves (they are bound to ``state``); the screen arranges them
        (not once it has gone: the end of the game may still file the game through the flow)."""
        if not self.is_mounted or not self.is_attached:
            return
        self._arrange(new)
        if _footer_key(old) != _footer_key(new):
            self.refresh_bindings()

    def _arrange(self, state: TableState) -> None:
        """The bids in place of the card table while the person bids (app.tcss), and the notice
        that the game is not being saved only while it is not."""
        centre = self.query_one("#centre")
        if centre.has_class("-bidding") != state.bidding:
            centre.set_class(state.bidding, "-bidding")
        notice = self.query_one("#save-notice", NoticePanel)
        if notice.display != bool(state.problem):
            notice.display = bool(state.problem)

    def advance(self) -> None:
        """Ask the flow what happens next, and start it; called after every change."""
        raise NotImplementedError

    def _go_on(self) -> None:
        """Enter, Space or a click while others act: skip the wait for them, if there is one."""

    def after_undo(self) -> None:
        """An undo was made: what the screen does then."""

    # --- the person's actions ----------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footer hints by phase: card keys while cards are played, bid keys while bidding."""
        view = self.state.view
        if action in ("cursor", "digit"):
            return view.phase is Phase.PLAY or (action == "digit" and view.phase is Phase.BIDDING)
        if action in ("bid_cursor", "trump"):
            return view.phase is Phase.BIDDING
        if action == "claim":
            return view.phase is Phase.PLAY
        if action == "pass_bid":
            return view.phase is Phase.BIDDING and not view.in_puddle
        if action in ("undo", "nothing_to_undo"):
            # one u at a time: with nothing to take back, u says why not (its key shown dim)
            return self.state.can_undo == (action == "undo")
        if action == "tracker":
            return self.has_class("-narrow")  # beside the table from 120 columns
        return True  # the tricks are beside the table too, but only the newest that fit

    def footer_key(self, action: str) -> bool | None:
        """How the line of keys shows ``action``'s key (``KeyBar``): True as it is, None dim (u
        with nothing to take back), False not at all: Pace and New under 120 columns, where the
        keys of the phase fill the line (the help and Ctrl+P name them)."""
        if action == "nothing_to_undo":
            return None
        if action in ("pace", "new_game"):
            return not self.has_class("-narrow")
        return True

    def on_resize(self) -> None:
        # The breakpoints (app.py) may have changed the screen's classes: the keys shown with them.
        self.refresh_bindings()

    def action_cursor(self, step: int) -> None:
        self.flow.move_cursor(step)

    def action_digit(self, index: int) -> None:
        if self.state.bidding:
            # While bidding, 9 and 1 choose the ranking (the digits pick cards during play).
            if CARD_KEYS[index] in ("1", "9"):
                self.flow.choose_bid(ranking=int(CARD_KEYS[index]))  # the hand re-sorts in it
        else:
            self.flow.put_cursor(index)

    def action_confirm(self) -> None:
        if self.state.thinking is not None:
            self._go_on()  # Enter skips the wait
            return
        try:
            done = self.flow.confirm()
        except IllegalActionError:
            self.app.bell()  # the state's refusal says why
            return
        if done:
            self.advance()
        elif self.state.bidding:
            self.app.bell()  # the hint under the bid choices already says a trump is missing

    def _act(self, do: Callable[[], None]) -> None:
        try:
            do()
        except IllegalActionError:
            self.app.bell()
            return
        self.advance()

    def action_undo(self) -> None:
        """Take back the person's last bid or card, and the AI moves after it."""
        if self.flow.undo():
            self.after_undo()
            self.advance()

    def action_nothing_to_undo(self) -> None:
        self.flow.undo()  # says why not

    # --- claims -----------------------------------------------------------------------

    def action_claim(self) -> None:
        """Claim the rest of the tricks: a dialog asks how many, the flow's referee checks it."""
        view = self.state.view
        if not self.state.playing or view.contract is None or view.declarer is None:
            self._claimed(0)  # the flow says why not
            return
        from .claim import ClaimScreen

        partner = next(s for s in range(1, 3) if s != view.declarer)
        side = "you" if view.declarer == 0 else f"you and {view.players[partner]}"
        self.app.push_screen(ClaimScreen(view.contract, len(view.trick_winners), side), self._claimed)

    def _claimed(self, tricks: int | None) -> None:
        """The claim dialog's answer: ``tricks`` claimed, or ``None`` (nothing claimed)."""
        if tricks is None:
            return
        try:
            self._claim(tricks)
        except ClaimError:
            self.app.bell()  # the state's refusal says why

    def _claim(self, tricks: int) -> None:
        """Claim ``tricks`` through the flow (a table's server judges it).  Raises ``ClaimError``."""
        if self.flow.claim(tricks):
            self.workers.cancel_group(self, "hint")
            self.advance()

    # --- hints ---------------------------------------------------------------------

    def action_hint(self) -> None:
        """The expert's suggestion for the person's turn, with its reason, worked out in a thread;
        the cursor then rests on it, so Enter does it.  The game is marked as assisted.  Asked
        again, all of it in a box."""
        state = self.state
        if state.hint is not None and state.my_turn:
            from .dialogs import NoticeScreen

            self.app.push_screen(NoticeScreen("Hint", state.hint.text))
            return
        request = self.flow.ask_hint()
        if request is not None:
            self._work_out_hint(request)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _work_out_hint(self, request: HintRequest) -> None:
        self.post_message(self.HintCame(request, request.answer()))

    def on_table_base_hint_came(self, message: HintCame) -> None:
        self.flow.hint_came(message.request, message.hint)

    def action_bid_cursor(self, step: int) -> None:
        self.flow.choose_bid(step=step)

    def action_trump(self, suit: int) -> None:
        self.flow.choose_bid(trump=suit)

    def action_pass_bid(self) -> None:
        state = self.state
        if state.bidding and not state.view.in_puddle:
            self._act(partial(self.flow.bid, PASS))

    def action_continue(self) -> None:
        self._go_on()

    def on_clickable_clicked(self, message: Clickable.Clicked) -> None:
        state = self.state
        if message.kind == "card":
            if state.playing and message.index < len(state.my_cards):
                self.flow.put_cursor(message.index)
                self._act(partial(self.flow.play, state.my_cards[message.index]))
        elif state.bidding:
            if message.kind == "bid":
                if message.index == state.bid.index:
                    self.action_confirm()
                    return
                self.flow.choose_bid(index=message.index)
            elif message.kind == "rank":
                self.flow.choose_bid(ranking=message.index)
            elif message.kind == "trump":
                self.flow.choose_bid(trump=message.index)

    def on_click(self) -> None:
        # A click anywhere on the table skips the pause after a finished trick.
        self.action_continue()

    def action_last_trick(self) -> None:
        from .dialogs import LastTrickScreen

        self.app.push_screen(LastTrickScreen(self.state.view, self.look))

    def action_tracker(self) -> None:
        from .dialogs import PanelScreen

        self.app.push_screen(PanelScreen(TrackerPanel, self.state, self.look, "tracker"))

    def action_history(self) -> None:
        from .dialogs import PanelScreen

        self.app.push_screen(PanelScreen(HistoryPanel, self.state, self.look, "history"))

    def action_help(self) -> None:
        host(self).action_help()

    def action_pace(self) -> None:
        host(self).action_cycle_pace()

    def action_new_game(self) -> None:
        host(self).action_new_game()


class TableScreen(TableBase):
    """One game in progress on this machine (``GameFlow``)."""

    flow: GameFlow

    class AiAnswered(Message):
        """An AI seat's answer, worked out in a worker; it may show from ``not_before`` on."""

        def __init__(self, request: Request, action: Action, not_before: float) -> None:
            super().__init__()
            self.request = request
            self.action = action
            self.not_before = not_before

    def __init__(self, session: Session, settings: Settings) -> None:
        super().__init__()
        self.session = session
        self.flow = GameFlow(session, settings)
        self.settings = settings
        self.set_reactive(TableScreen.state, self.flow.state)
        self.set_reactive(TableScreen.look, Look(settings.ascii))
        self.flow.subscribe(self._publish)
        self.flow.subscribe(self._ring)
        self._turn = self.flow.state.my_turn  # the person's turn as last told (the bell rings when it comes)

    def _ring(self, state: TableState) -> None:
        """The terminal's bell when the person's turn comes after the computers' (the ``bell``
        setting), as at a table on a server; the top bar says "Your turn." (``status_line``)."""
        turn = state.my_turn and state.summary is None and not state.over
        if turn and not self._turn and self.settings.bell and self.is_attached:
            self.app.bell()
        self._turn = turn

    @property
    def game(self) -> Game:
        """The game itself, for the app's own uses (the review, quitting) and the tests; nothing
        on the table is drawn from it."""
        return self.session.game

    def on_unmount(self) -> None:
        self.leave()
        self.session.release()  # another copy of the app may open this game now

    # --- the flow of the game -------------------------------------------------

    def advance(self) -> None:
        """Ask the flow what happens next, and start it; called after every change."""
        if not self.is_attached or self.state.thinking is not None:
            return
        step = self.flow.next_step()
        if isinstance(step, HandSummary):
            from .dialogs import HandSummaryScreen

            self.app.push_screen(HandSummaryScreen(step.view, step.number), self._summary_closed)
        elif isinstance(step, GameOver):
            from .screens import GameOverScreen

            self.app.switch_screen(
                GameOverScreen(
                    step.view,
                    step.path,
                    self.session.info.seed,
                    self.flow.problem,
                    assisted=self.flow.assisted,
                    retry=self.flow.file,
                    levels=self._levels(),
                )
            )
        elif isinstance(step, AiTurn):
            self._think(step, time.monotonic() + step.delay)

    def _levels(self) -> tuple[str, str, str]:
        """The levels of the three seats for ``simulate``: the person's seat played by the default."""
        from ..game.choices import DEFAULT_AI_LEVEL

        one, two = (self.session.level(s) or DEFAULT_AI_LEVEL for s in (1, 2))
        return (DEFAULT_AI_LEVEL, one, two)

    def _summary_closed(self, _result: object) -> None:
        self.flow.summary_seen()
        self.advance()

    @work(thread=True, exclusive=True, group="ai", exit_on_error=True)
    def _think(self, turn: AiTurn, not_before: float) -> None:
        """In a worker thread: ask the AI, then send its choice back as a message."""
        self.post_message(self.AiAnswered(turn.request, turn.request.answer(), not_before))

    def on_table_screen_ai_answered(self, message: AiAnswered) -> None:
        if not self.flow.hold(message.request, message.action):
            return  # the flow has moved on without it
        wait = message.not_before - time.monotonic()
        if wait > 0.005:
            self.set_timer(wait, partial(self._go_on, message.request))
        else:
            self._go_on(message.request)

    def _go_on(self, request: Request | None = None) -> None:
        """Show the held AI answer (that of ``request``, or any: the person skipped the wait)."""
        if self.flow.go_on(request):
            self.advance()

    # --- claims: judged in a worker (a claim in the first tricks can take a few seconds) ------

    class ClaimJudged(Message):
        """The referee's verdict on a claim, worked out in a worker."""

        def __init__(self, request: ClaimRequest, verdict: Verdict) -> None:
            super().__init__()
            self.request = request
            self.verdict = verdict

    def _claim(self, tricks: int) -> None:
        """Here the referee judges the claim, in a worker.  Raises ``ClaimError``."""
        self._judge_claim(self.flow.ask_claim(tricks))

    @work(thread=True, exclusive=True, group="claim", exit_on_error=False)
    def _judge_claim(self, request: ClaimRequest) -> None:
        self.post_message(self.ClaimJudged(request, request.answer()))

    def on_table_screen_claim_judged(self, message: ClaimJudged) -> None:
        if self.flow.claim_judged(message.request, message.verdict):
            self.workers.cancel_group(self, "hint")
            self.advance()

    def leave(self) -> None:
        """Stop taking answers: the game is being left."""
        self.flow.close()
        self.workers.cancel_group(self, "ai")
        self.workers.cancel_group(self, "hint")
        self.workers.cancel_group(self, "claim")

    def after_undo(self) -> None:
        self.workers.cancel_group(self, "ai")
