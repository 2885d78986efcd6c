"""The AI seats, as the app sees them: a thin adapter over ``stepping_stones.ai``."""

from __future__ import annotations

from ..ai import DEFAULT_LEVEL, LEVELS, Agent, make_ai

__all__ = ["DEFAULT_LEVEL", "levels", "make_seat"]


def levels() -> tuple[str, ...]:
    """The AI levels to offer in the setup screen."""
    return tuple(LEVELS)


def make_seat(level: str) -> Agent:
    """An AI seat of ``level``; a level this version does not know (an old save) plays as the default."""
    return make_ai(level if level in LEVELS else DEFAULT_LEVEL)
