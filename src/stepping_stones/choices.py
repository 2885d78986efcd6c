"""The choices a new game starts from: the rules, the players' names, the AI levels, the seed.

A light module (the engine and the standard library only), so that the app can draw its setup
screen before anything heavier is imported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .engine import Rules

AI_LEVELS: tuple[str, ...] = ("random", "heuristic", "expert")
"""The computer players' levels, weakest first: the names of ``stepping_stones.ai.LEVELS``, written
here as well so that the setup screen can offer them without importing the AI (a test checks that
the two agree)."""
DEFAULT_AI_LEVEL = "heuristic"


@dataclass(frozen=True)
class Setup:
    """The choices of the setup screen: the rules, the players, the AI levels and the seed."""

    rules: Rules = field(default_factory=Rules)
    player: str = "You"
    names: tuple[str, str] = ("Hana", "Kenji")
    levels: tuple[str, str] = (DEFAULT_AI_LEVEL, DEFAULT_AI_LEVEL)
    seed: str | None = None
