"""Property tests: the "Facts worth knowing" of docs/rules.md, over random whole games."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ALL_RULES, game_snapshot, random_game
from stepping_stones.ai import RandomAI
from stepping_stones.engine import (
    BIT,
    CONTRACTS,
    FULL_DECK,
    Game,
    HandState,
    Move,
    NothingToPopError,
    Phase,
    PlayerView,
    deal,
    mask_of,
)
from stepping_stones.game.match import Match, Seeds

rules_st = st.sampled_from(ALL_RULES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=60, deadline=None)  # whole games: about 8 of each rule set in ALL_RULES
@given(seed=seeds, rules=rules_st)
def test_whole_games_obey_the_facts_that_follow(seed, rules):
    game = random_game(seed, rules)
    assert game.over
    k = len(rules.contracts)
    scored = sum(1 for c in rules.contracts if game.points(c.id) is not None)
    assert scored == k
    # The sum of all totals is 3 x scored contracts.
    assert sum(game.totals()) == 3 * scored
    # Every hand has 12 tricks and uses all 36 cards once.
    for hand in game.log:
        assert len(hand.state.winners) == 12
        assert len(hand.plays) == 36 and mask_of(hand.plays) == FULL_DECK
        assert hand.deal[0] | hand.deal[1] | hand.deal[2] == FULL_DECK
    # Each player declares each contract exactly once, plus at most one redo.
    redos = 0
    for seat in range(3):
        declared = Counter(h.contract.id for h in game.log if h.declarer == seat and not h.declaration.redo)
        assert declared == Counter(rules.contract_ids)
        mine = sum(1 for h in game.log if h.declarer == seat and h.declaration.redo)
        assert mine <= (1 if rules.redo_tokens else 0)
        redos += mine
    # The number of hands is 3 x contracts + redos.
    assert len(game.log) == 3 * k + redos
    # A winner exists; winners have the highest total.
    top = max(game.totals())
    assert game.winners() and all(game.totals()[s] == top for s in game.winners())


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rules=rules_st)
def test_sheet_keeps_each_seats_best_declared_result(seed, rules):
    game = random_game(seed, rules)
    for c in rules.contracts:
        for seat in range(3):
            results = [h.result for h in game.log if h.declarer == seat and h.contract.id == c.id]
            best = max(results) if c.goal.value == "win" else min(results)
            assert game.sheet[c.id][seat] == best


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rules=rules_st)
def test_forehand_and_puddle_follow_the_rules(seed, rules):
    game = random_game(seed, rules)
    for prev, hand in zip(game.log, game.log[1:], strict=False):
        # The forehand moves clockwise; it only skips seats (those that had nothing open).
        step = (hand.forehand - prev.forehand) % 3
        assert step in (1, 2, 0)
    for hand in game.log:
        assert len(hand.bids) >= 1
        assert all(b.is_pass for b in hand.bids[:-1])
        assert not hand.bids[-1].is_pass
        assert hand.puddle == (len(hand.bids) == 4)
        if hand.puddle:
            assert not hand.declaration.redo


@settings(max_examples=100, deadline=None)
@given(
    seed=seeds,
    contract=st.sampled_from(list(CONTRACTS.values())),
    ranking=st.sampled_from([9, 1]),
    trump=st.integers(0, 3),
    declarer=st.integers(0, 2),
)
def test_pop_restores_every_position_exactly(seed, contract, ranking, trump, declarer):
    rng = random.Random(seed)
    t = trump if contract.picks_trump else None
    state = HandState(deal(rng), declarer, contract, ranking, t)
    snapshots = []
    for _ in range(36):
        snapshots.append(_snapshot(state))
        legal = [c for c in range(36) if state.legal_mask() & BIT[c]]
        assert legal, "the player to act always has a legal card"
        state.push(rng.choice(legal))
        # Cards are always accounted for: held + played = the deck, disjointly.
        held = state.hands[0] | state.hands[1] | state.hands[2]
        assert held & mask_of(state.plays) == 0 and held | mask_of(state.plays) == FULL_DECK
    copy = state.copy()
    for snap in reversed(snapshots):
        state.pop()
        assert _snapshot(state) == snap
    assert _snapshot(copy) != _snapshot(state)


def _snapshot(s: HandState):
    # Every field, the ones left over from the last trick too: a position is one state.
    return (
        *(
            getattr(s, name) if not isinstance(getattr(s, name), list) else tuple(getattr(s, name))
            for name in HandState.__slots__
        ),
        s.legal_mask(),
        s.winning(),
    )


def _legal_moves(game: Game, seed: int) -> list[Move]:
    """Every move the game allows now (for a deal: two random ones)."""
    if game.phase is Phase.DEAL:
        rng = random.Random(seed)
        return [deal(rng), deal(rng)]
    if game.phase is Phase.BIDDING:
        return list(game.legal_bids())
    return list(game.legal_cards())


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rules=rules_st, cut=st.integers(0, 700))
def test_push_then_pop_gives_back_exactly_the_same_game(seed, rules, cut):
    game = random_game(seed, rules, stop_after=cut)
    before = game_snapshot(game)
    for move in _legal_moves(game, seed):
        game.push(move)
        assert game.pop() == move
        assert game_snapshot(game) == before
    # And the other way round: the last move taken back and made again.
    if game.can_pop():
        game.push(game.pop())
        assert game_snapshot(game) == before


@settings(max_examples=20, deadline=None)
@given(seed=seeds, rules=rules_st, cut=st.integers(0, 700))
def test_the_views_of_all_seats_at_once_are_the_views_the_dataclass_makes(seed, rules, cut):
    # Game.views makes its PlayerViews without the dataclass's __init__ (a table server's every
    # change makes three): each is the view PlayerView(**fields) makes, its fields in the same
    # order (the wire writes them in that order), and frozen
    game = random_game(seed, rules, stop_after=cut)
    for seat, view in enumerate(game.views([0, 1, 2])):
        made = PlayerView(**view.__dict__)
        assert view == made and view.seat == seat
        assert list(view.__dict__) == [f.name for f in dataclasses.fields(PlayerView)] == list(made.__dict__)
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.seat = seat  # type: ignore[misc]


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@settings(max_examples=3, deadline=None)
@given(seed=seeds, cut=st.integers(0, 700))
def test_popping_back_to_the_start_retraces_the_game_and_replaying_reaches_it_again(seed, rules, cut):
    source = Seeds(f"random-game:{seed}")
    game = Game(rules, first_forehand=source.first_forehand())
    match = Match(game, [RandomAI()] * 3, source)
    before: list[tuple[object, ...]] = []  # the game before each move
    while len(before) < cut and not game.over:
        before.append(game_snapshot(game))
        match.step()
    reached = game_snapshot(game)
    moves = []
    for snapshot in reversed(before):
        moves.append(game.pop())
        assert game_snapshot(game) == snapshot
    assert not game.can_pop()
    with pytest.raises(NothingToPopError):
        game.pop()
    assert game_snapshot(game) == (before[0] if before else reached)
    for move in reversed(moves):
        game.push(move)
    assert game_snapshot(game) == reached


@settings(max_examples=40, deadline=None)
@given(seed=seeds, rules=rules_st, cut=st.integers(1, 400))
def test_legal_actions_are_exactly_the_accepted_ones(seed, rules, cut):
    game = random_game(seed, rules, stop_after=cut)
    if game.phase is Phase.BIDDING:
        legal = set(game.legal_bids())
        assert legal and all(game.can_bid(b) for b in legal)
    elif game.phase is Phase.PLAY:
        mask = game.legal_cards_mask()
        for c in range(36):
            assert game.can_play(c) == bool(mask & BIT[c])
