"""AI seats: ``make_ai(level)`` for each level in ``LEVELS``.

An AI decides from a ``PlayerView`` and an injected ``random.Random`` only.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import SteppingStonesError
from .base import Action, Agent, decide
from .expert import ExpertAI
from .heuristic import HeuristicAI
from .random_ai import RandomAI

LEVELS: dict[str, Callable[[], Agent]] = {
    "random": RandomAI,
    "heuristic": HeuristicAI,
    "expert": ExpertAI,
}
DEFAULT_LEVEL = "heuristic"


class UnknownLevelError(SteppingStonesError, ValueError):
    """No AI level has that name."""


def make_ai(level: str = DEFAULT_LEVEL) -> Agent:
    """A new AI seat of ``level`` (``random``, ``heuristic`` or ``expert``)."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise UnknownLevelError(
            f"unknown AI level {level!r} (choose {', '.join(LEVELS)})"
        ) from None
    return factory()


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Action",
    "Agent",
    "ExpertAI",
    "HeuristicAI",
    "RandomAI",
    "UnknownLevelError",
    "decide",
    "make_ai",
]
