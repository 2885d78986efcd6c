"""Claims: the referee's verdict on the real cards (``ai/claims.py``), against brute force, in
words that say nothing of the unseen cards, and a record that replays to the claimed result."""

from __future__ import annotations

import json
import random

import pytest

from game_support import brute_force, game_at
from stepping_stones.ai.analysis import analyse_hand
from stepping_stones.ai.claims import (
    Claim,
    ClaimError,
    RefusedClaims,
    Verdict,
    ask,
    claim_prompt,
    claim_text,
    counted_left,
    judge,
    parse_claim,
    verify_claim,
)
from stepping_stones.ai.solver import position as solver_position
from stepping_stones.ai.solver import solver_for
from stepping_stones.ai.solver.solver import reaches
from stepping_stones.cli import main
from stepping_stones.engine import (
    CONTRACTS,
    NUM_SEATS,
    TRICKS,
    Game,
    HandState,
    Phase,
    Rules,
    cards_of,
    deal,
    parse_card,
)
from stepping_stones.explain import Teller
from stepping_stones.storage.records import record_from_game, write_record

NAMES = ("Mia", "Hana", "Kenji")
TELLER = Teller(NAMES, 0)


def position(contract: str, seed: int, tricks_left: int, in_trick: int = 0, declarer: int = 0) -> HandState:
    """A hand of ``contract`` played at random until ``tricks_left`` tricks (and ``in_trick`` cards
    of the next) remain."""
    rng = random.Random(seed)
    c = CONTRACTS[contract]
    state = HandState(deal(rng), declarer, c, rng.choice((1, 9)), rng.randrange(4) if c.picks_trump else None)
    while len(state.plays) < NUM_SEATS * (TRICKS - tricks_left) + in_trick:
        state.push(rng.choice(list(cards_of(state.legal_mask()))))
    return state


def expected_holds(state: HandState, claim: Claim) -> tuple[bool, int]:
    """By brute force: whether the claim holds, and the declarer's final count with perfect play."""
    final = brute_force(state.copy())
    left = counted_left(state)
    declarer_takes = final - state.count()
    share = declarer_takes if claim.seat == state.declarer else left - declarer_takes
    holds = share >= claim.tricks if state.contract.is_win else share <= claim.tricks
    return holds, final


@pytest.mark.parametrize("contract", sorted(CONTRACTS))
@pytest.mark.parametrize("in_trick", [0, 1, 2])
def test_every_claim_is_judged_as_perfect_play_decides(contract, in_trick):
    state = position(contract, seed=hash((contract, in_trick)) % 1000, tricks_left=4, in_trick=in_trick)
    before = (state.hands[:], state.plays[:], state.winners[:])
    left = counted_left(state)
    assert left == 4  # the trick in progress is one of the four, and the last four count in every contract
    seen = set()
    for seat in range(NUM_SEATS):
        for tricks in range(left + 1):
            claim = Claim(seat, tricks)
            verdict = judge(state, claim)
            holds, final = expected_holds(state, claim)
            assert verdict.holds == holds, (seat, tricks)
            seen.add(holds)
            if not holds:
                assert verdict == Verdict(claim, left, False)  # nothing else travels with a refusal
                continue
            assert verdict.count == final
            # The line is legal card by card and plays the hand to its end.
            play = state.copy()
            for card in verdict.line:
                assert play.legal_mask() >> card & 1
                play.push(card)
            assert play.finished and play.count() == final
    assert seen == {True, False}
    assert (state.hands, state.plays, state.winners) == before  # judging changes nothing


@pytest.mark.parametrize("contract", ["win-no-trump", "lose-no-trump"])
def test_a_refused_claim_costs_one_question(contract):
    """A claim that does not hold is refused on one zero-window question (``makes``): the referee
    searches exactly the positions of that question, not the exact value's several, then the
    line's (a server's CPU, one claim of a table at a time)."""
    state = position(contract, seed=46, tricks_left=7, in_trick=1)
    left = counted_left(state)
    value = solver_for(state).value(*solver_position(state))
    over = 1 if state.contract.is_win else -1  # one trick better than perfect play gives the declarer
    claim = Claim(state.declarer, value + over)
    assert 0 <= claim.tricks <= left
    judged = solver_for(state)
    assert judge(state, claim, judged) == Verdict(claim, left, False)
    # The one question: does the declarer reach one trick more than perfect play (Win: no), or
    # what perfect play gives it (Lose: yes, so it cannot hold its count one lower)?
    asked = solver_for(state)
    question = reaches(state, state.count() + value + (1 if state.contract.is_win else 0), asked)
    assert question != state.contract.is_win and judged.nodes == asked.nodes > 0


