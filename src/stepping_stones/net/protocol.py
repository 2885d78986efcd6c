"""The table protocol, version 3: JSON messages over a websocket (docs/protocol.md).

Every message is one JSON object whose ``type`` names it, checked at the boundary by the pydantic
model of that type (strict, no unknown fields, every string and list bounded).  A client sends
``hello``, ``action``, ``claim``, ``start``, ``ping``, ``resync``, ``again``, ``seen`` and ``do``; the
server sends ``welcome``, ``state``, ``delta``, ``shown`` (to a page), ``error``, ``version``, ``pong``
and ``invite``.  Bids and cards are written as in game records
(``"pass"``, ``"may-trump 9 B"``, ``"K9"``).  A connection's first state is sent
whole and each later one as a ``delta``: the fields of the state and of its view whose JSON
changed (``delta_text``), which the client applies to the state before (``Delta.applied``), each field
checked as a whole state's are.  The table's clock is the server's: ``waiting`` says the
seconds left when the state was sent.

This module holds the messages and their reading.  A seat's view is the engine's ``PlayerView``,
on the wire as ``wire`` derives it from the engine's annotations; the server writes every message
with the models (unchecked: its values are its own), its states and deltas with msgspec from the
plain values that the models' own serializers make (``state_text``, ``delta_text``), and reads every
message it is sent with the models.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, TypeAlias, TypeVar

import msgspec
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator
from typing_extensions import TypedDict

from ..engine import (
    Bid,
    CardSyntaxError,
    SteppingStonesError,
    parse_bid,
    parse_card,
)
from ..game.choices import AI_LEVELS, SEED_LENGTH
from ..storage.records import (
    MAX_BID_TEXT,
    GameRecord,
    PlayerName,
    RecordRules,
    SeatNumber,
    error_words,
)
from ..storage.safety import CHAT_LENGTH, escape, strict_json
from .wire import PUBLIC_VIEW, VIEW, VIEW_CHANGES, VIEW_WRITERS, field_writers

VERSION: Final = 4
"""The protocol's version: 4 gives each seat's rating in its facts (``SeatFacts.rating``); since 3
a seat is sent, after its first state, only what changed (``delta``), with the table's clock
(``Waiting.seconds``) and, for a page (``Hello.page``), what the seat is shown (``Shown``) instead
of its states."""
VERSIONS: Final = (4,)
"""The versions the server speaks: a client of another is told so in one line (``version``)."""
MAX_CLIENT_MESSAGE: Final = 4096
"""The largest message a client may send, in bytes (the longest real one is about 200)."""
MAX_SERVER_MESSAGE: Final = 256 * 1024
"""The largest message a client accepts from a server (a whole game's state is some 20 KiB)."""
MAX_LINE: Final = 300
CODE_LENGTH: Final = 20  # an invite code as typed: 10 letters, a dash, spaces around
SECRET_LENGTH: Final = 64  # a seat secret (43 characters of token_urlsafe(32))
MAX_HANDS: Final = 64  # more hands than any game has (16 at most)
MAX_SEQ: Final = 10**6
MAX_NONCE: Final = 2**31
MAX_STATES: Final = 2**31  # states and deltas sent on one connection
MAX_WATCHERS: Final = 10_000  # more than a table lets watch (``Limits.watchers``)
MAX_LISTED: Final = 50  # the most tables the lobby shows

M = TypeVar("M", bound=BaseModel)
BidText = Annotated[str, Field(max_length=MAX_BID_TEXT)]
Line = Annotated[str, Field(max_length=MAX_LINE)]
Level = Literal["random", "heuristic", "expert"]
assert set(AI_LEVELS) == {"random", "heuristic", "expert"}


class ProtocolError(SteppingStonesError, ValueError):
    """A message that is not one of the protocol's: one line, quoting nothing raw."""

    def __init__(self, message: str, code: ErrorCode = "bad-message") -> None:
        self.code: ErrorCode = code
        super().__init__(_line(message))


class VersionMismatch(ProtocolError):
    """A ``hello`` of another protocol version."""

    def __init__(self, version: object) -> None:
        super().__init__(
            f"this server speaks version {VERSION} of the table protocol, the client "
            f"version {escape(str(version))[:20]}: use the same version of stepping-stones",
            "bad-message",
        )


def _line(text: str) -> str:
    text = escape(" ".join(str(text).split()))
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 3] + "..."


