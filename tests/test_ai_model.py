"""The bidding model: features, the least-squares fit, the expected-points arithmetic."""

from __future__ import annotations

import json
import random

import pytest

from conftest import cards
from stepping_stones.ai.bidding import (
    _pmf,
    _point_mass,
    best_declaration,
    declaration_options,
    estimate,
    expected_points,
)
from stepping_stones.ai.features import FEATURE_NAMES, Features, features, suit_figures, trump_features
from stepping_stones.ai.model import expert_model, model, parse_model
from stepping_stones.engine import CONTRACTS, deal
from stepping_stones.lab.calibrate import contract_data, fit, fit_rows, least_squares


def test_least_squares_recovers_a_linear_rule():
    rng = random.Random(1)
    true = [2.0, -1.5, 0.25, 3.0]
    rows = [[1.0] + [rng.uniform(-3, 3) for _ in range(3)] for _ in range(200)]
    ys = [sum(w * x for w, x in zip(true, row, strict=True)) for row in rows]
    fitted = least_squares(rows, ys, ridge=0.0)
    assert fitted == pytest.approx(true, abs=1e-6)


def test_model_covers_every_contract_and_feature():
    for cid in CONTRACTS:
        assert model()[cid].weights._fields == FEATURE_NAMES


def test_model_weights_are_read_by_name_not_by_position():
    text = model().to_json()
    data = json.loads(text)
    weights = data["contracts"]["win-no-trump"]["weights"]
    data["contracts"]["win-no-trump"]["weights"] = dict(reversed(list(weights.items())))
    assert parse_model(json.dumps(data)) == parse_model(text)
    assert parse_model(text).to_json() == text
    del weights["voids"]
    data["contracts"]["win-no-trump"]["weights"] = weights
    with pytest.raises(ValueError, match="win-no-trump"):
        parse_model(json.dumps(data))


