"""The table: where a game is bid and played.

The screen drives the game: after every action it saves the record, redraws
everything from the engine's state and decides what comes next (deal, the
person's turn, an AI seat's turn, the end of a hand or of the game).  AI
seats think in a thread worker on a frozen view of the game, so the screen
keeps answering keys; the game itself is only ever changed on the UI thread.
"""

from __future__ import annotations

import time
from functools import partial

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ..engine import (
    CONTRACTS,
    HAND_SIZE,
    NINE_HIGH,
    NUM_SEATS,
    PASS,
    TRICKS,
    Bid,
    Declaration,
    IllegalActionError,
    PastHand,
    Phase,
    PlayerView,
    play_seats,
    sorted_cards,
)
from ..match import Match, Request
from ..session import HUMAN, Session, bid_text
from ..settings import PACE_DELAYS, PACES, save_settings
from .host import host
from .render import Look, contract_line, sheet_table
from .seats import make_seat
from .widgets import CARD_KEYS, Clickable, HandView, TooSmall, verb

_KEY_NAMES = {"-": "minus", "=": "equals_sign"}


class TableScreen(Screen):
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
        Binding("space", "continue", "Go on", id="continue", show=False),
        Binding("t", "last_trick", "Last trick", id="last_trick"),
        Binding("f1,question_mark", "help", "Help", id="help", key_display="?"),
        Binding("f", "pace", "Pace", id="pace"),
        Binding("n", "new_game", "New", id="new_game"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        seats = [None if (level := session.level(s)) is None else make_seat(level) for s in range(NUM_SEATS)]
        # Every deal, bid and card goes through the match, which saves after each change.  A
        # faulty AI answer is replaced by a legal one: a person's game never stops on it.
        self.match = Match(session.game, seats, session.seeds, listener=lambda _game: self.save(),
                           strict=False)
        self.cursor = 0  # index into the person's sorted hand
        self.bid_index = 0
        self.ranking = 9
        self.trump: int | None = None
        self.events: list[tuple[str, str]] = []  # (text, style) of recent happenings
        self.thinking = False  # an AI decision is being computed or waited for
        self._gen = 0  # bumped when the game is left, so late AI answers are dropped
        self._pending: tuple[Request, Bid | int, int] | None = None
        self._timer: Timer | None = None
        # Hands whose summary was shown.  After a resume the hand in progress still gets its
        # summary, and a finished hand whose summary may not have been seen shows it again.
        self._summarized = len(session.game.log) - 1
        self.ai_started_at = 0.0
        self._bindings_key: tuple | None = None

    # --- layout ------------------------------------------------------------

    @property
    def game(self):
        return self.session.game

    @property
    def look(self) -> Look:
        return Look(host(self).settings.ascii)

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(classes="body"):
            yield Static(id="topbar")
            yield Static(id="sheet")
            yield Static(id="contract")
            with Horizontal(id="middle"):
                with Vertical(id="left"):
                    yield Static(id="seats")
                    yield Static(id="trick")
                yield Static(id="piles")
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
            yield Static(id="save-notice")
            yield Static(id="message")
            yield HandView(id="hand")
        yield Footer()

    def on_mount(self) -> None:
        if self.game.log:
            self.note("Game resumed where it stopped.")
        self.render_all()
        self.call_after_refresh(self.advance)

    def on_unmount(self) -> None:
        self._gen += 1
        if self._timer:
            self._timer.stop()
        self.session.release()  # another copy of the app may open this game now

    # --- what the person sees ---------------------------------------------------
    #
    # Everything drawn comes from the person's PlayerView, never from the game itself: a card
    # the person has not seen played cannot be drawn in the wrong place by mistake.

    def view(self) -> PlayerView:
        return self.game.view(HUMAN)

    def my_cards(self) -> list[int]:
        view = self.view()
        return sorted_cards(view.own_cards, view.ranking or NINE_HIGH)

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
        view = self.view()
        hand = view.shown_hand()
        look = self.look
        self._set("#topbar", self._topbar(view, hand))
        self._set("#sheet", sheet_table(view, look))
        self._set("#contract", contract_line(view, hand, look))
        human_bids = view.phase is Phase.BIDDING and view.bidder == HUMAN
        middle = self.query_one("#middle")
        if middle.display == human_bids:
            middle.display = not human_bids
            self.query_one("#bidpanel").display = human_bids
        if human_bids:
            self._render_bidding(view)
        else:
            self._set("#seats", self._seats(view, hand))
            self._set("#trick", self._trick(view, hand))
            self._set("#piles", self._piles(view, hand))
        self._render_hand(view)
        msg = Text()
        for text, style in self.events[-(6 if self.app.has_class("-tall") else 2):]:
            if msg:
                msg.append("\n")
            msg.append(text, style=style)
        self._set("#message", msg)
        problem = self.session.problem
        notice = self.query_one("#save-notice", Static)
        if notice.display != bool(problem):
            notice.display = bool(problem)
        if problem:
            notice.update(Text(f"This game is not being saved: {problem}. It goes on, but it is lost "
                               "when you quit.", style="bold"))
        # The footer is rebuilt whenever the bindings are refreshed (costly), so only
        # when the phase changes; whose turn it is is checked inside the actions.
        key = (view.phase, view.in_puddle)
        if key != self._bindings_key:
            self._bindings_key = key
            self.refresh_bindings()

    def _set(self, selector: str, content: RenderableType) -> None:
        """Update a fixed-size part of the table without a new layout pass (they are costly)."""
        self.query_one(selector, Static).update(content, layout=False)

    def _topbar(self, view: PlayerView, hand: PastHand | None) -> Text:
        look = self.look
        rules = view.rules
        n = hand.number if hand is not None else 0
        total = rules.hands
        t = Text()
        t.append(rules.describe(brief=True), style="bold")
        t.append(look.sep)
        t.append(f"Hand {n} of {total}" + (f" (+{n - total} redo)" if n > total else ""))
        if hand is not None:
            t.append(f"{look.sep}Forehand: {view.players[hand.forehand]}")
        t.append(f"{look.sep}Pace: {host(self).settings.pace}")
        return t

    def _seats(self, view: PlayerView, hand: PastHand | None) -> Text:
        look = self.look
        t = Text()
        for seat in (1, 2, 0):
            name = view.players[seat]
            t.append(f"{name[:10]:<10} ", style="bold" if seat == HUMAN else "")
            if seat != HUMAN:
                held = HAND_SIZE - hand.played_by(seat).bit_count() if hand is not None else 0
                t.append(f"{held:>2} cards ")
            else:
                t.append(" " * 9)
            if hand is not None and hand.declaration is not None:
                won = hand.tricks_won(seat)
                t.append(f"{won:>2} trick{'s' if won != 1 else ' '}")
            if hand is not None and hand.forehand == seat:
                t.append(" forehand", style="italic")
            else:
                t.append(" " * 9)
            if view.to_act == seat:
                arrow = "<" if look.ascii else "◀"
                doing = "to bid" if view.phase is Phase.BIDDING else "to play"
                t.append(" ")
                t.append(f"{arrow} {doing}", style="bold reverse")
            t.append("\n")
        return t

    def _trick(self, view: PlayerView, hand: PastHand | None) -> Text:
        look = self.look
        name = view.players
        t = Text()
        if hand is None:
            return t
        if view.phase is Phase.BIDDING:
            t.append(f"Bidding for hand {hand.number}\n", style="bold")
            t.append_text(self._bid_log(view, hand))
            return t
        if hand.declarer is None:
            return t
        tricks = hand.tricks()
        if not tricks:
            t.append("Trick 1: ", style="bold")
            who = name[hand.declarer]
            t.append(f"{who} {verb(who, 'leads')}.\n")
            return t
        trick = tricks[-1]  # the one being played, or the one just finished
        winner, done = trick.winner, trick.finished
        t.append(f"Trick {trick.number}", style="bold")
        t.append(f": won by {name[winner]}\n" if done else "\n")
        by_seat = dict(trick.cards)
        for seat in play_seats(trick.leader, (), NUM_SEATS):
            t.append(f"  {name[seat][:12]:<12} ")
            if seat in by_seat:
                t.append_text(look.card(by_seat[seat]))
                if seat == winner:
                    t.append(f" {look.win_mark} " + ("won" if done else "winning"), style="bold")
            else:
                t.append(look.dot * 3, style="dim")
            t.append("\n")
        return t

    def _piles(self, view: PlayerView, hand: PastHand | None) -> Text:
        look = self.look
        t = Text()
        if hand is None or hand.declarer is None or hand.contract is None:
            return t
        d = hand.declarer
        mine = [i for i, w in enumerate(hand.trick_winners) if w == d]
        theirs = len(hand.trick_winners) - len(mine)
        t.append(f"{view.players[d][:12]} (declarer)\n", style="bold")
        if mine:
            t.append(" ".join(f"{look.pile}{i + 1}" for i in mine))
            t.append(f"\n{len(mine)} trick{'s' if len(mine) != 1 else ''}")
            first = hand.contract.first_counted
            if first > 1:
                t.append(f", {hand.count()} counted (tricks {first}-{TRICKS})")
            t.append("\n")
        else:
            t.append("no tricks yet\n", style="dim")
        t.append("Defenders (one pile)\n", style="bold")
        t.append(f"{look.pile * theirs} {theirs} trick{'s' if theirs != 1 else ''}\n")
        return t

    def _bid_log(self, view: PlayerView, hand: PastHand) -> Text:
        name = view.players
        t = Text()
        for i, (bid, seat) in enumerate(zip(hand.bids, hand.bid_seats, strict=True)):
            t.append(bid_text(name[seat], bid, puddle=i >= NUM_SEATS) + "\n")
        bidder = view.bidder
        if view.phase is Phase.BIDDING and bidder is not None and bidder != HUMAN:
            who = name[bidder]
            if view.in_puddle:
                t.append(f"All three passed: {who} {verb(who, 'is')} in the puddle and must declare.\n",
                         style="bold")
            else:
                t.append(f"{who} is thinking...\n", style="italic")
        return t

    def _render_bidding(self, view: PlayerView) -> None:
        look = self.look
        opts = self.bid_options()
        self.bid_index = min(self.bid_index, len(opts) - 1)
        hand = view.shown_hand()
        log = self._bid_log(view, hand) if hand is not None else Text()
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
        cid, redo = opts[self.bid_index] if opts else (None, False)
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
        if cid is None:
            hint.append("⏎ or p: pass" if not look.ascii else "Enter or p: pass")
        else:
            bid = self._chosen_bid()
            if bid is None:
                hint.append(f"{CONTRACTS[cid].name} needs a trump suit: press c, k, l or b.", style="bold")
            else:
                hint.append(("⏎" if not look.ascii else "Enter") + ": declare ")
                hint.append(bid.describe(), style="bold")
                hint.append(f"  ({CONTRACTS[cid].summary})", style="italic")
        self.query_one("#bidhint", Static).update(hint)

    def _render_hand(self, view: PlayerView) -> None:
        cards = sorted_cards(view.own_cards, view.ranking or NINE_HIGH)
        playing = view.phase is Phase.PLAY and view.to_act == HUMAN
        legal = view.legal_cards if playing else 0
        if cards:
            self.cursor = max(0, min(self.cursor, len(cards) - 1))
        self.query_one("#hand", HandView).show(cards, legal, self.cursor if playing else None, playing,
                                                self.look)

    # --- the flow of the game -------------------------------------------------

    def note(self, text: str, style: str = "") -> None:
        self.events.append((text, style))
        del self.events[:-6]

    def save(self) -> None:
        """Save after every change; a failure shows as a notice on the table (``render_all``)
        and the game goes on in memory."""
        self.session.save()

    def advance(self) -> None:
        """Decide what happens next; called after every change."""
        if self.thinking or not self.is_attached:
            return
        g = self.game
        if g.phase in (Phase.DEAL, Phase.OVER):
            then = self._end_game if g.over else self._deal
            if g.log and self._summarized < len(g.log):
                self._summarized = len(g.log)
                from .dialogs import HandSummaryScreen

                self.app.push_screen(HandSummaryScreen(self.view(), len(g.log)), lambda _: then())
                return
            then()
            return
        seat = g.to_act
        if seat == HUMAN:
            if g.phase is Phase.PLAY:
                # start the person's turn on a card they may play
                cards = self.my_cards()
                legal = g.legal_cards_mask()
                if cards and not legal >> cards[min(self.cursor, len(cards) - 1)] & 1:
                    self.cursor = next(i for i, c in enumerate(cards) if legal >> c & 1)
            self.render_all()
            return
        self._start_ai()

    def _deal(self) -> None:
        if self.game.phase is not Phase.DEAL:
            return
        hand = self.match.deal()
        self.cursor = 0
        self.bid_index = 0
        self.ranking = NINE_HIGH
        self.trump = None
        who = self.game.name(hand.forehand)
        self.note(f"Hand {hand.number} dealt. {who} {verb(who, 'holds')} the forehand card.")
        self.render_all()
        self.advance()

    def _start_ai(self) -> None:
        g = self.game
        card_delay, trick_delay = PACE_DELAYS[host(self).settings.pace]
        delay = card_delay
        state = g.state
        if g.phase is Phase.PLAY and state is not None and state.in_trick == 0 and state.trick_number > 0:
            delay = trick_delay  # let the finished trick be seen
        self.thinking = True
        self.ai_started_at = time.monotonic()
        self.render_all()
        request = self.match.request()
        gen = self._gen
        self.run_worker(
            partial(self._think, request, gen, time.monotonic() + delay),
            thread=True,
            group="ai",
            exit_on_error=True,
        )

    def _think(self, request: Request, gen: int, not_before: float) -> None:
        """In the worker thread: ask the AI, then hand its choice back to the UI thread."""
        action = request.answer()
        self.app.call_from_thread(self._ai_ready, request, action, gen, not_before)

    def _ai_ready(self, request: Request, action: Bid | int, gen: int, not_before: float) -> None:
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
        g = self.game
        self.thinking = False
        puddle = g.in_puddle
        bidding = g.phase is Phase.BIDDING
        self.match.answer(request, action)
        if bidding:
            bid = g.current_hand().bids[-1]
            self.note(bid_text(g.name(request.seat), bid, puddle), "bold" if not bid.is_pass else "")
        else:
            self._after_card()
        self.render_all()
        self.advance()

    def _after_card(self) -> None:
        hand = self.view().shown_hand()
        if hand is not None and hand.plays and len(hand.plays) % NUM_SEATS == 0:
            t = len(hand.trick_winners)
            self.note(f"{self.game.name(hand.trick_winners[-1])} won trick {t}.")
            if self.cursor >= len(self.my_cards()):
                self.cursor = max(0, len(self.my_cards()) - 1)

    def _end_game(self) -> None:
        self._gen += 1
        self.save()
        path = self.session.archive("game")
        self.session.release()
        from .screens import GameOverScreen

        self.app.switch_screen(GameOverScreen(self.view(), path, self.session.info.seed, self.session.problem))

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
        return True

    def action_cursor(self, step: int) -> None:
        if not (self.game.phase is Phase.PLAY and self.my_turn()):
            return
        n = len(self.my_cards())
        if n:
            self.cursor = (self.cursor + step) % n
            self._render_hand(self.view())

    def action_digit(self, index: int) -> None:
        g = self.game
        if not self.my_turn():
            return
        if g.phase is Phase.BIDDING:
            # While bidding, 9 and 1 choose the ranking (the digits pick cards during play).
            if CARD_KEYS[index] in ("1", "9"):
                self.ranking = int(CARD_KEYS[index])
                self._render_bidding(self.view())
            return
        if index < len(self.my_cards()):
            self.cursor = index
            self._render_hand(self.view())

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
            self.match.apply(card)
        except IllegalActionError as exc:
            self.note(f"{exc}. Choose another card.", "bold red")
            self.render_all()
            self.app.bell()
            return
        self._after_card()
        self.render_all()
        self.advance()

    def try_bid(self, bid: Bid) -> None:
        g = self.game
        puddle = g.in_puddle
        try:
            self.match.apply(bid)
        except IllegalActionError as exc:
            self.note(str(exc), "bold red")
            self.render_all()
            return
        self.note(bid_text(g.name(HUMAN), bid, puddle), "bold" if not bid.is_pass else "")
        self.render_all()
        self.advance()

    def action_bid_cursor(self, step: int) -> None:
        if not self.my_turn():
            return
        opts = self.bid_options()
        if opts:
            self.bid_index = (self.bid_index + step) % len(opts)
            self._render_bidding(self.view())

    def action_trump(self, suit: int) -> None:
        if not (self.game.phase is Phase.BIDDING and self.my_turn()):
            return
        self.trump = suit
        self._render_bidding(self.view())

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
            self._render_bidding(self.view())

    def on_click(self) -> None:
        # A click anywhere on the table skips the pause after a finished trick.
        self.action_continue()

    def action_last_trick(self) -> None:
        from .dialogs import LastTrickScreen

        self.app.push_screen(LastTrickScreen(self.view(), self.look))

    def action_help(self) -> None:
        host(self).action_help()

    def action_pace(self) -> None:
        settings = host(self).settings
        settings.pace = PACES[(PACES.index(settings.pace) + 1) % len(PACES)]
        save_settings(settings)
        self.note(f"AI pace: {settings.pace}.")
        self.render_all()

    def action_new_game(self) -> None:
        host(self).action_new_game()

    def leave(self) -> None:
        """Stop reacting to AI answers (the game is being abandoned)."""
        self._gen += 1
        self.thinking = False
        if self._timer:
            self._timer.stop()


