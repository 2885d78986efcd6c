"""The library in the app: the history screen (a game opens into the review) and the statistics
screen, through Pilot and as snapshots at 80x24 and 120x40."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from conftest import random_game
from stepping_stones.engine import Rules
from stepping_stones.storage.library import Library, Patience
from stepping_stones.storage.library import database as library_module
from stepping_stones.storage.records import record_from_game, write_record
from stepping_stones.tui.library_screens import HistoryScreen, StatsScreen, short_name
from stepping_stones.tui.screens import ReviewScreen, SetupScreen
from tui_support import make_app, press, widget_text

SIZES = [(80, 24), (120, 40)]
GAMES = [  # (file stamp, seed, rules, players, assisted)
    ("20260105-101500", 11, Rules(), ["You", "Hana", "Kenji"], False),
    ("20260107-203000", 12, Rules("advanced", redo_tokens=True), ["You", "Kenji", "Hana"], True),
    ("20260110-090000", 13, Rules(short_game=True), ["You", "Hana", "Kenji"], False),
    ("20260112-183000", 14, Rules(), ["You", "Hana", "Mika"], False),
    ("20260114-120000", 15, Rules("standard", redo_tokens=True), ["You", "Hana", "Kenji"], False),
]


@pytest.fixture(autouse=True)
def plotext_in_order(monkeypatch):
    """plotext drops duplicate ticks through a ``set`` of (position, label) pairs, so the order
    in which it places the labels, and where one that would collide ends up, follows Python's
    string hashing, which changes from run to run (PYTHONHASHSEED): a chart's label may move by
    a cell.  The snapshots keep the order the ticks were given in."""
    import plotext._utility

    monkeypatch.setattr(plotext._utility, "no_duplicates", lambda data: list(dict.fromkeys(data)))


@pytest.fixture(autouse=True)
def home(monkeypatch, tmp_path):
    """A home of its own for each test (nothing of its path is shown), with five games filed."""
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    games = _home() / "data" / "games"
    for stamp, seed, rules, players, assisted in GAMES:
        path = games / f"game-{stamp}.json"
        write_record(path, record_from_game(random_game(seed, rules)).model_copy(update={"players": players}))
        sidecar = {
            "format": "stepping-stones-session/1",
            "seed": f"s{seed}",
            "levels": [None, "random", "random"],
            "assisted": assisted,
        }
        path.with_suffix(".session.json").write_text(json.dumps(sidecar))
    with Library.open():
        pass  # built once here, so that the screens show no notice about building it
    return _home()


def _home() -> Path:
    """The test's home (the fixture above sets it)."""
    return Path(os.environ["STEPPING_STONES_HOME"])


async def _open(pilot, key: str) -> None:
    """Open a library screen from the start screen and let it read the library."""
    await _start_opening(pilot, key)
    await _settle(pilot)


async def _start_opening(pilot, key: str) -> None:
    await pilot.pause()
    assert isinstance(pilot.app.screen, SetupScreen)
    await press(pilot, key)
    await pilot.pause()


