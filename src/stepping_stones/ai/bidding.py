"""How the heuristic seat bids.

For every contract it may declare, and every ranking and trump suit, it
estimates the tricks this hand would bring (``features.py`` weighted by the
fitted model, ``model.json`` as ``model.py`` reads it) and keeps the best ranking and trump.  It then turns
tricks into what matters, the points on the sheet: it compares its estimate
with the results the other players have already recorded for that contract
(or, where they have not, with what that contract usually yields) and
computes the points it expects -- +3 first, +1 second, -1 third, ties shared.
The same sum for an ordinary hand is what waiting would bring; the difference
is the *gain* of declaring now.

It declares the contract with the largest gain when that gain beats a bar that
falls as the game runs out of hands: early on, with many hands still to come
for few contracts, only a clearly good hand is worth it; when every remaining
hand is needed (and in the puddle) it takes the best it has.  A redo token is
spent when a recorded result was poor and this hand would very likely beat it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..engine import NUM_SEATS, NUM_SUITS, PASS, RANKINGS, Bid, Contract, Declaration, Goal, Mask, PlayerView, Seat
from .features import features, trump_features
from .model import Model, model

# How much better than a random hand the contracts' declarers usually do: they
# pick their moment, so a "usual" result is this many spreads above the mean.
SELECTION_SHIFT = 0.6
# The bar a declaration's gain must clear, in sheet points per spare hand per
# contract still open ...
BAR_SCALE = 0.25
# ... of which at most this many spare hands count.
MAX_SPARE_HANDS = 3.0
# A redo must gain this much more than keeping the recorded result: more while
# the game has many hands to go, less near its end.
REDO_BAR_EARLY = 0.9
REDO_BAR_LATE = 0.5
LATE_HANDS = 3  # "near the end": this many hands or fewer still to be played
# The narrowest spread of results the model assumes, in tricks.
MIN_SPREAD = 0.3


def estimate(contract: Contract, hand: Mask, ranking: int, trump: int | None, fitted: Model | None = None) -> float:
    """Expected result (counted tricks) of declaring ``contract`` with ``hand``, by the model
    ``fitted`` (by default the heuristic's, ``model()``)."""
    return _within(contract, (fitted or model())[contract.id].estimate(features(hand, ranking, trump)))


def _within(contract: Contract, value: float) -> float:
    """A model's weighted sum as a result: no fewer than none of the tricks counted, nor more."""
    return min(max(value, 0.0), float(contract.tricks_counted))


Usual = Callable[[Contract], tuple[float, float]]
"""The mean and spread of the result a declarer of a contract usually records."""


def usual(contract: Contract) -> tuple[float, float]:
    """Mean and spread of the result a declarer of ``contract`` usually records."""
    data = model()[contract.id]
    sign = 1 if contract.goal is Goal.WIN else -1
    mean = data.random_hand_mean + sign * SELECTION_SHIFT * data.random_hand_sd
    return mean, data.random_hand_sd


def _pmf(mean: float, sd: float, top: int) -> list[float]:
    """A normal spread of results, rounded to whole tricks 0..top."""
    sd = max(sd, MIN_SPREAD)
    cdf = [0.5 * (1 + math.erf((k + 0.5 - mean) / (sd * math.sqrt(2)))) for k in range(top + 1)]
    cdf[top] = 1.0
    return [cdf[0]] + [cdf[k] - cdf[k - 1] for k in range(1, top + 1)]


def _point_mass(value: int, top: int) -> list[float]:
    p = [0.0] * (top + 1)
    p[value] = 1.0
    return p


def result_pmf(recorded: int | None, contract: Contract, usual_of: Usual = usual) -> list[float]:
    """A seat's result in ``contract``'s column, as chances over 0..tricks counted: the recorded
    one for certain, else the contract's usual spread (``usual_of``, by default ``usual``)."""
    top = contract.tricks_counted
    if recorded is not None:
        return _point_mass(recorded, top)
    mean, sd = usual_of(contract)
    return _pmf(mean, sd, top)


def kept_on_sheet(now: Sequence[float], earlier: int | None, contract: Contract) -> list[float]:
    """What the sheet keeps of a result spread ``now``: after a redo of a recorded ``earlier``,
    the better of the two (else ``now`` itself)."""
    if earlier is None:
        return list(now)
    kept = [0.0] * len(now)
    for x, p in enumerate(now):
        kept[x if contract.better(x, earlier) else earlier] += p
    return kept


def trump_options(contract: Contract) -> Sequence[int | None]:
    """The trumps a declarer of ``contract`` may name (None: no trump)."""
    return range(NUM_SUITS) if contract.picks_trump else (None,)


def declaration_options(contract: Contract) -> list[tuple[int, int | None]]:
    """Every (ranking, trump) a declarer of ``contract`` may name."""
    return [(r, t) for r in RANKINGS for t in trump_options(contract)]


def best_declaration(contract: Contract, hand: Mask, fitted: Model | None = None) -> tuple[float, int, int | None]:
    """(estimate, ranking, trump): the best ranking and trump for ``contract`` with ``hand``
    (the first of equals in ``declaration_options``' order), by the model ``fitted``."""
    win = contract.goal is Goal.WIN
    data = (fitted or model())[contract.id]
    best: tuple[float, float, int, int | None] | None = None
    for ranking, trump in declaration_options(contract):
        # every trump's features at once, the hand's next trumps from trump_features' cache
        values = trump_features(hand, ranking)[0 if trump is None else trump + 1]
        value = _within(contract, data.estimate(values))  # as ``estimate``
        key = value if win else -value
        if best is None or key > best[0]:
            best = (key, value, ranking, trump)
    assert best is not None
    return best[1], best[2], best[3]


def estimate_pmf(contract: Contract, value: float, fitted: Model | None = None) -> list[float]:
    """The results a declaration of ``contract`` estimated at ``value`` tricks may end with: the
    estimate spread by the error of the model ``fitted`` for that contract."""
    return _pmf(value, (fitted or model())[contract.id].sigma, contract.tricks_counted)


def others_pmfs(view: PlayerView, seat: Seat, contract: Contract, usual_of: Usual = usual) -> list[list[float]]:
    """The other two seats' results in ``contract``'s column, as ``result_pmf`` gives them."""
    return [result_pmf(r, contract, usual_of) for s, r in enumerate(view.sheet[contract.id]) if s != seat]


def expected_points(mine: Sequence[float], others: Sequence[Sequence[float]], win: bool) -> float:
    """Expected sheet points: -1, plus 2 for each other player beaten and 1 for each tie."""
    total = -1.0
    for other in others:
        below = 0.0  # P(other's result < x) as x runs upwards
        for x, p in enumerate(mine):
            tie = other[x]
            above = 1.0 - below - tie
            beaten = below if win else above
            total += p * (2 * beaten + tie)
            below += tie
    return total


def declaring_gain(
    contract: Contract,
    value: float,
    recorded: int | None,
    others: Sequence[Sequence[float]],
    fitted: Model | None = None,
) -> float:
    """The sheet points declaring ``contract`` now (estimated at ``value`` tricks by the model
    ``fitted``) is expected to gain against the others' results ``others``: over a usual result
    when it is not recorded yet, over keeping ``recorded`` when this is a redo (the sheet then
    keeps the better of the two)."""
    win = contract.goal is Goal.WIN
    kept = kept_on_sheet(estimate_pmf(contract, value, fitted), recorded, contract)
    return expected_points(kept, others, win) - expected_points(result_pmf(recorded, contract), others, win)


def points_by_count(view: PlayerView, seat: Seat) -> tuple[float, ...]:
    """What the hand being played is worth to ``seat`` on the sheet, for each count the
    declarer may end with: ``out[x]`` is seat's expected points from this contract's column
    if the declarer counts ``x`` tricks.

    Tricks are not points: a declarer who needs six to pass a recorded five gains nothing from
    a seventh, and a defender whose own result the declarer cannot reach is indifferent.  A
    result not yet recorded is taken as the contract's usual one (``usual``); after a redo the
    sheet keeps the declarer's better result.  Terms that ``x`` cannot change are left out, so
    only differences between entries mean anything.
    """
    declaration = view.declaration
    declarer = view.declarer
    if declaration is None or declarer is None:
        raise ValueError("no contract has been declared yet")
    contract = declaration.contract
    top = contract.tricks_counted
    win = contract.goal is Goal.WIN
    row = view.sheet[contract.id]
    earlier = row[declarer] if declaration.redo else None
    others = [result_pmf(row[s], contract) for s in range(NUM_SEATS) if s != seat]  # on the sheet
    mine = result_pmf(row[seat], contract)  # a defender's own result
    out = []
    for x in range(top + 1):
        kept = kept_on_sheet(_point_mass(x, top), earlier, contract)
        out.append(expected_points(kept, others, win) if seat == declarer else expected_points(mine, [kept], win))
    return tuple(out)


class BidChooser:
    def __init__(self, view: PlayerView, bar_scale: float = BAR_SCALE) -> None:
        self.view = view
        self.bar_scale = bar_scale
        self.seat = view.seat
        self.hand = view.own_cards

    def hands_left(self) -> tuple[int, int]:
        """(hands still to be played in the game, of which this seat must declare)."""
        view = self.view
        mine = 0
        total = 0
        for row in view.sheet.values():
            for s in range(NUM_SEATS):
                if row[s] is None:
                    total += 1
                    if s == self.seat:
                        mine += 1
        return total, mine

    def bar(self) -> float:
        """The gain a declaration must beat now: high with many spare hands, zero when none are left."""
        total, mine = self.hands_left()
        if mine == 0:
            return 0.0
        spare = (total - mine) / mine  # other players' hands per contract of mine
        return self.bar_scale * min(spare, MAX_SPARE_HANDS)

    def redo_bar(self) -> float:
        total, _ = self.hands_left()
        return REDO_BAR_EARLY if total > LATE_HANDS else REDO_BAR_LATE

    def choose(self) -> Bid:
        view = self.view
        legal = set(view.legal_bids)
        options: list[tuple[float, Declaration]] = []
        for contract in view.rules.contracts:
            recorded = view.sheet[contract.id][self.seat]
            value, ranking, trump = best_declaration(contract, self.hand)
            bid = Declaration(contract, ranking, trump, recorded is not None)
            if bid not in legal:
                continue
            g = declaring_gain(contract, value, recorded, others_pmfs(view, self.seat, contract))
            if recorded is not None:
                g -= self.redo_bar()
            options.append((g, bid))
        if not options:
            return PASS if PASS in legal else view.legal_bids[0]
        best_gain, best_bid = max(options, key=lambda o: o[0])
        total, mine = self.hands_left()
        if PASS not in legal or (mine and total == mine):
            # In the puddle, or every hand left is ours anyway: waiting gains nothing.
            fresh = [o for o in options if not o[1].redo]
            if fresh and (PASS not in legal or best_gain <= 0 or not best_bid.redo):
                return max(fresh, key=lambda o: o[0])[1]
            return best_bid
        if best_bid.redo:
            return best_bid if best_gain > 0 else PASS
        return best_bid if best_gain > self.bar() else PASS
