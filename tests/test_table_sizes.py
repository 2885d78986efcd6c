"""Issue 18: the table at every size (Textual's breakpoints), and the rough edges players hit:
long names told apart everywhere, the newest trick always in view, "Shown out" kept with the
hand's tricks, a replay command that works as printed, hints that fit and agree with themselves."""

from __future__ import annotations

import asyncio
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from random import Random

from stepping_stones.ai import RandomAI
from stepping_stones.ai.knowledge import deductions
from stepping_stones.engine import NUM_SEATS, SUIT_MASKS, SUITS, Phase, Rules
from stepping_stones.explain import short_names
from stepping_stones.game.match import drive
from stepping_stones.storage.session import Session, Setup
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.dialogs import HandSummaryScreen, HelpScreen, LastTrickScreen, NoticeScreen, PanelScreen
from stepping_stones.tui.screens import GameOverScreen
from stepping_stones.tui.table import TableScreen
from tui_support import (
    hold_the_computers,
    human_turn,
    make_app,
    play_until,
    press,
    saved_game_near_the_end,
    settled,
    widget_text,
)


def playing(tricks: int):
    """At the person's turn to play, with at least ``tricks`` tricks finished."""

    def stop(app, screen) -> bool:
        table = app.table
        return screen is table and table.game.phase is Phase.PLAY and len(table.game.log[-1].plays) >= 3 * tricks

    return stop


def on_screen(widget) -> bool:
    """The whole widget is inside the screen, above the line of keys."""
    region = widget.region
    return region.height > 0 and region.bottom <= widget.app.size.height - 1 and region.y >= 0


# --- the table at every size ------------------------------------------------------------


SIZES = [  # the window, the table's classes, the side panel's width, the log's and the hand's rows
    ((80, 24), {"-narrow", "-short"}, 0, 2, 3),
    ((120, 40), {"-wide", "-tall"}, 46, 6, 4),
    ((160, 50), {"-wider", "-taller"}, 62, 8, 5),
    ((200, 60), {"-widest", "-tallest"}, 76, 11, 7),
]


def test_the_table_grows_with_the_window_by_textuals_breakpoints():
    """Larger cards, a wider side panel and a longer log in a larger window; nothing off screen.
    One game, reached at 80x24, is looked at in each size in turn, as a person who enlarges the
    window mid-trick sees it (and back down to the smallest)."""

    async def run():
        app = make_app(seed="sizes")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            await play_until(pilot, lambda app, s: playing(5)(app, s) and len(app.table.game.log[-1].plays) % 3 > 0)
            for size, classes, sidebar, log, hand in [*SIZES[1:], SIZES[0]]:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                _check_the_table_at(app.table, size, classes, sidebar, log, hand)

    asyncio.run(run())


def _check_the_table_at(table, size, classes, sidebar, log, hand) -> None:
    assert classes <= set(table.classes), size
    side = table.query_one("#sidebar")
    assert (side.outer_size.width if side.display else 0) == sidebar, size
    assert table.query_one("#log").size.height == log, size
    panel = table.query_one("#hand")
    assert panel.size.height == hand and on_screen(panel), size
    rows = widget_text(panel).splitlines()
    assert len(rows) == hand and "[" in rows[-1], size  # the whole card and its key row
    assert rows[-1].rstrip().endswith(("╯", "+")), size  # the whole hand across
    log_lines = widget_text(table.query_one("#log")).splitlines()
    assert sum(1 for line in log_lines if line.strip()) == log, size  # as many events as rows
    if sidebar:
        history = widget_text(table.query_one("#history"))
        for line in filter(None, history.splitlines()[1:]):  # no line of a trick wraps onto column 0
            assert line.startswith(("  ", " 1", " 2", " 3", " 4", " 5", " 6", " 7", " 8", " 9", "1")), (size, line)
    # the cards of the trick grow with the table
    card_rows = [ln for ln in widget_text(table.query_one("#table")).splitlines() if set(ln) & set("│╭╰")]
    assert len(card_rows) >= {24: 3, 40: 7, 50: 7, 60: 7}[size[1]], size


