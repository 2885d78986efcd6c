"""A seat's view as the front ends draw it, and the engine's checks on what the seat has seen.

``turned`` numbers a view's seats from its own (the person in seat 0, as in a local game);
``refusal_of`` runs the view's own checks of the seat's bid or card (the engine's, written once
for the game and the view), to word a refusal as a local game does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final, TypeVar

from ..engine import NUM_SEATS, Bid, IllegalActionError, PastHand, PlayerView
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
    Wire.SEAT: _turn,
    Wire.SEATS: _seats,
    Wire.BY_SEAT: _three,
    Wire.SHEET: lambda sheet, by: {cid: _three(row, by) for cid, row in sheet.items()},
    Wire.HISTORY: lambda history, by: tuple(_renumbered(hand, PAST_WIRE, by) for hand in history),
}
"""Each kind of seat-valued field (``protocol.Wire``, marked on ``ViewJSON``) with the seats
numbered from seat ``by``; the others hold no seat."""

_V = TypeVar("_V", PlayerView, PastHand)


def _renumbered(item: _V, fields: WireFields, by: int) -> _V:
    return replace(
        item, **{name: _RENUMBERED[kind](getattr(item, name), by) for name, kind in fields if kind in _RENUMBERED}
    )


def turned(view: PlayerView) -> PlayerView:
    """``view`` with the seats numbered from its own: the seat is 0, the next one 1.  It is the
    view seat 0 would have of the same game with the players moved round the table, which is how
    every front end draws a game (the person at seat 0).  Every field that ``ViewJSON`` marks as
    holding seats is renumbered."""
    return view if view.seat == 0 else _renumbered(view, VIEW_WIRE, view.seat)


# --- the engine's checks, on what the seat has seen ---------------------------------------------


def refusal_of(view: PlayerView, action: Bid | int) -> IllegalActionError | None:
    """The engine's refusal of the seat's ``action`` now, or None if it would be made: the view's
    own checks (``PlayerView.verify_bid``, ``verify_play``), which need no other seat's cards."""
    try:
        if isinstance(action, int):
            view.verify_play(action)
        else:
            view.verify_bid(action)
    except IllegalActionError as exc:
        return exc
    return None
