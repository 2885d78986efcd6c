"""The ``expert`` level: plans the bidding over the hands left and searches the card play.

**Card play.**  The expert deals the unseen cards out in many ways that agree with everything
it has seen (``knowledge.py``), weighs each layout by what the bidding said (``inference.py``)
and draws the layouts it will look at in proportion to those weights.  In each layout it
finds, for each card it may play, how many counted tricks the declarer ends with when everyone
plays perfectly from there on:

* from the first trick on, exactly, with the double-dummy solver (``solver.py``): the whole rest of
  the hand, one solver and its table for all the layouts of the decision (perfect-information
  Monte Carlo, as GIB and Kermit play bridge);
* only where that does not fit the budget (fewer than ``min_exact`` layouts solved within the
  hard limit: an early lead in a hard contract), with the same search cut off ``lookahead``
  tricks beyond the current one and the position there judged by a quick count of each side's
  winners (``Solver(horizon=...)``), so a card is still judged by what it does to the tricks
  after this one;
* in a Lose contract, exactly only for the last ``lose_exact_tricks`` tricks; before them it
  searches the current trick alone (``lose_lookahead``) and judges the rest by that quick count.
  A double-dummy search of a Lose contract assumes opponents who force the declarer to take
  tricks by perfect timing; the heuristic seats it meets do not, and early in the hand that
  search guards against threats that never come at the cost of those that do.  Against two
  heuristic seats the quick count early and exact play late give away fewer points, as declarer
  and as defender (docs/lab/2026-12-02-lose-exact-at-end.md).

Tricks are not what it plays for: places on the sheet are.  When it solves exactly, each
layout's count is turned into the points it would bring this seat in the contract's column
(``bidding.points_by_count``: a declarer who needs six to pass a recorded five gains nothing
from a seventh and should not risk the sixth for it; a defender the declarer cannot overtake
is indifferent), and it plays the card with the best average in points, the average count
breaking near-ties.  With counts that are only estimates (the fallback, and a Lose contract's
early tricks), it plays the card with the best average count for its side (more counted tricks
for the declarer of a Win contract and the defenders of a Lose contract, fewer for the others).

**Bidding.**  ``planning.py``: declaring now against waiting, per contract, in expected sheet
points, with the risk of the puddle and the bidding position.

**Budget.**  Work is counted in positions searched (the solver's ``nodes``), never in seconds,
so a slow machine makes the same choices as a fast one: no new layout is started once
``node_budget`` positions are spent (but ``min_layouts`` are searched), a layout whose search
reaches ``layout_factor`` budgets is left out, and the exact search of a decision stops at
``hard_factor`` budgets.  The fallback's budget is ``horizon_budget``.  (The settings are those
of ``params.ExpertParams``.)  It decides from its
``PlayerView`` and the injected generator only; the solver is made afresh for each decision, so
the positions a decision searches (and so its choice) do not depend on the decisions before it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from random import Random

from ..engine import NUM_SEATS, TRICKS, Bid, Card, Mask, PlayerView, Seat, cards_of, trick_keys
from .base import forced_card
from .bidding import points_by_count
from .inference import BiddingEvidence, resample
from .knowledge import Knowledge
from .params import DEFAULT_PARAMS, ExpertParams
from .planning import BidPlanner, BidReckoning
from .solver import SearchLimit, Solver, position

NODE_BUDGET = DEFAULT_PARAMS.node_budget  # positions per decision (``params.ExpertParams``)
TIE = 1e-9


@dataclass(frozen=True)
class CardReckoning:
    """What the expert found for each legal card: the declarer's mean counted tricks for the
    whole hand (tricks already taken included) over the layouts it searched."""

    seat: Seat
    declarer: Seat
    wants_more: bool  # whether this seat's side wants the declarer to count more tricks
    values: dict[Card, float]
    points: dict[Card, float]  # the mean sheet points of each card to this seat (exact search only)
    layouts: int
    exact: bool  # searched to the end of the hand (else to a horizon, then counted)
    chosen: Card
    nodes: int = 0  # the solver positions the decision searched, over every layout
    trick_weight: float = DEFAULT_PARAMS.trick_weight  # a counted trick's weight beside a sheet point

    def ranked(self) -> list[Card]:
        """The legal cards, best for this seat first (ties in the expert's order)."""
        return sorted(self.values, key=lambda c: (-self.score(c), c != self.chosen))

    def score(self, card: Card) -> float:
        """What the expert maximises: sheet points (with the count as a tie-break) when it
        solved exactly, else the count for this seat's side."""
        sign = 1.0 if self.wants_more else -1.0
        if self.points:
            return self.points[card] + self.trick_weight * sign * self.values[card]
        return sign * self.values[card]


def _tie_key(view: PlayerView, wants_low: bool) -> dict[Card, int]:
    """Among cards that search found equal: keep strength (Win) or shed it (Lose)."""
    declaration = view.declaration
    assert declaration is not None
    keys = trick_keys(declaration.ranking, declaration.trump)
    out = {}
    for c in cards_of(view.legal_cards):
        out[c] = keys[c] if wants_low else -keys[c]
    return out


UNBOUNDED = 1 << 62


class _Search:
    """The layouts of one decision searched with one solver (one table for all of them): each
    legal card's summed value and, with ``utility``, its summed sheet points."""

    def __init__(self, view: PlayerView, sampled: list[dict[Seat, Mask]], order: list[int], legal: list[Card]) -> None:
        self.view = view
        self.sampled = sampled
        self.order = order
        self.sums = dict.fromkeys(legal, 0.0)
        self.gains = dict.fromkeys(legal, 0.0)
        self.done = 0

    def run(
        self,
        solver: Solver,
        budget: int,
        hard_limit: int,
        utility: tuple[float, ...] | None,
        taken: int,
        *,
        min_layouts: int,
        layout_limit: int = UNBOUNDED,
        first_only: bool = False,
    ) -> None:
        """Search the layouts in order until the budget is spent (after ``min_layouts`` at
        least).  A layout whose search reaches ``layout_limit`` positions is left out (its
        positions still count); reaching the hard limit ends the run."""
        start = solver.nodes
        end = start + hard_limit
        solved: dict[int, dict[Card, int]] = {}  # per layout searched, each card's value
        dropped: set[int] = set()
        for index in self.order[:1] if first_only else self.order:
            if index in dropped:
                continue
            values = solved.get(index)
            if values is None:
                if self.done >= min_layouts and solver.nodes - start >= budget:
                    break
                solver.limit = min(end, solver.nodes + layout_limit)
                try:
                    values = solver.card_values(*position(self.view.state_with(self.sampled[index])))
                except SearchLimit:
                    if solver.nodes >= end:
                        break
                    dropped.add(index)
                    continue
                solved[index] = values
            for c, v in values.items():
                if c in self.sums:
                    self.sums[c] += v
                    if utility is not None:
                        self.gains[c] += utility[taken + v]
            self.done += 1


class ExpertAI:
    """Searches the card play over weighted layouts and plans its bids over the hands left."""

    name = "expert"

    def __init__(
        self,
        layouts: int | None = None,
        node_budget: int | None = None,
        exact_tricks: int | None = None,
        lookahead: int | None = None,
        hard_limit: int | None = None,
        min_exact: int | None = None,
        layout_limit: int | None = None,
        lose_exact_tricks: int | None = None,
        lose_lookahead: int | None = None,
        params: ExpertParams | None = None,
    ) -> None:
        # ``params`` (the defaults unless given: ``params.py``), then any setting given here.
        p = DEFAULT_PARAMS if params is None else params
        self.params = p
        node_budget = p.node_budget if node_budget is None else node_budget
        self.layouts = p.layouts if layouts is None else layouts
        self.node_budget = node_budget
        self.exact_tricks = p.exact_tricks if exact_tricks is None else exact_tricks
        self.lookahead = p.lookahead if lookahead is None else lookahead
        self.hard_limit = p.hard_factor * node_budget if hard_limit is None else hard_limit
        self.layout_limit = p.layout_factor * node_budget if layout_limit is None else layout_limit
        self.min_exact = p.min_exact if min_exact is None else min_exact
        self.lose_exact_tricks = p.lose_exact_tricks if lose_exact_tricks is None else lose_exact_tricks
        if lose_lookahead is None:
            lose_lookahead = self.lookahead if p.lose_lookahead is None else p.lose_lookahead
        self.lose_lookahead = lose_lookahead

    # --- bidding ----------------------------------------------------------------------------

    def reckon_bid(self, view: PlayerView) -> BidReckoning:
        """Every legal bid valued in expected sheet points (``planning.py``)."""
        if not view.legal_bids:
            raise ValueError(f"seat {view.seat} has no bid to make")
        return BidPlanner(view, params=self.params).reckon()

    def choose_bid(self, view: PlayerView, rng: Random) -> Bid:
        if len(view.legal_bids) == 1:
            return view.legal_bids[0]
        return self.reckon_bid(view).best.bid

    # --- card play --------------------------------------------------------------------------

    def choose_card(self, view: PlayerView, rng: Random) -> Card:
        forced = forced_card(view)
        if forced is not None:
            return forced
        return self.reckon_card(view, rng).chosen

    def reckon_card(
        self, view: PlayerView, rng: Random, known: dict[Seat, Mask] | None = None, solver: Solver | None = None
    ) -> CardReckoning:
        """Search the legal cards over weighted layouts; the reckoning behind the choice.

        ``known`` (the lab's double-dummy seat only, ``cheat.py``) is the one true layout of the
        cards the others hold, searched instead of sampled ones; ``solver`` a solver of this hand
        to reuse (its table stays valid for every position of the hand)."""
        declaration = view.declaration
        if declaration is None or view.declarer is None:
            raise ValueError("no card to choose: no contract has been declared yet")
        me = view.seat
        declarer = view.declarer
        wants_more = (me == declarer) == declaration.contract.is_win
        legal = list(cards_of(view.legal_cards))
        tricks_left = TRICKS - len(view.trick_winners)
        sampled, layouts = self._layouts(view, rng) if known is None else ([known], [0])
        taken = view.count()
        utility = points_by_count(view, me)
        search = _Search(view, sampled, layouts, legal)
        nodes = 0
        exact_tricks, lookahead = self.exact_tricks, self.lookahead
        if not declaration.contract.is_win:
            exact_tricks, lookahead = min(exact_tricks, self.lose_exact_tricks), self.lose_lookahead
        if tricks_left <= exact_tricks:
            if solver is None or solver.horizon != TRICKS:
                solver = Solver(declaration.contract, declaration.ranking, declaration.trump, declarer)
            start = solver.nodes
            search.run(
                solver,
                self.node_budget,
                self.hard_limit,
                utility,
                taken,
                layout_limit=self.layout_limit,
                min_layouts=self.params.min_layouts,
            )
            nodes += solver.nodes - start
        exact = search.done >= min(self.min_exact, len(set(layouts)))
        if not exact:
            # The whole hand is too long to solve in enough layouts: search to a horizon (the end
            # of the next ``lookahead`` tricks) and count each side's winners there.
            horizon = len(view.trick_winners) + 1 + lookahead
            solver = Solver(declaration.contract, declaration.ranking, declaration.trump, declarer, horizon=horizon)
            budget = min(self.params.horizon_budget, self.node_budget)
            search = _Search(view, sampled, layouts, legal)
            search.run(
                solver, budget, self.params.horizon_factor * budget, None, taken, min_layouts=self.params.min_layouts
            )
            nodes += solver.nodes
        if search.done == 0:
            # Not one layout could be searched within the hard limit: judge the current trick
            # alone on the first layout (always small).
            shallow = Solver(
                declaration.contract,
                declaration.ranking,
                declaration.trump,
                declarer,
                horizon=len(view.trick_winners) + 1,
            )
            search.run(shallow, 0, UNBOUNDED, None, taken, first_only=True, min_layouts=self.params.min_layouts)
            nodes += shallow.nodes
        done = search.done
        means = {c: taken + search.sums[c] / done for c in legal}
        points = {c: search.gains[c] / done for c in legal} if exact else {}
        reckoning = CardReckoning(
            me, declarer, wants_more, means, points, done, exact, legal[0], nodes, self.params.trick_weight
        )
        best = max(reckoning.score(c) for c in legal)
        ties = _tie_key(view, wants_low=declaration.contract.is_win)
        close = [c for c in legal if reckoning.score(c) >= best - TIE]
        chosen = min(close, key=lambda c: (ties[c], c))
        return replace(reckoning, chosen=chosen)

    def _layouts(self, view: PlayerView, rng: Random) -> tuple[list[dict[Seat, Mask]], list[int]]:
        """Layouts consistent with the view, and the order in which to search them: indices
        drawn in proportion to what the bidding makes likely (a heavy layout may come twice)."""
        know = Knowledge(view)
        evidence = BiddingEvidence(view)
        count = self.params.candidates if evidence.informative else self.layouts
        sampled = [know.sample_layout(rng) for _ in range(count)]
        if not evidence.informative:
            return sampled, list(range(len(sampled)))
        others = [s for s in range(NUM_SEATS) if s != view.seat]
        played = {s: view.played_by(s) for s in others}
        logs = [evidence.log_weight({s: layout[s] | played[s] for s in others}) for layout in sampled]
        top = max(logs)
        weights = [math.exp(w - top) for w in logs]
        return sampled, resample(weights, self.layouts, rng.random())
