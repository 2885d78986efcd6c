"""The table's aids and the fixes from the trials, each through the app as a person uses it."""

from __future__ import annotations

import asyncio
import json
import re
from random import Random

import pytest
from textual.widgets import Static

from stepping_stones.engine import (
    RANKINGS,
    STRENGTH,
    SUIT_MASKS,
    Phase,
    Rules,
    card_name,
    cards_of,
    parse_bid,
    sorted_cards,
)
from stepping_stones.explain import short_names
from stepping_stones.storage.session import current_path, sidecar_of
from stepping_stones.storage.settings import Settings, few_colours, load_settings, settings_path
from stepping_stones.tui import hindsight
from stepping_stones.tui.dialogs import HandSummaryScreen, PanelScreen
from stepping_stones.tui.render import Look, hand_summary
from stepping_stones.tui.screens import SetupScreen
from tui_support import (
    analysed,
    hold_the_computers,
    human_turn,
    make_app,
    play_until_turn,
    press,
    saved_game_near_the_end,
    settled,
    wait_for_person,
    widget_text,
)


@pytest.fixture(autouse=True)
def term(monkeypatch):
    """The table's colours as in a 256-colour terminal, whatever runs the tests."""
    monkeypatch.setenv("TERM", "xterm-256color")


def texts(screen) -> str:
    return "\n".join(widget_text(w) for w in screen.query(Static) if w.display)


def test_the_card_tracker_lists_the_unseen_cards_in_the_ranking_and_the_voids():
    async def run():
        app = make_app(seed="tracker")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot, lambda t: t.game.phase is Phase.PLAY and len(t.game.log[-1].plays) >= 12
            )
            view = table.state.view
            tracker = widget_text(table.query_one("#tracker"))
            key = STRENGTH[view.ranking]
            for suit, letter in enumerate("CKLB"):
                cards = sorted(cards_of(view.unseen_cards & SUIT_MASKS[suit]), key=lambda c: -key[c])
                line = next(line for line in tracker.splitlines() if f"{letter}  " in line)
                assert line.split()[1:] == [str(c % 9 + 1) for c in cards] or (not cards and len(line.split()) == 2)
            assert "Shown out:" in tracker
            # at 80x24 the same panel is one key away
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await press(pilot, "o")
            assert isinstance(app.screen, PanelScreen)
            assert "Cards still out" in widget_text(app.screen.query_one("#tracker-box"))
            await press(pilot, "escape")
            await press(pilot, "h")
            assert "Tricks of this hand" in widget_text(app.screen.query_one("#history-box"))

    asyncio.run(run())


def test_every_finished_trick_says_why_it_was_won_on_the_table_and_in_the_history():
    async def run():
        app = make_app(seed="why")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot,
                lambda t: (
                    t.game.phase is Phase.PLAY and len(t.game.log[-1].plays) >= 9 and len(t.game.log[-1].plays) % 3 == 0
                ),
            )
            history = widget_text(table.query_one("#history"))
            tricks = len(table.game.log[-1].plays) // 3
            reasons = [
                line for line in history.splitlines() if "wins:" in line or " beats " in line or "had to beat" in line
            ]
            assert len(reasons) >= tricks
            assert re.search(r"\b(You win|\w+ wins) trick \d+ \(", widget_text(table.query_one("#table")))

    asyncio.run(run())


def test_undo_takes_back_the_persons_card_and_marks_the_game_assisted(home, monkeypatch):
    async def run():
        app = make_app(seed="undo")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot,
                lambda t: (
                    t.game.phase is Phase.PLAY and len(t.game.log[-1].plays) % 3 == 0 and len(t.game.log[-1].plays) < 30
                ),
            )
            # At a slow pace the computer players wait before their cards show: time to think again.
            hold_the_computers(monkeypatch, app)
            before = table.game.log[-1].plays
            await human_turn(pilot, table, Random(2))  # the person leads a card...
            assert len(table.game.log[-1].plays) == len(before) + 1
            await press(pilot, "u")  # ...and takes it back while the next player thinks
            await pilot.pause()
            assert table.game.log[-1].plays == before and table.game.to_act == 0
            assert "assisted" in widget_text(table.query_one("#topbar"))
            assert json.loads(sidecar_of(current_path()).read_text())["assisted"] is True
            record = json.loads(current_path().read_text())
            assert record["hands"][-1]["play"].split() == [card_name(c) for c in before]

    asyncio.run(run())


