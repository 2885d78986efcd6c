"""The AI seats, as the app sees them.

The AI lives in ``stepping_stones.ai`` (another part of the project).  This
module only adapts it: ``make_seat(level)`` returns an object with
``choose_bid(view, rng)`` and ``choose_card(view, rng)``.  If the AI package
is not installed in this checkout, the seats fall back to choosing uniformly
among the legal actions (the behaviour of the ``random`` level), so the app
still plays a whole game.
"""

from __future__ import annotations

from random import Random
from typing import Any, Protocol

from ..engine import Bid, PlayerView, cards_of

DEFAULT_LEVEL = "heuristic"


class Seat(Protocol):
    def choose_bid(self, view: PlayerView, rng: Random) -> Bid: ...

    def choose_card(self, view: PlayerView, rng: Random) -> int: ...


class _LegalChoice:
    """Picks any legal action at random (used only when the AI package is missing)."""

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        return rng.choice(list(view.legal_bids))

    def choose_card(self, view: PlayerView, rng: Random) -> int:
        return rng.choice(list(cards_of(view.legal_cards)))


def _ai_module() -> Any | None:
    try:
        from .. import ai  # type: ignore[attr-defined]
    except ImportError:
        return None
    return ai


def levels() -> tuple[str, ...]:
    """The AI levels to offer in the setup screen."""
    ai = _ai_module()
    for name in ("LEVELS", "levels"):
        found = getattr(ai, name, None) if ai else None
        if callable(found):
            found = found()
        if found:
            return tuple(found)
    return ("random", DEFAULT_LEVEL)


def make_seat(level: str) -> Seat:
    ai = _ai_module()
    make = getattr(ai, "make_ai", None) if ai else None
    if make is not None:
        try:
            return make(level)
        except (KeyError, ValueError):
            return make(DEFAULT_LEVEL)
    return _LegalChoice()
