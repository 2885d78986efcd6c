"""Game records, version 1 (docs/records.md): read, check, write.

The pydantic models check the record's *shape* strictly (no coercion: ``"true"``
is not ``true``, ``1.0`` is not a seat).  Every *rule* is checked by replaying
the record through the engine, so the rules are never written twice.  Any
problem becomes one ``RecordError`` naming the hand and the action.
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails

from ..engine import (
    CARD_NAMES,
    CONTRACT_SETS,
    CONTRACTS,
    HAND_SIZE,
    NUM_SEATS,
    SUITS,
    TRICKS,
    Card,
    CardSyntaxError,
    Game,
    Mask,
    Phase,
    Rules,
    RulesError,
    Seat,
    SteppingStonesError,
    cards_of,
    parse_bid,
    parse_card,
    record_cards,
)
from .files import atomic_write
from .safety import FileProblem, escape, name_problem, names_problem, one_line, read_small, strict_json

FORMAT: Final = "stepping-stones-record/1"
MAX_RECORD_BYTES = 256 * 1024
"""A whole game's record is a few kilobytes; a file this large is no record, and is refused
without being read whole."""
MAX_LINE = 300  # a refusal is one line, and a readable one
MAX_DEPTH = 8  # a record nests four levels deep
MAX_DIGITS = 12  # the only numbers in a record are a seat and, nowhere else, nothing
# Structural excess is refused before pydantic builds anything (``_check_sizes``).  The bounds are
# four times what any game holds, so that a record a few actions off (a hand too many, a bid after
# the bidding ended, a card too many) is still replayed and refused at the very action that is
# wrong, as the spec asks; only what no game comes near is refused as a whole.
SLACK: Final = 4
MAX_HANDS: Final = SLACK * max(Rules(name, redo_tokens=True).max_hands for name in CONTRACT_SETS)
"""Four times the most hands any game has (the largest contract set, every redo token spent)."""
MAX_BIDS: Final = SLACK * (NUM_SEATS + 1)
"""Four times the most bidding actions of a hand (each player once, then the puddle's declaration)."""
MAX_CARDS_TEXT: Final = SLACK * (NUM_SEATS * TRICKS * 3 - 1)
"""Four times a whole hand's 36 cards written out ("K1 K2 ...", 107 characters)."""
MAX_BID_TEXT: Final = SLACK * (max(len(cid) for cid in CONTRACTS) + len(" 9 K redo"))
"""Four times the longest bid."""
SeatNumber = Annotated[Seat, Field(ge=0, le=NUM_SEATS - 1)]
"""A seat (0, 1 or 2) as the boundaries check it: in a record, on the wire (``net.protocol``), in
the library's rows."""


class RecordError(SteppingStonesError, ValueError):
    """A record that breaks the format or a rule.

    ``hand`` is 1-based (None for the record as a whole); ``action`` is
    ``"bid N"``, ``"play N"`` or ``"deal"`` (or None).
    """

    def __init__(self, reason: str, hand: int | None = None, action: str | None = None) -> None:
        self.reason = reason
        self.hand = hand
        self.action = action
        super().__init__(self.line())

    def line(self, path: str | os.PathLike[str] | None = None) -> str:
        """The refusal as one line, safe to print: nothing of the file reaches the terminal raw.
        It starts with the file's name when ``path`` is given (``'a.json: hand 3, play 14: ...'``,
        as every command names a file it refuses), else with ``'record: '`` for the record as a
        whole."""
        if path is not None:
            where = f"hand {self.hand}: " if self.hand is not None and self.action is None else ""
            if self.action is not None:
                where = f"hand {self.hand}, {self.action}: "
            # a deep path and a long reason: the start of the path and the end of the reason
            return one_line(f"{os.fspath(path)}: {where}{self.reason}", MAX_LINE)
        if self.hand is None:
            text = f"record: {self.reason}"
        elif self.action is None:
            text = f"hand {self.hand}: {self.reason}"
        else:
            text = f"hand {self.hand}, {self.action}: {self.reason}"
        text = escape(" ".join(text.split("\n")))
        return text if len(text) <= MAX_LINE else text[: MAX_LINE - 3] + "..."


def quote(value: object, limit: int = 60) -> str:
    """A value from a file, as a message shows it: its ``repr``, escaped and cut short."""
    text = escape(repr(value))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _valid_name(name: str) -> str:
    problem = name_problem(name)
    if problem:
        raise ValueError(problem)
    return name


PlayerName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_valid_name)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class RecordRules(_Strict):
    """The engine's ``Rules`` as a record writes them (the same four fields)."""

    contract_set: Literal["standard", "advanced"]
    short_game: bool
    omit: str | None = None
    redo_tokens: bool

    def to_rules(self) -> Rules:
        """The engine's ``Rules``.  Raises ``RulesError`` for options that make no game."""
        return Rules(self.contract_set, self.short_game, self.omit, self.redo_tokens)

    @classmethod
    def of(cls, rules: Rules) -> RecordRules:
        return cls.model_validate(rules.as_dict())


