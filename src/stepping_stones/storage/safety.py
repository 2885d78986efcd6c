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
  in a record alike: not blank, nothing invisible alone, no control characters,
  no pile of marks on one letter.  ``normal_name`` is a name as it is taken in
  from a person (NFKC), and ``name_skeleton`` what two names that look alike
  have in common, so that a table can treat a look-alike of a seated name as
  taken.

>>> escape("Hana\\x1b]0;pwned\\x07")
'Hana\\\\x1b]0;pwned\\\\x07'
>>> name_problem("Kenji"), name_problem("  "), name_problem("Eve\\u202e")
(None, 'a player name may not be blank or invisible', 'a player name may not contain control characters (U+202E)')
>>> name_problem("\\U0001f469\\u200d\\U0001f4bb")  # a joined emoji
>>> name_problem("\\u3164"), name_problem("\\u2800\\u200d")
('a player name may not be blank or invisible', 'a player name may not be blank or invisible')
>>> name_skeleton("\\u0410nn") == name_skeleton("ann\\u200d") == name_skeleton("ANN")  # Cyrillic A, a joiner
True
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from typing import Any, Final

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
    return text[:head] + "..." + text[len(text) - (limit - 3 - head) :]


MAX_MARKS = 3
"""The most combining marks on one letter: Vietnamese and pointed Hebrew need two or three; a
pile of them (Zalgo text) writes over the names around it."""

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): characters that show nothing
# where they are not understood, Hangul fillers among them.
_IGNORABLE: Final = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_BLANK: Final = frozenset({"\u2800"})  # shows as nothing, though not a space: the blank Braille pattern
_NOTHING_CATEGORIES: Final = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Mn", "Me"})


def _ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE)


def _invisible(ch: str) -> bool:
    """A character that is not seen at all, not even as a space or a mark: a joiner, a filler."""
    return unicodedata.category(ch) == "Cf" or ch in _BLANK or _ignorable(ch)


def _shows_nothing(ch: str) -> bool:
    """A character that draws nothing of its own: a space, a mark, a format character, a filler."""
    return unicodedata.category(ch) in _NOTHING_CATEGORIES or ch in _BLANK or _ignorable(ch)