# --- 1. long names --------------------------------------------------------------------


def test_long_names_are_told_apart_in_the_history_the_last_trick_and_the_hand_summary():
    names = (
        "Player With A Very Long Name One",
        "Player With A Very Long Name Two",
        "Player With A Very Long Name Three",
    )

    async def run():
        app = make_app(seed="names", player=names[0], names=names[1:])
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            await play_until(pilot, playing(2))
            table = app.table
            history = widget_text(table.query_one("#history"))
            trick = next(line for line in history.splitlines() if line.startswith(" 1 "))
            shown = short_names(("You", *names[1:]), 7)  # the seats as the person's table names them, cut to fit
            assert shown[1] != shown[2] and all(n in trick for n in shown), trick
            await press(pilot, "t")
            assert isinstance(app.screen, LastTrickScreen)
            box = widget_text(app.screen.query_one("#last-trick"))
            for name in short_names(names, 16):
                assert name in box
            await press(pilot, "escape")
            summary = await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
            sheet = widget_text(summary.query_one("#summary-sheet"))
            for name in short_names(names, 12):
                assert name in sheet

    asyncio.run(run())


def test_two_long_opponents_at_a_narrow_table_are_both_drawn_cut_not_one_over_the_other():
    from stepping_stones.engine import Game
    from stepping_stones.flow import TableState
    from stepping_stones.tui.drawing import Scene, table_canvas
    from stepping_stones.tui.render import Look

    left, right = "Annabelle Featherstonehaugh", "Bartholomew Cholmondeley"
    game = Game(Rules(), ["Cy", left, right], 0)
    game.deal_hand(Random(5))
    state = TableState.of(game.view(0), seats=("you", "person, away, computer plays", "person, rated 1012"))
    for width in (40, 56, 76):
        top, second = table_canvas(Scene(state, Look()), width, 16).plain.splitlines()[:2]
        assert top.startswith(left[:8]) and "…" in top, (width, top)  # the left one cut, not written over
        assert right[:8] in top, (width, top)  # and the right one on the same line
        assert second.startswith("▮") and "12" in second, (width, second)
        assert len(top) <= width and len(second) <= width


# --- 2. the newest trick in view --------------------------------------------------------


def test_the_tricks_of_the_hand_always_show_the_newest_trick():
    saved_game_near_the_end(seed="history", cards_left=6, hands=1, person_to_play=True)  # ten tricks played

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await play_until(pilot, playing(10))
            table = app.table
            done = len(table.game.log[-1].plays) // NUM_SEATS
            history = widget_text(table.query_one("#history"))
            assert any(line.startswith(f"{done:>2} ") for line in history.splitlines()), history
            assert "h: all" in history.splitlines()[0]  # and it says that the first ones are above
            # at 80x24 the same list, in a box that scrolls, opens on the newest trick
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await press(pilot, "h")
            assert isinstance(app.screen, PanelScreen)
            await pilot.pause()
            scroll = app.screen.query_one("#history-scroll")
            assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y

    asyncio.run(run())


# --- 3. shown out stays with the hand -------------------------------------------------


def test_shown_out_describes_the_same_hand_as_the_tricks_until_the_next_deal():
    saved_game_near_the_end(seed="voids", cards_left=3, hands=1)  # the first hand's last trick

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
            table = app.table
            hand = table.game.log[-1]
            assert hand.finished
            void = deductions(hand.state.tricks(), hand.declaration)[0]
            assert any(void), "this deal has a player showing out"
            tracker = widget_text(table.query_one("#tracker"))
            assert "nobody yet" not in tracker
            line = tracker[tracker.index("Shown out:") :]
            names = short_names(table.game.players, 12)
            for seat in range(NUM_SEATS):
                for s in range(len(SUITS)):
                    if void[seat] & SUIT_MASKS[s]:
                        assert names[seat] in line and SUITS[s] in line
            assert "12 " in widget_text(table.query_one("#history"))  # the tricks beside it, the last one shown

    asyncio.run(run())


