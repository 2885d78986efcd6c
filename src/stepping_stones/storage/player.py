"""A person's player keys for table servers, kept in their data folder (``player.json``).

At a table server a person is a player key (docs/online.md, "Players, and ratings"): made by the
client on first use of that server (256 bits from ``secrets``, URL-safe base64), sent in the hello
that takes a seat, and kept by the server only as a digest.  One key a server: a server never sees
the key of another, so no server can pass for the person at another one.  The file holds the keys
by server address and the keys an import replaced (``before``, the newest last, a few), so that no
key is lost by a mistaken import.  The key is what makes the person's rating theirs, so the file is
its owner's only (0600, in the owner-only data folder), written whole by a rename.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Final

from .files import atomic_write, owner_only
from .safety import FileProblem, escape, read_small, strict_json
from .settings import data_dir

KEYS_LIMIT: Final = 64 * 1024
KEYS_FORMAT: Final = "stepping-stones-player/1"
KEPT_BEFORE: Final = 5
KEY_BYTES: Final = 32  # as the server's ``players.new_key``


def keys_path() -> Path:
    return data_dir() / "player.json"


def _server(server: str) -> str:
    return server.rstrip("/")


def _read(path: Path) -> dict[str, object]:
    """The file's content; an empty one when there is no file.  Raises ``FileProblem`` for a file
    that holds no keys (it is left as it is: never overwritten)."""
    if not path.exists():
        return {"format": KEYS_FORMAT, "keys": {}, "before": []}
    data = strict_json(read_small(path, KEYS_LIMIT))
    keys = data.get("keys") if isinstance(data, dict) else None
    before = data.get("before", []) if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != KEYS_FORMAT
        or not isinstance(keys, dict)
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in keys.items())
        or not isinstance(before, list)
    ):
        raise FileProblem(escape(str(path)), "it holds no player keys")
    return data


def _write(path: Path, data: dict[str, object]) -> None:
    owner_only(path.parent)
    atomic_write(path, json.dumps(data, indent=2) + "\n")


def server_key(server: str, path: Path | None = None) -> str:
    """The person's key for ``server``, made and kept now on first use.  Raises ``FileProblem``
    (a file that holds no keys) and ``OSError`` (one that cannot be written)."""
    path = path or keys_path()
    data = _read(path)
    keys = data["keys"]
    assert isinstance(keys, dict)
    key = keys.get(_server(server))
    if isinstance(key, str):
        return key
    key = secrets.token_urlsafe(KEY_BYTES)
    keys[_server(server)] = key
    _write(path, data)
    return key


def replace_key(server: str, key: str, path: Path | None = None) -> str | None:
    """Keep ``key`` as the person's key for ``server`` (one a transfer code brought); the key it
    replaces (kept aside in the file's ``before``), or None.  Raises ``FileProblem`` and
    ``OSError``."""
    path = path or keys_path()
    data = _read(path)
    keys = data["keys"]
    before = data["before"]
    assert isinstance(keys, dict) and isinstance(before, list)
    old = keys.get(_server(server))
    if isinstance(old, str) and old != key:
        data["before"] = [*before, {"server": _server(server), "key": old}][-KEPT_BEFORE:]
    keys[_server(server)] = key
    _write(path, data)
    return old if isinstance(old, str) and old != key else None
