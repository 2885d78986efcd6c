"""The table protocol, version 2 (and 1): JSON messages over a websocket (docs/protocol.md).

Every message is one JSON object whose ``type`` names it, checked at the boundary by the pydantic
model of that type (strict, no unknown fields, every string and list bounded).  A client sends
``hello``, ``action``, ``start``, ``ping`` and ``resync``; the server sends ``welcome``, ``state``,
``delta``, ``error``, ``version`` and ``pong``.  Bids and cards are written as in game records
(``"pass"``, ``"may-trump 9 B"``, ``"K9"``).  In version 2 a connection's first state is sent
whole and each later one as a ``delta``: the fields of the state and of its view whose JSON
changed (``delta_text``), which the client applies to the state before (``Delta.applied``) and
checks whole (``checked_state``); version 1 clients get every state whole.

``view_to_json`` / ``view_from_json`` are the one codec of a seat's ``PlayerView``: the server
sends a seat nothing about the game but its view, and the round trip is exact
(``view_from_json(view_to_json(v)) == v``).

What the server sends goes out without a model on the way: ``ViewWriter``, ``StateWriter`` and
``full_text`` write the very JSON of ``view_to_json(v)`` and of ``State`` (their JSON, byte for byte:
``tests/test_net_protocol.py`` checks every view and every state of whole games), with the parts
that do not change (the rules, the players, each finished hand) written once per table, and a
state's fields in runs (``Fields``) that stay the very same objects while unchanged, so that a
delta passes over them by identity.  Building and validating three pydantic states per action cost
the server most of its time; what comes in is still checked by the models at the boundary, but
for an action written as this package's client writes it (``quick_action``, to the same result).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator

from ..engine import (
    CARD_NAMES,
    CONTRACTS,
    NUM_CARDS,
    NUM_SEATS,
    Bid,
    CardSyntaxError,
    Declaration,
    Phase,
    PlayerView,
    SteppingStonesError,
    cards_of,
    mask_of,
    parse_bid,
    parse_card,
    record_cards,
)
from ..engine import PastHand as _PastHand
from ..game.choices import AI_LEVELS, SEED_LENGTH
from ..storage.records import MAX_BID_TEXT, MAX_CARDS_TEXT, GameRecord, PlayerName, RecordRules
from ..storage.safety import escape, strict_json

VERSION: Final = 2
"""The protocol's version: 2 sends a seat, after its first state, only what changed (``delta``)."""
VERSIONS: Final = (1, 2)
"""The versions the server speaks: a client of another is told so in one line (``version``).  A
version 1 client gets every state whole."""
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

Seat = Annotated[int, Field(ge=0, le=NUM_SEATS - 1)]
Cards = Annotated[str, Field(max_length=MAX_CARDS_TEXT)]
BidText = Annotated[str, Field(max_length=MAX_BID_TEXT)]
Line = Annotated[str, Field(max_length=MAX_LINE)]
Level = Literal["random", "heuristic", "expert"]
assert set(AI_LEVELS) == {"random", "heuristic", "expert"}


class ProtocolError(ValueError):
    """A message that is not one of the protocol's: one line, quoting nothing raw."""

    def __init__(self, message: str, code: ErrorCode = "bad-message") -> None:
        self.code: ErrorCode = code
        super().__init__(_line(message))


class VersionMismatch(ProtocolError):
    """A ``hello`` of another protocol version."""

    def __init__(self, version: object) -> None:
        super().__init__(f"this server speaks versions 1 and {VERSION} of the table protocol, the client "
                         f"version {escape(str(version))[:20]}: use the same version of stepping-stones",
                         "bad-message")


def _line(text: str) -> str:
    text = escape(" ".join(str(text).split()))
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 3] + "..."


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# --- a seat's view -------------------------------------------------------------------------------


_CHUNK: Final = 9
_RUN: Final = (1 << _CHUNK) - 1
_CHUNK_NAMES: Final = tuple(
    tuple(record_cards(cards_of(bits << shift)) for bits in range(1 << _CHUNK))
    for shift in range(0, NUM_CARDS, _CHUNK)
)
"""The record's spelling of every set of cards within each run of nine card indexes: a set is
written from its four runs, lowest first, as ``record_cards(cards_of(mask))`` writes it."""


def _cards(mask: int) -> str:
    """``record_cards(cards_of(mask))``, from ``_CHUNK_NAMES``: the server writes some ten sets of
    cards per action.

    >>> from stepping_stones.engine import FULL_DECK
    >>> all(_cards(m) == record_cards(cards_of(m)) for m in (0, 1, FULL_DECK, 0b1011 << 7, FULL_DECK >> 3))
    True
    """
    names = []
    for run in _CHUNK_NAMES:
        if bits := mask & _RUN:
            names.append(run[bits])
        mask >>= _CHUNK
    return " ".join(names)


