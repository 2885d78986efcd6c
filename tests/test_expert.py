"""The expert level: legal, reproducible choices from its view; its bidding plan; its card search."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest

from game_support import game_at
from stepping_stones.ai import ExpertAI, make_ai
from stepping_stones.ai.bidding import best_declaration, points_by_count, result_pmf, usual
from stepping_stones.ai.inference import BiddingEvidence, resample
from stepping_stones.ai.model import expert_model, model
from stepping_stones.ai.params import DEFAULT_PARAMS
from stepping_stones.ai.planning import (
    OTHERS_USUAL,
    BidPlanner,
    future_estimates,
    hand_estimates,
    others_usual,
    planning_hands,
)
from stepping_stones.engine import (
    CONTRACTS,
    PASS,
    TRICKS,
    Declaration,
    Game,
    Phase,
    Rules,
    cards_of,
    mask_of,
    parse_bid,
    parse_card,
)
from stepping_stones.game.match import Seeds, drive

LOSE_EXACT_TRICKS = DEFAULT_PARAMS.lose_exact_tricks
MIN_EXACT = DEFAULT_PARAMS.min_exact
MIN_LAYOUTS = DEFAULT_PARAMS.min_layouts
TRICK_WEIGHT = DEFAULT_PARAMS.trick_weight


@pytest.mark.parametrize(
    "rules", [Rules("standard"), Rules("advanced", redo_tokens=True)], ids=["standard", "advanced-redo"]
)
def test_choices_are_legal_and_reproducible(rules):
    expert = ExpertAI()
    for actions in (0, 2, 7, 25, 60, 110, 170):
        game = game_at(f"expert-legal:{actions}", rules, actions)
        if game.to_act is None:
            continue
        view = game.view(game.to_act)
        if view.phase is Phase.BIDDING:
            bid = expert.choose_bid(view, random.Random(1))
            assert bid in view.legal_bids
            assert bid == expert.choose_bid(view, random.Random(2))  # the bidding draws nothing
        else:
            card = expert.choose_card(view, random.Random(1))
            assert view.legal_cards >> card & 1
            assert card == expert.choose_card(view, random.Random(1))


def test_a_lose_no_trump_discard():
    """Lose Tricks (No Trump), 9 high; the declarer (seat 0) holds K6 B1 B5, is out of Stone
    Lanterns and must discard on L3-L4.  Keeping K6 lets a defender lead a low Koi and force a
    trick on it; discarding it keeps both Bridges as exits.  The expert discards K6."""
    deal = [
        mask_of(parse_card(t) for t in hand.split())
        for hand in (
            "C1 C3 C7 K5 K6 K9 L2 L5 B1 B2 B5 B6",
            "C2 C4 C5 C8 C9 K2 K7 K8 L3 L8 B7 B9",
            "C6 K1 K3 K4 L1 L4 L6 L7 L9 B3 B4 B8",
        )
    ]
    game = Game(Rules("standard"), first_forehand=0)
    game.start_hand((deal[0], deal[1], deal[2]))
    game.bid(parse_bid("lose-no-trump 9"))
    plays = "C1 C4 C6 B4 B6 B7 C5 L9 C3 K7 K1 K9 L2 L8 L1 K8 K4 K5 C8 L7 C7 C2 L6 L5 C9 B3 B2 L3 L4"
    for token in plays.split(" "):
        game.play(parse_card(token))
    view = game.view(0)
    reckoning = ExpertAI().reckon_card(view, random.Random(3))
    assert reckoning.exact
    assert reckoning.chosen == parse_card("K6")
    # Discarding K6 never gives the declarer more tricks than keeping it, and sometimes fewer.
    assert reckoning.values[parse_card("K6")] < reckoning.values[parse_card("B1")]
    assert reckoning.ranked()[0] == parse_card("K6")


def test_the_reckoning_picks_the_best_average_for_its_side():
    for actions in (30, 75, 140):
        game = game_at(f"expert-reckoning:{actions}", Rules("advanced"), actions)
        if game.phase is not Phase.PLAY:
            continue
        view = game.view(game.to_act)
        if not view.legal_cards & (view.legal_cards - 1):
            continue
        r = ExpertAI().reckon_card(view, random.Random(5))
        assert set(r.values) == set(cards_of(view.legal_cards))
        sign = 1 if r.wants_more else -1
        if r.exact:  # solved to the end: played for sheet points, the count breaking near-ties
            assert set(r.points) == set(r.values)
            best = max(r.points.values())
            assert r.points[r.chosen] >= best - TRICK_WEIGHT * 12
            assert r.score(r.chosen) == max(r.score(c) for c in r.values)
        else:  # counts that are only estimates: the best average count for its side
            assert not r.points
            assert sign * r.values[r.chosen] == max(sign * v for v in r.values.values())
        assert r.ranked()[0] == r.chosen
        assert r.layouts >= 1 and all(0 <= v <= 12 for v in r.values.values())


def _declared(contract: str, sheet_row: tuple[int | None, int | None, int | None], redo: bool = False):
    """A view of seat 0 just after ``contract`` was declared, with the sheet's row for it set."""
    game = Game(Rules("standard", redo_tokens=True), first_forehand=0)
    game.deal_hand(Seeds("points").deal(1))
    game.bid(parse_bid(f"{contract} 9"))
    view = game.view(0)
    sheet = dict(view.sheet)
    sheet[contract] = sheet_row
    declaration = Declaration(view.declaration.contract, 9, None, redo)
    return lambda seat: dataclasses.replace(game.view(seat), sheet=sheet, declaration=declaration)


