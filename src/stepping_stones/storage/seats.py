"""The seats a person holds at tables on table servers, kept so that a client that ends (killed,
closed, its terminal gone) can sit again: ``join CODE --server URL`` and the app's Play online
take the kept seat back with its secret, and the app's start lists them.

One small JSON file a seat, in ``seats/`` of the person's data folder: the server's address, the
table's invite code and id, the seat, the name and the seat's secret.  The secret is what takes
the seat, so the folder is its owner's only (0700) and so is each file (0600: ``atomic_write``'s
temporary file is made so, then renamed into place whole).  A file is named after the server and
the invite code as the server reads it (any case, with or without the dash), so a client knows
where its seat is kept before it is welcomed.  A seat is forgotten once its game is over or the
server no longer knows its secret.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from .files import atomic_write, owner_only
from .safety import FileProblem, escape, read_small, strict_json
from .settings import data_dir

SEAT_LIMIT = 4096  # a kept seat is some 300 bytes; a larger file is not one
SHARED_ENV = "STEPPING_STONES_SHARED_HOME"
"""Set (to 1) for the apps of ``serve``'s tabs: they share the data folder of whoever runs it, so
none of them keeps a seat there or offers one kept (it would hand one person's seat to another)."""


def keeping() -> bool:
    """Whether seats are kept and offered: not in an app that shares its data folder with others."""
    return os.environ.get(SHARED_ENV) != "1"


@dataclass(frozen=True)
class KeptSeat:
    """A seat taken at a table on a server: enough to take it back (``secret``) and to say which."""

    server: str
    code: str
    table: str
    seat: int
    name: str
    secret: str
    since: float = 0.0  # when it was taken (seconds since the epoch), to list the newest first
    came_from: str = ""  # the invite code of the finished table this one is the "again" of


def seats_dir() -> Path:
    return data_dir() / "seats"


def normal_code(code: str) -> str:
    """The invite code as the server reads it: ``k7qx2 mrb9t`` and ``K7QX2-MRB9T`` are one code."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def seat_path(server: str, code: str) -> Path:
    """Where the seat at the table ``code`` on ``server`` is kept."""
    key = hashlib.sha256(f"{server.rstrip('/')}\n{normal_code(code)}".encode()).hexdigest()[:20]
    return seats_dir() / f"{key}.json"


def _private_folder(folder: Path) -> None:
    """The seats' folder and the data folder above it, their owner's only (made earlier, or under
    a umask that kept group bits)."""
    owner_only(folder.parent)
    owner_only(folder)


def keep_seat(seat: KeptSeat, path: Path | None = None) -> Path:
    """Write ``seat`` to its file (or ``path``), owner-only, whole or not at all.  Raises
    ``OSError``."""
    path = path or seat_path(seat.server, seat.code)
    _private_folder(path.parent)
    atomic_write(path, json.dumps(asdict(seat) | {"since": seat.since or time.time()}) + "\n")
    return path


def read_seat(path: Path) -> KeptSeat:
    """The seat kept in ``path``.  Raises ``FileProblem`` (none, or not a kept seat)."""
    data = strict_json(read_small(path, SEAT_LIMIT))
    try:
        if not isinstance(data, dict):
            raise TypeError("not an object")
        seat = KeptSeat(
            **{k: data[k] for k in ("server", "code", "table", "seat", "name", "secret")},
            since=float(data.get("since", 0.0)),
            came_from=str(data.get("came_from", "")),
        )
        if not all(
            isinstance(v, str) for v in (seat.server, seat.code, seat.table, seat.name, seat.secret)
        ) or not isinstance(seat.seat, int):
            raise TypeError("a field of the wrong type")
    except (KeyError, TypeError, ValueError) as exc:
        raise FileProblem(escape(str(path)), f"it holds no kept seat ({exc})") from None
    return seat


def kept_seat(server: str, code: str) -> KeptSeat | None:
    """The seat kept at the table ``code`` on ``server``, if there is one; or the seat at the table
    that followed it with "again" (``join OLDCODE`` after a rematch sits at the new table)."""
    if not keeping():
        return None
    try:
        return read_seat(seat_path(server, code))
    except (FileProblem, ValueError):
        pass
    wanted = normal_code(code)
    return next(
        (
            s
            for s in kept_seats()
            if s.came_from and normal_code(s.came_from) == wanted and s.server.rstrip("/") == server.rstrip("/")
        ),
        None,
    )


def kept_seats() -> list[KeptSeat]:
    """Every seat kept, the newest first (a file that holds none is passed over)."""
    if not keeping():
        return []
    found = []
    try:
        paths = sorted(seats_dir().glob("*.json"))
    except OSError:
        return []
    for path in paths:
        try:
            found.append(read_seat(path))
        except (FileProblem, ValueError):
            continue
    return sorted(found, key=lambda s: -s.since)
