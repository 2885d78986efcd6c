"""What the server sends, written without the models: ``ViewWriter``, ``StateWriter``,
``full_text`` and ``delta_text``.

They write the very JSON of ``viewcodec.view_to_json(v)`` and of ``protocol.StateMessage`` (byte for byte:
``tests/test_net_protocol.py`` checks every view and every state of whole games), with the parts
that do not change (the rules, the players, each finished hand) written once per table, and a
state's fields in runs (``Fields``) that stay the very same objects while unchanged, so that a
delta passes over them by identity.  Building and validating three pydantic states per action cost
the server most of its time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from operator import attrgetter, itemgetter
from typing import Any, Final, TypeAlias

from ..engine import CARD_NAMES, Bid, Phase, PlayerView
from ..engine import PastHand as _PastHand
from ..storage.records import RecordRules
from .protocol import PAST_WIRE, VIEW_WIRE, Wire, WireFields
from .viewcodec import cards_text

_dumps: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""Compact JSON as pydantic writes it (``model_dump_json``): no spaces, text as it is."""


def _sequence(cards: tuple[int, ...]) -> str:
    """``record_cards(cards)``: cards in their order."""
    return " ".join([CARD_NAMES[c] for c in cards])


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
            diff = self._diff = (
                old,
                ",".join([f'"{key}":{text}' for key, text in self.texts.items() if before[key] != text]),
            )
            old._diff = None  # each run holds the one before it at most, not every run of the game
        return diff[1]


Own: TypeAlias = tuple[int, int, tuple[Bid, ...], int]
"""What of a seat's view is its own (``Game.own``): its cards, the cards it was dealt, its legal
bids and its legal cards."""

_OWN_FIELDS: Final = ("own_cards", "dealt_cards", "legal_bids", "legal_cards")
"""The fields of ``Own``, in its order."""

ViewParts: TypeAlias = tuple["Fields", ...]
"""A view as the JSON of its fields, in runs in ``ViewJSON``'s order (``_RUN_STARTS``): the seat;
what changes once a hand (``rules`` to ``history``); the seat's cards; the bidding as everyone sees
it (``bids`` to ``puddle``: the same all through the play); the cards played and who is to act
(``plays`` to ``to_act``); the seat's legal moves."""

_RUN_STARTS: Final = ("seat", "rules", "own_cards", "bids", "plays", "legal_bids")
"""The first field of each run of ``ViewParts``; a field added to ``ViewJSON`` joins the run it is
declared in."""


def _runs(fields: WireFields, starts: tuple[str, ...]) -> tuple[WireFields, ...]:
    cuts = [i for i, (name, _kind) in enumerate(fields) if name in starts]
    assert len(cuts) == len(starts) and cuts[0] == 0, "every run starts at a field of the view"
    return tuple(fields[i:j] for i, j in zip(cuts, [*cuts[1:], len(fields)], strict=True))


_VIEW_RUNS: Final = _runs(VIEW_WIRE, _RUN_STARTS)
_SEAT_NAMES: Final = ("seat", *_OWN_FIELDS)
"""The fields each seat has its own of: its number and ``Own``; every other is the same for all."""
assert all(
    {n for n, _k in run} <= set(_SEAT_NAMES) or not {n for n, _k in run} & set(_SEAT_NAMES) for run in _VIEW_RUNS
), "a run is a seat's own or every seat's alike"
_RUN_OF: Final = {name: i for i, run in enumerate(_VIEW_RUNS) for name, _kind in run}
_PHASES: Final = {phase: f'"{phase.value}"' for phase in Phase}
_TRUTH: Final = {False: "false", True: "true"}


def _plain(value: object) -> str:
    """A number, a truth or null as JSON."""
    if value is None:
        return "null"
    if value is True or value is False:
        return _TRUTH[value]
    return str(value)


_TEXT: Final[dict[Wire, Callable[[Any], str]]] = {
    Wire.PLAIN: _plain,
    Wire.SEAT: _plain,
    Wire.SEATS: lambda seats: _list(map(str, seats)),
    Wire.BY_SEAT: lambda values: _dumps(list(values)),
    Wire.SHEET: lambda sheet: _dumps({cid: list(row) for cid, row in sheet.items()}),
    Wire.CARD_SET: lambda mask: f'"{cards_text(mask)}"',
    Wire.CARD_RUN: lambda cards: f'"{_sequence(cards)}"',
    Wire.BIDS: lambda bids: _names(map(str, bids)),
    Wire.DECLARATION: lambda declaration: "null" if declaration is None else f'"{declaration}"',
    Wire.PHASE: _PHASES.__getitem__,
    Wire.RULES: lambda rules: RecordRules.of(rules).model_dump_json(),
}
"""The JSON of each kind of field (``protocol.Wire``) but the history, which ``ViewWriter`` writes a
hand at a time: what ``view_to_json(v).model_dump_json()`` writes of it."""