def test_win_last_6_claims_only_the_tricks_that_count():
    state = position("win-last-6", seed=3, tricks_left=10)
    assert counted_left(state) == 6
    prompt = claim_prompt(state.contract, state.trick_number)
    assert prompt == "all, none or 0-6 of the remaining 6 tricks that count"
    verdict = judge(state, Claim(state.turn, 0))  # "the declarer takes none that count": easy for the declarer
    holds = verdict.holds
    assert holds is (state.turn != state.declarer)
    late = position("win-last-6", seed=3, tricks_left=3)
    assert counted_left(late) == 3
    assert claim_prompt(late.contract, late.trick_number) == "all, none or 0-3 of the remaining 3 tricks"


def test_a_won_ending_and_a_lost_ending_in_words():
    # Seat 0 declares, 9 high, has won the first eight tricks and holds the top of every suit left.
    hands = (
        [parse_card(c) for c in ["C9", "C8", "K9", "K8"]],
        [parse_card(c) for c in ["C1", "C2", "K1", "K2"]],
        [parse_card(c) for c in ["C3", "C4", "K3", "K4"]],
    )
    state = ending(hands, "win-no-trump")
    won = judge(state, Claim(0, 4))
    assert won.holds and won.count == 12 and won.side_takes == 4
    assert claim_text(state, won, TELLER) == (
        "Claim accepted: you take the remaining 4 tricks. The hand ends: you take 12 tricks."
    )
    assert claim_text(state, won, Teller(NAMES, 2)) == (
        "Claim accepted: Mia takes the remaining 4 tricks. The hand ends: Mia takes 12 tricks."
    )
    short = judge(state, Claim(0, 3))
    assert short.holds and claim_text(state, short, TELLER).startswith(
        "Claim accepted: you take the remaining 4 tricks (the claim was 3). "
    )
    # A defender's claim, in the defender's words: the declarer could stop it.
    defended = judge(state, Claim(1, 1))
    assert not defended.holds
    assert claim_text(state, defended, Teller(NAMES, 1)) == (
        "Claim refused: Mia could keep you and Kenji from taking any of the remaining 4 tricks. Play on."
    )
    none = judge(state, Claim(1, 0))
    assert none.holds and none.side_takes == 0
    assert claim_text(state, none, Teller(NAMES, 2)) == (
        "Claim accepted: you and Hana take none of the remaining 4 tricks. The hand ends: Mia takes 12 tricks."
    )
    # A Lose contract with the same cards: the declarer cannot lose a trick of them.
    lose = ending(hands, "lose-no-trump")
    refused = judge(lose, Claim(0, 0))
    assert not refused.holds
    assert claim_text(lose, refused, TELLER) == (
        "Claim refused: the others could make you take at least one of the remaining 4 tricks. Play on."
    )
    two = judge(lose, Claim(0, 2))
    assert claim_text(lose, two, TELLER) == (
        "Claim refused: the others could make you take more than 2 of the remaining 4 tricks. Play on."
    )
    conceded = judge(lose, Claim(0, 4))
    assert conceded.holds and conceded.side_takes == 4 and conceded.count == 12
    assert claim_text(lose, judge(lose, Claim(0, 4)), TELLER) == (
        "Claim accepted: you take the remaining 4 tricks. The hand ends: you take 12 tricks."
    )


