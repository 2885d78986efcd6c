"""A game being played by a person: the engine's Game, its seats, its seeds, its save slots and
their locks.

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

A finished or abandoned game leaves its slot for the games folder through ``games`` (the folder's
one writer); the sidecar's format is ``sidecar``'s; the sentences that tell the person about a save
that failed are ``explain.saving``'s.  May import: the engine's public face, ``explain``, ``game``,
and storage's lower layers (``games``, ``records``, ``settings``, ``sidecar``, ``files``,
``safety``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from filelock import FileLock, Timeout
from pydantic import ValidationError

from ..engine import Game
from ..explain import saving as words
from ..game.choices import HUMAN, Setup
from ..game.match import Seeds
from .files import PRIVATE_FILE, atomic_write, move_aside, owner_only
from .files import stamp as _stamp
from .games import file_save, games_dir
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
from .sidecar import DEFAULT_LEVEL, SIDECAR_LIMIT, SessionInfo, sidecar_of

__all__ = ["HUMAN", "SavedGame", "Session", "SessionInfo", "Setup", "SlotLock", "find_saved", "free_slot"]


# The meta packet an app in a browser tab sends its server (stepping-stones serve) as it closes:
# whether a game in progress was open in it, so the server can count the games it saved.
SERVED_GAME_META: Final = "stepping-stones-game"

SLOT_STEM = "current"


def slot_path(slot: int = 1) -> Path:
    """Where the unfinished game of ``slot`` is saved: ``current.json``, then ``current-2.json``...

    A second copy of the app that finds the first one's game open starts its own game in
    another slot, so two copies never write the same file."""
    return data_dir() / (f"{SLOT_STEM}.json" if slot == 1 else f"{SLOT_STEM}-{slot}.json")


def current_path() -> Path:
    return slot_path(1)


def lock_of(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _file_in_the_way(folder: Path) -> Path | None:
    """The file that stands where ``folder`` (or one of the folders above it) should be, if any."""
    for place in (folder, *folder.parents):
        try:
            if place.is_dir():
                return None
            if place.exists():
                return place
        except OSError:
            return None
    return None


def why_not_saved(exc: OSError, target: Path) -> str:
    """A failed write of ``target`` (a save, its sidecar) in plain words, safe to print: which
    file, and why (``explain.saving.why_not_saved``).

    The file named is the one the person knows (the save), never the temporary file or the lock
    file the write went through; a data folder that is a file is said to be one."""
    return escape(words.why_not_saved(target, exc.strerror or str(exc), _file_in_the_way(target.parent)))


def stale_temporary_files(path: Path) -> list[Path]:
    """What ``atomic_write`` left behind for the save ``path`` and its sidecar when the program was
    killed half-way (``.current.json.1a2b3c.tmp``).  Only the copy holding the slot's lock writes
    them, so under the lock every one of them is stale."""
    found: list[Path] = []
    for name in (path.name, sidecar_of(path).name):
        try:
            found.extend(p for p in path.parent.glob(f".{name}.*.tmp") if p.is_file())
        except OSError:
            pass
    return found


class SlotLock:
    """The claim of one copy of the app on one save slot (a ``filelock`` lock file).

    While one copy holds it, another copy sees the game as open elsewhere and never writes it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = FileLock(lock_of(path), timeout=0, mode=PRIVATE_FILE)  # its owner's, as the save is

    def acquire(self) -> bool:
        """Claim the slot: False if another copy holds it.  Raises ``OSError`` when the lock file
        cannot be made at all (a folder that cannot be written)."""
        if self.path.parent == data_dir():  # the game's own folder, its owner's only
            owner_only(self.path.parent)
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
    sidecar_saved: bool = True  # False while the sidecar on disk is missing or not this game's
    archived: Path | None = None  # where the game was filed in the games folder, once it was
    # The finished game is written whole in its save (``path``), even if moving it into the games
    # folder failed: nothing is lost, and the next start files it (``find_saved``).
    finished_written: bool = False

    # --- making one ----------------------------------------------------

    @classmethod
    def new(cls, setup: Setup, path: Path | None = None) -> Session:
        seed = setup.seed.strip() if setup.seed and setup.seed.strip() else secrets.token_hex(4)
        players = (setup.player, *setup.names)
        game = Game(setup.rules, players, Seeds(seed).first_forehand())
        info = SessionInfo(seed=seed, levels=[None, *setup.levels])
        # Nothing is written yet: the slot is claimed first, and the first save writes the sidecar.
        return cls(game, info, path or current_path(), sidecar_saved=False)

    # --- the seats -----------------------------------------------------

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
        ``problem`` and the game goes on unsaved (``save`` claims it once the folder can be
        written, before it writes anything)."""
        if self.lock is None:
            self.lock = SlotLock(self.path)
        try:
            claimed = self.lock.acquire()
        except OSError as exc:
            self.problem = why_not_saved(exc, self.path)
            return True
        if claimed:
            self._clean_stale()
        return claimed

    def release(self) -> None:
        if self.lock is not None:
            self.lock.release()

    def _clean_stale(self) -> None:
        """Remove the temporary files a killed copy left for this slot (the lock is held)."""
        for tmp in stale_temporary_files(self.path):
            try:
                tmp.unlink()
            except OSError:
                pass

    def _claimed_for_writing(self) -> bool:
        """Before a write: a session that tried to claim its slot and could not (a folder that
        could not be written) claims it now.  If another copy has taken the slot meanwhile, this
        game moves to a free slot of its own, so two copies never write one file.  False, with
        ``problem`` set, if no lock can be taken yet: then nothing is written."""
        lock = self.lock
        if lock is None or lock.held:
            return True  # never claimed (a tool, a test), or claimed already
        try:
            if lock.acquire():
                self._clean_stale()
                return True
            moved = Session(self.game, self.info, free_slot())
            if not moved.claim() or moved.lock is None or not moved.lock.held:
                self.problem = moved.problem or escape(words.open_in_another_window(self.path))
                return False
        except OSError as exc:
            self.problem = why_not_saved(exc, self.path)
            return False
        self.path, self.lock = moved.path, moved.lock
        self.sidecar_saved = False  # the new slot has no sidecar yet
        return True

    # --- saving ----------------------------------------------------------

    def save(self) -> bool:
        """Write the game record atomically (after every action), and the sidecar if it is not on
        disk yet.  False, with ``problem`` set, if it could not be written: the old save is then
        untouched and the game is kept in memory; the next save tries again."""
        if not self._claimed_for_writing():
            return False
        try:
            write_record(self.path, record_from_game(self.game))
        except OSError as exc:
            self.problem = why_not_saved(exc, self.path)
            return False
        if not self.sidecar_saved and not self.save_sidecar():
            return False
        self.problem = None
        return True

    def save_sidecar(self) -> bool:
        try:
            atomic_write(sidecar_of(self.path), self.info.text())
        except OSError as exc:
            self.problem = why_not_saved(exc, sidecar_of(self.path))
            return False
        self.sidecar_saved = True
        return True

    def archive(self, kind: str = "game") -> Path | None:
        """Move the save into the games folder (a finished or abandoned game); return its new path.
        None if there was nothing to move or it could not be moved (then ``problem`` says why)."""
        try:
            target = archive_current(kind, self.path)
        except OSError as exc:
            self.problem = why_not_saved(exc, games_dir() / f"{kind}-{_stamp()}.json")
            return None
        self.archived = target
        return target

    def file_finished(self) -> Path | None:
        """Write a finished game and move it into the games folder; its path there, or None (with
        ``problem`` set) if either step failed.  A failed write leaves the old save where it was
        (never filed as if it were the finished game), and the finished game stays in memory:
        calling this again tries again."""
        if self.archived is not None:
            return self.archived
        if not self.save():
            return None
        self.finished_written = True
        return self.archive("game")


@dataclass
class SavedGame:
    """What was found at start-up: a game to resume, games open in other copies of the app,
    and/or a message about a bad save."""

    session: Session | None = None
    problem: str | None = None
    open_elsewhere: list[Path] = field(default_factory=list)


def archive_current(kind: str = "game", path: Path | None = None) -> Path | None:
    """File a save (and its sidecar) in the games folder as ``KIND-DATE.json`` (``games.file_save``);
    never deletes anything.  Raises ``OSError`` when it cannot."""
    path = path or current_path()
    if not path.exists():
        return None
    return file_save(path, f"{kind}-{_stamp()}")


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
            why = words.why_save_unusable(exc.line(), _newer_format(data))
        else:
            info, sidecar_problem = _read_sidecar(path)
            return Session(game, info, path, sidecar_saved=sidecar_problem is None), sidecar_problem
    try:
        aside = move_aside(path)
    except OSError as move_exc:
        return None, escape(words.save_stuck(path, why, str(move_exc.strerror)))
    return None, escape(words.save_kept_aside(why, aside))


def find_saved() -> SavedGame:
    """Look for an unfinished game to offer, the most recent one no other copy has open.

    A save that cannot be used is moved aside and reported; the most recent finished game left
    behind (closed before its result was seen) is offered so that its result is shown, older ones
    are filed in the games folder; games open in other copies are listed and left alone.
    """
    found = SavedGame()
    for path in saved_slots():
        if open_elsewhere(path):
            found.open_elsewhere.append(path)
            continue
        session, problem = _load(path)
        found.problem = found.problem or problem
        if session is None:
            continue
        if found.session is None:
            # A finished game here was never filed: the app was closed on its last summary.  It
            # is offered like any other, and its result shown, then filed.
            found.session = session
        elif session.game.over:
            session.archive("game")
    return found


SHOWN_REASON = 160  # characters of a reason quoted from a file's problem


def _bounded(text: str, limit: int = SHOWN_REASON) -> str:
    text = escape(" ".join(text.split()))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sidecar_reason(exc: ValidationError) -> str:
    """The first problem pydantic found, in one short line that quotes nothing from the file."""
    error = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in error["loc"]) or "the file"
    message = error["msg"].removeprefix("Value error, ")
    return _bounded(f"{where}: {message}")


def _read_sidecar(path: Path) -> tuple[SessionInfo, str | None]:
    """The sidecar of the save ``path``, checked as strictly as a record, and None; or, for a bad
    one (moved aside), what the game goes on with instead and the notice that says so.  A missing
    sidecar is no news: the record alone is enough to go on, and the next save writes one."""
    side = sidecar_of(path)
    fresh = SessionInfo(seed=secrets.token_hex(4), levels=[None, DEFAULT_LEVEL, DEFAULT_LEVEL])
    try:
        data = read_small(side, SIDECAR_LIMIT)
    except MissingFile:
        return fresh, None
    except FileProblem as exc:
        why = _bounded(str(exc))
    else:
        try:
            return SessionInfo.model_validate(load_json(data)), None
        except RecordError as exc:
            why = _bounded(exc.reason)
        except ValidationError as exc:
            why = _sidecar_reason(exc)
    try:
        aside = move_aside(side)
    except OSError as exc:
        return fresh, escape(words.sidecar_stuck(side, why, exc.strerror or str(exc), DEFAULT_LEVEL))
    return fresh, escape(words.sidecar_kept_aside(why, aside, DEFAULT_LEVEL))
