"""The rules engine of Stepping Stones: pure Python, no user-interface imports.

The TUI, the AI seats, the replay command and the benchmark all go through
this package; the rules are written here once.
"""

from .cards import (
    CARD_NAMES,
    FULL_DECK,
    NINE_HIGH,
    ONE_HIGH,
    RANKINGS,
    SUIT_NAMES,
    SUITS,
    CardSyntaxError,
    card,
    card_name,
    cards_of,
    deal,
    format_cards,
    mask_of,
    parse_card,
    parse_suit,
    sorted_cards,
)
from .contracts import (
    CONTRACT_SETS,
    CONTRACTS,
    DEFAULT_CUT,
    Contract,
    FollowRule,
    Goal,
    Rules,
    RulesError,
)
from .errors import (
    BidSyntaxError,
    CardNotHeldError,
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
    RedoError,
    SteppingStonesError,
    TrumpError,
    UnknownContractError,
    WrongPhaseError,
)
from .game import PASS, Bid, Game, HandLog, Phase, next_forehand, puddle_seat
from .hand import HandState
from .scoring import score_results, winners
from .view import PastHand, PlayerView

__all__ = [name for name in dir() if not name.startswith("_")]
