"""The AI seats only ever choose legal actions, and they cannot see hidden cards."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stepping_stones.ai import (
    DEFAULT_LEVEL,
    LEVELS,
    ExpertAI,
    HeuristicAI,
    RandomAI,
    UnknownLevelError,
    decide,
    make_ai,
)
from stepping_stones.engine import FULL_DECK, Game, Phase, Rules, cards_of
from stepping_stones.game.choices import AI_LEVELS, DEFAULT_AI_LEVEL
from stepping_stones.game.match import Match, Seeds, drive
from stepping_stones.lab.simulate import play_game

MODES = [
    Rules("standard"),
    Rules("advanced"),
    Rules("standard", short_game=True),
    Rules("advanced", short_game=True),
    Rules("standard", redo_tokens=True),
    Rules("advanced", short_game=True, redo_tokens=True),
]


def test_levels():
    assert set(LEVELS) == {"random", "heuristic", "expert"}
    assert isinstance(make_ai("random"), RandomAI)
    assert isinstance(make_ai("heuristic"), HeuristicAI)
    assert isinstance(make_ai("expert"), ExpertAI)
    with pytest.raises(UnknownLevelError):
        make_ai("grandmaster")


def test_the_setup_screen_offers_the_levels_of_the_ai():
    """choices.py names the levels without importing the AI (so the setup screen appears sooner):
    the same names, in the same order, and the same default."""
    assert tuple(LEVELS) == AI_LEVELS
    assert DEFAULT_AI_LEVEL == DEFAULT_LEVEL


class HeuristicAsked:
    """A seat that asks the heuristic for its answer, checks that the game would take it, and
    then plays at random (so the game goes anywhere a random game goes)."""

    name = "heuristic-asked"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.heuristic = HeuristicAI()
        self.random = RandomAI()

    def choose_bid(self, view, rng):
        assert decide(self.heuristic, view, random.Random(self.seed)) in view.legal_bids
        return self.random.choose_bid(view, rng)

    def choose_card(self, view, rng):
        assert view.legal_cards >> decide(self.heuristic, view, random.Random(self.seed)) & 1
        return self.random.choose_card(view, rng)


class Checked:
    """Wraps an agent: every choice must be one the view offered."""

    def __init__(self, agent):
        self.agent = agent
        self.name = agent.name
        self.bids = self.cards = 0

    def choose_bid(self, view, rng):
        bid = self.agent.choose_bid(view, rng)
        assert bid in view.legal_bids
        self.bids += 1
        return bid

    def choose_card(self, view, rng):
        card = self.agent.choose_card(view, rng)
        assert view.legal_cards >> card & 1
        assert view.own_cards >> card & 1
        self.cards += 1
        return card


@pytest.mark.parametrize(
    "rules", MODES, ids=lambda r: f"{r.contract_set}-short{int(r.short_game)}-redo{int(r.redo_tokens)}"
)
@pytest.mark.parametrize("seats", [("heuristic", "heuristic", "heuristic"), ("heuristic", "random", "heuristic")])
def test_whole_games_with_only_legal_actions(rules, seats):
    for number in range(2):
        agents = [Checked(make_ai(level)) for level in seats]
        game = play_game(agents, rules, seed=11, number=number)
        assert game.over
        assert sum(game.totals()) == 3 * len(rules.contracts)
        assert all(a.cards > 0 for a in agents)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_heuristic_is_legal_at_any_point_of_a_random_game(seed, mode):
    """Random games, stopped anywhere: the heuristic's answer is legal there."""
    seeds = Seeds(f"legal-anywhere:{seed}")
    game = Game(mode, first_forehand=seeds.first_forehand())
    drive(game, [HeuristicAsked(seed)] * 3, seeds, max_actions=seeds.stream("stop").randrange(1, 400))
    assert game.log


