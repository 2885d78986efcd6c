"""Words for saving and resuming: why a save could not be written or used, and how far a game is.

The save slots (``storage.session``) do the work and find the facts (which file, which error,
what stands in the way); the sentences are made here, from plain values: paths, an error's
reason, a ``Game``.  A path or a reason is quoted as it is given: the caller makes the finished
sentence safe to print (``storage.safety.escape`` works character by character, so escaping the
sentence is escaping each part it quotes).

May import: the engine's public face only, like the rest of ``explain``.
"""

from __future__ import annotations

from pathlib import Path

from ..engine import Game, Phase
from . import hand_of


def why_not_saved(target: Path, reason: str, blocker: Path | None = None) -> str:
    """A failed write of ``target`` (a save, its sidecar) in plain words: which file, and why.

    ``blocker`` is a file found standing where the data folder (or a folder above it) should be:
    then that is said instead of the error's reason.

    >>> why_not_saved(Path("/d/current.json"), "No space left on device")
    '/d/current.json cannot be written (No space left on device)'
    >>> why_not_saved(Path("/d/current.json"), "Not a directory", Path("/d"))
    'the data folder /d is a file, not a folder'
    """
    if blocker is not None:
        if blocker == target.parent:
            return f"the data folder {blocker} is a file, not a folder"
        return f"{blocker} is a file, not a folder, so the data folder {target.parent} cannot be made"
    return f"{target} cannot be written ({reason})"


def open_in_another_window(path: Path) -> str:
    return f"{path} is open in another window"


def why_save_unusable(damage: str, newer_format: str | None = None) -> str:
    """Why a save cannot be resumed: written by a newer version (its quoted format), or damaged."""
    if newer_format:
        return f"it was written by a newer version of Stepping Stones ({newer_format})"
    return f"it is damaged ({damage})"


def save_kept_aside(why: str, kept: Path) -> str:
    return f"The saved game could not be resumed: {why}. It was kept as {kept}. A new game can start."


def save_stuck(path: Path, why: str, error: str) -> str:
    return f"The saved game {path} cannot be used ({why}) and could not be moved aside ({error})."


def _goes_on(level: str) -> str:
    return f"The game goes on, with new deals from a fresh seed and {level} computer players."


def sidecar_kept_aside(why: str, kept: Path, level: str) -> str:
    """A save's settings (its sidecar) that could not be used, kept under another name; the game
    goes on with a fresh seed and ``level`` computer players."""
    return f"The saved game's settings could not be used ({why}); they were kept as {kept}. {_goes_on(level)}"


def sidecar_stuck(path: Path, why: str, error: str, level: str) -> str:
    return (
        f"The saved game's settings {path} cannot be used ({why}) and could not "
        f"be moved aside ({error}). {_goes_on(level)}"
    )


def describe_progress(game: Game) -> str:
    """``'hand 3 of 12 (Standard set)'`` for the resume question."""
    n = len(game.log) if game.phase is not Phase.DEAL else len(game.log) + 1
    return f"hand {hand_of(max(n, 1), game.rules, game.redo_spent)} ({game.rules.describe()})"
