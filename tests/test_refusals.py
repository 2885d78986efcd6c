"""A refusal worded from a seat's view alone: ``PlayerView.verify_bid`` and ``verify_play`` refuse
exactly as the game does, a seat at a table server (``RemoteFlow``) words each kind of refused card
and bid as a game on this machine does, and its words do not depend on the other seats' cards."""

from __future__ import annotations

from random import Random

import pytest

from stepping_stones.ai import make_ai
from stepping_stones.engine import (
    CONTRACTS,
    NUM_CARDS,
    PASS,
    RANKINGS,
    BidSyntaxError,
    CardNotHeldError,
    ContractNotInPlayError,
    ContractRecordedError,
    Declaration,
    Game,
    GameOverError,
    IllegalActionError,
    IllegalCardError,
    MustBeatError,
    MustDeclareError,
    MustFollowError,
    Phase,
    RedoError,
    Rules,
    TrumpError,
    WrongPhaseError,
    cards_of,
)
from stepping_stones.explain import Teller
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.protocol import SeatFacts, StateMessage, Welcome
from stepping_stones.net.remote import RemoteFlow
from stepping_stones.net.wire import legal_actions
from stepping_stones.storage.records import game_from_record
from test_net_hidden import _redealt

SEAT = 1  # the person's seat at the server: the client turns it to seat 0
NAMES = ("Ann", "Bo", "Cy")


def _refusal(check, action) -> IllegalActionError | None:
    try:
        check(action)
    except IllegalActionError as exc:
        return exc
    return None


def _same(a: IllegalActionError | None, b: IllegalActionError | None) -> bool:
    return type(a) is type(b) and str(a) == str(b) and vars(a) == vars(b) if a is not None else b is None


def _bids() -> list:
    """Every bid of every contract (in the set or not), both redo flags, and some malformed ones."""
    bids: list = [PASS]
    for contract in CONTRACTS.values():
        for ranking in (*RANKINGS, 5):
            for trump in (None, 0, 3, 7):
                for redo in (False, True):
                    bids.append(Declaration(contract, ranking, trump, redo))
    return bids


@pytest.mark.parametrize(
    "rules",
    [
        Rules("standard"),
        Rules("advanced", short_game=True, redo_tokens=True),
        Rules("advanced", short_game=True, omit="must-beat"),
    ],
)
def test_the_view_refuses_every_bid_and_card_exactly_as_the_game_does(rules):
    """Whole games of random seats: at every bid and card, each seat's view refuses each bid and
    each card (held or not, and some that are no card) with the game's own exception, message and
    fields, and allows what the game allows."""
    bids = _bids()
    for seed in range(3):
        match = Match.new(rules, [make_ai("random")] * 3, Seeds(f"refusals-{seed}"), players=NAMES)
        while True:
            game = match.game
            if game.phase in (Phase.BIDDING, Phase.PLAY):
                view = game.view(game.to_act)
                for bid in bids:
                    assert _same(_refusal(game.verify_bid, bid), _refusal(view.verify_bid, bid)), bid
                for card in (*range(NUM_CARDS), -1, NUM_CARDS, True):
                    assert _same(_refusal(game.verify_play, card), _refusal(view.verify_play, card)), card
            if match.step() is Step.OVER:
                break
        view = match.game.view(0)  # over: both say so
        assert isinstance(_refusal(view.verify_play, 0), GameOverError)
        assert _same(_refusal(match.game.verify_bid, PASS), _refusal(view.verify_bid, PASS))


def test_a_view_refuses_an_action_out_of_its_turn_and_the_table_says_so_to_the_person():
    game = Game(Rules("standard"), NAMES, first_forehand=0)
    game.deal_hand(Random(1))
    refusal = _refusal(game.view(SEAT).verify_bid, PASS)
    assert isinstance(refusal, WrongPhaseError) and str(refusal) == "Bo is not to bid now: Ann is"
    assert _remote(game).why_not(PASS) == "You are not to bid now: Ann is."


# --- the same words on this machine and at a table ---------------------------------------------


def _remote(game: Game, seq: int = 7) -> RemoteFlow:
    """A client of a table server at ``SEAT``, given the state the server sends that seat."""
    welcome = Welcome(
        table="t" * 16, code="AAAAA-AAAAA", seat=SEAT, name=NAMES[SEAT], secret=None, opener=False, timeout=120.0
    )
    flow = RemoteFlow(welcome, lambda move, seq: None, file_games=False, auto_last_card=False)
    view = game.view(SEAT)
    seats = [SeatFacts(name=n, kind="human", level=None, connected=True, stand_in=False) for n in game.players]
    flow.receive(
        StateMessage.model_construct(
            seq=seq,
            started=True,
            seats=seats,
            help=False,
            view=view,
            legal=legal_actions(view),
            waiting=None,
        )
    )
    return flow