def _mask(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split(" ")) if text else 0


def _ordered(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split(" ")) if text else ()


def _declaration(text: str | None) -> Declaration | None:
    if text is None:
        return None
    bid = parse_bid(text)
    if not isinstance(bid, Declaration):
        raise ValueError("a declaration cannot be a pass")
    return bid


class PastHandJSON(_Model):
    """A finished hand as everyone saw it (``engine.PastHand``)."""

    number: Annotated[int, Field(ge=1, le=MAX_HANDS)]
    forehand: Seat
    bids: Annotated[list[BidText], Field(max_length=NUM_SEATS + 1)]
    bid_seats: Annotated[list[Seat], Field(max_length=NUM_SEATS + 1)]
    declarer: Seat | None
    declaration: BidText | None
    puddle: bool
    plays: Cards
    play_seats: Annotated[list[Seat], Field(max_length=36)]
    trick_winners: Annotated[list[Seat], Field(max_length=12)]
    winning: Seat | None
    result: Annotated[int, Field(ge=0, le=12)] | None


SheetRow = Annotated[list[Annotated[int, Field(ge=0, le=12)] | None], Field(min_length=3, max_length=3)]


class ViewJSON(_Model):
    """A seat's ``PlayerView``: card sets and card sequences in the record's spelling."""

    seat: Seat
    rules: RecordRules
    players: Annotated[list[PlayerName], Field(min_length=3, max_length=3)]
    phase: Literal["deal", "bidding", "play", "over"]
    hand_number: Annotated[int, Field(ge=0, le=MAX_HANDS)]
    forehand: Seat
    sheet: Annotated[dict[Annotated[str, Field(max_length=40)], SheetRow], Field(max_length=len(CONTRACTS))]
    redo_spent: Annotated[list[bool], Field(min_length=3, max_length=3)]
    history: Annotated[list[PastHandJSON], Field(max_length=MAX_HANDS)]
    own_cards: Cards
    dealt_cards: Cards
    bids: Annotated[list[BidText], Field(max_length=NUM_SEATS + 1)]
    bid_seats: Annotated[list[Seat], Field(max_length=NUM_SEATS + 1)]
    bidder: Seat | None
    in_puddle: bool
    declarer: Seat | None
    declaration: BidText | None
    puddle: bool
    plays: Cards
    play_seats: Annotated[list[Seat], Field(max_length=36)]
    trick_winners: Annotated[list[Seat], Field(max_length=12)]
    winning: Seat | None
    to_act: Seat | None
    legal_bids: Annotated[list[BidText], Field(max_length=64)]
    legal_cards: Cards


def _past_to_json(hand: _PastHand) -> PastHandJSON:
    return PastHandJSON(
        number=hand.number, forehand=hand.forehand, bids=[str(b) for b in hand.bids],
        bid_seats=list(hand.bid_seats), declarer=hand.declarer,
        declaration=str(hand.declaration) if hand.declaration is not None else None, puddle=hand.puddle,
        plays=record_cards(hand.plays), play_seats=list(hand.play_seats), trick_winners=list(hand.trick_winners),
        winning=hand.winning, result=hand.result,
    )


def _past_from_json(hand: PastHandJSON) -> _PastHand:
    return _PastHand(
        number=hand.number, forehand=hand.forehand, bids=tuple(parse_bid(b) for b in hand.bids),
        bid_seats=tuple(hand.bid_seats), declarer=hand.declarer, declaration=_declaration(hand.declaration),
        puddle=hand.puddle, plays=_ordered(hand.plays), play_seats=tuple(hand.play_seats),
        trick_winners=tuple(hand.trick_winners), winning=hand.winning, result=hand.result,
    )


def view_to_json(view: PlayerView) -> ViewJSON:
    """The view as the protocol sends it."""
    return ViewJSON(
        seat=view.seat, rules=RecordRules.of(view.rules), players=list(view.players), phase=view.phase.value,
        hand_number=view.hand_number, forehand=view.forehand,
        sheet={cid: list(row) for cid, row in view.sheet.items()}, redo_spent=list(view.redo_spent),
        history=[_past_to_json(h) for h in view.history], own_cards=_cards(view.own_cards),
        dealt_cards=_cards(view.dealt_cards), bids=[str(b) for b in view.bids], bid_seats=list(view.bid_seats),
        bidder=view.bidder, in_puddle=view.in_puddle, declarer=view.declarer,
        declaration=str(view.declaration) if view.declaration is not None else None, puddle=view.puddle,
        plays=record_cards(view.plays), play_seats=list(view.play_seats), trick_winners=list(view.trick_winners),
        winning=view.winning, to_act=view.to_act, legal_bids=[str(b) for b in view.legal_bids],
        legal_cards=_cards(view.legal_cards),
    )


