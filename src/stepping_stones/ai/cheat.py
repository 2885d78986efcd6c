"""The lab's ``cheat`` seat: it sees every hand, and plays every card by exact search.

A ceiling, not an opponent.  It measures how far the expert's play is from what a seat could do
if hidden information did not exist, on the same deals (``tournament --candidate cheat``,
``simulate --seats cheat,...``).  It is refused everywhere else: ``make_ai`` does not know it, the
app and plain mode never offer it, and only ``lab`` asks for it, through ``make_lab_ai``.

**Card play.**  The match driver shows it the cards each seat holds (``Request.hands``, given
only to a seat that ``sees_every_hand``).  It solves the true layout exactly from the first trick
to the last with the double-dummy solver, and weighs each card as the expert does once it solves
exactly: by the sheet points the count would bring this seat, the count breaking near-ties
(``ExpertAI.reckon_card`` with the one known layout).  One solver serves the whole hand, so each
card after the first reuses the table of bounds the first solve built.

**Bidding.**  As the expert: from its own hand and what the bidding said
(``planning.py``).  Bidding with every hand in view is a different game (each contract's par is
a whole-hand solve); this seat measures the card play.
"""

from __future__ import annotations

from random import Random

from ..engine import NUM_SEATS, TRICKS, Card, Mask, PlayerView
from .base import forced_card
from .expert import ExpertAI
from .params import ExpertParams
from .solver import Solver

UNLIMITED = 1 << 62  # positions: the cheat's solves are never cut short


class DoubleDummyAI(ExpertAI):
    """Plays every card by exact search of the true layout; bids as the expert."""

    name = "cheat"
    sees_every_hand = True

    def __init__(self, params: ExpertParams | None = None) -> None:
        """``params``: the expert's settings for its bidding (its card play is always exact)."""
        super().__init__(
            layouts=1,
            node_budget=UNLIMITED,
            exact_tricks=TRICKS,
            hard_limit=UNLIMITED,
            lose_exact_tricks=TRICKS,
            params=params,
        )
        self._solver: Solver | None = None
        self._solver_key: tuple[object, ...] | None = None

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        raise ValueError("the cheat seat plays only where it is shown every hand (tournament, simulate)")

    def choose_card_seeing(self, view: PlayerView, hands: tuple[Mask, Mask, Mask], rng: Random) -> Card:
        """The card with the best exact value for this seat, ``hands`` being what each seat holds."""
        forced = forced_card(view)
        if forced is not None:
            return forced
        if hands[view.seat] != view.own_cards:
            raise ValueError(f"the hands shown to the cheat seat do not hold seat {view.seat}'s cards")
        known = {s: hands[s] for s in range(NUM_SEATS) if s != view.seat}
        return self.reckon_card(view, rng, known=known, solver=self._hand_solver(view)).chosen

    def _hand_solver(self, view: PlayerView) -> Solver:
        """One solver per hand: its table is valid for every position of the hand."""
        declaration = view.declaration
        if declaration is None or view.declarer is None:
            raise ValueError("no card to choose: no contract has been declared yet")
        key = (view.hand_number, view.dealt_cards, declaration, view.declarer)
        if self._solver is None or self._solver_key != key:
            self._solver = Solver(declaration.contract, declaration.ranking, declaration.trump, view.declarer)
            self._solver_key = key
        return self._solver
