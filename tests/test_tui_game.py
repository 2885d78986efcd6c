"""Whole games in the app, played through key presses; the sheet on screen must equal the replay."""

from __future__ import annotations

import asyncio

import pytest

from stepping_stones.records import load_game, summary
from stepping_stones.tui.screens import GameOverScreen
from tui_support import make_app, play_to_the_end, press, sheet_from_screen, widget_text


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
        game = screen.game
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