def view_from_json(data: ViewJSON) -> PlayerView:
    """The ``PlayerView`` a ``ViewJSON`` describes.  Raises ``ProtocolError`` for a card, a bid or
    rules that do not exist."""
    try:
        sheet = {cid: (row[0], row[1], row[2]) for cid, row in data.sheet.items()}
        return PlayerView(
            seat=data.seat, rules=data.rules.to_rules(), players=(data.players[0], data.players[1], data.players[2]),
            phase=Phase(data.phase), hand_number=data.hand_number, forehand=data.forehand, sheet=sheet,
            redo_spent=(data.redo_spent[0], data.redo_spent[1], data.redo_spent[2]),
            history=tuple(_past_from_json(h) for h in data.history), own_cards=_mask(data.own_cards),
            dealt_cards=_mask(data.dealt_cards), bids=tuple(parse_bid(b) for b in data.bids),
            bid_seats=tuple(data.bid_seats), bidder=data.bidder, in_puddle=data.in_puddle, declarer=data.declarer,
            declaration=_declaration(data.declaration), puddle=data.puddle, plays=_ordered(data.plays),
            play_seats=tuple(data.play_seats), trick_winners=tuple(data.trick_winners), winning=data.winning,
            to_act=data.to_act, legal_bids=tuple(parse_bid(b) for b in data.legal_bids),
            legal_cards=_mask(data.legal_cards),
        )
    except (SteppingStonesError, ValueError) as exc:
        raise ProtocolError(f"the view does not describe a game: {exc}") from None


_dumps: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""Compact JSON as pydantic writes it (``model_dump_json``): no spaces, text as it is."""


def _sequence(cards: tuple[int, ...]) -> str:
    """``record_cards(cards)``: cards in their order."""
    return " ".join([CARD_NAMES[c] for c in cards])


def _past_text(hand: _PastHand) -> str:
    """``_past_to_json(hand).model_dump_json()``, without the model."""
    return _dumps({
        "number": hand.number, "forehand": hand.forehand, "bids": [str(b) for b in hand.bids],
        "bid_seats": list(hand.bid_seats), "declarer": hand.declarer,
        "declaration": str(hand.declaration) if hand.declaration is not None else None, "puddle": hand.puddle,
        "plays": record_cards(hand.plays), "play_seats": list(hand.play_seats),
        "trick_winners": list(hand.trick_winners), "winning": hand.winning, "result": hand.result,
    })


class Fields:
    """Some fields of a state's view as JSON: the text of each by its name, in their order, and
    written once as an object's members (``"name":text,...``)."""

    __slots__ = ("_diff", "_members", "texts")

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self._members: str | None = None
        self._diff: tuple[Fields, str] | None = None  # the members changed since a ``Fields``, as last asked

    @property
    def members(self) -> str:
        if self._members is None:
            self._members = ",".join([f'"{key}":{text}' for key, text in self.texts.items()])
        return self._members

    def changed(self, old: Fields) -> str:
        """The members whose text differs from ``old``'s (fields of the same names): the three seats
        of a table mostly ask it of the same two, so the last answer is kept."""
        if old is self:
            return ""
        diff = self._diff
        if diff is None or diff[0] is not old:
            before = old.texts
            diff = self._diff = (old, ",".join([f'"{key}":{text}' for key, text in self.texts.items()
                                                 if before[key] != text]))
            old._diff = None  # each run holds the one before it at most, not every run of the game
        return diff[1]


Own: TypeAlias = tuple[int, int, tuple[Bid, ...], int]
"""What of a seat's view is its own (``Game.own``): its cards, the cards it was dealt, its legal
bids and its legal cards."""

ViewParts: TypeAlias = tuple[Fields, Fields, Fields, Fields, Fields, Fields]
"""A view as the JSON of its fields, in six runs in ``ViewJSON``'s order: the seat; what changes
once a hand (``rules`` to ``history``); the seat's cards; the bidding as everyone sees it (``bids``
to ``puddle``: the same all through the play); the cards played and who is to act (``plays`` to
``to_act``); the seat's legal moves."""