_dumps: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""Compact JSON as pydantic writes it (``model_dump_json``): no spaces, text as it is."""


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# --- what a client sends -------------------------------------------------------------------------


class Hello(_Model):
    """Take a seat: a free one with the table's invite ``code`` (and a ``name``), or one's own
    seat back with its ``secret``."""

    type: Literal["hello"]
    version: int
    code: Annotated[str, Field(max_length=CODE_LENGTH)] | None = None
    secret: Annotated[str, Field(max_length=SECRET_LENGTH)] | None = None
    name: PlayerName | None = None
    page: bool = False  # the client draws what it is shown (``Shown``): the web page
    # the person's player key for this server (``players``): who is rated for the seat taken with
    # ``code``; the server keeps only its digest
    key: Annotated[str, Field(max_length=SECRET_LENGTH)] | None = None

    @model_validator(mode="after")
    def _code_or_secret(self) -> Hello:
        if (self.code is None) == (self.secret is None):
            raise ValueError("a hello has an invite code (to take a seat) or a seat secret (to come back), not both")
        return self


class Act(_Model):
    """A bid or a card for the seat, made on the state numbered ``seq``."""

    type: Literal["action"]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]
    bid: BidText | None = None
    card: Annotated[str, Field(max_length=3)] | None = None

    @model_validator(mode="after")
    def _one(self) -> Act:
        if (self.bid is None) == (self.card is None):
            raise ValueError("an action is a bid or a card")
        return self

    def action(self) -> Bid | int:
        """The engine's bid or card.  Raises ``ProtocolError`` when it is not one."""
        try:
            if self.bid is not None:
                return parse_bid(self.bid)
            assert self.card is not None
            return parse_card(self.card)
        except (SteppingStonesError, CardSyntaxError) as exc:
            raise ProtocolError(str(exc), "illegal") from None


class ClaimRest(_Model):
    """Claim the rest of the hand, on the seat's turn to play, made on the state numbered ``seq``:
    the seat's side (the declarer alone, or both defenders) takes ``tricks`` of the remaining
    tricks that count -- at least that many in a Win contract, at most in a Lose one.  The server
    checks it on the real cards; one that holds plays the hand out (a new state), one that does
    not is refused (``claim-refused``); one refused claim per seat per trick."""

    type: Literal["claim"]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]
    tricks: Annotated[int, Field(ge=0, le=12)]


class Start(_Model):
    """The table's opener starts it before every seat is taken: computers take the rest."""

    type: Literal["start"]


class Ping(_Model):
    type: Literal["ping"]
    nonce: Annotated[int, Field(ge=0, le=MAX_NONCE)] = 0


class Again(_Model):
    """At a finished table: a new table with the same setup, to which everyone who sat at this one
    is invited (``Invite``)."""

    type: Literal["again"]


class Resync(_Model):
    """Version 2: the client cannot apply a delta (it holds no state, or not the one before):
    the server sends the seat's whole state again."""

    type: Literal["resync"]


class Seen(_Model):
    """The seat closed the summary of hand ``hand``: the table's clock for its next turn, which
    waits while a summary is open, starts."""

    type: Literal["seen"]
    hand: Annotated[int, Field(ge=1, le=MAX_HANDS)]


class Undo(_Model):
    """At a table with one person (``StateMessage.help``): take back the seat's last bid or card and
    the computers' moves after it, made on the state numbered ``seq`` (the rule of undo is
    ``engine.PlayerView.undo_point``); the game is counted apart."""

    type: Literal["undo"]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]


DoWhat: TypeAlias = Literal["play", "bid", "claim", "seen", "hint", "back", "again", "start", "analysis", "undo"]