def test_a_count_is_worth_its_place_on_the_sheet():
    # Both others recorded 5 in Win Tricks (No Trump): under 5 the declarer is third (-1), at 5
    # it shares all three places (+1), over 5 it is first (+3); a sixth trick is worth two
    # points and a seventh nothing.
    view = _declared("win-no-trump", (None, 5, 5))
    assert points_by_count(view(0), 0) == (-1,) * 5 + (1,) + (3,) * 7
    # A defender that recorded 5 loses two points when the declarer passes it, one on a tie.
    assert [x - points_by_count(view(1), 1)[0] for x in points_by_count(view(1), 1)] == [0] * 5 + [-1] + [-2] * 7
    # Lose Tricks: fewer is better.
    view = _declared("lose-no-trump", (None, 2, 4))
    declarer = points_by_count(view(0), 0)
    assert declarer[:2] == (3, 3) and declarer[2] == 2 and declarer[3] == 1 and declarer[4] == 0
    assert set(declarer[5:]) == {-1}
    # A defender not yet recorded cares about the declarer's count by degrees: its own result is
    # still to come, as the contract usually goes.
    values = points_by_count(_declared("win-no-trump", (None, None, None))(1), 1)
    assert all(a >= b for a, b in itertools.pairwise(values)) and values[0] > values[-1]


def test_after_a_redo_the_sheet_keeps_the_better_result():
    # The declarer recorded 4 and plays Win Tricks again with a redo token; the others have 6
    # and 3. Ending below 4 changes nothing; it keeps 4 (second).
    view = _declared("win-no-trump", (4, 6, 3), redo=True)
    values = points_by_count(view(0), 0)
    assert values[:5] == (1,) * 5 and values[6] == 2 and values[7] == 3


def test_in_the_puddle_the_expert_declares_an_open_contract():
    seeds = Seeds("puddle")
    game = Game(Rules("standard", redo_tokens=True), first_forehand=seeds.first_forehand())
    game.deal_hand(seeds.deal(1))
    for _ in range(3):
        game.bid(PASS)
    view = game.view(game.to_act)
    assert PASS not in view.legal_bids
    bid = ExpertAI().choose_bid(view, random.Random(0))
    assert isinstance(bid, Declaration) and not bid.redo and bid in view.legal_bids


def test_the_plan_values_waiting_and_declaring():
    game = game_at("plan", Rules("standard"), 0)  # not dealt yet
    game.deal_hand(Seeds("plan").deal(1))
    view = game.view(game.to_act)
    planner = BidPlanner(view)
    reckoning = planner.reckon()
    assert reckoning.hands_left == 12 and reckoning.open_contracts == 4
    assert [o.value for o in reckoning.options] == sorted((o.value for o in reckoning.options), reverse=True)
    assert {o.bid for o in reckoning.options} <= set(view.legal_bids)
    assert any(o.bid is PASS for o in reckoning.options)
    # More hands to wait through are worth more; no open contract is worth nothing.
    full = (1 << 4) - 1
    assert planner.future(full, 11) >= planner.future(full, 8) >= planner.future(full, 4)
    assert planner.future(0, 5) == 0.0
    # A contract's points are between the worst and best place on the sheet.
    for contract in planner.mine_open:
        assert all(-1.0 <= p <= 3.0 for p in planner._future_points[contract.id])
    assert 0.0 <= reckoning.puddle_risk <= 1.0


def test_future_estimates_are_quantiles_of_random_hands():
    values = future_estimates("win-no-trump")
    assert list(values) == sorted(values) and len(values) == 12
    assert future_estimates("win-no-trump") is values  # computed once