_HAND_FIELDS: Final = ("rules", "players", "phase", "hand_number", "forehand", "sheet", "redo_spent", "history")
_BIDDING_FIELDS: Final = ("bids", "bid_seats", "bidder", "in_puddle", "declarer", "declaration", "puddle")
_PLAY_FIELDS: Final = ("plays", "play_seats", "trick_winners", "winning", "to_act")
_PHASES: Final = {phase: f'"{phase.value}"' for phase in Phase}


def view_text(parts: ViewParts) -> str:
    """The view's JSON from its parts (``view_to_json(v).model_dump_json()``, byte for byte)."""
    return "{" + ",".join([run.members for run in parts]) + "}"


class ViewWriter:
    """Writes the views of one game as the protocol sends them (``view_to_json(v).model_dump_json()``,
    byte for byte), each finished hand once: a finished hand never changes, and every seat sees it
    the same."""

    def __init__(self) -> None:
        self._rules: tuple[object, str] | None = None
        self._history: list[tuple[_PastHand, str]] = []
        self._history_joined: tuple[int, str] = (-1, "")  # the history's JSON, by its length
        self._players: tuple[tuple[str, ...], str] | None = None
        self._sheet: tuple[object, str] | None = None
        self._hand: tuple[tuple[object, ...], Fields] | None = None  # the runs every seat sees alike, as last written
        self._bidding: tuple[tuple[object, ...], Fields] | None = None
        self._play: tuple[tuple[object, ...], Fields] | None = None
        self._seats: dict[int, Fields] = {}  # each seat's own runs, as last written
        self._cards: dict[int, tuple[tuple[int, int], Fields]] = {}
        self._legal: dict[int, tuple[tuple[tuple[Bid, ...], int], Fields]] = {}

    def _rules_text(self, view: PlayerView) -> str:
        if self._rules is None or self._rules[0] != view.rules:
            self._rules = (view.rules, RecordRules.of(view.rules).model_dump_json())
        return self._rules[1]

    def _history_text(self, history: tuple[_PastHand, ...]) -> str:
        cache = self._history
        changed = False
        for i, hand in enumerate(history):
            if i == len(cache):
                cache.append((hand, _past_text(hand)))
                changed = True
            elif cache[i][0] is not hand and cache[i][0] != hand:
                cache[i:] = [(hand, _past_text(hand))]
                changed = True
        if changed or self._history_joined[0] != len(history):
            # the same text object while the history stays: a delta compares it by identity first
            self._history_joined = (len(history), "[" + ",".join(text for _hand, text in cache[: len(history)]) + "]")
        return self._history_joined[1]

    def text(self, view: PlayerView) -> str:
        return self.texts([view])[0]

    def texts(self, views: list[PlayerView]) -> list[str]:
        """The JSON of each of ``views``, views of one game at one moment (one per seat)."""
        return [view_text(parts) for parts in self.fields(views)]

    def fields(self, views: list[PlayerView]) -> list[ViewParts]:
        """The JSON of each field of each of ``views`` (views of one game at one moment, one per
        seat): ``seat_fields`` of the first and each one's own cards and choices."""
        if not views:
            return []
        return self.seat_fields(views[0], [(v.seat, (v.own_cards, v.dealt_cards, v.legal_bids, v.legal_cards))
                                           for v in views])

    def seat_fields(self, view: PlayerView, owns: list[tuple[int, Own]]) -> list[ViewParts]:
        """The JSON of each field of the view of each seat of ``owns`` (its seat and what of its view
        is its own, ``Game.own``), ``view`` being any seat's view of the game at that moment, in
        ``ViewJSON``'s order, in six runs (``ViewParts``).  What every seat sees alike is written
        once, from ``view``; a run whose fields are all as last time is the very ``Fields`` of last
        time, so that a delta (version 2) passes over it by identity, and compares the runs that
        every seat shares once."""
        hand = (view.rules, view.players, view.phase, view.hand_number, view.forehand, view.sheet, view.redo_spent,
                view.history)  # compared item by item, each by identity first: the same objects mostly
        if self._hand is None or self._hand[0] != hand:
            texts = (self._rules_text(view), self._players_text(view.players), _PHASES[view.phase],
                     str(view.hand_number), str(view.forehand), self._sheet_text(view.sheet),
                     _list(map(_TRUTH.__getitem__, view.redo_spent)), self._history_text(view.history))
            self._hand = (hand, Fields(dict(zip(_HAND_FIELDS, texts, strict=True))))
        bidding = (view.bids, view.bid_seats, view.bidder, view.in_puddle, view.declarer, view.declaration,
                   view.puddle)
        if self._bidding is None or self._bidding[0] != bidding:
            said = (_names(map(str, view.bids)), _list(map(str, view.bid_seats)), _number(view.bidder),
                    _TRUTH[view.in_puddle], _number(view.declarer),
                    f'"{view.declaration}"' if view.declaration is not None else "null", _TRUTH[view.puddle])
            self._bidding = (bidding, Fields(dict(zip(_BIDDING_FIELDS, said, strict=True))))
        play = (view.plays, view.play_seats, view.trick_winners, view.winning, view.to_act)
        if self._play is None or self._play[0] != play:
            played = (f'"{_sequence(view.plays)}"', _list(map(str, view.play_seats)),
                      _list(map(str, view.trick_winners)), _number(view.winning), _number(view.to_act))
            self._play = (play, Fields(dict(zip(_PLAY_FIELDS, played, strict=True))))
        hand_fields, bidding_fields, play_fields = self._hand[1], self._bidding[1], self._play[1]
        return [(self._seat_fields(seat), hand_fields, self._cards_fields(seat, own), bidding_fields, play_fields,
                 self._legal_fields(seat, own)) for seat, own in owns]

    def _seat_fields(self, seat: int) -> Fields:
        found = self._seats.get(seat)
        if found is None:
            found = self._seats[seat] = Fields({"seat": str(seat)})
        return found

    def _cards_fields(self, seat: int, own: Own) -> Fields:
        found = self._cards.get(seat)
        if found is None or found[0] != own[:2]:
            found = self._cards[seat] = (own[:2], Fields({"own_cards": f'"{_cards(own[0])}"',
                                                          "dealt_cards": f'"{_cards(own[1])}"'}))
        return found[1]

    def _legal_fields(self, seat: int, own: Own) -> Fields:
        found = self._legal.get(seat)
        if found is None or found[0] != own[2:]:
            found = self._legal[seat] = (own[2:], Fields({"legal_bids": _names(map(str, own[2])),
                                                          "legal_cards": f'"{_cards(own[3])}"'}))
        return found[1]

    def _sheet_text(self, sheet: dict[str, tuple[int | None, int | None, int | None]]) -> str:
        key = tuple(sheet.items())
        if self._sheet is None or self._sheet[0] != key:
            self._sheet = (key, _dumps({cid: list(row) for cid, row in sheet.items()}))
        return self._sheet[1]

    def _players_text(self, players: tuple[str, ...]) -> str:
        if self._players is None or self._players[0] != players:
            self._players = (players, _dumps(list(players)))
        return self._players[1]


