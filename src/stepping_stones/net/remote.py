"""A seat at a table on a server, driven by the same front ends as a game on this machine.

``RemoteFlow`` offers what the table screen and plain mode drive (``flow.TableFlow``: states
to subscribe to, the cursor and the bid being chosen, ``confirm``/``bid``/``play``, hints), but
it holds no game: it builds each ``TableState`` from the ``State`` messages the server sends
(``receive``), with ``TableState.of(view, **facts)``, and sends the person's bids and cards to
the server (``send``).  The server is the authority; the flow only checks an action against the
legal actions the server sent, and words a refusal with the engine's own checks run on a replica
of what the seat has seen (``replica``).

The view is *turned* so that the person sits in seat 0, as in a local game (``turned``): every
front end draws the person at the bottom and says "You" for seat 0.  The seats' facts (who is a
person, a computer, connected) and whom the table waits for become the state's ``seats`` and
``waiting``, and their changes are told as events, like the bids and cards (worked out from the
views, hand by hand, with ``explain.Teller``).

``Connection`` runs a ``SeatClient`` on an event loop of its own thread, for a front end that
blocks on its input (plain mode); the app runs the client on its own loop.

May import: the flow, storage, the game's choices, the AI's hints, explain, the engine's face and
the protocol and client of this package; never a front end or Textual.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from typing import Any, Final, TypeVar

from ..engine import (
    NUM_SEATS,
    Bid,
    Game,
    IllegalActionError,
    PastHand,
    Phase,
    PlayerView,
    Trick,
    WrongPhaseError,
    sorted_cards,
)
from ..explain import Teller
from ..flow import HINT_OUT_OF_TURN, Choosing, GameOver, HandSummary, HintRequest, PersonTurn
from ..flow.state import LOG_KEPT, BidChoice, Event, TableState, bid_options
from ..game.choices import HUMAN
from .client import BACK, Refused, SeatClient
from .protocol import PAST_WIRE, VIEW_WIRE, Error, SeatFacts, State, Welcome, Wire, WireFields
from .viewcodec import view_from_json

HINTS_OFF = "Hints are off at this table: more than one person plays at it."
UNDO_OFF = "Undo is off at a table on a server: a card or bid once made stays made."
NOT_STARTED = "The table has not started yet."


# --- the person in seat 0 ---------------------------------------------------------------------


def _turn(seat: int | None, by: int) -> int | None:
    return None if seat is None else (seat - by) % NUM_SEATS


def _seats(seats: tuple[int, ...], by: int) -> tuple[int, ...]:
    return tuple((s - by) % NUM_SEATS for s in seats)


_T = TypeVar("_T")


def _three(values: tuple[_T, ...], by: int) -> tuple[_T, ...]:
    return (values[by % 3], values[(by + 1) % 3], values[(by + 2) % 3])


_RENUMBERED: Final[dict[Wire, Callable[[Any, int], Any]]] = {
    Wire.SEAT: _turn, Wire.SEATS: _seats, Wire.BY_SEAT: _three,
    Wire.SHEET: lambda sheet, by: {cid: _three(row, by) for cid, row in sheet.items()},
    Wire.HISTORY: lambda history, by: tuple(_renumbered(hand, PAST_WIRE, by) for hand in history),
}
"""Each kind of seat-valued field (``protocol.Wire``, marked on ``ViewJSON``) with the seats
numbered from seat ``by``; the others hold no seat."""

_V = TypeVar("_V", PlayerView, PastHand)


def _renumbered(item: _V, fields: WireFields, by: int) -> _V:
    return replace(item, **{name: _RENUMBERED[kind](getattr(item, name), by)
                            for name, kind in fields if kind in _RENUMBERED})


def turned(view: PlayerView) -> PlayerView:
    """``view`` with the seats numbered from its own: the seat is 0, the next one 1.  It is the
    view seat 0 would have of the same game with the players moved round the table, which is how
    every front end draws a game (the person at seat 0).  Every field that ``ViewJSON`` marks as
    holding seats is renumbered."""
    return view if view.seat == 0 else _renumbered(view, VIEW_WIRE, view.seat)


# --- the engine's checks, on what the seat has seen ---------------------------------------------


def replica(view: PlayerView) -> Game:
    """A game that agrees with everything ``view`` shows: the finished hands as they were played
    (all their cards are public), and the hand in progress dealt with the seat's own cards and, for
    the others, the cards they played and a layout of the unseen cards that agrees with every card
    seen (``ai.knowledge``).  Only the seat's own moves are checked on it, which never depend on the
    other hands.  Raises the engine's errors if the view describes no game."""
    from ..ai.knowledge import Knowledge

    first = view.history[0].forehand if view.history else view.forehand
    game = Game(view.rules, view.players, first)

    def replay(deal: tuple[int, int, int], hand: PastHand) -> None:
        log = game.start_hand(deal)
        for i, bid in enumerate(hand.bids):
            if i >= len(log.bids):  # the engine writes the forced passes itself
                game.bid(bid)
        for card in hand.plays:
            game.play(card)

    for past in view.history:
        replay((past.played_by(0), past.played_by(1), past.played_by(2)), past)
    current = view.shown_hand()
    if view.phase in (Phase.BIDDING, Phase.PLAY) and current is not None:
        hidden = Knowledge(view).sample_layout(Random(0)) if view.declaration is not None else {}
        deal = [0, 0, 0]
        unseen = sorted_cards(view.unseen_cards, 9)
        for seat in range(NUM_SEATS):
            if seat == view.seat:
                deal[seat] = view.dealt_cards
            elif hidden:
                deal[seat] = hidden[seat] | view.played_by(seat)
            else:  # before the declaration nothing has been played: any split of the unseen cards
                for card in unseen[:12]:
                    deal[seat] |= 1 << card
                unseen = unseen[12:]
        replay((deal[0], deal[1], deal[2]), current)
    return game


