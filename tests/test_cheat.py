"""The lab's ``cheat`` seat: shown every hand by the match driver and by nothing else, it plays
the card with the best exact value, and no command but tournament and simulate accepts it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from stepping_stones.ai import LAB_LEVELS, LEVELS, DoubleDummyAI, UnknownLevelError, decide, make_ai, make_lab_ai
from stepping_stones.ai.bidding import points_by_count
from stepping_stones.ai.solver import Solver, position
from stepping_stones.cli.args import lab_level, level, three_lab_levels
from stepping_stones.engine import NUM_SEATS, TRICKS, Game, Phase, Rules, cards_of
from stepping_stones.game.choices import AI_LEVELS
from stepping_stones.game.match import Match, Seeds, drive

TRICKS_LEFT = 5


def mid_hand(seed: str, seat: int) -> Game:
    """A game played by three heuristic seats until ``seat`` is to play with TRICKS_LEFT tricks
    left in the first hand, or a later one if no such moment came."""
    seeds = Seeds(seed)
    game = Game(Rules("standard"), first_forehand=seeds.first_forehand())

    def there(g: Game) -> bool:
        state = g.state
        return (
            g.phase is Phase.PLAY
            and state is not None
            and g.to_act == seat
            and len(state.plays) // NUM_SEATS == TRICKS - TRICKS_LEFT
        )

    drive(game, [make_ai("heuristic")] * NUM_SEATS, seeds, stop=there)
    assert there(game), "the seed never reached the position"
    return game


def test_the_cheat_is_a_lab_seat_only():
    assert "cheat" in LAB_LEVELS and "cheat" not in LEVELS and "cheat" not in AI_LEVELS
    with pytest.raises(UnknownLevelError):
        make_ai("cheat")
    assert isinstance(make_lab_ai("cheat"), DoubleDummyAI)
    assert make_lab_ai("expert").name == "expert"
    assert lab_level("cheat") == "cheat" and three_lab_levels("cheat, heuristic,expert")[0] == "cheat"
    with pytest.raises(Exception, match="sees every hand: it plays only in tournament and simulate"):
        level("cheat")


def test_play_refuses_the_cheat_in_one_line():
    out = subprocess.run(
        [sys.executable, "-m", "stepping_stones", "play", "--plain", "--levels", "cheat,heuristic"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert out.returncode == 2
    assert "'cheat' sees every hand: it plays only in tournament and simulate" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("seat", range(NUM_SEATS))
def test_only_a_seat_that_sees_every_hand_is_shown_the_hands(seat: int):
    game = mid_hand(f"cheat-shown-{seat}", seat)
    seeds = Seeds(f"cheat-shown-{seat}")
    for name in LEVELS:
        assert Match(game, [make_ai(name)] * NUM_SEATS, seeds).request().hands is None
    request = Match(game, [make_lab_ai("cheat")] * NUM_SEATS, seeds).request()
    assert game.state is not None
    assert request.hands == tuple(game.state.hands)
    with pytest.raises(ValueError, match="shown every hand"):
        decide(request.agent, request.view, request.rng)  # without the hands it does not play


@pytest.mark.parametrize("seed", ["cheat-a", "cheat-b", "cheat-c"])
def test_the_cheat_plays_a_card_of_the_best_exact_value_for_its_side(seed: str):
    game = mid_hand(seed, seat=1)
    seeds = Seeds(seed)
    request = Match(game, [make_lab_ai("cheat")] * NUM_SEATS, seeds).request()
    chosen = request.answer()
    view = request.view
    assert isinstance(chosen, int) and view.legal_cards >> chosen & 1
    # The exact value of every legal card, solved here on the true layout with a fresh solver.
    state = game.state
    assert state is not None and view.declaration is not None and view.declarer is not None
    hands, leader, trick = position(state)
    values = Solver(state.contract, state.ranking, state.trump, state.declarer).card_values(hands, leader, trick)
    assert set(values) == set(cards_of(view.legal_cards))
    worth = points_by_count(view, view.seat)
    taken = view.count()
    best = max(worth[taken + v] for v in values.values())
    assert worth[taken + values[chosen]] == best
    # The same position gives the same card (a new seat, the same generator).
    again = Match(game, [make_lab_ai("cheat")] * NUM_SEATS, seeds).request()
    assert again.answer() == chosen