def _local_words(game: Game, action) -> str | None:
    """How a game on this machine words the refusal of the person's ``action`` (``GameFlow.why_not``)."""
    refusal = _refusal(game.verify_play if isinstance(action, int) else game.verify_bid, action)
    return None if refusal is None else Teller(game.players, game.to_act).refusal(refusal)


def _remote_words(game: Game, action) -> str | None:
    """How the client words it, both asked (``why_not``) and made (the state's refusal)."""
    flow = _remote(game)
    asked = flow.why_not(action)
    if isinstance(action, int) and not 0 <= action < NUM_CARDS:
        return asked  # no card: nothing a front end could make
    try:
        flow.play(action) if isinstance(action, int) else flow.bid(action)
    except IllegalActionError:
        assert flow.state.refusal == asked
    else:
        assert asked is None
    return asked


def _play_until(rules: Rules, declare, wanted: type, words: str) -> tuple[Game, int]:
    """A game where ``SEAT`` is to play and holds a card the rules refuse with ``wanted``, worded
    with ``words``: ``declare`` is the first bid, random cards are played until then."""
    for seed in range(200):
        game = Game(rules, NAMES, first_forehand=(SEAT + 1) % 3)
        game.deal_hand(Random(f"{words}-{seed}"))
        game.bid(declare)
        rng = Random(seed)
        while game.phase is Phase.PLAY:
            if game.to_act == SEAT:
                for card in cards_of(game.state.hands[SEAT]):
                    if type(_refusal(game.verify_play, card)) is wanted and words in (_local_words(game, card) or ""):
                        return game, card
            game.play(rng.choice(game.legal_cards()))
    raise AssertionError("no such position")


def _declaration(contract: str, ranking: int = 9, trump: int | None = None, redo: bool = False) -> Declaration:
    return Declaration(CONTRACTS[contract], ranking, trump, redo)


CARD_CASES = [
    ("must follow", Rules("standard"), _declaration("win-no-trump"), MustFollowError, "You must follow"),
    ("must follow or trump", Rules("advanced"), _declaration("may-trump", trump=1), MustFollowError, "or play a trump"),
    ("must beat", Rules("advanced"), _declaration("must-beat", ranking=1), MustBeatError, "You must beat"),
]


@pytest.mark.parametrize(
    ("rules", "declare", "wanted", "words"), [c[1:] for c in CARD_CASES], ids=[c[0] for c in CARD_CASES]
)
def test_a_refused_card_is_worded_the_same_on_this_machine_and_at_a_table(rules, declare, wanted, words):
    game, card = _play_until(rules, declare, wanted, words)
    local = _local_words(game, card)
    assert local is not None and words in local
    assert _remote_words(game, card) == local
    for other in cards_of(game.state.hands[SEAT]):  # and every other card held, refused or not
        assert _remote_words(game, other) == _local_words(game, other)


def test_a_card_not_held_or_out_of_phase_is_worded_the_same_on_this_machine_and_at_a_table():
    game, _ = _play_until(Rules("standard"), _declaration("win-no-trump"), MustFollowError, "You must follow")
    not_held = next(c for c in range(NUM_CARDS) if not game.state.hands[SEAT] >> c & 1)
    assert isinstance(_refusal(game.verify_play, not_held), CardNotHeldError)
    assert _remote_words(game, not_held) == _local_words(game, not_held) == f"You do not hold {_name(not_held)}."
    assert isinstance(_refusal(game.verify_play, 99), IllegalCardError)
    assert _remote_words(game, 99) == _local_words(game, 99) == "99 is not a card."
    bid = _remote_words(game, PASS)  # a bid while cards are played
    assert bid == _local_words(game, PASS) and bid is not None and bid.startswith("The bidding has ended")
    bidding = Game(Rules("standard"), NAMES, first_forehand=SEAT)
    bidding.deal_hand(Random(2))
    card = next(iter(cards_of(bidding.log[-1].deal[SEAT])))
    assert _remote_words(bidding, card) == _local_words(bidding, card) == "The bidding is not over: Bo is to bid."
    assert _remote_words(bidding, 99) == _local_words(bidding, 99)  # in the bidding the phase comes first


def _name(card: int) -> str:
    from stepping_stones.engine import CARD_NAMES

    return CARD_NAMES[card]


