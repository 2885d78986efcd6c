"""Reading what comes from outside without trusting it: files, JSON, names, text for a terminal.

* ``read_small`` reads a file only if it is a regular file of at most a given
  size: a FIFO, a device or a directory is refused at once, and a huge file is
  refused without being read whole.
* ``strict_json`` parses JSON with limits: nesting depth, digits of a number,
  no duplicate keys, no ``NaN``.  Every problem is a ``ValueError`` with a
  message a person understands.
* ``escape`` makes any text safe to print: control characters, and the
  characters that reorder text (bidirectional overrides), become ``\\x1b``-style
  escapes, so nothing from a file can move the cursor or retitle the window.
* ``name_problem`` is the one rule for a player's name, on the setup screen and
  in a record alike.

>>> escape("Hana\\x1b]0;pwned\\x07")
'Hana\\\\x1b]0;pwned\\\\x07'
>>> name_problem("Kenji"), name_problem("  "), name_problem("Eve\\u202e")
(None, 'a player name may not be blank', 'a player name may not contain control characters (U+202E)')
>>> name_problem("\\U0001f469\\u200d\\U0001f4bb")  # a joined emoji
"""

from __future__ import annotations

import json
import os
import stat
import unicodedata
from typing import Any

from ..engine import SteppingStonesError

NAME_LENGTH = 40

# Format characters a name may hold: the zero-width joiner of joined emoji and the tag
# characters of flag emoji.  Every other format character (the bidirectional overrides
# among them), every control character and the line separators are refused.
_ALLOWED_FORMAT = frozenset({"\u200d", "\u200c", *map(chr, range(0xE0020, 0xE0080))})
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _unsafe(ch: str) -> bool:
    return ch not in _ALLOWED_FORMAT and unicodedata.category(ch) in _REFUSED_CATEGORIES


def escape(text: str) -> str:
    """``text`` with every control, format and line-separator character written as an escape."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch == "\\":
            out.append(ch)
        elif _unsafe(ch) or (not ch.isprintable() and ch not in _ALLOWED_FORMAT and ch != " "):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def one_line(text: str, limit: int = 300) -> str:
    """``text`` as one line safe to print, of at most ``limit`` characters: line breaks become
    spaces, other control characters escapes, and a longer line keeps its start and its end
    (where a refusal says why) with ``...`` between.

    >>> one_line("a\\nb"), len(one_line("x" * 1000, 60)), one_line("/" + "d/" * 40 + "f: why", 40)
    ('a b', 60, '/d/d/d/d/d/d.../d/d/d/d/d/d/d/d/d/f: why')
    """
    text = escape(" ".join(text.splitlines()))
    if len(text) <= limit:
        return text
    head = (limit - 3) // 3
    return text[:head] + "..." + text[len(text) - (limit - 3 - head):]


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None if it can."""
    if not isinstance(name, str):
        return "a player name is text"
    if not name.strip():
        return "a player name may not be blank"
    if len(name) > NAME_LENGTH:
        return f"a player name has at most {NAME_LENGTH} characters"
    bad = [ch for ch in name if _unsafe(ch)]
    if bad:
        return f"a player name may not contain control characters (U+{ord(bad[0]):04X})"
    return None


def names_problem(names: list[str] | tuple[str, ...]) -> str | None:
    """Why these three names cannot sit at one table (each must be a name, all different)."""
    for name in names:
        problem = name_problem(name)
        if problem:
            return problem
    if len(set(names)) != len(names):
        return "the three players need different names"
    return None


# --- files -------------------------------------------------------------------------


class FileProblem(SteppingStonesError, ValueError):
    """A file that cannot be read as a small regular file.  ``str()`` says why, in words."""


class MissingFile(FileProblem):
    """There is no file at that path."""


def read_small(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes.  Raises ``FileProblem``.

    The file is opened without blocking (a FIFO with no writer would block) and checked before it
    is read; at most ``limit + 1`` bytes are ever read.
    """
    shown = escape(os.fspath(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise MissingFile(f"cannot read {shown}: there is no such file") from None
    except OSError as exc:
        raise FileProblem(f"cannot read {shown}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem(f"cannot read {shown}: it is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"cannot read {shown}: it is not a regular file (a pipe or a device)")
        if info.st_size > limit:
            raise FileProblem(f"{shown} is too large ({info.st_size:,} bytes; at most {limit:,})")
        os.set_blocking(fd, True)
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileProblem(f"{shown} is too large (over {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise FileProblem(f"cannot read {shown}: {exc.strerror}") from None
    finally:
        os.close(fd)


# --- JSON ---------------------------------------------------------------------------


def _depth(text: str) -> int:
    """The deepest nesting of objects and arrays in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def strict_json(text: str | bytes, max_depth: int = 16, max_digits: int = 30) -> Any:
    """Parse JSON, refusing what no data of ours holds: nesting deeper than ``max_depth``,
    numbers of more than ``max_digits`` digits, a key twice in one object, NaN and Infinity.
    Raises ``ValueError`` with a message that quotes nothing raw."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not valid JSON (not UTF-8 text at byte {exc.start})") from None
    # Cheap checks first: the nesting depth bounds the recursion of the parser below.
    if text.count("[") + text.count("{") > max_depth and _depth(text) > max_depth:
        raise ValueError(f"not valid JSON for this program: nested deeper than {max_depth} levels")

    def number(kind: type[int] | type[float]) -> Any:
        def parse(s: str) -> Any:
            if sum(c.isdigit() for c in s) > max_digits:
                raise ValueError(f"a number with {sum(c.isdigit() for c in s):,} digits")
            return kind(s)

        return parse

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number JSON allows")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                raise ValueError(f"the key {escape(repr(key))} appears twice in one object")
            obj[key] = value
        return obj

    try:
        return json.loads(
            text,
            parse_int=number(int),
            parse_float=number(float),
            parse_constant=constant,
            object_pairs_hook=unique,
        )
    except json.JSONDecodeError as exc:
        # Some of the parser's messages end in "at" themselves ("Unterminated string starting at").
        what = exc.msg.removesuffix(" at")
        raise ValueError(f"not valid JSON ({what} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError("not valid JSON for this program: nested too deeply") from None