CardsText = Annotated[str, Field(max_length=MAX_CARDS_TEXT)]


class RecordHand(_Strict):
    deal: Annotated[list[CardsText], Field(min_length=3, max_length=3)]
    bids: Annotated[list[Annotated[str, Field(max_length=MAX_BID_TEXT)]], Field(max_length=MAX_BIDS)]
    play: CardsText


class GameRecord(_Strict):
    format: Literal["stepping-stones-record/1"]
    rules: RecordRules
    players: Annotated[list[PlayerName], Field(min_length=3, max_length=3)]
    first_forehand: SeatNumber
    hands: Annotated[list[RecordHand], Field(max_length=MAX_HANDS)]

    @field_validator("players")
    @classmethod
    def _different_names(cls, players: list[str]) -> list[str]:
        problem = names_problem(players)
        if problem:
            raise ValueError(problem)
        return players


# --- reading ----------------------------------------------------------------


def load_json(data: str | bytes) -> Any:
    """Parse the JSON of a record or a save, with the limits no real one comes near.
    Raises ``RecordError``."""
    try:
        return strict_json(data, max_depth=MAX_DEPTH, max_digits=MAX_DIGITS)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def _fields(obj: dict[str, Any], model: type[BaseModel], where: str, hand: int | None = None) -> None:
    """Refuse an object with more keys than its model has fields, naming the first unknown one
    (pydantic would build one error for every key)."""
    fields = model.model_fields
    if len(obj) > len(fields):
        key = next(k for k in obj if k not in fields)
        raise RecordError(f"{where}{escape(key)} is not a field of the record format", hand)


def _check_sizes(data: dict[str, Any]) -> None:
    """Refuse, before pydantic builds anything, what is larger than any record can be: more
    hands than any game has, more bids than a hand has, longer lists and strings, more fields.
    Pydantic builds an object or an error for every item of a list of any length (87,000 empty
    hands took seconds and hundreds of megabytes); after this every list it sees is short.
    Values of the wrong type are left to pydantic, which says so."""
    _fields(data, GameRecord, "")
    rules = data.get("rules")
    if isinstance(rules, dict):
        _fields(rules, RecordRules, "rules.")
    players = data.get("players")
    if isinstance(players, list) and len(players) > NUM_SEATS:
        raise RecordError(f"a record has {NUM_SEATS} players, not {len(players):,}")
    hands = data.get("hands")
    if not isinstance(hands, list):
        return
    if len(hands) > MAX_HANDS:
        raise RecordError(f"{len(hands):,} hands, far more than any game has")
    for h, hand in enumerate(hands, 1):
        if not isinstance(hand, dict):
            continue
        _fields(hand, RecordHand, "", h)
        deal = hand.get("deal")
        if isinstance(deal, list):
            if len(deal) > NUM_SEATS:
                raise RecordError(f"a deal is {NUM_SEATS} seats' cards, not {len(deal):,}", h, "deal")
            if any(isinstance(t, str) and len(t) > MAX_CARDS_TEXT for t in deal):
                raise RecordError(f"a seat's cards are written in more than {MAX_CARDS_TEXT} characters", h, "deal")
        bids = hand.get("bids")
        if isinstance(bids, list):
            if len(bids) > MAX_BIDS:
                raise RecordError(
                    f"{len(bids):,} bidding actions, far more than a hand has (each player "
                    "once, then the puddle's declaration)",
                    h,
                    f"bid {MAX_BIDS + 1}",
                )
            for i, bid in enumerate(bids, 1):
                if isinstance(bid, str) and len(bid) > MAX_BID_TEXT:
                    raise RecordError(f"{len(bid):,} characters, far longer than any bid", h, f"bid {i}")
        play = hand.get("play")
        if isinstance(play, str) and len(play) > MAX_CARDS_TEXT:
            raise RecordError(
                f"{len(play):,} characters, far longer than a whole hand's {NUM_SEATS * TRICKS} cards", h, "play"
            )