def _past_text(hand: _PastHand) -> str:
    """``_past_to_json(hand).model_dump_json()``, without the model."""
    return "{" + ",".join([f'"{name}":{_TEXT[kind](getattr(hand, name))}' for name, kind in PAST_WIRE]) + "}"


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of ``names`` of an object, as a tuple."""
    if len(names) == 1:
        name = names[0]
        return lambda item: (getattr(item, name),)
    return attrgetter(*names)


def _picker(indexes: tuple[int, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The items at ``indexes`` of a tuple, as a tuple."""
    if len(indexes) == 1:
        index = indexes[0]
        return lambda values: (values[index],)
    return itemgetter(*indexes)


class _Run:
    """One run of a view's fields, written from the values of its fields: the very ``Fields`` of
    last time while they are all as last time, and a changed run writes again only the fields that
    changed."""

    __slots__ = ("_last", "_names", "_texts", "values")

    def __init__(self, run: WireFields, texts: list[Callable[[Any], str]], values: Callable[[Any], tuple[Any, ...]]):
        self._names = tuple(name for name, _kind in run)
        self._texts = texts
        self.values = values
        self._last: tuple[tuple[Any, ...], Fields] | None = None

    def fields(self, values: tuple[Any, ...]) -> Fields:
        last = self._last
        if last is not None and last[0] == values:  # item by item, each by identity first
            return last[1]
        if last is None:
            texts = [text(value) for text, value in zip(self._texts, values, strict=True)]
        else:
            before = last[1].texts
            texts = [
                before[name] if old is value or old == value else text(value)
                for name, text, old, value in zip(self._names, self._texts, last[0], values, strict=True)
            ]
        fields = Fields(dict(zip(self._names, texts, strict=True)))
        self._last = (values, fields)
        return fields


def view_text(parts: ViewParts) -> str:
    """The view's JSON from its parts (``view_to_json(v).model_dump_json()``, byte for byte)."""
    return "{" + ",".join([run.members for run in parts]) + "}"


class ViewWriter:
    """Writes the views of one game as the protocol sends them (``view_to_json(v).model_dump_json()``,
    byte for byte), field by field as ``ViewJSON`` marks them, each finished hand once: a finished
    hand never changes, and every seat sees it the same."""

    def __init__(self) -> None:
        self._history: list[tuple[_PastHand, str]] = []
        self._history_joined: tuple[int, str] = (-1, "")  # the history's JSON, by its length
        self._shared: list[_Run | None] = []  # each run every seat sees alike, None for a seat's own
        self._own: list[tuple[WireFields, list[Callable[[Any], str]], tuple[int, ...]] | None] = []
        self._seats: dict[int, list[_Run | None]] = {}  # each seat's own runs (None for a shared one)
        for run in _VIEW_RUNS:
            names = tuple(name for name, _kind in run)
            texts = [self._history_text if kind is Wire.HISTORY else _TEXT[kind] for _name, kind in run]
            own = names[0] in _SEAT_NAMES
            self._shared.append(None if own else _Run(run, texts, _getter(names)))
            self._own.append((run, texts, tuple(_SEAT_NAMES.index(name) for name in names)) if own else None)

    def _seat_runs(self, seat: int) -> list[_Run | None]:
        found = self._seats.get(seat)
        if found is None:
            found = self._seats[seat] = [
                None if own is None else _Run(own[0], own[1], _picker(own[2])) for own in self._own
            ]
        return found

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
        return self.seat_fields(
            views[0], [(v.seat, (v.own_cards, v.dealt_cards, v.legal_bids, v.legal_cards)) for v in views]
        )

    def seat_fields(self, view: PlayerView, owns: list[tuple[int, Own]]) -> list[ViewParts]:
        """The JSON of each field of the view of each seat of ``owns`` (its seat and what of its view
        is its own, ``Game.own``), ``view`` being any seat's view of the game at that moment, in
        ``ViewJSON``'s order, in runs (``ViewParts``).  What every seat sees alike is written
        once, from ``view``; a run whose fields are all as last time is the very ``Fields`` of last
        time, so that a delta passes over it by identity, and compares the runs that
        every seat shares once."""
        alike = [None if run is None else run.fields(run.values(view)) for run in self._shared]
        parts: list[ViewParts] = []
        for seat, own in owns:
            values = (seat, *own)
            mine = self._seat_runs(seat)
            parts.append(
                tuple([_own_fields(mine[i], values) if fields is None else fields for i, fields in enumerate(alike)])
            )
        return parts


