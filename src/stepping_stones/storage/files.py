"""Writing files so that a crash never leaves half of one, and a power cut never loses one; and
keeping a file that cannot be used under another name (``move_aside``), never deleting it.
Every folder and file written here is its owner's alone (``private_folder``, ``private_file``):
a person's games and a server's seats are nobody else's business, whatever the umask.

The bottom of storage: it imports nothing of ours.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600


def private_folder(folder: str | os.PathLike[str]) -> Path:
    """Make ``folder`` and any missing folders above it, each readable by its owner alone (an
    existing folder is left as it is: it may be anyone's); the folder."""
    folder = Path(folder)
    missing = []
    above = folder
    while not above.exists() and above != above.parent:
        missing.append(above)
        above = above.parent
    for one in reversed(missing):
        try:
            one.mkdir(mode=PRIVATE_FOLDER)
        except FileExistsError:
            pass
    return folder


def owner_only(folder: str | os.PathLike[str]) -> Path:
    """``folder`` made as ``private_folder`` makes it, and narrowed to its owner when others may
    read it and it is this user's: for the game's own data folder and the folders in it, which an
    older version (or a front end that made them) left open to others.  Not for a folder the
    user names (``host --data-dir``), which may be shared on purpose."""
    folder = private_folder(folder)
    with contextlib.suppress(OSError):
        found = os.stat(folder)
        if found.st_uid == os.getuid() and found.st_mode & 0o077:
            os.chmod(folder, PRIVATE_FOLDER)
    return folder


def private_file(path: str | os.PathLike[str]) -> None:
    """Make ``path`` an owner-only file: created empty if it is not there, its mode narrowed if
    others may read it (a file of ours made under an older version)."""
    fd = os.open(path, os.O_CREAT | os.O_RDONLY, PRIVATE_FILE)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)


def fsync_folder(folder: str | os.PathLike[str]) -> None:
    """Flush a folder's entries to disk, so that a rename or a new file in it survives a crash.

    Some systems cannot open a folder for this; there it is skipped (the rename itself is still
    atomic)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike[str], text: str, *, flush: bool = True) -> None:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new one, never half.

    The text goes to a temporary file in the same folder, is flushed to disk, replaces ``path``
    in one step, and then the folder itself is flushed so that the new entry is on disk too.
    Raises ``OSError`` (the old file untouched) when the folder cannot be made or written.

    With ``flush`` off the two flushes are left to the caller (the table server flushes its
    tables once a second, ``net.journal.FileTableStore.sync``): the file is still replaced in one
    step, so a crash of the process (even ``kill -9``) leaves the old file or the new one; only a
    crash of the whole machine can lose the last second.
    """
    path = Path(path)
    private_folder(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            if flush:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if flush:
        fsync_folder(path.parent)


def stamp() -> str:
    """The local time as files are named after it: ``20260101-120000``."""
    return time.strftime("%Y%m%d-%H%M%S")


def free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem+suffix``, or ``stem-2``, ``stem-3``... if that name is taken."""
    path = folder / f"{stem}{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{suffix}"
        n += 1
    return path


def move_aside(path: Path) -> Path:
    """Rename a file that cannot be used (a bad save, a damaged database) so it is kept but no
    longer loaded: ``current.json.bad-20260101-120000``.  Raises ``OSError`` when it cannot."""
    target = free_name(path.parent, f"{path.name}.bad-{stamp()}", "")
    os.replace(path, target)
    return target
