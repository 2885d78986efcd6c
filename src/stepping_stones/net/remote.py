"""A seat at a table on a server, driven by the same front ends as a game on this machine.

``RemoteFlow`` offers what the table screen and plain mode drive (``flow.TableFlow``: states
to subscribe to, the cursor and the bid being chosen, ``confirm``/``bid``/``play``, hints), but
it holds no game: it builds each ``TableState`` from the ``StateMessage``s the server sends
(``receive``), with ``TableState.of(view, **facts)``, and sends the person's bids and cards to
the server (``send``).  The server is the authority; the flow only checks an action against the
legal actions the server sent, and words a refusal with the engine's own checks of the seat's
view (``refusal_of``: ``PlayerView.verify_bid`` and ``verify_play``, from what the seat has seen).

The view is *turned* so that the person sits in seat 0, as in a local game (``turned``): every
front end draws the person at the bottom and says "You" for seat 0.  The seats' facts (who is a
person, a computer, connected) and whom the table waits for become the state's ``seats`` and
``waiting``, and their changes are told as events, like the bids and cards (worked out from the
views, hand by hand, with ``explain.Teller``).

``Connection`` (``net/connection.py``) runs a ``SeatClient`` on an event loop of its own thread,
for a front end that blocks on its input (plain mode); the app runs the client on its own loop.
``turned`` and ``refusal_of`` are in ``net/seatview.py``.

The person's own seat is told as the others are: when a computer takes it (the table waited
longer than its timeout) and when it is given back; the computer's bids and cards for them are
told as its, never as "You play".  While the connection is down nothing is sent: an action then
is refused with words saying it was not sent, and the seat is asked again once it is back.  The
last card of a hand plays itself, as in a local game (``auto_last_card``).

May import: the flow, storage, the game's choices, the AI's hints, explain, the engine's face and
the protocol and client of this package; never a front end or Textual.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ..ai.claims import Claim, ClaimError, told_claim, tricks_left
from ..engine import (
    NUM_SEATS,
    Bid,
    PastHand,
    Phase,
    PlayerView,
    Trick,
    WrongPhaseError,
    sorted_cards,
)
from ..explain import Teller
from ..flow import HINT_OUT_OF_TURN, Choosing, GameOver, HandSummary, HintRequest, PersonTurn, Publisher
from ..flow.game_flow import NOTHING_TO_UNDO, UNDO_OFF, UNDONE
from ..flow.presenter import CHAT_OFF, CHAT_ON, CLUB_LINE, HEAR, MUTE, MUTED, UNMUTED, chat_line
from ..flow.state import BidChoice, Clock, TableState, bid_options
from ..game.choices import HUMAN
from ..storage.safety import CHAT_LENGTH, chat_text
from .client import BACK, LOST
from .connection import Connection
from .protocol import SeatFacts, StateMessage, Welcome
from .seatview import refusal_of
from .wire import turned

HINTS_OFF = "Hints are off at this table: more than one person plays at it."
UNDO_TOKEN = "undo"
"""What ``send`` is given when the person takes back their last move (``SeatClient.act`` sends an
``undo`` message): only at a table where they are the only person."""
NOT_STARTED = "The table has not started yet."
CLAIM_TOKEN = "claim"
"""What ``send`` is given for a claim, before its number (``SeatClient.act`` sends a ``claim`` message)."""
SEEN_TOKEN = "seen"
"""What ``send`` is given when the person closes a hand's summary, before the hand's number
(``SeatClient.act`` sends a ``seen`` message: the table's clock for them starts)."""
CLAIM_OFF_TURN = "A claim is made on your turn to play, while the cards are being played."
CLAIM_NOT_SENT = "The claim was not sent: the connection to the server is lost."


# --- what the seats are ------------------------------------------------------------------------


def seat_words(facts: SeatFacts) -> str:
    """A seat in a word or two, as the table shows it under the player's name."""
    if facts.kind == "open":
        return "open seat"
    if facts.kind == "computer":
        return "computer"
    if facts.stand_in:
        return "away, computer plays"
    return "person" if facts.connected else "person, away"


def lobby_words(facts: SeatFacts) -> str:
    """A seat in a word or two, with its player's rating when it has one, as a table's lobby shows
    it before the start (the table itself words it through the presenter, ``seat_caption``)."""
    words = seat_words(facts)
    return words if facts.rating is None else f"{words}, rated {facts.rating}"


STOOD_IN = "You did not answer in {timeout:g} s: a computer plays your seat until you take it back ({how})."
GIVEN_BACK = "You play your own seat again."
STAND_IN_NAME = "The computer (for you)"
STAND_IN_NOW = "A computer plays for you: {how} to come back."
NOT_SENT = (
    "{token} was not sent: the connection to the server is lost. You are asked again once it is back; "
    "nothing is sent for you meanwhile."
)


def _changes(
    names: tuple[str, ...], old: list[SeatFacts], new: list[SeatFacts], timeout: float, how: str
) -> Iterator[str]:
    for seat, (a, b) in enumerate(zip(old, new, strict=True)):
        name = names[seat]
        if seat == HUMAN and a.stand_in != b.stand_in:
            yield STOOD_IN.format(timeout=timeout, how=how) if b.stand_in else GIVEN_BACK
        if b.kind != "human" or seat == HUMAN:
            continue
        if a.stand_in != b.stand_in:
            yield (
                f"A computer plays for {name} until they come back."
                if b.stand_in
                else f"{name} plays their own seat again."
            )
        elif a.connected != b.connected:
            yield f"{name} is back at the table." if b.connected else f"{name} lost the connection."


HandEvent = tuple[str, str, int | None, Trick | None]
"""An event of a hand: its kind (``deal``, ``bid``, ``puddle``, ``card``, ``trick``), its sentence,
the seat it is about and, for a trick won, the trick."""


def hand_events(teller: Teller, hand: PastHand, live: PlayerView | None, mine: Teller | None = None) -> list[HandEvent]:
    """Every event of ``hand`` so far, in the sentences of plain mode (``teller`` speaks for the
    seat; ``mine``, if given, tells the seat's own moves: a computer's while it stands in);
    ``live`` is the view while the hand is being bid or played (it knows the puddle)."""
    mine = mine or teller
    out: list[HandEvent] = [("deal", teller.dealt(hand.number, hand.forehand), hand.forehand, None)]
    in_puddle = hand.puddle or (live is not None and live.in_puddle)
    puddle_seat = hand.declarer if hand.puddle else (live.bidder if live is not None else None)
    for i, (bid, seat) in enumerate(zip(hand.bids, hand.bid_seats, strict=True)):
        out.append(("bid", (mine if seat == HUMAN else teller).bid(seat, bid, puddle=i >= NUM_SEATS), seat, None))
        if i == NUM_SEATS - 1 and in_puddle and puddle_seat is not None:
            out.append(("puddle", teller.puddle(puddle_seat), puddle_seat, None))
    tricks = hand.tricks()
    declaration = hand.declaration
    for k, (seat, card) in enumerate(zip(hand.play_seats, hand.plays, strict=True)):
        told = (mine if seat == HUMAN else teller).card(seat, card, k // NUM_SEATS + 1, k % NUM_SEATS == 0)
        out.append(("card", told, seat, None))
        trick = tricks[k // NUM_SEATS]
        if k % NUM_SEATS == NUM_SEATS - 1 and trick.finished and declaration is not None:
            reason = teller.trick_reason(trick, declaration.contract, declaration.ranking, declaration.trump)
            out.append(("trick", teller.trick_won(trick, reason), trick.winner, trick))
    return out


@dataclass(frozen=True)
class TableTurn:
    """Someone else is to act (or the table waits for the server): nothing for the person to do
    until the next state comes."""

    view: PlayerView | None


# --- the flow -----------------------------------------------------------------------------------


def club_line(club: str) -> str:
    """The line the terminal clients show for the club whose table it is (``protocol.Felt``): a
    seat's (``RemoteFlow.club``) and a watcher's.

    >>> club_line("Koi Club")
    'At the table of Koi Club.'
    """
    return CLUB_LINE.format(club=chat_text(club)[:40] or "?")


class RemoteFlow(Publisher, Choosing):
    """A seat at a table on a server, as the front ends drive a game (``flow.TableFlow``).

    ``receive`` takes each ``StateMessage`` the server sends (on the front end's thread), ``notice`` a
    line about the connection; ``send(move, seq)`` is how a bid or card goes to the server."""

    NOTHING_YET = NOT_STARTED

    def __init__(
        self,
        welcome: Welcome,
        send: Callable[[str, int], None],
        *,
        file_games: bool = True,
        auto_last_card: bool = True,
        take_back: str = "type back",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``take_back``: how the front end takes the seat back from a computer, in a few words."""
        self.welcome = welcome
        self.send = send
        self.file_games = file_games
        self.auto_last_card = auto_last_card
        self.take_back = take_back
        self.clock = clock
        self._clock: tuple[int, float, bool] | None = None  # the table's clock: (seat, deadline, reading)
        self.online = True  # the connection is up (``notice`` says when it is lost and back)
        self._stand_teller: Teller | None = None  # seat 0's bids and cards told as a computer's
        self.message: StateMessage | None = None  # the server's last state, as it was sent
        self._start_publishing()  # no state until the server's first view has come (``_ready``)
        self._view: PlayerView | None = None  # the person's view, turned (seat 0)
        self._teller: Teller | None = None
        self._told_in: dict[int, int] = {}  # events told of each hand, by its number
        self._told_whole: set[int] = set()  # finished hands told to their end
        self._start_choosing()
        self._summarized = 0  # hands whose summary was shown
        self._summary: int | None = None
        self._over = False
        self._sent: int | None = None  # the seq of the state the person's last action was made on
        self._claim_sent: tuple[int, int, int] | None = None  # the claim out: (hand, before card, tricks)
        self._path: Path | None = None
        self._problem: str | None = None
        self._assisted = False
        self.closed = False
        self.chat_on = True  # the table's chat is on (the opener may turn it off)
        self.muted: list[int] = []  # the seats (the server's numbers) this one does not hear

    # --- reading ---------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self._latest is not None

    @property
    def help(self) -> bool:
        """Hints are allowed: the person is the only one at the table."""
        return self.message is not None and self.message.help

    @property
    def seat(self) -> int:
        """The person's seat at the server's table (the record's numbering)."""
        return self.welcome.seat

    def _ready(self) -> bool:
        return self._view is not None  # a state is built once the server has sent a view

    def tick(self) -> None:
        """A second has passed: the clock's line says how long is left."""
        if self._clock is not None:
            self.refresh()

    def _facts(self, message: StateMessage) -> tuple[tuple[str, ...], str | None]:
        by = self.seat
        seats = tuple(seat_words(message.seats[(s + by) % NUM_SEATS]) for s in range(NUM_SEATS))
        waiting = message.waiting
        if waiting is None or waiting.seat == by:
            return seats, None
        if waiting.computer:
            how = " (a computer)"
        elif not waiting.connected:
            how = " (not connected: the table waits for them to come back)"
        else:
            how = ""
        return seats, f"Waiting for {waiting.name}{how}."

    def _build(self) -> TableState:
        view = self._view
        assert view is not None and self.message is not None
        seats, waiting = self._facts(self.message)
        mine = self._sent is None and bool(self.message.legal)
        ratings = tuple(self.message.seats[(s + self.seat) % NUM_SEATS].rating for s in range(NUM_SEATS))
        state = TableState.of(view, seats=seats, waiting=waiting, ratings=ratings, watchers=self.message.watchers)
        self._cursor = max(0, min(self._cursor, view.own_cards.bit_count() - 1))
        if state.bidding:
            opts = bid_options(view)
            if self._bid.index >= len(opts):
                self._bid = replace(self._bid, index=max(0, len(opts) - 1))
        to_act = view.to_act
        return replace(
            state,
            cursor=self._cursor,
            bid=self._bid,
            refusal=self._refusal,
            hint_note=self._hint_note,
            hint=self._hint,
            thinking=None if mine or to_act is None else to_act,
            log=tuple(self._log),
            told=self._told,
            summary=self._summary,
            over=self._over,
            filed=str(self._path) if self._path is not None else None,
            problem=self._problem,
            pace="online",
            assisted=self._assisted,
            can_undo=self._may_undo(),
            clock=self._clock_now(mine),
            stand_in=STAND_IN_NOW.format(how=self.take_back) if self.stood_in else None,
            stood=tuple(self.stand_in_lines()) if self._over else (),
            hints_off=None if self.help else HINTS_OFF,
            undo_off=None if self.help else UNDO_OFF,
        )

    def _clock_now(self, mine: bool) -> Clock | None:
        """The table's clock as it stands now (the person's own only while their turn is open)."""
        if self._clock is None or (self._clock[0] == HUMAN and not mine):
            return None
        seat, deadline, reading = self._clock
        return Clock(seat, max(0, math.ceil(deadline - self.clock())), reading)

    # --- what the server says ------------------------------------------------------------------

    def receive(self, message: StateMessage) -> None:
        """A state from the server: the table as it is now."""
        if self.closed:
            return
        with self._change():
            old = self.message
            self.message = message
            if message.view is None:
                return
            view = turned(message.view)
            if self._teller is None:
                self._teller = Teller(view.players, HUMAN)
                self._stand_teller = Teller((STAND_IN_NAME, *view.players[1:]), None)
            if old is not None and old.view is not None:
                for line in _changes(
                    view.players,
                    _turned_seats(old, self.seat),
                    _turned_seats(message, self.seat),
                    self.welcome.timeout,
                    self.take_back,
                ):
                    self._tell("table", line)
            if self._view is None or view != self._view:
                self._tell_game(view)
                if self._view is None or view.hand_number != self._view.hand_number:
                    self._bid = BidChoice()
            self._view = view
            if self._sent is not None and self._sent != message.seq:
                self._sent = None  # the action was made (or refused): the seat acts on the new state
            waiting = message.waiting
            self._clock = None
            if waiting is not None and waiting.seconds is not None:
                seat = (waiting.seat - self.seat) % NUM_SEATS
                self._clock = (seat, self.clock() + waiting.seconds, waiting.reading)
            self._start_turn()
            self._dirty = True

    def stand_in_lines(self) -> list[str]:
        """Which hands a computer played (some of) for whom: one sentence a person, for the final
        screens (a result is not all theirs).  From the server's ``stood_in`` of each seat: the
        hands in which a computer made a move for them (a hand in which a computer sat for them
        without a move to make is not counted)."""
        view = self._view
        if view is None or self.message is None:
            return []
        stood = {seat: facts.stood_in for seat, facts in enumerate(_turned_seats(self.message, self.seat))}
        lines = []
        for seat in sorted(s for s in stood if stood[s]):
            who = "you" if seat == HUMAN else view.players[seat]
            lines.append(
                f"A computer played for {who} in {_hands(sorted(stood[seat]))}: this result is not all "
                f"{'yours' if seat == HUMAN else 'theirs'}."
            )
        return lines

    def notice(self, line: str) -> None:
        """A line about the connection (lost, back again): told as an event.  While it is lost
        nothing is sent.  Back at the table, an action sent on the lost connection may never have
        reached the server (it was in flight when the server died): the seat acts again on the
        state it holds, and if the action had been made after all, the server's next state (or its
        refusal of a stale one) says so."""
        with self._change():
            self._tell("table", line[:1].upper() + line[1:] + ("" if line.endswith(".") else "."))
            if line.startswith(BACK):
                self.online = True
                self._sent = None
                self._start_turn()
            elif line.startswith(LOST):
                self.online = False

    # --- chat (``net/chat.py``) ---------------------------------------------------------------------

    def said(self, seat: int, name: str, text: str) -> str:
        """A line said at the table by ``seat`` (the server's number), told as an event of kind
        ``chat``; the line as told.  The server cleaned it; it is cleaned again here (a client
        trusts no server with its terminal)."""
        line = chat_line(chat_text(name)[:40] or "?", chat_text(text)[:CHAT_LENGTH], seat == self.seat)
        with self._change():
            self._tell("chat", line)
        return line

    def chat_status(self, on: bool, muted: list[int]) -> None:
        """The table's chat as this seat has it: told when it changes."""
        with self._change():
            if on != self.chat_on:
                self._tell("chat", CHAT_ON if on else CHAT_OFF)
            for seat in sorted(set(muted) ^ set(self.muted)):
                self._tell("chat", (MUTED if seat in muted else UNMUTED).format(name=self.seat_name(seat)))
            self.chat_on, self.muted = on, sorted(muted)

    def club(self, name: str) -> str:
        """The club whose table it is (``protocol.Felt``): told once, as an event; the line."""
        line = club_line(name)
        with self._change():
            self._tell("table", line)
        return line

    def chat_refused(self, line: str) -> None:
        """The server did not say the person's line (chat is off, too fast): told as a chat event."""
        with self._change():
            self._tell("chat", chat_text(line[:1].upper() + line[1:] + ("" if line.endswith(".") else ".")))

    def seat_name(self, seat: int) -> str:
        """The name of the seat ``seat`` (the server's number), as the table shows it."""
        facts = self.message.seats[seat] if self.message is not None and 0 <= seat < NUM_SEATS else None
        return chat_text(facts.name)[:40] if facts is not None and facts.name else f"seat {seat + 1}"

    def mute_choices(self) -> list[dict[str, object]]:
        """The other seats taken by people, each with whether it is muted and the words of its
        switch: what a front end offers to mute or hear again."""
        if self.message is None:
            return []
        out: list[dict[str, object]] = []
        for seat, facts in enumerate(self.message.seats):
            if seat == self.seat or facts.kind != "human":
                continue
            name = self.seat_name(seat)
            muted = seat in self.muted
            out.append(
                {"seat": seat, "name": name, "muted": muted, "label": (HEAR if muted else MUTE).format(name=name)}
            )
        return out

    def seat_named(self, name: str) -> int | None:
        """The seat (the server's number) of the other person called ``name`` (any case), or None."""
        wanted = name.strip().casefold()
        for choice in self.mute_choices():
            if str(choice["name"]).casefold() == wanted:
                seat = choice["seat"]
                assert isinstance(seat, int)
                return seat
        return None

    def rejoined(self) -> None:
        """The seat's client is connected again (a page reloaded: its flow is the server's): an
        action sent before may never have been made, so the seat acts again on the next state."""
        with self._change():
            self.online = True
            self._sent = None
            self._claim_sent = None
            self._start_turn()

    def unsent(self, token: str) -> None:
        """The person's action could not be sent (the connection was down): nothing was made; say so,
        and ask again once the connection is back."""
        if token.startswith(SEEN_TOKEN):
            return  # the summary was closed all the same; the server's clock gives them time
        with self._change():
            self._sent = None
            self.online = False
            self._refuse(NOT_SENT.format(token=token))

    def refused(self, line: str) -> None:
        """The server refused the person's last action: nothing changed; say why."""
        with self._change():
            self._sent = None
            self._claim_sent = None
            self._refuse(line)

    def _start_turn(self) -> None:
        view = self._view
        if view is None or not self._my_turn() or view.phase is not Phase.PLAY:
            return
        cards = sorted_cards(view.own_cards, view.ranking or self._bid.ranking)
        if cards and not view.legal_cards >> cards[min(self._cursor, len(cards) - 1)] & 1:
            self._cursor = next(i for i, c in enumerate(cards) if view.legal_cards >> c & 1)

    def _my_turn(self) -> bool:
        return (
            self.message is not None
            and bool(self.message.legal)
            and self._sent is None
            and not self.closed
            and self.online
            and not self.stood_in
        )

    @property
    def my_turn(self) -> bool:
        """The person is to act now, on the state the flow holds."""
        return self._my_turn()

    @property
    def stood_in(self) -> bool:
        """A computer plays the person's seat now."""
        return self.message is not None and self.message.seats[self.seat].stand_in

    # --- telling ---------------------------------------------------------------------------------

    def _tell_game(self, view: PlayerView) -> None:
        """Tell what happened since the last view: every hand's events not told yet, in the order
        a person meets them.  The hand being played is told once the summaries of the hands before
        it are closed (a new hand is not dealt before the last one is over).  A client that comes
        to a game already under way (a return, a restart) is told the hand in play, not the
        finished ones again: their summaries are in the sheet and the history."""
        if self._view is None and view.history and not self._told_in:
            done = len(view.history)
            self._told_whole.update(range(1, done + 1))
            self._summarized = done
            self._tell("table", f"{done} {'hand is' if done == 1 else 'hands are'} finished: the sheet has them.")
        current = view.shown_hand() if view.phase in (Phase.BIDDING, Phase.PLAY) else None
        hands = [h for h in view.history if h.number not in self._told_whole]
        for hand in hands:
            self._tell_hand(hand, None)
            self._told_whole.add(hand.number)
            self._tell_claim(hand)
        if current is not None and self._summarized >= len(view.history):
            self._tell_hand(current, view)

    def _tell_hand(self, hand: PastHand, live: PlayerView | None) -> None:
        assert self._teller is not None and self._stand_teller is not None
        events = hand_events(self._teller, hand, live, self._stand_teller if self.stood_in else None)
        done = self._told_in.get(hand.number, 0)
        for kind, text, seat, trick in events[done:]:
            self._tell(kind, text, seat, trick)
        self._told_in[hand.number] = max(done, len(events))

    # --- the loop ----------------------------------------------------------------------------------

    def next_step(self) -> PersonTurn | HandSummary | GameOver | TableTurn:
        """What the front end does now: the person's turn, a hand's summary, the end of the game
        (filed in the library), or nothing until the next state (``TableTurn``)."""
        view = self._view
        if view is None:
            return TableTurn(None)
        with self._change():
            if self._summarized < len(view.history) - 1:
                # hands finished while the person was away (a computer played for them, or the
                # connection was lost): their summaries are not asked for one by one
                first, last = self._summarized + 1, len(view.history) - 1
                self._summarized = last
                self._tell(
                    "table", f"{_hands(list(range(first, last + 1))).capitalize()} ended meanwhile: the sheet has them."
                )
            if self._summarized < len(view.history):
                number = self._summarized + 1
                if self._summary != number:
                    self._summary = number
                    self._dirty = True
                return HandSummary(number, self._build().view)
            if self.message is not None and self.message.record is not None:
                self._file()
                if not self._over:
                    self._over = True
                    self._dirty = True
                return GameOver(view, self._path)
            if self._my_turn():
                forced = self._forced_last_card(view)
                if forced is None:
                    return PersonTurn(view)
                self._act(forced)  # the last card of the hand plays itself
            return TableTurn(view)

    def _forced_last_card(self, view: PlayerView) -> int | None:
        if not self.auto_last_card or view.phase is not Phase.PLAY or view.own_cards.bit_count() != 1:
            return None
        return view.own_cards.bit_length() - 1

    def summary_seen(self) -> None:
        with self._change():
            if not self.closed and self.online:  # the table's clock for the person starts
                self.send(f"{SEEN_TOKEN} {self._summarized + 1}", self.message.seq if self.message is not None else 0)
            self._summarized += 1
            self._summary = None
            if self._clock is not None and self._clock[0] == HUMAN and self._clock[2]:
                # the table waited on the person's reading: closing it starts their clock (the
                # server's next state says so too; until then, not "close the summary")
                self._clock = (HUMAN, self.clock() + self.welcome.timeout, False)
            if self._view is not None:
                self._tell_game(self._view)  # the hand dealt meanwhile, now that its summary is closed
            self._cursor = 0
            self._bid = BidChoice()
            self._clear_hint()
            self._start_turn()
            self._dirty = True

    def _file(self) -> Path | None:
        """Keep the finished game in this person's games folder and library (once)."""
        if self._path is not None or not self.file_games:
            return self._path
        message = self.message
        assert message is not None and message.record is not None
        from ..storage.files import free_name, stamp
        from ..storage.games import file_copy, games_dir
        from ..storage.library import file_game
        from ..storage.records import RecordError, game_from_record, record_from_game, record_json

        try:
            game = game_from_record(message.record)  # the engine checks every action of it
        except RecordError as exc:
            self._problem = f"the server's record of the game does not replay: {exc.line()}"
            self._dirty = True
            return None
        folder = games_dir()
        path = folder / f"online-{stamp()}-{self.welcome.table[:12]}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = free_name(folder, path.stem, ".json")
            path = file_copy(folder, path.name, record_json(record_from_game(game)), None)
        except OSError as exc:
            self._problem = f"{path} cannot be written ({exc.strerror or exc})"
            self._dirty = True
            return None
        self._path = path
        self._problem = None
        self._dirty = True
        if (notice := file_game(path)) is not None:
            self._tell("save", notice)
        return path

    def file(self) -> Path | None:
        """Try again to keep a finished game that could not be written."""
        with self._change():
            return self._file() if self.message is not None and self.message.record is not None else None

    @property
    def problem(self) -> str | None:
        return self._problem

    def close(self) -> None:
        """The table is being left: nothing more is sent or taken."""
        self.closed = True

    # --- the person's actions ---------------------------------------------------------------------

    def _act(self, action: Bid | int) -> None:
        view = self._view
        message = self.message
        token = str(action) if not isinstance(action, int) else _card_name(action)
        if not self.online and message is not None and message.legal and self._sent is None:
            unsent = NOT_SENT.format(token=token)
            self._refuse(unsent)
            raise WrongPhaseError(unsent)
        if view is None or message is None or not self._my_turn():
            raise WrongPhaseError("it is not your turn")
        if token not in message.legal:
            refusal = refusal_of(view, action)
            if refusal is None:
                refusal = WrongPhaseError(f"{token} cannot be made now")
            self._refuse(self._teller.refusal(refusal) if self._teller is not None else str(refusal))
            raise refusal
        self._sent = message.seq
        self._refusal = None
        self._clear_hint()
        self._dirty = True
        self.send(token, message.seq)

    def bid(self, bid: Bid) -> None:
        with self._change():
            self._act(bid)

    def play(self, card: int) -> None:
        with self._change():
            self._act(card)

    def why_not(self, action: Bid | int) -> str | None:
        view = self._view
        if view is None or self._teller is None:
            return NOT_STARTED
        refusal = refusal_of(view, action)
        return None if refusal is None else self._teller.refusal(refusal)

    def claim(self, tricks: int) -> bool:
        """Send the person's claim (``ai/claims.py``) to the server, which judges it on its cards:
        True once sent; its next state (the hand played out) or refusal answers.  Raises
        ``ClaimError`` (the state's refusal says why) when no claim may be made now."""
        with self._change():
            view, message = self._view, self.message
            why = CLAIM_OFF_TURN if self.online else CLAIM_NOT_SENT
            if (
                view is not None
                and message is not None
                and view.contract is not None
                and self._my_turn()
                and view.phase is Phase.PLAY
            ):
                left = tricks_left(view.contract, len(view.trick_winners))
                if 0 <= tricks <= left:
                    self._claim_sent = (view.hand_number, len(view.plays), tricks)
                    self._sent, self._refusal, self._dirty = message.seq, None, True
                    self._clear_hint()
                    self.send(f"{CLAIM_TOKEN} {tricks}", message.seq)
                    return True
                why = f"A claim is a number of tricks from 0 to {left}."
            self._refusal, self._dirty = why, True
            raise ClaimError(why, HUMAN)

    def _tell_claim(self, hand: PastHand) -> None:
        """After the cards of a finished ``hand``: the claim that held in it, whoever made it (the
        server's ``claims``), in the words of the referee's verdict."""
        if self._teller is None or self.message is None:
            return
        for fact in self.message.claims:
            if fact.hand == hand.number:
                seat = (fact.seat - self.seat) % NUM_SEATS
                if (text := told_claim(hand, Claim(seat, fact.tricks), fact.play, self._teller)) is not None:
                    self._tell("claim", text, seat)
        if self._claim_sent is not None and hand.number == self._claim_sent[0]:
            self._claim_sent = None

    def _may_undo(self) -> bool:
        view = self._view
        return self.help and self.online and not self.stood_in and view is not None and view.undo_point() is not None

    def undo(self) -> bool:
        """Take back the person's last bid or card, and the computers' moves after it: the server
        does it at a table where they are the only person (``Table.undo``, the same rule as on this
        machine), and the game is counted apart.  False (the state's refusal says why) if not."""
        with self._change():
            if not self.help:
                self._refuse(UNDO_OFF)
                return False
            if not self._may_undo():
                self._refuse(NOTHING_TO_UNDO)
                return False
            message = self.message
            self.send(UNDO_TOKEN, message.seq if message is not None else 0)
            self._assisted = True
            self._tell("undo", UNDONE, HUMAN)
        return True

    # --- the cursor and the bid being chosen -----------------------------------------------------

    # Moving the cursor and choosing the bid: ``Choosing``.

    def _choosing_state(self) -> TableState | None:
        return self._latest

    def _choosing_view(self) -> PlayerView | None:
        return self._view

    def _may_choose(self) -> bool:
        return self._my_turn()

    def _assist(self) -> None:
        self._assisted = True

    # --- hints -------------------------------------------------------------------------------------

    def ask_hint(self) -> HintRequest | None:
        """A hint for the person's turn, worked out on this machine from their view; only at a table
        where they are the only person (the state's refusal says why not)."""
        with self._change():
            view = self._view
            if not self.help:
                self._refuse(HINTS_OFF)
                return None
            if view is None or not self._my_turn():
                self._refuse(HINT_OUT_OF_TURN)
                return None
            return self._ask_hint_for(view)


def _hands(numbers: list[int]) -> str:
    """``hand 5``, ``hands 5 to 9``, ``hands 2, 5 to 7``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words = [str(r[0]) if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs]
    return ("hand " if len(numbers) == 1 else "hands ") + ", ".join(words)


def _card_name(card: int) -> str:
    from ..engine import CARD_NAMES

    return CARD_NAMES[card]


def _turned_seats(message: StateMessage, by: int) -> list[SeatFacts]:
    return [message.seats[(s + by) % NUM_SEATS] for s in range(NUM_SEATS)]


__all__ = [
    "HINTS_OFF",
    "UNDO_OFF",
    "Connection",
    "HandEvent",
    "RemoteFlow",
    "TableTurn",
    "hand_events",
    "refusal_of",
    "seat_words",
    "turned",
]