def test_long_names_stay_different_on_every_panel():
    names = (
        "Player With A Very Long Name One",
        "Player With A Very Long Name Two",
        "Player With A Very Long Name Three",
    )

    async def run():
        app = make_app(seed="names", player=names[0], names=names[1:])
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(pilot, lambda t: t.game.phase is Phase.PLAY)
            shown = short_names(names, 12)
            sheet = widget_text(table.query_one("#sheet"))
            for name in shown:
                assert name in sheet
            assert len(set(shown)) == 3

    asyncio.run(run())


def test_grammar_singular_and_second_person():
    """Every sentence the table shows, from every state of two hands: the panels drawn from the
    flow's states as the screen draws them, and the bids as the bid panel tells them."""
    from rich.console import Console

    from game_support import run_until
    from stepping_stones.flow import GameFlow, PersonTurn
    from stepping_stones.storage.session import Session, Setup
    from stepping_stones.tui.drawing import Scene, history_text, log_text, table_canvas, target_text, tracker_text
    from stepping_stones.tui.render import Look

    session = Session.new(Setup(seed="grammar", levels=("random", "random")))
    flow = GameFlow(session, Settings(pace="instant", trick_pause=False, only_card="off"))
    seen: list[str] = []
    console = Console(width=120)

    def draw(state) -> None:
        scene = Scene(state, Look())
        hand = scene.hand
        bids = (
            []
            if hand is None
            else [
                scene.teller.bid(seat, bid, puddle=i >= 3)
                for i, (bid, seat) in enumerate(zip(hand.bids, hand.bid_seats, strict=True))
            ]
        )
        seen.extend(
            [
                str(table_canvas(scene, 76, 16)),
                str(log_text(scene, 78, 11, console)),
                str(tracker_text(scene)),
                str(history_text(scene, 60, None, console)),
                str(target_text(scene)),
                *bids,
            ]
        )

    flow.subscribe(draw)
    person_turns = []

    def three_hands_dealt(flow, step) -> bool:
        if len(flow.game.log) >= 3:
            return True
        person_turns.extend([step] if isinstance(step, PersonTurn) else [])
        return False

    run_until(flow, three_hands_dealt)
    turns = len(person_turns)
    everything = "\n".join(seen)
    assert turns > 20 and "You" in everything and " 1 trick" in everything
    for wrong in (
        " 1 cards",
        " 1 tricks",
        "You has",
        "You holds",
        "You leads",
        "You plays",
        "You wins",
        "once You",
        "(holds ",
    ):
        assert wrong not in everything, wrong


def test_the_last_hands_summary_says_final_result_in_the_footer():
    saved_game_near_the_end(seed="last", cards_left=1)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = await wait_for_person(pilot)
            while not isinstance(screen, HandSummaryScreen):
                await human_turn(pilot, app.table, Random(1))
                screen = await wait_for_person(pilot)
            await pilot.pause()  # the summary's footer is composed once the screen has mounted
            footer = " ".join(widget_text(w) for w in app.screen.query("FooterKey"))
            assert "Final result" in footer and "Next hand" not in footer

    asyncio.run(run())


def test_a_redo_summary_says_what_changed_for_whom():
    from conftest import play_hand, same_bands
    from stepping_stones.engine import Game

    # Three hands of Win No Trump, then Ann (the person, seat 0) plays it again with a redo.
    game = Game(Rules("standard", redo_tokens=True), ("Ann", "Hana", "Kenji"))
    play_hand(game, same_bands(1, 2, 0), "win-no-trump 9")  # Ann 0 tricks
    play_hand(game, same_bands(0, 2, 1), "win-no-trump 9")  # Hana
    play_hand(game, same_bands(0, 1, 2), "win-no-trump 9")  # Kenji
    before = game.points("win-no-trump")
    game.start_hand(same_bands(1, 2, 0))
    while game.to_act != 0:
        game.bid(parse_bid("pass"))
    game.bid(parse_bid("win-no-trump 9 redo"))
    while game.phase is Phase.PLAY:
        game.play(min(cards_of(game.legal_cards_mask())))
    after = game.points("win-no-trump")
    text = hand_summary(game.view(0), len(game.log), Look()).plain
    assert "scored again" in text
    if before != after:
        assert f"You {before[0]:+d} → {after[0]:+d}" in text