class Do(_Model):
    """A page's request (``Hello.page``), in the words of what it was shown: play the ``card``,
    make the ``bid``, claim ``count`` tricks, close the summary on show (``seen``), a hint, take
    the seat back from a computer, again, start the table early, the analysis of hand ``count``.
    The server's flow for the seat makes it, as the terminal clients' flows do."""

    type: Literal["do"]
    what: DoWhat
    card: Annotated[str, Field(max_length=3)] | None = None
    bid: BidText | None = None
    count: Annotated[int, Field(ge=0, le=MAX_HANDS)] | None = None


# --- watching a table, and the lobby (docs/protocol.md, "Watching", "The lobby") -----------------------


class Watch(_Model):
    """Watch a table with its watch ``code`` (not its invite code: a watcher takes no seat and
    sees only what everyone sees, ``Watched``); a ``page`` is sent what it is shown instead."""

    type: Literal["watch"]
    version: int
    code: Annotated[str, Field(max_length=CODE_LENGTH)]
    page: bool = False


class LobbyAsk(_Model):
    """Follow the lobby: the listed tables with a free seat (``Lobby``), sent again at each change."""

    type: Literal["lobby"]
    version: int


# --- chat (docs/protocol.md, "Chat") -------------------------------------------------------------


class Chat(_Model):
    """Say a line to the table: a quick phrase or the person's own words (cleaned by the server,
    ``net.chat``), to every seat that has not muted this one.  Never kept."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_LENGTH)]


class ChatSwitch(_Model):
    """The table's opener turns chat on or off for the table."""

    type: Literal["chat-switch"]
    on: bool


class Mute(_Model):
    """Stop hearing (``on``) the seat ``seat``, or hear it again: kept by the server with this seat
    (in the table's journal) while the table lives; the muted seat is not told."""

    type: Literal["mute"]
    seat: SeatNumber
    on: bool


ClientMessages: TypeAlias = (
    Hello
    | Act
    | ClaimRest
    | Start
    | Ping
    | Resync
    | Again
    | Seen
    | Do
    | Undo
    | Watch
    | LobbyAsk
    | Chat
    | ChatSwitch
    | Mute
)
"""Every message a client may send (``parse_client``'s)."""
ClientMessage: TypeAlias = Annotated[ClientMessages, Field(discriminator="type")]
_CLIENT: TypeAdapter[ClientMessages] = TypeAdapter(ClientMessage)


# --- what the server sends -----------------------------------------------------------------------


class SeatFacts(_Model):
    """One seat as everyone at the table sees it."""

    name: PlayerName | None  # None for a seat still open
    kind: Literal["open", "human", "computer"]
    level: Level | None  # a computer's level, or the level that stands in for a person
    connected: bool  # a person's client is connected (a computer always is)
    stand_in: bool  # a computer plays for this person until they come back
    # the hands in which a computer played for this person (a final screen says so)
    stood_in: Annotated[list[Annotated[int, Field(ge=1, le=MAX_HANDS)]], Field(max_length=MAX_HANDS)] = []
    # the player's rating at this server, as shown (``ratings.shown``): a person's with a player key
    # and a rated game, a computer level's; None otherwise
    rating: Annotated[int, Field(ge=-100_000, le=100_000)] | None = None


class Waiting(_Model):
    """Whose bid or card the table waits for."""

    seat: SeatNumber
    name: PlayerName
    connected: bool
    computer: bool  # a computer seat, or one a computer stands in for
    # seconds left, when the state was sent, before a computer stands in for this person (None for
    # a computer); the server owns the clock, and a client counts down from when the state came
    seconds: Annotated[float, Field(ge=0)] | None = None
    reading: bool = False  # the clock waits for the person to close the last hand's summary


class ClaimFact(_Model):
    """A claim that held: in hand ``hand``, before its card number ``play`` (0 for the first),
    ``seat``'s side claimed ``tricks`` of the rest.  Public: the hand was played out for all to see."""

    hand: Annotated[int, Field(ge=1, le=MAX_HANDS)]
    seat: SeatNumber
    tricks: Annotated[int, Field(ge=0, le=12)]
    play: Annotated[int, Field(ge=0, le=36)]


