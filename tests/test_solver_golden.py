"""The solver and the expert give the answers they gave before the search was written once.

``solver_golden.json`` was recorded with commit 9411a5c, whose two hand-written cores
(``_PythonSearch`` and the numba ``solver_core``) searched the same positions: on these fixed
positions the shared search must find the same values, search the same number of positions,
and the expert must make the same choices.  (``docs/ai.md``, *One search, two ways to run it*:
the whole check covered 210 whole hands, 120 positions and two whole expert games.)  The node
counts were re-recorded twice since, when the trump bounds (``bounds.beaten``), then May Trump's
second hand low and the quick tricks stopped only by the other side's trumps, changed the search:
with every value, card value and choice of the expert unchanged
(``docs/lab/2026-12-03-solver-targets.md``, ``docs/lab/2026-12-03-solver-nrt.md``); and on
7 December, after the Lose contracts' first bounds (``bounds._lose_bounds``,
``docs/lab/2026-12-07-solver-bounds-ordering.md``).
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from stepping_stones.ai import make_ai
from stepping_stones.ai.solver import CORE_VARIABLE, Solver, compiled_core_problem, position
from stepping_stones.engine import CONTRACTS, NINE_HIGH, NUM_SEATS, ONE_HIGH, Rules, cards_of, deal
from stepping_stones.game.match import Match, Seeds, drive
from stepping_stones.lab.speed import solver_position

GOLDEN = json.loads((Path(__file__).parent / "solver_golden.json").read_text())


@pytest.mark.parametrize("core", ["python", "numba"])
def test_values_and_positions_searched_are_those_of_before(core, monkeypatch):
    if core == "numba" and compiled_core_problem() is not None:
        pytest.skip(f"the compiled core cannot run here: {compiled_core_problem()}")
    monkeypatch.setenv(CORE_VARIABLE, core)
    rng = Random("capture")
    for i, expected in enumerate(GOLDEN["mid"]):
        state = solver_position(rng, rng.choice((4, 6, 8)))
        for _ in range(rng.randrange(3)):
            state.push(rng.choice(list(cards_of(state.legal_mask()))))
        solver = Solver(state.contract, state.ranking, state.trump, state.declarer)
        hands, leader, trick = position(state)
        found = [solver.value(hands, leader, trick), solver.nodes]
        found += [sorted(solver.card_values(hands, leader, trick).items()), solver.nodes]
        assert json.loads(json.dumps(found)) == expected, i


def test_whole_hands_are_those_of_before():
    """Deals 0 and 1 of each contract of ``scripts/measure_solver_speed.py`` (its positions)."""
    problem = compiled_core_problem()
    if problem is not None:
        pytest.skip(f"the compiled core cannot run here (whole hands take seconds as Python): {problem}")
    for key, expected in GOLDEN["whole"].items():
        contract_id, i = key.split(":")
        n = int(i)
        hands = deal(Seeds("solver-speed").deal(n + 1))
        trump = n % 4 if CONTRACTS[contract_id].picks_trump else None
        solver = Solver(CONTRACTS[contract_id], NINE_HIGH if n % 2 == 0 else ONE_HIGH, trump, n % 3)
        assert [solver.value(hands, n % 3), solver.nodes] == expected, key


class _Enough(Exception):
    pass


class _Recorded:
    """An agent that records its choices, and stops the game after ``most`` of them."""

    def __init__(self, most: int) -> None:
        self.agent = make_ai("expert")
        self.name = self.agent.name
        self.choices: list[object] = []
        self.most = most

    def _keep(self, choice: object) -> None:
        self.choices.append(choice)
        if len(self.choices) >= self.most:
            raise _Enough

    def choose_bid(self, view, rng):  # type: ignore[no-untyped-def]
        bid = self.agent.choose_bid(view, rng)
        self._keep(repr(bid))
        return bid

    def choose_card(self, view, rng):  # type: ignore[no-untyped-def]
        card = self.agent.choose_card(view, rng)
        self._keep(int(card))
        return card


def test_the_experts_choices_are_those_of_before():
    """The first decisions of a seeded game of three expert seats (bids, the opening leads)."""
    seat = _Recorded(len(GOLDEN["expert"]))
    seeds = Seeds.series("capture", 0)
    match = Match.new(Rules("standard"), [seat] * NUM_SEATS, seeds)
    with pytest.raises(_Enough):
        drive(match.game, match.seats, seeds)
    assert seat.choices == GOLDEN["expert"]
