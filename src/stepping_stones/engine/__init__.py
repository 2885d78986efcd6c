"""The rules engine of Stepping Stones: pure Python, no user-interface imports.

The app, the AI seats, the replay command and the benchmark all go through
this package, and only through this public face: the rules are written here
once.

A card, a seat and a set of cards are ints, named ``Card``, ``Seat`` and ``Mask`` (aliases of
``int``, see ``cards.py``) so that a signature says which it takes.

Each module lists its public names once, in its own ``__all__``; this face re-exports them
all.  The cards, the contracts and the errors are loaded with the face; the game and its
hands, bids, views and scoring when one of their names is first asked for, so that the app's
setup screen (which needs only the contracts) appears sooner.  To add a public name, add it to
its module's ``__all__``.

>>> from random import Random
>>> from stepping_stones.engine import Game, Rules
>>> game = Game(Rules("advanced", short_game=True), first_forehand=2)
>>> _ = game.deal_hand(Random(3))
>>> game.bidder, [str(b) for b in game.legal_bids()[:3]]
(2, ['pass', 'win-last-6 9', 'win-last-6 1'])
"""

from importlib import import_module
from typing import TYPE_CHECKING

from . import cards, contracts, errors
from .cards import *  # noqa: F403 (each module's __all__ is the list of its public names)
from .contracts import *  # noqa: F403
from .errors import *  # noqa: F403

_LATER = ("bids", "hand", "log", "scoring", "refusals", "view", "game")
"""The modules loaded when one of their names is first asked for, in the order they import each other."""

if TYPE_CHECKING:  # mypy takes the names from these; at run time __getattr__ loads them
    from .bids import *  # noqa: F403
    from .game import *  # noqa: F403
    from .hand import *  # noqa: F403
    from .log import *  # noqa: F403
    from .scoring import *  # noqa: F403
    from .view import *  # noqa: F403

else:  # (hidden from mypy, which takes the names from the imports above)

    def __getattr__(name: str) -> object:
        """A name of the later modules: they are loaded in turn until one has it, and it is kept
        in this module; ``__all__``, every public name, loads them all."""
        if name == "__all__":
            names = [*cards.__all__, *contracts.__all__, *errors.__all__]
            names += [n for module in _LATER for n in import_module(f".{module}", __name__).__all__]
            globals()["__all__"] = names
            return names
        for module in _LATER:
            loaded = import_module(f".{module}", __name__)
            if name in loaded.__all__:
                value = getattr(loaded, name)
                globals()[name] = value
                return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *__getattr__("__all__")})
