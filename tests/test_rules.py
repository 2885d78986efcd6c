"""One test per rule of docs/rules.md (the rules as this program plays them)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from conftest import cards, ladder, play_hand, play_out, same_bands
from stepping_stones.engine import (
    CARD_NAMES,
    CONTRACTS,
    PASS,
    CardNotHeldError,
    ContractNotInPlayError,
    ContractRecordedError,
    Declaration,
    Game,
    GameOverError,
    Goal,
    HandState,
    InvalidDealError,
    MustBeatError,
    MustDeclareError,
    MustFollowError,
    NothingToPopError,
    Phase,
    RedoError,
    Rules,
    RulesError,
    TrumpError,
    UnknownContractError,
    WrongPhaseError,
    cards_of,
    deal,
    declare,
    next_forehand,
    parse_bid,
    parse_card,
    puddle_seat,
    score_results,
    winners,
)
from stepping_stones.game.match import Seeds, drive

C = parse_card


def hand_state(hands: list[str], contract: str, ranking: int = 9, trump: str | None = None, declarer: int = 0):
    masks = [cards(h) for h in hands]
    t = None if trump is None else "CKLB".index(trump)
    return HandState(masks, declarer, CONTRACTS[contract], ranking, t)


def legal(state: HandState) -> set[str]:
    return {CARD_NAMES[c] for c in cards_of(state.legal_mask())}


def play(state: HandState, *names: str) -> None:
    for n in names:
        assert state.legal_mask() & (1 << C(n)), f"{n} should be legal"
        state.push(C(n))


# --- table and cards ------------------------------------------------------------


def test_deal_gives_12_distinct_cards_to_each_seat_and_replays_from_the_seed():
    hands = deal(random.Random(42))
    assert [h.bit_count() for h in hands] == [12, 12, 12]
    assert hands[0] | hands[1] | hands[2] == (1 << 36) - 1
    assert hands == deal(random.Random(42))
    assert hands != deal(random.Random(43))


def test_a_game_needs_exactly_three_players():
    with pytest.raises(ValueError):
        Game(Rules(), ("A", "B"))


# --- ranking --------------------------------------------------------------------


def test_nine_high_the_nine_wins():
    s = hand_state(["K8", "K9", "K1"], "win-no-trump", 9)
    play(s, "K8", "K9", "K1")
    assert s.winners == [1]


def test_one_high_the_one_wins_and_a_three_beats_a_five():
    s = hand_state(["K8", "K9", "K1"], "win-no-trump", 1)
    play(s, "K8", "K9", "K1")
    assert s.winners == [2]
    s = hand_state(["K5", "K3", "K9"], "win-no-trump", 1)
    play(s, "K5", "K3", "K9")
    assert s.winners == [1]


@pytest.mark.parametrize("ranking, winner", [(9, 1), (1, 2)])
def test_the_ranking_holds_inside_the_trump_suit(ranking, winner):
    s = hand_state(["K5", "C2", "C1"], "win-pick-trump", ranking, "C")
    play(s, "K5", "C2", "C1")
    assert s.winners == [winner]


# --- trick winner -----------------------------------------------------------------


def test_any_trump_beats_the_led_suit():
    s = hand_state(["K9", "C1", "K8"], "win-pick-trump", 9, "C")
    play(s, "K9", "C1", "K8")
    assert s.winners == [1]


def test_cards_of_other_suits_never_win():
    s = hand_state(["K1", "L9", "B9"], "win-no-trump", 9)
    play(s, "K1", "L9", "B9")
    assert s.winners == [0]


def test_declarer_leads_the_first_trick_and_the_winner_leads_the_next(game):
    play_hand_start = same_bands(0, 1, 2)  # seat 2 holds every 7-9
    game.start_hand(play_hand_start)
    game.bid(PASS)
    game.bid(parse_bid("win-no-trump 9"))
    assert game.state.turn == 1 == game.hand.declarer
    for _ in range(3):
        game.play(game.legal_cards()[0])
    assert game.state.winners == [2]
    assert game.to_act == 2


# --- follow rules -----------------------------------------------------------------


def test_standard_must_follow_but_need_not_beat():
    s = hand_state(["K9", "K4 K8 C1", "C2"], "win-no-trump")
    play(s, "K9")
    assert legal(s) == {"K4", "K8"}


def test_standard_void_player_may_play_anything():
    s = hand_state(["K9", "C1 L2 B3", "K1"], "win-no-trump")
    play(s, "K9")
    assert legal(s) == {"C1", "L2", "B3"}


def test_standard_refusal_names_player_suit_and_holding():
    deal_ = (
        cards("K1 K2 K3 K5 K6 K7 K9 C1 C2 C3 C4 C5"),
        cards("L7 L8 L9 B1 B2 B3 B4 B5 B6 B7 B8 B9"),
        cards("K4 K8 C6 C7 C8 C9 L1 L2 L3 L4 L5 L6"),
    )
    game = Game(Rules(), ("Ann", "Hana", "Kenji"), 0)
    game.start_hand(deal_)
    game.bid(parse_bid("win-no-trump 9"))
    game.play(C("K9"))
    game.play(C("B1"))
    with pytest.raises(MustFollowError) as info:
        game.play(C("C6"))
    assert str(info.value) == "Kenji must follow Koi (holds K4, K8)"
    assert info.value.seat == 2 and info.value.card == C("C6") and info.value.suit == 1
    with pytest.raises(CardNotHeldError, match="Kenji does not hold K9"):
        game.play(C("K9"))


def test_may_trump_allows_a_trump_while_holding_the_led_suit():
    s = hand_state(["K9", "K4 L2 C3", "K1"], "may-trump", 9, "L")
    play(s, "K9")
    assert legal(s) == {"K4", "L2"}


def test_may_trump_when_trump_is_led_followers_must_follow_trump():
    s = hand_state(["L9", "K4 L2 C3", "L1"], "may-trump", 9, "L")
    play(s, "L9")
    assert legal(s) == {"L2"}


def test_may_trump_a_void_player_plays_anything():
    s = hand_state(["K9", "C3 B2", "K1"], "may-trump", 9, "L")
    play(s, "K9")
    assert legal(s) == {"C3", "B2"}


def test_standard_trump_contract_does_not_allow_trumping_while_holding_the_led_suit():
    s = hand_state(["K9", "K4 L2 C3", "K1"], "win-pick-trump", 9, "L")
    play(s, "K9")
    assert legal(s) == {"K4"}


def test_must_beat_nine_high():
    s = hand_state(["K5", "K3 K7 K8", "K6 K9 K2"], "must-beat", 9)
    play(s, "K5")
    assert legal(s) == {"K7", "K8"}
    play(s, "K7")
    assert legal(s) == {"K9"}  # must beat the best so far, K7


def test_must_beat_one_high():
    s = hand_state(["K5", "K3 K7 K8", "K1 K2 K9"], "must-beat", 1)
    play(s, "K5")
    assert legal(s) == {"K3"}
    play(s, "K3")
    assert legal(s) == {"K1", "K2"}


def test_must_beat_a_player_who_cannot_beat_plays_any_card_of_the_led_suit():
    s = hand_state(["K7", "K2 K6 C1", "C2"], "must-beat", 9)
    play(s, "K7")
    assert legal(s) == {"K2", "K6"}


def test_must_beat_a_void_player_plays_anything():
    s = hand_state(["K7", "C1 L2", "C2"], "must-beat", 9)
    play(s, "K7")
    assert legal(s) == {"C1", "L2"}


def test_must_beat_refusal_names_the_card_to_beat():
    deal_ = (
        cards("K5 C1 C2 C3 C4 C5 C6 C7 C8 C9 L1 L2"),
        cards("K3 K7 K8 L3 L4 L5 L6 L7 L8 L9 B1 B2"),
        cards("K1 K2 K4 K6 K9 B3 B4 B5 B6 B7 B8 B9"),
    )
    game = Game(Rules("advanced"), ("Ann", "Hana", "Kenji"), 0)
    game.start_hand(deal_)
    game.bid(parse_bid("must-beat 9"))
    game.play(C("K5"))
    with pytest.raises(MustBeatError) as info:
        game.play(C("K3"))
    assert str(info.value) == "Hana must beat K5 (holds K7, K8)"
    with pytest.raises(MustBeatError):
        game.play(C("L3"))  # a card of another suit does not help either
    game.play(C("K7"))
    with pytest.raises(MustBeatError, match="Kenji must beat K7 \\(holds K9\\)"):
        game.play(C("K4"))


# --- counting ---------------------------------------------------------------------

# Declarer (seat 0) holds the top band in L and B only: they lose tricks 1-6 in C and K and
# take tricks 7-12.
LATE = ladder((0, 2, 1), (0, 2, 1), (1, 2, 0), (1, 2, 0))
# Declarer holds the top band in C and K only: they take tricks 1-6 and lose 7-12.
EARLY = ladder((1, 2, 0), (1, 2, 0), (0, 2, 1), (0, 2, 1))


def test_win_last_6_counts_only_tricks_7_to_12():
    game = Game(Rules("advanced"), first_forehand=0)
    play_hand(game, LATE, "win-last-6 9")
    assert game.hand.state.tricks_won(0) == 6
    assert game.hand.result == 6 == game.sheet["win-last-6"][0]
    game2 = Game(Rules("advanced"), first_forehand=0)
    play_hand(game2, EARLY, "win-last-6 9")
    assert game2.hand.state.tricks_won(0) == 6
    assert game2.hand.result == 0 == game2.sheet["win-last-6"][0]


def test_only_the_declarer_result_is_written(game):
    play_hand(game, EARLY, "win-no-trump 9")
    assert game.sheet["win-no-trump"] == [6, None, None]
    assert all(row == [None, None, None] for cid, row in game.sheet.items() if cid != "win-no-trump")


# --- bidding, puddle, forehand ------------------------------------------------------


def test_bidding_starts_with_the_forehand_and_goes_clockwise():
    game = Game(Rules(), first_forehand=2)
    game.deal_hand(random.Random(1))
    assert game.bidder == 2
    game.bid(PASS)
    assert game.bidder == 0
    game.bid(PASS)
    assert game.bidder == 1


def test_the_first_bid_ends_the_bidding(game):
    game.deal_hand(random.Random(1))
    game.bid(PASS)
    game.bid(parse_bid("lose-no-trump 1"))
    assert game.phase is Phase.PLAY and game.hand.declarer == 1
    with pytest.raises(WrongPhaseError, match="the bidding has ended: Hana declared"):
        game.bid(PASS)


def test_all_three_pass_puts_the_forehand_in_the_puddle(game):
    game.deal_hand(random.Random(1))
    for _ in range(3):
        game.bid(PASS)
    assert game.in_puddle and game.bidder == 0
    with pytest.raises(MustDeclareError, match="Ann is in the puddle"):
        game.bid(PASS)
    assert PASS not in game.legal_bids()
    game.bid(parse_bid("win-pick-trump 1 B"))
    assert game.hand.puddle and game.hand.declarer == 0


def test_the_puddle_moves_past_players_with_nothing_open():
    assert puddle_seat(0, [True, True, True]) == 0
    assert puddle_seat(0, [False, False, True]) == 2
    assert puddle_seat(1, [True, False, False]) == 0
    assert puddle_seat(2, [False, True, False]) == 1


def test_the_forehand_card_moves_clockwise_skipping_players_with_nothing_open():
    assert next_forehand(0, [True, True, True]) == 1
    assert next_forehand(0, [True, False, True]) == 2
    assert next_forehand(1, [True, True, False]) == 0
    assert next_forehand(1, [False, True, False]) == 1
    assert next_forehand(1, [False, False, False]) is None


def test_in_a_game_the_forehand_skips_a_finished_player_who_then_passes_automatically():
    # Short standard game: three contracts each.  Hana declares in hands 1-3 and is done.
    game = Game(Rules(short_game=True), ("Ann", "Hana", "Kenji"), 0)
    deal_ = same_bands(0, 1, 2)
    play_hand(game, deal_, "pass", "win-pick-trump 9 C")  # forehand Ann
    play_hand(game, deal_, "lose-no-trump 9")  # forehand Hana
    play_hand(game, deal_, "pass", "pass", "lose-pick-trump 9 K")  # forehand Kenji; Hana declares
    assert not game.has_open(1)
    assert [h.forehand for h in game.log] == [0, 1, 2]
    game.start_hand(deal_)
    assert game.hand.forehand == 0
    game.bid(PASS)  # Ann passes; Hana has nothing to declare and passes by herself
    assert [str(b) for b in game.hand.bids] == ["pass", "pass"]
    assert game.bidder == 2
    game.bid(parse_bid("win-pick-trump 9 C"))
    play_out(game)
    assert game.forehand == 2  # clockwise from Ann, Hana is skipped


# --- bids that are refused ------------------------------------------------------------


def test_bids_of_contracts_outside_the_game_are_refused(game):
    game.deal_hand(random.Random(3))
    with pytest.raises(ContractNotInPlayError, match="Must Beat is not in the standard set"):
        game.bid(declare("must-beat", 9))
    with pytest.raises(UnknownContractError):
        game.bid(declare("win-everything", 9))
    forged = Declaration(replace(CONTRACTS["win-no-trump"], first_counted=2), 9)
    with pytest.raises(UnknownContractError):
        game.bid(forged)
    short = Game(Rules(short_game=True))
    short.deal_hand(random.Random(3))
    with pytest.raises(ContractNotInPlayError, match="left out of this short game"):
        short.bid(declare("win-no-trump", 9))


def test_trump_is_named_exactly_when_the_contract_picks_it(game):
    game.deal_hand(random.Random(3))
    with pytest.raises(TrumpError, match="needs a trump suit"):
        game.bid(declare("win-pick-trump", 9))
    with pytest.raises(TrumpError, match="has no trump suit"):
        game.bid(declare("win-no-trump", 9, 2))


def test_a_recorded_contract_cannot_be_declared_again(game):
    play_hand(game, same_bands(1, 2, 0), "win-no-trump 9")
    game.start_hand(same_bands(1, 2, 0))
    game.bid(PASS)
    game.bid(PASS)
    with pytest.raises(ContractRecordedError, match="Ann has already recorded Win Tricks"):
        game.bid(declare("win-no-trump", 9))


# --- redo tokens ------------------------------------------------------------------------


def win(declarer: int) -> tuple[int, int, int]:
    """A deal where ``declarer`` takes all 12 tricks at 9 high."""
    others = [s for s in range(3) if s != declarer]
    return same_bands(others[0], others[1], declarer)


def lose(declarer: int) -> tuple[int, int, int]:
    """A deal where ``declarer`` takes no trick at 9 high."""
    others = [s for s in range(3) if s != declarer]
    return same_bands(declarer, others[0], others[1])


def half(declarer: int) -> tuple[int, int, int]:
    """A deal where ``declarer`` takes exactly 6 tricks at 9 high (tops in C and K)."""
    a, b = [s for s in range(3) if s != declarer]
    return ladder((a, b, declarer), (a, b, declarer), (declarer, a, b), (declarer, a, b))


def redo_game() -> Game:
    return Game(Rules(redo_tokens=True), ("Ann", "Hana", "Kenji"), 0)


def test_redo_is_refused_when_tokens_are_off(game):
    play_hand(game, lose(0), "win-no-trump 9")
    game.start_hand(lose(1))
    game.bid(PASS)
    game.bid(PASS)
    game.bid(PASS)
    game.bid(parse_bid("win-pick-trump 9 C"))
    play_out(game)
    game.start_hand(lose(2))
    game.bid(PASS)  # Kenji (forehand)
    with pytest.raises(RedoError, match="redo tokens are not in use"):
        game.bid(parse_bid("win-no-trump 9 redo"))


def test_redo_needs_a_recorded_contract_and_is_spent_once():
    game = redo_game()
    game.start_hand(lose(0))
    with pytest.raises(RedoError, match="has not recorded"):
        game.bid(parse_bid("win-no-trump 9 redo"))
    game.bid(parse_bid("win-no-trump 9"))
    play_out(game)
    # Hand 2, forehand Hana: she passes, Kenji passes, Ann redoes.
    game.start_hand(win(0))
    game.bid(PASS)
    game.bid(PASS)
    assert game.has_redo(0)
    assert parse_bid("win-no-trump 9 redo") in game.legal_bids()
    game.bid(parse_bid("win-no-trump 9 redo"))
    play_out(game)
    assert game.redo_spent == [True, False, False]
    game.start_hand(lose(2))  # Kenji's forehand
    game.bid(PASS)
    with pytest.raises(RedoError, match="Ann has already spent their redo token"):
        game.bid(parse_bid("win-no-trump 9 redo"))


def test_redo_is_never_forced_and_is_not_allowed_in_the_puddle():
    game = redo_game()
    play_hand(game, lose(0), "win-no-trump 9")
    game.start_hand(lose(1))  # forehand Hana
    for _ in range(3):
        game.bid(PASS)
    assert game.bidder == 1 and game.in_puddle
    with pytest.raises(RedoError):
        game.bid(parse_bid("win-no-trump 9 redo"))  # Hana has not recorded it anyway
    assert all(not b.redo for b in game.legal_bids())


def test_a_player_left_with_only_a_redo_token_may_pass_and_is_not_forced():
    # Short standard game, tokens on: Hana records her three contracts in hands 1-3.
    game = Game(Rules(short_game=True, redo_tokens=True), ("Ann", "Hana", "Kenji"), 0)
    play_hand(game, lose(1), "pass", "win-pick-trump 9 C")
    play_hand(game, lose(1), "lose-no-trump 9")
    play_hand(game, lose(1), "pass", "pass", "lose-pick-trump 9 C")
    game.start_hand(lose(0))  # forehand Ann
    game.bid(PASS)
    assert game.bidder == 1  # no automatic pass: Hana may spend her token
    assert PASS in game.legal_bids() and all(b.redo for b in game.legal_bids() if not b.is_pass)
    game.bid(PASS)
    game.bid(PASS)
    assert game.in_puddle and game.bidder == 0  # the puddle is Ann's, never Hana's


def test_a_redo_keeps_the_better_result_and_rescores_a_scored_contract():
    game = redo_game()
    play_hand(game, lose(0), "win-no-trump 9")  # Ann 0
    play_hand(game, win(1), "win-no-trump 9")  # Hana 12
    play_hand(game, half(2), "win-no-trump 9")  # Kenji 6
    assert game.sheet["win-no-trump"] == [0, 12, 6]
    assert game.points("win-no-trump") == [-1, 3, 1]
    game.start_hand(win(0))  # forehand Ann again
    game.bid(parse_bid("win-no-trump 9 redo"))
    play_out(game)
    assert game.hand.result == 12
    assert game.sheet["win-no-trump"] == [12, 12, 6]
    assert game.points("win-no-trump") == [2, 2, -1]
    assert game.totals() == [2, 2, -1]


def test_a_redo_that_does_not_improve_leaves_the_old_result():
    game = redo_game()
    play_hand(game, half(0), "lose-no-trump 9")  # Ann takes 6 in a Lose contract
    game.start_hand(win(0))  # forehand Hana
    game.bid(PASS)
    game.bid(PASS)
    game.bid(parse_bid("lose-no-trump 9 redo"))  # Ann redoes and takes all 12: worse
    play_out(game)
    assert game.hand.result == 12
    assert game.sheet["lose-no-trump"] == [6, None, None]
    assert game.redo_spent[0]


# --- scoring ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "results, goal, points, firsts",
    [
        ([12, 6, 0], Goal.WIN, [3, 1, -1], [True, False, False]),
        ([0, 6, 12], Goal.LOSE, [3, 1, -1], [True, False, False]),
        ([7, 7, 3], Goal.WIN, [2, 2, -1], [True, True, False]),
        ([7, 3, 3], Goal.WIN, [3, 0, 0], [True, False, False]),
        ([5, 5, 5], Goal.LOSE, [1, 1, 1], [True, True, True]),
        ([2, 9, 2], Goal.LOSE, [2, -1, 2], [True, False, True]),
        ([2, 9, 9], Goal.LOSE, [3, 0, 0], [True, False, False]),
    ],
)
def test_places_pay_3_1_minus_1_and_ties_split(results, goal, points, firsts):
    assert score_results(results, goal) == (points, firsts)
    assert sum(points) == 3


def test_a_contract_is_scored_once_all_three_recorded_it(game):
    play_hand(game, win(0), "win-no-trump 9")
    play_hand(game, win(1), "win-no-trump 9")
    assert game.points("win-no-trump") is None
    assert game.totals() == [0, 0, 0]
    play_hand(game, lose(2), "win-no-trump 9")
    assert game.points("win-no-trump") == [2, 2, -1]


def test_winner_is_the_highest_total_then_most_firsts_then_shared():
    assert winners([5, 3, 1], [1, 2, 0]) == [0]
    assert winners([4, 4, 1], [1, 2, 0]) == [1]
    assert winners([4, 4, 1], [2, 2, 0]) == [0, 1]
    assert winners([3, 3, 3], [2, 1, 2]) == [0, 2]


def test_a_whole_short_game_with_every_tie_split_and_the_tie_break():
    game = Game(Rules(short_game=True), ("Ann", "Hana", "Kenji"), 0)
    # win-pick-trump: Ann 12, Hana 6, Kenji 0 -> 3, 1, -1
    play_hand(game, win(0), "win-pick-trump 9 C")
    play_hand(game, half(1), "win-pick-trump 9 K")
    play_hand(game, lose(2), "win-pick-trump 9 L")
    # lose-no-trump: Ann 12, Hana 6, Kenji 0 -> -1, 1, 3
    play_hand(game, win(0), "lose-no-trump 9")
    play_hand(game, half(1), "lose-no-trump 9")
    play_hand(game, lose(2), "lose-no-trump 9")
    # lose-pick-trump: all 0 -> 1, 1, 1
    play_hand(game, lose(0), "lose-pick-trump 9 B")
    play_hand(game, lose(1), "lose-pick-trump 9 B")
    assert not game.over
    play_hand(game, lose(2), "lose-pick-trump 9 B")
    assert game.over and len(game.log) == 9
    assert game.totals() == [3, 3, 3]
    assert game.firsts() == [2, 1, 2]
    assert game.winners() == [0, 2]  # tied on points; Hana has fewer firsts; Ann and Kenji share
    with pytest.raises(GameOverError):
        game.start_hand(win(0))


class FirstDeclarer:
    """A seat that declares its first open contract at once and plays its lowest legal card."""

    name = "first-declarer"

    def choose_bid(self, view, rng):
        return next(b for b in view.legal_bids if not b.is_pass)

    def choose_card(self, view, rng):
        return min(cards_of(view.legal_cards))


def test_a_standard_game_ends_after_twelve_hands(game):
    drive(game, [FirstDeclarer()] * 3, Seeds("5"))
    assert len(game.log) == 12
    assert all(None not in row for row in game.sheet.values())
    assert game.winners()
    with pytest.raises(GameOverError):
        game.bid(PASS)
    with pytest.raises(GameOverError):
        game.play(0)


# --- deals and options -----------------------------------------------------------------------


def test_a_deal_that_is_not_36_distinct_cards_is_refused(game):
    good = same_bands(0, 1, 2)
    with pytest.raises(InvalidDealError, match="dealt 11 cards"):
        game.start_hand((good[0] ^ 1, good[1], good[2]))
    with pytest.raises(InvalidDealError, match="dealt twice"):
        game.start_hand((good[0], good[0], good[2]))
    assert game.log == [] and game.phase is Phase.DEAL


def test_short_game_cuts_one_contract_default_or_chosen():
    assert Rules(short_game=True).contract_ids == ("win-pick-trump", "lose-no-trump", "lose-pick-trump")
    assert Rules("advanced", short_game=True).contract_ids == ("win-last-6", "may-trump", "must-beat")
    assert "must-beat" not in Rules("advanced", short_game=True, omit="must-beat").contract_ids
    with pytest.raises(RulesError):
        Rules(short_game=False, omit="win-no-trump")
    with pytest.raises(RulesError):
        Rules("standard", short_game=True, omit="must-beat")


def test_the_sets_are_never_mixed():
    assert set(Rules("standard").contract_ids).isdisjoint({"win-last-6", "may-trump", "must-beat"})
    assert set(Rules("advanced").contract_ids) == {"win-pick-trump", "win-last-6", "may-trump", "must-beat"}


def test_bids_are_refused_outside_the_bidding(game):
    with pytest.raises(WrongPhaseError, match="not been dealt"):
        game.bid(PASS)
    game.start_hand(same_bands(0, 1, 2))
    with pytest.raises(WrongPhaseError, match="bidding is not over: Ann is to bid"):
        game.play(0)


# --- taking moves back (Game.pop) -------------------------------------------------------------


def test_pop_with_nothing_played_is_refused_and_changes_nothing(game):
    assert not game.can_pop()
    with pytest.raises(NothingToPopError, match="nothing to take back: no hand has been dealt yet"):
        game.pop()
    assert game.log == [] and game.phase is Phase.DEAL and game.forehand == 0


def test_pop_takes_a_pass_back_with_the_passes_forced_after_it():
    # As in the forehand test above: Hana has nothing left to declare in hand 4.
    game = Game(Rules(short_game=True), ("Ann", "Hana", "Kenji"), 0)
    deal_ = same_bands(0, 1, 2)
    play_hand(game, deal_, "pass", "win-pick-trump 9 C")
    play_hand(game, deal_, "lose-no-trump 9")
    play_hand(game, deal_, "pass", "pass", "lose-pick-trump 9 K")
    game.start_hand(deal_)  # forehand Ann
    game.bid(PASS)  # and Hana's forced pass
    assert game.pop() == PASS
    assert game.hand.bids == [] and game.bidder == 0
    game.bid(PASS)
    game.bid(PASS)  # Kenji passes: the puddle is Ann's
    assert game.in_puddle and game.bidder == 0
    game.bid(parse_bid("lose-no-trump 1"))
    assert str(game.pop()) == "lose-no-trump 1"
    assert game.in_puddle and game.bidder == 0 and not game.hand.declared
    assert [game.pop(), game.pop()] == [PASS, PASS]
    assert game.pop() == deal_
    assert len(game.log) == 3 and game.phase is Phase.DEAL and game.forehand == 0
    # Hana's forced pass as the last of the three: taking back Ann's pass takes the puddle too.
    game = Game(Rules(short_game=True), ("Ann", "Hana", "Kenji"), 1)
    play_hand(game, deal_, "win-pick-trump 9 C")  # forehand Hana
    play_hand(game, deal_, "pass", "pass", "lose-no-trump 9")  # forehand Kenji
    play_hand(game, deal_, "pass", "lose-pick-trump 9 K")  # forehand Ann
    assert not game.has_open(1) and game.forehand == 2  # Hana is skipped
    game.start_hand(deal_)
    game.bid(PASS)  # Kenji
    game.bid(PASS)  # Ann, and Hana's forced pass: Kenji is in the puddle
    assert game.in_puddle and game.bidder == 2
    assert game.pop() == PASS
    assert game.hand.bids == [PASS] and game.bidder == 0 and not game.in_puddle


def test_pop_of_the_last_card_takes_the_result_off_the_sheet_and_gives_the_redo_back():
    game = redo_game()
    play_hand(game, half(0), "win-no-trump 9")  # Ann 6
    play_hand(game, lose(1), "pass", "pass", "win-pick-trump 9 C")
    play_hand(game, lose(2), "pass", "pass", "pass", "win-pick-trump 9 C")
    game.start_hand(win(0))  # forehand Ann
    game.bid(parse_bid("win-no-trump 9 redo"))
    play_out(game)
    assert game.sheet["win-no-trump"][0] == 12 and game.redo_spent[0] and game.phase is Phase.DEAL
    last = game.hand.plays[-1]
    assert game.pop() == last
    assert game.sheet["win-no-trump"][0] == 6  # the result before the redo
    assert game.phase is Phase.PLAY and game.to_act == game.hand.state.turn and len(game._history) == 3
    while game.hand.plays:
        game.pop()
    assert str(game.pop()) == "win-no-trump 9 redo"
    assert game.redo_spent == [False, False, False] and game.phase is Phase.BIDDING
    assert game.has_redo(0) and game.bidder == 0


def test_pop_after_the_game_ended_takes_back_its_last_card(game):
    drive(game, [FirstDeclarer()] * 3, Seeds("5"))
    assert game.over
    totals, forehand = game.totals(), game.forehand
    card = game.pop()
    assert game.phase is Phase.PLAY and not game.winners() and game.forehand == forehand
    game.push(card)
    assert game.over and game.totals() == totals