def ending(cards: tuple[list[int], list[int], list[int]], contract: str) -> HandState:
    """Seat 0 declares ``contract`` (9 high) and wins the first eight tricks, each of one suit led
    from its top; then the seats hold ``cards``."""
    rest = sorted((c for c in range(36) if all(c not in h for h in cards)), reverse=True)
    tricks = [rest[i : i + 3] for i in range(0, 24, 3)]
    assert all(len({c // 9 for c in trick}) == 1 for trick in tricks)
    hands = [list(h) for h in cards]
    for trick in tricks:
        for seat, card in enumerate(trick):
            hands[seat].append(card)
    state = HandState(tuple(sum(1 << c for c in h) for h in hands), 0, CONTRACTS[contract], 9)
    for trick in tricks:
        for card in trick:
            assert state.legal_mask() >> card & 1
            state.push(card)
    assert state.winners == [0] * 8
    return state


def test_the_refusal_reads_the_same_whatever_the_unseen_cards():
    state = position("win-pick-trump", seed=11, tricks_left=6, in_trick=1)
    seat = state.turn
    others = [s for s in range(NUM_SEATS) if s != seat]
    hidden = state.hands[others[0]] | state.hands[others[1]]
    counts = [state.hands[s].bit_count() for s in others]
    rng = random.Random(4)
    texts: dict[int, set[str]] = {}
    outcomes: dict[int, set[bool]] = {}
    for _ in range(12):
        cards = list(cards_of(hidden))
        rng.shuffle(cards)
        again = state.copy()
        again.hands[others[0]] = sum(1 << c for c in cards[: counts[0]])
        again.hands[others[1]] = sum(1 << c for c in cards[counts[0] :])
        for tricks in range(counted_left(state) + 1):
            verdict = judge(again, Claim(seat, tricks))
            outcomes.setdefault(tricks, set()).add(verdict.holds)
            if not verdict.holds:
                texts.setdefault(tricks, set()).add(claim_text(again, verdict, Teller(("A", "B", "C"), seat)))
    assert all(len(t) == 1 for t in texts.values())
    assert any(o == {True, False} for o in outcomes.values())  # the layouts did differ in the verdict


def test_parse_claim_and_who_may_claim():
    assert parse_claim("all", 5) == 5 and parse_claim(" None ", 5) == 0 and parse_claim("3", 5) == 3
    for bad, words in (("6", "from 0 to 5"), ("-1", "not '-1'"), ("lots", "not 'lots'"), ("3.0", "not '3.0'")):
        with pytest.raises(ClaimError, match=words):
            parse_claim(bad, 5)
    game = game_at("claims:who", Rules("standard"), 10)
    assert game.phase is Phase.PLAY
    seat = game.to_act
    verify_claim(game, Claim(seat, 0))
    with pytest.raises(ClaimError, match="only on their own turn"):
        verify_claim(game, Claim((seat + 1) % 3, 0))
    with pytest.raises(ClaimError, match="from 0 to"):
        verify_claim(game, Claim(seat, 13))
    bidding = game_at("claims:who", Rules("standard"), 1)
    assert bidding.phase is Phase.BIDDING
    with pytest.raises(ClaimError, match="while the cards are being played"):
        verify_claim(bidding, Claim(0, 0))


def test_a_claimed_hand_replays_to_the_same_result_and_the_analysis_finds_no_slip_after_it(tmp_path, capsys):
    game = game_at("claims:replay", Rules("advanced"), 16)
    assert game.phase is Phase.PLAY
    state = game.state
    assert state is not None
    seat = game.to_act
    claim = Claim(seat, 0 if state.contract.is_win else counted_left(state))  # always holds
    verify_claim(game, claim)
    verdict = judge(state, claim)
    assert verdict.holds
    claimed_at = len(state.plays)
    for card in verdict.line:
        game.play(card)
    hand = game.log[-1]
    assert hand.finished and hand.result == verdict.count
    path = tmp_path / "claimed.json"
    write_record(path, record_from_game(game))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"][-1]["count"] == verdict.count
    analysis = analyse_hand(hand)
    assert not [m for m in analysis.mistakes if m.play > claimed_at]
    assert set(analysis.dd_after[claimed_at:]) == {verdict.count}


def test_a_game_after_a_claim_goes_on():
    game = game_at("claims:on", Rules("standard"), 12)
    state = game.state
    assert state is not None
    verdict = judge(state, Claim(game.to_act, 0 if state.contract.is_win else TRICKS))
    for card in verdict.line:
        game.play(card)
    assert game.phase is Phase.DEAL and isinstance(game, Game)


def test_one_refused_claim_a_trick_and_the_referee_changes_nothing():
    game = game_at("claims:limit", Rules("standard"), 14)
    state = game.state
    assert state is not None and game.phase is Phase.PLAY
    seat = game.to_act
    refused = RefusedClaims()
    before = record_from_game(game)
    # Some claim (all in a Win contract, none in a Lose one, or short of it) the others can stop.
    tricks = [t for t in range(counted_left(state) + 1) if not judge(state, Claim(seat, t)).holds]
    assert tricks, "some claim must be refused here"
    verdict = ask(game, Claim(seat, tricks[0]), refused).answer()
    assert not verdict.holds and record_from_game(game) == before
    refused.refused(game, seat)
    with pytest.raises(ClaimError, match="One claim a trick"):
        ask(game, Claim(seat, 0), refused)
    with pytest.raises(ClaimError, match="One claim a trick"):
        ask(game, Claim(seat, tricks[0]), refused)
    # The next trick, a claim may be made again.
    trick = state.trick_number
    while state.trick_number == trick or game.to_act != seat:
        game.play(game.legal_cards()[0])
    assert game.state is state and not state.finished
    easy = 0 if state.contract.is_win else counted_left(state)
    assert ask(game, Claim(seat, easy), refused).answer().holds
