"""AI seats: ``make_ai(level)`` for each level in ``LEVELS``.

An AI decides from a ``PlayerView`` and an injected ``random.Random`` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..engine import SteppingStonesError
from .base import Action, Agent, decide, sees_every_hand
from .cheat import DoubleDummyAI
from .expert import ExpertAI
from .heuristic import HeuristicAI
from .outside import GROUP, BotError, factory_of, installed, is_spec, load_factory, outside_agent
from .params import ExpertParams
from .random_ai import RandomAI

LEVELS: dict[str, Callable[[], Agent]] = {
    "random": RandomAI,
    "heuristic": HeuristicAI,
    "expert": ExpertAI,
}
DEFAULT_LEVEL = "heuristic"
ISMCTS_FACTORY = "stepping_stones.openspiel:ISMCTSAgent"
"""OpenSpiel's ISMCTS, in the ``openspiel`` extra (a layer above this one: reached by name)."""


def _ismcts(simulations: int | None = None) -> Agent:
    try:
        factory = load_factory(ISMCTS_FACTORY)
    except BotError as exc:
        raise BotError(f"the ismcts seat needs OpenSpiel: pip install 'stepping-stones[openspiel]' ({exc})") from None
    return outside_agent("ismcts", factory if simulations is None else lambda: factory(simulations))


LAB_LEVELS: dict[str, Callable[[], Agent]] = {
    "cheat": DoubleDummyAI,
    "ismcts": _ismcts,
}
"""Seats for the lab only (``tournament``, ``simulate``): ``cheat`` sees every hand, to measure the
ceiling of card play; ``ismcts`` is OpenSpiel's ISMCTS (``ismcts-N``: N simulations a decision), an AI
written elsewhere to measure against.  ``make_ai`` refuses them; ``make_lab_ai`` makes them."""
LAB_REASONS = {
    "cheat": "sees every hand",
    "ismcts": "is OpenSpiel's ISMCTS, a lab seat of about a second a decision",
}
"""Why a lab seat is not a level of the app, in the words of the refusal."""
_ISMCTS_BUDGET = re.compile(r"ismcts-([1-9][0-9]{0,6})")


def lab_seat(level: str) -> str | None:
    """The lab seat ``level`` names (``cheat``, ``ismcts``; ``ismcts-N`` is ``ismcts``), else None."""
    if level in LAB_LEVELS:
        return level
    return "ismcts" if _ISMCTS_BUDGET.fullmatch(level) else None


class UnknownLevelError(SteppingStonesError, ValueError):
    """No AI level has that name."""


def make_ai(level: str = DEFAULT_LEVEL) -> Agent:
    """A new AI seat of ``level`` (``random``, ``heuristic`` or ``expert``)."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise UnknownLevelError(f"unknown AI level {level!r} (choose {', '.join(LEVELS)})") from None
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
    if level in LEVELS:
        return LEVELS[level]()
    factory = LAB_LEVELS.get(level)
    if factory is not None:
        return factory()
    budget = _ISMCTS_BUDGET.fullmatch(level)
    if budget:
        return _ismcts(int(budget[1]))
    outside = factory_of(level)
    if outside is None:
        choices = [*LEVELS, *LAB_LEVELS, "ismcts-N", *installed(), "module:factory"]
        raise UnknownLevelError(f"unknown AI level {level!r} (choose {', '.join(choices)})")
    return outside_agent(level, outside)


__all__ = [
    "DEFAULT_LEVEL",
    "GROUP",
    "ISMCTS_FACTORY",
    "LAB_REASONS",
    "LAB_LEVELS",
    "LEVELS",
    "Action",
    "Agent",
    "BotError",
    "DoubleDummyAI",
    "ExpertAI",
    "ExpertParams",
    "HeuristicAI",
    "RandomAI",
    "UnknownLevelError",
    "decide",
    "factory_of",
    "installed",
    "is_spec",
    "lab_seat",
    "make_ai",
    "make_lab_ai",
    "sees_every_hand",
]