_TRUTH: Final = {False: "false", True: "true"}


def _number(value: int | None) -> str:
    return "null" if value is None else str(value)


def _list(texts: Iterable[str]) -> str:
    """A JSON list of the JSON ``texts``."""
    return "[" + ",".join(texts) + "]"


def _names(names: Iterable[str]) -> str:
    """A JSON list of bids or cards in the record's spelling (letters, digits, spaces and dashes:
    nothing JSON escapes)."""
    joined = '","'.join(names)
    return f'["{joined}"]' if joined else "[]"


def legal_actions(view: PlayerView) -> list[str]:
    """What the seat may do now, in the record's spelling: its bids, or its cards, or nothing."""
    if view.to_act != view.seat:
        return []
    if view.phase is Phase.BIDDING:
        return [str(b) for b in view.legal_bids]
    return [CARD_NAMES[c] for c in cards_of(view.legal_cards)]


# --- what a client sends -------------------------------------------------------------------------


class Hello(_Model):
    """Take a seat: a free one with the table's invite ``code`` (and a ``name``), or one's own
    seat back with its ``secret``."""

    type: Literal["hello"]
    version: int
    code: Annotated[str, Field(max_length=CODE_LENGTH)] | None = None
    secret: Annotated[str, Field(max_length=SECRET_LENGTH)] | None = None
    name: PlayerName | None = None

    @model_validator(mode="after")
    def _code_or_secret(self) -> Hello:
        if (self.code is None) == (self.secret is None):
            raise ValueError("a hello has an invite code (to take a seat) or a seat secret (to come back), "
                             "not both")
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


class Start(_Model):
    """The table's opener starts it before every seat is taken: computers take the rest."""

    type: Literal["start"]


class Ping(_Model):
    type: Literal["ping"]
    nonce: Annotated[int, Field(ge=0, le=MAX_NONCE)] = 0


class Resync(_Model):
    """Version 2: the client cannot apply a delta (it holds no state, or not the one before):
    the server sends the seat's whole state again."""

    type: Literal["resync"]


