"""The one codec of a seat's ``PlayerView`` on the wire: ``view_to_json`` / ``view_from_json``.

The server sends a seat nothing about the game but its view, and the round trip is exact
(``view_from_json(view_to_json(v)) == v``).  Card sets are written in the record's spelling
(``cards_text``, which the writers use too).
"""

from __future__ import annotations

from typing import Final

from ..engine import (
    CARD_NAMES,
    NUM_CARDS,
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
from .protocol import PastHandJSON, ProtocolError, ViewJSON

_CHUNK: Final = 9
_RUN: Final = (1 << _CHUNK) - 1
_CHUNK_NAMES: Final = tuple(
    tuple(record_cards(cards_of(bits << shift)) for bits in range(1 << _CHUNK))
    for shift in range(0, NUM_CARDS, _CHUNK)
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
        history=[_past_to_json(h) for h in view.history], own_cards=cards_text(view.own_cards),
        dealt_cards=cards_text(view.dealt_cards), bids=[str(b) for b in view.bids], bid_seats=list(view.bid_seats),
        bidder=view.bidder, in_puddle=view.in_puddle, declarer=view.declarer,
        declaration=str(view.declaration) if view.declaration is not None else None, puddle=view.puddle,
        plays=record_cards(view.plays), play_seats=list(view.play_seats), trick_winners=list(view.trick_winners),
        winning=view.winning, to_act=view.to_act, legal_bids=[str(b) for b in view.legal_bids],
        legal_cards=cards_text(view.legal_cards),
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


def legal_actions(view: PlayerView) -> list[str]:
    """What the seat may do now, in the record's spelling: its bids, or its cards, or nothing."""
    if view.to_act != view.seat:
        return []
    if view.phase is Phase.BIDDING:
        return [str(b) for b in view.legal_bids]
    return [CARD_NAMES[c] for c in cards_of(view.legal_cards)]
