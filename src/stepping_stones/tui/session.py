"""A game in the app: the engine's Game, its seats, its dealing, its save files.

Nothing here imports Textual, so the saving and resuming can be tested on
their own.  The save file is a game record in the public format
(``current.json``); the few things a record does not hold (the deal seed and
the AI levels) go into a small sidecar (``current.session.json``).  Every deal
is derived from the seed and the hand number (``match.Seeds``), so a resumed
game deals the same cards it would have dealt without the interruption, and
``stepping-stones simulate --seed SEED`` deals the same game.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine import Bid, Game, Phase, Rules
from ..files import atomic_write
from ..match import Seeds
from ..records import (
    FORMAT,
    RecordError,
    game_from_record,
    parse_record,
    record_from_game,
    write_record,
)
from ..settings import data_dir

SESSION_FORMAT: Final = "stepping-stones-session/1"
HUMAN = 0  # the person always sits in seat 0


class SessionInfo(BaseModel):
    """The sidecar of a saved game: what the record does not say."""

    model_config = ConfigDict(extra="ignore")

    format: Literal["stepping-stones-session/1"] = SESSION_FORMAT
    seed: str
    levels: list[str | None] = Field(min_length=3, max_length=3)  # None for the person


@dataclass(frozen=True)
class Setup:
    """The choices of the setup screen: the rules, the players, the AI levels and the seed."""

    rules: Rules = field(default_factory=Rules)
    player: str = "You"
    names: tuple[str, str] = ("Hana", "Kenji")
    levels: tuple[str, str] = ("heuristic", "heuristic")
    seed: str | None = None


def current_path() -> Path:
    return data_dir() / "current.json"


def sidecar_path() -> Path:
    return data_dir() / "current.session.json"


def games_dir() -> Path:
    return data_dir() / "games"


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    path = folder / f"{stem}{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{suffix}"
        n += 1
    return path


@dataclass
class Session:
    game: Game
    info: SessionInfo
    path: Path = field(default_factory=current_path)

    # --- making one ----------------------------------------------------

    @classmethod
    def new(cls, setup: Setup) -> Session:
        seed = setup.seed.strip() if setup.seed and setup.seed.strip() else secrets.token_hex(4)
        players = (setup.player, *setup.names)
        game = Game(setup.rules, players, Seeds(seed).first_forehand())
        info = SessionInfo(seed=seed, levels=[None, *setup.levels])
        session = cls(game, info)
        session.save_sidecar()
        return session

    # --- the seats -----------------------------------------------------

    @property
    def human(self) -> int:
        return HUMAN

    @property
    def seeds(self) -> Seeds:
        """Where the game's deals and the AI seats' choices come from."""
        return Seeds(self.info.seed)

    def level(self, seat: int) -> str | None:
        return self.info.levels[seat]

    # --- saving ----------------------------------------------------------

    def save(self) -> None:
        """Write the game record atomically (after every action)."""
        write_record(self.path, record_from_game(self.game))

    def save_sidecar(self) -> None:
        atomic_write(sidecar_path(), self.info.model_dump_json(indent=2) + "\n")

    def archive(self, kind: str = "game") -> Path | None:
        """Move the save into the games folder (a finished or abandoned game); return its new path."""
        return archive_current(kind, self.path)


@dataclass
class SavedGame:
    """What was found at start-up: a game to resume, and/or a message about a bad save."""

    session: Session | None = None
    problem: str | None = None


def archive_current(kind: str = "game", path: Path | None = None) -> Path | None:
    """Move the current save (and its sidecar) into the games folder; never deletes anything."""
    path = path or current_path()
    if not path.exists():
        return None
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = _free_name(folder, f"{kind}-{_stamp()}", ".json")
    os.replace(path, target)
    try:
        os.replace(sidecar_path(), target.with_suffix(".session.json"))
    except OSError:
        pass
    return target


def move_aside(path: Path) -> Path:
    """Rename a bad save so it is kept but no longer loaded."""
    target = _free_name(path.parent, f"{path.name}.bad-{_stamp()}", "")
    os.replace(path, target)
    return target


def _newer_format(data: bytes) -> str | None:
    try:
        obj = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(obj, dict):
        fmt = obj.get("format")
        if isinstance(fmt, str) and fmt.startswith("stepping-stones-record/") and fmt != FORMAT:
            return fmt
    return None


def find_saved() -> SavedGame:
    """Look for an unfinished game.  A save that cannot be used is moved aside and reported."""
    path = current_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return SavedGame()
    except OSError as exc:
        return SavedGame(problem=f"The saved game {path} could not be read ({exc.strerror}).")
    try:
        game = game_from_record(parse_record(data))
    except RecordError as exc:
        newer = _newer_format(data)
        try:
            aside = move_aside(path)
        except OSError as move_exc:
            return SavedGame(problem=f"The saved game {path} cannot be used and could not be moved "
                                     f"aside ({move_exc.strerror}).")
        if newer:
            why = f"it was written by a newer version of Stepping Stones ({newer})"
        else:
            why = f"it is damaged ({exc.line()})"
        return SavedGame(problem=f"The saved game could not be resumed: {why}. "
                                 f"It was kept as {aside}. A new game can start.")
    info = _read_sidecar()
    session = Session(game, info, path)
    if game.over:
        session.archive("game")
        return SavedGame()
    return SavedGame(session=session)


def _read_sidecar() -> SessionInfo:
    try:
        info = SessionInfo.model_validate_json(sidecar_path().read_bytes())
    except (OSError, ValidationError, ValueError):
        info = None
    if info is None:
        # The record alone is enough to go on: new deals from a fresh seed, default AI.
        return SessionInfo(seed=secrets.token_hex(4), levels=[None, "heuristic", "heuristic"])
    return info


def describe_progress(game: Game) -> str:
    """``'hand 3 of 12 (Standard set)'`` for the resume question."""
    n = len(game.log) if game.phase is not Phase.DEAL else len(game.log) + 1
    return f"hand {max(n, 1)} of {game.rules.hands} ({game.rules.describe()})"


def bid_text(game: Game, seat: int, bid: Bid, puddle: bool = False) -> str:
    name = game.name(seat)
    if bid.is_pass:
        return f"{name} passed"
    how = " from the puddle" if puddle else ""
    return f"{name} declared{how} {bid.describe()}"
