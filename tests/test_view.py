"""A player's view holds what that player may see, and nothing of the other hands."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import random_game
from stepping_stones.engine import FULL_DECK, Phase, Rules, mask_of


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(1, 300), seat=st.integers(0, 2))
def test_a_view_does_not_change_when_the_hidden_cards_do(seed, cut, seat):
    game = random_game(seed, Rules("advanced", redo_tokens=True), stop_after=cut)
    state = game.state
    if game.phase is not Phase.PLAY:
        return
    a, b = [s for s in range(3) if s != seat]
    before = game.view(seat)
    # Deal the other two players' unplayed cards out again between them, keeping their counts.
    pool = state.hands[a] | state.hands[b]
    cards = [c for c in range(36) if pool >> c & 1]
    random.Random(seed).shuffle(cards)
    n = state.hands[a].bit_count()
    state.hands[a], state.hands[b] = mask_of(cards[:n]), mask_of(cards[n:])
    hand = game.hand
    deal = list(hand.deal)
    deal[a] = state.hands[a] | (deal[a] & mask_of(state.plays))
    deal[b] = state.hands[b] | (deal[b] & mask_of(state.plays))
    hand.deal = tuple(deal)
    assert game.view(seat) == before


def test_a_view_shows_own_cards_counts_and_the_open_table():
    game = random_game(5, Rules(), stop_after=25)
    assert game.phase is Phase.PLAY
    me = game.view(0)
    assert me.own_cards == game.state.hands[0]
    assert me.unseen_cards == FULL_DECK & ~me.dealt_cards & ~me.played_mask
    assert me.unseen_cards == game.state.hands[1] | game.state.hands[2]
    assert [me.cards_left(s) for s in range(3)] == [game.state.hands[s].bit_count() for s in range(3)]
    assert me.current_trick() == game.state.current_trick()
    assert me.declaration == game.hand.declaration
    if game.to_act == 0:
        assert me.legal_cards == game.legal_cards_mask()
    else:
        assert me.legal_cards == 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(1, 300))
def test_state_with_the_true_hidden_cards_is_the_real_position(seed, cut):
    game = random_game(seed, Rules("advanced"), stop_after=cut)
    if game.phase is not Phase.PLAY:
        return
    view = game.view(1)
    rebuilt = view.state_with({0: game.state.hands[0], 2: game.state.hands[2]})
    assert rebuilt.hands == game.state.hands
    assert rebuilt.plays == game.state.plays and rebuilt.winners == game.state.winners
    assert rebuilt.turn == game.state.turn and rebuilt.legal_mask() == game.state.legal_mask()
