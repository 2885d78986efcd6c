"""One table of a server, as pure logic (no network, no asyncio).

``Table`` holds the seats (open, a person, a computer), the invite code, each person's seat secret
(only its digest is kept, ``codes``), the engine's ``Game``, and the computers that stand in for a
person who does not answer.  Every action goes through the engine; a refusal is a ``TableError``
with one line and changes nothing.  The clock is injected, so a test can pass the two minutes of a
stand-in's timeout in no time.  What is kept of it is its journal (``journal``): ``keep`` says what
to write after a change, ``from_file`` makes the table again from it.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from ..ai import Action, Agent, make_ai
from ..ai.claims import Claim, ClaimError, ClaimRequest, RefusedClaims, Verdict, claim_text
from ..ai.claims import ask as ask_claim
from ..engine import (
    CARD_NAMES,
    NUM_SEATS,
    CardSyntaxError,
    Declaration,
    Game,
    IllegalActionError,
    Pass,
    Phase,
    PlayerView,
    SteppingStonesError,
    parse_bid,
    parse_card,
)
from ..explain import Teller
from ..flow.game_flow import NOTHING_TO_UNDO, UNDO_OFF
from ..game.match import Match, Request, Seeds
from ..storage.records import GameRecord, RecordError, RecordRules, game_from_record, record_from_game
from ..storage.safety import escape, name_problem, name_skeleton, normal_name
from ..storage.sidecar import SessionInfo
from .codes import digest, new_code, new_secret, new_seed
from .journal import TABLE_FORMAT, JournalMove, SeatFile, Substitution, TableFile, move_line
from .limits import DEFAULT_TIMEOUT
from .protocol import (
    ClaimFact,
    ErrorCode,
    ErrorMessage,
    Level,
    NewTable,
    SeatFacts,
    StateFields,
    StateMessage,
    Waiting,
    Watched,
    Welcome,
)
from .wire import legal_actions

STAND_IN_LEVEL: Final = "heuristic"
COMPUTER_NAMES: Final = ("Hana", "Kenji", "Aiko", "Ren", "Mika", "Sora")

Clock = Callable[[], float]


def _new_waiting(
    seat: int, name: str, connected: bool, computer: bool, seconds: float | None, reading: bool
) -> Waiting:
    """``Waiting.model_construct`` of all its fields, without the loop over the fields' aliases
    and defaults that pydantic runs in Python for it: the object ``model_construct`` makes (its
    dict in the fields' order, all six set), for the server's own values, one at nearly every
    change (``Table.waiting``): about 3.5 -> 1.4 µs (timeit)."""
    waiting = object.__new__(Waiting)
    fields = {
        "seat": seat,
        "name": name,
        "connected": connected,
        "computer": computer,
        "seconds": seconds,
        "reading": reading,
    }
    object.__setattr__(waiting, "__dict__", fields)
    object.__setattr__(waiting, "__pydantic_fields_set__", set(fields))
    object.__setattr__(waiting, "__pydantic_extra__", None)
    object.__setattr__(waiting, "__pydantic_private__", None)
    return waiting


class TableError(SteppingStonesError):
    """A refusal: ``code`` for programs (``protocol.Error.code``), the text for people, one line."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code: ErrorCode = code
        super().__init__(message)

    def reply(self) -> ErrorMessage:
        return ErrorMessage(code=self.code, message=escape(str(self))[:300])


@dataclass
class TableSeat:
    kind: Literal["open", "human", "computer"]
    name: str | None = None
    level: Level | None = None
    digest: str | None = None
    stand_in: bool = False  # a computer plays for this person now
    connected: bool = False  # the person's client is connected (not kept on disk)
    key: str | None = None  # the digest of the person's player key (``players``), if they gave one
    assisted: bool = False  # the person asked the server for a hint or took a move back: the game is counted apart
    rating: int | None = None  # the player's shown rating (``players``; not kept on disk)
    muted: tuple[int, ...] = ()  # the seats whose chat this person does not hear (``chat.py``), in order

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or self.stand_in


@dataclass
class Table:
    """One table; see the module's docstring."""

    id: str
    code: str
    rules: RecordRules
    level: Level
    seed: str
    seats: list[TableSeat]
    clock: Clock = time.monotonic
    timeout: float = DEFAULT_TIMEOUT
    opener: int | None = None
    game: Game | None = None
    substitutions: list[Substitution] = field(default_factory=list)
    waiting_since: float = 0.0
    thinking: bool = False  # a computer is deciding for the seat to act
    paused: bool = False  # a change could not be written: nobody hears of it, nobody acts, until it is
    filed: bool = False  # the finished game is in the library
    opened: float = 0.0  # when the table was opened, by the wall clock (seconds since 1970)
    resave: bool = True  # the seats changed since the last snapshot: the next keep is a snapshot
    unsaved: list[str] = field(default_factory=list)  # journal lines (moves) not yet kept
    record: GameRecord | None = None  # the finished game's record, once it is over
    again: tuple[str, str] | None = None  # the new table with this one's setup: its code, who asked
    refused_claims: RefusedClaims = field(default_factory=RefusedClaims)  # one a seat a trick (not kept)
    judging: bool = False  # a claim is being checked (in a thread): one at a time
    read: list[int] = field(default_factory=lambda: [0] * NUM_SEATS)  # hand summaries each seat closed (not kept)
    claims: list[ClaimFact] = field(default_factory=list)  # the claims that held (not kept: a restart forgets them)
    owner: str = ""  # the address (``guard.address_key``) that opened it, for its limits (not kept)
    told_paused: set[object] = field(default_factory=set)  # the connections told of this pause
    rated_for: tuple[object, ...] | None = None  # who sat where when the seats' ratings were looked up
    taken_back: int = 0  # moves taken back by ``undo`` (kept): ``seq`` goes on past them
    watch: str = ""  # the watch code: anyone with it sees what everyone sees, and takes no seat
    listed: bool = False  # in the lobby while a seat is free and it has not started
    chat_off: bool = False  # the opener turned the table's chat off (``chat.py``)
    watchers: int = 0  # the connections watching it (not kept)
    _finished_seq: tuple[int, int] = (-1, 0)  # (hands, their deals, bids and cards) for ``seq``
    _facts: tuple[tuple[object, ...], list[SeatFacts]] | None = None  # the seats' facts, by what they say
    _waiting: tuple[tuple[object, ...], Waiting] | None = None  # ``waiting()``, by what it says

    @classmethod
    def new(
        cls,
        request: NewTable,
        clock: Clock = time.monotonic,
        timeout: float = DEFAULT_TIMEOUT,
        opened: float = 0.0,
        seed: str | None = None,
    ) -> Table:
        """A new table for ``request``, dealt from ``seed`` (the server's: a fresh one by default)."""
        taken = {n for n in request.names if n is not None}
        pool = iter(n for n in COMPUTER_NAMES if n not in taken)
        seats = []
        for kind, name in zip(request.seats, request.names, strict=True):
            if kind == "open":
                seats.append(TableSeat("open"))
            else:
                seats.append(TableSeat("computer", name or next(pool), kind))
        return cls(
            id=secrets.token_hex(8),
            code=new_code(),
            rules=request.rules,
            level=request.level,
            seed=seed or new_seed(),
            seats=seats,
            clock=clock,
            timeout=timeout,
            opened=opened,
            watch=new_code(),
            listed=request.listed,
        )

    # --- facts ---------------------------------------------------------------------------------

    @property
    def seeds(self) -> Seeds:
        return Seeds(self.seed)

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    @property
    def seq(self) -> int:
        """The number of the table's state: how many deals, bids and cards it has seen.  It is
        derived from the game, so it is the same after a restart."""
        game = self.game
        if game is None:
            return 0
        log = game.log
        done, count = self._finished_seq
        if done != len(log) - 1:  # the hands before the last one, counted once
            done, count = len(log) - 1, sum(1 + len(h.bids) + len(h.plays) for h in log[:-1])
            self._finished_seq = (done, count)
        last = log[-1] if log else None
        made = count + (1 + len(last.bids) + len(last.plays) if last is not None else 0)
        return made + 2 * self.taken_back  # each move taken back counts twice: the numbers only go up

    @property
    def humans(self) -> int:
        return sum(1 for s in self.seats if s.kind == "human")

    def facts(self) -> list[SeatFacts]:
        """The seats as everyone sees them: the same list while they say the same (a delta passes
        over it by identity)."""
        key = (
            len(self.substitutions),
            *((s.kind, s.name, s.level, s.connected, s.stand_in, s.rating) for s in self.seats),
        )
        if self._facts is None or self._facts[0] != key:
            self._facts = (key, self._new_facts())
        return self._facts[1]

    def _new_facts(self) -> list[SeatFacts]:
        return [
            SeatFacts(
                name=s.name,
                kind=s.kind,
                level=s.level if s.kind == "computer" else (STAND_IN_LEVEL if s.stand_in else None),
                connected=s.connected or s.kind == "computer",
                stand_in=s.stand_in,
                stood_in=hands,
                rating=s.rating,
            )
            for s, hands in zip(self.seats, self.stood_in(), strict=True)
        ]

    def stood_in(self) -> list[list[int]]:
        """For each seat, the hands in which a computer played for its person (who did not answer)."""
        hands: list[set[int]] = [set() for _ in self.seats]
        for sub in self.substitutions:
            hands[sub.seat].add(sub.hand)
        return [sorted(h) for h in hands]

    def sidecar(self) -> str:
        """The sidecar of the finished game's record (``storage.sidecar``): which seats were
        people, which computers (their levels), what a computer played for whom, and the seed
        (kept from every seat until now)."""
        return SessionInfo(
            seed=self.seed,
            levels=[s.level if s.kind == "computer" else None for s in self.seats],
            table=True,
            stood_in=self.stood_in(),
        ).text()

    def waiting(self) -> Waiting | None:
        """Whose bid or card the table waits for, and the seconds they have left: the same object
        while it says the same (a delta passes over it by identity).  Made of the server's own
        values (the name was checked when the seat was taken), so not checked again: a new one is
        made at nearly every change, its seconds having moved."""
        game = self.game
        to_act = game.to_act if game is not None else None
        if game is None or to_act is None:
            return None
        seat = self.seats[to_act]
        reading = self.reading(to_act)
        deadline = self._deadline(game, to_act, reading)
        key = (
            to_act,
            game.players[to_act],
            seat.connected or seat.kind == "computer",
            seat.computer_plays,
            None if deadline is None else round(max(0.0, deadline - self.clock()), 1),
            reading,
        )
        if self._waiting is None or self._waiting[0] != key:
            _, name, connected, computer, seconds, reading = key
            self._waiting = (key, _new_waiting(to_act, name, connected, computer, seconds, reading))
        return self._waiting[1]

    # --- the clock ------------------------------------------------------------------------------

    def _finished_hands(self) -> int:
        game = self.game
        return 0 if game is None else len(game.log) - (0 if game.over else 1)

    def reading(self, seat: int) -> bool:
        """The person of ``seat`` has not closed the summary of the last finished hand: the clock
        of their next turn waits for it (one timeout at most)."""
        return self.seats[seat].kind == "human" and self.read[seat] < self._finished_hands()

    def seen(self, seat: int, hand: int) -> None:
        """The person of ``seat`` closed the summary of hand ``hand``: if the table waits for them,
        their clock starts now."""
        if hand <= self.read[seat]:
            return
        was = self.reading(seat)
        self.read[seat] = min(hand, self._finished_hands())
        game = self.game
        if was and not self.reading(seat) and game is not None and game.to_act == seat:
            self.waiting_since = self.clock()

    def deadline(self) -> float | None:
        """When a computer takes the seat the table waits for (by the table's clock), or None: a
        computer is to act, or nobody.  A person who has not closed the last hand's summary is
        given one timeout more to read it; closing it starts their clock."""
        game = self.game
        to_act = game.to_act if game is not None else None
        if game is None or to_act is None:
            return None
        return self._deadline(game, to_act, None)

    def _deadline(self, game: Game, to_act: int, reading: bool | None) -> float | None:
        """``deadline`` for the seat ``to_act`` of ``game``, whose ``reading`` is given when it
        is known already (``waiting``), else found if it matters."""
        if game.over or self.paused:
            return None
        seat = self.seats[to_act]
        if seat.kind != "human" or seat.stand_in:
            return None
        if reading is None:
            reading = self.reading(to_act)
        return self.waiting_since + self.timeout * (2 if reading else 1)

    def states(self, seats: list[int]) -> list[StateFields]:
        """What each of ``seats`` may see now: the table's facts and its own view of the game, as
        the fields of a ``StateMessage`` of the server's own values (not checked again); what every
        seat sees alike is the same object for each, so that a delta passes over it by identity."""
        game = self.game
        if game is not None and game.over and self.record is None:
            self.record = record_from_game(game)
        seq, started, facts, people = self.seq, game is not None, self.facts(), self.humans <= 1
        waiting, record = self.waiting(), self.record if game is not None and game.over else None
        views: list[PlayerView | None] = [None] * len(seats) if game is None else list(game.views(seats))
        return [
            {
                "seq": seq,
                "started": started,
                "seats": facts,
                "help": people,
                "view": view,
                "legal": legal_actions(view) if view is not None else [],
                "waiting": waiting,
                "record": record,
                "claims": self.claims,
                "watchers": self.watchers,
            }
            for view in views
        ]

    def watched(self) -> Watched:
        """What a watcher sees now (``protocol.Watched``): the public view (``Game.public_view``),
        the seats, whose turn, the claims that held, how many watch."""
        game = self.game
        return Watched.model_construct(
            table=self.id,
            seq=self.seq,
            started=game is not None,
            seats=self.facts(),
            view=game.public_view() if game is not None else None,
            waiting=self.waiting(),
            claims=self.claims,
            watchers=self.watchers,
            shown=None,
        )

    @property
    def in_lobby(self) -> bool:
        """Whether the lobby shows the table: listed, not started, a seat free."""
        return self.listed and not self.started and any(s.kind == "open" for s in self.seats)

    def state_for(self, seat: int) -> StateMessage:
        """What ``seat`` may see now: the table's facts and its own view of the game."""
        return StateMessage.model_construct(**self.states([seat])[0])

    def welcome(self, seat: int, secret: str | None) -> Welcome:
        name = self.seats[seat].name
        assert name is not None
        return Welcome(
            table=self.id,
            code=self.code,
            seat=seat,
            name=name,
            secret=secret,
            opener=self.opener == seat and not self.started,
            timeout=self.timeout,
            watch=self.watch,
        )

    # --- seats ---------------------------------------------------------------------------------

    def _free_name(self, wanted: str) -> str:
        """``wanted`` (as ``normal_name`` takes it in), or numbered when it looks like a name
        already at the table (``name_skeleton``: ``Ann`` with a Cyrillic ``А`` is ``Ann``)."""
        wanted = normal_name(wanted)
        problem = name_problem(wanted)
        if problem:
            raise TableError("bad-message", problem)
        names = {name_skeleton(s.name) for s in self.seats if s.name is not None}
        if name_skeleton(wanted) not in names:
            return wanted
        for n in range(2, 10):
            candidate = f"{wanted[:37]} {n}"
            if name_skeleton(candidate) not in names:
                return candidate
        raise TableError("name-taken", "that name is taken at this table: choose another")

    def claim(self, name: str, key: str | None = None) -> tuple[int, str]:
        """Take the first open seat for the person called ``name`` (whose player key has the digest
        ``key``, if they gave one): the seat and its secret (given out this once).  The first person
        to sit is the table's opener.  With every seat taken the table starts."""
        if self.started:
            raise TableError("table-full", "this table has started: every seat is taken")
        seat = next((i for i, s in enumerate(self.seats) if s.kind == "open"), None)
        if seat is None:
            raise TableError("table-full", "every seat at this table is taken")
        secret = new_secret()
        self.seats[seat] = TableSeat("human", self._free_name(name), None, digest(secret), key=key)
        self.resave = True
        if self.opener is None:
            self.opener = seat
        if all(s.kind != "open" for s in self.seats):
            self.start(None)
        return seat, secret

    def seat_of(self, secret: str) -> int | None:
        """The seat whose secret this is, or None.  Every seat's digest is compared, in constant
        time, whatever matches."""
        given = digest(secret)
        found = None
        for i, s in enumerate(self.seats):
            if s.digest is not None and hmac.compare_digest(given, s.digest):
                found = i
        return found

    def start(self, by: int | None) -> None:
        """Start the game: ``by`` the opener, or (``None``) because every seat is taken.  Seats still
        open get the table's computer level."""
        if self.started:
            raise TableError("started", "the table has already started")
        if by is not None and by != self.opener:
            raise TableError("not-opener", "only the person who opened the table can start it early")
        taken = {s.name for s in self.seats if s.name is not None}
        pool = iter(n for n in COMPUTER_NAMES if n not in taken)
        for i, s in enumerate(self.seats):
            if s.kind == "open":
                self.seats[i] = TableSeat("computer", next(pool), self.level)
        names = [s.name or "" for s in self.seats]
        self.game = Game(self.rules.to_rules(), names, self.seeds.first_forehand())
        self.resave = True
        self._advance()

    def come_back(self, seat: int) -> None:
        """The person of ``seat`` is back: no computer plays for them any more, and the table's
        wait for them starts again."""
        if self.seats[seat].stand_in:
            self.seats[seat].stand_in = False
            self.resave = True
            self.waiting_since = self.clock()

    def stand_in(self, seat: int) -> None:
        """A computer plays for the person of ``seat`` until they come back."""
        self.seats[seat].stand_in = True
        self.resave = True

    # --- the game -------------------------------------------------------------------------------

    def level_of(self, seat: int) -> str:
        """The level of the computer that plays ``seat`` (a person's stand-in's, for a person)."""
        return self.seats[seat].level or STAND_IN_LEVEL

    @property
    def attended(self) -> bool:
        """Whether a person is connected to the table: its computers think only then."""
        return any(s.kind == "human" and s.connected for s in self.seats)

    def _agents(self) -> list[Agent | None]:
        return [make_ai(s.level or STAND_IN_LEVEL) if s.computer_plays else None for s in self.seats]

    def _advance(self) -> None:
        """Deal every hand that is due, and start the wait for the seat to act."""
        game = self.game
        assert game is not None
        while game.phase is Phase.DEAL:
            Match(game, [None] * NUM_SEATS, self.seeds).deal()
        self.waiting_since = self.clock()

    def _turn_of(self, seat: int, seq: int, what: str) -> Game:
        """The game, if it is ``seat``'s turn in it on the state ``seq`` (``what``, an action or a
        claim, was made on that state).  Raises ``TableError``."""
        game = self.game
        if game is None:
            raise TableError("not-started", "the table has not started yet")
        if game.over:
            raise TableError("over", "the game is over")
        if seq != self.seq:
            raise TableError("stale", f"that {what} was made on state {seq}; the table is at state {self.seq}")
        if game.to_act != seat:
            who = game.players[game.to_act] if game.to_act is not None else "nobody"
            raise TableError("not-your-turn", f"it is {who}'s turn, not yours")
        return game

    def undo(self, seat: int, seq: int) -> None:
        """``seat`` takes back its last bid or card, and the computers' moves after it, on the state
        ``seq`` (``PlayerView.undo_point``: the rule of undo on this machine too).  Only at a table
        with one person (``help``), and the game is then counted apart (``TableSeat.assisted``).
        The state numbers go on past the moves taken back.  Raises ``TableError``."""
        game = self.game
        if game is None:
            raise TableError("not-started", "the table has not started yet")
        if self.humans > 1 or self.seats[seat].kind != "human":
            raise TableError("illegal", UNDO_OFF)
        if seq != self.seq:
            raise TableError("stale", f"that undo was made on state {seq}; the table is at state {self.seq}")
        if self.seats[seat].stand_in:
            raise TableError("illegal", "A computer plays for you now: take your seat back first.")
        point = game.view(seat).undo_point()
        if point is None:
            raise TableError("illegal", NOTHING_TO_UNDO)
        bids, plays = point
        hand = game.log[-1]
        while len(hand.plays) > plays or len(hand.bids) > bids:
            game.pop()
            self.taken_back += 1
        self.seats[seat].assisted = True
        self.resave = True  # a move taken back is no line of the journal: the next keep is a snapshot
        self.waiting_since = self.clock()

    def act(self, seat: int, seq: int, action: Action) -> None:
        """``seat``'s bid or card, made on the state ``seq``.  Raises ``TableError``."""
        game = self._turn_of(seat, seq, "action")
        is_bid = isinstance(action, Pass | Declaration)
        if game.phase is Phase.BIDDING and not is_bid:
            raise TableError("illegal", "it is the bidding: bid, or pass")
        if game.phase is Phase.PLAY and is_bid:
            raise TableError("illegal", "the bidding is over: play a card")
        before = seq  # the table's: ``_turn_of`` counted it
        try:
            Match(game, [None] * NUM_SEATS, self.seeds).apply(action)
        except IllegalActionError as exc:
            raise TableError("illegal", str(exc)) from None
        except SteppingStonesError as exc:
            raise TableError("illegal", str(exc)) from None
        self._journal(before, seat, action, stand_in=False)
        self._advance()

    # --- claims ----------------------------------------------------------------------------------

    def claim_request(self, seat: int, seq: int, tricks: int) -> ClaimRequest:
        """Check that ``seat`` may claim ``tricks`` on the state ``seq`` (its turn to play, one
        refused claim a trick): the claim to judge, on a copy of the real hand.  Raises
        ``TableError``."""
        game = self._turn_of(seat, seq, "claim")
        try:
            return ask_claim(game, Claim(seat, tricks), self.refused_claims)
        except ClaimError as exc:
            raise TableError("illegal", str(exc)) from None

    def settle_claim(self, seq: int, request: ClaimRequest, verdict: Verdict) -> None:
        """Make the referee's ``verdict`` on ``request``, made on the state ``seq``:
        one that holds plays the hand out along its line, kept as one snapshot (so a kill between
        two of its cards cannot leave half a claim); one that does not is refused in words made of
        public facts only.  Raises ``TableError`` (``claim-refused``; ``stale`` when the table
        moved on while the claim was judged)."""
        game = self.game
        seat = verdict.claim.seat
        if game is None or game.over or seq != self.seq or game.to_act != seat:
            raise TableError("stale", "the table moved on while the claim was checked: claim again if you like")
        if not verdict.holds:
            self.refused_claims.refused(game, seat)
            raise TableError("claim-refused", claim_text(request.position, verdict, Teller(game.players, seat)))
        hand = game.hand
        assert hand is not None
        fact = ClaimFact(hand=len(game.log), seat=seat, tricks=verdict.claim.tricks, play=len(hand.plays))
        self.claims = [*self.claims, fact]  # a new list: a delta compares it by identity first
        match = Match(game, [None] * NUM_SEATS, self.seeds)
        for card in verdict.line:
            match.apply(card)
        self.resave = True  # the next keep writes the whole table: the hand and its end at once
        self._advance()

    def _journal(self, seq: int, seat: int, action: Action, stand_in: bool) -> None:
        """Note the move just made for the journal (``keep``)."""
        bid = str(action) if isinstance(action, Pass | Declaration) else None
        card = CARD_NAMES[action] if bid is None and isinstance(action, int) else None
        self.unsaved.append(move_line(seq, seat, bid, card, stand_in))

    def computer_request(self) -> Request | None:
        """What a computer needs to decide for the seat to act, when a computer plays it."""
        game = self.game
        if game is None or game.over or game.to_act is None or self.thinking or self.paused:
            return None
        if not self.seats[game.to_act].computer_plays:
            return None
        return Match(game, self._agents(), self.seeds).request()

    def answer(self, request: Request, action: Action) -> bool:
        """Make a computer's answer to ``request``, if the table is still where it asked and a
        computer still plays that seat.  Whether it was made."""
        game = self.game
        assert game is not None and game.hand is not None
        if game.to_act != request.seat or not self.seats[request.seat].computer_plays:
            return False
        if game.view(request.seat) != request.view:  # a move taken back since it was asked (``undo``)
            return False
        hand = game.hand
        before = self.seq
        bidding = game.phase is Phase.BIDDING
        made = len(hand.bids) if bidding else len(hand.plays)
        Match(game, self._agents(), self.seeds, strict=False).answer(request, action)
        # what was made: the answer, or the first legal action in place of one the rules refuse
        made_action: Action = hand.bids[made] if bidding else hand.plays[made]
        stand_in = self.seats[request.seat].kind == "human"
        if stand_in:
            self._substituted(bidding, made, request.seat)
        self._journal(before, request.seat, made_action, stand_in)
        self._advance()
        return True

    def _substituted(self, bidding: bool, made: int, seat: int) -> None:
        assert self.game is not None
        where = f"bid {made + 1}" if bidding else f"play {made + 1}"
        self.substitutions.append(Substitution(hand=len(self.game.log), action=where, seat=seat))

    def overdue(self) -> int | None:
        """The person's seat the table has waited on for longer than its timeout, if any."""
        deadline = self.deadline()
        game = self.game
        if deadline is None or game is None or self.clock() < deadline:
            return None
        return game.to_act

    # --- keeping --------------------------------------------------------------------------------

    def keep(self) -> tuple[Literal["save", "append"], str]:
        """What to write to the table's journal now: a whole snapshot (``save``) when the seats
        changed since the last one, else the moves made since (``append``, possibly none)."""
        if self.resave:
            self.resave = False
            self.unsaved.clear()
            return "save", self.to_file().model_dump_json() + "\n"
        lines = "".join(line + "\n" for line in self.unsaved)
        self.unsaved.clear()
        return "append", lines

    def to_file(self) -> TableFile:
        return TableFile(
            format=TABLE_FORMAT,
            id=self.id,
            code=self.code,
            rules=self.rules,
            level=self.level,
            seed=self.seed,
            opener=self.opener,
            seats=[
                SeatFile(
                    kind=s.kind,
                    name=s.name,
                    level=s.level,
                    digest=s.digest,
                    stand_in=s.stand_in,
                    key=s.key,
                    assisted=s.assisted,
                    muted=list(s.muted),
                )
                for s in self.seats
            ],
            record=record_from_game(self.game) if self.game is not None else None,
            substitutions=list(self.substitutions),
            opened=int(self.opened),
            taken_back=self.taken_back,
            watch=self.watch,
            listed=self.listed,
            chat_off=self.chat_off,
        )

    @classmethod
    def from_file(
        cls,
        data: TableFile,
        clock: Clock = time.monotonic,
        timeout: float = DEFAULT_TIMEOUT,
        moves: tuple[JournalMove, ...] = (),
        now: float = 0.0,
    ) -> Table:
        """The table a snapshot holds, every action of its game replayed through the engine, then
        the ``moves`` of its journal after it (a table of a file that does not say when it was opened
        counts as opened ``now``).  Raises ``RecordError`` for a game the rules refuse or a move
        that does not follow."""
        game = game_from_record(data.record) if data.record is not None else None
        seats = [
            TableSeat(
                s.kind,
                s.name,
                s.level,
                s.digest,
                s.stand_in,
                key=s.key,
                assisted=s.assisted,
                muted=tuple(sorted(set(s.muted))),
            )
            for s in data.seats
        ]
        if game is not None and list(game.players) != [s.name for s in seats]:
            raise RecordError("the table's seats and its game name different players")
        table = cls(
            id=data.id,
            code=data.code,
            rules=data.rules,
            level=data.level,
            seed=data.seed,
            seats=seats,
            clock=clock,
            timeout=timeout,
            opener=data.opener,
            game=game,
            substitutions=list(data.substitutions),
            taken_back=data.taken_back,
            waiting_since=clock(),
            resave=data.watch is None,  # a journal of before watch codes: written again with its new one
            opened=data.opened if data.opened is not None else now,
            watch=data.watch or new_code(),
            listed=data.listed,
            chat_off=data.chat_off,
        )
        if game is not None and game.phase is Phase.DEAL:
            table._advance()  # killed between the last card of a hand and the next deal
        for number, move in enumerate(moves, 1):
            table._replay(move, number)
        table.read = [table._finished_hands()] * NUM_SEATS  # a restart starts every clock afresh
        return table

    def _replay(self, move: JournalMove, number: int) -> None:
        game = self.game
        if game is None or game.over or move.seq != self.seq or game.to_act != move.seat:
            raise RecordError(f"table journal: move {number} does not follow the table")
        try:
            action: Action = parse_bid(move.bid) if move.bid is not None else parse_card(move.card or "")
            hand = game.hand
            assert hand is not None
            bidding = game.phase is Phase.BIDDING
            made = len(hand.bids) if bidding else len(hand.plays)
            Match(game, [None] * NUM_SEATS, self.seeds).apply(action)
        except (SteppingStonesError, CardSyntaxError) as exc:
            raise RecordError(f"table journal: move {number}: {exc}") from None
        if move.stand_in:
            self._substituted(bidding, made, move.seat)
        self._advance()