def test_coming_hands_are_valued_for_all_contracts_at_once():
    hands = planning_hands()
    assert len(hands) == 120 and all(h.bit_count() == 12 for h in hands)
    win = hand_estimates("win-no-trump")
    lose = hand_estimates("lose-no-trump")
    assert len(win) == len(lose) == len(hands)
    # Aligned by hand: with the ranking to choose, a hand with many tricks for a Win contract
    # (many top cards under one ranking) has few for a Lose contract (under the other).
    n = len(hands)
    mw, ml = sum(win) / n, sum(lose) / n
    assert sum((w - mw) * (v - ml) for w, v in zip(win, lose, strict=True)) < 0


def test_bidding_evidence_weighs_a_declarers_hand():
    game = Game(Rules("standard"), first_forehand=0)
    game.start_hand(
        tuple(
            mask_of(parse_card(t) for t in hand.split())
            for hand in (
                "C9 C8 C7 C6 K9 K8 K7 L9 L8 B9 B8 B7",
                "C1 C2 C3 C4 K1 K2 K3 L1 L2 L3 B1 B2",
                "C5 K4 K5 K6 L4 L5 L6 L7 B3 B4 B5 B6",
            )
        )
    )
    game.bid(parse_bid("win-no-trump 9"))
    evidence = BiddingEvidence(game.view(1))
    assert evidence.informative
    strong = game.log[-1].deal[0]
    weak = game.log[-1].deal[2]
    assert evidence.log_weight({0: strong, 2: weak}) > evidence.log_weight({0: weak, 2: strong})


def test_resample_draws_in_proportion():
    counts = [0, 0, 0]
    for i in resample([1.0, 2.0, 7.0], 1000, 0.3):
        counts[i] += 1
    assert counts == [100, 200, 700]
    assert resample([0.0, 0.0], 3, 0.5) == [0, 1]
    assert not math.isnan(sum(resample([1e-300, 1.0], 4, 0.1)))


def _opening_lead(seed: str, contract_set: str = "standard"):
    """The view of the declarer about to lead the first card of the first hand (heuristic bids)."""
    seeds = Seeds(seed)
    game = Game(Rules(contract_set), first_forehand=seeds.first_forehand())
    drive(game, [make_ai("heuristic")] * 3, seeds, stop=lambda g: g.phase is Phase.PLAY)
    return game.view(game.to_act)


def test_the_whole_hand_is_solved_from_the_first_trick():
    """At the opening lead (twelve tricks left) the expert solves every layout it searches to
    the end of the hand, in sheet points: the horizon search is only its fallback."""
    view = _opening_lead("expert-deterministic")
    assert len(view.trick_winners) == 0 and not view.current_trick()
    r = ExpertAI().reckon_card(view, random.Random(11))
    assert r.exact
    assert set(r.points) == set(r.values) == set(cards_of(view.legal_cards))
    assert r.layouts >= MIN_EXACT and r.nodes > 0
    # With the whole hand solved, a card's value is a count of the declarer's whole hand that
    # some layout reached: at most 12 and an average of whole counts.
    assert all(0 <= v <= 12 for v in r.values.values())
    # The fallback (search to a horizon, then count) gives estimates instead, and no points.
    horizon = ExpertAI(exact_tricks=8).reckon_card(view, random.Random(11))
    assert not horizon.exact and not horizon.points


def test_a_lose_contract_is_solved_exactly_only_at_the_end():
    """In a Lose contract the expert searches the current trick and counts the rest until
    LOSE_EXACT_TRICKS tricks are left, then solves exactly; ``lose_exact_tricks=12`` (the cheat
    seat's) solves from the first trick."""
    game = Game(Rules("standard"), first_forehand=0)
    game.deal_hand(Seeds("lose-exact").deal(1))
    game.bid(parse_bid("lose-no-trump 9"))
    view = game.view(0)
    early = ExpertAI().reckon_card(view, random.Random(1))
    assert not early.exact and not early.points and early.layouts >= MIN_EXACT
    whole = ExpertAI(lose_exact_tricks=12, node_budget=10**7, layouts=4).reckon_card(view, random.Random(1))
    assert whole.exact and whole.points
    while len(game.view(0).trick_winners) < TRICKS - LOSE_EXACT_TRICKS:
        game.play(game.legal_cards()[0])
    while game.to_act != 0:
        game.play(game.legal_cards()[0])
    late = ExpertAI().reckon_card(game.view(0), random.Random(1))
    assert late.exact and late.points