def test_ctrl_q_mid_game_says_the_game_is_saved_and_how_to_come_back():
    async def run():
        app = make_app(seed="quit")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            await wait_for_person(pilot)
            await press(pilot, "ctrl+q")
        return app

    app = asyncio.run(run())
    assert app.farewell and "saved" in app.farewell and "stepping-stones" in app.farewell
    assert app.return_code in (0, None)


def test_choosing_the_ranking_while_bidding_sorts_the_hand_that_way():
    async def run():
        app = make_app(seed="sort")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(pilot, lambda t: t.game.phase is Phase.BIDDING and t.game.bidder == 0)
            mine = table.state.view.own_cards
            assert table.state.my_cards == sorted_cards(mine, RANKINGS[0])
            await press(pilot, "1")
            assert table.state.my_cards == sorted_cards(mine, 1)
            await press(pilot, "9")
            assert table.state.my_cards == sorted_cards(mine, 9)

    asyncio.run(run())


def test_the_setup_screen_fixes(home):
    async def run():
        app = make_app(seed="setup")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            await pilot.press("tab")
            assert app.focused is not None and app.focused.id == "contract_set"  # no invisible stop
            text = texts(screen)
            assert ("automatic", "auto") in screen.query_one("#colour").options and "NO_COLOR" not in text
            assert "Seat 1 name" in text and "Seat 2 name" in text and "Seat 3" not in text
            assert screen.query_one("#omit").disabled  # the short game is off
            await pilot.press("tab", "right")  # the short game: yes
            await pilot.pause()
            assert not screen.query_one("#omit").disabled
            assert "(usual)" in widget_text(screen.query_one("#omit"))
            summary = widget_text(screen.query_one("#setup-summary"))
            assert summary.replace("\n", " ").endswith("Enter starts.")
            app.settings.pace = "slow"  # a display choice, then quit without starting
        return app

    asyncio.run(run())
    assert not settings_path().exists() or load_settings().pace != "slow"


def test_ascii_mode_draws_only_ascii(home):
    async def run():
        app = make_app(seed="ascii", settings=Settings(pace="instant", colour="colour", ascii=True, trick_pause=False))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot, lambda t: t.game.phase is Phase.PLAY and len(t.game.log[-1].plays) >= 4
            )
            shown = texts(table) + widget_text(app.screen.query_one("#table-keys"))
            assert all(ord(ch) < 128 for ch in shown), sorted({ch for ch in shown if ord(ch) >= 128})

    asyncio.run(run())


