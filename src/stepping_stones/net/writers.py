"""What the server sends, written without the models: ``ViewWriter``, ``StateWriter``,
``full_text`` and ``delta_text``.

They write the very JSON of ``viewcodec.view_to_json(v)`` and of ``protocol.State`` (byte for byte:
``tests/test_net_protocol.py`` checks every view and every state of whole games), with the parts
that do not change (the rules, the players, each finished hand) written once per table, and a
state's fields in runs (``Fields``) that stay the very same objects while unchanged, so that a
delta passes over them by identity.  Building and validating three pydantic states per action cost
the server most of its time.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final, TypeAlias

from ..engine import CARD_NAMES, Bid, Phase, PlayerView, record_cards
from ..engine import PastHand as _PastHand
from ..storage.records import RecordRules
from .viewcodec import cards_text

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
            found = self._cards[seat] = (own[:2], Fields({"own_cards": f'"{cards_text(own[0])}"',
                                                          "dealt_cards": f'"{cards_text(own[1])}"'}))
        return found[1]

    def _legal_fields(self, seat: int, own: Own) -> Fields:
        found = self._legal.get(seat)
        if found is None or found[0] != own[2:]:
            found = self._legal[seat] = (own[2:], Fields({"legal_bids": _names(map(str, own[2])),
                                                          "legal_cards": f'"{cards_text(own[3])}"'}))
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
