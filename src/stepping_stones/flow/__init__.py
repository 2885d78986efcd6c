"""The flow of a game with a person at the table, for every front end.

``GameFlow`` runs a game between a person (seat 0) and two AI seats: it deals,
says which AI seat is to think and how long the table should wait before its
card shows (the pace), takes the person's bids and cards, shows each finished
hand's summary, saves after every change, takes back the person's last action
(undo), plays a forced last card, and tells what happened as events with a
sentence each.  It imports nothing of Textual: the terminal table, the
browser (the same app) and the plain line mode all drive this one flow, and it
is tested on its own.

A front end loops on ``next_step()``:

* ``PersonTurn`` -- wait for the person, then call ``bid()`` or ``play()``;
* ``AiTurn`` -- run ``step.request.answer()`` (on a worker thread if it likes),
  wait until ``step.delay`` seconds have passed since it asked, then call
  ``ai_answered(step.request, action)``;
* ``HandSummary`` -- show the summary of hand ``number``, then call ``summary_seen()``;
* ``GameOver`` -- the game is finished and filed (``path``), or could not be written (``path``
  is None, ``problem`` says why): the game is kept, and ``file()`` tries again.

May import: the engine's public face, ``explain``, ``ai``, ``game`` and ``storage``; never
Textual or a front end.  Imported by the front ends (``tui``, ``plain``) and ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..ai import LEVELS as AI_LEVELS
from ..ai import Action, Agent, make_ai
from ..engine import NUM_SEATS, Bid, Game, IllegalActionError, Phase, PlayerView, Trick, WrongPhaseError
from ..explain import Teller
from ..game.match import Match, Request
from ..storage.session import HUMAN, Session
from ..storage.settings import PACE_DELAYS, Settings

TRICK_HOLD = 0.6
"""At instant pace, seconds a finished trick stays in view before an AI seat leads the next one
(a key skips it)."""


# --- what the front end must do next ------------------------------------------------


@dataclass(frozen=True)
class PersonTurn:
    view: PlayerView


@dataclass(frozen=True)
class AiTurn:
    request: Request
    delay: float  # seconds from asking until the answer may show


@dataclass(frozen=True)
class HandSummary:
    number: int
    view: PlayerView


@dataclass(frozen=True)
class GameOver:
    view: PlayerView
    path: Path | None


NextStep = PersonTurn | AiTurn | HandSummary | GameOver


# --- what happened ---------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """Something that happened at the table, and the sentence that tells it."""

    kind: str  # "deal", "bid", "puddle", "card", "trick", "undo", "save"
    text: str
    seat: int | None = None
    trick: Trick | None = None


def level_of(name: str | None) -> str:
    """An AI level this version knows: an old save's unknown level plays as the default."""
    return name if name in AI_LEVELS else "heuristic"


