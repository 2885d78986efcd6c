"""A game being played by a person: the engine's Game, its seats, its seeds, its save files.

Nothing here imports Textual: the terminal app, the browser and the plain line
mode all save and resume through it, and it is tested on its own.  The save file is a game record in the public format
(``current.json``); the few things a record does not hold (the deal seed and
the AI levels) go into a small sidecar (``current.session.json``).  A copy of
the app claims its save with a lock file (``current.json.lock``), so a second
copy never writes a game the first one has open: it starts its own game in
another slot (``current-2.json``).  Every deal
is derived from the seed and the hand number (``match.Seeds``), so a resumed
game deals the same cards it would have dealt without the interruption, and
``stepping-stones simulate --seed SEED`` deals the same game.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from filelock import FileLock, Timeout
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .choices import Setup
from .engine import Bid, Game, Phase
from .files import atomic_write, fsync_folder
from .match import Seeds
from .records import (
    FORMAT,
    MAX_RECORD_BYTES,
    RecordError,
    game_from_record,
    load_json,
    parse_record,
    quote,
    record_from_game,
    write_record,
)
from .safety import FileProblem, MissingFile, escape, read_small
from .settings import data_dir

__all__ = ["HUMAN", "SavedGame", "Session", "SessionInfo", "Setup", "SlotLock", "find_saved", "free_slot"]

SESSION_FORMAT: Final = "stepping-stones-session/1"
HUMAN = 0  # the person always sits in seat 0


class SessionInfo(BaseModel):
    """The sidecar of a saved game: what the record does not say."""

    model_config = ConfigDict(extra="ignore")

    format: Literal["stepping-stones-session/1"] = SESSION_FORMAT
    seed: str
    levels: list[str | None] = Field(min_length=3, max_length=3)  # None for the person
    # The person took help (a hint, an undo): the game is counted apart in the statistics.
    assisted: bool = False



# The meta packet an app in a browser tab sends its server (stepping-stones serve) as it closes:
# whether a game in progress was open in it, so the server can count the games it saved.
SERVED_GAME_META: Final = "stepping-stones-game"

SLOT_STEM = "current"
SIDECAR_LIMIT = 64 * 1024  # a sidecar is a few lines


def slot_path(slot: int = 1) -> Path:
    """Where the unfinished game of ``slot`` is saved: ``current.json``, then ``current-2.json``...

    A second copy of the app that finds the first one's game open starts its own game in
    another slot, so two copies never write the same file."""
    return data_dir() / (f"{SLOT_STEM}.json" if slot == 1 else f"{SLOT_STEM}-{slot}.json")


def current_path() -> Path:
    return slot_path(1)


def sidecar_of(path: Path) -> Path:
    """The sidecar of the save ``path``: ``current.json`` -> ``current.session.json``."""
    return path.with_suffix(".session.json")


def sidecar_path() -> Path:
    return sidecar_of(current_path())


def lock_of(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


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


def why_not_saved(exc: OSError) -> str:
    """A failed write in plain words: where, and why."""
    where = exc.filename if exc.filename else data_dir()
    reason = exc.strerror or str(exc)
    return f"{escape(str(where))} cannot be written ({reason})"


class SlotLock:
    """The claim of one copy of the app on one save slot (a ``filelock`` lock file).

    While one copy holds it, another copy sees the game as open elsewhere and never writes it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = FileLock(lock_of(path), timeout=0)

    def acquire(self) -> bool:
        """Claim the slot: False if another copy holds it.  Raises ``OSError`` when the lock file
        cannot be made at all (a folder that cannot be written)."""
        try:
            self._lock.acquire()
        except Timeout:
            return False
        return True

    def release(self) -> None:
        if self._lock.is_locked:
            self._lock.release()

    @property
    def held(self) -> bool:
        return self._lock.is_locked


def open_elsewhere(path: Path) -> bool:
    """Whether another copy of the app holds the slot of ``path`` now."""
    lock = SlotLock(path)
    try:
        if not lock.acquire():
            return True
    except OSError:
        return False  # nobody can hold a lock where none can be made
    lock.release()
    return False


@dataclass
class Session:
    """A game in the app and where it is saved.

    Saving never raises: a save that fails is remembered in ``problem`` (plain words for the
    person), the game goes on in memory, and the next save tries again.
    """

    game: Game
    info: SessionInfo
    path: Path = field(default_factory=current_path)
    problem: str | None = None
    lock: SlotLock | None = None

    # --- making one ----------------------------------------------------

    @classmethod
    def new(cls, setup: Setup, path: Path | None = None) -> Session:
        seed = setup.seed.strip() if setup.seed and setup.seed.strip() else secrets.token_hex(4)
        players = (setup.player, *setup.names)
        game = Game(setup.rules, players, Seeds(seed).first_forehand())
        info = SessionInfo(seed=seed, levels=[None, *setup.levels])
        session = cls(game, info, path or current_path())
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

    # --- claiming the slot ---------------------------------------------------

    def claim(self) -> bool:
        """Claim this game's save slot for this copy of the app.  False if another copy has it
        open; a slot that cannot be locked at all (the folder cannot be written) is noted as a
        ``problem`` and the game goes on unsaved."""
        if self.lock is None:
            self.lock = SlotLock(self.path)
        try:
            return self.lock.acquire()
        except OSError as exc:
            self.problem = why_not_saved(exc)
            return True

    def release(self) -> None:
        if self.lock is not None:
            self.lock.release()

    # --- saving ----------------------------------------------------------

    def save(self) -> bool:
        """Write the game record atomically (after every action).  False, with ``problem`` set,
        if it could not be written."""
        try:
            write_record(self.path, record_from_game(self.game))
        except OSError as exc:
            self.problem = why_not_saved(exc)
            return False
        self.problem = None
        return True

    def save_sidecar(self) -> bool:
        try:
            atomic_write(sidecar_of(self.path), self.info.model_dump_json(indent=2) + "\n")
        except OSError as exc:
            self.problem = why_not_saved(exc)
            return False
        return True

    def archive(self, kind: str = "game") -> Path | None:
        """Move the save into the games folder (a finished or abandoned game); return its new path.
        None if there was nothing to move or it could not be moved (then ``problem`` says why)."""
        try:
            return archive_current(kind, self.path)
        except OSError as exc:
            self.problem = why_not_saved(exc)
            return None