def test_terminals_with_few_colours_are_drawn_in_monochrome(monkeypatch):
    from textual.filter import Monochrome

    assert few_colours("xterm-mono") and few_colours("linux") and not few_colours("xterm-256color")
    monkeypatch.setenv("TERM", "xterm-mono")
    assert Settings(colour="auto").monochrome and not Settings(colour="colour").monochrome

    async def run():
        app = make_app(settings=Settings(pace="instant", colour="auto"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return any(isinstance(f, Monochrome) for f in app._filters)

    assert asyncio.run(run())


def test_pace_gets_faster_then_starts_again_slow():
    async def run():
        app = make_app(seed="pace", settings=Settings(pace="normal", colour="colour", trick_pause=False))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            order = []
            for _ in range(4):
                app.action_cycle_pace()
                order.append(app.settings.pace)
            return order

    assert asyncio.run(run()) == ["fast", "instant", "slow", "normal"]


def test_the_record_and_replay_mark_a_redo_the_same_way(tmp_path, capsys):
    from conftest import random_game
    from stepping_stones.cli import main
    from stepping_stones.storage.records import record_from_game, write_record

    for seed in range(60):
        game = random_game(seed, Rules("standard", redo_tokens=True))
        if any(h.declaration.redo for h in game.log):
            break
    path = tmp_path / "redo.json"
    write_record(path, record_from_game(game))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "r: played again with a redo token" in out and "*" not in out


async def _hint_shown(pilot, table):
    text = await settled(pilot, table.query_one("#log"))  # the expert works in a worker thread
    assert table.state.hint is not None, text
    return text


@pytest.mark.parametrize("phase", [Phase.PLAY, Phase.BIDDING])
def test_a_hint_gives_its_reason_puts_the_cursor_on_it_and_marks_the_game_assisted(home, phase):
    from stepping_stones.ai.hints import hint_for

    async def run():
        app = make_app(seed="hint", settings=Settings(pace="instant", colour="colour", trick_pause=False))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot, lambda t: t.game.phase is phase and (phase is Phase.BIDDING or len(t.game.log[-1].plays) >= 6)
            )
            assert "assisted" not in widget_text(table.query_one("#topbar"))
            await press(pilot, "i")  # (the note while it is worked out: tests/test_flow.py)
            log = await _hint_shown(pilot, table)
            expected = hint_for(table.state.view)  # the same position gets the same hint
            assert table.state.hint == expected and table.state.message == f"Hint: {expected.text}"
            assert " ".join(log.split()).startswith(f"Hint: {expected.action_text}:")
            # all of it, or (too long for the two lines of the log at 80x24) its brief, and then
            # one more i shows all of it in a box
            shown = " ".join(log.split())
            if " ".join(expected.text.split()) not in shown:
                assert " ".join(expected.brief.split()) in shown and "i: all of it" in shown
                await press(pilot, "i")
                box = " ".join(widget_text(app.screen.query_one("#notice")).split())
                assert " ".join(expected.text.split()) in box
                await press(pilot, "escape")
            assert widget_text(table.query_one("#hand")).splitlines()[-1].count("─") > 12  # the key row
            assert "assisted" in widget_text(table.query_one("#topbar"))
            assert json.loads(sidecar_of(current_path()).read_text())["assisted"] is True
            # Enter does what the hint said
            before = (len(table.state.view.bids), len(table.state.view.plays))
            await press(pilot, "enter")
            await pilot.pause()
            view = table.state.view
            if phase is Phase.PLAY:
                assert view.plays[before[1]] == expected.action
            else:
                assert table.game.log[-1].bids[before[0]] == expected.action
            assert table.state.hint is None and table.state.message is None

    asyncio.run(run())


def test_a_hint_out_of_turn_says_so(monkeypatch):
    async def run():
        app = make_app(seed="hint")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await wait_for_person(pilot)
            hold_the_computers(monkeypatch, app)
            for _ in range(20):  # until a computer player is thinking (slowly) after the person's turn
                await human_turn(pilot, table, Random(1))
                if table.state.thinking is not None:
                    break
                table = await wait_for_person(pilot)
            assert table.state.thinking is not None
            await press(pilot, "i")
            assert "A hint is for your own turn" in widget_text(table.query_one("#log"))
            assert not table.flow.assisted

    asyncio.run(run())


def test_the_hand_summary_shows_the_analysis_against_perfect_play():
    from stepping_stones.ai.analysis import analyse_hand, analysis_lines
    from stepping_stones.explain import plural

    saved_game_near_the_end(seed="analysis", cards_left=6, hands=1, person_to_play=True)  # the last two tricks

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            rng = Random(3)
            for _ in range(40):
                screen = await wait_for_person(pilot)
                if isinstance(screen, HandSummaryScreen):
                    break
                await human_turn(pilot, app.table, rng)
            await analysed(pilot)  # worked out in a thread worker, and shown when it is done
            shown = await settled(pilot, screen.query_one("#summary-analysis"))
            # the same as the analysis of the real hand (with its real deal) says
            hand = app.table.game.log[0]
            analysis = analyse_hand(hand)
            lines = analysis_lines(analysis, app.table.game.players, 0)
            flat = " ".join(shown.split())
            assert flat.startswith("Against perfect play")
            assert not screen.query("#summary-claim")  # no claim ended this hand
            for line in lines:
                assert " ".join(line.split()) in flat
            assert f"par, with perfect play by all from the deal, was {plural(analysis.par, 'counted trick')}." in flat
            await press(pilot, "enter")  # the summary goes; the game goes on
            assert not isinstance(app.screen, HandSummaryScreen)

    asyncio.run(run())


def test_undo_with_nothing_to_take_back_says_why():
    async def run():
        app = make_app(seed="undo-none")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(pilot, lambda t: t.flow.undo_point() is None)
            keys = app.screen.query_one("#table-keys")
            assert "u Undo" in widget_text(keys)  # always in its place: dim, with nothing to take back
            assert ("nothing_to_undo", False) in [(b.action, bright) for b, bright in keys._keys()[0]]
            await press(pilot, "u")
            assert "Nothing to take back" in widget_text(table.query_one("#log"))

    asyncio.run(run())


def test_a_hand_of_millions_of_positions_is_analysed_in_full():
    """Issue 46: the app gave up past 2,000,000 solver positions a hand ("This hand takes too long
    to solve here"), and some May Trump hands take millions.  Now every hand is worked out (in
    the background: the summary says so meanwhile).  This May Trump hand, from a seeded game of
    three heuristic seats, takes about 3.6 million."""
    from stepping_stones.ai import make_ai
    from stepping_stones.ai.analysis import HandAnalysis
    from stepping_stones.engine import Game, Rules
    from stepping_stones.game.match import Seeds, drive

    seeds = Seeds.series("heavy2:advanced", 6)
    game = Game(Rules("advanced"), first_forehand=seeds.first_forehand())
    drive(game, [make_ai("heuristic")] * 3, seeds)
    past = game.view(0).history[2]
    assert past.declaration is not None and past.declaration.contract.id == "may-trump"
    solvers = []
    stop = hindsight.Stop()
    watch = stop.watch
    stop.watch = lambda solver: (solvers.append(solver), watch(solver))  # type: ignore[method-assign]
    found = hindsight.Hindsight().analyse(past, stop=stop)
    assert isinstance(found, HandAnalysis)
    assert solvers[0].nodes > 2_000_000  # past the budget the app had


def test_each_app_keeps_its_own_analyses(home):
    """The analyses belong to an app: another app (or test) never finds one it did not work out."""
    from tui_support import saved_game_near_the_end as near

    past = near(seed="own-answers", hands=2, cards_left=0).game.view(0).history[0]
    first, second = make_app(), make_app()
    assert first.hindsight.analyse(past) is not None
    assert first.hindsight.known(past) is not None
    assert second.hindsight.known(past) is None


def test_the_contract_line_tells_long_names_apart():
    """The header of the table and the review names the declarer by the same shortening as every
    other panel, so three long names that start alike stay different there too."""
    from conftest import play_hand, same_bands
    from stepping_stones.engine import Game, Rules
    from stepping_stones.tui.render import NAME_WIDTH, contract_line

    names = (
        "Player With A Very Long Name One",
        "Player With A Very Long Name Two",
        "Player With A Very Long Name Three",
    )
    shown = short_names(names, 2 * NAME_WIDTH)
    assert len(set(shown)) == 3
    for declarer in range(3):
        game = Game(Rules(), players=names, first_forehand=declarer)
        play_hand(game, same_bands(0, 1, 2), "win-no-trump 9")
        view = game.view(0)
        line = contract_line(view, view.history[-1], Look(False)).plain
        assert line.startswith(f"{shown[declarer]} declared Win Tricks (No Trump)"), line


def test_the_hand_counter_counts_the_redo_hands_and_the_sheet_shows_who_holds_a_token(home):
    """Issue 35, item 6: "Hand 10 of 9 (+1 redo)" with two redos spent; and nothing showed who
    still held a redo token."""
    from stepping_stones.ai import RandomAI
    from stepping_stones.explain.saving import describe_progress
    from stepping_stones.game.match import drive
    from stepping_stones.storage.session import Session, Setup

    session = Session.new(
        Setup(rules=Rules("standard", redo_tokens=True), seed="redo-count", levels=("random", "random"))
    )
    game = session.game
    drive(
        game,
        [RandomAI()] * 3,
        session.seeds,
        stop=lambda g: sum(g.redo_spent) == 2 and g.phase is Phase.PLAY and g.log[-1].declaration.redo,
    )
    session.save()
    number = len(game.log)
    spent = [s for s in range(3) if game.redo_spent[s]]
    assert len(spent) == 2 and number > 2
    assert describe_progress(game).startswith(f"hand {number} of 14 (12 + 2 redos)")

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")  # resume
            await settled(pilot, app.screen)
            top = widget_text(app.screen.query_one("#topbar"))
            assert f"Hand {number} of 14 (12 + 2 redos)" in top
            sheet = widget_text(app.screen.query_one("#sheet")).splitlines()
            assert sheet[0].split()[-1] == "Redo"
            for seat, line in enumerate(sheet[1:4]):
                assert line.split()[-1] == ("used" if seat in spent else "held")

    asyncio.run(run())


def test_words_that_read_right():
    """Issue 35, item 8: "You leads next", "1 tricks", "1 games", a Must Beat trick's reason
    that was only the rule, "Win T" on a chart, "60 x 20" split over two lines, and a suit
    symbol left at the end of a line of the rules."""
    from stepping_stones.ai import RandomAI
    from stepping_stones.engine import Game
    from stepping_stones.game.match import Seeds, drive
    from stepping_stones.tui.dialogs import LastTrickScreen
    from stepping_stones.tui.library_screens import short_name
    from stepping_stones.tui.render import Look

    seeds = Seeds("words")
    game = Game(Rules("standard"), first_forehand=seeds.first_forehand())
    told = set()
    for plays in range(3, 37, 3):
        drive(game, [RandomAI()] * 3, seeds, stop=lambda g, n=plays: g.log and len(g.log[-1].plays) >= n)
        told.add(LastTrickScreen(game.view(0), Look())._text().plain.splitlines()[-1])
    assert any("; You win it (" in line for line in told), told  # the presenter's sentence (last_trick)
    assert any(re.search(r"; [A-Z][a-z]+ wins it \(", line) for line in told), told
    assert not any("You wins" in line or "You leads" in line for line in told)
    assert short_name("lose-pick-trump") == "Lose PT"


def test_the_rules_never_leave_a_suit_symbol_alone_at_the_end_of_a_line(home):
    async def run():
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "f1")
            await pilot.pause()
            text = widget_text(app.screen.query_one("#help-text"))
            symbols = set(Look().symbols)
            assert "⌂ Stone Lanterns (L)  ∩ Bridges (B)" in text
            assert not [line for line in text.splitlines() if line.rstrip() and line.rstrip()[-1] in symbols]
            assert not [line for line in text.splitlines() if line.strip() == "(B)"]

    asyncio.run(run())


