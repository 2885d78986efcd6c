"""The expert's bidding: declaring now against waiting, as a small dynamic programme.

Points come from places on the sheet, so every option is valued in expected sheet points:

* **Declaring contract c now** brings the points this hand is expected to score in c (the
  bidding model's estimate and its spread, ranked against what the other two have recorded or
  usually record), plus what the contracts still open are worth over the hands left.
* **Waiting** is worth what all the open contracts are worth over the hands left, one fewer.

What open contracts are worth, ``future(S, n)`` for the set S of this seat's open contracts and n
hands still to be declared in the game, is the dynamic programme.  In each coming hand the seat
gets a new random hand: the plan imagines 120 seeded random hands and the estimates each gives
every contract, hand by hand.  A hand good for one contract tends to be good for the others --
with the ranking to choose, a hand full of top cards under 9 high is full of bottom cards under
1 high -- so valuing the contracts of a hand together keeps the plan from hoping for more than
coming hands can bring (valuing them independently had the expert wait too long: about half its
declarations ended in the puddle, against a third now).  Whether it gets to bid depends on its *bidding position*:
as forehand it always does, second only if the forehand passed, third only if both did; the
others declare when offered about as often as their own open contracts and the hands left
require.  Offered a hand, it declares the contract that gives the most (that hand's points plus
the future of the contracts left) if that beats waiting; if it passes as forehand and both
others pass, it is **in the puddle** and must declare its best contract for that poor hand --
the risk of waiting, which grows as the hands run out.  When every hand left is its own, it
declares one each hand.

Its own hands, this one and the coming ones, are valued with the model of what the *expert*
makes as declarer (``expert_model.json``, fitted from hands an expert declared against two
heuristic seats); the other seats' usual results with the heuristic's model (``model.json``),
since those are the seats it mostly meets.

A **redo token** is weighed the same way: spending it now gains what the better of the two
results adds to the recorded contract's points; keeping it is worth the best such gain over the
chances still to come (an optimal-stopping value).  In the puddle only open contracts count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from random import Random

from ..engine import (
    CONTRACTS,
    FULL_DECK,
    HAND_SIZE,
    NUM_SEATS,
    PASS,
    Bid,
    Contract,
    Declaration,
    Goal,
    Mask,
    PlayerView,
    cards_of,
    mask_of,
)
from .bidding import (
    best_declaration,
    declaring_gain,
    estimate_pmf,
    expected_points,
    others_pmfs,
    usual,
)
from .model import fitted_model
from .params import DEFAULT_PARAMS, ExpertParams

QUANTILES = 12  # a random hand's estimate for a contract, as this many equally likely values
PLANNING_DEALS = 120  # seeded random hands: what a coming hand may bring, all contracts at once
# The plan's tunable settings (how often another player declares when offered the bid, the margin
# of declaring over waiting, whose model values this seat's own hands) are ``params.ExpertParams``.
# The mean and spread of what another seat records in a contract it has not recorded yet, as
# heuristic seats record them when they choose the moment themselves (150 games of three
# heuristic seats per contract set, redos left out: scripts/measure_declared_results.py --games
# 150 --seed heur-usual).  ``bidding.usual`` (a random hand's result shifted by a selection
# allowance) is far off for the trump contracts: 4.7 against 6.4 recorded in Win Tricks (Pick
# Trump), 3.75 against 2.3 in Lose Tricks (Pick Trump), 4.2 against 6.0 in May Trump.  The
# heuristic seats themselves keep ``bidding.usual``.
OTHERS_USUAL: dict[str, tuple[float, float]] = {
    "win-no-trump": (5.02, 2.15),
    "win-pick-trump": (6.39, 1.19),
    "lose-no-trump": (3.04, 2.21),
    "lose-pick-trump": (2.29, 1.33),
    "win-last-6": (3.04, 1.84),
    "may-trump": (5.96, 1.40),
    "must-beat": (2.84, 1.47),
}


def others_usual(contract: Contract) -> tuple[float, float]:
    """The mean and spread of the result another seat usually records in ``contract``."""
    return OTHERS_USUAL.get(contract.id) or usual(contract)


def _random_hands(rng: Random) -> list[Mask]:
    """``PLANNING_DEALS`` random 12-card hands drawn from ``rng``."""
    deck = list(cards_of(FULL_DECK))
    return [mask_of(rng.sample(deck, HAND_SIZE)) for _ in range(PLANNING_DEALS)]


@cache
def planning_hands() -> tuple[Mask, ...]:
    """``PLANNING_DEALS`` seeded random 12-card hands: the coming hands the plan imagines."""
    return tuple(_random_hands(Random("expert-planning")))


@cache
def hand_estimates(contract_id: str, own: str = DEFAULT_PARAMS.own_model) -> tuple[float, ...]:
    """For each of ``planning_hands()``: the estimate for ``contract_id`` with its best ranking
    and trump, by the model of an ``own`` declarer.  Aligned by hand, so that the contracts of
    one hand are valued together: a hand strong for one Win contract is strong for the others,
    and weak for the Lose ones."""
    contract = CONTRACTS[contract_id]
    fitted = fitted_model(own)
    return tuple(best_declaration(contract, hand, fitted)[0] for hand in planning_hands())


@cache
def future_estimates(contract_id: str, own: str = DEFAULT_PARAMS.own_model) -> tuple[float, ...]:
    """The estimate a random hand gives ``contract_id`` with its best ranking and trump (by the
    model of an ``own`` declarer), as ``QUANTILES`` equally likely values (midpoints of the
    quantile bands), from seeded deals."""
    contract = CONTRACTS[contract_id]
    fitted = fitted_model(own)
    hands = _random_hands(Random(f"expert-planning:{contract_id}"))
    values = sorted(best_declaration(contract, hand, fitted)[0] for hand in hands)
    n = len(values)
    return tuple(values[min(n - 1, int((q + 0.5) * n / QUANTILES))] for q in range(QUANTILES))


@dataclass(frozen=True)
class Option:
    """One bid and what it is worth, in expected sheet points for the rest of the game."""

    bid: Bid
    value: float
    now: float  # the points this hand itself is expected to bring (0 for a pass)
    estimate: float | None  # expected counted tricks (None for a pass)


@dataclass(frozen=True)
class BidReckoning:
    """Every legal option the expert weighed, best first, and the facts behind them."""

    options: tuple[Option, ...]
    waiting: float  # what the open contracts are worth if this seat passes
    hands_left: int  # hands still to be declared (this one included)
    open_contracts: int
    forehand: bool
    puddle_risk: float  # chance that a pass now ends with this seat in the puddle

    @property
    def best(self) -> Option:
        return self.options[0]


class BidPlanner:
    """One bidding decision of the expert: ``reckon()`` values every legal bid.  ``own`` names
    the model its own hands are valued with (``params.own_model`` unless given); ``params`` the
    expert's settings (``params.py``)."""

    def __init__(self, view: PlayerView, own: str | None = None, params: ExpertParams | None = None) -> None:
        self.params = DEFAULT_PARAMS if params is None else params
        self.own = own or self.params.own_model
        self.fitted = fitted_model(self.own)
        self.view = view
        self.seat = view.seat
        self.hand = view.own_cards
        sheet = view.sheet
        contracts = view.rules.contracts
        self.contracts = contracts
        self.mine_open = tuple(c for c in contracts if sheet[c.id][self.seat] is None)
        self.other_open = {
            s: sum(1 for c in contracts if sheet[c.id][s] is None) for s in range(NUM_SEATS) if s != self.seat
        }
        self.hands_left = sum(1 for c in contracts for s in range(NUM_SEATS) if sheet[c.id][s] is None)
        self._others = {c.id: others_pmfs(view, self.seat, c, others_usual) for c in contracts}
        self._memo: dict[tuple[int, int], float] = {}
        self._future_points = {c.id: self._future_points_of(c) for c in self.mine_open}

    # --- points ---------------------------------------------------------------------------

    def points(self, contract: Contract, value: float) -> float:
        """Expected sheet points of declaring ``contract`` with an estimate of ``value`` tricks."""
        pmf = estimate_pmf(contract, value, self.fitted)
        return expected_points(pmf, self._others[contract.id], contract.goal is Goal.WIN)

    def redo_gain(self, contract: Contract, value: float, recorded: int) -> float:
        """Points gained by redoing ``contract`` (recorded ``recorded``) with an estimate of ``value``."""
        return declaring_gain(contract, value, recorded, self._others[contract.id], self.fitted)

    def _future_points_of(self, contract: Contract) -> tuple[float, ...]:
        return tuple(self.points(contract, e) for e in hand_estimates(contract.id, self.own))

    # --- the dynamic programme ------------------------------------------------------------------

    def declare_chances(self, hands: int, mine: int) -> list[float]:
        """For each other player with contracts open: the chance it declares when offered the
        bid, with ``hands`` hands left of which ``mine`` are this seat's."""
        others = [float(k) for k in self.other_open.values()]
        # Scale the others' open contracts to the hands they share then.
        total_other = sum(others)
        spare = hands - mine
        if total_other > 0 and spare != total_other:
            others = [k * spare / total_other for k in others]
        return [min(self.params.max_declare, k / (self.params.offer_share * hands)) for k in others if k > 0]

    def offer_chances(self, hands: int, mine: int) -> tuple[float, float]:
        """(chance of being offered the bid in a coming hand, chance of being left in the puddle
        after passing an offer), with ``hands`` hands left of which ``mine`` are this seat's."""
        declare = self.declare_chances(hands, mine)
        seats = 1 + len(declare)  # the forehand card only stops at players with open contracts
        passes = [1.0 - d for d in declare]
        if len(passes) == 2:
            p1, p2 = passes
            offered = (1.0 + (p1 + p2) / 2 + p1 * p2) / seats
            puddle = p1 * p2 / seats
        elif len(passes) == 1:
            offered = (1.0 + passes[0]) / seats
            puddle = passes[0] / seats
        else:
            return 1.0, 1.0
        return offered, puddle / offered

    def future(self, open_mask: int, hands: int) -> float:
        """Expected points from the open contracts in ``open_mask`` (bits over ``mine_open``)
        with ``hands`` hands still to be declared in the game."""
        if not open_mask:
            return 0.0
        key = (open_mask, hands)
        memo = self._memo.get(key)
        if memo is not None:
            return memo
        mine = open_mask.bit_count()
        hands = max(hands, mine)
        members = [i for i in range(len(self.mine_open)) if open_mask >> i & 1]
        # The coming hands are valued jointly over the contracts: each sampled hand is given to
        # the open contract it suits best (given what the others are then worth).
        rows = [self._future_points[self.mine_open[i].id] for i in members]
        rest = [self.future(open_mask & ~(1 << i), hands - 1) for i in members]
        best: list[float] = [
            max(v + r for v, r in zip(values, rest, strict=True)) for values in zip(*rows, strict=True)
        ]
        if mine == hands:
            value = sum(best) / len(best)
        else:
            wait = self.future(open_mask, hands - 1)
            offered, puddle = self.offer_chances(hands, mine)
            taken = sum(m if m > wait else (1.0 - puddle) * wait + puddle * m for m in best) / len(best)
            value = (1.0 - offered) * wait + offered * taken
        self._memo[key] = value
        return value

    def token_value(self, hands: int) -> float:
        """What keeping a redo token is worth: the best redo gain over the chances to come."""
        recorded = [(c, r) for c in self.contracts if (r := self.view.sheet[c.id][self.seat]) is not None]
        if not recorded or hands <= 0:
            return 0.0
        gains = [self.redo_gain(c, e, r) for c, r in recorded for e in future_estimates(c.id, self.own)]
        chances = max(1, round(self.offer_chances(max(hands, 1), 0)[0] * hands))
        value = 0.0
        for _ in range(chances):
            value = sum(max(g, value) for g in gains) / len(gains)
        return value

    # --- the decision -----------------------------------------------------------------------

    def reckon(self) -> BidReckoning:
        view = self.view
        legal = set(view.legal_bids)
        in_puddle = PASS not in legal
        n = self.hands_left
        full = (1 << len(self.mine_open)) - 1
        waiting = self.future(full, n - 1)
        token = 0.0
        has_token = any(isinstance(b, Declaration) and b.redo for b in legal)
        if has_token:
            token = self.token_value(n - 1)
        forehand = len(view.bids) == 0
        puddle_risk = 0.0
        if forehand and not in_puddle and self.mine_open:
            # Passing as forehand: if both others pass too, this seat is in the puddle now.
            puddle_risk = math.prod(1.0 - d for d in self.declare_chances(n, len(self.mine_open)))
        options: list[Option] = []
        best_now = -math.inf
        for i, contract in enumerate(self.mine_open):
            value, ranking, trump = best_declaration(contract, self.hand, self.fitted)
            bid = Declaration(contract, ranking, trump)
            if bid not in legal:
                continue
            now = self.points(contract, value)
            total = now + self.future(full & ~(1 << i), n - 1) + token
            best_now = max(best_now, total)
            options.append(Option(bid, total, now, value))
        if not in_puddle:
            pass_value = waiting + token
            if best_now > -math.inf:
                pass_value = (1 - puddle_risk) * waiting + puddle_risk * (best_now - token) + token
            options.append(Option(PASS, pass_value + self.params.margin, 0.0, None))
            for contract in self.contracts:
                recorded = view.sheet[contract.id][self.seat]
                if recorded is None:
                    continue
                value, ranking, trump = best_declaration(contract, self.hand, self.fitted)
                bid = Declaration(contract, ranking, trump, True)
                if bid not in legal:
                    continue
                gain = self.redo_gain(contract, value, recorded)
                # A redo adds a hand to the game: the open contracts keep all their hands.
                options.append(Option(bid, gain + self.future(full, n), gain, value))
        if not options:
            options.append(Option(view.legal_bids[0], 0.0, 0.0, None))
        options.sort(key=lambda o: -o.value)
        return BidReckoning(tuple(options), waiting, n, len(self.mine_open), forehand, puddle_risk)
