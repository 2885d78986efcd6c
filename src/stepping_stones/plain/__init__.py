"""The plain line mode (``stepping-stones play --plain``, ``join --plain``): the whole game as
sentences, one a line (the package's face).

``plain_mode`` tells a game on this machine (``PlainTable``, ``PlainGame``, ``run``) and reads the
person's lines (``ByteLines``); ``remote`` tells a seat at a table server with the same table.

A front end: it may import everything below it (``flow``, ``storage``, ``game``, ``ai``,
``explain``, ``net``, the engine's public face), never Textual, ``tui`` or ``serve``.
"""

from .plain_mode import (
    HELP,
    LONGEST_WORD,
    MAX_INPUT_LINE,
    SAME_LEGAL,
    ByteLines,
    Hinter,
    Lines,
    Options,
    PlainGame,
    PlainTable,
    Quit,
    TooLong,
    expert_hint,
    introduce,
    run,
    start,
)

__all__ = [
    "HELP",
    "SAME_LEGAL",
    "LONGEST_WORD",
    "MAX_INPUT_LINE",
    "ByteLines",
    "Hinter",
    "Lines",
    "Options",
    "PlainGame",
    "PlainTable",
    "Quit",
    "TooLong",
    "expert_hint",
    "introduce",
    "run",
    "start",
]
