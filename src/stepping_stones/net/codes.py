"""A table's invite code, each person's seat secret, and the seed the table is dealt from.

An invite code is short enough to read out (``K7QX2-MRB9T``) and good only for a seat that is still
open; a seat secret is 256 bits from the system's generator, given to its person once, and the
server keeps only its SHA-256 (``digest``), which it compares in constant time: a secret is never
logged, stored or sent to another seat.  A table's seed (``new_seed``, 128 bits) decides every
deal and every computer's choice: the server keeps it to itself until the game is over.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTWXYZ23456789"
"""Invite codes are written with these 29 characters: no 0/O, 1/I/L or U/V to confuse."""
CODE_CHARS: Final = 10
"""Ten characters of 29: 48 bits, so guessing a live code takes some 10^14 tries."""
SECRET_BYTES: Final = 32  # a seat secret: 256 bits from the system's generator
STAND_IN_LEVEL: Final = "heuristic"


def new_code() -> str:
    """A fresh invite code, e.g. ``K7QX2-MRB9T``."""
    text = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_CHARS))
    return f"{text[:5]}-{text[5:]}"


def normal_code(text: str) -> str | None:
    """A code as typed (any case, spaces or dashes anywhere) in its written form, or None when it
    cannot be one."""
    letters = "".join(ch for ch in text.upper() if ch not in " -")
    if len(letters) != CODE_CHARS or any(ch not in CODE_ALPHABET for ch in letters):
        return None
    return f"{letters[:5]}-{letters[5:]}"


def digest(secret: str) -> str:
    """What the server keeps of a seat secret: its SHA-256, never the secret."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def new_secret() -> str:
    """A fresh seat secret (43 characters), to be given to its person once."""
    return secrets.token_urlsafe(SECRET_BYTES)


def new_seed() -> str:
    """A fresh seed for a table's deals and its computers' choices: 128 bits from the system's
    generator, which nobody can guess or choose."""
    return secrets.token_hex(16)