ClientMessage: TypeAlias = Annotated[Hello | Act | Start | Ping | Resync, Field(discriminator="type")]
_CLIENT: TypeAdapter[Hello | Act | Start | Ping | Resync] = TypeAdapter(ClientMessage)


# --- what the server sends -----------------------------------------------------------------------


class SeatFacts(_Model):
    """One seat as everyone at the table sees it."""

    name: PlayerName | None  # None for a seat still open
    kind: Literal["open", "human", "computer"]
    level: Level | None  # a computer's level, or the level that stands in for a person
    connected: bool  # a person's client is connected (a computer always is)
    stand_in: bool  # a computer plays for this person until they come back


class Waiting(_Model):
    """Whose bid or card the table waits for."""

    seat: Seat
    name: PlayerName
    connected: bool
    computer: bool  # a computer seat, or one a computer stands in for


class Welcome(_Model):
    """The seat is the client's.  ``secret`` is sent once, to this seat only, when it is first
    taken: it is how the client comes back to it."""

    type: Literal["welcome"] = "welcome"
    version: int = VERSION
    table: Annotated[str, Field(max_length=32)]
    code: Annotated[str, Field(max_length=CODE_LENGTH)]
    seat: Seat
    name: PlayerName
    secret: Annotated[str, Field(max_length=SECRET_LENGTH)] | None
    opener: bool  # this seat may start the table early
    timeout: float  # seconds the table waits for a person before a computer stands in


class State(_Model):
    """The table as this seat may see it, after every change."""

    type: Literal["state"] = "state"
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]  # an action must name it
    started: bool
    seats: Annotated[list[SeatFacts], Field(min_length=3, max_length=3)]
    help: bool  # hints and undo are allowed (one person at the table)
    view: ViewJSON | None  # None before the table starts
    legal: Annotated[list[BidText], Field(max_length=64)]
    waiting: Waiting | None
    record: GameRecord | None = None  # the finished game, once it is over
    n: Annotated[int, Field(ge=1, le=MAX_STATES)] | None = None  # version 2: the connection's state number

    def dump(self) -> str:
        """The state as the server writes it: ``n`` only in version 2."""
        return self.model_dump_json(exclude=None if self.n is not None else {"n"})


STATE_FIELDS: Final = frozenset(State.model_fields) - {"type", "n"}
VIEW_FIELDS: Final = frozenset(ViewJSON.model_fields)

StateParts: TypeAlias = tuple[Fields, Fields, Fields, ViewParts | None]
"""A state as the JSON of its fields in three runs, in ``State``'s order, ``view`` between the first
two: ``seq`` to ``help`` (every seat's alike), ``legal`` (the seat's), ``waiting`` and ``record``
(every seat's alike); and its view's parts (None before the start): what a delta is made from."""


class StateWriter:
    """Writes the states of one table as the protocol sends them (``State(...).dump()``, byte for
    byte), in ``StateParts``: the runs every seat sees alike once per change, each the very
    ``Fields`` of last time while unchanged (as ``ViewWriter`` writes the views)."""

    def __init__(self) -> None:
        self._head: tuple[tuple[str, ...], Fields] | None = None
        self._tail: tuple[tuple[str, str], Fields] | None = None
        self._legal: dict[int, Fields] = {}  # each seat's, as last written

    def parts(self, *, seq: int, started: bool, seats: str, help: bool, waiting: str | None, record: str | None,
              views: list[ViewParts] | None = None, count: int = 1) -> list[StateParts]:
        """The parts of the state of each seat of ``views`` (``ViewWriter.seat_fields``), or of
        ``count`` seats before the start (no view, nothing legal), from the JSON of ``seats`` (the
        list of ``SeatFacts``), ``waiting`` and ``record``."""
        head = (str(seq), _TRUTH[started], seats, _TRUTH[help])
        if self._head is None or self._head[0] != head:
            self._head = (head, Fields(dict(zip(("seq", "started", "seats", "help"), head, strict=True))))
        tail = (waiting or "null", record or "null")
        if self._tail is None or self._tail[0] != tail:
            self._tail = (tail, Fields({"waiting": tail[0], "record": tail[1]}))
        head_fields, tail_fields = self._head[1], self._tail[1]
        if views is None:
            none = self._legal_fields(-1, "[]")
            return [(head_fields, none, tail_fields, None)] * count
        return [(head_fields, self._legal_fields(int(view[0].texts["seat"]), _legal_text(view)), tail_fields, view)
                for view in views]

    def _legal_fields(self, seat: int, text: str) -> Fields:
        found = self._legal.get(seat)
        if found is None or found.texts["legal"] != text:
            found = self._legal[seat] = Fields({"legal": text})
        return found


