"""Games, hands and flows for the tests, played through the engine, the AI and the match driver:
one copy of each helper that several test files use."""

from __future__ import annotations

from stepping_stones.ai import RandomAI, decide, make_ai
from stepping_stones.engine import Game, HandState, Phase, Rules, cards_of
from stepping_stones.flow import AiTurn, GameFlow, GameOver, HandSummary, PersonTurn
from stepping_stones.game.match import Seeds, drive


def game_at(seed: str, rules: Rules, actions: int) -> Game:
    """A game of three heuristic seats stopped after ``actions`` bids and cards."""
    seeds = Seeds(seed)
    game = Game(rules, first_forehand=seeds.first_forehand())
    count = [0]

    def stop(g: Game) -> bool:
        count[0] += 1
        return count[0] > actions

    drive(game, [make_ai("heuristic")] * 3, seeds, stop=stop)
    return game


def brute_force(state: HandState) -> int:
    """The declarer's counted tricks for the whole hand with best play from ``state``."""
    if state.finished:
        return state.count()
    declarer_side = state.turn == state.declarer
    wants_more = declarer_side == state.contract.is_win
    results = []
    for c in cards_of(state.legal_mask()):
        state.push(c)
        results.append(brute_force(state))
        state.pop()
    return max(results) if wants_more else min(results)


def run_until(flow: GameFlow, stop, person=None, limit: int = 5000):
    """Drive the flow as a front end would, until ``stop(flow, step)`` or the game is over: the
    step it stopped at.  The person answers like a random seat, with the game's own seeds."""
    person = person or RandomAI()
    for _ in range(limit):
        step = flow.next_step()
        if stop(flow, step):
            return step
        if isinstance(step, HandSummary):
            flow.summary_seen()
        elif isinstance(step, AiTurn):
            flow.ai_answered(step.request, step.request.answer())
        elif isinstance(step, PersonTurn):
            action = decide(person, step.view, flow.session.seeds.decision(flow.game, 0))
            if step.view.phase is Phase.BIDDING:
                flow.bid(action)
            else:
                flow.play(action)
        elif isinstance(step, GameOver):
            return step
    raise AssertionError("the flow did not get there")