def _where(loc: tuple[Any, ...]) -> tuple[int | None, str | None, str]:
    """Turn a pydantic error location into (hand, action, field words)."""
    if len(loc) >= 2 and loc[0] == "hands" and isinstance(loc[1], int):
        hand = loc[1] + 1
        rest = loc[2:]
        if len(rest) >= 2 and rest[0] == "bids" and isinstance(rest[1], int):
            return hand, f"bid {rest[1] + 1}", ""
        if rest and rest[0] == "play":
            return hand, "play", ""
        if rest and rest[0] == "deal":
            return hand, "deal", ""
        return hand, None, ".".join(str(p) for p in rest)
    return None, None, ".".join(str(p) for p in loc)


def error_words(err: ErrorDetails, extra_forbidden: str, lower: bool = False) -> str:
    """What pydantic's error ``err`` says of its field, in our words: a missing field "is missing",
    one not in the format says ``extra_forbidden``, a validator's message is its own (without
    pydantic's "Value error, "); any other message is pydantic's (``lower``: with a small first
    letter, to follow a field's name)."""
    msg = err["msg"]
    if err["type"] == "missing":
        return "is missing"
    if err["type"] == "extra_forbidden":
        return extra_forbidden
    if msg.startswith("Value error, "):
        return msg[len("Value error, ") :]
    return msg[0].lower() + msg[1:] if lower else msg


def parse_record(text: str | bytes) -> GameRecord:
    """Check a record's JSON and shape (not yet its rules).  Raises ``RecordError``."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"too large for a game record ({len(text):,} bytes; at most {MAX_RECORD_BYTES:,})")
    data = load_json(text)
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {quote(data.get('format'))}")
    _check_sizes(data)
    try:
        return GameRecord.model_validate(data, strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        hand, action, field = _where(tuple(escape(str(p)) if isinstance(p, str) else p for p in err["loc"]))
        msg = error_words(err, "is not a field of the record format", lower=True)
        reason = (f"{field} {msg}" if msg.startswith("is ") else f"{field}: {msg}") if field else msg
        raise RecordError(reason, hand, action) from None


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and shape-check the record in a file.  Raises ``RecordError`` (also for I/O, and for
    a file that is not a small regular file: a FIFO, a device, a folder, a huge file)."""
    try:
        data = read_small(path, MAX_RECORD_BYTES)
    except FileProblem as exc:
        raise RecordError(exc.reason) from None
    return parse_record(data)


def _card_names(text: str, hand_no: int, action: str) -> list[str]:
    """The card names of a deal or play string, which the format separates by single ASCII spaces
    (not tabs, not two spaces, not the other Unicode spaces such as U+3000 or U+2028).  An empty
    string is no cards."""
    if not text:
        return []
    names = text.split(" ")
    if "" in names:
        where = action if action == "deal" else f"{action} {names.index('') + 1}"
        raise RecordError(
            "cards are separated by single spaces, with none before the first or after the last", hand_no, where
        )
    return names


