"""AI seats: ``make_ai(level)`` for each level in ``LEVELS``.

An AI decides from a ``PlayerView`` and an injected ``random.Random`` only.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import SteppingStonesError
from .base import Action, Agent, decide, sees_every_hand
from .cheat import DoubleDummyAI
from .expert import ExpertAI
from .heuristic import HeuristicAI
from .params import ExpertParams
from .random_ai import RandomAI

LEVELS: dict[str, Callable[[], Agent]] = {
    "random": RandomAI,
    "heuristic": HeuristicAI,
    "expert": ExpertAI,
}
DEFAULT_LEVEL = "heuristic"
LAB_LEVELS: dict[str, Callable[[], Agent]] = {
    "cheat": DoubleDummyAI,
}
"""Seats for the lab only (``tournament``, ``simulate``): ``cheat`` sees every hand, to measure the
ceiling of card play.  ``make_ai`` refuses them; ``make_lab_ai`` makes them."""


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


def make_lab_ai(level: str, params: ExpertParams | None = None) -> Agent:
    """A new seat of ``level`` for the lab: a level of ``LEVELS`` or of ``LAB_LEVELS``.  With
    ``params`` (the expert's settings, ``params.py``) a seat that plays as the expert (``expert``,
    ``cheat``) plays with them; another level refuses them (``ValueError``)."""
    if params is not None:
        if level == "expert":
            return ExpertAI(params=params)
        if level == "cheat":
            return DoubleDummyAI(params)
        raise ValueError(f"the {level} seat takes no expert settings (only expert and cheat do)")
    factory = LAB_LEVELS.get(level)
    return factory() if factory is not None else make_ai(level)


__all__ = [
    "DEFAULT_LEVEL",
    "LAB_LEVELS",
    "LEVELS",
    "Action",
    "Agent",
    "DoubleDummyAI",
    "ExpertAI",
    "ExpertParams",
    "HeuristicAI",
    "RandomAI",
    "UnknownLevelError",
    "decide",
    "make_ai",
    "make_lab_ai",
    "sees_every_hand",
]