# --- 4. the replay command works as printed --------------------------------------------


def _near_the_end(rules: Rules) -> None:
    session = Session.new(Setup(rules=rules, seed="again 7", levels=("random", "heuristic")))
    game = session.game

    def reached(game) -> bool:
        return len(game.log) == game.rules.max_hands and len(game.log[-1].plays) >= 33

    drive(game, [RandomAI()] * 3, session.seeds, stop=reached)
    session.save()


def test_the_final_screen_prints_a_command_that_deals_the_same_cards(home, tmp_path):
    rules = Rules("advanced", short_game=True, redo_tokens=True)
    _near_the_end(rules)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(80, 24)) as pilot:  # at 80 columns it takes two lines
            screen = await play_until(pilot, lambda app, s: isinstance(s, GameOverScreen))
            return widget_text(screen.query_one("#gameover-help"))

    text = asyncio.run(run())
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("stepping-stones simulate"))
    end = next(i for i in range(start, len(lines)) if not lines[i].endswith("\\"))
    command = " ".join(line.removesuffix("\\").strip() for line in lines[start : end + 1])
    words = shlex.split(command)
    assert words[:4] == ["stepping-stones", "simulate", "--games", "1"]
    assert "--short" in words and "--redo" in words and words[words.index("--set") + 1] == "advanced"
    assert words[words.index("--seats") + 1] == "heuristic,random,heuristic"
    program = shutil.which("stepping-stones") or str(Path(sys.executable).with_name("stepping-stones"))
    done = subprocess.run([program, *words[1:]], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    # and it deals the cards of this game, hand by hand
    records = tmp_path / "records"
    done = subprocess.run(
        [program, *words[1:], "--records", str(records)], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stderr

    def hands(folder: Path) -> list:
        found = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json")) if ".session." not in p.name]
        return next(data["hands"] for data in found if "hands" in data)

    dealt = hands(records)
    played = hands(home / "data" / "games")
    assert len(played) >= rules.hands
    for mine, again in zip(played, dealt, strict=False):
        assert mine["deal"] == again["deal"]


# --- 5. hints fit their place and agree with themselves ----------------------------------


def test_a_hint_fits_its_place_at_every_size():
    """A hint while bidding and one while playing, each looked at in three sizes of window (the
    window changed with the hint on show): the whole hint or its brief, whole, and nothing of the
    table pushed out of view."""

    async def run():
        app = make_app(seed="hint-fit", redo_tokens=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            for phase in (Phase.BIDDING, Phase.PLAY):

                def stop(app, screen, phase=phase) -> bool:
                    t = app.table
                    return (
                        screen is t
                        and t.game.phase is phase
                        and (phase is Phase.BIDDING or len(t.game.log[-1].plays) >= 6)
                    )

                await play_until(pilot, stop)
                table = app.table
                await press(pilot, "i")
                await settled(pilot, table.query_one("#log"))  # the expert works in a worker thread
                expected = table.state.hint  # the expert's, worked out by the table for this view
                assert expected is not None
                for size in [(120, 40), (200, 60), (80, 24)]:
                    await pilot.resize_terminal(*size)
                    log = await settled(pilot, table.query_one("#log"))
                    assert log.startswith(f"Hint: {expected.action_text}:"), size
                    # the whole hint, or its brief, whole: nothing cut at the end
                    assert (
                        " ".join(expected.text.split()) in log
                        or " ".join(f"{expected.brief} (i: all of it)".split()) in log
                    ), (size, log)
                    # it moved nothing: the hand with its key row, the table and the bids all in view
                    hand = table.query_one("#hand")
                    assert on_screen(hand), size
                    assert "[" in widget_text(hand).splitlines()[-1] or phase is Phase.BIDDING, size
                    above = table.query_one("#bidpanel" if phase is Phase.BIDDING else "#table")
                    assert above.region.bottom <= table.query_one("#log").region.y, size
                    if phase is Phase.BIDDING:
                        bids = [w for w in table.query(".bidopt") if w.display]
                        assert all(w.region.bottom <= above.region.bottom for w in bids), size
                if "i: all of it" in log:  # at 80x24, the last size
                    await press(pilot, "i")
                    assert isinstance(app.screen, NoticeScreen)
                    await press(pilot, "escape")
                await press(pilot, "enter")  # do what it said

    asyncio.run(run())


def test_the_keys_at_the_bottom_show_whole_and_stay_put(monkeypatch):
    """The line of keys under the table, at 80 and 120 columns: each key whole (none cut at the
    edge); while cards are played c Claim, u Undo and "? Help" in view at both sizes; the same
    keys before and after the person's card (issue 43, item 6: Undo and Pace came and went), Pace
    at 120 columns and not at 80; and a click on a key presses it."""

    def keys(table) -> str:
        return " ".join(widget_text(table.query_one("#table-keys")).split())

    def whole(line: str) -> None:
        shown = [f"{b.key_display or b.key} {b.description}" for b in TableScreen.BINDINGS if b.show]
        assert line.startswith("←→ Move ⏎ OK")
        assert line.split()[-1] in {"palette", *(s.split()[-1] for s in shown)}  # ends on a whole key

    async def run():
        app = make_app(seed="keys")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until(pilot, lambda app, s: playing(1)(app, s) and not app.table.state.can_undo)
            before = {}
            for size in [(80, 24), (120, 40)]:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                before[size] = keys(table)
                assert all(k in before[size] for k in ("c Claim", "u Undo", "? Help", "i Hint")), size
                assert ("f Pace" in before[size]) == (size[0] >= 120), size
                whole(before[size])
            hold_the_computers(monkeypatch, app)  # the next player thinks for as long as the test looks
            await human_turn(pilot, table, Random(1))  # the person's card: now there is something to take back
            for size in [(120, 40), (80, 24)]:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                assert keys(table) == before[size], size
            line = widget_text(table.query_one("#table-keys"))
            await pilot.click("#table-keys", offset=(line.index("Help"), 0))
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)

    asyncio.run(run())


def test_claim_is_in_the_line_of_keys_at_80_columns_in_ascii_mode():
    """Issue 43, item 6: c (claim) never appeared in the line of keys; in ASCII mode the keys are
    words, and the line is longer."""

    async def run():
        settings = Settings(pace="instant", colour="colour", trick_pause=False, only_card="off", ascii=True)
        app = make_app(seed="keys", settings=settings)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")
            table = await play_until(pilot, playing(1))
            line = " ".join(widget_text(table.query_one("#table-keys")).split())
            assert line.startswith("Left/Right Move Enter OK") and "c Claim" in line, line
            assert "u Undo" in line and "? Help" in line, line

    asyncio.run(run())


def test_at_80_columns_the_top_bar_keeps_the_seconds_of_a_player_with_a_long_name():
    """At a table on a server the top bar says whom the table waits for and their seconds left. With
    a 37-character name at 80 columns it said "Standard set · Hand 1 of 12 · Waiting for
    Bartholomew" and the seconds were cut off (seen in tmux as a new user): the name is now the
    one the table shows, cut, and the hand and the clock come first."""
    from stepping_stones.engine import Game
    from stepping_stones.flow import TableState
    from stepping_stones.flow.state import Clock
    from stepping_stones.tui.drawing import Scene, top_bar_text
    from stepping_stones.tui.render import Look

    long = "Bartholomew Featherstonehaugh-Smythe"
    game = Game(Rules(), ["Cy", "Hana", long], 0)
    game.deal_hand(Random(5))
    seats = ("you", "computer", "person")
    for reading in (False, True):
        state = TableState.of(game.view(0), seats=seats, clock=Clock(2, 38, reading))
        bar = top_bar_text(Scene(state, Look(True))).plain[:79]  # what 80 columns show of it
        assert bar.startswith("Hand 1 of 12"), bar
        assert ": 38 s left." in bar and "Bartholomew" in bar, bar
