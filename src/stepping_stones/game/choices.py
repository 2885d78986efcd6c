"""The choices a new game starts from: the rules, the players' names, the AI levels, the seed.

A light module (the engine and the standard library only), so that the app can draw its setup
screen before anything heavier is imported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import Rules, Seat

AI_LEVELS: tuple[str, ...] = ("random", "heuristic", "expert")
"""The computer players' levels, weakest first: the names of ``stepping_stones.ai.LEVELS``, written
here as well so that the setup screen can offer them without importing the AI (a test checks that
the two agree)."""
DEFAULT_AI_LEVEL = "heuristic"
AI_LEVEL_WORDS: dict[str, str] = {
    "random": "any legal card, at random",
    "heuristic": "rules of thumb, quick",
    "expert": "solves likely deals; the best",
}
"""What each level is, in a line of the setup screen's column beside the levels (37 columns at
80, with the level's name)."""
HUMAN: Seat = 0
"""The person's seat: in every game a person plays here (the app, the browser, plain mode), the
person sits in seat 0 and the computer players in seats 1 and 2."""
SEED_LENGTH = 100
"""The longest deal seed a game takes and keeps (a seed is a word or a number; the app makes 8 hex
digits).  The command line and the setup screen hold seeds to it, and a save's sidecar is checked
against it, so every game that starts can be resumed."""


@dataclass(frozen=True)
class Setup:
    """The choices of the setup screen: the rules, the players, the AI levels and the seed."""

    rules: Rules = field(default_factory=Rules)
    player: str = "You"
    names: tuple[str, str] = ("Hana", "Kenji")
    levels: tuple[str, str] = (DEFAULT_AI_LEVEL, DEFAULT_AI_LEVEL)
    seed: str | None = None
