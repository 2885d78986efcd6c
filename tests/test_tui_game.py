"""Whole games in the app, played through key presses; the sheet on screen must equal the replay."""

from __future__ import annotations

import asyncio

import pytest

from stepping_stones.ai import RandomAI, decide
from stepping_stones.cli import main
from stepping_stones.storage.records import load_game, read_record, summary
from stepping_stones.tui.dialogs import HandSummaryScreen
from stepping_stones.tui.screens import GameOverScreen
from tui_support import (
    make_app,
    play_to_the_end,
    press,
    press_action,
    sheet_from_screen,
    wait_for_person,
    widget_text,
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


async def _play_game(setup: dict, want_redo: bool = False, seed: int = 7, size=(80, 24)):
    app = make_app(**setup)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await press(pilot, "enter")  # the setup screen: start with what is shown
        hands: list[int] = []
        screen = await play_to_the_end(pilot, seed=seed, want_redo=want_redo, hands_seen=hands)
        assert isinstance(screen, GameOverScreen)
        game = screen.view  # the final view: players, rules, sheet
        shown = sheet_from_screen(widget_text(screen.query_one("#final-sheet")), game.players,
                                  game.rules.contract_ids)
        result = widget_text(screen.query_one("#result"))
        assert screen.path is not None and screen.path.exists()
        facts = summary(load_game(screen.path))
        return game, shown, result, facts, hands


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
    game, shown, result, facts, hands = asyncio.run(_play_game({}, size=(120, 40)))
    assert len(facts["hands"]) == 12
    assert hands == list(range(1, 13))  # a summary after every hand
    _check(shown, facts, result, game)
    assert not shown["redo"]


def test_advanced_game_through_keys_matches_replay():
    game, shown, result, facts, _ = asyncio.run(_play_game({"contract_set": "advanced", "seed": "adv"}, seed=3))
    assert set(facts["sheet"]) == {"win-pick-trump", "win-last-6", "may-trump", "must-beat"}
    assert len(facts["hands"]) == 12
    _check(shown, facts, result, game)


def test_short_game_through_keys_matches_replay():
    game, shown, result, facts, _ = asyncio.run(_play_game({"short_game": True, "omit": "lose-pick-trump",
                                                            "seed": "short"}, seed=11))
    assert "lose-pick-trump" not in facts["sheet"]
    assert len(facts["hands"]) == 9
    _check(shown, facts, result, game)


def test_redo_game_where_the_person_spends_the_token():
    game, shown, result, facts, _ = asyncio.run(_play_game({"redo_tokens": True, "seed": "redo"},
                                                           want_redo=True, seed=5))
    redo_hands = [h for h in facts["hands"] if h["redo"]]
    assert any(h["declarer"] == 0 for h in redo_hands), "the person spent the redo token"
    assert len(facts["hands"]) == 12 + len(redo_hands)
    _check(shown, facts, result, game)
    # the redone cells carry the mark on screen
    assert {(h["contract"], h["declarer"]) for h in redo_hands} == shown["redo"]


def test_a_game_in_the_app_is_played_again_by_simulate_from_its_seed(tmp_path):
    """The app and ``simulate`` play through the same match driver and seeds: with the person's
    seat answered (by key presses) as a ``random`` seat would answer, the app's saved record and
    ``simulate --games 1 --seed SEED --seats random,random,random`` are the same game."""
    seed = "same-game"

    async def play_in_the_app():
        app = make_app(seed=seed, levels=("random", "random"), contract_set="advanced", redo_tokens=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            for _ in range(2000):
                screen = await wait_for_person(pilot)
                if isinstance(screen, GameOverScreen):
                    return screen.path
                if isinstance(screen, HandSummaryScreen):
                    await press(pilot, "enter")
                    continue
                table = app.table
                game = table.game
                action = decide(RandomAI(), game.view(0), table.session.seeds.decision(game, 0))
                await press_action(pilot, table, action)
        raise AssertionError("the game did not end")

    saved = read_record(asyncio.run(play_in_the_app()))
    out = tmp_path / "simulated"
    assert main(["simulate", "--games", "1", "--seed", seed, "--seats", "random,random,random",
                 "--set", "advanced", "--redo", "--json", "--records", str(out)]) == 0
    simulated = read_record(next(out.glob("*.json")))
    assert simulated.rules == saved.rules and simulated.first_forehand == saved.first_forehand
    assert len(saved.hands) >= 12
    assert simulated.hands == saved.hands  # every deal, every bid, every card