class Welcome(_Model):
    """The seat is the client's.  ``secret`` is sent once, to this seat only, when it is first
    taken: it is how the client comes back to it."""

    type: Literal["welcome"] = "welcome"
    version: int = VERSION
    table: Annotated[str, Field(max_length=32)]
    code: Annotated[str, Field(max_length=CODE_LENGTH)]
    seat: SeatNumber
    name: PlayerName
    secret: Annotated[str, Field(max_length=SECRET_LENGTH)] | None
    opener: bool  # this seat may start the table early
    timeout: float  # seconds the table waits for a person before a computer stands in
    watch: Annotated[str, Field(max_length=CODE_LENGTH)] | None = None  # the watch code (``Watch``)


class StateMessage(_Model):
    """The table as this seat may see it, after every change."""

    type: Literal["state"] = "state"
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]  # an action must name it
    started: bool
    seats: Annotated[list[SeatFacts], Field(min_length=3, max_length=3)]
    help: bool  # hints and undo are allowed (one person at the table)
    view: VIEW | None  # the seat's view (an ``engine.PlayerView``), None before the table starts
    legal: Annotated[list[BidText], Field(max_length=64)]
    waiting: Waiting | None
    record: GameRecord | None = None  # the finished game, once it is over
    claims: Annotated[list[ClaimFact], Field(max_length=MAX_HANDS)] = []  # the claims that held, so far
    watchers: Annotated[int, Field(ge=0, le=MAX_WATCHERS)] = 0  # how many watch the table (``Watch``)
    n: Annotated[int, Field(ge=1, le=MAX_STATES)] | None = None  # the connection's state number

    def dump(self) -> str:
        """The state as the server writes it (``n``, the connection's state number, when it has one)."""
        return self.model_dump_json(exclude=None if self.n is not None else {"n"})


def _changes(model: type[BaseModel], leave: set[str]) -> Any:
    """Some of ``model``'s fields but ``leave``, each checked as the model checks it: a delta's."""
    fields = {
        name: Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
        for name, info in model.model_fields.items()
        if name not in leave
    }
    changes = TypedDict(f"{model.__name__}Changes", fields, total=False)  # type: ignore[misc]
    changes.__pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[attr-defined]
    return changes


if TYPE_CHECKING:
    StateChanges: TypeAlias = dict[str, Any]
else:
    StateChanges = _changes(StateMessage, {"type", "n"})


class Delta(_Model):
    """What changed since the state or delta numbered ``n - 1`` on this connection: ``state``'s
    fields replace the state's (``view`` among them when it is sent whole), ``view``'s fields
    replace those of the state's view.  Each field is checked as in a whole state."""

    type: Literal["delta"] = "delta"
    n: Annotated[int, Field(ge=2, le=MAX_STATES)]
    state: StateChanges
    view: VIEW_CHANGES | None

    @model_validator(mode="after")
    def _fields(self) -> Delta:
        if self.view is not None and "view" in self.state:
            raise ValueError("a delta sends a view whole or its changes, not both")
        return self

    def applied(self, state: StateMessage) -> StateMessage:
        """The state this delta makes of ``state``, numbered ``n``.  Raises ``ProtocolError`` when
        it changes a view that the state does not have."""
        update: dict[str, Any] = {**self.state, "n": self.n}
        if self.view:
            if state.view is None:
                raise ProtocolError("a delta changes a view that the state does not have")
            update["view"] = dataclasses.replace(state.view, **self.view)
        return state.model_copy(update=update)


StateFields: TypeAlias = dict[str, Any]
"""A state as the server holds it: ``StateMessage``'s fields but ``type`` and ``n``, each value of
the type the model declares (written from the model's own fields, ``state_text``, unchecked: the
server builds a model for none of the three seats' states of each change)."""


_encode: Final = msgspec.json.Encoder().encode
"""Compact JSON of plain values, as pydantic writes it (the fields in the dict's order, text as
it is): a state's and a delta's, made plain by ``_STATE_WRITERS`` and ``wire.VIEW_WRITERS``."""
_STATE_WRITERS: Final = field_writers(StateMessage)
"""``wire.writer`` of each of ``StateMessage``'s fields: what makes the server's own values of a
state (the engine's view among them) the plain values of its JSON."""


