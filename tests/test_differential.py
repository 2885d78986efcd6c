"""The engine against a second, naive implementation of the rules (tests/reference.py).

Random whole games, unfinished games, and games with one action changed: the
replay facts must agree field by field, and an illegal action must be refused
at the same hand and action by both.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from conftest import ALL_RULES, random_game
from stepping_stones.engine import CARD_NAMES, CONTRACTS
from stepping_stones.storage.records import (
    RecordError,
    game_from_record,
    parse_record,
    record_from_game,
    record_json,
    summary,
)

BID_WORDS = ["pass"] + [
    f"{cid} {rk}{' ' + s if c.picks_trump else ''}{redo}"
    for cid, c in CONTRACTS.items()
    for rk in (9, 1)
    for s in ("C", "K", "L", "B")
    for redo in ("", " redo")
]


def engine_outcome(data: dict):
    try:
        return "ok", summary(game_from_record(parse_record(json.dumps(data))))
    except RecordError as exc:
        return "refused", (exc.hand, exc.action)


def reference_outcome(data: dict):
    try:
        return "ok", reference.replay(data)
    except reference.Illegal as exc:
        return "refused", exc.where


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(ALL_RULES), cut=st.one_of(st.none(), st.integers(0, 700)))
def test_legal_games_agree_with_the_reference(seed, rules, cut):
    game = random_game(seed, rules, stop_after=cut)
    data = json.loads(record_json(record_from_game(game)))
    assert engine_outcome(data) == reference_outcome(data) == ("ok", summary(game))


@settings(max_examples=120, deadline=None)  # each rule set, each kind of change: ~4 times
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(ALL_RULES), data=st.data())
def test_games_with_one_changed_action_agree_with_the_reference(seed, rules, data):
    game = random_game(seed, rules)
    record = json.loads(record_json(record_from_game(game)))
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    hand = rng.choice(record["hands"])
    kind = data.draw(st.sampled_from(["bid", "card", "drop-card", "extra-bid"]))
    if kind == "bid":
        i = rng.randrange(len(hand["bids"]))
        hand["bids"][i] = rng.choice(BID_WORDS)
    elif kind == "extra-bid":
        hand["bids"].insert(rng.randrange(len(hand["bids"]) + 1), rng.choice(BID_WORDS))
    else:
        plays = hand["play"].split()
        i = rng.randrange(len(plays))
        if kind == "card":
            plays[i] = rng.choice(CARD_NAMES)
        else:
            del plays[i]
        hand["play"] = " ".join(plays)
    assert engine_outcome(record) == reference_outcome(record)