def refusal_of(view: PlayerView, action: Bid | int) -> IllegalActionError | None:
    """The engine's refusal of the seat's ``action`` now, or None if it would be made."""
    try:
        game = replica(view)
    except Exception:  # a view the replica cannot follow: the server alone decides
        return None
    try:
        if isinstance(action, int):
            game.verify_play(action)
        else:
            game.verify_bid(action)
    except IllegalActionError as exc:
        return exc
    return None


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


def _changes(names: tuple[str, ...], old: list[SeatFacts], new: list[SeatFacts]) -> Iterator[str]:
    for seat, (a, b) in enumerate(zip(old, new, strict=True)):
        name = names[seat]
        if b.kind != "human" or seat == HUMAN:
            continue
        if a.stand_in != b.stand_in:
            yield (f"A computer plays for {name} until they come back." if b.stand_in
                   else f"{name} plays their own seat again.")
        elif a.connected != b.connected:
            yield f"{name} is back at the table." if b.connected else f"{name} lost the connection."


@dataclass(frozen=True)
class TableTurn:
    """Someone else is to act (or the table waits for the server): nothing for the person to do
    until the next state comes."""

    view: PlayerView | None


# --- the flow -----------------------------------------------------------------------------------


class RemoteFlow(Choosing):
    """A seat at a table on a server, as the front ends drive a game (``flow.TableFlow``).

    ``receive`` takes each ``State`` the server sends (on the front end's thread), ``notice`` a
    line about the connection; ``send(move, seq)`` is how a bid or card goes to the server."""

    def __init__(self, welcome: Welcome, send: Callable[[str, int], None], *, file_games: bool = True) -> None:
        self.welcome = welcome
        self.send = send
        self.file_games = file_games
        self.message: State | None = None  # the server's last state, as it was sent
        self._subscribers: list[Callable[[TableState], None]] = []
        self._state: TableState | None = None
        self._view: PlayerView | None = None  # the person's view, turned (seat 0)
        self._teller: Teller | None = None
        self._told_in: dict[int, int] = {}  # events told of each hand, by its number
        self._told_whole: set[int] = set()  # finished hands told to their end
        self._log: list[Event] = []
        self._told = 0
        self._start_choosing()
        self._refusal: str | None = None
        self._summarized = 0  # hands whose summary was shown
        self._summary: int | None = None
        self._over = False
        self._sent: int | None = None  # the seq of the state the person's last action was made on
        self._path: Path | None = None
        self._problem: str | None = None
        self._assisted = False
        self._depth = 0
        self._dirty = False
        self.closed = False

    # --- reading ---------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self._state is not None

    @property
    def state(self) -> TableState:
        if self._state is None:
            raise WrongPhaseError(NOT_STARTED)
        return self._state

    @property
    def help(self) -> bool:
        """Hints are allowed: the person is the only one at the table."""
        return self.message is not None and self.message.help

    @property
    def seat(self) -> int:
        """The person's seat at the server's table (the record's numbering)."""
        return self.welcome.seat

    def subscribe(self, subscriber: Callable[[TableState], None]) -> None:
        self._subscribers.append(subscriber)

    @contextmanager
    def _change(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0 and self._dirty and self._view is not None:
                self._dirty = False
                self._state = self._build()
                for subscriber in list(self._subscribers):
                    subscriber(self._state)

    def _facts(self, message: State) -> tuple[tuple[str, ...], str | None]:
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
        state = TableState.of(view, seats=seats, waiting=waiting)
        self._cursor = max(0, min(self._cursor, view.own_cards.bit_count() - 1))
        if state.bidding:
            opts = bid_options(view)
            if self._bid.index >= len(opts):
                self._bid = replace(self._bid, index=max(0, len(opts) - 1))
        to_act = view.to_act
        return replace(
            state, cursor=self._cursor, bid=self._bid, refusal=self._refusal, hint_note=self._hint_note,
            hint=self._hint, thinking=None if mine or to_act is None else to_act, log=tuple(self._log),
            told=self._told, summary=self._summary, over=self._over,
            filed=str(self._path) if self._path is not None else None, problem=self._problem,
            pace="online", assisted=self._assisted, can_undo=False,
        )

    # --- what the server says ------------------------------------------------------------------

    def receive(self, message: State) -> None:
        """A state from the server: the table as it is now."""
        if self.closed:
            return
        with self._change():
            old = self.message
            self.message = message
            if message.view is None:
                return
            view = turned(view_from_json(message.view))
            if self._teller is None:
                self._teller = Teller(view.players, HUMAN)
            if old is not None and old.view is not None:
                for line in _changes(view.players, _turned_seats(old, self.seat), _turned_seats(message, self.seat)):
                    self._tell("table", line)
            if self._view is None or view != self._view:
                self._tell_game(view)
                if self._view is None or view.hand_number != self._view.hand_number:
                    self._bid = BidChoice()
            self._view = view
            if self._sent is not None and self._sent != message.seq:
                self._sent = None  # the action was made (or refused): the seat acts on the new state
            self._start_turn()
            self._dirty = True

    def notice(self, line: str) -> None:
        """A line about the connection (lost, back again): told as an event.  Back at the table,
        an action sent on the lost connection may never have reached the server (it was in flight
        when the server died): the seat acts again on the state it holds, and if the action had
        been made after all, the server's next state (or its refusal of a stale one) says so."""
        with self._change():
            self._tell("table", line[:1].upper() + line[1:] + ("" if line.endswith(".") else "."))
            if line.startswith(BACK):
                self._sent = None
                self._start_turn()

    def refused(self, line: str) -> None:
        """The server refused the person's last action: nothing changed; say why."""
        with self._change():
            self._sent = None
            self._refusal = line
            self._dirty = True

    def _start_turn(self) -> None:
        view = self._view
        if view is None or not self._my_turn() or view.phase is not Phase.PLAY:
            return
        cards = sorted_cards(view.own_cards, view.ranking or self._bid.ranking)
        if cards and not view.legal_cards >> cards[min(self._cursor, len(cards) - 1)] & 1:
            self._cursor = next(i for i, c in enumerate(cards) if view.legal_cards >> c & 1)

    def _my_turn(self) -> bool:
        return self.message is not None and bool(self.message.legal) and self._sent is None and not self.closed

    # --- telling ---------------------------------------------------------------------------------

    def _tell(self, kind: str, text: str, seat: int | None = None, trick: Trick | None = None) -> None:
        self._log.append(Event(kind, text, seat, trick))
        del self._log[:-LOG_KEPT]
        self._told += 1
        self._dirty = True

    def _tell_game(self, view: PlayerView) -> None:
        """Tell what happened since the last view: every hand's events not told yet."""
        current = view.shown_hand() if view.phase in (Phase.BIDDING, Phase.PLAY) else None
        hands = [h for h in view.history if h.number not in self._told_whole]
        for hand in hands:
            self._tell_hand(hand, None)
            self._told_whole.add(hand.number)
        if current is not None:
            self._tell_hand(current, view)

    def _tell_hand(self, hand: PastHand, live: PlayerView | None) -> None:
        events = self._hand_events(hand, live)
        done = self._told_in.get(hand.number, 0)
        for kind, text, seat, trick in events[done:]:
            self._tell(kind, text, seat, trick)
        self._told_in[hand.number] = max(done, len(events))

    def _hand_events(self, hand: PastHand, live: PlayerView | None) -> list[tuple[str, str, int | None, Trick | None]]:
        teller = self._teller
        assert teller is not None
        out: list[tuple[str, str, int | None, Trick | None]] = [
            ("deal", teller.dealt(hand.number, hand.forehand), hand.forehand, None)]
        in_puddle = hand.puddle or (live is not None and live.in_puddle)
        puddle_seat = hand.declarer if hand.puddle else (live.bidder if live is not None else None)
        for i, (bid, seat) in enumerate(zip(hand.bids, hand.bid_seats, strict=True)):
            out.append(("bid", teller.bid(seat, bid, puddle=i >= NUM_SEATS), seat, None))
            if i == NUM_SEATS - 1 and in_puddle and puddle_seat is not None:
                out.append(("puddle", teller.puddle(puddle_seat), puddle_seat, None))
        tricks = hand.tricks()
        declaration = hand.declaration
        for k, (seat, card) in enumerate(zip(hand.play_seats, hand.plays, strict=True)):
            out.append(("card", teller.card(seat, card, k // NUM_SEATS + 1, k % NUM_SEATS == 0), seat, None))
            trick = tricks[k // NUM_SEATS]
            if k % NUM_SEATS == NUM_SEATS - 1 and trick.finished and declaration is not None:
                reason = teller.trick_reason(trick, declaration.contract, declaration.ranking, declaration.trump)
                out.append(("trick", teller.trick_won(trick, reason), trick.winner, trick))
        return out

    # --- the loop ----------------------------------------------------------------------------------

    def next_step(self) -> PersonTurn | HandSummary | GameOver | TableTurn:
        """What the front end does now: the person's turn, a hand's summary, the end of the game
        (filed in the library), or nothing until the next state (``TableTurn``)."""
        view = self._view
        if view is None:
            return TableTurn(None)
        with self._change():
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
                return PersonTurn(view)
            return TableTurn(view)

    def summary_seen(self) -> None:
        with self._change():
            self._summarized += 1
            self._summary = None
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
        if view is None or message is None or not self._my_turn():
            raise WrongPhaseError("it is not your turn")
        token = str(action) if not isinstance(action, int) else _card_name(action)
        if token not in message.legal:
            refusal = refusal_of(view, action)
            if refusal is None:
                refusal = WrongPhaseError(f"{token} cannot be made now")
            self._refusal = self._teller.refusal(refusal) if self._teller is not None else str(refusal)
            self._dirty = True
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

    def undo(self) -> bool:
        with self._change():
            self._refusal = UNDO_OFF
            self._dirty = True
        return False

    # --- the cursor and the bid being chosen -----------------------------------------------------

    # Moving the cursor and choosing the bid: ``Choosing``.

    def _choosing_state(self) -> TableState | None:
        return self._state

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
                self._refusal = HINTS_OFF
                self._dirty = True
                return None
            if view is None or not self._my_turn():
                self._refusal = HINT_OUT_OF_TURN
                self._dirty = True
                return None
            return self._ask_hint_for(view)


def _card_name(card: int) -> str:
    from ..engine import CARD_NAMES

    return CARD_NAMES[card]


def _turned_seats(message: State, by: int) -> list[SeatFacts]:
    return [message.seats[(s + by) % NUM_SEATS] for s in range(NUM_SEATS)]


# --- a connection for a front end that blocks on its input -------------------------------------------


Incoming = State | Error | str | Refused
"""What a ``Connection`` hands on: a state, the server's refusal of an action, a line about the
connection, or why it ended."""


class Connection:
    """A ``SeatClient`` on an event loop of its own thread.  ``join()`` takes the seat; ``get()``
    blocks for the next state, notice or end; ``send`` sends a bid or card (any thread)."""

    def __init__(self, server: str, code: str, name: str | None, retry_seconds: float = 120.0) -> None:
        self.server = server
        self.code = code
        self.name = name
        self.retry_seconds = retry_seconds
        self.inbox: queue.Queue[Incoming] = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="table-client", daemon=True)
        self._client: SeatClient | None = None
        self._reader: asyncio.Future[None] | None = None

    def join(self) -> Welcome:
        """Take a seat.  Raises ``Refused`` with one line."""
        self._thread.start()
        return asyncio.run_coroutine_threadsafe(self._join(), self._loop).result()

    async def _join(self) -> Welcome:
        client = SeatClient(self.server, code=self.code, name=self.name, retry_seconds=self.retry_seconds,
                            notice=self.inbox.put)
        try:
            welcome = await client.join()
        except BaseException:
            await client.close()
            raise
        self._client = client
        self._reader = asyncio.ensure_future(self._read(client))
        return welcome

    async def _read(self, client: SeatClient) -> None:
        try:
            if client.state is not None:
                self.inbox.put(client.state)
            while True:
                message = await client.receive()
                if isinstance(message, State) or (
                        isinstance(message, Error) and message.code in ("illegal", "stale", "not-your-turn")):
                    self.inbox.put(message)
        except Refused as exc:
            self.inbox.put(exc)
        except asyncio.CancelledError:
            pass

    def get(self, timeout: float | None = None) -> Incoming:
        return self.inbox.get(timeout=timeout)

    def send(self, move: str, seq: int) -> None:
        client = self._client
        if client is not None:
            asyncio.run_coroutine_threadsafe(client.act(move, seq), self._loop)

    def start(self) -> None:
        """Start the table before every seat is taken (its opener only: the server refuses others)."""
        client = self._client
        if client is not None:
            asyncio.run_coroutine_threadsafe(client.start(), self._loop)

    def close(self) -> None:
        """Leave the table: the connection is closed and the loop's thread ends."""
        if not self._thread.is_alive():
            return

        async def stop() -> None:
            if self._reader is not None:
                self._reader.cancel()
            if self._client is not None:
                await self._client.close()

        try:
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(timeout=5)
        except (TimeoutError, RuntimeError):
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


__all__ = ["HINTS_OFF", "UNDO_OFF", "Connection", "RemoteFlow", "TableTurn", "refusal_of", "replica",
           "seat_words", "turned"]
