"""The app's behaviour around a game: refusals, saving and resuming, bad saves, help, small windows."""

from __future__ import annotations

import asyncio
import json
import os
from random import Random

import pytest

from stepping_stones.ai.analysis import seen_by
from stepping_stones.engine import IllegalCardError, Phase, Rules, deal
from stepping_stones.game.match import Match
from stepping_stones.storage.records import load_game, record_from_game
from stepping_stones.storage.session import Session, Setup, current_path, games_dir
from stepping_stones.storage.sidecar import sidecar_of
from stepping_stones.tui.app import SteppingStonesApp
from stepping_stones.tui.dialogs import HandSummaryScreen, HelpScreen, LastTrickScreen, NoticeScreen, ResumeScreen
from stepping_stones.tui.screens import GameOverScreen, SetupScreen
from stepping_stones.tui.table import TableScreen
from stepping_stones.tui.widgets import CARD_KEYS
from tui_support import (
    KEY_NAMES,
    analysed,
    make_app,
    play_until,
    play_until_turn,
    press,
    saved_game_near_the_end,
    screen_rows,
    settled,
    wait_for_person,
    widget_text,
)


def _must_follow(table) -> bool:
    g = table.game
    return g.phase is Phase.PLAY and g.legal_cards_mask() != g.state.hands[0]


def test_illegal_card_changes_nothing_and_says_why():
    async def run():
        app = make_app(seed="illegal")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(pilot, rng=Random(1), stop=_must_follow)
            game = table.game
            cards = table.state.my_cards
            bad = next(i for i, c in enumerate(cards) if not game.legal_cards_mask() >> c & 1)
            with pytest.raises(IllegalCardError) as refused:
                game.verify_play(cards[bad])
            before = record_from_game(game)
            saved = current_path().read_bytes()
            await press(pilot, KEY_NAMES.get(CARD_KEYS[bad], CARD_KEYS[bad]), "enter")
            assert record_from_game(game) == before
            assert current_path().read_bytes() == saved
            assert game.to_act == 0 and table.state.my_cards == cards
            await pilot.pause()
            shown = " ".join(widget_text(table.query_one("#log")).split())
            assert table.flow.refusal(refused.value) in shown
            assert shown.startswith("You must follow") and "you hold" in shown
            # a click on the same card is refused the same way
            await pilot.click("#hand", offset=table.query_one("#hand").offset_of(bad))
            assert record_from_game(game) == before
            # and a legal card is then accepted, and the refusal goes away with it
            good = next(i for i, c in enumerate(cards) if game.legal_cards_mask() >> c & 1)
            await press(pilot, KEY_NAMES.get(CARD_KEYS[good], CARD_KEYS[good]), "enter")
            await pilot.pause()
            assert len(game.hand.plays) > len(before.hands[-1].play.split())
            assert "must follow" not in widget_text(table.query_one("#log"))

    asyncio.run(run())


def test_resume_after_teardown_mid_hand_continues_from_the_same_position():
    async def first():
        app = make_app(seed="resume")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot, rng=Random(2), stop=lambda t: t.game.phase is Phase.PLAY and t.game.state.trick_number >= 4
            )
            return record_from_game(table.game), table.session.info

    record, info = asyncio.run(first())
    assert current_path().exists() and sidecar_of(current_path()).exists()
    assert record_from_game(load_game(current_path())) == record

    async def second():
        app = make_app(resume=True, seed="something else")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            table = app.table
            assert record_from_game(table.game) == record
            assert table.session.info == info
            assert table.game.to_act == 0 and table.game.phase is Phase.PLAY
            # the game goes on: finish the hand, and the next deal is the seed's deal for hand 2
            seen = []
            await play_until_turn(pilot, lambda t: len(t.game.log) == 2, Random(3), seen)
            assert seen == [1]  # the hand that was in progress at the resume gets its summary
            expected = Session(table.game, info).seeds.deal(2)
            assert table.game.log[1].deal == deal(expected)

    asyncio.run(second())


