"""Words for what happened at the table: why a trick was won, and each event as a sentence
(the package's face).

Every front end (the terminal table, the plain line mode, the browser) tells
the same story in the same words, from the person's point of view: the person
is "You" and gets the second person ("You hold", "You win"), whatever name
they chose.  Nothing here decides a rule: the trick's winner comes from the
engine; this package only says why, in a player's words.

``teller`` has ``Teller``, the sentences about one table's players; ``lines`` the lines that sum
up a hand, a game and the scoresheet; ``saving`` the words for saving and resuming (a save that
could not be written or used, how far a game is), made from plain values for the save slots.

A layer of its own, just above the engine: it may import the engine's public face only, so
that the AI's analysis, the flow and every front end can speak in the same words.
"""

from .lines import (
    hand_of,
    plural,
    result_lines,
    sheet_lines,
    shell_lines,
    short_names,
    simulate_command,
    summary_lines,
)
from .teller import Teller

__all__ = [
    "Teller",
    "hand_of",
    "plural",
    "result_lines",
    "sheet_lines",
    "shell_lines",
    "short_names",
    "simulate_command",
    "summary_lines",
]
