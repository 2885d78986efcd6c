"""The one codec of a seat's ``PlayerView`` on the wire: ``view_to_json`` / ``view_from_json``,
field by field as ``protocol.ViewJSON`` marks them (``protocol.Wire``).

The server sends a seat nothing about the game but its view, and the round trip is exact
(``view_from_json(view_to_json(v)) == v``).  Card sets are written in the record's spelling
(``cards_text``, which the writers use too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..engine import (
    CARD_NAMES,
    NUM_CARDS,
    Bid,
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
from ..storage.records import RecordRules
from .protocol import PAST_WIRE, VIEW_WIRE, PastHandJSON, ProtocolError, ViewJSON, Wire

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


def _bids(texts: list[str]) -> tuple[Bid, ...]:
    return tuple(parse_bid(b) for b in texts)


def _declaration_text(declaration: Declaration | None) -> str | None:
    return str(declaration) if declaration is not None else None


def _same(value: Any) -> Any:
    return value


_TO_JSON: Final[dict[Wire, Callable[[Any], Any]]] = {
    Wire.PLAIN: _same,
    Wire.SEAT: _same,
    Wire.SEATS: list,
    Wire.BY_SEAT: list,
    Wire.SHEET: lambda sheet: {cid: list(row) for cid, row in sheet.items()},
    Wire.CARD_SET: cards_text,
    Wire.CARD_RUN: record_cards,
    Wire.BIDS: lambda bids: [str(b) for b in bids],
    Wire.DECLARATION: _declaration_text,
    Wire.PHASE: lambda phase: phase.value,
    Wire.RULES: RecordRules.of,
    Wire.HISTORY: lambda history: [_past_to_json(h) for h in history],
}
"""Each kind of field of a view (``protocol.Wire``) as the protocol's model holds it."""

_FROM_JSON: Final[dict[Wire, Callable[[Any], Any]]] = {
    Wire.PLAIN: _same,
    Wire.SEAT: _same,
    Wire.SEATS: tuple,
    Wire.BY_SEAT: tuple,
    Wire.SHEET: lambda sheet: {cid: tuple(row) for cid, row in sheet.items()},
    Wire.CARD_SET: _mask,
    Wire.CARD_RUN: _ordered,
    Wire.BIDS: _bids,
    Wire.DECLARATION: _declaration,
    Wire.PHASE: Phase,
    Wire.RULES: lambda rules: rules.to_rules(),
    Wire.HISTORY: lambda history: tuple(_past_from_json(h) for h in history),
}
"""Each kind of field of a view as the engine holds it, from the model's value."""


def _past_to_json(hand: _PastHand) -> PastHandJSON:
    return PastHandJSON(**{name: _TO_JSON[kind](getattr(hand, name)) for name, kind in PAST_WIRE})


def _past_from_json(hand: PastHandJSON) -> _PastHand:
    return _PastHand(**{name: _FROM_JSON[kind](getattr(hand, name)) for name, kind in PAST_WIRE})


def view_to_json(view: PlayerView) -> ViewJSON:
    """The view as the protocol sends it: each field of ``ViewJSON`` as its mark says."""
    return ViewJSON(**{name: _TO_JSON[kind](getattr(view, name)) for name, kind in VIEW_WIRE})


def view_from_json(data: ViewJSON) -> PlayerView:
    """The ``PlayerView`` a ``ViewJSON`` describes.  Raises ``ProtocolError`` for a card, a bid or
    rules that do not exist."""
    try:
        return PlayerView(**{name: _FROM_JSON[kind](getattr(data, name)) for name, kind in VIEW_WIRE})
    except (SteppingStonesError, ValueError) as exc:
        raise ProtocolError(f"the view does not describe a game: {exc}") from None


def legal_actions(view: PlayerView) -> list[str]:
    """What the seat may do now, in the record's spelling: its bids, or its cards, or nothing."""
    if view.to_act != view.seat:
        return []
    if view.phase is Phase.BIDDING:
        return [str(b) for b in view.legal_bids]
    return [CARD_NAMES[c] for c in cards_of(view.legal_cards)]