def _legal_text(view: ViewParts) -> str:
    """``_names(legal_actions(v))`` from the JSON of ``v``'s fields."""
    if view[4].texts["to_act"] != view[0].texts["seat"]:
        return "[]"
    legal = view[5].texts
    if view[1].texts["phase"] == '"bidding"':
        return legal["legal_bids"]
    cards = legal["legal_cards"]
    return "[" + cards.replace(" ", '","') + "]" if cards != '""' else "[]"


def full_text(parts: StateParts, n: int | None = None) -> str:
    """``State(...).dump()``, byte for byte, from its parts: the whole state (``n``: version 2)."""
    head, legal, tail, view = parts
    number = "" if n is None else f',"n":{n}'
    return (f'{{"type":"state",{head.members},"view":{"null" if view is None else view_text(view)},'
            f'{legal.members},{tail.members}{number}}}')


def delta_text(n: int, old: StateParts, new: StateParts) -> str:
    """Version 2's ``delta`` numbered ``n``: the state's fields whose JSON differs from ``old``'s,
    and the view's (``view``: null when the view is sent whole in ``state``, or unchanged)."""
    view = new[3]
    old_view = old[3]
    changed = [text for text in (new[0].changed(old[0]), new[1].changed(old[1]), new[2].changed(old[2])) if text]
    members = "null"
    if view is None:
        if old_view is not None:
            changed.append('"view":null')
    elif old_view is None:
        changed.append(f'"view":{view_text(view)}')
    else:
        runs = [run.changed(was) for was, run in zip(old_view, view, strict=True) if was is not run]
        members = "{" + ",".join([text for text in runs if text]) + "}"
    return f'{{"type":"delta","n":{n},"state":{{{",".join(changed)}}},"view":{members}}}'


class Delta(_Model):
    """Version 2: what changed since the state or delta numbered ``n - 1`` on this connection:
    ``state``'s fields replace the state's (``view`` among them when it is sent whole), ``view``'s
    fields replace those of the state's view.  The client applies it and checks the whole state
    with ``State``, so a delta can say nothing a state could not."""

    type: Literal["delta"]
    n: Annotated[int, Field(ge=2, le=MAX_STATES)]
    state: Annotated[dict[str, Any], Field(max_length=len(STATE_FIELDS))]
    view: Annotated[dict[str, Any], Field(max_length=len(VIEW_FIELDS))] | None

    @model_validator(mode="after")
    def _fields(self) -> Delta:
        if not set(self.state) <= STATE_FIELDS:
            raise ValueError("a delta names a field that a state does not have")
        if self.view is not None and (not set(self.view) <= VIEW_FIELDS or "view" in self.state):
            raise ValueError("a delta names a field that a view does not have")
        return self

    def applied(self, state: dict[str, Any]) -> dict[str, Any]:
        """The state (as JSON values) this delta makes of ``state``, which is left as it was.
        Raises ``ProtocolError`` when it changes a view that the state does not have."""
        new = {**state, **self.state, "n": self.n}
        if self.view is not None:
            old_view = state.get("view")
            if not isinstance(old_view, dict):
                raise ProtocolError("a delta changes a view that the state does not have")
            new["view"] = {**old_view, **self.view}
        return new


ErrorCode: TypeAlias = Literal[
    "bad-message", "unknown-code", "bad-secret", "table-full", "name-taken", "no-seat", "not-started", "started",
    "not-opener", "over", "stale", "not-your-turn", "illegal", "too-fast", "replaced", "server", "expired",
]


