"""Stepping Stones as an OpenSpiel game (stepping_stones.openspiel) and the lab's ismcts seat.

OpenSpiel's own consistency test runs on four variants; random games played through pyspiel are
replayed by ``stepping-stones replay`` and must score as pyspiel returned; what a seat observes and
what ISMCTS chooses must not change when the cards it cannot see are dealt again.
"""

from __future__ import annotations

import doctest
import importlib
import json
from random import Random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from stepping_stones import openspiel  # noqa: E402  (registers the game)
from stepping_stones.ai import make_ai, make_lab_ai  # noqa: E402
from stepping_stones.ai.knowledge import Knowledge  # noqa: E402
from stepping_stones.cli import main  # noqa: E402
from stepping_stones.engine import FULL_DECK, Game, Phase, Rules, cards_of, mask_of  # noqa: E402
from stepping_stones.game.match import Match, Seeds, Step  # noqa: E402
from stepping_stones.openspiel import GAME_NAME, ISMCTSAgent, SteppingStonesGame  # noqa: E402
from stepping_stones.storage.records import record_json  # noqa: E402

VARIANTS = {
    "standard": {},
    "advanced": {"contract_set": "advanced"},
    "short": {"short_game": True, "omit": "lose-pick-trump"},
    "redo": {"redo_tokens": True},
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_random_simulation_test(variant: str):
    game = pyspiel.load_game(GAME_NAME, VARIANTS[variant])
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_parameters_name_the_rules_and_a_wrong_one_is_refused():
    game = pyspiel.load_game(GAME_NAME, VARIANTS["short"])
    assert game.rules == Rules("standard", short_game=True, omit="lose-pick-trump")
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == 3 * len(game.rules.contracts)
    with pytest.raises(Exception, match="unknown contract set 'bridge'"):
        pyspiel.load_game(GAME_NAME, {"contract_set": "bridge"})


def _random_game(params: dict, seed: int):
    game = pyspiel.load_game(GAME_NAME, params)
    state = game.new_initial_state()
    rng = Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize(("variant", "seed"), [("standard", 1), ("advanced", 2), ("redo", 3), ("short", 4)])
def test_random_pyspiel_games_replay_to_their_returns(variant, seed, tmp_path, capsys):
    game, state = _random_game(VARIANTS[variant], seed)
    returns = state.returns()
    assert sum(returns) == game.utility_sum()
    path = tmp_path / "game.json"
    path.write_text(record_json(state.record()))
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["complete"] is True
    assert [float(t) for t in facts["totals"]] == returns
    # the engine's game played again as actions (its deals in card order) reaches the same game
    again = game.state_of(state.engine)
    assert again.record() == state.record() and again.returns() == returns


def _position(seed: str, steps: int) -> Game:
    match = Match.new(Rules("standard"), [make_ai("heuristic")] * 3, Seeds(seed))
    for _ in range(steps):
        if match.step() is Step.OVER:
            break
    return match.game


def _redealt(game: Game, seat: int, rng: Random) -> Game | None:
    """The same game, the cards ``seat`` has not seen dealt again to the other two seats in
    another way that agrees with every card played (None when there is no other way)."""
    view = game.view(seat)
    hand = game.hand
    others = [s for s in range(3) if s != seat]
    for _ in range(50):
        if view.phase is Phase.PLAY:
            layout = Knowledge(view).sample_layout(rng)
        else:
            unseen = sorted(cards_of(FULL_DECK & ~view.dealt_cards))
            rng.shuffle(unseen)
            layout = {others[0]: mask_of(unseen[:12]), others[1]: mask_of(unseen[12:])}
        deal = list(hand.deal)
        for s in others:
            deal[s] = layout[s] | view.played_by(s)
        if deal == list(hand.deal):
            continue
        other = Game(game.rules, game.players, game.first_forehand)
        for i, past in enumerate(game.log):
            other.start_hand(tuple(deal) if i == len(game.log) - 1 else past.deal)
            for k, bid in enumerate(past.bids):
                if len(other.log[-1].bids) <= k:
                    other.bid(bid)
            for c in past.plays:
                other.play(c)
        assert other.view(seat) == view
        return other
    return None


@pytest.mark.parametrize(("seed", "steps"), [("os-hidden-a", 5), ("os-hidden-b", 60), ("os-hidden-c", 130)])
def test_what_a_seat_observes_and_what_ismcts_chooses_do_not_depend_on_the_unseen_cards(seed, steps):
    game = _position(seed, steps)
    assert game.phase in (Phase.BIDDING, Phase.PLAY)
    seat = game.to_act
    other = _redealt(game, seat, Random(seed))
    assert other is not None and other.hand.deal != game.hand.deal
    spiel = SteppingStonesGame({})
    real, redealt = spiel.state_of(game), spiel.state_of(other)
    assert real.information_state_string(seat) == redealt.information_state_string(seat)
    assert real.information_state_tensor(seat) == redealt.information_state_tensor(seat)
    assert real.observation_string(seat) == redealt.observation_string(seat)
    assert real.observation_tensor(seat) == redealt.observation_tensor(seat)
    # the other seats do see a difference: their own cards
    watcher = (seat + 1) % 3
    assert real.information_state_string(watcher) != redealt.information_state_string(watcher)
    assert real.observation_tensor(watcher) != redealt.observation_tensor(watcher)
    agent = ISMCTSAgent(4)
    choices = []
    for g in (game, other):
        view = g.view(seat)
        choose = agent.choose_bid if view.phase is Phase.BIDDING else agent.choose_card
        choices.append(choose(view, Seeds(seed).decision(g, seat)))
    assert choices[0] == choices[1]


def test_resampling_keeps_the_seats_information_state_and_hides_the_cards():
    game = _position("os-resample", 50)
    seat = game.to_act
    state = SteppingStonesGame({}).state_of(game)
    key = state.information_state_string(seat)
    deals = set()
    for i in range(6):
        sampler = pyspiel.UniformProbabilitySampler(i, 0.0, 1.0)
        again = state.resample_from_infostate(seat, sampler)
        assert again.information_state_string(seat) == key
        assert again.legal_actions() == state.legal_actions()
        assert again.engine.view(seat) == state.engine.view(seat)
        deals.add(again.engine.hand.deal)
    assert len(deals) > 1  # the hidden cards really are dealt again


def test_the_ismcts_seat_is_a_lab_level_with_a_budget_in_simulations():
    agent = make_lab_ai("ismcts-3")
    assert isinstance(agent, ISMCTSAgent) and agent.simulations == 3 and agent.name == "ismcts-3"
    assert make_lab_ai("ismcts").simulations == openspiel.DEFAULT_SIMULATIONS
    match = Match.new(
        Rules("standard", short_game=True), [agent, make_ai("random"), make_ai("random")], Seeds("os-level")
    )
    for _ in range(40):
        match.step()
    assert match.game.log  # it bid and played through the match driver


def test_play_refuses_the_ismcts_seat(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--plain", "--levels", "ismcts-50,heuristic"])
    assert exit_.value.code == 2
    assert "'ismcts-50' is OpenSpiel's ISMCTS, a lab seat" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["actions", "observer", "sampling", "game", "bot"])
def test_docstring_examples(module: str):
    result = doctest.testmod(importlib.import_module(f"stepping_stones.openspiel.{module}"))
    assert result.failed == 0


def test_the_ismcts_budget_is_a_count_of_simulations(monkeypatch):
    game = _position("os-budget", 40)
    seat = game.to_act
    worlds = []
    resampled = openspiel.SteppingStonesState.resampled

    def counted(self, player, rng, prefix=None):
        worlds.append(player)
        return resampled(self, player, rng, prefix)

    monkeypatch.setattr(openspiel.SteppingStonesState, "resampled", counted)
    view = game.view(seat)
    choose = ISMCTSAgent(7).choose_bid if view.phase is Phase.BIDDING else ISMCTSAgent(7).choose_card
    choose(view, Seeds("os-budget").decision(game, seat))
    assert worlds == [seat] * 7  # one world dealt for each simulation, for the seat to act
