"""Stepping Stones in OpenSpiel (the ``openspiel`` extra): the game as a pyspiel Python game, and
the lab's ``ismcts`` seat, OpenSpiel's own ``ISMCTSBot``.

Importing the package registers ``python_stepping_stones`` with pyspiel (``game.py``).  It sits
beside the lab, above everything it uses: the engine makes every move, ``ai.knowledge`` and
``ai.inference`` deal the hidden cards again, ``storage.records`` writes the record.  Nothing
below imports it; the lab reaches the ``ismcts`` seat by name, as it reaches any bot from
another package (``ai.outside``).
"""

from .bot import DEFAULT_SIMULATIONS, ISMCTSAgent, make_ismcts
from .game import GAME_NAME, GAME_TYPE, SteppingStonesGame, SteppingStonesState, rules_of

__all__ = [
    "DEFAULT_SIMULATIONS",
    "GAME_NAME",
    "GAME_TYPE",
    "ISMCTSAgent",
    "SteppingStonesGame",
    "SteppingStonesState",
    "make_ismcts",
    "rules_of",
]