def _own_fields(run: _Run | None, values: tuple[Any, ...]) -> Fields:
    assert run is not None
    return run.fields(run.values(values))


def _list(texts: Iterable[str]) -> str:
    """A JSON list of the JSON ``texts``."""
    return "[" + ",".join(texts) + "]"


def _names(names: Iterable[str]) -> str:
    """A JSON list of bids or cards in the record's spelling (letters, digits, spaces and dashes:
    nothing JSON escapes)."""
    joined = '","'.join(names)
    return f'["{joined}"]' if joined else "[]"


StateParts: TypeAlias = tuple[Fields, Fields, Fields, ViewParts | None]
"""A state as the JSON of its fields in three runs, in ``StateMessage``'s order, ``view`` between the first
two: ``seq`` to ``help`` (every seat's alike), ``legal`` (the seat's), ``waiting`` and ``record``
(every seat's alike); and its view's parts (None before the start): what a delta is made from."""


class StateWriter:
    """Writes the states of one table as the protocol sends them (``StateMessage(...).dump()``, byte for
    byte), in ``StateParts``: the runs every seat sees alike once per change, each the very
    ``Fields`` of last time while unchanged (as ``ViewWriter`` writes the views)."""

    def __init__(self) -> None:
        self._head: tuple[tuple[str, ...], Fields] | None = None
        self._tail: tuple[tuple[str, str, str], Fields] | None = None
        self._legal: dict[int, Fields] = {}  # each seat's, as last written

    def parts(
        self,
        *,
        seq: int,
        started: bool,
        seats: str,
        help: bool,
        waiting: str | None,
        record: str | None,
        claims: str = "[]",
        views: list[ViewParts] | None = None,
        count: int = 1,
    ) -> list[StateParts]:
        """The parts of the state of each seat of ``views`` (``ViewWriter.seat_fields``), or of
        ``count`` seats before the start (no view, nothing legal), from the JSON of ``seats`` (the
        list of ``SeatFacts``), ``waiting`` and ``record``."""
        head = (str(seq), _TRUTH[started], seats, _TRUTH[help])
        if self._head is None or self._head[0] != head:
            self._head = (head, Fields(dict(zip(("seq", "started", "seats", "help"), head, strict=True))))
        tail = (waiting or "null", record or "null", claims)
        if self._tail is None or self._tail[0] != tail:
            self._tail = (tail, Fields({"waiting": tail[0], "record": tail[1], "claims": tail[2]}))
        head_fields, tail_fields = self._head[1], self._tail[1]
        if views is None:
            none = self._legal_fields(-1, "[]")
            return [(head_fields, none, tail_fields, None)] * count
        return [
            (
                head_fields,
                self._legal_fields(int(view[_RUN_OF["seat"]].texts["seat"]), _legal_text(view)),
                tail_fields,
                view,
            )
            for view in views
        ]

    def _legal_fields(self, seat: int, text: str) -> Fields:
        found = self._legal.get(seat)
        if found is None or found.texts["legal"] != text:
            found = self._legal[seat] = Fields({"legal": text})
        return found


def _legal_text(view: ViewParts) -> str:
    """``_names(legal_actions(v))`` from the JSON of ``v``'s fields."""
    if view[_RUN_OF["to_act"]].texts["to_act"] != view[_RUN_OF["seat"]].texts["seat"]:
        return "[]"
    if view[_RUN_OF["phase"]].texts["phase"] == '"bidding"':
        return view[_RUN_OF["legal_bids"]].texts["legal_bids"]
    cards = view[_RUN_OF["legal_cards"]].texts["legal_cards"]
    return "[" + cards.replace(" ", '","') + "]" if cards != '""' else "[]"


def full_text(parts: StateParts, n: int | None = None) -> str:
    """``StateMessage(...).dump()``, byte for byte, from its parts: the whole state (``n``: its number
    on the connection)."""
    head, legal, tail, view = parts
    number = "" if n is None else f',"n":{n}'
    return (
        f'{{"type":"state",{head.members},"view":{"null" if view is None else view_text(view)},'
        f"{legal.members},{tail.members}{number}}}"
    )


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
