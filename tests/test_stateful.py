"""A stateful test that throws legal and illegal actions at the engine.

Refused actions must raise a precise ``IllegalActionError`` and change nothing;
all 36 cards must stay accounted for; the totals always add up.  Moves are taken
back (``Game.pop``) at any point, and the game goes on from there.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from conftest import ALL_RULES, game_snapshot
from stepping_stones.ai import RandomAI
from stepping_stones.engine import (
    CONTRACTS,
    FULL_DECK,
    PASS,
    Declaration,
    Game,
    IllegalActionError,
    NothingToPopError,
    Phase,
    deal,
    mask_of,
)
from stepping_stones.game.match import Match, Seeds
from stepping_stones.storage.records import record_from_game, record_json

FORGED = replace(CONTRACTS["must-beat"], id="no-such-contract")
bids = st.one_of(
    st.just(PASS),
    st.builds(
        Declaration,
        contract=st.sampled_from([*CONTRACTS.values(), FORGED]),
        ranking=st.sampled_from([9, 1, None, 5]),
        trump=st.sampled_from([None, 0, 1, 2, 3, 7]),
        redo=st.booleans(),
    ),
    st.sampled_from(["pass", None, 7]),  # not bids at all
)
card_values = st.one_of(st.integers(-3, 40), st.sampled_from([True, None, "K4", 2.0]))


def snapshot(game: Game):
    return (
        record_json(record_from_game(game)),
        game.phase,
        game.forehand,
        tuple(game.redo_spent),
        {k: tuple(v) for k, v in game.sheet.items()},
        game.to_act,
        game.legal_cards_mask(),
        tuple(game.legal_bids()),
    )


class GameMachine(RuleBasedStateMachine):
    @initialize(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**31), first=st.integers(0, 2))
    def start(self, rules, seed, first):
        self.game = Game(rules, first_forehand=first)
        self.match = Match(self.game, [RandomAI()] * 3, Seeds(str(seed)))

    @precondition(lambda self: not self.game.over)
    @rule()
    def legal_action(self):
        self.match.step()

    @precondition(lambda self: not self.game.over)
    @rule(n=st.integers(1, 60))
    def several_legal_actions(self, n):
        for _ in range(n):
            if self.game.over:
                return
            self.legal_action()

    @rule(card=card_values)
    def any_card(self, card):
        game = self.game
        before = snapshot(game)
        if game.can_play(card):
            game.play(card)
            return
        try:
            game.play(card)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{card!r} was played although can_play said no")
        assert snapshot(game) == before

    @rule(bid=bids)
    def any_bid(self, bid):
        game = self.game
        before = snapshot(game)
        allowed = bid in game.legal_bids()
        assert game.can_bid(bid) == allowed
        if allowed:
            game.bid(bid)
            return
        try:
            game.bid(bid)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{bid} was accepted although it is not a legal bid")
        assert snapshot(game) == before

    @rule(seed=st.integers(0, 2**31), spoil=st.booleans())
    def any_deal(self, seed, spoil):
        game = self.game
        cards = list(deal(random.Random(seed)))
        if spoil:
            cards[1] = cards[0]
        before = snapshot(game)
        if game.phase is Phase.DEAL and not spoil:
            game.start_hand(cards)
            return
        try:
            game.start_hand(cards)
        except IllegalActionError:
            pass
        else:
            raise AssertionError("a deal was accepted out of turn or with cards twice")
        assert snapshot(game) == before

    @rule()
    def take_back_and_make_again(self):
        game = self.game
        before = game_snapshot(game)
        if not game.can_pop():
            with pytest.raises(NothingToPopError):
                game.pop()
        else:
            game.push(game.pop())
        assert game_snapshot(game) == before

    @rule(n=st.integers(1, 40))
    def take_back(self, n):
        for _ in range(n):
            if not self.game.can_pop():
                return
            self.game.pop()

    @invariant()
    def cards_accounted_for(self):
        state = self.game.state
        if state is None:
            return
        played = mask_of(state.plays)
        held = state.hands[0] | state.hands[1] | state.hands[2]
        assert held & played == 0 and held | played == FULL_DECK
        for seat in range(3):
            assert state.hands[seat] & ~self.game.hand.deal[seat] == 0

    @invariant()
    def totals_add_up(self):
        game = self.game
        scored = sum(1 for cid in game.sheet if game.points(cid) is not None)
        assert sum(game.totals()) == 3 * scored


GameMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=120, deadline=None)
TestGameMachine = GameMachine.TestCase