def state_text(state: StateFields, n: int | None = None) -> str:
    """The whole state as the server sends it (``n``, the connection's state number, when it has
    one): ``StateMessage(**state, n=n).dump()``, written by msgspec from the model's own fields."""
    writers = _STATE_WRITERS
    whole: dict[str, Any] = {"type": "state"}
    for name, value in state.items():
        whole[name] = value if (write := writers[name]) is None else write(value)
    if n is not None:
        whole["n"] = n
    return _encode(whole).decode()


def delta_text(n: int, old: StateFields, new: StateFields) -> str:
    """The ``delta`` numbered ``n``: the fields of ``new`` and of its view that are not those of
    ``old`` (``view`` in ``state`` when the view is sent whole, or goes), written as
    ``Delta.dump`` would write them.  A model (the seats, the clock, the record) is the same
    object while unchanged: it is compared by identity alone."""
    writers = _STATE_WRITERS
    state = {
        name: value if (write := writers[name]) is None else write(value)
        for name, value in new.items()
        if value is not (was := old[name]) and name != "view" and (isinstance(value, BaseModel) or value != was)
    }
    view: dict[str, Any] | None = None
    new_view, old_view = new["view"], old["view"]
    if new_view is None or old_view is None:
        if new_view is not old_view:  # the view sent whole, among the state's fields in their order
            state["view"] = writers["view"](new_view)  # type: ignore[misc]
            state = {name: state[name] for name in new if name in state}
    else:
        seen, view_writers = old_view.__dict__, VIEW_WRITERS
        view = {
            name: value if (write := view_writers[name]) is None else write(value)
            for name, value in new_view.__dict__.items()
            if value is not (was := seen[name]) and value != was
        }
    return _encode({"type": "delta", "n": n, "state": state, "view": view or None}).decode()


ErrorCode: TypeAlias = Literal[
    "bad-message",
    "unknown-code",
    "bad-secret",
    "table-full",
    "name-taken",
    "no-seat",
    "not-started",
    "started",
    "not-opener",
    "over",
    "not-over",
    "stale",
    "not-your-turn",
    "illegal",
    "too-fast",
    "replaced",
    "server",
    "expired",
    "claim-refused",
    "chat-refused",  # a line not said, a chat switch or mute not made (``net/chat.py``)
]


MOVE_REFUSALS: Final = ("illegal", "stale", "not-your-turn", "claim-refused")
"""The codes of a refusal of the seat's last bid, card or claim: a client says it, and asks again."""


class ErrorMessage(_Model):
    """A refusal, in one line; nothing changed."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: Line


class Moved(_Model):
    """A hello on the lobby's path (``/ws``, without a table) for a table that this server process
    does not hold, behind a proxy that hashes on the table in the path (docs/online.md, *Past one
    process*): nothing changed; say the same hello again on the table's own path, ``/t/<table>/ws``,
    which the proxy sends to the process that holds it (or will take it up)."""

    type: Literal["moved"] = "moved"
    table: Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]
    message: Line


class VersionReply(_Model):
    type: Literal["version"] = "version"
    version: int = VERSION
    message: Line


class Pong(_Model):
    type: Literal["pong"] = "pong"
    nonce: Annotated[int, Field(ge=0, le=MAX_NONCE)]


class Invite(_Model):
    """The finished table's seats are asked to a new table with its setup: its invite ``code``,
    and ``by`` whom (the person who asked for it sits first: the new table's opener)."""

    type: Literal["invite"] = "invite"
    code: Annotated[str, Field(max_length=20)]
    by: PlayerName


class Shown(_Model):
    """What a page's seat is shown now (``flow.presenter.Presentation``, as JSON): the page draws
    it and words nothing itself."""

    type: Literal["shown"] = "shown"
    shown: dict[str, Any] | None  # None before the table starts
    page: dict[str, Any]  # the invitation's code, the analysis asked for, the table before it starts


class Watched(_Model):
    """The table as a watcher sees it, after every change: what everyone sees alike (``view``, an
    ``engine.PublicView``: no cards but those played; the deals of the hands that are over), sent
    whole each time; for a page (``Watch.page``), ``shown``: what it is shown
    (``flow.presenter.WatchPresentation``, as JSON) instead of ``view``."""

    type: Literal["watched"] = "watched"
    table: Annotated[str, Field(max_length=32)]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]
    started: bool
    seats: Annotated[list[SeatFacts], Field(min_length=3, max_length=3)]
    view: PUBLIC_VIEW | None  # None before the table starts, and for a page
    waiting: Waiting | None
    claims: Annotated[list[ClaimFact], Field(max_length=MAX_HANDS)] = []
    watchers: Annotated[int, Field(ge=0, le=MAX_WATCHERS)] = 0
    shown: dict[str, Any] | None = None