def _marks_piled(name: str) -> bool:
    run = 0
    for ch in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.combining(ch) or unicodedata.category(ch) == "Me" else 0
        if run > MAX_MARKS:
            return True
    return False


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None if it can."""
    if not isinstance(name, str):
        return "a player name is text"
    if len(name) > NAME_LENGTH:
        return f"a player name has at most {NAME_LENGTH} characters"
    bad = [ch for ch in name if _unsafe(ch)]
    if bad:
        return f"a player name may not contain control characters (U+{ord(bad[0]):04X})"
    if all(_shows_nothing(ch) for ch in name):
        return "a player name may not be blank or invisible"
    if _marks_piled(name):
        return f"a player name may not pile more than {MAX_MARKS} marks on one letter"
    return None


def normal_name(name: str) -> str:
    """A name as a person typed it, as it is taken in: NFKC (so a full-width or a mathematical
    letter is the letter) without spaces around it.

    >>> normal_name(" \\uff21nn \\U0001d400 "), normal_name("Zoe\\u0308")
    ('Ann A', 'Zoë')
    """
    return unicodedata.normalize("NFKC", name).strip()


# Which letters look alike is Unicode's to say (UTS #39, confusables.txt, some 6,500 of them in
# every script), not a table kept by hand here: a hand-kept one missed Cherokee, Lisu, Canadian
# syllabics, Latin alpha, dotless i, Greek eta, Cyrillic pe and the small capitals, which an audit
# of the table server seated beside the ASCII names they pass for (issue 42).  disarm keeps
# Unicode's data current (its confusables at the newest Unicode, a release every few weeks) and
# builds the skeleton from it: TR39's fold, the case folded and folded again to a fixed point,
# invisibles dropped, and with ``digit_policy="tr39"`` the digits that pass for letters (``1`` for
# ``l``, ``0`` for ``O``).  The alternatives: PyICU (ICU's SpoofChecker) needs a C++ build against
# the system's ICU and has no wheel; confusable-homoglyphs (last release January 2024) keeps each
# pair both ways and has no skeleton, so it maps Cyrillic pe to Greek pi and small capital A to
# Cherokee, never to the Latin letter.  Left here: the runs of letters that pass for one letter
# in a name (``rn`` for ``m``; ``i`` for ``l``, which TR39 keeps apart once the case is folded).
_LOOK_ALIKE_RUNS: Final = (("rn", "m"), ("vv", "w"), ("cl", "d"), ("i", "l"))


def name_skeleton(name: str) -> str:
    """What a name looks like, for telling whether two names could be taken for each other (UTS
    #39's skeleton, ``disarm.skeleton_key``): NFKC, without what is not seen at all (joiners,
    fillers), every script's look-alikes of a letter as that letter, without case, digits that pass
    for letters as the letters, and the runs of letters that pass for one (``rn`` for ``m``, ``I``
    and ``1`` for ``l``) as one.

    >>> name_skeleton("Ann") == name_skeleton("\\u0410nn") == name_skeleton("A\\u200dnn") == name_skeleton("\\u13aann")
    True
    >>> name_skeleton("Bob") == name_skeleton("B\\u043eb"), name_skeleton("Ann") == name_skeleton("Anna")
    (True, False)
    >>> name_skeleton("Kim") == name_skeleton("Kirn") == name_skeleton("K1m")
    True
    >>> name_skeleton("Zoë") == name_skeleton("Zoe\\u0308") != name_skeleton("Zoe")
    True
    """
    from disarm import skeleton_key  # its tables load at the first name

    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if not _invisible(ch))
    text = " ".join(skeleton_key(text, digit_policy="tr39").casefold().split())
    for run, one in _LOOK_ALIKE_RUNS:
        text = text.replace(run, one)
    return text


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
    """A file that cannot be read as a small regular file.  ``str()`` says why, in words, after
    the file's name (``'games/a.json: there is no such file'``); ``reason`` says it without the
    name, for a message that names the file itself."""

    def __init__(self, shown: str, reason: str) -> None:
        self.reason = reason
        super().__init__(f"{shown}: {reason}")


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
        raise MissingFile(shown, "there is no such file") from None
    except OSError as exc:
        raise FileProblem(shown, f"cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem(shown, "it is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(shown, "it is not a regular file (a pipe or a device)")
        if info.st_size > limit:
            raise FileProblem(shown, f"too large ({info.st_size:,} bytes; at most {limit:,})")
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
            raise FileProblem(shown, f"too large (over {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise FileProblem(shown, f"cannot be read ({exc.strerror})") from None
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


def _number(kind: type[int] | type[float], max_digits: int) -> Callable[[str], Any]:
    def parse(s: str) -> Any:
        # no more digits than characters: the count only for a long number (a server reads one an action)
        if len(s) > max_digits and sum(c.isdigit() for c in s) > max_digits:
            raise ValueError(f"a number with {sum(c.isdigit() for c in s):,} digits")
        return kind(s)

    return parse


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):  # a key twice: the first that comes again is named
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise ValueError(f"the key {escape(repr(key))} appears twice in one object")
            seen.add(key)
    return obj


_Scanner = Callable[[str, int], tuple[Any, int]]  # a ``JSONDecoder``'s ``scan_once``: a value at an index, and its end


@functools.cache
def _strict_scanner(max_digits: int) -> _Scanner:
    """The scanner of ``strict_json``'s decoder for ``max_digits``, made once: a server reads one
    message per action, and making the decoder cost most of the reading."""
    decoder = json.JSONDecoder(
        parse_int=_number(int, max_digits),
        parse_float=_number(float, max_digits),
        parse_constant=_constant,
        object_pairs_hook=_unique,
    )
    scanner: _Scanner = decoder.scan_once  # type: ignore[attr-defined]  # not in typeshed's JSONDecoder
    return scanner


_BLANK_JSON: Final = re.compile(r"[ \t\n\r]*")  # the whitespace JSON allows around a value (``json.decoder``'s)


def _decoded(scan: _Scanner, text: str) -> Any:
    """What ``JSONDecoder.decode`` of the decoder of ``scan`` gives for ``text``: the same value,
    the same errors at the same places, the scanner called directly (``decode`` and
    ``raw_decode`` cost two calls and two matches of the whitespace, a fifth of the reading of an
    action, where there is none to skip)."""
    index = 0 if text[:1] not in " \t\n\r" else _BLANK_JSON.match(text).end()  # type: ignore[union-attr]
    try:
        value, index = scan(text, index)
    except StopIteration as exc:
        raise json.JSONDecodeError("Expecting value", text, exc.value) from None
    if index != len(text):
        index = _BLANK_JSON.match(text, index).end()  # type: ignore[union-attr]
        if index != len(text):
            raise json.JSONDecodeError("Extra data", text, index)
    return value


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
    try:
        return _decoded(_strict_scanner(max_digits), text)
    except json.JSONDecodeError as exc:
        # Some of the parser's messages end in "at" themselves ("Unterminated string starting at").
        what = exc.msg.removesuffix(" at")
        raise ValueError(f"not valid JSON ({what} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError("not valid JSON for this program: nested too deeply") from None


CHAT_LENGTH: Final = 200
"""The longest line a person may say at a table, in characters (``chat_text``)."""


def chat_text(text: str) -> str:
    """A line said at a table (``net/chat.py``), made safe to show anywhere: every control,
    format (the bidirectional overrides among them, but the joiners of emoji), surrogate, private
    and unassigned character and every ignorable one is taken out, combining marks past
    ``MAX_MARKS`` on a letter are dropped, and runs of spaces become one.  What is left may be
    empty.

    >>> chat_text("  Well\\tplayed\\x1b[2J \\u202eevil\\x9b "), chat_text("\\u200b")
    ('Well played[2J evil', '')
    """
    out: list[str] = []
    run = 0
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if ch.isspace():
            out.append(" ")
            run = 0
            continue
        if (_unsafe(ch) or category in ("Co", "Cn") or _ignorable(ch) or ch in _BLANK) and ch not in "\u200d":
            continue
        if unicodedata.combining(ch) or category == "Me":
            run += 1
            if run > MAX_MARKS:
                continue
        else:
            run = 0
        out.append(ch)
    return " ".join("".join(out).split())
