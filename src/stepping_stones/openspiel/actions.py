"""The game's moves as OpenSpiel action ids, for one set of ``Rules``.

* ``0``-``35``: a card (the engine's card number), to play it; the same ids are the chance
  outcomes of the deal (the card dealt next).
* ``36``: pass.
* ``37`` on: every declaration the rules allow, in a fixed order (the contracts of the set in
  play, then the ranking, the trump and the redo), whether or not it is legal now.

>>> from stepping_stones.engine import Rules, parse_bid
>>> actions = ActionSpace(Rules("standard"))
>>> actions.bid_id(parse_bid("pass")), str(actions.bid(actions.bid_id(parse_bid("lose-no-trump 1"))))
(36, 'lose-no-trump 1')
>>> actions.size
57
"""

from __future__ import annotations

from ..engine import NUM_CARDS, PASS, RANKINGS, Bid, Declaration, Rules

PASS_ACTION = NUM_CARDS
FIRST_DECLARATION = PASS_ACTION + 1


class ActionSpace:
    """The action ids of one game's rules, both ways."""

    def __init__(self, rules: Rules) -> None:
        redos = (False, True) if rules.redo_tokens else (False,)
        self.declarations: tuple[Declaration, ...] = tuple(
            Declaration(contract, ranking, trump, redo)
            for contract in rules.contracts
            for ranking in RANKINGS
            for trump in (range(4) if contract.picks_trump else (None,))
            for redo in redos
        )
        self._ids = {d: FIRST_DECLARATION + i for i, d in enumerate(self.declarations)}
        self.size = FIRST_DECLARATION + len(self.declarations)
        """How many distinct actions there are (OpenSpiel's ``num_distinct_actions``)."""
        self.bids = self.size - PASS_ACTION
        """How many of them are bids (pass and the declarations)."""

    def bid_id(self, bid: Bid) -> int:
        """The action id of ``bid``."""
        if isinstance(bid, Declaration):
            return self._ids[bid]
        return PASS_ACTION

    def bid(self, action: int) -> Bid:
        """The bid of an action id (``ValueError`` for a card or an id out of range)."""
        if action == PASS_ACTION:
            return PASS
        if not FIRST_DECLARATION <= action < self.size:
            raise ValueError(f"action {action} is not a bid")
        return self.declarations[action - FIRST_DECLARATION]

    @staticmethod
    def is_card(action: int) -> bool:
        return 0 <= action < NUM_CARDS