class ListedTable(_Model):
    """A listed table with a free seat, as the lobby shows it: its invite ``code`` (anyone may sit
    down), its rules, its seats, and ``line``: the presenter's words for it (``lobby_line``)."""

    code: Annotated[str, Field(max_length=CODE_LENGTH)]
    rules: RecordRules
    seats: Annotated[list[SeatFacts], Field(min_length=3, max_length=3)]
    line: Line


class Lobby(_Model):
    """The lobby (``LobbyAsk``): every listed table with a free seat, the newest first (at most
    ``MAX_LISTED``), sent whole at each change."""

    type: Literal["lobby"] = "lobby"
    tables: Annotated[list[ListedTable], Field(max_length=MAX_LISTED)]


class Said(_Model):
    """A line said at the table (``Chat``), cleaned, by the seat ``seat`` (its ``name``)."""

    type: Literal["said"] = "said"
    seat: SeatNumber
    name: PlayerName
    text: Annotated[str, Field(max_length=CHAT_LENGTH)]


class Felt(_Model):
    """The club whose table it is (``NewTable.club``, or the host's), and the address of its logo on
    this server (``GET /logo/NAME.png``): sent after the welcome, to a table that has either."""

    type: Literal["felt"] = "felt"
    club: PlayerName | None
    logo: Annotated[str, Field(pattern=r"^/logo/[0-9a-z]{1,32}\.png$")] | None


class ChatStatus(_Model):
    """The table's chat as this seat has it: on or off (the opener's switch), and the seats it
    muted.  Sent when it changes, and at a hello when chat is off."""

    type: Literal["chat-status"] = "chat-status"
    on: bool
    muted: Annotated[list[SeatNumber], Field(max_length=3)] = []


ServerMessages: TypeAlias = (
    Welcome
    | StateMessage
    | Delta
    | ErrorMessage
    | VersionReply
    | Pong
    | Invite
    | Watched
    | Lobby
    | Said
    | ChatStatus
    | Felt
    | Moved
)
"""Every message a server may send (``parse_server``'s)."""
ServerMessage: TypeAlias = Annotated[ServerMessages, Field(discriminator="type")]
_SERVER: TypeAdapter[ServerMessages] = TypeAdapter(ServerMessage)


# --- opening a table (HTTP) ----------------------------------------------------------------------


CHOSEN_SEED: Final = (
    "a table on a server is dealt from the server's own randomness, so that nobody can know "
    "the deal: a seed cannot be chosen (leave it out)"
)


class NewTable(_Model):
    """``POST /tables``: the rules, each seat (``open`` for a person, or a computer's level), the
    level that takes the seats still open when the table starts early, the computers' names (and
    no ``seed``: the server deals)."""

    rules: RecordRules
    seats: Annotated[list[Literal["open"] | Level], Field(min_length=3, max_length=3)] = ["open", "open", "open"]
    level: Level = "heuristic"
    names: Annotated[list[PlayerName | None], Field(min_length=3, max_length=3)] = [None, None, None]
    seed: Annotated[str, Field(max_length=SEED_LENGTH)] | None = None  # refused: see ``_no_seed``
    listed: bool = False  # in the lobby, open to anyone, until it fills up, starts or expires
    # a club's logo on the felt, sent before (``POST /logos``, ``net/logos.py``), and its name
    logo: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")] | None = None
    club: PlayerName | None = None

    @field_validator("seed")
    @classmethod
    def _no_seed(cls, seed: str | None) -> str | None:
        """A seed from a client is refused: whoever knew it would know every deal and every
        computer's choice before a card is played.  The server deals from randomness it keeps to
        itself, and files the seed in the game's notes once the game is over."""
        if seed is not None:
            raise ValueError(CHOSEN_SEED)
        return seed

    @field_validator("seats")
    @classmethod
    def _someone(cls, seats: list[str]) -> list[str]:
        if "open" not in seats:
            raise ValueError("a table needs at least one open seat for a person")
        return seats