def test_start_up_offers_to_resume_and_new_game_keeps_the_old_one():
    saved_game_near_the_end(seed="offer", hands=3, cards_left=10, person_to_play=True)
    saved = current_path().read_bytes()

    async def run(key):
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ResumeScreen)
            assert "hand 3 of 12" in widget_text(app.screen.query_one("#resume-text"))
            await press(pilot, key)
            await pilot.pause()
            return type(app.screen)

    assert asyncio.run(run("enter")) is TableScreen
    assert asyncio.run(run("n")) is SetupScreen
    assert not current_path().exists()
    kept = list(games_dir().glob("unfinished-*.json"))
    assert [p.read_bytes() for p in kept if not p.name.endswith(".session.json")] == [saved]


@pytest.mark.parametrize(
    "content, words",
    [
        (b"{ this is not json", "damaged"),
        (json.dumps({"format": "stepping-stones-record/7", "future": True}).encode(), "newer version"),
        (
            json.dumps(
                {"format": "stepping-stones-record/1", "rules": {}, "players": [], "first_forehand": 0, "hands": []}
            ).encode(),
            "damaged",
        ),
    ],
)
def test_bad_save_is_moved_aside_and_reported(content, words):
    path = current_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)

    async def run():
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NoticeScreen)
            text = " ".join(widget_text(app.screen.query_one("#notice")).split())
            await press(pilot, "enter")
            assert isinstance(app.screen, SetupScreen)
            await press(pilot, "enter")  # and a new game starts
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            return text

    text = asyncio.run(run())
    assert words in text
    moved = list(path.parent.glob("current.json.bad-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == content
    assert moved[0].name in "".join(text.split())


def test_help_last_trick_and_too_small_window():
    async def run():
        app = make_app(contract_set="advanced", seed="help")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot, rng=Random(4), stop=lambda t: t.game.phase is Phase.PLAY and t.game.state.trick_number >= 1
            )
            await press(pilot, "question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            text = widget_text(app.screen.query_one("#help-text"))
            assert "Must Beat" in text and "Win Last 6" in text and "Lose Tricks (No Trump)" not in text
            await press(pilot, "escape")
            await press(pilot, "t")
            await pilot.pause()
            assert isinstance(app.screen, LastTrickScreen)
            n = table.game.state.trick_number
            assert f"trick {n} of 12" in widget_text(app.screen.query_one("#last-trick"))
            await press(pilot, "escape")
            assert app.screen is table
            await pilot.resize_terminal(70, 20)
            await pilot.pause()
            assert app.has_class("-too-small")
            small = widget_text(table.query_one("#too-small"))
            assert "at least 80 columns and 24 rows" in " ".join(small.split())
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not app.has_class("-too-small")

    asyncio.run(run())


def test_new_game_key_asks_first_and_files_the_old_game():
    async def run():
        app = make_app(seed="newgame")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            await play_until_turn(pilot, rng=Random(5), stop=lambda t: t.game.phase is Phase.PLAY)
            await press(pilot, "n")
            await press(pilot, "n")  # no: keep playing
            assert isinstance(app.screen, TableScreen)
            await press(pilot, "n", "y")
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
        assert len([p for p in games_dir().glob("unfinished-*.json") if ".session" not in p.name]) == 1

    asyncio.run(run())


def test_sidecar_and_deals_follow_the_seed():
    a = Session.new(Setup(seed="same"))
    b = Session.new(Setup(seed="same"))
    for session in (a, b):
        Match(session.game, [None, None, None], session.seeds).deal()
    assert a.game.log[0].deal == b.game.log[0].deal
    assert a.game.first_forehand == b.game.first_forehand
    assert Session.new(Setup(seed="other")).seeds.deal(1).random() != a.seeds.deal(1).random()


def test_review_steps_through_a_saved_game_and_bad_files_are_refused(tmp_path, capsys):
    from stepping_stones.cli import main
    from stepping_stones.tui.app import SteppingStonesApp
    from stepping_stones.tui.screens import ReviewScreen

    session = saved_game_near_the_end(seed="review", hands=2, cards_left=0)
    game = load_game(current_path())

    async def run():
        app = SteppingStonesApp(review=game, review_title="saved.json")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            assert "Hand 1 of 2, after trick 0" in widget_text(screen.query_one("#review-top"))
            await press(pilot, "right", "right")
            top = widget_text(screen.query_one("#review-top"))
            assert "after trick 2" in top
            trick = session.game.log[0].state.trick(1)
            body = widget_text(screen.query_one("#review-table"))
            assert all(game.players[seat] in body for seat, _ in trick)
            await press(pilot, "down")
            assert "Hand 2 of 2" in widget_text(screen.query_one("#review-top"))
            await press(pilot, "end")
            assert "after trick 12" in widget_text(screen.query_one("#review-top"))

    asyncio.run(run())
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["review", str(bad)]) == 2
    assert "record" in capsys.readouterr().err


def test_no_color_gives_a_monochrome_app(monkeypatch):
    from textual.filter import Monochrome

    monkeypatch.setenv("NO_COLOR", "1")

    async def run():
        app = make_app(settings=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return app.no_color, any(isinstance(f, Monochrome) for f in app._filters)

    assert asyncio.run(run()) == (True, True)


def test_bare_command_opens_the_app_and_resume_flag_is_passed(monkeypatch):
    import stepping_stones.tui.app as tui_app
    from stepping_stones.cli import main

    calls = []
    monkeypatch.setattr(tui_app, "run", lambda resume=False: calls.append(resume) or 0)
    assert main([]) == 0
    assert main(["--resume"]) == 0
    assert calls == [False, True]


def test_bidding_and_playing_with_the_mouse():
    async def run():
        app = make_app(seed="mouse")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(pilot, rng=Random(6), stop=lambda t: t.game.phase is Phase.BIDDING)
            options = table.state.bid_options
            pick = next(i for i, (cid, _) in enumerate(options) if cid is not None)
            opt_widgets = list(table.query(".bidopt"))
            await pilot.click(opt_widgets[pick])
            assert table.state.bid.index == pick
            rank_chips = [w for w in table.query(".chip") if w.kind == "rank"]
            await pilot.click(rank_chips[1])  # 1 high
            assert table.state.bid.ranking == 1
            from stepping_stones.engine import CONTRACTS

            if CONTRACTS[options[pick][0]].picks_trump:
                trump_chips = [w for w in table.query(".chip") if w.kind == "trump"]
                await pilot.click(trump_chips[2])
                assert table.state.bid.trump == 2
            await pilot.click(opt_widgets[pick])  # a second click declares
            await pilot.pause()
            hand = table.game.hand
            assert hand.declarer == 0 and hand.declaration.contract.id == options[pick][0]
            assert hand.declaration.ranking == 1
            # the declarer leads: a click on a card plays it
            await wait_for_person(pilot)
            cards = table.state.my_cards
            await pilot.click("#hand", offset=table.query_one("#hand").offset_of(3))
            assert table.game.hand.plays[0] == cards[3]

    asyncio.run(run())


def test_the_setup_screen_checks_names_by_the_records_rule():
    from textual.widgets import Input

    async def run():
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            screen.query_one("#name0", Input).value = "You"
            await press(pilot, "ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            assert "different names" in " ".join(widget_text(screen.query_one("#setup-error")).split())
            screen.query_one("#name0", Input).value = "Eve\u202e"
            await press(pilot, "ctrl+s")
            await pilot.pause()
            assert "control characters" in " ".join(widget_text(screen.query_one("#setup-error")).split())
            screen.query_one("#name0", Input).value = "\U0001f469\u200d\U0001f4bb"  # a joined emoji
            await press(pilot, "ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            assert app.table.game.players[1] == "\U0001f469\u200d\U0001f4bb"

    asyncio.run(run())


FIRST_SCREEN_ONLY = """
import asyncio, sys
from stepping_stones.tui.app import SteppingStonesApp

async def main():
    app = SteppingStonesApp()
    app._look_for_saved = lambda: None  # the first screen alone, before the saved games are looked for
    app._prepare_solver = lambda: None  # nor the solver, loaded a second later (on a busy machine, in the pause)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print(type(app.screen).__name__)
asyncio.run(main())
print(" ".join(sorted(m for m in sys.modules if m.startswith(("pydantic", "stepping_stones")))))
"""


def test_the_first_screen_needs_neither_the_ai_nor_pydantic(home):
    """The setup screen is drawn from the light modules only (docs/tui.md, "How fast it is"):
    no computer player, no records, no rich tables, and without a settings file no pydantic."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN_ONLY],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "STEPPING_STONES_HOME": str(home)},
    ).stdout.split("\n")
    assert out[0] == "SetupScreen"
    loaded = set(out[1].split())
    assert "stepping_stones.tui.setup" in loaded
    for heavy in (
        "pydantic",
        "stepping_stones.ai",
        "stepping_stones.storage.records",
        "stepping_stones.storage.session",
        "stepping_stones.tui.screens",
        "stepping_stones.tui.table",
        "stepping_stones.tui.render",
    ):
        assert heavy not in loaded


def test_a_settings_file_is_checked_by_pydantics_validator_alone(home):
    """With a settings file the first screen loads pydantic's validator (pydantic_core), not the
    whole of pydantic, and the settings in the file are the ones in use."""
    import subprocess
    import sys

    from stepping_stones.storage.settings import Settings, load_settings, save_settings, settings_path

    save_settings(Settings(pace="slow", ascii=True))
    script = FIRST_SCREEN_ONLY.replace(
        "print(type(app.screen).__name__)", "print(type(app.screen).__name__, app.settings.pace, app.settings.ascii)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "STEPPING_STONES_HOME": str(home)},
    ).stdout.split("\n")
    assert out[0] == "SetupScreen slow True"
    loaded = set(out[1].split())
    assert "pydantic_core" in loaded and "pydantic" not in loaded
    # Settings left at the defaults are not kept in a file: the next start reads none.
    save_settings(Settings())
    assert not settings_path().exists() and load_settings() == Settings()
    # A file that is not valid settings gives the defaults: none of it is half-applied.
    for text in ('{"pace": "zoom", "ascii": true}', '{"ascii": "yes"}', '{"ascii": 1}', "[]", '{"pace": null}'):
        settings_path().write_text(text)
        assert load_settings() == Settings(), text
    settings_path().write_text('{"colour": "mono", "from a later version": 5}')  # unknown keys are ignored
    assert load_settings() == Settings(colour="mono")


def test_the_setup_screen_with_the_mouse():
    """Each choice draws its own label: a click on the label only focuses it, on ``<`` goes
    back, on the value goes on; "Start game" in the line of keys starts the game."""

    async def run():
        app = make_app(levels=("random", "random"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            assert not any(screen.query("Button"))  # no Start button: Enter, Ctrl+S or the keys below
            keys = screen.query_one("#setup-keys")
            assert " ".join(widget_text(keys).split()) == (
                "⏎/^S Start game f1 Rules f2 History f3 Statistics f4 Online ^p palette"
            )
            level = screen.query_one("#level0")
            await pilot.click(level, offset=(2, 0))  # the label
            assert app.focused is level and level.value == "random"
            await pilot.click(level, offset=(level.label_width + 3, 0))  # the value: the next level
            assert level.value == "heuristic"
            await pilot.click(level, offset=(level.label_width, 0))  # "<": back
            assert level.value == "random"
            await pilot.click("#short_game", offset=(20, 0))
            assert not screen.query_one("#omit").disabled
            line = widget_text(keys)  # with a choice focused, its keys come first (and no room for ^p)
            assert " ".join(line.split()).startswith("← Previous → Next ⏎/^S Start game")
            await pilot.click(keys, offset=(line.index("Start game"), 0))
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            assert app.table.game.rules.short_game

    asyncio.run(run())


def test_the_setup_screen_in_ascii_mode_draws_only_ascii():
    from stepping_stones.storage.settings import Settings

    async def run():
        app = make_app(settings=Settings(pace="instant", colour="colour", ascii=True))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "tab")  # a choice has the focus: its keys are in the line too
            await pilot.pause()
            shown = "\n".join(widget_text(w) for w in app.screen.walk_children() if not w.children)
            assert "Left Previous" in " ".join(shown.split()) and "Contract set" in shown
            assert all(ord(ch) < 128 for ch in shown), sorted({ch for ch in shown if ord(ch) >= 128})

    asyncio.run(run())


def test_the_review_steps_through_the_analysis_of_each_finished_hand():
    from stepping_stones.ai.analysis import analyse_hand, position_lines
    from stepping_stones.tui.app import SteppingStonesApp
    from stepping_stones.tui.screens import ReviewScreen

    saved_game_near_the_end(seed="review-analysis", hands=2, cards_left=5)  # hand 2 is not over
    game = load_game(current_path())
    analysis = analyse_hand(game.log[0])

    async def shown(pilot, screen) -> str:
        await analysed(pilot)  # the first look at a hand solves it in a worker
        return await settled(pilot, screen.query_one("#review-analysis"))

    async def run():
        app = SteppingStonesApp(review=game, review_title="saved.json")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            for k in (0, 3, 6, 36):
                text = await shown(pilot, screen)
                assert text == "Analysis: " + " ".join(position_lines(analysis, k, game.players, 0))
                await press(pilot, "right" if k < 6 else "end")
                if k == 6:
                    await press(pilot, "up", "end")  # the last position of hand 1
                    while "after trick 12" not in widget_text(screen.query_one("#review-top")):
                        await press(pilot, "left")
            await press(pilot, "down")  # hand 2 is still being played: no analysis of it yet
            assert "once it has been played out" in await shown(pilot, screen)

    asyncio.run(run())


def test_an_analysis_still_running_says_so_and_fills_in_when_done(home, monkeypatch):
    """Issue 46: every hand is analysed, however long it takes, in the background.  While the
    solver works the summary says so and the app answers keys (here: the deal, and back); the
    analysis is shown once it is done."""
    import threading

    from stepping_stones.ai import analysis
    from stepping_stones.tui.dialogs import DealScreen

    started = threading.Event()
    finish = threading.Event()
    real = analysis.whole_hand_value

    def held_hand(state, solver, guess=None):
        """The first value waits until the test lets it go on: a hand that takes long."""
        started.set()
        finish.wait(60)
        return real(state, solver, guess)

    monkeypatch.setattr(analysis, "whole_hand_value", held_hand)
    saved_game_near_the_end(seed="still-running", cards_left=1)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await wait_for_person(pilot)
            assert isinstance(screen, HandSummaryScreen)
            assert await asyncio.to_thread(started.wait, 60)  # the solver is at work
            assert "working it out" in widget_text(screen.query_one("#summary-analysis"))
            await press(pilot, "d")  # the app is not frozen meanwhile
            assert isinstance(app.screen, DealScreen)
            await press(pilot, "escape")
            assert app.screen is screen
            assert "working it out" in widget_text(screen.query_one("#summary-analysis"))
            finish.set()
            await analysed(pilot)
            assert "Against perfect play" in widget_text(screen.query_one("#summary-analysis"))
            assert "working it out" not in widget_text(screen.query_one("#summary-analysis"))

    asyncio.run(run())


@pytest.mark.parametrize("where", ["summary", "final result"])
def test_quitting_right_after_a_hand_stops_its_analysis_instead_of_waiting(tmp_path, monkeypatch, where):
    """A hand's analysis can take seconds; quitting (Ctrl+Q on the summary, q on the final result)
    stops its solver at the next position rather than wait for it with a blank screen."""
    import threading

    from stepping_stones.ai import analysis
    from stepping_stones.ai.solver import SearchLimit, Solver
    from tui_support import saved_game_near_the_end

    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    started = threading.Event()
    stopped = threading.Event()
    seen: dict[str, bool] = {}
    real_stop = Solver.stop

    def stop(solver: Solver) -> None:
        real_stop(solver)
        stopped.set()

    monkeypatch.setattr(Solver, "stop", stop)

    def slow_hand(state, solver, guess=None):
        """A hand that would take the solver minutes: it is at work until the app stops its
        solver, and then ends as the solver's next position would, by its own check of the
        limit (a minute without a stop is the safety net: the test then fails)."""
        started.set()
        stopped.wait(60)
        solver.nodes += 1
        seen["stopped"] = solver.nodes > solver.limit
        if seen["stopped"]:
            raise SearchLimit
        return guess or 0

    monkeypatch.setattr(analysis, "whole_hand_value", slow_hand)
    saved_game_near_the_end(seed=f"quit-fast-{where}", cards_left=1)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await wait_for_person(pilot)
            assert isinstance(screen, HandSummaryScreen)
            assert await asyncio.to_thread(started.wait, 60)  # the solver is at work
            past = screen.view.history[-1]
            seen = seen_by(screen.view)  # the summary judges the person's cards
            if where == "final result":
                await press(pilot, "enter")
                assert isinstance(await wait_for_person(pilot), GameOverScreen)
                await press(pilot, "q")
            else:
                await press(pilot, "ctrl+q")
            await app.workers.wait_for_complete()
        return past, seen, app

    past, seen_as, app = asyncio.run(run())
    assert seen["stopped"]  # stopped, not worked to its end
    assert app.hindsight.known(past, seen_as) is None  # and a stopped analysis is not kept as an answer


def test_a_summary_taller_than_the_window_says_there_is_more(home):
    """Issue 35, item 4: at 80x24 the hand's analysis was cut off below the summary box, and
    nothing said that Down scrolls it.  The line under the box says "more" and the keys until
    the end is in view."""
    saved_game_near_the_end(seed="snap-hand", cards_left=3, hands=1)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
            await analysed(pilot)
            await pilot.pause()
            line = app.screen.query_one("#summary-go-on")
            assert "↓ more: Down or PgDn" in widget_text(line)
            await press(pilot, "end")
            await pilot.pause()
            assert "more" not in widget_text(line)
            assert "Kenji's" in widget_text(app.screen.query_one("#summary-analysis"))  # its last lines

    asyncio.run(run())


def test_the_summary_shows_the_whole_deal_with_one_key(home):
    """Issue 35, item 12: at the end of a hand all three hands as dealt, from the summary."""
    from stepping_stones.engine import CARD_NAMES
    from stepping_stones.tui.dialogs import DealScreen

    saved_game_near_the_end(seed="whole-deal", cards_left=3, hands=1)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(80, 24)) as pilot:
            summary = await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
            shown = [b.binding for b in app.screen.active_bindings.values() if b.binding.show]
            assert any(b.action == "deal" and b.description == "The deal" for b in shown)  # in the footer
            await press(pilot, "d")
            await pilot.pause()
            assert isinstance(app.screen, DealScreen)
            text = widget_text(app.screen.query_one("#deal-text"))
            past = summary.view.history[0]
            deal = past.replayed().deal
            for seat in range(3):
                line = next(
                    line
                    for line in text.splitlines()
                    if line.startswith("You" if seat == 0 else summary.view.players[seat])
                )
                assert sorted(w[-2:] for w in line.split()[1:]) == sorted(
                    CARD_NAMES[c] for c in range(36) if deal[seat] >> c & 1
                )
            await press(pilot, "escape")
            await pilot.pause()
            assert app.screen is summary

    asyncio.run(run())


def test_the_end_of_the_game_shows_its_command_and_keys_at_80x24_and_scrolls(home):
    """Issue 43, item 7: at 80x24 the end of the game hid the command that deals the cards again
    and the keys n/s/r/q under it, and Down and End did not scroll to them."""
    saved_game_near_the_end(seed="end", cards_left=3, person_to_play=True)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(80, 24)) as pilot:
            over = await play_until(pilot, lambda app, s: isinstance(s, GameOverScreen))
            await pilot.pause()
            rows = screen_rows(app)
            assert any("stepping-stones simulate" in row for row in rows), rows
            assert any("q: quit" in row for row in rows), rows
            # more than the window holds (a table on a server's notes): End scrolls to the keys
            notes = tuple(f"Note {i}: a computer played hand {i} for Hana." for i in range(1, 13))
            longer = GameOverScreen(over.view, over.path, over.seed, levels=over.levels, notes=notes)
            await app.switch_screen(longer)
            await pilot.pause()
            assert not any("q: quit" in row for row in screen_rows(app))
            await press(pilot, "end")
            await pilot.pause()
            assert any("q: quit" in row for row in screen_rows(app))
            await press(pilot, "home")
            await pilot.pause()
            assert any("The game is over" in row for row in screen_rows(app))

    asyncio.run(run())


def test_a_summary_that_scrolls_takes_every_row_and_h_shows_its_tricks(home):
    """Issue 43, item 7: a summary that needed a scroll at 80x24 left rows 1-2 and 22-23 empty,
    and h (every trick of the hand, at the table) did not open from it."""
    from stepping_stones.tui.dialogs import PanelScreen

    saved_game_near_the_end(seed="snap-hand", cards_left=3, hands=1)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(80, 24)) as pilot:
            summary = await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
            await analysed(pilot)
            await pilot.pause()
            scroll = summary.query_one("#summary-scroll")
            assert scroll.max_scroll_y > 0  # it needs a scroll
            box = summary.query_one(".dialog").region
            assert (box.y, box.bottom) == (0, 23), box  # the rows above the line of keys, all of them
            await press(pilot, "h")
            await pilot.pause()
            assert isinstance(app.screen, PanelScreen)
            text = widget_text(app.screen.query_one("#history-box"))
            assert "Tricks of this hand" in text
            numbers = [int(line.split()[0]) for line in text.splitlines() if line[:3].strip().isdigit()]
            assert numbers == list(range(1, 13)), text
            await press(pilot, "escape")
            await pilot.pause()
            assert app.screen is summary

    asyncio.run(run())


def test_the_rules_chosen_on_the_setup_screen_are_kept_for_the_next_start(home):
    """Issue 43, item 10: the setup screen kept the players for the next start, not the rules."""
    from stepping_stones.storage.settings import load_settings

    async def run():
        app = make_app(contract_set="advanced", short_game=True, omit="must-beat", redo_tokens=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            assert app.table is not None

    asyncio.run(run())
    kept = load_settings().setup()
    assert kept.rules == Rules("advanced", short_game=True, omit="must-beat", redo_tokens=True)
    assert SteppingStonesApp(settings=load_settings()).last_setup.rules == kept.rules  # the next start shows them


def test_the_solver_notice_lasts_as_long_as_compiling_and_covers_nothing(monkeypatch):
    """Issue 43, item 11: "Preparing the exact solver..." was a toast that closed after 15 s
    whether or not compiling was done, and at 80x24 it covered the hint's lines.  Now a line in
    the table's layout says it, with the seconds so far, until the compiling thread ends."""
    import threading

    from stepping_stones.ai import solver
    from stepping_stones.tui.widgets import SolverNotice

    done = threading.Event()
    compiling = threading.Thread(target=done.wait, daemon=True)
    monkeypatch.setattr(solver, "compile_needed", lambda: True)
    monkeypatch.setattr(solver, "load_in_background", lambda: compiling.start() or compiling)
    monkeypatch.setattr(SteppingStonesApp, "SOLVER_DELAY", 3600.0)  # started by the test instead

    async def run():
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(pilot, lambda t: t.state.view.phase is Phase.PLAY)
            app._prepare_solver()  # what the app does a moment after it starts
            await app.workers.wait_for_complete([w for w in app.workers if w.group == "solver"])
            await pilot.pause()
            notice = table.query_one(SolverNotice)
            assert notice.display and "Preparing the exact solver (0 s so far" in widget_text(notice)
            assert not app._notifications  # no toast over the table
            log = table.query_one("#log").region
            assert not notice.region.overlaps(log) and notice.region.bottom <= log.y
            assert table.query_one("#hand").region.bottom <= 23  # the cards still in view
            notice.show_wait(app.solver_since, now=app.solver_since + 42.5)  # as the app's timer does
            assert "(42 s so far" in widget_text(notice)
            await press(pilot, "question_mark")  # another screen meanwhile: the wait goes on
            assert app.solver_since is not None
            await press(pilot, "escape")
            done.set()  # compiling ends: so does the notice
            await asyncio.to_thread(app.solver_waiter.join)
            await pilot.pause()
            assert app.solver_since is None and not notice.display

    asyncio.run(run())


def test_a_summary_taken_off_before_it_is_mounted_does_not_end_the_app():
    """At a table on a server, while a computer plays the person's seat, hands end in moments: the
    app puts each hand's summary on and takes it off for the next one's (``OnlineTableScreen.advance``)
    before the first is mounted.  Its mounting then found none of its parts and the app ended with a
    traceback (seen in tmux, with two computers playing at once)."""

    async def run():
        app = make_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            summary = await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
            app.push_screen(HandSummaryScreen(summary.view, summary.number, "Press Enter.", lambda: "Waiting."))
            app.pop_screen()  # in the same moment, before it is mounted
            for _ in range(3):
                await pilot.pause()
            assert app.is_running and app._exception is None, app._exception
            assert app.screen is summary

    asyncio.run(run())
