"""Whole games: the sheet the table shows at the end must equal the record's replay.

One game is played in the app itself, through key presses (Pilot).  The others drive the flow
the app draws (``GameFlow``) directly, without Textual, and draw the final sheet and result from
its last ``TableState`` with the same functions as the end-of-game screen.
"""

from __future__ import annotations

import asyncio
from random import Random

from rich.console import Console

from game_support import run_until
from stepping_stones.cli import main
from stepping_stones.engine import Declaration, Phase, Rules, cards_of
from stepping_stones.flow import AiTurn, GameFlow, GameOver, HandSummary, PersonTurn
from stepping_stones.storage.records import load_game, read_record, summary
from stepping_stones.storage.session import Session, Setup
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.render import Look, result_text, sheet_table
from stepping_stones.tui.screens import GameOverScreen
from tui_support import make_app, play_to_the_end, press, sheet_from_screen, widget_text


def _check(shown, facts, result, game):
    assert facts["complete"]
    assert shown["sheet"] == facts["sheet"]
    assert shown["points"] == facts["points"]
    assert shown["totals"] == facts["totals"]
    assert shown["firsts"] == facts["firsts"]
    winners = [game.players[s] for s in facts["winners"]]
    first_line = result.splitlines()[0]
    for name in winners:
        assert name in first_line
    if len(winners) > 1:
        assert "share" in first_line
    top = max(facts["totals"])
    if facts["totals"].count(top) > 1:
        assert "firsts decide" in result


def test_standard_game_through_keys_matches_replay():
    async def run():
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")  # the setup screen: start with what is shown
            hands: list[int] = []
            screen = await play_to_the_end(pilot, seed=7, hands_seen=hands)
            assert isinstance(screen, GameOverScreen)
            view = screen.view  # the final view: players, rules, sheet
            shown = sheet_from_screen(
                widget_text(screen.query_one("#final-sheet")), view.players, view.rules.contract_ids
            )
            result = widget_text(screen.query_one("#result"))
            assert screen.path is not None and screen.path.exists()
            return view, shown, result, summary(load_game(screen.path)), hands

    view, shown, result, facts, hands = asyncio.run(run())
    assert len(facts["hands"]) == 12
    assert hands == list(range(1, 13))  # a summary after every hand
    _check(shown, facts, result, view)
    assert not shown["redo"]


# --- whole games through the flow the table draws ----------------------------------------


def _person(view, rng: Random, want_redo: bool):
    """The person's bid or card by a simple rule: a random legal one, a redo if wanted."""
    if view.phase is Phase.PLAY:
        return rng.choice(list(cards_of(view.legal_cards)))
    bids = view.legal_bids
    redo = [b for b in bids if isinstance(b, Declaration) and b.redo]
    if want_redo and redo:
        return redo[0]
    fresh = [b for b in bids if isinstance(b, Declaration) and not b.redo]
    if fresh and (view.in_puddle or rng.random() < 0.45):
        return rng.choice(fresh)
    return next((b for b in bids if not isinstance(b, Declaration)), bids[0])


def _flow_game(rules: Rules, seed: str, person_seed: int, want_redo: bool = False):
    """Play a game through ``GameFlow`` as the table would; the final state's sheet and result
    drawn as the end-of-game screen draws them, the record's facts, and the hands summarised."""
    session = Session.new(Setup(rules=rules, seed=seed, levels=("random", "random")))
    flow = GameFlow(session, Settings(pace="instant", trick_pause=False))
    rng = Random(person_seed)
    hands = []
    for _ in range(5000):
        step = flow.next_step()
        if isinstance(step, HandSummary):
            assert flow.state.summary == step.number
            hands.append(step.number)
            flow.summary_seen()
        elif isinstance(step, AiTurn):
            flow.ai_answered(step.request, step.request.answer())
        elif isinstance(step, PersonTurn):
            action = _person(step.view, rng, want_redo and not step.view.redo_spent[0])
            (flow.play if step.view.phase is Phase.PLAY else flow.bid)(action)
        else:
            assert isinstance(step, GameOver) and flow.state.over
            break
    state = flow.state
    assert state.filed is not None and step.path is not None and str(step.path) == state.filed
    console = Console(width=160, record=True, file=None, color_system=None)
    with console.capture() as sheet:
        console.print(sheet_table(state.view, Look()))
    with console.capture() as result:
        console.print(result_text(state.view))
    view = state.view
    shown = sheet_from_screen(sheet.get(), view.players, view.rules.contract_ids)
    return view, shown, result.get(), summary(load_game(step.path)), hands


def test_advanced_game_through_the_flow_matches_replay():
    view, shown, result, facts, hands = _flow_game(Rules("advanced"), "adv", 3)
    assert set(facts["sheet"]) == {"win-pick-trump", "win-last-6", "may-trump", "must-beat"}
    assert len(facts["hands"]) == 12 and hands == list(range(1, 13))
    _check(shown, facts, result, view)


def test_short_game_through_the_flow_matches_replay():
    view, shown, result, facts, _ = _flow_game(Rules(short_game=True, omit="lose-pick-trump"), "short", 11)
    assert "lose-pick-trump" not in facts["sheet"]
    assert len(facts["hands"]) == 9
    _check(shown, facts, result, view)


def test_redo_game_where_the_person_spends_the_token():
    view, shown, result, facts, _ = _flow_game(Rules(redo_tokens=True), "redo", 5, want_redo=True)
    redo_hands = [h for h in facts["hands"] if h["redo"]]
    assert any(h["declarer"] == 0 for h in redo_hands), "the person spent the redo token"
    assert len(facts["hands"]) == 12 + len(redo_hands)
    _check(shown, facts, result, view)
    # the redone cells carry the mark on the sheet
    assert {(h["contract"], h["declarer"]) for h in redo_hands} == shown["redo"]


def test_a_game_at_the_table_is_played_again_by_simulate_from_its_seed(tmp_path):
    """The table and ``simulate`` play through the same match driver and seeds: with the
    person's seat answered as a ``random`` seat would answer, the saved record and
    ``simulate --games 1 --seed SEED --seats random,random,random`` are the same game."""
    seed = "same-game"
    session = Session.new(Setup(rules=Rules("advanced", redo_tokens=True), seed=seed, levels=("random", "random")))
    flow = GameFlow(session, Settings(pace="instant", trick_pause=False))
    step = run_until(flow, lambda f, s: False)
    assert isinstance(step, GameOver)
    saved = read_record(step.path)
    out = tmp_path / "simulated"
    assert (
        main(
            [
                "simulate",
                "--games",
                "1",
                "--seed",
                seed,
                "--seats",
                "random,random,random",
                "--set",
                "advanced",
                "--redo",
                "--json",
                "--records",
                str(out),
            ]
        )
        == 0
    )
    simulated = read_record(next(out.glob("*.json")))
    assert simulated.rules == saved.rules and simulated.first_forehand == saved.first_forehand
    assert len(saved.hands) >= 12
    assert simulated.hands == saved.hands  # every deal, every bid, every card