@dataclass
class SavedGame:
    """What was found at start-up: a game to resume, games open in other copies of the app,
    and/or a message about a bad save."""

    session: Session | None = None
    problem: str | None = None
    open_elsewhere: list[Path] = field(default_factory=list)


def archive_current(kind: str = "game", path: Path | None = None) -> Path | None:
    """Move a save (and its sidecar) into the games folder; never deletes anything.
    Raises ``OSError`` when it cannot."""
    path = path or current_path()
    if not path.exists():
        return None
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = _free_name(folder, f"{kind}-{_stamp()}", ".json")
    os.replace(path, target)
    try:
        os.replace(sidecar_of(path), target.with_suffix(".session.json"))
    except OSError:
        pass
    fsync_folder(folder)
    return target


def move_aside(path: Path) -> Path:
    """Rename a bad save so it is kept but no longer loaded."""
    target = _free_name(path.parent, f"{path.name}.bad-{_stamp()}", "")
    os.replace(path, target)
    return target


def _newer_format(data: bytes) -> str | None:
    try:
        obj = load_json(data)
    except RecordError:
        return None
    if isinstance(obj, dict):
        fmt = obj.get("format")
        if isinstance(fmt, str) and fmt.startswith("stepping-stones-record/") and fmt != FORMAT:
            return quote(fmt)
    return None


def saved_slots() -> list[Path]:
    """The save files of unfinished games, most recently saved first."""
    folder = data_dir()
    try:
        paths = [p for p in folder.glob(f"{SLOT_STEM}*.json") if not p.name.endswith(".session.json")]
    except OSError:
        return []
    return sorted(paths, key=lambda p: p.stat().st_mtime if p.exists() else 0, reverse=True)


def free_slot() -> Path:
    """The save path for a new game: the first slot with no save and no other copy on it."""
    n = 1
    while True:
        path = slot_path(n)
        if not path.exists() and not open_elsewhere(path):
            return path
        n += 1


def _load(path: Path) -> tuple[Session | None, str | None]:
    """The game saved at ``path`` (not claimed), or the problem with it (the save moved aside)."""
    try:
        data = read_small(path, MAX_RECORD_BYTES)
    except MissingFile:
        return None, None
    except FileProblem as exc:
        why = str(exc)
        data = b""
    else:
        try:
            game = game_from_record(parse_record(data))
        except RecordError as exc:
            newer = _newer_format(data)
            why = (f"it was written by a newer version of Stepping Stones ({newer})" if newer
                   else f"it is damaged ({exc.line()})")
        else:
            return Session(game, _read_sidecar(path), path), None
    try:
        aside = move_aside(path)
    except OSError as move_exc:
        return None, (f"The saved game {escape(str(path))} cannot be used ({why}) and could not be "
                      f"moved aside ({move_exc.strerror}).")
    return None, (f"The saved game could not be resumed: {why}. "
                  f"It was kept as {escape(str(aside))}. A new game can start.")


def find_saved() -> SavedGame:
    """Look for an unfinished game to offer, the most recent one no other copy has open.

    A save that cannot be used is moved aside and reported; a finished game left behind is filed
    in the games folder; games open in other copies are listed and left alone.
    """
    found = SavedGame()
    for path in saved_slots():
        if open_elsewhere(path):
            found.open_elsewhere.append(path)
            continue
        session, problem = _load(path)
        if problem and found.problem is None:
            found.problem = problem
        if session is None:
            continue
        if session.game.over:
            session.archive("game")
            continue
        if found.session is None:
            found.session = session
    return found


def _read_sidecar(path: Path) -> SessionInfo:
    try:
        info = SessionInfo.model_validate(load_json(read_small(sidecar_of(path), SIDECAR_LIMIT)))
    except (FileProblem, RecordError, ValidationError):
        # The record alone is enough to go on: new deals from a fresh seed, default AI.
        return SessionInfo(seed=secrets.token_hex(4), levels=[None, "heuristic", "heuristic"])
    return info


def describe_progress(game: Game) -> str:
    """``'hand 3 of 12 (Standard set)'`` for the resume question."""
    n = len(game.log) if game.phase is not Phase.DEAL else len(game.log) + 1
    return f"hand {max(n, 1)} of {game.rules.hands} ({game.rules.describe()})"


def bid_text(name: str, bid: Bid, puddle: bool = False) -> str:
    """``'Hana passed'``, ``'Kenji declared from the puddle Must Beat, 1 high'``."""
    if bid.is_pass:
        return f"{name} passed"
    how = " from the puddle" if puddle else ""
    return f"{name} declared{how} {bid.describe()}"
