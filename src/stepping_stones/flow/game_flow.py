"""The flow of a game on this machine with a person at the table, for every front end.

``GameFlow`` runs a game between a person (seat 0) and two AI seats: it deals,
says which AI seat is to think and how long the table should wait before its
card shows (the pace), takes the person's bids and cards, shows each finished
hand's summary, saves after every change, takes back the person's last action
(undo), plays a forced last card, and tells what happened as events with a
sentence each.  It imports nothing of Textual: the terminal table, the
browser (the same app) and the plain line mode all drive this one flow, and it
is tested on its own.

State flows one way.  The flow owns everything the table shows -- the person's
view, the card cursor and the bid being chosen, refusals, the hint, the AI seat
that is thinking, the log, the summaries -- and after every change it builds
one immutable ``TableState`` (``flow.state``; the person's ``PlayerView`` is
built once per change of the game) and hands it to each subscriber
(``subscribe``).  A front end draws that state and turns the person's keys or
lines into calls on the flow; it keeps no game state of its own.

A front end loops on ``next_step()``:

* ``PersonTurn`` -- wait for the person, then call ``bid()`` or ``play()`` (or the cursor
  and bid-choice calls, and ``confirm()``);
* ``AiTurn`` -- run ``step.request.answer()`` (on a worker thread if it likes), then call
  ``ai_answered(step.request, action)``; or, to keep the pace, ``hold(step.request, action)``
  as soon as it is known and ``go_on(step.request)`` once ``step.delay`` seconds have passed
  since it asked (``go_on()`` without a request: at once, when the person skips the wait);
* ``HandSummary`` -- show the summary of hand ``number``, then call ``summary_seen()``;
* ``GameOver`` -- the game is finished and filed (``path``), or could not be written (``path``
  is None, ``problem`` says why): the game is kept, and ``file()`` tries again.

Work done elsewhere (an AI seat's answer, a hint) is asked for with a request object
(``Request``, ``HintRequest``); an answer whose request is no longer the one the flow waits
for -- the person undid a move, the game was left -- is dropped here, and only here.

May import: the engine's public face, ``explain``, ``ai``, ``game`` and ``storage``; never
Textual or a front end.  Imported by the front ends (``tui``, ``plain``) and ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..ai import DEFAULT_LEVEL, LEVELS, Action, Agent, make_ai
from ..ai.claims import Claim, ClaimError, ClaimRequest, RefusedClaims, Verdict, claim_text
from ..ai.claims import ask as ask_claim
from ..engine import (
    NUM_SEATS,
    Bid,
    Game,
    IllegalActionError,
    Phase,
    PlayerView,
    Trick,
    WrongPhaseError,
    sorted_cards,
)
from ..explain import Teller
from ..game.match import Match, Request
from ..storage.session import HUMAN, Session
from ..storage.settings import PACE_DELAYS, Settings
from .choosing import Choosing, HintRequest
from .publisher import Publisher
from .state import LOG_KEPT, BidChoice, TableState, bid_options
from .steps import AiTurn, GameOver, HandSummary, NextStep, PersonTurn

TRICK_HOLD = 0.6
"""At instant pace, seconds a finished trick stays in view before an AI seat leads the next one
(a key skips it)."""

NOTHING_TO_UNDO = "Nothing to take back: an undo only reaches back to your last move of this trick."
UNDONE = "You took back your last move: the game is marked as assisted."
UNDO_OFF = "Undo is off at a table with other people: a card or bid once made stays made."
HINT_OUT_OF_TURN = "A hint is for your own turn to bid or play."
CLAIM_CHECKING = "Checking your claim with all the cards in view..."


def level_of(name: str | None) -> str:
    """An AI level this version knows: an old save's unknown level plays as the default."""
    return name if name in LEVELS else DEFAULT_LEVEL


