"""The rules engine of Stepping Stones: pure Python, no user-interface imports.

The app, the AI seats, the replay command and the benchmark all go through
this package, and only through this public face: the rules are written here
once.

A card, a seat and a set of cards are ints, named ``Card``, ``Seat`` and ``Mask`` (aliases of
``int``, see ``cards.py``) so that a signature says which it takes.

The cards, the contracts and the errors are loaded with the face; the game and
its hands, bids, views and scoring when one of their names is first asked for,
so that the app's setup screen (which needs only the contracts) appears sooner.

>>> from random import Random
>>> from stepping_stones.engine import Game, Rules
>>> game = Game(Rules("advanced", short_game=True), first_forehand=2)
>>> _ = game.deal_hand(Random(3))
>>> game.bidder, [str(b) for b in game.legal_bids()[:3]]
(2, ['pass', 'win-last-6 9', 'win-last-6 1'])
"""

from importlib import import_module
from typing import TYPE_CHECKING

from .cards import (
    ABOVE,
    BIT,
    CARD_NAMES,
    FULL_DECK,
    HAND_SIZE,
    NINE_HIGH,
    NUM_CARDS,
    NUM_SEATS,
    NUM_SUITS,
    ONE_HIGH,
    RANK_OF,
    RANKINGS,
    STRENGTH,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    SUIT_SIZE,
    SUITS,
    TRICKS,
    Card,
    Mask,
    Seat,
    card,
    card_name,
    cards_of,
    deal,
    format_cards,
    mask_of,
    parse_card,
    parse_suit,
    record_cards,
    sorted_cards,
    strength,
)
from .contracts import (
    CONTRACT_SETS,
    CONTRACTS,
    DEFAULT_CUT,
    FOLLOW_SPECS,
    Contract,
    FollowRule,
    FollowSpec,
    Goal,
    Rules,
    legal_reply,
    trick_takers,
    trick_winner,
)
from .errors import (
    BidSyntaxError,
    CardNotHeldError,
    CardSyntaxError,
    ContractNotInPlayError,
    ContractRecordedError,
    GameOverError,
    IllegalActionError,
    IllegalBidError,
    IllegalCardError,
    InvalidDealError,
    MustBeatError,
    MustDeclareError,
    MustFollowError,
    NothingToPopError,
    RedoError,
    RulesError,
    SteppingStonesError,
    TrumpError,
    UnknownContractError,
    WrongPhaseError,
)

if TYPE_CHECKING:  # loaded when first asked for (see __getattr__ below)
    from .bids import PASS, Bid, Declaration, Pass, declare, parse_bid
    from .game import DEFAULT_PLAYERS, Game, Move, next_forehand, puddle_seat
    from .hand import NEXT, HandState, Trick, play_seats, trick_keys
    from .log import HandLog, Phase, bid_seat
    from .scoring import PLACE_POINTS, contract_points, score_results, sheet_firsts, sheet_totals, winners
    from .view import PastHand, PlayerView

_LAZY = {  # the modules loaded when one of their names is first asked for, and those names
    "bids": ("PASS", "Bid", "Declaration", "Pass", "declare", "parse_bid"),
    "game": ("DEFAULT_PLAYERS", "Game", "Move", "next_forehand", "puddle_seat"),
    "hand": ("NEXT", "HandState", "Trick", "play_seats", "trick_keys"),
    "log": ("HandLog", "Phase", "bid_seat"),
    "scoring": ("PLACE_POINTS", "contract_points", "score_results", "sheet_firsts", "sheet_totals", "winners"),
    "view": ("PastHand", "PlayerView"),
}
_MODULE_OF = {name: module for module, names in _LAZY.items() for name in names}


if not TYPE_CHECKING:  # (hidden from mypy, which takes the names from the imports above)

    def __getattr__(name: str) -> object:
        """A name of the game's modules: the module is loaded now, and the name kept in this one."""
        module = _MODULE_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE_OF})


__all__ = [
    "ABOVE",
    "BIT",
    "Bid",
    "BidSyntaxError",
    "bid_seat",
    "card",
    "Card",
    "card_name",
    "contract_points",
    "CARD_NAMES",
    "CardNotHeldError",
    "cards_of",
    "CardSyntaxError",
    "Contract",
    "CONTRACT_SETS",
    "ContractNotInPlayError",
    "ContractRecordedError",
    "CONTRACTS",
    "deal",
    "declare",
    "Declaration",
    "DEFAULT_CUT",
    "DEFAULT_PLAYERS",
    "FollowRule",
    "FOLLOW_SPECS",
    "FollowSpec",
    "legal_reply",
    "format_cards",
    "FULL_DECK",
    "Game",
    "GameOverError",
    "Goal",
    "HAND_SIZE",
    "HandLog",
    "HandState",
    "IllegalActionError",
    "IllegalBidError",
    "IllegalCardError",
    "InvalidDealError",
    "Mask",
    "mask_of",
    "MustBeatError",
    "MustDeclareError",
    "MustFollowError",
    "Move",
    "NEXT",
    "next_forehand",
    "NINE_HIGH",
    "NothingToPopError",
    "NUM_CARDS",
    "NUM_SEATS",
    "NUM_SUITS",
    "ONE_HIGH",
    "parse_bid",
    "parse_card",
    "parse_suit",
    "Pass",
    "PASS",
    "PastHand",
    "Phase",
    "PLACE_POINTS",
    "play_seats",
    "trick_keys",
    "trick_takers",
    "trick_winner",
    "PlayerView",
    "puddle_seat",
    "RANK_OF",
    "RANKINGS",
    "record_cards",
    "RedoError",
    "Rules",
    "RulesError",
    "score_results",
    "Seat",
    "sheet_firsts",
    "sheet_totals",
    "sorted_cards",
    "SteppingStonesError",
    "strength",
    "STRENGTH",
    "SUIT_MASK_OF",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "SUIT_OF",
    "SUIT_SIZE",
    "SUITS",
    "Trick",
    "TRICKS",
    "TrumpError",
    "UnknownContractError",
    "winners",
    "WrongPhaseError",
]