def _deal(hand_no: int, seats: list[str], players: tuple[str, ...]) -> tuple[Mask, Mask, Mask]:
    masks = []
    seen: dict[Card, Seat] = {}
    for seat, text in enumerate(seats):
        mask = 0
        tokens = _card_names(text, hand_no, "deal")
        for token in tokens:
            try:
                c = parse_card(token)
            except CardSyntaxError as exc:
                raise RecordError(str(exc), hand_no, "deal") from None
            if c in seen:
                raise RecordError(f"{CARD_NAMES[c]} is dealt twice", hand_no, "deal")
            seen[c] = seat
            mask |= 1 << c
        if len(tokens) != HAND_SIZE:
            raise RecordError(f"{players[seat]} is dealt {len(tokens)} cards, not {HAND_SIZE}", hand_no, "deal")
        masks.append(mask)
    return masks[0], masks[1], masks[2]


def game_from_record(record: GameRecord) -> Game:
    """Replay a shape-checked record through the engine.  Raises ``RecordError`` at the first
    action the rules refuse; the returned game is the position the record reaches."""
    try:
        rules = record.rules.to_rules()
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    game = Game(rules, tuple(record.players), record.first_forehand)
    for h, rh in enumerate(record.hands, 1):
        if game.over:
            raise RecordError(
                f"the game already ended after hand {h - 1}: every player has recorded every contract",
                h,
                "bid 1",
            )
        if game.phase is not Phase.DEAL:
            raise RecordError(f"hand {h - 1} is not finished, so no new hand can start", h, "bid 1")
        hand = game.start_hand(_deal(h, rh.deal, game.players))
        for i, text in enumerate(rh.bids, 1):
            where = f"bid {i}"
            if i <= len(hand.bids):
                # The engine already wrote this seat's automatic pass.
                if text != "pass":
                    seat = hand.bid_seat(i - 1)
                    raise RecordError(f"{game.players[seat]} has nothing left to declare and must pass", h, where)
                continue
            try:
                game.bid(parse_bid(text))
            except SteppingStonesError as exc:
                raise RecordError(str(exc), h, where) from None
        cards = _card_names(rh.play, h, "play")
        for j, token in enumerate(cards, 1):
            where = f"play {j}"
            if hand.finished:
                raise RecordError(f"all {TRICKS} tricks of this hand have been played", h, where)
            try:
                game.play(parse_card(token))
            except SteppingStonesError as exc:
                raise RecordError(str(exc), h, where) from None
    return game


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a record file and replay it: the game it reaches.  Raises ``RecordError``."""
    return game_from_record(read_record(path))


# --- writing ----------------------------------------------------------------


def record_from_game(game: Game) -> GameRecord:
    """The record of ``game`` so far (finished or not)."""
    hands = []
    for hand in game.log:
        hands.append(
            RecordHand(
                deal=[record_cards(cards_of(m)) for m in hand.deal],
                bids=[str(b) for b in hand.bids],
                play=record_cards(hand.plays),
            )
        )
    return GameRecord(
        format=FORMAT,
        rules=RecordRules.of(game.rules),
        players=list(game.players),
        first_forehand=game.first_forehand,
        hands=hands,
    )


def record_json(record: GameRecord) -> str:
    return record.model_dump_json(indent=2) + "\n"


def write_record(path: str | os.PathLike[str], record: GameRecord) -> None:
    """Write ``record`` atomically: a reader sees the old file or the new one, never half."""
    atomic_write(path, record_json(record))


# --- the replay summary -------------------------------------------------------


def summary(game: Game) -> dict[str, Any]:
    """The facts ``stepping-stones replay --json`` prints (docs/records.md)."""
    hands = []
    for hand in game.log:
        if not hand.declared:
            continue
        bid = hand.declaration
        hands.append(
            {
                "declarer": hand.declarer,
                "contract": bid.contract.id,
                "ranking": bid.ranking,
                "trump": SUITS[bid.trump] if bid.trump is not None else None,
                "redo": bid.redo,
                "puddle": hand.puddle,
                "forehand": hand.forehand,
                "trick_winners": list(hand.trick_winners),
                "count": hand.result if hand.finished else None,
            }
        )
    return {
        "complete": game.over,
        "hands": hands,
        "sheet": {cid: list(row) for cid, row in game.sheet.items()},
        "points": {cid: game.points(cid) for cid in game.sheet},
        "totals": game.totals(),
        "firsts": game.firsts(),
        "winners": game.winners(),
    }