async def _settle(pilot) -> None:
    """Wait for the screen's worker (it reads the library in a thread), then for it to be shown."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_history_from_the_start_screen_opens_a_game_into_the_review():
    asyncio.run(_test_history_from_the_start_screen_opens_a_game_into_the_review())


async def _test_history_from_the_start_screen_opens_a_game_into_the_review():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert [e.played[:10] for e in screen.entries] == [
            "2026-01-14",
            "2026-01-12",
            "2026-01-10",
            "2026-01-07",
            "2026-01-05",
        ]
        text = widget_text(screen.query_one("#history-table"))
        assert "Mika" in text and "You" in text
        await press(pilot, "down", "enter")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.view.players == ("You", "Hana", "Mika")
        assert "2026-01-12 18:30" in widget_text(review.query_one("#review-top"))
        await press(pilot, "escape")
        await pilot.pause()
        assert app.screen is screen
        await press(pilot, "escape")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


def test_statistics_from_the_start_screen():
    asyncio.run(_test_statistics_from_the_start_screen())


async def _test_statistics_from_the_start_screen():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _open(pilot, "f3")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        stats = screen.stats
        assert stats is not None and stats.player == "You"  # seat 0 of the most recent game
        assert (stats.games, stats.assisted_games) == (4, 1)
        assert len(stats.trend) == 4
        summary = widget_text(screen.query_one("#stats-summary"))
        assert "4 finished games" in summary and "1 with a hint or an undo counted apart" in summary
        table = widget_text(screen.query_one("#stats-table"))
        assert "Win Tricks (Pick Trump)" in table
        await press(pilot, "a")
        await _settle(pilot)
        assert screen.stats is not None and screen.stats.games == 5
        await press(pilot, "p")
        await _settle(pilot)
        assert screen.player != "You" and screen.stats is not None and screen.stats.player == screen.player
        await press(pilot, "escape")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


def test_the_palette_offers_history_and_statistics():
    asyncio.run(_test_the_palette_offers_history_and_statistics())


async def _test_the_palette_offers_history_and_statistics():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Game history" in titles and "Statistics" in titles
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Statistics")
        command.callback()
        await _settle(pilot)
        assert isinstance(app.screen, StatsScreen)


def test_an_empty_library_says_so():
    asyncio.run(_test_an_empty_library_says_so())


async def _test_an_empty_library_says_so():
    shutil.rmtree(_home() / "data" / "games")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, "f3")
        assert "No game in the library yet" in widget_text(app.screen.query_one("#stats-summary"))
        await press(pilot, "escape", "f2")
        await _settle(pilot)
        assert "No game in the library yet" in widget_text(app.screen.query_one("#history-title"))


def test_short_names():
    assert short_name("win-no-trump") == "Win NT" and short_name("must-beat") == "Must Beat"
    assert short_name("win-pick-trump") == "Win PT"  # as on the sheet (issue 35: "Win T")


@pytest.mark.parametrize("size", SIZES)
def test_history_screen(snap_compare, size):
    async def before(pilot):
        await _open(pilot, "f2")

    assert snap_compare(make_app(), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES)
def test_statistics_screen(snap_compare, size):
    async def before(pilot):
        await _open(pilot, "f3")

    assert snap_compare(make_app(), terminal_size=size, run_before=before)


# --- a damaged library, a busy one (issue 16, items 8 and 10) ----------------------------------


def test_wrong_rows_are_put_right_and_the_screens_show_the_games():
    asyncio.run(_test_wrong_rows_are_put_right_and_the_screens_show_the_games())


async def _test_wrong_rows_are_put_right_and_the_screens_show_the_games():
    with sqlite3.connect(_home() / "data" / "library.sqlite3") as conn:
        conn.execute("UPDATE games SET rules = 'not json' WHERE rowid = 1")
        conn.execute("UPDATE seats SET total = 'x' WHERE rowid = 5")
    conn.close()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, HistoryScreen) and screen.problem is None
        assert len(screen.entries) == 5
        [notice] = screen.notices
        assert notice.startswith("The game library had 2 wrong entries (games row 1 (game-")
        await press(pilot, "escape", "f3")
        await _settle(pilot)
        stats = app.screen
        assert isinstance(stats, StatsScreen) and stats.problem is None
        assert stats.stats is not None and stats.stats.games == 4


def _hold_the_library(*, new_game: bool) -> sqlite3.Connection:
    """Another copy's write transaction on the library; with a new record in games/, opening the
    library must write (to index it), so it waits for that copy."""
    if new_game:
        write_record(
            _home() / "data" / "games" / "game-20260120-100000.json",
            record_from_game(random_game(16)).model_copy(update={"players": ["You", "Hana", "Kenji"]}),
        )
    holder = sqlite3.connect(_home() / "data" / "library.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_busy_library_leaves_the_app_answering_and_escape_stops_the_wait(monkeypatch):
    asyncio.run(_test_a_busy_library_leaves_the_app_answering_and_escape_stops_the_wait(monkeypatch))


async def _test_a_busy_library_leaves_the_app_answering_and_escape_stops_the_wait(monkeypatch):
    waiting, ended = threading.Event(), threading.Event()
    outcomes: list[str] = []
    real_open = Library.open

    def watched_open(cls, *args, patience: Patience | None = None, **kwargs):
        """The real Library.open, noting when its wait begins and how it ends."""
        assert patience is not None and patience.on_wait is not None
        told = patience.on_wait

        def on_wait() -> None:
            told()
            waiting.set()

        patience.on_wait = on_wait
        try:
            library = real_open(*args, patience=patience, **kwargs)
        except BaseException as exc:
            outcomes.append(type(exc).__name__)
            raise
        else:
            outcomes.append("opened")
        finally:
            ended.set()
        return library

    monkeypatch.setattr(Library, "open", classmethod(watched_open))
    holder = _hold_the_library(new_game=True)
    try:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await _start_opening(pilot, "f2")
            screen = app.screen
            assert isinstance(screen, HistoryScreen)
            assert "Waiting for the game library" in widget_text(screen.query_one("#history-title"))
            assert await asyncio.to_thread(waiting.wait, 60)  # the worker waits for the other copy
            await pilot.pause()
            assert "another copy of Stepping Stones is writing to it" in widget_text(screen.query_one("#history-title"))
            # the app answers keys while the library waits: Escape goes back, and stops the wait
            await press(pilot, "escape")
            assert isinstance(app.screen, SetupScreen)
            assert await asyncio.to_thread(ended.wait, 60)
            assert outcomes == ["LibraryCancelled"]  # not given up after BUSY_SECONDS: stopped
            holder.execute("ROLLBACK")
            await _open(pilot, "f2")
            assert isinstance(app.screen, HistoryScreen) and len(app.screen.entries) == 6
            assert outcomes == ["LibraryCancelled", "opened"]
    finally:
        holder.close()


@pytest.mark.parametrize("key", ["f2", "f3"])
def test_a_wait_that_gives_up_says_so(monkeypatch, key):
    asyncio.run(_test_a_wait_that_gives_up_says_so(monkeypatch, key))


async def _test_a_wait_that_gives_up_says_so(monkeypatch, key):
    monkeypatch.setattr(library_module, "BUSY_SECONDS", 0.0)  # give up at the first busy answer
    holder = _hold_the_library(new_game=True)
    try:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await _open(pilot, key)
            where = "#history-title" if key == "f2" else "#stats-summary"
            text = widget_text(app.screen.query_one(where))
            assert (
                "Gave up waiting for the game library after 0 s: another copy of Stepping Stones kept it "
                "busy; try again in a moment."
            ) in " ".join(text.split())
            assert app.screen.problem is not None
            await press(pilot, "escape")
            assert isinstance(app.screen, SetupScreen)
    finally:
        holder.close()


def _screen_text(app) -> str:
    """Every character on the screen, as the terminal would show it (the screenshot's text)."""
    import html
    import re

    svg = app.export_screenshot()
    body = svg[svg.index('<g class="terminal') :] if '<g class="terminal' in svg else svg
    return "".join(html.unescape(t) for t in re.findall(r"<text [^>]*>(.*?)</text>", body)).replace("\xa0", " ")


def _not_ascii(app) -> list[str]:
    return sorted({ch for ch in _screen_text(app) if ord(ch) >= 128})


def test_ascii_mode_is_ascii_on_every_screen():
    """Issue 35, item 7: scrollbars, the command palette, F3's charts and the setup screen's key
    line drew block, braille and box characters, arrows and an ellipsis in ASCII mode."""
    asyncio.run(_test_ascii_mode_is_ascii_on_every_screen())


async def _test_ascii_mode_is_ascii_on_every_screen():
    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.dialogs import HandSummaryScreen
    from stepping_stones.tui.table import TableScreen
    from tui_support import play_until

    app = make_app(settings=Settings(pace="instant", colour="colour", trick_pause=False))
    seen: dict[str, list[str]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # ASCII chosen on the setup screen itself, not at the start
        app.screen.query_one("#ascii").focus()
        await press(pilot, "right")
        await pilot.pause()
        assert app.settings.ascii
        seen["setup"] = _not_ascii(app)
        await press(pilot, "ctrl+p")
        await pilot.pause()
        await press(pilot, "a", "s")
        await pilot.pause()
        seen["palette"] = _not_ascii(app)
        await press(pilot, "escape")
        await pilot.pause()
        await _open(pilot, "f3")
        seen["statistics"] = _not_ascii(app)
        await press(pilot, "escape")
        await _open(pilot, "f2")
        seen["history"] = _not_ascii(app)
        await press(pilot, "enter")
        await pilot.pause()
        seen["review"] = _not_ascii(app)
        await press(pilot, "escape")
        await pilot.pause()
        await press(pilot, "escape")
        await pilot.pause()
        await press(pilot, "f1")
        await pilot.pause()
        seen["rules"] = _not_ascii(app)
        await press(pilot, "escape")
        await pilot.pause()
        await press(pilot, "enter")
        await play_until(
            pilot,
            lambda app, s: (
                isinstance(s, TableScreen)
                and app.screen.flow.game.phase.value == "play"
                and len(app.screen.flow.game.log[-1].plays) > 3
            ),
        )
        seen["table"] = _not_ascii(app)
        for key, name in (("o", "cards out"), ("h", "tricks"), ("t", "last trick")):
            await press(pilot, key)
            await pilot.pause()
            seen[name] = _not_ascii(app)
            await press(pilot, "escape")
            await pilot.pause()
        await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
        await pilot.pause()
        seen["summary"] = _not_ascii(app)
        await press(pilot, "d")
        await pilot.pause()
        seen["deal"] = _not_ascii(app)
    bad = {name: chars for name, chars in seen.items() if chars}
    assert not bad, repr(bad)


def test_ascii_chosen_from_the_palette_reaches_the_setup_screen():
    """Issue 35, item 7: the setup screen kept its arrows (and its Symbols choice said "suit
    symbols") when ASCII was switched on from the command palette."""
    asyncio.run(_test_ascii_chosen_from_the_palette_reaches_the_setup_screen())


async def _test_ascii_chosen_from_the_palette_reaches_the_setup_screen():
    from stepping_stones.storage.settings import Settings

    app = make_app(settings=Settings(pace="instant", colour="colour", trick_pause=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one("#contract_set").focus()  # its keys are arrows
        await pilot.pause()
        assert "←" in widget_text(app.screen.query_one("#setup-keys"))
        app.action_toggle_ascii()
        await pilot.pause()
        assert app.screen.query_one("#ascii").value == "yes"
        assert _not_ascii(app) == []


def test_the_palettes_keys_box_is_ascii_leaves_the_screen_whole_and_closes_with_escape():
    """Issue 43, item 6: the palette's Keys panel (Textual's) drew a block character in ASCII
    mode, squeezed the setup screen into the columns beside it, and stayed on Escape."""
    asyncio.run(_test_the_palettes_keys_box())


async def _test_the_palettes_keys_box():
    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.dialogs import KeysScreen

    app = make_app(settings=Settings(pace="instant", colour="colour", trick_pause=False, ascii=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = app.screen
        columns = setup.query_one("#setup-columns").region
        await press(pilot, "ctrl+p")
        await pilot.pause()
        await press(pilot, *"keys", "enter")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen)
        shown = widget_text(app.screen.query_one("#keys-text"))
        assert "Start game" in shown and "Rules" in shown and "f1" in shown, shown
        assert _not_ascii(app) == []
        assert setup.query_one("#setup-columns").region == columns  # nothing beside it
        assert not setup.query("HelpPanel")
        await press(pilot, "escape")
        await pilot.pause()
        assert app.screen is setup


def test_the_help_names_every_key_at_the_table():
    """Issue 43, item 6: the help's "Keys at the table" left out i (the hint) and d (the deal)."""
    from rich.console import Console

    from stepping_stones.tui.dialogs import help_text
    from stepping_stones.tui.render import Look

    console = Console(width=200, record=True)
    console.print(help_text(Rules(), Look(False)))
    keys = console.export_text().split("Keys at the table", 1)[1]
    flat = " ".join(keys.split())
    for key, what in (("i", "gives a hint"), ("d", "shows the deal"), ("c", "claims the rest"), ("u", "takes back")):
        assert re.search(rf"(^|[.;] ){key}(, [^,]*,)? {what}", flat), key


@pytest.mark.parametrize("ascii_only", [False, True])
def test_the_contract_chart_tells_you_from_the_others_without_colour(monkeypatch, ascii_only):
    """Issue 43, item 9: the bars of "you" and "others" had the same glyph, told apart by colour
    alone (under NO_COLOR two greys, 243 and 250)."""
    monkeypatch.setenv("NO_COLOR", "1")
    asyncio.run(_test_the_contract_chart(ascii_only))


async def _test_the_contract_chart(ascii_only: bool):
    from stepping_stones.storage.settings import Settings

    app = make_app(settings=Settings(pace="instant", trick_pause=False, ascii=ascii_only))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, "f3")
        lines = widget_text(app.screen.query_one("#stats-contracts")).splitlines()
        legend = {}
        for who in ("you", "others"):
            line = next(line for line in lines if line.rstrip().endswith(f" {who}") or f" {who} " in line)
            before = line[: line.index(f" {who}")].rstrip()
            legend[who] = before[-1]
        assert legend["you"] != legend["others"], legend
        bars = "\n".join(lines[3:])  # below the legend
        assert legend["you"] in bars and legend["others"] in bars


def test_the_history_keeps_the_assisted_mark_at_80_columns():
    """Issue 43, item 9: at 80 columns the history's last column, Help, was out of sight, and
    with it the mark of the assisted games."""
    asyncio.run(_test_the_history_keeps_the_assisted_mark())


async def _test_the_history_keeps_the_assisted_mark():
    from tui_support import screen_rows

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, "f2")
        rows = screen_rows(app)
        marked = [row for row in rows if "2026-01-07 20:30*" in row]
        assert marked and "advanced" in marked[0], rows
        assert not any("2026-01-05 10:15*" in row for row in rows)
        assert any("* after the date: a hint or an undo was used" in row for row in rows), rows