def test_the_whole_hand_search_is_deterministic_under_a_seed():
    view = _opening_lead("expert-deterministic", "advanced")
    a = ExpertAI().reckon_card(view, random.Random(4))
    b = ExpertAI().reckon_card(view, random.Random(4))
    assert a == b  # same values, points, layouts, positions searched and card


def test_the_decision_budget_counts_positions():
    """No new layout is started once the budget of positions is spent (after MIN_LAYOUTS), a
    search reaching the hard limit is dropped, and too few exact layouts mean the fallback."""
    view = _opening_lead("expert-budget")
    small = ExpertAI(node_budget=2_000, hard_limit=10**9, layout_limit=10**9).reckon_card(view, random.Random(2))
    assert small.exact and small.layouts == MIN_LAYOUTS  # each layout costs more than 2,000
    large = ExpertAI(node_budget=10**9, layouts=12).reckon_card(view, random.Random(2))
    assert large.exact and large.layouts == 12 and large.nodes > small.nodes
    # A layout whose search passes the layout limit is left out, its positions counted.
    capped = ExpertAI(node_budget=10**9, layouts=12, layout_limit=100_000).reckon_card(view, random.Random(2))
    assert capped.exact and 0 < capped.layouts < 12 and capped.nodes < large.nodes
    # A hard limit no whole-hand solve fits in: the exact search stops there, and the horizon
    # search (its budget at most the decision's, its hard limit twice that) decides.
    tiny = ExpertAI(node_budget=1_000, hard_limit=50).reckon_card(view, random.Random(2))
    assert not tiny.exact and tiny.layouts >= 1
    assert tiny.nodes <= 50 + 1 + 2 * 1_000 + 12 * 40  # the last layout may end its position


def test_the_expert_values_its_own_hands_with_its_own_model():
    # Its own hands by the model of an expert declarer; the other seats' usual results by the
    # heuristic's model, which it mostly meets.
    game = game_at("plan", Rules("standard"), 0)
    game.deal_hand(Seeds("plan").deal(1))
    view = game.view(game.to_act)
    own, theirs = BidPlanner(view), BidPlanner(view, own="heuristic")
    assert own.fitted is expert_model() and theirs.fitted is model()
    for contract in own.mine_open:
        assert own._others[contract.id] == theirs._others[contract.id] == [result_pmf(None, contract, others_usual)] * 2
    # The others' usual results are what heuristic seats record, not the heuristic's own guess
    # (which the heuristic seats keep).
    trumps = CONTRACTS["win-pick-trump"]
    assert others_usual(trumps) == OTHERS_USUAL["win-pick-trump"] != usual(trumps)
    for option in own.reckon().options:
        if isinstance(option.bid, Declaration):
            assert option.estimate == best_declaration(option.bid.contract, view.own_cards, expert_model())[0]
    assert hand_estimates("win-no-trump") != hand_estimates("win-no-trump", "heuristic")
    with pytest.raises(ValueError, match="bidding model"):
        BidPlanner(view, own="cheat")


def test_the_experts_settings_are_one_object_and_tuning_it_changes_nothing_global():
    from stepping_stones.ai.params import ExpertParams

    tuned = DEFAULT_PARAMS.with_settings(["layouts=3", "margin=100", "lose_lookahead=null"])
    assert (tuned.layouts, tuned.margin, tuned.lose_lookahead) == (3, 100.0, None)
    assert ExpertParams() == DEFAULT_PARAMS and ExpertAI().layouts == DEFAULT_PARAMS.layouts
    expert = ExpertAI(params=tuned)
    assert expert.layouts == 3 and expert.lose_lookahead == expert.lookahead
    for bad, message in [
        ("nothing", "not name=value"),
        ("no_such=1", "no setting 'no_such'"),
        ("layouts=many", "not a JSON value"),
        ("layouts=2.5", "layouts: '2.5' is not a whole number"),
        ("own_model=3", "is not a string"),
    ]:
        with pytest.raises(ValueError, match=message):
            DEFAULT_PARAMS.with_settings([bad])
    # A margin of 100 points makes waiting better than any declaration; the default expert
    # beside it declares on the same hand (a strong one: the plan's own test hand).
    game = game_at("plan", Rules("standard"), 0)
    game.deal_hand(Seeds("plan").deal(1))
    view = game.view(game.to_act)
    assert ExpertAI(params=tuned).choose_bid(view, random.Random(0)) is PASS
    default = ExpertAI().reckon_bid(view)
    waiting = next(o.value for o in default.options if o.bid is PASS)
    tuned_waiting = next(o.value for o in ExpertAI(params=tuned).reckon_bid(view).options if o.bid is PASS)
    assert tuned_waiting == pytest.approx(waiting + 100 - DEFAULT_PARAMS.margin)