def test_features_read_the_hand_under_the_ranking():
    hand = deal(random.Random(4))[0]
    mirrored = 0  # the same hand with every rank r replaced by 10 - r
    for c in range(36):
        if hand >> c & 1:
            mirrored |= 1 << (c // 9 * 9 + 8 - c % 9)
    assert features(hand, 9, 2) == features(mirrored, 1, 2)
    no_trump = features(hand, 9, None)
    assert (
        no_trump.trumps,
        no_trump.trump_tops,
        no_trump.trump_lows,
        no_trump.trump_strength,
        no_trump.short_with_trumps,
    ) == (0.0,) * 5
    assert isinstance(no_trump, Features)


def test_estimates_stay_within_the_counted_tricks():
    for seed in range(20):
        hand = deal(random.Random(seed))[1]
        for contract in CONTRACTS.values():
            for trump in range(4) if contract.picks_trump else (None,):
                value = estimate(contract, hand, 9, trump)
                assert 0 <= value <= 13 - contract.first_counted


def test_expected_points_matches_the_sheet():
    # Sure results: beating both others is +3, two-way tie for last is 0, all tied is +1.
    assert expected_points(_point_mass(8, 12), [_point_mass(5, 12), _point_mass(6, 12)], True) == 3
    assert expected_points(_point_mass(2, 12), [_point_mass(2, 12), _point_mass(6, 12)], True) == 0
    assert expected_points(_point_mass(4, 12), [_point_mass(4, 12), _point_mass(4, 12)], False) == 1
    assert expected_points(_point_mass(1, 12), [_point_mass(4, 12), _point_mass(3, 12)], False) == 3
    assert sum(_pmf(3.3, 1.5, 12)) == pytest.approx(1.0)


def test_the_expert_model_covers_every_contract_and_says_how_it_was_fitted():
    fitted = expert_model()
    for cid in CONTRACTS:
        assert fitted[cid].weights._fields == FEATURE_NAMES
    assert "--declarer expert" in fitted.meta["command"]


def test_calibrate_can_have_an_expert_declare():
    rows, ys = contract_data(("win-no-trump", 1, "cal-expert", 2, "expert"))
    assert len(rows) == len(ys) == 1 and 0 <= ys[0] <= 12
    fitted = fit_rows([(rows * 20, ys * 20)] * len(CONTRACTS), 20, "s", 2, declarer="expert")
    assert fitted.meta["command"] == "calibrate --hands 20 --seed s --samples 2 --declarer expert"
    assert fit_rows([(rows * 20, ys * 20)] * len(CONTRACTS), 20, "s", 2).meta["command"] == (
        "calibrate --hands 20 --seed s --samples 2"
    )
    with pytest.raises(ValueError, match="declarer"):
        fit(1, "s", declarer="cheat")


def test_features_count_each_suit_from_the_cards_out_against_it():
    # Koi trumps, K9 K7 K1 with 9 high: K9 and K7 are tops (K7 once K8 is drawn), K1 a low.
    # C5 alone in a side suit: a singleton, neither top nor low (four cards above, four below).
    hand = cards("K9 K7 K1 C5 L9 L8 L2 L1")
    f = features(hand, 9, 1)
    assert (f.trumps, f.trump_tops, f.trump_lows, f.trump_strength) == (3, 2, 1, 17)
    assert (f.side_tops, f.side_lows, f.side_high, f.side_low) == (2, 2, 2, 2)
    assert (f.voids, f.singletons, f.short_with_trumps) == (1, 1, 2)
    # With 1 high the same cards read the other way up.
    g = features(hand, 1, 1)
    assert (g.trump_tops, g.trump_lows, g.trump_strength) == (1, 2, 13)


def _features_suit_by_suit(hand, ranking, trump):
    """``features`` as it was written before ``trump_features``: one suit at a time, the trump
    suit apart (the reference the faster code is held to)."""
    side = [0.0] * 8  # tops, lows, strength, high, low, voids, singletons, length
    trumps = trump_tops = trump_lows = trump_strength = 0.0
    short = 0
    for s in range(4):
        n, tops, lows, strength, high, low = suit_figures(hand >> (9 * s) & 511, ranking)
        if s == trump:
            trumps, trump_tops, trump_lows, trump_strength = n, tops, lows, strength
            continue
        for i, x in enumerate((tops, lows, strength, high, low)):
            side[i] += x
        side[5] += n == 0
        side[6] += n == 1
        short += n <= 1
        side[7] += max(0, n - 4)
    ruffs = short if trump is not None and trumps >= 3 else 0.0
    return Features(1.0, *side, trumps, trump_tops, trump_lows, trump_strength, ruffs)


def test_the_features_of_every_trump_at_once_are_those_of_each_alone():
    """``trump_features`` (the bidding's weighing of a hand for every trump at once) gives, and
    so ``features`` gives, what the suits give one at a time, down to each item's type; and
    ``best_declaration`` the best of ``estimate`` over ``declaration_options``, the first of
    equals: on hands of every size."""
    rng = random.Random("features-by-trump")
    for i in range(400):
        hand = sum(1 << c for c in rng.sample(range(36), (12, 9, 5, 1)[i % 4]))
        for ranking in (1, 9):
            for trump, found in zip((None, 0, 1, 2, 3), trump_features(hand, ranking), strict=True):
                alone = _features_suit_by_suit(hand, ranking, trump)
                assert found == tuple(alone) == features(hand, ranking, trump), (hand, ranking, trump)
                assert [type(x) for x in found] == [type(x) for x in alone], (hand, ranking, trump)
        for contract in CONTRACTS.values():
            win = contract.is_win
            best = max(
                ((estimate(contract, hand, r, t), -k, r, t) for k, (r, t) in enumerate(declaration_options(contract))),
                key=lambda x: (x[0] if win else -x[0], x[1]),
            )
            assert best_declaration(contract, hand) == (best[0], best[2], best[3]), (contract.id, hand)