class GameFlow(Publisher, Choosing):
    """One game with a person at seat 0, whatever shows it."""

    def __init__(self, session: Session, settings: Settings, seats: list[Agent | None] | None = None) -> None:
        self.session = session
        self.settings = settings
        if seats is None:
            seats = [None if (lv := session.level(s)) is None else make_ai(level_of(lv)) for s in range(NUM_SEATS)]
        self.seats = seats
        self.match = self._match(session.game)
        self.teller = Teller(session.game.players, HUMAN)
        self._start_publishing()
        # Hands whose summary was shown: after a resume the hand in progress still gets its
        # summary, and a finished hand whose summary may not have been seen shows it again.
        self._summarized = max(0, len(session.game.log) - 1)
        self._path: Path | None = None
        self._told_problem = session.problem  # the front end says the problem it starts with
        # --- the table's own facts, which the state carries (the log and refusal: ``Publisher``) ---
        self._log_at: list[tuple[int, int, int]] = []  # where the game stood as each event was told
        self._start_choosing()
        self._summary: int | None = None
        self._over = False
        # --- work out elsewhere: the one request of each kind whose answer is taken ---
        self._asked: Request | None = None  # the AI seat's request now out
        self._held: tuple[Request, Action] | None = None  # its answer, waiting for the pace
        self._closed = False
        self._claims = RefusedClaims()
        self._claim_asked: ClaimRequest | None = None  # the claim being judged, whose verdict is taken
        self._view: PlayerView | None = None  # the person's view of the game as it is now
        if session.game.log:
            self._tell("resume", "Game resumed where it stopped.")
        self._publish()

    def _match(self, game: Game) -> Match:
        # A faulty AI answer is replaced by a legal one: a person's game never stops on it.
        return Match(game, self.seats, self.session.seeds, listener=self._save, strict=False)

    def _save(self, _game: Game) -> None:
        self._game_changed()
        self.session.save()  # never raises: a failure is kept in session.problem
        self._saving_changed()

    # --- reading ---------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    def view(self) -> PlayerView:
        """What the person may see now; every screen draws from this (built once per change)."""
        if self._view is None:
            self._view = self.game.view(HUMAN)
        return self._view

    @property
    def problem(self) -> str | None:
        """Why the game is not being saved, or None."""
        return self.session.problem

    @property
    def assisted(self) -> bool:
        return self.session.info.assisted

    # --- publishing (``Publisher``: subscribe, refresh, one state per change) ---------------

    def _game_changed(self) -> None:
        self._view = None
        self._dirty = True

    def _build(self) -> TableState:
        view = self.view()
        state = TableState(view=view)
        cards = view.own_cards.bit_count()
        self._cursor = max(0, min(self._cursor, cards - 1))
        if state.bidding:
            opts = bid_options(view)
            if self._bid.index >= len(opts):
                self._bid = replace(self._bid, index=max(0, len(opts) - 1))
        return replace(
            state,
            cursor=self._cursor,
            bid=self._bid,
            refusal=self._refusal,
            hint_note=self._hint_note,
            hint=self._hint,
            thinking=self._asked.seat if self._asked is not None else None,
            log=tuple(self._log),
            told=self._told,
            summary=self._summary,
            over=self._over,
            filed=str(self._path) if self._path is not None else None,
            problem=self.session.problem,
            pace=self.settings.pace,
            assisted=self.assisted,
            can_undo=self.undo_point() is not None,
        )

    # --- the loop ----------------------------------------------------------------------

    def next_step(self) -> NextStep:
        """What happens next: deals and a forced last card happen here at once.  While an AI
        seat's request is out, the same ``AiTurn`` again."""
        with self._change():
            got = self._next()
        if isinstance(got, AiTurn):
            return got
        view = self.state.view
        if got is HandSummary:
            assert self._summary is not None
            return HandSummary(self._summary, view)
        if got is GameOver:
            return GameOver(view, self._path)
        return PersonTurn(view)

    def _next(self) -> AiTurn | type[PersonTurn | HandSummary | GameOver]:
        game = self.game
        if self._asked is not None and not self._closed:
            return AiTurn(self._asked, self._delay())
        while True:
            if game.phase in (Phase.DEAL, Phase.OVER):
                if game.log and self._summarized < len(game.log):
                    self._set_summary(len(game.log))
                    return HandSummary
                if game.over:
                    self._file()
                    if not self._over:
                        self._over = True
                        self._dirty = True
                    return GameOver
                hand = self.match.deal()
                self._tell("deal", self.teller.dealt(hand.number, hand.forehand), hand.forehand)
                self._tell_bids(0)  # players with nothing left to declare pass at once
                continue
            seat = game.to_act
            assert seat is not None
            if seat == HUMAN:
                forced = self._forced_card()
                if forced is not None:
                    self._act(forced)
                    continue
                self._start_turn()
                return PersonTurn
            self._asked = self.match.request()
            self._dirty = True  # the seat is thinking
            return AiTurn(self._asked, self._delay())

    def _set_summary(self, number: int) -> None:
        if self._summary != number:
            self._summary = number
            self._dirty = True

    def _start_turn(self) -> None:
        """Start the person's turn to play on a card they may play."""
        if self.game.phase is not Phase.PLAY:
            return
        view = self.view()
        cards = sorted_cards(view.own_cards, view.ranking or self._bid.ranking)
        if cards and not view.legal_cards >> cards[min(self._cursor, len(cards) - 1)] & 1:
            self._cursor = next(i for i, c in enumerate(cards) if view.legal_cards >> c & 1)
            self._dirty = True

    def summary_seen(self) -> None:
        """The hand's summary was seen: the next hand starts with a fresh cursor and bid."""
        with self._change():
            self._summarized = len(self.game.log)
            self._summary = None
            self._cursor = 0
            self._bid = BidChoice()
            self._clear_hint()
            self._dirty = True

    def _file(self) -> Path | None:
        """Write the finished game and file it in the games folder and the library.  Until that
        has worked the game is kept here and every call tries again; None (with ``problem``)
        while it has not."""
        if self._path is None:
            self._path = self.session.file_finished()
            self._saving_changed()
            if self._path is None:
                return None
            self._dirty = True
            from ..storage.library import file_game  # the game enters the library now; a failure is only a notice

            if (notice := file_game(self._path)) is not None:
                self._tell("save", notice)
            self.session.release()
        return self._path

    def file(self) -> Path | None:
        """Try again to write and file a finished game that could not be saved (its path, or None)."""
        if not self.game.over:
            return None
        with self._change():
            return self._file()

    def _saving_changed(self) -> None:
        """Tell it when saving stops working, and when it works again."""
        problem = self.session.problem
        if problem == self._told_problem:
            return
        self._told_problem = problem
        if problem is not None:
            self._tell("save", f"The game is not being saved: {problem}. It goes on, kept in memory.")
        else:
            self._tell("save", "The game is being saved again.")

    def _delay(self) -> float:
        card_delay, trick_delay = PACE_DELAYS[self.settings.pace]
        state = self.game.state
        if state is not None and state.in_trick == 0 and state.trick_number > 0:
            # Let the finished trick be seen before the next lead (at instant pace, for a moment).
            return max(trick_delay, TRICK_HOLD if self.settings.trick_pause else 0.0)
        return card_delay

    def _forced_card(self) -> int | None:
        """The person's card that plays itself, if any: the last card of the hand
        (``auto_last_card``), or the only legal one in mid-hand (``only_card``, by the pace)."""
        if self.game.phase is not Phase.PLAY:
            return None
        state = self.game.state
        if state is None:
            return None
        held = state.hands[HUMAN]
        if held.bit_count() == 1:
            return held.bit_length() - 1 if self.settings.auto_last_card else None
        legal = self.game.legal_cards_mask()
        if legal.bit_count() == 1 and self.settings.plays_only_card:
            return legal.bit_length() - 1
        return None

    # --- the person's actions ----------------------------------------------------------

    def bid(self, bid: Bid) -> None:
        """The person's bid.  Raises the engine's ``IllegalActionError`` (nothing changes but the
        state's refusal, which says why in the person's words)."""
        with self._change():
            self._act(bid)

    def play(self, card: int) -> None:
        """The person's card.  Raises the engine's ``IllegalActionError`` (nothing changes but the
        state's refusal)."""
        with self._change():
            self._act(card)

    def refusal(self, exc: IllegalActionError) -> str:
        """A refusal of the person's action, in words for them."""
        return self.teller.refusal(exc)

    def why_not(self, action: Action) -> str | None:
        """Why the rules would refuse the person ``action`` now, in words for them (None if they
        would not); nothing changes."""
        try:
            if isinstance(action, int):
                self.game.verify_play(action)
            else:
                self.game.verify_bid(action)
        except IllegalActionError as exc:
            return self.refusal(exc)
        return None

    def _act(self, action: Action) -> None:
        if self.game.to_act != HUMAN:
            raise WrongPhaseError("it is not your turn")
        self._claim_asked = None  # a claim being judged is for the position this leaves
        try:
            self._record(lambda: self.match.apply(action))
        except IllegalActionError as exc:
            self._refuse(self.refusal(exc))
            raise
        self._refusal = None
        self._clear_hint()

    # --- the cursor and the bid being chosen -------------------------------------------

    # Moving the cursor and choosing the bid: ``Choosing``.

    def _choosing_state(self) -> TableState:
        return self.state

    def _choosing_view(self) -> PlayerView:
        return self.view()

    def _may_choose(self) -> bool:
        return self.state.thinking is None

    def _assist(self) -> None:
        self.mark_assisted()

    # --- the AI seats ---------------------------------------------------------------------

    def ai_answered(self, request: Request, action: Action) -> None:
        """An AI seat's answer to ``request``, made now; dropped if it is not the request out
        (the game has moved on since, or was left)."""
        if request is not self._asked:
            return
        with self._change():
            self._asked = None
            self._held = None
            self._dirty = True
            self._record(lambda: self.match.answer(request, action))

    def hold(self, request: Request, action: Action) -> bool:
        """Keep an AI seat's answer to ``request`` until ``go_on``: the pace.  False (and it is
        dropped) if it is not the request out."""
        if request is not self._asked:
            return False
        self._held = (request, action)
        return True

    def go_on(self, request: Request | None = None) -> bool:
        """Make the held AI answer (only if it answers ``request``, when one is given): whether
        one was made."""
        held = self._held
        if held is None or (request is not None and held[0] is not request):
            return False
        self.ai_answered(*held)
        return True

    def close(self) -> None:
        """The game is being left: no answer asked for before is taken any more."""
        self._closed = True
        self._asked = None
        self._held = None
        self._hint_asked = None
        self._claim_asked = None

    # --- claims ----------------------------------------------------------------------------

    def claim(self, tricks: int) -> bool:
        """The person claims that their side (the declarer alone, or both defenders) takes
        ``tricks`` of the remaining tricks that count (``ai/claims.py``), judged at once on the real
        cards: ``ask_claim``, its ``answer()``, then ``claim_judged``.  True: it holds, and the hand
        is played out along a perfect line, saved at once as ordinary cards.  False: refused (the
        state's refusal says so in words that depend on nothing unseen), and the hand goes on.
        Raises ``ClaimError`` when no claim may be made now (the state's refusal says why)."""
        request = self.ask_claim(tricks)
        return self.claim_judged(request, request.answer()) is True

    def ask_claim(self, tricks: int) -> ClaimRequest:
        """The person's claim, to be judged (``request.answer()``, on a worker thread if the front
        end likes: a claim early in a hand can take a few seconds), then ``claim_judged``.  Raises
        ``ClaimError`` when no claim may be made now (the state's refusal says why)."""
        with self._change():
            try:
                request = ask_claim(self.game, Claim(HUMAN, tricks), self._claims)
            except ClaimError as exc:
                self._refuse(self.refusal(exc))
                raise
            self._claim_asked = request
            self._refuse(CLAIM_CHECKING)
            return request

    def claim_judged(self, request: ClaimRequest, verdict: Verdict) -> bool | None:
        """The referee's ``verdict`` on ``request``: True (the hand was played out and saved in one
        write, so a kill between two of its cards never leaves half a claim in the record), False
        (refused, said in the state's refusal), or None when the request is not the one out (the
        person acted meanwhile, or the game was left): dropped."""
        if request is not self._claim_asked or self._closed:
            return None
        with self._change():
            self._claim_asked = None
            game = self.game
            text = claim_text(request.position, verdict, self.teller)
            if not verdict.holds:
                self._claims.refused(game, HUMAN)
                self._refuse(text)
                return False
            for card in verdict.line:
                game.play(card)
            self._save(game)
            self._refusal = None
            self._clear_hint()
            self._tell("claim", text, HUMAN)
            return True

    # --- hints -----------------------------------------------------------------------------

    def ask_hint(self) -> HintRequest | None:
        """Ask for a hint for the person's turn: the request to work out (``answer()``, then
        ``hint_came``), or None -- out of turn (the state's refusal says so), or one on its way."""
        with self._change():
            game = self.game
            if game.to_act != HUMAN or game.phase not in (Phase.BIDDING, Phase.PLAY) or self._asked is not None:
                self._refuse(HINT_OUT_OF_TURN)
                return None
            return self._ask_hint_for(self.view())

    # --- telling ------------------------------------------------------------------------

    def _record(self, do: Callable[[], None]) -> None:
        game = self.game
        hand = game.log[-1]
        bids, plays = len(hand.bids), len(hand.plays)
        do()
        self._tell_bids(bids)
        if len(hand.plays) > plays:
            k = len(hand.plays) - 1
            card = hand.plays[k]
            self._tell(
                "card",
                self.teller.card(hand.play_seat(k), card, k // NUM_SEATS + 1, k % NUM_SEATS == 0),
                hand.play_seat(k),
            )
            if len(hand.plays) % NUM_SEATS == 0:
                trick = hand.tricks()[-1]
                reason = self.teller.trick_reason(
                    trick, hand.contract, hand.declaration.ranking, hand.declaration.trump
                )
                self._tell("trick", self.teller.trick_won(trick, reason), trick.winner, trick)

    def _tell_bids(self, start: int) -> None:
        """Tell the bids of the current hand from bid ``start`` on, and the puddle if it came."""
        game = self.game
        hand = game.log[-1]
        for i in range(start, len(hand.bids)):
            seat = hand.bid_seat(i)
            self._tell("bid", self.teller.bid(seat, hand.bids[i], puddle=i >= NUM_SEATS), seat)
        if game.in_puddle and len(hand.bids) == NUM_SEATS and start < NUM_SEATS:
            bidder = game.bidder
            assert bidder is not None
            self._tell("puddle", self.teller.puddle(bidder), bidder)

    def _tell(self, kind: str, text: str, seat: int | None = None, trick: Trick | None = None) -> None:
        self._log_at.append(self._position())  # kept beside the log, so that an undo can take events out
        del self._log_at[:-LOG_KEPT]
        super()._tell(kind, text, seat, trick)

    def _position(self) -> tuple[int, int, int]:
        """(hands dealt, bids, cards) of the game now: how far it has gone."""
        game = self.game
        if not game.log:
            return (0, 0, 0)
        hand = game.log[-1]
        return (len(game.log), len(hand.bids), len(hand.plays))

    def _forget_undone(self) -> None:
        """Take out of the log the events of the moves just taken back: the log tells the game
        as it now stands."""
        now = self._position()
        keep = [i for i, at in enumerate(self._log_at) if at <= now]
        self._log = [self._log[i] for i in keep]
        self._log_at = [self._log_at[i] for i in keep]

    # --- undo ----------------------------------------------------------------------------

    def undo_point(self) -> tuple[int, int] | None:
        """(bids, cards) of the current hand to go back to, if the person may undo now
        (``PlayerView.undo_point``: the one rule of undo, here and at a table on a server)."""
        return self.view().undo_point()

    def undo(self) -> bool:
        """Take back the person's last bid or card and every AI move after it, in place
        (``Game.pop``); an AI answer on its way is dropped.  The record keeps only the game as
        finally played; the game is marked as assisted.  False (and the state's refusal says
        why) if there is nothing to take back."""
        with self._change():
            point = self.undo_point()
            if point is None:
                self._refuse(NOTHING_TO_UNDO)
                return False
            bids, plays = point
            game = self.game
            hand = game.log[-1]
            while len(hand.plays) > plays or len(hand.bids) > bids:
                game.pop()  # the person's own bid is never forced, so this stops exactly at it
            self._game_changed()
            self._asked = None
            self._held = None
            self._claim_asked = None
            self._refusal = None
            self._clear_hint()
            self.mark_assisted()
            self.session.save()
            self._saving_changed()
            self._forget_undone()
            self._tell("undo", UNDONE, HUMAN)
            return True

    def mark_assisted(self) -> None:
        """The person took help (an undo, a hint): the game is counted apart in the statistics."""
        if self.session.info.assisted:
            return
        with self._change():
            self.session.info = self.session.info.model_copy(update={"assisted": True})
            self.session.save_sidecar()
            self._dirty = True