class Error(_Model):
    """A refusal, in one line; nothing changed."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: Line


class VersionReply(_Model):
    type: Literal["version"] = "version"
    version: int = VERSION
    message: Line


class Pong(_Model):
    type: Literal["pong"] = "pong"
    nonce: Annotated[int, Field(ge=0, le=MAX_NONCE)]


ServerMessage: TypeAlias = Annotated[Welcome | State | Delta | Error | VersionReply | Pong, Field(discriminator="type")]
_SERVER: TypeAdapter[Welcome | State | Delta | Error | VersionReply | Pong] = TypeAdapter(ServerMessage)


# --- opening a table (HTTP) ----------------------------------------------------------------------


class NewTable(_Model):
    """``POST /tables``: the rules, each seat (``open`` for a person, or a computer's level), the
    level that takes the seats still open when the table starts early, the computers' names."""

    rules: RecordRules
    seats: Annotated[list[Literal["open"] | Level], Field(min_length=3, max_length=3)] = ["open", "open", "open"]
    level: Level = "heuristic"
    names: Annotated[list[PlayerName | None], Field(min_length=3, max_length=3)] = [None, None, None]
    seed: Annotated[str, Field(min_length=1, max_length=SEED_LENGTH)] | None = None

    @field_validator("seed")
    @classmethod
    def _printable(cls, seed: str | None) -> str | None:
        if seed is not None and not seed.isprintable():
            raise ValueError("a seed is printable text")
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


# --- reading ----------------------------------------------------------------------------------------


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "is not a field of this message"
    elif err["type"] == "missing":
        msg = "is missing"
    elif msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    return f"{where}: {msg}" if where else msg


def _json(data: str | bytes, limit: int, depth: int) -> Any:
    if len(data) > limit:
        raise ProtocolError(f"a message of {len(data):,} bytes is too large (at most {limit:,})")
    try:
        return strict_json(data, max_depth=depth, max_digits=12)
    except ValueError as exc:
        raise ProtocolError(f"not a JSON message: {exc}") from None


def parse_client(data: str | bytes) -> Hello | Act | Start | Ping | Resync:
    """A client's message, checked.  Raises ``VersionMismatch`` for a hello of another version and
    ``ProtocolError`` for anything else that is not a message of this protocol."""
    value = _json(data, MAX_CLIENT_MESSAGE, 4)
    if not isinstance(value, dict):
        raise ProtocolError("a message is a JSON object with a type")
    if value.get("type") == "hello" and (type(value.get("version")) is not int or value["version"] not in VERSIONS):
        raise VersionMismatch(value.get("version"))
    try:
        return _CLIENT.validate_python(value, strict=True)
    except ValidationError as exc:
        raise ProtocolError(f"not a message of the table protocol ({_first_error(exc)})") from None


_QUICK_ACTION: Final = re.compile(
    r'\{"type":"action","seq":(0|[1-9][0-9]{0,6}),"bid":(?:null|"([A-Za-z0-9 -]{1,'
    + str(MAX_BID_TEXT) + r'})"),"card":(?:null|"([A-Z0-9]{1,3})")\}', re.ASCII)
"""An action as ``dump(Act(...))`` writes it (this package's client): nothing in it that JSON
escapes, no field twice, every one within its bounds."""


def quick_action(data: str | bytes) -> tuple[int, Bid | int] | None:
    """A client's action written as this package's client writes it, read without the models (a
    server reads one per action): its state number and the engine's bid or card; None for
    anything else, whatever it is, which ``parse_client`` then reads (and refuses as it must).
    What it reads is what ``parse_client(data).seq`` and ``.action()`` are."""
    if type(data) is not str or not (found := _QUICK_ACTION.fullmatch(data)):
        return None
    seq_text, bid, card = found.groups()
    seq = int(seq_text)
    if seq > MAX_SEQ or (bid is None) == (card is None):
        return None
    try:
        return seq, parse_bid(bid) if bid is not None else parse_card(card or "")
    except (SteppingStonesError, CardSyntaxError):
        return None


def parse_server(data: str | bytes) -> Welcome | State | Delta | Error | VersionReply | Pong:
    """A server's message, checked (the client's side).  Raises ``ProtocolError``.  pydantic reads
    the JSON itself: a state is some kilobytes, several a second, and the server is bounded too."""
    if len(data) > MAX_SERVER_MESSAGE:
        raise ProtocolError(f"a message of {len(data):,} bytes is too large (at most {MAX_SERVER_MESSAGE:,})")
    try:
        return _SERVER.validate_json(data, strict=True)
    except ValidationError as exc:
        raise ProtocolError(f"the server sent what is not a message of the table protocol "
                            f"({_first_error(exc)})") from None


def checked_state(value: dict[str, Any]) -> State:
    """A state a client made by applying a delta, checked as a state sent whole is.  Raises
    ``ProtocolError``."""
    try:
        return State.model_validate_json(_dumps(value), strict=True)
    except ValidationError as exc:
        raise ProtocolError(f"the server sent a delta that does not make a state ({_first_error(exc)})") from None


def parse_new_table(data: str | bytes) -> NewTable:
    """A request to open a table, checked.  Raises ``ProtocolError``."""
    value = _json(data, MAX_CLIENT_MESSAGE, 4)
    try:
        return NewTable.model_validate(value, strict=True)
    except ValidationError as exc:
        raise ProtocolError(f"not a table to open ({_first_error(exc)})") from None


def dump(message: BaseModel) -> str:
    """A message as it goes on the wire: compact JSON, fields in their declared order."""
    return message.model_dump_json()
