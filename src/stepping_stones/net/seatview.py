"""The engine's checks on what a seat has seen: ``refusal_of`` runs the view's own checks of the
seat's bid or card (the engine's, written once for the game and the view), to word a refusal as a
local game does.
"""

from __future__ import annotations

from ..engine import Bid, IllegalActionError, PlayerView

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