class TableOpened(_Model):
    code: Annotated[str, Field(max_length=CODE_LENGTH)]
    table: Annotated[str, Field(max_length=32)]
    seats: Annotated[list[SeatFacts], Field(min_length=3, max_length=3)]
    watch: Annotated[str, Field(max_length=CODE_LENGTH)] | None = None  # the watch code (``/w/CODE``)


# --- players (HTTP: /players/...; docs/protocol.md, "Players and ratings") ---------------------------


PlayerKey = Annotated[str, Field(max_length=SECRET_LENGTH)]
TableId = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]


class KeyRequest(_Model):
    """``POST /players/me`` and ``/players/export``: the person's player key (and, to export, the
    name they go by, for a key the server has not met yet)."""

    key: PlayerKey
    name: PlayerName | None = None


class ImportRequest(_Model):
    """``POST /players/import``: a transfer code, as typed."""

    code: Annotated[str, Field(max_length=CODE_LENGTH)]


class RecordRequest(_Model):
    """``POST /players/record``: a game the key's player finished here, by its table's id."""

    key: PlayerKey
    table: TableId


class LogoSent(_Model):
    """``POST /logos``: the logo taken, by the name a table's request gives it (``NewTable.logo``)."""

    logo: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]


class TransferCode(_Model):
    """A transfer code (shown once) and the seconds it is good for."""

    code: Annotated[str, Field(max_length=CODE_LENGTH)]
    seconds: int


class NewKey(_Model):
    """A new key of the player whose transfer code was given: the new device's."""

    key: PlayerKey


class RatedJSON(_Model):
    name: PlayerName
    rating: int
    rated: int  # rated games
    apart: int  # games counted apart (a computer stood in, a hint, a person without a key)
    computer: bool


class RatingsJSON(_Model):
    """``GET /players/ratings``: the rated players, the highest first (at most 100)."""

    players: Annotated[list[RatedJSON], Field(max_length=1000)]


class GameJSON(_Model):
    table: TableId
    when: int  # seconds since 1970
    seat: SeatNumber
    place: Annotated[int, Field(ge=1, le=3)]
    rated: bool
    rating: int | None  # the player's rating after it (a rated game)
    names: Annotated[list[PlayerName], Field(min_length=3, max_length=3)]


class MeJSON(_Model):
    """``POST /players/me``: the key's player (none before their first finished game or export)
    and the games they finished here, the newest first (at most 100)."""

    name: PlayerName | None
    rating: int | None
    games: Annotated[list[GameJSON], Field(max_length=1000)]


class ReviewJSON(_Model):
    """``POST /players/review``: a game the key's player finished here, hand by hand and trick by
    trick in their words (``flow.presenter.review``), with its result and sheet."""

    names: Annotated[list[PlayerName], Field(min_length=3, max_length=3)]
    seat: SeatNumber
    hands: Annotated[list[dict[str, Any]], Field(max_length=MAX_HANDS)]
    result: Annotated[list[str], Field(max_length=64)]
    sheet: Annotated[list[str], Field(max_length=64)]


# --- reading ----------------------------------------------------------------------------------------


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    msg = error_words(err, "is not a field of this message")
    return f"{where}: {msg}" if where else msg


_MAX_DIGITS: Final = 12
_LONG_NUMBER: Final = re.compile(f"[-+.0-9eE]{{{_MAX_DIGITS + 1}}}")
_read: Final = msgspec.json.Decoder().decode
_NOT_COMPACT: Final = object()


