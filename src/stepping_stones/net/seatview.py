"""A seat's view as the front ends draw it, and the engine's checks on what the seat has seen.

``turned`` numbers a view's seats from its own (the person in seat 0, as in a local game);
``replica`` is a game that agrees with all a view shows, on which ``refusal_of`` runs the
engine's own checks of the seat's bid or card, to word a refusal as a local game does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from random import Random
from typing import Any, Final, TypeVar

from ..engine import NUM_SEATS, Bid, Game, IllegalActionError, PastHand, Phase, PlayerView, sorted_cards
from .protocol import PAST_WIRE, VIEW_WIRE, Wire, WireFields

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