def _regroup(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game, except that the other two seats' unplayed cards are dealt anew.

    Every card each of them has played stays theirs, so the whole history is
    the same; only cards the seat cannot see move.  Suits a seat has shown out
    of stay out of its hand, so every play stays legal.
    """
    hand = game.hand
    state = hand.state
    others = [s for s in range(3) if s != seat]
    from stepping_stones.ai.knowledge import Knowledge

    know = Knowledge(game.view(seat))
    new_now = know.sample_layout(rng)
    deal = list(hand.deal)
    for s in others:
        played = hand.deal[s] & ~state.hands[s]
        deal[s] = played | new_now[s]
    regrouped = Game(game.rules, game.players, game.first_forehand)
    regrouped.start_hand(tuple(deal))
    for b in hand.bids:
        regrouped.bid(b)
    for c in state.plays:
        regrouped.play(c)
    return regrouped


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), contract_set=st.sampled_from(["standard", "advanced"]), depth=st.integers(0, 34))
def test_choice_does_not_depend_on_hidden_cards(seed, contract_set, depth):
    seeds = Seeds(f"hidden-cards:{seed}")
    game = Game(Rules(contract_set), first_forehand=seeds.first_forehand())
    drive(game, [RandomAI()] * 3, seeds, stop=lambda g: g.phase is Phase.PLAY and len(g.log[-1].plays) == depth)
    seat = game.to_act
    other = _regroup(game, seat, random.Random(seed + 1))
    assert other.view(seat) == game.view(seat)
    for level in LEVELS:
        # The expert with a small search (a few layouts, a small budget): the same code, drawing
        # its layouts from the view and searching them, at a fraction of the cost.
        ai = ExpertAI(layouts=4, node_budget=4000) if level == "expert" else make_ai(level)
        a = ai.choose_card(game.view(seat), random.Random(seed))
        b = ai.choose_card(other.view(seat), random.Random(seed))
        assert a == b


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), redo=st.booleans())
def test_bid_does_not_depend_on_hidden_cards(seed, redo):
    rng = random.Random(seed)
    rules = Rules("standard", redo_tokens=redo)
    game = Game(rules, first_forehand=0)
    # Play a few hands at random so the sheet has results, then deal the next one.
    hands = rng.randrange(0, 6)
    seeds = Seeds(f"hidden-bid:{seed}")
    drive(game, [RandomAI()] * 3, seeds, stop=lambda g: g.phase is Phase.DEAL and len(g.log) == hands)
    if game.over:
        return
    Match(game, [RandomAI()] * 3, seeds).deal()
    seat = game.to_act
    mine = game.hand.deal[seat]
    rest = list(cards_of(FULL_DECK & ~mine))
    rng.shuffle(rest)
    deal = [0, 0, 0]
    deal[seat] = mine
    for i, s in enumerate(s for s in range(3) if s != seat):
        for c in rest[12 * i : 12 * i + 12]:
            deal[s] |= 1 << c
    other = Game(rules, game.players, game.first_forehand)
    for past in game.log[:-1]:
        other.start_hand(past.deal)
        for b in past.bids:
            other.bid(b)
        for c in past.plays:
            other.play(c)
    other.start_hand(tuple(deal))
    assert other.view(seat) == game.view(seat)
    for level in LEVELS:
        ai = make_ai(level)
        mine = ai.choose_bid(game.view(seat), random.Random(seed))
        assert mine == ai.choose_bid(other.view(seat), random.Random(seed))


def test_same_seed_same_game():
    rules = Rules("advanced", redo_tokens=True)
    a = play_game([make_ai("heuristic") for _ in range(3)], rules, seed=5, number=0)
    b = play_game([make_ai("heuristic") for _ in range(3)], rules, seed=5, number=0)
    assert [h.plays for h in a.log] == [h.plays for h in b.log]
    assert [h.bids for h in a.log] == [h.bids for h in b.log]


def test_deals_do_not_depend_on_who_sits_where():
    rules = Rules("standard")
    a = play_game([make_ai(x) for x in ("heuristic", "random", "random")], rules, seed=9, number=3)
    b = play_game([make_ai(x) for x in ("random", "random", "heuristic")], rules, seed=9, number=3)
    assert a.first_forehand == b.first_forehand
    n = min(len(a.log), len(b.log))
    assert [h.deal for h in a.log[:n]] == [h.deal for h in b.log[:n]]


@pytest.mark.parametrize("contract_set", ["standard", "advanced"])
@pytest.mark.parametrize("depth", [1, 2])
def test_the_whole_hand_search_does_not_read_hidden_cards(contract_set, depth):
    """The expert's exact search of the whole hand in the first trick (where a whole hand is
    solved per layout): with the unseen cards dealt anew, the whole reckoning is the same:
    every card's value and points, the layouts searched and even the positions searched."""
    seed = 7 + depth
    seeds = Seeds(f"hidden-whole-hand:{contract_set}:{depth}:1")
    game = Game(Rules(contract_set), first_forehand=seeds.first_forehand())
    drive(
        game, [make_ai("heuristic")] * 3, seeds, stop=lambda g: g.phase is Phase.PLAY and len(g.log[-1].plays) == depth
    )
    seat = game.to_act
    other = _regroup(game, seat, random.Random(seed + 1))
    assert other.hand.deal != game.hand.deal and other.view(seat) == game.view(seat)
    # Three layouts, each solved to the end of the hand unless that takes over 300,000 positions
    # (in a Lose contract too, where the expert as it plays searches only the current trick
    # until six tricks are left: that search is checked below).
    expert = ExpertAI(
        layouts=3, node_budget=1, hard_limit=10**9, layout_limit=300_000, min_exact=1, lose_exact_tricks=12
    )
    a = expert.reckon_card(game.view(seat), random.Random(seed))
    b = expert.reckon_card(other.view(seat), random.Random(seed))
    assert a.exact and a.nodes > 0
    assert a == b
    played = ExpertAI(layouts=6)
    assert played.reckon_card(game.view(seat), random.Random(seed)) == played.reckon_card(
        other.view(seat), random.Random(seed)
    )
