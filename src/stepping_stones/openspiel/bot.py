"""The lab's ``ismcts`` seat: OpenSpiel's own ``ISMCTSBot`` plays from a seat's ``PlayerView``.

Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012), exactly as
``open_spiel.python.algorithms.ismcts`` implements it, with OpenSpiel's random-rollout evaluator:
each simulation deals the cards the seat cannot see again (``sampling.py``: the card counting and
bidding inference the expert uses), walks the tree of information sets from there, and plays the
rest of the *game* (every hand left, the deals included) at random to its game points.

The agent gets a view, never the game: it builds a state the seat cannot tell from the real one
(``SteppingStonesGame.state_from_view``) and lets the bot search it.  Its budget counts
simulations, never seconds; every random number comes from the generator of the decision, so the
same view and seed give the same choice, wherever the unseen cards are.
"""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms.ismcts import ISMCTSBot, ISMCTSFinalPolicyType
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

from ..engine import Bid, Card, PlayerView
from .game import SteppingStonesGame, SteppingStonesState, rules_of

DEFAULT_SIMULATIONS = 75
"""Simulations per decision: about 1 s of CPU per decision on the project's machines
(docs/ai.md, *ISMCTS*)."""
UCT_C = 4.0
"""The exploration constant: OpenSpiel's usual 2 for returns of about +-1, doubled for game
points, whose spread between two moves is a few points."""


def _rules_params(view: PlayerView) -> dict[str, Any]:
    rules = view.rules
    return {
        "contract_set": rules.contract_set,
        "short_game": rules.short_game,
        "omit": rules.omit or "",
        "redo_tokens": rules.redo_tokens,
    }


class ISMCTSAgent:
    """An ``Agent`` that decides by OpenSpiel's ISMCTS, ``simulations`` per decision."""

    def __init__(self, simulations: int | None = None, uct_c: float = UCT_C) -> None:
        if simulations is not None and simulations < 1:
            raise ValueError("ISMCTS needs at least one simulation per decision")
        self.name = "ismcts" if simulations is None else f"ismcts-{simulations}"
        self.simulations = DEFAULT_SIMULATIONS if simulations is None else simulations
        self.uct_c = uct_c
        self._games: dict[Any, SteppingStonesGame] = {}  # one pyspiel game per rules, for this seat

    def _game(self, view: PlayerView) -> SteppingStonesGame:
        game = self._games.get(view.rules)
        if game is None:
            game = self._games[view.rules] = SteppingStonesGame(_rules_params(view))
            assert game.rules == view.rules and rules_of(_rules_params(view)) == view.rules
        return game

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        if len(view.legal_bids) == 1:
            return view.legal_bids[0]
        game = self._game(view)
        return game.shared.space.bid(self._search(game, view, rng))

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        legal = view.legal_cards
        if legal and not legal & (legal - 1):
            return legal.bit_length() - 1
        return self._search(self._game(view), view, rng)

    def _search(self, game: SteppingStonesGame, view: PlayerView, rng: Random) -> int:
        """The action ISMCTS picks for ``view``'s seat."""
        seed = rng.getrandbits(32)
        draw = Random(seed)
        state = game.state_from_view(view, draw)
        prefix = state.before_deal()
        numbers = np.random.RandomState(seed)
        bot = ISMCTSBot(
            game,
            RandomRolloutEvaluator(1, numbers),
            self.uct_c,
            self.simulations,
            random_state=numbers,
            final_policy_type=ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )

        def resample(root: SteppingStonesState, player: int) -> SteppingStonesState:
            return root.resampled(player, draw, prefix)

        bot.set_resampler(resample)
        action = int(bot.step(state))
        if action not in state.legal_actions():
            raise pyspiel.SpielError(f"ISMCTS chose {action}, not a legal action")
        return action


def make_ismcts() -> ISMCTSAgent:
    """The ``ismcts`` seat at its default budget (the lab's factory)."""
    return ISMCTSAgent()
