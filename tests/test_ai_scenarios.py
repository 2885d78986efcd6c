"""Positions where a thoughtful player knows what to do (or what never to do).

Each fixture is a short description of a position: the contract and ranking,
who declared, the cards this seat holds, the cards played so far.  The other
two hands are filled in by ``position`` with cards that agree with the plays
(a seat that showed out of a suit gets none of it); the AI never sees them.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest

from stepping_stones.ai import HeuristicAI
from stepping_stones.ai.knowledge import Knowledge
from stepping_stones.engine import (
    CONTRACTS,
    FULL_DECK,
    SUIT_MASKS,
    SUIT_OF,
    Bid,
    FollowRule,
    Game,
    HandState,
    Rules,
    card_name,
    cards_of,
    declare,
    mask_of,
    parse_bid,
    parse_card,
)

AI = HeuristicAI()


def cards(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def _set_of(contract_id: str) -> str:
    return "standard" if contract_id in Rules("standard").contract_ids else "advanced"


def position(
    seat: int,
    hand: str,
    declarer: int,
    bid: str,
    plays: str = "",
    others: dict[int, str] | None = None,
) -> Game:
    """A game in the play of its first hand: ``seat`` holds ``hand`` (12 cards at the deal).

    ``plays`` are the cards played so far, in order; the engine knows who plays
    each.  ``others`` may fix some cards of the other seats; the rest of the
    deck is dealt to them so that every play stays legal.
    """
    contract_id = parse_bid(bid).contract.id
    game = Game(Rules(_set_of(contract_id)), first_forehand=declarer)
    played = [parse_card(t) for t in plays.split()]
    # Who plays which card: replay the tricks on a HandState with the seat's own hand known.
    hands = [0, 0, 0]
    hands[seat] = cards(hand)
    assert hands[seat].bit_count() == 12, "the seat's hand must have 12 cards"
    for s, text in (others or {}).items():
        hands[s] |= cards(text)
    # Who plays each card, and which suits they show out of: the engine's own turn order.
    r = parse_bid(bid)
    contract = CONTRACTS[contract_id]
    probe = HandState([FULL_DECK] * 3, declarer, contract, r.ranking, r.trump)
    void = [0, 0, 0]
    for c in played:
        s = probe.turn
        trick = probe.current_trick()
        if trick:
            led = trick[0][1] // 9
            free_trump = contract.follow is FollowRule.MAY_TRUMP and SUIT_OF[c] == r.trump
            if c // 9 != led and not free_trump:
                void[s] |= SUIT_MASKS[led]
        if s != seat:
            hands[s] |= 1 << c
        probe.push(c)
    rest = FULL_DECK & ~hands[0] & ~hands[1] & ~hands[2]
    for c in cards_of(rest):
        for s in sorted((s for s in range(3) if s != seat), key=lambda s: hands[s].bit_count()):
            if hands[s].bit_count() < 12 and not void[s] >> c & 1:
                hands[s] |= 1 << c
                break
        else:
            raise AssertionError(f"cannot place {card_name(c)}")
    game.start_hand(tuple(hands))
    game.bid(parse_bid(bid))
    for c in played:
        game.play(c)
    return game


def card_for(game: Game, seed: int = 0) -> str:
    seat = game.to_act
    return card_name(AI.choose_card(game.view(seat), random.Random(seed)))


def bid_for(game: Game, seed: int = 0) -> Bid:
    seat = game.to_act
    return AI.choose_bid(game.view(seat), random.Random(seed))


# --- card play ------------------------------------------------------------------


class CardScenario(NamedTuple):
    """``seat`` holds ``hand`` (12 cards at the deal); ``declarer`` bid ``bid``; ``plays`` were
    played so far.  The seat to play must play ``must`` (if given) and none of ``must_not``;
    ``others`` fixes some cards of the other seats."""

    seat: int
    hand: str
    declarer: int
    bid: str
    plays: str
    must: str | None = None
    must_not: str | None = None
    others: dict[int, str] | None = None


CARD_SCENARIOS = {
    "win NT: defender does not overtake the other defender's winning card": CardScenario(
        seat=0,
        hand="K8 K2 C1 C2 C3 L1 L2 L3 B1 B2 B3 B4",
        declarer=1,
        bid="win-no-trump 9",
        plays="K3 K9",
        must="K2",
        must_not="K8",
    ),
    "win NT, 1 high: the 1 is the boss card": CardScenario(
        seat=0,
        hand="C1 C9 K5 K6 K7 L5 L6 L7 B5 B6 B7 B8",
        declarer=1,
        bid="win-no-trump 1",
        plays="C5 C7",
        must="C1",
        must_not="C9",
    ),
    "win NT, 1 high: the declarer leads its boss 1": CardScenario(
        seat=0, hand="C1 C9 K5 K6 K7 L5 L6 L7 B5 B6 B7 B8", declarer=0, bid="win-no-trump 1", plays="", must="C1"
    ),
    "win NT: the declarer wins with its cheapest winning card": CardScenario(
        seat=0,
        hand="C2 K9 K7 K2 L1 L2 L3 L4 B1 B2 B3 B4",
        declarer=0,
        bid="win-no-trump 9",
        plays="C2 C9 C3 K6 K4",
        must="K7",
    ),
    "win NT: the declarer who cannot win keeps its higher cards": CardScenario(
        seat=0,
        hand="C2 K5 K3 K2 L1 L2 L3 L4 B1 B2 B3 B4",
        declarer=0,
        bid="win-no-trump 9",
        plays="C2 C9 C3 K6 K4",
        must="K2",
    ),
    "win NT: second-hand defender takes the declarer's card, the partner cannot overtake it": CardScenario(
        seat=0, hand="K6 K2 C1 C2 C3 L1 L2 L3 B1 B2 B3 B4", declarer=2, bid="win-no-trump 9", plays="K5", must="K6"
    ),
    "win NT: second-hand defender ducks under the partner's boss": CardScenario(
        seat=0,
        hand="K8 K2 C1 C3 C4 L1 L2 L3 B1 B2 B3 B4",
        declarer=1,
        bid="win-no-trump 9",
        plays="C2 C9 C3 K9",
        must="K2",
        must_not="K8",
    ),
    "lose NT: the declarer ducks with its highest card under the winner": CardScenario(
        seat=0,
        hand="C2 K9 K7 K2 L1 L2 L3 L4 B1 B2 B3 B4",
        declarer=0,
        bid="lose-no-trump 9",
        plays="C2 C9 C3 K5 K8",
        must="K7",
        must_not="K9",
    ),
    "lose NT: a declarer forced to win takes it with its highest card": CardScenario(
        seat=0,
        hand="C2 K9 K8 L1 L2 L3 L4 B1 B2 B3 B4 B5",
        declarer=0,
        bid="lose-no-trump 9",
        plays="C2 C9 C3 K5 K3",
        must="K9",
    ),
    "lose NT: the defender does not overtake the declarer, and sheds its highest card under it": CardScenario(
        seat=0,
        hand="K8 K6 K5 C1 C2 C3 L1 L2 L3 B1 B2 B3",
        declarer=1,
        bid="lose-no-trump 9",
        plays="K7 K2",
        must="K6",
        must_not="K8",
    ),
    "lose NT: a void defender throws its most dangerous card": CardScenario(
        seat=0, hand="C9 C8 C1 L5 L4 L3 L2 B6 B5 B4 B3 B2", declarer=1, bid="lose-no-trump 9", plays="K7 K2", must="C9"
    ),
    "lose NT: the declarer never leads a top card": CardScenario(
        seat=0,
        hand="C1 C3 C9 K9 K8 K7 L9 L8 L7 B9 B8 B7",
        declarer=0,
        bid="lose-no-trump 9",
        plays="",
        must_not="C9 K9 K8 K7 L9 L8 L7 B9 B8 B7",
    ),
    "win pick trump: a void defender ruffs the declarer's winner with its lowest trump": CardScenario(
        seat=0,
        hand="C1 C2 C3 C4 L1 L2 L3 L4 B2 B5 B8 B9",
        declarer=1,
        bid="win-pick-trump 9 B",
        plays="K9 K2",
        must="B2",
    ),
    "win pick trump: the declarer overruffs as cheaply as it can": CardScenario(
        seat=0,
        hand="C2 C4 C5 C6 L1 L2 L3 L4 L5 B9 B6 B2",
        declarer=0,
        bid="win-pick-trump 9 B",
        plays="C2 C9 C3 K5 B4",
        must="B6",
        must_not="B9",
    ),
    "win pick trump: the declarer with long top trumps draws trumps first": CardScenario(
        seat=0,
        hand="B9 B8 B7 B6 B5 B4 C9 C8 K9 K8 L2 L3",
        declarer=0,
        bid="win-pick-trump 9 B",
        plays="",
        must_not="C9 C8 K9 K8 L2 L3",
    ),
    "lose pick trump: the void declarer discards a side card, never a trump": CardScenario(
        seat=0,
        hand="C1 L9 L8 L1 B1 B2 B3 C5 C6 C7 C8 L2",
        declarer=0,
        bid="lose-pick-trump 9 B",
        plays="C1 C9 C2 K5 K7",
        must="L9",
        must_not="B1 B2 B3",
    ),
    "lose pick trump, 1 high: the defender sheds its highest card that stays under the declarer": CardScenario(
        seat=0,
        hand="K1 K2 K4 K6 C5 C6 C7 L5 L6 L7 B5 B6",
        declarer=1,
        bid="lose-pick-trump 1 C",
        plays="K3 K8",
        must="K4",
        must_not="K1 K2",
    ),
    "win last 6: before trick 7 the declarer saves its winners": CardScenario(
        seat=0,
        hand="C2 K9 K6 K2 L1 L2 L3 L4 B1 B2 B3 B4",
        declarer=0,
        bid="win-last-6 9",
        plays="C2 C9 C3 K5 K3",
        must="K2",
        must_not="K9 K6",
    ),
    "win last 6: from trick 7 the declarer takes the trick, with its cheapest winner": CardScenario(
        seat=0,
        hand="C7 C8 C9 K7 K8 K9 L1 L2 L3 B1 B2 B3",
        declarer=0,
        bid="win-last-6 9",
        plays="L1 L4 L7 L8 L2 L5 L9 L3 L6 B7 B1 B4 B8 B2 B5 B9 B3 B6 C1",
        must="C7",
        others={1: "C4 C5 C6 K4 K5 K6 L4 L5 L6 B4 B5 B6", 2: "C1 C2 C3 K1 K2 K3 L7 L8 L9 B7 B8 B9"},
    ),
    "may trump: the declarer trumps in rather than follow with a loser": CardScenario(
        seat=0,
        hand="C2 K1 K3 B5 B6 L1 L2 L3 L4 C4 C5 C6",
        declarer=0,
        bid="may-trump 9 B",
        plays="C2 C9 C3 K8 K2",
        must="B5",
        must_not="K1 K3",
    ),
    "may trump: the defender trumps the declarer's winner though holding its suit": CardScenario(
        seat=0, hand="K3 K4 B7 C1 C2 C3 L1 L2 L3 L4 C4 C5", declarer=1, bid="may-trump 9 B", plays="K5 K2", must="B7"
    ),
    "must beat: a declarer forced to beat takes the trick with its highest card": CardScenario(
        seat=0,
        hand="C1 C6 C7 C8 C9 K6 K7 K8 K9 L1 L2 L3",
        declarer=0,
        bid="must-beat 9",
        plays="C1 C5 C3 K5 K2",
        must="K9",
    ),
    "must beat, 1 high: the declarer leads the card nobody can be forced under": CardScenario(
        seat=0, hand="C9 C1 K1 K2 L1 L2 B1 B2 B3 K3 L3 C2", declarer=0, bid="must-beat 1", plays="", must="C9"
    ),
}


@pytest.mark.parametrize("name", list(CARD_SCENARIOS))
def test_card_scenario(name):
    case = CARD_SCENARIOS[name]
    game = position(case.seat, case.hand, case.declarer, case.bid, case.plays, case.others)
    assert game.to_act == case.seat, "fixture error: the seat is not to play"
    for seed in range(3):
        chosen = card_for(game, seed)
        if case.must is not None:
            assert chosen == case.must, f"{name}: played {chosen}, expected {case.must}"
        if case.must_not is not None:
            assert chosen not in case.must_not.split(), f"{name}: played {chosen}"


# --- counting -----------------------------------------------------------------------


def test_must_beat_follower_who_did_not_beat_holds_nothing_above():
    # Seat 1 leads K5 in Must Beat; seat 2 follows K3: it cannot hold K6-K9.
    game = position(0, "C1 C2 C3 C4 L1 L2 L3 L4 B1 B2 B3 B4", 1, "must-beat 9", "K5 K3", {1: "K6 K7 K8 K9"})
    know = Knowledge(game.view(0))
    assert know.cannot[2] & cards("K6 K7 K8 K9") == cards("K6 K7 K8 K9")
    assert know.cannot[1] == 0
    for seed in range(30):
        layout = know.sample_layout(random.Random(seed))
        assert not layout[2] & cards("K6 K7 K8 K9")
        assert layout[1] | layout[2] == know.out and not layout[1] & layout[2]
        assert layout[2].bit_count() == 11 and layout[1].bit_count() == 11


def test_a_void_shown_is_never_dealt_that_suit_again():
    game = position(0, "C1 C2 C3 C4 L1 L2 L3 L4 B1 B2 B3 B4", 1, "lose-no-trump 1", "K5 C9")
    know = Knowledge(game.view(0))
    assert know.void[2] == SUIT_MASKS[1]
    for seed in range(30):
        assert not know.sample_layout(random.Random(seed))[2] & SUIT_MASKS[1]


def test_the_boss_of_a_suit_follows_the_ranking():
    game = position(0, "C2 C3 C4 K1 K5 L1 L2 L3 B1 B2 B3 B4", 1, "lose-no-trump 1", "C1 C5")
    know = Knowledge(game.view(0))
    assert know.is_boss(parse_card("C2")) and know.is_boss(parse_card("K1"))
    assert not know.is_boss(parse_card("K5"))


# --- bidding ------------------------------------------------------------------------


STANDARD = Rules()


def bidding_position(hand: str, rules: Rules = STANDARD, sheet: dict | None = None) -> Game:
    """Seat 0 is forehand in a fresh hand; ``sheet`` presets recorded results."""
    game = Game(rules, first_forehand=0)
    for cid, row in (sheet or {}).items():
        game.sheet[cid] = list(row)
    mine = cards(hand)
    rest = list(cards_of(FULL_DECK & ~mine))
    game.start_hand((mine, mask_of(rest[:12]), mask_of(rest[12:])))
    return game


TOPS_9 = "C9 C8 C7 K9 K8 K7 L9 L8 L7 B9 B8 B7"
TOPS_1 = "C1 C2 C3 K1 K2 K3 L1 L2 L3 B1 B2 B3"


@pytest.mark.parametrize("contract_set", ["standard", "advanced"])
def test_a_hand_of_nines_declares_a_win_contract_nine_high(contract_set):
    bid = bid_for(bidding_position(TOPS_9, Rules(contract_set)))
    assert not bid.is_pass
    contract = bid.contract
    assert contract.goal.value == "win" and bid.ranking == 9


@pytest.mark.parametrize("contract_set", ["standard", "advanced"])
def test_a_hand_rich_in_ones_and_twos_picks_one_high_to_win_or_nine_high_to_lose(contract_set):
    bid = bid_for(bidding_position(TOPS_1, Rules(contract_set)))
    assert not bid.is_pass
    goal = bid.contract.goal.value
    assert (goal, bid.ranking) in {("win", 1), ("lose", 9)}


def test_a_long_strong_suit_is_named_trump():
    bid = bid_for(bidding_position("K9 K8 K7 K6 K5 K4 C9 C1 L2 L3 B2 B4"))
    assert bid.contract.id == "win-pick-trump" and bid.trump == 1 and bid.ranking == 9


def test_an_ordinary_hand_passes_early_in_the_game():
    assert bid_for(bidding_position("C5 C4 C6 K5 K4 K6 L5 L4 L6 B5 B6 B4")).is_pass


def test_the_last_open_contract_is_declared_without_waiting_for_the_puddle():
    sheet = {
        "win-no-trump": (5, 6, 7),
        "win-pick-trump": (6, 7, 8),
        "lose-pick-trump": (3, 2, 4),
        "lose-no-trump": (None, 3, 3),
    }
    bid = bid_for(bidding_position("C5 C4 C6 K5 K4 K6 L5 L4 L6 B5 B6 B4", sheet=sheet))
    assert bid == declare("lose-no-trump", bid.ranking)


def test_a_redo_is_spent_on_a_poor_result_with_a_strong_hand():
    sheet = {"win-no-trump": (1, 6, 7), "win-pick-trump": (8, 6, 5)}
    bid = bid_for(bidding_position(TOPS_9, Rules("standard", redo_tokens=True), sheet))
    assert bid.redo and bid.contract.id == "win-no-trump" and bid.ranking == 9


def test_no_redo_on_a_good_result():
    sheet = {"win-no-trump": (9, 6, 7), "win-pick-trump": (8, 6, 5)}
    bid = bid_for(bidding_position("C5 C4 C6 K5 K4 K6 L5 L4 L6 B5 B6 B4", Rules("standard", redo_tokens=True), sheet))
    assert bid.is_pass or not bid.redo
