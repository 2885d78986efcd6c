"""The flow of a game with a person at the table, for every front end (the package's face).

``game_flow.GameFlow`` runs a game on this machine; ``steps`` holds what a front end is told to do
next and the calls it makes on a flow (``TableFlow``); ``choosing`` the cursor, the bid being chosen
and the hint; ``publisher`` the one state per change handed to the subscribers (``Publisher``, for
``GameFlow`` and ``net.RemoteFlow`` alike); ``state`` the immutable ``TableState`` a front end draws.

May import: the engine's public face, ``explain``, ``ai``, ``game`` and ``storage``; never
Textual or a front end.  Imported by the front ends (``tui``, ``plain``), ``net`` and ``cli``.
"""

from .choosing import HINT_WORKING, NO_HINT, Choosing, HintRequest
from .game_flow import HINT_OUT_OF_TURN, TRICK_HOLD, GameFlow, level_of
from .publisher import Publisher
from .state import BidChoice, Event, TableState
from .steps import AiTurn, GameOver, HandSummary, NextStep, PersonTurn, TableFlow

__all__ = [
    "TRICK_HOLD",
    "AiTurn",
    "BidChoice",
    "Event",
    "GameOver",
    "GameFlow",
    "HandSummary",
    "HINT_OUT_OF_TURN",
    "HINT_WORKING",
    "NO_HINT",
    "Choosing",
    "HintRequest",
    "NextStep",
    "PersonTurn",
    "Publisher",
    "TableFlow",
    "TableState",
    "level_of",
]
