"""Why a bid or a card is refused, written once for the whole game and for one seat's view.

Every check here reads only what the seat to act may see: the open table (the phase, the sheet,
the redo tokens spent, the puddle, the trick on the table, the declaration) and the seat's own
cards.  ``Game.verify_bid`` and ``Game.verify_play`` call these with the game's state, and
``PlayerView.verify_bid`` and ``PlayerView.verify_play`` with the view's, so a seat at a table
server words the refusal of its bid or card exactly as a game on this machine does, without any
other seat's cards.

Each function returns the precise refusal (an ``IllegalActionError``, the caller raises it) or
None when the action is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .bids import Bid, Declaration, Pass
from .cards import (
    ABOVE,
    BIT,
    CARD_NAMES,
    NUM_CARDS,
    RANKINGS,
    STRENGTH,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    Card,
    Mask,
    Seat,
    format_cards,
)
from .contracts import CONTRACTS, FOLLOW_SPECS, Contract, Rules, legal_reply
from .errors import (
    BidSyntaxError,
    CardNotHeldError,
    ContractNotInPlayError,
    ContractRecordedError,
    GameOverError,
    IllegalBidError,
    IllegalCardError,
    MustBeatError,
    MustDeclareError,
    MustFollowError,
    RedoError,
    TrumpError,
    UnknownContractError,
    WrongPhaseError,
)
from .log import Phase

# Nothing here is public on its own: the game's and the view's ``verify_*`` are.
__all__: list[str] = []


def phase_refusal(
    phase: Phase,
    wanted: Phase | None,
    players: Sequence[str],
    hand_number: int,
    declarer: Seat | None,
    declaration: Declaration | None,
    bidder: Seat | None,
) -> WrongPhaseError:
    """The refusal of an action that belongs to phase ``wanted``, not to the current ``phase``."""
    if phase is Phase.OVER:
        return GameOverError("the game is over: every player has recorded every contract")
    if phase is Phase.DEAL:
        return WrongPhaseError("no hand is in progress: the next hand has not been dealt")
    if wanted is Phase.DEAL:
        return WrongPhaseError(f"hand {hand_number} is not finished yet")
    if phase is Phase.PLAY:
        assert declarer is not None and declaration is not None
        return WrongPhaseError(f"the bidding has ended: {players[declarer]} declared {declaration.describe()}")
    assert bidder is not None
    return WrongPhaseError(f"the bidding is not over: {players[bidder]} is to bid")


def turn_refusal(seat: Seat, to_act: Seat | None, players: Sequence[str], phase: Phase) -> WrongPhaseError | None:
    """The refusal of an action by ``seat`` while another seat is to act (None if it is its turn)."""
    if to_act is None or to_act == seat:
        return None
    doing = "bid" if phase is Phase.BIDDING else "play"
    return WrongPhaseError(f"{players[seat]} is not to {doing} now: {players[to_act]} is", seat)


def bid_refusal(
    bid: Bid,
    seat: Seat,
    players: Sequence[str],
    rules: Rules,
    sheet: Mapping[str, Sequence[int | None]],
    redo_spent: Sequence[bool],
    in_puddle: bool,
) -> IllegalBidError | None:
    """Why ``seat``, the bidder, may not make ``bid`` (None if it may): from the sheet, the redo
    tokens spent and whether the seat is in the puddle."""
    name = players[seat]
    if isinstance(bid, Pass):
        if in_puddle:
            return MustDeclareError(f"{name} is in the puddle and must declare one of their open contracts", seat)
        return None
    if not isinstance(bid, Declaration):
        return BidSyntaxError(f"{bid!r} is not a bid", seat)
    contract = bid.contract
    if not isinstance(contract, Contract) or CONTRACTS.get(contract.id) != contract:
        return UnknownContractError(f"there is no contract called {getattr(contract, 'id', contract)!r}", seat)
    row = sheet.get(contract.id)
    if row is None:
        if rules.omit == contract.id:
            return ContractNotInPlayError(f"{contract.name} is left out of this short game", seat)
        return ContractNotInPlayError(f"{contract.name} is not in the {rules.contract_set} set", seat)
    if bid.ranking not in RANKINGS or isinstance(bid.ranking, bool):
        return BidSyntaxError("the ranking must be 9 (9 high) or 1 (1 high)", seat)
    if contract.picks_trump and bid.trump is None:
        return TrumpError(f"{contract.name} needs a trump suit", seat)
    if not contract.picks_trump and bid.trump is not None:
        return TrumpError(f"{contract.name} has no trump suit", seat)
    if bid.trump is not None and (bid.trump not in range(4) or isinstance(bid.trump, bool)):
        return BidSyntaxError("the trump must be a suit", seat)
    if not isinstance(bid.redo, bool):
        return BidSyntaxError("a declaration spends a redo token or not (True or False)", seat)
    recorded = row[seat] is not None
    if bid.redo:
        if not rules.redo_tokens:
            return RedoError("redo tokens are not in use in this game", seat)
        if redo_spent[seat]:
            return RedoError(f"{name} has already spent their redo token", seat)
        if in_puddle:
            return RedoError(f"{name} is in the puddle and must declare an open contract, not a redo", seat)
        if not recorded:
            return RedoError(f"{name} has not recorded {contract.name} yet, so it cannot be redone", seat)
    elif recorded:
        # the seat has recorded this one, so a redo token it has not spent could be spent on it
        hint = " (only a redo token allows it again)" if rules.redo_tokens and not redo_spent[seat] else ""
        return ContractRecordedError(f"{name} has already recorded {contract.name}{hint}", seat)
    return None


def card_refusal(
    card: Card,
    seat: Seat,
    players: Sequence[str],
    hand: Mask,
    trick: Sequence[tuple[Seat, Card]],
    contract: Contract,
    ranking: int,
    trump: int | None,
) -> IllegalCardError | None:
    """Why ``seat``, to play, may not play ``card`` (None if it may): from the cards it holds
    (``hand``), the unfinished ``trick`` on the table (``(seat, card)`` in play order) and the
    declaration (its follow rule, ranking and trump)."""
    name = players[seat]
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < NUM_CARDS:
        return IllegalCardError(f"{card!r} is not a card", seat)
    bit = BIT[card]
    if not hand & bit:
        return CardNotHeldError(f"{name} does not hold {CARD_NAMES[card]}", seat, card)
    if not trick:
        return None  # a lead: any card held
    led_suit = SUIT_OF[trick[0][1]]
    holding = hand & SUIT_MASK_OF[trick[0][1]]
    best = max((c for _, c in trick if SUIT_OF[c] == led_suit), key=STRENGTH[ranking].__getitem__)
    spec = FOLLOW_SPECS[contract.follow]
    beat = ABOVE[ranking][best]  # the led-suit cards that beat the best one played so far
    trump_mask = 0 if trump is None else SUIT_MASKS[trump]
    if legal_reply(hand, SUIT_MASKS[led_suit], beat, trump_mask, spec) & bit:
        return None
    if spec.beat_led and holding & beat:
        return MustBeatError(
            f"{name} must beat {CARD_NAMES[best]} (holds {format_cards(holding & beat)})",
            seat,
            card,
            best,
            holding & beat,
        )
    if spec.trump_over and trump is not None and led_suit != trump:
        return MustFollowError(
            f"{name} must follow {SUIT_NAMES[led_suit]} or play a trump (holds {format_cards(holding)})",
            seat,
            card,
            led_suit,
            holding,
        )
    return MustFollowError(
        f"{name} must follow {SUIT_NAMES[led_suit]} (holds {format_cards(holding)})", seat, card, led_suit, holding
    )