class GameFlow:
    """One game with a person at seat 0, whatever shows it."""

    def __init__(self, session: Session, settings: Settings, listener: Callable[[Event], None] | None = None,
                 seats: list[Agent | None] | None = None) -> None:
        self.session = session
        self.settings = settings
        self.listener = listener
        if seats is None:
            seats = [None if (lv := session.level(s)) is None else make_ai(level_of(lv)) for s in range(NUM_SEATS)]
        self.seats = seats
        self.match = self._match(session.game)
        self.teller = Teller(session.game.players, HUMAN)
        self.events: list[Event] = []
        # Hands whose summary was shown: after a resume the hand in progress still gets its
        # summary, and a finished hand whose summary may not have been seen shows it again.
        self._summarized = max(0, len(session.game.log) - 1)
        self._path: Path | None = None
        self._told_problem = session.problem  # the front end says the problem it starts with

    def _match(self, game: Game) -> Match:
        # A faulty AI answer is replaced by a legal one: a person's game never stops on it.
        return Match(game, self.seats, self.session.seeds, listener=self._save, strict=False)

    def _save(self, _game: Game) -> None:
        self.session.save()  # never raises: a failure is kept in session.problem
        self._saving_changed()

    # --- reading ---------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    def view(self) -> PlayerView:
        """What the person may see now; every screen draws from this."""
        return self.game.view(HUMAN)

    @property
    def problem(self) -> str | None:
        """Why the game is not being saved, or None."""
        return self.session.problem

    # --- the loop ----------------------------------------------------------------------

    def next_step(self) -> NextStep:
        """What happens next: deals and a forced last card happen here at once."""
        game = self.game
        while True:
            if game.phase in (Phase.DEAL, Phase.OVER):
                if game.log and self._summarized < len(game.log):
                    return HandSummary(len(game.log), self.view())
                if game.over:
                    return GameOver(self.view(), self._file())
                hand = self.match.deal()
                self._tell("deal", self.teller.dealt(hand.number, hand.forehand), hand.forehand)
                self._tell_bids(0)  # players with nothing left to declare pass at once
                continue
            seat = game.to_act
            assert seat is not None
            if seat == HUMAN:
                forced = self._forced_last_card()
                if forced is not None:
                    self.play(forced)
                    continue
                return PersonTurn(self.view())
            return AiTurn(self.match.request(), self._delay())

    def summary_seen(self) -> None:
        self._summarized = len(self.game.log)

    def _file(self) -> Path | None:
        """Write the finished game and file it in the games folder and the library.  Until that
        has worked the game is kept here and every call tries again; None (with ``problem``)
        while it has not."""
        if self._path is None:
            self._path = self.session.file_finished()
            self._saving_changed()
            if self._path is None:
                return None
            from ..storage.library import file_game  # the game enters the library now; a failure is only a notice

            if (notice := file_game(self._path)) is not None:
                self._tell("save", notice)
            self.session.release()
        return self._path

    def file(self) -> Path | None:
        """Try again to write and file a finished game that could not be saved (its path, or None)."""
        return self._file() if self.game.over else None

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

    def _forced_last_card(self) -> int | None:
        if not self.settings.auto_last_card or self.game.phase is not Phase.PLAY:
            return None
        state = self.game.state
        if state is None or state.hands[HUMAN].bit_count() != 1:
            return None
        return state.hands[HUMAN].bit_length() - 1

    # --- actions -----------------------------------------------------------------------

    def bid(self, bid: Bid) -> None:
        """The person's bid.  Raises the engine's ``IllegalActionError`` (nothing changes)."""
        self._act(HUMAN, bid)

    def play(self, card: int) -> None:
        """The person's card.  Raises the engine's ``IllegalActionError`` (nothing changes)."""
        self._act(HUMAN, card)

    def ai_answered(self, request: Request, action: Action) -> None:
        """An AI seat's answer to ``request`` (ignored if the game has moved on since)."""
        if self.game.to_act != request.seat or self.game.view(request.seat) != request.view:
            return
        self._record(request.seat, lambda: self.match.answer(request, action))

    def refusal(self, exc: IllegalActionError) -> str:
        """A refusal of the person's action, in words for them."""
        return self.teller.refusal(exc)

    def _act(self, seat: int, action: Action) -> None:
        if self.game.to_act != seat:
            raise WrongPhaseError("it is not your turn" if seat == HUMAN else f"seat {seat} is not to act")
        self._record(seat, lambda: self.match.apply(action))

    def _record(self, seat: int, do: Callable[[], None]) -> None:
        game = self.game
        hand = game.log[-1]
        bids, plays = len(hand.bids), len(hand.plays)
        do()
        self._tell_bids(bids)
        if len(hand.plays) > plays:
            k = len(hand.plays) - 1
            card = hand.plays[k]
            self._tell("card", self.teller.card(hand.play_seat(k), card, k // NUM_SEATS + 1,
                                                k % NUM_SEATS == 0), hand.play_seat(k))
            if len(hand.plays) % NUM_SEATS == 0:
                trick = hand.tricks()[-1]
                reason = self.teller.trick_reason(trick, hand.contract, hand.declaration.ranking,
                                                  hand.declaration.trump)
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
        event = Event(kind, text, seat, trick)
        self.events.append(event)
        del self.events[:-200]
        if self.listener is not None:
            self.listener(event)

    # --- undo ----------------------------------------------------------------------------

    def undo_point(self) -> tuple[int, int] | None:
        """(bids, cards) of the current hand to go back to, if the person may undo now: their
        last bid or card of this hand, as long as no later trick has started since."""
        game = self.game
        if game.phase not in (Phase.BIDDING, Phase.PLAY):
            return None
        hand = game.log[-1]
        for k in range(len(hand.plays) - 1, -1, -1):
            if hand.play_seat(k) == HUMAN:
                later = range(k + 1, len(hand.plays))
                if any(j // NUM_SEATS != k // NUM_SEATS for j in later):
                    return None
                return len(hand.bids), k
        if hand.plays:
            return None  # the person has not played in this hand yet, and a trick has begun
        if not game.has_open(HUMAN) and not game.has_redo(HUMAN):
            return None  # the person's pass was forced: nothing to take back
        mine = [i for i, s in enumerate(hand.bid_seats()) if s == HUMAN]
        if not mine:
            return None
        return mine[-1], 0

    def undo(self) -> bool:
        """Take back the person's last bid or card and every AI move after it, in place
        (``Game.pop``).  The record keeps only the game as finally played; the game is marked
        as assisted."""
        point = self.undo_point()
        if point is None:
            return False
        bids, plays = point
        game = self.game
        hand = game.log[-1]
        while len(hand.plays) > plays or len(hand.bids) > bids:
            game.pop()  # the person's own bid is never forced, so this stops exactly at it
        self.mark_assisted()
        self.session.save()
        self._saving_changed()
        self._tell("undo", "You took back your last move: the game is marked as assisted.", HUMAN)
        return True

    def mark_assisted(self) -> None:
        """The person took help (an undo, a hint): the game is counted apart in the statistics."""
        if not self.session.info.assisted:
            self.session.info = self.session.info.model_copy(update={"assisted": True})
            self.session.save_sidecar()

    @property
    def assisted(self) -> bool:
        return self.session.info.assisted