def test_the_setup_screen_says_what_each_level_is_and_remembers_the_players(home):
    """Issue 35, item 13: the levels explained, one line each; the names and levels (and the
    display choices) chosen are there again at the next launch."""
    from stepping_stones.game.choices import AI_LEVEL_WORDS, AI_LEVELS
    from stepping_stones.tui.app import SteppingStonesApp

    async def first():
        app = SteppingStonesApp(settings=load_settings())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            lines = widget_text(screen.query_one("#setup-levels")).splitlines()
            assert lines == [f"{level}: {AI_LEVEL_WORDS[level]}" for level in AI_LEVELS]  # one line each
            screen.query_one("#name0").value = "Mika"
            screen.query_one("#level1").focus()
            await press(pilot, "right")  # heuristic -> expert
            screen.query_one("#only_card").focus()
            await press(pilot, "right")
            assert app.settings.only_card == "on"
            await press(pilot, "ctrl+s")
            await pilot.pause()
            assert app.screen is not screen  # the game started

    async def second():
        app = SteppingStonesApp(settings=load_settings())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if not isinstance(app.screen, SetupScreen):  # the unfinished game: a new one instead
                await press(pilot, "n")
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            assert screen.query_one("#name0").value == "Mika" and screen.query_one("#name1").value == "Kenji"
            assert screen.query_one("#level0").value == "heuristic" and screen.query_one("#level1").value == "expert"
            assert screen.query_one("#only_card").value == "on"

    asyncio.run(first())
    asyncio.run(second())
    assert load_settings().setup().names == ("Mika", "Kenji")


def test_a_local_game_says_whose_turn_it_is_and_rings_when_it_comes():
    """A game on this machine said nobody's turn in the top bar and had no bell; at a table on a
    server both were there.  Now the top bar says "Your turn." and the bell rings as it comes."""

    async def run():
        app = make_app(seed="bell")
        rings: list[None] = []
        app.bell = lambda: rings.append(None)  # type: ignore[method-assign]
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until_turn(
                pilot, lambda t: t.game.phase is Phase.PLAY and len(t.game.log[-1].plays) >= 4
            )
            assert "Your turn." in widget_text(table.query_one("#topbar"))
            assert rings  # the person's turns came after the computers' moves, each with the bell

    asyncio.run(run())
