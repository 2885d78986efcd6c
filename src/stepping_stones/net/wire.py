"""A seat's view on the wire: one schema, derived from the engine's own annotations.

``engine.PlayerView`` and ``engine.PastHand`` declare their fields once, with the engine's types
(``Seat``, ``Card``, ``Mask``, ``Bid``, ...).  ``schema_of`` reads those annotations with each of
the engine's types standing for how it travels (``TRAVELS``: a card as records write it, a set of
cards as a record's list of them, a bid in its record spelling, the rules as a record's), and
makes of them a pydantic type that reads JSON into the engine's own value and writes that value
as JSON.  Nothing restates the view's fields: a field added to the engine is on the wire.

``VIEW`` is a view on the wire, whole; ``VIEW_CHANGES`` some of its fields (a delta's); ``turned``
renumbers a view's seats from its own, found from the same annotations (``Seat`` and the tuples of
one value per seat).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Final, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictBool,
    TypeAdapter,
    WrapSerializer,
)
from typing_extensions import TypedDict, is_typeddict

from ..engine import (
    CARD_NAMES,
    NUM_CARDS,
    NUM_SEATS,
    Bid,
    CardSyntaxError,
    Declaration,
    PastHand,
    Phase,
    PlayerView,
    PublicView,
    Rules,
    SteppingStonesError,
    cards_of,
    mask_of,
    parse_bid,
    parse_card,
    record_cards,
)
from ..storage.records import MAX_BID_TEXT, MAX_CARDS_TEXT, PlayerName, RecordRules, SeatNumber

MAX_ITEMS: Final = 64
"""The most items of any list of a view (36 cards played, some bids, 16 hands at most)."""

# --- how each of the engine's types travels ----------------------------------------------------------

_CHUNK: Final = 9
_RUN: Final = (1 << _CHUNK) - 1
_CHUNK_NAMES: Final = tuple(
    tuple(record_cards(cards_of(bits << shift)) for bits in range(1 << _CHUNK)) for shift in range(0, NUM_CARDS, _CHUNK)
)
"""The record's spelling of every set of cards within each run of nine card indexes: a set is
written from its four runs, lowest first, as ``record_cards(cards_of(mask))`` writes it."""


def cards_text(mask: int) -> str:
    """``record_cards(cards_of(mask))``, from ``_CHUNK_NAMES``: the server writes some ten sets of
    cards per action.

    >>> from stepping_stones.engine import FULL_DECK
    >>> all(cards_text(m) == record_cards(cards_of(m)) for m in (0, 1, FULL_DECK, 0b1011 << 7, FULL_DECK >> 3))
    True
    """
    names = []
    for run in _CHUNK_NAMES:
        if bits := mask & _RUN:
            names.append(run[bits])
        mask >>= _CHUNK
    return " ".join(names)


def _text(value: object, limit: int, what: str) -> str:
    if type(value) is not str:
        raise ValueError(f"{what} is written as text")
    if len(value) > limit:
        raise ValueError(f"{what} of more than {limit} characters")
    return value


def _card(value: object) -> int:
    try:
        return parse_card(_text(value, 3, "a card"))
    except CardSyntaxError as exc:
        raise ValueError(str(exc)) from None


def _mask(value: object) -> int:
    text = _text(value, MAX_CARDS_TEXT, "a set of cards")
    try:
        return mask_of(parse_card(t) for t in text.split(" ")) if text else 0
    except CardSyntaxError as exc:
        raise ValueError(str(exc)) from None


def _bid(value: object) -> Bid:
    try:
        return parse_bid(_text(value, MAX_BID_TEXT, "a bid"))
    except SteppingStonesError as exc:
        raise ValueError(str(exc)) from None


def _declaration(value: object) -> Declaration:
    bid = _bid(value)
    if not isinstance(bid, Declaration):
        raise ValueError("a declaration cannot be a pass")
    return bid


def _rules(value: object) -> Rules:
    try:
        return RecordRules.model_validate(value, strict=True).to_rules()
    except SteppingStonesError as exc:
        raise ValueError(str(exc)) from None


def _card_run(value: object) -> tuple[int, ...]:
    text = _text(value, MAX_CARDS_TEXT, "cards played")
    try:
        return tuple(parse_card(t) for t in text.split(" ")) if text else ()
    except CardSyntaxError as exc:
        raise ValueError(str(exc)) from None


_CARD: Final = Annotated[int, PlainValidator(_card), PlainSerializer(CARD_NAMES.__getitem__, return_type=str)]


class _Kept:
    """A writer of a view's tuples that keeps the last tuple written with what it wrote: each change
    of a table writes the same tuple into every seat's message (``Game.views``: the hand's play,
    its bids, the hands before this one), so it is written once a change, not three times.  A
    tuple only (it cannot change under what was written: a view's tuples hold frozen values),
    held (its identity cannot pass to another)."""

    def __init__(self, write: Callable[[Any], Any]) -> None:
        self.write = write
        self.last: tuple[object, Any] = (self, None)

    def __call__(self, values: Any) -> Any:
        last = self.last
        if values is last[0]:
            return last[1]
        written = self.write(values)
        if type(values) is tuple:
            self.last = (values, written)
        return written


def _played(cards: tuple[int, ...]) -> str:
    return record_cards(cards)


_CARD_RUN: Final = Annotated[
    tuple[int, ...], PlainValidator(_card_run), PlainSerializer(_Kept(_played), return_type=str)
]
"""Cards in the order they were played, as a record writes a hand's play: one text."""


def _bounded(kind: Callable[..., Any]) -> type:
    """``tuple`` or ``dict`` as a view's annotations use them, with at most ``MAX_ITEMS`` items."""

    class Bounded:
        def __class_getitem__(cls, args: Any) -> Any:
            if args == (_CARD, ...):
                return _CARD_RUN
            return Annotated[kind[args], Field(max_length=MAX_ITEMS)]  # type: ignore[index]

    return Bounded


TRAVELS: Final[dict[str, Any]] = {
    "Seat": SeatNumber,
    "Card": _CARD,
    "Mask": Annotated[int, PlainValidator(_mask), PlainSerializer(cards_text, return_type=str)],
    "Bid": Annotated[Any, PlainValidator(_bid), PlainSerializer(str, return_type=str)],
    "Declaration": Annotated[Declaration, PlainValidator(_declaration), PlainSerializer(str, return_type=str)],
    "Rules": Annotated[Rules, PlainValidator(_rules), PlainSerializer(lambda r: RecordRules.of(r).model_dump())],
    "Phase": Phase,
    "int": Annotated[int, Field(ge=0, le=999)],
    "bool": StrictBool,
    "str": PlayerName,
    "tuple": _bounded(tuple),
    "dict": _bounded(dict),
}
"""How each type that the view's annotations name travels: the engine's types by the record's
spelling, numbers and text bounded."""

# --- the schema, from the annotations --------------------------------------------------------------


def _fields(cls: type, names: dict[str, Any]) -> dict[str, Any]:
    """Each field of the dataclass ``cls`` and its annotation, read with ``names`` for the types."""
    return {f.name: eval(typing.cast(str, f.type), {"__builtins__": {}}, names) for f in dataclasses.fields(cls)}


_D = TypeVar("_D")


def _as_fields(value: Any, write: Callable[[Any], Any]) -> Any:
    """A dataclass on the wire: the object of its fields, each written by its own type."""
    return write(value.__dict__)


def schema_of(cls: type[_D], names: dict[str, Any]) -> tuple[Any, Any]:
    """The wire type of the dataclass ``cls``, whole (read into a ``cls``, written from one), and
    of some of its fields (a dict of those fields' values), from its annotations with ``names``."""
    fields = _fields(cls, names)
    whole = TypedDict(f"{cls.__name__}Wire", fields)  # type: ignore[misc]
    some = TypedDict(f"{cls.__name__}Changes", fields, total=False)  # type: ignore[misc]
    whole.__pydantic_config__ = some.__pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[attr-defined]
    return Annotated[whole, AfterValidator(lambda d: cls(**d)), WrapSerializer(_as_fields)], some


_PAST, _ = schema_of(PastHand, TRAVELS)
VIEW, VIEW_CHANGES = schema_of(PlayerView, {**TRAVELS, "PastHand": _PAST})
"""A seat's view on the wire: whole (a ``PlayerView``), and some of its fields (a delta's)."""

PUBLIC_VIEW, _ = schema_of(PublicView, {**TRAVELS, "PastHand": _PAST})
"""A watcher's view on the wire (a ``PublicView``): the same fields as a seat's, without a seat's
own cards and choices."""

_VIEW: Final[TypeAdapter[PlayerView]] = TypeAdapter(VIEW)


def view_json(view: PlayerView) -> bytes:
    """The view as the protocol writes it."""
    return _VIEW.dump_json(view)


def read_view(data: str | bytes) -> PlayerView:
    """A view written by ``view_json``.  Raises pydantic's ``ValidationError``."""
    return _VIEW.validate_json(data, strict=True)


def legal_actions(view: PlayerView) -> list[str]:
    """What the seat may do now, in the record's spelling: its bids, or its cards, or nothing."""
    if view.to_act != view.seat:
        return []
    if view.phase is Phase.BIDDING:
        return [str(b) for b in view.legal_bids]
    return [CARD_NAMES[c] for c in cards_of(view.legal_cards)]


# --- writing without pydantic: plain values for msgspec ---------------------------------------------

Write = Callable[[Any], Any]
"""Makes a value of some wire type the plain values (text, numbers, lists, objects) that its JSON is."""


def _optional(write: Write) -> Write:
    return lambda value: None if value is None else write(value)


def _each(write: Write) -> Write:
    return lambda values: [write(v) for v in values]


def _rows(write: Write) -> Write:
    return lambda table: {key: write(value) for key, value in table.items()}


def _object(writers: dict[str, Write | None]) -> Write:
    some = {name: w for name, w in writers.items() if w is not None}
    return lambda fields: {name: w(v) if (w := some.get(name)) is not None else v for name, v in fields.items()}


def _model_writer(model: type[BaseModel]) -> Write:
    """A pydantic model as pydantic writes it: the object of its fields (its ``__dict__``), each
    written by its own type; pydantic's own writing when the model renames a field, leaves one
    out, keeps extra ones or writes anything its own way."""
    decorators = model.__pydantic_decorators__
    if (
        model.model_computed_fields
        or decorators.field_serializers
        or decorators.model_serializers
        or model.model_config.get("extra") == "allow"
        or any(f.alias or f.serialization_alias or f.exclude for f in model.model_fields.values())
    ):
        return lambda value: value.__pydantic_serializer__.to_python(value, mode="json")
    writers = field_writers(model)
    if all(w is None for w in writers.values()):
        return lambda value: value.__dict__
    fields = _object(writers)
    return lambda value: fields(value.__dict__)


def field_writers(fields: Any) -> dict[str, Write | None]:
    """``writer`` of each field of the ``TypedDict`` (or pydantic model) ``fields``, by name."""
    if isinstance(fields, type) and issubclass(fields, BaseModel):
        return {
            name: writer(Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation)
            for name, info in fields.model_fields.items()
        }
    return {name: writer(hint) for name, hint in typing.get_type_hints(fields, include_extras=True).items()}


def writer(annotation: Any) -> Write | None:
    """How a value of the wire type ``annotation`` (one of the schema's, as ``schema_of`` makes them
    of ``TRAVELS``) becomes the plain values that pydantic writes of it, read off the same
    annotation: its ``PlainSerializer``'s function, a dataclass's fields (``_as_fields``), each item
    of a list, each value of a table, a pydantic model's fields (``_model_writer``).  None when the
    value is its own JSON as it is (a number, a bool, text, None, an enum's value, a tuple of
    those).  msgspec then writes the plain values, the same bytes as pydantic
    (``tests/test_net_deltas.py``) at a fraction of the cost.  A type it does not know is an error
    at import, not a message written wrong."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Annotated:
        base, *meta = args
        plain = [m.func for m in meta if isinstance(m, PlainSerializer)]
        if plain:
            return typing.cast(Write, plain[0])
        wrapped = [m for m in meta if isinstance(m, WrapSerializer)]
        inner = writer(base)
        if not wrapped:
            return inner
        if len(wrapped) > 1 or wrapped[0].func is not _as_fields:
            raise TypeError(f"no plain writer for {annotation!r}")
        return (lambda value: value.__dict__) if inner is None else (lambda value: inner(value.__dict__))
    if origin in (typing.Union, types.UnionType):
        written = [w for a in args if a is not type(None) and (w := writer(a)) is not None]
        if not written:
            return None
        if len(args) != 2 or type(None) not in args:
            raise TypeError(f"no plain writer for {annotation!r}")
        return _optional(written[0])
    if origin is list:
        item = writer(args[0])
        return None if item is None else _each(item)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = writer(args[0])
        return None if item is None else _Kept(_each(item))
    if origin is tuple:
        if any(writer(a) is not None for a in args):
            raise TypeError(f"no plain writer for {annotation!r}")
        return None
    if origin is dict:
        row = writer(args[1])
        return None if row is None else _rows(row)
    if origin is Literal or annotation in (int, float, bool, str, type(None)):
        return None
    if is_typeddict(annotation):
        writers = field_writers(annotation)
        return None if all(w is None for w in writers.values()) else _object(writers)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_writer(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return None
    raise TypeError(f"no plain writer for {annotation!r}")


VIEW_WRITERS: Final = field_writers(VIEW_CHANGES)
"""``writer`` of each field of a seat's view, by name (a delta's view)."""


# --- the person in seat 0 ---------------------------------------------------------------------------


class _Seat:
    """Stands for ``Seat`` in the annotations, to find the fields that hold seats."""


_Renumber = Callable[[Any, int], Any]


def _renumberer(annotation: Any) -> _Renumber | None:
    """How a value of ``annotation`` is renumbered from seat ``by``, or None if it holds no seat: a
    seat; a seat or None; seats in a row; one value per seat (a tuple of ``NUM_SEATS``); a table of
    those; the fields of a finished hand."""
    if annotation is _Seat:
        return lambda seat, by: (seat - by) % NUM_SEATS
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and set(args) == {_Seat, type(None)}:
        return lambda seat, by: None if seat is None else (seat - by) % NUM_SEATS
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _renumberer(args[0])
        return None if item is None else (lambda values, by: tuple(item(v, by) for v in values))
    if origin is tuple and len(args) == NUM_SEATS and len(set(args)) == 1:
        return lambda values, by: tuple(values[(by + i) % NUM_SEATS] for i in range(NUM_SEATS))
    if origin is dict:
        row = _renumberer(args[1])
        return None if row is None else (lambda table, by: {key: row(value, by) for key, value in table.items()})
    if dataclasses.is_dataclass(annotation):
        fields = _seat_fields(typing.cast(type, annotation))
        return lambda item, by: dataclasses.replace(item, **{name: f(getattr(item, name), by) for name, f in fields})
    return None


def _seat_fields(cls: type) -> list[tuple[str, _Renumber]]:
    names: dict[str, Any] = {"Seat": _Seat, "PastHand": PastHand, "tuple": tuple, "dict": dict}
    found = _fields(cls, _Anything(names))
    return [(name, f) for name, annotation in found.items() if (f := _renumberer(annotation)) is not None]


class _Anything(dict[str, Any]):
    """The names of the annotations: the given ones, any other an opaque type."""

    def __missing__(self, key: str) -> Any:
        found = self[key] = type(key, (), {})
        return found


def _turner() -> _Renumber:
    turn = _renumberer(PlayerView)
    assert turn is not None, "a view holds seats"
    return turn


_TURN: Final = _turner()


def turned(view: PlayerView) -> PlayerView:
    """``view`` with the seats numbered from its own: the seat is 0, the next one 1.  It is the
    view seat 0 would have of the same game with the players moved round the table, which is how
    every front end draws a game (the person at seat 0).  Every field whose annotation holds a
    seat is renumbered."""
    return view if view.seat == 0 else typing.cast(PlayerView, _TURN(view, view.seat))