def _compact(data: str, depth: int) -> Any:
    """``strict_json``'s value of ``data`` when ``data`` is compact JSON exactly as msgspec writes
    it, as our clients send it: msgspec reads it, and writing the value again gives the very same
    text, which a key twice, a space, an escape it would not write, NaN or a number written
    otherwise cannot; nesting and long numbers are looked for in the text (brackets, and runs of
    a number's characters, inside text only send a message the long way).  Else ``_NOT_COMPACT``:
    ``strict_json`` reads it, with its words for every refusal."""
    if data.count("{") + data.count("[") > depth or _LONG_NUMBER.search(data):
        return _NOT_COMPACT
    try:
        raw = data.encode()
        value = _read(raw)
    except (msgspec.DecodeError, UnicodeError):
        return _NOT_COMPACT
    return value if _encode(value) == raw else _NOT_COMPACT


def _json(data: str | bytes, limit: int, depth: int) -> Any:
    if len(data) > limit:
        raise ProtocolError(f"a message of {len(data):,} bytes is too large (at most {limit:,})")
    if type(data) is str and (value := _compact(data, depth)) is not _NOT_COMPACT:
        return value
    try:
        return strict_json(data, max_depth=depth, max_digits=_MAX_DIGITS)
    except ValueError as exc:
        raise ProtocolError(f"not a JSON message: {exc}") from None


def _json_kind(value: object) -> str:
    """A JSON value as a message names it: ``the text "2"``, ``true``, ``a list``.

    >>> _json_kind("2"), _json_kind(True), _json_kind(2.5), _json_kind(None), _json_kind([2])
    ('the text "2"', 'true', '2.5', 'null', 'a list')
    """
    if isinstance(value, str):
        return f'the text "{escape(value)[:20]}"'
    if isinstance(value, bool) or value is None:
        return _dumps(value)
    if isinstance(value, float):
        return repr(value)
    return "a list" if isinstance(value, list) else "an object"


def parse_client(data: str | bytes) -> ClientMessages:
    """A client's message, checked.  Raises ``VersionMismatch`` for a hello of another version and
    ``ProtocolError`` for anything else that is not a message of this protocol."""
    value = _json(data, MAX_CLIENT_MESSAGE, 4)
    if not isinstance(value, dict):
        raise ProtocolError("a message is a JSON object with a type")
    if value.get("type") in ("hello", "watch", "lobby") and "version" in value:
        version = value["version"]
        if type(version) is not int:
            raise ProtocolError(f"a hello's version is the whole number {VERSION}, not {_json_kind(version)}")
        if version not in VERSIONS:
            raise VersionMismatch(version)
    try:
        return _CLIENT.validate_python(value, strict=True)
    except ValidationError as exc:
        raise ProtocolError(f"not a message of the table protocol ({_first_error(exc)})") from None


def parse_server(data: str | bytes) -> ServerMessages:
    """A server's message, checked (the client's side).  Raises ``ProtocolError``.  pydantic reads
    the JSON itself: a state is some kilobytes, several a second, and the server is bounded too."""
    if len(data) > MAX_SERVER_MESSAGE:
        raise ProtocolError(f"a message of {len(data):,} bytes is too large (at most {MAX_SERVER_MESSAGE:,})")
    try:
        return _SERVER.validate_json(data, strict=True)
    except ValidationError as exc:
        raise ProtocolError(
            f"the server sent what is not a message of the table protocol ({_first_error(exc)})"
        ) from None


def parse_new_table(data: str | bytes) -> NewTable:
    """A request to open a table, checked.  Raises ``ProtocolError``."""
    value = _json(data, MAX_CLIENT_MESSAGE, 4)
    try:
        return NewTable.model_validate(value, strict=True)
    except ValidationError as exc:
        raise ProtocolError(f"not a table to open ({_first_error(exc)})") from None


def parse_body(model: type[M], data: str | bytes) -> M:
    """An HTTP request's JSON body, checked by ``model``.  Raises ``ProtocolError``."""
    value = _json(data, MAX_CLIENT_MESSAGE, 4)
    try:
        return model.model_validate(value, strict=True)
    except ValidationError as exc:
        raise ProtocolError(f"not a request of this server ({_first_error(exc)})") from None


def dump(message: BaseModel) -> str:
    """A message as it goes on the wire: compact JSON, fields in their declared order."""
    return message.model_dump_json()