def _bidding(rules: Rules, before: int = 0, passes: int = 0) -> Game:
    """A game at ``SEAT``'s bid as the forehand: ``before`` hands played out first (in each, ``SEAT``
    declaring Win Tricks (No Trump)), then ``passes`` passes (three: ``SEAT`` is in the puddle)."""
    game = Game(rules, NAMES, first_forehand=(SEAT - before) % 3)
    rng = Random(f"bidding-{before}-{passes}")
    for _ in range(before):
        game.deal_hand(rng)
        while game.bidder != SEAT:
            game.bid(PASS)
        game.bid(_declaration("win-no-trump"))
        while game.phase is Phase.PLAY:
            game.play(rng.choice(game.legal_cards()))
    game.deal_hand(rng)
    assert game.forehand == SEAT
    for _ in range(passes):
        game.bid(PASS)
    assert game.bidder == SEAT
    return game


BID_CASES = [
    ("must declare", Rules("standard"), 0, 3, PASS, MustDeclareError),
    (
        "left out",
        Rules("standard", short_game=True, omit="lose-pick-trump"),
        0,
        0,
        _declaration("lose-pick-trump", trump=0),
        ContractNotInPlayError,
    ),
    ("not in the set", Rules("standard"), 0, 0, _declaration("must-beat"), ContractNotInPlayError),
    ("needs a trump", Rules("standard"), 0, 0, _declaration("win-pick-trump"), TrumpError),
    ("has no trump", Rules("standard"), 0, 0, _declaration("win-no-trump", trump=2), TrumpError),
    ("bad ranking", Rules("standard"), 0, 0, _declaration("win-no-trump", ranking=5), BidSyntaxError),
    ("recorded", Rules("standard"), 1, 0, _declaration("win-no-trump"), ContractRecordedError),
    (
        "recorded, a redo left",
        Rules("standard", redo_tokens=True),
        1,
        0,
        _declaration("win-no-trump"),
        ContractRecordedError,
    ),
    ("no redo tokens", Rules("standard"), 1, 0, _declaration("win-no-trump", redo=True), RedoError),
    (
        "redo not recorded",
        Rules("standard", redo_tokens=True),
        1,
        0,
        _declaration("lose-no-trump", redo=True),
        RedoError,
    ),
    (
        "redo in the puddle",
        Rules("standard", redo_tokens=True),
        1,
        3,
        _declaration("win-no-trump", redo=True),
        RedoError,
    ),
]


@pytest.mark.parametrize(
    ("rules", "before", "passes", "bid", "wanted"), [c[1:] for c in BID_CASES], ids=[c[0] for c in BID_CASES]
)
def test_a_refused_bid_is_worded_the_same_on_this_machine_and_at_a_table(rules, before, passes, bid, wanted):
    game = _bidding(rules, before, passes)
    assert type(_refusal(game.verify_bid, bid)) is wanted
    local = _local_words(game, bid)
    assert local is not None and _remote_words(game, bid) == local
    assert ("only a redo token" in local) == (rules.redo_tokens and wanted is ContractRecordedError)


def test_a_redo_already_spent_is_worded_the_same_on_this_machine_and_at_a_table():
    rules = Rules("standard", redo_tokens=True)
    game = _bidding(rules, before=1)
    game.bid(_declaration("win-no-trump", redo=True))  # the token spent
    rng = Random(5)
    while game.phase is Phase.PLAY:
        game.play(rng.choice(game.legal_cards()))
    game.deal_hand(rng)
    while game.bidder != SEAT:
        game.bid(PASS)
    bid = _declaration("win-no-trump", redo=True)
    assert isinstance(_refusal(game.verify_bid, bid), RedoError)
    local = _local_words(game, bid)
    assert local == "You have already spent your redo token." and _remote_words(game, bid) == local


# --- nothing of the other seats' cards -------------------------------------------------------------


@pytest.mark.parametrize(("rules", "declare", "wanted"), [c[1:4] for c in CARD_CASES], ids=[c[0] for c in CARD_CASES])
def test_the_tables_words_for_a_refusal_do_not_depend_on_the_other_seats_cards(rules, declare, wanted):
    """The same position with the cards the seat has not seen dealt again to the other two seats:
    the client words every card and bid the same (and the game on this machine does too)."""
    words_of = {MustFollowError: "You must", MustBeatError: "You must beat"}
    game, _ = _play_until(rules, declare, wanted, words_of[wanted])
    others = []
    rng = Random(11)
    for _ in range(3):
        record = _redealt(game, SEAT, rng)
        assert record is not None
        others.append(game_from_record(record))
    assert all(o.state.hands != game.state.hands for o in others)
    actions = [*range(NUM_CARDS), PASS, _declaration("win-no-trump")]
    words = [_remote_words(game, a) for a in actions]
    assert any(w is not None and w.startswith("You must") for w in words)
    for other in others:
        assert [_remote_words(other, a) for a in actions] == words
        assert [_local_words(other, a) for a in actions] == words
